"""Players for the reference server's durability and fault tests: a table
of players that keeps playing through restarts, outages and pauses, and
what the players saw, to be checked against the store afterwards.

Each :class:`TablePlayers` seats its players (the same ids in the same
order, so a restarted server gives them the same seats and tokens), listens
to the table's events on the first seat's own connection, and acts on
them: every present seat sends its seed when a round is shown and submits
when it is dealt; an absent seat joins and does nothing more. A request or
connection that fails (the server killed, restarting) is tried again on the
server's current URL. Every round shown (``round`` events, and the round in
a ``hello``) and every round told settled is kept: :func:`check_store`
checks them against the store.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import shutil
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets

import capsa
import capsa.records
import capsa.store
from examples.server.process import Serving

__all__ = [
    "Seen",
    "SmallDisk",
    "TablePlayers",
    "check_store",
    "health",
    "playing",
    "small_file_system",
    "until",
]


@dataclass
class Seen:
    """What the players of one table saw: each round shown (round id ->
    commitment), each round told settled (round id -> digest, with the
    time seen, ``time.monotonic()``), the reasons of ``paused`` events, and
    the answers of 500 or above (none is expected)."""

    table_id: str
    shown: dict[str, str] = field(default_factory=dict)
    settled: dict[str, str] = field(default_factory=dict)
    settled_at: dict[str, float] = field(default_factory=dict)
    paused: list[str] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)

    def settled_since(self, moment: float) -> int:
        """Rounds told settled after ``moment`` (``time.monotonic()``)."""
        return sum(1 for at in self.settled_at.values() if at > moment)


class TablePlayers:
    """Four players at ``table_id`` of the server whose base URL is
    ``server.url`` (read again after every failure: a restarted server
    listens elsewhere); the seats in ``absent`` join and never act."""

    def __init__(self, server: Any, table_id: str, absent: tuple[int, ...] = ()) -> None:
        self.server = server
        self.table_id = table_id
        self.players = [f"{table_id}-p{k}" for k in range(4)]
        self.absent = absent
        self.seen = Seen(table_id)
        self._acted: set[tuple[str, str]] = set()

    async def run(self, stop: asyncio.Event) -> None:
        """Plays until ``stop`` is set."""
        while not stop.is_set():
            try:
                await self._session(stop)
            except (httpx.HTTPError, websockets.WebSocketException, OSError, asyncio.TimeoutError):
                await asyncio.sleep(0.05)

    async def _session(self, stop: asyncio.Event) -> None:
        base = self.server.url
        async with httpx.AsyncClient(base_url=base, timeout=10) as http:
            tokens = []
            for player in self.players:
                joined = await self._call(
                    http, "POST", f"/tables/{self.table_id}/join", {"player": player}, None
                )
                tokens.append(str(joined["token"]))
            ws_url = base.replace("http", "ws", 1) + f"/tables/{self.table_id}/events?seat=0"
            headers = {"Authorization": f"Bearer {tokens[0]}"}
            async with websockets.connect(ws_url, additional_headers=headers) as ws:
                while not stop.is_set():
                    try:
                        message = await asyncio.wait_for(ws.recv(), 0.2)
                    except asyncio.TimeoutError:
                        continue
                    event = json.loads(message)
                    await self._on(http, tokens, event)

    async def _call(
        self,
        http: httpx.AsyncClient,
        method: str,
        path: str,
        body: object,
        token: str | None,
    ) -> dict[str, Any]:
        headers = {} if token is None else {"Authorization": f"Bearer {token}"}
        response = await http.request(method, path, json=body, headers=headers)
        data: dict[str, Any] = response.json()
        if response.status_code >= 500 and response.status_code != 503:
            self.seen.failures.append(f"{method} {path}: {response.status_code} {data}")
        return data

    async def _on(self, http: httpx.AsyncClient, tokens: list[str], event: dict[str, Any]) -> None:
        kind = event["event"]
        round_id = event.get("round_id")
        if kind == "settled":
            self.seen.settled[round_id] = event["digest"]
            self.seen.settled_at[round_id] = time.monotonic()
        elif kind == "paused":
            self.seen.paused.append(event["reason"])
        elif kind in ("round", "hello") and round_id and event.get("commitment"):
            self.seen.shown[round_id] = event["commitment"]
        if kind == "round" or (kind == "hello" and event.get("phase") == "open"):
            await self._seeds(http, tokens, str(round_id))
        if kind == "dealt" or (kind == "hello" and event.get("phase") == "dealt"):
            await self._submit(http, tokens, str(round_id))

    def _present(self) -> list[int]:
        return [seat for seat in range(4) if seat not in self.absent]

    async def _seeds(self, http: httpx.AsyncClient, tokens: list[str], round_id: str) -> None:
        for seat in self._present():
            if (round_id, f"seed{seat}") in self._acted:
                continue
            self._acted.add((round_id, f"seed{seat}"))
            path = f"/tables/{self.table_id}/seats/{seat}/seed"
            body = {"round_id": round_id, "seed": f"{seat}:{round_id}"}
            await self._call(http, "POST", path, body, tokens[seat])

    async def _submit(self, http: httpx.AsyncClient, tokens: list[str], round_id: str) -> None:
        for seat in self._present():
            if (round_id, f"submit{seat}") in self._acted:
                continue
            self._acted.add((round_id, f"submit{seat}"))
            path = f"/tables/{self.table_id}/seats/{seat}"
            view = await self._call(http, "GET", f"{path}/view", None, tokens[seat])
            hand = view.get("hand")
            if view.get("round_id") != round_id or not hand:
                continue
            arrangement = f"{' '.join(hand[:3])} / {' '.join(hand[3:8])} / {' '.join(hand[8:])}"
            body = {"round_id": round_id, "arrangement": arrangement}
            await self._call(http, "POST", f"{path}/submit", body, tokens[seat])


async def until(check: Any, seconds: float, what: str) -> None:
    """Waits until ``check()`` is true, at most ``seconds``."""
    deadline = time.monotonic() + seconds
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"not within {seconds} s: {what}")
        await asyncio.sleep(0.05)


def health(base: str) -> tuple[int, dict[str, Any]]:
    """The server's ``GET /health``: its status and body."""
    response = httpx.get(f"{base}/health", timeout=10)
    return response.status_code, response.json()


