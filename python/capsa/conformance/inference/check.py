"""The check of an inference: the harness run again under the inferred rules.

:func:`check_inferred` runs :func:`capsa.conformance.run` on the same
engine with ``rules=`` the inferred rules (every vector re-derived for
them, then fuzzing): the inferred rules explain every answer when the run
finds no failure. Its :class:`Check` lists the failures, one line each,
and the declared differences (answers that do not sum to zero at a table
size the engine's hello declares not zero-sum, or the inference observed
to be: those answers are explained by that observation, set aside, and
counted, not failures).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from capsa import CapsaError
from capsa.cards import card_ids
from capsa.conformance.engines import Engine, Outcome, engine_of
from capsa.conformance.harness import run
from capsa.conformance.inference.rows import rows_meeting
from capsa.conformance.inference.wording import printable, show
from capsa.conformance.protocol import Case
from capsa.conformance.rankings import order_under_every_ranking
from capsa.conformance.verdicts import Failure
from capsa.rules import Rules

__all__ = ["Check", "check_inferred"]

_SHOWN = 200  # failures listed in a check (the count is always whole)
_SHOWN_SETTLES = 20  # settle disagreements kept for the inference to doubt from


@dataclass
class Check:
    """A run under the inferred rules: ``explains_every_answer`` (no failure),
    ``failures`` (one line each, the first 200; ``failure_count`` counts
    them all), ``observations`` (declared differences, as the report has
    them), ``answered`` (answers compared), ``exit_code`` (the run's) and
    ``settles`` (the settle disagreements: the input and the engine's result,
    the first 20; not in the JSON).
    Built by :func:`check_inferred`; raises nothing."""

    explains_every_answer: bool
    failures: list[str]
    failure_count: int
    observations: list[dict[str, Any]] = field(default_factory=list)
    answered: int = 0
    exit_code: int = 0
    settles: list[tuple[Mapping[str, Any], Any]] = field(default_factory=list, repr=False)

    def lines(self) -> list[str]:
        """The check as comment lines for the inferred rules file."""
        head = f"check: a run under the inferred rules ({self.answered} answers compared) " + (
            "explains every answer"
            if self.explains_every_answer
            else f"finds {self.failure_count} failure(s)"
        )
        out = [head]
        out += [f"check observation: {o.get('count')} {o.get('kind')}" for o in self.observations]
        out += [f"check failure: {line}" for line in self.failures[:20]]
        if self.failure_count > 20:
            out.append(f"check failure: ... and {self.failure_count - 20} more")
        return [printable(line) for line in out]

    def to_json(self) -> dict[str, Any]:
        """The check as a JSON-ready dict."""
        return {
            "explains_every_answer": self.explains_every_answer,
            "failure_count": self.failure_count,
            "failures": self.failures,
            "observations": self.observations,
            "answered": self.answered,
            "exit_code": self.exit_code,
        }


def check_inferred(
    engine: str | Sequence[str] | Callable[[dict[str, Any]], Any] | Engine,
    rules: Rules,
    *,
    fuzz: int = 50,
    seed: int = 0,
    timeout: float = 10.0,
    vectors: str | Path | Iterable[Mapping[str, Any]] | None = None,
    not_zero_sum: Sequence[int] = (),
    defects: Collection[tuple[str, str]] = (),
) -> Check:
    """Runs the harness on ``engine`` under ``rules`` (the inferred ones) and
    returns what it found (:class:`Check`); ``vectors`` as :func:`run` takes
    them (default: the shipped suites). The digest vectors are not asked
    (the ranking is checked by the compare vectors). ``not_zero_sum`` are
    table sizes the inference observed the engine not to be zero-sum at:
    the run treats them as the hello's ``not_zero_sum`` would, so an answer
    there that does not sum to zero is an observation, not a failure.
    ``defects`` are the category pairs the inference found the engine to
    rank otherwise than every ranking: a disagreement over hands no
    ranking orders so, or over rows that meet such a pair, is counted as a
    ranking-defect observation, not a failure.

    Raises :class:`~capsa.conformance.HandshakeError` when the engine cannot
    be started or its ``hello`` is unusable."""
    runner = _Observed(engine_of(engine, timeout), not_zero_sum)
    report = run(
        runner,
        rules=rules,
        vectors=vectors,
        fuzz=fuzz,
        seed=seed,
        digests="none",
        timeout=timeout,
    )
    failures = [f for f in report.failures if not _meets_defect(f, defects, rules)]
    observations = list(report.observations)
    aside = len(report.failures) - len(failures)
    if aside:
        observations.append({"kind": "ranking-defect", "count": aside})
    return Check(
        explains_every_answer=not failures,
        failures=[_line(f) for f in failures[:_SHOWN]],
        failure_count=len(failures),
        observations=observations,
        answered=report.answered,
        exit_code=report.exit_code,
        settles=[
            (f.case.input, f.got)
            for f in failures
            if f.kind == "disagreement" and f.op == "settle" and isinstance(f.got, dict)
        ][:_SHOWN_SETTLES],
    )


def _meets_defect(failure: Failure, defects: Collection[tuple[str, str]], rules: Rules) -> bool:
    """Whether a failure is explained by the engine's ranking defects: a compare
    no ranking answers otherwise than capsa, or rows that meet a defect (a
    settle's, or a foul's three rows as one seat's)."""
    if failure.kind not in ("disagreement", "invariant") or not defects:
        return False
    data = failure.case.input
    try:
        if failure.op == "compare":
            a, b = (card_ids(data[k]) for k in ("a", "b"))
            return order_under_every_ranking(a, b) is not None
        if failure.op == "foul":
            seat = {row: data[row] for row in ("top", "middle", "bottom")}
            return bool(rows_meeting([seat, seat], defects, rules, within=True))
        if failure.op == "settle":
            return bool(rows_meeting(data["round"]["seats"], defects, rules))
    except (CapsaError, KeyError, TypeError):
        return False
    return False


class _Observed(Engine):
    """An engine whose hello also declares the table sizes the inference
    observed it not to be zero-sum at (its own declaration kept)."""

    def __init__(self, inner: Engine, not_zero_sum: Sequence[int]) -> None:
        self.inner = inner
        self.sizes = sorted(set(not_zero_sum))
        self.description = inner.description

    def start(self) -> dict[str, Any]:
        hello = dict(self.inner.start())
        self.ids = self.inner.ids
        if not self.sizes:
            return hello
        claim = hello.get("not_zero_sum")
        declared = claim.get("seats", []) if isinstance(claim, dict) else []
        note = claim.get("note", "") if isinstance(claim, dict) else ""
        seats = sorted({*declared, *self.sizes})
        observed = "observed by infer: a seat that wins every row is paid more than the others pay"
        hello["not_zero_sum"] = {"seats": seats, "note": note or observed}
        return hello

    def exchange(self, requests: Sequence[tuple[int, Case]]) -> list[Outcome]:
        return self.inner.exchange(requests)

    def close(self) -> None:
        self.inner.close()

    @property
    def restarts(self) -> int:  # type: ignore[override]
        return self.inner.restarts


def _line(failure: Failure) -> str:
    what = failure.invariant or f"expected {show(failure.expected)}, got {show(failure.got)}"
    return f"{failure.kind} {failure.id} ({failure.op}): {what}"
