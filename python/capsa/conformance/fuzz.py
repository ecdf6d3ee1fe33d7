"""Fuzz cases drawn by Hypothesis (needs the ``strategies`` extra).

Hypothesis draws the cases (random and edge-biased hands, arrangements,
tables with naturals, fouls, surrenders and stakes, rules varied over the
knobs the engine claims, or around the rules it plays); the harness
collects them and asks them many at a time, then shrinks what fails
itself, with simplifications that mean something in this game (fewer
seats, lower ranks, canonical suits, fewer knobs).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import seed as hypothesis_seed
from hypothesis import strategies as st

from capsa import strategies as cs
from capsa.conformance.claims import Claims
from capsa.conformance.protocol import Case, RulesSpec, text_of
from capsa.rules import RANKING_KNOBS

__all__ = ["case_strategy", "generate_cases"]

_RANKING = (*RANKING_KNOBS, "foul_check")
# How often each op is drawn (splits cost the most to answer).
_WEIGHTS = {"compare": 4, "category": 1, "foul": 3, "natural": 2, "count_splits": 1, "settle": 6}


def _claimed(claims: Mapping[str, Any], keys: Sequence[str] | None) -> dict[str, Sequence[Any]]:
    values: dict[str, Sequence[Any]] = {
        k: v for k, v in cs.KNOB_VALUES.items() if keys is None or k in keys
    }
    for key, allowed in claims.items():
        if key in values and isinstance(allowed, list):
            values[key] = [v for v in values[key] if v in allowed]
    return values


def _around(base: RulesSpec, values: Mapping[str, Sequence[Any]]) -> st.SearchStrategy[RulesSpec]:
    """``base`` with up to four of the knobs in ``values`` set to one of theirs."""
    keys = sorted(values)
    if not keys:
        return st.just(base)

    @st.composite
    def build(draw: st.DrawFn) -> RulesSpec:
        spec = base
        for key in draw(st.lists(st.sampled_from(keys), max_size=4, unique=True)):
            spec = spec.with_knob(key, draw(st.sampled_from(list(values[key]))))
        return spec

    return build()


def _rows_text(ids: Sequence[int]) -> dict[str, str]:
    return {
        "top": text_of(sorted(ids[:3])),
        "middle": text_of(sorted(ids[3:8])),
        "bottom": text_of(sorted(ids[8:])),
    }


@st.composite
def _compare(draw: st.DrawFn, spec: RulesSpec) -> Case:
    size_a, size_b = draw(st.sampled_from([(5, 5), (5, 5), (3, 3), (5, 3), (3, 5)]))
    a = draw(cs.hand_ids(size_a))
    b = draw(cs.hand_ids(size_b, frozenset(a)))
    return Case("compare", spec, {"a": text_of(a), "b": text_of(b)})


@st.composite
def _category(draw: st.DrawFn, spec: RulesSpec) -> Case:
    return Case(
        "category", spec, {"hand": text_of(draw(cs.hand_ids(draw(st.sampled_from([5, 3])))))}
    )


@st.composite
def _foul(draw: st.DrawFn, spec: RulesSpec) -> Case:
    arrangement = draw(cs.arrangements(spec.rules()))
    return Case("foul", spec, _rows_text(arrangement.ids))


@st.composite
def _natural(draw: st.DrawFn, spec: RulesSpec) -> Case:
    hand = draw(st.one_of(cs._natural_ids(frozenset()), cs.hand_ids(13)))
    if hand is None:
        hand = draw(cs.hand_ids(13))
    return Case("natural", spec, {"hand": text_of(hand)})


@st.composite
def _count_splits(draw: st.DrawFn, spec: RulesSpec) -> Case:
    return Case("count_splits", spec, {"hand": text_of(draw(cs.hand_ids(13)))})


@st.composite
def _settle(draw: st.DrawFn, spec: RulesSpec) -> Case:
    table = draw(cs.tables(rules=spec.rules()))
    seats = [
        {
            **_rows_text(seat.arrangement.ids),
            "surrender": seat.surrender,
            "declare_natural": seat.declare_natural,
        }
        for seat in table.seats
    ]
    round_: dict[str, Any] = {"seats": seats, "stakes": table.stakes}
    if table.banker is not None:
        round_ |= {"banker": table.banker, "multipliers": table.multipliers}
    return Case("settle", spec, {"round": round_})


_BUILDERS: dict[str, Callable[[RulesSpec], st.SearchStrategy[Case]]] = {
    "compare": _compare,
    "category": _category,
    "foul": _foul,
    "natural": _natural,
    "count_splits": _count_splits,
    "settle": _settle,
}


def case_strategy(
    ops: Sequence[str], claims: Claims, base: RulesSpec | None = None
) -> st.SearchStrategy[Case]:
    """Cases of the given ops with rules inside the engine's claims: a preset
    with a few knobs changed among the claimed values, or, with ``base`` (the
    rules the engine plays), ``base`` with a few of the knobs claimed with
    several values changed."""
    choices = []
    for op in ops:
        if base is not None:
            specs = _around(base, claims.varied())
        else:
            keys = _RANKING if op in ("compare", "category", "foul", "count_splits") else None
            specs = cs.rules_specs(None, _claimed(claims.knobs, keys)).map(claims.fit)
        choices += [specs.flatmap(_BUILDERS[op])] * _WEIGHTS[op]
    return st.one_of(choices)


def generate_cases(
    ops: Sequence[str],
    claims: Claims,
    examples: int,
    seed: int,
    collect: Callable[[Case], None],
    base: RulesSpec | None = None,
) -> None:
    """Draws ``examples`` cases with Hypothesis (reproducibly from ``seed``) and
    hands each to ``collect`` when the engine's claims admit it (a fouled
    table of an engine that never scores fouls is dropped); Hypothesis only
    generates here, the harness judges. ``base`` is as for
    :func:`case_strategy`."""
    strategy = case_strategy(ops, claims, base)
    base_rules = base.rules() if base is not None else None

    @hypothesis_seed(seed)
    @settings(
        max_examples=examples,
        phases=[Phase.generate],
        database=None,
        deadline=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(strategy)
    def draw(case: Case) -> None:
        rules = case.rules.rules()
        if claims.outside(case.op, rules, base_rules) is None and not claims.fouled(case):
            collect(case)

    draw()
