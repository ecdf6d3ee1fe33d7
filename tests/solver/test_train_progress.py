"""Training reports its progress and can be stopped: ``train_tables(...,
progress=)`` and ``capsa tables train``."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from capsa import Rules
from capsa.solver import train_tables


def test_progress_is_told_up_to_every_deal_and_changes_nothing() -> None:
    rules = Rules.preset("pagat")
    calls: list[tuple[int, int]] = []
    data = train_tables(
        rules, hands=8_000, iterations=1, seed=3, progress=lambda d, t: calls.append((d, t))
    )
    assert data == train_tables(rules, hands=8_000, iterations=1, seed=3)
    totals = {t for _, t in calls}
    # 2,000 deals of four hands a round: greedy, one round, the copula's
    assert totals == {6_000}
    done = [d for d, _ in calls]
    assert done[0] == 0 and done[-1] == 6_000 and done == sorted(done)


def test_an_exception_from_progress_stops_the_training() -> None:
    class Stop(Exception):
        pass

    seen: list[int] = []

    def stop_at_once(done: int, total: int) -> None:
        seen.append(done)
        raise Stop(f"{done} of {total}")

    with pytest.raises(Stop, match="0 of"):
        train_tables(Rules.preset("pagat"), hands=400_000, iterations=3, progress=stop_at_once)
    assert seen == [0]


def test_progress_must_be_callable() -> None:
    with pytest.raises(TypeError, match="progress is a callable"):
        train_tables(Rules.preset("pagat"), hands=100, iterations=0, progress=42)  # type: ignore[arg-type]


def test_the_command_says_how_far_it_has_come(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "capsa", "tables", "train", "--preset", "pagat",
         "--hands", "4000", "--iterations", "1", "--out", str(tmp_path / "p.bin")],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    lines = [line for line in done.stderr.splitlines() if "% of" in line]
    assert lines[0] == "pagat: 0% of 3,000 deals" and lines[-1] == "pagat: 100% of 3,000 deals"
