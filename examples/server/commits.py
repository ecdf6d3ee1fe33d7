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
from multiprocessing.connection import Connection

import capsa.store
from examples.server.errors import Refused, reason_of

__all__ = ["Commits"]

_PR_SET_PDEATHSIG = 1
_STOP_SECONDS = 10.0


class Commits:
    """``Store.append_many`` of the store at ``url`` (``key``: the store
    key; ``retry_seconds``: the store's) in a process of its own, spoken to
    over a pipe that the event loop reads (no thread of the server's waits
    on it)."""

    def __init__(self, url: str, key: bytes | None, retry_seconds: float) -> None:
        self._args = (url, key, retry_seconds)
        self._url = capsa.store.hide_password(url)
        self._conn: Connection | None = None
        self._process: multiprocessing.process.BaseProcess | None = None
        self._lock = asyncio.Lock()
        self._sent = 0  # the number of the last message sent

    async def start(self) -> None:
        """Starts the process and waits until its store is open. Raises what
        opening the store raises (rebuilt, or as ``Refused``)."""
        context = multiprocessing.get_context("spawn")
        self._conn, theirs = context.Pipe()
        # started from the event loop's thread, which lives as long as the
        # server: the process's death signal follows the thread that made it
        self._process = context.Process(
            target=_serve, args=(theirs, *self._args), name="capsa-commits", daemon=True
        )
        self._process.start()
        theirs.close()
        _raise(await self._call(("ping",)))

    async def append(
        self, records: list[str], openings: list[capsa.store.Opening], holder: str | None
    ) -> None:
        """Stores the records and records the openings in one transaction
        (``Store.append_many``), durably when it returns. Raises
        ``DatabaseUnavailableError`` (``DiskFullError``) for a store away
        (or a process that died, started again), ``LeaseError``, and
        ``Refused`` for any other refusal."""
        _raise(await self._call(("append", records, openings, holder)))

    async def _call(self, message: tuple[object, ...]) -> tuple[object, ...]:
        """Sends ``message`` and waits for its answer (the answer of a call
        given up, come late, is dropped)."""
        async with self._lock:
            conn = self._conn
            assert conn is not None
            loop = asyncio.get_running_loop()
            answer: asyncio.Future[tuple[object, ...]] = loop.create_future()
            self._sent += 1
            number = self._sent

            def readable() -> None:
                try:
                    while not answer.done() and conn.poll():
                        reply = conn.recv()
                        if reply[0] == number:
                            answer.set_result(reply[1:])
                except (EOFError, OSError) as exc:
                    answer.set_exception(exc)

            try:
                conn.send((number, *message))
                loop.add_reader(conn.fileno(), readable)
                try:
                    return await answer
                finally:
                    loop.remove_reader(conn.fileno())
            except (EOFError, OSError) as exc:
                lost = exc
        await self._restart()
        raise capsa.store.DatabaseUnavailableError(
            f"the process of the store's commits stopped ({reason_of(lost)}); it runs again",
            self._url,
            lost,
        ) from lost

    async def _restart(self) -> None:
        if self._process is not None:
            self._process.kill()
            self._process.join()
        await self.start()

    async def close(self) -> None:
        """Ends the process, once its last commit is done."""
        process, conn = self._process, self._conn
        if process is None or conn is None:
            return
        try:
            await asyncio.wait_for(self._call(("stop",)), _STOP_SECONDS)
        except (asyncio.TimeoutError, capsa.store.StoreError):
            process.kill()
        await asyncio.get_running_loop().run_in_executor(None, process.join, _STOP_SECONDS)
        conn.close()
        self._process = self._conn = None


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


def _serve(conn: Connection, url: str, key: bytes | None, retry_seconds: float) -> None:
    """The commits' process: answers each message on ``conn`` until told to
    stop or the server is gone."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    if sys.platform == "linux":
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    store: capsa.store.Store | None = None
    failed: tuple[object, ...] = ()
    try:
        store = capsa.store.open(url, key=key, retry_seconds=retry_seconds)
    except Exception as exc:  # told at every call
        failed = _outcome(exc)
    while True:
        try:
            number, kind, *rest = conn.recv()
        except (EOFError, OSError):
            break
        outcome: tuple[object, ...] = ("done",)
        if kind == "stop":
            pass
        elif store is None:
            outcome = failed
        elif kind == "append":
            records, openings, holder = rest
            try:
                store.append_many(records, openings=openings, holder=holder)
            except Exception as exc:
                outcome = _outcome(exc)
        conn.send((number, *outcome))
        if kind == "stop":
            break
    if store is not None:
        store.close()


def _outcome(exc: BaseException) -> tuple[object, ...]:
    if isinstance(exc, capsa.store.DatabaseUnavailableError):
        return ("unavailable", isinstance(exc, capsa.store.DiskFullError), str(exc), exc.url)
    if isinstance(exc, capsa.store.LeaseError):
        return ("lease", str(exc), exc.table_id, exc.holder, exc.expires_ms)
    return ("refused", reason_of(exc))
