"""Knobs that trade off: another value of one, with its partners and the
numbers that follow it solved again, explains the answers as well.

``3 * scoop.multiplier + scoop.bonus`` is all a scoop shows when royalties
are not multiplied; ``row_points + overall_point`` all a round shows when no
row can tie. Such knobs are not determined, and so is every knob whose
answers would take another value with them.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from capsa.conformance.inference.knobs import candidates, get, with_knobs
from capsa.conformance.inference.probes import Probe
from capsa.conformance.inference.solving import Inferrer
from capsa.rules import Rules

__all__ = ["FIGURES", "PAIRS", "SOLVED_TOGETHER", "TradingParts"]

# why a partner of a knob not determined is not determined either
SOLVED_TOGETHER = "it was solved together with {}, which is not determined"

# Knobs only solved together (a multiplier and its bonus).
PAIRS = {
    "scoop.multiplier": "scoop.bonus",
    "sweep_all.multiplier": "sweep_all.bonus",
}
_NEAR = 2  # integer alternatives tried either side of the inferred value
# what every round's points are made of: solved again under any trial
FIGURES = (
    "row_points",
    "overall_point",
    "scoop.multiplier",
    "scoop.bonus",
    "sweep_all.multiplier",
    "sweep_all.bonus",
)


class TradingParts(Inferrer):
    """The trade-off check of the scoring knobs."""

    def trade(self, knob: str, partners: Sequence[str], probes: Sequence[Probe]) -> None:
        """Marks ``knob``, its partners and the knobs that follow them as not
        determined when another value of ``knob`` explains as many answers."""
        if knob not in self.probed or knob in self.undetermined:
            return
        kept = self.rules
        explained = [p for p in self.answered(probes) if self.matches(p, kept)]
        trials = []
        for value in self._alternatives(knob, kept):
            trial = self._trial(knob, value, partners, explained)
            if trial is not None:
                trials.append(trial)
        if not trials:
            return
        moved = [
            k for k in self.probed if k != knob and any(get(t, k) != get(kept, k) for t in trials)
        ]
        other = "; ".join(
            ", ".join(f"{k} = {_json(get(trial, k))}" for k in [knob, *moved])
            for trial in trials[:4]
        )
        ours = ", ".join(f"{k} = {_json(get(kept, k))}" for k in [knob, *moved])
        why = (
            f"the answers show only a combination of {', '.join([knob, *moved])}: "
            f"{other} explain(s) them as well as {ours} (kept)"
        )
        self.ambiguity([knob, *moved], trials, why)
        for trial in trials:
            self._depending(knob, trial)

    def _alternatives(self, knob: str, rules: Rules) -> list[Any]:
        current = get(rules, knob)
        values = [v for v in candidates(knob, rules) if v != current]
        if isinstance(current, int) and not isinstance(current, bool):
            values = [v for v in values if abs(v - current) <= _NEAR]
        return values

    def _trial(
        self, knob: str, value: Any, partners: Sequence[str], explained: Sequence[Probe]
    ) -> Rules | None:
        """The rules with ``knob = value``, its partners and then the numbers of
        the answers it leaves unexplained solved again; None unless they
        explain every answer the inferred rules explain."""
        kept = self.rules
        own = self._probes_of(knob)
        self.trying = True
        try:
            self.rules = with_knobs(kept, {knob: value})
            for _ in range(2):  # a partner's probes may hold another partner
                for partner in partners:
                    self.solve(partner, self._probes_of(partner) or own)
            self._follow([knob, *partners], explained)
            trial = self.rules
        finally:
            self.rules, self.trying = kept, False
        return trial if all(self.matches(p, trial) for p in explained) else None

    def _follow(self, fixed: Sequence[str], explained: Sequence[Probe]) -> None:
        """Solves again the integer knobs of the answers the current (trial)
        rules leave unexplained (the knobs those probes showed, and the
        figures every round is made of), a multiplier and its bonus together."""
        for _ in range(2):
            wrong = {p.name for p in explained if not self.matches(p, self.rules)}
            if not wrong:
                return
            knobs = [
                k
                for k, names in self.probed.items()
                if k not in fixed
                and (k in FIGURES or wrong & set(names))
                and _is_int(get(self.rules, k))
            ]
            for k in knobs:
                probes = self._probes_of(k)
                if k in PAIRS and PAIRS[k] in knobs:
                    if not self.solve(k, probes) and not self.consistent(probes):
                        self.solve_jointly(k, PAIRS[k], probes)
                elif k not in PAIRS.values() or not any(PAIRS.get(f) == k for f in knobs):
                    self.solve(k, probes)

    def _depending(self, knob: str, trial: Rules) -> None:
        """Marks each determined knob whose answers, under the ``trial`` rules,
        do not fit its value alone as not determined: it depends on ``knob``."""
        for k in list(self.probed):
            if k in self.undetermined:
                continue
            probes = [p for p in self.answered(self._probes_of(k)) if p.op == "settle"]
            if all(self.expect(p, trial) == self.expect(p, self.rules) for p in probes):
                continue  # the trial changes none of its answers
            fit = [
                v
                for v in candidates(k, trial)
                if all(self.matches(p, with_knobs(trial, {k: v})) for p in probes)
            ]
            current = get(self.rules, k)
            if fit and fit != [current]:
                shown = ", ".join(_json(v) for v in fit[:6])
                self.undetermine(
                    k,
                    f"its answers depend on {knob}, not determined (with {knob} = "
                    f"{_json(get(trial, knob))}, they fit {k} = {shown}; kept {_json(current)})",
                )

    def suspects(self) -> None:
        """Marks each determined knob whose answers also depend on a knob no value
        of which explains its own answers as not determined: its value was
        solved against a wrong one."""
        for knob in list(self.probed):
            if knob in self.undetermined:
                continue
            probes = [p for p in self.answered(self._probes_of(knob)) if p.op == "settle"]
            wrong = next((u for u in sorted(self.misfit) if self._shifts(u, probes)), None)
            if probes and wrong is not None:
                self.undetermine(
                    knob, f"its answers also depend on {wrong}, no value of which explains its own"
                )

    def _shifts(self, knob: str, probes: Sequence[Probe]) -> bool:
        """Whether another value of ``knob`` changes capsa's answer to a probe."""
        for value in self._alternatives(knob, self.rules)[:4]:
            other = with_knobs(self.rules, {knob: value})
            if any(self.expect(p, self.rules) != self.expect(p, other) for p in probes):
                return True
        return False

    def _probes_of(self, knob: str) -> list[Probe]:
        return [self.probes[n] for n in self.probed.get(knob, [])]


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _json(value: Any) -> str:
    return json.dumps(value)
