"""A batch of round records as the rows of a rounds table
(:func:`capsa.bulk.record_tables.records_schema`), read in bounded memory.

The texts of a batch are read on every core without the GIL
(:func:`capsa.records.read_records`), each record replayed, and its row
taken from what the engine read (its seats as played, stakes, ids and
``meta.played_at``), never by parsing its text again in Python. The
outcome columns are the batch's rounds settled by the bulk kernel
(``capsa._core.settle_rounds``): the replay has checked that settling a
record's inputs gives its recorded settlement, so they are the recorded
outcomes.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from capsa import _core
from capsa._core import TableError
from capsa.bulk.columns import (
    AUTO_COLUMNS,
    BANKER_COLUMN,
    CARD_COLUMNS,
    DECLARE_COLUMNS,
    DEFAULT_SEATS,
    KERNEL_OUTCOMES,
    MULTIPLIER_COLUMNS,
    PLAYER_COLUMNS,
    SURRENDER_COLUMNS,
    echoed_fields,
    outcome_arrays,
    outcome_fields,
    pyarrow_module,
    rounds_schema,
)
from capsa.records.read import RecordError, ReplayError, View, read_records, replay_view
from capsa.records.times import moment_ms
from capsa.rules import Rules
from capsa.rules.known import rules_name

if TYPE_CHECKING:  # numpy is imported where a table is made: reading records needs none
    import numpy as np
    import numpy.typing as npt

__all__ = [
    "Batch",
    "OnError",
    "OnVoid",
    "Read",
    "RecordFailure",
    "batch_table",
    "one_stake",
    "read_batch",
    "record_rules",
    "records_schema",
]

OnError = Callable[[int, "str | None", "RecordError | ReplayError | TableError"], None]
OnVoid = Callable[[int, str], None]
"""Called with the line and round id of each void record left out."""
RecordFailure = RecordError | ReplayError | TableError

# the timestamps a played_at column holds: Arrow's milliseconds are 64-bit
_INT64_MIN, _INT64_MAX = -(2**63), 2**63 - 1


def records_schema(seats: int = DEFAULT_SEATS) -> Any:
    """The schema of a table of round records of up to ``seats`` seats (2
    to 8, default 4): the rounds schema (``id`` the record's round id), a
    banker game's ``banker`` and ``multiplier0`` .. (null outside one), the
    outcome columns, then the record's ``round_id`` and ``digest`` and its
    ``table_id``, ``played_at`` and ``player0`` .. (``echoed_fields``)."""
    pa = pyarrow_module()
    fields = [*rounds_schema(seats), pa.field(BANKER_COLUMN, pa.int8())]
    fields += [pa.field(name, pa.int64()) for name in MULTIPLIER_COLUMNS[:seats]]
    fields += outcome_fields(seats)
    fields += [pa.field("round_id", pa.string()), pa.field("digest", pa.string())]
    fields += echoed_fields(seats)
    return pa.schema(fields)


def one_stake(stakes: int | Sequence[Sequence[int]]) -> int:
    """The one stake every pair of a record plays (the rounds schema's
    ``stakes``): the record's stake, or the entry every pair of its matrix
    shares. Raises ``TableError`` for a matrix of different stakes."""
    if isinstance(stakes, int):
        return stakes
    n = len(stakes)
    pairs = {stakes[i][j] for i in range(n) for j in range(n) if i != j}
    if len(pairs) != 1:
        raise TableError(
            "stakes: a matrix of different stakes per pair has no place in the "
            "rounds schema (one stake per round); settle the record as JSON instead"
        )
    return int(pairs.pop())


@functools.lru_cache(maxsize=128)
def record_rules(text: str) -> tuple[Rules, str]:
    """A replayed record's rules (its ``rules_json``: valid and written in
    full, so nothing is raised) and the name a rounds table gives them
    (:func:`capsa.rules.known.rules_name`), once a text."""
    rules = Rules.from_dict(json.loads(text))
    return rules, rules_name(rules)


@dataclass(frozen=True)
class _Row:
    view: _core.RecordView
    digest: str
    rules: Rules
    name: str
    stake: int


def _row(view: _core.RecordView, seats: int) -> _Row:
    """A record read, replayed, as a row of a table of ``seats`` seats;
    ``ReplayError`` when it does not replay, ``TableError`` when the table
    cannot hold it."""
    digest = replay_view(view)
    if view.seat_count > seats:
        raise TableError(
            f"seats: this table of records holds up to {seats} seats and the round has "
            f"{view.seat_count}; read the log with seats={view.seat_count} (up to 8)"
        )
    rules, name = record_rules(view.rules_json)
    return _Row(view, digest, rules, name, one_stake(view.stakes))


def _overlong(number: int, length: int) -> RecordError:
    return RecordError(
        f"line {number} is {length} bytes long; a record is at most {_core.MAX_LINE_BYTES} bytes"
    )


@dataclass(frozen=True)
class _Void:
    """A void record read and replayed (its digest and nothing more): a
    round never played, which has no seats to be a row."""

    round_id: str


Batch = Sequence[tuple[int, str | bytes | int]]
#: A record of a batch read and replayed: its row, a void record, or its
#: round id (when it was read) and why it has none.
Read = list["_Row | _Void | tuple[str | None, RecordFailure]"]


def read_batch(batch: Batch, seats: int = DEFAULT_SEATS) -> Read:
    """The records of a batch of (line number, record text or the length of
    a line too long) read by the engine, on every core without the GIL,
    and each replayed (without the GIL too): in order, each record's row
    (in a table of ``seats`` seats), a void record's round id (its digest
    checked), or its round id (None when it could not be read) and its
    ``RecordError``, ``ReplayError`` or ``TableError``."""
    views = iter(read_records([line for _, line in batch if not isinstance(line, int)]))
    out: Read = []
    for number, line in batch:
        view: View | RecordError | None = None
        try:
            if isinstance(line, int):
                raise _overlong(number, line)
            view = next(views)
            if isinstance(view, RecordError):
                raise view
            if isinstance(view, _core.VoidView):
                replay_view(view)
                out.append(_Void(view.round_id))
            else:
                out.append(_row(view, seats))
        except (RecordError, ReplayError, TableError) as exc:
            out.append((None if isinstance(view, RecordError | None) else view.round_id, exc))
    return out


def batch_table(
    batch: Batch,
    read: Read,
    failed: Callable[[int, str | bytes | int, str | None, RecordFailure], None],
    rules_met: dict[str, Rules],
    voided: Callable[[int, str], None],
    seats: int = DEFAULT_SEATS,
) -> Any:
    """The rows of a batch of (line number, record text or the length of a
    line too long), read by :func:`read_batch`, as a table in
    :func:`records_schema` of ``seats`` seats, in order; each record that cannot be read, does
    not replay or does not fit the schema is handed to ``failed`` (its line
    number, the line, its round id when it was read, the error) and left
    out; each void record, which has no row, to ``voided`` (its line
    number and round id). The rules of the rows go into ``rules_met`` by
    their names."""
    rows: list[_Row] = []
    numbers: list[int] = []
    for (number, line), item in zip(batch, read, strict=True):
        if isinstance(item, _Row):
            rows.append(item)
            numbers.append(number)
        elif isinstance(item, _Void):
            voided(number, item.round_id)
        else:
            failed(number, line, *item)
    for row in rows:
        rules_met.setdefault(row.name, row.rules)
    table, errors = _rows_table(rows, seats)
    for k, reason in errors:  # none but for a bug: the rows replayed
        failed(numbers[k], b"", rows[k].view.round_id, TableError(reason))
    return table


def _rows_table(rows: list[_Row], width: int) -> tuple[Any, list[tuple[int, str]]]:
    """The rows as a table of ``width`` seats, and (row, reason) of each
    the kernel refused (left out)."""
    import numpy as np

    pa = pyarrow_module()
    schema = records_schema(width)
    n = len(rows)
    views = [row.view for row in rows]
    counts, card_bytes, flag_bytes = _core.record_seats(views, width)
    seats = np.frombuffer(counts, dtype=np.uint8)
    cards = np.frombuffer(card_bytes, dtype=np.uint8).reshape(n, width, 13)
    flags = np.frombuffer(flag_bytes, dtype=np.uint8).reshape(n, width, 3).astype(bool)
    outcomes, reasons = _outcomes(rows, seats, cards, flags)
    refused = np.zeros(n, dtype=bool)
    refused[list(reasons)] = True
    arrays: dict[str, Any] = {
        "id": pa.array([view.round_id for view in views], pa.string()),
        "rules": pa.array([row.name for row in rows], pa.string()),
        "stakes": pa.array([row.stake for row in rows], pa.int64()),
        "digest": pa.array([row.digest for row in rows], pa.string()),
        "table_id": pa.array([view.table_id for view in views], pa.string()),
        "played_at": pa.array([_played_at(view) for view in views], pa.timestamp("ms", tz="UTC")),
        BANKER_COLUMN: pa.array([view.banker for view in views], pa.int8()),
    }
    banker_game = [view.banker is not None for view in views]
    arrays["round_id"] = arrays["id"]
    players = [view.players for view in views]
    for s in range(width):
        absent = seats <= s
        mask = absent if absent.any() else None
        seat_cards = pa.py_buffer(np.ascontiguousarray(cards[:, s, :]))
        arrays[CARD_COLUMNS[s]] = pa.FixedSizeBinaryArray.from_buffers(
            pa.binary(13), n, [_validity(~absent), seat_cards]
        )
        arrays[AUTO_COLUMNS[s]] = pa.array(flags[:, s, 0], pa.bool_(), mask=mask)
        arrays[SURRENDER_COLUMNS[s]] = pa.array(flags[:, s, 1], pa.bool_(), mask=mask)
        arrays[DECLARE_COLUMNS[s]] = pa.array(flags[:, s, 2], pa.bool_(), mask=mask)
        ids = [p[s][0] if s < len(p) else None for p in players]
        arrays[PLAYER_COLUMNS[s]] = pa.array(ids, pa.string())
        multipliers = [
            v.multipliers[s] if game and s < v.seat_count else None
            for v, game in zip(views, banker_game, strict=True)
        ]
        arrays[MULTIPLIER_COLUMNS[s]] = pa.array(multipliers, pa.int64())
    has = [(seats > s) & ~refused for s in range(width)]
    kernel = iter(outcome_arrays(outcomes, has))
    columns = [arrays[f.name] if f.name in arrays else next(kernel) for f in schema]
    table = pa.Table.from_arrays(columns, schema=schema)
    if not reasons:
        return table, []
    return table.filter(pa.array(~refused)), sorted(reasons.items())


def _validity(given: npt.NDArray[np.bool_]) -> Any:
    """An Arrow validity buffer of ``given`` (None when every value is)."""
    import numpy as np

    pa = pyarrow_module()
    if given.all():
        return None
    return pa.py_buffer(np.packbits(given, bitorder="little"))


def _outcomes(
    rows: list[_Row],
    seats: npt.NDArray[np.uint8],
    cards: npt.NDArray[np.uint8],
    flags: npt.NDArray[np.bool_],
) -> tuple[npt.NDArray[np.uint8], dict[int, str]]:
    """Each row's outcomes as the kernel settles them (uint8 (5, width, N),
    as ``capsa._core.settle_rounds`` gives them; a round's missing seats
    zero), a call a group of rules and seat count; and the reason of each
    row it refused, by row."""
    import numpy as np

    width = cards.shape[1]
    outcomes = np.zeros((len(KERNEL_OUTCOMES), width, len(rows)), dtype=np.uint8)
    reasons: dict[int, str] = {}
    groups: dict[tuple[str, int], list[int]] = {}
    for k, row in enumerate(rows):
        groups.setdefault((row.name, int(seats[k])), []).append(k)
    for (_, p), members in groups.items():
        at = np.array(members, dtype=np.intp)
        stakes = np.array([rows[k].stake for k in members], dtype=np.int64)
        views = [rows[k].view for k in members]
        roles: dict[str, Any] = {}
        if any(v.banker is not None for v in views):
            banker = [-1 if v.banker is None else v.banker for v in views]
            roles["banker"] = np.array(banker, np.int64)
            roles["multipliers"] = np.array([v.multipliers for v in views], np.int64)
        _, found, bad, why = _core.settle_rounds(
            np.ascontiguousarray(cards[at, :p]),
            rows[members[0]].rules,
            stakes,
            np.ascontiguousarray(flags[at, :p, 1]),
            np.ascontiguousarray(flags[at, :p, 2]),
            threads=1,
            **roles,
        )
        outcomes[:, :p, at] = found
        reasons.update(zip(at[bad].tolist(), why, strict=True))
    return outcomes, reasons


def _played_at(view: _core.RecordView) -> int | None:
    """``meta.played_at`` as Unix milliseconds (None when the record has
    none, it names no moment or no 64-bit timestamp holds it)."""
    moment = moment_ms(view.played_at)
    return moment if moment is not None and _INT64_MIN <= moment <= _INT64_MAX else None
