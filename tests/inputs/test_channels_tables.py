"""A table's id and its players give one message through every channel that
takes them, as :mod:`inputs.test_channels` checks the other kinds.

==============  ========  =======  =========================================
channel         table id  players  what is sent
==============  ========  =======  =========================================
reader          yes       yes      ``_core.read_table_id``, ``read_players``
Round           yes       yes      ``capsa.Round(..., table_id=, players=)``
state           yes       yes      ``Round.from_dict`` of a state changed
                                   and sealed again under the key
record          yes       seat     ``capsa.replay`` of a record
cli replay      yes       seat     ``capsa replay`` on it
verify          yes       seat     ``capsa.verify_deal`` of it
cli verify      yes       seat     ``capsa verify`` on it
Ledger          yes       seat     ``capsa.Ledger.add`` of it
cli settle      yes       seat     ``capsa settle`` on it (a record log)
cli to-parquet  yes       seat     ``capsa records to-parquet`` on it
Ledger start    yes       -        ``Ledger(previous_digest={id: link})``
saved ledger    yes       ids      ``Ledger.from_dict`` of a saved ledger
                                   changed and sealed again under the key
commitments     yes       -        ``capsa verify --commitments``
==============  ========  =======  =========================================

The first channel listed for a fault is the core reader's (``reader``, the
readers ``Round`` calls, or for a fault only a record can hold, the
record's reader behind ``capsa.replay``); every other channel's text is
compared with it. A record names the player
of seat ``k`` ``seats[k].player``, an argument ``players[k]``: the two are
one place (:func:`inputs.test_channels.fault_text` maps one to the other).

Where a channel cannot hold a fault it is left out: a record's JSON holds
integers only (a float is malformed JSON) and no lone surrogate; its
player is an object of ``id`` and ``name`` (both keys), one per seat,
while ``players`` also takes a str (the player's id) and leaves ``name``
optional, so a player that is neither a str nor a mapping is worded with
both forms (the record's with the object only: two faults below), and a
str player or a missing name is a fault only in a record; JSON keys are
always strings. A saved ledger holds each seat's player id and each
player's name (``names``), so it carries the faults of an id, a name's
length and an id at two seats that its sealed data can hold (no float); a
name of another type is refused by its check of ``names`` as a whole. A
record's reader, and a saved ledger of what it read, refuse U+0000 in an
id, and read an older record's other control characters, which every
writer refuses. ``Ledger(previous_digest=...)`` and the
commitments file take a table id only. The saved state of a round holds
the arguments ``Round`` was given, so it carries every fault ``Round``
does that its sealed data can hold: integers only (a float is not state
data), no lone surrogate, keys that are strings.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

import capsa
from capsa import _core
from capsa.cli import main
from capsa.ledger.data import seal_saved
from capsa.round.state import MAC_FIELD, seal
from inputs.test_channels import Answer, _raised, fault_text, is_typed

SEED = b"\x02" * 32
KEY = hashlib.sha256(b"input channels: tables").digest()
PLAYERS: list[Any] = ["p0", {"id": "p1", "name": "One"}]


def _round(**kw: Any) -> capsa.Round:
    return capsa.Round(None, 2, 100, round_id="t", server_seed=SEED, **kw)


def _played() -> tuple[dict[str, Any], dict[str, Any]]:
    """The table's state when open, and its record."""
    rnd = _round(table_id="t0", players=PLAYERS)
    state = json.loads(json.dumps(rnd.to_dict(key=KEY)))
    rnd.deal()
    rnd.close()
    rnd.settle()
    return state, json.loads(rnd.record_json())


STATE, RECORD = _played()
_LEDGER = capsa.Ledger()
_LEDGER.add(RECORD)
SAVED = json.loads(json.dumps(_LEDGER.to_dict(key=KEY)))

_UNSET: Any = object()


@dataclass(frozen=True)
class Fault:
    """A bad table id or player and the channels that take it, the core
    reader's first: ``table_id`` as given everywhere, ``player`` at seat
    ``seat`` (of ``players`` and of a record's seats), ``players`` (the
    whole argument, for a fault only it can hold) and ``saved`` (the change
    to a saved ledger that holds the fault)."""

    kind: str
    name: str
    channels: tuple[str, ...]
    table_id: Any = _UNSET
    player: Any = _UNSET
    seat: int = 0
    players: Any = _UNSET
    saved: Callable[[dict[str, Any]], None] | None = None

    def arguments(self) -> dict[str, Any]:
        """``table_id`` and ``players`` as ``Round`` takes them."""
        out: dict[str, Any] = {"table_id": "t0", "players": list(PLAYERS)}
        if self.table_id is not _UNSET:
            out["table_id"] = self.table_id
        if self.players is not _UNSET:
            out["players"] = self.players
        if self.player is not _UNSET:
            out["players"][self.seat] = self.player
        return out

    def record(self) -> dict[str, Any]:
        """The table's record with the fault in it."""
        data: dict[str, Any] = json.loads(json.dumps(RECORD))
        if self.table_id is not _UNSET:
            data["table_id"] = self.table_id
        if self.player is not _UNSET:
            data["seats"][self.seat]["player"] = self.player
        return data


