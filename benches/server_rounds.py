"""The reference table server (examples/server/) end to end: rounds per
second over loopback HTTP and WebSockets, 4 players a table, the records
store on SQLite.

Run on demand, not a test::

    python benches/server_rounds.py                  # 8 tables x 50 rounds
    python benches/server_rounds.py --tables 16 --rounds 25

The server runs in its own process (``python -m examples.server``, one
event loop); the players (``examples/server/players.py``) run in this one
(on uvloop when it is installed),
each on its own WebSocket and sharing one HTTP connection pool per table,
and never time out, so every round closes when its four seats have
submitted. Per round: each player sends its seed, reads its view and
submits (12 HTTP requests) and receives the table's events; the server
deals, seals the round's state after every change, closes, settles and
appends the record to the store (the records of rounds settled while a
commit runs go in the next one). The
timed span runs from the first join to the last table's last round; the
store is then checked (every chain verifies).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from collections.abc import Coroutine
from pathlib import Path
from typing import Any

from bench_common import machine

import capsa.store

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from examples.server.players import play_table
from examples.server.process import serving


async def _play(base: str, tables: int, rounds: int) -> None:
    await asyncio.gather(
        *(play_table(base, f"t{t}", rounds, plain_http=True) for t in range(tables))
    )


def _run(main: Coroutine[Any, Any, None]) -> None:
    """Runs the players on uvloop's event loop (as uvicorn runs the
    server) where it is installed: the client then takes less of the
    machine than the server."""
    try:
        import uvloop
    except ImportError:
        asyncio.run(main)
    else:
        uvloop.run(main)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=8)
    parser.add_argument("--rounds", type=int, default=50, help="rounds per table")
    args = parser.parse_args()
    print(machine())
    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite:///{tmp}/records.db"
        options = ("--tables", str(args.tables), "--deadline-ms", "600000")
        with serving(url, *options) as served:
            wall, cpu = time.perf_counter(), time.process_time()
            server_cpu = served.cpu_seconds()
            _run(_play(served.url, args.tables, args.rounds))
            wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
            server_cpu = served.cpu_seconds() - server_cpu
        with capsa.store.open(url, create=False) as store:
            report = store.verify()
            assert report.ok, report.problems[:3]
            stored = report.records
    played = args.tables * args.rounds
    print(
        f"{args.tables} tables x {args.rounds} rounds = {played} rounds in {wall:.2f} s: "
        f"{played / wall:,.0f} rounds/s end to end (CPU: server {server_cpu:.2f} s, "
        f"players {cpu:.2f} s; "
        f"{stored} records stored and verified)"
    )


if __name__ == "__main__":
    main()
