"""capsa's answer to a case, in words: what the report says about a disagreement."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import capsa
from capsa.arrangement import Arrangement
from capsa.conformance.protocol import Case, ids_of
from capsa.rules import Rules

__all__ = ["explain", "pair_terms"]

_ROWS = ("top", "middle", "bottom")


def _hand(text: str, rules: Rules) -> str:
    value = capsa.evaluate(ids_of(text), rules)
    return f"{text} ({value.category})"


def _ranking_notes(texts: list[str], rules: Rules) -> list[str]:
    notes = []
    ranks = [sorted(c // 4 for c in ids_of(t)) for t in texts]
    if any(r == [0, 1, 2, 3, 12] for r in ranks):
        place = "the lowest straight" if rules["wheel"] == "low" else "the second-highest straight"
        notes.append(f'wheel = "{rules["wheel"]}": A-2-3-4-5 is {place}')
    if any(len(r) == 3 for r in ranks):
        notes.append("three cards make no straight and no flush")
    if rules["tie_break"] == "suit":
        notes.append(f'equal ranks are decided by suits, strongest first "{rules["suit_order"]}"')
    if rules["flush_compare"] == "suit-first":
        notes.append(f'a flush of a stronger suit wins first (suit_order "{rules["suit_order"]}")')
    return notes


def _compare(case: Case, rules: Rules) -> str:
    a, b = case.input["a"], case.input["b"]
    result = capsa.compare(ids_of(a), ids_of(b), rules)
    verdict = {1: "a is higher", -1: "b is higher", 0: "they tie"}[result]
    notes = _ranking_notes([a, b], rules)
    tail = f" ({'; '.join(notes)})" if notes else ""
    return f"a = {_hand(a, rules)}, b = {_hand(b, rules)}: {verdict}, so {result}{tail}"


def _foul(case: Case, rules: Rules) -> str:
    arrangement = Arrangement(*(ids_of(case.input[row]) for row in _ROWS))
    top, middle, bottom = arrangement.values(rules)
    parts = [f"{row} {_hand(case.input[row], rules)}" for row in _ROWS]

    def order(x: Any, y: Any) -> str:
        return ">" if x.strength > y.strength else ("=" if x.strength == y.strength else "<")

    fouled = arrangement.is_foul(rules)
    check = (
        "bottom > middle > top" if rules["foul_check"] == "strict" else "bottom >= middle >= top"
    )
    verdict = "a foul" if fouled else "not a foul"
    return (
        f"{'; '.join(parts)}: bottom {order(bottom, middle)} middle {order(middle, top)} top, "
        f'and foul_check = "{rules["foul_check"]}" needs {check}: {verdict}'
    )


def _natural(case: Case, rules: Rules) -> str:
    ids = ids_of(case.input["hand"])
    held = capsa.naturals(ids)
    enabled = [e["name"] for e in rules["naturals.enabled"]]
    answer = capsa.natural(ids, rules)
    return (
        f"{case.input['hand']} qualifies for {', '.join(held) or 'no natural'}; the rules enable "
        f"{', '.join(enabled) or 'none'} (strongest first), so the natural is "
        f"{answer or 'none (null)'}"
    )


def _count_splits(case: Case, rules: Rules) -> str:
    count = capsa.count_splits(ids_of(case.input["hand"]), rules)
    return (
        f"{count} of the 72,072 splits of {case.input['hand']} are valid under "
        f'foul_check = "{rules["foul_check"]}", tie_break = "{rules["tie_break"]}", '
        f'wheel = "{rules["wheel"]}", flush_compare = "{rules["flush_compare"]}"'
    )


def pair_terms(pair: Mapping[str, Any]) -> str | None:
    """A pair's terms after its base in words, read from the pair's own
    figures (docs/rules.md, "A pair's terms"), or None when no term changed
    its points: ``0 v 1: base 3, bonus naturals +13, capped at 12, the horse
    card × 2, the player's multiplier × 3: 72``; an unplayed pair of a banker
    game says so."""
    i, j = pair["seats"]
    if pair["outcome"] == "unplayed":
        return f"{i} v {j}: not played (each plays the banker only)"
    base = pair.get("base", pair["points"])
    bonus = pair.get("natural_bonus", 0)
    cap = pair.get("cap", 0)
    horse = pair.get("horse", 1)
    seat = pair.get("seat_multiplier", 1)
    if not (bonus or cap or horse != 1 or seat != 1):
        return None
    parts = [f"base {base:+d}"]
    if bonus:
        parts.append(f"bonus naturals {bonus:+d} on top of the base")
    capped = f"capped at {cap}"
    # the cap of stage "final" comes after the multipliers: the points equal it
    final = cap and horse * seat != 1 and abs(pair["points"]) == cap
    if cap and not final:
        parts.append(capped)
    if horse != 1:
        parts.append(f"the horse card (held by one of the two) x {horse}")
    if seat != 1:
        parts.append(f"the player's stake multiplier x {seat}")
    if final:
        parts.append(capped)
    return f"{i} v {j}: " + ", ".join(parts) + f": {pair['points']:+d}"


def _settle(case: Case, rules: Rules) -> str:
    from capsa.conformance.serve import _seat

    round_ = case.input["round"]
    seats = [_seat(s, k) for k, s in enumerate(round_["seats"])]
    roles = {key: round_[key] for key in ("banker", "multipliers") if key in round_}
    result = capsa.settle(seats, rules, round_.get("stakes"), **roles)
    lines = [str(result.explain())]
    if "banker" in roles:
        lines.append(f"seat {roles['banker']} is the banker: every other seat plays it only")
    terms = [t for t in map(pair_terms, result.to_dict()["pairs"]) if t is not None]
    if terms:
        lines.append("the pairs' terms after their base: " + "; ".join(terms))
    return "\n".join(lines)


def explain(case: Case) -> str:
    """capsa's answer to the case and why, in words (capsa's own descriptions)."""
    rules = case.rules.rules()
    head = f"under {case.rules.describe()}: "
    try:
        if case.op == "compare":
            return head + _compare(case, rules)
        if case.op == "category":
            value = capsa.evaluate(ids_of(case.input["hand"]), rules)
            return head + f"{case.input['hand']} is {value.category}"
        if case.op == "foul":
            return head + _foul(case, rules)
        if case.op == "natural":
            return head + _natural(case, rules)
        if case.op == "count_splits":
            return head + _count_splits(case, rules)
        if case.op == "settle":
            return head + "\n" + _settle(case, rules)
        if case.op == "digest":
            return head + "the digest pins the order of every hand; compare vectors show where"
    except capsa.CapsaError as exc:
        return head + f"capsa refuses the case: {type(exc).__name__}: {exc}"
    return head + "no explanation for this op"
