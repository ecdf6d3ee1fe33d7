"""Round records as rounds, for analytics.

A round record (``docs/records.md``) holds a round's inputs in full: its
rules, stakes and each seat's arrangement and decisions. This module turns
records into the rounds that ``capsa settle`` and :mod:`capsa.bulk` read:

* :func:`read_record_round` reads and **replays** one record (its digest,
  rules digest, deal, arrangements and settlement recomputed from its
  inputs, as :func:`capsa.records.read`; the chain link is not checked,
  so a log of many tables reads in any order) and gives it as a round;
* :func:`to_parquet` writes a record log (JSON Lines) as a Parquet rounds
  table (``docs/bulk.md``) in bounded memory, a row group of
  ``DEFAULT_BATCH_RECORDS`` rounds at a time (:mod:`capsa.bulk.record_rows`
  reads them), with each seat's outcome as the record's settlement gives
  it, the record's ids, its table, time and players
  (:func:`records_table`: the same table in memory). A record that cannot
  be read or does not replay is reported and the others go on. A void
  record (a round never played, ``docs/records.md``, "Void records") has
  no seats to be a row: its digest is checked, it is left out and counted
  (``on_void``), never an error.

A record's rules are named in the rounds by :func:`rules_name`; a Parquet
file written here carries the rules in full in its metadata
(``RULES_METADATA_KEY``), which :func:`rules_of_metadata` reads back (the
Parquet readers of :mod:`capsa.bulk`, ``capsa settle`` and
:mod:`capsa.dask` use them).
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import IO, Any

from capsa import _core
from capsa.bulk.columns import DEFAULT_SEATS, ECHOED_COLUMNS, pyarrow_module
from capsa.bulk.record_rows import (
    OnError,
    OnVoid,
    batch_table,
    one_stake,
    read_batch,
    record_rules,
    records_schema,
)
from capsa.json_faults import json_fault, utf8_text
from capsa.records.read import RecordError, read_record, replay_view
from capsa.records.times import played_at_text
from capsa.rules import Rules, RulesError, presets
from capsa.rules.known import differing_knobs, rules_key, rules_name

__all__ = [
    "RECORD_ID_COLUMNS",
    "RULES_METADATA_KEY",
    "OnError",
    "OnVoid",
    "RecordRound",
    "parquet_rules",
    "read_record_round",
    "record_data",
    "records_schema",
    "records_table",
    "round_id_of",
    "rules_key",
    "rules_name",
    "rules_of_metadata",
    "to_parquet",
]

#: The record's own ids and time, after the rounds and outcome columns: its
#: round id and digest, its table id (null for a table without one, and for
#: format 1), when it was played (``meta.played_at`` as a UTC timestamp in
#: milliseconds; null without one), then each seat's player id (``player0``
#: ..; format 1 names seat k's player ``seat-k``, as the ledger books it;
#: null for a seat the table does not have).
RECORD_ID_COLUMNS = ("round_id", "digest", *ECHOED_COLUMNS)
#: The Parquet metadata key holding the rules the ``rules`` column names:
#: a JSON object from each name to the rules as ``Rules.to_dict()`` writes them.
RULES_METADATA_KEY = b"capsa.rules"
#: Records written to Parquet per row group (the last fewer): Dask reads
#: the row groups of a file as tasks of their own.
DEFAULT_BATCH_RECORDS = 8_192
# Bytes of a log read at a time: many records, and more than one may be.
_BLOCK_BYTES = 1 << 22
# Records read at a time: memory holds their texts and what the engine read
# of them (about 10 KB a record), never the whole log.
_READ_RECORDS = 1_024

# what a record line holds and a round line never does (a cheap first test)
_RECORD_MARK = b'"capsa-round-record"'


def record_data(line: bytes) -> dict[str, Any] | None:
    """The round record a JSON Lines line holds (its ``format`` is
    ``"capsa-round-record"``), parsed, or None for a line that holds none
    (a round to settle, or a line that is not JSON)."""
    if _RECORD_MARK not in line:
        return None
    try:
        data = json.loads(line)
    except (ValueError, RecursionError):
        return None
    if isinstance(data, dict) and data.get("format") == _core.RECORD_FORMAT:
        return data
    return None


@dataclass(frozen=True)
class RecordRound:
    """A record, replayed, as a round: ``data`` is the record as parsed
    JSON, ``rules`` its rules compiled, ``rules_name`` their name in rounds."""

    round_id: str
    digest: str
    table_id: str | None
    players: tuple[str, ...]
    data: dict[str, Any]
    rules: Rules
    rules_name: str

    def seats(self) -> list[dict[str, Any]]:
        """Each seat as ``capsa settle`` reads it: rows and decisions."""
        out = []
        for seat in self.data["seats"]:
            top, middle, bottom = seat["arrangement"].split(" / ")
            out.append(
                {
                    "top": top,
                    "middle": middle,
                    "bottom": bottom,
                    "surrender": seat["surrender"],
                    "declare_natural": seat["declare_natural"],
                }
            )
        return out

    def settle_round(self) -> dict[str, Any]:
        """The round as one ``capsa settle`` line holds it, its rules named
        by :func:`rules_key` (a name no ``--rules`` file takes from them)."""
        return {
            "id": self.round_id,
            "rules": rules_key(self.rules),
            "stakes": self.data["stakes"],
            "seats": self.seats(),
        }

    def stake(self) -> int:
        """The one stake every pair plays (the rounds schema's ``stakes``);
        ``TableError`` for a matrix of different stakes."""
        return one_stake(self.data["stakes"])

    def echoed(self) -> dict[str, Any]:
        """What ``capsa settle`` adds to the record's result: its
        ``table_id``, its seats' ``players`` (their ids) and ``played_at``
        (``meta.played_at`` as written, an integer as ISO 8601 UTC), each
        null when the record has none."""
        return {
            "played_at": played_at_text(self.data.get("meta")),
            "players": list(self.players),
            "table_id": self.table_id,
        }


def read_record_round(text: str | bytes, data: dict[str, Any] | None = None) -> RecordRound:
    """Reads and replays one round record (``data``: its text already
    parsed). Raises ``RecordError`` for a record that cannot be read (and
    for a void record, which holds no round), ``ReplayError`` for one that
    does not replay."""
    view = read_record(text)
    if isinstance(view, _core.VoidView):
        raise RecordError(
            f"record {view.round_id!r} is a void record: a round never played holds no round",
            "format",
        )
    return _record_round(view, text, data)


def _record_round(
    view: _core.RecordView, text: str | bytes, data: dict[str, Any] | None
) -> RecordRound:
    """The round record read as ``view``, replayed, as a round."""
    digest = replay_view(view)
    rules, name = record_rules(view.rules_json)
    return RecordRound(
        round_id=view.round_id,
        digest=digest,
        table_id=view.table_id,
        players=tuple(player for player, _ in view.players),
        data=json.loads(text) if data is None else data,
        rules=rules,
        rules_name=name,
    )


# ---------------------------------------------------------------- record logs


def _stream_lines(stream: IO[bytes]) -> Iterator[bytes | int]:
    """Every line of a byte stream without its line feed, read a block at
    a time; a line longer than a record may be is given as its length, and
    skipped without being held whole (only the block it is in)."""
    limit = _core.MAX_LINE_BYTES
    read = getattr(stream, "read1", None) or stream.read
    rest = b""
    skipped = -1  # the bytes of a line too long skipped so far, when >= 0
    while block := read(_BLOCK_BYTES):
        if skipped >= 0:
            cut = block.find(b"\n")
            if cut < 0:
                skipped += len(block)
                continue
            yield skipped + cut
            skipped, block = -1, block[cut + 1 :]
        lines = (rest + block if rest else block).split(b"\n")
        rest = lines.pop()
        for line in lines:
            yield len(line) if len(line) > limit else line
        if len(rest) > limit:
            skipped, rest = len(rest), b""
    if skipped >= 0:
        yield skipped
    elif rest:
        yield rest


def _log_lines(
    source: str | os.PathLike[str] | IO[bytes] | Iterable[str | bytes],
    stack: contextlib.ExitStack[Any],
) -> Iterator[str | bytes | int]:
    """The lines of a record log: a path's or a binary file's (bytes, or
    the length of a line too long), or the texts given (str or bytes)."""
    if isinstance(source, str | os.PathLike):
        return _stream_lines(stack.enter_context(open(source, "rb")))
    if hasattr(source, "readline"):
        return _stream_lines(source)  # type: ignore[arg-type]
    return (line if isinstance(line, str | bytes) else bytes(line) for line in source)


def _record_batches(
    source: str | os.PathLike[str] | IO[bytes] | Iterable[str | bytes],
    on_error: OnError | None,
    batch_records: int,
    rules: dict[str, Rules],
    tally: list[int],
    on_void: OnVoid | None = None,
    seats: int = DEFAULT_SEATS,
) -> Iterator[Any]:
    """The rounds tables of ``seats`` seats of a record log,
    ``batch_records`` rows each (the last fewer); the rules met go into
    ``rules`` by name, the failed records are counted in ``tally[0]``, the
    void records left out in ``tally[1]``
    (each handed to ``on_void``). The records are read ``_READ_RECORDS`` at
    a time, so memory holds that many texts and the rows of one table."""
    if isinstance(batch_records, bool) or not isinstance(batch_records, int):
        raise TypeError("batch_records must be an int")
    if batch_records < 1:
        raise _core.ArgumentError(f"batch_records must be >= 1, got {batch_records}")
    pa = pyarrow_module()

    def failed(number: int, line: str | bytes | int, round_id: str | None, exc: Any) -> None:
        tally[0] += 1
        if on_error is not None:
            on_error(number, round_id if round_id is not None else round_id_of(line), exc)

    def voided(number: int, round_id: str) -> None:
        tally[1] += 1
        if on_void is not None:
            on_void(number, round_id)

    held: list[Any] = []  # tables of rows not yet given, fewer than batch_records rows
    rows = 0
    for lines in _line_batches(source, min(batch_records, _READ_RECORDS)):
        table = batch_table(lines, read_batch(lines, seats), failed, rules, voided, seats)
        held.append(table)
        rows += table.num_rows
        while rows >= batch_records:
            whole = pa.concat_tables(held)
            yield whole.slice(0, batch_records)
            held, rows = [whole.slice(batch_records)], rows - batch_records
    if rows:
        yield pa.concat_tables(held)


def _line_batches(
    source: str | os.PathLike[str] | IO[bytes] | Iterable[str | bytes], size: int
) -> Iterator[list[tuple[int, str | bytes | int]]]:
    """The log's lines that are not blank, ``size`` at a time, each with
    its line number (a line too long as its length)."""
    batch: list[tuple[int, str | bytes | int]] = []
    with contextlib.ExitStack() as stack:
        for number, line in enumerate(_log_lines(source, stack), start=1):
            if isinstance(line, int) or not _is_blank(line):
                batch.append((number, line))
                if len(batch) == size:
                    yield batch
                    batch = []
    if batch:
        yield batch


def _rules_metadata(rules: Mapping[str, Rules]) -> dict[bytes, bytes]:
    data = {name: value.to_dict() for name, value in rules.items()}
    return {RULES_METADATA_KEY: json.dumps(data, ensure_ascii=False, sort_keys=True).encode()}


def to_parquet(
    source: str | os.PathLike[str] | IO[bytes] | Iterable[str | bytes],
    target: str | os.PathLike[str],
    *,
    on_error: OnError | None = None,
    batch_records: int = DEFAULT_BATCH_RECORDS,
    compression: str = "snappy",
    on_void: OnVoid | None = None,
    seats: int = DEFAULT_SEATS,
) -> tuple[int, int]:
    """Writes a record log as a Parquet rounds table (:func:`records_schema`
    of ``seats`` seats: 4 unless told, up to 8 for the tables of larger
    decks; a record of more seats than that fails with a ``TableError``).

    ``source`` is a path, a binary file, or an iterable of lines (``str`` or
    ``bytes``, one record each; blank lines give nothing). Every record is
    read and replayed; one that fails is handed to ``on_error`` (its line,
    its round id or None, the ``RecordError``, ``ReplayError`` or
    ``TableError``) and the others go on. A void record, whose digest
    checks, has no seats to be a row: it is handed to ``on_void`` (its line
    and round id) and left out, neither written nor failed. The file is
    written a row group of ``batch_records`` rows at a time (the last
    fewer), so that Dask reads it in parallel; memory holds 1,024 records'
    texts and one row group's rows, whatever the length of the log. Returns
    (records written, records failed). Raises ``TypeError`` for a
    ``batch_records`` that is not an int, ``ArgumentError`` for one below 1,
    and what opening, reading or writing the files raises (``OSError``,
    ``pyarrow.ArrowException``).
    """
    import pyarrow.parquet as pq

    rules: dict[str, Rules] = {}
    tally = [0, 0]
    written = 0
    schema = records_schema(seats)
    with pq.ParquetWriter(target, schema, compression=compression) as writer:
        batches = _record_batches(source, on_error, batch_records, rules, tally, on_void, seats)
        for table in batches:
            writer.write_table(table)
            written += table.num_rows
        # the footer is written at the close: the rules met on the way
        writer.add_key_value_metadata(_rules_metadata(rules))
    return written, tally[0]


def records_table(
    source: str | os.PathLike[str] | IO[bytes] | Iterable[str | bytes],
    *,
    on_error: OnError | None = None,
    on_void: OnVoid | None = None,
    seats: int = DEFAULT_SEATS,
) -> Any:
    """A record log as one in-memory rounds table (:func:`records_schema`
    of ``seats`` seats, the rules in its schema's metadata), for
    :func:`capsa.bulk.settle_table`; records fail, and void records are
    left out, as in :func:`to_parquet`. For a log larger than memory,
    :func:`to_parquet`, then :func:`capsa.bulk.settle_parquet`."""
    pa = pyarrow_module()
    schema = records_schema(seats)
    rules: dict[str, Rules] = {}
    batches = _record_batches(
        source, on_error, DEFAULT_BATCH_RECORDS, rules, [0, 0], on_void, seats
    )
    tables = list(batches)
    table = pa.concat_tables(tables) if tables else schema.empty_table()
    return table.replace_schema_metadata(_rules_metadata(rules))


def _is_blank(line: str | bytes) -> bool:
    if isinstance(line, str):
        return not line.removeprefix("\ufeff").strip(" \t\r\n")
    return not line.removeprefix(b"\xef\xbb\xbf").strip(b" \t\r\n")


def round_id_of(line: str | bytes | int) -> str | None:
    """The round id a record's line names (of a record that failed to
    read), or None."""
    if isinstance(line, int):
        return None
    try:
        data = json.loads(line)
    except (ValueError, RecursionError):
        return None
    return utf8_text(data.get("round_id")) if isinstance(data, dict) else None


def parquet_rules(path: str | os.PathLike[str]) -> dict[str, Rules]:
    """The rules a Parquet file written by :func:`to_parquet` carries in its
    footer, by name: ``known`` for :func:`capsa.bulk.settle_table` of a
    table read another way than by batches (``pyarrow.parquet.read_table``
    or a pandas or Dask frame, which drop the footer's notes). Raises
    ``RulesError`` as :func:`rules_of_metadata` does, and what pyarrow
    raises for a file it cannot read."""
    import pyarrow.parquet as pq

    return rules_of_metadata(pq.read_metadata(path).metadata)


_FOOTER = f"the Parquet metadata {RULES_METADATA_KEY.decode()}"


def rules_of_metadata(metadata: Mapping[bytes, bytes] | None) -> dict[str, Rules]:
    """The rules a Parquet file written by :func:`to_parquet` names, by name
    (none for another file).

    The footer is data, so it is read as :func:`to_parquet` writes it or
    refused: a JSON object from each name to the rules in full
    (``Rules.from_dict(..., full=True)``), each name the one
    :func:`rules_name` gives those rules: a preset's name only for that
    preset exactly, any other name :func:`rules_key` of its rules (their
    name and digest). So a footer never redefines a preset, and a name in
    it never means other rules than it says.

    Raises ``RulesError`` naming the fault (text that is not such a JSON
    object, rules not in full or not valid, a name its rules do not have).
    """
    if not metadata or RULES_METADATA_KEY not in metadata:
        return {}
    try:
        data = json.loads(metadata[RULES_METADATA_KEY])
    except (ValueError, RecursionError) as exc:
        raise RulesError(f"{_FOOTER} is not JSON: {json_fault(exc)}") from None
    if not isinstance(data, dict):
        raise RulesError(f"{_FOOTER} must be a JSON object of rules by name")
    found: dict[str, Rules] = {}
    for name, value in data.items():
        if not isinstance(value, dict):
            raise RulesError(f"{_FOOTER}: {name!r} must be the rules as a JSON object")
        try:
            rules = Rules.from_dict(value, full=True)
        except RulesError as exc:
            raise RulesError(f"{_FOOTER}: {name!r}: {exc}") from None
        found[name] = _named_as_written(name, rules)
    return found


def _named_as_written(name: str, rules: Rules) -> Rules:
    """``rules`` when ``name`` is the name :func:`rules_name` gives them;
    else ``RulesError``: a footer that names a preset or a digest for
    other rules."""
    if name in presets():
        preset = Rules.preset(name)
        if rules != preset:
            raise RulesError(
                f"{_FOOTER} redefines the preset {name!r} ({differing_knobs(rules, preset)}); "
                "a preset's name means the preset"
            )
        return rules
    if name != rules_key(rules):
        raise RulesError(
            f"{_FOOTER} names rules {name!r} that are not those rules: their name is "
            f"{rules_key(rules)!r} (the rules' name and the start of their SHA-256)"
        )
    return rules
