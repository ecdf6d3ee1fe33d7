"""Tests of the pure-Python oracle alone (no compiled engine needed).

The oracle is loaded by file path under the name ``capsa_oracle_standalone``
so these tests run whether or not the ``capsa`` package is built.
"""

from __future__ import annotations

import importlib.util
import random
import sys
from collections import Counter
from itertools import combinations, combinations_with_replacement, product
from math import comb, prod
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

ORACLE_PATH = Path(__file__).resolve().parents[2] / "python" / "capsa" / "oracle.py"


def _load_oracle() -> ModuleType:
    name = "capsa_oracle_standalone"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, ORACLE_PATH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


o = _load_oracle()

RANK_CHARS = "23456789TJQKA"
SUIT_CHARS = "dchs"


def card(text: str) -> int:
    rank = RANK_CHARS.index(text[0].upper()) + 2
    suit = SUIT_CHARS.index(text[1].lower())
    return 4 * (rank - 2) + suit


def cs(text: str) -> list[int]:
    """Card ids from text such as "As Kh Td"."""
    return [card(t) for t in text.split()]


def R(**changes: Any) -> dict[str, Any]:
    """capsa-susun rules with some knobs changed."""
    result: dict[str, Any] = o.load_rules(changes)
    return result


def seat(top: str, middle: str, bottom: str, **extra: Any) -> dict[str, Any]:
    return {"top": cs(top), "middle": cs(middle), "bottom": cs(bottom), **extra}


DEFAULT = o.default_rules()
NO_TIE = R(tie_break="none")


# ---------------------------------------------------------------------------
# Basics
# ---------------------------------------------------------------------------


def test_names() -> None:
    assert o.CATEGORIES == (
        "high-card",
        "pair",
        "two-pair",
        "trips",
        "straight",
        "flush",
        "full-house",
        "quads",
        "straight-flush",
        "royal-flush",
    )
    assert len(o.NATURAL_NAMES) == 20
    assert o.NATURAL_NAMES[0] == "clean-dragon"
    # the first fifteen keep their bits; two-full-houses is bit 15, the four
    # naturals of copies follow
    assert o.NATURAL_NAMES[14] == "no-picture-cards"
    assert o.NATURAL_NAMES[15] == "two-full-houses"
    assert o.NATURAL_NAMES[16:] == (
        "six-of-a-kind",
        "seven-of-a-kind",
        "eight-of-a-kind",
        "two-five-of-a-kinds",
    )
    assert o.NATURAL_NAMES.index("six-pairs") == 11
    assert card("2d") == 0 and card("2s") == 3 and card("As") == 51
    assert card("Td") == 32


def test_default_rules_is_capsa_susun() -> None:
    r = o.default_rules()
    assert r["name"] == "capsa-susun"
    assert r["tie_break"] == "suit"
    assert r["suit_order"] == "shcd"
    assert r["scoop"] == {"multiplier": 2, "bonus": 0, "multiply_royalties": False}
    assert r["sweep_all"] == {"multiplier": 4, "bonus": 0, "min_players": 4}
    assert r["foul"] == {"mode": "sweep-all", "points": 0, "pays_royalties": True}
    assert r["surrender"] == {"enabled": False, "cost": 0}
    assert r["naturals"]["enabled"] == [
        {"name": "dragon", "points": 208},
        {"name": "three-flushes", "points": 3},
        {"name": "three-straights", "points": 3},
        {"name": "six-pairs", "points": 3},
    ]
    assert r["royalties"] == {
        "top": {"trips": 5},
        "middle": {
            "full-house": 3,
            "quads": 14,
            "straight-flush": 18,
            "royal-flush": 22,
        },
        "bottom": {"quads": 7, "straight-flush": 9, "royal-flush": 11},
    }
    assert r["money"] == {
        "stake": 1,
        "rake_basis_points": 300,
        "rake_minimum_pot": 0,
        "rake_cap_per_pot": 0,
        "rake_cap_per_round": 0,
    }
    # A fresh copy each time.
    r["scoop"]["multiplier"] = 99
    assert o.default_rules()["scoop"]["multiplier"] == 2


# ---------------------------------------------------------------------------
# Categories (docs/rules.md, "Categories")
# ---------------------------------------------------------------------------


def test_three_card_counts_exhaustive() -> None:
    counts = Counter(o.category(h, DEFAULT) for h in combinations(range(52), 3))
    assert counts == {"trips": 52, "pair": 3744, "high-card": 18304}
    assert sum(counts.values()) == 22100


def test_three_card_distinct_strengths() -> None:
    hands = list(combinations(range(52), 3))
    assert len({o._key(h, NO_TIE) for h in hands}) == 455
    # With the suit tie-break two different hands never tie.
    assert len({o._key(h, DEFAULT) for h in hands}) == 22100


def _rank_multisets() -> list[tuple[int, ...]]:
    result: list[tuple[int, ...]] = []
    for ranks in combinations_with_replacement(range(2, 15), 5):
        if max(Counter(ranks).values()) <= 4:
            result.append(ranks)
    return result


def _non_flush_hand(ranks: tuple[int, ...]) -> list[int]:
    """Cards with these ranks, not all of one suit."""
    used: Counter[int] = Counter()
    hand = []
    for index, rank in enumerate(ranks):
        suit = used[rank] if len(set(ranks)) < 5 else (1 if index == 0 else 0)
        used[rank] += 1
        hand.append(4 * (rank - 2) + suit)
    return hand


def test_five_card_counts_by_rank_pattern() -> None:
    """All 2,598,960 five-card hands counted through their 7,462 rank patterns.

    A five-card category depends only on the ranks and on whether the five
    cards share a suit, so one hand per (rank multiset, flush or not)
    stands for all hands of that pattern, weighted by their number.
    """
    counts: Counter[str] = Counter()
    keys = set()
    patterns = 0
    for ranks in _rank_multisets():
        distinct = len(set(ranks)) == 5
        hand = _non_flush_hand(ranks)
        assert len(set(hand)) == 5 and len({c % 4 for c in hand}) > 1
        # Suit assignments of this rank pattern (flushes counted below).
        weight = 4**5 - 4 if distinct else prod(comb(4, n) for n in Counter(ranks).values())
        counts[o.category(hand, DEFAULT)] += weight
        keys.add(o._key(hand, NO_TIE))
        patterns += 1
        if distinct:
            flush = [4 * (r - 2) + 3 for r in ranks]
            counts[o.category(flush, DEFAULT)] += 4
            keys.add(o._key(flush, NO_TIE))
            patterns += 1
    assert patterns == 7462
    assert counts == {
        "straight-flush": 36,
        "royal-flush": 4,
        "quads": 624,
        "full-house": 3744,
        "flush": 5108,
        "straight": 10200,
        "trips": 54912,
        "two-pair": 123552,
        "pair": 1098240,
        "high-card": 1302540,
    }
    assert sum(counts.values()) == comb(52, 5)
    assert len(keys) == 7462
    second = R(tie_break="none", wheel="second")
    assert len({o._key(h, second) for h in _all_pattern_hands()}) == 7462


def _all_pattern_hands() -> list[list[int]]:
    hands = []
    for ranks in _rank_multisets():
        hands.append(_non_flush_hand(ranks))
        if len(set(ranks)) == 5:
            hands.append([4 * (r - 2) + 3 for r in ranks])
    return hands


STRAIGHT_RANKS = [[14, 2, 3, 4, 5]] + [list(range(lo, lo + 5)) for lo in range(2, 11)]


def test_constructed_straights_and_straight_flushes() -> None:
    cats: Counter[str] = Counter()
    for ranks in STRAIGHT_RANKS:
        for suits in product(range(4), repeat=5):
            hand = [4 * (r - 2) + s for r, s in zip(ranks, suits, strict=True)]
            cats[o.category(hand, DEFAULT)] += 1
    assert cats == {"straight": 10200, "straight-flush": 36, "royal-flush": 4}
    assert o.category(cs("As 2s 3s 4s 5s"), R(wheel="second")) == "straight-flush"
    assert o.category(cs("Ts Js Qs Ks As"), DEFAULT) == "royal-flush"
    assert o.category(cs("Ks As 2s 3s 4s"), DEFAULT) == "flush"  # no wrap
    assert o.category(cs("Kd Ac 2s 3s 4s"), DEFAULT) == "high-card"
    assert o.category(cs("Jd Qc Ks Ah 2s"), DEFAULT) == "high-card"


def test_constructed_quads_and_full_houses() -> None:
    quads = 0
    for r in range(2, 15):
        for k in range(2, 15):
            if k == r:
                continue
            for ks in range(4):
                hand = [4 * (r - 2) + s for s in range(4)] + [4 * (k - 2) + ks]
                assert o.category(hand, DEFAULT) == "quads"
                quads += 1
    assert quads == 624
    houses = 0
    for t, p in product(range(2, 15), repeat=2):
        if t == p:
            continue
        for ts in combinations(range(4), 3):
            for ps in combinations(range(4), 2):
                hand = [4 * (t - 2) + s for s in ts] + [4 * (p - 2) + s for s in ps]
                assert o.category(hand, DEFAULT) == "full-house"
                houses += 1
    assert houses == 3744


