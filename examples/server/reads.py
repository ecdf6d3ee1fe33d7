"""The server's reads of the records store (a stored record, a showdown
page, a player's balance) on worker threads of their own, with their own
connections: the event loop never waits on the store or on drawing a
page, and a read never waits behind the recorder's commits.

The queue is bounded: a read that finds it full is refused at once (503
``Busy``, with ``Retry-After``) instead of waiting. A stored round never
changes, so its rendered pages are kept, by table, round and language, in
a small cache of the latest asked for (and the rounds they were drawn
from, read once for both languages), and requests for a page being drawn
wait for that drawing instead of queueing their own.
"""

from __future__ import annotations

import asyncio
import json
import threading
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

import capsa.store
from capsa.render import page_html, table_from_record
from examples.server.errors import ApiError

__all__ = ["Reads"]

T = TypeVar("T")
_PageKey = tuple[str, str, str]  # table, round, language
# How long a read waits for a database that is away before it is answered
# 503 (the queue of reads is short: a long wait would fill it).
_RETRY_SECONDS = 5.0


class Reads:
    """Reads of the store at ``store_url`` on ``workers`` threads, at most
    ``queue`` of them waiting or running at once; the latest ``cache``
    rendered pages kept."""

    def __init__(self, *, workers: int, queue: int, cache: int) -> None:
        self._pool = ThreadPoolExecutor(workers, thread_name_prefix="capsa-reads")
        self._store: capsa.store.Store | None = None
        self._queue, self._cache_size = queue, cache
        self._running = 0
        self._pages: OrderedDict[_PageKey, str] = OrderedDict()
        self._drawing: dict[_PageKey, asyncio.Future[str]] = {}
        self._rounds = _Rounds(max(1, cache // 2))

    async def open(self, store_url: str) -> None:
        """Opens the store (already made by the recorder)."""
        self._store = await asyncio.get_running_loop().run_in_executor(
            self._pool,
            lambda: capsa.store.open(store_url, create=False, retry_seconds=_RETRY_SECONDS),
        )

    async def close(self) -> None:
        if self._store is not None:
            await asyncio.get_running_loop().run_in_executor(self._pool, self._store.close)
        self._pool.shutdown()

    async def run(self, read: Callable[[capsa.store.Store], T]) -> T:
        """``read(store)`` on a worker thread; 503 ``Busy`` when the queue
        is full."""
        if self._running >= self._queue:
            raise ApiError(503, "Busy", "the server has too many reads under way", retry_after=1)
        store = self._store
        assert store is not None
        self._running += 1
        try:
            return await asyncio.get_running_loop().run_in_executor(self._pool, read, store)
        finally:
            self._running -= 1

    async def record(self, table_id: str, round_id: str) -> str:
        """The stored record's text; 404 ``UnknownRound`` when the store
        does not hold it."""
        stored = await self.run(lambda store: store.get(table_id, round_id))
        if stored is None:
            raise ApiError(404, "UnknownRound", f"table {table_id!r} has no stored {round_id!r}")
        return stored.text

    async def page(self, table_id: str, round_id: str, lang: str) -> str:
        """The showdown page of a stored round, drawn once."""
        key = (table_id, round_id, lang)
        page = self._pages.get(key)
        if page is not None:
            self._pages.move_to_end(key)
            return page
        drawing = self._drawing.get(key)
        if drawing is not None:
            return await asyncio.shield(drawing)
        drawing = self._drawing[key] = asyncio.get_running_loop().create_future()
        try:
            page = await self.run(
                lambda store: _draw(store, table_id, round_id, lang, self._rounds)
            )
        except Exception as exc:
            drawing.set_exception(exc)
            drawing.exception()  # retrieved: nobody else may be waiting
            raise
        except BaseException:
            drawing.cancel()
            raise
        finally:
            del self._drawing[key]
        if page is None:
            unknown = ApiError(
                404, "UnknownRound", f"table {table_id!r} has no stored {round_id!r}"
            )
            drawing.set_exception(unknown)
            drawing.exception()
            raise unknown
        drawing.set_result(page)
        self._pages[key] = page
        if len(self._pages) > self._cache_size:
            self._pages.popitem(last=False)
        return page

    async def balance(self, player: str) -> int:
        """The player's net money over every table, from the store."""
        balance = await self.run(lambda store: store.ledger(player))
        assert isinstance(balance, int)
        return balance


class _Rounds:
    """The latest rounds read for pages, as ``table_from_record`` gives
    them (most of a page's drawing: a round asked for in its other
    language is not read again), shared by the reading threads."""

    def __init__(self, size: int) -> None:
        self._size = size
        self._lock = threading.Lock()
        self._kept: OrderedDict[tuple[str, str], Any] = OrderedDict()

    def get(self, key: tuple[str, str]) -> Any:
        with self._lock:
            return self._kept.get(key)

    def keep(self, key: tuple[str, str], table: Any) -> None:
        with self._lock:
            self._kept[key] = table
            if len(self._kept) > self._size:
                self._kept.popitem(last=False)


def _draw(
    store: capsa.store.Store, table_id: str, round_id: str, lang: str, rounds: _Rounds
) -> str | None:
    """The page of a stored round (None: not stored), on a worker thread."""
    table = rounds.get((table_id, round_id))
    if table is None:
        stored = store.get(table_id, round_id)
        if stored is None:
            return None
        table = table_from_record(json.loads(stored.text))
        rounds.keep((table_id, round_id), table)
    return page_html(table, lang)
