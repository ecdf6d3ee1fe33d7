"""A crowd around the tables of the reference server, for its benchmark and
its tests: idle listeners (WebSockets that read each table's events and
send nothing) and anonymous page fetchers (a loop of showdown page requests
for each table's latest rounds, with no pause), all on bare loopback
sockets so that the crowd takes little of the machine besides what it
asks of the server."""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
import os
from collections import Counter
from dataclasses import dataclass, field

__all__ = ["Crowd", "CrowdReport"]


@dataclass
class CrowdReport:
    """What the crowd saw: listeners connected, still connected at the end
    and bytes they read; pages fetched by HTTP status; what failed (a
    fetcher's error)."""

    listeners: int = 0
    listening: int = 0
    listened_bytes: int = 0
    pages: Counter[int] = field(default_factory=Counter)
    failures: list[str] = field(default_factory=list)


def _host_port(base_url: str) -> tuple[str, int]:
    host, port = base_url.removeprefix("http://").split(":")
    return host, int(port)


class _Listener:
    """A WebSocket to a table's events that reads whatever comes (ignoring
    its frames) and sends nothing."""

    def __init__(self, base_url: str, table: str) -> None:
        self.base_url, self.table = base_url, table
        self.received = 0
        self.ended = False
        self.writer: asyncio.StreamWriter | None = None

    async def connect(self) -> asyncio.StreamReader:
        host, port = _host_port(self.base_url)
        reader, self.writer = await asyncio.open_connection(host, port)
        key = base64.b64encode(os.urandom(16)).decode()
        self.writer.write(
            (
                f"GET /tables/{self.table}/events?batch=1 HTTP/1.1\r\nHost: {host}\r\n"
                "Upgrade: websocket\r\nConnection: Upgrade\r\n"
                f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
            ).encode()
        )
        head = await reader.readuntil(b"\r\n\r\n")
        if not head.startswith(b"HTTP/1.1 101"):
            raise RuntimeError(f"a listener was refused: {head.splitlines()[0]!r}")
        return reader

    async def drain(self, reader: asyncio.StreamReader) -> None:
        while chunk := await reader.read(1 << 16):
            self.received += len(chunk)
        self.ended = True

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()


class _Fetcher:
    """One kept-alive HTTP/1.1 connection asking, table after table, for the
    showdown page of the table's round before last (the last one's record
    may still be on its way to the store), in English and Indonesian by
    turns."""

    def __init__(self, base_url: str, tables: list[str], first: int, pages: Counter[int]) -> None:
        self.host, self.port = _host_port(base_url)
        self.tables, self.turn, self.pages = tables, first, pages
        self.streams: tuple[asyncio.StreamReader, asyncio.StreamWriter] | None = None

    async def _get(self, path: str) -> tuple[int, bytes]:
        if self.streams is None:
            self.streams = await asyncio.open_connection(self.host, self.port)
        reader, writer = self.streams
        writer.write(f"GET {path} HTTP/1.1\r\nHost: {self.host}\r\n\r\n".encode())
        head = (await reader.readuntil(b"\r\n\r\n")).decode("latin-1").lower()
        status = int(head.split(None, 2)[1])
        length = int(head.split("\r\ncontent-length:", 1)[1].split("\r\n", 1)[0])
        body = await reader.readexactly(length)
        if "\r\nconnection: close" in head:
            writer.close()
            self.streams = None
        return status, body

    async def run(self) -> None:
        while True:
            self.turn += 1
            table = self.tables[self.turn % len(self.tables)]
            status, body = await self._get(f"/tables/{table}")
            round_id = json.loads(body).get("round_id") if status == 200 else None
            number = int(round_id.rsplit("-r", 1)[1]) - 2 if round_id else 0
            if number < 1:
                await asyncio.sleep(0.01)
                continue
            lang = ("en", "id")[self.turn // len(self.tables) % 2]
            path = f"/tables/{table}/rounds/{table}-r{number}/showdown?lang={lang}"
            status, _ = await self._get(path)
            self.pages[status] += 1

    def close(self) -> None:
        if self.streams is not None:
            self.streams[1].close()


class Crowd:
    """``listeners`` idle listeners spread evenly over ``tables`` and
    ``fetchers`` page fetchers, around the server at ``base_url``."""

    def __init__(self, base_url: str, tables: list[str], listeners: int, fetchers: int) -> None:
        self.report = CrowdReport(listeners=listeners)
        self._listeners = [_Listener(base_url, tables[n % len(tables)]) for n in range(listeners)]
        self._fetchers = [_Fetcher(base_url, tables, n, self.report.pages) for n in range(fetchers)]
        self._tasks: list[asyncio.Task[None]] = []

    async def start(self) -> None:
        """Connects every listener (refused: ``RuntimeError``), then sets
        every listener reading and every fetcher fetching."""
        readers = await asyncio.gather(*(listener.connect() for listener in self._listeners))
        loop = asyncio.get_running_loop()
        self._tasks = [
            loop.create_task(listener.drain(reader))
            for listener, reader in zip(self._listeners, readers, strict=True)
        ]
        self._tasks += [loop.create_task(fetcher.run()) for fetcher in self._fetchers]

    async def stop(self) -> CrowdReport:
        """Stops the crowd; what it saw."""
        report = self.report
        report.listening = sum(not listener.ended for listener in self._listeners)
        report.listened_bytes = sum(listener.received for listener in self._listeners)
        for task in self._tasks:
            if task.done() and not task.cancelled() and task.exception() is not None:
                report.failures.append(repr(task.exception()))
            task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.gather(*self._tasks, return_exceptions=True)
        for listener in self._listeners:
            listener.close()
        for fetcher in self._fetchers:
            fetcher.close()
        return report
