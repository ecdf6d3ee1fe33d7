"""Business days: the day a moment falls on in a time zone, for the store's
statistics.

A time zone is an IANA name (``"UTC"``, ``"Asia/Jakarta"``,
``"America/New_York"``, read by :mod:`zoneinfo`: daylight saving time
applies) or a fixed offset from UTC, ``+07:00`` or ``-05:30`` (also
``+07``, ``+0700``).
"""

from __future__ import annotations

import datetime
import functools
import re
import zoneinfo
from dataclasses import dataclass

from capsa.store.errors import StoreError

__all__ = ["TimeZone", "local_day", "time_zone"]

_OFFSET = re.compile(r"([+-])(\d{2}):?(\d{2})?")
_EPOCH = datetime.datetime(1970, 1, 1, tzinfo=datetime.timezone.utc)


@dataclass(frozen=True, slots=True)
class TimeZone:
    """A time zone as given (``name``): an IANA name, or a fixed offset
    (``offset``, from UTC, east positive; None for a name)."""

    name: str
    offset: datetime.timedelta | None
    tzinfo: datetime.tzinfo


@functools.lru_cache(maxsize=64)
def time_zone(tz: str) -> TimeZone:
    """The time zone ``tz`` names: an IANA name or a fixed offset
    (``+07:00``). Raises ``TypeError`` for one that is not a str,
    ``StoreError`` for a name no time zone has or an offset of more than
    23:59."""
    if not isinstance(tz, str):
        raise TypeError(f"a time zone is a str (an IANA name or +07:00), not {type(tz).__name__}")
    offset = _OFFSET.fullmatch(tz)
    if offset is not None:
        sign, hours, minutes = offset.groups()
        if int(hours) > 23 or int(minutes or 0) > 59:
            raise StoreError(f"time zone {tz!r}: an offset is at most 23:59")
        delta = datetime.timedelta(hours=int(hours), minutes=int(minutes or 0))
        delta = -delta if sign == "-" else delta
        return TimeZone(tz, delta, datetime.timezone(delta))
    try:
        return TimeZone(tz, None, zoneinfo.ZoneInfo(tz))
    except (zoneinfo.ZoneInfoNotFoundError, ValueError, OSError):
        raise StoreError(
            f"time zone {tz[:64]!r}: not an IANA time zone name (Asia/Jakarta) "
            "nor an offset from UTC (+07:00)"
        ) from None


def local_day(moment_ms: int | None, tz: str) -> str | None:
    """The day (ISO 8601, ``2026-12-01``) the moment ``moment_ms`` (Unix
    milliseconds) falls on in the time zone ``tz``; None for no moment or
    one outside the calendar."""
    if moment_ms is None:
        return None
    zone = time_zone(tz).tzinfo
    try:
        moment = _EPOCH + datetime.timedelta(milliseconds=moment_ms)
        return moment.astimezone(zone).date().isoformat()
    except (OverflowError, ValueError):
        return None
