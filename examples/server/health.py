"""What ``GET /health`` says, for a load balancer: ``ok`` (200) when the
server takes rounds at every table and stores them, else ``degraded``
(503) with why: tables paused, the store unreachable (or a write under way
for long), leases lost or not renewed, the server stopping."""

from __future__ import annotations

import time
from typing import Any

from examples.server.tables import TableHall
from examples.server.tenancy import Tenancy

__all__ = ["SLOW_WRITE_SECONDS", "health"]

SLOW_WRITE_SECONDS = 5.0
"""A write of the store under way for longer is reported."""


def health(hall: TableHall, tenancy: Tenancy | None) -> tuple[int, dict[str, Any]]:
    """The HTTP status and the JSON body of ``GET /health``."""
    problems: list[str] = []
    recorder = hall.recorder
    store: dict[str, Any] = {"state": "ok", "queued": recorder.queued}
    if recorder.unavailable is not None:
        store.update(
            state="unreachable", error=recorder.unavailable, since_ms=recorder.unavailable_since
        )
        problems.append(f"the store takes no records: {recorder.unavailable}")
    elif recorder.writing_since is not None:
        writing = time.monotonic() - recorder.writing_since
        if writing > SLOW_WRITE_SECONDS:
            store.update(state="slow", writing_seconds=round(writing, 1))
            problems.append(f"a write of the store has been under way for {writing:.0f} s")
    paused = {t.table_id: t.paused for t in hall.tables.values() if t.paused is not None}
    if paused:
        problems.append(f"{len(paused)} table(s) paused")
    body: dict[str, Any] = {"status": "ok", "store": store, "paused": paused}
    if tenancy is not None:
        since = time.monotonic() - tenancy.renewed
        leases: dict[str, Any] = {
            "holder": tenancy.holder,
            "held": len(tenancy.held),
            "lost": dict(tenancy.lost),
            "renewed_seconds_ago": round(since, 1),
        }
        if tenancy.lost:
            problems.append(f"{len(tenancy.lost)} lease(s) lost")
        if tenancy.failing is not None:
            leases["failing"] = tenancy.failing
            problems.append(f"the leases are not renewed: {tenancy.failing}")
        if since * 1000 > tenancy.ttl_ms:
            problems.append(f"the leases were last renewed {since:.0f} s ago: they have ended")
        body["leases"] = leases
    if hall.stopping:
        problems.append("the server is stopping")
    if problems:
        body["status"] = "degraded"
        body["problems"] = problems
    return (503 if problems else 200), body
