"""Pinned digests of the order of every five-card and three-card hand.

For a ranking configuration (the knobs ``tie_break``, ``suit_order``,
``flush_compare`` and ``wheel``), every hand of the size is listed as the
combinations of the card ids 0..51 in lexicographic order (Python's
``itertools.combinations(range(52), size)``); each hand gets its *dense
rank*, the number of distinct hand values below it (hands that compare
equal share a rank, the weakest is 0); the digest is the SHA-256 of those
ranks written as unsigned 32-bit little-endian integers, in that order. Two
engines have the same digest exactly when they order every hand alike,
ties included (``docs/conformance.md``, "Digests").
"""

from __future__ import annotations

import hashlib
import itertools
from collections.abc import Iterator
from functools import lru_cache
from typing import Any

import numpy as np
import numpy.typing as npt

import capsa
from capsa.rules import RANKING_KNOBS, Rules

__all__ = [
    "RANKING_KNOBS",
    "all_hands",
    "dense_ranks",
    "digest_of_ranks",
    "order_digest",
    "ranking_configurations",
    "ranking_key",
]

HAND_COUNTS = {5: 2_598_960, 3: 22_100}


def suit_orders() -> list[str]:
    """The 24 suit orders, strongest first, in lexicographic order of ``shcd`` positions."""
    return ["".join(p) for p in itertools.permutations("shcd")]


def ranking_key(rules: Rules | dict[str, Any], size: int) -> dict[str, str]:
    """The knobs that decide the order of hands of ``size`` cards, normalised.

    ``suit_order`` matters only with the suit tie-break or suit-first
    flushes (it is ``"shcd"`` otherwise); three cards make no straight and
    no flush, so ``wheel`` and ``flush_compare`` are left out for them.
    """
    get = (lambda k: rules[k]) if isinstance(rules, Rules) else rules.__getitem__
    knobs = {k: str(get(k)) for k in RANKING_KNOBS}
    if size == 3:
        knobs.pop("wheel")
        knobs.pop("flush_compare")
        suits_matter = knobs["tie_break"] == "suit"
    else:
        suits_matter = knobs["tie_break"] == "suit" or knobs["flush_compare"] == "suit-first"
    if not suits_matter:
        knobs["suit_order"] = "shcd"
    return knobs


def ranking_configurations(size: int) -> Iterator[dict[str, str]]:
    """Every distinct ranking configuration for hands of ``size`` cards, in a fixed order."""
    if size == 3:
        yield {"tie_break": "none", "suit_order": "shcd"}
        for order in suit_orders():
            yield {"tie_break": "suit", "suit_order": order}
        return
    for wheel in ("low", "second"):
        for tie, flush in (("none", "ranks"), ("suit", "ranks"), ("none", "suit-first")):
            orders = ["shcd"] if (tie, flush) == ("none", "ranks") else suit_orders()
            for order in orders:
                yield {
                    "tie_break": tie,
                    "suit_order": order,
                    "flush_compare": flush,
                    "wheel": wheel,
                }
        for order in suit_orders():
            yield {
                "tie_break": "suit",
                "suit_order": order,
                "flush_compare": "suit-first",
                "wheel": wheel,
            }


@lru_cache(maxsize=2)
def all_hands(size: int) -> npt.NDArray[np.uint8]:
    """Every hand of ``size`` cards as a uint8 (N, size) array, in lexicographic order."""
    combos = itertools.combinations(range(52), size)
    flat = np.fromiter(itertools.chain.from_iterable(combos), dtype=np.uint8)
    hands = flat.reshape(-1, size)
    hands.setflags(write=False)
    return hands


def dense_ranks(values: npt.NDArray[Any]) -> tuple[npt.NDArray[np.uint32], int]:
    """Each value's dense rank (distinct values below it) and the number of distinct values."""
    order = np.argsort(values, kind="stable")
    ordered = values[order]
    steps = np.empty(len(values), dtype=np.uint32)
    steps[0] = 0
    np.not_equal(ordered[1:], ordered[:-1], out=steps[1:], casting="unsafe")
    dense = np.cumsum(steps, dtype=np.uint32)
    ranks = np.empty(len(values), dtype=np.uint32)
    ranks[order] = dense
    return ranks, int(dense[-1]) + 1


def digest_of_ranks(ranks: npt.NDArray[np.uint32]) -> str:
    """The SHA-256 (hex) of dense ranks written as 32-bit little-endian integers."""
    return hashlib.sha256(ranks.astype("<u4", copy=False).tobytes()).hexdigest()


def _rules_for(config: dict[str, str]) -> Rules:
    knobs = {"flush_compare": "ranks", "wheel": "low", **config}
    return Rules.preset("pagat").derive(knobs)


def order_digest(rules: Rules, size: int) -> tuple[str, int]:
    """The digest of the order of every hand of ``size`` cards under the rules, and
    the number of distinct hand values."""
    return _digest(tuple(sorted(ranking_key(rules, size).items())), size)


@lru_cache(maxsize=256)
def _digest(key: tuple[tuple[str, str], ...], size: int) -> tuple[str, int]:
    strengths = capsa.evaluate_batch(all_hands(size), _rules_for(dict(key)))
    ranks, classes = dense_ranks(strengths)
    return digest_of_ranks(ranks), classes
