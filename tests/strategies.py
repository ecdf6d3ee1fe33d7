"""Hypothesis strategies shared by the engine-vs-oracle tests."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

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
