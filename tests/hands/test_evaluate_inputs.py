"""``evaluate`` and ``compare`` read a list or tuple of 3 or 5 ``Card``s or
plain ints in one pass; every other form, and every bad hand, must read and
fail exactly as the general reader does (an iterator always takes that path).
"""

from __future__ import annotations

import enum
from collections.abc import Iterator
from typing import Any

import pytest

import capsa


class Id(enum.IntEnum):
    ACE_OF_SPADES = 51


class Wide(int):
    pass


HANDS: list[list[Any]] = [
    [0, 5, 10, 15, 20],
    [capsa.Card(c) for c in (0, 5, 10, 15, 20)],
    [0, capsa.Card(5), 10, capsa.Card(15), 20],
    [48, 49, 50],
    [0, 5, 10, 15, "As"],
    [0, 5, 10, 15, Id.ACE_OF_SPADES],
    [0, 5, 10, 15, Wide(51)],
]

BAD: list[list[Any]] = [
    [0, 5, 10, 15, 52],
    [0, 5, 10, 15, -1],
    [0, 5, 10, 15, 2**70],
    [0, 5, 10, 15, -(2**70)],
    [0, 5, 10, 15, True],
    [0, 5, 10, 15, 1.0],
    [0, 5, 10, 15, None],
    [0, 5, 10, 15, 15],
    [capsa.Card(0), capsa.Card(5), capsa.Card(0)],
    [0, 5, 10, 15],
    [0, 5, 10, 15, "Zz"],
]


def iterate(hand: list[Any]) -> Iterator[Any]:
    return iter(hand)


@pytest.mark.parametrize("hand", HANDS, ids=range(len(HANDS)))
def test_every_form_ranks_alike(hand: list[Any]) -> None:
    rules = capsa.Rules.preset("pagat")
    want = capsa.evaluate(iterate(hand), rules)
    for form in (hand, tuple(hand)):
        got = capsa.evaluate(form, rules)
        assert (got.strength, got.cards) == (want.strength, want.cards)
        assert capsa.compare(form, iterate(hand), rules) == 0


@pytest.mark.parametrize("hand", BAD, ids=range(len(BAD)))
def test_bad_hands_fail_alike(hand: list[Any]) -> None:
    with pytest.raises(Exception) as general:
        capsa.evaluate(iterate(hand))
    for form in (hand, tuple(hand)):
        with pytest.raises(type(general.value)) as fast:
            capsa.evaluate(form)
        assert str(fast.value) == str(general.value)
        with pytest.raises(type(general.value)) as second:
            capsa.compare([0, 1, 2], form)
        assert str(second.value) == str(general.value).replace("a hand", "the second hand")


def test_a_list_of_six_says_how_many() -> None:
    for form in ([0, 5, 10, 15, 20, 25], (0, 5, 10, 15, 20, 25)):
        with pytest.raises(capsa.HandError, match=r"needs 3 or 5 cards, got 6$"):
            capsa.evaluate(form)
