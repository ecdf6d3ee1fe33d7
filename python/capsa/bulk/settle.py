"""Columnar rounds: settle Arrow tables, pandas frames and Parquet files.

A *rounds table* holds one round a row (the schema is in ``docs/bulk.md``):
``cards0`` .. ``cards3`` (up to ``cards7`` at a table of a larger deck),
each seat's 13 card ids laid out top 0-2, middle 3-7, bottom 8-12
(``fixed_size_binary(13)``, the fast form, or a list of 13 integers);
optional ``id``, ``rules``, ``stakes``, ``surrender0`` ..
``surrender3`` and ``declare_natural0`` .. ``declare_natural3``, a banker
game's ``banker`` and ``multiplier0`` .. ``multiplier3``, and the round's
``table_id``, ``played_at`` and ``player0`` .. ``player3``.
Settling it gives a *results table*: the ``id`` column and those as given,
``seats``, every seat's ``points``, ``money``, ``rake`` and ``net``, and
``error``, null for a settled round and the reason for one that could not
be settled (whose figures are null), then every seat's outcome: ``fouled``,
``natural``, ``scoops``, ``swept``, ``surrendered`` and ``auto`` (from
the rounds' optional ``auto0`` .. ``auto3``). A bad round never stops the
others.

:func:`settle_table` settles a table (or a record batch, or a pandas frame
with :func:`settle_frame`) with the batch kernel, on every core without the
GIL; :func:`settle_parquet` streams a Parquet file or dataset through it
into a Parquet file, in bounded memory. :func:`records_table` reads a log
of round records as a rounds table (``capsa.bulk.record_tables``). Needs
``pyarrow`` (``pip install 'capsa[parquet]'``); ``import capsa`` does not.

*Bulk* here means columnar data (Arrow, pandas, Parquet); the *batch*
functions (``capsa.settle_batch``, ``capsa.best_arrangement_batch``) take
numpy arrays and are what this module settles each table with. The two
names are public (``capsa.bulk`` in the docs, the batch functions in
``capsa``), so they stay.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from capsa import _core
from capsa._core import ArgumentError, RulesError, TableError
from capsa.bulk.columns import (
    AUTO_COLUMNS,
    BANKER_COLUMN,
    CARD_COLUMNS,
    DECLARE_COLUMNS,
    DEFAULT_SEATS,
    ECHOED_COLUMNS,
    FIGURES,
    KERNEL_OUTCOMES,
    LAST_CARD_ID,
    MAX_SEATS,
    MULTIPLIER_COLUMNS,
    OUTCOMES,
    PLAYER_COLUMNS,
    SURRENDER_COLUMNS,
    echoed_fields,
    outcome_arrays,
    pyarrow_module,
    results_schema,
    rounds_schema,
    rounds_table,
)
from capsa.bulk.record_tables import records_table, rules_of_metadata
from capsa.bulk.roles import group_roles, read_roles
from capsa.rules import Rules
from capsa.rules.known import default_known_rules, differing_knobs, with_known

if TYPE_CHECKING:
    import pandas as pd
    import pyarrow as pa

__all__ = [
    "AUTO_COLUMNS",
    "BANKER_COLUMN",
    "CARD_COLUMNS",
    "DECLARE_COLUMNS",
    "DEFAULT_SEATS",
    "ECHOED_COLUMNS",
    "FIGURES",
    "LAST_CARD_ID",
    "MAX_SEATS",
    "MULTIPLIER_COLUMNS",
    "OUTCOMES",
    "PLAYER_COLUMNS",
    "SURRENDER_COLUMNS",
    "ParquetResultsWriter",
    "default_known_rules",
    "echoed_fields",
    "parquet_files",
    "record_batches",
    "records_table",
    "results_schema",
    "rounds_schema",
    "rounds_table",
    "settle_frame",
    "settle_parquet",
    "settle_table",
]

# Rounds read from Parquet per batch: about 130 MB of figures at 4 seats.
DEFAULT_BATCH_ROWS = 1 << 20


# ---------------------------------------------------------------- reading columns


class _RowErrors:
    """The first reason each row cannot be settled, found before the kernel."""

    def __init__(self, n: int) -> None:
        self.bad = np.zeros(n, dtype=bool)
        self.reasons: dict[int, str] = {}

    def add(self, rows: npt.NDArray[np.intp], reason: Any) -> None:
        """Marks ``rows`` (those not yet bad) with ``reason(row)`` or a text."""
        for row in rows[~self.bad[rows]].tolist():
            self.reasons[row] = reason(row) if callable(reason) else reason
        self.bad[rows] = True


def _not_a_card(card: int, position: int) -> str:
    """Why ``card`` at ``position`` is the id of no card of any deck, as the
    engine words it (a card of another deck than the round's rules deal is
    the kernel's to report)."""
    return f"card id {card} at position {position} is outside 0..{LAST_CARD_ID}"


def _column(table: pa.Table, name: str) -> pa.Array | None:
    """A column as one array (chunks joined), or None when absent."""
    if name not in table.column_names:
        return None
    return table.column(name).combine_chunks()


def _valid(array: pa.Array) -> npt.NDArray[np.bool_]:
    if array.null_count == 0:
        return np.ones(len(array), dtype=bool)
    return np.asarray(array.is_valid().to_numpy(zero_copy_only=False), dtype=bool)


def _read_cards(
    array: pa.Array, seat: int, errors: _RowErrors
) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.bool_]]:
    """A seat's cards as (N, 13) uint8, and where the seat is given (not
    null). Lists of the wrong length and ids outside 0..105 (no deck's)
    mark their rows."""
    pa = pyarrow_module()
    import pyarrow.compute as pc

    n = len(array)
    given = _valid(array)
    name = CARD_COLUMNS[seat]
    kind = array.type
    if pa.types.is_fixed_size_binary(kind) and kind.byte_width == 13:
        data = array.buffers()[1]
        if data is None:  # every value null
            return np.zeros((n, 13), dtype=np.uint8), given
        flat = np.frombuffer(data, dtype=np.uint8, count=(array.offset + n) * 13)
        # ids 52..255 are each reported by the kernel, naming the id
        return flat[array.offset * 13 :].reshape(n, 13), given
    if pa.types.is_fixed_size_list(kind) or pa.types.is_list(kind) or pa.types.is_large_list(kind):
        if not pa.types.is_integer(kind.value_type):
            raise TypeError(f"{name} must hold integer card ids, not {kind.value_type}")
        return _read_card_lists(array, seat, given, errors, pc), given
    raise TypeError(
        f"{name} must be fixed_size_binary(13) or a list of 13 integer card ids, not {kind}"
    )


