"""Hand ranking: capsa against its peers on PyPI (treys, eval7, phevaluator, pokerkit).

Run on demand, not a test::

    python benches/peers.py            # full run
    python benches/peers.py --quick    # a short run

The peers are benchmark-only (``pip install treys eval7 phevaluator pokerkit``);
a peer that is not installed is skipped, and the output says so.

Measured in one run, on the same hands:

* per call: one pre-built 5-card hand ranked from Python (calls/s), capsa
  (from ``Card`` objects and from a list of 5 ints) and each peer's fastest
  public 5-card path, with the ratio capsa/peer;
* batch: ``capsa.evaluate_batch`` over all 2,598,960 five-card hands, under the
  default rules and under ``Rules(tie_break="none")`` (hands/s).

Correctness is checked on the timed results: on the sampled hands, capsa's order
under the ``pagat`` preset (no suit tie-break, ace-low wheel, as in standard
poker) must be the same total preorder as each peer's, which checks every pair
of sampled hands; the strengths from ints must equal those from ``Card``s;
the batch strengths must equal the per-call ones; and the category counts
over all hands must be the textbook counts.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.metadata
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import chain, combinations
from typing import Any

import numpy as np
import numpy.typing as npt
from bench_common import best_time, fmt_rate, machine

import capsa

RANKS = "23456789TJQKA"
CAPSA_SUITS = "dchs"  # capsa id = 4 * (rank - 2) + suit, d=0 c=1 h=2 s=3
ALL_HANDS = 2_598_960

# Five-card category counts over the whole deck (royal flushes counted apart).
TEXTBOOK_COUNTS: dict[str, int] = {
    "high-card": 1_302_540,
    "pair": 1_098_240,
    "two-pair": 123_552,
    "trips": 54_912,
    "straight": 10_200,
    "flush": 5_108,
    "full-house": 3_744,
    "quads": 624,
    "straight-flush": 36,
    "royal-flush": 4,
}

IntArray = npt.NDArray[np.int64]


def card_text(card_id: int) -> str:
    """``"As"``-style text of a capsa card id (ten is ``T``)."""
    return RANKS[card_id // 4] + CAPSA_SUITS[card_id % 4]


def same_order(reference: IntArray, other: IntArray) -> int:
    """Asserts ``other`` orders the hands as ``reference`` does (higher = stronger).

    Sorting by the reference and comparing the signs of consecutive
    differences proves the two keys induce the same total preorder, i.e. every
    one of the n(n-1)/2 pairs compares the same way. Returns the number of
    distinct hand values seen.
    """
    order = np.argsort(reference, kind="stable")
    a = np.diff(reference[order])
    b = np.diff(other[order])
    bad = np.flatnonzero(np.sign(a) != np.sign(b))
    assert bad.size == 0, f"order differs at {bad.size} adjacent pairs, first {order[bad[0]]}"
    return int(np.count_nonzero(a)) + 1


# --------------------------------------------------------------------------- peers


@dataclass
class Contender:
    """One per-call path: what is called, and how to read its results."""

    name: str
    call: str
    run: Callable[[], list[Any]]
    key: Callable[[list[Any]], IntArray]  # results -> int64 array, higher = stronger
    note: str = ""


def _version(dist: str) -> str:
    try:
        return importlib.metadata.version(dist)
    except importlib.metadata.PackageNotFoundError:
        return "?"


def _import(name: str) -> Any:
    """The module, or None when it is not installed."""
    try:
        return importlib.import_module(name)
    except ImportError:
        return None


def peer_eval7(sample: Sequence[Sequence[int]]) -> list[Contender]:
    eval7 = _import("eval7")
    if eval7 is None:
        return []
    hands = [[eval7.Card(card_text(c)) for c in h] for h in sample]
    evaluate = eval7.evaluate

    def run() -> list[Any]:
        return [evaluate(h) for h in hands]

    return [
        Contender(
            f"eval7 {_version('eval7')}",
            "eval7.evaluate(list of 5 eval7.Card)",
            run,
            lambda r: np.asarray(r, dtype=np.int64),
        )
    ]


def peer_treys(sample: Sequence[Sequence[int]]) -> list[Contender]:
    treys = _import("treys")
    if treys is None:
        return []
    hands = [[treys.Card.new(card_text(c)) for c in h] for h in sample]
    evaluate = treys.Evaluator().evaluate
    board: list[int] = []

    def run() -> list[Any]:
        return [evaluate(board, h) for h in hands]

    return [
        Contender(
            f"treys {_version('treys')}",
            "treys.Evaluator().evaluate([], hand of 5 ints)",
            run,
            lambda r: -np.asarray(r, dtype=np.int64),  # 1 is the best hand
            "pure Python (Cactus Kev prime products)",
        )
    ]


def peer_phevaluator(sample: Sequence[Sequence[int]]) -> list[Contender]:
    ph = _import("phevaluator")
    if ph is None:
        return []
    # phevaluator ids: 4 * (rank - 2) + suit with c=0 d=1 h=2 s=3
    to_ph = [4 * (c // 4) + (1, 0, 2, 3)[c % 4] for c in range(52)]
    hands = [tuple(to_ph[c] for c in h) for h in sample]
    evaluate_cards = ph.evaluate_cards
    native = importlib.import_module("phevaluator._pheval").evaluate_5cards

    def run_public() -> list[Any]:
        return [evaluate_cards(*h) for h in hands]

    def run_native() -> list[Any]:
        return [native(*h) for h in hands]

    def key(r: list[Any]) -> IntArray:
        return -np.asarray(r, dtype=np.int64)  # 1 is the best hand

    version = _version("phevaluator")
    return [
        Contender(
            f"phevaluator {version}",
            "phevaluator.evaluate_cards(*5 ints)",
            run_public,
            key,
            "C core behind a Python wrapper (Card.to_id per card)",
        ),
        Contender(
            f"phevaluator {version}",
            "phevaluator._pheval.evaluate_5cards(*5 ints)",
            run_native,
            key,
            "the private C entry point: the floor of that API",
        ),
    ]


def peer_pokerkit(sample: Sequence[Sequence[int]]) -> list[Contender]:
    pk = _import("pokerkit")
    if pk is None:
        return []
    deck = [next(iter(pk.Card.parse(card_text(c)))) for c in range(52)]
    hands = [tuple(deck[c] for c in h) for h in sample]
    get_entry = pk.StandardLookup().get_entry

    def run() -> list[Any]:
        return [get_entry(h) for h in hands]

    return [
        Contender(
            f"pokerkit {_version('pokerkit')}",
            "pokerkit.StandardLookup().get_entry(tuple of 5 Card)",
            run,
            lambda r: np.asarray([e.index for e in r], dtype=np.int64),
            "pure Python; no fast path, this is the lookup behind StandardHighHand",
        )
    ]


PEERS: dict[str, Callable[[Sequence[Sequence[int]]], list[Contender]]] = {
    "eval7": peer_eval7,
    "treys": peer_treys,
    "phevaluator": peer_phevaluator,
    "pokerkit": peer_pokerkit,
}


# --------------------------------------------------------------------------- main


def all_hands() -> npt.NDArray[np.uint8]:
    flat = np.fromiter(
        chain.from_iterable(combinations(range(52), 5)), dtype=np.uint8, count=ALL_HANDS * 5
    )
    return flat.reshape(ALL_HANDS, 5)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--quick", action="store_true", help="a short run (smaller sample, 1 repeat)")
    p.add_argument("--sample", type=int, default=None, help="hands per call (default 200,000)")
    p.add_argument("--repeat", type=int, default=None, help="best of N runs (default 5)")
    p.add_argument("--seed", type=int, default=2024)
    args = p.parse_args(argv)
    n_sample = args.sample or (20_000 if args.quick else 200_000)
    repeat = args.repeat or (1 if args.quick else 5)

    print(f"machine: {machine()}")
    print(f"command: python {' '.join(sys.argv)}")
    print()

    hands = all_hands()  # built once, not timed
    rng = np.random.default_rng(args.seed)
    idx = rng.choice(ALL_HANDS, size=n_sample, replace=False)
    sample_ids = hands[idx].tolist()

    pagat = capsa.Rules.preset("pagat")
    no_tie = capsa.Rules(tie_break="none")

    # ---- per call ---------------------------------------------------------
    capsa_cards = [[capsa.Card(c) for c in h] for h in sample_ids]
    evaluate = capsa.evaluate

    def capsa_default() -> list[Any]:
        return [evaluate(h) for h in capsa_cards]

    def capsa_pagat() -> list[Any]:
        return [evaluate(h, pagat) for h in capsa_cards]

    def capsa_ints() -> list[Any]:
        return [evaluate(h, pagat) for h in sample_ids]

    def strengths(r: list[Any]) -> IntArray:
        return np.asarray([v.strength for v in r], dtype=np.int64)

    contenders = [
        Contender(
            "capsa", "capsa.evaluate(list of 5 capsa.Card)", capsa_default, strengths, "default"
        ),
        Contender(
            "capsa",
            "capsa.evaluate(list of 5 capsa.Card, pagat)",
            capsa_pagat,
            strengths,
            "rules passed",
        ),
        Contender(
            "capsa",
            "capsa.evaluate(list of 5 ints, pagat)",
            capsa_ints,
            strengths,
            "rules passed",
        ),
    ]
    skipped: list[str] = []
    for name, build in PEERS.items():
        found = build(sample_ids)
        if not found:
            skipped.append(f"{name} (not installed: pip install {name})")
        contenders.extend(found)

    rates: list[float] = []
    keys: list[IntArray] = []
    for c in contenders:
        timing, result = best_time(c.run, repeat)
        seconds = timing.wall
        rates.append(n_sample / seconds)
        keys.append(c.key(result))
        del result

    # correctness on the timed results
    default_key, pagat_key, ints_key = keys[0], keys[1], keys[2]
    assert np.array_equal(ints_key, pagat_key), "ids and Cards rank alike"
    checked: list[str] = []
    for c, k in zip(contenders[3:], keys[3:], strict=True):
        distinct = same_order(pagat_key, k)
        checked.append(f"{c.call.split('(')[0]} ({distinct:,} distinct values)")

    # ---- batch ------------------------------------------------------------
    batch_rows: list[tuple[str, float, float, npt.NDArray[np.uint32]]] = []
    choices: list[tuple[str, capsa.Rules | None]] = [
        ("default rules", None),
        ('Rules(tie_break="none")', no_tie),
    ]
    for label, rules in choices:

        def run_batch(r: capsa.Rules | None = rules) -> npt.NDArray[np.uint32]:
            return capsa.evaluate_batch(hands, r)

        timing, out = best_time(run_batch, repeat)
        seconds, cpu = timing.wall, timing.cpu
        batch_rows.append((label, ALL_HANDS / seconds, cpu / seconds, out))
    batch_default, batch_none = batch_rows[0][3], batch_rows[1][3]
    assert np.array_equal(batch_default[idx].astype(np.int64), default_key), "batch != per call"
    same_order(pagat_key, batch_none[idx].astype(np.int64))
    for out in (batch_default, batch_none):
        counts = np.bincount(out >> 28, minlength=len(capsa.CATEGORIES))
        got = dict(zip(capsa.CATEGORIES, counts.tolist(), strict=True))
        assert got == TEXTBOOK_COUNTS, got
    sorted_none = np.sort(batch_none.astype(np.int64))
    distinct_none = int(np.count_nonzero(np.diff(sorted_none))) + 1
    assert distinct_none == 7462, distinct_none  # the classes of standard poker
    distinct_default = int(np.unique(batch_default).size)

    # ---- report -----------------------------------------------------------
    base, cards_rules, ints_rules = rates[0], rates[1], rates[2]
    print(f"Per call: {n_sample:,} random 5-card hands, pre-built objects, best of {repeat}")
    print()
    print("| library | call | calls/s | capsa/peer | Cards, rules/peer | ints, rules/peer | note |")
    print("|---|---|---:|---:|---:|---:|---|")
    for c, rate in zip(contenders, rates, strict=True):
        ratios = " | ".join(f"{r / rate:,.2f}" for r in (base, cards_rules, ints_rules))
        print(f"| {c.name} | `{c.call}` | {fmt_rate(rate)} | {ratios} | {c.note} |")
    print()
    print(
        "capsa/peer: capsa.evaluate(list of 5 Card) under the default rules over the row; "
        "the next two: with the pagat rules passed, from Cards and from ints"
    )
    print()
    print(f"Batch: capsa.evaluate_batch over all {ALL_HANDS:,} hands (uint8 (N, 5)), all cores")
    print()
    print("| rules | hands/s | CPU/wall | batch / per call |")
    print("|---|---:|---:|---:|")
    for label, rate, cores, _ in batch_rows:
        print(f"| {label} | {fmt_rate(rate)} | {cores:.2f} | {rate / base:,.1f} |")
    print()
    print("CPU/wall: CPU time of the process (all threads) over wall time, the cores it got.")
    print()
    print("Checked while timing:")
    print(
        f"- order under pagat agrees with every peer on all {n_sample * (n_sample - 1) // 2:,} "
        f"pairs of the {n_sample:,} timed hands: " + "; ".join(checked)
    )
    print(
        "- evaluate_batch (default) equals the per-call strengths; tie_break=none orders as pagat"
    )
    print(
        f"- category counts over all hands are the textbook counts under both rules; "
        f"{distinct_none:,} distinct values with tie_break=none, "
        f"{distinct_default:,} with the suit tie-break"
    )
    if skipped:
        print(f"- skipped: {', '.join(skipped)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
