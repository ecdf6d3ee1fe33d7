"""Saved data sealed under the server's key: a round's state
(:meth:`capsa.Round.to_dict`) and a ledger (:meth:`capsa.Ledger.to_dict`).
Each top-level field and the whole carry an HMAC-SHA256, so data changed
outside the server is refused naming the field.

A field's MAC is over its name, one zero byte and its canonical JSON
(sorted keys, no spaces, UTF-8); the whole's over every field's name and
MAC in sorted order (``capsa._core.state_macs``). A value moved to another
field, a field added, removed or renamed, and a MAC copied from data sealed
under another key all fail. MACs are compared in constant time.
"""

from __future__ import annotations

import hmac
from collections.abc import Callable, Mapping
from typing import Any

from capsa import _core
from capsa._core import CapsaError

__all__ = ["MAC_FIELD", "Fault", "check_seal", "seal"]

MAC_FIELD = "mac"
"""The field holding the MACs: ``{"fields": {name: hex}, "whole": hex}``."""

Fault = Callable[[str], Exception]
"""What a refusal raises, made from its message (which names the data:
``"round state: ..."``)."""


def _macs(
    fields: dict[str, Any], key: bytes, what: str, fault: Fault
) -> tuple[dict[str, str], str]:
    try:
        return _core.state_macs(key, fields)
    except ValueError as exc:
        if isinstance(exc, CapsaError):  # the key
            raise
        raise fault(f"{what}: {exc}") from None


def _same(given: str, mac: str) -> bool:
    """In constant time (for MACs of the same length)."""
    return hmac.compare_digest(given.encode("utf-8", "replace"), mac.encode("ascii"))


def _name_the_change(
    macs: Mapping[str, str],
    expected: Mapping[str, Any],
    fields: Mapping[str, Any],
    what: str,
    fault: Fault,
) -> None:
    """Raises naming the first field whose MAC does not match."""
    for name, mac in macs.items():
        given = expected.get(name)
        if not isinstance(given, str):
            raise fault(f"{what}: {name[:40]!r} is not covered by the MAC (added or renamed)")
        if not _same(given, mac):
            raise fault(f"{what}: {name[:40]} was changed (its MAC does not match)")
    for name in expected:
        if name not in fields:
            raise fault(f"{what}: {str(name)[:40]} is missing")


def seal(fields: dict[str, Any], key: bytes, what: str, fault: Fault) -> dict[str, Any]:
    """``fields`` (a ``what``) with their MACs under ``key`` added (as
    ``MAC_FIELD``). Raises ``TypeError`` for a key that is not bytes,
    ``ArgumentError`` for one too short, ``fault(message)`` for a field
    that is not JSON data."""
    macs, whole = _macs(fields, key, what, fault)
    fields[MAC_FIELD] = {"fields": macs, "whole": whole}
    return fields


def check_seal(data: Mapping[str, Any], key: bytes, what: str, fault: Fault) -> None:
    """Checks the MACs of ``data`` (named ``what`` in messages) under
    ``key``: raises ``fault(message)`` naming a field that was changed,
    added, renamed or removed, or the MAC missing; ``TypeError`` for data
    that is not a mapping or a key that is not bytes, ``ArgumentError`` for
    a key too short."""
    if not (type(data) is dict or isinstance(data, Mapping)):
        raise TypeError(f"a {what} is a mapping, not {type(data).__name__}")
    sealed_by = data.get(MAC_FIELD)
    if _unchanged(data, sealed_by, key):
        return
    fields = {name: value for name, value in data.items() if name != MAC_FIELD}
    macs, whole = _macs(fields, key, what, fault)
    expected = sealed_by.get("fields") if isinstance(sealed_by, Mapping) else None
    expected_whole = sealed_by.get("whole") if isinstance(sealed_by, Mapping) else None
    if not isinstance(expected, Mapping) or not isinstance(expected_whole, str):
        raise fault(
            f"{what}: {MAC_FIELD} is missing or malformed: a {what} is sealed under the "
            "server's key by to_dict(key=...)"
        )
    if not _same(expected_whole, whole):
        # the whole's MAC is over every field's: find the field to name
        _name_the_change(macs, expected, fields, what, fault)
        raise fault(f"{what}: the MAC of the whole does not match")


def _unchanged(data: Mapping[str, Any], sealed_by: Any, key: bytes) -> bool:
    """True when the whole's MAC matches, checked in one call; data that
    fails is checked again field by field to name what is wrong."""
    if type(data) is not dict or type(sealed_by) is not dict:
        return False
    whole = sealed_by.get("whole")
    fields = sealed_by.get("fields")
    # a dict is checked first: the ABC check is slow
    if type(whole) is not str or (type(fields) is not dict and not isinstance(fields, Mapping)):
        return False
    try:
        return _core.state_mac_matches(key, data, whole, MAC_FIELD)
    except (ValueError, TypeError):
        return False
