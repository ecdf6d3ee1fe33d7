"""The server's way to the records store: the tables' records and openings
are committed in a process of their own (:mod:`examples.server.commits`),
the recorder's other operations run on a thread of their own, so the event
loop never waits on a disk or a database; what the tables send while a
commit runs goes in the next one (a group commit: one flush for many
rounds).

What a table sends is a :class:`Job`: a settled round's record and the
opening of the table's next round (``capsa.store.Opening``), stored
together, or a first round's opening alone; its ``stored`` is called on
the event loop once the transaction is committed, and only then does the
table publish the result and the next round. Every write is fenced by the
server's lease holder.

Failures are of two kinds. A database that is away or whose disk is full
(``DatabaseUnavailableError``, ``DiskFullError``) is transient: everything
stays queued, the recorder waits (longer each time, up to
``LONGEST_PAUSE``) and tries again, and the tables wait with it. Anything
else is permanent for the records concerned: the batch is stored again
job by job; a job refused alone has its record set aside
(``Store.set_aside``, else a JSON Lines file), its table's pending round
closed by a void record, and its ``refused`` called (the table pauses with
an alarm), while every other job is stored. A fenced write refused for a
lease that merely ended (a long outage) takes the lease again and is tried
once more; a lease another holder has is lost.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

import capsa.store
from examples.server.commits import Commits
from examples.server.errors import reason_of
from examples.server.tenancy import Tenancy

__all__ = ["LONGEST_PAUSE", "STORE_RETRY_SECONDS", "Job", "Recorder"]

T = TypeVar("T")
_LOG = logging.getLogger("capsa.server")

STORE_RETRY_SECONDS = 2.0
"""How long one store operation tries again on new connections before it
says the database is unavailable (the recorder then waits and tries again
itself, without end): short, so that the server knows soon and its stop is
bounded."""
FIRST_PAUSE = 0.1
LONGEST_PAUSE = 5.0
"""The longest wait between two tries of a batch the store could not take."""
_REASON_BYTES = 900  # of a void record's reason (at most 1024), the rest ours


@dataclass(eq=False)
class Job:
    """What one table sends the store at once: ``record``, the text of its
    settled round ``round_id`` (None: none, a first round), and
    ``opening``, its next round (None: none). ``stored(opened)`` is called
    once they are durable (``opened``: whether the opening was recorded);
    ``refused(reason)`` when the store refused them for good."""

    table_id: str
    stored: Callable[[bool], None]
    refused: Callable[[str], None]
    record: str | None = None
    round_id: str | None = None
    opening: capsa.store.Opening | None = None

    def describe(self) -> str:
        if self.record is not None:
            return f"round {self.round_id} of table {self.table_id}"
        round_id = self.opening.round_id if self.opening is not None else "?"
        return f"the opening of round {round_id} of table {self.table_id}"


def _void_reason(text: str) -> str:
    """``text`` as a void record holds it: no U+0000, at most
    ``_REASON_BYTES`` of UTF-8."""
    clean = text.replace("\0", "\ufffd").encode("utf-8", "replace")[:_REASON_BYTES]
    return clean.decode("utf-8", "ignore") or "void"


class Recorder:
    """Stores the jobs given in the order given and calls each one's
    ``stored`` on the event loop once it is durable; runs the other store
    operations of the server (:meth:`run`) on a thread of its own.
    ``tenancy``: the server's leases, whose holder fences every write;
    ``set_aside_path``: the JSON Lines file for a record the store refuses
    even to set aside."""

    def __init__(self, tenancy: Tenancy | None = None, set_aside_path: Path | None = None) -> None:
        self._thread = ThreadPoolExecutor(1, thread_name_prefix="capsa-store")
        self._store: capsa.store.Store | None = None
        self._commits: Commits | None = None
        self._queue: list[Job] = []
        self._in_flight: list[Job] = []
        self._writer: asyncio.Task[None] | None = None
        self.tenancy = tenancy
        self.set_aside_path = set_aside_path
        self.closing = False
        # the transient failure that keeps the queue waiting, and since when
        # (Unix ms), while it lasts
        self.unavailable: str | None = None
        self.unavailable_since: int | None = None
        self.writing_since: float | None = None  # time.monotonic() of the write under way

    @property
    def holder(self) -> str | None:
        return None if self.tenancy is None else self.tenancy.holder

    @property
    def store(self) -> capsa.store.Store:
        """The store, once open (for operations on a thread of another)."""
        assert self._store is not None
        return self._store

    @property
    def queued(self) -> int:
        """Jobs not yet stored, under way included."""
        return len(self._queue) + len(self._in_flight)

    async def open(self, url: str, key: bytes | None = None) -> None:
        """Opens the store (``key``: the store key, which signs the heads),
        and starts the process of its commits."""
        self._store = await self.run(
            lambda _: capsa.store.open(url, key=key, retry_seconds=STORE_RETRY_SECONDS)
        )
        self._commits = Commits(url, key, STORE_RETRY_SECONDS)
        await self._commits.start()

    async def run(self, operation: Callable[[capsa.store.Store], T]) -> T:
        """``operation(store)`` on the store's thread."""
        return await asyncio.get_running_loop().run_in_executor(
            self._thread,
            lambda: operation(self._store),  # type: ignore[arg-type]
        )

    async def void(self, table_id: str | None, reason: str) -> str | None:
        """Closes the table's pending round by its void record, giving
        ``reason`` (cut to what a void record holds); the record's text, or
        None when nothing was pending. Raises what ``Store.void_pending``
        raises."""
        why, holder = _void_reason(reason), self.holder
        return await self.run(lambda store: store.void_pending(table_id, why, holder=holder))

    def submit(self, job: Job) -> None:
        """Queues a job (once closing, without its opening: the server
        opens no more rounds)."""
        if self.closing:
            job.opening = None
        self._queue.append(job)
        if self._writer is None or self._writer.done():
            self._writer = asyncio.get_running_loop().create_task(self._write())

    async def _write(self) -> None:
        pause = 0.0
        while self._queue:
            batch, self._queue = self._queue, []
            self._in_flight = batch
            self.writing_since = time.monotonic()
            left: list[Job] = []
            try:
                await self._commit(batch)
            except capsa.store.DatabaseUnavailableError as exc:
                self._waiting(exc)
                left = batch
            except Exception as exc:  # permanent for one job at least: each alone
                _LOG.warning("the store refused a batch of %d (%s)", len(batch), reason_of(exc))
                left = await self._one_by_one(batch)
            else:
                self._reachable()
                for job in batch:
                    _call(job.stored, job.opening is not None)
            finally:
                self._in_flight = []
                self.writing_since = None
            if left:
                self._queue = left + self._queue
                pause = min(max(2 * pause, FIRST_PAUSE), LONGEST_PAUSE)
                await asyncio.sleep(pause)
            else:
                pause = 0.0

    async def _commit(self, jobs: list[Job]) -> None:
        """Stores the jobs' records and then records their openings, in one
        transaction fenced by the holder (in the commits' process)."""
        commits = self._commits
        assert commits is not None
        records = [job.record for job in jobs if job.record is not None]
        openings = [job.opening for job in jobs if job.opening is not None]
        await commits.append(records, openings, self.holder)

    async def _one_by_one(self, batch: list[Job]) -> list[Job]:
        """Stores each job alone, as far as the store is reachable; the jobs
        left when it is not."""
        for k, job in enumerate(batch):
            self._in_flight = batch[k:]
            if not await self._alone(job):
                return batch[k:]
        return []

    async def _alone(self, job: Job) -> bool:
        """Stores one job, or refuses it for good; False when the store is
        unreachable (the job waits)."""
        try:
            for attempt in (1, 2):
                try:
                    await self._commit([job])
                except capsa.store.LeaseError as exc:
                    if attempt == 1 and await self._retaken(job.table_id):
                        continue
                    await self._refuse(job, exc)
                    return True
                except capsa.store.DatabaseUnavailableError:
                    raise
                except Exception as exc:
                    await self._refuse_or_split(job, exc)
                    return True
                self._reachable()
                _call(job.stored, job.opening is not None)
                return True
        except capsa.store.DatabaseUnavailableError as exc:
            self._waiting(exc)
            return False
        raise AssertionError("unreachable")

    async def _retaken(self, table_id: str) -> bool:
        tenancy = self.tenancy
        if tenancy is None:
            return False
        return await self.run(lambda store: tenancy.retake(store, table_id))

    async def _refuse_or_split(self, job: Job, exc: Exception) -> None:
        """A job refused for good: when it holds a record and an opening,
        the record alone may be the table's (stored and acknowledged, the
        table paused for want of a next round); else its record is
        refused."""
        if job.record is not None and job.opening is not None:
            record_only = Job(job.table_id, job.stored, job.refused, job.record, job.round_id)
            try:
                await self._commit([record_only])
            except capsa.store.DatabaseUnavailableError:
                raise
            except Exception:  # the record itself is refused
                pass
            else:
                _call(job.stored, False)
                _call(job.refused, f"its next round could not be opened: {reason_of(exc)}")
                return
        await self._refuse(job, exc)

    async def _refuse(self, job: Job, exc: BaseException) -> None:
        """Sets the job's record aside, closes the table's pending round by
        a void record, and pauses the table (its ``refused``)."""
        reason = reason_of(exc)
        told = f"the store refused {job.describe()}: {reason}"
        if job.record is not None:
            kept = await self._set_aside(job, reason)
            told += f"; the record is set aside ({kept})"
            try:
                await self.void(
                    job.table_id, f"its record was refused by the store and set aside: {reason}"
                )
            except Exception as failure:
                told += f"; the round is left pending, to be voided later ({reason_of(failure)})"
            else:
                told += "; the round is void"
        _call(job.refused, told)  # the table pauses, with an alarm

    async def _set_aside(self, job: Job, reason: str) -> str:
        """Keeps a refused record: in the store's set-aside, else in the
        set-aside file; where it went."""
        record, holder = job.record, self.holder
        assert record is not None
        try:
            seq = await self.run(
                lambda store: store.set_aside(
                    record, reason, table_id=job.table_id, round_id=job.round_id, holder=holder
                )
            )
        except Exception as exc:
            _LOG.error("the store did not set the record aside either: %s", reason_of(exc))
        else:
            return f"in the store, number {seq}"
        path = self.set_aside_path
        if path is None:
            _LOG.error("ALARM: a refused record kept nowhere but this log: %s", record)
            return "in the server's log only"
        line = {
            "set_aside_ms": int(time.time() * 1000),
            "table_id": job.table_id,
            "round_id": job.round_id,
            "reason": reason,
            "record": record,
        }
        try:
            await asyncio.get_running_loop().run_in_executor(None, _append_line, path, line)
        except OSError as exc:
            _LOG.error("ALARM: %s not written (%s); the record: %s", path, exc, record)
            return "in the server's log only"
        return f"in {path}"

    def _waiting(self, exc: capsa.store.DatabaseUnavailableError) -> None:
        if self.unavailable is None:
            self.unavailable_since = int(time.time() * 1000)
            _LOG.error(
                "ALARM: the store takes no records (%s); %d job(s) wait, the tables with them",
                reason_of(exc),
                self.queued,
            )
        self.unavailable = reason_of(exc)

    def _reachable(self) -> None:
        if self.unavailable is not None:
            _LOG.warning("the store takes records again")
        self.unavailable = None
        self.unavailable_since = None

    async def close(self, seconds: float) -> bool:
        """Stores what is queued (no more openings), waiting at most
        ``seconds``; logs each job left unstored (its round stays pending
        in the store, for the next start to void). Whether everything was
        stored."""
        self.closing = True
        for job in self._queue:
            job.opening = None
        writer = self._writer
        if writer is not None and not writer.done():
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(asyncio.shield(writer), seconds)
        left = self._in_flight + self._queue
        for job in left:
            _LOG.error(
                "stopping: %s was not stored (%s); it is left pending for the next start to void",
                job.describe(),
                self.unavailable or "the store did not answer in time",
            )
        if writer is not None and not writer.done():
            writer.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await writer
        return not left

    async def shut(self) -> None:
        """Ends the commits' process, closes the store and its thread."""
        if self._commits is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._commits.close(), 10)
        if self._store is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.run(lambda store: store.close()), 10)
        self._thread.shutdown(wait=False)


def _call(callback: Callable[..., None], *args: object) -> None:
    """A table's callback; its failure is logged, never the recorder's."""
    try:
        callback(*args)
    except Exception:
        _LOG.exception("a table failed to take the store's answer")


def _append_line(path: Path, line: dict[str, object]) -> None:
    """Appends ``line`` as JSON to ``path``, on disk when it returns."""
    data = (json.dumps(line, ensure_ascii=True, separators=(",", ":")) + "\n").encode()
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
    try:
        os.write(fd, data)
        os.fsync(fd)
    finally:
        os.close(fd)
