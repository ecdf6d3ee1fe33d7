"""Diagnosis on the engine's side: failures grouped by root cause, the knob
values that explain each cause, and the pinned digest an engine's order matches.

A *cause* is a set of failures with one explanation. For disagreements the
explanation is a knob value: capsa is asked a failing case again under the
case's rules with one knob changed (:func:`alternatives`: every choice of
an enumerated knob, a small range of each numeric one, every royalty entry
from 0 to 25, each natural left out or paid 0 to 6, no naturals); a value
under which capsa gives exactly the engine's answer *fits* the failure.
Causes are built greedily: the smallest failure not yet placed proposes
the values that fit it, and the value fitting the most failures left takes
every failure it fits, whatever its op (one wrong knob is one cause however
many ops show it); the cause's fits are the proposed values that fit all
it took. Disagreements no value fits form one cause per op and differing
fields (a natural mis-answered the same way every time is one cause); other
failures (errors, crashes, timeouts, protocol failures, broken invariants)
one cause per kind, op and error kind or invariant. Fitting asks capsa at
most :data:`FIT_BUDGET` times in all (about 200 microseconds each).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from capsa import CapsaError
from capsa.cards import card_ids
from capsa.conformance.protocol import Case, RulesSpec
from capsa.conformance.rankings import order_under_every_ranking
from capsa.rules import KNOBS, RANKING_KNOBS, Rules

if TYPE_CHECKING:
    from capsa.conformance.verdicts import Failure

__all__ = ["FIT_BUDGET", "RANKING_DEFECT", "Cause", "alternatives", "diagnose", "digest_matches"]

RANKING_DEFECT = "ranking defect"

FIT_BUDGET = 20_000
_UNFIT_TRIES = 2
_CHECKED = 64
_MOST_CAUSES = 8
_RANKING = RANKING_KNOBS
# The values a fit tries for an integer knob: the ranges that reach each
# branch of the rule text; an integer knob not listed (but the stake, which
# scales every payment alike), the bottom of its range.
_SEARCHED: dict[str, Sequence[int]] = {
    "row_points": range(0, 7),
    "overall_point": range(0, 7),
    "scoop.multiplier": range(1, 7),
    "scoop.bonus": range(0, 13),
    "sweep_all.multiplier": range(1, 9),
    "sweep_all.bonus": range(0, 25),
    "sweep_all.min_players": range(2, 6),
    "foul.points": range(0, 25),
    "surrender.cost": range(0, 11),
    # the rates houses charge, in steps of a quarter percent up to 10%
    "money.rake_basis_points": range(0, 1001, 25),
    # a minimum pot or a cap matters at the size of the money a round moves
    "money.rake_minimum_pot": (0, 1, 2, 5, 10, 20, 50, 100, 200, 500, 1000),
    "money.rake_cap_per_pot": (0, 1, 2, 3, 5, 10, 20, 50, 100, 200, 500, 1000),
    "money.rake_cap_per_round": (0, 1, 2, 3, 5, 7, 10, 20, 50, 100, 200, 500, 1000),
}
_RANGES: dict[str, Sequence[int]] = {
    k.name: _SEARCHED.get(k.name) or range(k.low or 0, (k.low or 0) + 7)
    for k in KNOBS
    if k.type == "int" and k.name != "money.stake"
}
# Every choice of each enumerated knob, from the rules' knob table (a flag's
# default first).
_CHOICES: dict[str, tuple[Any, ...]] = {
    **{k.name: k.choices for k in KNOBS if k.type == "choice"},
    **{k.name: (k.default, not k.default) for k in KNOBS if k.type == "bool"},
}
_SCORING = tuple(k for k in (*_CHOICES, *_RANGES) if k not in _RANKING)
_ROW_CATEGORIES = {
    "top": ("pair", "trips"),
    "middle": (
        "trips",
        "straight",
        "flush",
        "full-house",
        "quads",
        "straight-flush",
        "royal-flush",
    ),
    "bottom": ("straight", "flush", "full-house", "quads", "straight-flush", "royal-flush"),
}

Answer = Callable[[Case], tuple[bool, Any]]
Agrees = Callable[[str, Any, Any], bool]


def _suit_orders() -> tuple[str, ...]:
    from capsa.conformance.digests import suit_orders

    return tuple(suit_orders())


def _values(key: str) -> Sequence[Any]:
    if key == "suit_order":
        return _suit_orders()
    return _RANGES.get(key) or _CHOICES[key]


def _knobs_of(op: str) -> tuple[str, ...]:
    if op in ("compare", "category", "digest"):
        return _RANKING
    if op in ("foul", "count_splits"):
        return (*_RANKING, "foul_check")
    if op == "natural":
        return _RANKING
    return (*_RANKING, *_SCORING)


def _natural_variants(rules: Rules) -> Iterator[tuple[str, Any]]:
    enabled = [dict(e) for e in rules["naturals.enabled"]]
    if enabled:
        yield "naturals.enabled", []
    for k, entry in enumerate(enabled):
        yield "naturals.enabled", [e for j, e in enumerate(enabled) if j != k]
        for points in range(0, 7):
            if points != entry["points"]:
                changed = [*enabled[:k], {**entry, "points": points}, *enabled[k + 1 :]]
                yield "naturals.enabled", changed


def _royalty_variants(rules: Rules) -> Iterator[tuple[str, Any]]:
    for row, categories in _ROW_CATEGORIES.items():
        table = dict(rules[f"royalties.{row}"])
        for category in categories:
            for points in range(0, 26):
                if table.get(category, 0) != points:
                    yield f"royalties.{row}", {**table, category: points}


def alternatives(op: str, spec: RulesSpec) -> Iterator[tuple[str, Any]]:
    """(knob, value) pairs that change one knob of ``spec`` and may change the
    answer to ``op``: dotted knob names as in the rules data; raises nothing."""
    rules = spec.rules()
    for key in _knobs_of(op):
        current = rules[key]
        for value in _values(key):
            if value != current:
                yield key, value
    if op in ("natural", "settle"):
        yield from _natural_variants(rules)
    if op == "settle":
        yield from _royalty_variants(rules)


@dataclass
class Cause:
    """One root cause: ``failures`` (smallest first) share ``kind``, the ops in
    ``ops`` and the answer ``fields`` that differ; ``fits`` are the knob
    values (knob, value) under which capsa answers as the engine did on every
    failure of the cause (empty: no single knob value explains it). Built by
    :func:`diagnose`; building one raises nothing."""

    kind: str
    ops: list[str]
    fields: list[str]
    failures: list[Failure]
    fits: list[tuple[str, Any]] = field(default_factory=list)
    detail: str = ""
    # knob values that fit the failures but give some passing answer otherwise
    rejected: list[tuple[str, Any]] = field(default_factory=list)

    @property
    def smallest(self) -> Failure:
        """The cause's smallest failure (its reproducer)."""
        return self.failures[0]

    def fit_text(self) -> str:
        """The fits in words: ``your answers fit `scoop.bonus = 3```."""
        if not self.fits:
            if self.kind != "disagreement":
                return ""
            if self.detail == RANKING_DEFECT:
                return "no ranking orders these hands so: a ranking defect, no knob"
            unfit = "no single knob value explains these answers"
            if self.rejected:
                shown = " or ".join(f"`{k} = {json.dumps(v)}`" for k, v in self.rejected[:3])
                unfit += f" ({shown} would, but breaks answers that pass)"
            return unfit
        shown = " or ".join(f"`{k} = {json.dumps(v)}`" for k, v in self.fits[:4])
        more = f" (and {len(self.fits) - 4} more)" if len(self.fits) > 4 else ""
        return f"your answers fit {shown}{more}"

    def line(self) -> str:
        """One line: count, what, the fit and the smallest reproducer."""
        what = f"{self.kind} {'/'.join(self.ops)}"
        if self.fields:
            what += f" ({', '.join(self.fields)})"
        if self.detail:
            what += f" {self.detail}"
        small = self.smallest
        where = small.reproducer or small.id
        state = "shrunk" if small.shrunk is not None else small.shrink_note or "not shrunk"
        fit = self.fit_text()
        if not fit and isinstance(small.got, str):  # what happened: a crash, a broken line
            fit = f"e.g. {small.got[:160]}"
        return (
            f"{len(self.failures)} x {what}"
            + (f": {fit}" if fit else "")
            + (f"; smallest: {where} ({state})")
        )

    def to_json(self) -> dict[str, Any]:
        """The cause as an entry of ``report.json``'s ``causes``."""
        return {
            "kind": self.kind,
            "ops": self.ops,
            "fields": self.fields,
            "detail": self.detail,
            "count": len(self.failures),
            "fits": [{"knob": k, "value": v} for k, v in self.fits],
            "rejected": [{"knob": k, "value": v} for k, v in self.rejected],
            "summary": self.line(),
            "smallest": self.smallest.id,
            "failures": [f.id for f in self.failures[:100]],
        }


