"""What a run found: the :class:`Report`, its pass matrix, summary and JSON."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from capsa.conformance.diagnosis import Cause
from capsa.conformance.protocol import OPS, PROTOCOL_VERSION, RulesSpec
from capsa.conformance.verdicts import FAILING, Failure

__all__ = ["Report"]

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
        bucket = "fail" if status in FAILING else status
        cell = self.matrix.setdefault(op, {}).setdefault(flag, dict.fromkeys(_COUNTS, 0))
        cell[bucket] += 1

    def count_observed(self, op: str, flag: str) -> None:
        """Counts a declared difference (an answer that is not a failure, such
        as a declared non-zero-sum one) in the matrix's ``observed``. Raises
        nothing."""
        cell = self.matrix.setdefault(op, {}).setdefault(flag, dict.fromkeys(_COUNTS, 0))
        cell["observed"] = cell.get("observed", 0) + 1

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
