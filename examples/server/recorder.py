"""The server's way to the records store: one thread of its own holds the
store's connection, so the event loop never waits on a disk or a database,
and the records of rounds settled meanwhile go in one transaction (a group
commit: one flush for many rounds)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

import capsa.store

__all__ = ["Recorder"]

T = TypeVar("T")
_LOG = logging.getLogger("capsa.server")
# How long stopping waits for queued records when the store does not take
# them (those rounds were never told settled).
_CLOSING_SECONDS = 30


class Recorder:
    """Appends records in the order given and calls each one's
    ``on_stored`` on the event loop once it is durable; runs reads on the
    same thread."""

    def __init__(self) -> None:
        self._thread = ThreadPoolExecutor(1, thread_name_prefix="capsa-store")
        self._store: capsa.store.Store | None = None
        self._pending: list[tuple[str, Callable[[], None]]] = []
        self._writer: asyncio.Task[None] | None = None

    async def open(self, url: str) -> None:
        self._store = await self.run(lambda _: capsa.store.open(url))

    async def run(self, read: Callable[[capsa.store.Store], T]) -> T:
        """``read(store)`` on the store's thread."""
        return await asyncio.get_running_loop().run_in_executor(
            self._thread,
            lambda: read(self._store),  # type: ignore[arg-type]
        )

    def append(self, text: str, on_stored: Callable[[], None]) -> None:
        """Queues a record; ``on_stored`` is called once it is stored."""
        self._pending.append((text, on_stored))
        if self._writer is None or self._writer.done():
            self._writer = asyncio.get_running_loop().create_task(self._write())

    async def _write(self) -> None:
        while self._pending:
            batch, self._pending = self._pending, []
            try:
                await self.run(_appending([text for text, _ in batch]))
            except Exception:  # tried again: appending a stored record is a no-op
                _LOG.exception("the store refused %d records; trying again", len(batch))
                self._pending = batch + self._pending
                await asyncio.sleep(0.5)
                continue
            for _, on_stored in batch:
                on_stored()

    async def close(self) -> None:
        """Stores what is queued, then closes the store."""
        if self._writer is not None:
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self._writer, _CLOSING_SECONDS)
        if self._store is not None:
            await self.run(lambda store: store.close())
        self._thread.shutdown()


def _appending(texts: list[str]) -> Callable[[capsa.store.Store], list[bool]]:
    """What appends ``texts`` in one transaction."""
    return lambda store: store.append_many(texts)
