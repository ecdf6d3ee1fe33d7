"""Every legal split: the engine against the oracle, order, batch, errors."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import capsa
from capsa import oracle
from strategies import biased_hands, hands, ranking_knobs


@given(
    knobs=ranking_knobs(),
    cards=st.one_of(hands(13), biased_hands(13)),
    picks=st.lists(st.integers(0, 72_071), min_size=200, max_size=200),
)
def test_splits_match_oracle(knobs: dict[str, Any], cards: list[int], picks: list[int]) -> None:
    """The engine's valid splits against the oracle's foul check on sampled
    splits (the full enumeration is compared in the fixed-hand tests)."""
    rules = capsa.Rules(knobs)
    full = rules.to_dict()
    every = capsa.splits(cards, rules, valid_only=False)
    valid = {row.tobytes() for row in capsa.splits(cards, rules)}
    assert capsa.count_splits(cards, rules) == len(valid)
    for index in picks:
        row = every[index].tolist()
        foul = oracle.is_foul(row[:3], row[3:8], row[8:], full)
        assert (every[index].tobytes() in valid) == (not foul), row


@pytest.mark.parametrize("seed", [0, 7])
@pytest.mark.parametrize("knobs", [{}, {"tie_break": "none", "foul_check": "strict"}])
def test_full_splits_match_oracle(seed: int, knobs: dict[str, Any]) -> None:
    """Every valid split, in order, against the oracle's enumeration."""
    cards = [c.id for c in capsa.deal(2, seed=seed)[0]]
    rules = capsa.Rules(knobs)
    want = oracle.splits(cards, rules.to_dict())
    engine = capsa.splits(cards, rules)
    assert engine.shape == (len(want), 13)
    assert [tuple(row) for row in engine.tolist()] == [(*t, *m, *b) for t, m, b in want]