class _Fitter:
    def __init__(
        self, answer: Answer, agrees: Agrees, budget: int, passed: Sequence[Failure] = ()
    ) -> None:
        self.answer = answer
        self.agrees = agrees
        self.left = budget
        self.known: dict[tuple[int, str, str], bool] = {}
        self.passed = passed

    def keeps(self, knob_value: tuple[str, Any], ops: Sequence[str]) -> bool:
        """Whether capsa under the knob value still gives the passing answers of
        ``ops`` (the first 64 of each op whose answer the value could change)."""
        knob, value = knob_value
        for op in ops:
            sample = [p for p in self.passed if p.op == op][:_CHECKED]
            if not all(self.explains(p, knob, value) for p in sample):
                return False
        return True

    def explains(self, failure: Failure, knob: str, value: Any) -> bool:
        key = (id(failure), knob, json.dumps(value, sort_keys=True))
        if key not in self.known:
            self.known[key] = self._explains(failure, knob, value)
        return self.known[key]

    def _explains(self, failure: Failure, knob: str, value: Any) -> bool:
        if self.left <= 0:
            return False
        self.left -= 1
        try:
            case = Case(failure.op, failure.case.rules.with_knob(knob, value), failure.case.input)
            case.rules.rules()
        except (ValueError, TypeError):
            return False
        answers, alt = self.answer(case)
        return answers and self.agrees(failure.op, alt, failure.got)

    def fits(self, failure: Failure) -> list[tuple[str, Any]]:
        try:
            options = list(alternatives(failure.op, failure.case.rules))
        except ValueError:
            return []
        return [(k, v) for k, v in options if self.explains(failure, k, v)]


