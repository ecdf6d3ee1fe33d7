"""The errors of the records store, each a :class:`capsa.CapsaError`.

A record that cannot be read or whose digest is not its contents' raises
what :mod:`capsa.records` raises (``RecordError``, ``ReplayError``); what the
store itself refuses raises a :class:`StoreError`.
"""

from __future__ import annotations

from capsa._core import CapsaError

__all__ = [
    "ChainError",
    "DatabaseUnavailableError",
    "DiskFullError",
    "DuplicateRoundError",
    "LeaseError",
    "NulCharacterError",
    "PendingRoundError",
    "SchemaVersionError",
    "StoreError",
    "StoreURLError",
]


class StoreError(CapsaError):
    """Base class of what the records store refuses."""


class StoreURLError(StoreError):
    """A store URL that is not ``sqlite:///path`` or ``postgresql://...``, a
    SQLite path that is a directory or in a directory that does not exist,
    or a backend whose driver is not installed."""


class DuplicateRoundError(StoreError):
    """A record other than the stored one with the same table and round id,
    or the same table and nonce. ``table_id`` and ``round_id`` name the
    record refused; ``field`` is ``"round_id"`` or ``"deal.nonce"``."""

    table_id: str | None
    round_id: str
    field: str

    def __init__(self, message: str, table_id: str | None, round_id: str, field: str) -> None:
        super().__init__(message)
        self.table_id = table_id
        self.round_id = round_id
        self.field = field


class ChainError(StoreError):
    """A record whose ``previous_digest`` is not the digest of its table's
    last stored record (``None`` for a table's first): storing it would fork
    or break the table's chain. ``expected`` is the link the table's next
    record must carry."""

    table_id: str | None
    round_id: str
    expected: str | None

    def __init__(
        self, message: str, table_id: str | None, round_id: str, expected: str | None
    ) -> None:
        super().__init__(message)
        self.table_id = table_id
        self.round_id = round_id
        self.expected = expected


class NulCharacterError(StoreError):
    """A record whose table id, round id or a player's id holds U+0000: the
    store looks records up by these keys exactly, and PostgreSQL text cannot
    hold U+0000 (refused on every backend alike, before any transaction).
    ``field`` names it (``"table_id"``, ``"round_id"``, ``"players[k].id"``);
    ``round_id`` is the record's round id."""

    round_id: str
    field: str

    def __init__(self, message: str, round_id: str, field: str) -> None:
        super().__init__(message)
        self.round_id = round_id
        self.field = field


class SchemaVersionError(StoreError):
    """A database whose store schema is not this capsa's: a newer one (use a
    newer capsa), an older one (run ``capsa store migrate URL``), or none
    (run ``capsa store init URL``)."""


class DatabaseUnavailableError(StoreError):
    """The database could not be reached, or its connections kept breaking,
    for the store's ``retry_seconds``; or a write's commit was sent and its
    answer lost, for a write that is not safe to send again. ``url`` is the
    store's URL with any password hidden; ``cause`` is the driver's last
    error (also the exception's ``__cause__``). The store is not broken by
    it: the next operation connects anew."""

    url: str
    cause: BaseException | None

    def __init__(self, message: str, url: str, cause: BaseException | None) -> None:
        super().__init__(message)
        self.url = url
        self.cause = cause


class DiskFullError(DatabaseUnavailableError):
    """The database is there but the disk under it is full (SQLite's "database
    or disk is full", PostgreSQL's ``disk_full``): raised at once, not tried
    again, the write's transaction rolled back whole. Reads go on; the store
    writes again once there is space."""


class LeaseError(StoreError):
    """A table leased by another holder: taking its lease, or a write fenced
    by ``holder=``, while another holder's lease has not ended (or a fenced
    write of a table whose lease the writer does not hold). ``table_id`` is
    the table, ``holder`` the holder of its lease (None: nobody holds it),
    ``expires_ms`` when that lease ends (Unix milliseconds, None: no
    lease)."""

    table_id: str | None
    holder: str | None
    expires_ms: int | None

    def __init__(
        self, message: str, table_id: str | None, holder: str | None, expires_ms: int | None
    ) -> None:
        super().__init__(message)
        self.table_id = table_id
        self.holder = holder
        self.expires_ms = expires_ms


class PendingRoundError(StoreError):
    """A table's pending round refused or in the way: a record of the pending
    round whose commitment or nonce is not the one opened, a record of
    another round while one is pending, or an opening while another round
    of the table is pending. ``table_id`` is the table, ``round_id`` the
    round refused, ``pending`` the round id pending (None when none is)."""

    table_id: str | None
    round_id: str
    pending: str | None

    def __init__(
        self, message: str, table_id: str | None, round_id: str, pending: str | None
    ) -> None:
        super().__init__(message)
        self.table_id = table_id
        self.round_id = round_id
        self.pending = pending
