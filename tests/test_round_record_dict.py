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
from test_settlement_dict import ordered

import capsa
from capsa import _core

KEY = bytes(range(32))


@st.composite
def played_rounds(draw: st.DrawFn) -> capsa.Round:
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    knobs = capsa.Rules.preset(draw(st.sampled_from(sorted(capsa.presets())))).to_dict()
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
    assert rnd.record() == want
    restored = capsa.Round.from_dict(rnd.to_dict(key=KEY), key=KEY)
    assert ordered(restored.record()) == ordered(want)


def test_the_given_member_replaces_only_the_outermost_one() -> None:
    text = '{"a":{"settlement":1},"settlement":{"x":[1,2]},"z":true}'
    got = _core.record_value(text, {"given": 0})
    assert ordered(got) == ordered({"a": {"settlement": 1}, "settlement": {"given": 0}, "z": True})
    # the skipped value is still read as JSON, so the text around it is too
    with pytest.raises(ValueError):
        _core.record_value('{"settlement":[1,}', {})
