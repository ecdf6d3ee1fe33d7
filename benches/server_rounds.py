"""The reference table server (examples/server/) end to end: rounds per
second over loopback HTTP and WebSockets, 4 players a table, the records
store on SQLite; each run plain and again with a crowd around the tables
(idle listeners and anonymous page fetchers), in turn.

Run on demand, not a test::

    python benches/server_rounds.py                  # 8 tables x 50 rounds, a pair of runs
    python benches/server_rounds.py --tables 16 --rounds 25 --pairs 3
    python benches/server_rounds.py --listeners 0 --fetchers 0   # plain runs only

The server runs in its own process (``python -m examples.server``, one
event loop); the players (``examples/server/players.py``) run in this one
(on uvloop when it is installed),
each on its own WebSocket and sharing one HTTP connection pool per table,
and never time out, so every round closes when its four seats have
submitted. Per round: each player sends its seed, reads its view and
submits (12 HTTP requests) and receives the table's events; the server
deals, seals the round's state after every change, closes, settles, and
stores the round's record with the next round's opening in one
transaction (what the tables send while a commit runs goes in the next
one); only once that is committed does it publish the result and the next
round, as the server always does: every round's wait for its commit is in
the figure. The crowd (``examples/server/crowd.py``),
in this process too: ``--listeners`` WebSockets spread over the tables that
read every event (as arrays, ``?batch=1``) and send nothing, connected
before the players join and checked still connected at the end, and
``--fetchers`` loops that each ask, table after table with no pause, for
the showdown page of the table's round before last. The timed span runs
from the first join to the last table's last round; the store is then
checked: every table holds every round played, and every chain verifies
(every record replayed); the void records of the rounds in play when the
server stops are among the records counted. The server's CPU is its
process's and its commits' process's.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from collections.abc import Coroutine
from pathlib import Path
from typing import Any

from bench_common import machine

import capsa.store

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from examples.server.crowd import Crowd, CrowdReport
from examples.server.players import play_table
from examples.server.process import serving


async def _play(
    base: str, tables: int, rounds: int, listeners: int, fetchers: int
) -> tuple[float, CrowdReport | None]:
    """Plays the tables (a crowd around them when asked); the wall time
    from the first join to the last round, and what the crowd saw."""
    names = [f"t{t}" for t in range(tables)]
    crowd = Crowd(base, names, listeners, fetchers) if listeners or fetchers else None
    if crowd is not None:
        await crowd.start()
    wall = time.perf_counter()
    try:
        await asyncio.gather(*(play_table(base, t, rounds, plain_http=True) for t in names))
        wall = time.perf_counter() - wall
    finally:
        seen = await crowd.stop() if crowd is not None else None
    return wall, seen


def _run(main: Coroutine[Any, Any, Any]) -> Any:
    """Runs the players on uvloop's event loop (as uvicorn runs the
    server) where it is installed: the client then takes less of the
    machine than the server."""
    try:
        import uvloop
    except ImportError:
        return asyncio.run(main)
    return uvloop.run(main)


def _one_run(tables: int, rounds: int, listeners: int, fetchers: int) -> tuple[float, float]:
    """One run on a fresh store; prints its line, returns (rounds/s,
    server CPU ms a round)."""
    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite:///{tmp}/records.db"
        options = ("--tables", str(tables), "--deadline-ms", "600000")
        with serving(url, *options) as served:
            cpu, server_cpu = time.process_time(), served.cpu_seconds()
            wall, seen = _run(_play(served.url, tables, rounds, listeners, fetchers))
            cpu, server_cpu = time.process_time() - cpu, served.cpu_seconds() - server_cpu
        with capsa.store.open(url, create=False) as store:
            report = store.verify()
            assert report.ok, report.problems[:3]
            counts = {t.table_id: t.rounds for t in store.tables()}
            stored = report.records
    missing = {f"t{t}" for t in range(tables) if counts.get(f"t{t}", 0) < rounds}
    assert not missing, f"tables {sorted(missing)} did not store every round played"
    played = tables * rounds
    crowd = "plain"
    if seen is not None:
        assert not seen.failures, seen.failures
        dropped = seen.listeners - seen.listening
        assert not dropped, f"{dropped} listeners were dropped"
        pages = ", ".join(f"{n} {status}" for status, n in sorted(seen.pages.items())) or "none"
        crowd = (
            f"{seen.listeners} listeners (all connected at the end, "
            f"{seen.listened_bytes / 1e6:.1f} MB read), {fetchers} fetchers (pages: {pages})"
        )
    print(
        f"{crowd}: {tables} tables x {rounds} rounds = {played} rounds in {wall:.2f} s: "
        f"{played / wall:,.0f} rounds/s end to end (CPU: server {server_cpu:.2f} s, "
        f"{server_cpu / played * 1000:.2f} ms a round; clients {cpu:.2f} s; "
        f"{stored} records stored and verified)",
        flush=True,
    )
    return played / wall, server_cpu / played * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=8)
    parser.add_argument("--rounds", type=int, default=50, help="rounds per table")
    parser.add_argument("--listeners", type=int, default=400, help="idle WebSockets, crowd runs")
    parser.add_argument("--fetchers", type=int, default=4, help="page fetchers, crowd runs")
    parser.add_argument("--pairs", type=int, default=1, help="plain and crowd runs, in turn")
    args = parser.parse_args()
    print(machine())
    crowded = args.listeners > 0 or args.fetchers > 0
    results: dict[bool, list[tuple[float, float]]] = {False: [], True: []}
    for pair in range(args.pairs):
        # the order alternates, so that a drift of the machine falls on both
        order = (False, True) if pair % 2 == 0 else (True, False)
        for with_crowd in order if crowded else (False,):
            fetchers = args.fetchers if with_crowd else 0
            listeners = args.listeners if with_crowd else 0
            results[with_crowd].append(_one_run(args.tables, args.rounds, listeners, fetchers))
    for with_crowd, runs in results.items():
        if runs:
            rates = sorted(rate for rate, _ in runs)
            cpus = sorted(cpu for _, cpu in runs)
            print(
                f"{'crowd' if with_crowd else 'plain'}: {len(runs)} run(s), rounds/s "
                f"{rates[0]:,.0f} to {rates[-1]:,.0f} (median {statistics.median(rates):,.0f}), "
                f"server CPU {cpus[0]:.2f} to {cpus[-1]:.2f} ms a round "
                f"(median {statistics.median(cpus):.2f})"
            )


if __name__ == "__main__":
    main()
