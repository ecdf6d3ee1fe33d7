"""Hand ranking: the engine against the oracle, exhaustive counts, the API."""

from __future__ import annotations

import itertools
from collections import Counter
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import capsa
from capsa import oracle
from strategies import biased_hands, ranking_knobs


def sign(x: int) -> int:
    return (x > 0) - (x < 0)


@given(knobs=ranking_knobs(), a=biased_hands(5), b=biased_hands(5))
def test_five_card_order_matches_oracle(knobs: dict[str, Any], a: list[int], b: list[int]) -> None:
    rules = capsa.Rules(knobs)
    full = rules.to_dict()
    va, vb = capsa.evaluate(a, rules), capsa.evaluate(b, rules)
    assert va.category == oracle.category(a, full)
    assert sign(va.strength - vb.strength) == oracle.compare(a, b, full)


@given(knobs=ranking_knobs(), a=biased_hands(3), b=st.one_of(biased_hands(3), biased_hands(5)))
def test_mixed_size_order_matches_oracle(knobs: dict[str, Any], a: list[int], b: list[int]) -> None:
    rules = capsa.Rules(knobs)
    full = rules.to_dict()
    assert capsa.evaluate(a, rules).category == oracle.category(a, full)
    assert capsa.compare(a, b, rules) == oracle.compare(a, b, full)
    assert capsa.compare(b, a, rules) == oracle.compare(b, a, full)


@given(knobs=ranking_knobs(), cards=biased_hands(5))
def test_batch_equals_per_call(knobs: dict[str, Any], cards: list[int]) -> None:
    rules = capsa.Rules(knobs)
    batch = capsa.evaluate_batch(np.array([cards], dtype=np.uint8), rules)
    assert batch.dtype == np.uint32
    assert int(batch[0]) == capsa.evaluate(cards, rules).strength


def _all_five_card_hands() -> np.ndarray:
    combos = np.fromiter(
        itertools.chain.from_iterable(itertools.combinations(range(52), 5)),
        dtype=np.uint8,
        count=2_598_960 * 5,
    )
    return combos.reshape(-1, 5)


@pytest.fixture(scope="module")
def all_hands() -> np.ndarray:
    return _all_five_card_hands()


def test_exhaustive_five_card_counts(all_hands: np.ndarray) -> None:
    rules = capsa.Rules(tie_break="none")
    strengths = capsa.evaluate_batch(all_hands, rules)
    categories = Counter(strengths >> 28)
    names = dict(enumerate(capsa.CATEGORIES))
    by_name = {names[int(k)]: v for k, v in categories.items()}
    assert by_name == {
        "straight-flush": 36,
        "royal-flush": 4,
        "quads": 624,
        "full-house": 3_744,
        "flush": 5_108,
        "straight": 10_200,
        "trips": 54_912,
        "two-pair": 123_552,
        "pair": 1_098_240,
        "high-card": 1_302_540,
    }
    assert len(np.unique(strengths)) == 7_462


def test_suit_tie_break_never_ties_on_all_hands(all_hands: np.ndarray) -> None:
    strengths = capsa.evaluate_batch(all_hands)
    assert len(np.unique(strengths)) == 2_598_960


def test_exhaustive_three_card_counts() -> None:
    hands3 = np.array(list(itertools.combinations(range(52), 3)), dtype=np.uint8)
    strengths = capsa.evaluate_batch(hands3, capsa.Rules(tie_break="none"))
    names = Counter(capsa.CATEGORIES[int(s) >> 28] for s in strengths)
    assert names == {"trips": 52, "pair": 3_744, "high-card": 18_304}
    assert len(np.unique(strengths)) == 455


def test_category_and_values() -> None:
    v = capsa.evaluate("Ts Js Qs Ks As")
    assert v.category == "royal-flush"
    assert [str(c) for c in v.cards] == ["Ts", "Js", "Qs", "Ks", "As"]
    assert v.size == 5
    assert capsa.evaluate("As Ad Ac").category == "trips"
    # middle K-K-A-7-3 is above top K-K-A
    assert capsa.evaluate("Kd Kc Ad 7c 3d") > capsa.evaluate("Ks Kh As")
    assert capsa.compare("Kd Kc Ad 7c 3d", "Ks Kh As") == 1


