"""A ledger's entries and its saved form: :class:`LedgerEntry`, and the
checks :meth:`capsa.Ledger.from_dict` makes of saved data (its seal under
the server's key, :mod:`capsa.sealing`, then every part), so that a ledger
loads only what booking its records could have made."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from capsa import _core, sealing
from capsa._core import ArgumentError, CapsaError
from capsa.records.chains import Link, TableChain, check_link
from capsa.sealing import MAC_FIELD

__all__ = [
    "LEDGER_FORMAT",
    "LEDGER_VERSION",
    "LedgerEntry",
    "SavedLedger",
    "check_entry",
    "entry_from_dict",
    "link_data",
    "read_saved",
    "seal_saved",
]

LEDGER_FORMAT = "capsa-ledger"
"""The ``format`` of a saved ledger."""
LEDGER_VERSION = 2
"""The ``format_version`` of a saved ledger this capsa writes and reads
(version 1 was not sealed, and is not read)."""

_ENTRY_KEYS = frozenset(
    {"round", "table_id", "round_id", "digest", "players", "net", "rake", "balances", "house"}
)
# an entry saved before void rounds were booked has no "void": it is a round
_ENTRY_KEYS_VOID = _ENTRY_KEYS | {"void"}
_KEYS = frozenset({"format", "format_version", "seats", "start", "names", "entries", "nonces"})


@dataclass(frozen=True)
class LedgerEntry:
    """One booked round: ``round`` (its place, from 1), ``table_id`` (None
    for a record of no table id), ``round_id`` and ``digest`` (of its
    record), each seat's ``players`` id, ``net`` and ``rake``, each seat's
    player's ``balances`` after it and the ``house`` after it. A void round
    (a void record: dealt never, no money moved) has ``void`` true and no
    seats. Built by :class:`capsa.Ledger`; raises nothing."""

    round: int
    """The round's place in the ledger, from 1."""
    table_id: str | None
    round_id: str
    digest: str
    players: tuple[str, ...]
    """The player id at each seat."""
    net: tuple[int, ...]
    """Each seat's money after rake for the round."""
    rake: tuple[int, ...]
    """The house's rake from each seat for the round."""
    balances: tuple[int, ...]
    """Each seat's player's running balance after the round."""
    house: int
    """The house's running total of rake after the round."""
    void: bool = False
    """Whether the round is void (its record a void record: no seats, no money)."""

    def to_dict(self) -> dict[str, object]:
        """The entry as a JSON-ready dict (one line of the JSON Lines export)."""
        return {
            "round": self.round,
            "table_id": self.table_id,
            "round_id": self.round_id,
            "digest": self.digest,
            "players": list(self.players),
            "net": list(self.net),
            "rake": list(self.rake),
            "balances": list(self.balances),
            "house": self.house,
            "void": self.void,
        }


def _bad(what: str) -> ArgumentError:
    return ArgumentError(f"saved ledger: {what}")


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def link_data(link: Link) -> dict[str, Any]:
    """A chain link as data: checked or not, and the digest (None: none)."""
    return {"checked": link is not ..., "digest": None if link is ... else link}


def _digest(value: object, where: str) -> str | None:
    """A digest of saved data (or None), read as the engine reads one."""
    try:
        return check_link(value, where)  # type: ignore[return-value]
    except (ArgumentError, TypeError) as exc:
        raise _bad(str(exc)) from None


def _link(data: object, where: str) -> Link:
    if not isinstance(data, Mapping) or set(data) != {"checked", "digest"}:
        raise _bad(f"{where} must be an object of checked and digest")
    digest = data["digest"]
    if data["checked"] is False and digest is None:
        return ...
    if data["checked"] is True:
        return _digest(digest, f"{where}.digest")
    raise _bad(f"{where} is not a chain link (a digest of 64 hex digits, or null)")


def _table_id(value: Any, where: str, *, recorded: bool = False) -> str | None:
    """A table id of saved data (or None): as :class:`capsa.Round` reads one
    given to the ledger, or (``recorded``) as the record reader reads one
    from the record booked."""
    if value is None:
        return None
    return _id(value, f"{where}.table_id", recorded=recorded)


