"""The reference server's event hub in-process: events in order, one a
message or the waiting ones as one JSON array, and a connection that falls
too far behind sent what it has, then closed."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from examples.server import events
from examples.server.errors import ApiError
from examples.server.events import EventHub
from examples.server.limits import SEAT_LISTENERS


class _Client:
    """A WebSocket as the hub uses one: what it was sent, and whether it is
    gone."""

    def __init__(self) -> None:
        self.sent: list[Any] = []
        self.closed: int | None = None
        self.gone = asyncio.Event()

    async def send_json(self, data: Any) -> None:
        self.sent.append(data)

    async def send_text(self, text: str) -> None:
        self.sent.append(json.loads(text))
        await asyncio.sleep(0)  # a write lets the loop run

    async def receive(self) -> dict[str, Any]:
        await self.gone.wait()
        return {"type": "websocket.disconnect"}

    async def close(self, code: int, reason: str) -> None:
        self.closed = code


async def _serve(hub: EventHub, client: _Client, *, batch: bool) -> asyncio.Task[None]:
    listener = hub.admit("t0", seat=0)
    task = asyncio.create_task(hub.serve(listener, client, {"event": "hello"}, batch=batch))  # type: ignore[arg-type]
    await asyncio.sleep(0)
    return task


def test_events_one_a_message_or_batched() -> None:
    async def run() -> tuple[list[Any], list[Any]]:
        hub = EventHub()
        single, batched = _Client(), _Client()
        tasks = [await _serve(hub, single, batch=False), await _serve(hub, batched, batch=True)]
        for n in range(3):
            hub.publish("t0", {"event": "e", "n": n})
        await asyncio.sleep(0.01)
        hub.publish("t0", {"event": "e", "n": 3})
        await asyncio.sleep(0.01)
        for client in (single, batched):
            client.gone.set()
        await asyncio.gather(*tasks)
        return single.sent, batched.sent

    single, batched = asyncio.run(run())
    events_ = [{"event": "e", "n": n} for n in range(4)]
    assert single == [{"event": "hello"}, *events_]
    assert batched == [{"event": "hello"}, events_[:3], events_[3]]


def test_a_connection_too_far_behind_is_sent_its_events_then_closed(monkeypatch: Any) -> None:
    monkeypatch.setattr(events, "_BACKLOG", 2)

    async def run() -> _Client:
        hub = EventHub()
        client = _Client()
        task = await _serve(hub, client, batch=False)
        # the table keeps twice the backlog: the fourth finds the
        # connection four behind, which is dropped
        for n in range(4):
            hub.publish("t0", {"event": "e", "n": n})
        await asyncio.wait_for(task, 5)
        hub.publish("t0", {"event": "e", "n": 4})  # nobody listens any more
        return client

    client = asyncio.run(run())
    assert client.sent == [{"event": "hello"}, {"event": "e", "n": 0}, {"event": "e", "n": 1}]
    assert client.closed == 1008


def test_a_spectator_is_sent_what_waited_together_and_a_seat_at_once() -> None:
    async def run() -> tuple[list[Any], list[Any]]:
        hub = EventHub(spectator_interval=0.2)
        seat, spectator = _Client(), _Client()
        tasks = [
            asyncio.create_task(hub.serve(hub.admit("t0", seat=1), seat, {}, batch=True)),  # type: ignore[arg-type]
            asyncio.create_task(hub.serve(hub.admit("t0"), spectator, {}, batch=True)),  # type: ignore[arg-type]
        ]
        await asyncio.sleep(0.01)
        for n in range(3):  # one at a time: the seat is sent each as it comes
            hub.publish("t0", {"event": "e", "n": n})
            await asyncio.sleep(0.01)
        await asyncio.sleep(0.3)
        for client in (seat, spectator):
            client.gone.set()
        await asyncio.gather(*tasks)
        return seat.sent, spectator.sent

    seat, spectator = asyncio.run(run())
    events_ = [{"event": "e", "n": n} for n in range(3)]
    assert seat == [{}, *events_]
    assert spectator == [{}, events_[0], events_[1:]]


def test_listeners_are_counted_per_table_and_seat_and_given_back() -> None:
    hub = EventHub(max_listeners=5, max_table_listeners=2)
    spectators = [hub.admit("t0"), hub.admit("t0")]
    with pytest.raises(ApiError) as full_table:
        hub.admit("t0")
    seats = [hub.admit("t0", seat=0) for _ in range(SEAT_LISTENERS - 1)]  # the crowd's aside
    with pytest.raises(ApiError) as full_server:
        hub.admit("t1")
    assert (full_table.value.status, full_table.value.kind) == (503, "TooManyListeners")
    assert "'t0'" in str(full_table.value) and "5 listeners" in str(full_server.value)
    hub.leave(spectators[0])
    hub.leave(spectators[0])  # once only
    assert hub.listeners == 4
    hub.admit("t0")
    for listener in seats:
        hub.leave(listener)
    assert hub.listeners == 2
