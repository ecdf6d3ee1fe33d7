"""``capsa settle`` with Parquet on either side, or with an output file
(``-o``): a Parquet input settled a batch at a time, results written as a
Parquet results table or JSON Lines; JSON input written to a file, or
turned into a results table.

Every output path is checked before any work (no folder is created), and a
failure to write it (a full disk) is one line naming it.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime
import json
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any

from capsa.cli.common import UsageError, check_writable, load_rules, open_output
from capsa.cli.settle_stream import Tally, finish, settle_stream
from capsa.json_faults import utf8_text
from capsa.records.times import moment_ms
from capsa.rules import Rules

__all__ = ["handles", "run"]

_PARQUET_SUFFIXES = (".parquet", ".pq")


def _is_parquet_path(path: str | None) -> bool:
    if path in (None, "-"):
        return False
    assert path is not None
    p = Path(path)
    return p.suffix.lower() in _PARQUET_SUFFIXES or (
        p.is_dir() and any(q.suffix.lower() in _PARQUET_SUFFIXES for q in p.iterdir())
    )


def handles(args: argparse.Namespace) -> bool:
    """True when ``capsa settle`` reads or writes Parquet, or writes to a file."""
    return bool(
        args.format == "parquet" or _is_parquet_path(args.input) or getattr(args, "output", None)
    )


def _id_fault(value: Any) -> str | None:
    """Why a round's id has no JSON form (binary data, a number that is not
    finite), or None when it has one."""
    if isinstance(value, bytes | bytearray | memoryview):
        return "TableError: the id is binary data, which JSON cannot hold; ids are text or numbers"
    try:
        json.dumps(value, allow_nan=False, default=str)
    except ValueError:
        return f"TableError: the id {value!r} is not a finite number, which JSON cannot hold"
    return None


def _echoed(columns: dict[str, list[Any]], k: int, seats: int) -> dict[str, Any]:
    """The round's table, time and players as a result line carries them,
    when the results have them: ``table_id``, ``played_at`` (ISO 8601
    UTC) and ``players`` (a list over the round's seats)."""
    out: dict[str, Any] = {}
    if "table_id" in columns:
        out["table_id"] = columns["table_id"][k]
    if "played_at" in columns:
        out["played_at"] = _iso(columns["played_at"][k])
    names = [f"player{s}" for s in range(seats)]
    if any(name in columns for name in names):
        out["players"] = [columns[name][k] if name in columns else None for name in names]
    return out


def _iso(moment: Any) -> Any:
    """A timestamp of a results table as ISO 8601 UTC text (as
    ``capsa.records.times.played_at_text`` writes milliseconds)."""
    if isinstance(moment, datetime.datetime):
        if moment.tzinfo is None:
            moment = moment.replace(tzinfo=datetime.timezone.utc)
        text = moment.astimezone(datetime.timezone.utc).isoformat(timespec="milliseconds")
        return text.replace("+00:00", "Z")
    return moment


class _ResultsJsonLines:
    """Writes results tables as JSON Lines: one object per round, the
    results fields with each figure as a list over the seats. A round whose
    id has no JSON form is written as an error of that round (``refused``
    counts those that had settled)."""

    def __init__(self, out: IO[bytes]) -> None:
        self._out = out
        self.refused = 0

    def write_table(self, table: Any) -> None:
        columns = table.to_pydict()
        seats = sum(1 for name in columns if name.startswith("points"))
        for k in range(table.num_rows):
            n = columns["seats"][k]
            error = columns["error"][k]
            record: dict[str, Any] = {}
            if "id" in columns:
                record["id"] = columns["id"][k]
                fault = _id_fault(record["id"])
                if fault is not None:
                    record["id"] = None
                    self.refused += error is None
                    error = error or fault
            record.update(_echoed(columns, k, n))
            record["seats"] = n
            for figure in ("points", "money", "rake", "net"):
                values = [columns[f"{figure}{s}"][k] for s in range(seats)]
                record[figure] = None if error else values[:n]
            record["error"] = error
            line = json.dumps(record, sort_keys=True, allow_nan=False, default=str)
            self._out.write(line.encode() + b"\n")

    def close(self) -> None:
        self._out.flush()


class _NumberText(str):
    """A JSON number kept as the text it was written as (an id of any size
    or precision goes to the results table unchanged)."""


class _ParquetSink:
    """Takes the output records of the JSON stream (``write`` of JSON Lines
    bytes, or one document) and writes them as a results table."""

    def __init__(self, target: str, seats: int) -> None:
        from capsa.bulk.settle import ParquetResultsWriter

        self._target = target
        self._seats = seats
        self._writer = ParquetResultsWriter(target)
        #: whether the input is one JSON document (set by the stream)
        self.document = False
        #: rounds settled that the results table cannot hold (their id)
        self.refused = 0

    def write(self, data: bytes) -> int:
        text = data.decode("utf-8")
        if self.document:
            parsed = json.loads(text, parse_int=_NumberText, parse_float=_NumberText)
            records = parsed if isinstance(parsed, list) else [parsed]
        else:
            records = [
                json.loads(line, parse_int=_NumberText, parse_float=_NumberText)
                for line in text.splitlines()
                if line.strip()
            ]
        if records:
            table, refused = _records_table(records, self._seats)
            self._writer.write_table(table)
            self.refused += refused
        return len(data)

    def flush(self) -> None:
        pass

    def close(self) -> None:
        self._writer.close(_sink_schema(self._seats))


_SURROGATE_ID = "the id holds a lone surrogate, which Parquet text cannot hold"


def _sink_schema(seats: int) -> Any:
    """The results schema of JSON rounds written as Parquet: the id as
    text, the table, time and players of round records, ``seats`` seats."""
    import pyarrow as pa

    from capsa.bulk.settle import echoed_fields, results_schema

    return results_schema(seats, pa.string(), echoed=echoed_fields(seats))


def _too_wide(record: dict[str, Any], seats: int) -> dict[str, Any]:
    """The error record of a settled round of more seats than the results
    file holds."""
    return {
        "error": "TableError",
        "message": f"the Parquet results hold {seats} seats and this round has "
        f"{len(record['points'])}: write them with --seats {len(record['points'])}",
        "line": record.get("line"),
    }


def _records_table(records: list[dict[str, Any]], seats: int) -> tuple[Any, int]:
    """A results table (id as text, ``seats`` seat columns) of stream
    records, and how many settled rounds it holds as errors (an id it
    cannot hold, more seats than it has)."""
    import pyarrow as pa

    from capsa.bulk.columns import outcome_values
    from capsa.bulk.settle import ECHOED_COLUMNS, FIGURES, OUTCOMES

    def text(value: Any) -> str | None:
        if value is None:
            return None
        return str(value) if isinstance(value, str) else json.dumps(value)

    columns: dict[str, list[Any]] = {"id": [], "seats": [], "error": []}
    columns.update({name: [] for name in ECHOED_COLUMNS[: 2 + seats]})
    refused = 0
    for figure in (*FIGURES, *OUTCOMES):
        for s in range(seats):
            columns[f"{figure}{s}"] = []
    for record in records:
        given = text(record.get("id"))
        record_id = utf8_text(given)
        error = record.get("error")
        if given is not None and record_id is None and error is None:
            # an escape such as "\ud800" reads as a lone surrogate, which
            # Parquet text cannot hold: the round is refused, as one whose
            # id JSON cannot hold is on the way out
            record = {"error": "TableError", "message": _SURROGATE_ID, "line": None}
            error = record["error"]
            refused += 1
        elif error is None and len(record["points"]) > seats:
            record = _too_wide(record, seats)
            error = record["error"]
            refused += 1
        columns["id"].append(record_id)
        # a round record's result carries its table, time and players
        columns["table_id"].append(utf8_text(record.get("table_id")))
        columns["played_at"].append(moment_ms(record.get("played_at")))
        players = record.get("players") or []
        for s, name in enumerate(ECHOED_COLUMNS[2 : 2 + seats]):
            columns[name].append(utf8_text(players[s]) if s < len(players) else None)
        if error is not None:
            line = record.get("line")
            where = f"line {line}: " if line is not None else ""
            columns["error"].append(f"{error}: {where}{utf8_text(record.get('message'))}")
            columns["seats"].append(None)
        else:
            columns["error"].append(None)
            columns["seats"].append(len(record["points"]))
        for figure in FIGURES:
            values = [] if error is not None else [int(v) for v in record[figure]]
            for s in range(seats):
                columns[f"{figure}{s}"].append(values[s] if s < len(values) else None)
        # JSON rounds do not say whether the server arranged a seat
        outcomes = {} if error is not None else outcome_values(record)
        for name in OUTCOMES:
            values = outcomes.get(name, [])
            for s in range(seats):
                columns[f"{name}{s}"].append(values[s] if s < len(values) else None)
    schema = _sink_schema(seats)
    table = pa.table({f.name: pa.array(columns[f.name], f.type) for f in schema}, schema=schema)
    return table, refused


def _progress_bar(total: int | None, unit: str) -> Callable[[int], None] | None:
    """A tqdm bar on a terminal's standard error, else None."""
    if not sys.stderr.isatty():
        return None
    try:
        from tqdm import tqdm
    except ImportError:
        return None
    bar = tqdm(total=total, unit=unit, unit_scale=True, leave=False)
    return bar.update  # type: ignore[no-any-return]


@contextlib.contextmanager
def _writing_parquet(path: str) -> Any:
    """Turns a failure to write the Parquet file ``path`` into a ``UsageError``
    (a closed standard output is still the reader going away)."""
    import pyarrow as pa

    try:
        yield
    except BrokenPipeError:
        raise
    except (OSError, pa.ArrowException) as exc:
        reason = getattr(exc, "strerror", None) or str(exc)
        raise UsageError(f"cannot write {path}: {reason}") from None


def run(args: argparse.Namespace) -> int:
    """``capsa settle`` reading or writing Parquet, or writing to ``--output``."""
    default = load_rules(args.rules)
    parquet_in = args.format == "parquet" or _is_parquet_path(args.input)
    parquet_out = args.output is not None and Path(args.output).suffix.lower() in _PARQUET_SUFFIXES
    if parquet_in or parquet_out:
        try:
            import pyarrow  # noqa: F401
        except ImportError:
            raise UsageError("Parquet needs pyarrow: pip install 'capsa[parquet]'") from None
    if args.output is not None:
        check_writable(args.output)
    if parquet_in:
        return _settle_parquet_input(args, default, parquet_out)
    with contextlib.ExitStack() as stack:
        if not parquet_out:  # JSON in, JSON out, to a file
            out: Any = open_output(args.output, stack)
            tally = settle_stream(args, default, out)
            out.flush()
            return finish(tally, args.strict)
        stack.enter_context(_writing_parquet(args.output))
        sink = _ParquetSink(args.output, args.seats)
        stack.callback(sink.close)
        tally = settle_stream(args, default, sink)
    tally.add(0, sink.refused)
    return finish(tally, args.strict)


def _settle_parquet_input(args: argparse.Namespace, default: Rules, parquet_out: bool) -> int:
    import pyarrow as pa

    from capsa.bulk import settle as bulk

    if args.input in (None, "-"):
        raise UsageError("Parquet rounds are read from a file or a directory, not standard input")
    if not os.path.exists(args.input):
        raise UsageError(f"cannot read {args.input}: no such file or directory")
    known = bulk.default_known_rules(default)
    with contextlib.ExitStack() as stack:
        if parquet_out:
            stack.enter_context(_writing_parquet(args.output))
            writer: Any = bulk.ParquetResultsWriter(args.output)
        else:
            out = open_output(args.output, stack) if args.output else sys.stdout.buffer
            writer = _ResultsJsonLines(out)
        stack.callback(writer.close)
        rounds = failed = 0
        bar = _progress_bar(_rows(args.input), "round")
        for batch in _input_batches(args.input):
            try:
                result = bulk.settle_table(batch, default, known=known)
            except (TypeError, pa.ArrowException) as exc:
                raise UsageError(f"cannot settle {args.input}: {exc}") from None
            writer.write_table(result)
            rounds += result.num_rows
            failed += result.num_rows - result.column("error").null_count
            if bar is not None:
                bar(result.num_rows)
    tally = Tally()
    tally.add(rounds, failed + getattr(writer, "refused", 0))
    return finish(tally, args.strict)


def _input_batches(source: str) -> Any:
    """The batches of the Parquet input; a file that cannot be read is a
    ``UsageError`` naming it."""
    import pyarrow as pa

    from capsa.bulk import settle as bulk

    batches = bulk.record_batches(bulk.parquet_files(source), bulk.DEFAULT_BATCH_ROWS)
    while True:
        try:
            batch = next(batches)
        except StopIteration:
            return
        except (TypeError, pa.ArrowException, OSError) as exc:
            raise UsageError(f"cannot settle {source}: {exc}") from None
        yield batch


def _rows(source: str) -> int | None:
    import pyarrow.parquet as pq

    from capsa.bulk import settle as bulk

    try:
        return sum(int(pq.ParquetFile(f).metadata.num_rows) for f in bulk.parquet_files(source))
    except Exception:  # a count for the progress bar only
        return None
