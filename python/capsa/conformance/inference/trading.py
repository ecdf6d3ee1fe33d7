"""Knobs that trade off: another value of one, with its partners and the
numbers that follow it solved again, explains the answers as well.

``3 * scoop.multiplier + scoop.bonus`` is all a scoop shows when royalties
are not multiplied; ``row_points + overall_point`` all a round shows when no
row can tie. Such knobs are not determined, and so is every knob whose
answers would take another value with them.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Mapping, Sequence
from typing import Any

from capsa.conformance.inference.knobs import candidates, get, with_knobs
from capsa.conformance.inference.probes import Probe
from capsa.conformance.inference.rounds import own_round
from capsa.conformance.inference.solving import Inferrer
from capsa.rules import Rules

__all__ = ["FIGURES", "PAIRS", "PARTNERS", "SOLVED_TOGETHER", "SWITCHES", "TradingParts"]

# why a partner of a knob not determined is not determined either
SOLVED_TOGETHER = "it was solved together with {}, which is not determined"

# Knobs only solved together (a multiplier and its bonus).
PAIRS = {
    "scoop.multiplier": "scoop.bonus",
    "sweep_all.multiplier": "sweep_all.bonus",
}
# knob -> the knobs solved again when it takes another value (empty: every royalty)
PARTNERS: dict[str, tuple[str, ...]] = {
    "row_points": ("overall_point",),
    "overall_point": ("row_points",),
    "scoop.multiplier": ("scoop.bonus",),
    "scoop.bonus": ("scoop.multiplier",),
    "sweep_all.multiplier": ("sweep_all.bonus",),
    "sweep_all.bonus": ("sweep_all.multiplier",),
    "foul.mode": ("foul.points",),
    # a scoop paid as a sweep pays at every table size
    "sweep_all.min_players": ("scoop.multiplier", "scoop.bonus"),
    "royalty_adds": (),
    "royalty_mode": (),
}
_NEAR = 2  # integer alternatives tried either side of the inferred value
# switch -> the knobs whose trial values may bring it into play
SWITCHES = {
    "scoop.multiply_royalties": PAIRS.keys() | PAIRS.values(),
    "foul.pays_royalties": {"foul.mode", "foul.points"},
    "royalty_adds": {"royalty_mode", "royalties"},
}
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
            trial = self._trial({knob: value}, partners, explained)
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

    def better(
        self, knobs: Sequence[str], partners: Sequence[str], probes: Sequence[Probe]
    ) -> list[Rules]:
        """The rules with other values of ``knobs`` (every combination of their
        alternatives that changes some answer), their partners
        and the numbers that follow them solved again, that explain more
        answers than the inferred rules: the passes settle on the first values
        that fit, and royalties solved under a wrong ``royalty_adds`` fit every
        answer but a foul's."""
        if not any(k in self.probed for k in knobs):
            return []
        answered = self.answered(probes)
        explained = [p for p in answered if self.matches(p, self.rules)]
        if len(explained) == len(answered):
            return []
        # a partner no answer read under the rules kept is solved from every probe showing it
        sources = {k: [p for p in probes if k in p.knobs] for k in partners}
        choices = [[get(self.rules, k), *self._alternatives(k, self.rules)] for k in knobs]
        out = []
        for values in itertools.product(*choices):
            changes = {k: v for k, v in zip(knobs, values, strict=True) if v != get(self.rules, k)}
            moved = with_knobs(self.rules, changes)
            if all(self.expect(p, moved) == self.expect(p, self.rules) for p in answered):
                continue  # the values kept, or values no answer reads
            trial = self._trial(changes, partners, answered, sources, every=False)
            if trial is not None and sum(self.matches(p, trial) for p in answered) > len(explained):
                out.append(trial)
        return out

    def _alternatives(self, knob: str, rules: Rules) -> list[Any]:
        current = get(rules, knob)
        values = [v for v in candidates(knob, rules) if v != current]
        if isinstance(current, int) and not isinstance(current, bool):
            values = [v for v in values if abs(v - current) <= _NEAR]
        return values

    def _trial(
        self,
        changes: Mapping[str, Any],
        partners: Sequence[str],
        explained: Sequence[Probe],
        sources: Mapping[str, Sequence[Probe]] | None = None,
        every: bool = True,
    ) -> Rules | None:
        """The rules with ``changes``, the partners (from their probes, else those
        ``sources`` names) and then the numbers of the answers they leave
        unexplained solved again; None unless they explain every answer of
        ``explained`` (with ``every``, else whatever they explain)."""
        kept = self.rules
        own = [p for k in changes for p in self._probes_of(k)]
        found = sources or {}
        self.trying = True
        try:
            self.rules = with_knobs(kept, changes)
            for _ in range(2):  # a partner's probes may hold another partner
                for partner in partners:
                    shown = self._probes_of(partner) or found.get(partner) or own
                    self.solve(partner, own_round(partner, shown))
                    self.solve(partner, shown)
            self._follow([*changes, *partners], explained)
            self._flip([*changes, *partners], explained)
            trial = self.rules
        finally:
            self.rules, self.trying = kept, False
        return trial if not every or all(self.matches(p, trial) for p in explained) else None

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

    def _flip(self, fixed: Sequence[str], explained: Sequence[Probe]) -> None:
        """Takes the other value of each switch a multiplier or a foul brings in
        (:data:`SWITCHES`) when it, with the numbers solved again, explains
        more of the answers: ``scoop.multiplier = 3`` traded for a bonus of 9
        holds only with royalties not multiplied."""
        for knob, triggers in SWITCHES.items():
            if knob in fixed or not any(_family(k) in triggers for k in fixed):
                continue
            kept = self.rules
            wrong = [p for p in explained if not self.matches(p, kept)]
            flipped = with_knobs(kept, {knob: not get(kept, knob)})
            if all(self.expect(p, flipped) == self.expect(p, kept) for p in wrong):
                continue  # it changes no answer left unexplained
            self.rules = flipped
            self._follow([*fixed, knob], explained)
            if sum(self.matches(p, self.rules) for p in explained) <= len(explained) - len(wrong):
                self.rules = kept
            elif self.consistent(explained):
                return

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


def _family(knob: str) -> str:
    """A knob's name, or ``royalties`` for a royalty."""
    return "royalties" if knob.startswith("royalties.") else knob


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _json(value: Any) -> str:
    return json.dumps(value)
