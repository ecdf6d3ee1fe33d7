"""The inference's core: asking probes, capsa's answer under candidate rules,
choosing and solving knob values, and the verification of every answer."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from capsa.conformance.engines import Engine
from capsa.conformance.inference.knobs import (
    all_knobs,
    candidates,
    get,
    int_range,
    integers,
    spec_of,
    with_knobs,
)
from capsa.conformance.inference.probes import Probe
from capsa.conformance.inference.result import Observation
from capsa.conformance.inference.rows import DEFECT_MET, rows_meeting
from capsa.conformance.inference.wording import show
from capsa.conformance.protocol import Case, request_of
from capsa.conformance.serve import CapsaEngine
from capsa.rules import Rules

__all__ = ["NOT_ZERO_SUM", "Answer", "Inferrer"]

_JOINT = 12  # values of the first of two knobs tried when only both together fit
NOT_ZERO_SUM = "its points do not sum to zero"  # why such an answer is set aside

# ------------------------------------------------------------------ the inference


Answer = tuple[str, Any]  # ("ok", result) or ("error", kind)


class Inferrer:
    """The state of one inference: the engine, the rules inferred so far, every
    answer, and the findings (knobs shown by which probes, not probed, not
    determined, observations). The parts (ranking, settling) subclass it."""

    def __init__(self, engine: Engine, base: Rules, hello: dict[str, Any]) -> None:
        self.engine = engine
        self.base = base
        self.spec = spec_of(base)
        self.hello = hello
        self.ops = set(hello.get("ops", []))
        self.money = bool(hello.get("money"))
        self.rules = base
        self.answers: dict[str, Answer] = {}
        self.probes: dict[str, Probe] = {}
        self.probed: dict[str, list[str]] = {}  # knob -> the probes whose answers showed it
        self.not_probed: dict[str, str] = {}
        self.undetermined: dict[str, str] = {}
        # knob -> why every value, or the ones named, give the same answers
        self.equivalent: dict[str, str] = {}
        # (knobs, the changes that explain every answer as well, why they are undetermined)
        self.ambiguous: list[tuple[tuple[str, ...], list[dict[str, Any]], str]] = []
        self.unusable: dict[str, str] = {}  # probe -> why its answer is not solved from
        # non-zero-sum answers matched on their payers only: all seats but one as capsa's
        self.partial: set[str] = set()
        self.natural_after: dict[str, set[str]] = {}
        self.not_zero_sum: set[int] = set()  # table sizes whose answers are set aside
        self.fouls_never = hello.get("fouls") == "never"
        self.notes: list[str] = []
        self.trying = False  # solving under trial values: nothing is noted
        self.settled_rules: Rules | None = None  # the rules as the scoring was solved
        self.misfit: set[str] = set()  # knobs no value of which explains their answers
        # category pairs the engine ranks otherwise than every ranking (a defect)
        self.defects_found: set[tuple[str, str]] = set()
        self._requests: dict[str, dict[str, Any]] = {}
        self._expected: dict[tuple[str, Rules], dict[str, Any]] = {}
        self.observations: list[Observation] = []
        self.capsa = CapsaEngine()
        self.asked = 0
        self._next_id = 1

    # ---------------------------------------------------------- asking

    def ask(self, probes: Iterable[Probe]) -> None:
        """Sends the probes not asked yet (of the ops the engine supports)."""
        fresh = [p for p in probes if p.name not in self.answers and p.op in self.ops]
        if not fresh:
            return
        requests = []
        for probe in fresh:
            self.probes[probe.name] = probe
            requests.append((self._next_id, self.case_of(probe)))
            self._next_id += 1
        outcomes = self.engine.exchange(requests)
        self.asked += len(requests)
        for probe, outcome in zip(fresh, outcomes, strict=True):
            response = outcome.response or {}
            if outcome.status != "ok":
                self.answers[probe.name] = ("failed", outcome.detail)
            elif "error" in response:
                error = response["error"]
                kind = error.get("kind") if isinstance(error, dict) else None
                self.answers[probe.name] = ("error", kind)
            else:
                self.answers[probe.name] = ("ok", response.get("result"))
            self._check_zero_sum(probe)
            self._check_defects(probe)

    def _check_defects(self, probe: Probe) -> None:
        """Sets aside a settle answer one of whose rows meets a ranking defect
        the engine showed: no rules explain it, and no knob is fitted to it."""
        if probe.op != "settle" or not self.defects_found:
            return
        met = rows_meeting(probe.input["round"]["seats"], self.defects_found, self.rules)
        if met:
            self.unusable.setdefault(probe.name, f"{DEFECT_MET} ({met})")

    def _check_zero_sum(self, probe: Probe) -> None:
        points = self.points(probe)
        if points is not None and sum(points) != 0:
            self.unusable[probe.name] = NOT_ZERO_SUM

    def points(self, probe: Probe) -> tuple[int, ...] | None:
        """The points of a settle answer, when it has integer points."""
        answer = self.answers.get(probe.name)
        if probe.op != "settle" or answer is None or answer[0] != "ok":
            return None
        result = answer[1]
        return integers(result.get("points")) if isinstance(result, dict) else None

    def has_answer(self, probe: Probe) -> bool:
        """Whether the engine answered (a result or an error other than unsupported)."""
        answer = self.answers.get(probe.name)
        return answer is not None and answer[0] != "failed" and answer != ("error", "unsupported")

    def got(self, probe: Probe) -> Any:
        """The engine's answer in comparable form (None: a null result, or no answer)."""
        if not self.has_answer(probe):
            return None
        return self._view(probe, self.answers[probe.name])

    def expect(self, probe: Probe, rules: Rules) -> Any:
        """capsa's answer to ``probe`` under ``rules``, in the form :meth:`got` gives."""
        key = (probe.name, rules)
        if key not in self._expected:
            self._expected[key] = self.capsa.handle(self._request_of(probe), rules)
        response = self._expected[key]
        answer: Answer = ("ok", response["result"]) if "result" in response else ("error", None)
        return self._view(probe, answer)

    def case_of(self, probe: Probe) -> Case:
        """The case a probe asks under the base rules. Under a banker game a
        round also names the banker (seat 1: seat 0 plays it as in any pair)
        and each seat's multiplier (1), unless the probe gives them."""
        case = probe.case(self.spec)
        if probe.op != "settle" or not self.base["banker.enabled"]:
            return case
        round_ = dict(probe.input["round"])
        if "banker" in round_:
            return case
        round_["banker"] = 1
        round_["multipliers"] = [1] * len(round_["seats"])
        return Case(probe.op, self.spec, {**probe.input, "round": round_})

    def _request_of(self, probe: Probe) -> dict[str, Any]:
        if probe.name not in self._requests:
            self._requests[probe.name] = request_of(0, self.case_of(probe))
        return self._requests[probe.name]

    def _view(self, probe: Probe, answer: Answer) -> Any:
        if answer[0] != "ok":
            return ("error",)
        result = answer[1]
        if probe.op != "settle":
            return result
        points = integers(result.get("points")) if isinstance(result, dict) else None
        if points is None:
            return ("malformed", show(result))
        if probe.money and self.money:
            rake = integers(result.get("rake"))
            return (points, rake) if rake is not None else ("malformed", show(result))
        return points

    def answered(self, probes: Iterable[Probe]) -> list[Probe]:
        """The probes whose answers are solved from: answered, and not set aside
        (a non-zero-sum answer, a table size where the engine is not zero-sum)."""
        return [
            p
            for p in probes
            if self.has_answer(p) and (p.name not in self.unusable or p.name in self.partial)
        ]

    def declared_not_zero_sum(self) -> set[int]:
        """The table sizes the engine's hello declares not zero-sum."""
        claim = self.hello.get("not_zero_sum")
        seats = claim.get("seats") if isinstance(claim, dict) else None
        if not isinstance(seats, list):
            return set()
        return {s for s in seats if isinstance(s, int) and not isinstance(s, bool)}

    # ---------------------------------------------------------- bookkeeping

    def note(self, knobs: Iterable[str], probes: Iterable[Probe]) -> None:
        """Records that ``probes`` showed ``knobs`` (not while trying values)."""
        if self.trying:
            return
        names = [p.name for p in probes]
        for knob in knobs:
            self.probed.setdefault(knob, [])
            self.probed[knob] += [n for n in names if n not in self.probed[knob]]

    def skip(self, knobs: Iterable[str], why: str) -> None:
        """Marks knobs no probe showed as not probed, saying why."""
        for knob in knobs:
            if knob not in self.probed and knob not in self.undetermined | self.equivalent:
                self.not_probed.setdefault(knob, f"{knob}: {why}")

    def moot(self, knobs: Iterable[str], why: str) -> None:
        """Marks knobs no answer can depend on under the inferred rules as
        equivalent: every value plays the same, and the file keeps one."""
        for knob in knobs:
            if knob not in self.probed and knob not in self.undetermined:
                self.equivalent.setdefault(knob, f"{knob}: any value gives the same answers: {why}")
                self.not_probed.pop(knob, None)

    def ambiguity(self, knobs: Sequence[str], alternatives: Sequence[Rules], why: str) -> None:
        """Marks knobs not determined because ``alternatives`` explain every answer
        as the current rules do; a case that tells them apart may settle it.
        What is kept of each alternative is the knobs it changes."""
        for knob in knobs:
            self.undetermine(knob, why)
        if self.trying or not alternatives:
            return
        changes = [
            {
                k: get(other, k)
                for k in all_knobs(other) | all_knobs(self.rules)  # a royalty of 0 is no entry
                if get(other, k) != get(self.rules, k)
            }
            for other in alternatives
        ]
        self.ambiguous.append((tuple(knobs), [c for c in changes if c], why))

    def undetermine(self, knob: str, why: str) -> None:
        """Marks a knob as not determined (its value in the rules is kept, flagged)."""
        self.undetermined.setdefault(knob, f"{knob}: {why}")
        self.not_probed.pop(knob, None)

    # ---------------------------------------------------------- solving

    def choose(self, candidates: Sequence[Mapping[str, Any]], probes: Sequence[Probe]) -> bool:
        """Keeps the first candidate (knob changes) consistent with every answer,
        the current values when they are; True when the rules changed."""
        answered = self.answered(probes)
        if not answered:
            return False
        knobs = sorted({k for c in candidates for k in c})
        current = {k: get(self.rules, k) for k in knobs}
        predictions = []
        for candidate in candidates:
            rules = with_knobs(self.rules, candidate)
            predictions.append([self.expect(p, rules) for p in answered])
        if all(pred == predictions[0] for pred in predictions):
            return False  # no probe tells these values apart
        showing = [
            p
            for k, p in enumerate(answered)
            if len({json.dumps(pred[k], sort_keys=True) for pred in predictions}) > 1
        ]
        self.note(knobs, showing)
        consistent = [
            c
            for c, pred in zip(candidates, predictions, strict=True)
            if all(self._fits(p, e) for p, e in zip(answered, pred, strict=True))
        ]
        if not consistent or any(
            all(get(self.rules, k) == v for k, v in c.items()) for c in consistent
        ):
            return False
        chosen = consistent[0]
        if all(current[k] == v for k, v in chosen.items()):
            return False
        self.rules = with_knobs(self.rules, chosen)
        return True

    def consistent(self, probes: Iterable[Probe], rules: Rules | None = None) -> bool:
        """Whether capsa under ``rules`` (the current ones) gives every answer."""
        rules = rules or self.rules
        return all(self.matches(p, rules) for p in self.answered(probes))

    def matches(self, probe: Probe, rules: Rules) -> bool:
        """Whether capsa under ``rules`` gives the engine's answer to ``probe`` (for
        an answer kept on its payers only, every seat but one that collects more)."""
        return self._fits(probe, self.expect(probe, rules))

    def _fits(self, probe: Probe, expected: Any) -> bool:
        got = self.got(probe)
        if probe.name not in self.partial:
            return bool(expected == got)
        if not isinstance(expected, tuple) or len(expected) != len(got):
            return False
        extra = [g - e for g, e in zip(got, expected, strict=True) if g != e]
        return len(extra) == 1 and extra[0] > 0

    def solve_jointly(self, first: str, second: str, probes: Sequence[Probe]) -> bool:
        """Tries the first few values of ``first`` with ``second`` solved for
        each; keeps the first pair that explains the answers."""
        kept = self.rules
        low = int_range(first)[0]
        for value in range(low, low + _JOINT):
            self.rules = with_knobs(kept, {first: value})
            self.solve(second, probes)
            if self.consistent(probes):
                return True
        self.rules = kept
        return False

    def solve(self, knob: str, probes: Sequence[Probe]) -> bool:
        """Solves an integer knob from seat 0's points in each answered probe (the
        others held); True when the value changed."""
        low, high = int_range(knob)
        answered = self.answered(probes)
        current = get(self.rules, knob)
        if not answered or current is None:
            return False
        if self.trying and self.consistent(answered):
            return False  # nothing to note while trying values, nothing to solve

        def points(value: int, probe: Probe) -> int | None:
            if not low <= value <= high:
                return None
            seen = self.expect(probe, with_knobs(self.rules, {knob: value}))
            if isinstance(seen, tuple) and seen and isinstance(seen[0], int):
                return int(seen[0])
            return None

        # a royalty below the row point it replaces shows nothing near it
        far = (max(low, current) if isinstance(current, int) else low) + 64
        shown = [
            p
            for p in answered
            if points(low, p) != points(low + 1, p)
            or points(current, p) != points(current + 1, p)
            or points(far, p) != points(far + 1, p)
        ]
        if not shown:
            return False
        self.note([knob], shown)
        if all(self.matches(p, self.rules) for p in answered):
            return False
        for probe in shown:
            got = self.got(probe)
            target = got[0] if isinstance(got, tuple) and got and isinstance(got[0], int) else None
            if target is None:
                continue
            for a in (low, max(low, current), max(low, current) + 64):
                fa, fb = points(a, probe), points(a + 1, probe)
                if fa is None or fb is None or fa == fb or (target - fa) % (fb - fa):
                    continue
                value = a + (target - fa) // (fb - fa)
                if not low <= value <= high:
                    continue
                trial = with_knobs(self.rules, {knob: value})
                if all(self.matches(p, trial) for p in answered):
                    if value != current:
                        self.rules = trial
                        return True
                    return False
        return False

    # ---------------------------------------------------------- deciding

    def classify(self, knob: str) -> bool:
        """Decides a knob some probe showed, from the values of it that fit every
        answer of its probes (the others held): one value is determined (True
        when it is not the current one, which it becomes); none, or several,
        are not determined; all of them mean no answer depends on it."""
        if knob in self.undetermined or not self.probed.get(knob):
            return False
        probes = self.answered(self.probes[n] for n in self.probed[knob])
        names = ", ".join(self.probed[knob])
        if not probes:
            self.undetermine(knob, f"the answers to {names} are set aside (see the observations)")
            return False
        values = candidates(knob, self.rules)
        current = get(self.rules, knob)
        fit = [v for v in values if self.consistent(probes, with_knobs(self.rules, {knob: v}))]
        if len(fit) == len(values):
            self.probed.pop(knob)
            self.skip([knob], "no answer depends on it under the inferred rules (any value fits)")
        elif not fit:
            self.misfit.add(knob)
            self.undetermine(
                knob, f"no value of it explains the answers to {names} (kept {_json(current)})"
            )
        elif len(fit) > 1:
            shown = ", ".join(_json(v) for v in fit[:8]) + (", ..." if len(fit) > 8 else "")
            others = [with_knobs(self.rules, {knob: v}) for v in fit if v != current]
            self.ambiguity(
                [knob],
                others,
                f"the answers to {names} fit {knob} = {shown} (kept {_json(current)})",
            )
        elif fit[0] != current:
            self.rules = with_knobs(self.rules, {knob: fit[0]})
            return True
        return False


def _json(value: Any) -> str:
    return json.dumps(value)
