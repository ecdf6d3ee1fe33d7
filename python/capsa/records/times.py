"""A round record's time: its ``meta.played_at``, as a server writes it.

``meta`` is the server's own notes (docs/records.md); the one note capsa
reads is ``played_at``, when the round was played: ISO 8601 text
(``"2026-12-01T20:00:00Z"``, ``"2026-12-02T03:00:00+07:00"``), kept as
written, or an integer of Unix milliseconds, shown in UTC. The records
store files rounds by the moment it names (:func:`played_at_ms`) and pages
show it.
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Mapping

__all__ = ["PLAYED_AT", "moment_ms", "played_at_ms", "played_at_text"]

PLAYED_AT = "played_at"
"""The key of ``meta`` that holds when the round was played."""

_EPOCH = datetime.datetime(1970, 1, 1, tzinfo=datetime.timezone.utc)
_FRACTION = re.compile(r"(?<=:\d\d)[.,](\d+)")


def played_at_text(value: object) -> str | None:
    """A ``meta.played_at`` value as ISO 8601 text: text as written, an
    integer as Unix milliseconds in UTC (``...T20:00:00.000Z``); None for
    none, a boolean, or an integer no calendar holds."""
    if isinstance(value, str):  # first: the usual case, and the cheapest check
        return value
    if isinstance(value, Mapping):
        value = value.get(PLAYED_AT)
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, int):
        try:
            moment = datetime.datetime.fromtimestamp(value / 1000, tz=datetime.timezone.utc)
        except (OverflowError, ValueError, OSError):
            return None
        return moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")
    return str(value)


def moment_ms(value: object) -> int | None:
    """A moment as Unix milliseconds: an int as it is; ISO 8601 text with
    its offset applied (``Z`` or ``+07:00``; text with none is UTC); a
    ``datetime`` likewise (a naive one is UTC). None for a value that names
    no moment (a boolean, text that is not ISO 8601, a year no calendar
    holds)."""
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str):
        text = value.strip()
        if text.endswith(("Z", "z")):  # Python 3.10 reads no "Z"
            text = text[:-1] + "+00:00"
        # nor a fraction of other than 3 or 6 digits: microseconds it is
        text = _FRACTION.sub(lambda m: "." + (m.group(1) + "00000")[:6], text, count=1)
        try:
            value = datetime.datetime.fromisoformat(text)
        except ValueError:
            return None
    if not isinstance(value, datetime.datetime):
        return None
    if value.tzinfo is None:
        value = value.replace(tzinfo=datetime.timezone.utc)
    delta = value - _EPOCH
    return (delta.days * 86_400 + delta.seconds) * 1000 + delta.microseconds // 1000


def played_at_ms(meta: object) -> int | None:
    """A record's ``meta.played_at`` (or the value itself) as Unix
    milliseconds (:func:`moment_ms`); None when it has none or it names no
    moment."""
    if isinstance(meta, Mapping):
        meta = meta.get(PLAYED_AT)
    return moment_ms(meta)
