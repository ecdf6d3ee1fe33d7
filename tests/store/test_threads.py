"""capsa.store under many threads: the connections of threads that ended,
and writers racing for one database (SQLite's write lock, PostgreSQL's head
row)."""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from store_records import make_chain, make_round

import capsa.store

THREADS = 500
AT_ONCE = 20


def _open_fds() -> int:
    return len(os.listdir("/proc/self/fd"))


def _server_connections(url: str) -> int:
    """How many connections the PostgreSQL server has to the store's
    database, this one's left out."""
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        row = conn.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
            " AND pid <> pg_backend_pid()"
        ).fetchone()
    assert row is not None
    return int(row[0])


def _server_connections_after_close(url: str) -> int:
    """The server's connections to the store's database once the closed
    ones are gone: a server process ends a moment after its client closed,
    so the count is read again for up to 10 s until it is 0."""
    deadline = time.monotonic() + 10
    while (count := _server_connections(url)) and time.monotonic() < deadline:
        time.sleep(0.05)
    return count


def _in_threads(jobs: list[Callable[[], object]], at_once: int) -> list[BaseException]:
    """Runs each job in a thread of its own, ``at_once`` threads at a time;
    what they raised."""
    failures: list[BaseException] = []

    def run(job: Callable[[], object]) -> None:
        try:
            job()
        except BaseException as exc:
            failures.append(exc)

    for start in range(0, len(jobs), at_once):
        wave = jobs[start : start + at_once]
        threads = [threading.Thread(target=run, args=(job,)) for job in wave]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    return failures


def test_ended_threads_leave_no_connections(url: str) -> None:
    records = [make_round(f"w{i}", 0, None) for i in range(THREADS)]
    fds = _open_fds()
    store = capsa.store.open(url)

    def appender(text: str) -> Callable[[], object]:
        return lambda: store.append(text)

    failures = _in_threads([appender(text) for text in records], AT_ONCE)
    assert failures == []
    # the threads' connections are back, at most a few kept open for the next
    if store.backend == "sqlite":
        assert _open_fds() - fds <= 3 * (AT_ONCE + 1)  # a file, its log and index
    else:
        assert _server_connections(url) <= AT_ONCE + 1
    assert store._connections.count() <= AT_ONCE + 1
    # the store goes on serving, from this thread and from new ones
    assert len(store.tables()) == THREADS
    more = make_chain("w0", 2)[1]
    assert _in_threads([lambda: store.append(more)], 1) == []
    assert store.verify().ok
    store.close()
    assert store._connections.count() == 0
    if store.backend == "sqlite":
        assert _open_fds() == fds
    else:
        assert _server_connections_after_close(url) == 0
    with pytest.raises(capsa.store.StoreError, match="closed"):
        store.tables()


def test_a_thread_that_ends_after_close_closes_nothing_twice(url: str) -> None:
    store = capsa.store.open(url)
    opened = threading.Event()
    release = threading.Event()

    def hold() -> None:
        store.tables()
        opened.set()
        release.wait(60)

    thread = threading.Thread(target=hold)
    thread.start()
    opened.wait(60)
    store.close()
    release.set()
    thread.join()
    assert store._connections.count() == 0


def _remove(path: Path) -> None:
    for suffix in ("", "-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)


def test_sqlite_writers_racing_never_see_a_locked_database(tmp_path: Path) -> None:
    """Writers that read before they write (opening a new store makes its
    tables after looking for them) fail with "database is locked" when two
    transactions both read, then both try to write: a deferred ``BEGIN``
    fails here, ``BEGIN IMMEDIATE`` waits its turn."""
    path = tmp_path / "race.db"
    for _ in range(15):
        _remove(path)
        start = threading.Barrier(4)

        def opener(start: threading.Barrier = start) -> None:
            start.wait()
            capsa.store.open(f"sqlite:///{path}").close()

        assert _in_threads([opener] * 4, 4) == []
    chain = make_chain("race", 30)
    store = capsa.store.open(f"sqlite:///{path}")
    stored: list[bool] = []
    barrier = threading.Barrier(4)

    def appender() -> None:
        barrier.wait()
        for text in chain:
            while True:
                try:
                    stored.append(store.append(text))
                    break
                except capsa.store.ChainError:
                    pass  # another writer is a record behind: it comes next

    assert _in_threads([appender] * 4, 4) == []
    assert stored.count(True) == len(chain)
    [table] = store.tables()
    assert table.rounds == len(chain) and store.verify().ok
    store.close()
