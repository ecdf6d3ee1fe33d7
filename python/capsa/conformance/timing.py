"""Where a run's time and requests go: per-phase timings and the shrink budget.

:class:`Phases` measures each phase of a run (``handshake``, ``vectors``,
``fuzz``, ``shrink``, and any later phase such as an inference check) in
wall seconds and in requests asked. :class:`ShrinkBudget` is what
shrinking may spend in all, written ``REQUESTS:SECONDSs`` on the command
line (``--shrink-budget 2000:60s``).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from capsa import ArgumentError

__all__ = ["Phases", "ShrinkBudget"]


@dataclass(frozen=True)
class ShrinkBudget:
    """The most shrinking may spend over all failures of a run: ``requests``
    candidates asked and ``seconds`` of wall time (the default keeps the
    shrinking of a pure-Python engine answering in milliseconds to about a
    minute). Building one raises nothing; :meth:`parse` checks the text."""

    requests: int = 2000
    seconds: float = 60.0

    @staticmethod
    def parse(text: str) -> ShrinkBudget:
        """``"2000:60s"``, ``"2000"`` (requests; the default seconds) or ``"60s"``
        (seconds; the default requests). Raises :class:`capsa.ArgumentError`
        (a ``ValueError``) for any other text or a budget of 0 seconds."""
        head, colon, tail = text.strip().partition(":")
        if not colon and head.endswith("s"):
            head, tail = "", head
        bad = ArgumentError(
            f'a shrink budget is REQUESTS:SECONDSs, e.g. "2000:60s", "500" or "30s"; not {text!r}'
        )
        if not (head or tail) or (head and not head.isdigit()) or (tail and tail[-1:] != "s"):
            raise bad
        try:
            seconds = float(tail[:-1]) if tail else ShrinkBudget.seconds
        except ValueError:
            raise bad from None
        requests = int(head) if head else ShrinkBudget.requests
        if not 0 < seconds < float("inf"):
            raise ArgumentError(f"a shrink budget needs more than 0 seconds: {text!r}")
        return ShrinkBudget(requests, seconds)

    def text(self) -> str:
        """The budget as the command line writes it: ``2000:60s``."""
        return f"{self.requests}:{self.seconds:g}s"


@dataclass
class Phases:
    """Seconds and requests of each phase, in the order the phases ran.

    ``requests`` is a callable giving the requests asked so far (the
    harness's counter); :meth:`phase` measures the block it wraps. Building
    one raises nothing."""

    requests: Callable[[], int]
    seen: dict[str, dict[str, float]] = field(default_factory=dict)

    @contextmanager
    def phase(self, name: str) -> Iterator[None]:
        """Measures the block as phase ``name`` (added to an earlier one of the
        same name). Raises what the block raises, the phase still measured."""
        start, asked = time.perf_counter(), self.requests()
        try:
            yield
        finally:
            entry = self.seen.setdefault(name, {"seconds": 0.0, "requests": 0})
            entry["seconds"] += time.perf_counter() - start
            entry["requests"] += self.requests() - asked

    def add(self, name: str, seconds: float, requests: int) -> None:
        """Records a phase measured elsewhere (the handshake, before the run's
        counter exists)."""
        entry = self.seen.setdefault(name, {"seconds": 0.0, "requests": 0})
        entry["seconds"] += seconds
        entry["requests"] += requests

    def to_json(self) -> dict[str, dict[str, float | int]]:
        """``{phase: {"seconds": s, "requests": n}}``, seconds rounded to ms."""
        return {
            name: {"seconds": round(e["seconds"], 3), "requests": int(e["requests"])}
            for name, e in self.seen.items()
        }
