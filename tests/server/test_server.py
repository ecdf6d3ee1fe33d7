"""The reference table server (examples/server/) end to end: started with
uvicorn on loopback in a subprocess, driven over HTTP and WebSockets by
scripted players at 8 tables, some of whom time out or reconnect; then the
store verifies, every record replays and the ledger is zero-sum with the
house's rake."""

from __future__ import annotations

import asyncio
import json
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import websockets

import capsa
import capsa.store

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))

from postgres_cluster import new_database, shared_cluster  # noqa: E402

from examples.server.players import Habits, PlayerReport, play_table  # noqa: E402
from examples.server.process import Serving, serving  # noqa: E402

TABLES = 8
HOUSE_RULES = """\
base = "pagat"
name = "server-house"
[money]
rake_basis_points = 500
rake_cap_per_round = 300
"""
# Each player, each round: misses the submission or the seed too, or
# drops its WebSocket after acting (seeded per player).
HABITS = Habits(miss=0.04, absent=0.02, reconnect=0.08, seed=2026)


def _players(table: int) -> list[str]:
    """Four players, each of whom also sits at the next table: ledgers
    run across tables."""
    return [f"p{(2 * table + k) % (2 * TABLES)}" for k in range(4)]


async def _play_all(base: str, rounds_per_table: int) -> list[PlayerReport]:
    reports = await asyncio.gather(
        *(
            play_table(base, f"t{t}", rounds_per_table, players=_players(t), habits=HABITS)
            for t in range(TABLES)
        )
    )
    return [r for table in reports for r in table]


def _run_tables(url: str, rules_path: Path, rounds_per_table: int) -> list[PlayerReport]:
    # long enough that a loaded machine still lets the players act in time
    options = ("--tables", str(TABLES), "--seed-ms", "1000", "--deadline-ms", "1500")
    options += ("--rules", str(rules_path))
    with serving(url, *options) as served:
        base = served.url
        reports = asyncio.run(asyncio.wait_for(_play_all(base, rounds_per_table), 300))
        balances = {
            p: httpx.get(f"{base}/players/{p}/balance").json()["balance"]
            for p in sorted({r.player for r in reports})
        }
        assert all(isinstance(b, int) for b in balances.values())
        last = f"{base}/tables/t0/rounds/t0-r{rounds_per_table}"
        record = _stored(f"{last}/record")  # settled; stored right after
        assert capsa.replay(record.text) == json.loads(record.text)["digest"]
        page = httpx.get(f"{last}/showdown")
        assert page.status_code == 200 and "<html" in page.text.lower()
    _check_store(url, rounds_per_table, balances)
    return reports


def _stored(url: str) -> httpx.Response:
    # the store's writer may lag on a loaded machine
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        response = httpx.get(url)
        if response.status_code != 404:
            return response
        time.sleep(0.05)
    raise AssertionError(f"{url}: not stored")


def _check_store(url: str, rounds_per_table: int, balances: dict[str, int]) -> None:
    with capsa.store.open(url, create=False) as store:
        report = store.verify()
        assert report.ok, report.problems[:3]
        tables = {t.table_id: t.rounds for t in store.tables()}
        assert set(tables) == {f"t{t}" for t in range(TABLES)}
        assert all(n >= rounds_per_table for n in tables.values()), tables
        texts = list(store.texts())
        for text in texts:
            capsa.replay(text)
        ledger = store.ledger()
        assert isinstance(ledger, capsa.Ledger)
        assert sum(ledger.balances.values()) + ledger.house == 0
        assert ledger.house > 0  # the house's rake is taken
        # the store's balance of each player (as the server answers it) is
        # the replayed ledger's
        for player in balances:
            assert store.ledger(player) == ledger.balances[player]
    rounds = [json.loads(t) for t in texts]
    auto = sum(s["auto"] for r in rounds if "seats" in r for s in r["seats"])
    assert auto > 0  # players timed out; the solver arranged them


def _house_rules(tmp_path: Path) -> Path:
    path = tmp_path / "house.toml"
    path.write_text(HOUSE_RULES, encoding="utf-8")
    return path


