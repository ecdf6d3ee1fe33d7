"""Rows of a settle round that meet a ranking defect: which pair of categories
the engine ranks otherwise than every ranking, and which rounds compare them."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from itertools import combinations
from typing import Any

import capsa
from capsa.conformance.protocol import ids_of
from capsa.rules import Rules

__all__ = ["DEFECT_MET", "rows_meeting"]

DEFECT_MET = "a row meets the ranking defect"  # why such a settle answer is set aside

_ROWS = ("top", "middle", "bottom")


def rows_meeting(
    seats: Sequence[Mapping[str, Any]],
    defects: Collection[tuple[str, str]],
    rules: Rules,
    within: bool = False,
) -> str:
    """The first two rows the round compares whose hands' categories are a pair
    in ``defects`` (a category with itself: a kicker defect, met when the
    hands' leading ranks are equal), in words; "" when none is: a seat's
    rows against each other (its foul check), then a row of any two seats.
    ``within``: only the first seat's own rows. Raises nothing for cards the
    rules cannot read ("")."""
    try:
        # a seat that declares a natural it holds plays no row
        seats = [s for s in seats if not (s.get("declare_natural") and _natural(s, rules))]
        hands = [[ids_of(seat[row]) for row in _ROWS] for seat in seats]
        keys = [[capsa.evaluate(h, rules) for h in seat] for seat in hands]
    except (capsa.CapsaError, KeyError, TypeError):
        return ""
    for k, seat in enumerate(keys[:1] if within else keys):  # the foul check's rows
        for r, s in ((0, 1), (1, 2)):
            pair = (seat[r].category, seat[s].category)
            if (pair in defects or pair[::-1] in defects) and pair[0] != pair[1]:
                return f"seat {k}'s {_ROWS[r]} against its {_ROWS[s]}: {pair[0]} against {pair[1]}"
    if within:
        return ""
    for i, j in combinations(range(len(seats)), 2):
        for r, row in enumerate(_ROWS):
            a, b = keys[i][r], keys[j][r]
            pair = (a.category, b.category)
            kicker = a.category == b.category
            if (pair in defects or pair[::-1] in defects) and (
                not kicker or _leading(hands[i][r]) == _leading(hands[j][r])
            ):
                return f"the {row} of seats {i} and {j}: {a.category} against {b.category}"
    return ""


def _natural(seat: Mapping[str, Any], rules: Rules) -> bool:
    """Whether a seat's 13 cards hold a natural the rules pay."""
    cards = [c for row in _ROWS for c in ids_of(seat[row])]
    return capsa.natural(cards, rules) is not None


def _leading(cards: Sequence[int]) -> int:
    """The rank of the largest group's highest card (the rank a kicker follows)."""
    ranks = [c % 52 // 4 for c in cards if c < 104]
    return max(ranks, key=lambda r: (ranks.count(r), r)) if ranks else -1