def test_constructed_flushes() -> None:
    straights = {frozenset(s) for s in STRAIGHT_RANKS}
    flushes = 0
    for ranks in combinations(range(2, 15), 5):
        if frozenset(ranks) in straights:
            continue
        for suit in range(4):
            hand = [4 * (r - 2) + suit for r in ranks]
            assert o.category(hand, DEFAULT) == "flush"
            flushes += 1
    assert flushes == 5108


def _random_hand_of_shape(rng: random.Random, shape: list[int]) -> list[int]:
    """Random cards with rank groups of the given sizes, not a flush/straight."""
    while True:
        ranks = rng.sample(range(2, 15), len(shape))
        hand = []
        for rank, size in zip(ranks, shape, strict=True):
            hand += [4 * (rank - 2) + s for s in rng.sample(range(4), size)]
        if len(hand) == 3:
            return hand
        flush = len({c % 4 for c in hand}) == 1
        rs = sorted({c // 4 + 2 for c in hand})
        straight = len(rs) == 5 and (rs[4] - rs[0] == 4 or rs == [2, 3, 4, 5, 14])
        if not flush and not straight:
            return hand


@pytest.mark.parametrize(
    ("shape", "expected"),
    [
        ([3, 1, 1], "trips"),
        ([2, 2, 1], "two-pair"),
        ([2, 1, 1, 1], "pair"),
        ([1, 1, 1, 1, 1], "high-card"),
        ([3], "trips"),
        ([2, 1], "pair"),
        ([1, 1, 1], "high-card"),
    ],
)
def test_constructed_small_categories(shape: list[int], expected: str) -> None:
    rng = random.Random(f"{shape}")
    for _ in range(300):
        hand = _random_hand_of_shape(rng, shape)
        assert o.category(hand, DEFAULT) == expected, hand


def test_three_card_straights_and_flushes_do_not_count() -> None:
    assert o.category(cs("2h 3h 4h"), DEFAULT) == "high-card"
    assert o.category(cs("Qs Ks As"), DEFAULT) == "high-card"
    assert o.compare(cs("Qs Ks As"), cs("2d 2c 3h"), DEFAULT) == -1


# ---------------------------------------------------------------------------
# Comparing (docs/rules.md, "Hand ranking")
# ---------------------------------------------------------------------------


def test_category_order() -> None:
    ladder = [
        "2d 4c 7h 9s Jd",  # high-card
        "2d 2c 7h 9s Jd",  # pair
        "2d 2c 7h 7s Jd",  # two-pair
        "2d 2c 2h 9s Jd",  # trips
        "2d 3c 4h 5s 6d",  # straight
        "2d 4d 7d 9d Jd",  # flush
        "2d 2c 2h 9s 9d",  # full-house
        "2d 2c 2h 2s 3d",  # quads
        "2d 3d 4d 5d 6d",  # straight-flush
        "Td Jd Qd Kd Ad",  # royal-flush
    ]
    for rules in (DEFAULT, NO_TIE):
        for (i, a), (j, b) in combinations(enumerate(ladder), 2):
            assert o.compare(cs(a), cs(b), rules) == -1
            assert o.compare(cs(b), cs(a), rules) == 1
            assert o.category(cs(b), rules) == o.CATEGORIES[j]
            assert o.category(cs(a), rules) == o.CATEGORIES[i]


@pytest.mark.parametrize(
    ("low", "high"),
    [
        ("Ks Kh Kd Kc 2s", "As Ah Ad Ac 2d"),  # quads: quad rank
        ("Ks Kh Kd Kc 2s", "Ks Kh Kd Kc 3d"),  # quads: kicker
        ("Ks Kh Kd Ac Ad", "As Ah Ac 2d 2c"),  # full house: trips rank first
        ("Ks Kh Kd 2c 2d", "Ks Kh Kd 3c 3d"),  # full house: pair rank
        ("Qs Qh Qd Ac Kd", "Ks Kh Kd 2c 3d"),  # trips rank
        ("Ks Kh Kd 9c 7d", "Ks Kh Kd 9c 8d"),  # trips: second kicker
        ("Ks Kh 2d 2c Ad", "Ks Kh 3d 3c 4d"),  # two pair: low pair
        ("Ks Kh 3d 3c 4d", "Ks Kh 3d 3c 5d"),  # two pair: kicker
        ("Qs Qh Ad Kc Jd", "Ks Kh 2d 3c 4d"),  # pair: pair rank
        ("Ks Kh 9d 7c 5d", "Ks Kh 9d 7c 6d"),  # pair: last kicker
        ("As Kd Qh Jc 8d", "As Kd Qh Jc 9d"),  # high card: last card
        ("2s 3s 4s 5s 7s", "2d 3d 4d 5d 8d"),  # flush ranks
        ("9s Ts Jh Qc Kd", "Ts Jh Qc Kd As"),  # straights by top card
    ],
)
def test_rank_vectors(low: str, high: str) -> None:
    for rules in (DEFAULT, NO_TIE):
        assert o.compare(cs(low), cs(high), rules) == -1
        assert o.compare(cs(high), cs(low), rules) == 1


def test_wheel_low() -> None:
    wheel = cs("As 2d 3c 4h 5s")
    assert o.compare(wheel, cs("2s 3d 4c 5h 6s"), NO_TIE) == -1
    assert o.compare(wheel, cs("As Ad Ac Kh Qs"), NO_TIE) == 1  # above trips
    assert o.compare(wheel, cs("9s Td Jc Qh Ks"), NO_TIE) == -1
    sf_wheel = cs("Ah 2h 3h 4h 5h")
    assert o.compare(sf_wheel, cs("2s 3s 4s 5s 6s"), NO_TIE) == -1
    assert o.compare(sf_wheel, cs("2d 2c 2h 2s Ad"), NO_TIE) == 1


def test_wheel_second() -> None:
    second = R(tie_break="none", wheel="second")
    wheel = cs("As 2d 3c 4h 5s")
    assert o.compare(wheel, cs("9s Td Jc Qh Ks"), second) == 1
    assert o.compare(wheel, cs("Ts Jd Qc Kh As"), second) == -1
    assert o.compare(wheel, cs("2s 3d 4c 5h 6s"), second) == 1
    sf_wheel = cs("Ah 2h 3h 4h 5h")
    assert o.category(sf_wheel, second) == "straight-flush"
    assert o.compare(sf_wheel, cs("9s Ts Js Qs Ks"), second) == 1
    assert o.compare(sf_wheel, cs("Ts Js Qs Ks As"), second) == -1
    # Under "low" the same straight flush is the lowest one.
    assert o.compare(sf_wheel, cs("9s Ts Js Qs Ks"), NO_TIE) == -1


def test_wheel_ace_position_in_suit_tie_break() -> None:
    a = cs("As 2d 3d 4d 5d")
    b = cs("Ah 2c 3c 4c 5s")
    # low: cards from the 5 down, ace last: 5d vs 5s -> b.
    assert o.compare(a, b, DEFAULT) == -1
    # second: ace first: As vs Ah -> a.
    assert o.compare(a, b, R(wheel="second")) == 1


def test_straights_tie_without_suit_tie_break() -> None:
    a = cs("9s Td Jc Qh Ks")
    b = cs("9d Tc Jh Qs Kd")
    assert o.compare(a, b, NO_TIE) == 0
    assert o.compare(a, b, DEFAULT) == 1  # Ks vs Kd
    assert o.compare(a, b, R(suit_order="dchs")) == -1


def test_flush_compare() -> None:
    high_hearts = cs("Ah Kh Qh Jh 9h")
    low_spades = cs("2s 4s 6s 8s Ts")
    assert o.compare(high_hearts, low_spades, NO_TIE) == 1
    assert o.compare(high_hearts, low_spades, DEFAULT) == 1
    first = R(tie_break="none", flush_compare="suit-first")
    assert o.compare(high_hearts, low_spades, first) == -1
    # Another suit order: hearts strongest.
    hearts_first = R(tie_break="none", flush_compare="suit-first", suit_order="hsdc")
    assert o.compare(high_hearts, low_spades, hearts_first) == 1
    # Same suit: ranks decide.
    assert o.compare(cs("2s 4s 6s 8s Ts"), cs("2s 4s 6s 8s Js"), first) == -1
    # Suit-first only concerns flushes; a straight flush is still above.
    assert o.compare(cs("2d 3d 4d 5d 6d"), low_spades, first) == 1
    # Equal-rank flushes under tie_break suit: the suit decides.
    assert o.compare(cs("2h 4h 6h 8h Th"), low_spades, DEFAULT) == -1
    assert o.compare(cs("2h 4h 6h 8h Th"), low_spades, NO_TIE) == 0
    # With suit-first and tie_break suit, the flush's suit still decides first.
    both = R(flush_compare="suit-first")
    assert o.compare(cs("3d 5d 7d 9d Jd"), cs("2c 4c 6c 8c Tc"), both) == -1
    assert o.compare(cs("3d 5d 7d 9d Jd"), cs("2c 4c 6c 8c Tc"), DEFAULT) == 1


def test_tie_break_suit_default_and_custom_order() -> None:
    a = cs("Kh Kc Ad Qd Jd")  # pair of kings, Kh Kc
    b = cs("Ks Kd Ac Qc Jc")  # pair of kings, Ks Kd
    assert o.compare(a, b, NO_TIE) == 0
    # shcd: b's first card Ks beats a's Kh.
    assert o.compare(a, b, DEFAULT) == -1
    # hdsc (hearts, diamonds, spades, clubs): a's Kh beats b's best king Kd.
    custom = R(suit_order="hdsc")
    assert o.compare(a, b, custom) == 1
    assert o.compare(b, a, custom) == -1
    # Suits compare one card at a time: first cards equal, second decides.
    c = cs("As Kd Qd Jd 9d")
    d = cs("As Kc Qd Jd 9d")
    assert o.compare(c, d, DEFAULT) == -1  # Kc > Kd under shcd
    assert o.compare(c, d, R(suit_order="sdhc")) == 1  # d > c
    assert o.compare(c, c, DEFAULT) == 0
    # The significance order puts the larger group first: trips before
    # kickers even when a kicker has a stronger suit.
    e = cs("7d 7c 7h As Ks")
    f = cs("7s 7c 7h Ad Kd")
    assert o.compare(e, f, DEFAULT) == -1  # 7h vs 7s on the first card
    # Within a group, the stronger suit is listed first.
    g = cs("9s 9d 2c")
    h = cs("9h 9c 2d")
    assert o.compare(g, h, DEFAULT) == 1  # 9s vs 9h
    # dchs: g lists 9d before 9s, h lists 9c before 9h; 9d beats 9c.
    assert o.compare(g, h, R(suit_order="dchs")) == 1
    assert o.compare(g, h, R(suit_order="chds")) == -1  # 9c vs 9d


def test_three_against_five_prefix_rule() -> None:
    for rules in (DEFAULT, NO_TIE):
        assert o.compare(cs("Kd Kc As 7h 3s"), cs("Kh Ks Ad"), rules) == 1
        assert o.compare(cs("Kh Ks Ad"), cs("Kd Kc As 7h 3s"), rules) == -1
        # A higher kicker in three cards beats a lower one in five.
        assert o.compare(cs("Kh Ks Ad"), cs("Kd Kc Qs Jh Ts"), rules) == 1
        # High card: same three ranks, the five-card hand is higher.
        assert o.compare(cs("Ah Kh 8s"), cs("Ad Kd 8c 4h 2s"), rules) == -1
        assert o.compare(cs("Ah Kh 9s"), cs("Ad Kd 8c 4h 2s"), rules) == 1
        # Category first on the shared scale.
        assert o.compare(cs("Ah Ad Ac"), cs("2d 2c 3h 3s 4d"), rules) == 1
        assert o.compare(cs("Ah Ad Ac"), cs("2d 3c 4h 5s 6d"), rules) == -1
        assert o.compare(cs("2h 2d 3c"), cs("Ad Kc Qh Js 9d"), rules) == 1
        # Trips: the five-card trips of the same rank has the kickers.
        assert o.compare(cs("Kh Kd Kc"), cs("Kh Kd Kc 3s 2s"), rules) == -1


# ---------------------------------------------------------------------------
# Fouls (docs/rules.md, "Arrangements and fouls")
# ---------------------------------------------------------------------------


def test_fouls_allow_equal_vs_strict() -> None:
    top = cs("2d 3c 5h")
    middle = cs("Kh Kd 9c 7s 4h")
    bottom = cs("Ks Kc 9d 7h 4c")
    assert o.compare(bottom, middle, NO_TIE) == 0
    assert o.is_foul(top, middle, bottom, NO_TIE) is False
    strict = R(tie_break="none", foul_check="strict")
    assert o.is_foul(top, middle, bottom, strict) is True
    # With the suit tie-break there are no ties: bottom Ks beats middle Kh.
    assert o.is_foul(top, middle, bottom, DEFAULT) is False
    assert o.is_foul(top, middle, bottom, R(foul_check="strict")) is False
    assert o.is_foul(top, bottom, middle, DEFAULT) is True
    assert o.is_foul(top, bottom, middle, NO_TIE) is False


def test_fouls_top_above_middle() -> None:
    assert o.is_foul(cs("Qd Qc Qh"), cs("2d 2c 3h 3s 4d"), cs("5d 6d 7d 8d 9d"), DEFAULT)
    assert not o.is_foul(cs("Qd Qc Qh"), cs("2d 3c 4h 5s 6d"), cs("5c 6c 7c 8c 9c"), DEFAULT)
    # Middle K-K-A-7-3 is above top K-K-A: not a foul, even under strict.
    top = cs("Kh Ks Ad")
    middle = cs("Kd Kc As 7h 3s")
    bottom = cs("2d 2c 2h 9s 9d")
    for rules in (DEFAULT, NO_TIE, R(tie_break="none", foul_check="strict")):
        assert o.is_foul(top, middle, bottom, rules) is False
    assert o.is_foul(cs("Kh Ks Ad"), cs("Kd Kc Qs 7h 3s"), bottom, DEFAULT) is True


# ---------------------------------------------------------------------------
# Splits
# ---------------------------------------------------------------------------

HAND13 = cs("2d 5c 7h 9s Td Jc Jh Qs Kd Ac Ah As 3s")


def test_split_order_and_totals() -> None:
    every = o.splits(HAND13, DEFAULT, valid_only=False)
    assert len(every) == 72072
    s = sorted(HAND13)
    assert every[0] == ((s[0], s[1], s[2]), tuple(s[3:8]), tuple(s[8:13]))
    assert every[1] == (
        (s[0], s[1], s[2]),
        (s[3], s[4], s[5], s[6], s[8]),
        (s[7], *s[9:13]),
    )
    assert every[251] == ((s[0], s[1], s[2]), tuple(s[8:13]), tuple(s[3:8]))
    assert every[252][0] == (s[0], s[1], s[3])
    assert every[-1] == ((s[10], s[11], s[12]), tuple(s[5:10]), tuple(s[0:5]))
    for top, middle, bottom in every[::997]:
        assert sorted(top + middle + bottom) == s
        assert list(top) == sorted(top) and list(middle) == sorted(middle)
        assert list(bottom) == sorted(bottom)
    assert len(set(every)) == 72072


def test_count_splits_matches_is_foul() -> None:
    every = o.splits(HAND13, NO_TIE, valid_only=False)
    expected = [sp for sp in every if not o.is_foul(*sp, NO_TIE)]
    valid = o.splits(HAND13, NO_TIE)
    assert valid == expected
    assert o.count_splits(HAND13, NO_TIE) == len(expected)
    assert 0 < len(expected) < 72072
    # strict can only remove splits.
    strict = o.count_splits(HAND13, R(tie_break="none", foul_check="strict"))
    assert strict <= len(expected)


def test_valid_fraction_is_about_31_percent() -> None:
    rng = random.Random(7)
    total = 0
    for _ in range(6):
        hand = rng.sample(range(52), 13)
        total += o.count_splits(hand, NO_TIE)
    fraction = total / (6 * 72072)
    assert 0.2 < fraction < 0.45


def test_splits_rejects_bad_hands() -> None:
    with pytest.raises(ValueError):
        o.splits(HAND13[:12], DEFAULT)
    with pytest.raises(ValueError):
        o.splits([*HAND13[:12], HAND13[0]], DEFAULT)


# ---------------------------------------------------------------------------
# Naturals (docs/rules.md, "Naturals")
# ---------------------------------------------------------------------------

NATURAL_CASES: list[tuple[str, str, str]] = [
    # (natural, hand that has it, near miss that does not)
    (
        "clean-dragon",
        "2s 3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks As",
        "2s 3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks Ah",
    ),
    (
        "dragon",
        "2c 3d 4h 5s 6c 7d 8h 9s Tc Jd Qh Ks Ac",
        "2c 3d 4h 5s 6c 7d 8h 9s Tc Jd Qh Ks Kc",
    ),
    (
        "twelve-royals",
        "Ac Ad Ah As Kc Kd Kh Ks Qc Qd Qh Jc 5d",
        "Ac Ad Ah As Kc Kd Kh Ks Qc Qd Qh 4c 5d",
    ),
    (
        "three-straight-flushes",
        "2h 3h 4h 5c 6c 7c 8c 9c 9d Td Jd Qd Kd",
        "2h 3h 4h 5c 6c 7c 8c 9s 9d Td Jd Qd Kd",
    ),
    (
        "three-quads",
        "2c 2d 2h 2s 3c 3d 3h 3s 4c 4d 4h 4s 5c",
        "2c 2d 2h 2s 3c 3d 3h 3s 4c 4d 4h 6c 5c",
    ),
    (
        "all-high",
        "8c 8d 9c 9d Tc Td Jc Qc Kc Ac Ad As 8h",
        "8c 8d 9c 9d Tc Td Jc Qc Kc Ac Ad As 7h",
    ),
    (
        "all-low",
        "2c 3c 4c 5c 6c 7c 8c 2d 3d 4d 5d 6d 8d",
        "2c 3c 4c 5c 6c 7c 8c 2d 3d 4d 5d 6d Ad",
    ),
    (
        "full-colored",
        "2d 3d 4d 5d 6d 7d 8d 9h Th Jh Qh Kh Ah",
        "2d 3d 4d 5d 6d 7d 8d 9h Th Jh Qh Kh As",
    ),
    (
        "twelve-same-color",
        "2d 3d 4d 5d 6d 7d 8d 9h Th Jh Qh Kh As",
        "2d 3d 4d 5d 6d 7d 8d 9h Th Jh Qh Ks As",
    ),
    (
        "four-triples",
        "2c 2d 2h 3c 3d 3h 4c 4d 4h 5c 5d 5h 9s",
        "2c 2d 2h 3c 3d 3h 4c 4d 4h 5c 5d 6c 6d",
    ),
    (
        "five-pairs-trips",
        "2c 2d 2h 3c 3d 4c 4d 5c 5d 6c 6d 7c 7d",
        "2c 2d 2h 3c 3d 3h 4c 4d 5c 5d 6c 6d 7c",
    ),
    (
        "six-pairs",
        "2c 2d 3c 3d 4c 4d 5c 5d 6c 6d 7c 7d 9s",
        "2c 2d 3c 3d 4c 4d 5c 5d 6c 6d 8s 9s Ts",
    ),
    (
        "three-straights",
        "2c 3d 4h 2d 3c 4s 5c 6d 5h 6h 7c 8d 9s",
        "2c 3d 4h 2d 3c 4s 5c 6d 5h 6h 7c 8d Ts",
    ),
    (
        "three-flushes",
        "2c 5c 9c 3d 6d 8d Td Qd 4h 7h Jh Kh Ah",
        "2c 5c 9c 3d 6d 8d Td Qd 4h 7h Jh Kh As",
    ),
    (
        "no-picture-cards",
        "2c 3c 4c 5c 6c 7c 8c 9c Tc Ac Ad Ah As",
        "2c 3c 4c 5c 6c 7c 8c 9c Tc Ac Ad Ah Js",
    ),
]


@pytest.mark.parametrize(("name", "has", "misses"), NATURAL_CASES)
def test_each_natural(name: str, has: str, misses: str) -> None:
    assert name in o.NATURAL_NAMES
    assert name in o.naturals(cs(has))
    assert name not in o.naturals(cs(misses))


def test_natural_exact_sets() -> None:
    assert o.naturals(cs("2s 3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks As")) == {
        "clean-dragon",
        "dragon",
        "three-straight-flushes",
        "full-colored",
        "twelve-same-color",
        "three-straights",
        "three-flushes",
    }
    # Ace of hearts among 12 spades: no straight flush can use it.
    assert o.naturals(cs("2s 3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks Ah")) == {
        "dragon",
        "twelve-same-color",
        "three-straights",
    }
    assert o.naturals(cs("2c 3d 4h 5s 6c 7d 8h 9s Tc Jd Qh Ks Ac")) == {
        "dragon",
        "three-straights",
    }
    assert o.naturals(cs("2c 2d 3c 3d 4c 4d 5c 5d 6c 6d 7c 7d 9s")) == {
        "six-pairs",
        "no-picture-cards",
    }
    assert o.naturals(cs("Jc Jd Jh Js Qc Qd Qh Qs Kc Kd Kh Ks 2c")) == {
        "twelve-royals",
        "three-quads",
        "six-pairs",
    }
    assert o.naturals(cs("2c 2d 5h 7s 8c 9d Jh Qs Kc Ad 3h 3s Th")) == set()
    # 2-6, 6-T and J-Q-K: three straights although there is no ace.
    assert o.naturals(cs("2c 7d 9h Jc Qd Kh 3s 5s 8c Td 4h 6h 6s")) == {"three-straights"}


def test_natural_variants() -> None:
    n = o.naturals
    # Quads count as trips for four-triples and as two pairs for the pairs.
    assert "four-triples" in n(cs("2c 2d 2h 2s 3c 3d 3h 4c 4d 4h 5c 5d 5h"))
    assert "five-pairs-trips" in n(cs("2c 2d 2h 3c 3d 3h 3s 4c 4d 5c 5d 6c 6d"))
    assert "six-pairs" in n(cs("2c 2d 2h 3c 3d 4c 4d 5c 5d 6c 6d 7c 7d"))
    assert "six-pairs" in n(cs("2c 2d 2h 2s 3c 3d 4c 4d 5c 5d 6c 6d 9s"))
    assert "six-pairs" not in n(cs("2c 2d 2h 3c 3d 3h 4c 4d 4h 5c 5d 5h 9s"))
    # Six pairs and a single: not five-pairs-trips (one odd count, but 1).
    assert "five-pairs-trips" not in n(cs("2c 2d 3c 3d 4c 4d 5c 5d 6c 6d 7c 7d 9s"))
    # Three-card straights: A-2-3 and Q-K-A allowed, K-A-2 not.
    assert "three-straights" in n(cs("Ac 2d 3h 4s 5c 6d 7h 8s 9c Td Jh Qs Kc"))
    assert "three-straights" in n(cs("Qc Kd Ah 2s 3c 4d 5h 6s 7c 8d 9h Ts Jc"))
    assert "three-straight-flushes" in n(cs("Ad 2d 3d 4s 5s 6s 7s 8s 9h Th Jh Qh Kh"))
    assert "three-straight-flushes" in n(cs("Qs Ks As 2c 3c 4c 5c 6c 7d 8d 9d Td Jd"))
    kaa = cs("Kh Ah 2h 3c 4c 5c 6c 7c 8d 9d Td Jd Qd")
    assert "three-straight-flushes" not in n(kaa)
    assert {"three-flushes", "dragon"} <= n(kaa)
    # Straights over two 5-card straights that share ranks.
    assert "three-straights" in n(cs("Tc Jd Qh Ts Jc Qd Kh As 9c Td Jh Qs Ks"))
    # all-low: aces are high.
    assert "all-low" not in n(cs("2c 3c 4c 5c 6c 7c 8c 2d 3d 4d 5d 6d Ac"))
    # twelve-royals needs 12 of J Q K A.
    assert "twelve-royals" in n(cs("Jc Jd Jh Js Qc Qd Qh Qs Kc Kd Kh Ks 2c"))


def test_natural_picks_strongest_enabled() -> None:
    spades = cs("2s 3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks As")
    assert o.natural(spades, DEFAULT) == "dragon"
    hawaiian = R(
        naturals={
            "enabled": [
                {"name": "clean-dragon", "points": 39},
                {"name": "dragon", "points": 13},
            ]
        }
    )
    assert o.natural(spades, hawaiian) == "clean-dragon"
    # three-flushes and six-pairs both: three-flushes is listed first.
    both = cs("2c 5c 9c 2d 5d 3d 8d Td 9h 3h 8h Th Qh")
    assert {"three-flushes", "six-pairs"} <= o.naturals(both)
    assert o.natural(both, DEFAULT) == "three-flushes"
    reordered = R(
        naturals={
            "enabled": [
                {"name": "six-pairs", "points": 3},
                {"name": "three-flushes", "points": 3},
            ]
        }
    )
    assert o.natural(both, reordered) == "six-pairs"
    assert o.natural(both, R(naturals={"enabled": []})) is None
    assert o.natural(cs("2c 2d 5h 7s 8c 9d Jh Qs Kc Ad 3h 3s Th"), DEFAULT) is None


# ---------------------------------------------------------------------------
# Royalties
# ---------------------------------------------------------------------------


def test_royalty_table() -> None:
    assert o.royalty("top", cs("Ah Ad Ac"), DEFAULT) == 5
    assert o.royalty("top", cs("Ah Ad Kc"), DEFAULT) == 0
    assert o.royalty("middle", cs("9h 9d 9c 5s 5h"), DEFAULT) == 3
    assert o.royalty("middle", cs("2c 2d 2h 2s 3c"), DEFAULT) == 14
    assert o.royalty("middle", cs("3d 4d 5d 6d 7d"), DEFAULT) == 18
    assert o.royalty("middle", cs("Td Jd Qd Kd Ad"), DEFAULT) == 22
    assert o.royalty("bottom", cs("9h 9d 9c 5s 5h"), DEFAULT) == 0
    assert o.royalty("bottom", cs("2c 2d 2h 2s 3c"), DEFAULT) == 7
    assert o.royalty("bottom", cs("Ad 2d 3d 4d 5d"), R(wheel="second")) == 9
    assert o.royalty("bottom", cs("Td Jd Qd Kd Ad"), DEFAULT) == 11
    assert o.royalty("bottom", cs("2d 4d 6d 8d Td"), DEFAULT) == 0
    # The table value whatever royalty_mode says.
    assert o.royalty("top", cs("Ah Ad Ac"), R(royalty_mode="none")) == 5
    with pytest.raises(ValueError):
        o.royalty("front", cs("Ah Ad Ac"), DEFAULT)
    with pytest.raises(ValueError):
        o.royalty("top", cs("Ah Ad Ac Kd Ks"), DEFAULT)


# ---------------------------------------------------------------------------
# Settlement (docs/rules.md, "Settlement" and "Worked examples")
# ---------------------------------------------------------------------------

# Section 8, bottom-row example. Tops are ordered A > B > C > D and middles
# D > C > B > A, so in every pair top and middle cancel and the bottom row
# alone decides who wins two rows to one (+1 point, no scoop, no royalty).
EX_A = seat("Ah Kh 8s", "As Ks 9d 7d 5h", "Jc Jd Jh 3c 3d")  # full house J/3
EX_B = seat("Qs Js 7s", "Tc Td 2s 4s 6s", "2h 4h 6h 9h Qh")  # heart flush
EX_C = seat("Th 9s 8c", "Qc Qd 2d 3s 5s", "5c 6d 7c 8d 9c")  # straight to 9
EX_D = seat("Ts 8h 7h", "Kc Kd 3h 4d 6c", "Ac Ad 2c 4c 5d")  # pair of aces
EXAMPLE = [EX_A, EX_B, EX_C, EX_D]


def test_worked_example_bottom_rows() -> None:
    bottoms = [s["bottom"] for s in EXAMPLE]
    assert [o.category(b, DEFAULT) for b in bottoms] == [
        "full-house",
        "flush",
        "straight",
        "pair",
    ]
    for i, j in combinations(range(4), 2):
        assert o.compare(bottoms[i], bottoms[j], DEFAULT) == 1
        # Top and middle cancel.
        assert o.compare(EXAMPLE[i]["top"], EXAMPLE[j]["top"], DEFAULT) == 1
        assert o.compare(EXAMPLE[i]["middle"], EXAMPLE[j]["middle"], DEFAULT) == -1
    for s in EXAMPLE:
        assert not o.is_foul(s["top"], s["middle"], s["bottom"], DEFAULT)
        assert o.naturals(s["top"] + s["middle"] + s["bottom"]) == set()
    result = o.settle(EXAMPLE, DEFAULT, stakes=1000)
    assert result["points"] == [3, 1, -1, -3]
    assert result["money"] == [3000, 1000, -1000, -3000]
    assert result["rake"] == [90, 30, 0, 0]  # 3% of positive money
    assert result["net"] == [2910, 970, -1000, -3000]
    assert result["pair_points"] == [
        [0, 1, 1, 1],
        [-1, 0, 1, 1],
        [-1, -1, 0, 1],
        [-1, -1, -1, 0],
    ]
    # B's gross wins are 2,000 and its net 1,000.
    no_rake = R(money={"rake_percent": 0})
    assert o.settle(EXAMPLE, no_rake, stakes=1000)["net"] == [3000, 1000, -1000, -3000]


# A four-player table where P0 wins every row against every opponent.
# P0 has top trips (royalty 5) and no other royalty; nobody else has any.
SW0 = seat("Ac Ad Ah", "9c Tc Jd Qd Kh", "2s 4s 6s 8s Ts")
SW1 = seat("Kc Kd 2c", "3c 4d 5h 6c 7d", "8c 9d Th Jc Qc")
SW2 = seat("Jh Js 5d", "Qh Qs 9h 8d 3h", "3d 4c 5c 6d 7c")
SW3 = seat("As Ks Td", "2d 2h 3s 4h 7s", "5s 6h 7h 8h 9s")
SWEEP = [SW0, SW1, SW2, SW3]
SW1_FOUL = seat("Kc Kd 2c", "8c 9d Th Jc Qc", "3c 4d 5h 6c 7d")


def _full(s: dict[str, Any]) -> list[int]:
    cards: list[int] = s["top"] + s["middle"] + s["bottom"]
    return cards


def test_sweep_fixture_is_what_it_claims() -> None:
    for s in SWEEP:
        assert not o.is_foul(s["top"], s["middle"], s["bottom"], DEFAULT)
        assert (
            o.naturals(_full(s))
            & {
                "dragon",
                "three-flushes",
                "three-straights",
                "six-pairs",
            }
            == set()
        )
    assert o.is_foul(SW1_FOUL["top"], SW1_FOUL["middle"], SW1_FOUL["bottom"], DEFAULT)
    for j in (1, 2, 3):
        for row in ("top", "middle", "bottom"):
            assert o.compare(SW0[row], SWEEP[j][row], DEFAULT) == 1


def test_scoop_two_players() -> None:
    # Wins all three rows against one opponent: 6 plus royalties (5).
    r = o.settle([SW0, SW1], DEFAULT)
    assert r["points"] == [11, -11]
    assert r["pair_points"] == [[0, 11], [-11, 0]]
    r = o.settle([SW0, SW1], R(scoop={"multiply_royalties": True}))
    assert r["points"] == [16, -16]
    r = o.settle([SW0, SW1], R(scoop={"multiplier": 1, "bonus": 3}))
    assert r["points"] == [11, -11]  # 3 * 1 + 3 + 5
    r = o.settle([SW0, SW1], R(overall_point=1))
    assert r["points"] == [13, -13]  # (3 + 1) * 2 + 5
    r = o.settle([SW0, SW1], R(royalty_mode="none"))
    assert r["points"] == [6, -6]
    r = o.settle([SW1, SW0], DEFAULT)
    assert r["points"] == [-11, 11]


def test_sweep_all_four_players() -> None:
    # Against every opponent at a four-player table: 12 from each plus 5.
    r = o.settle(SWEEP, DEFAULT)
    assert r["pair_points"][0] == [0, 17, 17, 17]
    # P1 scoops P2 and P3 (6 each); P2 beats P3 two rows to one (+1).
    assert r["pair_points"][1] == [-17, 0, 6, 6]
    assert r["pair_points"][2] == [-17, -6, 0, 1]
    assert r["points"] == [51, -5, -22, -24]
    assert r["money"] == [51, -5, -22, -24]
    assert r["rake"] == [1, 0, 0, 0]  # floor(3 * 51 / 100)
    assert r["net"] == [50, -5, -22, -24]


def test_sweep_all_min_players() -> None:
    three = [SW0, SW1, SW2]
    assert o.settle(three, DEFAULT)["pair_points"][0] == [0, 11, 11]
    mau_binh = R(sweep_all={"multiplier": 3, "min_players": 3})
    assert o.settle(three, mau_binh)["pair_points"][0] == [0, 14, 14]  # 3*3 + 5
    hg = R(sweep_all={"multiplier": 1, "bonus": 6, "min_players": 3})
    assert o.settle(three, hg)["pair_points"][0] == [0, 14, 14]  # 3 + 6 + 5
    two = R(sweep_all={"min_players": 2})
    assert o.settle([SW0, SW1], two)["points"] == [17, -17]
    never = R(sweep_all={"min_players": 5})
    assert o.settle(SWEEP, never)["pair_points"][0] == [0, 11, 11, 11]
    mult = R(scoop={"multiply_royalties": True})
    assert o.settle(SWEEP, mult)["pair_points"][0] == [0, 32, 32, 32]  # 12 + 5*4


def test_foul_pays_sweep_all_amount() -> None:
    # A player who fouls under capsa-susun pays each non-fouled opponent
    # 3 * 4 = 12 plus that opponent's royalties.
    table = [SW0, SW1_FOUL, SW2, SW3]
    r = o.settle(table, DEFAULT)
    assert r["pair_points"][0][1] == 17  # 12 + P0's 5
    assert r["pair_points"][2][1] == 12
    assert r["pair_points"][3][1] == 12
    # A fouled opponent still counts as swept: P0 sweeps all, even when the
    # fouled hand beats P0's middle (clubs flush over P0's straight).
    assert r["pair_points"][0] == [0, 17, 17, 17]
    strong_foul = seat("Kd 4d 5h", "Kc Qc Jc 8c 6c", "2c 3c 7d 9d Th")
    assert o.is_foul(strong_foul["top"], strong_foul["middle"], strong_foul["bottom"], DEFAULT)
    assert o.compare(strong_foul["middle"], SW0["middle"], DEFAULT) == 1
    r2 = o.settle([SW0, strong_foul, SW2, SW3], DEFAULT)
    assert r2["pair_points"][0] == [0, 17, 17, 17]
    assert r["points"][1] == -41
    assert sum(r["points"]) == 0
    # Two players: the sweep-all amount whatever the number of players.
    assert o.settle([SW0, SW1_FOUL], DEFAULT)["points"] == [17, -17]
    assert o.settle([SW2, SW1_FOUL], DEFAULT)["points"] == [12, -12]
    no_roy = R(foul={"pays_royalties": False})
    assert o.settle([SW0, SW1_FOUL], no_roy)["points"] == [12, -12]
    none_mode = R(royalty_mode="none")
    assert o.settle([SW0, SW1_FOUL], none_mode)["points"] == [12, -12]
    mult = R(scoop={"multiply_royalties": True})
    assert o.settle([SW0, SW1_FOUL], mult)["points"] == [32, -32]  # 12 + 5*4
    bonus = R(sweep_all={"bonus": 2}, row_points=2)
    assert o.settle([SW2, SW1_FOUL], bonus)["points"] == [26, -26]  # 3*2*4 + 2


def test_foul_modes_scoop_and_fixed() -> None:
    table = [SW0, SW1_FOUL, SW2, SW3]
    scoop = R(foul={"mode": "scoop"})
    r = o.settle(table, scoop)
    assert r["pair_points"][0][1] == 17  # swept all: 3*4 + 5
    assert r["pair_points"][2][1] == 6  # 3*2
    assert o.settle([SW2, SW1_FOUL], R(foul={"mode": "scoop"}, overall_point=1))["points"] == [
        8,
        -8,
    ]  # (3 + 1) * 2
    hg = R(foul={"mode": "scoop"}, scoop={"multiplier": 1, "bonus": 3})
    assert o.settle([SW2, SW1_FOUL], hg)["points"] == [6, -6]
    fixed = R(foul={"mode": "fixed", "points": 10})
    r = o.settle(table, fixed)
    assert r["pair_points"][0][1] == 15
    assert r["pair_points"][2][1] == 10
    fixed_mult = R(foul={"mode": "fixed", "points": 10}, scoop={"multiply_royalties": True})
    assert o.settle([SW0, SW1_FOUL], fixed_mult)["points"] == [20, -20]  # 10 + 5*2
    r = o.settle(table, fixed_mult)
    assert r["pair_points"][0][1] == 30  # swept all: 10 + 5*4


def test_both_fouled() -> None:
    f0 = seat("Ac Ad Ah", "2s 4s 6s 8s Ts", "9c Tc Jd Qd Kh")
    assert o.is_foul(f0["top"], f0["middle"], f0["bottom"], DEFAULT)
    assert o.settle([f0, SW1_FOUL], DEFAULT)["points"] == [0, 0]


# Two players with royalties on both sides. A: top pair Q, middle full
# house (3), bottom straight flush (9). B: top pair K, middle full house
# (3), bottom quads (7). B wins the top; A wins middle and bottom.
ROY_A = seat("Qs Qh 4c", "9h 9d 9c 5s 5h", "3d 4d 5d 6d 7d")
ROY_B = seat("Ks Kh 2c", "8s 8h 8d 2s 2h", "Jc Jd Jh Js 3c")


def test_royalty_modes() -> None:
    pair = [ROY_A, ROY_B]
    assert o.settle(pair, DEFAULT)["points"] == [13, -13]  # 1 + 3 + 9
    assert o.settle(pair, R(royalty_mode="always"))["points"] == [3, -3]  # 1 + 12 - 10
    assert o.settle(pair, R(royalty_mode="none"))["points"] == [1, -1]
    # Instead of row_points where larger: rows -1 (B's top), roy 12.
    assert o.settle(pair, R(royalty_adds=False))["points"] == [11, -11]
    assert o.settle(pair, R(royalty_adds=False, row_points=5))["points"] == [9, -9]
    assert o.settle(pair, R(overall_point=1))["points"] == [14, -14]
    assert o.settle([ROY_B, ROY_A], R(royalty_mode="always"))["points"] == [-3, 3]


# A scoops B while B holds royalties too.
SCOOP_A = seat("Ah Ad Ac", "2c 2d 2h 2s 3c", "8s 9s Ts Js Qs")  # 5, 14, 9
SCOOP_B = seat("Kh Kd Kc", "7c 7d 7h 4c 4d", "6c 6d 6h 6s 5c")  # 5, 3, 7


def test_scoop_with_royalties_each_mode() -> None:
    pair = [SCOOP_A, SCOOP_B]
    assert o.settle(pair, DEFAULT)["points"] == [34, -34]  # 3*2 + 28
    assert o.settle(pair, R(royalty_mode="always"))["points"] == [19, -19]  # 6 + 13
    always_mult = R(royalty_mode="always", scoop={"multiply_royalties": True})
    assert o.settle(pair, always_mult)["points"] == [32, -32]  # 6 + 13*2
    # royalty_adds = false: every won row pays its royalty instead of 1.
    assert o.settle(pair, R(royalty_adds=False))["points"] == [28, -28]  # 0*2 + 28


def test_ties_score_nothing_and_block_the_scoop() -> None:
    # Equal tops under tie_break none; A wins middle and bottom.
    a = seat("2d 3c 5h", "Kh Kd 9c 7s 4h", "Ah Ad Ac 9d 8d")
    b = seat("2c 3d 5s", "Qh Qd 9h 7c 4d", "Kc Ks Jc Jd 2h")
    assert o.compare(a["top"], b["top"], NO_TIE) == 0
    assert o.settle([a, b], NO_TIE)["points"] == [2, -2]
    # With the suit tie-break, 5s makes B's top higher: 1 - 1 ... A 2 rows.
    assert o.compare(a["top"], b["top"], DEFAULT) == -1
    assert o.settle([a, b], DEFAULT)["points"] == [1, -1]
    # And when A's top wins too, it is a scoop.
    b2 = seat("2c 3d 4s", "Qh Qd 9h 7c 4d", "Kc Ks Jc Jd 2h")
    assert o.settle([a, b2], NO_TIE)["points"] == [6, -6]


def test_surrender() -> None:
    rules = R(surrender={"enabled": True, "cost": 3})
    give_up = dict(SW1, surrender=True)
    assert o.settle([SW2, give_up], rules)["points"] == [3, -3]
    assert o.settle([give_up, SW2], rules)["points"] == [-3, 3]
    # Against a fouled opponent: nothing.
    assert o.settle([SW1_FOUL, dict(SW2, surrender=True)], rules)["points"] == [0, 0]
    # Both surrender: nothing.
    assert o.settle([dict(SW0, surrender=True), dict(SW2, surrender=True)], rules)["points"] == [
        0,
        0,
    ]
    # A surrendering opponent blocks P0's sweep all.
    table = [SW0, SW1, SW2, dict(SW3, surrender=True)]
    r = o.settle(table, rules)
    assert r["pair_points"][0] == [0, 11, 11, 3]
    # A surrendering seat never sweeps all and pays the cost even to a weak hand.
    r = o.settle([dict(SW0, surrender=True), SW1, SW2, SW3], rules)
    assert r["pair_points"][0] == [0, -3, -3, -3]
    with pytest.raises(ValueError, match="surrender"):
        o.settle([SW0, dict(SW1, surrender=True)], DEFAULT)
    assert o.settle([SW0, dict(SW1, surrender=False)], DEFAULT)["points"] == [11, -11]


# Naturals in settlement.
DRAGON = seat("2c 3d 4h", "5s 6c 7d 8h 9s", "Tc Jd Qh Ks Ac")  # dragon
SIXP = seat("2d 2h 3c", "3h 4c 4d 5c 5d", "6d 6h 7c 7h 8d")  # six pairs
SIXP_HIGH = seat("9c 9d Tc", "Td Jc Jd Qc Qd", "Kc Kd Ac Ad 2s")  # six pairs
FILLER = seat("9c 9d 8c", "Td Jh Qs Kh Ad", "2s 3s 4s 6s 7s")  # no natural


def test_natural_fixtures() -> None:
    assert o.natural(_full(DRAGON), DEFAULT) == "dragon"
    assert o.natural(_full(SIXP), DEFAULT) == "six-pairs"
    assert o.natural(_full(SIXP_HIGH), DEFAULT) == "six-pairs"
    assert o.natural(_full(FILLER), DEFAULT) is None


def test_one_natural_collects() -> None:
    r = o.settle([DRAGON, SIXP, FILLER], DEFAULT)
    assert r["pair_points"][0] == [0, 208, 208]
    assert r["pair_points"][1] == [-208, 0, 3]
    assert r["points"] == [416, -205, -211]
    # Declining: the submitted rows (4-3-2, straight to 9, straight to the
    # ace) are played; FILLER wins all three rows.
    declined = dict(DRAGON, declare_natural=False)
    r = o.settle([declined, FILLER], DEFAULT)
    assert o.is_foul(DRAGON["top"], DRAGON["middle"], DRAGON["bottom"], DEFAULT) is False
    assert r["points"] == [-6, 6]  # FILLER wins all three rows: 3 * 2
    # A natural collects from a fouled or surrendering player too.
    filler_foul = seat("9c 9d 8c", "2s 3s 4s 6s 7s", "Td Jh Qs Kh Ad")
    assert o.is_foul(filler_foul["top"], filler_foul["middle"], filler_foul["bottom"], DEFAULT)
    assert o.settle([SIXP, filler_foul], DEFAULT)["points"] == [3, -3]
    surr = R(surrender={"enabled": True, "cost": 3})
    assert o.settle([SIXP, dict(FILLER, surrender=True)], surr)["points"] == [3, -3]
    # A declared natural is settled before the holder's own surrender.
    assert o.settle([dict(SIXP, surrender=True), FILLER], surr)["points"] == [3, -3]
    # Without the natural the surrender costs 3.
    no_nat = dict(SIXP, surrender=True, declare_natural=False)
    assert o.settle([no_nat, FILLER], surr)["points"] == [-3, 3]


def test_two_naturals() -> None:
    assert o.settle([DRAGON, SIXP], DEFAULT)["points"] == [208, -208]
    diff = R(naturals={"resolve": "difference"})
    assert o.settle([DRAGON, SIXP], diff)["points"] == [205, -205]
    assert o.settle([SIXP, DRAGON], diff)["points"] == [-205, 205]
    # Same natural: push, or compare by rank groups.
    assert o.settle([SIXP, SIXP_HIGH], DEFAULT)["points"] == [0, 0]
    cmp = R(naturals={"ties": "compare"})
    assert o.settle([SIXP, SIXP_HIGH], cmp)["points"] == [-3, 3]
    cmp_diff = R(naturals={"ties": "compare", "resolve": "difference"})
    assert o.settle([SIXP_HIGH, SIXP], cmp_diff)["points"] == [3, -3]
    # Dragons never compare.
    dragon2 = seat("2d 3c 4s", "5c 6d 7s 8c 9d", "Td Js Qd Kc Ad")
    assert o.settle([DRAGON, dragon2], cmp)["points"] == [0, 0]
    # Nor do three-flushes, although the ranks differ.
    x = seat("2c 5c 9c", "3d 6d 8d Td Qd", "2h 4h 7h Jh Kh")
    y = seat("3c 4c 6c", "2s 5s 9s Js Ks", "2d 4d 5d 7d 9d")
    assert o.natural(_full(x), cmp) == "three-flushes"
    assert o.natural(_full(y), cmp) == "three-flushes"
    assert o.settle([x, y], cmp)["points"] == [0, 0]


def test_natural_compare_groups_by_size_first() -> None:
    # D: quad 9s + pairs K, 4, 3, 2 + single 6 -> [9, K, 4, 3, 2, 6]
    # E: quad 8s + pairs A, T, 7, 5 + single J -> [8, A, T, 7, 5, J]
    d = seat("9c 9d 9h", "9s Kc Kd 2c 2d", "3c 3d 4c 4d 6c")
    e = seat("8c 8d 8h", "8s Ac Ad 5c 5d", "7c 7d Tc Td Jc")
    assert o.natural(_full(d), DEFAULT) == "six-pairs"
    assert o.natural(_full(e), DEFAULT) == "six-pairs"
    cmp = R(naturals={"ties": "compare"})
    assert o.settle([d, e], cmp)["points"] == [3, -3]
    # four-triples and three-quads compare the same way.
    quads = R(naturals={"ties": "compare", "enabled": [{"name": "three-quads", "points": 20}]})
    q1 = seat("2c 2d 2h", "2s 3c 3d 3h 3s", "Ac Ad Ah As 9c")
    q2 = seat("Kc Kd Kh", "Ks Qc Qd Qh Qs", "Jc Jd Jh Js 4c")
    assert o.settle([q1, q2], quads)["points"] == [20, -20]  # [A, 3, 2, 9] > [K, ...]


def test_stakes() -> None:
    three = [SW0, SW1, SW2]  # pair points: 0-1: 11, 0-2: 11, 1-2: 6
    r = o.settle(three, DEFAULT, stakes=[[0, 100, 10], [100, 0, 10], [10, 10, 0]])
    assert r["points"] == [22, -5, -17]
    assert r["money"] == [1210, -1040, -170]
    assert r["rake"] == [36, 0, 0]
    assert r["net"] == [1174, -1040, -170]
    r = o.settle(three, DEFAULT, stakes=7)
    assert r["money"] == [154, -35, -119]
    assert r["rake"] == [4, 0, 0]
    r = o.settle(three, R(money={"stake": 10, "rake_percent": 10}))
    assert r["money"] == [220, -50, -170]
    assert r["rake"] == [22, 0, 0]
    assert r["net"] == [198, -50, -170]
    # The diagonal is ignored.
    r = o.settle(three, DEFAULT, stakes=[[5, 100, 10], [100, 9, 10], [10, 10, 1]])
    assert r["money"] == [1210, -1040, -170]
    with pytest.raises(ValueError):
        o.settle(three, DEFAULT, stakes=[[0, 100, 10], [50, 0, 10], [10, 10, 0]])
    with pytest.raises(ValueError):
        o.settle(three, DEFAULT, stakes=[[0, 1], [1, 0]])
    with pytest.raises(ValueError):
        o.settle(three, DEFAULT, stakes=-1)


def test_settle_rejects_bad_input() -> None:
    with pytest.raises(ValueError):
        o.settle([SW0], DEFAULT)
    with pytest.raises(ValueError):
        o.settle([SW0, SW1, SW2, SW3, SW0], DEFAULT)
    with pytest.raises(ValueError):
        o.settle([SW0, SW0], DEFAULT)  # the same cards twice
    with pytest.raises(ValueError):
        o.settle([SW0, dict(SW1, top=cs("Kc Kd"))], DEFAULT)
    with pytest.raises(ValueError):
        o.settle([SW0, dict(SW1, middle=[*SW1["middle"][:4], 52])], DEFAULT)
    with pytest.raises(ValueError):
        o.settle([SW0, dict(SW1, middle=[*SW1["middle"][:4], -1])], DEFAULT)
    with pytest.raises(ValueError):
        o.settle([SW0, {"top": SW1["top"], "middle": SW1["middle"]}], DEFAULT)
    with pytest.raises(ValueError):
        o.settle([SW0, dict(SW1, surrender=True)], DEFAULT)


def _random_rules(rng: random.Random) -> dict[str, Any]:
    return R(
        tie_break=rng.choice(["none", "suit"]),
        suit_order="".join(rng.sample("shcd", 4)),
        flush_compare=rng.choice(["ranks", "suit-first"]),
        wheel=rng.choice(["low", "second"]),
        foul_check=rng.choice(["allow-equal", "strict"]),
        row_points=rng.randint(0, 3),
        overall_point=rng.randint(0, 2),
        royalty_mode=rng.choice(["winner", "always", "none"]),
        royalty_adds=rng.choice([True, False]),
        scoop={
            "multiplier": rng.randint(1, 3),
            "bonus": rng.randint(0, 3),
            "multiply_royalties": rng.choice([True, False]),
        },
        sweep_all={
            "multiplier": rng.randint(1, 4),
            "bonus": rng.randint(0, 6),
            "min_players": rng.randint(2, 5),
        },
        foul={
            "mode": rng.choice(["sweep-all", "scoop", "fixed"]),
            "points": rng.randint(0, 9),
            "pays_royalties": rng.choice([True, False]),
        },
        surrender={"enabled": True, "cost": rng.randint(0, 4)},
        naturals={
            "resolve": rng.choice(["higher-wins", "difference"]),
            "ties": rng.choice(["push", "compare"]),
            "enabled": [
                {"name": n, "points": rng.randint(0, 20)}
                for n in rng.sample(o.NATURAL_NAMES, rng.randint(0, 15))
            ],
        },
        money={
            "stake": rng.randint(0, 100),
            "rake_basis_points": rng.choice([0, 1, 300, 2_500, 10_000, rng.randint(0, 10_000)]),
            "rake_minimum_pot": rng.choice([0, 0, rng.randint(1, 60)]),
            "rake_cap_per_pot": rng.choice([0, 0, rng.randint(1, 20)]),
            "rake_cap_per_round": rng.choice([0, 0, rng.randint(1, 30)]),
        },
    )


def test_rake_steps() -> None:
    # docs/rules.md, "Money, rake and exactness"; tests/settlement/test_rake.py has more
    def rake(money: list[int], **knobs: int) -> list[int]:
        result: list[int] = o.rake(money, R(money=knobs))
        return result

    assert rake([1234, -1234]) == [37, 0]  # 300 basis points, rounded down
    assert rake([100, 99, -199], rake_minimum_pot=100) == [3, 0, 0]
    assert rake([100, 30, -130], rake_basis_points=1000, rake_cap_per_pot=5) == [5, 3, 0]
    # 5 shared over 3, 2, 2: 15/7, 10/7, 10/7; the unit left goes to seat 1,
    # tied with seat 2 on the remainder 3
    assert rake([3, 2, 2, -7], rake_basis_points=10_000, rake_cap_per_round=5) == [2, 2, 1, 0]
    assert rake([3, -3], rake_basis_points=10_000, rake_cap_per_round=9) == [3, 0]
    assert rake([0, 0]) == [0, 0]
    with pytest.raises(ValueError, match=r"money\[1\]"):
        o.rake([1, True], DEFAULT)


def test_settlements_are_zero_sum() -> None:
    rng = random.Random(2024)
    for _ in range(150):
        rules = _random_rules(rng)
        players = rng.randint(2, 4)
        deck = rng.sample(range(52), 13 * players)
        seats = []
        for p in range(players):
            hand = deck[13 * p : 13 * p + 13]
            seats.append(
                {
                    "top": hand[:3],
                    "middle": hand[3:8],
                    "bottom": hand[8:],
                    "surrender": rng.random() < 0.15,
                    "declare_natural": rng.random() < 0.8,
                }
            )
        stakes = [[rng.randint(0, 50) for _ in range(players)] for _ in range(players)]
        for i in range(players):
            for j in range(i):
                stakes[i][j] = stakes[j][i]
        for stake in (None, 3, stakes):
            r = o.settle(seats, rules, stake)
            pp = r["pair_points"]
            assert all(pp[i][j] == -pp[j][i] for i in range(players) for j in range(players))
            assert sum(r["points"]) == 0
            assert sum(r["money"]) == 0
            assert sum(r["net"]) + sum(r["rake"]) == 0
            assert all(x >= 0 for x in r["rake"])
            assert r["points"] == [sum(row) for row in pp]
            _check_rake_bounds(r["money"], r["rake"], rules["money"])


def _check_rake_bounds(money: list[int], rake: list[int], knobs: dict[str, int]) -> None:
    """What docs/rules.md says of any round's rake, whatever the sharing: a
    seat pays at most its rate, capped per pot, and only on a pot the minimum
    lets in; the house takes those in full, or exactly the round cap."""
    pots = []
    for m in money:
        raked = m > 0 and m >= knobs["rake_minimum_pot"]
        pot = m * knobs["rake_basis_points"] // 10_000 if raked else 0
        if knobs["rake_cap_per_pot"]:
            pot = min(pot, knobs["rake_cap_per_pot"])
        pots.append(pot)
    assert all(0 <= k <= pot for k, pot in zip(rake, pots, strict=True))
    cap = knobs["rake_cap_per_round"]
    assert sum(rake) == (min(cap, sum(pots)) if cap else sum(pots))
    if sum(rake) == sum(pots):
        assert rake == pots


# ---------------------------------------------------------------------------
# load_rules
# ---------------------------------------------------------------------------


def test_load_rules_defaults_and_merge() -> None:
    assert o.load_rules({}) == o.default_rules()
    assert o.load_rules("") == o.default_rules()
    r = o.load_rules("wheel = 'second'\n[scoop]\nmultiplier = 3\n")
    assert r["wheel"] == "second"
    assert r["scoop"] == {"multiplier": 3, "bonus": 0, "multiply_royalties": False}
    assert r["sweep_all"]["multiplier"] == 4
    r = o.load_rules({"royalties": {"top": {"pair": 1}}})
    assert r["royalties"]["top"] == {"pair": 1}  # a given row replaces the default row
    assert r["royalties"]["middle"] == o.default_rules()["royalties"]["middle"]
    r = o.load_rules({"naturals": {"ties": "compare"}})
    assert r["naturals"]["enabled"] == o.default_rules()["naturals"]["enabled"]
    assert r["naturals"]["ties"] == "compare"
    full = """
name = "pagat"
tie_break = "none"
suit_order = "shcd"
flush_compare = "ranks"
wheel = "low"
foul_check = "allow-equal"
row_points = 1
overall_point = 0
royalty_mode = "winner"
royalty_adds = true

[scoop]
multiplier = 1
bonus = 0
multiply_royalties = false

[sweep_all]
multiplier = 1
bonus = 0
min_players = 4

[foul]
mode = "scoop"
points = 0
pays_royalties = true

[surrender]
enabled = false
cost = 0

[naturals]
resolve = "higher-wins"
ties = "push"
enabled = [
  { name = "dragon", points = 13 },
  { name = "three-flushes", points = 3 },
  { name = "three-straights", points = 3 },
  { name = "six-pairs", points = 3 },
]

[royalties]
top = { trips = 3 }
middle = { full-house = 2, quads = 4, straight-flush = 5, royal-flush = 5 }
bottom = { quads = 4, straight-flush = 5, royal-flush = 5 }

[money]
stake = 1
rake_percent = 0
"""
    r = o.load_rules(full)
    assert r["name"] == "pagat"
    assert r["royalties"]["middle"]["full-house"] == 2
    assert r["naturals"]["enabled"][0] == {"name": "dragon", "points": 13}
    assert r["money"]["rake_basis_points"] == 0  # rake_percent = 0, read as basis points
    # A mapping input is not modified and not shared.
    src: dict[str, Any] = {"scoop": {"multiplier": 5}}
    out = o.load_rules(src)
    out["scoop"]["multiplier"] = 6
    assert src == {"scoop": {"multiplier": 5}}


@pytest.mark.parametrize(
    ("source", "key"),
    [
        ({"colour": "red"}, "colour"),
        ({"scoop": {"multiplier": 0}}, "scoop.multiplier"),
        ({"scoop": {"multiplier": "2"}}, "scoop.multiplier"),
        ({"scoop": {"multiplier": True}}, "scoop.multiplier"),
        ({"scoop": {"extra": 1}}, "scoop.extra"),
        ({"scoop": 2}, "scoop"),
        ({"sweep_all": {"min_players": 1}}, "sweep_all.min_players"),
        ({"sweep_all": {"min_players": 10}}, "sweep_all.min_players"),
        ({"money": {"rake_percent": 101}}, "money.rake_percent"),
        ({"money": {"rake_percent": 3.0}}, "money.rake_percent"),
        ({"money": {"rake_basis_points": 10_001}}, "money.rake_basis_points"),
        ({"money": {"rake_basis_points": -1}}, "money.rake_basis_points"),
        ({"money": {"rake_minimum_pot": -1}}, "money.rake_minimum_pot"),
        ({"money": {"rake_cap_per_pot": True}}, "money.rake_cap_per_pot"),
        ({"money": {"rake_cap_per_round": "5"}}, "money.rake_cap_per_round"),
        ({"money": {"rake_percent": 3, "rake_basis_points": 300}}, "money.rake_percent"),
        ({"money": {"rake_basis_points": 300, "rake_percent": 3}}, "money.rake_basis_points"),
        ("[money]\nrake_percent = 3\nrake_basis_points = 1\n", "money.rake_basis_points"),
        ({"money": {"stake": -1}}, "money.stake"),
        ({"row_points": -1}, "row_points"),
        ({"row_points": 1.5}, "row_points"),
        ({"royalty_adds": 1}, "royalty_adds"),
        ({"wheel": "high"}, "wheel"),
        ({"tie_break": "rank"}, "tie_break"),
        ({"flush_compare": "suit"}, "flush_compare"),
        ({"foul_check": "loose"}, "foul_check"),
        ({"royalty_mode": "loser"}, "royalty_mode"),
        ({"suit_order": "shcx"}, "suit_order"),
        ({"suit_order": "shc"}, "suit_order"),
        ({"foul": {"mode": "double"}}, "foul.mode"),
        ({"surrender": {"enabled": "yes"}}, "surrender.enabled"),
        ({"naturals": {"resolve": "max"}}, "naturals.resolve"),
        (
            {"naturals": {"enabled": [{"name": "rainbow", "points": 1}]}},
            "naturals.enabled",
        ),
        ({"naturals": {"enabled": [{"name": "dragon"}]}}, "naturals.enabled"),
        (
            {"naturals": {"enabled": [{"name": "dragon", "points": -1}]}},
            "naturals.enabled",
        ),
        (
            {
                "naturals": {
                    "enabled": [
                        {"name": "dragon", "points": 1},
                        {"name": "dragon", "points": 2},
                    ]
                }
            },
            "naturals.enabled",
        ),
        ({"royalties": {"top": {"straight": 1}}}, "royalties.top.straight"),
        ({"royalties": {"middle": {"fives": 1}}}, "royalties.middle.fives"),
        ({"royalties": {"middle": {"quads": "x"}}}, "royalties.middle.quads"),
        ({"royalties": {"side": {}}}, "royalties.side"),
        ("[scoop]\nmultiplier = 0\n", "scoop.multiplier"),
        ("[money]\nrake = 3\n", "money.rake"),
        ("name = 3\n", "name"),
    ],
)
def test_load_rules_errors(source: Any, key: str) -> None:
    with pytest.raises(ValueError) as info:
        o.load_rules(source)
    assert key in str(info.value)


def test_load_rules_toml_syntax_error() -> None:
    with pytest.raises(ValueError):
        o.load_rules("scoop = [")


def test_input_validation_of_hands() -> None:
    with pytest.raises(ValueError):
        o.category(cs("As Kd"), DEFAULT)
    with pytest.raises(ValueError):
        o.category([51, 51, 50], DEFAULT)
    with pytest.raises(ValueError):
        o.compare([0, 1, 52], cs("As Kd Qc"), DEFAULT)
    with pytest.raises(ValueError):
        o.naturals(cs("As Kd Qc"))
