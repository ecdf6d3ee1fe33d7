"""No acknowledged record lost: writer processes of capsa.store killed with
SIGKILL at random points, one or eight at a time, on SQLite and PostgreSQL.

A writer prints each record's digest once ``append`` has returned; after the
kill every digest printed is in the store, every table's head is its last
record, no record has lost its seats, and ``verify`` passes.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from postgres_cluster import new_database, shared_cluster
from store_records import make_chain

import capsa.store

TESTS = Path(__file__).parents[1]
TABLES = [f"crash-{k}" for k in range(8)]


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    directory = tmp_path_factory.mktemp("logs")
    paths = {}
    for table in TABLES:
        paths[table] = directory / f"{table}.jsonl"
        paths[table].write_text("".join(t + "\n" for t in make_chain(table, 24)), "utf-8")
    return paths


@pytest.fixture(params=["sqlite", "postgresql"])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        store_url = f"sqlite:///{tmp_path}/records.db"
    else:
        store_url = new_database(shared_cluster())
    capsa.store.open(store_url).close()
    return store_url


def _writer(*args: str) -> subprocess.Popen[str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(TESTS), *sys.path])
    return subprocess.Popen(
        [sys.executable, str(TESTS / "store_writer.py"), *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env=env,
    )


def _kill_after(writer: subprocess.Popen[str], lines: int) -> set[str]:
    """Reads ``lines`` acknowledged digests (fewer if the writer ends), kills
    the writer, and returns every digest it acknowledged."""
    assert writer.stdout is not None
    acknowledged = set()
    for _ in range(lines):
        line = writer.stdout.readline()
        if not line:
            break
        acknowledged.add(line.strip())
    writer.send_signal(signal.SIGKILL)
    acknowledged.update(line.strip() for line in writer.stdout.read().splitlines())
    writer.wait(timeout=60)
    return {d for d in acknowledged if len(d) == 64}


def _check(url: str, acknowledged: set[str]) -> int:
    with capsa.store.open(url, create=False) as store:
        stored = {r.digest for r in store.rounds()}
        assert acknowledged <= stored
        records = store._execute("SELECT COUNT(*) FROM capsa_records").fetchone()[0]
        seats = store._execute("SELECT COUNT(*) FROM capsa_seats").fetchone()[0]
        assert seats == 4 * records == 4 * len(stored)
        report = store.verify()
        assert report.ok, [str(p) for p in report.problems]
        return int(records)


def test_one_writer_killed_again_and_again(url: str, logs: dict[str, Path]) -> None:
    rng = random.Random(f"one writer {url[:6]}")
    acknowledged: set[str] = set()
    for _ in range(4):
        writer = _writer("stream", url, str(logs[TABLES[0]]))
        acknowledged |= _kill_after(writer, rng.randrange(1, 20))
        _check(url, acknowledged)
    assert len(acknowledged) >= 4


def test_eight_writers_on_eight_tables(url: str, logs: dict[str, Path]) -> None:
    rng = random.Random(f"eight tables {url[:6]}")
    writers = [_writer("stream", url, str(logs[t])) for t in TABLES]
    acknowledged: set[str] = set()
    for k, writer in enumerate(writers):
        # half are killed part-way, the others write their whole log
        acknowledged |= _kill_after(writer, rng.randrange(1, 20) if k % 2 else 10_000)
    assert _check(url, acknowledged) >= 4 * 24
    with capsa.store.open(url) as store:
        assert {t.table_id for t in store.tables()} == set(TABLES)


def test_eight_writers_on_one_table(url: str) -> None:
    rng = random.Random(f"one table {url[:6]}")
    writers = [_writer("dynamic", url, "shared-table", str(k), "5") for k in range(8)]
    acknowledged: set[str] = set()
    for k, writer in enumerate(writers):
        acknowledged |= _kill_after(writer, rng.randrange(1, 5) if k % 2 else 10_000)
    assert _check(url, acknowledged) >= 4 * 5
    with capsa.store.open(url) as store:
        [table] = store.tables()
        assert table.rounds == len(list(store.rounds("shared-table")))
