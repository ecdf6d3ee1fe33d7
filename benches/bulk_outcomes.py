"""What each seat's outcome columns cost the bulk path, and the rate of
round records into Parquet.

Run on demand, not a test::

    python benches/bulk_outcomes.py                    # 10^6 rounds, 2,000 records
    python benches/bulk_outcomes.py --rounds 100000    # a shorter run

Timed, each the least CPU time of ``--repeat`` runs, on one thread:

* ``settle_table`` of the rounds of ``benches/bulk.py`` (greedy-arranged
  deals, a fifth of the seats as dealt), outcomes included;
* the results encoded as Parquet (snappy, as ``settle_parquet`` writes
  them), with and without the outcome columns, and each outcome's four
  columns alone, with the bytes each file takes;
* ``capsa.bulk.record_tables.to_parquet`` of ``--records`` four-seat records
  (each record read, replayed and written).
"""

from __future__ import annotations

import argparse
import hashlib
import io
import time
from collections.abc import Callable
from pathlib import Path
from tempfile import TemporaryDirectory
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
from bench_common import machine
from bulk import arranged_deals

import capsa
from capsa import bulk
from capsa.bulk import record_tables


def least_cpu(run: Callable[[], Any], repeat: int) -> float:
    """The least CPU time (all threads of this process) of ``repeat`` runs."""
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        run()
        best = min(best, time.process_time() - start)
    return best


def encoded(table: pa.Table) -> int:
    out = io.BytesIO()
    pq.write_table(table, out, compression="snappy")
    return len(out.getvalue())


def records(count: int) -> list[str]:
    """``count`` four-seat records, every seat arranged by its best split."""
    lines = []
    for k in range(count):
        seed = hashlib.sha256(f"bench {k}".encode()).digest()
        rnd = capsa.Round(capsa.Rules(), 4, 100, round_id=f"t/{k}", nonce=k, server_seed=seed)
        for seat, hand in enumerate(rnd.deal()):
            rnd.submit(seat, capsa.splits(hand)[-1].tolist())
        rnd.close()
        rnd.settle()
        lines.append(rnd.record_json())
    return lines


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--rounds", type=int, default=1_000_000)
    p.add_argument("--records", type=int, default=2_000)
    p.add_argument("--repeat", type=int, default=3)
    args = p.parse_args()
    print(f"machine: {machine()}")
    print(
        f"command: python benches/bulk_outcomes.py --rounds {args.rounds} "
        f"--records {args.records} --repeat {args.repeat}"
    )
    pool = arranged_deals(min(50_000, args.rounds), seed=1)
    cards = np.ascontiguousarray(np.resize(pool, (args.rounds, 4, 13)))
    rounds = bulk.rounds_table(cards, stakes=100)
    per = 1e6 / args.rounds
    settle = least_cpu(lambda: bulk.settle_table(rounds, threads=1), args.repeat)
    results = bulk.settle_table(rounds, threads=1)
    assert results.column("error").null_count == args.rounds
    figures = results.select(
        [name for name in results.column_names if not name.startswith(bulk.OUTCOMES)]
    )
    print()
    print("| per 10^6 rounds, one thread | CPU s | Parquet bytes |")
    print("|---|---:|---:|")
    print(f"| settle_table, outcomes included | {settle * per:.3f} | |")
    for name, table in (("results without outcomes", figures), ("results", results)):
        cpu = least_cpu(lambda t=table: encoded(t), args.repeat)
        print(f"| encode {name} | {cpu * per:.3f} | {encoded(table) * per / 1e6:.1f} MB |")
    for outcome in bulk.OUTCOMES:
        part = results.select([f"{outcome}{s}" for s in range(4)])
        cpu = least_cpu(lambda t=part: encoded(t), args.repeat)
        print(
            f"| encode {outcome}0..3 alone | {cpu * per:.3f} | {encoded(part) * per / 1e6:.2f} MB |"
        )

    lines = records(args.records)
    with TemporaryDirectory() as work:
        target = Path(work) / "r.parquet"
        start = time.perf_counter()
        written, failed = record_tables.to_parquet(lines, target)
        wall = time.perf_counter() - start
        assert (written, failed) == (args.records, 0)
    print()
    print(f"records -> Parquet (read, replay, write): {args.records / wall:,.0f} records/s")


if __name__ == "__main__":
    main()
