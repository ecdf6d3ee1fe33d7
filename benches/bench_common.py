"""Helpers shared by the Python benchmarks: the machine line and timing."""

from __future__ import annotations

import hashlib
import os
import platform
import subprocess
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np

import capsa


def machine() -> str:
    model = "unknown CPU"
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    try:
        load = Path("/proc/loadavg").read_text(encoding="utf-8").split()[0]
    except OSError:
        load = "?"
    return (
        f"{model}, {cores} cores (load average {load} at start); "
        f"Python {platform.python_version()}, numpy {np.__version__}, {build()}"
    )


def build() -> str:
    """capsa's version, git commit and a hash of the loaded extension module."""
    core = Path(capsa._core.__file__ or "")
    digest = hashlib.sha256(core.read_bytes()).hexdigest()[:12] if core.is_file() else "?"
    try:
        root = Path(capsa.__file__ or ".").resolve().parents[2]
        head = subprocess.run(
            ["git", "-C", str(root), "describe", "--always", "--dirty"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        head = "?"
    return f"capsa {capsa.__version__} (git {head}, _core sha256 {digest})"


class Timing(NamedTuple):
    """Wall and CPU seconds of one run; cpu / wall is how many cores it got."""

    wall: float
    cpu: float


def best_time(run: Callable[[], Any], repeat: int) -> tuple[Timing, Any]:
    """The timing of the fastest of ``repeat`` runs, and the last run's result.

    CPU time is the process's, all threads together.
    """
    best = Timing(float("inf"), 0.0)
    result: Any = None
    for _ in range(repeat):
        cpu = time.process_time()
        start = time.perf_counter()
        result = run()
        wall = time.perf_counter() - start
        if wall < best.wall:
            best = Timing(wall, time.process_time() - cpu)
    return best, result


def best_times_interleaved(
    runs: dict[str, Callable[[], Any]], repeat: int
) -> dict[str, tuple[Timing, Any]]:
    """:func:`best_time` of each run, the runs taken in turn ``repeat``
    times over, so that a slow spell of the machine falls on all of them
    alike rather than on whichever ran then."""
    best = {name: (Timing(float("inf"), 0.0), None) for name in runs}
    for _ in range(repeat):
        for name, run in runs.items():
            timing, result = best_time(run, 1)
            if timing.wall < best[name][0].wall:
                best[name] = (timing, result)
    return best


def fmt_rate(x: float) -> str:
    """Items per second, readable: 1.23 M, 456 k, 7,890, 12.3."""
    if x >= 1e6:
        return f"{x / 1e6:,.2f} M"
    if x >= 1e4:
        return f"{x / 1e3:,.0f} k"
    return f"{x:,.1f}" if x < 100 else f"{x:,.0f}"
