"""The store's tables, their version, and the migrations between versions.

Version 2 holds:

* ``capsa_schema``: one row, the schema version;
* ``capsa_tables``: each table's head (``table_key``, the digest of its last
  record, its round count, and ``head_mac``, the head signed under the
  store key when the store has one); a writer locks this row for its
  transaction;
* ``capsa_records``: each record's exact canonical JSON text with the
  columns queries need (a sequence number in the order stored, table key,
  round id, nonce as decimal text, digest, previous digest, and when the
  record's ``meta`` has ``played_at``: its text and the moment it names,
  ``played_at_ms``, Unix milliseconds);
* ``capsa_seats``: per record and seat, the player's id and name, net money
  and rake, for ledgers and statistics;
* ``capsa_leases``: which server (``holder``) may write a table, until
  when (``expires_ms``);
* ``capsa_pending``: each table's round whose commitment was recorded
  before it was published and whose record is not stored yet (its round
  id, nonce, commitment, the digest it follows, when it was opened);
* ``capsa_set_aside``: records a writer could not store for good, kept
  byte for byte with the reason (``record`` is bytes: any text fits);
* ``capsa_checkpoints``: the checkpoints the store has made, each the
  canonical JSON text an operator publishes.

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

SCHEMA_VERSION = 2
"""The version of the tables this capsa writes."""

Migration = Callable[[Backend, Connection], None]

_PAGE = 500


def _tables_added_in_2(backend: Backend) -> list[str]:
    """The tables version 2 adds to version 1."""
    return [
        "CREATE TABLE capsa_leases (table_key TEXT PRIMARY KEY, holder TEXT NOT NULL,"
        " expires_ms BIGINT NOT NULL)",
        "CREATE TABLE capsa_pending (table_key TEXT PRIMARY KEY, round_id TEXT NOT NULL,"
        " nonce TEXT NOT NULL, commitment TEXT NOT NULL, previous_digest TEXT,"
        " opened_ms BIGINT NOT NULL)",
        f"CREATE TABLE capsa_set_aside ({backend.sequence_column}, table_key TEXT,"
        f" round_id TEXT, reason TEXT NOT NULL, set_aside_ms BIGINT NOT NULL,"
        f" record {backend.bytes_column} NOT NULL)",
        f"CREATE TABLE capsa_checkpoints ({backend.sequence_column},"
        " made_ms BIGINT NOT NULL, checkpoint TEXT NOT NULL)",
    ]


def _version_2(backend: Backend) -> list[str]:
    return [
        "CREATE TABLE capsa_schema (version INTEGER NOT NULL)",
        "CREATE TABLE capsa_tables (table_key TEXT PRIMARY KEY, last_digest TEXT,"
        " rounds BIGINT NOT NULL, head_mac TEXT)",
        f"CREATE TABLE capsa_records ({backend.sequence_column}, table_key TEXT NOT NULL,"
        " round_id TEXT NOT NULL, nonce TEXT NOT NULL, digest TEXT NOT NULL,"
        " previous_digest TEXT, played_at TEXT, played_at_ms BIGINT, record TEXT NOT NULL,"
        " UNIQUE (table_key, round_id), UNIQUE (table_key, nonce))",
        "CREATE INDEX capsa_records_table ON capsa_records (table_key, seq)",
        "CREATE INDEX capsa_records_played_at_ms ON capsa_records (played_at_ms)",
        "CREATE TABLE capsa_seats (seq BIGINT NOT NULL, seat INTEGER NOT NULL,"
        " player_id TEXT NOT NULL, player_name TEXT, net BIGINT NOT NULL,"
        " rake BIGINT NOT NULL, PRIMARY KEY (seq, seat))",
        "CREATE INDEX capsa_seats_player ON capsa_seats (player_id, seq)",
        *_tables_added_in_2(backend),
    ]


def _migrate_1_to_2(backend: Backend, conn: Connection) -> None:
    """Version 1 to 2: the moment each record was played, read from its
    text, in place of the day (stats now count days in a time zone); the
    head's MAC; the tables of leases, pending rounds, records set aside and
    checkpoints."""
    from capsa.records.times import played_at_ms
    from capsa.store.rows import meta_of

    conn.execute("ALTER TABLE capsa_tables ADD COLUMN head_mac TEXT")
    conn.execute("ALTER TABLE capsa_records ADD COLUMN played_at_ms BIGINT")
    conn.execute("DROP INDEX capsa_records_played_at")
    conn.execute("ALTER TABLE capsa_records DROP COLUMN day")
    last = 0
    while True:
        rows = conn.execute(
            backend.sql(
                "SELECT seq, record FROM capsa_records WHERE seq > ? AND played_at IS NOT NULL"
                " ORDER BY seq LIMIT ?"
            ),
            (last, _PAGE),
        ).fetchall()
        for seq, text in rows:
            conn.execute(
                backend.sql("UPDATE capsa_records SET played_at_ms = ? WHERE seq = ?"),
                (played_at_ms(meta_of(str(text))), int(seq)),
            )
        if len(rows) < _PAGE:
            break
        last = int(rows[-1][0])
    conn.execute("CREATE INDEX capsa_records_played_at_ms ON capsa_records (played_at_ms)")
    for statement in _tables_added_in_2(backend):
        conn.execute(statement)


MIGRATIONS: dict[int, Migration] = {1: _migrate_1_to_2}
"""The step from each version to the next."""


def schema_version(backend: Backend, conn: Connection) -> int | None:
    """The database's schema version; None for a database with no store.
    Raises ``SchemaVersionError`` for a version that is not an integer."""
    if not backend.has_table(conn, "capsa_schema"):
        return None
    row = conn.execute("SELECT version FROM capsa_schema").fetchone()
    if row is None:
        return None
    version = row[0]
    if isinstance(version, bool) or not isinstance(version, int):
        # SQLite keeps any value in an INTEGER column: capsa never wrote it
        raise SchemaVersionError(
            f"the store's schema version is {str(version)[:40]!r}, not an integer: "
            "not a records store capsa wrote"
        )
    return version


def create_schema(backend: Backend, conn: Connection) -> bool:
    """Creates the tables of the current version in a database with no store
    (one transaction); returns False, changing nothing, when there is one."""
    conn.execute(backend.begin_write)
    try:
        backend.lock_schema(conn)  # many processes may open a new store at once
        if schema_version(backend, conn) is not None:
            conn.execute("ROLLBACK")
            return False
        for statement in _version_2(backend):
            conn.execute(statement)
        conn.execute(
            backend.sql("INSERT INTO capsa_schema (version) VALUES (?)"), (SCHEMA_VERSION,)
        )
        conn.execute("COMMIT")
    except BaseException:
        backend.rollback(conn)
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
        backend.lock_schema(conn)
        before = schema_version(backend, conn)
        if before is None or before > SCHEMA_VERSION:
            check_version(before, url)
        assert before is not None
        for version in range(before, SCHEMA_VERSION):
            _step(backend, conn, version)
        conn.execute("COMMIT")
    except BaseException:
        backend.rollback(conn)
        raise
    return before, SCHEMA_VERSION
