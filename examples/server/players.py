"""Scripted players for the reference table server, for its tests and its
benchmark: each joins a table, listens to the table's events over a
WebSocket, sends a client seed for each round, reads its hand from its view
and submits an arrangement, until the table has played a given number of
rounds. A player may time out (never submit) or drop and reopen its
WebSocket, as :class:`Habits` say (seeded, so a run is repeatable)."""

from __future__ import annotations

import asyncio
import json
import random
from dataclasses import dataclass, field
from typing import Any, Protocol

import httpx
import websockets

__all__ = ["Habits", "PlayerReport", "play_table"]


@dataclass(frozen=True)
class Habits:
    """How often a player misses a round's submission (``miss``) or its
    seed too (``absent``), and how often it drops its WebSocket and opens
    a new one after acting (``reconnect``); each drawn per round from
    ``seed``."""

    miss: float = 0.0
    absent: float = 0.0
    reconnect: float = 0.0
    seed: int = 0


@dataclass
class PlayerReport:
    """What a player did: rounds it submitted in, missed, its reconnects and
    the requests the server refused (by error type)."""

    player: str
    seat: int = -1
    submitted: int = 0
    missed: int = 0
    reconnects: int = 0
    refused: dict[str, int] = field(default_factory=dict)


def _round_number(round_id: str) -> int:
    return int(round_id.rsplit("-r", 1)[1])


def _arrangement(hand: list[str]) -> str:
    """The hand in the order dealt, three, five and five: quick to make, a
    foul now and then, which the server settles like any other hand."""
    return f"{' '.join(hand[:3])} / {' '.join(hand[3:8])} / {' '.join(hand[8:])}"


class _Transport(Protocol):
    async def __call__(
        self, method: str, path: str, body: object, headers: dict[str, str]
    ) -> tuple[int, dict[str, object]]: ...


def _httpx_transport(http: httpx.AsyncClient) -> _Transport:
    async def send(
        method: str, path: str, body: object, headers: dict[str, str]
    ) -> tuple[int, dict[str, object]]:
        response = await http.request(method, path, json=body, headers=headers)
        return response.status_code, response.json()

    return send


class _PlainHttp:
    """HTTP/1.1 on one kept-alive loopback connection, one request at a
    time: a client light enough that a benchmark measures the server."""

    def __init__(self, base_url: str) -> None:
        host, port = base_url.removeprefix("http://").split(":")
        self.host, self.port = host, int(port)
        self.streams: tuple[asyncio.StreamReader, asyncio.StreamWriter] | None = None

    async def __call__(
        self, method: str, path: str, body: object, headers: dict[str, str]
    ) -> tuple[int, dict[str, object]]:
        if self.streams is None:
            self.streams = await asyncio.open_connection(self.host, self.port)
        reader, writer = self.streams
        content = b"" if body is None else json.dumps(body).encode()
        lines = [f"{method} {path} HTTP/1.1", f"Host: {self.host}"]
        lines += [f"{k}: {v}" for k, v in headers.items()]
        lines += ["Content-Type: application/json", f"Content-Length: {len(content)}", "", ""]
        writer.write("\r\n".join(lines).encode() + content)
        head = (await reader.readuntil(b"\r\n\r\n")).decode("latin-1").lower()
        status = int(head.split(None, 2)[1])
        length = int(head.split("\r\ncontent-length:", 1)[1].split("\r\n", 1)[0])
        return status, json.loads(await reader.readexactly(length))

    def close(self) -> None:
        if self.streams is not None:
            self.streams[1].close()


