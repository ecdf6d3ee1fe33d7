"""Knobs as TOML text, for the rules file ``infer`` writes: a key bare when
it can be, a value inline, as ``Rules.to_toml()`` writes them."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from capsa import RulesError

__all__ = ["toml_key", "toml_value"]

_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")

# TOML 1.0 basic strings: the short escapes where TOML has one, \uXXXX for
# the other control characters (U+0000-U+001F and U+007F).
_TOML_ESCAPES: dict[int, str] = {
    **{code: f"\\u{code:04X}" for code in (*range(0x20), 0x7F)},
    **{
        ord(c): e
        for c, e in zip(
            '"\\\b\t\n\f\r', ('\\"', "\\\\", "\\b", "\\t", "\\n", "\\f", "\\r"), strict=True
        )
    },
}


def _toml_string(text: str) -> str:
    return '"' + text.translate(_TOML_ESCAPES) + '"'


def toml_value(value: Any) -> str:
    """A value of rules data as an inline TOML value.

    Raises ``RulesError`` for a value rules data cannot hold."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return _toml_string(value)
    if isinstance(value, Mapping):
        inner = ", ".join(f"{toml_key(k)} = {toml_value(v)}" for k, v in value.items())
        return "{ " + inner + " }" if inner else "{}"
    if isinstance(value, list | tuple):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    raise RulesError(f"cannot write {type(value).__name__} {value!r:.80} as TOML")


def toml_key(key: str) -> str:
    """A TOML key: bare when it can be, else a quoted string. Raises nothing."""
    return key if _BARE_KEY.fullmatch(key) else _toml_string(key)