def _read_card_lists(
    array: pa.Array, seat: int, given: npt.NDArray[np.bool_], errors: _RowErrors, pc: Any
) -> npt.NDArray[np.uint8]:
    pa = pyarrow_module()
    n = len(array)
    if pa.types.is_fixed_size_list(array.type):
        width = array.type.list_size
        lengths = np.full(n, width, dtype=np.int64)
        starts = (np.arange(n, dtype=np.int64) + array.offset) * width
        values = array.values
    else:
        offsets = np.asarray(array.offsets.to_numpy(zero_copy_only=False), dtype=np.int64)
        lengths = np.diff(offsets)
        starts = offsets[:-1]
        values = array.values
    wrong = np.flatnonzero(given & (lengths != 13))
    errors.add(
        wrong,
        lambda row: f"HandError: seat {seat}: an arrangement has 13 cards, got {lengths[row]}",
    )
    take = given & (lengths == 13)
    out = np.zeros((n, 13), dtype=np.uint8)
    rows = np.flatnonzero(take)
    if rows.size == 0:
        return out
    at = starts[rows, None] + np.arange(13)
    # in the column's own integer type, so that any value is shown as written
    ids = np.asarray(pc.fill_null(values, 0).to_numpy(zero_copy_only=False))[at]
    nulls = np.asarray(pc.is_null(values).to_numpy(zero_copy_only=False), dtype=bool)[at]
    outside = nulls | (ids > LAST_CARD_ID) | (ids < 0)
    bad = np.flatnonzero(outside.any(axis=1))
    if bad.size:

        def reason(k: int) -> str:
            column = int(np.argmax(outside[k]))
            if nulls[k, column]:
                return f"CardError: seat {seat}, card {column}: the card id is null"
            return f"CardError: seat {seat}: {_not_a_card(int(ids[k, column]), column)}"

        position = {int(rows[k]): int(k) for k in bad}
        errors.add(rows[bad], lambda row: reason(position[row]))
    ids[outside] = 0
    out[rows] = ids.astype(np.uint8)
    return out


