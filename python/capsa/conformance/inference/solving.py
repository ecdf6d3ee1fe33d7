"""The inference's core: asking probes, capsa's answer under candidate rules,
choosing and solving knob values, and the verification of every answer."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from capsa.conformance.engines import Engine
from capsa.conformance.inference.knobs import get, integers, spec_of, with_knobs
from capsa.conformance.inference.probes import Probe
from capsa.conformance.inference.result import Observation, show
from capsa.conformance.protocol import request_of
from capsa.conformance.serve import CapsaEngine
from capsa.rules import _INT_MAX, _INTS, Rules

__all__ = ["Answer", "Inferrer"]

# ------------------------------------------------------------------ the inference


Answer = tuple[str, Any]  # ("ok", result) or ("error", kind)


class Inferrer:
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
        self.probed: dict[str, list[str]] = {}
        self.not_probed: dict[str, str] = {}
        self.undetermined: dict[str, str] = {}
        self.fitting: dict[str, list[Any]] = {}  # knob -> the values the last choice kept
        self.natural_after: dict[str, set[str]] = {}
        self.observations: list[Observation] = []
        self.capsa = CapsaEngine()
        self.asked = 0
        self._next_id = 1

    # ---------------------------------------------------------- asking

    def ask(self, probes: Iterable[Probe]) -> None:
        fresh = [p for p in probes if p.name not in self.answers and p.op in self.ops]
        if not fresh:
            return
        requests = []
        for probe in fresh:
            self.probes[probe.name] = probe
            requests.append((self._next_id, probe.case(self.spec)))
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
                self.answers[probe.name] = ("ok", response["result"])

    def got(self, probe: Probe) -> Any:
        """The engine's answer in comparable form, or None when it gave none."""
        answer = self.answers.get(probe.name)
        if answer is None or answer[0] == "failed" or answer == ("error", "unsupported"):
            return None
        return self._view(probe, answer)

    def expect(self, probe: Probe, rules: Rules) -> Any:
        request = request_of(0, probe.case(self.spec))
        response = self.capsa.handle(request, rules)
        answer: Answer = ("ok", response["result"]) if "result" in response else ("error", None)
        return self._view(probe, answer)

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
        return [p for p in probes if self.got(p) is not None]

    # ---------------------------------------------------------- bookkeeping

    def note(self, knobs: Iterable[str], probes: Iterable[Probe]) -> None:
        names = [p.name for p in probes]
        for knob in knobs:
            self.probed.setdefault(knob, [])
            self.probed[knob] += [n for n in names if n not in self.probed[knob]]

    def skip(self, knobs: Iterable[str], reason: str) -> None:
        for knob in knobs:
            if knob not in self.probed:
                self.not_probed.setdefault(knob, reason)

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
        got = [self.got(p) for p in answered]
        consistent = [c for c, pred in zip(candidates, predictions, strict=True) if pred == got]
        if len(knobs) == 1:
            self.fitting[knobs[0]] = [c[knobs[0]] for c in consistent]
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
        return all(self.expect(p, rules) == self.got(p) for p in self.answered(probes))

    def solve(self, knob: str, probes: Sequence[Probe]) -> bool:
        """Solves an integer knob from seat 0's points in each answered probe (the
        others held); True when the value changed."""
        low, high = _INTS.get(knob, (0, _INT_MAX))
        answered = self.answered(probes)
        current = get(self.rules, knob)
        if not answered or current is None:
            return False

        def points(value: int, probe: Probe) -> int | None:
            seen = self.expect(probe, with_knobs(self.rules, {knob: value}))
            if isinstance(seen, tuple) and seen and isinstance(seen[0], int):
                return int(seen[0])
            return None

        shown = [
            p
            for p in answered
            if points(low, p) != points(low + 1, p) or points(current, p) != points(current + 1, p)
        ]
        if not shown:
            return False
        self.note([knob], shown)
        if all(self.expect(p, self.rules) == self.got(p) for p in answered):
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
                if all(self.expect(p, trial) == self.got(p) for p in answered):
                    if value != current:
                        self.rules = trial
                        return True
                    return False
        return False

    # ---------------------------------------------------------- the parts

    def ambiguous(self) -> None:
        """Moves a knob several of whose values fit every answer to not determined."""
        for knob, values in self.fitting.items():
            if len(values) > 1 and knob in self.probed:
                shown = ", ".join(json.dumps(v) for v in values)
                self.probed.pop(knob)
                self.undetermined[knob] = (
                    f"the answers fit {shown}; kept {json.dumps(get(self.rules, knob))}"
                )

    def confounded(
        self, group: tuple[str, str], probes: Sequence[Probe], every: Sequence[Probe]
    ) -> None:
        """Marks two knobs as not determined when another value of the first, with
        the second solved again, explains the answers as well (only a
        combination of them shows, as ``3 * multiplier + bonus`` does)."""
        first, second = group
        if first not in self.probed or not self.consistent(every):
            return
        kept = self.rules
        low, high = _INTS.get(first, (0, _INT_MAX))
        value = kept[first]
        for other in (value - 1, value + 1):
            if not low <= other <= high:
                continue
            self.rules = kept.derive({first: other})
            self.solve(second, probes)
            fits = self.consistent(every)
            self.rules = kept
            if fits:
                combined = f"{first} = {value}, {second} = {kept[second]}"
                reason = (
                    f"the answers show only a combination of {first} and {second}; "
                    f"kept {combined} (the base's where it fits)"
                )
                for knob in group:
                    self.probed.pop(knob, None)
                    self.undetermined[knob] = reason
                return

    def verify(self) -> None:
        for name, probe in self.probes.items():
            got = self.got(probe)
            answer = self.answers[name]
            if answer[0] == "failed":
                self.observations.append(
                    Observation(
                        name,
                        probe.knobs,
                        f"{probe.why}: the engine failed: {answer[1]}",
                        self._request(probe),
                    )
                )
                continue
            if got is None:
                continue
            expected = self.expect(probe, self.rules)
            if probe.op == "settle" and answer[0] == "ok":
                points = got[0] if probe.money and self.money else got
                numbers = isinstance(points, tuple) and all(isinstance(v, int) for v in points)
                if numbers and sum(points) != 0:
                    self.observations.append(
                        Observation(
                            name,
                            probe.knobs,
                            f"{probe.why}: the points {list(points)} do not sum "
                            "to zero (no rules do that)",
                            self._request(probe),
                        )
                    )
                    continue
            if got == expected:
                continue
            knobs = f"no value of {', '.join(probe.knobs)}" if probe.knobs else "no knob"
            extra = hint(probe, got, expected, self.rules)
            self.observations.append(
                Observation(
                    name,
                    probe.knobs,
                    f"{probe.why}: the engine answered {show(got)}, the inferred rules give "
                    f"{show(expected)}; {knobs} explains it{extra}",
                    self._request(probe),
                )
            )

    def _request(self, probe: Probe) -> dict[str, Any]:
        request = request_of(0, probe.case(self.spec))
        request.pop("id", None)
        request.pop("rules", None)
        return request


def hint(probe: Probe, got: Any, expected: Any, rules: Rules) -> str:
    """A few words on a known rule that explains an observation, when one does."""
    rake_only = isinstance(got, tuple) and isinstance(expected, tuple) and len(got) == 2
    if probe.money and rake_only and got[0] == expected[0]:
        stake = probe.input["round"]["stakes"]
        percent = rules["money.rake_percent"]
        money = [p * stake for p in got[0]]
        ceiled = tuple(-(-percent * m // 100) if m > 0 else 0 for m in money)
        if ceiled == got[1]:
            return f" (the engine rounds the rake of {percent}% up, not down)"
    if probe.name.startswith("top-no-") or probe.name.startswith("category-top-"):
        return " (the engine gives three-card hands straights or flushes)"
    if probe.name == "natural-over-foul":
        return " (the engine lets the fouled rows decide, not the declared natural)"
    return ""
