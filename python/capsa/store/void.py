"""A table's pending round closed by a void record (``docs/store.md``, "Void
rounds"): the round whose commitment the store recorded before it was
published (its row of ``capsa_pending``), whose record will never come
because the server that dealt it died, is appended to its table's chain as
a void record (:func:`capsa.records.void_record`), and its pending row
cleared, in the caller's transaction."""

from __future__ import annotations

import time

from capsa.records import void_record
from capsa.store.backend import Backend, Connection
from capsa.store.errors import StoreError
from capsa.store.rows import prepare, table_key
from capsa.store.writer import Transaction

__all__ = ["void_pending_round"]


def _now_ms(backend: Backend, conn: Connection) -> int:
    """The time leases are compared with: the database's (PostgreSQL), or
    the process's (SQLite, in the process)."""
    if backend.name == "postgresql":
        row = conn.execute(
            "SELECT (extract(epoch FROM clock_timestamp()) * 1000)::bigint"
        ).fetchone()
        return int(row[0])
    return int(time.time() * 1000)


def _check_holder(
    backend: Backend, conn: Connection, key: str, table_id: str | None, holder: str
) -> None:
    """Raises ``StoreError`` unless ``holder`` holds an unexpired lease of
    the table (read in the transaction)."""
    row = conn.execute(
        backend.sql("SELECT holder, expires_ms FROM capsa_leases WHERE table_key = ?"),
        (key,),
    ).fetchone()
    if row is None or row[0] != holder or int(row[1]) <= _now_ms(backend, conn):
        raise StoreError(
            f"table {table_id!r} is not leased to {holder!r}: its pending round is not voided"
        )


def void_pending_round(
    backend: Backend,
    conn: Connection,
    transaction: Transaction,
    table_id: str | None,
    reason: str,
    holder: str | None,
) -> str | None:
    """In the open write transaction: the void record of the table's
    pending round appended (its round id, nonce and commitment, following
    the digest the round was opened after) and the pending row deleted; the
    record's text, or None when the table has no pending round. Raises
    ``ArgumentError`` for a reason a void record cannot hold, ``StoreError``
    when ``holder`` does not hold the table's lease, ``ChainError`` when the
    table's head has moved past the digest the round was opened after."""
    key = table_key(table_id)
    if holder is not None:
        _check_holder(backend, conn, key, table_id, holder)
    row = conn.execute(
        backend.sql(
            "SELECT round_id, nonce, commitment, previous_digest FROM capsa_pending"
            " WHERE table_key = ?"
        )
        + backend.lock_suffix,
        (key,),
    ).fetchone()
    if row is None:
        return None
    round_id, nonce, commitment, previous = row
    text = void_record(
        str(round_id),
        str(commitment),
        int(nonce),
        reason,
        table_id=table_id,
        previous_digest=previous,
    )
    transaction.insert(prepare(text))
    conn.execute(backend.sql("DELETE FROM capsa_pending WHERE table_key = ?"), (key,))
    return text
