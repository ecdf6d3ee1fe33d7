"""Pending rounds: a round whose commitment a server recorded before it
published it, and whose record is not stored yet.

A table has at most one pending round (a row of ``capsa_pending``). It is
recorded by an :class:`Opening` and cleared by the round's record (which
must carry the commitment and nonce opened) in the transaction that stores
it; a record of another round of the table is refused while one is
pending, so that a round whose commitment players saw is never dealt again
under its id nor skipped without a trace. The writer
(:mod:`capsa.store.writer`) reads a table's pending round once it holds
the table's head row, and changes it only while it holds it.
"""

from __future__ import annotations

from dataclasses import dataclass

from capsa._core import ArgumentError
from capsa.store.backend import Backend, Connection
from capsa.store.errors import NulCharacterError
from capsa.store.rows import table_id_of

__all__ = ["Opening", "clear", "insert", "read", "read_all"]


def _text(value: object, field: str, optional: bool = False) -> None:
    if value is None and optional:
        return
    if not isinstance(value, str):
        kind = "a str or None" if optional else "a str"
        raise TypeError(f"{field} must be {kind}, not {type(value).__name__}")


@dataclass(frozen=True, slots=True)
class Opening:
    """A round of a table opened before it is published: its ``table_id``
    (None: the table of no id), ``round_id``, ``nonce``, ``commitment`` (the
    server seed's commitment players are shown), ``previous_digest`` (the
    digest of the table's last record, which the round's record will
    follow; None for a table's first) and ``opened_ms`` (Unix
    milliseconds; None when written: the store's time of the opening).
    Raises ``TypeError`` for a field of another type, ``ArgumentError`` for
    a nonce out of 0..2**64 - 1, ``NulCharacterError`` for an id holding
    U+0000."""

    table_id: str | None
    round_id: str
    nonce: int
    commitment: str
    previous_digest: str | None
    opened_ms: int | None = None

    def __post_init__(self) -> None:
        _text(self.table_id, "table_id", optional=True)
        _text(self.round_id, "round_id")
        _text(self.commitment, "commitment")
        _text(self.previous_digest, "previous_digest", optional=True)
        if not isinstance(self.nonce, int) or isinstance(self.nonce, bool):
            raise TypeError(f"nonce must be an int, not {type(self.nonce).__name__}")
        if not 0 <= self.nonce < 2**64:
            raise ArgumentError(f"nonce: an int 0 to 2**64 - 1, not {self.nonce}")
        opened = self.opened_ms
        if opened is not None and (not isinstance(opened, int) or isinstance(opened, bool)):
            raise TypeError(f"opened_ms must be an int or None, not {type(opened).__name__}")
        for field, text in (("table_id", self.table_id), ("round_id", self.round_id)):
            if text is not None and "\0" in text:
                raise NulCharacterError(
                    f"round {self.round_id!r}: {field} holds U+0000, which the store cannot keep",
                    self.round_id,
                    field,
                )

    def same_round(self, other: Opening) -> bool:
        """Whether ``other`` opens the same round (every field but the time
        of the opening alike). Raises nothing."""
        return (
            self.table_id,
            self.round_id,
            self.nonce,
            self.commitment,
            self.previous_digest,
        ) == (other.table_id, other.round_id, other.nonce, other.commitment, other.previous_digest)


def read(backend: Backend, conn: Connection, key: str) -> Opening | None:
    """The table's pending round, or None."""
    row = conn.execute(
        backend.sql(
            "SELECT round_id, nonce, commitment, previous_digest, opened_ms FROM capsa_pending"
            " WHERE table_key = ?"
        ),
        (key,),
    ).fetchone()
    if row is None:
        return None
    round_id, nonce, commitment, previous, opened_ms = row
    return Opening(table_id_of(key), round_id, int(nonce), commitment, previous, int(opened_ms))


def read_all(backend: Backend, conn: Connection) -> list[Opening]:
    """Every table's pending round, by table key."""
    rows = conn.execute(
        "SELECT table_key, round_id, nonce, commitment, previous_digest, opened_ms"
        " FROM capsa_pending ORDER BY table_key"
    ).fetchall()
    return [
        Opening(table_id_of(key), round_id, int(nonce), commitment, previous, int(opened_ms))
        for key, round_id, nonce, commitment, previous, opened_ms in rows
    ]


def insert(backend: Backend, conn: Connection, key: str, opening: Opening) -> None:
    """Records the opening as the table's pending round (it has none)."""
    conn.execute(
        backend.sql(
            "INSERT INTO capsa_pending (table_key, round_id, nonce, commitment, previous_digest,"
            f" opened_ms) VALUES (?, ?, ?, ?, ?, COALESCE(?, {backend.now_ms}))"
        ),
        (
            key,
            opening.round_id,
            str(opening.nonce),
            opening.commitment,
            opening.previous_digest,
            opening.opened_ms,
        ),
    )


def clear(backend: Backend, conn: Connection, key: str) -> None:
    """Clears the table's pending round."""
    conn.execute(backend.sql("DELETE FROM capsa_pending WHERE table_key = ?"), (key,))
