"""The rule for the ids and names a request brings (a player's id and name,
a round's id): an id is 1 to 256 bytes of UTF-8 with no control character
(U+0000 to U+001F, U+007F); a display name is 1 to 256 bytes with no
U+0000; either must be valid Unicode (a lone surrogate is refused). It is
the rule capsa's records keep, checked where the value enters the server so
that nothing it accepts is refused later by the store.

Each check returns the value, raises ``TypeError`` for a value that is not
text and ``capsa.ArgumentError`` naming the field and the reason otherwise.
"""

from __future__ import annotations

import re

import capsa

__all__ = ["check_player_id", "check_player_name", "check_round_id"]

MAX_BYTES = 256
_CONTROL = re.compile("[\x00-\x1f\x7f]")


def _utf8_size(value: object, field: str) -> int:
    if not isinstance(value, str):
        raise TypeError(f"{field} must be text, not {type(value).__name__}")
    try:
        return len(value.encode("utf-8"))
    except UnicodeEncodeError:
        raise capsa.ArgumentError(f"{field} is not valid Unicode (a lone surrogate)") from None


def _check_id(value: object, field: str) -> str:
    size = _utf8_size(value, field)
    assert isinstance(value, str)
    if not 0 < size <= MAX_BYTES:
        raise capsa.ArgumentError(f"{field} must be 1 to {MAX_BYTES} bytes of UTF-8, not {size}")
    if _CONTROL.search(value):
        raise capsa.ArgumentError(f"{field} holds a control character")
    return value


def check_player_id(value: object, field: str = "player") -> str:
    """A player's id, checked (see the module)."""
    return _check_id(value, field)


def check_round_id(value: object, field: str = "round_id") -> str:
    """A round's id, checked (see the module)."""
    return _check_id(value, field)


def check_player_name(value: object, field: str = "name") -> str | None:
    """A player's display name (None: none), checked (see the module)."""
    if value is None:
        return None
    size = _utf8_size(value, field)
    assert isinstance(value, str)
    if not 0 < size <= MAX_BYTES:
        raise capsa.ArgumentError(f"{field} must be 1 to {MAX_BYTES} bytes of UTF-8, not {size}")
    if "\x00" in value:
        raise capsa.ArgumentError(f"{field} holds U+0000")
    return value
