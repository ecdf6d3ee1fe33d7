"""The reference server acknowledges only what is durable: a round is shown
once its opening is stored and told settled once its record is; a round
left pending by a killed server is voided at the next start, never dealt
again; a record the store refuses is set aside and its table paused while
the others play on; a lease lost while running pauses its tables; a seat
that sends no seed is dealt without it at the end of the seed window and
every other seat keeps its whole arrangement window."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sqlite3
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import websockets

import capsa
import capsa.records
import capsa.store

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))

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
FAST = ("--seed-ms", "300", "--deadline-ms", "2000")


def test_a_round_is_shown_once_opened_and_told_settled_once_stored(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/records.db"
    checked: list[str] = []

    async def watch(served: Serving, store: capsa.store.Store, stop: asyncio.Event) -> None:
        # seat 1's own connection (its player joined already: the same seat)
        async with httpx.AsyncClient(base_url=served.url) as http:
            token = (await http.post("/tables/t0/join", json={"player": "t0-p1"})).json()["token"]
        ws_url = served.url.replace("http", "ws", 1) + "/tables/t0/events?seat=1"
        async with websockets.connect(
            ws_url, additional_headers={"Authorization": f"Bearer {token}"}
        ) as ws:
            while not stop.is_set():
                event = json.loads(await ws.recv())
                round_id = event.get("round_id")
                if event["event"] == "round":
                    # recorded as pending, or already played out and stored
                    pending = store.pending("t0")
                    stored = store.get("t0", round_id)
                    if stored is None:
                        assert pending is not None and pending.round_id == round_id
                        assert pending.commitment == event["commitment"]
                    else:
                        assert (
                            stored.record().get("deal", {}).get("commitment") == event["commitment"]
                        )
                    checked.append(f"round {round_id}")
                elif event["event"] == "settled":
                    stored = store.get("t0", round_id)
                    assert stored is not None and stored.digest == event["digest"]
                    checked.append(f"settled {round_id}")

    async def run(served: Serving) -> TablePlayers:
        players = TablePlayers(served, "t0")
        stop = asyncio.Event()
        with capsa.store.open(url, create=False) as store:
            async with playing([players]):
                await until(lambda: players.seen.shown, 10, "a round shown")
                watcher = asyncio.ensure_future(watch(served, store, stop))
                await until(lambda: len(checked) >= 20 or watcher.done(), 30, "20 events checked")
                stop.set()
                await asyncio.wait_for(watcher, 10)
        return players

    with serving(url, "--tables", "1", *FAST) as served:
        players = asyncio.run(run(served))
    assert sum(c.startswith("settled") for c in checked) >= 5
    check_store(url, [players.seen], key=KEY)


def test_an_absent_seat_is_dealt_at_the_end_of_the_seed_window_and_the_others_keep_their_time(
    tmp_path: Path,
) -> None:
    url = f"sqlite:///{tmp_path}/records.db"

    async def run(served: Serving) -> TablePlayers:
        players = TablePlayers(served, "t0", absent=(3,))
        async with playing([players]):
            await until(lambda: len(players.seen.settled) >= 3, 30, "3 rounds settled")
        return players

    # the round waits for the absent seat to the end of each window
    options = ("--tables", "1", "--seed-ms", "300", "--deadline-ms", "1000")
    with serving(url, *options, "--auto-arrange", "foul") as served:
        players = asyncio.run(run(served))
        state = httpx.get(f"{served.url}/tables/t0").json()
    with capsa.store.open(url, create=False) as store:
        records = [r.record() for r in store.rounds("t0")]
    played = [r for r in records if r.get("format") != "capsa-void-record"]
    assert len(played) >= 3
    for record in played:
        # the three present seats submitted in their window; the absent
        # one alone was arranged for it
        assert [seat["auto"] for seat in record["seats"]] == [False, False, False, True]
        assert record["deal"]["client_seeds"][3] == ""
        assert record["solver"]["strategy"] == "foul"  # the policy, recorded
    check_store(url, [players.seen], key=KEY)
    assert state["seed_deadline"] is not None  # the windows are the table's


def test_a_round_left_pending_by_a_killed_server_is_voided_not_dealt_again(
    tmp_path: Path,
) -> None:
    url = f"sqlite:///{tmp_path}/records.db"
    options = ("--tables", "1", "--seed-ms", "60000", "--lease-ms", "1000")

    def seat_and_see(base: str) -> dict[str, Any]:
        with httpx.Client(base_url=base) as http:
            for k in range(4):
                http.post("/tables/t0/join", json={"player": f"t0-p{k}"})
            for _ in range(500):
                state = http.get("/tables/t0").json()
                if state.get("round_id"):  # shown
                    return dict(state)
                time.sleep(0.01)
        raise AssertionError("no round shown")

    with serving(url, *options) as served:
        first = seat_and_see(served.url)
        served.process.kill()
        served.process.wait()
    with serving(url, *options) as served:  # waits out the killed server's lease
        second = seat_and_see(served.url)
        code, body = health(served.url)
    assert first["round_id"] == "t0-r1" and second["round_id"] == "t0-r2"
    assert code == 200 and body["status"] == "ok", body
    with capsa.store.open(url, create=False, key=KEY) as store:
        assert store.verify().ok
        [void, *rest] = [capsa.records.read_record(r.text) for r in store.rounds("t0")]
        assert void.kind == "void" and void.round_id == "t0-r1"
        assert void.commitment == first["commitment"]
        assert "never recorded" in void.reason
        # the clean stop voided the round it showed and never played
        assert [(v.kind, v.round_id, v.commitment) for v in rest] == [
            ("void", "t0-r2", second["commitment"])
        ]
        assert store.pending_rounds() == []


def _refuse_table(path: Path, table_key: str, *, set_aside_too: bool) -> None:
    """Installs triggers by which SQLite refuses the table's records (and,
    with ``set_aside_too``, every record set aside)."""
    with sqlite3.connect(path) as conn:
        conn.execute(
            "CREATE TRIGGER refuse_table BEFORE INSERT ON capsa_records"
            f" WHEN NEW.table_key = '{table_key}'"
            " BEGIN SELECT RAISE(ABORT, 'refused by the test'); END"
        )
        if set_aside_too:
            conn.execute(
                "CREATE TRIGGER refuse_set_aside BEFORE INSERT ON capsa_set_aside"
                " BEGIN SELECT RAISE(ABORT, 'refused by the test'); END"
            )


def test_a_record_refused_for_good_is_set_aside_and_pauses_its_table_only(
    tmp_path: Path,
) -> None:
    path = tmp_path / "records.db"
    url = f"sqlite:///{path}"
    set_aside = tmp_path / "set-aside.jsonl"
    options = ("--tables", "3", *FAST, "--set-aside-file", str(set_aside))

    async def run(served: Serving) -> list[TablePlayers]:
        tables = [TablePlayers(served, f"t{k}") for k in range(3)]
        async with playing(tables):
            await until(lambda: all(len(t.seen.settled) >= 2 for t in tables), 30, "play")
            _refuse_table(path, "t1", set_aside_too=True)
            await until(lambda: tables[1].seen.paused, 30, "t1 paused")
            paused_at = time.monotonic()
            code, body = health(served.url)
            assert code == 503 and body["status"] == "degraded"
            assert list(body["paused"]) == ["t1"] and "refused" in body["paused"]["t1"]
            state = httpx.get(f"{served.url}/tables/t1").json()
            assert state["status"] == "paused" and "refused by the test" in state["paused"]
            # the other tables go on
            await until(
                lambda: all(t.seen.settled_since(paused_at) >= 3 for t in (tables[0], tables[2])),
                30,
                "the other tables play on",
            )
            settled_t1 = len(tables[1].seen.settled)
            await asyncio.sleep(0.3)
            assert len(tables[1].seen.settled) == settled_t1
        return tables

    with serving(url, *options) as served:
        tables = asyncio.run(run(served))
        with sqlite3.connect(path) as conn:  # the operator mends the database
            conn.execute("DROP TRIGGER refuse_table")
            conn.execute("DROP TRIGGER refuse_set_aside")
    lines = [json.loads(line) for line in set_aside.read_text().splitlines()]
    assert [(line["table_id"], line["reason"][:8]) for line in lines] == [("t1", "Integrit")]
    refused = capsa.records.read_record(lines[0]["record"])
    assert refused.round_id not in tables[1].seen.settled  # never acknowledged
    chains = check_store(url, [t.seen for t in tables], key=KEY)
    # the refused round ends in a void record (its stop voided it)
    [void] = [v for v in chains["t1"] if v.round_id == refused.round_id]
    assert void.kind == "void" and void.commitment == refused.commitment


def _stop_between_writes(served: Serving, path: Path) -> None:
    """Stops the server's process (SIGSTOP) at a moment it holds no write
    transaction of the SQLite store (one held would keep every other
    writer waiting until it goes on)."""
    for _ in range(100):
        served.process.send_signal(signal.SIGSTOP)
        try:
            with sqlite3.connect(path, timeout=0.2, isolation_level=None) as conn:
                conn.execute("BEGIN IMMEDIATE")
                conn.execute("ROLLBACK")
            return
        except sqlite3.OperationalError:
            served.process.send_signal(signal.SIGCONT)
            time.sleep(0.02)
    raise AssertionError("the server never let go of the store")


def test_a_lease_lost_while_running_pauses_the_tables_and_the_new_server_plays_on(
    tmp_path: Path,
) -> None:
    path = tmp_path / "records.db"
    url = f"sqlite:///{path}"
    options = ("--tables", "2", *FAST, "--lease-ms", "900")
    options += ("--set-aside-file", str(tmp_path / "set-aside.jsonl"))

    async def play(served: Serving, rounds: int) -> list[TablePlayers]:
        tables = [TablePlayers(served, f"t{k}") for k in range(2)]
        async with playing(tables):
            await until(lambda: all(len(t.seen.settled) >= rounds for t in tables), 30, "play")
        return tables

    with serving(url, *options) as first:
        old = asyncio.run(play(first, 2))
        _stop_between_writes(first, path)  # stalled past its leases' end
        time.sleep(1.2)
        with serving(url, *options) as second:  # takes the leases that ended
            first.process.send_signal(signal.SIGCONT)
            new = asyncio.run(play(second, 3))
            deadline = time.monotonic() + 10
            while health(first.url)[0] != 503 and time.monotonic() < deadline:
                time.sleep(0.05)
            code, body = health(first.url)
            assert code == 503 and set(body["leases"]["lost"]) == {"t0", "t1"}, body
            assert set(body["paused"]) == {"t0", "t1"}
            assert all("lease" in why for why in body["paused"].values())
            assert health(second.url)[0] == 200
    check_store(url, [t.seen for t in old + new], key=KEY)


def test_the_commits_process_killed_is_started_again_and_the_tables_play_on(
    tmp_path: Path,
) -> None:
    url = f"sqlite:///{tmp_path}/records.db"

    def commits_process(served: Serving) -> int:
        for pid in served.children():
            if "spawn_main" in Path(f"/proc/{pid}/cmdline").read_text():
                return pid
        raise AssertionError("the server runs no commits' process")

    async def run(served: Serving) -> list[TablePlayers]:
        tables = [TablePlayers(served, f"t{k}") for k in range(2)]
        async with playing(tables):
            await until(lambda: all(len(t.seen.settled) >= 2 for t in tables), 30, "play")
            first = commits_process(served)
            os.kill(first, signal.SIGKILL)
            killed = time.monotonic()
            await until(
                lambda: all(t.seen.settled_since(killed) >= 3 for t in tables), 30, "play on"
            )
            assert commits_process(served) != first
        return tables

    with serving(url, "--tables", "2", *FAST) as served:
        tables = asyncio.run(run(served))
    check_store(url, [t.seen for t in tables], key=KEY)


def test_a_stop_while_the_store_takes_nothing_is_bounded_and_leaves_its_rounds_to_be_voided(
    small_disk: SmallDisk, tmp_path: Path
) -> None:
    url = f"sqlite:///{small_disk.directory}/records.db"
    options = ("--tables", "2", *FAST, "--stop-ms", "1000", "--lease-ms", "1000")
    options += ("--set-aside-file", str(tmp_path / "set-aside.jsonl"))

    async def play(served: Serving, tables: list[TablePlayers], rounds: int) -> None:
        async with playing(tables):
            await until(lambda: all(len(t.seen.settled) >= rounds for t in tables), 30, "play")
            if rounds == 2:
                small_disk.fill(served)
                await until(
                    lambda: health(served.url)[1]["store"]["state"] == "unreachable", 20, ""
                )

    with serving(url, *options) as served:
        tables = [TablePlayers(served, f"t{k}") for k in range(2)]
        asyncio.run(play(served, tables, 2))
        served.process.terminate()
        stopping = time.monotonic()
        # uvicorn stops cleanly, then ends by the signal it was sent
        assert served.process.wait(timeout=30) in (0, -signal.SIGTERM)
        took = time.monotonic() - stopping
        small_disk.free(served)
    assert took < 8  # the stop waited a second for the store, not for ever
    with capsa.store.open(url, create=False) as store:
        assert store.pending_rounds()  # left for the next start
    with serving(url, *options) as served:  # voids them, and plays on
        for players in tables:
            players.server = served
        asyncio.run(play(served, tables, 4))
    check_store(url, [t.seen for t in tables], key=KEY)