def _id(value: Any, field: str, *, recorded: bool = True) -> str:
    """An id of saved data at ``field``, by default as the record reader
    reads an id from a record."""
    try:
        return _core.check_id(value, field, recorded=recorded)
    except (CapsaError, TypeError) as exc:
        raise _bad(str(exc)) from None


def _players(value: object, where: str, names: Mapping[str, str | None]) -> tuple[str, ...]:
    """The player ids of an entry, read with their names as the record
    reader reads a record's players (no id at two seats); each must be in
    ``names``."""
    if not isinstance(value, list) or not 2 <= len(value) <= 4:
        raise _bad(f"{where}.players must be a list of 2 to 4 player ids")
    ids: list[str] = []
    for k, given in enumerate(value):
        at = f"{where}.players[{k}]"
        player = _id(given, f"{at}.id")
        try:
            _core.check_name(names.get(player), f"{at}.name", recorded=True)
        except (CapsaError, TypeError) as exc:
            raise _bad(str(exc)) from None
        if player in ids:
            raise _bad(
                f"{at}.id: player {json.dumps(player[:40], ensure_ascii=False)} is also at "
                f"seat {ids.index(player)}; a player holds one seat"
            )
        ids.append(player)
    for k, p in enumerate(ids):
        if p not in names:
            raise _bad(f"{where}.players[{k}]: {p!r} is not one of the player ids of names")
    return tuple(ids)


def _ints(value: object, where: str, n: int) -> tuple[int, ...]:
    if not isinstance(value, list) or len(value) != n or not all(_is_int(v) for v in value):
        raise _bad(f"{where} must be a list of {n} integers")
    return tuple(value)


def seal_saved(data: dict[str, Any], key: bytes) -> dict[str, Any]:
    """Saved ledger data sealed under the server's ``key`` (bytes, at least
    16 of them): ``TypeError`` for a key that is not bytes,
    ``ArgumentError`` for one too short."""
    return sealing.seal(data, key, "saved ledger", ArgumentError)


@dataclass(frozen=True)
class SavedLedger:
    """Saved ledger data, its form checked: what :meth:`capsa.Ledger.from_dict`
    books again."""

    seats: int | None
    start: Link | dict[str | None, Link]
    names: dict[str, str | None]
    entries: list[Any]
    nonces: dict[str | None, list[int]]


def read_saved(data: Mapping[str, Any], key: bytes) -> SavedLedger:
    """Checks the seal of saved data under ``key``, then its form
    (``ArgumentError`` naming the part, ``TypeError`` for data that is not
    a mapping or a key that is not bytes)."""
    if not isinstance(data, Mapping):
        raise TypeError(f"a saved ledger is a mapping, not {type(data).__name__}")
    if data.get("format") == LEDGER_FORMAT and data.get("format_version") == 1:
        raise _bad(
            "format_version 1 is not sealed, and is not read: book the ledger's records "
            "again (Ledger.extend) and save it with to_dict(key=...)"
        )
    sealing.check_seal(data, key, "saved ledger", ArgumentError)
    if set(data) != _KEYS | {MAC_FIELD}:
        raise _bad(f"the keys are {', '.join(sorted(_KEYS | {MAC_FIELD}))}")
    if data["format"] != LEDGER_FORMAT or data["format_version"] != LEDGER_VERSION:
        raise _bad(f"format must be {LEDGER_FORMAT!r}, format_version {LEDGER_VERSION}")
    seats = data["seats"]
    if not (seats is None or (_is_int(seats) and 2 <= seats <= 4)):
        raise _bad("seats must be 2 to 4 or null")
    raw_start = data["start"]
    start: Link | dict[str | None, Link]
    if isinstance(raw_start, list):
        start = {}
        for k, item in enumerate(raw_start):
            if not isinstance(item, Mapping) or set(item) != {"table_id", "link"}:
                raise _bad(f"start[{k}] must be an object of table_id and link")
            start[_table_id(item["table_id"], f"start[{k}]")] = _link(item["link"], f"start[{k}]")
    else:
        start = _link(raw_start, "start")
    names = data["names"]
    if not isinstance(names, Mapping) or not all(
        isinstance(k, str) and (v is None or isinstance(v, str)) for k, v in names.items()
    ):
        raise _bad("names must map player ids to a name or null")
    entries = data["entries"]
    if not isinstance(entries, list):
        raise _bad("entries must be a list")
    nonces: dict[str | None, list[int]] = {}
    raw_nonces = data["nonces"]
    if not isinstance(raw_nonces, list):
        raise _bad("nonces must be a list")
    for k, item in enumerate(raw_nonces):
        if not isinstance(item, Mapping) or set(item) != {"table_id", "nonces"}:
            raise _bad(f"nonces[{k}] must be an object of table_id and nonces")
        values = item["nonces"]
        if not isinstance(values, list) or not all(_is_int(v) and v >= 0 for v in values):
            raise _bad(f"nonces[{k}].nonces must be a list of nonces")
        nonces[_table_id(item["table_id"], f"nonces[{k}]", recorded=True)] = list(values)
    return SavedLedger(seats, start, dict(names), entries, nonces)


