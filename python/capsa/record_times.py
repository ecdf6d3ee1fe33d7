"""A round record's time: its ``meta.played_at``, as a server writes it.

``meta`` is the server's own notes (docs/records.md); the one note capsa
reads is ``played_at``, when the round was played: ISO 8601 text
(``"2026-12-01T20:00:00Z"``), kept as written, or an integer of Unix
milliseconds, shown in UTC. The records store files rounds by it and pages
show it.
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping

__all__ = ["PLAYED_AT", "played_at_text"]

PLAYED_AT = "played_at"
"""The key of ``meta`` that holds when the round was played."""


def played_at_text(value: object) -> str | None:
    """A ``meta.played_at`` value as ISO 8601 text: text as written, an
    integer as Unix milliseconds in UTC (``...T20:00:00.000Z``); None for
    none, a boolean, or an integer no calendar holds."""
    if isinstance(value, Mapping):
        value = value.get(PLAYED_AT)
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, int):
        try:
            moment = datetime.datetime.fromtimestamp(value / 1000, tz=datetime.UTC)
        except (OverflowError, ValueError, OSError):
            return None
        return moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")
    return str(value)
