"""Exact probabilities of the naturals in a hand of 13 cards dealt
from one deck (the naturals of docs/rules.md, "The naturals").

Every figure is a count of the C(52, 13) = 635,013,559,600 hands, computed
exactly (docs/bulk.md, "Exact natural probabilities", gives each
derivation): closed forms for the naturals that depend only on which cards
or colours are held; a sum over rank-count *profiles* (how many ranks are
held 0, 1, 2, 3 and 4 times) for those that depend only on the rank counts
and not on which ranks (pairs, trips, quads); the distinct rank-count
vectors that a 3-card and two 5-card straights make up for three straights;
the suit-count vectors for three flushes; and the distinct card sets of one
3-card and two 5-card straight flushes for three straight flushes.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from functools import cache
from itertools import combinations, combinations_with_replacement, product
from math import comb, factorial, prod

from capsa._core import NATURAL_NAMES

__all__ = [
    "HANDS",
    "natural_counts",
    "natural_probabilities",
    "three_straight_counts",
    "three_straight_flush_hands",
]

#: Hands of 13 cards from 52.
HANDS = comb(52, 13)

_RANKS = 13
# rank indices: 2 is 0, ace is 12; an ace plays low in A-2-3 and A-2-3-4-5
_RUNS3 = [(12, 0, 1)] + [tuple(range(low, low + 3)) for low in range(11)]
_RUNS5 = [(12, 0, 1, 2, 3)] + [tuple(range(low, low + 5)) for low in range(9)]

Profile = tuple[int, int, int, int, int]


def _profiles() -> list[Profile]:
    """Every (n0, n1, n2, n3, n4): how many ranks are held 0..4 times in 13 cards."""
    out = []
    for n4 in range(4):
        for n3 in range(5):
            for n2 in range(7):
                n1 = 13 - 4 * n4 - 3 * n3 - 2 * n2
                n0 = _RANKS - n1 - n2 - n3 - n4
                if n1 >= 0 and n0 >= 0:
                    out.append((n0, n1, n2, n3, n4))
    return out


def _profile_hands(profile: Profile) -> int:
    """Hands with this profile: the ways to give the counts to ranks, times
    the ways to pick each rank's suits."""
    ranks = factorial(_RANKS) // prod(factorial(n) for n in profile)
    suits = 1
    for k, n in enumerate(profile):
        suits *= comb(4, k) ** n
    return ranks * suits


def _by_profile(holds: Callable[[Profile], bool]) -> int:
    return sum(_profile_hands(p) for p in _profiles() if holds(p))


def three_straight_counts() -> set[tuple[int, ...]]:
    """The distinct rank-count vectors (rank index 0 = 2 .. 12 = ace) of a
    3-card and two 5-card straights."""
    return {
        _counts(top, a, b) for top in _RUNS3 for a, b in combinations_with_replacement(_RUNS5, 2)
    }


def _three_straights() -> int:
    """Hands that split into a 3-card and two 5-card straights: each
    rank-count vector such rows make, times its choices of suits."""
    return sum(prod(comb(4, c) for c in v) for v in three_straight_counts() if max(v) <= 4)


def _counts(*runs: tuple[int, ...]) -> tuple[int, ...]:
    counts = [0] * _RANKS
    for run in runs:
        for r in run:
            counts[r] += 1
    return tuple(counts)


def _three_flushes() -> int:
    """Hands whose suit counts split into one-suit rows of 3, 5 and 5: the
    counts are {13}, {10, 3}, {8, 5} or {5, 5, 3} (with zeros)."""
    shapes = {(13,), (10, 3), (8, 5), (5, 5, 3)}
    total = 0
    for counts in product(range(14), repeat=4):
        if sum(counts) == 13 and tuple(sorted((c for c in counts if c), reverse=True)) in shapes:
            total += prod(comb(13, c) for c in counts)
    return total


def three_straight_flush_hands() -> set[int]:
    """The distinct 13-card sets made of a 3-card and two 5-card straight
    flushes, as 52-bit card masks (bit ``4 * rank + suit``)."""

    def cards(run: tuple[int, ...], suit: int) -> int:
        return sum(1 << (4 * r + suit) for r in run)

    tops = [cards(run, s) for run in _RUNS3 for s in range(4)]
    fives = [cards(run, s) for run in _RUNS5 for s in range(4)]
    hands = set()
    for a, b in combinations(fives, 2):
        if a & b:
            continue
        for top in tops:
            if not top & (a | b):
                hands.add(top | a | b)
    return hands


@cache
def natural_counts() -> dict[str, int]:
    """How many of the C(52, 13) hands qualify for each natural, by name."""
    counts = {
        "clean-dragon": 4,
        "dragon": 4**13,
        "twelve-royals": comb(16, 12) * 36 + comb(16, 13),
        "three-straight-flushes": len(three_straight_flush_hands()),
        # three ranks held four times and one more card (a fourth quad needs 16)
        "three-quads": comb(13, 3) * 40,
        "all-high": comb(28, 13),
        "all-low": comb(28, 13),
        "full-colored": 2 * comb(26, 13),
        "twelve-same-color": 2 * (comb(26, 12) * 26 + comb(26, 13)),
        "four-triples": _by_profile(lambda p: p[3] + p[4] >= 4),
        "five-pairs-trips": _by_profile(lambda p: p[1] == 0 and p[3] == 1),
        "six-pairs": _by_profile(lambda p: p[2] + p[3] + 2 * p[4] >= 6),
        "three-straights": _three_straights(),
        "three-flushes": _three_flushes(),
        "no-picture-cards": comb(40, 13),
        # two ranks held 3 times, three 2 times, one once, no quad
        "two-full-houses": _by_profile(lambda p: p[1:] == (1, 3, 2, 0)),
        # one deck holds four cards of a rank: these need copies
        "six-of-a-kind": 0,
        "seven-of-a-kind": 0,
        "eight-of-a-kind": 0,
        "two-five-of-a-kinds": 0,
    }
    assert list(counts) == list(NATURAL_NAMES)
    return counts


def natural_probabilities() -> dict[str, Fraction]:
    """The exact probability that a random 13-card hand qualifies for each
    natural, by name (whatever the rules enable)."""
    return {name: Fraction(count, HANDS) for name, count in natural_counts().items()}
