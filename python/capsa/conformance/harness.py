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
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from capsa._core import ArgumentError
from capsa.conformance.bounds import kept
from capsa.conformance.claims import Claims, check_claims
from capsa.conformance.diagnosis import Cause, diagnose, digest_matches
from capsa.conformance.engines import CallableEngine, Engine, Outcome, ProcessEngine
from capsa.conformance.explain import explain
from capsa.conformance.flags import flags_of
from capsa.conformance.invariants import Companion, companions, zero_sum
from capsa.conformance.protocol import OPS, PROTOCOL_VERSION, Case, RulesSpec, request_of
from capsa.conformance.rederive import Rederived, rederive, rules_of, spec_of
from capsa.conformance.serve import CapsaEngine
from capsa.conformance.shrink import shrink, size
from capsa.conformance.timing import Phases, ShrinkBudget
from capsa.conformance.vectors import Vector, load_vectors, vectors_of
from capsa.rules import Rules

__all__ = ["Failure", "Report", "ShrinkBudget", "run"]

_MONEY = ("points", "money", "rake", "net")
_FAILING = ("fail", "error", "crash", "timeout", "protocol", "abandoned")
_CHUNK = 1024
# A vector as asked: its id, the case, capsa's answer and its flags.
_Planned = tuple[str, Case, Any, list[str]]
# Under --digests auto, five-card digests are asked when the three-card ones
# (the fastest of them) say they take at most this long in all (118 times the hands).
DIGEST_CHEAP_SECONDS = 30.0
_FIVE_PER_THREE = 2_598_960 / 22_100
_NOT_SHRUNK = ("timeout", "invariant", "abandoned")
_SPENT = "not shrunk: the shrink budget ({}) was spent"


def same(a: Any, b: Any) -> bool:
    """JSON equality that tells ``true`` from ``1``."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    return type(a) is type(b) and bool(a == b)


@dataclass
class Verdict:
    """How one answer compares with capsa's."""

    status: str  # pass, fail, error, unsupported, crash, timeout, protocol
    fields: frozenset[str]
    got: Any


def judge(op: str, expected: Any, outcome: Outcome, money: bool) -> Verdict:
    """Compares an engine's outcome with capsa's expected result."""
    if outcome.status != "ok" or outcome.response is None:
        return Verdict(outcome.status, frozenset({outcome.status}), outcome.detail)
    response = outcome.response
    if "error" in response:
        error = response["error"]
        kind = error.get("kind") if isinstance(error, dict) else None
        if kind == "unsupported":
            return Verdict("unsupported", frozenset(), error)
        return Verdict("error", frozenset({"error"}), error)
    got = response["result"]
    if op == "settle":
        if not isinstance(got, dict) or not isinstance(got.get("points"), list):
            return Verdict("fail", frozenset({"points"}), got)
        keys = [k for k in _MONEY if k == "points" or money or k in got]
        fields = frozenset(k for k in keys if not same(got.get(k), expected[k]))
    else:
        fields = frozenset() if same(got, expected) else frozenset({"result"})
    return Verdict("fail" if fields else "pass", fields, got)