def _signature(failure: Failure) -> tuple[str, ...]:
    return (failure.op, *failure.fields)


def _fitted(pool: list[Failure], fitter: _Fitter) -> tuple[list[Cause], list[Failure]]:
    """Causes one knob value explains, greedily: the smallest failure left
    proposes the values that fit it; the value explaining the most failures
    left of its op (the smallest 64 counted) takes every failure it explains,
    with every proposed value that explains all it took.
    Once :data:`_UNFIT_TRIES` failures of an op and fields propose nothing,
    the others of that op and fields propose no more (one of them may still
    be taken by another's value). Returns the causes and the failures left."""
    causes: list[Cause] = []
    unfit: dict[tuple[str, ...], int] = {}
    tried: set[int] = set()
    while len(causes) < _MOST_CAUSES:
        first = next(
            (f for f in pool if id(f) not in tried and unfit.get(_signature(f), 0) < _UNFIT_TRIES),
            None,
        )
        if first is None:
            break
        tried.add(id(first))
        candidates = fitter.fits(first)
        if not candidates:
            unfit[_signature(first)] = unfit.get(_signature(first), 0) + 1
            continue
        checked = [f for f in pool if f.op == first.op][:_CHECKED]
        hits = [[f for f in checked if fitter.explains(f, *kv)] for kv in candidates]
        best = candidates[max(range(len(hits)), key=lambda k: len(hits[k]))]
        members = [f for f in pool if fitter.explains(f, *best)]
        sample = members[:_CHECKED]
        fits = [kv for kv in candidates if all(fitter.explains(f, *kv) for f in sample)]
        ops = list(dict.fromkeys(f.op for f in members))
        fields = sorted({x for f in members for x in f.fields})
        offered = fits or [best]
        kept = [kv for kv in offered if fitter.keeps(kv, ops)]
        rejected = [kv for kv in offered if kv not in kept]
        causes.append(Cause("disagreement", ops, fields, members, kept, rejected=rejected))
        taken = {id(f) for f in members}
        pool = [f for f in pool if id(f) not in taken]
    return causes, pool


def _every_ranking_agrees(failure: Failure) -> bool:
    """Whether every ranking gives the compare failure capsa's answer."""
    try:
        a, b = (card_ids(failure.case.input[k]) for k in ("a", "b"))
        return order_under_every_ranking(a, b) is not None
    except (CapsaError, KeyError, TypeError):
        return False


def _other_key(failure: Failure) -> tuple[str, str, str]:
    detail = f"invariant {failure.invariant}" if failure.invariant else ""
    if failure.kind == "error" and isinstance(failure.got, dict):
        detail = f"kind {failure.got.get('kind')!s:.40}"
    return failure.kind, failure.op, detail