def entry_from_dict(item: object, k: int, names: Mapping[str, str | None]) -> LedgerEntry:
    """The entry of ``entries[k]``, its form checked (its players named in
    ``names``)."""
    where = f"entries[{k}]"
    if not isinstance(item, Mapping) or set(item) not in (_ENTRY_KEYS, _ENTRY_KEYS_VOID):
        raise _bad(f"{where} must have the keys {', '.join(sorted(_ENTRY_KEYS_VOID))}")
    void = item.get("void", False)
    if not isinstance(void, bool):
        raise _bad(f"{where}.void must be true or false")
    if void and item["players"] != []:
        raise _bad(f"{where}.players of a void round must be empty (it has no seats)")
    players = () if void else _players(item["players"], where, names)
    n = len(players)
    round_id, digest = _id(item["round_id"], f"{where}.round_id"), item["digest"]
    if digest is None or _digest(digest, f"{where}.digest") is None:
        raise _bad(f"{where}.digest must be 64 lowercase hexadecimal digits")
    if not _is_int(item["round"]) or not _is_int(item["house"]):
        raise _bad(f"{where}.round and .house must be integers")
    return LedgerEntry(
        round=item["round"],
        table_id=_table_id(item["table_id"], where, recorded=True),
        round_id=round_id,
        digest=digest,
        players=players,
        net=_ints(item["net"], f"{where}.net", n),
        rake=_ints(item["rake"], f"{where}.rake", n),
        balances=_ints(item["balances"], f"{where}.balances", n),
        house=item["house"],
        void=void,
    )


def check_entry(
    entry: LedgerEntry,
    k: int,
    balances: Mapping[str, int],
    house: int,
    chain: TableChain,
    booked: int,
) -> None:
    """Checks that a saved entry follows what was booked before it: its
    place, zero-sum money, each balance and the house recomputed, and a
    round id its table has not used."""
    where = f"entries[{k}]"
    if entry.round != booked + 1:
        raise _bad(f"{where}.round must be {booked + 1}")
    if sum(entry.net) + sum(entry.rake) != 0:
        raise _bad(f"{where}: net plus rake is not zero")
    if any(r < 0 for r in entry.rake) or entry.house != house + sum(entry.rake):
        raise _bad(f"{where}.house is not the house before it plus the round's rake")
    for seat, player in enumerate(entry.players):
        if entry.balances[seat] != balances.get(player, 0) + entry.net[seat]:
            raise _bad(
                f"{where}.balances[{seat}] is not player {player!r}'s balance plus the round's net"
            )
    if entry.round_id in chain.round_ids:
        raise _bad(f"{where}.round_id {entry.round_id!r} is already used in its table")
