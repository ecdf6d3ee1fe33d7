"""What the server holds at most: connections, listeners, message, body
and JSON sizes, reads under way and pages kept; each a server option
(``python -m examples.server --help``, docs/server.md)."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import capsa

__all__ = ["SEAT_LISTENERS", "Limits"]


@dataclass(frozen=True)
class Limits:
    """The server's bounds; the defaults suit one process on loopback or
    behind a proxy. ``max_connections`` counts every open connection (HTTP
    or WebSocket: uvicorn answers a request beyond it with 503);
    ``max_listeners`` the WebSockets of every table's events and
    ``max_table_listeners`` those of one table that are not a seat's (a
    seat's connections, at most ``SEAT_LISTENERS`` a seat, are never
    refused for the crowd); ``max_message_bytes`` a message a client sends
    on a WebSocket (the server reads none: a bigger one closes the
    connection, 1009, before it is read); ``max_head_bytes`` a request's
    line and headers (400, the connection closed) and ``head_timeout_ms``
    the time they may take from the connection or their first byte (then
    closed); ``max_body_bytes`` and
    ``max_json_depth`` a request's JSON body; ``read_workers`` threads read
    the store and draw pages, at most ``read_queue`` reads waiting or
    running (then 503 ``Busy``); ``page_cache`` drawn pages are kept;
    a listener that is not a seat's is sent its events at most every
    ``spectator_interval_ms`` (waiting events go together)."""

    max_connections: int = 2048
    max_listeners: int = 1024
    max_table_listeners: int = 256
    max_message_bytes: int = 4096
    max_head_bytes: int = 16 * 1024
    head_timeout_ms: int = 10_000
    max_body_bytes: int = 16 * 1024
    max_json_depth: int = 8
    read_workers: int = 1
    read_queue: int = 32
    page_cache: int = 256
    spectator_interval_ms: int = 250

    def __post_init__(self) -> None:
        for item in dataclasses.fields(self):
            value = getattr(self, item.name)
            if not isinstance(value, int) or isinstance(value, bool):
                raise TypeError(f"{item.name} must be an int, not {type(value).__name__}")
            least = 0 if item.name == "spectator_interval_ms" else 1
            if value < least:
                raise capsa.ArgumentError(f"{item.name} must be at least {least}, got {value}")
        if self.max_listeners > self.max_connections:
            raise capsa.ArgumentError(
                f"max_listeners ({self.max_listeners}) must not be over "
                f"max_connections ({self.max_connections}): listeners are connections"
            )


SEAT_LISTENERS = 4
"""WebSockets one seat may hold at once (a player reconnecting may still
hold the one it left)."""