@dataclass
class Failure:
    """A disagreement, an engine error, crash or timeout, or a broken invariant.

    ``kind`` is ``"disagreement"``, ``"error"``, ``"crash"``, ``"timeout"``,
    ``"protocol"``, ``"abandoned"`` (not asked: the engine was restarted too
    often) or ``"invariant"``; ``source`` is ``"vector"`` or ``"fuzz"``;
    ``id`` the vector's id (``fuzz/<op>/<n>`` for a fuzz case); ``op``, ``case``
    and ``flags`` the question asked; ``expected`` capsa's answer and ``got``
    the engine's (its result, its ``error`` object, or what happened to it:
    a crash, a timeout); ``fields`` the answer fields that differ
    (``points``, ``money``, ... or ``result``, ``error``); ``invariant`` the
    invariant broken, if that is the failure. After shrinking, ``shrunk`` is
    the minimal case as a vector (capsa's answer expected), ``shrunk_got`` the
    engine's answer to it and ``shrink_steps`` the candidates asked;
    ``explanation`` is capsa's answer in words, ``reproducer`` the path of the
    reproducer file and ``replay`` the command that replays it;
    ``shrink_note`` says why a failure is not shrunk (its cause's smallest
    failure is, or the shrink budget was spent). ``got`` and ``shrunk_got``
    are kept as :func:`capsa.conformance.bounds.kept` keeps them (an answer
    over 2 KiB of JSON is replaced by its head and size). Built by
    :func:`run`; building one checks nothing and raises nothing.
    """

    kind: str
    source: str
    id: str
    op: str
    case: Case
    flags: list[str]
    expected: Any
    got: Any
    fields: list[str] = field(default_factory=list)
    invariant: str | None = None
    shrunk: Vector | None = None
    shrunk_got: Any = None
    shrink_steps: int = 0
    explanation: str = ""
    reproducer: str | None = None
    replay: str | None = None
    shrink_note: str = ""

    def __post_init__(self) -> None:
        self.got = kept(self.got)

    def to_json(self) -> dict[str, Any]:
        """The failure as an entry of ``report.json`` (``docs/conformance.md``)."""
        out: dict[str, Any] = {
            "kind": self.kind,
            "source": self.source,
            "id": self.id,
            "op": self.op,
            "rules": self.case.rules.to_json(),
            "input": dict(self.case.input),
            "flags": self.flags,
            "expected": self.expected,
            "got": self.got,
            "fields": self.fields,
        }
        if self.invariant:
            out["invariant"] = self.invariant
        if self.shrunk is not None:
            out["shrunk"] = self.shrunk.to_json()
            out["shrunk_got"] = self.shrunk_got
            out["shrink_candidates"] = self.shrink_steps
        elif self.shrink_note:
            out["shrink_note"] = self.shrink_note
        out["explanation"] = self.explanation
        out["reproducer"] = self.reproducer
        out["replay"] = self.replay
        return out


_COUNTS = ("pass", "fail", "unsupported", "skipped")


