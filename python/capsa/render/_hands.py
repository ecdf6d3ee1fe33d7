"""Rows in words with their ranks ("pair of nines", "full house, aces over
eights") and why one row beat another, or tied ("the same pair of nines;
the next card decides: king against queen").

The result of a row is always the settlement's: these words only explain
it. They read the ranks as standard poker groups them (the largest group
first, then the higher rank) and say which group or kicker differs; when
that would contradict the settlement (a house that ranks straights or
flushes its own way, a joker standing in), they say the house's ranking
decided instead of guessing.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from capsa._core import Card
from capsa.render._model import Row
from capsa.render._words import Words
from capsa.rules import Rules

__all__ = ["hand_words", "row_reason"]

_WHEEL = (14, 5, 4, 3, 2)
# how many groups of two or more cards lead each category ("two pair": two)
_GROUPED = {"pair": 1, "two-pair": 2, "trips": 1, "full-house": 2, "quads": 1, "five-of-a-kind": 1}


def _groups(cards: Sequence[Card], category: str) -> tuple[int, ...] | None:
    """The ranks as poker compares them: each rank once, the largest group
    first, then the higher rank; a wheel (A-2-3-4-5 straight) counts its ace
    low. None when a joker stands in for a card."""
    if any(card.joker for card in cards):
        return None
    counts = Counter(card.rank for card in cards)
    ranks = tuple(sorted(counts, key=lambda r: (counts[r], r), reverse=True))
    if category in ("straight", "straight-flush") and ranks == _WHEEL:
        return (5, 4, 3, 2, 1)
    return ranks


def _rank(w: Words, rank: int, plural: bool = False) -> str:
    # an ace counted low in a wheel is still called an ace
    key = f"r{14 if rank == 1 else rank}"
    return w[f"rank_plural.{key}"] if plural else w[f"card_rank.{key}"]


def hand_words(row: Row, w: Words) -> str:
    """The row's combination with its ranks, or its category alone when a
    joker is in it."""
    groups = _groups(row.cards, row.category)
    if groups is None or row.category == "royal-flush":
        return w[f"category.{row.category}"]
    first = groups[0]
    second = groups[1] if len(groups) > 1 else first
    return w.fill(
        f"hand.{row.category}",
        r=_rank(w, first),
        p=_rank(w, first, plural=True),
        q=_rank(w, second, plural=True),
    )


def _first_difference(mine: tuple[int, ...], theirs: tuple[int, ...]) -> int | None:
    for k, (a, b) in enumerate(zip(mine, theirs, strict=False)):
        if a != b:
            return k
    return None


def _split(w: Words, category: str, k: int, mine: int, theirs: int) -> str:
    """Why a first difference at group ``k`` decided the row."""
    grouped = _GROUPED.get(category, 0)
    a, b = _rank(w, mine, k < grouped), _rank(w, theirs, k < grouped)
    key = "why.rank" if k == 0 else "why.second" if k < grouped else "why.kicker"
    return w.fill(key, a=a, b=b)


def row_reason(mine: Row, theirs: Row, result: int, rules: Rules | None, w: Words) -> str:
    """Why ``mine`` won (``result`` 1), lost (-1) or tied (0) against
    ``theirs``, as the settlement decided it."""
    if mine.category != theirs.category:
        if result == 0:
            return w["why.house"]
        win, lose = (mine, theirs) if result > 0 else (theirs, mine)
        return w.fill(
            "why.category", a=w[f"category_a.{win.category}"], b=w[f"category_a.{lose.category}"]
        )
    a, b = _groups(mine.cards, mine.category), _groups(theirs.cards, theirs.category)
    if a is None or b is None:
        return w["why.tie"] if result == 0 else w["why.house"]
    k = _first_difference(a, b)
    if k is None:
        if result == 0:
            return w["why.tie"]
        suits = rules is not None and rules.tie_break == "suit"
        return w["why.suit"] if suits else w["why.house"]
    if (a[k] > b[k]) != (result > 0) or result == 0:
        return w["why.house"]
    return _split(w, mine.category, k, a[k], b[k])
