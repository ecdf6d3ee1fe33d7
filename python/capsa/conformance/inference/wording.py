"""Answers and findings in words, for the inferred rules' comments."""

from __future__ import annotations

import json
from typing import Any

__all__ = ["printable", "show", "words"]


def printable(text: str) -> str:
    """``text`` with every character that is not printable escaped."""
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


def show(value: Any) -> str:
    """An answer in words, cut to a readable length."""
    text = words(value)
    return text if len(text) <= 200 else text[:197] + "..."


def words(value: Any) -> str:
    """An answer in words, whole."""
    if isinstance(value, tuple) and value and value[0] == "malformed":
        return f"a malformed settle result {value[1]}"
    if isinstance(value, tuple) and len(value) == 2 and all(isinstance(v, tuple) for v in value):
        return f"points {list(value[0])} rake {list(value[1])}"
    if isinstance(value, tuple) and value == ("error",):
        return "an error"
    if isinstance(value, tuple):
        return f"points {list(value)}"
    try:
        return json.dumps(value)
    except (TypeError, ValueError, RecursionError):
        return repr(value)
