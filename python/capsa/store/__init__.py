"""An append-only store of round records on SQLite or PostgreSQL
(``docs/store.md``).

``capsa.store.open(url)`` opens a :class:`Store` on ``sqlite:///path`` (the
standard library's sqlite3) or ``postgresql://...`` (psycopg 3, the
``capsa[postgres]`` extra). A record is stored as its exact canonical JSON
text; :meth:`Store.append` checks its digest and its table's chain in one
transaction and is durable when it returns; :meth:`Store.verify` checks
the whole store, with the store key each head's MAC and against
checkpoints (:class:`Checkpoint`, :meth:`Store.checkpoint`) each chain's
first rounds; :meth:`Store.ledger`, :meth:`Store.rounds`, :meth:`Store.stats`
and :meth:`Store.export` read it back. :func:`migrate` brings an older
store's schema to this capsa's; ``SCHEMA_VERSION`` is the version of the
tables this capsa reads and writes.
"""

from __future__ import annotations

from capsa.store.anchors import Checkpoint
from capsa.store.errors import (
    ChainError,
    CheckpointError,
    DuplicateRoundError,
    HeadMACError,
    NulCharacterError,
    SchemaVersionError,
    StoreError,
    StoreURLError,
)
from capsa.store.rows import StatsRow, StoredRound, TableSummary
from capsa.store.schema import SCHEMA_VERSION
from capsa.store.store import Store, backend_for, open_store
from capsa.store.verify import VerifyProblem, VerifyReport

__all__ = [
    "SCHEMA_VERSION",
    "ChainError",
    "Checkpoint",
    "CheckpointError",
    "DuplicateRoundError",
    "HeadMACError",
    "NulCharacterError",
    "SchemaVersionError",
    "StatsRow",
    "Store",
    "StoreError",
    "StoreURLError",
    "StoredRound",
    "TableSummary",
    "VerifyProblem",
    "VerifyReport",
    "migrate",
    "open",
]


def open(url: str, *, create: bool = True, key: bytes | None = None) -> Store:
    """Opens the store at ``url`` (``sqlite:///path`` or
    ``postgresql://...``); with ``create``, makes its tables in a database
    that has none; with ``key`` (bytes, at least 16), signs and checks the
    tables' heads under it. Raises ``SchemaVersionError`` for a store of
    another schema version (an older one names ``capsa store migrate``),
    ``StoreURLError`` for a URL of no backend, ``TypeError`` or
    ``ArgumentError`` for a key that is not one."""
    return open_store(url, create=create, key=key)


def migrate(url: str) -> tuple[int, int]:
    """Brings the store at ``url`` to this capsa's schema version, in one
    transaction; returns (version before, version after). Raises
    ``SchemaVersionError`` for a database with no store or a newer one,
    ``StoreURLError`` for a URL of no backend, and the driver's error when
    the database cannot be reached."""
    from capsa.store import schema

    backend = backend_for(url)
    if not backend.exists():
        schema.check_version(None, url)  # never makes an empty database
    conn = backend.connect()
    try:
        return schema.migrate_schema(backend, conn, url)
    finally:
        conn.close()
