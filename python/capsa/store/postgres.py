"""The PostgreSQL backend (psycopg 3, the ``capsa[postgres]`` extra): many
server processes write one store. A writer locks its table's head row
(``SELECT ... FOR UPDATE``) for the rest of its transaction, so that writers
of one table take turns and writers of different tables do not wait for each
other; a commit returns once the server has it on disk (the server's
``synchronous_commit``, on by default). The store's time is the server's
(``clock_timestamp()``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

from capsa.store.backend import Backend, Connection, Failure
from capsa.store.errors import StoreURLError

__all__ = ["CONNECT_TIMEOUT_SECONDS", "PostgresBackend"]

CONNECT_TIMEOUT_SECONDS = 10
"""How long connecting waits for an answer (unless the URL's
``connect_timeout`` says otherwise): a host that drops packets fails a try
instead of holding it for the system's TCP timeout."""

# SQLSTATEs of a server that ends or refuses the session: shut down by an
# administrator or crashed, or not accepting connections yet
_SESSION_ENDED = frozenset({"57P01", "57P02", "57P03"})
# what a failed connection attempt says when trying again cannot help (the
# server answers, and refuses these credentials or this database)
_REFUSED_FOR_GOOD = (
    "does not exist",
    "authentication failed",
    "pg_hba.conf",
    "password",
    "permission denied",
)
# an id of the store's schema lock among the database's advisory locks
_SCHEMA_LOCK = 0x63617073615F7363


def _psycopg() -> Any:
    try:
        import psycopg
    except ImportError:
        raise StoreURLError(
            "a postgresql:// store needs psycopg: pip install 'capsa[postgres]'"
        ) from None
    return psycopg


class PostgresBackend(Backend):
    """A store in a PostgreSQL database."""

    name = "postgresql"
    begin_write = "BEGIN"
    lock_suffix = " FOR UPDATE"
    sequence_column = "seq BIGSERIAL PRIMARY KEY"
    bytes_column = "BYTEA"
    now_ms = "(extract(epoch FROM clock_timestamp()) * 1000)::bigint"
    pipelines = True

    def __init__(self, url: str) -> None:
        self.url = url
        self._psycopg = _psycopg()

    def connect(self) -> Connection:
        options: dict[str, Any] = {}
        if "connect_timeout" not in self.url:
            options["connect_timeout"] = CONNECT_TIMEOUT_SECONDS
        conn = self._psycopg.connect(self.url, autocommit=True, **options)
        return cast(Connection, conn)

    def sql(self, text: str) -> str:
        return text.replace("%", "%%").replace("?", "%s")

    def retryable(self, exc: BaseException) -> bool:
        errors = self._psycopg.errors
        return isinstance(exc, errors.SerializationFailure | errors.DeadlockDetected)

    def failure(self, exc: BaseException, conn: Connection | None) -> Failure | None:
        psycopg = self._psycopg
        if isinstance(exc, psycopg.errors.DiskFull):
            return Failure.FULL
        if not isinstance(exc, psycopg.OperationalError | psycopg.InterfaceError):
            return None
        if conn is None:
            message = str(exc)
            return None if any(text in message for text in _REFUSED_FOR_GOOD) else Failure.LOST
        if getattr(conn, "closed", False) or getattr(conn, "broken", False):
            return Failure.LOST
        state = getattr(exc, "sqlstate", None) or ""
        return Failure.LOST if state.startswith("08") or state in _SESSION_ENDED else None

    def lock_schema(self, conn: Connection) -> None:
        conn.execute("SELECT pg_advisory_xact_lock(%s)", (_SCHEMA_LOCK,))

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
