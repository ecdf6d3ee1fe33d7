"""What an engine's ``hello`` claims, as ``infer`` uses it.

* ``rules`` (the full rules data it plays), else ``preset``: the base the
  probes are sent under, unless the caller gives one;
* ``knobs``: a knob claimed with one value is set in the base (the engine
  supports only that value), and every claim is checked against the
  answers at the end (a determined value outside the claim is an
  observation);
* ``not_zero_sum``: its table sizes are not solved from (``settling``);
* ``fouls: "never"``: no fouled round is asked (``settling``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from capsa.conformance.inference.knobs import get, with_knobs
from capsa.conformance.inference.result import Observation
from capsa.conformance.inference.wording import show
from capsa.rules import DEFAULT_PRESET, Rules, RulesError, presets

__all__ = ["base_rules", "claim_observations"]


def base_rules(base: str | Rules | None, hello: Mapping[str, Any]) -> tuple[Rules, list[str]]:
    """The rules to probe under, and notes on the hello claims used or refused.

    Raises ``RulesError`` for an unknown preset given as ``base``."""
    if isinstance(base, Rules):
        return base, []
    if base is not None:
        return Rules.preset(base), []
    rules, notes = _claimed_base(hello)
    return _with_single_claims(rules, hello, notes)


def _claimed_base(hello: Mapping[str, Any]) -> tuple[Rules, list[str]]:
    data = hello.get("rules")
    if isinstance(data, dict):
        try:
            return Rules(data), ['probed under the rules the engine\'s hello claims ("rules")']
        except (RulesError, TypeError, ValueError) as exc:
            note = f"the engine's hello claims rules that capsa refuses ({show(str(exc))})"
            return _named_base(hello, [note])
    return _named_base(hello, [])


def _named_base(hello: Mapping[str, Any], notes: list[str]) -> tuple[Rules, list[str]]:
    named = hello.get("preset")
    if named is None:
        return Rules.preset(DEFAULT_PRESET), notes
    if isinstance(named, str) and named in presets():
        return Rules.preset(named), notes
    note = (
        f"the engine's hello names the preset {show(named)}, which is not one of capsa's "
        f"({', '.join(presets())}): probed under {DEFAULT_PRESET}"
    )
    return Rules.preset(DEFAULT_PRESET), [*notes, note]


def _with_single_claims(
    rules: Rules, hello: Mapping[str, Any], notes: list[str]
) -> tuple[Rules, list[str]]:
    """``rules`` with every knob the hello claims a single value of set to it."""
    claims = hello.get("knobs")
    if not isinstance(claims, dict):
        return rules, notes
    for knob, values in claims.items():
        if not isinstance(values, list) or len(values) != 1 or not isinstance(knob, str):
            continue
        try:
            rules = with_knobs(rules, {knob: values[0]})
        except (RulesError, TypeError, ValueError, KeyError) as exc:
            notes.append(f"the hello claim {show(knob)} = {show(values)} is not used ({exc})")
    return rules, notes


def claim_observations(
    hello: Mapping[str, Any], rules: Rules, determined: Mapping[str, list[str]]
) -> list[Observation]:
    """An observation for each knob the hello claims whose determined value is
    not among the values claimed."""
    claims = hello.get("knobs")
    if not isinstance(claims, dict):
        return []
    out = []
    for knob, values in claims.items():
        if knob not in determined or not isinstance(values, list):
            continue
        value = get(rules, knob)
        if value not in values:
            probes = determined[knob]
            message = (
                f"the engine's hello claims {knob} in {show(values)}, but its answers to "
                f"{', '.join(probes)} show {knob} = {show(value)}"
            )
            name = probes[0] if probes else "hello"
            out.append(Observation(name, (knob,), message, kind="claim"))
    return out
