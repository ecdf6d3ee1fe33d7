"""What differs between the databases a store runs on.

A :class:`Backend` opens connections in autocommit mode, so that every
transaction is an explicit ``BEGIN`` ... ``COMMIT`` and no read leaves one
open; it says how a writer takes its table's head row, which failures are
worth a retry on the same connection (:meth:`Backend.retryable`), and which
mean the connection is gone or the disk is full (:meth:`Backend.failure`).
The SQL of the store is written once, with ``?`` for a parameter;
:meth:`Backend.sql` turns it into the driver's form.
"""

from __future__ import annotations

import contextlib
import enum
from abc import ABC, abstractmethod
from collections.abc import Sequence
from functools import cached_property
from typing import Any, Protocol

__all__ = ["RECORD_COLUMNS", "Backend", "Connection", "Cursor", "Failure"]

RECORD_COLUMNS = (
    "table_key, round_id, nonce, digest, previous_digest, played_at, played_at_ms, record"
)
"""The columns of a record's row that an insert gives, in order."""


class Cursor(Protocol):
    """The part of a DB-API cursor the store uses."""

    def fetchone(self) -> Any:
        """The next row, or None."""

    def fetchall(self) -> list[Any]:
        """Every row left."""


class Connection(Protocol):
    """The part of a DB-API connection the store uses (sqlite3 and psycopg
    both have ``execute`` on the connection)."""

    def execute(self, sql: Any, params: Sequence[Any] = ...) -> Any:
        """Runs one statement; returns its cursor."""

    def cursor(self) -> Any:
        """A new cursor (for ``executemany``)."""

    def close(self) -> None:
        """Closes the connection."""


class Failure(enum.Enum):
    """What a driver error says about the database, when it says more than
    that one statement failed."""

    LOST = "lost"
    """The connection is broken or closed, or none could be made: a new
    connection, maybe a moment later, may work."""
    FULL = "full"
    """The disk under the database is full."""


class Backend(ABC):
    """One kind of database: how to connect and the few SQL forms that differ."""

    name: str
    """``"sqlite"`` or ``"postgresql"``."""
    begin_write: str
    """The statement that starts a transaction that will write."""
    lock_suffix: str
    """What makes a ``SELECT`` of a head row lock it until the commit."""
    sequence_column: str
    """The DDL of the store's record sequence column (its primary key)."""
    bytes_column: str
    """The type of a column of bytes."""
    now_ms: str
    """An SQL expression of the time now, Unix milliseconds (BIGINT)."""
    pipelines = False
    """Whether :meth:`insert_records` sends its statements in one round trip."""

    @abstractmethod
    def connect(self) -> Connection:
        """A new connection, in autocommit mode."""

    @abstractmethod
    def sql(self, text: str) -> str:
        """The statement with ``?`` parameters in the driver's form."""

    @abstractmethod
    def retryable(self, exc: BaseException) -> bool:
        """Whether a failed write transaction may be tried again (a deadlock
        or a serialization failure between writers)."""

    @abstractmethod
    def failure(self, exc: BaseException, conn: Connection | None) -> Failure | None:
        """What a driver error raised by ``conn`` (None: by connecting) says:
        the connection lost, the disk full, or None (the statement failed,
        the connection is fine)."""

    def rollback(self, conn: Connection) -> None:
        """Rolls back the transaction of ``conn``; raises nothing when there
        is none left to roll back (the connection broke, or SQLite ended the
        transaction itself on a full disk or an I/O error)."""
        with contextlib.suppress(*self.errors):
            conn.execute("ROLLBACK")

    @abstractmethod
    def lock_schema(self, conn: Connection) -> None:
        """Makes the transaction begun on ``conn`` the only one that creates
        or migrates the store's tables until it ends (others wait)."""

    @abstractmethod
    def has_table(self, conn: Connection, name: str) -> bool:
        """Whether the database has the table."""

    def insert_record(self, conn: Connection, columns: Sequence[Any]) -> int | None:
        """Inserts a record's row (``columns`` in the order of
        :data:`RECORD_COLUMNS`); its sequence number, or None, inserting
        nothing, when its table has its round id or nonce already."""
        row = conn.execute(self._insert_record_sql, tuple(columns)).fetchone()
        return None if row is None else int(row[0])

    def insert_records(self, conn: Connection, rows: Sequence[Sequence[Any]]) -> list[int | None]:
        """:meth:`insert_record` of each row, in order."""
        return [self.insert_record(conn, columns) for columns in rows]

    def insert_seats(self, conn: Connection, seats: Sequence[Sequence[Any]]) -> None:
        """Inserts seats' rows, (seq, seat, player id, name, net, rake) each,
        in one statement run for each row (one round trip where the driver
        can)."""
        conn.cursor().executemany(self._insert_seats_sql, seats)

    @cached_property
    def _insert_record_sql(self) -> str:
        return self.sql(
            f"INSERT INTO capsa_records ({RECORD_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
            " ON CONFLICT DO NOTHING RETURNING seq"
        )

    @cached_property
    def _insert_seats_sql(self) -> str:
        return self.sql(
            "INSERT INTO capsa_seats (seq, seat, player_id, player_name, net, rake)"
            " VALUES (?, ?, ?, ?, ?, ?)"
        )

    def exists(self) -> bool:
        """Whether the database is there to connect to (False: connecting
        would make a new one)."""
        return True

    @property
    @abstractmethod
    def errors(self) -> tuple[type[BaseException], ...]:
        """The driver's own error classes (a lost connection, a full disk)."""
