"""The server's leases of its tables in the records store: one server a
table (``docs/store.md``, "Leases").

A server leases its tables when it starts, under a holder name of its own
(its host, its process id and a random part), renews them every third of
their time, fences every write with that name and releases them when it
stops cleanly. A lease held by a live server keeps another from starting on
the table; a lease held by a process of this host that is gone (a server
killed) is waited out, since it ends within its time. A lease another
holder takes while the server runs (the server was stalled past its end)
is lost: its table is paused.
"""

from __future__ import annotations

import logging
import os
import secrets
import socket
import time
from collections.abc import Callable
from pathlib import Path

import capsa.store

__all__ = ["Tenancy", "holder_gone", "new_holder"]

_LOG = logging.getLogger("capsa.server")
# How long a start waits at most for the lease of a gone process to end,
# beyond the end its lease names (clocks of the database and of this host).
_SLACK_MS = 2_000


def new_holder() -> str:
    """A holder name for this server: ``host:pid:random``."""
    return f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}"


def holder_gone(holder: str | None) -> bool:
    """Whether ``holder`` names a process of this host that no longer runs
    (or is a zombie); False for another host's, or one that cannot be
    read."""
    if holder is None:
        return False
    parts = holder.rsplit(":", 2)
    if len(parts) != 3 or parts[0] != socket.gethostname() or not parts[1].isdigit():
        return False
    pid = int(parts[1])
    if pid == os.getpid():
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except PermissionError:
        return False
    try:  # killed but not yet reaped by its parent
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] == "Z"


class Tenancy:
    """The leases of ``table_ids`` held by ``holder`` for ``ttl_ms`` at a
    time; which of them were lost (table id -> why), and when they were
    last renewed (``time.monotonic()``)."""

    def __init__(self, table_ids: list[str], holder: str, ttl_ms: int) -> None:
        self.table_ids = table_ids
        self.holder = holder
        self.ttl_ms = ttl_ms
        self.lost: dict[str, str] = {}
        self.renewed = 0.0
        self.failing: str | None = None  # why the last renewal failed, while it does

    @property
    def held(self) -> list[str]:
        """The tables whose lease the server still holds."""
        return [t for t in self.table_ids if t not in self.lost]

    def claim(self, store: capsa.store.Store, *, say: Callable[[str], None] | None = None) -> None:
        """Takes every table's lease, waiting out the lease of a holder of
        this host whose process is gone. Raises ``LeaseError`` for a table
        another live holder leases, and what the store raises."""
        waited_for: str | None = None
        deadline = 0.0
        while True:
            try:
                store.lease(self.table_ids, self.holder, ttl_ms=self.ttl_ms)
            except capsa.store.LeaseError as exc:
                if not holder_gone(exc.holder):
                    raise
                if exc.holder != waited_for:
                    waited_for = exc.holder
                    left_ms = max(0, (exc.expires_ms or 0) - int(time.time() * 1000))
                    deadline = time.monotonic() + (left_ms + _SLACK_MS) / 1000
                    if say is not None:
                        say(
                            f"table {exc.table_id!r} is leased by {exc.holder!r}, a process "
                            f"of this host that is gone: waiting {left_ms / 1000:.1f} s "
                            "for its lease to end"
                        )
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)
                continue
            self.renewed = time.monotonic()
            return

    def renew(self, store: capsa.store.Store) -> list[tuple[str, capsa.store.LeaseError]]:
        """Renews the leases still held, in one transaction, or each alone
        when one is refused; returns the tables lost now (each with the
        refusal), which it no longer renews. Raises what the store raises
        but ``LeaseError``."""
        held = self.held
        if not held:
            return []
        try:
            store.lease(held, self.holder, ttl_ms=self.ttl_ms)
        except capsa.store.LeaseError:
            lost = []
            for table_id in held:
                try:
                    store.lease([table_id], self.holder, ttl_ms=self.ttl_ms)
                except capsa.store.LeaseError as exc:
                    lost.append((table_id, exc))
                    self.lose(table_id, exc)
            self.renewed = time.monotonic()
            return lost
        self.renewed = time.monotonic()
        return []

    def retake(self, store: capsa.store.Store, table_id: str) -> bool:
        """After a fenced write was refused: takes the table's lease again
        when it merely ended (nobody took it meanwhile); False, the lease
        lost, when another holder has it. Raises what the store raises but
        ``LeaseError``."""
        if table_id in self.lost:
            return False
        try:
            store.lease([table_id], self.holder, ttl_ms=self.ttl_ms)
        except capsa.store.LeaseError as exc:
            self.lose(table_id, exc)
            return False
        return True

    def lose(self, table_id: str, exc: capsa.store.LeaseError) -> None:
        """Marks the table's lease lost (an alarm in the log)."""
        if table_id not in self.lost:
            self.lost[table_id] = str(exc)
            _LOG.error("ALARM: the lease of table %s is lost: %s", table_id, exc)

    def release(self, store: capsa.store.Store) -> None:
        """Ends the leases still held. Raises what the store raises."""
        held = self.held
        if held:
            store.release(held, self.holder)
