"""``Round.record()`` takes its ``settlement`` from the settlement's own dict
and reads only the rest of the record's text: the dict must still be
``json.loads`` of ``record_json()``, keys in the same order and values of
the same types, for rounds of every preset, 2 to 4 seats, submitted, fouled,
surrendered and auto-arranged seats, naturals declared or not, stakes and
every rake form; a restored round reads its whole text."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from settlement.test_dict import PLAIN_PRESETS, ordered

import capsa
from capsa import _core
from capsa.records.read import rules_for_record

KEY = bytes(range(32))


@st.composite
def played_rounds(draw: st.DrawFn) -> capsa.Round:
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    # a Round names no banker: the presets of banker games are not played here
    knobs = capsa.Rules.preset(draw(st.sampled_from(PLAIN_PRESETS))).to_dict()
    knobs["surrender"]["enabled"] = draw(st.booleans())
    knobs["money"] = {
        "stake": draw(st.integers(0, 50)),
        "rake_basis_points": draw(st.sampled_from([0, 300, 10000])),
        "rake_minimum_pot": draw(st.sampled_from([0, 10])),
        "rake_cap_per_pot": draw(st.sampled_from([0, 7])),
        "rake_cap_per_round": draw(st.sampled_from([0, 900])),
    }
    rules = capsa.Rules(knobs)
    seats = draw(st.integers(2, 4))
    stakes: Any = rng.choice([None, rng.randrange(0, 1000)])
    rnd = capsa.Round(
        rules,
        seats,
        stakes,
        round_id=f"r/{rng.randrange(10**6)}",
        server_seed=rng.randbytes(32),
        meta={"hand": rng.randrange(100)},
    )
    rnd.deal()
    for seat, hand in enumerate(rnd.hands):
        roll = rng.random()
        if roll < 0.3:
            continue  # arranged at the close
        cards = [c.id for c in hand]
        if roll < 0.5:
            rng.shuffle(cards)  # most likely a foul
            rnd.submit(seat, cards)
        elif roll < 0.6 and rules["surrender.enabled"]:
            rnd.surrender(seat)
        else:
            rnd.submit(seat, list(capsa.splits(cards, rules)[rng.randrange(3)]))
        if capsa.natural(hand, rules) and rng.random() < 0.5:
            rnd.declare_natural(seat, False)
    rnd.close()
    rnd.settle()
    return rnd


@settings(max_examples=150, deadline=None)
@given(rnd=played_rounds())
def test_record_is_the_text_read(rnd: capsa.Round) -> None:
    want = json.loads(rnd.record_json())
    got = rnd.record()
    assert ordered(got) == ordered(want)
    # each call gives a dict of its own
    got["settlement"]["points"][0] += 1
    got["rules"]["money"]["stake"] += 1
    got["rules"]["name"] = "changed"
    assert rnd.record() == want
    restored = capsa.Round.from_dict(rnd.to_dict(key=KEY), key=KEY)
    assert ordered(restored.record()) == ordered(want)


json_data = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**63), 2**64 - 1) | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)

RECORD_RULES = rules_for_record(capsa.Rules())


def spans_of(outer: dict[str, Any], settlement: Any) -> tuple[str, tuple[int, int, int, int]]:
    """Canonical text of ``outer`` with the record rules' text and
    ``settlement`` as its ``rules`` and ``settlement`` members, and the
    byte ranges of those two values."""
    members = {**outer, "rules": 0, "settlement": 0}
    parts, spans, at = [], [], 1
    for key in sorted(members, key=lambda k: k.encode("utf-16-be")):
        head = json.dumps(key, ensure_ascii=False) + ":"
        at += len(head.encode())
        if key == "rules":
            value = RECORD_RULES.text
        elif key == "settlement":
            value = _core.canonical_json_of(settlement)
        else:
            value = _core.canonical_json_of(members[key])
        if key in ("rules", "settlement"):
            spans.append((at, at + len(value.encode())))
        parts.append(head + value)
        at += len(value.encode()) + 1
    text = "{" + ",".join(parts) + "}"
    (a, b), (c, d) = spans
    return text, (a, b, c, d)


@settings(max_examples=300, deadline=None)
@given(
    outer=st.dictionaries(st.sampled_from(["a", "s", "z", "\u00e9", "settlement2"]), json_data),
    given_settlement=st.dictionaries(st.text(max_size=4), st.integers(), max_size=3),
)
def test_only_the_members_at_the_spans_are_given(
    outer: dict[str, Any], given_settlement: dict[str, Any]
) -> None:
    """``record_value`` reads the text as ``json_value`` does, but for the
    ``rules`` member, a new copy of the rules' own dict, and the
    ``settlement`` member, the dict given (the same object)."""
    text, spans = spans_of(outer, {"x": [1, {"y": 2}]})
    got = _core.record_value(text, given_settlement, RECORD_RULES, spans)
    want = json.loads(text)
    want["settlement"] = given_settlement
    assert got["settlement"] is given_settlement
    assert ordered(got) == ordered(want)
    # every container of the rules is the record's own
    again = _core.record_value(text, given_settlement, RECORD_RULES, spans)
    assert not shared_containers(got["rules"], again["rules"])


def shared_containers(a: Any, b: Any) -> bool:
    if isinstance(a, (dict, list)) and a is b:
        return True
    if isinstance(a, dict):
        return any(shared_containers(v, b[k]) for k, v in a.items())
    if isinstance(a, list):
        return any(shared_containers(x, y) for x, y in zip(a, b, strict=True))
    return False


def test_spans_that_are_not_the_members_are_refused() -> None:
    text, (a, b, c, d) = spans_of({"k": "\u00e9t\u00e9"}, {"x": 1})
    _core.record_value(text, {}, RECORD_RULES, (a, b, c, d))
    for wrong in [
        (a + 1, b, c, d),  # not the rules' text
        (a, b, c, len(text.encode()) + 1),  # past the end
        (a, b, d, c),  # backwards
        (c, d, a, b),  # the members swapped
    ]:
        with pytest.raises(ValueError):
            _core.record_value(text, {}, RECORD_RULES, wrong)
    # a span inside a character of two bytes
    text, spans = spans_of({"a": "\u00e9"}, {"x": 1})
    cut = text.encode().index("\u00e9".encode()) + 1
    with pytest.raises(ValueError):
        _core.record_value(text, {}, RECORD_RULES, (spans[0], spans[1], cut, spans[3]))
    # the settlement span elsewhere: the member is not met
    text, (a, b, c, d) = spans_of({"z": 5}, {"x": 1})
    z = text.index('"z":5') + 4
    with pytest.raises(ValueError):
        _core.record_value(text, {}, RECORD_RULES, (a, b, z, z + 1))
