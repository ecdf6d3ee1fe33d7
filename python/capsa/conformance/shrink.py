"""Shrinking a disagreement to a minimal case.

A candidate simplification is kept when the engine still disagrees with
capsa in the same way (the same answer fields differ). Simplifications, in
the order tried: fewer seats; rules knobs put back to the preset's value;
smaller knob values; default seat flags; simpler stakes; lower cards (a
card replaced by a lower one no other row holds); canonical suits (the
relabelling of suits with the lowest ids). Every kept candidate is smaller
by :func:`size`, so shrinking ends; it also stops after ``budget``
candidates. Candidates are asked in batches, so a pipe to an external
engine is crossed a few times per step, not once per candidate.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from capsa.conformance.protocol import Case, RulesSpec, ids_of, text_of
from capsa.rules import Rules

__all__ = ["shrink", "size"]

_ROWS = ("top", "middle", "bottom")
_BATCH = 48


def _card_fields(case: Case) -> list[tuple[tuple[Any, ...], str]]:
    """(path, text) of every card field of the input, in a fixed order."""
    data = case.input
    if case.op == "compare":
        return [(("a",), data["a"]), (("b",), data["b"])]
    if case.op in ("category", "natural", "count_splits"):
        return [(("hand",), data["hand"])]
    if case.op == "foul":
        return [((row,), data[row]) for row in _ROWS]
    if case.op == "settle":
        return [
            (("round", "seats", k, row), seat[row])
            for k, seat in enumerate(data["round"]["seats"])
            for row in _ROWS
        ]
    return []


def _set_field(case: Case, path: tuple[Any, ...], text: str) -> Case:
    data: Any = _copy(case.input)
    target = data
    for step in path[:-1]:
        target = target[step]
    target[path[-1]] = text
    return Case(case.op, case.rules, data)


def _copy(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_copy(v) for v in value]
    return value


def _knob_weight(value: Any) -> int:
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, int):
        return min(value, 10**6)
    return 1


def size(case: Case) -> tuple[int, ...]:
    """How big a case is: seats, knobs changed, knob values, flags, stakes, card ids."""
    seats, flags, stakes = 0, 0, 0
    if case.op == "settle":
        round_ = case.input["round"]
        seats = len(round_["seats"])
        flags = sum(
            int(s.get("surrender", False)) + int(not s.get("declare_natural", True))
            for s in round_["seats"]
        )
        value = round_.get("stakes")
        stakes = 10**7 + sum(map(sum, value)) if isinstance(value, list) else int(value or 0)
    knobs = len(case.rules.knobs)
    weight = sum(_knob_weight(v) for _, v in case.rules.knobs)
    cards = sum(sum(ids_of(text)) for _, text in _card_fields(case))
    return (seats, knobs, weight, flags, stakes, cards)


def _fewer_seats(case: Case) -> Iterator[Case]:
    if case.op != "settle":
        return
    round_ = case.input["round"]
    seats = round_["seats"]
    if len(seats) <= 2:
        return
    for k in range(len(seats)):
        stakes = round_.get("stakes")
        if isinstance(stakes, list):
            stakes = [
                [v for j, v in enumerate(row) if j != k] for i, row in enumerate(stakes) if i != k
            ]
        kept = [s for j, s in enumerate(seats) if j != k]
        yield Case("settle", case.rules, {"round": {**round_, "seats": kept, "stakes": stakes}})


def _simpler_rules(case: Case) -> Iterator[Case]:
    base = Rules.preset(case.rules.preset)
    for key, _ in case.rules.knobs:
        yield Case(case.op, case.rules.without(key), case.input)
    for key, value in case.rules.knobs:
        if isinstance(value, int) and not isinstance(value, bool):
            for smaller in sorted({0, 1, value // 2, value - 1} - {value}):
                if 0 <= smaller < value and smaller != base[key]:
                    yield Case(case.op, _try_knob(case.rules, key, smaller), case.input)


def _try_knob(spec: RulesSpec, key: str, value: Any) -> RulesSpec:
    return spec.with_knob(key, value)


def _simpler_table(case: Case) -> Iterator[Case]:
    if case.op != "settle":
        return
    round_ = case.input["round"]
    for k, seat in enumerate(round_["seats"]):
        for flag, default in (("surrender", False), ("declare_natural", True)):
            if seat.get(flag, default) != default:
                seats = [dict(s) for s in round_["seats"]]
                seats[k][flag] = default
                yield Case("settle", case.rules, {"round": {**round_, "seats": seats}})
    stakes = round_.get("stakes")
    options: list[Any] = []
    if isinstance(stakes, list):
        options = sorted({v for row in stakes for v in row})
    elif isinstance(stakes, int) and stakes > 1:
        options = [1, stakes // 2]
    for value in options:
        yield Case("settle", case.rules, {"round": {**round_, "stakes": value}})


def _lower_cards(case: Case) -> Iterator[Case]:
    fields = _card_fields(case)
    # one deck: a card may move only to a card no field holds (compare's hands too)
    used = {c for _, text in fields for c in ids_of(text)}
    for path, text in fields:
        ids = ids_of(text)
        for card in sorted(ids, reverse=True):
            for lower in range(card):
                if lower in used:
                    continue
                new = sorted(lower if c == card else c for c in ids)
                yield _set_field(case, path, text_of(new))


def _canonical_suits(case: Case) -> Iterator[Case]:
    fields = _card_fields(case)
    for perm in itertools.permutations(range(4)):
        moved = case
        for path, text in fields:
            ids = sorted(4 * (c // 4) + perm[c % 4] for c in ids_of(text))
            moved = _set_field(moved, path, text_of(ids))
        yield moved


_STEPS: tuple[Callable[[Case], Iterator[Case]], ...] = (
    _fewer_seats,
    _simpler_rules,
    _simpler_table,
    _lower_cards,
    _canonical_suits,
)


def _valid(case: Case) -> bool:
    try:
        case.rules.rules()
    except ValueError:
        return False
    return True


def shrink(
    case: Case,
    still_fails: Callable[[Sequence[Case]], list[bool]],
    budget: int = 3000,
    stop: Callable[[], bool] | None = None,
) -> tuple[Case, int]:
    """The smallest case found that still fails, and how many candidates were asked.

    ``budget`` bounds the candidates asked; ``stop`` (e.g. a deadline), when
    given, is asked before each batch and ends shrinking when it says so."""
    asked = 0
    current = case
    progress = True
    done = stop or (lambda: False)
    while progress and asked < budget and not done():
        progress = False
        for step in _STEPS:
            found = _first_failing(current, step(current), still_fails, budget - asked, done)
            asked += found[1]
            if found[0] is not None:
                current, progress = found[0], True
                break
    return current, asked


def _first_failing(
    current: Case,
    candidates: Iterator[Case],
    still_fails: Callable[[Sequence[Case]], list[bool]],
    budget: int,
    done: Callable[[], bool],
) -> tuple[Case | None, int]:
    asked = 0
    limit = size(current)
    seen: set[Case] = {current}
    while asked < budget and not done():
        batch = []
        for candidate in candidates:
            if candidate not in seen and size(candidate) < limit and _valid(candidate):
                seen.add(candidate)
                batch.append(candidate)
                if len(batch) >= _BATCH:
                    break
        if not batch:
            return None, asked
        batch = batch[: budget - asked]
        asked += len(batch)
        for candidate, fails in zip(batch, still_fails(batch), strict=True):
            if fails:
                return candidate, asked
    return None, asked
