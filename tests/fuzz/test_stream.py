"""Property tests of the ``capsa settle`` stream reader: whatever bytes a line
holds, it gives exactly one record (none when blank), in order, that is one
valid JSON value of the documented shape; a round that is valid settles to
the same figures as ``capsa.settle``."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

import capsa
from capsa import _core

KNOWN: dict[str, _core.RuleSet] = {name: capsa.Rules.preset(name) for name in capsa.presets()}
# a stream's round names no banker: the presets of banker games do not settle there
PLAYED = sorted(name for name, rules in KNOWN.items() if not rules["banker.enabled"])
ERROR_KEYS = ["error", "id", "line", "message", "row", "seat"]
ERRORS = {"CardError", "HandError", "RulesError", "TableError", "ArgumentError"}
CARDS = [str(capsa.Card(i)) for i in range(52)]


def is_blank(line: bytes) -> bool:
    body = line[3:] if line.startswith(b"\xef\xbb\xbf") else line
    return not body.strip(b" \t\r\n")


def records(lines: list[bytes | int], first_line: int = 1) -> list[Any]:
    data, failed = _core.settle_json_lines(lines, KNOWN, "capsa-susun", first_line)
    out = [json.loads(x) for x in data.decode("utf-8").splitlines()]
    assert failed == sum("error" in r for r in out)
    return out


def check_error(record: dict[str, Any], line: int) -> None:
    assert sorted(record) == ERROR_KEYS
    assert record["error"] in ERRORS and record["line"] == line
    assert isinstance(record["message"], str) and record["message"]
    assert record["row"] in (None, "top", "middle", "bottom")
    assert record["seat"] is None or 0 <= record["seat"] < 4


@st.composite
def rounds(draw: st.DrawFn) -> dict[str, Any]:
    """Valid rounds: 2 to 4 seats of any 13 distinct cards in every seat form."""
    players = draw(st.integers(2, 4))
    deck = draw(st.permutations(range(52)))
    seats: list[Any] = []
    for s in range(players):
        ids = list(deck[13 * s : 13 * s + 13])
        form = draw(st.sampled_from(["text", "ids", "object"]))
        rows = [ids[:3], ids[3:8], ids[8:]]
        if form == "text":
            seats.append(" / ".join(" ".join(CARDS[c] for c in r) for r in rows))
        elif form == "ids":
            seats.append(ids)
        else:
            seats.append(
                {
                    "top": " ".join(CARDS[c] for c in rows[0]),
                    "middle": rows[1],
                    "bottom": [CARDS[c] for c in rows[2]],
                    "declare_natural": draw(st.booleans()),
                }
            )
    round_: dict[str, Any] = {"seats": seats}
    if draw(st.booleans()):
        round_["id"] = draw(
            st.one_of(st.text(), st.integers(), st.floats(allow_nan=False, allow_infinity=False))
        )
    if draw(st.booleans()):
        round_["stakes"] = draw(st.integers(0, 10**6))
    if draw(st.booleans()):
        round_["rules"] = draw(st.sampled_from(PLAYED))
    return round_


def expected(round_: dict[str, Any]) -> capsa.Settlement:
    seats = []
    for seat in round_["seats"]:
        if isinstance(seat, str):
            seats.append(capsa.Seat(capsa.Arrangement.parse(seat)))
        elif isinstance(seat, list):
            seats.append(capsa.Seat(capsa.Arrangement.from_ids(seat)))
        else:
            arrangement = capsa.Arrangement(seat["top"], seat["middle"], seat["bottom"])
            seats.append(capsa.Seat(arrangement, declare_natural=seat["declare_natural"]))
    rules = capsa.Rules.preset(round_.get("rules", "capsa-susun"))
    return capsa.settle(seats, rules, round_.get("stakes"))


@given(st.lists(st.binary(max_size=300), max_size=20), st.integers(1, 10**9))
def test_any_bytes_give_one_record_per_line(lines: list[bytes], first: int) -> None:
    lines = [x.replace(b"\n", b" ") for x in lines]
    out = records(list(lines), first)
    numbers = [first + k for k, line in enumerate(lines) if not is_blank(line)]
    assert len(out) == len(numbers)
    for record, number in zip(out, numbers, strict=True):
        if "error" in record:
            check_error(record, number)


@given(st.lists(rounds(), min_size=1, max_size=6), st.data())
def test_valid_rounds_settle_as_the_api(batch: list[dict[str, Any]], data: st.DataObject) -> None:
    lines: list[bytes | int] = []
    for round_ in batch:
        text = json.dumps(round_).encode()
        if data.draw(st.booleans()):
            text = text.replace(b", ", data.draw(st.sampled_from([b",\r", b",\t", b" ,  "])))
        if data.draw(st.booleans()):
            text = b"\xef\xbb\xbf" + text
        lines.append(text)
    for record, round_ in zip(records(lines), batch, strict=True):
        api = expected(round_)
        assert "error" not in record, record
        wanted = api.to_dict()
        if "id" in round_:
            wanted["id"] = round_["id"]
        assert record == wanted


@given(rounds(), st.data())
def test_a_broken_round_is_an_error_record_and_the_next_one_settles(
    round_: dict[str, Any], data: st.DataObject
) -> None:
    text = json.dumps(round_).encode()
    cut = data.draw(st.integers(0, len(text)))
    junk = data.draw(st.binary(min_size=1, max_size=5))
    broken = (text[:cut] + junk + text[cut:]).replace(b"\n", b"")
    out = records([broken, text])
    assert len(out) == 2
    if "error" in out[0]:
        check_error(out[0], 1)
    assert "error" not in out[1]
    assert out[1]["points"] == expected(round_).points


@given(st.binary(max_size=400))
def test_any_document_gives_valid_json(document: bytes) -> None:
    data, failed = _core.settle_json_document(document, KNOWN, "capsa-susun", None)
    value = json.loads(data)
    items = value if isinstance(value, list) else [value]
    assert failed == sum("error" in r for r in items)
    for record in items:
        if "error" in record:
            assert sorted(record) == ERROR_KEYS


@given(st.lists(rounds(), max_size=4), st.integers(0, 8))
def test_documents_settle_as_lines(batch: list[dict[str, Any]], indent: int) -> None:
    document = json.dumps(batch, indent=indent).encode()
    data, failed = _core.settle_json_document(document, KNOWN, "capsa-susun", indent)
    as_lines = records([json.dumps(r).encode() for r in batch])
    assert failed == 0
    assert json.loads(data) == as_lines


def test_a_round_of_a_banker_game_is_an_error_record_naming_the_banker() -> None:
    banker_games = sorted(set(KNOWN) - set(PLAYED))
    assert banker_games
    seats = [CARDS[:13], CARDS[13:26]]
    for name in banker_games:
        (record,) = records([json.dumps({"seats": seats, "rules": name}).encode()])
        assert record["error"] == "TableError" and "banker" in record["message"]
