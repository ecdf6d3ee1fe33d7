"""Naturals as houses define them: the sixteenth natural in every place that
names the naturals, each entry's parameters, and the default parameters
declaring exactly the fixed definitions under every preset."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import capsa
from capsa import _core, odds

TWO_FULL = "2d 2c 2h 9d 9c 9s 4d 4c 7h 7s Kd Kc 5s"


def _with(entries: list[dict[str, Any]]) -> capsa.Rules:
    return capsa.Rules.preset("pagat").derive(naturals={"enabled": entries})


def test_two_full_houses_is_bit_15_of_a_uint16_set() -> None:
    # the four naturals after it need copies, which no 52-card hand holds
    assert capsa.NATURAL_NAMES[15] == "two-full-houses"
    assert len(capsa.NATURAL_NAMES) == 20
    assert capsa.naturals(TWO_FULL) == ["two-full-houses"]
    bits = capsa.naturals_batch(np.array([_core.card_ids(TWO_FULL)], dtype=np.uint8))
    assert bits.dtype == np.uint16
    assert int(bits[0]) == 1 << 15
    # three trips are not two full houses, nor is a quad with trips
    assert capsa.naturals("2d 2c 2h 9d 9c 9s 4d 4c 4h 7s Kd Kc 5s") == []
    assert "two-full-houses" not in capsa.naturals("2d 2c 2h 2s 9c 9s 9d 4c 7h 7s Kd Kc 5s")


def test_two_full_houses_occurs_as_its_exact_count_says() -> None:
    n = 200_000
    rng = np.random.default_rng(41)
    hands = np.argsort(rng.random((n, 52)), axis=1)[:, :13].astype(np.uint8)
    bits = capsa.naturals_batch(hands)
    seen = int(((bits >> 15) & 1).sum())
    p = odds.natural_counts()["two-full-houses"] / odds.HANDS
    assert odds.natural_counts()["two-full-houses"] == 1_423_319_040
    sigma = (n * p * (1 - p)) ** 0.5
    assert abs(seen - n * p) < 5 * sigma + 3, (seen, n * p)


def test_two_full_houses_is_declared_and_shown_in_its_rows() -> None:
    rules = _with([{"name": "six-pairs", "points": 3}, {"name": "two-full-houses", "points": 4}])
    assert capsa.natural(TWO_FULL, rules) == "two-full-houses"
    split = _core.natural_split(TWO_FULL, "two-full-houses", rules)
    assert split is not None
    cards = [capsa.Card(i) for i in split]
    top, middle, bottom = cards[:3], cards[3:8], cards[8:]
    assert sorted(_core.card_ids(TWO_FULL)) == sorted(split)
    assert capsa.evaluate(bottom).category == capsa.evaluate(middle).category == "full-house"
    assert capsa.evaluate(top).category == "pair"


@pytest.mark.parametrize(
    ("entry", "hand", "declared"),
    [
        # all-high from 9, 8 (the default) and 6
        ({"name": "all-high", "lowest": "9"}, "9d 9c 9h Td Tc Jh Js Qd Qc Kh Ks Ad Ac", True),
        ({"name": "all-high", "lowest": "9"}, "8d 9c 9h Td Tc Jh Js Qd Qc Kh Ks Ad Ac", False),
        ({"name": "all-high"}, "8d 9c 9h Td Tc Jh Js Qd Qc Kh Ks Ad Ac", True),
        ({"name": "all-high", "lowest": "6"}, "6d 9c 9h Td Tc Jh Js Qd Qc Kh Ks Ad Ac", True),
        ({"name": "all-high", "lowest": "6"}, "5d 9c 9h Td Tc Jh Js Qd Qc Kh Ks Ad Ac", False),
        # all-low to 10 and 8
        ({"name": "all-low", "highest": "T"}, "2d 2c 3h 3s 4d 4c 5h 5s 6d 6c 7h 9s Td", True),
        ({"name": "all-low"}, "2d 2c 3h 3s 4d 4c 5h 5s 6d 6c 7h 9s Td", False),
        ({"name": "all-low", "highest": "T"}, "2d 2c 3h 3s 4d 4c 5h 5s 6d 6c 7h 9s Jd", False),
        # twelve-royals: 12 of J, Q, K, A against 13
        ({"name": "twelve-royals"}, "Jd Jc Jh Qd Qc Qh Kd Kc Kh Ad Ac Ah Ts", True),
        ({"name": "twelve-royals", "count": 13}, "Jd Jc Jh Qd Qc Qh Kd Kc Kh Ad Ac Ah Ts", False),
        ({"name": "twelve-royals", "count": 13}, "Jd Jc Jh Qd Qc Qh Kd Kc Kh Ad Ac Ah As", True),
        # twelve-same-color: exactly 12 against at least 12
        ({"name": "twelve-same-color"}, "2d 4d 6d 8d Td Qd Ad 2h 5h 7h 9h Jh Kh", True),
        (
            {"name": "twelve-same-color", "exactly": True},
            "2d 4d 6d 8d Td Qd Ad 2h 5h 7h 9h Jh Kh",
            False,
        ),
        (
            {"name": "twelve-same-color", "exactly": True},
            "2d 4d 6d 8d Td Qd Ad 2s 5h 7h 9h Jh Kh",
            True,
        ),
    ],
)
def test_an_entry_s_parameters_define_its_natural(
    entry: dict[str, Any], hand: str, declared: bool
) -> None:
    rules = _with([{**entry, "points": 5}])
    assert capsa.natural(hand, rules) == (entry["name"] if declared else None)


def _hands(n: int, seed: int) -> list[list[int]]:
    """Random hands and hands of few ranks, few suits or high or low cards,
    where the naturals are common."""
    rng = np.random.default_rng(seed)
    out: list[list[int]] = []
    for k in range(n):
        deck = rng.permutation(52)
        kind = k % 5
        if kind == 1:
            ranks = rng.choice(13, size=int(rng.integers(4, 8)), replace=False)
            pool = [int(c) for c in deck if c // 4 in ranks]
        elif kind == 2:
            suits = rng.choice(4, size=int(rng.integers(1, 3)), replace=False)
            pool = [int(c) for c in deck if c % 4 in suits]
        elif kind == 3:
            pool = [int(c) for c in deck if c // 4 >= 6]
        elif kind == 4:
            pool = [int(c) for c in deck if c // 4 <= 6]
        else:
            pool = [int(c) for c in deck]
        pool += [int(c) for c in deck if int(c) not in pool]
        out.append(pool[:13])
    return out


@pytest.mark.parametrize("preset", capsa.presets())
def test_default_parameters_declare_the_fixed_definitions_under_every_preset(
    preset: str,
) -> None:
    shipped = capsa.Rules.preset(preset)
    enabled = [{"name": e["name"], "points": e["points"]} for e in shipped["naturals.enabled"]]
    rules = shipped.derive(naturals={"enabled": enabled})
    names = [e["name"] for e in enabled]
    for hand in _hands(3000, 41):
        held = set(capsa.naturals(hand))
        first = next((name for name in names if name in held), None)
        assert capsa.natural(hand, rules) == first, (preset, hand)


def test_a_summary_written_before_two_full_houses_reads_it_as_not_counted() -> None:
    summary = capsa.simulate("capsa-susun", deals=40, strategy="greedy", seed=3)
    assert summary.natural_frequency("two-full-houses") >= 0
    old = summary.to_dict()
    for counts in (old["qualifying"], old["declared"]):
        del counts["two-full-houses"]
    older = type(summary).from_dict(old)
    assert np.isnan(older.natural_frequency("two-full-houses"))
    assert older.natural_frequency("dragon") == summary.natural_frequency("dragon")
    with pytest.raises(capsa.ArgumentError, match="unknown natural 'dragonfly'"):
        older.natural_frequency("dragonfly")