def test_eight_tables_two_hundred_rounds_on_sqlite(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/records.db"
    reports = _run_tables(url, _house_rules(tmp_path), rounds_per_table=25)
    assert sum(r.missed for r in reports) > 0
    assert sum(r.reconnects for r in reports) > 0
    assert sum(r.submitted for r in reports) > 0


def test_eight_tables_on_postgresql(tmp_path: Path) -> None:
    url = new_database(shared_cluster())
    _run_tables(url, _house_rules(tmp_path), rounds_per_table=5)


def test_a_restarted_server_goes_on_with_each_tables_chain(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/records.db"
    options = ("--tables", "1", "--seed-ms", "200", "--deadline-ms", "200")
    for rounds in (2, 4):
        with serving(url, *options) as served:
            # one event a message, as a client that asks for no batches reads them
            play = play_table(served.url, "t0", rounds, batch=False)
            asyncio.run(asyncio.wait_for(play, 120))
    with capsa.store.open(url, create=False) as store:
        assert store.verify().ok
        assert [r.round_id for r in store.rounds("t0")][:4] == [f"t0-r{n}" for n in range(1, 5)]


async def _settled_until_killed(served: Serving, seconds: float) -> list[str]:
    """Plays table t0 and listens to its events; kills the server (SIGKILL)
    after ``seconds``; the round ids told settled until then."""
    settled: list[str] = []

    async def listen() -> None:
        url = served.url.replace("http", "ws") + "/tables/t0/events"
        async with websockets.connect(url) as ws:
            async for message in ws:
                event = json.loads(message)
                if event["event"] == "settled":
                    settled.append(event["round_id"])

    tasks = [
        asyncio.ensure_future(listen()),
        asyncio.ensure_future(play_table(served.url, "t0", 10**6)),
    ]
    await asyncio.sleep(seconds)
    served.process.kill()
    served.process.wait()
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    return settled


def test_a_killed_server_loses_no_acknowledged_round(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/records.db"
    with serving(url, "--tables", "1", "--deadline-ms", "60000") as served:
        settled = asyncio.run(_settled_until_killed(served, 3.0))
    assert len(settled) > 3
    with capsa.store.open(url, create=False) as store:
        assert store.verify().ok
        stored = {r.round_id for r in store.rounds("t0")}
    assert set(settled) <= stored


async def _events_one_and_several_a_message(served: Serving, rounds: int) -> list[list[Any]]:
    """Table t0's events as a client of single events and one of batches
    (``?batch=1``) read them while the table plays ``rounds`` rounds: the
    messages each received, parsed."""
    url = served.url.replace("http", "ws") + "/tables/t0/events"
    last = f"t0-r{rounds}"

    async def listen(query: str, messages: list[Any]) -> None:
        async with websockets.connect(url + query) as ws:
            async for message in ws:
                messages.append(json.loads(message))
                events = messages[-1] if isinstance(messages[-1], list) else [messages[-1]]
                if any(e["event"] == "settled" and e["round_id"] == last for e in events):
                    return

    received: list[list[Any]] = [[], []]
    queries = ("", "?batch=1")
    listeners = [
        asyncio.ensure_future(listen(q, m)) for q, m in zip(queries, received, strict=True)
    ]
    while not all(received):  # both have their hello before the players join
        await asyncio.sleep(0.05)
    await play_table(served.url, "t0", rounds)
    await asyncio.wait_for(asyncio.gather(*listeners), 60)
    return received


def test_a_batch_client_gets_every_event_in_order(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/records.db"
    with serving(url, "--tables", "1", "--deadline-ms", "60000") as served:
        single, batched = asyncio.run(_events_one_and_several_a_message(served, 3))
    assert not any(isinstance(m, list) for m in single)
    assert any(isinstance(m, list) and len(m) > 1 for m in batched)
    flat = [e for m in batched for e in (m if isinstance(m, list) else [m])]
    # a round's settlement and the next round come together, once stored
    assert flat[: len(single)] == single
    assert [e["event"] for e in flat[len(single) :]] in ([], ["round"])
    assert [e["event"] for e in single].count("settled") == 3
