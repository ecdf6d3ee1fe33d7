"""One write transaction of the store: each record checked against its
table's head and the table's round ids and nonces, then inserted.

A table's head row is locked once per transaction (its first record), and
its new head written once at the end, with every seat of the transaction's
records (one statement run for each seat), so that a record of a batch pays
one statement of its own: its row, whose insert is the duplicate check.
"""

from __future__ import annotations

from capsa.store.backend import Backend, Connection
from capsa.store.errors import ChainError, DuplicateRoundError
from capsa.store.rows import PreparedRecord, table_key

__all__ = ["Transaction"]


class Transaction:
    """The records written in one transaction of a connection (begun and
    committed by the caller, :meth:`finish` just before the commit)."""

    def __init__(self, backend: Backend, conn: Connection) -> None:
        self._backend = backend
        self._conn = conn
        # table key -> [the digest its next record must follow, records added]
        self._heads: dict[str, list[str | int | None]] = {}
        # (seq, seat, player id, name, net, rake) of every record inserted
        self._seats: list[tuple[int, int, str, str | None, int, int]] = []

    def _head(self, key: str) -> list[str | int | None]:
        head = self._heads.get(key)
        if head is None:
            sql = self._backend.sql
            self._conn.execute(
                sql(
                    "INSERT INTO capsa_tables (table_key, last_digest, rounds)"
                    " VALUES (?, NULL, 0) ON CONFLICT (table_key) DO NOTHING"
                ),
                (key,),
            )
            row = self._conn.execute(
                sql("SELECT last_digest FROM capsa_tables WHERE table_key = ?")
                + self._backend.lock_suffix,
                (key,),
            ).fetchone()
            head = self._heads[key] = [row[0], 0]
        return head

    def insert(self, record: PreparedRecord) -> bool:
        """Stores a record; False when it is stored already. Raises
        ``DuplicateRoundError`` or ``ChainError`` (the caller rolls back)."""
        key = table_key(record.table_id)
        head = self._head(key)
        nonce = str(record.nonce)
        # the usual case, a record that follows its table's head, costs two
        # statements; the round id and nonce are looked up only when the
        # link or the insert says something is already there
        if head[0] == record.previous_digest and self._insert_row(key, nonce, record):
            head[0] = record.digest
            head[1] = int(head[1] or 0) + 1
            return True
        if self._stored_already(key, nonce, record):
            return False
        expected = head[0] if isinstance(head[0], str) else None
        raise ChainError(
            f"round {record.round_id!r} of table {record.table_id!r} follows "
            f"{record.previous_digest!r}, but the table's last record is {expected!r}",
            record.table_id,
            record.round_id,
            expected,
        )

    def _stored_already(self, key: str, nonce: str, record: PreparedRecord) -> bool:
        """Whether the record is stored already; raises
        ``DuplicateRoundError`` when another record has its round id or
        nonce."""
        stored = self._conn.execute(
            self._backend.sql(
                "SELECT record, round_id FROM capsa_records WHERE table_key = ?"
                " AND (round_id = ? OR nonce = ?)"
            ),
            (key, record.round_id, nonce),
        ).fetchall()
        for text, round_id in stored:
            if text == record.text:
                return True
            field = "round_id" if round_id == record.round_id else "deal.nonce"
            raise DuplicateRoundError(
                f"table {record.table_id!r} has another record with this {field}: "
                f"round {record.round_id!r} is refused",
                record.table_id,
                record.round_id,
                field,
            )
        return False

    def _insert_row(self, key: str, nonce: str, record: PreparedRecord) -> bool:
        """Inserts the record (its seats at :meth:`finish`); False, inserting
        nothing, when its table has its round id or nonce already."""
        columns = (
            key,
            record.round_id,
            nonce,
            record.digest,
            record.previous_digest,
            record.played_at,
            record.day,
            record.text,
        )
        seq = self._backend.insert_record(self._conn, columns)
        if seq is None:
            return False
        self._seats += [(seq, seat, *figures) for seat, figures in enumerate(record.seats)]
        return True

    def finish(self) -> None:
        """Writes the records' seats and each table's new head (before the
        commit)."""
        if self._seats:
            self._backend.insert_seats(self._conn, self._seats)
        for key, (digest, added) in self._heads.items():
            if added:
                self._conn.execute(
                    self._backend.sql(
                        "UPDATE capsa_tables SET last_digest = ?, rounds = rounds + ?"
                        " WHERE table_key = ?"
                    ),
                    (digest, added, key),
                )
