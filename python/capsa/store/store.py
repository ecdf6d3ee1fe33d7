"""The records store: :class:`Store` and :func:`open_store`.

A store is opened on a URL, ``sqlite:///path/records.db`` or
``postgresql://user@host:port/db``. Every thread that uses a store gets a
connection of its own while it runs (:mod:`capsa.store.connections`), so
that a store can be shared by the threads of a server; many processes may
open one store.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable, Iterable, Iterator
from types import TracebackType
from typing import Any, TypeVar

from capsa.ledger import Ledger
from capsa.record_times import moment_ms
from capsa.records import RecordLike
from capsa.store import schema
from capsa.store.backend import Backend, Connection
from capsa.store.connections import ThreadConnections
from capsa.store.errors import StoreError, StoreURLError
from capsa.store.export import OnSkip, export_records
from capsa.store.rows import (
    StatsRow,
    StoredRound,
    TableSummary,
    prepare,
    table_id_of,
    table_key,
)
from capsa.store.verify import Progress, Row, VerifyReport, verify_rows
from capsa.store.writer import Transaction

__all__ = ["Store", "backend_for", "open_store"]

PAGE_ROWS = 500
"""Rows read per query when streaming: memory holds one page."""
WRITE_TRIES = 5
"""How often a write transaction that lost a deadlock is tried."""

T = TypeVar("T")


def backend_for(url: str) -> Backend:
    """The backend of a store URL (``StoreURLError`` for another form)."""
    if not isinstance(url, str):
        raise TypeError(f"a store URL is a str, not {type(url).__name__}")
    if url.startswith("sqlite:///") and len(url) > len("sqlite:///"):
        from capsa.store.sqlite import SQLiteBackend

        return SQLiteBackend(url[len("sqlite:///") :])
    if url.startswith(("postgresql://", "postgres://")):
        from capsa.store.postgres import PostgresBackend

        return PostgresBackend(url)
    raise StoreURLError(f"{url!r} is not a store URL: sqlite:///PATH or postgresql://...")


def open_store(url: str, *, create: bool = True) -> Store:
    """Opens the store at ``url``; with ``create``, makes its tables in a
    database that has none. Raises ``SchemaVersionError`` for a store of
    another schema version, ``StoreURLError`` for a URL of no backend."""
    return Store(url, create=create)


def _rows_sql(where: str, order: str) -> str:
    return (
        "SELECT seq, table_key, round_id, nonce, digest, previous_digest, record, played_at"
        f" FROM capsa_records WHERE {where} ORDER BY {order} LIMIT ?"
    )


class Store:
    """An append-only store of round records (see :mod:`capsa.store`).

    Use it as a context manager, or call :meth:`close`. Thread-safe: each
    thread has its own connection, handed back when the thread ends. Raises
    ``SchemaVersionError`` for a database of another schema version (or of
    none, without ``create``),
    ``StoreURLError`` for a URL of no backend; every method raises the
    driver's error (``sqlite3.Error``, ``psycopg.Error``) when the database
    fails, and ``StoreError`` once the store is closed.
    """

    def __init__(self, url: str, *, create: bool = True) -> None:
        self.url = url
        self._backend = backend_for(url)
        self._connections = ThreadConnections(self._backend.connect, url)
        if not create and not self._backend.exists():
            schema.check_version(None, url)  # never makes an empty database
        try:
            conn = self._conn()
            if create:
                schema.create_schema(self._backend, conn)
            schema.check_version(schema.schema_version(self._backend, conn), url)
        except BaseException:
            self.close()
            raise

    @property
    def backend(self) -> str:
        """``"sqlite"`` or ``"postgresql"``."""
        return self._backend.name

    def _conn(self) -> Connection:
        return self._connections.get()

    def close(self) -> None:
        """Closes every connection of the store. Raises nothing."""
        self._connections.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    def _execute(self, sql: str, params: tuple[Any, ...] = ()) -> Any:
        return self._conn().execute(self._backend.sql(sql), params)

    # -- writing -------------------------------------------------------------

    def append(self, record: RecordLike, *, replay: bool = False) -> bool:
        """Stores one record, durably when it returns; returns False when the
        same record is stored already (nothing changes).

        The record is read and its digest checked (raises ``RecordError``,
        ``ReplayError``; with ``replay``, every derived field is recomputed
        too); in one transaction it must follow its table's last stored
        record (``ChainError``) and use a round id and nonce its table has
        not used for another record (``DuplicateRoundError``).
        """
        prepared = prepare(record, replay)
        return self._write(lambda tx: tx.insert(prepared))

    def append_many(self, records: Iterable[RecordLike], *, replay: bool = False) -> list[bool]:
        """Stores records in one transaction: all of them or, when one raises
        (raises as :meth:`append` says), none. Durable when it returns;
        returns, per record, what :meth:`append` would (False: stored
        already)."""
        prepared = [prepare(record, replay) for record in records]
        return self._write(lambda tx: tx.insert_all(prepared))

    def _write(self, body: Callable[[Transaction], T]) -> T:
        conn = self._conn()
        for attempt in range(WRITE_TRIES):
            conn.execute(self._backend.begin_write)
            try:
                transaction = Transaction(self._backend, conn)
                result = body(transaction)
                transaction.finish()
                conn.execute("COMMIT")
                return result
            except BaseException as exc:
                conn.execute("ROLLBACK")
                if not self._backend.retryable(exc) or attempt == WRITE_TRIES - 1:
                    raise
        raise AssertionError("unreachable")

    # -- reading -------------------------------------------------------------

    def get(self, table_id: str | None, round_id: str) -> StoredRound | None:
        """The stored record of a table's round, or None. Raises only the
        driver's errors."""
        row = self._execute(
            _rows_sql("table_key = ? AND round_id = ?", "seq"),
            (table_key(table_id), round_id, 1),
        ).fetchone()
        return None if row is None else _stored(row)

    def tables(self) -> list[TableSummary]:
        """Every table of the store, by id (the table of no id first). Raises
        only the driver's errors."""
        rows = self._execute(
            "SELECT table_key, rounds, last_digest FROM capsa_tables ORDER BY table_key"
        ).fetchall()
        return [TableSummary(table_id_of(k), int(n), d) for k, n, d in rows]

    def _pages(self, where: str, params: tuple[Any, ...], limit: int | None) -> Iterator[Any]:
        """Rows in the order stored, a page per query (keyset on ``seq``)."""
        last = 0
        left = limit
        while left is None or left > 0:
            page = PAGE_ROWS if left is None else min(PAGE_ROWS, left)
            rows = self._execute(
                _rows_sql(f"seq > ?{where}", "seq"), (last, *params, page)
            ).fetchall()
            yield from rows
            if len(rows) < page:
                return
            last = int(rows[-1][0])
            if left is not None:
                left -= len(rows)

    def rounds(
        self,
        table_id: str | Any | None = ...,
        *,
        since: str | None = None,
        player: str | None = None,
        limit: int | None = None,
    ) -> Iterator[StoredRound]:
        """The stored records in the order stored, read a page at a time:
        of one table when ``table_id`` is given (None: the table of no id),
        played at or after ``since`` (ISO 8601 text, against
        ``meta.played_at``; records without one are left out), with
        ``player`` at a seat, at most ``limit``. Raises only the driver's
        errors."""
        where = ""
        params: list[Any] = []
        if table_id is not ...:
            where += " AND table_key = ?"
            params.append(table_key(table_id))
        if since is not None:
            moment = moment_ms(since)
            if moment is None:
                raise StoreError(f"since must be ISO 8601 text or Unix milliseconds, not {since!r}")
            where += " AND played_at_ms >= ?"
            params.append(moment)
        if player is not None:
            where += " AND seq IN (SELECT seq FROM capsa_seats WHERE player_id = ?)"
            params.append(player)
        for row in self._pages(where, tuple(params), limit):
            yield _stored(row)

    def texts(self) -> Iterator[str]:
        """Every stored record's text, in the order stored, a page at a
        time. Raises only the driver's errors."""
        for row in self._pages("", (), None):
            yield str(row[6])

    # -- checking and summing ------------------------------------------------

    def verify(
        self, table_id: str | Any | None = ..., *, progress: Progress | None = None
    ) -> VerifyReport:
        """Checks every chain (or one table's): every record read back from
        its text and replayed, linked to the record before it, its columns
        its own, and each table's head its last record. A record that fails
        is a problem of the report naming its table and round; the check
        goes on. Reads a page at a time; ``progress`` is called with the
        number of records checked. Raises only the driver's errors: what
        fails to check is in the report."""
        heads = {
            table_key(t.table_id): (t.last_digest, t.rounds)
            for t in self.tables()
            if table_id is ... or t.table_id == table_id
        }
        report = VerifyReport()
        for key in sorted(heads):
            verify_rows(self._rows_with_seats(key), {key: heads[key]}, report, progress)
        return report

    def _rows_with_seats(self, key: str) -> Iterator[Row]:
        """A table's rows in the order stored, each with its seats' rows, a
        page at a time."""
        page: list[Any] = []
        for row in self._pages(" AND table_key = ?", (key,), None):
            page.append(row)
            if len(page) == PAGE_ROWS:
                yield from self._with_seats(key, page)
                page = []
        yield from self._with_seats(key, page)

    def _with_seats(self, key: str, page: list[Any]) -> Iterator[Row]:
        if not page:
            return
        seats: dict[int, list[tuple[str, str | None, int, int]]] = {}
        found = self._execute(
            "SELECT s.seq, s.player_id, s.player_name, s.net, s.rake FROM capsa_seats s"
            " JOIN capsa_records r ON r.seq = s.seq WHERE r.table_key = ?"
            " AND s.seq >= ? AND s.seq <= ? ORDER BY s.seq, s.seat",
            (key, int(page[0][0]), int(page[-1][0])),
        ).fetchall()
        for seq, player, name, net, rake in found:
            seats.setdefault(int(seq), []).append((player, name, int(net), int(rake)))
        for r in page:
            seq = int(r[0])
            yield (seq, r[1], r[2], r[3], r[4], r[5], r[6], tuple(seats.get(seq, ())))

    def ledger(self, player: str | None = None) -> Ledger | int:
        """With no ``player``, a :class:`capsa.Ledger` of every stored
        record, each replayed and booked in its table's chain; with one, that
        player's balance (net money after rake) over every table. Raises
        what :meth:`capsa.Ledger.add` raises for a record that does not
        replay (run :meth:`verify` to see them all)."""
        if player is not None:
            row = self._execute(
                "SELECT SUM(net) FROM capsa_seats WHERE player_id = ?", (player,)
            ).fetchone()
            return int(row[0] or 0)
        ledger = Ledger(previous_digest=None)
        for text in self.texts():
            ledger.add(text)
        return ledger

    def stats(self) -> list[StatsRow]:
        """Rounds, players and rake per table and day (day None: records
        with no ``meta.played_at``). Raises only the driver's errors."""
        rows = self._execute(
            "SELECT r.table_key, r.played_at_ms / 86400000, COUNT(DISTINCT r.seq),"
            " COUNT(DISTINCT s.player_id), SUM(s.rake)"
            " FROM capsa_records r JOIN capsa_seats s ON s.seq = r.seq"
            " GROUP BY r.table_key, r.played_at_ms / 86400000"
            " ORDER BY r.table_key, r.played_at_ms / 86400000"
        ).fetchall()
        return [
            StatsRow(table_id_of(k), _utc_day(d), int(n), int(p), int(r or 0))
            for k, d, n, p, r in rows
        ]

    def export(
        self,
        path: str,
        *,
        format: str | None = None,
        on_skip: OnSkip | None = None,
        batch_records: int | None = None,
    ) -> int:
        """Writes every record to ``path``: JSON Lines (``.jsonl``, the
        stored texts byte for byte, one a line) or a Parquet rounds table
        (``.parquet``, :func:`capsa.record_tables.to_parquet`, needs
        pyarrow); ``format`` (``"jsonl"`` or ``"parquet"``) overrides the
        suffix. The records are read a page at a time and a Parquet file
        is written a row group of ``batch_records`` records at a time
        (default 8,192), in memory that does not grow with the store. A
        record the rounds schema cannot hold (a stakes matrix) is left out
        of a Parquet file and handed to ``on_skip``, else named by
        ``StoreError`` once the file is written. Returns the number of
        records written. Raises ``StoreError`` for a path of no known
        format, ``OSError`` when it cannot be written, ``ArgumentError``
        for ``batch_records`` below 1."""
        return export_records(self.texts(), path, format, on_skip, batch_records)


def _utc_day(number: int | None) -> str | None:
    """The UTC day of a count of days since the Unix epoch, ISO 8601."""
    if number is None:
        return None
    return (datetime.date(1970, 1, 1) + datetime.timedelta(days=int(number))).isoformat()


def _stored(row: Any) -> StoredRound:
    _, key, round_id, _, digest, previous, text, played_at = row
    return StoredRound(table_id_of(key), round_id, digest, previous, played_at, text)
