"""Time per hand of the solver's efforts on one core.

Arranges seeded hands one at a time (one thread) with ``effort="fast"`` and
``effort="deep"`` and prints the mean wall and CPU time per hand (the CPU
time of the calling thread, which is what one core spends, whatever else
the machine runs). Reproducible by seed:

    python benches/deep.py --preset capsa-susun --seats 4 --hands 100
"""

from __future__ import annotations

import argparse
import time

from bench_common import machine

from capsa import Rules, deal, presets
from capsa.solver import best_arrangement


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--preset", default="capsa-susun", choices=presets())
    p.add_argument("--seats", type=int, default=4, choices=(2, 3, 4))
    p.add_argument("--hands", type=int, default=100)
    p.add_argument("--seed", type=int, default=1)
    a = p.parse_args()
    rules = Rules.preset(a.preset)
    hands = [deal(4, seed=a.seed * 1_000_003 + i)[0] for i in range(a.hands)]
    print(machine())
    print(f"preset={a.preset} seats={a.seats} hands={a.hands} seed={a.seed}")
    for effort in ("fast", "deep"):
        best_arrangement(hands[0], rules, seats=a.seats, effort=effort)  # compile and cache
        cpu, wall = time.thread_time(), time.perf_counter()
        for h in hands:
            best_arrangement(h, rules, seats=a.seats, effort=effort)
        cpu, wall = time.thread_time() - cpu, time.perf_counter() - wall
        print(
            f"  {effort:>4}: {1e3 * wall / a.hands:8.2f} ms wall, "
            f"{1e3 * cpu / a.hands:8.2f} ms CPU per hand"
        )


if __name__ == "__main__":
    main()
