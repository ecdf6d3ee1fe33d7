"""One write transaction of the store: each record checked against its
table's head and the table's round ids and nonces, then inserted.

A table's head row is locked once per transaction (its first record), and
its new head written once at the end, so that a batch of records pays a few
statements per record: the duplicate check, the record, its seats.
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
        """Inserts the record and its seats; False, inserting nothing, when
        its table has its round id or nonce already."""
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
        seats = [
            (seat, player, name, net, rake)
            for seat, (player, name, net, rake) in enumerate(record.seats)
        ]
        return self._backend.insert_record(self._conn, columns, seats)

    def finish(self) -> None:
        """Writes each table's new head (before the commit)."""
        for key, (digest, added) in self._heads.items():
            if added:
                self._conn.execute(
                    self._backend.sql(
                        "UPDATE capsa_tables SET last_digest = ?, rounds = rounds + ?"
                        " WHERE table_key = ?"
                    ),
                    (digest, added, key),
                )
