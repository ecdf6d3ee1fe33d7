"""What ties a store's chains to something an editor of the database cannot
forge: each table's head signed under the store key, and checkpoints.

A chain's records link by digest, so a record changed alone is found; but
someone who can write the database can rewrite a chain's tail coherently
(each digest and link recomputed, the head row set to the new last record)
or cut it short, and the records alone still check. Two anchors find that:

* the **head MAC**: a store opened with a key (bytes, at least 16) writes,
  with every head, ``head_mac``, an HMAC-SHA256 under the key of a fixed
  text of the table's key, round count and last digest
  (:func:`head_mac`). A head rewritten without the key does not match it;
  a head rolled back together with an older MAC it once had does, so
* a **checkpoint** (:class:`Checkpoint`) holds every table's round count and
  last digest at a moment, as canonical JSON text signed under the key when
  the store has one. Published (printed, mailed, put where the database's
  editors cannot reach), it pins each chain's first rounds: a chain of the
  store that no longer holds, at that position, the digest the checkpoint
  names was cut short or rewritten there.
"""

from __future__ import annotations

import datetime
import hashlib
import hmac
import json
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Protocol

from capsa._core import ArgumentError
from capsa.records.times import moment_ms
from capsa.store.errors import CheckpointError, HeadMACError, StoreError
from capsa.store.rows import TableSummary, table_id_of, table_key

__all__ = [
    "CHECKPOINT_FORMAT",
    "CHECKPOINT_VERSION",
    "KEY_ENV",
    "MIN_KEY_BYTES",
    "Checkpoint",
    "check_head",
    "check_key",
    "head_mac",
    "head_problem",
    "key_from_hex",
    "make_checkpoint",
    "sign_unsigned_heads",
]

MIN_KEY_BYTES = 16
"""The shortest store key (32 bytes recommended)."""
KEY_ENV = "CAPSA_STORE_KEY"
"""The environment variable ``capsa store`` reads the store key from (hex)."""
CHECKPOINT_FORMAT = "capsa-store-checkpoint"
"""The ``format`` of a checkpoint's JSON."""
CHECKPOINT_VERSION = 1
"""The ``format_version`` of the checkpoints this capsa writes."""

_HEX64 = re.compile(r"[0-9a-f]{64}")
_HEAD_TEXT = "capsa-store-head"


def check_key(key: object) -> bytes | None:
    """A store key as given (None: no key). Raises ``TypeError`` for one
    that is not bytes, ``ArgumentError`` for one shorter than 16 bytes."""
    if key is None:
        return None
    if not isinstance(key, bytes):
        raise TypeError(
            f"a store key is bytes (at least {MIN_KEY_BYTES}, 32 recommended), "
            f"not {type(key).__name__}"
        )
    if len(key) < MIN_KEY_BYTES:
        raise ArgumentError(
            f"a store key is at least {MIN_KEY_BYTES} bytes (32 recommended), got {len(key)}"
        )
    return key


def key_from_hex(text: str, source: str) -> bytes:
    """A store key written as hex (whitespace around it left out); ``source``
    names where it was read. Raises ``StoreError`` for text that is not
    hex, ``ArgumentError`` for a key shorter than 16 bytes."""
    try:
        key = bytes.fromhex(text.strip())
    except ValueError:
        raise StoreError(f"{source}: a store key is written as hex digits") from None
    checked = check_key(key)
    assert checked is not None
    return checked


def head_mac(key: bytes, table_key: str, rounds: int, last_digest: str | None) -> str:
    """The MAC of a table's head under the store key: HMAC-SHA256, as hex,
    of ``capsa-store-head``, the table's key (``""`` for the table of no
    id), its round count in decimal and its last digest (``""`` for none),
    separated by U+0000 (which no key holds)."""
    text = "\0".join((_HEAD_TEXT, table_key, str(int(rounds)), last_digest or ""))
    return hmac.new(key, text.encode("utf-8"), hashlib.sha256).hexdigest()


def _same(given: str | None, expected: str) -> bool:
    """In constant time."""
    return given is not None and hmac.compare_digest(
        given.encode("utf-8", "replace"), expected.encode()
    )


def head_problem(
    key: bytes, table_key: str, rounds: int, last_digest: str | None, mac: str | None
) -> str | None:
    """What is wrong with a head's MAC under ``key`` (None: nothing). A head
    of no round and no MAC is a table that holds nothing yet."""
    if mac is None:
        if rounds == 0 and last_digest is None:
            return None
        return "the head is not signed under the store key"
    if not _same(mac, head_mac(key, table_key, rounds, last_digest)):
        return "the head's MAC is not the store key's for its round count and last digest"
    return None


