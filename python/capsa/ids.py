"""The one validity rule for the ids and names a round holds, as every
writer takes them (:class:`capsa.Round`, the record writer, a server's
``join``; ``docs/records.md``, "Ids and texts"). The engine defines it; these
are its checks for a caller that takes an id before it makes a round (a
server's request, a ledger's table), so that nothing it accepts is refused
by a later layer.

* an id (of a table, a round or a player): 1 to ``MAX_ID_BYTES`` (256)
  bytes of UTF-8, no control character (U+0000 to U+001F, U+007F);
* a player's display name: 1 to ``MAX_NAME_BYTES`` (256) bytes of UTF-8,
  no U+0000;
* every text valid Unicode: a str holding a lone surrogate is refused,
  naming the field.

Each check returns the value, raises ``TypeError`` for a value that is not
a str and :class:`capsa.ArgumentError` naming the field and the reason
otherwise.
"""

from __future__ import annotations

from capsa import _core

__all__ = [
    "MAX_ID_BYTES",
    "MAX_NAME_BYTES",
    "check_player_id",
    "check_player_name",
    "check_round_id",
    "check_table_id",
]

MAX_ID_BYTES: int = _core.MAX_ID_BYTES
"""The longest id (of a table, a round or a player), in bytes of UTF-8."""
MAX_NAME_BYTES: int = _core.MAX_NAME_BYTES
"""The longest display name of a player, in bytes of UTF-8."""


def check_table_id(value: object, field: str = "table_id") -> str:
    """A table id: ``value`` when it is an id. Raises ``TypeError`` for a
    value that is not a str, ``ArgumentError`` naming ``field`` for one
    empty, too long, holding a control character or a lone surrogate."""
    return _core.check_id(value, field)


def check_round_id(value: object, field: str = "round_id") -> str:
    """A round id: ``value`` when it is an id. Raises as
    :func:`check_table_id` does."""
    return _core.check_id(value, field)


def check_player_id(value: object, field: str = "player") -> str:
    """A player's id: ``value`` when it is an id. Raises as
    :func:`check_table_id` does."""
    return _core.check_id(value, field)


def check_player_name(value: object, field: str = "name") -> str | None:
    """A player's display name, or None (a player without one): ``value``
    when it is one. Raises ``TypeError`` for a value that is neither a str
    nor None, ``ArgumentError`` naming ``field`` for one empty, too long,
    holding U+0000 or a lone surrogate."""
    return _core.check_name(value, field)
