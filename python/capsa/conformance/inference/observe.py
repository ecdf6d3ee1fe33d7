"""The last step of an inference: every answer checked under the inferred rules.

An answer capsa does not reproduce under the inferred rules is an
:class:`Observation` naming its probe; settle answers that do not sum to
zero are described together, per table size, as the formula they follow
("the sweeper collects 15 and the other seat pays it 6").
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import capsa
from capsa.conformance.inference.defects import DEFECT_NOTE, defect_message, shows_defect
from capsa.conformance.inference.probes import Probe
from capsa.conformance.inference.result import Observation
from capsa.conformance.inference.rows import DEFECT_MET
from capsa.conformance.inference.solving import Inferrer
from capsa.conformance.inference.wording import show
from capsa.conformance.protocol import request_of
from capsa.conformance.serve import _seat
from capsa.rules import Rules

__all__ = ["ObservingParts", "hint"]


class ObservingParts(Inferrer):
    """The verification of every answer under the inferred rules."""

    def verify(self) -> None:
        """Adds an observation for each answer the inferred rules do not give."""
        skewed: dict[int, list[Probe]] = {}
        for name, probe in self.probes.items():
            answer = self.answers[name]
            if answer[0] == "failed":
                message = f"{probe.why}: the engine failed: {answer[1]}"
                self.observations.append(
                    Observation(name, probe.knobs, message, self.request(probe))
                )
                continue
            if not self.has_answer(probe):
                continue
            points = self.points(probe)
            if points is not None and sum(points) != 0:
                skewed.setdefault(len(points), []).append(probe)
                continue
            got, expected = self.got(probe), self.expect(probe, self.rules)
            if got == expected:
                continue
            extra = hint(probe, got, expected, self.rules)
            aside = self.unusable.get(name, "")
            if aside.startswith(DEFECT_MET):
                message = (
                    f"{probe.why}: the engine answered {show(got)}, the inferred rules give "
                    f"{show(expected)}; {aside}: no rules explain it"
                )
                request = self.request(probe)
                self.observations.append(Observation(name, (), message, request, "ranking-defect"))
                continue
            if shows_defect(probe):
                message = defect_message(probe, got, expected) + extra
                request = self.request(probe)
                self.observations.append(Observation(name, (), message, request, "ranking-defect"))
                continue
            knobs = f"no value of {', '.join(probe.knobs)}" if probe.knobs else "no knob"
            message = (
                f"{probe.why}: the engine answered {show(got)}, the inferred rules give "
                f"{show(expected)}; {knobs} explains it{extra}"
            )
            self.observations.append(Observation(name, probe.knobs, message, self.request(probe)))
        for size, probes in sorted(skewed.items()):
            # named after a probe written for it, the dealt rounds last
            probes.sort(key=lambda p: p.name.startswith(("separate-", "dealt-")))
            self.observations.append(self._not_zero_sum(size, probes))
        if any(o.kind == "ranking-defect" for o in self.observations):
            self.notes.append(DEFECT_NOTE)

    def _not_zero_sum(self, size: int, probes: Sequence[Probe]) -> Observation:
        """One observation for the answers at ``size`` seats that do not sum to
        zero: the formula they follow, grouped, with examples."""
        groups: dict[str, list[str]] = {}
        for probe in probes:
            formula, example = self._formula(probe)
            groups.setdefault(formula, []).append(example)
        parts = []
        for formula, examples in groups.items():
            more = f"; and {len(examples) - 2} more" if len(examples) > 2 else ""
            count = f"{len(examples)} answer(s)"
            parts.append(f"{formula}, in {count} ({'; '.join(examples[:2])}{more})")
        declared = size in self.declared_not_zero_sum()
        said = (
            "the engine declares it in hello"
            if declared
            else 'the engine does not declare it: add "not_zero_sum" to its hello'
        )
        message = (
            f"at {size} seats the points do not sum to zero ({said}): "
            + "; ".join(parts)
            + "; these answers are not solved from"
        )
        first = probes[0]
        kind = "declared-not-zero-sum" if declared else "not-zero-sum"
        return Observation(first.name, first.knobs, message, self.request(first), kind)

    def _formula(self, probe: Probe) -> tuple[str, str]:
        """What one non-zero-sum answer pays: the formula in words, and the example."""
        points = list(self.points(probe) or ())
        expected = self.expect(probe, self.rules)
        if isinstance(expected, tuple) and expected and isinstance(expected[0], int):
            extra = [a - int(e) for a, e in zip(points, expected, strict=True)]
            seats = [k for k, d in enumerate(extra) if d]
            if len(seats) == 1:
                return self._one_seat(probe, seats[0], points, extra[seats[0]])
        return "the points sum to something else", f"{probe.name}: {points}"

    def _one_seat(self, probe: Probe, seat: int, points: list[int], extra: int) -> tuple[str, str]:
        pays = _paid_to(probe, seat, self.rules)
        more = "more" if extra > 0 else "less"
        if pays is None:
            formula = f"one seat collects {abs(extra)} {more} than the inferred rules give it"
            return formula, f"{probe.name}: seat {seat} collects {points[seat]}"
        formula = (
            f"a seat that wins every row against everyone collects {abs(extra)} {more} "
            "than the others pay it"
        )
        if len(set(pays)) == 1:
            others = "the other seat pays" if len(pays) == 1 else "every other seat pays"
            paid = f"{others} it {pays[0]}"
        else:
            paid = f"the others pay it {', '.join(map(str, pays))}"
        return formula, f"{probe.name}: the sweeper collects {points[seat]} and {paid}"

    def request(self, probe: Probe) -> dict[str, Any]:
        """The probe's request, to replay it (no id, no rules)."""
        request = request_of(0, self.case_of(probe))
        request.pop("id", None)
        request.pop("rules", None)
        return request


