"""A table's pending round closed by a void record (``docs/store.md``, "Void
rounds"): the round whose commitment the store recorded before it was
published (:mod:`capsa.store.pending`), whose record will never come
because the server that dealt it died, is appended to its table's chain as
a void record (:func:`capsa.records.void_record`), which clears the pending
round, in the caller's write transaction."""

from __future__ import annotations

from capsa.records import void_record
from capsa.store.rows import prepare
from capsa.store.writer import Transaction

__all__ = ["void_pending_round"]


def void_pending_round(transaction: Transaction, table_id: str | None, reason: str) -> str | None:
    """In the write transaction: the void record of the table's pending
    round (its round id, nonce and commitment, following the digest the
    round was opened after) appended, which clears it; the record's text,
    or None when the table has no pending round. Raises ``ArgumentError``
    for a reason a void record cannot hold, and what
    :meth:`Transaction.insert` raises (``LeaseError`` for a holder that
    does not lease the table)."""
    opening = transaction.pending_round(table_id)
    if opening is None:
        return None
    text = void_record(
        opening.round_id,
        opening.commitment,
        opening.nonce,
        reason,
        table_id=table_id,
        previous_digest=opening.previous_digest,
    )
    transaction.insert(prepare(text))
    return text
