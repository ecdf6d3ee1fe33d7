"""The records store: appends per second from one process, per-record
commits and batched, and verify's records per second, on SQLite and on
PostgreSQL.

Run on demand, not a test::

    python benches/store_append.py            # 4,000 records of 8 tables
    python benches/store_append.py --quick    # 800
    python benches/store_append.py --postgres-url postgresql://...   # a server of yours
    python benches/store_append.py --key      # heads signed, verify against a checkpoint

Without ``--postgres-url`` a throwaway PostgreSQL cluster is started
(``tests/postgres_cluster.py``, fsync on, loopback) when ``initdb`` is
installed. The records are made first (not timed): four-seat rounds whose
seats submit their hands as dealt, chained per table, with a
``meta.played_at``.

Each backend, on a new empty store:

* ``append``: one record per call and per commit (durable when it returns:
  SQLite ``synchronous=FULL``, PostgreSQL ``synchronous_commit`` on), for
  the first quarter of the records;
* ``append_many``: the rest in batches of ``--batch`` records, one commit
  per batch (all or nothing);
* ``verify``: the whole store walked, every record read back and replayed,
  every seat row and head checked; with ``--key`` the store has a key (every
  write signs its heads, verify checks their MACs) and verify also checks
  every chain against a checkpoint made just before.

Checked while timing: every append stored its record (True), the store then
holds every record with each table's head its last, ``verify`` reports no
problem, and the JSON Lines export is the records byte for byte.
"""

from __future__ import annotations

import argparse
import hashlib
import shutil
import sys
import tempfile
import time
from pathlib import Path

from bench_common import fmt_rate, machine

import capsa
import capsa.store
from capsa.records import read_record


def make_records(count: int, tables: int) -> list[str]:
    """``count`` records, round-robin over ``tables`` chained tables."""
    previous: dict[str, str | None] = {}
    texts: list[str] = []
    for k in range(count):
        table = f"bench-{k % tables}"
        rnd = capsa.Round(
            seats=4,
            round_id=f"{table}/r{k}",
            nonce=k,
            previous_digest=previous.get(table),
            table_id=table,
            players=[f"{table}-p{i}" for i in range(4)],
            server_seed=hashlib.sha256(f"bench {k}".encode()).digest(),
            meta={"played_at": f"2026-12-{1 + k % 28:02d}T12:00:00Z"},
        )
        rnd.deal()
        for seat, hand in enumerate(rnd.hands):
            rnd.submit(seat, list(hand))
        rnd.close()
        rnd.settle()
        texts.append(rnd.record_json())
        previous[table] = read_record(texts[-1]).digest
    return texts


def run_backend(
    name: str, url: str, records: list[str], batch: int, key: bytes | None = None
) -> list[str]:
    """Times one backend; returns the lines of its figures."""
    single = records[: len(records) // 4]
    rest = records[len(records) // 4 :]
    with capsa.store.open(url, key=key) as store:
        start = time.perf_counter()
        for text in single:
            assert store.append(text) is True
        single_s = time.perf_counter() - start
        start = time.perf_counter()
        stored = 0
        for i in range(0, len(rest), batch):
            stored += sum(store.append_many(rest[i : i + batch]))
        batch_s = time.perf_counter() - start
        assert stored == len(rest)
        assert sum(t.rounds for t in store.tables()) == len(records)
        checkpoints = [store.checkpoint()] if key is not None else []
        start = time.perf_counter()
        report = store.verify(checkpoints=checkpoints)
        verify_s = time.perf_counter() - start
        assert report.ok and report.records == len(records), report.problems[:3]
        assert report.macs_checked == (key is not None)
        assert report.seats == 4 * len(records)
        out = Path(tempfile.mkdtemp()) / "export.jsonl"
        store.export(str(out))
        assert sorted(out.read_text("utf-8").splitlines()) == sorted(records)
    verified = "verify, key and checkpoint" if key is not None else "verify (the whole store)"
    return [
        _figure(name, "append, a commit per record", len(single), single_s),
        _figure(name, f"append_many, batches of {batch}", len(rest), batch_s),
        _figure(name, verified, len(records), verify_s),
    ]


def _figure(name: str, what: str, count: int, seconds: float) -> str:
    return f"{name:<10} {what:<31} {count:>6,} records {fmt_rate(count / seconds):>9} records/s"


def _postgres(url: str | None) -> tuple[str | None, object]:
    """A PostgreSQL URL to bench on (a new database of a throwaway cluster
    without ``url``), and the cluster to stop (or None)."""
    if url is not None:
        return url, None
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
    from postgres_cluster import find_bin, start_cluster

    if find_bin("initdb") is None:
        return None, None
    cluster = start_cluster(fsync=True)
    import psycopg

    with psycopg.connect(cluster.url(), autocommit=True) as conn:
        conn.execute("CREATE DATABASE capsa_bench")
    return cluster.url("capsa_bench"), cluster


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--records", type=int, default=None)
    parser.add_argument("--tables", type=int, default=8)
    parser.add_argument("--batch", type=int, default=500)
    parser.add_argument("--postgres-url", default=None)
    parser.add_argument("--key", action="store_true", help="a store key and a checkpoint")
    args = parser.parse_args()
    key = hashlib.sha256(b"bench store key").digest() if args.key else None
    count = args.records or (800 if args.quick else 4000)
    print(machine())
    print(f"{count:,} records of {args.tables} tables, made in ", end="", flush=True)
    start = time.perf_counter()
    records = make_records(count, args.tables)
    print(f"{time.perf_counter() - start:.1f} s (not timed)")
    directory = tempfile.mkdtemp(prefix="capsa-store-bench-")
    sqlite_url = f"sqlite:///{directory}/records.db"
    for line in run_backend("sqlite", sqlite_url, records, args.batch, key):
        print(line, flush=True)
    url, cluster = _postgres(args.postgres_url)
    try:
        if url is None:
            print("postgresql: initdb not installed, not measured")
        else:
            for line in run_backend("postgresql", url, records, args.batch, key):
                print(line, flush=True)
    finally:
        if cluster is not None:
            cluster.stop()  # type: ignore[attr-defined]
    shutil.rmtree(directory, ignore_errors=True)


if __name__ == "__main__":
    main()
