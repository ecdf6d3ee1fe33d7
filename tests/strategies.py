"""Hypothesis strategies shared by the engine-vs-oracle tests."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import strategies as st

import capsa

SUIT_ORDERS = ["shcd", "dchs", "hscd", "cdsh"]


def hands(size: int) -> st.SearchStrategy[list[int]]:
    """`size` distinct card ids."""
    return st.lists(st.integers(0, 51), min_size=size, max_size=size, unique=True)


@st.composite
def biased_hands(draw: st.DrawFn, size: int) -> list[int]:
    """Hands drawn from few ranks or few suits, so pairs, flushes, straights and
    naturals come up often."""
    mode = draw(st.sampled_from(["any", "ranks", "suits", "run"]))
    if mode == "any":
        pool = list(range(52))
    elif mode == "ranks":
        ranks = draw(st.lists(st.integers(0, 12), min_size=4, max_size=7, unique=True))
        pool = [4 * r + s for r in ranks for s in range(4)]
    elif mode == "suits":
        suits = draw(st.lists(st.integers(0, 3), min_size=1, max_size=2, unique=True))
        pool = [4 * r + s for r in range(13) for s in suits]
    else:
        start = draw(st.integers(-1, 8))
        ranks = [(start + k) % 13 for k in range(5)] if start >= 0 else [12, 0, 1, 2, 3]
        pool = [4 * r + s for r in ranks for s in range(4)]
    if len(pool) < size:
        extra = [c for c in range(52) if c not in pool]
        pool = pool + extra
    return draw(st.lists(st.sampled_from(pool), min_size=size, max_size=size, unique=True))


@st.composite
def ranking_knobs(draw: st.DrawFn) -> dict[str, Any]:
    return {
        "tie_break": draw(st.sampled_from(["none", "suit"])),
        "suit_order": draw(st.sampled_from(SUIT_ORDERS)),
        "flush_compare": draw(st.sampled_from(["ranks", "suit-first"])),
        "wheel": draw(st.sampled_from(["low", "second"])),
        "foul_check": draw(st.sampled_from(["allow-equal", "strict"])),
    }


def _take(deck: list[int], want: list[int]) -> list[int] | None:
    if all(c in deck for c in want):
        for c in want:
            deck.remove(c)
        return want
    return None


def natural_hand(rng: random.Random, deck: list[int]) -> list[int] | None:
    """Tries to take a hand that qualifies for some natural from the deck."""
    kind = rng.choice(["dragon", "pairs", "flushes", "colour", "low", "high", "royals", "trips"])
    by_rank: dict[int, list[int]] = {}
    for c in deck:
        by_rank.setdefault(c // 4, []).append(c)
    if kind == "dragon":
        if len(by_rank) < 13:
            return None
        return _take(deck, [rng.choice(by_rank[r]) for r in range(13)])
    if kind in ("pairs", "trips"):
        size = 2 if kind == "pairs" else 3
        groups = [r for r, cs in by_rank.items() if len(cs) >= size]
        need = 6 if kind == "pairs" else 4
        if len(groups) < need:
            return None
        hand = [c for r in rng.sample(groups, need) for c in rng.sample(by_rank[r], size)]
        rest = [c for c in deck if c not in hand]
        hand += rng.sample(rest, 13 - len(hand))
        return _take(deck, hand)
    if kind == "flushes":
        suits = rng.sample(range(4), 3)
        hand: list[int] = []
        for suit, n in zip(suits, (3, 5, 5), strict=False):
            pool = [c for c in deck if c % 4 == suit and c not in hand]
            if len(pool) < n:
                return None
            hand += rng.sample(pool, n)
        return _take(deck, hand)
    if kind == "colour":
        pool = [c for c in deck if c % 4 in rng.choice([(0, 2), (1, 3)])]
    elif kind == "low":
        pool = [c for c in deck if c // 4 <= 6]
    elif kind == "high":
        pool = [c for c in deck if c // 4 >= 6]
    else:
        pool = [c for c in deck if c // 4 >= 9]
        rest = [c for c in deck if c not in pool]
        if len(pool) >= 12 and rest:
            # twelve royals and one other card: a plain sample of the pool
            # could hold the thirteenth royal too
            return _take(deck, rng.sample(pool, 12) + rng.sample(rest, 1))
    if len(pool) < 13:
        return None
    return _take(deck, rng.sample(pool, 13))


def deal_hands(rng: random.Random, players: int) -> list[list[int]]:
    """``players`` hands of 13 distinct cards; about 30% built to hold a natural."""
    deck = list(range(52))
    rng.shuffle(deck)
    hands = []
    for _ in range(players):
        hand = natural_hand(rng, deck) if rng.random() < 0.3 else None
        if hand is None:
            hand = deck[:13]
            del deck[:13]
        hands.append(hand)
    return hands


def dealt_seats(rng: random.Random, rules: capsa.Rules, count: int) -> list[dict[str, Any]]:
    """``count`` seats dealt and arranged under ``rules``, each with its 13
    ids (``cards``) and flags: a surrender one time in five where the rules
    allow it, the natural declared six times in seven."""
    return [
        {
            "cards": arrange(rng, hand, rules),
            "surrender": rules["surrender.enabled"] and rng.random() < 0.2,
            "declare_natural": rng.random() < 0.85,
        }
        for hand in deal_hands(rng, count)
    ]


def oracle_seats(seats: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Seats of 13 ids and flags (``cards``, ``surrender``, ``declare_natural``)
    in the form ``capsa.oracle.settle`` reads: rows as lists of ids."""
    return [
        {
            "top": s["cards"][:3],
            "middle": s["cards"][3:8],
            "bottom": s["cards"][8:],
            "surrender": s["surrender"],
            "declare_natural": s["declare_natural"],
        }
        for s in seats
    ]


def arrange(rng: random.Random, hand: list[int], rules: capsa.Rules) -> list[int]:
    """A legal split most of the time, a random (often fouled) one otherwise."""
    if rng.random() < 0.7:
        legal = capsa.splits(hand, rules)
        if len(legal):
            return [int(x) for x in legal[rng.randrange(len(legal))]]
    cards = hand[:]
    rng.shuffle(cards)
    return cards
