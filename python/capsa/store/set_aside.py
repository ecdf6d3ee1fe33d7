"""Records set aside: what a writer could not store for good (a record the
store refuses, a text that is not a record at all), kept byte for byte with
the reason, so that an operator can see it and the writer can go on with
its other tables.

``capsa_set_aside.record`` is bytes: a str is kept as its UTF-8 (a lone
surrogate too, as Python's ``surrogatepass`` writes it), bytes as given.
The texts beside it (table id, round id, reason) are only for finding it:
U+0000 and lone surrogates, which a database text cannot hold, are shown
there as U+FFFD.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from capsa.store.backend import Backend, Connection

__all__ = ["SetAside", "insert", "label", "record_bytes", "select_all"]

# what a database text cannot hold: U+0000 (PostgreSQL) and lone surrogates
# (not UTF-8)
_UNKEEPABLE = re.compile("[\0\ud800-\udfff]")


@dataclass(frozen=True, slots=True)
class SetAside:
    """A record set aside: ``seq`` (the order set aside), ``table_id`` and
    ``round_id`` as the writer named them (or None), ``reason``,
    ``set_aside_ms`` (Unix milliseconds, the store's time) and ``record``,
    the bytes given (a str given: its UTF-8). Raises nothing."""

    seq: int
    table_id: str | None
    round_id: str | None
    reason: str
    set_aside_ms: int
    record: bytes


def record_bytes(record: object) -> bytes:
    """The bytes kept of a record set aside. Raises ``TypeError`` for what
    is not str or bytes."""
    if isinstance(record, str):
        return record.encode("utf-8", "surrogatepass")
    if isinstance(record, bytes | bytearray | memoryview):
        return bytes(record)
    raise TypeError(f"a record set aside is a str or bytes, not {type(record).__name__}")


def label(value: object, field: str, optional: bool = True) -> str | None:
    """A text kept beside a record set aside, in a form any database text
    holds. Raises ``TypeError`` for what is not a str (or None)."""
    if value is None and optional:
        return None
    if not isinstance(value, str):
        kind = "a str or None" if optional else "a str"
        raise TypeError(f"{field} must be {kind}, not {type(value).__name__}")
    return _UNKEEPABLE.sub("\ufffd", value)


def insert(
    backend: Backend,
    conn: Connection,
    record: bytes,
    reason: str,
    table_id: str | None,
    round_id: str | None,
) -> int:
    """Keeps the record in the caller's transaction; its ``seq``. The same
    bytes set aside already with the same reason, table and round give the
    first one's ``seq`` and keep nothing more, so that a writer that tries
    again after losing the answer keeps one copy."""
    found = conn.execute(
        backend.sql(
            "SELECT seq, table_key, round_id FROM capsa_set_aside WHERE reason = ? AND record = ?"
            " ORDER BY seq"
        ),
        (reason, record),
    ).fetchall()
    for seq, key, stored_round in found:
        if (key, stored_round) == (table_id, round_id):
            return int(seq)
    row = conn.execute(
        backend.sql(
            "INSERT INTO capsa_set_aside (table_key, round_id, reason, set_aside_ms, record)"
            f" VALUES (?, ?, ?, {backend.now_ms}, ?) RETURNING seq"
        ),
        (table_id, round_id, reason, record),
    ).fetchone()
    return int(row[0])


def select_all(backend: Backend, conn: Connection) -> list[SetAside]:
    """Every record set aside, in the order set aside."""
    rows = conn.execute(
        "SELECT seq, table_key, round_id, reason, set_aside_ms, record FROM capsa_set_aside"
        " ORDER BY seq"
    ).fetchall()
    return [
        SetAside(int(seq), key, round_id, reason, int(ms), bytes(record))
        for seq, key, round_id, reason, ms, record in rows
    ]
