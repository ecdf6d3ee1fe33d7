"""Every ranking the knobs make, and the hand pairs they all order alike.

Two hands that every combination of the ranking knobs (``tie_break``,
``suit_order``, ``flush_compare``, ``wheel``: 192 rankings) orders the same
way are ordered so by any poker ranking a house plays; an engine that orders
them otherwise has a *ranking defect*, which no knob fits.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from functools import lru_cache

import capsa
from capsa.rules import Rules

__all__ = ["every_ranking", "order_under_every_ranking", "ranking_combinations"]


def ranking_combinations() -> list[dict[str, str]]:
    """The 192 combinations of the ranking knobs' values, as knob changes
    (the suit tie-break first). Raises nothing."""
    return [
        {"tie_break": tie, "suit_order": order, "flush_compare": flush, "wheel": wheel}
        for tie, order, flush, wheel in itertools.product(
            ("suit", "none"),
            ["".join(p) for p in itertools.permutations("shcd")],
            ("ranks", "suit-first"),
            ("low", "second"),
        )
    ]


@lru_cache(maxsize=1)
def every_ranking() -> tuple[Rules, ...]:
    """The 192 rankings of the ranking knobs, on capsa-susun's other rules."""
    base = Rules.preset("capsa-susun")
    return tuple(base.derive(combo) for combo in ranking_combinations())


def order_under_every_ranking(a: Sequence[int], b: Sequence[int]) -> int | None:
    """The order (1, 0 or -1) every ranking gives hands ``a`` and ``b`` (ids of
    the 52-card deck), or None when two rankings differ. Raises ``HandError``
    for hands that are not three or five distinct cards."""
    orders = {int(capsa.compare(list(a), list(b), rules)) for rules in every_ranking()}
    return orders.pop() if len(orders) == 1 else None