def test_all_splits_and_order() -> None:
    cards = capsa.deal(4, seed=11)[0]
    every = capsa.splits(cards, valid_only=False)
    assert every.shape == (72_072, 13) and every.dtype == np.uint8
    ids = sorted(c.id for c in cards)
    assert every[0].tolist() == ids
    assert len({tuple(sorted(r[:3])) + tuple(sorted(r[3:8])) for r in every.tolist()}) == 72_072
    valid = capsa.splits(cards)
    assert len(valid) == capsa.count_splits(cards)
    for row in valid[:: max(1, len(valid) // 50)]:
        assert not capsa.Arrangement.from_ids(row.tolist()).is_foul()


def test_valid_fraction_near_the_reference() -> None:
    deck = np.array([[c.id for c in h] for s in range(40) for h in capsa.deal(4, seed=s)])
    counts = capsa.count_splits_batch(deck.astype(np.uint8), capsa.Rules(tie_break="none"))
    assert counts.shape == (160,)
    frac = counts.mean() / 72_072
    assert 0.27 < frac < 0.35
    assert counts[5] == capsa.count_splits(deck[5].tolist(), capsa.Rules(tie_break="none"))


@pytest.mark.parametrize("rows", [1, 7, 9, 70, 203])
@pytest.mark.parametrize(
    "knobs", [{}, {"tie_break": "none"}, {"tie_break": "none", "foul_check": "strict"}]
)
def test_batch_counts_every_row_as_the_call_does(rows: int, knobs: dict[str, Any]) -> None:
    """The batch counts hands several at a time: every row of batches that
    fill part of a group, one group and more, serially and in parallel,
    equals the per-hand call; a hand built to tie sits among them."""
    rng = np.random.default_rng(rows)
    hands = np.array([rng.permutation(52)[:13] for _ in range(rows)], dtype=np.uint8)
    hands[rows // 2] = [0, 5, 10, *[4 * r + s for r in range(7, 12) for s in (0, 3)]]
    rules = capsa.Rules(knobs)
    counts = capsa.count_splits_batch(hands, rules)
    assert counts.tolist() == [capsa.count_splits(h.tolist(), rules) for h in hands]


@st.composite
def tie_hands(draw: st.DrawFn) -> tuple[list[int], tuple[list[int], list[int], list[int]]]:
    """13 cards with five ranks held twice, and a split whose middle and bottom
    are those five ranks once each (so they tie when suits do not count) and
    whose top is three lower single cards (so the top is below the middle)."""
    ranks = draw(st.lists(st.integers(0, 12), min_size=8, max_size=8, unique=True))
    low, paired = sorted(ranks)[:3], sorted(ranks)[3:]
    middle: list[int] = []
    bottom: list[int] = []
    for k, rank in enumerate(paired):
        # The first two ranks cross their suits over so neither row is a flush.
        if k < 2:
            a, b = (0, 1) if k == 0 else (1, 0)
        else:
            a, b = draw(st.lists(st.integers(0, 3), min_size=2, max_size=2, unique=True))
        middle.append(4 * rank + a)
        bottom.append(4 * rank + b)
    top = [4 * rank + draw(st.integers(0, 3)) for rank in low]
    return [*top, *middle, *bottom], (top, middle, bottom)


@given(knobs=ranking_knobs(), dealt=tie_hands())
def test_strict_refuses_equal_rows(
    knobs: dict[str, Any], dealt: tuple[list[int], tuple[list[int], list[int], list[int]]]
) -> None:
    """Without the suit tie-break a middle equal to the bottom is legal under
    allow-equal and a foul under strict, so strict has strictly fewer splits."""
    cards, (top, middle, bottom) = dealt
    allow = capsa.Rules({**knobs, "tie_break": "none", "foul_check": "allow-equal"})
    strict = capsa.Rules({**knobs, "tie_break": "none", "foul_check": "strict"})
    assert oracle.compare(middle, bottom, allow.to_dict()) == 0
    assert not oracle.is_foul(top, middle, bottom, allow.to_dict())
    assert oracle.is_foul(top, middle, bottom, strict.to_dict())
    assert not capsa.Arrangement.from_ids([*top, *middle, *bottom]).is_foul(allow)
    assert capsa.Arrangement.from_ids([*top, *middle, *bottom]).is_foul(strict)
    assert capsa.count_splits(cards, strict) < capsa.count_splits(cards, allow)


@given(
    knobs=ranking_knobs(),
    ranks=st.permutations(range(13)),
    suits=st.lists(st.integers(0, 3), min_size=13, max_size=13),
)
def test_strict_equals_allow_equal_without_ties(
    knobs: dict[str, Any], ranks: list[int], suits: list[int]
) -> None:
    """13 different ranks: no two rows can be equal even without the suit
    tie-break (a top is below any middle sharing its leading ranks), so
    strict and allow-equal count the same splits."""
    cards = [4 * r + s for r, s in zip(ranks, suits, strict=True)]
    allow = capsa.Rules({**knobs, "tie_break": "none", "foul_check": "allow-equal"})
    strict = capsa.Rules({**knobs, "tie_break": "none", "foul_check": "strict"})
    assert capsa.count_splits(cards, strict) == capsa.count_splits(cards, allow)


@pytest.mark.parametrize("foul_check", ["allow-equal", "strict"])
def test_tie_counts_match_oracle(foul_check: str) -> None:
    """A hand with ties possible, counted by the engine and by the oracle."""
    # 2-3-4 singles; 9, T, J, Q, K twice each (middle and bottom can tie).
    cards = [0, 5, 10, *[4 * r + s for r in range(7, 12) for s in (0, 3)]]
    rules = capsa.Rules(tie_break="none", foul_check=foul_check)
    assert capsa.count_splits(cards, rules) == oracle.count_splits(cards, rules.to_dict())
    strict = oracle.count_splits(cards, {**rules.to_dict(), "foul_check": "strict"})
    allow = oracle.count_splits(cards, {**rules.to_dict(), "foul_check": "allow-equal"})
    assert strict < allow


@pytest.mark.parametrize(
    ("cards", "error"),
    [
        (list(range(12)), capsa.HandError),
        (list(range(14)), capsa.HandError),
        ([*range(12), 0], capsa.HandError),
        ([*range(12), 52], capsa.CardError),
    ],
)
def test_bad_hands(cards: list[int], error: type[Exception]) -> None:
    with pytest.raises(error):
        capsa.splits(cards)
    with pytest.raises(error):
        capsa.count_splits(cards)


def test_batch_bad_shape() -> None:
    with pytest.raises(capsa.TableError):
        capsa.count_splits_batch(np.zeros((3, 12), dtype=np.uint8))


@pytest.mark.parametrize("row", [0, 8, 77])
def test_batch_names_a_bad_row_in_any_group(row: int) -> None:
    hands = np.array([np.random.default_rng(k).permutation(52)[:13] for k in range(80)])
    hands[row, 4] = hands[row, 5]
    with pytest.raises(capsa.HandError, match=f"^row {row}:"):
        capsa.count_splits_batch(hands.astype(np.uint8))
