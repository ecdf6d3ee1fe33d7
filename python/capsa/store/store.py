"""The records store: :class:`Store` and :func:`open_store`.

A store is opened on a URL, ``sqlite:///path/records.db`` or
``postgresql://user@host:port/db``. Every thread that uses a store gets a
connection of its own while it runs (:mod:`capsa.store.connections`), so
that a store can be shared by the threads of a server; many processes may
open one store. Every operation outlives a broken connection
(:mod:`capsa.store.outages`).
"""

from __future__ import annotations

import datetime
import time
from collections.abc import Callable, Iterable, Iterator
from types import TracebackType
from typing import Any, TypeVar

from capsa import _core
from capsa._core import ArgumentError
from capsa.ledger import Ledger
from capsa.records.read import RecordLike
from capsa.records.times import moment_ms
from capsa.store import leases, pending, schema, set_aside
from capsa.store.anchors import Checkpoint, check_key, make_checkpoint, sign_unsigned_heads
from capsa.store.backend import Backend, Connection
from capsa.store.connections import ThreadConnections
from capsa.store.days import time_zone
from capsa.store.errors import StoreError, StoreURLError
from capsa.store.export import OnSkip, OnVoid, export_records
from capsa.store.outages import DEFAULT_RETRY_SECONDS, Retrying
from capsa.store.pending import Opening
from capsa.store.rows import (
    StatsRow,
    StoredRound,
    TableSummary,
    lookup_text,
    prepare,
    table_id_of,
    table_key,
)
from capsa.store.set_aside import SetAside
from capsa.store.verify import Progress, Verifier, VerifyReport
from capsa.store.void import void_pending_round
from capsa.store.walk import orphan_seats, walk
from capsa.store.writer import Transaction

__all__ = ["Store", "backend_for", "check_retry_seconds", "open_store"]

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


def open_store(
    url: str,
    *,
    create: bool = True,
    key: bytes | None = None,
    retry_seconds: float = DEFAULT_RETRY_SECONDS,
) -> Store:
    """Opens the store at ``url``; with ``create``, makes its tables in a
    database that has none; with ``key``, signs heads under it. Raises
    ``SchemaVersionError`` for a store of another schema version,
    ``StoreURLError`` for a URL of no backend, ``DatabaseUnavailableError``
    for a database that stayed unreachable for ``retry_seconds``."""
    return Store(url, create=create, key=key, retry_seconds=retry_seconds)


def check_retry_seconds(value: object) -> float:
    """``retry_seconds`` as given: a number of seconds >= 0. Raises
    ``TypeError`` for what is not an int or float, ``ArgumentError``
    otherwise."""
    if not isinstance(value, int | float) or isinstance(value, bool):
        raise TypeError(f"retry_seconds must be a number, not {type(value).__name__}")
    if not 0 <= value < float("inf"):
        raise ArgumentError(f"retry_seconds: a number of seconds >= 0, not {value!r}")
    return float(value)


class _Rows:
    """The rows a read fetched, read as a cursor's (the fetch is part of
    the read tried again when the connection breaks)."""

    __slots__ = ("_rows",)

    def __init__(self, rows: list[Any]) -> None:
        self._rows = rows

    def fetchone(self) -> Any:
        return self._rows[0] if self._rows else None

    def fetchall(self) -> list[Any]:
        return self._rows

    def __iter__(self) -> Iterator[Any]:
        return iter(self._rows)


def _rows_sql(where: str, order: str) -> str:
    return (
        "SELECT seq, table_key, round_id, nonce, digest, previous_digest, record, played_at"
        f" FROM capsa_records WHERE {where} ORDER BY {order} LIMIT ?"
    )


