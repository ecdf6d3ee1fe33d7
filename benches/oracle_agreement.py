"""The engine against the oracle on random tables of one preset.

Run on demand, not a test::

    python benches/oracle_agreement.py --preset capsa-susun --tables 100000
    python benches/oracle_agreement.py --preset NAME --tables 1000 --seed 7

Settles ``--tables`` random tables of 2 to 4 seats under the preset's rules
with ``capsa.settle`` and with ``capsa.oracle.settle`` and compares every
seat and pair figure (``tests/oracle_tables.py``, ``disagreements``): seat
points, money, rake and net, each pair's breakdown and terms, each seat's
natural, foul, surrender, sweep-all and royalties; a table one refuses the
other must refuse. The tables are those of the engine-against-oracle tests:
valid arrangements mostly, fouled ones three times in ten (one in twenty
when the preset refuses fouls), surrenders where the preset allows them,
naturals declared six times in seven, a third of the hands built for a
natural (rare ones and raises included), the horse card dealt to some seat
most of the time, and in a banker game a random banker and multipliers.

Prints the number of tables, outcomes and disagreements (the first few in
full), and the time each side took; exits 1 on any disagreement.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from bench_common import machine
from oracle_tables import (
    deal_table,
    disagreements,
    engine_settle,
    oracle_settle,
)

import capsa
import capsa.rules
from capsa import oracle

SHOWN = 5


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--preset", default="capsa-susun", choices=capsa.rules.presets())
    parser.add_argument("--tables", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=41)
    args = parser.parse_args()

    where = machine()
    rules = capsa.Rules.preset(args.preset)
    config = oracle.load_rules(rules.to_dict())
    rng = random.Random(args.seed)
    engine_time = oracle_time = 0.0
    outcomes: Counter[str] = Counter()
    failed = 0
    for index in range(args.tables):
        table = deal_table(rng, config, rng.randint(2, 4))
        start = time.perf_counter()
        engine = engine_settle(table, rules)
        middle = time.perf_counter()
        want = oracle_settle(table, config)
        engine_time += middle - start
        oracle_time += time.perf_counter() - middle
        if isinstance(want, str):
            outcomes["refused"] += 1
        else:
            outcomes.update(pair["outcome"] for pair in want["pairs"])
        found = disagreements(engine, want)
        if found:
            failed += 1
            if failed <= SHOWN:
                print(f"table {index}: {table}")
                for line in found:
                    print(f"  {line}")
    print(f"# {where}")
    print(f"preset {args.preset}, seed {args.seed}: {args.tables:,} tables")
    print(
        "pair outcomes (refused: tables): "
        + ", ".join(f"{k} {v:,}" for k, v in sorted(outcomes.items()))
    )
    print(f"disagreements: {failed:,} tables")
    print(
        f"time: engine {engine_time:.1f} s ({engine_time / args.tables * 1e6:.0f} us a table), "
        f"oracle {oracle_time:.1f} s ({oracle_time / args.tables * 1e3:.2f} ms a table)"
    )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
