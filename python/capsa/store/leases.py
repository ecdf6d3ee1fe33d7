"""Table leases: which server (its ``holder`` name) may write a table, until
when.

A lease is a row of ``capsa_leases`` (table key, holder, ``expires_ms``).
:func:`take` takes or renews the leases of many tables in the caller's
transaction, or raises ``LeaseError`` for the first table another holder
holds; :func:`fence` checks, in a write's transaction, that the writer
holds the table's lease, and locks the lease row (PostgreSQL) so that no
other holder takes it before the write commits. Time is the database's
(:attr:`capsa.store.backend.Backend.now_ms`).
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable

from capsa._core import ArgumentError
from capsa.store.backend import Backend, Connection
from capsa.store.errors import LeaseError
from capsa.store.rows import table_id_of, table_key

__all__ = ["check_holder", "fence", "release", "table_keys", "take"]

MAX_HOLDER_BYTES = 256
"""The longest holder name, in bytes of UTF-8."""


def check_holder(holder: object) -> str:
    """The holder name given: a str of 1 to 256 bytes of UTF-8 without
    U+0000. Raises ``TypeError`` for another type, ``ArgumentError``
    naming ``holder`` otherwise."""
    if not isinstance(holder, str):
        raise TypeError(f"holder must be a str, not {type(holder).__name__}")
    try:
        size = len(holder.encode("utf-8"))
    except UnicodeEncodeError:
        raise ArgumentError("holder: not valid Unicode (a lone surrogate)") from None
    if not 1 <= size <= MAX_HOLDER_BYTES or "\0" in holder:
        raise ArgumentError(
            f"holder: 1 to {MAX_HOLDER_BYTES} bytes of UTF-8 without U+0000, not {holder!r}"
        )
    return holder


def table_keys(table_ids: Iterable[str | None]) -> list[str]:
    """The keys of the tables named, each once, sorted (so that two
    transactions lock them in one order). Raises ``TypeError`` for a str
    given alone or a table id that is not a str or None."""
    if isinstance(table_ids, str | bytes):
        raise TypeError("table_ids is a list of table ids, not one str")
    keys = set()
    for table_id in table_ids:
        if table_id is not None and not isinstance(table_id, str):
            raise TypeError(f"a table id is a str or None, not {type(table_id).__name__}")
        keys.add(table_key(table_id))
    return sorted(keys)


def _moment(ms: int) -> str:
    """Unix milliseconds as ISO 8601 text in UTC."""
    moment = datetime.datetime.fromtimestamp(ms / 1000, datetime.timezone.utc)
    return moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")


def _held_by_another(
    key: str, holder: str | None, expires_ms: int | None, now_ms: int, wanted: str
) -> LeaseError:
    """The error of a table whose lease ``wanted`` does not hold."""
    table_id = table_id_of(key)
    if holder is None or expires_ms is None:
        told = f"table {table_id!r} is not leased by {wanted!r}: nobody holds its lease"
    elif expires_ms <= now_ms:
        told = (
            f"table {table_id!r} is not leased by {wanted!r}: the lease of {holder!r}"
            f" ended at {_moment(expires_ms)} ({(now_ms - expires_ms) / 1000:.1f} s ago)"
        )
    else:
        told = (
            f"table {table_id!r} is leased by {holder!r} until {_moment(expires_ms)}"
            f" (for {(expires_ms - now_ms) / 1000:.1f} s more), not by {wanted!r}"
        )
    return LeaseError(told, table_id, holder, expires_ms)


def take(backend: Backend, conn: Connection, keys: list[str], holder: str, ttl_ms: int) -> None:
    """Takes or renews, in the caller's transaction, the lease of each table
    for ``ttl_ms`` from now. Raises ``LeaseError`` for the first table that
    another holder's unexpired lease holds (the caller rolls back)."""
    now = backend.now_ms
    upsert = backend.sql(
        f"INSERT INTO capsa_leases (table_key, holder, expires_ms) VALUES (?, ?, {now} + ?)"
        " ON CONFLICT (table_key) DO UPDATE SET holder = excluded.holder,"
        " expires_ms = excluded.expires_ms"
        f" WHERE capsa_leases.holder = excluded.holder OR capsa_leases.expires_ms <= {now}"
        " RETURNING holder"
    )
    for key in keys:
        if conn.execute(upsert, (key, holder, ttl_ms)).fetchone() is None:
            row = conn.execute(
                backend.sql(
                    f"SELECT holder, expires_ms, {now} FROM capsa_leases WHERE table_key = ?"
                ),
                (key,),
            ).fetchone()
            raise _held_by_another(key, row[0], int(row[1]), int(row[2]), holder)


def release(backend: Backend, conn: Connection, keys: list[str], holder: str) -> None:
    """Ends, in the caller's transaction, the leases ``holder`` holds of
    these tables (another holder's are left alone)."""
    delete = backend.sql("DELETE FROM capsa_leases WHERE table_key = ? AND holder = ?")
    for key in keys:
        conn.execute(delete, (key, holder))


def fence(backend: Backend, conn: Connection, key: str, holder: str) -> None:
    """Raises ``LeaseError`` unless ``holder`` holds the table's lease and it
    has not ended; locks the lease row until the transaction ends."""
    row = conn.execute(
        backend.sql(
            f"SELECT holder, expires_ms, {backend.now_ms} FROM capsa_leases WHERE table_key = ?"
        )
        + backend.lock_suffix,
        (key,),
    ).fetchone()
    if row is None:
        raise _held_by_another(key, None, None, 0, holder)
    held_by, expires_ms, now_ms = str(row[0]), int(row[1]), int(row[2])
    if held_by != holder or expires_ms <= now_ms:
        raise _held_by_another(key, held_by, expires_ms, now_ms, holder)
