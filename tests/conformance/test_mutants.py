"""The kit catches real bugs: eleven engines, each capsa with one rule
changed, are each caught, and the shrunk case of the failure is small (two
seats at most where a table is needed, no knob the change does not need).

Each runs the shipped vectors and 30 fuzz examples, in-process (one runs
as an external process too, in test_harness.py)."""

from __future__ import annotations

from typing import Any

import pytest

from capsa.conformance import run
from conformance.engines import MUTANTS

_RAKE_KNOBS = ("basis_points", "minimum_pot", "cap_per_pot", "cap_per_round")
# mutant -> (an op that must be caught, the knobs a shrunk case may keep)
EXPECT: dict[str, tuple[str, set[str]]] = {
    "wheel-high": ("compare", set()),
    "no-suit-tie-break": ("compare", set()),
    "flush-suit-first": ("compare", set()),
    "top-straights": ("compare", set()),
    "strict-fouls": ("foul", set()),
    # paying the loser's royalties shows at once when a royalty replaces the row point
    "royalties-to-loser": ("settle", {"royalty_adds"}),
    "no-scoop-multiplier": ("settle", set()),
    "sweep-all-too-early": ("settle", set()),
    "natural-not-over-foul": ("settle", set()),
    "rake-rounded-up": ("settle", set()),
    # two winners at least share a round cap: the vectors hold the cap's knobs
    "round-cap-rounded-down": ("settle", {f"money.rake_{k}" for k in _RAKE_KNOBS}),
    "bonus-not-zero-sum": ("settle", set()),
}


def _seats(case_input: dict[str, Any]) -> int:
    return len(case_input["round"]["seats"]) if "round" in case_input else 0


@pytest.mark.parametrize("name", sorted(MUTANTS))
def test_each_mutant_is_caught_with_a_small_shrunk_case(name: str) -> None:
    op, allowed = EXPECT[name]
    report = run(MUTANTS[name](), fuzz=30, seed=4, digests="none", shrink_budget=1500)
    assert report.exit_code == 1
    caught = [f for f in report.failures if f.op == op and f.shrunk is not None]
    assert caught, f"{name}: no shrunk {op} failure in {report.summary()}"
    best = min(caught, key=lambda f: (_seats(f.shrunk.case.input), len(f.shrunk.case.rules.knobs)))
    assert best.shrunk is not None
    shrunk = best.shrunk.case
    if op == "settle":
        assert _seats(shrunk.input) <= (3 if allowed else 2), best.to_json()
    assert {k for k, _ in shrunk.rules.knobs} <= allowed, best.to_json()
    assert best.explanation and best.replay
    # the shrunk case still shows the difference, and capsa itself agrees with its vector
    assert best.shrunk_got != best.shrunk.expected


def test_every_mutant_has_an_expectation() -> None:
    assert set(EXPECT) == set(MUTANTS) and len(MUTANTS) >= 10


def test_the_non_zero_sum_bonus_breaks_the_zero_sum_invariant() -> None:
    report = run(MUTANTS["bonus-not-zero-sum"](), fuzz=0, digests="none")
    assert any(f.kind == "invariant" and f.invariant == "zero-sum" for f in report.failures)
