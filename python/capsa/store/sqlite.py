"""The SQLite backend: the standard library's ``sqlite3``, write-ahead log,
``synchronous=FULL`` so that a commit is on disk when it returns; a writer
takes the database's write lock first (``BEGIN IMMEDIATE``), so that two
writers never both read the same head of a chain, nor one of them fail to
upgrade a read to a write. The store's time is the process's (SQLite's
``'now'``, the system clock)."""

from __future__ import annotations

import os
import sqlite3
import time
from typing import cast

from capsa.store.backend import Backend, Connection, Failure
from capsa.store.errors import StoreURLError

__all__ = ["SQLiteBackend"]

# how long a writer waits for another's write lock before failing
BUSY_TIMEOUT_SECONDS = 60.0

# SQLite's primary result codes (an extended code's low byte)
_SQLITE_IOERR = 10
_SQLITE_FULL = 13


def _write_ahead_log(conn: sqlite3.Connection) -> None:
    """Puts the database in write-ahead-log mode. The switch of a new
    database takes its lock without waiting for another connection's
    switch (SQLite's busy timeout does not cover it), so it is tried again
    for as long as a writer would wait."""
    deadline = time.monotonic() + BUSY_TIMEOUT_SECONDS
    while True:
        try:
            conn.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or time.monotonic() > deadline:
                raise
        time.sleep(0.01)


class SQLiteBackend(Backend):
    """A store in one SQLite file."""

    name = "sqlite"
    begin_write = "BEGIN IMMEDIATE"
    lock_suffix = ""
    sequence_column = "seq INTEGER PRIMARY KEY AUTOINCREMENT"
    bytes_column = "BLOB"
    now_ms = "CAST((julianday('now') - 2440587.5) * 86400000.0 AS INTEGER)"

    def __init__(self, path: str) -> None:
        self.path = path

    def connect(self) -> Connection:
        folder = os.path.dirname(self.path)
        if folder and not os.path.isdir(folder):
            raise StoreURLError(f"unable to open {self.path}: no such directory {folder}")
        if os.path.isdir(self.path):
            raise StoreURLError(f"unable to open {self.path}: it is a directory")
        conn = sqlite3.connect(
            self.path,
            timeout=BUSY_TIMEOUT_SECONDS,
            isolation_level=None,
            check_same_thread=False,
        )
        try:
            _write_ahead_log(conn)
            conn.execute("PRAGMA synchronous=FULL")
        except BaseException:
            conn.close()
            raise
        return cast(Connection, conn)

    def sql(self, text: str) -> str:
        return text

    def retryable(self, exc: BaseException) -> bool:
        return isinstance(exc, sqlite3.OperationalError) and "locked" in str(exc)

    def failure(self, exc: BaseException, conn: Connection | None) -> Failure | None:
        if not isinstance(exc, sqlite3.Error):
            return None
        code = getattr(exc, "sqlite_errorcode", None)
        if code is None:  # Python 3.10: the message names it
            message = str(exc)
            full = "database or disk is full" in message
            return Failure.FULL if full else Failure.LOST if "disk I/O error" in message else None
        if code & 0xFF == _SQLITE_FULL:
            return Failure.FULL
        return Failure.LOST if code & 0xFF == _SQLITE_IOERR else None

    def lock_schema(self, conn: Connection) -> None:
        pass  # BEGIN IMMEDIATE holds the database's write lock already

    def has_table(self, conn: Connection, name: str) -> bool:
        row = conn.execute(
            "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", (name,)
        ).fetchone()
        return row is not None

    def exists(self) -> bool:
        return os.path.exists(self.path)

    @property
    def errors(self) -> tuple[type[BaseException], ...]:
        return (sqlite3.Error,)
