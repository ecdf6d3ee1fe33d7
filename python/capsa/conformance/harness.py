"""The harness: run an engine against the vectors, fuzz it, shrink and report.

:func:`run` is the Python API and what ``capsa conformance run`` calls:
handshake, the vector suites, Hypothesis fuzzing checked against capsa and
against the engine's own invariants, a minimal reproducer for every kind of
disagreement, a pass matrix by op and flag, and a JSON report.
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import random
import shlex
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from capsa import ArgumentError
from capsa.conformance.bounds import kept
from capsa.conformance.claims import Claims, check_claims
from capsa.conformance.diagnosis import diagnose, digest_matches
from capsa.conformance.engines import Engine, Outcome, engine_of
from capsa.conformance.explain import explain
from capsa.conformance.flags import flags_of
from capsa.conformance.invariants import Companion, companions, zero_sum
from capsa.conformance.protocol import OPS, Case, RulesSpec, request_of
from capsa.conformance.rederive import Rederived, rederive, rules_of, spec_of
from capsa.conformance.report import Report
from capsa.conformance.serve import CapsaEngine
from capsa.conformance.shrink import shrink, size
from capsa.conformance.timing import Phases, ShrinkBudget
from capsa.conformance.vectors import Vector, load_vectors, vectors_of
from capsa.conformance.verdicts import FAILING, Failure, Verdict, judge
from capsa.rules import Rules

__all__ = ["Failure", "Report", "ShrinkBudget", "run"]

_CHUNK = 1024
_PASSES_KEPT = 4096  # passing answers kept to check the knob values offered
# A vector as asked: its id, the case, capsa's answer and its flags.
_Planned = tuple[str, Case, Any, list[str]]
# Under --digests auto, five-card digests are asked when the three-card ones
# (the fastest of them) say they take at most this long in all (118 times the hands).
DIGEST_CHEAP_SECONDS = 30.0
_FIVE_PER_THREE = 2_598_960 / 22_100
_NOT_SHRUNK = ("timeout", "invariant", "abandoned")
_SPENT = "not shrunk: the shrink budget ({}) was spent"


# ------------------------------------------------------------------ the run


class _Run:
    def __init__(
        self, engine: Engine, hello: dict[str, Any], replay: str | None, rules: Rules | None
    ) -> None:
        self.engine = engine
        self.hello = hello
        self.ops = [op for op in OPS if op in hello["ops"]]
        self.money = bool(hello.get("money", False))
        self.claims: Claims = check_claims(hello)
        rules = rules if rules is not None else self.claims.rules
        # The rules every case is asked under (None: the vectors' own rules).
        self.target: RulesSpec | None = spec_of(rules) if rules is not None else None
        self.reference = CapsaEngine()
        self.report = Report(engine.description, hello, rules=self.target)
        self.replay = replay
        # What --rules a replay needs: only rules given to run() differ from the hello's.
        self._rules_file: str | None = None
        self._next_id = 1
        self.requests = 0
        self.phases = Phases(lambda: self.requests)
        self._fuzzed: set[Case] = set()
        self._held_digests: list[_Planned] = []
        # answers that passed (a sample): a knob value offered for the failures
        # must give these too
        self.passed: list[Failure] = []

    # ---------------------------------------------------------- asking

    def ask(self, cases: Sequence[Case]) -> list[Outcome]:
        requests = []
        for case in cases:
            requests.append((self._next_id, case))
            self._next_id += 1
        self.requests += len(requests)
        return self.engine.exchange(requests) if requests else []

    def phase(self, name: str) -> contextlib.AbstractContextManager[None]:
        """Measures a phase of the run (seconds and requests, in the report)."""
        return self.phases.phase(name)

    def expected(self, case: Case) -> Any:
        """capsa's result, or None when capsa refuses the case."""
        return self.answered(case)[1]

    def answered(self, case: Case) -> tuple[bool, Any]:
        """Whether capsa answers the case, and its result (``null`` is a result:
        a hand holding no natural)."""
        response = self.reference.handle(request_of(0, case))
        return "result" in response, response.get("result")

    # ---------------------------------------------------------- vectors

    def vectors(self, lines: Iterable[Mapping[str, Any]], digests: str) -> None:
        todo: list[_Planned] = []
        seen: set[Case] = set()
        for vector, case in vectors_of(lines):
            planned = self._plan(vector, case, digests, seen)
            if isinstance(planned, str):
                flags = vector.get("flags")
                self._skip(case.op, flags if isinstance(flags, list) else [], planned)
                continue
            seen.add(planned.case)
            item = (str(vector.get("id")), planned.case, planned.expected, planned.flags)
            if case.op == "digest" and digests == "auto":
                self._held_digests.append(item)  # asked by ask_digests
                continue
            todo.append(item)
        self._ask_vectors(todo)

    def _plan(
        self, vector: Mapping[str, Any], case: Case, digests: str, seen: set[Case]
    ) -> Rederived | str:
        """The case to ask for a vector (re-derived under the engine's rules when
        there are some) with its expected answer and flags, or why it is skipped."""
        if case.op not in self.ops:
            return "op not in the engine's ops"
        if case.op == "digest" and (
            digests == "none" or (digests in ("presets", "auto") and case.rules.knobs)
        ):
            return f"digest not asked (digests = {digests})"
        if self.target is not None:
            if Case(case.op, self.target, case.input) in seen:
                return "the same case as an earlier vector under the engine's rules"
            planned = rederive(vector, case, self.target, self.reference)
            if isinstance(planned, str):
                return planned
        else:
            flags = vector.get("flags")
            planned = Rederived(case, vector["expected"], list(flags or []))
        outside = self.claims.outside(case.op, planned.case.rules.rules())
        if outside:
            return f"outside the claims ({outside})"
        if self.claims.fouled(planned.case):
            return 'a fouled seat (hello "fouls": "never")'
        return planned

    def _skip(self, op: str, flags: Sequence[Any], reason: str) -> None:
        for flag in ["*", *flags]:
            self.report.count(op, str(flag), "skipped")
        self.report.skips[reason] = self.report.skips.get(reason, 0) + 1

    def _admits(self, case: Case) -> bool:
        """Whether a case (a shrink candidate) is one the engine is asked."""
        base = self.target.rules() if self.target is not None else None
        rules = case.rules.rules()
        return self.claims.outside(case.op, rules, base) is None and not self.claims.fouled(case)

    def ask_digests(self) -> None:
        """The digest vectors held back by ``--digests auto``: the three-card ones,
        each timed alone, then the five-card ones only when the fastest of
        those (a first answer may pay the engine's warm-up) says they cost at
        most :data:`DIGEST_CHEAP_SECONDS` in all (or when there is no
        three-card one to time: vectors of five-card digests alone ask for
        them)."""
        held, self._held_digests = self._held_digests, []
        three = [item for item in held if item[1].input.get("size") == 3]
        five = [item for item in held if item[1].input.get("size") != 3]
        fastest = float("inf")
        for one in three:
            start = time.perf_counter()
            self._ask_vectors([one])
            fastest = min(fastest, time.perf_counter() - start)
        estimate = fastest * _FIVE_PER_THREE * len(five) if three else 0.0
        if estimate <= DIGEST_CHEAP_SECONDS:
            self._ask_vectors(five)
        elif five:
            for _, case, _, _ in five:
                self._skip(case.op, ["digest"], "five-card digest not asked (digests = auto)")
            self.report.digest_note = (
                f"{len(five)} five-card digests not asked: they would take about "
                f"{estimate:,.0f} s "
                f"(--digests presets asks them)"
            )

    def _ask_vectors(self, todo: Sequence[_Planned]) -> None:
        start = time.perf_counter()
        for k in range(0, len(todo), _CHUNK):
            chunk = todo[k : k + _CHUNK]
            outcomes = self.ask([case for _, case, _, _ in chunk])
            for (ident, case, expected, flags), outcome in zip(chunk, outcomes, strict=True):
                self._record("vector", ident, case, expected, flags, outcome)
        self.report.vectors_asked += len(todo)
        self.report.vectors_seconds += time.perf_counter() - start

    def _record(
        self,
        source: str,
        ident: str,
        case: Case,
        expected: Any,
        flags: list[str],
        outcome: Outcome,
    ) -> Verdict:
        verdict = judge(case.op, expected, outcome, self.money)
        answered = verdict.status in ("pass", "fail")
        self.report.answered += answered
        kind = "disagreement" if verdict.status == "fail" else verdict.status
        failure = Failure(
            kind, source, ident, case.op, case, flags, expected, verdict.got, sorted(verdict.fields)
        )
        if verdict.status == "fail" and self._observed(failure):
            for flag in ["*", *flags]:
                self.report.count_observed(case.op, flag)
            return verdict
        for flag in ["*", *flags]:
            self.report.count(case.op, flag, verdict.status)
        if verdict.status in FAILING:
            self.report.failures.append(failure)
        elif verdict.status == "pass" and len(self.passed) < _PASSES_KEPT:
            self.passed.append(failure)
        exempt = self.claims.exempt(case)
        if case.op == "settle" and answered and not exempt and not zero_sum(verdict.got):
            self.report.failures.append(
                Failure(
                    "invariant",
                    source,
                    ident,
                    case.op,
                    case,
                    flags,
                    expected,
                    verdict.got,
                    invariant="zero-sum",
                )
            )
        return verdict

    def _observed(self, failure: Failure) -> bool:
        """Records a settle disagreement at a table size the engine declares not
        zero-sum, whose answer does not sum to zero, as an observation (True);
        any other failure stays one (False)."""
        if not self.claims.exempt(failure.case) or zero_sum(failure.got):
            return False
        note = str((self.hello.get("not_zero_sum") or {}).get("note", ""))
        self.report.observe("not-zero-sum", failure, note)
        return True

    # ---------------------------------------------------------- fuzzing

    def fuzz(self, examples: int, seed: int) -> None:
        try:
            from capsa.conformance.fuzz import generate_cases
        except ImportError:
            self.report.fuzz_note = (
                'fuzzing skipped: install Hypothesis (pip install "capsa[strategies]")'
            )
            return
        ops = [op for op in self.ops if op != "digest"]
        if not ops or examples <= 0:
            return
        rng = random.Random(seed)
        start = time.perf_counter()
        buffer: list[Case] = []

        def flush() -> None:
            self._fuzz_batch(buffer, rng)
            buffer.clear()

        def collect(case: Case) -> None:
            self.report.fuzz_drawn += 1
            if case in self._fuzzed:
                self.report.fuzz_duplicates += 1
                return
            self._fuzzed.add(case)
            buffer.append(case)
            if len(buffer) >= 256:
                flush()

        self.report.fuzz_examples += examples
        generate_cases(ops, self.claims, examples, seed, collect, self.target)
        flush()
        self.report.fuzz_seconds += time.perf_counter() - start

    def _fuzz_batch(self, cases: Sequence[Case], rng: random.Random) -> None:
        plan: list[tuple[Case, Any, list[Companion]]] = []
        for case in cases:
            answers, expected = self.answered(case)
            if not answers:
                self.report.fuzz_refused += 1
                continue
            comps = [c for c in companions(case, rng) if not self.claims.fouled(c.case)]
            plan.append((case, expected, comps))
        asked = [c for case, _, comps in plan for c in (case, *(x.case for x in comps))]
        outcomes = iter(self.ask(asked))
        self.report.fuzz_requests += len(asked)
        for case, expected, comps in plan:
            self.report.fuzz_cases += 1
            flags = sorted(flags_of(case))
            ident = f"fuzz/{case.op}/{self.report.fuzz_cases}"
            verdict = self._record("fuzz", ident, case, expected, flags, next(outcomes))
            for companion in comps:
                outcome = next(outcomes)
                comp_answers, comp_expected = self.answered(companion.case)
                comp_verdict = judge(case.op, comp_expected, outcome, self.money)
                self.report.answered += comp_verdict.status in ("pass", "fail")
                if comp_verdict.status in FAILING and comp_answers:
                    failure = Failure(
                        "disagreement" if comp_verdict.status == "fail" else comp_verdict.status,
                        "fuzz",
                        f"{ident}/{companion.invariant}",
                        case.op,
                        companion.case,
                        sorted(flags_of(companion.case)),
                        comp_expected,
                        comp_verdict.got,
                        sorted(comp_verdict.fields),
                    )
                    if comp_verdict.status != "fail" or not self._observed(failure):
                        self.report.failures.append(failure)
                answered = verdict.status in ("pass", "fail") and comp_verdict.status in (
                    "pass",
                    "fail",
                )
                if answered and not companion.holds(verdict.got, comp_verdict.got):
                    self.report.failures.append(
                        Failure(
                            "invariant",
                            "fuzz",
                            ident,
                            case.op,
                            case,
                            flags,
                            expected,
                            {
                                "answer": verdict.got,
                                "companion": dict(companion.case.input),
                                "companion_answer": comp_verdict.got,
                            },
                            invariant=companion.invariant,
                        )
                    )

    # ---------------------------------------------------------- shrinking

    def diagnose(self) -> None:
        """Groups the failures by root cause, fits knob values to each, names
        the pinned orders of the engine's digests and explains every failure."""
        failures = self.report.failures
        self.report.causes = diagnose(
            failures, self.answered, self._agrees, size, passed=self.passed
        )
        self.report.digest_matches = digest_matches(failures)
        for failure in failures:
            failure.explanation = explain(failure.case)

    def shrink_all(self, budget: ShrinkBudget, most: int) -> None:
        """Shrinks each cause's smallest failure (:meth:`diagnose` first), most
        failures first, sharing what is left of the budget evenly among the
        causes still to shrink; the failures not shrunk say why
        (``shrink_note``)."""
        started, asked = time.perf_counter(), self.requests
        deadline = started + budget.seconds
        todo = [c for c in self.report.causes if c.smallest.kind not in _NOT_SHRUNK]
        shrunk = unshrunk = 0
        for k, cause in enumerate(todo):
            left = budget.requests - (self.requests - asked)
            seconds = deadline - time.perf_counter()
            if left <= 0 or seconds <= 0 or shrunk >= most:
                cause.smallest.shrink_note = (
                    f"not shrunk: only the first {most} causes are shrunk"
                    if shrunk >= most
                    else _SPENT.format(budget.text())
                )
                unshrunk += 1
                continue
            limit = max(1, left // (len(todo) - k))
            if cause.smallest.kind != "disagreement":
                limit = min(limit, 100)
            self._shrink_one(cause.smallest, shrunk + 1, limit, seconds / (len(todo) - k))
            shrunk += 1
        for cause in self.report.causes:
            for failure in cause.failures[1:]:
                failure.shrink_note = f"its cause's smallest failure is {cause.smallest.id}"
        spent = time.perf_counter() - started
        note = f"shrank {shrunk} of {len(todo)} causes in {spent:.1f} s" if todo else ""
        if unshrunk:
            note += f"; {unshrunk} not shrunk: the budget ({budget.text()}) was spent"
        self.report.shrink = {
            "budget": {"requests": budget.requests, "seconds": budget.seconds},
            "requests": self.requests - asked,
            "seconds": round(spent, 3),
            "causes_shrunk": shrunk,
            "causes_not_shrunk": unshrunk,
            "note": note,
        }

    def _shrink_one(self, failure: Failure, number: int, limit: int, seconds: float) -> None:
        target = (failure.kind, frozenset(failure.fields))
        deadline = time.perf_counter() + seconds
        small, steps = shrink(
            failure.case,
            functools.partial(self._still_fails, target=target, deadline=deadline),
            limit,
            stop=lambda: time.perf_counter() >= deadline,
        )
        expected = self.expected(small)
        got = kept(self._answer(small))
        failure.shrunk = Vector(
            f"shrunk/{failure.op}/{number}",
            small,
            expected,
            sorted(flags_of(small)),
            f"shrunk from {failure.id}: the engine answers {json.dumps(got)[:200]}",
        )
        failure.shrunk_got, failure.shrink_steps = got, steps
        failure.explanation = explain(small)

    def _ask_until(self, cases: Sequence[Case], deadline: float) -> list[Outcome | None]:
        """The outcomes of the cases asked before ``deadline`` (None for the rest):
        a few first, then as many as the time left allows at the rate seen, so
        a slow engine overruns the deadline by about one answer."""
        out: list[Outcome | None] = []
        step = 4
        while len(out) < len(cases) and time.perf_counter() < deadline:
            start = time.perf_counter()
            batch = cases[len(out) : len(out) + step]
            out.extend(self.ask(batch))
            each = (time.perf_counter() - start) / len(batch)
            left = deadline - time.perf_counter()
            step = max(1, int(left / each)) if each > 0 else len(cases)
        return out + [None] * (len(cases) - len(out))

    def _agrees(self, op: str, expected: Any, got: Any) -> bool:
        return judge(op, expected, Outcome("ok", {"result": got}), self.money).status == "pass"

    def _answer(self, case: Case) -> Any:
        outcome = self.ask([case])[0]
        if outcome.status != "ok" or outcome.response is None:
            return {outcome.status: outcome.detail}
        return outcome.response.get("result", outcome.response.get("error"))

    def _still_fails(
        self, cases: Sequence[Case], target: tuple[str, frozenset[str]], deadline: float
    ) -> list[bool]:
        kind, fields = target
        expected = [self.expected(c) if self._admits(c) else None for c in cases]
        askable = [c for c, e in zip(cases, expected, strict=True) if e is not None]
        outcomes = iter(self._ask_until(askable, deadline))
        out = []
        for case, exp in zip(cases, expected, strict=True):
            if exp is None:  # capsa refuses it, or the engine does not claim its rules
                out.append(False)
                continue
            outcome = next(outcomes)
            if outcome is None:  # not asked: the shrink time ran out
                out.append(False)
                continue
            verdict = judge(case.op, exp, outcome, self.money)
            status = "disagreement" if verdict.status == "fail" else verdict.status
            out.append(status == kind and verdict.fields == fields)
        return out

    # ---------------------------------------------------------- output

    def write(self, out: Path | None) -> None:
        if out is None:
            for failure in self.report.failures:
                failure.replay = self._replay(None, failure)
            return
        folder = out / "failures"
        folder.mkdir(parents=True, exist_ok=True)
        for k, failure in enumerate(self.report.failures, start=1):
            vector = failure.shrunk or Vector(
                f"failure/{failure.op}/{k}",
                failure.case,
                failure.expected,
                failure.flags,
                f"from {failure.id}",
            )
            if vector.expected is None:
                continue
            path = folder / f"{k:04d}-{failure.op}.jsonl"
            path.write_text(vector.line(), encoding="utf-8")
            failure.reproducer = str(path)
            failure.replay = self._replay(path, failure)
        report = out / "report.json"
        report.write_text(
            json.dumps(self.report.to_json(), indent=1, default=str) + "\n", encoding="utf-8"
        )

    def _replay(self, path: Path | None, failure: Failure) -> str:
        where = shlex.quote(str(path)) if path else "FILE.jsonl"
        engine = self.replay or "ENGINE"
        return (
            f"capsa conformance run --engine {shlex.quote(engine)} --vectors {where} --fuzz 0"
            + (f" --rules {shlex.quote(self._rules_file)}" if self._rules_file else "")
            + " --min-requests 0"
        )


def _check_run_arguments(digests: str, shrink_seconds: float, min_requests: int) -> None:
    if digests not in ("auto", "presets", "all", "none"):
        raise ArgumentError(f'digests is "auto", "presets", "all" or "none", not {digests!r}')
    if not shrink_seconds > 0:
        raise ArgumentError(f"shrink_seconds is above 0, not {shrink_seconds!r}")
    if isinstance(min_requests, bool) or not isinstance(min_requests, int) or min_requests < 0:
        raise ArgumentError(f"min_requests is an integer >= 0, not {min_requests!r}")


def _run_phases(
    state: _Run,
    vectors: str | Path | Iterable[Mapping[str, Any]] | None,
    digests: str,
    fuzz: int,
    seed: int,
    shrinking: ShrinkBudget,
    max_shrinks: int,
) -> None:
    """The phases that ask the engine (vectors, digests, fuzzing, diagnosis,
    shrinking), the failures sorted after."""
    with state.phase("vectors"):
        lines = (
            load_vectors(vectors)
            if vectors is None or isinstance(vectors, str | Path)
            else list(vectors)
        )
        state.vectors(lines, digests)
    with state.phase("digests"):
        state.ask_digests()
    with state.phase("fuzz"):
        state.fuzz(fuzz, seed)
    with state.phase("diagnosis"):
        state.diagnose()
    with state.phase("shrink"):
        state.shrink_all(shrinking, max_shrinks)
    state.report.failures.sort(key=lambda f: (f.source != "vector", OPS.index(f.op), size(f.case)))


def run(
    engine: Engine | str | Sequence[str] | Callable[[dict[str, Any]], Any],
    *,
    vectors: str | Path | Iterable[Mapping[str, Any]] | None = None,
    fuzz: int = 200,
    seed: int = 0,
    digests: str = "auto",
    out: str | Path | None = None,
    timeout: float = 10.0,
    shrink_budget: int = 2000,
    max_shrinks: int = 64,
    rules: Rules | str | os.PathLike[str] | None = None,
    min_requests: int = 100,
    shrink_seconds: float = 60.0,
    digest_timeout: float = 120.0,
) -> Report:
    """Runs the conformance kit against an engine and returns the report.

    ``engine`` is a command line (started once, spoken to over the
    protocol), an :class:`Engine`, or a callable taking a request dict and
    returning a response dict. ``vectors`` is a ``.jsonl`` file, a folder or
    vector dicts (default: the shipped suites); ``fuzz`` is the number of
    Hypothesis examples (0: none); ``digests`` is ``"auto"`` (the digest
    vectors of the presets' own rankings, the five-card ones only when the
    first three-card digest says they are cheap), ``"presets"`` (all of
    those), ``"all"`` or ``"none"``; ``out``
    a folder for ``report.json`` and one reproducer per failure; ``timeout``
    the seconds to wait for each answer of a command, ``digest_timeout``
    those for a ``digest`` answer (a pure-Python engine needs about 50 s
    for the 2.6 million five-card hands); ``shrink_budget`` and
    ``shrink_seconds`` the most candidates asked and seconds spent shrinking
    over all failures, and ``max_shrinks`` the most causes shrunk (one
    failure each, the smallest of its cause). ``rules`` (a
    :class:`capsa.Rules`, a preset name or a rules file's path; default: the
    ``rules`` of the engine's ``hello``, if any) tests the engine under those
    rules: every vector is re-derived for them and fuzzing varies only the
    knobs the engine claims several values of. ``min_requests`` is the
    fewest answers checked for the run to pass (fewer: exit code 3).

    The engine's own failures (disagreements, errors, crashes, timeouts)
    are in the report, never raised. Raises :class:`HandshakeError` when the
    engine cannot be started or its ``hello`` is unusable (a
    :class:`~capsa.conformance.claims.ClaimError`, a subclass, naming a bad
    claim); :class:`capsa.ArgumentError` (a ``ValueError``) for ``digests``
    of another value or a negative ``min_requests``; :class:`capsa.RulesError`
    for ``rules`` that cannot be read; ``ValueError`` for a vector file or line that is not
    JSON or not an object, or a vector whose op, input or rules are
    malformed (a bad knob value is a :class:`capsa.RulesError`, a
    ``ValueError``); ``OSError`` when a vector file cannot be read or
    ``out`` cannot be written; ``TypeError`` when ``engine`` is none of the
    three.
    """
    _check_run_arguments(digests, shrink_seconds, min_requests)
    target = rules_of(rules) if rules is not None else None
    started = time.perf_counter()
    the_engine = engine_of(engine, timeout, digest_timeout)
    replay: str | None = getattr(the_engine, "command", None)
    hello = the_engine.start()
    try:
        state = _Run(the_engine, hello, replay, target)
    except BaseException:
        the_engine.close()
        raise
    state.phases.add("handshake", time.perf_counter() - started, 1)
    state.report.seed = seed
    state.report.min_requests = min_requests
    if rules is not None:
        state._rules_file = str(rules) if isinstance(rules, str | os.PathLike) else "RULES.toml"
    try:
        shrinking = ShrinkBudget(shrink_budget, shrink_seconds)
        _run_phases(state, vectors, digests, fuzz, seed, shrinking, max_shrinks)
        state.report.restarts = the_engine.restarts
        state.report.phases = state.phases.to_json()
        state.report.elapsed = time.perf_counter() - started  # before the report is written
        state.write(Path(out) if out is not None else None)
    finally:
        state.report.restarts = the_engine.restarts
        the_engine.close()
    return state.report
