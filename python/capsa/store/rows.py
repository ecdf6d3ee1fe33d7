"""Records as the store holds them: the exact canonical text of a record and
the columns read from it, and what queries give back."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from capsa import _core
from capsa._core import ArgumentError
from capsa.records.read import RecordLike, ReplayError, View, canonical_json, read_record
from capsa.records.times import played_at_ms, played_at_text
from capsa.store.errors import NulCharacterError

__all__ = [
    "PreparedRecord",
    "StatsRow",
    "StoredRound",
    "TableSummary",
    "column_text",
    "lookup_text",
    "meta_of",
    "prepare",
    "table_id_of",
    "table_key",
]


def table_key(table_id: str | None) -> str:
    """The key of a table in the database: its id, ``""`` for no id."""
    return "" if table_id is None else table_id


def lookup_text(value: object, field: str) -> str | None:
    """A table id, round id or player id a query looks records up by: the
    text as given, or None when it can name nothing stored (it holds
    U+0000, which no stored key holds and PostgreSQL text cannot carry).
    Raises ``TypeError`` for a value that is not a str, ``ArgumentError``
    naming ``field`` for one that is not valid Unicode (a lone surrogate)."""
    if not isinstance(value, str):
        raise TypeError(f"{field} must be a str, not {type(value).__name__}")
    if not value.isascii():
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            raise ArgumentError(f"{field} is not valid Unicode (a lone surrogate)") from None
    return None if "\0" in value else value


def table_id_of(key: str) -> str | None:
    """The table id of a key (:func:`table_key` undone)."""
    return key or None


_DECODER = json.JSONDecoder()


def meta_of(text: str) -> dict[str, Any] | None:
    """The ``meta`` of a record's canonical text, read alone (not the whole
    record); None when it holds no ``played_at``, the one note the store
    files records by."""
    if '"played_at"' not in text:
        return None
    # the top-level "meta" (no key before it in sorted order holds one)
    start = text.find(',"meta":{')
    if start < 0:
        return None
    meta, _ = _DECODER.raw_decode(text, start + len(',"meta":'))
    return meta if isinstance(meta, dict) else None


@dataclass(frozen=True, slots=True)
class PreparedRecord:
    """A record read and checked, with the columns the store keeps."""

    text: str
    table_id: str | None
    round_id: str
    nonce: int
    digest: str
    previous_digest: str | None
    commitment: str
    played_at: str | None
    """``meta.played_at`` as ISO 8601 text (as written, or ms shown in UTC)."""
    played_at_ms: int | None
    """The moment ``meta.played_at`` names, Unix milliseconds."""
    seats: tuple[tuple[str, str | None, int, int], ...]
    """Per seat: (player id, display name, net, rake); none for a void record."""


_BYTE_ORDER_MARK = "\ufeff"


def _without_byte_order_mark(record: RecordLike) -> RecordLike:
    """The record as given, without the UTF-8 byte-order mark at its start
    that the record readers leave out (``capsa replay``,
    :func:`capsa.records.read_record`)."""
    if isinstance(record, str):
        return record.removeprefix(_BYTE_ORDER_MARK)
    if isinstance(record, bytes | bytearray | memoryview):
        return bytes(record).removeprefix(_BYTE_ORDER_MARK.encode())
    return record


def column_text(text: str | None) -> str | None:
    """A text of the record that is not a key (a player's display name,
    ``meta.played_at``) as its column keeps it: U+0000, which PostgreSQL
    text cannot hold, shown as U+FFFD (the record's text keeps it exactly)."""
    return None if text is None else text.replace("\0", "\ufffd")


def _players(view: View) -> list[tuple[str, str | None]]:
    """The players at the record's seats (a void record has none)."""
    return [] if isinstance(view, _core.VoidView) else view.players


def _check_keys(view: View) -> None:
    """Raises ``NulCharacterError`` for a key the store looks records up by
    (a table id, round id, player id) that holds U+0000."""
    keys = [("table_id", view.table_id), ("round_id", view.round_id)]
    keys += [(f"players[{k}].id", player) for k, (player, _) in enumerate(_players(view))]
    for field, text in keys:
        if text is not None and "\0" in text:
            raise NulCharacterError(
                f"round {view.round_id!r}: {field} holds U+0000, which the store cannot keep",
                view.round_id,
                field,
            )


def prepare(record: RecordLike, replay: bool = False) -> PreparedRecord:
    """Reads a record, a round record or a void record (``RecordError``
    naming the field that is not as its format writes it; a byte-order mark
    at its start left out, as the record readers do) and checks that its
    digest is its contents' (``ReplayError``
    naming ``digest``); with ``replay``, replays it fully (every derived
    field; its chain link is the store's to check). Raises
    ``NulCharacterError`` for an id holding U+0000."""
    record = _without_byte_order_mark(record)
    if isinstance(record, str):
        text = record
        view = read_record(text)
    if not isinstance(record, str) or not view.canonical_as_read:
        text = canonical_json(record)
        view = read_record(text)
    if replay:
        from capsa.records.read import replay_view

        replay_view(view)
    elif view.content_digest != view.digest:
        raise ReplayError(
            view.round_id,
            [("digest", "digest: the digest is not the SHA-256 of the record's contents")],
            "does not replay",
        )
    meta = meta_of(text)
    played_at = played_at_text(meta) if meta is not None else None
    moment = played_at_ms(meta) if meta is not None else None
    players = _players(view)
    texts = [view.table_id or "", view.round_id, played_at or ""]
    for player, name in players:
        texts += (player, name or "")
    if "\0" in "".join(texts):  # one scan of the few short texts, not of the record
        _check_keys(view)
        played_at = column_text(played_at)
        players = [(player, column_text(name)) for player, name in players]
    figures = [] if isinstance(view, _core.VoidView) else view.net_and_rake()
    seats = tuple(
        (player, name, int(net), int(rake))
        for (player, name), (net, rake) in zip(players, figures, strict=True)
    )
    return PreparedRecord(
        text=text,
        table_id=view.table_id,
        round_id=view.round_id,
        nonce=view.nonce,
        digest=view.digest,
        previous_digest=view.previous_digest,
        commitment=view.commitment,
        played_at=played_at,
        played_at_ms=moment,
        seats=seats,
    )


@dataclass(frozen=True, slots=True)
class StoredRound:
    """A stored record: its exact ``text`` and the columns kept with it
    (``table_id``, ``round_id``, ``digest``, ``previous_digest``,
    ``played_at``: ``meta.played_at`` as ISO 8601 text, or None). Raises
    nothing."""

    table_id: str | None
    round_id: str
    digest: str
    previous_digest: str | None
    played_at: str | None
    text: str
    """The record's canonical JSON text, byte for byte as appended."""

    def record(self) -> dict[str, Any]:
        """The record as a dict (parsed from :attr:`text`). Raises nothing
        for a stored record."""
        data: dict[str, Any] = json.loads(self.text)
        return data

    def view(self) -> View:
        """The record read by capsa (:func:`capsa.records.read_record`): a
        round record's view, or a void record's (``kind == "void"``).
        Raises ``RecordError`` for a text edited into something unreadable."""
        return read_record(self.text)


@dataclass(frozen=True, slots=True)
class TableSummary:
    """One table of the store: its id (``table_id``, None for the table of no
    id), its round count (``rounds``) and the digest its next record must
    follow (``last_digest``). Raises nothing."""

    table_id: str | None
    rounds: int
    last_digest: str | None


@dataclass(frozen=True, slots=True)
class StatsRow:
    """The rounds of one table (``table_id``) on one day (``day``, None for
    records with no ``meta.played_at``): how many (``rounds``), how many
    players (``players``), the rake taken (``rake``). Raises nothing."""

    table_id: str | None
    day: str | None
    rounds: int
    players: int
    rake: int
