"""Deal uniformity, the small version of benches/uniformity.py: 20,000 fair
deals and 20,000 seeded deals, chi-square tests of card-to-seat and
card-to-position counts; a biased shuffle must fail the same tests."""

from __future__ import annotations

import numpy as np
import pytest

from capsa.rng import deal_uniformity, fair_decks, seeded_decks

DEALS = 20_000


def test_fair_deals_are_uniform() -> None:
    decks = fair_decks(bytes(range(32)), 0, DEALS)
    assert (np.sort(decks, axis=1) == np.arange(52)).all()
    result = deal_uniformity(decks)
    assert result.passes(), result


def test_seeded_deals_are_uniform() -> None:
    result = deal_uniformity(seeded_decks(1, DEALS))
    assert result.passes(), result


def test_a_biased_shuffle_fails() -> None:
    """The naive shuffle (swap each position with any position) is biased:
    the test must see it."""
    rng = np.random.default_rng(5)
    decks = np.tile(np.arange(52, dtype=np.uint8), (DEALS * 5, 1))
    rows = np.arange(decks.shape[0])
    for i in range(52):
        j = rng.integers(0, 52, size=decks.shape[0])
        decks[rows, i], decks[rows, j] = decks[rows, j], decks[rows, i].copy()
    result = deal_uniformity(decks)
    assert not result.passes(), result
    assert result.card_to_position.z > 10


def test_bad_shapes_are_refused() -> None:
    with pytest.raises(ValueError, match=r"\(N, 52\)"):
        deal_uniformity(np.zeros((3, 13), dtype=np.uint8))
