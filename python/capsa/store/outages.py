"""How a store lives through its database going away.

Every operation of a store runs through :meth:`Retrying.run`: when the
driver's error says the connection is gone (the server restarted, the
connection was killed, SQLite's I/O failed) or none could be made, this
thread's connection is discarded and the operation tried again on a new
one, at once and then after a pause that doubles from
:data:`FIRST_DELAY_SECONDS` to :data:`LONGEST_DELAY_SECONDS`, for up to
``retry_seconds`` after the first failure; then
:class:`~capsa.store.errors.DatabaseUnavailableError`. A full disk raises
:class:`~capsa.store.errors.DiskFullError` at once. Any other error is the
operation's own and is raised as it is.

An operation tried again must be safe to run twice: a read is; a write is
when its transaction is known not to have committed (the connection broke
before the ``COMMIT`` was sent: the database rolls back what it had) or
when running it again changes nothing (appending a stored record returns
False). The store's writers see to it (``Store._write``).
"""

from __future__ import annotations

import logging
import time
import urllib.parse
from collections.abc import Callable
from typing import TypeVar

from capsa.store.backend import Backend, Connection, Failure
from capsa.store.connections import ThreadConnections
from capsa.store.errors import DatabaseUnavailableError, DiskFullError

__all__ = [
    "DEFAULT_RETRY_SECONDS",
    "FIRST_DELAY_SECONDS",
    "LONGEST_DELAY_SECONDS",
    "Retrying",
    "driver_error_text",
    "hide_password",
]

DEFAULT_RETRY_SECONDS = 30.0
"""How long a store tries again, by default, before it says the database is
unavailable."""
FIRST_DELAY_SECONDS = 0.05
"""The pause before the second try again."""
LONGEST_DELAY_SECONDS = 2.0
"""The longest pause between two tries."""

_LOG = logging.getLogger("capsa.store")

T = TypeVar("T")


def hide_password(url: str) -> str:
    """The URL with any password in it (``user:PASSWORD@``, ``?password=``)
    shown as ``***``. Raises nothing."""
    if not url.startswith(("postgresql://", "postgres://")):
        return url  # a file's path holds no password
    try:
        parts = urllib.parse.urlsplit(url)
    except ValueError:
        return url
    netloc = parts.netloc
    if "@" in netloc:
        credentials, host = netloc.rsplit("@", 1)
        if ":" in credentials:
            netloc = credentials.split(":", 1)[0] + ":***@" + host
    query = parts.query
    if query:
        pairs = urllib.parse.parse_qsl(query, keep_blank_values=True)
        query = "&".join(
            f"{key}={'***' if key.lower() == 'password' else urllib.parse.quote(value)}"
            for key, value in pairs
        )
    return urllib.parse.urlunsplit(parts._replace(netloc=netloc, query=query))


def driver_error_text(exc: BaseException) -> str:
    """A driver's error on one line: its class and the first line of its
    message."""
    lines = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {lines[0].strip()}" if lines else type(exc).__name__


class Retrying:
    """Runs operations on this thread's connection of ``connections``, tried
    again as the module says for up to ``retry_seconds``. ``url`` names the
    store in errors (its password hidden)."""

    def __init__(
        self,
        backend: Backend,
        connections: ThreadConnections,
        url: str,
        retry_seconds: float,
    ) -> None:
        self._backend = backend
        self._connections = connections
        self.url = hide_password(url)
        self.retry_seconds = retry_seconds

    def run(self, operation: Callable[[Connection], T]) -> T:
        """``operation`` on this thread's connection; its result. Raises
        ``DatabaseUnavailableError`` once the database stayed away for
        ``retry_seconds``, ``DiskFullError`` for a full disk, ``StoreError``
        once the store is closed, and what ``operation`` raises."""
        deadline: float | None = None
        delay = 0.0
        while True:
            conn: Connection | None = None
            try:
                conn = self._connections.get()
                return operation(conn)
            except self._backend.errors as exc:
                failure = self._backend.failure(exc, conn)
                if failure is None:
                    raise
                self._connections.discard()
                if failure is Failure.FULL:
                    raise DiskFullError(
                        f"the disk of the database {self.url} is full "
                        f"({driver_error_text(exc)}): nothing of this write was stored",
                        self.url,
                        exc,
                    ) from exc
                now = time.monotonic()
                if deadline is None:
                    deadline = now + self.retry_seconds
                    _LOG.warning(
                        "the connection to %s failed (%s); trying again for up to %g s",
                        self.url,
                        driver_error_text(exc),
                        self.retry_seconds,
                    )
                if now >= deadline:
                    raise self.unavailable(exc) from exc
                time.sleep(min(delay, deadline - now))
                delay = min(max(2 * delay, FIRST_DELAY_SECONDS), LONGEST_DELAY_SECONDS)

    def unavailable(self, exc: BaseException, what: str | None = None) -> DatabaseUnavailableError:
        """The error of a database that stayed away (``what``: another
        account of it than the time tried)."""
        told = what or f"tried for {self.retry_seconds:g} s"
        return DatabaseUnavailableError(
            f"the database {self.url} is unavailable ({told}); last error: "
            f"{driver_error_text(exc)}",
            self.url,
            exc,
        )

    def lost(self, exc: BaseException, conn: Connection) -> bool:
        """Whether the driver's error says ``conn`` is gone (it is then
        discarded)."""
        if self._backend.failure(exc, conn) is not Failure.LOST:
            return False
        self._connections.discard()
        return True
