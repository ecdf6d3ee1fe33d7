"""The variant simulator: deals per second per core (solver and greedy),
scaling from one Dask worker to two, dealt naturals against their exact
probabilities, and a paper estimate of 10^9 rounds on 100 workers.

Run on demand, not a test::

    python benches/simulate.py              # full run
    python benches/simulate.py --quick      # a short run
    python benches/simulate.py --greedy-batch   # only the greedy batch row

Timed, four-seat tables of capsa-susun, each the best of ``--repeat`` runs:

* ``capsa.simulate(strategy=...)`` in this process on one thread
  (``threads=1``: the per-core rate) and on every core;
* the same on a ``LocalCluster`` of one worker process and of two (one
  thread each; the clusters are started before timing), for the scaling.

``--greedy-batch`` (also part of the full run) times
``capsa.best_arrangement_batch(strategy="greedy")`` on the hands of the
simulator's deals, alternated with the simulator's greedy on the same deals
(dealing, arranging and settling them: its rate in hands is an upper bound
on its greedy's cost). Checked while timing: the batch's choices equal
``best_arrangement(strategy="greedy")`` on a sample, and settling the
batch's arrangements (every natural declared, as the simulator's greedy
does) gives the simulator's points histogram of every seat, exactly.

Checked while timing: every run of a strategy, whatever its threads or
workers, gives the same summary, exactly; and ``--naturals`` deals of the
greedy simulation count each natural within 4.5 standard deviations of its
exact probability (the test suite checks 10^6 deals on the naturals-only
path, ``capsa.simulation.dealt_naturals``; this checks them through the
whole simulation).
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from typing import Any

import numpy as np
from bench_common import Timing, best_time, fmt_rate, machine

import capsa
from capsa import _core, odds
from capsa.simulation import Summary, simulate

RULES = "capsa-susun"


def timed(repeat: int, **kwargs: Any) -> tuple[Timing, Summary]:
    timing, summary = best_time(lambda: simulate(RULES, seed=1, stake=100, **kwargs), repeat)
    return timing, summary


def on_cluster(
    workers: int, repeat: int, deals: dict[str, int]
) -> dict[str, tuple[Timing, Summary]]:
    from distributed import Client, LocalCluster

    out = {}
    with (
        LocalCluster(
            n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=":0"
        ) as cluster,
        Client(cluster) as client,
    ):
        for strategy, n in deals.items():
            simulate(RULES, deals=8, strategy=strategy, client=client)  # compile on the workers
            best = (Timing(float("inf"), 0.0), None)
            for _ in range(repeat):
                before = sum(client.run(time.process_time).values())
                timing, summary = timed(1, deals=n, strategy=strategy, client=client)
                used = sum(client.run(time.process_time).values()) - before
                if timing.wall < best[0].wall:
                    best = (Timing(timing.wall, timing.cpu + used), summary)
            out[strategy] = best
    return out


def greedy_batch(deals: int, repeat: int) -> None:
    """The greedy batch against the simulator's greedy, alternated, same deals."""
    seats = 4
    hands = np.asarray([_core.simulated_deal(1, i, seats) for i in range(deals)], np.uint8).reshape(
        -1, 13
    )
    n = len(hands)
    capsa.best_arrangement_batch(hands[:8], strategy="greedy")  # compile the arranger
    simulate(RULES, deals=8, strategy="greedy")
    batch = sim = Timing(float("inf"), 0.0)
    laid: Any = None
    summary: Any = None
    for _ in range(repeat):
        t, laid = best_time(lambda: capsa.best_arrangement_batch(hands, strategy="greedy"), 1)
        batch = min(batch, t)
        t, summary = best_time(
            lambda: simulate(RULES, deals=deals, strategy="greedy", seed=1, stake=1), 1
        )
        sim = min(sim, t)
    sample = range(0, n, max(1, n // 2000))
    for k in sample:
        one = capsa.best_arrangement(hands[k].tolist(), strategy="greedy").arrangement
        assert list(one.ids) == laid[k].tolist(), k
    points = capsa.settle_batch(laid.reshape(deals, seats, 13)).points
    for seat in range(seats):
        values, counts = np.unique(points[:, seat], return_counts=True)
        histogram = dict(zip(values.tolist(), counts.tolist(), strict=True))
        assert histogram == summary.points[seat], seat
    print(f"Greedy arrangements of the {n:,} hands of {deals:,} four-seat deals, best of {repeat}")
    print()
    print("| run | hands/s | hands per CPU second | CPU/wall |")
    print("|---|---:|---:|---:|")
    for name, t in (
        ("best_arrangement_batch(strategy='greedy')", batch),
        ("simulate(strategy='greedy'): deal, arrange, settle", sim),
    ):
        print(f"| {name} | {fmt_rate(n / t.wall)} | {fmt_rate(n / t.cpu)} | {t.cpu / t.wall:.2f} |")
    print()
    print(f"batch / simulator: {sim.wall / batch.wall:.2f}x wall, {sim.cpu / batch.cpu:.2f}x CPU")
    print(
        f"checked: {len(sample):,} rows equal best_arrangement; the batch's arrangements "
        "settle to the simulator's points histogram of every seat"
    )


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--quick", action="store_true")
    p.add_argument("--repeat", type=int, default=2)
    p.add_argument("--naturals", type=int, default=1_000_000)
    p.add_argument("--greedy-batch", action="store_true", help="only the greedy batch row")
    args = p.parse_args()
    deals = (
        {"solver": 1000, "greedy": 100_000} if args.quick else {"solver": 6000, "greedy": 1_000_000}
    )
    naturals = 100_000 if args.quick else args.naturals
    print(f"machine: {machine()}")
    print(f"command: python {' '.join(sys.argv)}")
    print()
    greedy_batch(25_000 if args.quick else 250_000, args.repeat)
    if args.greedy_batch:
        return
    print()
    rows = []
    per_core: dict[str, float] = {}
    summaries: dict[str, Summary] = {}
    for strategy, n in deals.items():
        simulate(RULES, deals=8, strategy=strategy)  # compile the arranger once
        one, summary = timed(args.repeat, deals=n, strategy=strategy, threads=1)
        every, again = timed(args.repeat, deals=n, strategy=strategy)
        assert again == summary, f"{strategy}: the thread count changed the summary"
        summaries[strategy] = summary
        per_core[strategy] = n / one.cpu  # a core of its own: deals per CPU second
        rows.append((f"{strategy}, in process, 1 thread", n, one))
        rows.append((f"{strategy}, in process, all cores", n, every))
    clusters = {w: on_cluster(w, args.repeat, deals) for w in (1, 2)}
    for w, results in clusters.items():
        for strategy, (timing, summary) in results.items():
            assert summary == summaries[strategy], f"{strategy}: {w} workers changed the summary"
            name = f"{strategy}, Dask, {w} worker{'s' if w > 1 else ''} x 1 thread"
            rows.append((name, deals[strategy], timing))
    print("Four-seat deals of capsa-susun (deal, arrange every seat, settle, count), stake 100")
    print()
    print("| run | deals | deals/s | deals per CPU second | CPU/wall |")
    print("|---|---:|---:|---:|---:|")
    for name, n, t in rows:
        print(
            f"| {name} | {n:,} | {fmt_rate(n / t.wall)} | {fmt_rate(n / t.cpu)} | "
            f"{t.cpu / t.wall:.2f} |"
        )
    print()
    print("CPU: all threads, a cluster's worker processes included; CPU/wall is how many")
    print("cores the run got. Every run of a strategy gave the same summary, exactly.")
    print()
    for strategy in deals:
        one = clusters[1][strategy][0].wall
        two = clusters[2][strategy][0].wall
        print(f"scaling, {strategy}: 1 -> 2 workers {one / two:.2f}x")

    print()
    summary = simulate(RULES, deals=naturals, strategy="greedy", seed=7)
    hands = naturals * 4
    print(f"Naturals dealt in {naturals:,} deals ({hands:,} hands), greedy simulation, seed 7")
    print()
    print("| natural | exact probability | expected | dealt | z |")
    print("|---|---:|---:|---:|---:|")
    worst = 0.0
    for name, prob in odds.natural_probabilities().items():
        expected = float(prob) * hands
        seen = summary.qualifying[name]
        z = (seen - expected) / math.sqrt(expected * (1 - float(prob)))
        if expected >= 5:
            worst = max(worst, abs(z))
            assert abs(z) <= 4.5, (name, seen, expected)
        print(f"| {name} | {float(prob):.4g} | {expected:,.1f} | {seen:,} | {z:+.2f} |")
    print(f"\nlargest |z| over the naturals expected at least 5 times: {worst:.2f}")

    print()
    hands = np.asarray([_core.simulated_deal(1, i, 4) for i in range(2000)], np.uint8)
    laid = capsa.best_arrangement_batch(hands.reshape(-1, 13), strategy="greedy")
    cards = np.ascontiguousarray(np.resize(laid.reshape(-1, 4, 13), (1_000_000, 4, 13)))
    settle, _ = best_time(lambda: _core.settle_rounds(cards, None, threads=1), args.repeat)
    settle_rate = len(cards) / settle.cpu
    print("Paper estimate: 10^9 four-seat rounds on 100 workers of one core each, at the")
    print("per-core rates measured above (one thread, per CPU second; no scheduling or")
    print("I/O overhead counted):")
    print()
    print("| work | per core | 10^9 rounds on 100 cores |")
    print("|---|---:|---:|")
    for name, rate in (
        ("simulate, solver", per_core["solver"]),
        ("simulate, greedy", per_core["greedy"]),
        ("settle_rounds (bulk settlement, in memory)", settle_rate),
    ):
        seconds = 1e9 / (100 * rate)
        print(f"| {name} | {fmt_rate(rate)} rounds/s | {_duration(seconds)} |")


def _duration(seconds: float) -> str:
    if seconds >= 3600:
        return f"{seconds / 3600:.1f} h"
    if seconds >= 60:
        return f"{seconds / 60:.1f} min"
    return f"{seconds:.1f} s"


if __name__ == "__main__":
    main()
