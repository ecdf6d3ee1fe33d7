"""One write transaction of the store: each record checked against its
table's head and the table's round ids and nonces, then inserted.

A table's head row is locked once per transaction (its first record), and
its new head written once at the end, with every seat of the transaction's
records (one statement run for each seat), so that a record of a batch pays
one statement of its own: its row, whose insert is the duplicate check.

Once it holds a table's head row, a transaction fenced by a ``holder``
checks that the holder leases the table (:mod:`capsa.store.leases`), and
reads the table's pending round (:mod:`capsa.store.pending`): a new record
of the pending round clears it, a record of another round is refused, and
:meth:`Transaction.open` records a new one.
"""

from __future__ import annotations

from capsa.store import leases, pending
from capsa.store.backend import Backend, Connection
from capsa.store.errors import ChainError, DuplicateRoundError, PendingRoundError
from capsa.store.pending import Opening
from capsa.store.rows import PreparedRecord, table_key

__all__ = ["Transaction"]


class Transaction:
    """The records written in one transaction of a connection (begun and
    committed by the caller, :meth:`finish` just before the commit)."""

    def __init__(self, backend: Backend, conn: Connection, holder: str | None = None) -> None:
        self._backend = backend
        self._conn = conn
        self._holder = holder
        # table key -> its pending round (read with the head)
        self._pending: dict[str, Opening | None] = {}
        # table key -> [the digest its next record must follow, records added]
        self._heads: dict[str, list[str | int | None]] = {}
        # (seq, seat, player id, name, net, rake) of every record inserted
        self._seats: list[tuple[int, int, str, str | None, int, int]] = []

    @property
    def conn(self) -> Connection:
        """The connection the transaction runs on."""
        return self._conn

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
            self.fence(key)
            self._pending[key] = pending.read(self._backend, self._conn, key)
        return head

    def pending_round(self, table_id: str | None) -> Opening | None:
        """The table's pending round as the transaction sees it (its head
        row locked, the holder's lease checked), or None."""
        key = table_key(table_id)
        self._head(key)
        return self._pending[key]

    def fence(self, key: str) -> None:
        """Raises ``LeaseError`` unless the transaction's holder (if it has
        one) leases the table."""
        if self._holder is not None:
            leases.fence(self._backend, self._conn, key, self._holder)

    def _opened(self, key: str, record: PreparedRecord) -> None:
        """A new record of the table: clears the table's pending round when
        it is the record's round. Raises ``PendingRoundError`` for a record
        of another round, or of that round with another commitment or
        nonce."""
        opening = self._pending.get(key)
        if opening is None:
            return
        if opening.round_id != record.round_id:
            raise PendingRoundError(
                f"table {record.table_id!r} has round {opening.round_id!r} pending: round "
                f"{record.round_id!r} is refused until its record or void record is stored",
                record.table_id,
                record.round_id,
                opening.round_id,
            )
        if (opening.nonce, opening.commitment) != (record.nonce, record.commitment):
            raise PendingRoundError(
                f"round {record.round_id!r} of table {record.table_id!r} was opened with "
                f"commitment {opening.commitment!r} and nonce {opening.nonce}; its record "
                f"carries {record.commitment!r} and {record.nonce}",
                record.table_id,
                record.round_id,
                opening.round_id,
            )
        pending.clear(self._backend, self._conn, key)
        self._pending[key] = None

    def open(self, opening: Opening) -> None:
        """Records a table's pending round, after the transaction's records.
        The same round pending already changes nothing. Raises
        ``PendingRoundError`` when another round of the table is pending,
        ``DuplicateRoundError`` when the table has a record of its round id
        or nonce, ``ChainError`` when its ``previous_digest`` is not the
        table's head."""
        key = table_key(opening.table_id)
        head = self._head(key)
        current = self._pending[key]
        if current is not None:
            if current.same_round(opening):
                return
            raise PendingRoundError(
                f"table {opening.table_id!r} has round {current.round_id!r} pending: round "
                f"{opening.round_id!r} cannot be opened until its record or void record is "
                "stored",
                opening.table_id,
                opening.round_id,
                current.round_id,
            )
        used = self._conn.execute(
            self._backend.sql(
                "SELECT round_id FROM capsa_records WHERE table_key = ? AND (round_id = ?"
                " OR nonce = ?)"
            ),
            (key, opening.round_id, str(opening.nonce)),
        ).fetchone()
        if used is not None:
            field = "round_id" if used[0] == opening.round_id else "deal.nonce"
            raise DuplicateRoundError(
                f"table {opening.table_id!r} has a record with this {field}: round "
                f"{opening.round_id!r} cannot be opened",
                opening.table_id,
                opening.round_id,
                field,
            )
        if head[0] != opening.previous_digest:
            expected = head[0] if isinstance(head[0], str) else None
            raise ChainError(
                f"round {opening.round_id!r} of table {opening.table_id!r} is opened after "
                f"{opening.previous_digest!r}, but the table's last record is {expected!r}",
                opening.table_id,
                opening.round_id,
                expected,
            )
        pending.insert(self._backend, self._conn, key, opening)
        self._pending[key] = opening

    def insert(self, record: PreparedRecord) -> bool:
        """Stores a record; False when it is stored already. Raises
        ``DuplicateRoundError``, ``ChainError``, ``PendingRoundError`` or
        ``LeaseError`` (the caller rolls back)."""
        key = table_key(record.table_id)
        head = self._head(key)
        nonce = str(record.nonce)
        # the usual case, a record that follows its table's head, costs one
        # statement; the round id and nonce are looked up only when the
        # link or the insert says something is already there
        if head[0] == record.previous_digest and self._insert_row(record):
            self._opened(key, record)
            _advance(head, record)
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

    def insert_all(self, records: list[PreparedRecord]) -> list[bool]:
        """Stores records in order, as :meth:`insert` each. When each
        follows the one before it in its table (a batch of new records) and
        the driver pipelines, their rows go in one statement run for each
        record, one round trip; when one of them turns out to be there
        already, that is undone and they go one by one."""
        if len(records) > 1 and self._backend.pipelines and self._chained(records):
            self._conn.execute("SAVEPOINT capsa_batch")
            seqs = self._backend.insert_records(self._conn, [_columns(r) for r in records])
            if None not in seqs:
                self._conn.execute("RELEASE SAVEPOINT capsa_batch")
                for record, seq in zip(records, seqs, strict=True):
                    assert seq is not None
                    self._inserted(record, seq)
                    key = table_key(record.table_id)
                    self._opened(key, record)
                    _advance(self._heads[key], record)
                return [True] * len(records)
            self._conn.execute("ROLLBACK TO SAVEPOINT capsa_batch")
            self._conn.execute("RELEASE SAVEPOINT capsa_batch")
        return [self.insert(record) for record in records]

    def _chained(self, records: list[PreparedRecord]) -> bool:
        """Whether each record follows its table's head or the record
        before it in its table."""
        last: dict[str, str | int | None] = {}
        for record in records:
            key = table_key(record.table_id)
            if key not in last:
                last[key] = self._head(key)[0]
            if last[key] != record.previous_digest:
                return False
            last[key] = record.digest
        return True

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

    def _insert_row(self, record: PreparedRecord) -> bool:
        """Inserts the record (its seats at :meth:`finish`); False, inserting
        nothing, when its table has its round id or nonce already."""
        seq = self._backend.insert_record(self._conn, _columns(record))
        if seq is None:
            return False
        self._inserted(record, seq)
        return True

    def _inserted(self, record: PreparedRecord, seq: int) -> None:
        self._seats += [(seq, seat, *figures) for seat, figures in enumerate(record.seats)]

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


def _columns(record: PreparedRecord) -> tuple[str | int | None, ...]:
    """A record's row, in the order of :data:`capsa.store.backend.RECORD_COLUMNS`."""
    return (
        table_key(record.table_id),
        record.round_id,
        str(record.nonce),
        record.digest,
        record.previous_digest,
        record.played_at,
        record.played_at_ms,
        record.text,
    )


def _advance(head: list[str | int | None], record: PreparedRecord) -> None:
    """A table's head once ``record`` is added to it."""
    head[0] = record.digest
    head[1] = int(head[1] or 0) + 1
