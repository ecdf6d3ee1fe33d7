"""The reference server under faults, on loopback: PostgreSQL restarted
under a playing server; the server killed (SIGKILL) at random moments and
restarted each time; a poison record (a PostgreSQL trigger refusing one
table's records); two servers claiming one table; SQLite on a full file
system. After each, players kept what they saw, and the store must hold
it: every round told settled is stored; every round shown ends in its
record or its void record, with the commitment shown (no round id dealt
twice); the store verifies with its key (nothing half-written); every
ledger is zero-sum; and no table stalled that should not have (the tables
play on after the fault).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import httpx

import capsa.store

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))

from postgres_cluster import new_database, private_cluster, shared_cluster  # noqa: E402
from server_driver import (  # noqa: E402
    SmallDisk,
    TablePlayers,
    check_store,
    health,
    playing,
    until,
)

from examples.server.process import STORE_KEY_HEX, Serving, serving  # noqa: E402

KEY = bytes.fromhex(STORE_KEY_HEX)
# rounds of a few dozen ms when every seat plays; windows short enough that
# a round left by a player is over soon, long enough for a loaded machine
FAST = ("--seed-ms", "300", "--deadline-ms", "2000")


def _tables(server: object, count: int) -> list[TablePlayers]:
    return [TablePlayers(server, f"t{k}") for k in range(count)]


def _all_settled(tables: list[TablePlayers], rounds: int, since: float = 0.0) -> bool:
    return all(t.seen.settled_since(since) >= rounds for t in tables)


def _any_settled(tables: list[TablePlayers], since: float) -> bool:
    return any(t.seen.settled_since(since) > 0 for t in tables)


def test_postgresql_restarted_under_a_playing_server(tmp_path: Path) -> None:
    cluster = private_cluster()
    url = new_database(cluster)
    options = ("--tables", "3", *FAST, "--lease-ms", "1500")
    options += ("--set-aside-file", str(tmp_path / "set-aside.jsonl"))

    async def run(served: Serving) -> list[TablePlayers]:
        tables = _tables(served, 3)
        async with playing(tables):
            await until(lambda: _all_settled(tables, 2), 30, "play")
            await asyncio.to_thread(cluster.halt, "fast")
            down = time.monotonic()
            # the store away longer than the leases last: they end meanwhile
            await until(lambda: health(served.url)[1]["store"]["state"] == "unreachable", 20, "")
            code, body = health(served.url)
            assert code == 503 and "the store takes no records" in body["problems"][0]
            states = httpx.get(f"{served.url}/tables").json()
            assert "waiting for the store" in {s["status"] for s in states}
            balance = httpx.get(f"{served.url}/players/t0-p0/balance", timeout=30)
            assert balance.status_code == 503, balance.text
            settled_down = sum(t.seen.settled_since(down + 0.5) for t in tables)
            await asyncio.sleep(max(0.0, down + 2.0 - time.monotonic()))
            await asyncio.to_thread(cluster.resume)
            up = time.monotonic()
            await until(lambda: _all_settled(tables, 3, up), 30, "play on after the restart")
            await until(lambda: health(served.url)[0] == 200, 10, "healthy again")
            # nothing settled while the database was away
            assert settled_down == 0
        return tables

    with serving(url, *options) as served:
        tables = asyncio.run(run(served))
    check_store(url, [t.seen for t in tables], key=KEY)


@dataclass
class _Current:
    """The server the players play on now (a restarted one listens
    elsewhere)."""

    url: str = "http://127.0.0.1:1"


def test_a_server_killed_at_random_moments_and_restarted(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/records.db"
    options = ("--tables", "3", *FAST, "--lease-ms", "1000")
    options += ("--set-aside-file", str(tmp_path / "set-aside.jsonl"))
    rng = random.Random(40)
    current = _Current()
    tables = _tables(current, 3)
    settled_per_life: list[int] = []

    async def run() -> None:
        async with playing(tables):
            for life in range(5):
                with contextlib.ExitStack() as stack:
                    served = await asyncio.to_thread(stack.enter_context, serving(url, *options))
                    current.url = served.url
                    started = time.monotonic()
                    if life < 4:
                        # killed at a random moment once it has acknowledged a
                        # round, however slowly a loaded machine starts it
                        await until(
                            lambda since=started: _any_settled(tables, since), 30, "a first round"
                        )
                        await asyncio.sleep(rng.uniform(0.1, 1.2))
                        served.process.kill()
                        await asyncio.to_thread(served.process.wait)
                    else:  # the last one stops cleanly, once the tables play on
                        await until(
                            lambda since=started: _all_settled(tables, 2, since), 30, "play on"
                        )
                    settled_per_life.append(sum(t.seen.settled_since(started) for t in tables))
                    await asyncio.to_thread(stack.close)

    asyncio.run(run())
    assert all(settled_per_life), settled_per_life  # every life acknowledged rounds
    chains = check_store(url, [t.seen for t in tables], key=KEY)
    voids = [v for chain in chains.values() for v in chain if v.kind == "void"]
    assert any("never recorded" in v.reason for v in voids)  # the kills' rounds


def _refusing_trigger(url: str, table_id: str, install: bool) -> None:
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        if install:
            conn.execute(
                "CREATE FUNCTION refuse_table() RETURNS trigger LANGUAGE plpgsql AS $$"
                f" BEGIN IF NEW.table_key = '{table_id}' THEN"
                " RAISE EXCEPTION 'refused by the test'; END IF; RETURN NEW; END $$"
            )
            conn.execute(
                "CREATE TRIGGER refuse_table BEFORE INSERT ON capsa_records"
                " FOR EACH ROW EXECUTE FUNCTION refuse_table()"
            )
        else:
            conn.execute("DROP TRIGGER refuse_table ON capsa_records")


def test_a_poison_record_pauses_its_table_and_the_others_play_on(tmp_path: Path) -> None:
    url = new_database(shared_cluster())
    options = ("--tables", "3", *FAST, "--set-aside-file", str(tmp_path / "set-aside.jsonl"))

    async def run(served: Serving) -> list[TablePlayers]:
        tables = _tables(served, 3)
        async with playing(tables):
            await until(lambda: _all_settled(tables, 2), 30, "play")
            _refusing_trigger(url, "t1", install=True)
            await until(lambda: tables[1].seen.paused, 30, "t1 paused")
            paused = time.monotonic()
            code, body = health(served.url)
            assert code == 503 and list(body["paused"]) == ["t1"], body
            assert "refused by the test" in body["paused"]["t1"]
            others = [tables[0], tables[2]]
            await until(lambda: _all_settled(others, 3, paused), 30, "the others play on")
            assert tables[1].seen.settled_since(paused) == 0
        return tables

    with serving(url, *options) as served:
        tables = asyncio.run(run(served))
        _refusing_trigger(url, "t1", install=False)  # mended before the stop
    with capsa.store.open(url, create=False) as store:
        [kept] = store.set_aside_records()
    assert kept.table_id == "t1" and "refused by the test" in kept.reason
    chains = check_store(url, [t.seen for t in tables], key=KEY)
    refused = [v for v in chains["t1"] if v.round_id == kept.round_id]
    assert [v.kind for v in refused] == ["void"]  # never acknowledged; void now


def test_two_servers_claiming_one_table(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/records.db"
    options = ("--tables", "2", *FAST)

    second_argv = [sys.executable, "-m", "examples.server", "--store", url, "--port", "0"]
    second_argv += ["--tables", "3"]  # t0 and t1 are the first server's

    async def play(served: Serving, tables: list[TablePlayers]) -> float:
        async with playing(tables):
            await until(lambda: _all_settled(tables, 2), 30, "play")
            claimed = time.monotonic()
            second = await asyncio.to_thread(
                subprocess.run,
                [
                    sys.executable,
                    "-m",
                    "examples.server",
                    "--store",
                    url,
                    "--port",
                    "0",
                    "--tables",
                    "3",
                ],
                cwd=REPO,
                env=dict(os.environ, PYTHONPATH=f"{REPO / 'python'}{os.pathsep}{REPO}"),
                capture_output=True,
                text=True,
                timeout=60,
            )
            assert second.returncode == 2, second.stderr
            [line] = second.stderr.splitlines()
            assert line.startswith("error: another server holds table 't0'") and "leased by" in line
            await until(lambda: _all_settled(tables, 3, claimed), 30, "the first plays on")
            assert health(served.url)[0] == 200
            return claimed

    with serving(url, *options) as served:
        tables = _tables(served, 2)
        asyncio.run(play(served, tables))
    chains = check_store(url, [t.seen for t in tables], key=KEY)
    assert "t2" not in chains  # the second server wrote nothing
    with capsa.store.open(url, create=False) as store:  # released at the clean stop
        store.lease(["t0", "t1"], "another server", ttl_ms=1000)


def test_sqlite_on_a_full_file_system(small_disk: SmallDisk, tmp_path: Path) -> None:
    url = f"sqlite:///{small_disk.directory}/records.db"
    options = ("--tables", "3", *FAST, "--set-aside-file", str(tmp_path / "set-aside.jsonl"))

    async def run(served: Serving) -> list[TablePlayers]:
        tables = _tables(served, 3)
        async with playing(tables):
            await until(lambda: _all_settled(tables, 2), 30, "play")
            small_disk.fill(served)
            await until(lambda: health(served.url)[1]["store"]["state"] == "unreachable", 20, "")
            full = time.monotonic()
            states = httpx.get(f"{served.url}/tables").json()
            assert "waiting for the store" in {s["status"] for s in states}
            await asyncio.sleep(0.5)
            settled_full = sum(t.seen.settled_since(full + 0.2) for t in tables)
            small_disk.free(served)
            freed = time.monotonic()
            await until(lambda: _all_settled(tables, 3, freed), 30, "play on with room")
            await until(lambda: health(served.url)[0] == 200, 10, "healthy again")
            assert settled_full == 0
        return tables

    with serving(url, *options) as served:
        tables = asyncio.run(run(served))
    check_store(url, [t.seen for t in tables], key=KEY)