def diagnose(
    failures: Sequence[Failure],
    answer: Answer,
    agrees: Agrees,
    size: Callable[[Case], Any],
    budget: int = FIT_BUDGET,
    passed: Sequence[Failure] = (),
) -> list[Cause]:
    """The failures' root causes, most failures first (see the module docs).
    A knob value is offered only when it also gives the ``passed`` answers
    (a sample of 64 per op); a compare cause every ranking answers as capsa
    does is a ranking defect.

    ``answer`` is whether capsa answers a case and its answer,
    ``agrees(op, capsa's answer, engine's answer)`` judges as the harness
    does, ``size`` orders failures (smallest first) and ``budget`` bounds the
    times capsa is asked. Raises nothing for any engine answer."""
    fitter = _Fitter(answer, agrees, budget, passed)
    ordered = sorted(failures, key=lambda f: size(f.case))
    causes, unexplained = _fitted([f for f in ordered if f.kind == "disagreement"], fitter)
    groups: dict[tuple[str, ...], list[Failure]] = {}
    for failure in unexplained:
        groups.setdefault((failure.op, *failure.fields), []).append(failure)
    for (op, *fields), members in groups.items():
        defect = op == "compare" and all(_every_ranking_agrees(f) for f in members[:_CHECKED])
        detail = RANKING_DEFECT if defect else ""
        causes.append(Cause("disagreement", [op], list(fields), members, detail=detail))
    others: dict[tuple[str, str, str], list[Failure]] = {}
    for failure in ordered:
        if failure.kind != "disagreement":
            others.setdefault(_other_key(failure), []).append(failure)
    for (kind, op, detail), members in others.items():
        fields = sorted({x for f in members for x in f.fields})
        causes.append(Cause(kind, [op], fields, members, [], detail))
    for cause in causes:
        cause.failures.sort(key=lambda f: size(f.case))
    causes.sort(key=lambda c: -len(c.failures))
    return causes


# ------------------------------------------------------------------ digests


@lru_cache(maxsize=1)
def _pinned() -> dict[str, list[tuple[int, RulesSpec]]]:
    """The shipped digest vectors: digest -> (hand size, rules) of each."""
    from capsa.conformance.protocol import rules_spec_from_json
    from capsa.conformance.vectors import load_vectors, shipped_dir

    table: dict[str, list[tuple[int, RulesSpec]]] = {}
    for vector in load_vectors(shipped_dir() / "digest.jsonl"):
        spec = rules_spec_from_json(vector["rules"])
        table.setdefault(str(vector["expected"]), []).append((int(vector["input"]["size"]), spec))
    return table


def _config_text(spec: RulesSpec, size: int) -> str:
    from capsa.conformance.digests import ranking_key

    return ", ".join(f"{k} = {json.dumps(v)}" for k, v in ranking_key(spec.rules(), size).items())


def _differences(asked: RulesSpec, found: RulesSpec, size: int) -> str:
    from capsa.conformance.digests import ranking_key

    mine = ranking_key(asked.rules(), size)
    theirs = ranking_key(found.rules(), size)
    changed = [f"{k} = {json.dumps(v)}" for k, v in theirs.items() if mine.get(k) != v]
    return ", ".join(changed) or "the same ranking knobs"


def digest_matches(failures: Sequence[Failure]) -> list[str]:
    """For each ``digest`` disagreement, a sentence naming the pinned ranking
    configuration the engine's digest matches (the presets that play it and
    the ranking knobs that differ from the rules asked), or saying it matches
    none of them. Reads the shipped ``digest.jsonl``; raises nothing for any
    engine answer."""
    out: list[str] = []
    pinned = _pinned()
    words = {5: "five-card", 3: "three-card"}
    for failure in failures:
        if failure.op != "digest" or failure.kind != "disagreement":
            continue
        size = int(failure.case.input.get("size", 5))
        found = [spec for n, spec in pinned.get(str(failure.got), []) if n == size]
        asked = failure.case.rules.describe()
        if not found:
            out.append(
                f"{failure.id} ({asked}): your {words.get(size, '')} order matches "
                "no pinned configuration"
            )
            continue
        presets = sorted({s.preset for s in found if not s.knobs})
        diff = f"`{_differences(failure.case.rules, found[0], size)}`"
        names = ", ".join(f"{p}'s" for p in presets)
        owner = f"{names}: {diff}" if presets else f"that of {diff}"
        out.append(
            f"{failure.id} ({asked}): your {words[size]} order is {owner} "
            f"({_config_text(found[0], size)})"
        )
    return out