# ---------------------------------------------------------------- channels


def _reader(f: Fault) -> Answer:
    given = f.arguments()
    if f.table_id is not _UNSET:
        return _raised(lambda: _core.read_table_id(given["table_id"]))
    return _raised(lambda: _core.read_players(given["players"], 2))


def _state(f: Fault) -> Answer:
    state = json.loads(json.dumps(STATE))
    state.pop(MAC_FIELD)
    state.update(f.arguments())
    return _raised(lambda: capsa.Round.from_dict(seal(state, KEY), key=KEY))


def _saved_ledger(f: Fault) -> Answer:
    assert f.saved is not None
    data = json.loads(json.dumps(SAVED))
    data.pop(MAC_FIELD)
    f.saved(data)
    return _raised(lambda: capsa.Ledger.from_dict(seal_saved(data, KEY), key=KEY))


def _cli_records(
    argv: list[str], f: Fault, tmp: Path, capsys: pytest.CaptureFixture[str]
) -> Answer:
    """The error line of a command on a log of the faulty record (its path
    is put where ``argv`` says ``LOG``)."""
    path = tmp / "records.jsonl"
    path.write_text(json.dumps(f.record()) + "\n", encoding="utf-8")
    main([str(path) if a == "LOG" else a for a in argv])
    out, _ = capsys.readouterr()
    lines = [line for line in out.splitlines() if line.strip()]
    assert len(lines) == 1, out
    record = json.loads(lines[0])
    assert "error" in record, "accepted"
    return Answer(record["error"], record["message"], (record.get("fields") or [""])[0])


def _to_parquet(f: Fault, tmp: Path, capsys: pytest.CaptureFixture[str]) -> Answer:
    pytest.importorskip("pyarrow")
    argv = ["records", "to-parquet", "LOG", "-o", str(tmp / "rounds.parquet")]
    return _cli_records(argv, f, tmp, capsys)


def _commitments(f: Fault, tmp: Path, capsys: pytest.CaptureFixture[str]) -> Answer:
    records = tmp / "records.jsonl"
    records.write_text(json.dumps(RECORD) + "\n", encoding="utf-8")
    published = tmp / "commitments.jsonl"
    line = {"round_id": "t", "commitment": RECORD["deal"]["commitment"], "table_id": f.table_id}
    published.write_text(json.dumps(line) + "\n", encoding="utf-8")
    code = main(["verify", "--commitments", str(published), str(records)])
    _, err = capsys.readouterr()
    assert code == 2, err
    command, _, message = err.strip().partition(": ")
    assert command == "capsa verify", err
    return Answer("UsageError", message)


PYTHON_CHANNELS: dict[str, Callable[[Fault], Answer]] = {
    "reader": _reader,
    "Round": lambda f: _raised(lambda: _round(**f.arguments())),
    "state": _state,
    "record": lambda f: _raised(lambda: capsa.replay(f.record())),
    "verify": lambda f: _raised(lambda: capsa.verify_deal(f.record())),
    "Ledger": lambda f: _raised(lambda: capsa.Ledger().add(f.record())),
    "Ledger start": lambda f: _raised(lambda: capsa.Ledger(previous_digest={f.table_id: None})),
    "saved ledger": _saved_ledger,
}
CLI_CHANNELS: dict[str, Callable[[Fault, Path, pytest.CaptureFixture[str]], Answer]] = {
    "cli replay": lambda f, tmp, capsys: _cli_records(["replay", "LOG"], f, tmp, capsys),
    "cli verify": lambda f, tmp, capsys: _cli_records(["verify", "LOG"], f, tmp, capsys),
    "cli settle": lambda f, tmp, capsys: _cli_records(["settle", "LOG"], f, tmp, capsys),
    "cli to-parquet": _to_parquet,
    "commitments": _commitments,
}


def _answer(channel: str, f: Fault, tmp: Path, capsys: pytest.CaptureFixture[str]) -> Answer:
    if channel in CLI_CHANNELS:
        return CLI_CHANNELS[channel](f, tmp, capsys)
    return PYTHON_CHANNELS[channel](f)


# ---------------------------------------------------------------- the faults sent

PYTHON = ("reader", "Round", "state")
RECORD_CHANNELS = (
    "record",
    "cli replay",
    "verify",
    "cli verify",
    "Ledger",
    "cli settle",
    "cli to-parquet",
)
TABLE_ID = (*PYTHON, *RECORD_CHANNELS, "Ledger start", "saved ledger", "commitments")


def _entry_table_id(value: Any) -> Callable[[dict[str, Any]], None]:
    def change(data: dict[str, Any]) -> None:
        data["entries"][0]["table_id"] = value

    return change


