"""``rules=None`` (the engine's built-in default) and ``capsa.Rules()`` (the
capsa-susun preset file) are two copies of the same rules: they must agree on
every result."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

import capsa
from strategies import arrange, biased_hands, hands, natural_hand

PRESET = capsa.Rules()


@given(cards=st.one_of(hands(3), hands(5), biased_hands(5)))
def test_evaluate_agrees(cards: list[int]) -> None:
    default = capsa.evaluate(cards)
    preset = capsa.evaluate(cards, PRESET)
    assert default == preset
    assert (default.strength, default.category) == (preset.strength, preset.category)


@given(
    a=st.one_of(hands(3), hands(5), biased_hands(5)),
    b=st.one_of(hands(3), hands(5), biased_hands(5)),
)
def test_compare_agrees(a: list[int], b: list[int]) -> None:
    assert capsa.compare(a, b) == capsa.compare(a, b, PRESET)


@given(cards=st.one_of(hands(13), biased_hands(13)))
def test_count_splits_and_natural_agree(cards: list[int]) -> None:
    assert capsa.count_splits(cards) == capsa.count_splits(cards, PRESET)
    assert capsa.natural(cards) == capsa.natural(cards, PRESET)


@st.composite
def default_tables(draw: st.DrawFn) -> tuple[list[capsa.Seat], Any]:
    """2-4 seats, naturals often, legal or fouled arrangements, any stakes."""
    rng: random.Random = draw(st.randoms(use_true_random=False))
    deck = list(range(52))
    rng.shuffle(deck)
    seats: list[capsa.Seat] = []
    for _ in range(draw(st.integers(2, 4))):
        hand = natural_hand(rng, deck) if rng.random() < 0.3 else None
        if hand is None:
            hand, deck[:13] = deck[:13], []
        cards = arrange(rng, hand, PRESET)
        seats.append(capsa.Seat(capsa.Arrangement.from_ids(cards), False, rng.random() < 0.85))
    stakes = draw(st.one_of(st.none(), st.integers(0, 10_000)))
    return seats, stakes


@given(table=default_tables())
def test_settle_agrees(table: tuple[list[capsa.Seat], Any]) -> None:
    seats, stakes = table
    default = capsa.settle(seats, None, stakes)
    preset = capsa.settle(seats, PRESET, stakes)
    assert default.to_dict() == preset.to_dict()
    assert (default.points, default.money, default.rake, default.net) == (
        preset.points,
        preset.money,
        preset.rake,
        preset.net,
    )
    assert default.explain() == preset.explain()
