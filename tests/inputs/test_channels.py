"""The same bad input gives the same message through every channel that takes it.

An input reaches capsa by several channels; each fault below is sent through
every channel that takes its kind, the fault's own text is taken from what
the channel answers (:func:`fault_text` strips the channel's context), and
each channel's text is compared with the text of the core reader of that
kind (the first channel listed for the fault). Which channel takes which
kind:

=============  =====  =====  =====  =====  ====  ========
channel        cards  seats  stakes flags  meta  ids
=============  =====  =====  =====  =====  ====  ========
settle         yes    yes    yes    yes    -     -
Seat           -      -      -      yes    -     -
Round          yes    yes    yes    yes    yes   round_id
settle_batch   ids    shape  yes    shape  -     -
settle_rounds  ids    shape  1-d    shape  -     -
jsonl          yes    yes    yes    yes    -     id
document       yes    yes    yes    yes    -     id
cli settle     yes    yes    yes    yes    -     id
cli document   yes    yes    yes    yes    -     id
record         text   yes    yes    yes    yes   round_id
cli replay     text   yes    yes    yes    yes   round_id
arrow          ids    cols   1-d    cols   -     id (any)
protocol       yes    yes    yes    yes    -     id
=============  =====  =====  =====  =====  ====  ========

``settle`` is ``capsa.settle`` (a seat with flags is any object with
``arrangement``, ``surrender`` and ``declare_natural``), ``Seat`` is
``capsa.Seat``, ``Round`` is ``capsa.Round`` (its constructor, ``submit``,
``surrender`` and ``declare_natural``), ``jsonl`` and ``document`` the
readers behind ``capsa settle`` (``_core.settle_json_lines`` and
``_core.settle_json_document``), ``cli settle`` and ``cli document`` the
command on a ``.jsonl`` file and with ``--format json``, ``record`` is
``capsa.replay`` of a record with one field changed (``cli replay`` the
command on it), ``arrow`` is ``capsa.bulk.settle_table`` (which ``capsa
settle x.parquet`` runs; ``settle_rounds`` is its kernel), ``protocol`` is
the engine ``capsa conformance serve`` runs.

Where a channel cannot hold a fault it is left out: a record's JSON holds
integers only (a float or a number past 64 bits is refused as malformed
JSON before any field is read) and its cards are text; an array or an
Arrow column carries its type for every value (a float or bool card or
flag is refused by its dtype, before any value is read); JSON keys are
always strings; the ``id`` of a JSON round may be any string or number,
and an Arrow ``id`` column is kept as given whatever its type.

A table's id and its players are sent through the channels that take them
by :mod:`inputs.test_channels_tables`, with :func:`fault_text` from here.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np
import pytest

import capsa
from capsa import _core
from capsa.bulk import default_known_rules
from capsa.cli import main
from capsa.conformance.serve import CapsaEngine
from capsa.rules import Rules

SEED = b"\x01" * 32


class Answer(NamedTuple):
    """What a channel answered to a fault: the error's type name, its
    message and (for a record) the field it names."""

    error: str
    message: str
    field: str = ""


# The context channels put around a fault's own text, outermost first:
# an error kind ("HandError: " in a batch's or an Arrow table's reasons),
# a saved ledger and its part ("saved ledger: entries[0]."), a file's line
# ("line 3: ", "--commitments c.jsonl, line 1: "), a round ("round 'x': "),
# a player's field ("players[1].id: "), a seat ("seat 0: ", "seat 0, card
# 12: ", "row 0, seat 1, column 7: ", a record's "seats[0]."), a row ("the
# top row: ").
_CONTEXT = re.compile(
    r"^(?:[A-Z][A-Za-z]*Error: "
    r"|saved ledger: "
    r"|(?:entries|start|nonces)\[\d+\]\.(?=[a-z])"
    r"|--commitments .+?, line \d+: "
    r"|line \d+: "
    r"|round '[^']*': "
    r"|players\[\d+\]\.[a-z0-9_]+: "
    r"|row \d+, (?:seat \d+, )?column \d+: "
    r"|seat \d+(?:, card \d+)?: "
    r"|seats\[\d+\]\.(?=[a-z])"
    r"|(?:the )?(?:top|middle|bottom) row: )"
)


# A seat's player is "seats[k].player" in a record, "players[k]" as an
# argument: one place, named one way.
_SEAT_PLAYER = re.compile(r"seats\[(\d+)\]\.player\b")


def fault_text(message: str, field: str = "") -> str:
    """The fault's own text in a channel's message: a seat's player named
    as an argument names it, without the record field it names
    (``"stakes: "``, ``"seats[0].arrangement: "``; meta's messages name
    their entry themselves) and without every context in ``_CONTEXT``,
    repeatedly."""
    message = _SEAT_PLAYER.sub(r"players[\1]", message)
    field = _SEAT_PLAYER.sub(r"players[\1]", field)
    if field and field != "meta" and message.startswith(f"{field}: "):
        message = message[len(field) + 2 :]
    while True:
        stripped = _CONTEXT.sub("", message, count=1)
        if stripped == message:
            return message
        message = stripped


def is_typed(answer: Answer) -> bool:
    """A capsa error, or a TypeError (the Python API's wrong type)."""
    if answer.error == "TypeError":
        return True
    error = getattr(capsa, answer.error, None)
    return isinstance(error, type) and issubclass(error, capsa.CapsaError)


# ---------------------------------------------------------------- the table


@dataclass(frozen=True)
class Table:
    """A two-seat round everything below starts from: its arrangements
    as text and as ids in row order, and its record."""

    text: tuple[str, str]
    ids: tuple[list[int], list[int]]
    record: str


def _table() -> Table:
    rnd = capsa.Round(None, 2, 100, round_id="t", server_seed=SEED)
    rnd.deal()
    rnd.close()
    rnd.settle()
    record = rnd.record_json()
    seats = json.loads(record)["seats"]
    text = (seats[0]["arrangement"], seats[1]["arrangement"])
    ids = (
        list(capsa.Arrangement.parse(text[0]).ids),
        list(capsa.Arrangement.parse(text[1]).ids),
    )
    return Table(text, ids, record)


TABLE = _table()


def _dealt_round() -> capsa.Round:
    rnd = capsa.Round(None, 2, 100, round_id="t", server_seed=SEED)
    rnd.deal()
    return rnd


def _raised(call: Callable[[], object]) -> Answer:
    try:
        call()
    except (capsa.CapsaError, TypeError) as exc:
        return Answer(type(exc).__name__, str(exc), getattr(exc, "field", "") or "")
    raise AssertionError("accepted")


# ---------------------------------------------------------------- faults


@dataclass(frozen=True)
class Fault:
    """One bad input of one kind: the round's parts it changes (stakes,
    seat 0 as text or ids, a flag of seat 0, meta, round_id, the round's
    id, the seats given) and the channels that take it, the core reader's
    first."""

    kind: str
    name: str
    channels: tuple[str, ...]
    stakes: Any = None
    seat: Any = None
    flag: tuple[str, Any] | None = None
    meta: Any = None
    round_id: Any = None
    id: Any = None
    one_seat: bool = False
    flag_shape: tuple[int, int] | None = None

    def seats_text(self) -> list[Any]:
        """The round's seats as a JSON round holds them."""
        if self.one_seat:
            return [TABLE.text[0]]
        first: Any = TABLE.text[0] if self.seat is None else self.seat
        if self.flag is not None:
            rows = [r.strip() for r in TABLE.text[0].split("/")]
            first = {
                "top": rows[0],
                "middle": rows[1],
                "bottom": rows[2],
                self.flag[0]: self.flag[1],
            }
        return [first, TABLE.text[1]]

    def json_round(self) -> dict[str, Any]:
        """The round as ``capsa settle`` reads it."""
        out: dict[str, Any] = {"seats": self.seats_text()}
        if self.stakes is not None:
            out["stakes"] = self.stakes
        if self.id is not None:
            out["id"] = self.id
        return out

    def record(self) -> dict[str, Any]:
        """The table's record with the fault in it."""
        data: dict[str, Any] = json.loads(TABLE.record)
        if self.stakes is not None:
            data["stakes"] = self.stakes
        if self.seat is not None:
            data["seats"][0]["arrangement"] = self.seat
        if self.flag is not None:
            data["seats"][0][self.flag[0]] = self.flag[1]
        if self.meta is not None:
            data["meta"] = self.meta
        if self.round_id is not None:
            data["round_id"] = self.round_id
        if self.one_seat:
            data["seats"] = data["seats"][:1]
        return data


# ---------------------------------------------------------------- channels


def _known() -> dict[str, Any]:
    return dict(default_known_rules(Rules()))


def _record_answer(record: dict[str, Any]) -> Answer:
    """An error record of ``capsa settle`` or ``capsa replay``."""
    fields = record.get("fields") or [""]
    return Answer(record["error"], record["message"], fields[0])


class _FlagSeat:
    """A seat by the attributes ``capsa.settle`` reads."""

    def __init__(self, arrangement: str, flag: tuple[str, Any]) -> None:
        self.arrangement = arrangement
        self.surrender: Any = False
        self.declare_natural: Any = True
        setattr(self, flag[0], flag[1])


def _settle(f: Fault) -> Answer:
    seats: list[Any]
    if f.one_seat:
        seats = [TABLE.text[0]]
    elif f.flag is not None:
        seats = [_FlagSeat(TABLE.text[0], f.flag), TABLE.text[1]]
    else:
        seats = [TABLE.text[0] if f.seat is None else f.seat, TABLE.text[1]]
    return _raised(lambda: capsa.settle(seats, None, f.stakes))


def _seat_class(f: Fault) -> Answer:
    assert f.flag is not None
    arrangement = capsa.Arrangement.parse(TABLE.text[0])
    return _raised(lambda: capsa.Seat(arrangement, **{f.flag[0]: f.flag[1]}))  # type: ignore[index]


def _round(f: Fault) -> Answer:
    if f.seat is not None:
        rnd = _dealt_round()
        return _raised(lambda: rnd.submit(0, f.seat))
    if f.flag is not None:
        rnd = _dealt_round()
        action = rnd.surrender if f.flag[0] == "surrender" else rnd.declare_natural
        return _raised(lambda: action(0, f.flag[1]))  # type: ignore[index]
    kwargs: dict[str, Any] = {"round_id": "t" if f.round_id is None else f.round_id}
    if f.stakes is not None:
        kwargs["stakes"] = f.stakes
    if f.meta is not None:
        kwargs["meta"] = f.meta
    seats = 1 if f.one_seat else 2
    return _raised(lambda: capsa.Round(None, seats, **kwargs))


def _batch_cards(f: Fault) -> np.ndarray[Any, Any]:
    first = TABLE.ids[0] if f.seat is None else f.seat
    return np.array([[first, TABLE.ids[1]]], dtype=np.int64)


def _settle_batch(f: Fault) -> Answer:
    cards = _batch_cards(f)
    flags = None if f.flag_shape is None else np.zeros(f.flag_shape, dtype=bool)
    out = None

    def call() -> None:
        nonlocal out
        out = capsa.settle_batch(cards, stakes=f.stakes, surrender=flags)

    try:
        call()
    except (capsa.CapsaError, TypeError) as exc:
        return Answer(type(exc).__name__, str(exc))
    assert out is not None and out.errors, "accepted"
    kind, _, message = out.errors[0][1].partition(": ")
    return Answer(kind, message)


def _settle_rounds(f: Fault) -> Answer:
    assert f.flag_shape is not None
    flags = np.zeros(f.flag_shape, dtype=bool)
    return _raised(lambda: _core.settle_rounds(_batch_cards(f), None, None, flags))


def _lines_answer(output: bytes) -> Answer:
    record = json.loads(output)
    if isinstance(record, list):
        record = record[0]
    assert "error" in record, "accepted"
    return _record_answer(record)


def _jsonl(f: Fault) -> Answer:
    line = json.dumps(f.json_round()).encode()
    out, _ = _core.settle_json_lines([line], _known(), "capsa-susun")
    return _lines_answer(out)


def _document(f: Fault) -> Answer:
    text = json.dumps([f.json_round()]).encode()
    out, _ = _core.settle_json_document(text, _known(), "capsa-susun")
    return _lines_answer(out)


def _cli(argv: list[str], capsys: pytest.CaptureFixture[str]) -> Answer:
    main(argv)
    out, _ = capsys.readouterr()
    lines = [line for line in out.splitlines() if line.strip()]
    assert len(lines) == 1, out
    return _record_answer(json.loads(lines[0]))


def _cli_settle(f: Fault, tmp: Path, capsys: pytest.CaptureFixture[str]) -> Answer:
    path = tmp / "rounds.jsonl"
    path.write_text(json.dumps(f.json_round()) + "\n", encoding="utf-8")
    return _cli(["settle", str(path)], capsys)


def _cli_document(f: Fault, tmp: Path, capsys: pytest.CaptureFixture[str]) -> Answer:
    path = tmp / "rounds.json"
    path.write_text(json.dumps([f.json_round()]), encoding="utf-8")
    main(["settle", "--format", "json", str(path)])
    out, _ = capsys.readouterr()
    return _lines_answer(out.encode())


def _record(f: Fault) -> Answer:
    return _raised(lambda: capsa.replay(f.record()))


def _cli_replay(f: Fault, tmp: Path, capsys: pytest.CaptureFixture[str]) -> Answer:
    path = tmp / "records.jsonl"
    path.write_text(json.dumps(f.record()) + "\n", encoding="utf-8")
    return _cli(["replay", str(path)], capsys)


def _arrow(f: Fault) -> Answer:
    pa = pytest.importorskip("pyarrow")
    from capsa.bulk import settle_table

    first = TABLE.ids[0] if f.seat is None else f.seat
    columns: dict[str, Any] = {"cards0": [first], "cards1": [TABLE.ids[1]]}
    if f.stakes is not None:
        kind = pa.uint64() if f.stakes > 2**63 - 1 else pa.int64()
        columns["stakes"] = pa.array([f.stakes], kind)
    error = settle_table(pa.table(columns)).column("error")[0].as_py()
    assert error is not None, "accepted"
    kind, _, message = error.partition(": ")
    return Answer(kind, message)


def _protocol(f: Fault) -> Answer:
    request = {"id": 1, "op": "settle", "round": f.json_round(), "rules": Rules().to_dict()}
    response = CapsaEngine().handle(request)
    assert "error" in response, "accepted"
    error = response["error"]
    return Answer(error.get("type", "RequestError"), error["message"])


CHANNELS: dict[str, Callable[..., Answer]] = {
    "settle": _settle,
    "Seat": _seat_class,
    "Round": _round,
    "settle_batch": _settle_batch,
    "settle_rounds": _settle_rounds,
    "jsonl": _jsonl,
    "document": _document,
    "cli settle": _cli_settle,
    "cli document": _cli_document,
    "record": _record,
    "cli replay": _cli_replay,
    "arrow": _arrow,
    "protocol": _protocol,
}
_ON_THE_COMMAND_LINE = {"cli settle", "cli document", "cli replay"}


def _answer(channel: str, f: Fault, tmp: Path, capsys: pytest.CaptureFixture[str]) -> Answer:
    if channel in _ON_THE_COMMAND_LINE:
        return CHANNELS[channel](f, tmp, capsys)
    return CHANNELS[channel](f)


# ---------------------------------------------------------------- the faults sent

JSON_ROUND = ("jsonl", "document", "cli settle", "cli document", "protocol")
RECORD = ("record", "cli replay")
PYTHON_STAKES = ("settle", "Round", "settle_batch")


def _seat_with(position: int, card: Any) -> list[Any]:
    ids: list[Any] = list(TABLE.ids[0])
    ids[position] = card
    return ids


def _text_with(top: str) -> str:
    rows = [r.strip() for r in TABLE.text[0].split("/")]
    return " / ".join([top, rows[1], rows[2]])


_TOP = TABLE.text[0].split("/")[0].split()
_ROWS = [r.strip() for r in TABLE.text[0].split("/")]

FAULTS = [
    # stakes
    Fault(
        "stakes",
        "negative",
        (*JSON_ROUND, *RECORD, *PYTHON_STAKES, "arrow"),
        stakes=-1,
    ),
    Fault(
        "stakes",
        "not symmetric",
        (*JSON_ROUND, *RECORD, *PYTHON_STAKES),
        stakes=[[0, 1], [2, 0]],
    ),
    Fault(
        "stakes",
        "wrong row count",
        (*JSON_ROUND, *RECORD, *PYTHON_STAKES),
        stakes=[[0, 1]],
    ),
    Fault(
        "stakes",
        "a float",
        (*JSON_ROUND, *PYTHON_STAKES),
        stakes=1.5,
    ),
    Fault(
        "stakes",
        "a bool",
        (*JSON_ROUND, *RECORD, *PYTHON_STAKES),
        stakes=True,
    ),
    Fault(
        "stakes",
        "too large for 64 bits",
        (*JSON_ROUND, *RECORD, *PYTHON_STAKES, "arrow"),
        stakes=2**63,
    ),
    # seats
    Fault("seats", "one seat", (*JSON_ROUND, *RECORD, "settle", "Round"), one_seat=True),
    # cards
    Fault(
        "cards",
        "a card held twice (text)",
        (*JSON_ROUND, *RECORD, "settle", "Round"),
        seat=_text_with(" ".join([_TOP[0], _TOP[0], _TOP[2]])),
    ),
    Fault(
        "cards",
        "a card held twice (ids)",
        (*JSON_ROUND, "settle", "Round", "settle_batch", "arrow"),
        seat=_seat_with(1, TABLE.ids[0][0]),
    ),
    Fault(
        "cards",
        "unknown card text",
        (*JSON_ROUND, *RECORD, "settle", "Round"),
        seat=_text_with(" ".join([_TOP[0], "Zz", _TOP[2]])),
    ),
    Fault(
        "cards",
        "wrong count in a row",
        (*JSON_ROUND, *RECORD, "settle", "Round"),
        seat=" / ".join(
            [_ROWS[0] + " " + _ROWS[1].split()[0], *[" ".join(_ROWS[1].split()[1:])], _ROWS[2]]
        ),
    ),
    Fault(
        "cards",
        "wrong count of ids",
        (*JSON_ROUND, "settle", "Round", "arrow"),
        seat=TABLE.ids[0][:12],
    ),
    Fault(
        "cards",
        "a bool as id",
        (*JSON_ROUND, "settle", "Round"),
        seat=_seat_with(0, True),
    ),
    Fault(
        "cards",
        "a float as id",
        (*JSON_ROUND, "settle", "Round"),
        seat=_seat_with(0, 1.5),
    ),
    Fault(
        "cards",
        "an id outside the deck",
        (*JSON_ROUND, "settle", "Round", "settle_batch", "arrow"),
        seat=_seat_with(12, 52),
    ),
    # flags
    *[
        Fault(
            "flags",
            f"{name} not a bool",
            (*JSON_ROUND, *RECORD, "settle", "Seat", "Round"),
            flag=(name, value),
        )
        for name, value in [("surrender", 1), ("declare_natural", "yes")]
    ],
    Fault(
        "flags",
        "flags for the wrong number of seats",
        ("settle_batch", "settle_rounds"),
        flag_shape=(1, 3),
    ),
    # meta
    Fault("meta", "a non-string key", ("Round",), meta={1: "a"}),
    Fault(
        "meta",
        "a nested value",
        ("record", "cli replay", "Round"),
        meta={"a": {"b": 1}},
    ),
    Fault(
        "meta",
        "a key too long",
        ("record", "cli replay", "Round"),
        meta={"k" * 70: 1},
    ),
    Fault(
        "meta",
        "a text too long",
        ("record", "cli replay", "Round"),
        meta={"a": "x" * 2000},
    ),
    Fault(
        "meta",
        "too many entries",
        ("record", "cli replay", "Round"),
        meta={f"k{i}": i for i in range(40)},
    ),
    # ids
    Fault("ids", "round_id empty", ("record", "cli replay", "Round"), round_id=""),
    Fault("ids", "round_id too long", ("record", "cli replay", "Round"), round_id="x" * 300),
    *[
        Fault(
            "ids",
            f"round_id {what}",
            ("record", "cli replay", "Round"),
            round_id=value,
        )
        for what, value in [("not a string", 7), ("a bool", True)]
    ],
    Fault("ids", "round_id a float", ("Round",), round_id=1.5),
    Fault("ids", "id a bool", JSON_ROUND, id=True),
]


def _cases() -> Iterable[Any]:
    for f in FAULTS:
        reference = f.channels[0]
        for channel in f.channels:
            yield pytest.param(f, reference, channel, id=f"{f.kind}: {f.name}: {channel}")


@pytest.mark.parametrize(("fault", "reference", "channel"), list(_cases()))
def test_a_fault_has_one_message_through_every_channel(
    fault: Fault,
    reference: str,
    channel: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    got = _answer(channel, fault, tmp_path, capsys)
    assert is_typed(got), f"{channel}: not a typed capsa error: {got}"
    want = _answer(reference, fault, tmp_path, capsys)
    assert fault_text(got.message, got.field) == fault_text(want.message, want.field), (
        f"{fault.kind}: {fault.name}: {channel} and {reference} disagree:\n"
        f"  {channel}: {got.message!r}\n  {reference}: {want.message!r}"
    )


@pytest.mark.parametrize(
    ("message", "field", "text"),
    [
        ("line 3: seat 0: the top row: cannot read card", "", "cannot read card"),
        ("round 'x': the stake must be in 0..9", "", "the stake must be in 0..9"),
        (
            "HandError: seat 1: an arrangement has 13 cards, got 12",
            "",
            "an arrangement has 13 cards, got 12",
        ),
        (
            "row 0, seat 1, column 7: card id 300 is outside 0..51",
            "",
            "card id 300 is outside 0..51",
        ),
        ("seat 0, card 12: card id 52 is outside 0..51", "", "card id 52 is outside 0..51"),
        ("stakes: the stake must be in 0..9", "stakes", "the stake must be in 0..9"),
        (
            "stakes[0][1] must be in 0..9, got -1",
            "stakes[0][1]",
            "stakes[0][1] must be in 0..9, got -1",
        ),
        (
            "seats[0].surrender must be true or false",
            "seats[0].surrender",
            "surrender must be true or false",
        ),
        ("meta: a key is 1 to 64 bytes", "meta", "meta: a key is 1 to 64 bytes"),
        ("the top row needs 3 cards, got 4", "", "the top row needs 3 cards, got 4"),
        (
            "seats[1].player.id: player 'a' is also at seat 0",
            "seats[1].player.id",
            "player 'a' is also at seat 0",
        ),
        ("players[0].x: unknown key in players[0]", "", "unknown key in players[0]"),
        (
            "seats[0].player.id must be a string, not null",
            "seats[0].player.id",
            "players[0].id must be a string, not null",
        ),
        (
            "saved ledger: entries[0].table_id must be 1 to 256 bytes of UTF-8, got 0",
            "",
            "table_id must be 1 to 256 bytes of UTF-8, got 0",
        ),
        (
            "--commitments c.jsonl, line 2: table_id must be a string, not null",
            "",
            "table_id must be a string, not null",
        ),
    ],
)
def test_fault_text_strips_only_the_context(message: str, field: str, text: str) -> None:
    assert fault_text(message, field) == text