def _entry_player(seat: int, value: Any) -> Callable[[dict[str, Any]], None]:
    def change(data: dict[str, Any]) -> None:
        data["entries"][0]["players"][seat] = value

    return change


def _name(value: Any) -> Callable[[dict[str, Any]], None]:
    def change(data: dict[str, Any]) -> None:
        data["names"]["p0"] = value

    return change


def _table_faults() -> list[Fault]:
    sent = [
        ("not a string", 7, TABLE_ID),
        ("a bool", True, TABLE_ID),
        ("empty", "", TABLE_ID),
        ("too long", "x" * 300, TABLE_ID),
        ("multi-byte text too long", "\u00e9" * 129, TABLE_ID),
        ("a float", 1.5, ("reader", "Round", "Ledger start", "commitments")),
        ("a lone surrogate", "\ud800", ("reader", "Round", "Ledger start")),
        ("U+0000", "t\x00", TABLE_ID),
        ("a control character", "t\n1", (*PYTHON, "Ledger start")),
        ("U+007F", "\x7f", (*PYTHON, "Ledger start")),
    ]
    return [
        Fault("table id", name, channels, table_id=value, saved=_entry_table_id(value))
        for name, value, channels in sent
    ]


def _id_faults() -> list[Fault]:
    sent = [
        ("not a string", 7),
        ("a bool", True),
        ("empty", ""),
        ("too long", "x" * 300),
        ("holding U+0000", "p\x00"),
    ]
    written_only = [("holding a control character", "p\t0"), ("holding U+001F", "\x1f")]
    return [
        *(
            Fault("players", f"an id {name}", PYTHON, player={"id": value, "name": None})
            for name, value in written_only
        ),
        *(
            Fault(
                "players",
                f"an id {name}",
                (*PYTHON, *RECORD_CHANNELS, "saved ledger"),
                player={"id": value, "name": None},
                saved=_entry_player(0, value),
            )
            for name, value in sent
        ),
    ]


def _name_faults() -> list[Fault]:
    sent = [
        ("not a string", 7, ()),
        ("empty", "", ("saved ledger",)),
        ("too long", "n" * 257, ("saved ledger",)),
    ]
    written_only = [("holding U+0000", "n\x00")]
    return [
        *(
            Fault("players", f"a name {name}", PYTHON, player={"id": "p0", "name": value})
            for name, value in written_only
        ),
        *(
            Fault(
                "players",
                f"a name {name}",
                (*PYTHON, *RECORD_CHANNELS, *saved),
                player={"id": "p0", "name": value},
                saved=_name(value),
            )
            for name, value, saved in sent
        ),
    ]


FAULTS = [
    *_table_faults(),
    *_id_faults(),
    *_name_faults(),
    Fault(
        "players",
        "an id at two seats",
        (*PYTHON, *RECORD_CHANNELS, "saved ledger"),
        player={"id": "p0", "name": None},
        seat=1,
        saved=_entry_player(1, "p0"),
    ),
    Fault(
        "players",
        "an unknown key",
        (*PYTHON, *RECORD_CHANNELS),
        player={"id": "p0", "name": None, "x": 1},
    ),
    Fault("players", "the id missing", (*PYTHON, *RECORD_CHANNELS), player={"name": "n"}),
    Fault("players", "a player neither a str nor a mapping", PYTHON, player=7),
    Fault("players", "a player a list", PYTHON, player=["p0"]),
    Fault("players", "a player not an object", RECORD_CHANNELS, player=7),
    Fault("players", "a player as text", RECORD_CHANNELS, player="p0"),
    Fault("players", "a player without a name", RECORD_CHANNELS, player={"id": "p0"}),
    Fault("players", "an id a lone surrogate", ("reader", "Round"), player="\ud800"),
    Fault("players", "a key not a str", ("reader", "Round"), player={1: "p0"}),
    Fault("players", "not a list", PYTHON, players="p0"),
    Fault("players", "too few", PYTHON, players=["p0"]),
    Fault("players", "too many", PYTHON, players=["p0", "p1", "p2"]),
]


def _cases() -> Iterable[Any]:
    for f in FAULTS:
        for channel in f.channels:
            yield pytest.param(f, channel, id=f"{f.kind}: {f.name}: {channel}")


@pytest.mark.parametrize(("fault", "channel"), list(_cases()))
def test_a_table_or_player_fault_has_one_message_through_every_channel(
    fault: Fault, channel: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    got = _answer(channel, fault, tmp_path, capsys)
    assert channel == "commitments" or is_typed(got), f"{channel}: not a typed error: {got}"
    reference = fault.channels[0]
    want = _answer(reference, fault, tmp_path, capsys)
    assert fault_text(got.message, got.field) == fault_text(want.message, want.field), (
        f"{fault.kind}: {fault.name}: {channel} and {reference} disagree:\n"
        f"  {channel}: {got.message!r}\n  {reference}: {want.message!r}"
    )