def _read_flags(
    table: pa.Table, names: tuple[str, ...], seats: int, default: bool
) -> npt.NDArray[np.bool_] | None:
    """(N, seats) flags from bool columns (null: ``default``); None when no
    column is given."""
    pa = pyarrow_module()
    if not any(names[s] in table.column_names for s in range(seats)):
        return None
    out = np.full((table.num_rows, seats), default, dtype=bool)
    for s in range(seats):
        array = _column(table, names[s])
        if array is None:
            continue
        if not pa.types.is_boolean(array.type):
            raise TypeError(f"{names[s]} must be a bool column, not {array.type}")
        values = array.fill_null(default).to_numpy(zero_copy_only=False)
        out[:, s] = np.asarray(values, dtype=bool)
    return out


def _stake_fault(stake: int) -> str:
    """The reason a round's stake is refused, as the engine's stakes reader
    gives it."""
    try:
        _core.read_stakes(stake, 2)
    except TableError as exc:
        return f"TableError: {exc}"
    raise AssertionError(f"the stake {stake} was expected to be refused")


def _read_stakes(
    table: pa.Table, errors: _RowErrors
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.bool_]] | None:
    """Stakes per round and where one is given, or None without a column."""
    pa = pyarrow_module()
    array = _column(table, "stakes")
    if array is None:
        return None
    if not pa.types.is_integer(array.type):
        raise TypeError(f"stakes must be an integer column, not {array.type}")
    given = _valid(array)
    values = array.fill_null(0).to_numpy(zero_copy_only=False)
    if values.dtype == np.uint64:
        too_big = np.flatnonzero(values > np.iinfo(np.int64).max)
        errors.add(too_big, lambda row: _stake_fault(int(values[row])))
        values = np.where(values > np.iinfo(np.int64).max, 0, values)
    return np.asarray(values, dtype=np.int64), given


def _read_rules_names(
    table: pa.Table, known: Mapping[Any, Rules], errors: _RowErrors
) -> tuple[list[Any], npt.NDArray[np.intp]]:
    """The rules names met and each row's index into them (null: the
    default rules, ``_DEFAULT``). A name that is not known marks its rows."""
    pa = pyarrow_module()
    import pyarrow.compute as pc

    n = table.num_rows
    names: list[Any] = [_DEFAULT]
    codes = np.zeros(n, dtype=np.intp)
    if "rules" not in table.column_names:
        return names, codes
    at = 0
    for chunk in table.column("rules").chunks:
        if pa.types.is_dictionary(chunk.type):
            dictionary, indices = chunk.dictionary, chunk.indices
        elif pa.types.is_string(chunk.type) or pa.types.is_large_string(chunk.type):
            encoded = pc.dictionary_encode(chunk)
            dictionary, indices = encoded.dictionary, encoded.indices
        else:
            raise TypeError(f"rules must be a string column, not {chunk.type}")
        local = []
        for name in dictionary.to_pylist():
            if name not in names:
                names.append(name)
            local.append(names.index(name))
        given = _valid(indices)
        idx = np.asarray(indices.fill_null(0).to_numpy(zero_copy_only=False), dtype=np.intp)
        mapped = np.asarray(local, dtype=np.intp)[idx] if local else np.zeros(len(idx), np.intp)
        codes[at : at + len(chunk)] = np.where(given, mapped, 0)
        at += len(chunk)
    for k, name in enumerate(names):
        if name not in known:
            shown = ", ".join(sorted(k for k in known if isinstance(k, str)))
            errors.add(
                np.flatnonzero(codes == k), f"RulesError: unknown rules {name!r}; known: {shown}"
            )
    return names, codes


