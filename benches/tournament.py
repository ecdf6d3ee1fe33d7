"""Duplicate tournament between arranging strategies.

Every deal is replayed with the strategies rotated through the seats (with
two strategies each hand is played once by each), settled by the settlement
core; prints mean points per hand per strategy with a 95% confidence
interval, and the difference of the first two. Reproducible by seed.

    python benches/tournament.py --preset pagat --seats 4 --hands 20000 --seed 1
    python benches/tournament.py --preset capsa-susun --strategies solver greedy separable
    python benches/tournament.py --preset shisanshui-6 --seats 6 --hands 4000
"""

from __future__ import annotations

import argparse
import time

from capsa import Rules, presets
from capsa.solver import STRATEGIES, duplicate_tournament


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--preset", default="capsa-susun", choices=presets())
    p.add_argument(
        "--seats", type=int, default=4, help="2 to 4, or as many as the preset's deck seats"
    )
    p.add_argument("--hands", type=int, default=20_000, help="deals (tables) to play")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--strategies", nargs="+", default=["solver", "greedy"], choices=STRATEGIES)
    a = p.parse_args()
    start = time.time()
    r = duplicate_tournament(
        a.strategies, Rules.preset(a.preset), seats=a.seats, deals=a.hands, seed=a.seed
    )
    dt = time.time() - start
    print(
        f"preset={a.preset} seats={a.seats} deals={a.hands} seed={a.seed} "
        f"patterns={r['patterns']} ({dt:.1f}s)"
    )
    for name, m, c in zip(r["strategies"], r["mean"], r["ci95"], strict=True):
        print(f"  {name:>10}: {m:+.4f} ± {c:.4f} points per hand")
    s0, s1 = r["strategies"][:2]
    print(f"  {s0} - {s1}: {r['diff']:+.4f} ± {r['diff_ci95']:.4f} points per hand")


if __name__ == "__main__":
    main()
