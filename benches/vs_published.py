"""Heads-up duplicate match against the best published arranger.

The opponent is the per-row win-probability-table player of Paul Hankin's
cpoker (github.com/paulhankin/cpoker, MIT), with its own trained
coefficients, built here from checkouts of cpoker and of its evaluator
(github.com/paulhankin/poker) by ``benches/published/main.go``; nothing of
theirs is kept in capsa. It arranges for plain 2-4 scoring: one point a
row, one for the majority, no royalties, no naturals, no surrender; the
match settles by exactly those rules (the ``2-4`` preset with royalties,
naturals and surrender off), and capsa is told them.

Each deal gives two hands; capsa plays the first against the published
player on the second, then the other way round. The figure is capsa's
points per hand (the mean of the two games per deal, 95% CI over deals).
Needs a Go toolchain (``go``). Reproducible by seed:

    python benches/vs_published.py --cpoker ~/src/cpoker --poker ~/src/poker --deals 20000
"""

from __future__ import annotations

import argparse
import math
import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

import numpy as np

from capsa import Rules, Seat, deal, settle
from capsa.arrangement import Arrangement
from capsa.solver import EFFORTS, best_arrangement_batch

HERE = Path(__file__).resolve().parent

PLAIN_2_4 = {
    "royalty_mode": "none",
    "naturals.enabled": [],
    "surrender.enabled": False,
}


def build_player(cpoker: Path, poker: Path, out: Path, go: str) -> Path:
    """Builds the driver in a GOPATH laid out from the two checkouts."""
    gopath = out / "gopath"
    dest = {
        cpoker: gopath / "src/github.com/paulhankin/cpoker",
        poker / "poker": gopath / "src/github.com/paulhankin/poker/v2/poker",
    }
    for src, dst in dest.items():
        dst.mkdir(parents=True)
        for f in src.glob("*.go"):
            # the library only: no tests, no table generator (tables are
            # computed at start with the gendata tag)
            if not f.name.endswith("_test.go") and f.name != "gen_tables_static.go":
                shutil.copy(f, dst)
    driver = gopath / "src/capsabench/published"
    driver.mkdir(parents=True)
    shutil.copy(HERE / "published/main.go", driver)
    binary = out / "published"
    env = dict(os.environ, GOPATH=str(gopath), GO111MODULE="off", GOFLAGS="")
    subprocess.run(
        [go, "build", "-tags", "gendata", "-o", str(binary), "."], cwd=driver, env=env, check=True
    )
    return binary


def published_arrangements(binary: Path, coefficients: Path, hands: np.ndarray) -> np.ndarray:
    text = "\n".join(" ".join(map(str, h)) for h in hands) + "\n"
    out = subprocess.run(
        [str(binary), str(coefficients)], input=text, capture_output=True, text=True, check=True
    ).stdout
    return np.array([[int(x) for x in line.split()] for line in out.splitlines()], dtype=np.uint8)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--cpoker", type=Path, required=True, help="a checkout of paulhankin/cpoker")
    p.add_argument("--poker", type=Path, required=True, help="a checkout of paulhankin/poker")
    p.add_argument("--deals", type=int, default=20_000)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--effort", default="fast", choices=EFFORTS, help="capsa's effort")
    p.add_argument("--go", default="go", help="the Go command")
    p.add_argument(
        "--tables",
        type=Path,
        default=None,
        help="a tables file for capsa (python -m capsa.tables train); default: the shipped ones",
    )
    a = p.parse_args()
    rules = Rules.preset("2-4").derive(PLAIN_2_4)
    hands = np.array(
        [h for i in range(a.deals) for h in deal(2, seed=a.seed * 1_000_003 + i)], dtype=np.uint8
    ).reshape(a.deals, 2, 13)
    flat = hands.reshape(-1, 13)
    with tempfile.TemporaryDirectory() as tmp:
        binary = build_player(a.cpoker, a.poker, Path(tmp), a.go)
        start = time.time()
        theirs = published_arrangements(binary, a.cpoker / "coefficients.data", flat)
        their_time = time.time() - start
    start = time.time()
    tables = a.tables.read_bytes() if a.tables else None
    ours = best_arrangement_batch(flat, rules, seats=2, effort=a.effort, tables=tables)
    our_time = time.time() - start
    theirs = theirs.reshape(a.deals, 2, 13)
    scores = match(rules, ours.reshape(a.deals, 2, 13), theirs)
    print(
        f"plain 2-4 heads-up, deals={a.deals} seed={a.seed} effort={a.effort} "
        f"tables={a.tables.name if a.tables else 'shipped'} "
        f"(capsa {our_time:.0f}s, published {their_time:.0f}s)"
    )
    print(f"  capsa vs published: {mean_ci(scores)} points per hand")
    if a.effort != "fast":
        # the same deals at the fast effort: the paired difference is what
        # the effort buys, with far less noise than either match
        fast = best_arrangement_batch(flat, rules, seats=2, tables=tables)
        fast = fast.reshape(a.deals, 2, 13)
        fast_scores = match(rules, fast, theirs)
        print(f"  fast capsa vs published, same deals: {mean_ci(fast_scores)}")
        print(f"  {a.effort} - fast: {mean_ci(scores - fast_scores)} points per hand")


def match(rules: Rules, ours: np.ndarray, theirs: np.ndarray) -> np.ndarray:
    """capsa's points per hand of each deal: the mean of its two games."""
    per_deal = np.empty(len(ours))
    for d in range(len(ours)):
        total = 0
        for mine in (0, 1):
            seats = [
                Seat(Arrangement.from_ids(ours[d, mine].tolist())),
                Seat(Arrangement.from_ids(theirs[d, 1 - mine].tolist())),
            ]
            result = settle(seats, rules)
            if any(s["foul"] for s in result.seats):
                raise SystemExit(f"deal {d}: a fouled hand (the rules or the driver are wrong)")
            total += result.points[0]
        per_deal[d] = total / 2
    return per_deal


def mean_ci(xs: np.ndarray) -> str:
    """The mean and its 95% half-width, as text."""
    return f"{xs.mean():+.4f} ± {1.96 * xs.std(ddof=1) / math.sqrt(len(xs)):.4f}"


if __name__ == "__main__":
    main()
