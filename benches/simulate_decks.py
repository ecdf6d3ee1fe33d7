"""The variant simulator under larger decks: deals a second with a
strategy (greedy, or the solver), beside the 52-card deck's four seats in
the same run.

Run on demand, not a test::

    python benches/simulate_decks.py            # greedy, 20,000 deals a table
    python benches/simulate_decks.py --strategy solver --deals 2000

Each table is timed on one thread and on every core, the best of
``--repeat`` runs. Checked while timed: the points of every summary sum to
zero, no seat fouls, and the summary of the run on every core is the
one-thread run's, exactly.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import capsa

TABLES = [
    ("capsa-susun", {"base": "capsa-susun"}, 4),
    ("shisanshui-5 (clubs added)", {"base": "shisanshui-5"}, 5),
    ("shisanshui-6 (clubs, hearts added)", {"base": "shisanshui-6"}, 6),
    ("shisanshui-jokers", {"base": "shisanshui-jokers"}, 4),
    ("two decks, two jokers", {"base": "shisanshui-jokers", "deck": {"decks": 2}}, 8),
]


def _timed(rules: capsa.Rules, seats: int, args: argparse.Namespace, threads: int | None) -> Any:
    best, summary = float("inf"), None
    for _ in range(args.repeat):
        start = time.perf_counter()
        summary = capsa.simulate(
            rules, deals=args.deals, seats=seats, strategy=args.strategy, seed=7, threads=threads
        )
        best = min(best, time.perf_counter() - start)
    return best, summary


def _check(summary: Any) -> None:
    total = sum(points * count for seat in summary.points for points, count in seat.items())
    assert total == 0, f"points sum to {total}"
    assert summary.fouls == 0, f"{summary.fouls} seats fouled"


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--deals", type=int, default=20_000)
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--strategy", choices=["greedy", "solver"], default="greedy")
    args = p.parse_args()
    print(f"simulate, {args.strategy}, {args.deals:,} deals a table, best of {args.repeat}")
    for name, data, seats in TABLES:
        rules = capsa.Rules(data)
        one, alone = _timed(rules, seats, args, 1)
        every, together = _timed(rules, seats, args, None)
        _check(alone)
        assert together == alone, "the summary depends on the threads"
        print(
            f"{name:38s} {seats} seats: {args.deals / one:9,.0f} deals/s one thread, "
            f"{args.deals / every:9,.0f} on every core"
        )


if __name__ == "__main__":
    main()
