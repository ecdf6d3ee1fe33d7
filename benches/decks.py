"""Ranking under every deck: the 52-card paths against the build before, and
the evaluator of decks with copies and jokers.

Run on demand, not a test::

    python benches/decks.py --before /path/to/other/checkout/python
    python benches/decks.py --quick          # this build only, a short run

Measured in a subprocess per build, the builds in turn five times, each
run the best of five:

* ``capsa.evaluate`` per call on 200,000 52-card hands (lists of 5 ints);
* ``capsa.evaluate_batch`` (all cores) on all 2,598,960 five-card hands.

Then this build alone: ``evaluate_batch`` (all cores) on 2,000,000 random
hands of a 65-card deck (spades added) and of two decks with two jokers,
and ``evaluate`` per call on 200,000 hands of the latter.

Checked while timed: each build's strength sum of the 52-card hands is the
same (the 52-card strengths did not change); the wide batches equal
per-call ``evaluate`` on a sample, and the pure-Python oracle orders a
sample of them as the engine does.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from itertools import combinations, pairwise
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

HERE = Path(__file__).resolve().parent
DECKS = {
    "65 cards (spades added)": {"deck": {"added_suits": "s"}},
    "106 cards (two decks, two jokers)": {"deck": {"decks": 2, "jokers": 2}},
}


def _all_hands() -> npt.NDArray[np.uint8]:
    return np.array(list(combinations(range(52), 5)), dtype=np.uint8)


def _random_hands(deck: list[int], count: int, seed: int) -> npt.NDArray[np.uint8]:
    rng = np.random.default_rng(seed)
    keys = rng.random((count, len(deck)))
    picks = np.argpartition(keys, 5, axis=1)[:, :5]
    return np.asarray(deck, dtype=np.uint8)[picks]


def _best(run: Any, repeat: int) -> tuple[float, Any]:
    best, value = float("inf"), None
    for _ in range(repeat):
        start = time.perf_counter()
        value = run()
        best = min(best, time.perf_counter() - start)
    return best, value


def worker(kind: str, repeat: int) -> dict[str, Any]:
    """One build's timing of ``kind``, with the checksum of what it computed."""
    import capsa

    hands = _all_hands()
    if kind == "batch":
        seconds, out = _best(lambda: capsa.evaluate_batch(hands), repeat)
        return {"seconds": seconds, "count": len(hands), "sum": int(out.sum(dtype=np.uint64))}
    sample = [list(map(int, h)) for h in hands[:: len(hands) // 200_000][:200_000]]
    evaluate = capsa.evaluate

    def per_call() -> int:
        return sum(evaluate(h).strength for h in sample)

    seconds, total = _best(per_call, repeat)
    return {"seconds": seconds, "count": len(sample), "sum": total}


def _run_worker(python_dir: Path, kind: str, repeat: int) -> dict[str, Any]:
    env = {**os.environ, "PYTHONPATH": f"{python_dir}{os.pathsep}{HERE}"}
    out = subprocess.run(
        [sys.executable, __file__, "--worker", kind, "--repeat", str(repeat)],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    return dict(json.loads(out.stdout))


def compare_builds(before: Path, repeat: int) -> None:
    """The 52-card paths, this build and the one before, in turn."""
    this = HERE.parent / "python"
    for kind, what in (("per-call", "evaluate per call"), ("batch", "evaluate_batch")):
        times: dict[str, float] = {"this": float("inf"), "before": float("inf")}
        sums: dict[str, int] = {}
        for _ in range(repeat):
            for name, where in (("this", this), ("before", before)):
                got = _run_worker(where, kind, repeat)
                times[name] = min(times[name], got["seconds"])
                sums[name] = got["sum"]
                count = got["count"]
        assert sums["this"] == sums["before"], f"{what}: the 52-card strengths changed"
        ratio = times["this"] / times["before"]
        print(
            f"{what:22} 52-card hands: this build {count / times['this'] / 1e6:7.2f} M/s, "
            f"before {count / times['before'] / 1e6:7.2f} M/s, time ratio {ratio:.3f}"
        )


def wide_decks(count: int, repeat: int) -> None:
    """This build's batch and per-call ranking of hands of larger decks."""
    import capsa
    from capsa import oracle

    for name, changes in DECKS.items():
        rules = capsa.Rules.preset("capsa-susun").derive(changes)
        deck = [c for c in range(106) if _holds(rules, c)]
        hands = _random_hands(deck, count, seed=7)
        seconds, out = _best(
            lambda hands=hands, rules=rules: capsa.evaluate_batch(hands, rules), repeat
        )
        sample = hands[:: max(1, count // 2000)]
        per_call = [capsa.evaluate(list(map(int, h)), rules).strength for h in sample]
        assert out[:: max(1, count // 2000)].tolist() == per_call, f"{name}: batch != per call"
        _agrees_with_oracle(oracle, rules, sample[:300], per_call[:300], name)
        jokers = float(np.mean((hands >= 104).any(axis=1)))
        fives = int(np.sum(out >> 28 == 10))
        print(
            f"evaluate_batch {name:34} {count / seconds / 1e6:7.2f} M hands/s "
            f"({100 * jokers:.1f}% with a joker, {fives} five of a kind)"
        )
        if "jokers" in name:
            lists = [list(map(int, h)) for h in hands[:200_000]]
            seconds, _ = _best(
                lambda lists=lists, rules=rules: [capsa.evaluate(h, rules) for h in lists], repeat
            )
            print(f"evaluate per call {name:31} {len(lists) / seconds / 1e6:7.2f} M hands/s")


def _holds(rules: Any, card: int) -> bool:
    import capsa

    try:
        capsa.evaluate([card, *(c for c in (0, 1, 2, 3) if c != card)][:3], rules)
    except capsa.CardError:
        return False
    return True


def _agrees_with_oracle(
    oracle: Any, rules: Any, hands: Any, strengths: list[int], name: str
) -> None:
    config = oracle.load_rules(rules.to_dict())
    order = sorted(range(len(hands)), key=lambda k: strengths[k])
    for a, b in pairwise(order):
        want = (strengths[a] > strengths[b]) - (strengths[a] < strengths[b])
        got = oracle.compare([int(x) for x in hands[a]], [int(x) for x in hands[b]], config)
        assert got == want, f"{name}: the oracle orders {hands[a]} and {hands[b]} otherwise"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--before", type=Path, help="the python/ folder of the build to compare with")
    p.add_argument("--quick", action="store_true", help="a short run: this build, smaller samples")
    p.add_argument("--repeat", type=int, default=5)
    p.add_argument("--worker", help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.worker:
        print(json.dumps(worker(args.worker, args.repeat)))
        return 0
    repeat = 1 if args.quick else args.repeat
    from bench_common import machine

    print(machine())
    if args.before:
        compare_builds(args.before, repeat)
    wide_decks(200_000 if args.quick else 2_000_000, repeat)
    return 0


if __name__ == "__main__":
    sys.exit(main())