# ---------------------------------------------------------------- settling


# Every column a rounds table may have: each is read by its name.
_ROUNDS_COLUMNS = frozenset(
    (
        *("id", "rules", "stakes", *CARD_COLUMNS, *SURRENDER_COLUMNS, *DECLARE_COLUMNS),
        *(*AUTO_COLUMNS, *ECHOED_COLUMNS),
    )
)


def _as_table(data: Any) -> pa.Table:
    """The rounds as a table; ``TableError`` for a table with a column of
    the rounds schema more than once (which of them would be read?)."""
    pa = pyarrow_module()
    if isinstance(data, pa.RecordBatch):
        data = pa.Table.from_batches([data])
    if not isinstance(data, pa.Table):
        raise TypeError(
            f"rounds must be a pyarrow Table or RecordBatch (or a pandas DataFrame, with "
            f"settle_frame), not {type(data).__name__}"
        )
    names = data.column_names
    if len(set(names)) != len(names):
        seen: set[str] = set()
        for name in names:
            if name in seen and name in _ROUNDS_COLUMNS:
                raise TableError(f"the rounds have more than one column named {name!r}")
            seen.add(name)
    return data


def _seat_columns(table: pa.Table) -> int:
    """How many seat columns the table has (cards0 .. cards{P-1})."""
    present = [name in table.column_names for name in CARD_COLUMNS]
    seats = 0
    while seats < MAX_SEATS and present[seats]:
        seats += 1
    if any(present[seats:]):
        missing = CARD_COLUMNS[seats]
        raise TableError(
            f"the rounds have a column {CARD_COLUMNS[present.index(True, seats)]} but no {missing}"
        )
    if seats < 2:
        raise TableError(
            f"rounds need the columns cards0 and cards1 (2 to {MAX_SEATS} seats), "
            f"got {table.column_names}"
        )
    return seats


# The key of the default rules in the rules a settlement knows: no name a
# table can give (a name is text).
_DEFAULT: Any = object()


def _known_rules(
    table: pa.Table, rules: Rules | None, known: Mapping[str, Rules] | None
) -> dict[Any, Rules]:
    """The rules ``settle_table`` settles by: ``known`` (default: every preset
    and ``rules`` under its name), the rules a table of round records holds
    in its metadata, and the default rules (``rules``, else
    ``capsa-susun``) under ``_DEFAULT``. The caller's names are never
    redefined: ``RulesError`` when ``rules`` and ``known``, or the
    metadata and either, name different rules by one name."""
    if rules is not None and not isinstance(rules, Rules):
        raise TypeError(
            f"argument 'rules': must be a capsa.Rules or None, not {type(rules).__name__}"
        )
    base = rules if rules is not None else Rules()
    given: dict[Any, Rules] = dict(known) if known is not None else default_known_rules(base)
    other = given.get(base.name)
    if rules is not None and other is not None and other != base:
        raise RulesError(
            f"rules= and known= name different rules {base.name!r} "
            f"({differing_knobs(base, other)} in rules=); a name means one set of rules"
        )
    if rules is not None or other is None:
        given[base.name] = base
    # a file of round records names its rules and holds them in full
    found = rules_of_metadata(table.schema.metadata)
    merged = with_known(given, found, "the table's metadata (capsa.rules)")
    merged[_DEFAULT] = given[base.name]
    return merged


