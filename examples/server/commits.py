"""The recorder's commits, in a process of their own.

Within one process, the store's Python (each record read again and its
digest checked, the statements of a transaction) and the event loop's
take turns at one GIL: each of the ten or so calls into the database a
commit makes lets the GIL go and then waits for it, up to the switch
interval, while the loop runs requests. A commit that takes a millisecond
alone took five to ten in the server, and every table whose round it holds
waits for it. In a process of its own, a commit takes its own time, on the
other core.

The process opens the store itself (with the store key), ignores SIGINT
and SIGTERM (the server decides when it ends: after the last commit), and
dies with the server (Linux: ``PR_SET_PDEATHSIG``), so that a server killed
leaves no writer behind. A write's refusal comes back as what the recorder
tells apart: ``DatabaseUnavailableError`` or ``DiskFullError``, rebuilt;
``LeaseError``, rebuilt; anything else as :class:`Refused`, with the
refusal as one line (a capsa error does not survive pickling as itself).
"""

from __future__ import annotations

import asyncio
import ctypes
import multiprocessing
import signal
import sys
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

import capsa.store
from examples.server.errors import Refused, reason_of

__all__ = ["Commits"]

_PR_SET_PDEATHSIG = 1


class Commits:
    """``Store.append_many`` of the store at ``url`` (``key``: the store
    key) in a process of its own."""

    def __init__(self, url: str, key: bytes | None, retry_seconds: float) -> None:
        self._args = (url, key, retry_seconds)
        self._url = capsa.store.hide_password(url)
        self._pool: ProcessPoolExecutor | None = None

    async def start(self) -> None:
        """Starts the process and waits until its store is open. Raises what
        opening the store raises (as :class:`Refused` or rebuilt)."""
        # made from the event loop's thread, which lives as long as the
        # server: the process's death signal follows the thread that made it
        self._pool = ProcessPoolExecutor(
            1,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=_open,
            initargs=self._args,
        )
        _raise(await self._call(_ping))

    async def append(
        self, records: list[str], openings: list[capsa.store.Opening], holder: str | None
    ) -> None:
        """Stores the records and records the openings in one transaction
        (``Store.append_many``), durably when it returns. Raises
        ``DatabaseUnavailableError`` (``DiskFullError``) for a store away
        (or a process that died, started again), ``LeaseError``, and
        :class:`Refused` for any other refusal."""
        _raise(await self._call(_append, records, openings, holder))

    async def _call(self, *call: object) -> tuple[object, ...]:
        pool = self._pool
        assert pool is not None
        try:
            return await asyncio.get_running_loop().run_in_executor(pool, *call)  # type: ignore[arg-type]
        except BrokenProcessPool as exc:
            pool.shutdown(wait=False)
            await self.start()
            raise capsa.store.DatabaseUnavailableError(
                f"the process of the store's commits stopped ({exc}); it runs again",
                self._url,
                exc,
            ) from exc

    async def close(self) -> None:
        """Ends the process, once its last commit is done."""
        pool, self._pool = self._pool, None
        if pool is not None:
            await asyncio.get_running_loop().run_in_executor(None, pool.shutdown)


def _raise(outcome: tuple[object, ...]) -> None:
    """Raises the refusal an outcome of the process names, if any."""
    kind = outcome[0]
    if kind == "done":
        return
    if kind == "unavailable":
        full, message, url = outcome[1:]
        error = capsa.store.DiskFullError if full else capsa.store.DatabaseUnavailableError
        raise error(str(message), str(url), None)
    if kind == "lease":
        message, table_id, holder, expires_ms = outcome[1:]
        raise capsa.store.LeaseError(str(message), table_id, holder, expires_ms)  # type: ignore[arg-type]
    raise Refused(str(outcome[1]))


# ------------------------------------------------------------ in the process

_STORE: list[capsa.store.Store] = []


def _open(url: str, key: bytes | None, retry_seconds: float) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    if sys.platform == "linux":
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    try:
        _STORE.append(capsa.store.open(url, key=key, retry_seconds=retry_seconds))
    except Exception as exc:  # told at the first call
        _STORE.append(exc)  # type: ignore[arg-type]


def _outcome(exc: BaseException) -> tuple[object, ...]:
    if isinstance(exc, capsa.store.DatabaseUnavailableError):
        return ("unavailable", isinstance(exc, capsa.store.DiskFullError), str(exc), exc.url)
    if isinstance(exc, capsa.store.LeaseError):
        return ("lease", str(exc), exc.table_id, exc.holder, exc.expires_ms)
    return ("refused", reason_of(exc))


def _store() -> capsa.store.Store:
    store = _STORE[0]
    if isinstance(store, BaseException):
        raise store
    return store


def _ping() -> tuple[object, ...]:
    try:
        _store()
    except Exception as exc:
        return _outcome(exc)
    return ("done",)


def _append(
    records: list[str], openings: list[capsa.store.Opening], holder: str | None
) -> tuple[object, ...]:
    try:
        _store().append_many(records, openings=openings, holder=holder)
    except Exception as exc:
        return _outcome(exc)
    return ("done",)