class Store:
    """An append-only store of round records (see :mod:`capsa.store`).

    Use it as a context manager, or call :meth:`close`. Thread-safe: each
    thread has its own connection, handed back when the thread ends. A
    connection found broken is replaced and the operation tried again, for
    up to ``retry_seconds`` (:mod:`capsa.store.outages`). Raises
    ``SchemaVersionError`` for a database of another schema version (or of
    none, without ``create``),
    ``StoreURLError`` for a URL of no backend, ``TypeError`` or
    ``ArgumentError`` for a ``retry_seconds`` that is not a number >= 0;
    every method raises ``DatabaseUnavailableError`` when the database
    stays unreachable for ``retry_seconds``, ``DiskFullError`` when its disk
    is full, the driver's error (``sqlite3.Error``, ``psycopg.Error``) for
    another failure of the database, and ``StoreError`` once the store is
    closed.

    ``key`` (bytes, at least 16; 32 recommended) is the store key: every
    write signs its tables' heads under it, refusing a head it did not
    sign (``HeadMACError``), :meth:`verify` checks every head's MAC and
    :meth:`checkpoint` signs the checkpoint (:mod:`capsa.store.anchors`).
    ``TypeError``/``ArgumentError`` for a key that is not one.
    """

    def __init__(
        self,
        url: str,
        *,
        create: bool = True,
        key: bytes | None = None,
        retry_seconds: float = DEFAULT_RETRY_SECONDS,
    ) -> None:
        create = _core.read_flag(create, "create")
        self.url = url
        self._key = check_key(key)
        self.retry_seconds = check_retry_seconds(retry_seconds)
        self._backend = backend_for(url)
        self._connections = ThreadConnections(self._backend.connect, url)
        self._retrying = Retrying(self._backend, self._connections, url, self.retry_seconds)
        if not create and not self._backend.exists():
            schema.check_version(None, url)  # never makes an empty database
        try:
            version = self._retrying.run(self._schema_version(create))
            schema.check_version(version, url)
        except BaseException:
            self.close()
            raise

    def _schema_version(self, create: bool) -> Callable[[Connection], int | None]:
        def opened(conn: Connection) -> int | None:
            if create:
                schema.create_schema(self._backend, conn)
            return schema.schema_version(self._backend, conn)

        return opened

    @property
    def backend(self) -> str:
        """``"sqlite"`` or ``"postgresql"``."""
        return self._backend.name

    def close(self) -> None:
        """Closes every connection of the store. Raises nothing."""
        self._connections.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    def _execute(self, sql: str, params: tuple[Any, ...] = ()) -> _Rows:
        """Runs a read, tried again on a new connection when this one broke;
        its rows."""
        text = self._backend.sql(sql)

        def read(conn: Connection) -> _Rows:
            cursor = conn.execute(text, params)
            return _Rows([] if cursor.description is None else cursor.fetchall())

        return self._retrying.run(read)

    # -- writing -------------------------------------------------------------

    def append(
        self, record: RecordLike, *, replay: bool = False, holder: str | None = None
    ) -> bool:
        """Stores one record, durably when it returns; returns False when the
        same record is stored already (nothing changes).

        The record is read and its digest checked (raises ``RecordError``,
        ``ReplayError``; with ``replay``, every derived field is recomputed
        too); in one transaction it must follow its table's last stored
        record (``ChainError``), use a round id and nonce its table has
        not used for another record (``DuplicateRoundError``), be of its
        table's pending round if it has one, with that round's commitment
        and nonce (``PendingRoundError``), and with ``holder``, its table
        must be leased by that holder (``LeaseError``).
        """
        prepared = prepare(record, _core.read_flag(replay, "replay"))
        return self._write(lambda tx: tx.insert(prepared), holder)

    def append_many(
        self,
        records: Iterable[RecordLike],
        *,
        replay: bool = False,
        openings: Iterable[Opening] = (),
        holder: str | None = None,
    ) -> list[bool]:
        """Stores records in one transaction, then records ``openings`` as
        their tables' pending rounds (:meth:`open_round`): all of it or,
        when one raises (raises as :meth:`append` and :meth:`open_round`
        say), none. Durable when it returns; returns, per record, what
        :meth:`append` would (False: stored already)."""
        replay = _core.read_flag(replay, "replay")
        prepared = [prepare(record, replay) for record in records]
        opened = _openings(openings)

        def body(tx: Transaction) -> list[bool]:
            stored = tx.insert_all(prepared)
            for opening in opened:
                tx.open(opening)
            return stored

        return self._write(body, holder)

    def open_round(self, opening: Opening, *, holder: str | None = None) -> None:
        """Records a round as its table's pending round, durably when it
        returns: a server opens a round before it shows players its
        commitment, and the round's record clears it. The same round opened
        again changes nothing. Raises ``PendingRoundError`` when another
        round of the table is pending, ``DuplicateRoundError`` when the
        table has a record of its round id or nonce, ``ChainError`` when its
        ``previous_digest`` is not the digest of the table's last record,
        ``LeaseError`` as :meth:`append` says."""
        self.append_many((), openings=(opening,), holder=holder)

    def void_pending(
        self, table_id: str | None, reason: str, *, holder: str | None = None
    ) -> str | None:
        """Closes the table's pending round (:meth:`open_round`: its
        commitment was shown to players, its record never came, as when its
        server died) by its void record (:func:`capsa.records.void_record`:
        its round id, nonce and commitment, the digest it was opened after,
        and ``reason``), appended to the table's chain, which clears the
        pending round, in one transaction, durable when it returns. Returns
        the void record's text, or None (changing nothing) when the table
        has no pending round; after a commit whose answer was lost, the
        write tried again finds none and returns None.

        Raises ``ArgumentError`` for a table id or reason a void record
        cannot hold, ``TypeError`` for one of the wrong type, ``LeaseError``
        as :meth:`append` says.
        """
        table_id = _core.read_table_id(table_id)
        if not isinstance(reason, str):
            raise TypeError(f"reason must be a str, not {type(reason).__name__}")
        return self._write(lambda tx: void_pending_round(tx, table_id, reason), holder)

    def _write(
        self,
        body: Callable[[Transaction], T],
        holder: str | None = None,
        *,
        idempotent: bool = True,
    ) -> T:
        """Runs ``body`` in a write transaction, tried again as
        :mod:`capsa.store.outages` says: on a new connection when this one
        broke, and at once when it lost to another writer. ``idempotent``:
        whether running it again after a commit whose answer was lost
        changes nothing (else that raises ``DatabaseUnavailableError``)."""
        if holder is not None:
            leases.check_holder(holder)
        backend = self._backend

        def attempt(conn: Connection) -> T:
            for tried in range(WRITE_TRIES):
                conn.execute(backend.begin_write)
                committing = False
                try:
                    transaction = Transaction(backend, conn, holder, key=self._key)
                    result = body(transaction)
                    transaction.finish()
                    committing = True
                    conn.execute("COMMIT")
                    return result
                except BaseException as exc:
                    if committing and not idempotent and self._retrying.lost(exc, conn):
                        raise self._retrying.unavailable(
                            exc,
                            "the connection broke while the write committed: whether it"
                            " did is unknown",
                        ) from exc
                    backend.rollback(conn)
                    if not backend.retryable(exc) or tried == WRITE_TRIES - 1:
                        raise
            raise AssertionError("unreachable")

        return self._retrying.run(attempt)

    # -- leases --------------------------------------------------------------

    def lease(self, table_ids: Iterable[str | None], holder: str, *, ttl_ms: int = 30_000) -> None:
        """Takes or renews, in one transaction, the lease of every table named
        (None: the table of no id) for ``holder`` until ``ttl_ms`` from now
        (the database's clock; SQLite: this machine's), or takes none: a
        table whose lease another holder holds and has not ended raises
        ``LeaseError`` naming the table, that holder and when its lease
        ends. A server leases its tables at start and renews them well
        before they end; writes given ``holder=`` are refused once the lease
        is another's. Raises ``TypeError`` for a table id or holder that is
        not a str or a ``ttl_ms`` that is not an int, ``ArgumentError`` for
        an empty or over-long holder or ``ttl_ms`` < 1."""
        keys = leases.table_keys(table_ids)
        leases.check_holder(holder)
        if not isinstance(ttl_ms, int) or isinstance(ttl_ms, bool):
            raise TypeError(f"ttl_ms must be an int, not {type(ttl_ms).__name__}")
        if ttl_ms < 1:
            raise ArgumentError(f"ttl_ms: at least 1 ms, not {ttl_ms}")
        backend = self._backend
        self._write(lambda tx: leases.take(backend, tx.conn, keys, holder, ttl_ms))

    def release(self, table_ids: Iterable[str | None], holder: str) -> None:
        """Ends ``holder``'s leases of the tables named (a table leased by
        another holder, or by none, is left as it is), in one transaction.
        Raises ``TypeError`` as :meth:`lease` says."""
        keys = leases.table_keys(table_ids)
        leases.check_holder(holder)
        backend = self._backend
        self._write(lambda tx: leases.release(backend, tx.conn, keys, holder))

    # -- pending rounds and records set aside --------------------------------

    def pending(self, table_id: str | None) -> Opening | None:
        """The table's pending round (opened, its record not stored yet), or
        None. Raises only what a failing database raises (see the class)."""
        backend = self._backend
        looked_up = None if table_id is None else lookup_text(table_id, "table_id")
        if table_id is not None and looked_up is None:
            return None  # an id no table can have
        key = table_key(looked_up)
        return self._retrying.run(lambda conn: pending.read(backend, conn, key))

    def pending_rounds(self) -> list[Opening]:
        """Every table's pending round, by table id. Raises only what a
        failing database raises (see the class)."""
        backend = self._backend
        return self._retrying.run(lambda conn: pending.read_all(backend, conn))

    def set_aside(
        self,
        record: str | bytes,
        reason: str,
        *,
        table_id: str | None = None,
        round_id: str | None = None,
        holder: str | None = None,
    ) -> int:
        """Keeps a record the store refuses for good (or any text a writer
        could not store), byte for byte (a str as its UTF-8), with why and,
        as far as the writer knows them, its table and round; returns its
        number in :meth:`set_aside_records`. The same bytes set aside again
        with the same reason, table and round are kept once (the first one's
        number). Durable when it returns. With ``holder`` and a
        ``table_id``, the table must be leased by that holder
        (``LeaseError``). Raises ``TypeError`` for a record that is not str
        or bytes, or a reason, table id or round id that is not a str."""
        kept = set_aside.record_bytes(record)
        why = set_aside.label(reason, "reason", optional=False)
        assert why is not None
        table = set_aside.label(table_id, "table_id")
        round_ = set_aside.label(round_id, "round_id")
        backend = self._backend

        def body(tx: Transaction) -> int:
            if table is not None:
                tx.fence(table_key(table))
            return set_aside.insert(backend, tx.conn, kept, why, table, round_)

        return self._write(body, holder)

    def set_aside_records(self) -> list[SetAside]:
        """Every record set aside, in the order set aside. Raises only what a
        failing database raises (see the class)."""
        backend = self._backend
        return self._retrying.run(lambda conn: set_aside.select_all(backend, conn))

    # -- reading -------------------------------------------------------------

    def get(self, table_id: str | None, round_id: str) -> StoredRound | None:
        """The stored record of a table's round, or None (also for an id no
        record can have). Raises ``TypeError`` for an id that is not a str,
        ``ArgumentError`` for one that is not valid Unicode, and what a
        failing database raises (see the class)."""
        key = None if table_id is None else lookup_text(table_id, "table_id")
        round_key = lookup_text(round_id, "round_id")
        if (table_id is not None and key is None) or round_key is None:
            return None
        row = self._execute(
            _rows_sql("table_key = ? AND round_id = ?", "seq"),
            (table_key(key), round_key, 1),
        ).fetchone()
        return None if row is None else _stored(row)

    def tables(self) -> list[TableSummary]:
        """Every table of the store, by id (the table of no id first), with
        its round count (0 for a table with a pending round and no record
        yet). Raises only what a failing database raises (see the class)."""
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
        moment, ``TypeError``/``ArgumentError`` for a table or player id
        that is not a str or not valid Unicode, and what a failing database
        raises (see the class)."""
        where = ""
        params: list[Any] = []
        if table_id is not ...:
            key = None if table_id is None else lookup_text(table_id, "table_id")
            if table_id is not None and key is None:
                return  # an id no table can have
            where += " AND table_key = ?"
            params.append(table_key(key))
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
            player_key = lookup_text(player, "player")
            if player_key is None:
                return  # an id no player can have
            where += " AND seq IN (SELECT seq FROM capsa_seats WHERE player_id = ?)"
            params.append(player_key)
        for row in self._pages(where, tuple(params), limit):
            yield _stored(row)

    def texts(self) -> Iterator[str]:
        """Every stored record's text, in the order stored, a page at a
        time. Raises only what a failing database raises (see the
        class)."""
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
        only = None if table_id is ... else _verified_key(table_id)
        backend = self._backend

        def check(conn: Connection) -> VerifyReport:
            # one snapshot on one connection: a connection that breaks part
            # way starts the check again on a new one, from a fresh report
            def execute(sql: str, params: tuple[Any, ...] = ()) -> _Rows:
                cursor = conn.execute(backend.sql(sql), params)
                return _Rows([] if cursor.description is None else cursor.fetchall())

            report = VerifyReport()
            verifier = Verifier(report, self._key, given, only, progress)
            conn.execute(backend.begin_read)
            try:
                verifier.walk(walk(execute, backend.one_of, PAGE_ROWS, only))
                if only is None:
                    # every seat row of a record was read with it: any other
                    # is of no record, and only then are the seats walked
                    (total,) = execute("SELECT COUNT(*) FROM capsa_seats").fetchone()
                    if int(total) != report.seats:
                        orphans = orphan_seats(execute, backend.one_of, PAGE_ROWS)
                        verifier.seats_of_no_record(orphans)
                elif report.tables == 0:
                    raise StoreError(f"the store holds no table {table_id!r}")
            finally:
                backend.rollback(conn)
            return verifier.finish()

        return self._retrying.run(check)

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
        replay (run :meth:`verify` to see them all), ``TypeError`` or
        ``ArgumentError`` for a ``player`` that is not a str or not valid
        Unicode (an id no player can have has balance 0)."""
        if player is not None:
            player_key = lookup_text(player, "player")
            if player_key is None:
                return 0
            row = self._execute(
                "SELECT SUM(net) FROM capsa_seats WHERE player_id = ?", (player_key,)
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
        ``played_at`` names no moment; a void round, which has no seats, is
        not counted. Raises ``TypeError`` for a ``tz``
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

    def export(
        self,
        path: str,
        *,
        format: str | None = None,
        on_skip: OnSkip | None = None,
        on_void: OnVoid | None = None,
        batch_records: int | None = None,
    ) -> int:
        """Writes every record to ``path``: JSON Lines (``.jsonl``, the
        stored texts byte for byte, one a line) or a Parquet rounds table
        (``.parquet``, :func:`capsa.bulk.record_tables.to_parquet`, needs
        pyarrow); ``format`` (``"jsonl"`` or ``"parquet"``) overrides the
        suffix. The records are read a page at a time and a Parquet file
        is written a row group of ``batch_records`` records at a time
        (default 8,192), in memory that does not grow with the store. A
        record the rounds schema cannot hold (a stakes matrix) is left out
        of a Parquet file and handed to ``on_skip``, else named by
        ``StoreError`` once the file is written; a void record, which has
        no seats, is left out of a Parquet file and handed to ``on_void``
        (its round id), never an error. Returns the number of records
        written. Raises ``StoreError`` for a path of no known format,
        ``OSError`` when it cannot be written, ``ArgumentError`` for
        ``batch_records`` below 1."""
        return export_records(self.texts(), path, format, on_skip, on_void, batch_records)


def _openings(openings: Iterable[Opening]) -> list[Opening]:
    """The openings given, each an :class:`Opening` (``TypeError``
    otherwise)."""
    opened = list(openings)
    for opening in opened:
        if not isinstance(opening, Opening):
            raise TypeError(f"an opening is a capsa.store.Opening, not {type(opening).__name__}")
    return opened


def _verified_key(table_id: str | None) -> str:
    """The key of the one table a verify checks; ``StoreError`` for an id
    no table can have (the store holds none)."""
    if table_id is None:
        return table_key(None)
    key = lookup_text(table_id, "table_id")
    if key is None:
        raise StoreError(f"the store holds no table {table_id!r}")
    return key


def _stored(row: Any) -> StoredRound:
    _, key, round_id, _, digest, previous, text, played_at = row
    return StoredRound(table_id_of(key), round_id, digest, previous, played_at, text)
