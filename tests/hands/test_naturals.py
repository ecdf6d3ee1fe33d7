"""Naturals: the engine against the oracle, and their frequencies over deals."""

from __future__ import annotations

import math
import random
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import capsa
from capsa import oracle


@st.composite
def natural_prone_hands(draw: st.DrawFn) -> list[int]:
    """13 cards built to hit (or nearly hit) each natural."""
    rng = random.Random(draw(st.integers(0, 2**32)))
    kind = draw(
        st.sampled_from(
            ["random", "ranks", "suits", "runs", "pairs", "royals", "colour", "low", "high"]
        )
    )
    deck = list(range(52))
    rng.shuffle(deck)
    if kind == "ranks":  # few ranks: pairs, trips, quads
        ranks = rng.sample(range(13), rng.randint(4, 7))
        pool = [c for c in deck if c // 4 in ranks]
    elif kind == "suits":  # few suits: flushes, straight flushes
        suits = rng.sample(range(4), rng.randint(1, 3))
        pool = [c for c in deck if c % 4 in suits]
    elif kind == "runs":  # consecutive ranks: straights, dragons
        start = rng.randint(0, 12)
        ranks = [(start + k) % 13 for k in range(rng.randint(9, 13))]
        pool = [c for c in deck if c // 4 in ranks]
        by_rank = {r: [c for c in pool if c // 4 == r] for r in ranks}
        hand = [rng.choice(by_rank[r]) for r in ranks]
        rest = [c for c in pool if c not in hand]
        return (hand + rest)[:13]
    elif kind == "pairs":
        ranks = rng.sample(range(13), 6)
        hand = [c for r in ranks for c in rng.sample([4 * r + s for s in range(4)], 2)]
        rest = [c for c in deck if c not in hand]
        return hand + rest[:1]
    elif kind == "royals":
        royals = [c for c in deck if c // 4 >= 9]  # J, Q, K, A
        cut = rng.choice([11, 12, 13])
        return royals[:cut] + [c for c in deck if c // 4 < 9][: 13 - cut]
    elif kind == "colour":
        colour = rng.choice([(0, 2), (1, 3)])
        pool = [c for c in deck if c % 4 in colour] + [c for c in deck if c % 4 not in colour]
        cut = rng.choice([11, 12, 13])
        return pool[:cut] + [c for c in deck if c % 4 not in colour][: 13 - cut]
    elif kind == "low":
        pool = [c for c in deck if c // 4 <= 6] + [c for c in deck if c // 4 > 6]
    elif kind == "high":
        pool = [c for c in deck if c // 4 >= 6] + [c for c in deck if c // 4 < 6]
    else:
        pool = deck
    if len(pool) < 13:
        pool += [c for c in deck if c not in pool]
    return pool[:13]


@given(cards=natural_prone_hands())
def test_naturals_match_oracle(cards: list[int]) -> None:
    # the naturals this engine knows (all of the oracle's once it has
    # two-full-houses: tests/oracle/test_agreement.py asserts it does)
    want = set(oracle.naturals(cards)) & set(capsa.NATURAL_NAMES)
    assert set(capsa.naturals(cards)) == want
    batch = capsa.naturals_batch(np.array([cards], dtype=np.uint8))
    names = {n for i, n in enumerate(capsa.NATURAL_NAMES) if int(batch[0]) >> i & 1}
    assert names == want


@given(
    cards=natural_prone_hands(),
    preset=st.sampled_from(["capsa-susun", "pagat", "2-4", "1-6", "mau-binh", "hawaiian-gardens"]),
)
def test_declared_natural_matches_oracle(cards: list[int], preset: str) -> None:
    rules = capsa.Rules.preset(preset)
    assert capsa.natural(cards, rules) == oracle.natural(cards, rules.to_dict())


@pytest.mark.parametrize(
    ("text", "natural"),
    [
        ("2s 3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks As", "clean-dragon"),
        ("2s 3h 4s 5s 6s 7s 8s 9s Ts Js Qs Ks As", "dragon"),
        ("2c 2d 3c 3d 4c 4d 5c 5d 6c 6d 7c 7d As", "six-pairs"),
        ("2c 5c 9c 3d 7d 8d Jd Kd 4h 6h Th Qh Ah", "three-flushes"),
        ("Ac 2d 3h 4c 5d 6h 7c 8d 9c Th Jc Qd Kh", "dragon"),
        ("Ac 2d 3h 5c 6d 7h 8c 9d 9c Th Jc Qd Kh", "three-straights"),
    ],
)
def test_known_naturals(text: str, natural: str) -> None:
    assert natural in capsa.naturals(text)
    rules = capsa.Rules.preset("2-4").derive(naturals={"enabled": [{"name": natural, "points": 5}]})
    assert capsa.natural(text, rules) == natural


def test_near_misses() -> None:
    # K-A-2 is not a three-card straight (and no other split has three straights)
    wrap = "Kc Ad 2h 3c 3d 4h 4c 5d 5h 6c 6d 7h 7c"
    assert "three-straights" not in capsa.naturals(wrap)
    assert "three-straights" in capsa.naturals(wrap.replace("Kc", "3h"))
    # only five pairs
    assert "six-pairs" not in capsa.naturals("2c 2d 3c 3d 4c 4d 5c 5d 6c 6d 7c 8d As")
    # a quad counts as two pairs
    assert "six-pairs" in capsa.naturals("2c 2d 2h 2s 3c 3d 4c 4d 5c 5d 6c 6d As")


def test_strongest_enabled_is_declared() -> None:
    clean = "2s 3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks As"
    assert capsa.natural(clean) == "dragon"  # capsa-susun has no clean-dragon
    assert capsa.natural(clean, capsa.Rules.preset("mau-binh")) == "clean-dragon"
    assert capsa.natural("2c 3d 5h 7s 9c Jd Kh 4c 6d 8h Ts Qc 2d") is None


def _random_hands(n: int, seed: int) -> np.ndarray[Any, np.dtype[np.uint8]]:
    rng = np.random.default_rng(seed)
    keys = rng.random((n, 52))
    return np.argsort(keys, axis=1)[:, :13].astype(np.uint8)


def test_frequencies_match_exact_probabilities() -> None:
    n = 400_000
    bits = capsa.naturals_batch(_random_hands(n, 2026))
    total = math.comb(52, 13)
    exact = {
        "six-pairs": 2_856_863_152 / total,
        "three-flushes": 5_705_516_392 / total,
        "three-straights": 2_029_579_776 / total,
        "dragon": 1 / 9_462.0,
    }
    for name, p in exact.items():
        k = capsa.NATURAL_NAMES.index(name)
        seen = int(((bits >> k) & 1).sum())
        sigma = math.sqrt(n * p * (1 - p))
        assert abs(seen - n * p) < 5 * sigma + 3, (name, seen, n * p)


@pytest.mark.parametrize(
    ("cards", "error"),
    [
        (list(range(12)), capsa.HandError),
        ([*range(12), 12, 13], capsa.HandError),
        ([*range(12), 11], capsa.HandError),
    ],
)
def test_bad_hands(cards: list[int], error: type[Exception]) -> None:
    with pytest.raises(error):
        capsa.naturals(cards)


def test_bad_batch() -> None:
    with pytest.raises(capsa.TableError):
        capsa.naturals_batch(np.zeros((2, 12), dtype=np.uint8))
    bad = _random_hands(100, 1)
    bad[42, 3] = bad[42, 4]
    with pytest.raises(capsa.HandError, match="row 42"):
        capsa.naturals_batch(bad)