def settle_table(
    rounds: pa.Table | pa.RecordBatch,
    rules: Rules | None = None,
    *,
    known: Mapping[str, Rules] | None = None,
    threads: int | None = None,
) -> pa.Table:
    """Settles a rounds table into a results table (docs/bulk.md).

    ``rules`` settles rounds whose ``rules`` is null or absent (default
    ``capsa-susun``); ``known`` maps the names a ``rules`` column may hold to
    rules (default: every preset, and ``rules`` under its name), and the
    rules a table of round records carries in its metadata
    (:func:`capsa.bulk.record_tables.to_parquet`, read by
    :func:`capsa.bulk.record_tables.rules_of_metadata`) are known by their names.
    A name the caller gives (in ``known``, or ``rules``' own) always means
    the caller's rules: metadata naming other rules by it is an error, never
    used. ``threads`` caps the cores used (default all).

    A wrong column type raises ``TypeError``, a table without
    ``cards0``/``cards1`` ``TableError``, and ``RulesError`` metadata whose
    rules are malformed, partial, or named as rules they are not (a preset's
    name for other rules) or as other rules than ``rules`` and ``known``
    give that name, and ``rules`` and ``known`` naming different rules by
    one name, each before any round is settled; a round that cannot be
    settled (a bad card, a missing seat, an unknown rules name, a negative
    stake, a surrender the rules refuse) gets its reason in ``error`` and
    null figures.
    """
    table = _as_table(rounds)
    known = _known_rules(table, rules, known)
    seats = _seat_columns(table)
    n = table.num_rows
    errors = _RowErrors(n)
    cards, table_seats = _read_seats(table, seats, errors)
    names, codes = _read_rules_names(table, known, errors)
    stakes = _read_stakes(table, errors)
    surrender = _read_flags(table, SURRENDER_COLUMNS, seats, False)
    declare = _read_flags(table, DECLARE_COLUMNS, seats, True)
    auto = _auto_columns(table, table_seats, seats)
    roles = read_roles(table, seats, errors.add)

    figures: npt.NDArray[np.int64] | None = None  # (figure, seat, round)
    outcomes: npt.NDArray[np.uint8] | None = None  # (outcome, seat, round)
    settled = np.zeros(n, dtype=bool)
    for key, rows in _groups(codes, table_seats, errors.bad):
        p = key % (MAX_SEATS + 1)
        group_rules = known[names[key // (MAX_SEATS + 1)]]
        out, outcome, bad_rows, reasons = _core.settle_rounds(
            np.ascontiguousarray(cards[rows, :p]),
            group_rules,
            _group_stakes(stakes, rows, group_rules["money.stake"]),
            _group_flags(surrender, rows, p, default=False),
            _group_flags(declare, rows, p, default=True),
            threads=threads,
            **group_roles(roles, rows, p, errors.add),
        )
        if isinstance(rows, slice) and p == seats:
            figures, outcomes = out, outcome  # one group holds every round: no copy
        else:
            if figures is None or outcomes is None:
                figures = np.zeros((len(FIGURES), seats, n), dtype=np.int64)
                outcomes = np.zeros((_KERNEL_OUTCOMES, seats, n), dtype=np.uint8)
            figures[:, :p, rows] = out
            outcomes[:, :p, rows] = outcome
        settled[rows] = True
        if len(bad_rows):
            index = np.arange(n)[rows][bad_rows]
            found = dict(zip(index.tolist(), reasons, strict=True))
            errors.add(index, found.__getitem__)
    settled &= ~errors.bad
    if figures is None or outcomes is None:
        figures = np.zeros((len(FIGURES), seats, n), dtype=np.int64)
        outcomes = np.zeros((_KERNEL_OUTCOMES, seats, n), dtype=np.uint8)
    result = _results(table, figures, settled, table_seats, errors, seats)
    return _with_outcomes(result, table, outcomes, auto, settled, table_seats)


_KERNEL_OUTCOMES = len(KERNEL_OUTCOMES)


def _with_outcomes(
    result: pa.Table,
    table: pa.Table,
    outcomes: npt.NDArray[np.uint8],
    auto: list[pa.Array],
    settled: npt.NDArray[np.bool_],
    table_seats: npt.NDArray[np.int8],
) -> pa.Table:
    """The results with the outcome columns appended (null where a round
    has no figures), ``auto`` as the rounds give it."""
    pa = pyarrow_module()
    seats = outcomes.shape[1]
    has = [settled & (table_seats > s) for s in range(seats)]
    arrays: list[Any] = outcome_arrays(outcomes, has)
    arrays += auto
    columns = [result.column(k) for k in range(result.num_columns)] + arrays
    return pa.table(columns, schema=_results_schema_of(table, seats))


def _auto_columns(table: pa.Table, table_seats: npt.NDArray[np.int8], seats: int) -> list[pa.Array]:
    """``auto0`` .. of the rounds as given (null where not given), for the
    seats each round has; ``TypeError`` for a column that is not bool."""
    pa = pyarrow_module()
    n = table.num_rows
    out = []
    for s in range(seats):
        array = _column(table, AUTO_COLUMNS[s])
        if array is None:
            out.append(pa.nulls(n, pa.bool_()))
            continue
        if not pa.types.is_boolean(array.type):
            raise TypeError(f"{AUTO_COLUMNS[s]} must be a bool column, not {array.type}")
        values = np.asarray(array.fill_null(False).to_numpy(zero_copy_only=False), dtype=bool)
        out.append(pa.array(values, pa.bool_(), mask=~(_valid(array) & (table_seats > s))))
    return out


def _id_type(table: pa.Table) -> pa.DataType | None:
    return table.schema.field("id").type if "id" in table.column_names else None


def _results_schema_of(table: pa.Table, seats: int) -> pa.Schema:
    """The results schema of ``table``'s rounds: its ``id`` and
    ``ECHOED_COLUMNS`` as the rounds have them."""
    echoed = [table.schema.field(name) for name in ECHOED_COLUMNS if name in table.column_names]
    return results_schema(seats, _id_type(table), echoed=echoed)


def _read_seats(
    table: pa.Table, seats: int, errors: _RowErrors
) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.int8]]:
    """Every seat's cards, (N, seats, 13), and how many seats each round has."""
    seat_cards, seat_given = [], []
    for s in range(seats):
        column = _column(table, CARD_COLUMNS[s])
        assert column is not None
        ids, present = _read_cards(column, s, errors)
        seat_cards.append(ids)
        seat_given.append(present)
    cards = np.stack(seat_cards, axis=1)  # (N, seats, 13), one copy
    given = np.stack(seat_given, axis=1)
    if given.all():  # the common case: every seat of every round given
        return cards, np.full(table.num_rows, seats, dtype=np.int8)
    _check_seat_layout(given, errors)
    return cards, given.sum(axis=1).astype(np.int8)


