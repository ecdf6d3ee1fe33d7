"""Round records to Parquet: rounds a second and peak resident memory of
``capsa records to-parquet`` (a JSON Lines log) and ``Store.export`` (a
SQLite store), at two sizes, so that the memory is seen flat in the number
of rounds.

Run on demand, not a test::

    python benches/export.py                    # 20,000 and 80,000 rounds
    python benches/export.py --sizes 5000 20000

The records are made first (not timed): four-seat rounds of 8 chained
tables whose seats submit their hands as dealt, with players and a
``meta.played_at`` (``benches/store_append.py``), written as a log and
appended to a SQLite store. Each export runs in a fresh process, which
times itself and reports its peak resident set (the kernel's ``VmHWM``)
and the peak it had before exporting (Python, capsa and pyarrow loaded).

Checked while timing, for every export: the file holds every record once,
in order (the round ids and digests of the log, or of the store), in row
groups of at most 8,192 rounds each, with the table, time and players of
each record; its footer's rules settle the first row group back to the
records' own nets; and Dask reads it as a task per row group.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bench_common import fmt_rate, machine
from store_append import make_records

import capsa.store
from capsa import bulk
from capsa.bulk import record_tables

# The export, in a process of its own: it prints its figures as JSON.
# Its peak is the kernel's high-water mark of its resident set (VmHWM):
# ru_maxrss would carry the parent's over the fork.
_CHILD = """
import json, sys, time
import pyarrow.parquet
import capsa.store
from capsa.bulk import record_tables

def high_water_kb():
    with open("/proc/self/status") as status:
        return next(int(line.split()[1]) for line in status if line.startswith("VmHWM:"))

kind, source, target = sys.argv[1:4]
before = high_water_kb()
start = time.perf_counter()
if kind == "log":
    written, failed = record_tables.to_parquet(source, target)
else:
    with capsa.store.open(source, create=False) as store:
        written, failed = store.export(target), 0
seconds = time.perf_counter() - start
print(json.dumps({"written": written, "failed": failed, "seconds": seconds,
                  "before_kb": before, "peak_kb": high_water_kb()}))
"""


def export(kind: str, source: str, target: Path) -> dict[str, Any]:
    """Runs one export in a fresh process; its figures."""
    done = subprocess.run(
        [sys.executable, "-c", _CHILD, kind, source, str(target)],
        capture_output=True,
        text=True,
        check=True,
    )
    figures: dict[str, Any] = json.loads(done.stdout)
    return figures


def check(target: Path, records: list[str]) -> None:
    """The export holds ``records`` in order, in bounded row groups, with
    each record's ids, table, time and players; it settles back to their
    nets; Dask reads it a task per row group."""
    import dask.dataframe as dd
    import pyarrow.parquet as pq

    handle = pq.ParquetFile(target)
    metadata = handle.metadata
    groups = [metadata.row_group(k).num_rows for k in range(metadata.num_row_groups)]
    assert sum(groups) == len(records), (sum(groups), len(records))
    assert max(groups) <= record_tables.DEFAULT_BATCH_RECORDS, groups
    assert len(groups) == -(-len(records) // record_tables.DEFAULT_BATCH_RECORDS), groups
    columns = ["round_id", "digest", "table_id", "played_at", "player0", "player3"]
    table = handle.read(columns=columns)
    data = [json.loads(text) for text in records]
    assert table.column("round_id").to_pylist() == [d["round_id"] for d in data]
    assert table.column("digest").to_pylist() == [d["digest"] for d in data]
    assert table.column("table_id").to_pylist() == [d["table_id"] for d in data]
    assert table.column("player3").to_pylist() == [d["seats"][3]["player"]["id"] for d in data]
    assert table.column("played_at").null_count == 0
    first = handle.read_row_group(0)  # the footer's rules come with it
    results = bulk.settle_table(first)
    nets = [[row[f"net{s}"] for s in range(4)] for row in results.to_pylist()]
    assert nets == [d["settlement"]["net"] for d in data[: first.num_rows]]
    frame = dd.read_parquet(str(target), split_row_groups=True)
    assert frame.npartitions == len(groups), (frame.npartitions, groups)


def loads_us(text: str) -> float:
    """The median time of ``json.loads`` of a record, in µs: RESULTS.md's
    measure of how loaded the machine is."""
    times = []
    for _ in range(200):
        start = time.perf_counter()
        json.loads(text)
        times.append(time.perf_counter() - start)
    return sorted(times)[len(times) // 2] * 1e6


def run_size(count: int, folder: Path) -> list[str]:
    """Makes ``count`` records, exports them both ways, checks and reports."""
    start = time.perf_counter()
    records = make_records(count, 8)
    log = folder / f"log-{count}.jsonl"
    log.write_text("".join(text + "\n" for text in records), encoding="utf-8")
    url = f"sqlite:///{folder / f'store-{count}.db'}"
    with capsa.store.open(url) as store:
        for k in range(0, count, 2_000):
            store.append_many(records[k : k + 2_000])
    made = time.perf_counter() - start
    lines = [
        f"{count:,} records made, logged and stored in {made:.1f} s (not timed); "
        f"json.loads of a record {loads_us(records[0]):.0f} us (how loaded the machine is)"
    ]
    for kind, source, name in (("log", str(log), "records to-parquet"), ("store", url, "export")):
        target = folder / f"{kind}-{count}.parquet"
        figures = export(kind, source, target)
        assert (figures["written"], figures["failed"]) == (count, 0), figures
        check(target, records)
        rate = count / figures["seconds"]
        peak, before = figures["peak_kb"] / 1024, figures["before_kb"] / 1024
        lines.append(
            f"{name:<18} {count:>7,} rounds {figures['seconds']:>6.2f} s "
            f"{fmt_rate(rate):>9} rounds/s  peak RSS {peak:6.0f} MB "
            f"({peak - before:+5.0f} MB over the {before:.0f} MB before)"
        )
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[20_000, 80_000])
    args = parser.parse_args()
    print(machine())
    folder = Path(tempfile.mkdtemp(prefix="capsa-export-bench-"))
    try:
        for count in args.sizes:
            for line in run_size(count, folder):
                print(line, flush=True)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