def test_seed_straight_example_suit_decides() -> None:
    # ♦6-♦7-♣8-♦9-♠10 beats ♦6-♣7-♦8-♠9-♦10: the spade ten decides
    assert capsa.compare("6d 7d 8c 9d Ts", "6d 7c 8d 9s Td") == 1
    assert capsa.compare("6d 7d 8c 9d Ts", "6d 7c 8d 9s Td", capsa.Rules.preset("pagat")) == 0


def test_hand_values_are_ordered_and_hashable() -> None:
    a = capsa.evaluate("2c 3d 4h 5s 7c")
    b = capsa.evaluate("2c 2d 4h 5s 7c")
    assert a < b and b > a and a != b
    assert len({a, b, capsa.evaluate("2c 3d 4h 5s 7c")}) == 2
    assert sorted([b, a]) == [a, b]


def test_inputs_in_every_form() -> None:
    text = capsa.evaluate("As Ks Qs Js Ts")
    ids = capsa.evaluate([51, 47, 43, 39, 35])
    cards = capsa.evaluate([capsa.Card("As"), capsa.Card(47), capsa.Card("qs"), "Js", 35])
    assert text.strength == ids.strength == cards.strength
    assert capsa.evaluate(("A♠", "K♠", "Q♤", "J♠", "10♠")).strength == text.strength


@pytest.mark.parametrize(
    ("cards", "error"),
    [
        ("As Ks", capsa.HandError),
        ("As Ks Qs Js", capsa.HandError),
        ("As As Qs", capsa.HandError),
        ([0, 1, 52], capsa.CardError),
        ([0, 1, -1], capsa.CardError),
        ("As Ks Xq", capsa.CardError),
        (12, TypeError),
        ([0.5, 1, 2], TypeError),
    ],
)
def test_bad_hands_raise(cards: Any, error: type[Exception]) -> None:
    with pytest.raises(error):
        capsa.evaluate(cards)


def test_card_errors_name_token_and_position() -> None:
    with pytest.raises(capsa.CardError, match=r'"Zz".*card 3'):
        capsa.parse_cards("As Kd Zz")
    assert issubclass(capsa.CardError, ValueError)


@pytest.mark.parametrize(
    ("array", "error"),
    [
        (np.zeros((4, 5), dtype=np.int64), capsa.HandError),
        (np.zeros((4, 5), dtype=np.float64), TypeError),
        (np.zeros((4, 5), dtype=np.bool_), TypeError),
        (np.zeros((4, 4), dtype=np.uint8), capsa.TableError),
        (np.zeros(5, dtype=np.uint8), capsa.TableError),
        (np.array([[0, 1, 2, 3, 60]], dtype=np.uint8), capsa.CardError),
        (np.array([[0, 1, 2, 3, 300]], dtype=np.int32), capsa.CardError),
        (np.array([[0, 1, 2, 3, 3]], dtype=np.uint8), capsa.HandError),
        ([[0, 1, 2, 3, 4]], TypeError),
    ],
)
def test_bad_batches_raise(array: Any, error: type[Exception]) -> None:
    with pytest.raises(error):
        capsa.evaluate_batch(array)


def test_strided_batches_are_read_as_given() -> None:
    ids = np.arange(50, dtype=np.uint8).reshape(5, 10)[:, ::2]
    expected = capsa.evaluate_batch(np.ascontiguousarray(ids))
    assert (capsa.evaluate_batch(ids) == expected).all()


def test_batch_reports_bad_row_index() -> None:
    ids = np.array([list(range(5))] * 10_000, dtype=np.uint8)
    ids[7_777, 4] = 0
    with pytest.raises(capsa.HandError, match="row 7777"):
        capsa.evaluate_batch(ids)


def test_empty_batch() -> None:
    out = capsa.evaluate_batch(np.zeros((0, 5), dtype=np.uint8))
    assert out.shape == (0,) and out.dtype == np.uint32


def test_strength_category_roundtrip() -> None:
    for cards, name in [("2c 3d 4h 5s 7c", "high-card"), ("Ad 2d 3d 4d 5d", "straight-flush")]:
        v = capsa.evaluate(cards)
        assert capsa.CATEGORIES[v.strength >> 28] == name == v.category