def check_head(
    key: bytes, table_key: str, rounds: int, last_digest: str | None, mac: str | None
) -> None:
    """Raises ``HeadMACError`` unless the head's MAC is the key's."""
    problem = head_problem(key, table_key, rounds, last_digest, mac)
    if problem is not None:
        table_id = table_id_of(table_key)
        raise HeadMACError(
            f"table {table_id!r}: {problem} ({rounds} round(s), last digest {last_digest!r}): "
            "it was changed in the database, or written without the key",
            table_id,
        )


def _ms_text(made_ms: int) -> str:
    """Unix milliseconds as ISO 8601 text in UTC, to the millisecond."""
    moment = datetime.datetime(1970, 1, 1, tzinfo=datetime.timezone.utc) + datetime.timedelta(
        milliseconds=made_ms
    )
    return moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")


def _canonical(value: object) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


@dataclass(frozen=True, slots=True)
class Checkpoint:
    """Every table of a store at a moment: its round count and last digest
    (``tables``, each a :class:`capsa.store.TableSummary`, in the order of
    their keys), when it was made (``made_ms``, Unix milliseconds;
    :attr:`made_at` as text) and its MAC under the store key (``mac``, hex;
    None when the store had no key). :attr:`text` is what an operator
    publishes; :meth:`parse` reads it back. Raises nothing."""

    made_ms: int
    tables: tuple[TableSummary, ...]
    mac: str | None

    @property
    def made_at(self) -> str:
        """When it was made, ISO 8601 in UTC (``2026-12-01T20:00:00.000Z``).
        Raises nothing."""
        return _ms_text(self.made_ms)

    def _body(self) -> dict[str, Any]:
        return {
            "format": CHECKPOINT_FORMAT,
            "format_version": CHECKPOINT_VERSION,
            "made_at": self.made_at,
            "tables": [
                {"last_digest": t.last_digest, "rounds": t.rounds, "table_id": t.table_id}
                for t in self.tables
            ],
        }

    @property
    def text(self) -> str:
        """The checkpoint as canonical JSON text (keys sorted, no spaces,
        UTF-8): ``{"format": "capsa-store-checkpoint", "format_version": 1,
        "mac", "made_at", "tables": [{"last_digest", "rounds", "table_id"},
        ...]}``, ``mac`` the HMAC-SHA256 under the key of the same text
        without ``mac``. Raises nothing."""
        return _canonical({**self._body(), "mac": self.mac})

    @classmethod
    def make(
        cls, tables: Iterable[TableSummary], made_ms: int, key: bytes | None = None
    ) -> Checkpoint:
        """The checkpoint of ``tables`` made at ``made_ms``, signed under
        ``key`` when given. Raises ``TypeError``/``ArgumentError`` for a
        key that is not one."""
        ordered = tuple(sorted(tables, key=lambda t: table_key(t.table_id)))
        unsigned = cls(int(made_ms), ordered, None)
        key = check_key(key)
        if key is None:
            return unsigned
        return cls(unsigned.made_ms, ordered, unsigned._mac(key))

    def _mac(self, key: bytes) -> str:
        return hmac.new(key, _canonical(self._body()).encode(), hashlib.sha256).hexdigest()

    def signed_by(self, key: bytes) -> bool:
        """Whether its MAC is the one ``key`` gives (False when unsigned).
        Raises ``TypeError`` for a key that is not bytes."""
        return _same(self.mac, self._mac(key))

    def check(self, key: bytes) -> None:
        """Raises ``CheckpointError`` unless it is signed under ``key``
        (``TypeError`` for a key that is not bytes)."""
        if self.mac is None:
            raise CheckpointError(f"the checkpoint made at {self.made_at} is not signed")
        if not self.signed_by(key):
            raise CheckpointError(
                f"the checkpoint made at {self.made_at}: its MAC is not the store key's "
                "(changed, or signed under another key)"
            )

    @classmethod
    def parse(cls, text: str | bytes) -> Checkpoint:
        """A checkpoint from its JSON text (its canonical form or any other
        JSON of the same values). Raises ``CheckpointError`` naming what is
        not as a checkpoint's: not JSON, another format or version, a field
        missing, extra or of another form, tables out of order or repeated,
        a round count and digest that disagree."""
        try:
            data = json.loads(text)
        except (ValueError, RecursionError) as exc:
            raise CheckpointError(f"a checkpoint is JSON text: {exc}") from None
        if not isinstance(data, dict):
            raise CheckpointError("a checkpoint is a JSON object")
        fields = {"format", "format_version", "mac", "made_at", "tables"}
        if set(data) != fields:
            raise CheckpointError(
                f"a checkpoint has the fields {sorted(fields)}, not {sorted(data)}"
            )
        if data["format"] != CHECKPOINT_FORMAT:
            raise CheckpointError(f"format: {data['format']!r} is not {CHECKPOINT_FORMAT!r}")
        if type(data["format_version"]) is not int or data["format_version"] != CHECKPOINT_VERSION:
            raise CheckpointError(
                f"format_version: {data['format_version']!r}; this capsa reads {CHECKPOINT_VERSION}"
            )
        mac = data["mac"]
        if mac is not None and not (isinstance(mac, str) and _HEX64.fullmatch(mac)):
            raise CheckpointError("mac: 64 lowercase hexadecimal digits, or null")
        made = data["made_at"]
        made_ms = moment_ms(made) if isinstance(made, str) else None
        if made_ms is None or _ms_text(made_ms) != made:
            raise CheckpointError(f"made_at: {made!r} is not UTC time as 2026-12-01T20:00:00.000Z")
        if not isinstance(data["tables"], list):
            raise CheckpointError("tables: a list")
        tables = tuple(_table(k, entry) for k, entry in enumerate(data["tables"]))
        keys = [table_key(t.table_id) for t in tables]
        for k in range(1, len(keys)):
            if keys[k - 1] >= keys[k]:
                raise CheckpointError(f"tables[{k}]: the tables are not in the order of their ids")
        return cls(made_ms, tables, mac)


