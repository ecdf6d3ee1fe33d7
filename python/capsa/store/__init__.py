"""An append-only store of round records on SQLite or PostgreSQL
(``docs/store.md``).

``capsa.store.open(url)`` opens a :class:`Store` on ``sqlite:///path`` (the
standard library's sqlite3) or ``postgresql://...`` (psycopg 3, the
``capsa[postgres]`` extra). A record is stored as its exact canonical JSON
text; :meth:`Store.append` checks its digest and its table's chain in one
transaction and is durable when it returns; :meth:`Store.verify` replays
every chain; :meth:`Store.ledger`, :meth:`Store.rounds`, :meth:`Store.stats`
and :meth:`Store.export` read it back. :func:`migrate` brings an older
store's schema to this capsa's; ``SCHEMA_VERSION`` is the version of the
tables this capsa reads and writes.

A store outlives its database: a broken connection is replaced and the
operation tried again for up to ``retry_seconds`` (``DEFAULT_RETRY_SECONDS``
unless given), then ``DatabaseUnavailableError``; :func:`hide_password`
shows a URL as the store's errors name it. :meth:`Store.lease` keeps two
servers from writing one table; :meth:`Store.open_round` records a round's
commitment before it is published (an :class:`Opening`, the table's pending
round until its record is stored); :meth:`Store.set_aside` keeps what a
writer could not store.
"""

from __future__ import annotations

from capsa.store.errors import (
    ChainError,
    DatabaseUnavailableError,
    DiskFullError,
    DuplicateRoundError,
    LeaseError,
    NulCharacterError,
    PendingRoundError,
    SchemaVersionError,
    StoreError,
    StoreURLError,
)
from capsa.store.outages import DEFAULT_RETRY_SECONDS, hide_password
from capsa.store.pending import Opening
from capsa.store.rows import StatsRow, StoredRound, TableSummary
from capsa.store.schema import SCHEMA_VERSION
from capsa.store.set_aside import SetAside
from capsa.store.store import Store, backend_for, check_retry_seconds, open_store
from capsa.store.verify import VerifyProblem, VerifyReport

__all__ = [
    "DEFAULT_RETRY_SECONDS",
    "SCHEMA_VERSION",
    "ChainError",
    "DatabaseUnavailableError",
    "DiskFullError",
    "DuplicateRoundError",
    "LeaseError",
    "NulCharacterError",
    "Opening",
    "PendingRoundError",
    "SchemaVersionError",
    "SetAside",
    "StatsRow",
    "Store",
    "StoreError",
    "StoreURLError",
    "StoredRound",
    "TableSummary",
    "VerifyProblem",
    "VerifyReport",
    "hide_password",
    "migrate",
    "open",
]


def open(url: str, *, create: bool = True, retry_seconds: float = DEFAULT_RETRY_SECONDS) -> Store:
    """Opens the store at ``url`` (``sqlite:///path`` or
    ``postgresql://...``); with ``create``, makes its tables in a database
    that has none. Raises ``SchemaVersionError`` for a store of another
    schema version (an older one names ``capsa store migrate``),
    ``StoreURLError`` for a URL of no backend, ``DatabaseUnavailableError``
    for a database unreachable for ``retry_seconds``."""
    return open_store(url, create=create, retry_seconds=retry_seconds)


def migrate(url: str, *, retry_seconds: float = DEFAULT_RETRY_SECONDS) -> tuple[int, int]:
    """Brings the store at ``url`` to this capsa's schema version, in one
    transaction; returns (version before, version after). Raises
    ``SchemaVersionError`` for a database with no store or a newer one,
    ``StoreURLError`` for a URL of no backend, ``DatabaseUnavailableError``
    for a database unreachable for ``retry_seconds``."""
    from capsa.store import schema
    from capsa.store.connections import ThreadConnections
    from capsa.store.outages import Retrying

    seconds = check_retry_seconds(retry_seconds)
    backend = backend_for(url)
    if not backend.exists():
        schema.check_version(None, url)  # never makes an empty database
    connections = ThreadConnections(backend.connect, url)
    try:
        retrying = Retrying(backend, connections, url, seconds)
        return retrying.run(lambda conn: schema.migrate_schema(backend, conn, url))
    finally:
        connections.close()
