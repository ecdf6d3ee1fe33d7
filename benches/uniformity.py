"""Deal uniformity on a million deals of each dealing generator.

Run on demand, not a test::

    python benches/uniformity.py               # 1,000,000 deals of each
    python benches/uniformity.py --deals 200000

For the fair deal (capsa-fair-1, one server seed, consecutive nonces, no
client seeds) and the seeded deal (consecutive seeds): every deck must be a
permutation of the 52 cards, and chi-square tests of how cards fall to seats
(52 x 4 counts, 156 degrees of freedom) and to deck positions (52 x 52,
2,601) must not lie more than 4 standard deviations from their means. The
tests are `capsa.rng.deal_uniformity`; `tests/cards/test_uniformity.py` runs them on
20,000 deals and checks they catch a biased shuffle.
"""

from __future__ import annotations

import argparse
import hashlib
import sys
import time

import numpy as np
from bench_common import fmt_rate, machine

from capsa.rng import deal_uniformity, fair_decks, seeded_decks


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=1_000_000)
    args = parser.parse_args()
    print(f"machine: {machine()}")
    print(f"command: python benches/uniformity.py --deals {args.deals}")
    print()
    print("| generator | deals | deals/s | card-to-seat chi2 (dof 156) | z | "
          "card-to-position chi2 (dof 2601) | z | p (position) |")  # fmt: skip
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    server_seed = hashlib.sha256(b"capsa uniformity").digest()
    ok = True
    for name, draw in (
        ("fair (capsa-fair-1)", lambda: fair_decks(server_seed, 0, args.deals)),
        ("seeded (ChaCha20)", lambda: seeded_decks(1, args.deals)),
    ):
        start = time.perf_counter()
        decks = draw()
        rate = args.deals / (time.perf_counter() - start)
        assert (np.sort(decks, axis=1) == np.arange(52, dtype=np.uint8)).all()
        result = deal_uniformity(decks)
        seat, position = result.card_to_seat, result.card_to_position
        print(
            f"| {name} | {args.deals:,} | {fmt_rate(rate)} | {seat.statistic:,.1f} | "
            f"{seat.z:+.2f} | {position.statistic:,.1f} | {position.z:+.2f} | "
            f"{position.p_value:.3f} |"
        )
        ok = ok and result.passes()
    print()
    print("uniform: every deck a permutation; both statistics within 4 standard deviations"
          if ok else "NOT UNIFORM")  # fmt: skip
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
