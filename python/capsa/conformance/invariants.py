"""Invariants: what an engine's own answers must satisfy, whatever the rules.

Each fuzzed case is sent with *companions*: the same question transformed
in a way that must not change the answer (or must change it in a known
way). An engine whose answers to a case and its companion do not fit has
broken an invariant, which the report names; capsa's answers satisfy all
of them. ``docs/conformance.md``, "Invariants", lists them.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import capsa
from capsa.conformance.protocol import Case, RulesSpec, card_text, ids_of, text_of

__all__ = ["Companion", "companions", "zero_sum"]

_ROWS = ("top", "middle", "bottom")
_MONEY = ("points", "money", "rake", "net")
# Suit permutations (d c h s -> ...) that keep each suit's colour (docs/rules.md,
# "The naturals": full-colored and twelve-same-color read colours).
_COLOUR_KEEPING = [
    (0, 1, 2, 3),
    (2, 1, 0, 3),
    (0, 3, 2, 1),
    (2, 3, 0, 1),
    (1, 0, 3, 2),
    (3, 0, 1, 2),
    (1, 2, 3, 0),
    (3, 2, 1, 0),
]


@dataclass(frozen=True)
class Companion:
    """A transformed case and how its answer must relate to the original's."""

    invariant: str
    case: Case
    holds: Callable[[Any, Any], bool]


def _no_suit_rule(spec: RulesSpec) -> bool:
    """Whether relabelling every suit at once keeps every answer: no rule
    names a suit, and the deck is the 52-card deck (a larger deck's added
    suits, copies and jokers are not the same under other suits)."""
    rules = spec.rules()
    suitless = rules["tie_break"] == "none" and rules["flush_compare"] == "ranks"
    return bool(suitless and rules.deals_52_cards)


def _colour_keeping(spec: RulesSpec) -> bool:
    """Whether relabelling suits within their colours keeps every answer:
    under the 52-card deck (the naturals and categories see colours only)."""
    return spec.rules().deals_52_cards