def _paid_to(probe: Probe, seat: int, rules: Rules) -> list[int] | None:
    """What each other seat pays ``seat`` under ``rules`` when it wins every row
    against each of them; None when it does not."""
    seats = [_seat(s, k) for k, s in enumerate(probe.input["round"]["seats"])]
    try:
        detail = capsa.settle(seats, rules)
    except capsa.CapsaError:
        return None
    pays = []
    for pair in detail.pairs:
        if seat not in pair["seats"]:
            continue
        sign = 1 if pair["seats"][0] == seat else -1
        beaten = pair["outcome"] == "foul" and pair["points"] * sign > 0  # the other fouled
        if not beaten and (pair["outcome"] != "rows" or pair["scoop"] * sign <= 0):
            return None
        pays.append(pair["points"] * sign)
    return pays


def hint(probe: Probe, got: Any, expected: Any, rules: Rules) -> str:
    """A few words on a known rule that explains an observation, when one does."""
    rake_only = isinstance(got, tuple) and isinstance(expected, tuple) and len(got) == 2
    stake = probe.input["round"]["stakes"] if probe.op == "settle" else None
    if probe.money and rake_only and got[0] == expected[0] and isinstance(stake, int):
        rate = rules["money.rake_basis_points"]
        money = [p * stake for p in got[0]]
        ceiled = tuple(-(-rate * m // 10000) if m > 0 else 0 for m in money)
        if ceiled == got[1]:
            shown = f"{rate} basis points ({rate / 100:g}%)"
            return f" (the engine rounds the rake of {shown} up, not down)"
    if probe.money and rake_only and got[0] == expected[0] and rules["money.rake_cap_per_round"]:
        short = sum(expected[1]) - sum(got[1])
        winners = sum(1 for r in expected[1] if r > 0)
        if 0 < short < winners and all(g <= e for g, e in zip(got[1], expected[1], strict=True)):
            return (
                " (the engine rounds each share of the round cap down and takes no unit left "
                "over, not by largest remainders)"
            )
    if probe.name.startswith("top-no-") or probe.name.startswith("category-top-"):
        return " (the engine gives three-card hands straights or flushes)"
    if probe.name == "natural-over-foul":
        return " (the engine lets the fouled rows decide, not the declared natural)"
    return ""
