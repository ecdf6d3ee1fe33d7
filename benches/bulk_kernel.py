"""The bulk kernel (``_core.settle_rounds``) on four-seat rounds of the
52-card deck, this build against another build's ``python`` folder.

Run on demand, not a test::

    python benches/bulk_kernel.py --before /path/to/other/checkout/python
    python benches/bulk_kernel.py --rounds 100000 --runs 5

Each build is timed in its own process (best of five calls on every core),
the builds in turn ``--runs`` times. Checked: both builds give the same sum
of the absolute figures on the same rounds (random deals, arranged as
dealt, so some foul), and no round is refused.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

_TIMED = """
import sys, time
sys.path.insert(0, sys.argv[1])
import numpy as np
import capsa
from capsa import _core
n = int(sys.argv[2])
rng = np.random.default_rng(7)
cards = np.argsort(rng.random((n, 52)), axis=1).astype(np.uint8).reshape(n, 4, 13)
rules = capsa.Rules.preset("capsa-susun")
stakes = np.full(n, 100, np.int64)
best = float("inf")
for _ in range(5):
    start = time.perf_counter()
    figures, _, refused, _ = _core.settle_rounds(cards, rules, stakes)
    best = min(best, time.perf_counter() - start)
assert len(refused) == 0, refused[:5]
print(n / best, int(np.abs(figures).sum()))
"""


def _run(python_dir: Path, rounds: int) -> tuple[float, int]:
    out = subprocess.run(
        [sys.executable, "-c", _TIMED, str(python_dir), str(rounds)],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.split()
    return float(out[0]), int(out[1])


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--before", type=Path, required=True, help="the other build's python folder")
    p.add_argument("--rounds", type=int, default=400_000)
    p.add_argument("--runs", type=int, default=3)
    args = p.parse_args()
    this = Path(__file__).resolve().parent.parent / "python"
    rates: dict[str, list[float]] = {"this": [], "before": []}
    sums: set[int] = set()
    for _ in range(args.runs):
        for name, where in (("this", this), ("before", args.before)):
            rate, total = _run(where, args.rounds)
            rates[name].append(rate)
            sums.add(total)
    assert len(sums) == 1, f"the builds' figures differ: {sorted(sums)}"
    for name, values in rates.items():
        shown = ", ".join(f"{v / 1e6:.2f}" for v in values)
        print(f"{name:>6}: {shown} M rounds/s")
    ratio = [a / b for a, b in zip(rates["this"], rates["before"], strict=True)]
    print(f" ratio: {min(ratio):.3f}-{max(ratio):.3f} (this / before, run by run)")


if __name__ == "__main__":
    main()
