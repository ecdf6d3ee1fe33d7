"""Best-response check of the solver.

For each sampled hand: sample opponent hands (heads-up) from the rest of
the rules' deck (39 cards of the 52-card deck), arranged (fast) by
``--opponents-strategy`` (default the solver); score every legal
arrangement of the hand (and declaring its natural) against all of them
with the settlement rules; report the regret of the pick of
``--strategy`` at ``--effort`` = best mean - pick mean (points per
opponent per hand). ``regret`` is biased upward by the maximum over noisy
means; ``holdout`` picks the best on half the opponents and scores it on
the other half (unbiased, can be negative). Reproducible by seed. The
check's opponents come from the seed's stream; the deep mode samples its
own, seeded by the hand's cards, so it is never scored on its own samples.

    python benches/regret.py --preset pagat --hands 500 --opponents 2000 --seed 1
    python benches/regret.py --preset pagat --hands 500 --opponents 2000 --seed 1 --effort deep
    python benches/regret.py --preset capsa-susun --hands 500 --seed 4 --effort deep --paired
    python benches/regret.py --preset 2-4 --opponents-strategy greedy
"""

from __future__ import annotations

import argparse
import math
import time
from pathlib import Path
from typing import Any

from capsa import Rules, presets
from capsa.solver import EFFORTS, STRATEGIES, best_response_check


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--preset", default="pagat", choices=presets())
    p.add_argument("--hands", type=int, default=200)
    p.add_argument("--opponents", type=int, default=2000)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--seats", type=int, default=2, choices=(2,), help="heads-up (pair points)")
    p.add_argument("--strategy", default="solver", choices=STRATEGIES, help="the checked pick")
    p.add_argument("--effort", default="fast", choices=EFFORTS, help="the pick's effort")
    p.add_argument(
        "--opponents-strategy",
        default="solver",
        choices=STRATEGIES,
        help="how the opponents arrange (fast)",
    )
    p.add_argument("--worst", type=int, default=0, help="print the N worst hands")
    p.add_argument(
        "--paired",
        action="store_true",
        help="also check the fast effort on the same hands and opponents and print the "
        "difference of the two picks' values, hand by hand",
    )
    p.add_argument(
        "--tables",
        type=Path,
        help="a tables file (python -m capsa.tables train) for the pick and the opponents; "
        "default: the shipped ones",
    )
    a = p.parse_args()
    start = time.time()
    r = check(a, a.effort)
    dt = time.time() - start
    print(
        f"preset={a.preset} hands={a.hands} opponents={a.opponents} seed={a.seed} "
        f"strategy={a.strategy} effort={a.effort} opponents-strategy={a.opponents_strategy} "
        f"tables={a.tables.name if a.tables else 'shipped'} ({dt:.1f}s)"
    )
    print(f"  mean regret : {r['mean_regret']:.4f} ± {r['regret_ci95']:.4f} points per opponent")
    print(
        f"  holdout     : {r['mean_holdout_regret']:+.4f} ± {r['holdout_ci95']:.4f} "
        "points per opponent"
    )
    zero = sum(1 for h in r["hands"] if h[4] < 1e-12)
    print(f"  the pick is the sampled best in {zero}/{len(r['hands'])} hands")
    if a.worst:
        from capsa.cards import format_cards

        for h in sorted(r["hands"], key=lambda h: -h[4])[: a.worst]:
            print(f"  {format_cards(sorted(h[0]))}: regret {h[4]:.3f} (pick {h[2]:+.3f})")
    if a.paired:
        paired(r, check(a, "fast"), a.effort)


def check(a: argparse.Namespace, effort: str) -> dict[str, Any]:
    """The best-response check of the pick at ``effort``."""
    return best_response_check(
        Rules.preset(a.preset),
        hands=a.hands,
        opponents=a.opponents,
        seed=a.seed,
        strategy=a.strategy,
        effort=effort,
        opponents_strategy=a.opponents_strategy,
        tables=a.tables.read_bytes() if a.tables else None,
    )


def paired(r: dict[str, Any], fast: dict[str, Any], effort: str) -> None:
    """Prints the pick's value at ``effort`` minus the fast pick's, hand by
    hand on the same opponents (the check's best is common to both, so this
    is the fast regret minus this one), with a 95% interval."""
    d = [h[2] - f[2] for h, f in zip(r["hands"], fast["hands"], strict=True)]
    n = len(d)
    mean = sum(d) / n
    var = sum((x - mean) ** 2 for x in d) / max(n - 1, 1)
    ci = 1.96 * math.sqrt(var / n)
    differ = sum(1 for x in d if x != 0)
    print(
        f"  {effort} minus fast, the same hands and opponents: {mean:+.4f} ± {ci:.4f} "
        f"points per opponent (the picks differ in {differ}/{n} hands; fast regret "
        f"{fast['mean_regret']:.4f}, holdout {fast['mean_holdout_regret']:+.4f})"
    )


if __name__ == "__main__":
    main()
