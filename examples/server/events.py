"""The table events sent over each table's WebSocket. Each table keeps the
latest events written as JSON once, in order; each connection reads them
from where it is with a task of its own, so a slow or gone client never
holds up a table, and publishing an event costs the same whoever listens
(only connections waiting for an event are woken).

Listeners are bounded: in all, and per table for those that are not a
seat's (a seat's own connections are never refused for a crowd). A
listener that is not a seat's gets its events at most every so often,
those waiting together: a crowd of spectators costs the server a bounded
number of writes a second, whatever the tables do.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from dataclasses import dataclass, field
from typing import Any

from starlette.websockets import WebSocket, WebSocketDisconnect

from examples.server.errors import ApiError
from examples.server.limits import SEAT_LISTENERS

__all__ = ["EventHub", "Listener"]

# Events a connection may fall behind by: one further behind is sent the
# next _BACKLOG events and closed (the client reconnects and reads the
# table's state from its hello). The table keeps at most twice as many.
_BACKLOG = 1000


@dataclass(eq=False)
class _Log:
    """A table's latest events (``events[0]`` is number ``first``) and its
    listeners."""

    events: list[str] = field(default_factory=list)
    first: int = 0
    listeners: set[Listener] = field(default_factory=set)
    waiting: set[Listener] = field(default_factory=set)

    @property
    def end(self) -> int:
        return self.first + len(self.events)


@dataclass(eq=False)
class Listener:
    """A connection admitted to a table's events: a seat's (``seat``) or
    a spectator's (None), reading them from event number ``cursor``."""

    table_id: str
    seat: int | None
    log: _Log
    cursor: int
    wake: asyncio.Future[None] | None = None
    rest: list[str] | None = None  # dropped: what it is sent before it closes
    ended: str = ""  # why it ends: "gone" (the client), "stopping" (the server)
    left: bool = False

    def rouse(self) -> None:
        if self.wake is not None and not self.wake.done():
            self.wake.set_result(None)


class EventHub:
    """Who listens to which table: at most ``max_listeners`` in all and
    ``max_table_listeners`` spectators a table; a spectator is written to
    at most every ``spectator_interval`` seconds."""

    def __init__(
        self,
        *,
        max_listeners: int = 1024,
        max_table_listeners: int = 256,
        spectator_interval: float = 0.25,
    ) -> None:
        self.max_listeners = max_listeners
        self.max_table_listeners = max_table_listeners
        self.spectator_interval = spectator_interval
        self._logs: dict[str, _Log] = {}
        self._count = 0
        # per table: its spectators (None), and each seat's connections
        self._held: dict[tuple[str, int | None], int] = {}

    def admit(self, table_id: str, seat: int | None = None) -> Listener:
        """A place for a new connection to the table's events, from the
        next one published (``seat``: a seat's own, else a spectator's);
        503 ``TooManyListeners`` when the server, the table or the seat has
        none left."""
        held = self._held.get((table_id, seat), 0)
        if self._count >= self.max_listeners:
            why = f"the server has its {self.max_listeners} listeners"
        elif seat is None and held >= self.max_table_listeners:
            why = f"table {table_id!r} has its {self.max_table_listeners} listeners"
        elif seat is not None and held >= SEAT_LISTENERS:
            why = f"seat {seat} of {table_id!r} holds {SEAT_LISTENERS} connections"
        else:
            why = ""
        if why:
            raise ApiError(503, "TooManyListeners", f"{why}: try again later", retry_after=5)
        log = self._logs.setdefault(table_id, _Log())
        listener = Listener(table_id, seat, log, log.end)
        log.listeners.add(listener)
        self._held[(table_id, seat)] = held + 1
        self._count += 1
        return listener

    def leave(self, listener: Listener) -> None:
        """Gives the listener's place back (once)."""
        if listener.left:
            return
        listener.left = True
        self._count -= 1
        self._held[(listener.table_id, listener.seat)] -= 1
        log = listener.log
        log.listeners.discard(listener)
        log.waiting.discard(listener)
        if not log.listeners:  # nobody to read what is kept
            log.first = log.end
            log.events.clear()

    @property
    def listeners(self) -> int:
        """Connections listening now."""
        return self._count

    def publish(self, table_id: str, event: dict[str, Any]) -> None:
        """Sends ``event`` to every connection to the table."""
        log = self._logs.get(table_id)
        if log is None or not log.listeners:
            return
        log.events.append(json.dumps(event, separators=(",", ":"), ensure_ascii=False))
        for listener in log.waiting:
            listener.rouse()
        log.waiting.clear()
        if len(log.events) >= 2 * _BACKLOG:
            _trim(log)

    def close_all(self) -> None:
        """Ends every connection (the server stops)."""
        for log in self._logs.values():
            for listener in log.listeners:
                listener.ended = "stopping"
                listener.rouse()

    async def serve(
        self,
        listener: Listener,
        websocket: WebSocket,
        hello: dict[str, Any],
        *,
        batch: bool = False,
    ) -> None:
        """Sends ``hello`` then the table's events until the client leaves,
        then gives the listener's place back: each event a message; with
        ``batch``, the events waiting when one is sent go in one message, a
        JSON array of them (one message to write and read for several
        events)."""
        pause = self.spectator_interval if listener.seat is None else 0.0
        listening = asyncio.ensure_future(_until_disconnect(websocket, listener))
        log = listener.log
        try:
            await websocket.send_json(hello)
            while not listener.ended:
                if listener.rest is not None:
                    events, listener.rest = listener.rest, []
                else:
                    events = log.events[listener.cursor - log.first :]
                    listener.cursor = log.end
                if not events:
                    if listener.rest is not None:
                        await websocket.close(code=1008, reason="too far behind")
                        break
                    listener.wake = asyncio.get_running_loop().create_future()
                    log.waiting.add(listener)
                    await listener.wake
                    continue
                if batch:
                    await websocket.send_text(
                        events[0] if len(events) == 1 else f"[{','.join(events)}]"
                    )
                else:
                    for text in events:
                        await websocket.send_text(text)
                if pause:
                    await asyncio.sleep(pause)
            if listener.ended == "stopping":
                await websocket.close(code=1001, reason="the server stops")
        except (WebSocketDisconnect, RuntimeError, OSError):
            pass  # the client left while an event was sent
        finally:
            self.leave(listener)
            listening.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await listening


def _trim(log: _Log) -> None:
    """Drops the events every listener has read; a listener more than
    ``_BACKLOG`` behind is given its next ``_BACKLOG`` events to be sent
    before it closes, and no longer reads the log."""
    end = log.end
    for listener in list(log.listeners):
        if end - listener.cursor > _BACKLOG:
            start = listener.cursor - log.first
            listener.rest = log.events[start : start + _BACKLOG]
            log.listeners.discard(listener)
            listener.rouse()
    low = min((listener.cursor for listener in log.listeners), default=end)
    del log.events[: low - log.first]
    log.first = low


async def _until_disconnect(websocket: WebSocket, listener: Listener) -> None:
    """Reads (and ignores) what the client sends until it disconnects; then
    ends the connection."""
    while True:
        message = await websocket.receive()
        if message["type"] == "websocket.disconnect":
            listener.ended = "gone"
            listener.rouse()
            return