def _groups(
    codes: npt.NDArray[np.intp], table_seats: npt.NDArray[np.int8], bad: npt.NDArray[np.bool_]
) -> list[tuple[int, slice | npt.NDArray[np.intp]]]:
    """The rounds to settle grouped by rules and table size: (rules index *
    (MAX_SEATS + 1) + seats, rows); ``slice(None)`` when one group holds
    every round."""
    key = codes * (MAX_SEATS + 1) + table_seats
    key[bad] = -1
    if len(key) and key[0] >= 0 and bool((key == key[0]).all()):
        return [(int(key[0]), slice(None))]
    return [(int(k), np.flatnonzero(key == k)) for k in np.unique(key) if k >= 0]


def _group_stakes(
    stakes: tuple[npt.NDArray[np.int64], npt.NDArray[np.bool_]] | None,
    rows: slice | npt.NDArray[np.intp],
    default: int,
) -> npt.NDArray[np.int64] | None:
    """The stakes of a group of rounds (null: the rules' stake), or None when
    every round plays the rules' stake (the kernel's fast path)."""
    if stakes is None:
        return None
    values, has = stakes
    group = np.where(has[rows], values[rows], default)
    if not np.any(group != default):
        return None
    return np.ascontiguousarray(group, dtype=np.int64)