@dataclass
class Report:
    """Everything a run found; :meth:`to_json` is the machine-readable report.

    ``engine`` is the engine's command (or name) and ``hello`` its handshake
    result; ``matrix`` counts, op by flag (``"*"``: every case of the op),
    the cases that passed, failed, were unsupported or skipped; ``failures``
    lists every :class:`Failure`, vectors first. ``vectors_asked`` and
    ``vectors_seconds`` measure the vectors, ``fuzz_cases``,
    ``fuzz_requests`` (cases with their invariant companions) and
    ``fuzz_seconds`` the fuzzing, whose ``fuzz_note`` says why it did not run
    when it did not (no Hypothesis); ``digest_note`` says why five-card
    digests were not asked (``digests="auto"``); ``fuzz_examples`` is the examples
    asked of Hypothesis, ``fuzz_drawn`` the cases it drew within the claims,
    ``fuzz_duplicates`` those drawn again (asked once) and ``fuzz_refused``
    those capsa has no answer for (not asked). ``restarts`` counts engine
    restarts, ``seed`` is the fuzzing seed and ``elapsed`` the run's wall
    seconds; ``phases`` the seconds and requests of each phase
    (:class:`capsa.conformance.timing.Phases`), ``shrink`` what shrinking
    spent of its budget, ``causes`` the failures grouped by root cause
    (:mod:`capsa.conformance.diagnosis`) and ``digest_matches`` the pinned
    orders the engine's digests match.
    ``rules`` are the rules the engine was tested under (None: each
    vector's own); ``answered`` counts the answers compared with capsa's and
    ``min_requests`` is the fewest for the run to pass; ``skips`` counts the
    vectors not asked by reason; ``observations`` are declared differences
    that are not failures (a ``settle`` answer that does not sum to zero at
    a table size the engine declares not zero-sum), each with its count and
    an example. Built by :func:`run`; building one checks nothing and raises
    nothing.
    """

    engine: str
    hello: dict[str, Any]
    matrix: dict[str, dict[str, dict[str, int]]] = field(default_factory=dict)
    failures: list[Failure] = field(default_factory=list)
    vectors_asked: int = 0
    vectors_seconds: float = 0.0
    fuzz_cases: int = 0
    fuzz_requests: int = 0
    fuzz_seconds: float = 0.0
    fuzz_note: str = ""
    digest_note: str = ""
    restarts: int = 0
    seed: int = 0
    elapsed: float = 0.0
    rules: RulesSpec | None = None
    answered: int = 0
    min_requests: int = 100
    skips: dict[str, int] = field(default_factory=dict)
    observations: list[dict[str, Any]] = field(default_factory=list)
    fuzz_examples: int = 0
    fuzz_drawn: int = 0
    fuzz_duplicates: int = 0
    fuzz_refused: int = 0
    phases: dict[str, dict[str, float | int]] = field(default_factory=dict)
    shrink: dict[str, Any] = field(default_factory=dict)
    causes: list[Cause] = field(default_factory=list)
    digest_matches: list[str] = field(default_factory=list)

    @property
    def disagreements(self) -> int:
        """How many failures the run found (of every kind)."""
        return len(self.failures)

    @property
    def exit_code(self) -> int:
        """0 when the engine agrees with capsa everywhere it was asked; 1 for any
        failure; 3 when there is none but fewer than ``min_requests`` answers
        were checked (a run that asks nothing proves nothing)."""
        if self.failures:
            return 1
        return 3 if self.too_few() else 0

    def too_few(self) -> str:
        """Why the run asked too little to pass ("" when it asked enough): the
        answers checked and the commonest reasons cases were skipped, and
        every op the engine lists of which no case was compared. Raises
        nothing."""
        parts = self.untested()
        if self.answered < self.min_requests:
            reasons = sorted(self.skips.items(), key=lambda kv: -kv[1])[:3]
            skipped = sum(self.skips.values())
            why = "; ".join(f"{n} {reason}" for reason, n in reasons)
            matrix = self.matrix.values()
            refused = sum(cells["*"]["unsupported"] for cells in matrix if "*" in cells)
            parts.insert(
                0,
                f"only {self.answered} requests answered (fewer than {self.min_requests}): "
                f"{skipped} vectors skipped"
                + (f" ({why})" if why else "")
                + (f", {refused} answered unsupported" if refused else "")
                + f", {self.fuzz_cases} fuzz cases",
            )
        return "; ".join(parts)

    def untested(self) -> list[str]:
        """The ops the engine lists that had cases to ask yet none compared with
        capsa's (every one skipped, or answered ``unsupported``): a run that
        tests none of an op the engine lists does not pass, however many
        answers it has of the others (rules outside the engine's claims skip
        every case of the ops they touch). Digests are left out: whether they
        are asked is the run's choice (``digests``). Raises nothing."""
        out = []
        for op, cells in self.matrix.items():
            every = cells.get("*", {})
            compared = every.get("pass", 0) + every.get("fail", 0) + every.get("observed", 0)
            if op == "digest" or op not in self.hello.get("ops", ()) or compared:
                continue
            skipped, refused = every.get("skipped", 0), every.get("unsupported", 0)
            if skipped or refused:
                out.append(
                    f"no {op} case compared ({skipped} skipped, {refused} answered unsupported)"
                )
        return out

    def observe(self, kind: str, failure: Failure, note: str) -> None:
        """Records a declared difference that is not a failure (``kind``
        ``"not-zero-sum"``): one entry per kind with its count and the first
        example. Raises nothing."""
        for entry in self.observations:
            if entry["kind"] == kind:
                entry["count"] += 1
                return
        example = {"id": failure.id, "input": dict(failure.case.input)}
        example |= {"expected": failure.expected, "got": failure.got}
        self.observations.append({"kind": kind, "count": 1, "note": note, "example": example})

    def count(self, op: str, flag: str, status: str) -> None:
        """Counts one case of ``op`` under ``flag`` in the matrix: ``status`` is
        ``"pass"``, ``"unsupported"``, ``"skipped"`` or a failing outcome
        (``"fail"``, ``"error"``, ``"crash"``, ``"timeout"``, ``"protocol"``,
        ``"abandoned"``, all counted as ``fail``). Raises ``KeyError`` for any
        other status."""
        bucket = "fail" if status in _FAILING else status
        cell = self.matrix.setdefault(op, {}).setdefault(flag, dict.fromkeys(_COUNTS, 0))
        cell[bucket] += 1

    def matrix_text(self) -> str:
        """The pass matrix, one line per op and flag (``*``: every case of the op)."""
        lines = [f"{'op':<13} {'flag':<24} {'pass':>7} {'fail':>6} {'unsup':>6} {'skip':>6}"]
        for op in [o for o in OPS if o in self.matrix]:
            flags = self.matrix[op]
            for name in ["*", *sorted(f for f in flags if f != "*")]:
                if name not in flags:
                    continue
                c = flags[name]
                mark = "  <-" if c["fail"] else ""
                lines.append(
                    f"{op:<13} {name:<24} {c['pass']:>7} {c['fail']:>6} "
                    f"{c['unsupported']:>6} {c['skipped']:>6}{mark}"
                )
        return "\n".join(lines)

    def fuzz_text(self) -> str:
        """How the fuzz cases came to be: examples drawn, duplicates, refused,
        asked. Raises nothing."""
        if not self.fuzz_examples:
            return f"{self.fuzz_cases} fuzz cases"
        parts = [f"{self.fuzz_duplicates} duplicates"] if self.fuzz_duplicates else []
        if self.fuzz_refused:
            parts.append(f"{self.fuzz_refused} capsa has no answer for")
        outside = self.fuzz_examples - self.fuzz_drawn
        if outside > 0:
            parts.append(f"{outside} not drawn: outside the claims or not generated")
        why = f" ({'; '.join(parts)})" if parts else ""
        return (
            f"{self.fuzz_examples} examples asked for, {self.fuzz_drawn} drawn, "
            f"{self.fuzz_cases} distinct fuzz cases asked{why}"
        )

    def causes_text(self) -> str:
        """One line per root cause (count, fit, smallest reproducer), then the
        pinned orders the engine's digests match; empty when nothing failed.
        Raises nothing."""
        lines = [f"cause: {cause.line()}" for cause in self.causes]
        lines += [f"digest: {text}" for text in self.digest_matches]
        return "\n".join(lines)

    def summary(self) -> str:
        """One line: the engine, vectors and fuzz cases asked (and their rates),
        restarts, shrinking and the failures by kind and by cause."""
        vps = self.vectors_asked / self.vectors_seconds if self.vectors_seconds else 0.0
        cps = self.fuzz_cases / self.fuzz_seconds if self.fuzz_seconds else 0.0
        kinds: dict[str, int] = {}
        for failure in self.failures:
            kinds[failure.kind] = kinds.get(failure.kind, 0) + 1
        found = ", ".join(f"{n} {k}" for k, n in sorted(kinds.items())) or "none"
        fuzz = f"{self.fuzz_text()} ({cps:,.0f}/s)" + (
            f" [{self.fuzz_note}]" if self.fuzz_note else ""
        )
        shrunk = self.shrink.get("note", "")
        digest = f" [{self.digest_note}]" if self.digest_note else ""
        observed = "".join(f"; observed: {o['count']} {o['kind']}" for o in self.observations)
        return (
            f"engine {self.engine}: {self.vectors_asked} vectors ({vps:,.0f}/s){digest}, {fuzz}, "
            f"{self.restarts} restarts, {self.elapsed:.1f} s; failures: {found}"
            + (
                f" in {len(self.causes)} cause{'s' if len(self.causes) > 1 else ''}"
                if self.causes
                else ""
            )
            + (f"; {shrunk}" if shrunk else "")
            + observed
            + (f"; NOT PASSED: {self.too_few()}" if not self.failures and self.too_few() else "")
        )

    def to_json(self) -> dict[str, Any]:
        """The report as ``report.json`` holds it (``docs/conformance.md``, "The
        harness")."""
        from capsa import __version__

        return {
            "protocol": PROTOCOL_VERSION,
            "capsa": __version__,
            "engine": {"command": self.engine, "hello": self.hello},
            "seed": self.seed,
            "elapsed_seconds": round(self.elapsed, 3),
            "vectors": {
                "asked": self.vectors_asked,
                "seconds": round(self.vectors_seconds, 3),
            },
            "fuzz": {
                "cases": self.fuzz_cases,
                "requests": self.fuzz_requests,
                "seconds": round(self.fuzz_seconds, 3),
                "note": self.fuzz_note,
                "examples": self.fuzz_examples,
                "drawn": self.fuzz_drawn,
                "duplicates": self.fuzz_duplicates,
                "refused": self.fuzz_refused,
                "explained": self.fuzz_text(),
            },
            "digest_note": self.digest_note,
            "phases": self.phases,
            "shrink": self.shrink,
            "restarts": self.restarts,
            "causes": [c.to_json() for c in self.causes],
            "digest_matches": self.digest_matches,
            "failures": [f.to_json() for f in self.failures],
            "matrix": self.matrix,
            "passed": self.exit_code == 0,
            **self.claims_json(),
        }

    def claims_json(self) -> dict[str, Any]:
        """The report members about what was asked: ``rules`` (the rules the
        engine was tested under, or null), ``answered``, ``min_requests``,
        ``not_passed_because`` (why a run without failures did not pass, or
        null), ``skipped`` (reason to count) and ``observations``. Raises
        nothing."""
        return {
            "rules": self.rules.data() if self.rules is not None else None,
            "answered": self.answered,
            "min_requests": self.min_requests,
            "not_passed_because": self.too_few() or None if not self.failures else None,
            "skipped": dict(sorted(self.skips.items(), key=lambda kv: -kv[1])),
            "observations": self.observations,
        }


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
                cells = self.report.matrix.setdefault(case.op, {})
                cell = cells.setdefault(flag, dict.fromkeys(_COUNTS, 0))
                cell["observed"] = cell.get("observed", 0) + 1
            return verdict
        for flag in ["*", *flags]:
            self.report.count(case.op, flag, verdict.status)
        if verdict.status in _FAILING:
            self.report.failures.append(failure)
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
                if comp_verdict.status in _FAILING and comp_answers:
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
        self.report.causes = diagnose(failures, self.answered, self._agrees, size)
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


