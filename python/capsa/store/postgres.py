"""The PostgreSQL backend (psycopg 3, the ``capsa[postgres]`` extra): many
server processes write one store. A writer locks its table's head row
(``SELECT ... FOR UPDATE``) for the rest of its transaction, so that writers
of one table take turns and writers of different tables do not wait for each
other; a commit returns once the server has it on disk (the server's
``synchronous_commit``, on by default)."""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from typing import Any, cast

from capsa.store.backend import DAY_RANGE_MS, Backend, Connection
from capsa.store.days import TimeZone
from capsa.store.errors import StoreURLError

__all__ = ["PostgresBackend"]


def _psycopg() -> Any:
    try:
        import psycopg
    except ImportError:
        raise StoreURLError(
            "a postgresql:// store needs psycopg: pip install 'capsa[postgres]'"
        ) from None
    return psycopg


def _offset_text(offset: datetime.timedelta) -> str:
    """An offset from UTC as ``+07:00``."""
    minutes = int(offset.total_seconds()) // 60
    sign = "-" if minutes < 0 else "+"
    return f"{sign}{abs(minutes) // 60:02d}:{abs(minutes) % 60:02d}"


class PostgresBackend(Backend):
    """A store in a PostgreSQL database."""

    name = "postgresql"
    begin_write = "BEGIN"
    begin_read = "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY"
    lock_suffix = " FOR UPDATE"
    sequence_column = "seq BIGSERIAL PRIMARY KEY"
    bytes_column = "BYTEA"
    pipelines = True

    def __init__(self, url: str) -> None:
        self.url = url
        self._psycopg = _psycopg()

    def connect(self) -> Connection:
        conn = self._psycopg.connect(self.url, autocommit=True)
        return cast(Connection, conn)

    def sql(self, text: str) -> str:
        return text.replace("%", "%%").replace("?", "%s")

    def one_of(self, column: str, values: Sequence[int]) -> tuple[str, tuple[Any, ...]]:
        # one array parameter: a statement the driver and the server parse
        # once, whatever the number of values
        return f"{column} = ANY(?)", (list(values),)

    def local_day(self, column: str, tz: TimeZone) -> tuple[str, Any]:
        low, high = DAY_RANGE_MS
        # a fixed offset as an interval (east positive); text would be
        # read as a POSIX zone, whose offsets count west
        zone = "CAST(? AS INTERVAL)" if tz.offset is not None else "?"
        moment = f"(TIMESTAMPTZ 'epoch' + {column} * INTERVAL '1 millisecond')"
        return (
            f"CASE WHEN {column} BETWEEN {low} AND {high}"
            f" THEN to_char({moment} AT TIME ZONE {zone}, 'YYYY-MM-DD') END",
            _offset_text(tz.offset) if tz.offset is not None else tz.name,
        )

    def retryable(self, exc: BaseException) -> bool:
        errors = self._psycopg.errors
        return isinstance(exc, errors.SerializationFailure | errors.DeadlockDetected)

    def has_table(self, conn: Connection, name: str) -> bool:
        row = conn.execute("SELECT to_regclass(%s)", (name,)).fetchone()
        return row is not None and row[0] is not None

    def insert_records(self, conn: Connection, rows: Sequence[Sequence[Any]]) -> list[int | None]:
        cursor = conn.cursor()
        cursor.executemany(self._insert_record_sql, rows, returning=True)
        seqs: list[int | None] = []
        while True:
            row = cursor.fetchone()
            seqs.append(None if row is None else int(row[0]))
            if not cursor.nextset():
                return seqs

    @property
    def errors(self) -> tuple[type[BaseException], ...]:
        return (self._psycopg.Error,)
