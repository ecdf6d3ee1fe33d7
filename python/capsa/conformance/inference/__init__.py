"""Infer the rules an engine plays (``capsa conformance infer``).

The engine is asked targeted cases, always under one set of rules (the
*base*: the one given, else the ``rules`` or the preset its ``hello``
claims, else ``capsa-susun``), and capsa's own :class:`~capsa.Rules` and
settlement are the model of its answers: for each knob the probes are
cases whose answers differ between the knob's values (capsa computes the
answer under every candidate value, so no expected answer is written
here). Numeric knobs are solved from settle answers, in passes (the knobs
depend on one another); then every knob is decided from the values that
fit every answer of its probes: one value is inferred (``probed`` names
the probes that fixed it), several or none are *not determined*, and so
are knobs only a combination of which shows; a knob no answer depends on
is *not probed*. Each undecided knob carries its reason.

Settle answers that do not sum to zero are set aside, per table size: the
scoring is then solved from rounds played at a size where the engine is
zero-sum (two seats and filler seats), and those answers are described
as the formula they follow. The modules, by job: ``probes`` and
``rounds`` (the cases), ``tables`` (table sizes), ``knobs`` (knobs by
dotted name), ``solving`` (asking, solving, deciding), ``ranking``,
``naturals`` and ``settling`` (the parts), ``doubting`` (dealt rounds, and
answers left unexplained), ``observe`` (the verification), ``claims``
(the hello claims), ``result`` (:class:`Inference`) and ``check`` (the
harness run again under the inferred rules).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from capsa.conformance.engines import Engine, engine_of
from capsa.conformance.inference.check import check_inferred
from capsa.conformance.inference.claims import base_rules, claim_observations
from capsa.conformance.inference.defects import DefectParts
from capsa.conformance.inference.doubting import DoubtingParts
from capsa.conformance.inference.housing import HouseParts
from capsa.conformance.inference.knobs import get, with_knobs
from capsa.conformance.inference.observe import ObservingParts
from capsa.conformance.inference.ranking import RankingParts
from capsa.conformance.inference.result import Inference, Observation
from capsa.conformance.inference.settling import SettlingParts
from capsa.rules import Rules

__all__ = ["CANNOT_INFER", "Inference", "Observation", "infer"]

CANNOT_INFER = (
    "cannot infer the rules: some answers fit no value of the knobs infer probes. "
    "The engine may play a rule of the houses infer does not probe (ranked royalties, "
    "scoop.by_seats, sweep_all.natural_opponents, the horse card, caps, banker games, "
    "a natural's parameters, raised, bonus or must-declare naturals, tiers, foul.mode "
    '"none" or "refuse"): name its rules in the hello and `capsa conformance run` '
    "tests them"
)
"""The note of an inference whose answers no probed knob explains: the rules
it gives are then not the engine's."""


# knobs written as far as the answers show them even when not determined
_AS_FAR_AS_SHOWN = ("naturals.enabled",)


class _Work(RankingParts, DefectParts, SettlingParts, DoubtingParts, HouseParts, ObservingParts):
    """Every part of the inference, on one engine."""


def _inferred_name(engine: Any) -> str:
    """The name of the inferred rules: the engine's, when it is printable text."""
    shown = engine if isinstance(engine, str) and engine.isprintable() else "engine"
    try:
        shown.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate from the engine's JSON
        shown = "engine"
    return f"{shown[:80]} (inferred)"


def infer(
    engine: str | Sequence[str] | Callable[[dict[str, Any]], Any] | Engine,
    base: str | Rules | None = None,
    timeout: float = 10.0,
    check: int | None = None,
    check_vectors: str | Path | None = None,
) -> Inference:
    """Probes an engine and returns the rules it plays (:class:`Inference`).

    ``engine`` is a command line (a str or argv list, started once), a
    callable from a request dict to a response dict, or an :class:`Engine`.
    ``base`` is the rules every probe is sent under: a preset name or
    ``Rules``; by default the preset the engine's ``hello`` names in
    ``"preset"``, else ``capsa-susun``. Only ops the engine lists are asked.

    ``check`` (a number of fuzz cases) runs the harness again on the engine
    under the inferred rules (:func:`~capsa.conformance.inference.check.check_inferred`)
    and attaches what it found as ``check``, with the vectors of
    ``check_vectors`` (default: the shipped suites); None (the default)
    runs no check. Every knob the check's settle disagreements depend on
    is then not determined (the inferred rules are not changed).

    Raises :class:`~capsa.conformance.HandshakeError` when the engine cannot
    be started or its ``hello`` is unusable, ``RulesError`` for an unknown
    preset.
    """
    runner = engine_of(engine, timeout)
    hello = runner.start()
    try:
        rules, notes = base_rules(base, hello)
        work = _Work(runner, rules, hello)
        work.notes += notes
        for part in (
            work.ranking,
            work.defects,
            work.fixed_rules,
            work.fouls,
            work.naturals,
            work.house_first,
            work.settlement,
            work.natural_precedence,
            work.doubt,
            work.separate,
            work.house_rules,
            work.trade_again,
            work.moot_left,
            work.verify,
        ):
            part()
    finally:
        runner.close()
    found = _result(work, hello)
    if check is not None:
        checked = check_inferred(
            engine,
            found.rules,
            fuzz=check,
            timeout=timeout,
            vectors=check_vectors,
            not_zero_sum=found.not_zero_sum,
            defects=sorted(work.defects_found),
        )
        work.doubt_check(checked.settles)
        found = _result(work, hello)
        found.check = checked
    return found


def _result(work: _Work, hello: dict[str, Any]) -> Inference:
    undecided = {**work.undetermined, **work.not_probed}
    probed = {k: v for k, v in work.probed.items() if k not in undecided}
    not_probed = {k: v for k, v in work.not_probed.items() if k not in work.undetermined}
    equivalent = {k: v for k, v in work.equivalent.items() if k not in undecided}
    # a knob not determined keeps the base's value: no guess is given as found (the
    # naturals paid are known when their order is not; a natural the base does not
    # pay has no value to keep)
    reset = {k: get(work.base, k) for k in work.undetermined if k not in _AS_FAR_AS_SHOWN}
    reset = {k: v for k, v in reset.items() if v is not None}
    rules = with_knobs(work.rules, reset).derive(name=_inferred_name(hello.get("engine")))
    observations = work.observations + claim_observations(hello, work.rules, probed)
    notes = list(work.notes)
    if any(o.kind not in ("declared-not-zero-sum", "ranking-defect") for o in observations):
        notes.append(CANNOT_INFER)
    return Inference(
        rules=rules,
        base=work.base,
        engine=hello,
        probed=probed,
        not_probed=not_probed,
        undetermined=work.undetermined,
        equivalent=equivalent,
        observations=observations,
        asked=work.asked,
        notes=notes,
        not_zero_sum=sorted(work.not_zero_sum),
    )