def _relabel(text: str, perm: tuple[int, ...]) -> str:
    ids = [4 * (c // 4) + perm[c % 4] for c in ids_of(text)]
    return text_of(sorted(ids))


def _shuffled(text: str, rng: random.Random) -> str:
    ids = ids_of(text)
    rng.shuffle(ids)
    return " ".join(card_text(c) for c in ids)


def _equal(a: Any, b: Any) -> bool:
    return bool(a == b and type(a) is type(b))


def _negated(a: Any, b: Any) -> bool:
    return isinstance(a, int) and isinstance(b, int) and b == -a


def zero_sum(result: Any) -> bool:
    """A settle answer's points (and money, and net plus rake) sum to zero."""
    if not isinstance(result, Mapping) or not isinstance(result.get("points"), list):
        return True  # the comparison with capsa reports a malformed answer
    try:
        if sum(result["points"]) != 0:
            return False
        if isinstance(result.get("money"), list) and sum(result["money"]) != 0:
            return False
        net, rake = result.get("net"), result.get("rake")
        if isinstance(net, list) and isinstance(rake, list) and sum(net) + sum(rake) != 0:
            return False
    except TypeError:
        return True
    return True


def _permuted(result: Any, order: list[int]) -> Any:
    if not isinstance(result, Mapping):
        return None
    out = {}
    for key in _MONEY:
        values = result.get(key)
        if isinstance(values, list) and len(values) == len(order):
            out[key] = [values[k] for k in order]
    return out


def _seat_order(a: Any, b: Any, order: list[int]) -> bool:
    if not isinstance(b, Mapping):
        return False
    mine = _permuted(a, order)
    return all(b.get(k) == v for k, v in (mine or {}).items())


def _seat_order_holds(order: list[int], a: Any, b: Any) -> bool:
    return _seat_order(a, b, order)


def _with(case: Case, **changes: Any) -> Case:
    return Case(case.op, case.rules, {**case.input, **changes})


def companions(case: Case, rng: random.Random) -> list[Companion]:
    """The companions of a case (none for ops without invariants)."""
    data = case.input
    out: list[Companion] = []
    perm = tuple(rng.sample(range(4), 4))
    keep = rng.choice(_COLOUR_KEEPING[1:])
    if case.op == "compare":
        out.append(Companion("antisymmetry", _with(case, a=data["b"], b=data["a"]), _negated))
        if _no_suit_rule(case.rules):
            moved = _with(case, a=_relabel(data["a"], perm), b=_relabel(data["b"], perm))
            out.append(Companion("suit-relabelling", moved, _equal))
    elif case.op in ("category", "natural"):
        # a category is blind to suits, a natural to all but colours
        relabelling = perm if case.op == "category" else keep
        if _colour_keeping(case.rules):
            hand = _shuffled(_relabel(data["hand"], relabelling), rng)
            out.append(Companion("suit-relabelling", _with(case, hand=hand), _equal))
        else:
            hand = _shuffled(data["hand"], rng)
            out.append(Companion("card-order", _with(case, hand=hand), _equal))
    elif case.op == "foul" and _no_suit_rule(case.rules):
        moved = _with(case, **{row: _relabel(data[row], perm) for row in _ROWS})
        out.append(Companion("suit-relabelling", moved, _equal))
    elif case.op == "count_splits":
        hand = _shuffled(data["hand"], rng)
        if _no_suit_rule(case.rules):
            hand = _relabel(hand, perm)
        out.append(Companion("card-order", _with(case, hand=hand), _equal))
    elif case.op == "settle":
        out.extend(_settle_companions(case, rng, keep))
    return out


def _settle_companions(case: Case, rng: random.Random, keep: tuple[int, ...]) -> list[Companion]:
    round_ = case.input["round"]
    seats = round_["seats"]
    count = len(seats)
    order = list(range(count))
    while order == list(range(count)):
        rng.shuffle(order)
    stakes = round_.get("stakes")
    if isinstance(stakes, list):
        stakes = [[stakes[i][j] for j in order] for i in order]
    moved = {"seats": [seats[k] for k in order], "stakes": stakes}
    if isinstance(round_.get("banker"), int):  # a banker game: the banker moves with its seat
        moved["banker"] = order.index(round_["banker"])
    if isinstance(round_.get("multipliers"), list) and len(round_["multipliers"]) == count:
        moved["multipliers"] = [round_["multipliers"][k] for k in order]
    out = [
        Companion(
            "seat-order",
            _with(case, round={**round_, **moved}),
            functools.partial(_seat_order_holds, order),
        )
    ]
    if _no_suit_rule(case.rules):
        relabelled = [
            {**seat, **{row: _relabel(seat[row], keep) for row in _ROWS}} for seat in seats
        ]
        out.append(
            Companion(
                "suit-relabelling", _with(case, round={**round_, "seats": relabelled}), _equal_money
            )
        )
    rules = case.rules.rules()
    for k, seat in enumerate(seats):
        ids = [c for row in _ROWS for c in ids_of(seat[row])]
        if seat.get("declare_natural", True) and capsa.natural(ids, rules):
            rearranged = sorted(ids, reverse=True)  # other rows, often fouled
            rows = {
                "top": text_of(sorted(rearranged[:3])),
                "middle": text_of(sorted(rearranged[3:8])),
                "bottom": text_of(sorted(rearranged[8:])),
            }
            changed = [dict(s) for s in seats]
            changed[k] = {**seat, **rows}
            if changed[k] != seat:
                out.append(
                    Companion(
                        "natural-overrides-rows",
                        _with(case, round={**round_, "seats": changed}),
                        _equal_money,
                    )
                )
            break
    return out


def _equal_money(a: Any, b: Any) -> bool:
    if not isinstance(a, Mapping) or not isinstance(b, Mapping):
        return False
    return all(a.get(k) == b.get(k) for k in _MONEY)
