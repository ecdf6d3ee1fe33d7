"""The store's tables, their version, and the migrations between versions.

Version 1 holds:

* ``capsa_schema``: one row, the schema version;
* ``capsa_tables``: each table's head (``table_key``, the digest of its last
  record, its round count); a writer locks this row for its transaction;
* ``capsa_records``: each record's exact canonical JSON text with the
  columns queries need (a sequence number in the order stored, table key,
  round id, nonce as decimal text, digest, previous digest, played-at and
  its day when the record's ``meta`` has ``played_at``);
* ``capsa_seats``: per record and seat, the player's id and name, net money
  and rake, for ledgers and statistics.

A table of no id (format 1 records, ``table_id: null``) has the key ``""``
(a table id is never empty).

``MIGRATIONS[v]`` takes a database from version ``v`` to ``v + 1``; opening a
store of an older version names ``capsa store migrate URL``, which runs them.
"""

from __future__ import annotations

from collections.abc import Callable

from capsa.store.backend import Backend, Connection
from capsa.store.errors import SchemaVersionError

__all__ = [
    "MIGRATIONS",
    "SCHEMA_VERSION",
    "create_schema",
    "migrate_schema",
    "schema_version",
]

SCHEMA_VERSION = 1
"""The version of the tables this capsa writes."""

Migration = Callable[[Backend, Connection], None]

MIGRATIONS: dict[int, Migration] = {}
"""The step from each version to the next (none yet: version 1 is the first)."""


def _version_1(backend: Backend) -> list[str]:
    return [
        "CREATE TABLE capsa_schema (version INTEGER NOT NULL)",
        "CREATE TABLE capsa_tables (table_key TEXT PRIMARY KEY, last_digest TEXT,"
        " rounds BIGINT NOT NULL)",
        f"CREATE TABLE capsa_records ({backend.sequence_column}, table_key TEXT NOT NULL,"
        " round_id TEXT NOT NULL, nonce TEXT NOT NULL, digest TEXT NOT NULL,"
        " previous_digest TEXT, played_at TEXT, day TEXT, record TEXT NOT NULL,"
        " UNIQUE (table_key, round_id), UNIQUE (table_key, nonce))",
        "CREATE INDEX capsa_records_table ON capsa_records (table_key, seq)",
        "CREATE INDEX capsa_records_played_at ON capsa_records (played_at)",
        "CREATE TABLE capsa_seats (seq BIGINT NOT NULL, seat INTEGER NOT NULL,"
        " player_id TEXT NOT NULL, player_name TEXT, net BIGINT NOT NULL,"
        " rake BIGINT NOT NULL, PRIMARY KEY (seq, seat))",
        "CREATE INDEX capsa_seats_player ON capsa_seats (player_id, seq)",
    ]


def schema_version(backend: Backend, conn: Connection) -> int | None:
    """The database's schema version; None for a database with no store."""
    if not backend.has_table(conn, "capsa_schema"):
        return None
    row = conn.execute("SELECT version FROM capsa_schema").fetchone()
    return None if row is None else int(row[0])


def create_schema(backend: Backend, conn: Connection) -> bool:
    """Creates the tables of the current version in a database with no store
    (one transaction); returns False, changing nothing, when there is one."""
    conn.execute(backend.begin_write)
    try:
        if schema_version(backend, conn) is not None:
            conn.execute("ROLLBACK")
            return False
        for statement in _version_1(backend):
            conn.execute(statement)
        conn.execute(backend.sql("INSERT INTO capsa_schema (version) VALUES (?)"), (1,))
        for version in range(1, SCHEMA_VERSION):
            _step(backend, conn, version)
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    return True


def _step(backend: Backend, conn: Connection, version: int) -> None:
    migration = MIGRATIONS.get(version)
    if migration is None:
        raise SchemaVersionError(f"no migration from store schema version {version}")
    migration(backend, conn)
    conn.execute(backend.sql("UPDATE capsa_schema SET version = ?"), (version + 1,))


def check_version(version: int | None, url: str) -> None:
    """Raises ``SchemaVersionError`` unless the version is this capsa's."""
    if version is None:
        raise SchemaVersionError(f"{url} holds no records store: run capsa store init {url}")
    if version > SCHEMA_VERSION:
        raise SchemaVersionError(
            f"{url} holds a store of schema version {version}; this capsa reads version "
            f"{SCHEMA_VERSION}: use a newer capsa"
        )
    if version < SCHEMA_VERSION:
        raise SchemaVersionError(
            f"{url} holds a store of schema version {version}; this capsa reads version "
            f"{SCHEMA_VERSION}: run capsa store migrate {url}"
        )


def migrate_schema(backend: Backend, conn: Connection, url: str) -> tuple[int, int]:
    """Runs every migration from the database's version to this capsa's in one
    transaction; returns (version before, version after)."""
    conn.execute(backend.begin_write)
    try:
        before = schema_version(backend, conn)
        if before is None or before > SCHEMA_VERSION:
            check_version(before, url)
        assert before is not None
        for version in range(before, SCHEMA_VERSION):
            _step(backend, conn, version)
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    return before, SCHEMA_VERSION