def _group_flags(
    flags: npt.NDArray[np.bool_] | None,
    rows: slice | npt.NDArray[np.intp],
    seats: int,
    default: bool,
) -> npt.NDArray[np.bool_] | None:
    """The flags of a group of rounds, or None when all are the default."""
    if flags is None:
        return None
    group = flags[rows, :seats]
    if bool(np.all(group == default)):
        return None
    return np.ascontiguousarray(group)


def _check_seat_layout(given: npt.NDArray[np.bool_], errors: _RowErrors) -> None:
    """Marks rounds with fewer than two seats or a gap before a given seat."""
    seats = given.shape[1]
    count = given.sum(axis=1)
    for s in range(1, seats):
        gap = np.flatnonzero(given[:, s] & ~given[:, s - 1])
        errors.add(gap, f"TableError: seat {s} is given but seat {s - 1} is null")
    few = np.flatnonzero(count < 2)
    errors.add(few, lambda row: f"TableError: a table has 2 to 4 seats, got {count[row]}")


def _results(
    table: pa.Table,
    figures: npt.NDArray[np.int64],
    settled: npt.NDArray[np.bool_],
    table_seats: npt.NDArray[np.int8],
    errors: _RowErrors,
    seats: int,
) -> pa.Table:
    pa = pyarrow_module()
    columns: dict[str, Any] = {}
    for name in ("id", *ECHOED_COLUMNS):
        if name in table.column_names:
            columns[name] = table.column(name)
    columns["seats"] = pa.array(table_seats, pa.int8())
    # where each seat has figures: a mask only when some round has none
    masks = []
    for s in range(seats):
        present = settled & (table_seats > s)
        masks.append(None if present.all() else ~present)
    for f, figure in enumerate(FIGURES):
        for s in range(seats):
            columns[f"{figure}{s}"] = pa.array(figures[f, s], pa.int64(), mask=masks[s])
    columns["error"] = _error_column(len(settled), errors)
    schema = _results_schema_of(table, seats)
    return pa.table(columns, schema=pa.schema(list(schema)[: len(columns)]))


def _error_column(n: int, errors: _RowErrors) -> pa.Array:
    pa = pyarrow_module()
    if not errors.reasons:
        return pa.nulls(n, pa.string())
    reasons = sorted(set(errors.reasons.values()))
    which = {reason: k for k, reason in enumerate(reasons)}
    indices = np.zeros(n, dtype=np.int32)
    has = np.zeros(n, dtype=bool)
    for row, reason in errors.reasons.items():
        indices[row] = which[reason]
        has[row] = True
    return pa.array(reasons, pa.string()).take(pa.array(indices, mask=~has))


def settle_frame(
    frame: pd.DataFrame,
    rules: Rules | None = None,
    *,
    known: Mapping[str, Rules] | None = None,
    threads: int | None = None,
) -> pd.DataFrame:
    """:func:`settle_table` for a pandas frame in the rounds schema (cards
    as ``bytes`` of 13 ids or lists of ids); the results come back as a
    frame with Arrow-backed columns (nulls kept)."""
    import pandas as pd

    pa = pyarrow_module()
    if not isinstance(frame, pd.DataFrame):
        raise TypeError(f"frame must be a pandas DataFrame, not {type(frame).__name__}")
    table = pa.Table.from_pandas(frame, preserve_index=False)
    for s, name in enumerate(CARD_COLUMNS):
        if name in table.column_names and pa.types.is_binary(table.schema.field(name).type):
            table = table.set_column(
                table.column_names.index(name), name, _fixed_cards(table.column(name), s)
            )
    result = settle_table(table, rules, known=known, threads=threads)
    return result.to_pandas(types_mapper=pd.ArrowDtype)


def _fixed_cards(column: pa.ChunkedArray, seat: int) -> pa.ChunkedArray:
    """Variable-width binary cards (pandas ``bytes``) as fixed_size_binary(13);
    a value of another length becomes a list so that its row is reported."""
    pa = pyarrow_module()
    import pyarrow.compute as pc

    lengths = pc.binary_length(column)
    if pc.all(pc.or_kleene(pc.equal(lengths, 13), pc.is_null(lengths))).as_py() is not False:
        return column.cast(pa.binary(13))
    values = [None if b is None else list(b) for b in column.to_pylist()]
    return pa.chunked_array([pa.array(values, pa.list_(pa.uint8()))])


