"""Vectors re-derived for the rules an engine plays.

``capsa conformance run --rules`` (or a ``rules`` member in the engine's
``hello``) tests an engine under its own variant: each vector keeps its
cards, seats, seat flags and stakes, its rules are replaced by the
engine's, and its expected answer is capsa's under those rules, checked
against ``capsa.oracle`` (digests are capsa's alone, as when the suites
are generated). A case that is not valid under the new rules (a
surrender where the rules have none) is not asked: :func:`rederive` says
why.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from capsa.conformance.flags import flags_of
from capsa.conformance.protocol import Case, RulesSpec, request_of
from capsa.conformance.serve import CapsaEngine
from capsa.conformance.witness import oracle_answer
from capsa.rules import KNOBS, Rules, presets

__all__ = ["Rederived", "rederive", "rules_of", "spec_of"]

# Flags a vector's author gave for its cards alone; every other flag is
# found again under the new rules.
_CARD_FLAGS = frozenset(
    {"near-miss", "no-wrap", "top-row", "top-no-straights", "top-no-flushes", "three-vs-five"}
)


def rules_of(value: Rules | str | os.PathLike[str]) -> Rules:
    """Rules from a :class:`capsa.Rules`, a preset name or a rules file's path.

    Raises :class:`capsa.RulesError` for a file that cannot be read or holds
    bad rules (naming the key), ``TypeError`` for any other type."""
    if isinstance(value, Rules):
        return value
    if isinstance(value, str) and value in presets():
        return Rules.preset(value)
    if isinstance(value, str | os.PathLike):
        return Rules.load(Path(value))
    raise TypeError(f"rules are a capsa.Rules, a preset name or a path, not {type(value).__name__}")


# every knob a spec may change: the required ones, and those rules data may
# leave out (the deck, the rules of every house)
_SPEC_KNOBS = tuple(knob.name for knob in KNOBS if knob.type != "text")


def _knob(rules: Rules, name: str) -> Any:
    """A knob's value, None for an optional one the rules leave out."""
    try:
        return rules[name]
    except KeyError:
        return None


def spec_of(rules: Rules) -> RulesSpec:
    """``rules`` as the preset it differs least from and the knobs changed
    (its ``name`` kept when any knob is), so that the rules sent are exactly
    ``rules``."""
    best: RulesSpec | None = None
    for preset in presets():
        base = Rules.preset(preset)
        knobs: dict[str, Any] = {
            k: value
            for k in _SPEC_KNOBS
            if (value := _knob(rules, k)) is not None and value != _knob(base, k)
        }
        description = rules.to_dict().get("description")
        if description != base.to_dict().get("description") and description is not None:
            knobs["description"] = description
        if knobs or rules.name != base.name:
            knobs["name"] = rules.name
        spec = RulesSpec.of(preset, knobs)
        if best is None or len(spec.knobs) < len(best.knobs):
            best = spec
    assert best is not None
    return best


@dataclass(frozen=True)
class Rederived:
    """A vector's case under new rules: the ``case`` asked, capsa's ``expected``
    answer (the oracle's too) and the ``flags`` found in it."""

    case: Case
    expected: Any
    flags: list[str]


@lru_cache(maxsize=8192)
def _witness(case: Case) -> Any:
    """The oracle's answer (kept: the oracle is pure Python, and runs under the
    same rules ask the same cases)."""
    return oracle_answer(case)


def _reason(message: str) -> str:
    """An error message as a skip reason: numbers (seat indices) made alike, so
    that one reason counts every case it applies to."""
    return re.sub(r"\d+", "N", message)[:120]


def rederive(
    vector: Mapping[str, Any], case: Case, target: RulesSpec, reference: CapsaEngine
) -> Rederived | str:
    """The vector's case under ``target`` with capsa's answer, or why it is not
    asked (a string): capsa refuses the case under those rules, or capsa and
    the oracle disagree on it (a capsa bug, never blamed on the engine)."""
    new = Case(case.op, target, case.input)
    response = reference.handle(request_of(0, new))
    if "error" in response:
        return "not a valid case under the rules: " + _reason(str(response["error"]["message"]))
    expected = response["result"]
    if case.op != "digest":
        try:
            witness = _witness(new)
        except ValueError as exc:
            return "capsa answers, capsa.oracle refuses (a capsa bug): " + _reason(str(exc))
        if witness != expected:
            return "capsa and capsa.oracle disagree (a capsa bug)"
    given = vector.get("flags")
    own = {f for f in given if isinstance(f, str)} if isinstance(given, list) else set()
    own -= flags_of(case)
    flags = sorted(flags_of(new) | (own & _CARD_FLAGS))
    return Rederived(new, expected, flags)
