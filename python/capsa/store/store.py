"""The records store: :class:`Store` and :func:`open_store`.

A store is opened on a URL, ``sqlite:///path/records.db`` or
``postgresql://user@host:port/db``. Every thread that uses a store gets a
connection of its own while it runs (:mod:`capsa.store.connections`), so
that a store can be shared by the threads of a server; many processes may
open one store.
"""

from __future__ import annotations

import datetime
import time
from collections.abc import Callable, Iterable, Iterator
from types import TracebackType
from typing import Any, TypeVar

from capsa.ledger import Ledger
from capsa.record_times import moment_ms
from capsa.records import RecordLike
from capsa.store import schema
from capsa.store.anchors import Checkpoint, check_key, make_checkpoint, sign_unsigned_heads
from capsa.store.backend import Backend, Connection
from capsa.store.connections import ThreadConnections
from capsa.store.days import time_zone
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
from capsa.store.verify import Progress, Verifier, VerifyReport
from capsa.store.walk import orphan_seats, walk
from capsa.store.writer import Transaction

__all__ = ["Store", "backend_for", "open_store"]

PAGE_ROWS = 500
"""Rows read per query when streaming: memory holds one page."""
_CHECKPOINT_PAGE = 8
"""Checkpoints read per query (each holds every table)."""
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