def _table(k: int, entry: object) -> TableSummary:
    """``tables[k]`` of a checkpoint's JSON."""
    where = f"tables[{k}]"
    if not isinstance(entry, dict) or set(entry) != {"last_digest", "rounds", "table_id"}:
        raise CheckpointError(f"{where}: an object of last_digest, rounds and table_id")
    table_id, rounds, digest = entry["table_id"], entry["rounds"], entry["last_digest"]
    if table_id is not None and not (isinstance(table_id, str) and table_id):
        raise CheckpointError(f"{where}.table_id: a non-empty text, or null")
    if type(rounds) is not int or rounds < 1:
        raise CheckpointError(f"{where}.rounds: an integer of at least 1")
    if not (isinstance(digest, str) and _HEX64.fullmatch(digest)):
        raise CheckpointError(f"{where}.last_digest: 64 lowercase hexadecimal digits")
    return TableSummary(table_id, rounds, digest)


class _Execute(Protocol):
    def execute(self, sql: str, params: tuple[Any, ...] = ()) -> Any:
        """Runs a statement of the store's SQL (``?`` parameters)."""


def make_checkpoint(tx: _Execute, key: bytes | None, made_ms: int) -> Checkpoint:
    """The checkpoint of every head of the store, read in the transaction
    ``tx`` and kept in ``capsa_checkpoints`` there. With a key, each head's
    MAC is checked first (``HeadMACError``: a checkpoint never vouches for a
    head the key did not sign). Tables that hold no round are left out."""
    rows = tx.execute(
        "SELECT table_key, rounds, last_digest, head_mac FROM capsa_tables WHERE rounds > 0"
    ).fetchall()
    tables = []
    for key_text, rounds, digest, mac in rows:
        if key is not None:
            check_head(key, key_text, int(rounds), digest, mac)
        tables.append(TableSummary(table_id_of(key_text), int(rounds), digest))
    checkpoint = Checkpoint.make(tables, made_ms, key)
    tx.execute(
        "INSERT INTO capsa_checkpoints (made_ms, checkpoint) VALUES (?, ?)",
        (checkpoint.made_ms, checkpoint.text),
    )
    return checkpoint


def sign_unsigned_heads(tx: _Execute, key: bytes) -> int:
    """Signs, in the transaction ``tx``, every head that holds rounds and no
    MAC; returns how many. A head whose MAC is wrong is left as it is."""
    rows = tx.execute(
        "SELECT table_key, rounds, last_digest FROM capsa_tables"
        " WHERE head_mac IS NULL AND rounds > 0"
    ).fetchall()
    for key_text, rounds, digest in rows:
        tx.execute(
            "UPDATE capsa_tables SET head_mac = ? WHERE table_key = ?",
            (head_mac(key, key_text, int(rounds), digest), key_text),
        )
    return len(rows)