def check_store(
    url: str, seen: list[Seen], *, key: bytes | None = None, pending: bool = False
) -> dict[str, list[Any]]:
    """Checks the store at ``url`` against what the players saw, once the
    server stopped: it verifies (with ``key``, every head's MAC too);
    every round told settled is stored, with the digest told; every round
    shown ends in its record or its void record, with the commitment shown
    (so no round id was dealt twice); no round is left pending (unless
    ``pending``: the server was killed last); every ledger is zero-sum.
    Returns each table's records, read."""
    with capsa.store.open(url, create=False, key=key) as store:
        report = store.verify()
        assert report.ok, report.problems[:3]
        assert report.macs_checked == (key is not None)
        if not pending:
            assert store.pending_rounds() == []
        chains: dict[str, list[Any]] = {}
        for stored in store.rounds():
            view = capsa.records.read_record(stored.text)
            chains.setdefault(str(stored.table_id), []).append(view)
        ledger = store.ledger()
        assert isinstance(ledger, capsa.Ledger)
        assert sum(ledger.balances.values()) + ledger.house == 0
    for players in seen:
        records = {view.round_id: view for view in chains.get(players.table_id, [])}
        for round_id, digest in players.settled.items():
            view = records.get(round_id)
            assert view is not None and view.kind == "round", f"{round_id} told settled, not stored"
            assert view.digest == digest, f"{round_id}: stored with another digest"
        for round_id, commitment in players.shown.items():
            view = records.get(round_id)
            if view is None and pending:
                continue
            assert view is not None, f"{round_id} shown, neither recorded nor void"
            assert view.commitment == commitment, f"{round_id} dealt twice"
        assert not players.failures, players.failures[:3]
    return chains


@contextlib.asynccontextmanager
async def playing(tables: list[TablePlayers]) -> Any:
    """Runs the tables' players until the block ends."""
    stop = asyncio.Event()
    tasks = [asyncio.ensure_future(t.run(stop)) for t in tables]
    try:
        yield
    finally:
        stop.set()
        await asyncio.wait_for(asyncio.gather(*tasks, return_exceptions=True), 30)


class SmallDisk:
    """A small file system for a store: a tmpfs mounted for the test where
    the machine lets it (filled with a file), else a directory whose files
    the server's processes may not grow (``RLIMIT_FSIZE``, set by
    ``prlimit``: SQLite then reports an I/O error, not a full disk)."""

    def __init__(self, directory: Path, mounted: bool) -> None:
        self.directory = directory
        self.mounted = mounted

    def fill(self, server: Serving) -> None:
        if self.mounted:
            with (
                open(self.directory / "filler", "wb", buffering=0) as file,
                contextlib.suppress(OSError),
            ):
                while True:
                    file.write(b"\0" * 65536)
        else:
            size = max(p.stat().st_size for p in self.directory.iterdir())
            _prlimit(server, str(size + 4096))

    def free(self, server: Serving) -> None:
        if self.mounted:
            (self.directory / "filler").unlink()
        else:
            _prlimit(server, "unlimited")


def _prlimit(server: Serving, size: str) -> None:
    """Sets the file size limit of the server and of its processes (its
    commits are written by one of them)."""
    for pid in (server.process.pid, *server.children()):
        subprocess.run(["prlimit", f"--pid={pid}", f"--fsize={size}:unlimited"], check=True)


@contextlib.contextmanager
def small_file_system(directory: Path) -> Iterator[SmallDisk]:
    """An 8 MiB tmpfs mounted at ``directory`` for the block (root, and a
    machine that lets it mount), else ``directory`` as it is, filled with
    ``prlimit``; skips the test where neither can be had."""
    directory.mkdir()
    mount = shutil.which("mount")
    mounted = False
    if os.geteuid() == 0 and mount is not None:
        made = subprocess.run(
            [mount, "-t", "tmpfs", "-o", "size=8m", "tmpfs", str(directory)],
            capture_output=True,
            check=False,
        )
        mounted = made.returncode == 0
    if not mounted and shutil.which("prlimit") is None:
        pytest.skip("neither a tmpfs can be mounted nor prlimit run here")
    try:
        yield SmallDisk(directory, mounted)
    finally:
        if mounted:
            subprocess.run(["umount", "-l", str(directory)], capture_output=True, check=False)
