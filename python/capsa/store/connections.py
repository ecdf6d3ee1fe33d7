"""The connections of a store: one for each thread while it uses the store.

A connection is lent to a thread on its first use and handed back when the
thread ends (its thread-local lease is dropped), so that a server that runs
appends from many short-lived threads holds as many connections as it has
threads at once, not one for every thread it ever ran. Handed-back
connections wait for the next thread, up to :data:`IDLE_CONNECTIONS`; the
rest are closed.

A connection found broken (the database restarted, the connection was
killed) is discarded (:meth:`ThreadConnections.discard`): closed, never
handed back, and the thread's next :meth:`ThreadConnections.get` makes a
new one; the idle connections go with it, since they were most likely made
to the same server before it went away.
"""

from __future__ import annotations

import contextlib
import threading
import weakref
from collections.abc import Callable

from capsa.store.backend import Connection
from capsa.store.errors import StoreError

__all__ = ["IDLE_CONNECTIONS", "ThreadConnections"]

IDLE_CONNECTIONS = 8
"""How many connections of ended threads are kept for the next threads."""


class _Lease:
    """A thread's hold on its connection; the connection goes back when the
    lease is dropped with the thread's locals."""

    __slots__ = ("__weakref__", "conn", "finalizer")

    def __init__(self, conn: Connection) -> None:
        self.conn = conn
        self.finalizer: weakref.finalize[[Connection], _Lease] | None = None


def _reusable(conn: Connection) -> bool:
    """Whether a handed-back connection may serve another thread: open, not
    broken, not inside a transaction."""
    return not any(getattr(conn, flag, False) for flag in ("closed", "broken", "in_transaction"))


class ThreadConnections:
    """Connections made by ``connect``, one lent to each thread that asks
    (:meth:`get`); :meth:`close` closes every one. ``name`` names the store
    in the error of a closed one."""

    def __init__(self, connect: Callable[[], Connection], name: str) -> None:
        self._connect = connect
        self._name = name
        self._local = threading.local()
        # reentrant: a lease may be dropped, and its connection handed back,
        # by a collection that runs while this thread holds the lock
        self._lock = threading.RLock()
        self._open: set[Connection] = set()
        self._idle: list[Connection] = []
        self._closed = False

    def get(self) -> Connection:
        """This thread's connection: the one lent to it, else an idle one,
        else a new one. Raises ``StoreError`` once closed, the driver's
        error when connecting fails."""
        lease: _Lease | None = getattr(self._local, "lease", None)
        if lease is not None and not self._closed:
            return lease.conn
        with self._lock:
            self._check_open()
            conn = self._idle.pop() if self._idle else None
        if conn is None:
            conn = self._connect()
            with self._lock:
                if self._closed:
                    conn.close()
                    self._check_open()
                self._open.add(conn)
        lease = _Lease(conn)
        lease.finalizer = weakref.finalize(lease, self._hand_back, conn)
        self._local.lease = lease
        return conn

    def discard(self) -> None:
        """Drops this thread's connection, found broken or closed: it is
        closed and never handed back, and so are the idle ones. Raises
        nothing."""
        lease: _Lease | None = getattr(self._local, "lease", None)
        self._local.lease = None
        dropped: list[Connection] = []
        if lease is not None:
            if lease.finalizer is not None:
                lease.finalizer.detach()
            dropped.append(lease.conn)
        with self._lock:
            dropped += self._idle
            self._idle = []
            for conn in dropped:
                self._open.discard(conn)
        for conn in dropped:
            _close_quietly(conn)

    def _check_open(self) -> None:
        if self._closed:
            raise StoreError(f"the store {self._name} is closed")

    def _hand_back(self, conn: Connection) -> None:
        """Takes back the connection of a thread that ended."""
        with self._lock:
            if not self._closed and len(self._idle) < IDLE_CONNECTIONS and _reusable(conn):
                self._idle.append(conn)
                return
            self._open.discard(conn)
        _close_quietly(conn)

    def count(self) -> int:
        """How many connections are open (lent or idle)."""
        with self._lock:
            return len(self._open)

    def close(self) -> None:
        """Closes every connection, lent or idle; :meth:`get` raises from
        then on. Raises nothing."""
        with self._lock:
            self._closed = True
            connections = list(self._open)
            self._open.clear()
            self._idle.clear()
        for conn in connections:
            _close_quietly(conn)


def _close_quietly(conn: Connection) -> None:
    """Closes a connection; one that broke may fail to close, and is gone
    all the same."""
    with contextlib.suppress(Exception):
        conn.close()
