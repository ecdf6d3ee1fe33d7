"""Bounds on a request's head (its line and headers) for uvicorn's HTTP
parsers: its size, and the time it may take to come. h11 has a bound on
the size of its own (``h11_max_incomplete_event_size``); httptools,
uvicorn's parser when it is installed, keeps a head of any size in memory,
and neither closes a connection that never sends a byte, or sends its
head a byte at a time. :func:`http_protocol` gives httptools a subclass
that refuses a head over the size (400, the connection closed) as it comes
in, and closes a connection whose head is not complete in time."""

from __future__ import annotations

import asyncio

__all__ = ["http_protocol"]

_READ = 256 * 1024  # what one read of a socket may bring beyond a head


def http_protocol(max_head_bytes: int, head_seconds: float) -> type[asyncio.Protocol] | str:
    """The HTTP protocol for uvicorn's ``http`` setting: httptools' with
    heads bounded to ``max_head_bytes`` and ``head_seconds`` from the
    connection or the head's first byte, or ``"h11"`` (its heads' size
    bounded by ``h11_max_incomplete_event_size``) where httptools is not
    installed."""
    try:
        from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
    except ImportError:
        return "h11"

    class BoundedHeads(HttpToolsProtocol):
        """httptools' protocol, a head over ``max_head_bytes`` refused:
        each header and the request line counted as the parser reads them,
        and the bytes of a head not yet complete (httptools keeps a header
        being read whole) counted as they come, with the slack of one
        read for the body that may follow the head in it; a connection
        closed when no complete head came ``head_seconds`` after it
        opened or after the head's first byte."""

        _head_bytes = 0
        _unfinished = 0  # bytes received since a head began, while it lasts
        _in_head = True
        _late: asyncio.TimerHandle | None = None

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            self._time_the_head()

        def connection_lost(self, exc: Exception | None) -> None:
            self._head_came()
            super().connection_lost(exc)

        def _time_the_head(self) -> None:
            if self._late is None:
                self._late = self.loop.call_later(head_seconds, self.transport.close)

        def _head_came(self) -> None:
            if self._late is not None:
                self._late.cancel()
                self._late = None

        def data_received(self, data: bytes) -> None:
            if self._in_head:
                self._unfinished += len(data)
                if self._unfinished > max_head_bytes + _READ:
                    self.send_400_response(f"the request's head is over {max_head_bytes} bytes")
                    return
            super().data_received(data)

        def on_message_begin(self) -> None:
            self._head_bytes = 0
            self._time_the_head()
            super().on_message_begin()

        def _grow(self, size: int) -> None:
            self._head_bytes += size
            if self._head_bytes > max_head_bytes:
                # the parser stops; uvicorn answers 400 and closes
                raise ValueError(f"the request's head is over {max_head_bytes} bytes")

        def on_url(self, url: bytes) -> None:
            self._grow(len(url))
            super().on_url(url)

        def on_header(self, name: bytes, value: bytes) -> None:
            self._grow(len(name) + len(value) + 4)
            super().on_header(name, value)

        def on_headers_complete(self) -> None:
            self._in_head, self._unfinished = False, 0
            self._head_came()
            super().on_headers_complete()

        def on_message_complete(self) -> None:
            self._in_head = True
            super().on_message_complete()

    return BoundedHeads
