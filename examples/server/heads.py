"""A bound on a request's head (its line and headers) for uvicorn's HTTP
parsers: h11 has one of its own (``h11_max_incomplete_event_size``);
httptools, uvicorn's parser when it is installed, keeps a head of any
size in memory, so :func:`http_protocol` gives it a subclass that refuses
a head over the bound (400, the connection closed) as it comes in."""

from __future__ import annotations

import asyncio

__all__ = ["http_protocol"]

_READ = 256 * 1024  # what one read of a socket may bring beyond a head


def http_protocol(max_head_bytes: int) -> type[asyncio.Protocol] | str:
    """The HTTP protocol for uvicorn's ``http`` setting: httptools' with
    heads bounded to ``max_head_bytes``, or ``"h11"`` (bounded by
    ``h11_max_incomplete_event_size``) where httptools is not installed."""
    try:
        from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
    except ImportError:
        return "h11"

    class BoundedHeads(HttpToolsProtocol):
        """httptools' protocol, a head over ``max_head_bytes`` refused:
        each header and the request line counted as the parser reads them,
        and the bytes of a head not yet complete (httptools keeps a header
        being read whole) counted as they come, with the slack of one
        read for the body that may follow the head in it."""

        _head_bytes = 0
        _unfinished = 0  # bytes received since a head began, while it lasts
        _in_head = True

        def data_received(self, data: bytes) -> None:
            if self._in_head:
                self._unfinished += len(data)
                if self._unfinished > max_head_bytes + _READ:
                    self.send_400_response(f"the request's head is over {max_head_bytes} bytes")
                    return
            super().data_received(data)

        def on_message_begin(self) -> None:
            self._head_bytes = 0
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
            super().on_headers_complete()

        def on_message_complete(self) -> None:
            self._in_head = True
            super().on_message_complete()

    return BoundedHeads
