"""The table events sent over each table's WebSocket: one queue per
connection, filled without waiting by the tables and drained by the
connection's own task, so a slow or gone client never holds up a table. An
event is written as JSON once, for every connection to its table."""

from __future__ import annotations

import asyncio
import contextlib
import json
from typing import Any

from starlette.websockets import WebSocket, WebSocketDisconnect

__all__ = ["EventHub"]

# Events a connection may fall behind by before it is dropped (the client
# reconnects and reads the table's state from its hello).
_BACKLOG = 1000


class EventHub:
    """Who listens to which table."""

    def __init__(self) -> None:
        self._queues: dict[str, set[asyncio.Queue[str | None]]] = {}

    def publish(self, table_id: str, event: dict[str, Any]) -> None:
        """Queues ``event`` for every connection to the table."""
        queues = self._queues.get(table_id)
        if not queues:
            return
        text = json.dumps(event, separators=(",", ":"), ensure_ascii=False)
        for queue in list(queues):
            if queue.qsize() >= _BACKLOG:
                queues.discard(queue)
                queue.put_nowait(None)  # the connection closes
            else:
                queue.put_nowait(text)

    def close_all(self) -> None:
        for queues in self._queues.values():
            for queue in queues:
                queue.put_nowait(None)
        self._queues.clear()

    async def serve(
        self, table_id: str, websocket: WebSocket, hello: dict[str, Any], *, batch: bool = False
    ) -> None:
        """Sends ``hello`` then the table's events until the client leaves:
        each event a message; with ``batch``, the events waiting when one is
        sent go in one message, a JSON array of them (one message to write
        and read for several events)."""
        queue: asyncio.Queue[str | None] = asyncio.Queue()
        self._queues.setdefault(table_id, set()).add(queue)
        listening = asyncio.ensure_future(_until_disconnect(websocket, queue))
        try:
            await websocket.send_json(hello)
            ended = False
            while not ended and (event := await queue.get()) is not None:
                events = [event]
                while batch and not queue.empty():
                    waiting = queue.get_nowait()
                    if waiting is None:
                        ended = True
                        break
                    events.append(waiting)
                await websocket.send_text(event if len(events) == 1 else f"[{','.join(events)}]")
            if not listening.done():  # dropped by the hub, not gone
                await websocket.close(code=1008, reason="too far behind")
        except (WebSocketDisconnect, RuntimeError, OSError):
            pass  # the client left while an event was sent
        finally:
            self._queues.get(table_id, set()).discard(queue)
            listening.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await listening


async def _until_disconnect(websocket: WebSocket, queue: asyncio.Queue[str | None]) -> None:
    """Reads (and ignores) what the client sends until it disconnects; then
    ends the connection's queue."""
    while True:
        message = await websocket.receive()
        if message["type"] == "websocket.disconnect":
            queue.put_nowait(None)
            return
