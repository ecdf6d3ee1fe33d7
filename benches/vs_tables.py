"""Duplicate match between the solver with two tables files.

Every deal of ``--seats`` hands is played under the patterns "seat s plays
side s mod 2" rotated (as ``duplicate_tournament`` does with two
strategies), so every hand is played once by each side; each side's seats
are arranged by the solver (fast) with its own tables, every seat
declares its natural, and each table is settled by ``settle_batch``
(stake 1). The figure is side A's points per hand minus side B's, 95% CI
over deals. Reproducible by seed; a tables file is one
``python -m capsa.tables train`` writes, or ``shipped`` for the package's.
A name ending in ``:independent`` drops the file's joint section, so that
the solver takes the rows as independent (as with the tables of trainer 2
and before: the previous solver is ``OLD.bin:independent`` with OLD.bin
from ``python -m capsa.tables train --preset P --iterations 4``).

    python benches/vs_tables.py --preset pagat --a new.bin --b shipped --deals 20000 --seed 1
    python benches/vs_tables.py --preset capsa-susun --a shipped --b shipped:independent
"""

from __future__ import annotations

import argparse
import math
import time
from pathlib import Path

import numpy as np
import numpy.typing as npt

from capsa import Rules, deal, presets, settle_batch
from capsa.solver import best_arrangement_batch, load_tables


def patterns(seats: int) -> list[list[int]]:
    """The distinct rotations of "seat s plays side s mod 2"."""
    out: list[list[int]] = []
    for rotation in range(seats):
        pattern = [(seat + rotation) % 2 for seat in range(seats)]
        if pattern not in out:
            out.append(pattern)
    return out


def side_difference(
    rules: Rules, laid: list[npt.NDArray[np.uint8]], seats: int
) -> npt.NDArray[np.float64]:
    """Per deal: side A's mean points per hand minus side B's."""
    deals = laid[0].shape[0]
    totals = np.zeros((2, deals))
    hands = np.zeros(2)
    for pattern in patterns(seats):
        table = np.stack([laid[side][:, s] for s, side in enumerate(pattern)], axis=1)
        result = settle_batch(np.ascontiguousarray(table), rules, 1)
        if len(result.errors):
            raise SystemExit(f"a table could not be settled: {result.errors[:3]}")
        for s, side in enumerate(pattern):
            totals[side] += result.points[:, s]
            hands[side] += 1
    zero_sum = totals.sum(axis=0)
    assert not zero_sum.any(), "every table is zero-sum"
    return np.asarray(totals[0] / hands[0] - totals[1] / hands[1], dtype=np.float64)


def varint_end(data: bytes, pos: int) -> int:
    """The position after the varint at ``pos``."""
    while data[pos] & 0x80:
        pos += 1
    return pos + 1


def varint_at(data: bytes, pos: int) -> tuple[int, int]:
    """The varint at ``pos`` and the position after it."""
    end = varint_end(data, pos)
    return sum((b & 0x7F) << (7 * i) for i, b in enumerate(data[pos:end])), end


def without_joint(data: bytes) -> bytes:
    """The tables file cut after its rows (the format of
    ``capsa.tables``: header, then per row a count and pairs of varints)."""
    pos = 12 + int.from_bytes(data[8:12], "little")
    for _ in range(3):
        count, pos = varint_at(data, pos)
        for _ in range(2 * count):
            pos = varint_end(data, pos)
    return data[:pos]


def read_tables(name: str, preset: str) -> bytes:
    source, _, mode = name.partition(":")
    if mode not in ("", "independent"):
        raise SystemExit(f"unknown tables mode {mode!r} in {name!r} (only :independent)")
    data = load_tables(preset if source == "shipped" else Path(source))
    if data is None:
        raise SystemExit(f"no tables for {name!r}")
    return without_joint(data) if mode else data


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--preset", default="capsa-susun", choices=presets())
    spec = "a tables file or shipped, [:independent]"
    p.add_argument("--a", required=True, help=f"side A's tables: {spec}")
    p.add_argument("--b", default="shipped", help=f"side B's tables: {spec}")
    p.add_argument("--seats", type=int, default=4, choices=(2, 3, 4))
    p.add_argument("--deals", type=int, default=20_000)
    p.add_argument("--seed", type=int, default=1)
    a = p.parse_args()
    rules = Rules.preset(a.preset)
    hands = np.array(
        [h for i in range(a.deals) for h in deal(a.seats, seed=a.seed * 1_000_003 + i)],
        dtype=np.uint8,
    )
    start = time.time()
    tables = [read_tables(t, a.preset) for t in (a.a, a.b)]
    laid = [
        best_arrangement_batch(hands, rules, seats=a.seats, tables=t).reshape(a.deals, a.seats, 13)
        for t in tables
    ]
    diff = side_difference(rules, laid, a.seats)
    half = 1.96 * diff.std(ddof=1) / math.sqrt(len(diff))
    print(
        f"preset={a.preset} seats={a.seats} deals={a.deals} seed={a.seed} "
        f"A={a.a} B={a.b} ({time.time() - start:.0f}s)"
    )
    print(f"  A - B: {diff.mean():+.4f} ± {half:.4f} points per hand")


if __name__ == "__main__":
    main()
