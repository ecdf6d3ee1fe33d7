"""Naturals under every deck: 52-card settlement against the build before,
and declaring naturals of larger decks per call.

Run on demand, not a test::

    python benches/naturals_decks.py --before /path/to/other/checkout/python
    python benches/naturals_decks.py          # this build only

Measured in a subprocess per build, the builds in turn six times, each run
the best of five: ``settle_batch`` on one thread (``RAYON_NUM_THREADS=1``)
of 200,000 four-seat capsa-susun tables as dealt (naturals enabled). Then
this build alone: ``natural`` per call on hands of two decks with none, one
and two jokers, under rules enabling all twenty naturals.

Checked while timed: both builds' settlement points are the same array
(by digest); the per-call answers equal the pure-Python oracle's on a
sample of the hands.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

HERE = Path(__file__).resolve().parent
TABLES = 200_000


def _settle_run() -> dict[str, Any]:
    import capsa

    rng = np.random.default_rng(7)
    cards = np.argsort(rng.random((TABLES, 52)), axis=1).reshape(TABLES, 4, 13).astype(np.uint8)
    rules = capsa.Rules.preset("capsa-susun")
    best, points = float("inf"), None
    for _ in range(5):
        start = time.perf_counter()
        points = capsa.settle_batch(cards, rules)[0]
        best = min(best, time.perf_counter() - start)
    digest = hashlib.sha256(np.ascontiguousarray(points).tobytes()).hexdigest()
    return {"rate": TABLES / best, "digest": digest}


def _in_subprocess(python_dir: Path) -> dict[str, Any]:
    env = {**os.environ, "PYTHONPATH": str(python_dir), "RAYON_NUM_THREADS": "1"}
    out = subprocess.run(
        [sys.executable, __file__, "--child"], env=env, capture_output=True, text=True, check=True
    )
    result: dict[str, Any] = json.loads(out.stdout)
    return result


def _compare(before: Path) -> None:
    here = HERE.parent / "python"
    ratios = []
    for _ in range(6):
        new, old = _in_subprocess(here), _in_subprocess(before)
        assert new["digest"] == old["digest"], "the builds settle differently"
        ratios.append(new["rate"] / old["rate"])
        rates = f"{new['rate'] / 1e6:.3f} M/s, before {old['rate'] / 1e6:.3f} M/s"
        print(f"settle_batch one thread: {rates}")
    ratios.sort()
    spread = f"range {ratios[0]:.3f} to {ratios[-1]:.3f}"
    print(f"throughput ratio, median of 6: {ratios[3]:.3f} ({spread})")


def _natural_per_call() -> None:
    import capsa
    from capsa import oracle

    enabled = [{"name": n, "points": 1 + i} for i, n in enumerate(capsa.NATURAL_NAMES)]
    data = {"deck": {"decks": 2, "jokers": 2}, "naturals": {"enabled": enabled}}
    rules = capsa.Rules.preset("capsa-susun").derive(data)
    config = oracle.load_rules({**data})
    rng = np.random.default_rng(11)
    plain = list(range(104))
    for jokers in (0, 1, 2):
        hands = []
        for _ in range(300):
            cards = list(rng.choice(plain, 13 - jokers, replace=False)) + [104, 105][:jokers]
            hands.append([int(c) for c in cards])
        start = time.perf_counter()
        answers = [capsa.natural(h, rules) for h in hands]
        per_call = (time.perf_counter() - start) / len(hands)
        for h, a in zip(hands[:40], answers[:40], strict=True):
            assert a == oracle.natural(h, config), h
        print(f"natural per call, two decks, {jokers} joker(s): {per_call * 1e6:.1f} µs")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", type=Path, help="the python/ folder of the build before")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(_settle_run()))
        return
    if args.before is not None:
        _compare(args.before)
    _natural_per_call()


if __name__ == "__main__":
    main()