def _engine_of(
    engine: Engine | str | Sequence[str] | Callable[[dict[str, Any]], Any],
    timeout: float,
    digest_timeout: float | None = None,
) -> tuple[Engine, str | None]:
    if isinstance(engine, Engine):
        return engine, getattr(engine, "command", None)
    if isinstance(engine, str):
        return ProcessEngine(engine, timeout=timeout, digest_timeout=digest_timeout), engine
    if isinstance(engine, Sequence):
        process = ProcessEngine(list(engine), timeout=timeout, digest_timeout=digest_timeout)
        return process, process.command
    if callable(engine):
        return CallableEngine(engine), None
    raise TypeError(f"an engine is a command, an Engine or a callable, not {type(engine).__name__}")


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
    if digests not in ("auto", "presets", "all", "none"):
        raise ArgumentError(f'digests is "auto", "presets", "all" or "none", not {digests!r}')
    if not shrink_seconds > 0:
        raise ArgumentError(f"shrink_seconds is above 0, not {shrink_seconds!r}")
    if isinstance(min_requests, bool) or not isinstance(min_requests, int) or min_requests < 0:
        raise ArgumentError(f"min_requests is an integer >= 0, not {min_requests!r}")
    target = rules_of(rules) if rules is not None else None
    started = time.perf_counter()
    the_engine, replay = _engine_of(engine, timeout, digest_timeout)
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
            state.shrink_all(ShrinkBudget(shrink_budget, shrink_seconds), max_shrinks)
        state.report.failures.sort(
            key=lambda f: (f.source != "vector", OPS.index(f.op), size(f.case))
        )
        state.report.restarts = the_engine.restarts
        state.report.phases = state.phases.to_json()
        state.report.elapsed = time.perf_counter() - started  # before the report is written
        state.write(Path(out) if out is not None else None)
    finally:
        state.report.restarts = the_engine.restarts
        the_engine.close()
    return state.report