class _Player:
    def __init__(
        self, http: _Transport, ws_url: str, table: str, player: str, habits: Habits
    ) -> None:
        self.http, self.ws_url, self.table = http, ws_url, table
        self.report = PlayerReport(player)
        self.rng = random.Random(f"{habits.seed}/{table}/{player}")
        self.habits = habits
        self.headers: dict[str, str] = {}
        self.acted: set[tuple[str, str]] = set()  # (round, what) done or skipped

    async def _call(self, method: str, path: str, body: object = None) -> dict[str, object]:
        status, data = await self.http(method, path, body, self.headers)
        if status >= 400:
            error = data["error"]
            assert isinstance(error, dict)
            kind = str(error["type"])
            self.report.refused[kind] = self.report.refused.get(kind, 0) + 1
            if status >= 500:
                raise RuntimeError(f"the server failed: {data}")
        return data

    async def join(self, name: str) -> None:
        body = {"player": self.report.player, "name": name}
        joined = await self._call("POST", f"/tables/{self.table}/join", body)
        self.report.seat = int(str(joined["seat"]))
        self.headers = {"Authorization": f"Bearer {joined['token']}"}

    async def act(self, event: dict[str, Any]) -> None:
        """Does what the round waits for from this seat, if anything: a
        round's start asks for the seed, a deal for the arrangement (read
        from the seat's view); a hello (a new connection) is answered from
        the view."""
        round_id = str(event["round_id"])
        if event["event"] == "round":
            await self._seed(round_id)
            return
        seat = self.report.seat
        view = await self._call("GET", f"/tables/{self.table}/seats/{seat}/view")
        if "error" in view or view["round_id"] != round_id:
            return
        if view["phase"] == "open" and view["client_seed"] is None:
            await self._seed(round_id)
        elif view["phase"] == "dealt" and view["arrangement"] is None:
            hand = view["hand"]
            assert isinstance(hand, list)
            await self._submit(round_id, hand)

    async def _seed(self, round_id: str) -> None:
        if (round_id, "seed") in self.acted:
            return
        self.acted.add((round_id, "seed"))
        if self.rng.random() < self.habits.absent:
            self.acted.add((round_id, "submit"))
            self.report.missed += 1
            return
        body = {"round_id": round_id, "seed": f"{self.report.player}:{round_id}"}
        await self._call("POST", f"/tables/{self.table}/seats/{self.report.seat}/seed", body)

    async def _submit(self, round_id: str, hand: list[str]) -> None:
        if (round_id, "submit") in self.acted:
            return
        self.acted.add((round_id, "submit"))
        if self.rng.random() < self.habits.miss:
            self.report.missed += 1
            return
        body = {"round_id": round_id, "arrangement": _arrangement(hand)}
        path = f"/tables/{self.table}/seats/{self.report.seat}/submit"
        done = await self._call("POST", path, body)
        self.report.submitted += "error" not in done

    async def play(self, rounds: int, batch: bool) -> None:
        """Plays until the table has started its round after ``rounds``;
        with ``batch``, reads events the server sends several a message."""
        # the seat's own connection: its events come as they happen
        url = f"{self.ws_url}/tables/{self.table}/events?seat={self.report.seat}"
        url += "&batch=1" if batch else ""
        while True:
            async with websockets.connect(
                url, compression=None, additional_headers=self.headers
            ) as ws:
                async for message in ws:
                    parsed = json.loads(message)
                    events = parsed if isinstance(parsed, list) else [parsed]
                    numbers = [_round_number(e["round_id"]) for e in events if e.get("round_id")]
                    latest = max(numbers, default=0)
                    if latest > rounds:
                        return
                    if await self._on_events(events, latest):
                        self.report.reconnects += 1
                        break  # a new connection, whose hello tells where the table is
                else:
                    raise RuntimeError("the server closed the table's events")

    async def _on_events(self, events: list[dict[str, Any]], latest: int) -> bool:
        """Does what the events of round ``latest`` ask (an earlier round in
        the same message is over); True when the player then drops its
        connection."""
        drop = False
        for event in events:
            round_id = event.get("round_id")
            if not round_id or _round_number(round_id) != latest:
                continue
            if event["event"] in ("hello", "round", "dealt"):
                await self.act(event)
                if self.rng.random() < self.habits.reconnect:
                    drop = True
        return drop


async def play_table(
    base_url: str,
    table: str,
    rounds: int,
    *,
    players: list[str] | None = None,
    habits: Habits | None = None,
    plain_http: bool = False,
    batch: bool = True,
) -> list[PlayerReport]:
    """Seats ``players`` (ids; default four of the table's own) at ``table``
    of the server at ``base_url`` and plays until the table has played
    ``rounds`` rounds in all; over httpx, or with ``plain_http`` a bare
    HTTP/1.1 connection per player (lighter, for the benchmark); with
    ``batch``, the players read events several a message (``?batch=1``)."""
    habits = habits or Habits()
    ids = players or [f"{table}-p{k}" for k in range(4)]
    ws_url = "ws" + base_url.removeprefix("http")
    if plain_http:
        connections = [_PlainHttp(base_url) for _ in ids]
        seated = [
            _Player(c, ws_url, table, player, habits)
            for c, player in zip(connections, ids, strict=True)
        ]
        try:
            await _seat_and_play(seated, rounds, batch)
        finally:
            for connection in connections:
                connection.close()
    else:
        async with httpx.AsyncClient(base_url=base_url, timeout=30) as http:
            seated = [_Player(_httpx_transport(http), ws_url, table, p, habits) for p in ids]
            await _seat_and_play(seated, rounds, batch)
    return [p.report for p in seated]


async def _seat_and_play(seated: list[_Player], rounds: int, batch: bool) -> None:
    for player in seated:
        await player.join(f"Player {player.report.player}")
    await asyncio.gather(*(p.play(rounds, batch) for p in seated))
