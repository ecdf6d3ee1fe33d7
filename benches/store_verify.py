"""The records store's verify: records checked per second, and the CPU time
a record costs the verifying process, on SQLite and on PostgreSQL.

Run on demand, not a test::

    python benches/store_verify.py                # 16,000 records of 8 tables, 5 runs
    python benches/store_verify.py --key          # with a store key and a checkpoint
    python benches/store_verify.py --postgres-url postgresql://...   # a server of yours

The records (``benches/store_append.py``'s) are made and stored once, in
batches, then ``verify`` runs ``--runs`` times on each backend; the best
wall-clock rate is shown, with the process's CPU time a record in the best
run (every thread of the process: the records are read on every core; a
PostgreSQL server's own CPU is not in it). The CPU time is the steadier
figure on a machine shared with other work. Each run must report every
record and seat row checked and no problem.

With ``--key`` the store is opened with a key (its heads signed as they
are written, verify checks their MACs) and verify checks every chain
against a checkpoint made after the last append. The script runs on a
capsa without keys too (without ``--key``), so that builds before and after
a change compare on the same records.
"""

from __future__ import annotations

import argparse
import hashlib
import shutil
import sys
import tempfile
import time

from bench_common import fmt_rate, machine
from store_append import _postgres, make_records

import capsa.store


def run_backend(name: str, url: str, records: list[str], runs: int, key: bytes | None) -> str:
    """Stores the records, verifies ``runs`` times; the line of its figures."""
    opened = capsa.store.open(url) if key is None else capsa.store.open(url, key=key)
    with opened as store:
        for start in range(0, len(records), 1000):
            assert all(store.append_many(records[start : start + 1000]))
        given = {"checkpoints": [store.checkpoint()]} if key is not None else {}
        best_s, best_cpu = float("inf"), 0.0
        for _ in range(runs):
            wall, cpu = time.perf_counter(), time.process_time()
            report = store.verify(**given)
            cpu = time.process_time() - cpu
            wall = time.perf_counter() - wall
            assert report.ok and report.records == len(records), report.problems[:3]
            assert getattr(report, "seats", 4 * len(records)) == 4 * len(records)
            if wall < best_s:
                best_s, best_cpu = wall, cpu
    what = "verify, key and checkpoint" if key is not None else "verify"
    return (
        f"{name:<10} {what:<27} {len(records):>6,} records {fmt_rate(len(records) / best_s):>9}"
        f" records/s, CPU {best_cpu / len(records) * 1e6:5.1f} µs a record"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, default=16_000)
    parser.add_argument("--tables", type=int, default=8)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--key", action="store_true", help="a store key and a checkpoint")
    parser.add_argument("--postgres-url", default=None)
    args = parser.parse_args()
    key = hashlib.sha256(b"bench store key").digest() if args.key else None
    print(machine())
    start = time.perf_counter()
    records = make_records(args.records, args.tables)
    print(
        f"{args.records:,} records of {args.tables} tables, made in "
        f"{time.perf_counter() - start:.1f} s (not timed); best of {args.runs} runs"
    )
    directory = tempfile.mkdtemp(prefix="capsa-verify-bench-")
    print(run_backend("sqlite", f"sqlite:///{directory}/records.db", records, args.runs, key))
    url, cluster = _postgres(args.postgres_url)
    try:
        if url is None:
            print("postgresql: initdb not installed, not measured")
        else:
            print(run_backend("postgresql", url, records, args.runs, key), flush=True)
    finally:
        if cluster is not None:
            cluster.stop()  # type: ignore[attr-defined]
    shutil.rmtree(directory, ignore_errors=True)
    sys.stdout.flush()


if __name__ == "__main__":
    main()