# ---------------------------------------------------------------- Parquet


def parquet_files(source: str | os.PathLike[str]) -> list[Path]:
    """The Parquet files of ``source``: the file itself, or every
    ``.parquet`` file under a folder in path order. Raises ``ArgumentError``
    for a path that does not exist or a folder without one."""
    path = Path(source)
    if path.is_dir():
        files = sorted(p for p in path.rglob("*.parquet") if p.is_file())
        if not files:
            raise ArgumentError(f"{path} holds no .parquet files")
        return files
    if not path.exists():
        raise ArgumentError(f"{path} does not exist")
    return [path]


def record_batches(files: list[Path], batch_rows: int) -> Iterator[pa.RecordBatch]:
    """The rows of ``files`` in order, ``batch_rows`` at most a batch, read
    as they are asked for. Raises what pyarrow raises for a file it cannot
    read (``OSError``, ``pyarrow.ArrowException``)."""
    import pyarrow.parquet as pq

    for file in files:
        with pq.ParquetFile(file) as handle:
            yield from handle.iter_batches(batch_size=batch_rows)


def settle_parquet(
    source: str | os.PathLike[str],
    target: str | os.PathLike[str],
    rules: Rules | None = None,
    *,
    known: Mapping[str, Rules] | None = None,
    batch_rows: int = DEFAULT_BATCH_ROWS,
    threads: int | None = None,
    compression: str = "snappy",
    progress: Any = None,
) -> tuple[int, int]:
    """Settles a Parquet file (or a directory of them, in path order) into
    one Parquet results file, ``batch_rows`` rounds at a time, in order.
    Returns (rounds, rounds that could not be settled). ``progress`` is
    called with the number of rounds of each batch settled."""
    if isinstance(batch_rows, bool) or not isinstance(batch_rows, int):
        raise TypeError("batch_rows must be an int")
    if batch_rows < 1:
        raise ArgumentError(f"batch_rows must be >= 1, got {batch_rows}")
    files = parquet_files(source)
    writer = ParquetResultsWriter(target, compression=compression)
    rounds = failed = 0
    try:
        for batch in record_batches(files, batch_rows):
            result = settle_table(batch, rules, known=known, threads=threads)
            writer.write_table(result)
            rounds += result.num_rows
            failed += result.num_rows - result.column("error").null_count
            if progress is not None:
                progress(result.num_rows)
    finally:
        writer.close()
    return rounds, failed


class ParquetResultsWriter:
    """Writes results tables to one Parquet file; the schema is fixed by the
    first table (every later one is cast to it, or refused)."""

    def __init__(self, target: str | os.PathLike[str], *, compression: str = "snappy") -> None:
        self._target = target
        self._compression = compression
        self._writer: Any = None
        self._schema: pa.Schema | None = None

    def write_table(self, table: pa.Table) -> None:
        """Appends a results table."""
        import pyarrow.parquet as pq

        if self._schema is None:
            self._schema = table.schema
            self._writer = pq.ParquetWriter(
                self._target, table.schema, compression=self._compression
            )
        elif table.schema != self._schema:
            try:
                table = table.cast(self._schema)
            except (ValueError, TypeError) as exc:
                raise TableError(
                    f"results of another shape cannot go to the same file: {exc}"
                ) from None
        self._writer.write_table(table)

    def close(self, empty_schema: pa.Schema | None = None) -> None:
        """Finishes the file (an empty one in ``empty_schema`` if nothing was written)."""
        import pyarrow.parquet as pq

        if self._writer is None:
            pa = pyarrow_module()
            schema = empty_schema or results_schema(DEFAULT_SEATS)
            pq.write_table(
                pa.table({f.name: pa.array([], f.type) for f in schema}, schema=schema),
                self._target,
            )
            return
        self._writer.close()
        self._writer = None
