"""The walk of a whole store that verify reads: every head, every record
with its seats' rows, and the seats' rows of no record, a page at a time.

Records come in table order (by table key as the database orders it, then
as stored), a page per query: the rest of the current table (``table_key =
? AND seq > ?``), then, when that runs out, the tables after it (``table_key
> ?``), each an index range of ``capsa_records_table``, so that every page
costs the same however far the walk has gone. The heads are read in step
with the records, the keys from after the last page's last table to this
page's last table, and placed before their table's records; a head that
falls between two tables of records has none of its own and comes on its
own. Python compares keys only for equality, never for order: the order is
the database's (its collation) throughout.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any, NamedTuple

__all__ = ["SEAT_FIELDS", "Execute", "Head", "OneOf", "Row", "Seat", "orphan_seats", "walk"]

Execute = Callable[[str, tuple[Any, ...]], Any]
"""Runs a statement of the store's SQL (``?`` parameters); its cursor."""
OneOf = Callable[[str, Sequence[int]], tuple[str, tuple[Any, ...]]]
"""The SQL that a column is one of some integers, with its parameters
(:meth:`capsa.store.backend.Backend.one_of`)."""


Seat = tuple[int, str, "str | None", int, int]
"""A seat's row: its number, player id and name, net money, rake (a plain
tuple: verify makes one a seat of every record, twice)."""
SEAT_FIELDS = ("seat", "player_id", "player_name", "net", "rake")
"""The names of a :data:`Seat`'s entries."""


class Row(NamedTuple):
    """A stored record as verify reads it: its columns and its seats' rows."""

    seq: int
    table_key: str
    round_id: str
    nonce: str
    digest: str
    previous_digest: str | None
    text: str
    played_at: str | None
    played_at_ms: int | None
    seats: tuple[Seat, ...]


class Head(NamedTuple):
    """A table's head row."""

    table_key: str
    last_digest: str | None
    rounds: int
    head_mac: str | None


_RECORD_COLUMNS = (
    "SELECT seq, table_key, round_id, nonce, digest, previous_digest, record, played_at,"
    " played_at_ms FROM capsa_records"
)
_SAME_TABLE = f"{_RECORD_COLUMNS} WHERE table_key = ? AND seq > ? ORDER BY seq LIMIT ?"
_NEXT_TABLES = f"{_RECORD_COLUMNS} WHERE table_key > ? ORDER BY table_key, seq LIMIT ?"
_FIRST_TABLES = f"{_RECORD_COLUMNS} ORDER BY table_key, seq LIMIT ?"
_HEAD_COLUMNS = "SELECT table_key, last_digest, rounds, head_mac FROM capsa_tables"


def _record_pages(execute: Execute, page: int, only: str | None) -> Iterator[list[Any]]:
    """Pages of records' rows in table order (of the table keyed ``only``
    when given)."""
    key, seq = only, 0
    while True:
        rows: list[Any] = []
        if key is not None:
            rows = execute(_SAME_TABLE, (key, seq, page)).fetchall()
        if len(rows) < page and only is None:
            if key is None:
                rows = execute(_FIRST_TABLES, (page,)).fetchall()
            else:
                rows += execute(_NEXT_TABLES, (key, page - len(rows))).fetchall()
        if rows:
            yield rows
        if len(rows) < page:
            return
        key, seq = rows[-1][1], int(rows[-1][0])


def _heads_between(
    execute: Execute, low: str | None, high: str | None, page: int
) -> Iterator[Head]:
    """The heads whose keys are after ``low`` and up to ``high`` (None: no
    bound), in key order, a page at a time."""
    while True:
        where, params = [], []
        if low is not None:
            where.append("table_key > ?")
            params.append(low)
        if high is not None:
            where.append("table_key <= ?")
            params.append(high)
        condition = f" WHERE {' AND '.join(where)}" if where else ""
        rows = execute(
            f"{_HEAD_COLUMNS}{condition} ORDER BY table_key LIMIT ?", (*params, page)
        ).fetchall()
        for key, digest, rounds, mac in rows:
            yield Head(key, digest, int(rounds), mac)
        if len(rows) < page:
            return
        low = rows[-1][0]


def _with_seats(execute: Execute, one_of: OneOf, rows: list[Any]) -> list[Row]:
    """The page's rows with their seats' rows, read in one query."""
    seats: dict[int, list[Seat]] = {}
    condition, params = one_of("seq", [int(r[0]) for r in rows])
    found = execute(
        "SELECT seq, seat, player_id, player_name, net, rake FROM capsa_seats"
        f" WHERE {condition} ORDER BY seq, seat",
        params,
    ).fetchall()
    for seq, seat, player, name, net, rake in found:
        seats.setdefault(int(seq), []).append((int(seat), player, name, int(net), int(rake)))
    return [
        Row(
            int(r[0]),
            r[1],
            r[2],
            r[3],
            r[4],
            r[5],
            str(r[6]),
            r[7],
            None if r[8] is None else int(r[8]),
            tuple(seats.get(int(r[0]), ())),
        )
        for r in rows
    ]


def walk(
    execute: Execute, one_of: OneOf, page: int, only: str | None = None
) -> Iterator[Head | Row]:
    """Every head and every record of the store (of the table keyed
    ``only``), each table's head (when it has one) just before its records
    (in the order stored), tables in key order; a head of no record comes
    alone. Reads ``page`` records per query, and their seats in one more."""
    if only is not None:
        head = execute(f"{_HEAD_COLUMNS} WHERE table_key = ?", (only,)).fetchone()
        if head is not None:
            yield Head(head[0], head[1], int(head[2]), head[3])
        for rows in _record_pages(execute, page, only):
            yield from _with_seats(execute, one_of, rows)
        return
    last: str | None = None  # the last page's last table key
    for raw in _record_pages(execute, page, None):
        rows = _with_seats(execute, one_of, raw)
        start = 0
        while start < len(rows) and rows[start].table_key == last:
            yield rows[start]  # the table the last page ended in goes on
            start += 1
        if start == len(rows):
            continue
        high = rows[-1].table_key
        tables = {row.table_key for row in rows[start:]}
        heads: dict[str, Head] = {}
        for head in _heads_between(execute, last, high, page):
            if head.table_key in tables:
                heads[head.table_key] = head
            else:
                yield head
        current = last
        for row in rows[start:]:
            if row.table_key != current:
                current = row.table_key
                head = heads.pop(current, None)
                if head is not None:
                    yield head
            yield row
        last = high
    yield from _heads_between(execute, last, None, page)


def orphan_seats(execute: Execute, one_of: OneOf, page: int) -> Iterator[tuple[int, int]]:
    """(seq, how many rows) of every record number that has seats' rows and
    no record, in order: one pass over the seats' record numbers, ``page``
    a query (an index range), each page's looked up among the records by
    key in one more, so that no query's work depends on the store's size."""
    last = -1
    while True:
        numbers = execute(
            "SELECT seq, COUNT(*) FROM capsa_seats WHERE seq > ? GROUP BY seq ORDER BY seq LIMIT ?",
            (last, page),
        ).fetchall()
        if not numbers:
            return
        condition, params = one_of("seq", [int(seq) for seq, _ in numbers])
        held = {
            int(seq)
            for (seq,) in execute(f"SELECT seq FROM capsa_records WHERE {condition}", params)
        }
        for seq, count in numbers:
            if int(seq) not in held:
                yield int(seq), int(count)
        if len(numbers) < page:
            return
        last = int(numbers[-1][0])
