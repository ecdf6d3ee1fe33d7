"""Every legal split: the engine against the oracle, order, batch, errors."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import capsa
from capsa import oracle
from strategies import biased_hands, hands, ranking_knobs


@settings(max_examples=8)
@given(knobs=ranking_knobs(), cards=st.one_of(hands(13), biased_hands(13)))
def test_splits_match_oracle(knobs: dict[str, Any], cards: list[int]) -> None:
    rules = capsa.Rules(knobs)
    full = rules.to_dict()
    engine = capsa.splits(cards, rules)
    want = oracle.splits(cards, full)
    assert engine.shape == (len(want), 13)
    assert [tuple(row) for row in engine.tolist()] == [(*t, *m, *b) for t, m, b in want]
    assert capsa.count_splits(cards, rules) == len(want)


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


def test_valid_fraction_near_contract() -> None:
    deck = np.array([[c.id for c in h] for s in range(40) for h in capsa.deal(4, seed=s)])
    counts = capsa.count_splits_batch(deck.astype(np.uint8), capsa.Rules(tie_break="none"))
    assert counts.shape == (160,)
    frac = counts.mean() / 72_072
    assert 0.27 < frac < 0.35
    assert counts[5] == capsa.count_splits(deck[5].tolist(), capsa.Rules(tie_break="none"))


def test_strict_has_fewer() -> None:
    cards = capsa.deal(4, seed=3)[1]
    strict = capsa.Rules(foul_check="strict")
    assert capsa.count_splits(cards, strict) <= capsa.count_splits(cards)


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
