"""The PostgreSQL backend (psycopg 3, the ``capsa[postgres]`` extra): many
server processes write one store. A writer locks its table's head row
(``SELECT ... FOR UPDATE``) for the rest of its transaction, so that writers
of one table take turns and writers of different tables do not wait for each
other; a commit returns once the server has it on disk (the server's
``synchronous_commit``, on by default)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

from capsa.store.backend import RECORD_COLUMNS, Backend, Connection
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


class PostgresBackend(Backend):
    """A store in a PostgreSQL database."""

    name = "postgresql"
    begin_write = "BEGIN"
    lock_suffix = " FOR UPDATE"
    sequence_column = "seq BIGSERIAL PRIMARY KEY"

    def __init__(self, url: str) -> None:
        self.url = url
        self._psycopg = _psycopg()

    def connect(self) -> Connection:
        conn = self._psycopg.connect(self.url, autocommit=True)
        return cast(Connection, conn)

    def sql(self, text: str) -> str:
        return text.replace("%", "%%").replace("?", "%s")

    def retryable(self, exc: BaseException) -> bool:
        errors = self._psycopg.errors
        return isinstance(exc, errors.SerializationFailure | errors.DeadlockDetected)

    def has_table(self, conn: Connection, name: str) -> bool:
        row = conn.execute("SELECT to_regclass(%s)", (name,)).fetchone()
        return row is not None and row[0] is not None

    def insert_record(
        self, conn: Connection, columns: Sequence[Any], seats: Sequence[Sequence[Any]]
    ) -> bool:
        # one statement, so one round trip to the server, for the record and
        # its seats
        values = ", ".join(
            ["(%s::integer, %s::text, %s::text, %s::bigint, %s::bigint)"] * len(seats)
        )
        row = conn.execute(
            "WITH r AS (INSERT INTO capsa_records ("
            + RECORD_COLUMNS
            + ") VALUES (%s, %s, %s, %s, %s, %s, %s, %s) ON CONFLICT DO NOTHING RETURNING seq),"
            " s AS (INSERT INTO capsa_seats (seq, seat, player_id, player_name, net, rake)"
            " SELECT r.seq, v.seat, v.player_id, v.player_name, v.net, v.rake FROM r, (VALUES "
            + values
            + ") AS v (seat, player_id, player_name, net, rake)) SELECT seq FROM r",
            (*columns, *(value for seat in seats for value in seat)),
        ).fetchone()
        return row is not None

    @property
    def errors(self) -> tuple[type[BaseException], ...]:
        return (self._psycopg.Error,)
