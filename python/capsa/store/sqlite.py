"""The SQLite backend: the standard library's ``sqlite3``, write-ahead log,
``synchronous=FULL`` so that a commit is on disk when it returns; a writer
takes the database's write lock first (``BEGIN IMMEDIATE``), so that two
writers never both read the same head of a chain."""

from __future__ import annotations

import os
import sqlite3
from typing import cast

from capsa.store.backend import Backend, Connection

__all__ = ["SQLiteBackend"]

# how long a writer waits for another's write lock before failing
BUSY_TIMEOUT_SECONDS = 60.0


class SQLiteBackend(Backend):
    """A store in one SQLite file."""

    name = "sqlite"
    begin_write = "BEGIN IMMEDIATE"
    lock_suffix = ""
    sequence_column = "seq INTEGER PRIMARY KEY AUTOINCREMENT"

    def __init__(self, path: str) -> None:
        self.path = path

    def connect(self) -> Connection:
        conn = sqlite3.connect(
            self.path,
            timeout=BUSY_TIMEOUT_SECONDS,
            isolation_level=None,
            check_same_thread=False,
        )
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=FULL")
        return cast(Connection, conn)

    def sql(self, text: str) -> str:
        return text

    def retryable(self, exc: BaseException) -> bool:
        return isinstance(exc, sqlite3.OperationalError) and "locked" in str(exc)

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