def open_store(url: str, *, create: bool = True, key: bytes | None = None) -> Store:
    """Opens the store at ``url``; with ``create``, makes its tables in a
    database that has none; with ``key``, signs heads under it. Raises
    ``SchemaVersionError`` for a store of another schema version,
    ``StoreURLError`` for a URL of no backend."""
    return Store(url, create=create, key=key)


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

    ``key`` (bytes, at least 16; 32 recommended) is the store key: every
    write signs its tables' heads under it, refusing a head it did not
    sign (``HeadMACError``), :meth:`verify` checks every head's MAC and
    :meth:`checkpoint` signs the checkpoint (:mod:`capsa.store.anchors`).
    ``TypeError``/``ArgumentError`` for a key that is not one.
    """

    def __init__(self, url: str, *, create: bool = True, key: bytes | None = None) -> None:
        self.url = url
        self._key = check_key(key)
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
                transaction = Transaction(self._backend, conn, self._key)
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
        since: str | int | datetime.datetime | None = None,
        player: str | None = None,
        limit: int | None = None,
    ) -> Iterator[StoredRound]:
        """The stored records in the order stored, read a page at a time:
        of one table when ``table_id`` is given (None: the table of no id),
        played at or after the moment ``since`` names (ISO 8601 text with
        any offset, ``Z`` or none for UTC; Unix milliseconds; a datetime,
        naive read as UTC), against the moment ``meta.played_at`` names
        (records without one are left out), with ``player`` at a seat, at
        most ``limit``. Raises ``StoreError`` for a ``since`` that names no
        moment."""
        where = ""
        params: list[Any] = []
        if table_id is not ...:
            where += " AND table_key = ?"
            params.append(table_key(table_id))
        if since is not None:
            moment = moment_ms(since)
            if moment is None:
                raise StoreError(
                    "since is ISO 8601 text, Unix milliseconds or a datetime, "
                    f"not {str(since)[:64]!r}"
                )
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
        self,
        table_id: str | Any | None = ...,
        *,
        checkpoints: Iterable[Checkpoint | str] = (),
        progress: Progress | None = None,
    ) -> VerifyReport:
        """Checks the whole store (or one table): every record read back
        from its text and replayed, linked to the record before it, its
        columns and seats' rows its own; every table's head its last record,
        and with the store key signed under it; seats' rows of no record;
        and each chain against the ``checkpoints`` given (:class:`Checkpoint`
        or its text): a chain holding, at a checkpoint's round count, another
        digest or fewer rounds. What fails is a problem of the report naming
        its table and round; the check goes on. Reads one snapshot, a page
        at a time; ``progress`` is called with the number of records
        checked. Raises ``StoreError`` for a ``table_id`` the store holds
        neither a head nor a record of, ``CheckpointError`` for a text that
        is not a checkpoint, and the driver's errors: what fails to check is
        in the report."""
        given = [c if isinstance(c, Checkpoint) else Checkpoint.parse(c) for c in checkpoints]
        only = None if table_id is ... else table_key(table_id)
        report = VerifyReport()
        verifier = Verifier(report, self._key, given, only, progress)
        self._execute(self._backend.begin_read)
        try:
            one_of = self._backend.one_of
            verifier.walk(walk(self._execute, one_of, PAGE_ROWS, only))
            if only is None:
                # every seat row of a record was read with it: any other is
                # of no record, and only then are the seats walked for them
                (total,) = self._execute("SELECT COUNT(*) FROM capsa_seats").fetchone()
                if int(total) != report.seats:
                    orphans = orphan_seats(self._execute, one_of, PAGE_ROWS)
                    verifier.seats_of_no_record(orphans)
            elif report.tables == 0:
                raise StoreError(f"the store holds no table {table_id!r}")
        finally:
            self._execute("ROLLBACK")
        return verifier.finish()

    # -- anchoring -----------------------------------------------------------

    def checkpoint(self) -> Checkpoint:
        """Makes a checkpoint of every table's round count and last digest,
        signed under the store key when there is one, and keeps it in the
        store; its :attr:`Checkpoint.text` is what to publish, and
        :meth:`verify` checks the chains against it. Raises ``HeadMACError``
        (with a key) for a head the key did not sign."""
        made_ms = time.time_ns() // 1_000_000
        return self._write(lambda tx: make_checkpoint(tx, self._key, made_ms))

    def checkpoints(self) -> Iterator[Checkpoint]:
        """The checkpoints the store made, oldest first, a few at a time.
        Raises ``CheckpointError`` for one edited into something that is not
        one."""
        last = 0
        while True:
            rows = self._execute(
                "SELECT seq, checkpoint FROM capsa_checkpoints WHERE seq > ? ORDER BY seq LIMIT ?",
                (last, _CHECKPOINT_PAGE),
            ).fetchall()
            for _, text in rows:
                yield Checkpoint.parse(text)
            if len(rows) < _CHECKPOINT_PAGE:
                return
            last = int(rows[-1][0])

    def sign_heads(self) -> int:
        """Signs under the store key every head that holds rounds and no MAC
        (heads written before the store had a key, or by a writer without
        it), in one transaction; returns how many. Verify the store first
        (against a checkpoint when there is one): this vouches for the heads
        as they are. A head whose MAC is wrong is left so. Raises
        ``StoreError`` for a store opened without a key."""
        key = self._key
        if key is None:
            raise StoreError("the store was opened without a key: nothing to sign with")
        return self._write(lambda tx: sign_unsigned_heads(tx, key))

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

    def stats(self, *, tz: str = "UTC") -> list[StatsRow]:
        """Rounds, players and rake per table and business day: the day
        (``YYYY-MM-DD``) each record's ``meta.played_at`` falls on in the
        time zone ``tz`` (an IANA name such as ``"Asia/Jakarta"``, or a fixed
        offset such as ``"+07:00"``); day None for records whose
        ``played_at`` names no moment. Raises ``TypeError`` for a ``tz``
        that is not a str, ``StoreError`` for one that names no time zone,
        and the driver's errors."""
        zone = time_zone(tz)
        day, param = self._backend.local_day("r.played_at_ms", zone)
        rows = self._execute(
            f"SELECT r.table_key, {day}, COUNT(DISTINCT r.seq),"
            " COUNT(DISTINCT s.player_id), SUM(s.rake)"
            " FROM capsa_records r JOIN capsa_seats s ON s.seq = r.seq"
            " GROUP BY 1, 2 ORDER BY 1, 2 NULLS LAST",
            (param,),
        ).fetchall()
        return [StatsRow(table_id_of(k), d, int(n), int(p), int(r or 0)) for k, d, n, p, r in rows]

    def export(self, path: str, *, format: str | None = None, on_skip: OnSkip | None = None) -> int:
        """Writes every record to ``path``: JSON Lines (``.jsonl``, the
        stored texts byte for byte, one a line) or a Parquet rounds table
        (``.parquet``, :func:`capsa.record_tables.to_parquet`, needs
        pyarrow); ``format`` (``"jsonl"`` or ``"parquet"``) overrides the
        suffix. A record the rounds schema cannot hold (a stakes matrix) is
        left out of a Parquet file and handed to ``on_skip``, else named by
        ``StoreError`` once the file is written. Returns the number of
        records written. Raises ``StoreError`` for a path of no known
        format, ``OSError`` when it cannot be written."""
        return export_records(self.texts(), path, format, on_skip)


def _stored(row: Any) -> StoredRound:
    _, key, round_id, _, digest, previous, text, played_at = row
    return StoredRound(table_id_of(key), round_id, digest, previous, played_at, text)
