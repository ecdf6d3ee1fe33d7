"""Limits that keep the harness bounded whatever an engine or a file holds.

An answer is checked before any Python object is built from it:
:func:`scan` measures its nesting depth and its number of members and
items (the ``:`` and ``,`` outside strings) with linear passes in C (a
regular expression blanks the strings, numpy counts the brackets), so an
answer of 100,000 nested ``[`` or of 60,000 keys is refused in
milliseconds, never decoded. :func:`value_line` is the same check for a
value a Python callable returned (walked with an explicit stack, never
recursively). :func:`kept` is what a report keeps of an engine's answer:
the answer itself up to :data:`KEPT_BYTES` of JSON, else its head and size.
"""

from __future__ import annotations

import json
import re
from typing import Any

import numpy as np

__all__ = [
    "KEPT_BYTES",
    "MAX_ANSWER_BYTES",
    "MAX_DEPTH",
    "MAX_HELLO_BYTES",
    "MAX_HELLO_ITEMS",
    "MAX_ITEMS",
    "MAX_VECTOR_FILE_BYTES",
    "MAX_VECTOR_LINE_BYTES",
    "kept",
    "scan",
    "value_line",
]

# The hello may carry claims and full rules data; every other answer is a few
# hundred bytes (an error message a few kilobytes) and at most ~30 members and
# items, and the harness holds up to 1,024 answers at once: these limits keep
# them to about 50 MB.
MAX_HELLO_BYTES = 1 << 20
MAX_HELLO_ITEMS = 100_000
MAX_ANSWER_BYTES = 16 << 10
MAX_ITEMS = 256
MAX_DEPTH = 64
KEPT_BYTES = 2048
MAX_VECTOR_LINE_BYTES = 1 << 20
MAX_VECTOR_FILE_BYTES = 64 << 20

# A JSON string, unrolled so that the engine never backtracks: linear in the text.
_STRING = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_OPEN = np.frombuffer(b"[{", dtype=np.uint8)
_CLOSE = np.frombuffer(b"]}", dtype=np.uint8)


def scan(
    text: bytes,
    max_bytes: int = MAX_ANSWER_BYTES,
    what: str = "an answer",
    max_items: int = MAX_ITEMS,
) -> str | None:
    """Why ``text`` is refused unread (over ``max_bytes``, nested deeper than
    :data:`MAX_DEPTH`, more than ``max_items`` members and items), or None;
    ``what`` names the text in the reason.

    Strings are blanked first, so brackets and separators inside them do
    not count. Text that is not JSON may pass; ``json.loads`` then refuses
    it before it nests any deeper than counted here, as both read the
    strings alike up to the first malformed one. Raises nothing."""
    if len(text) > max_bytes:
        return f"{len(text):,} bytes, over the {max_bytes:,} {what} may take"
    bare = _STRING.sub(b'""', text)
    items = bare.count(b",") + bare.count(b":")
    if items > max_items:
        return f"{items:,} members and items, over the {max_items:,} {what} may hold"
    if bare.count(b"[") + bare.count(b"{") <= MAX_DEPTH:
        return None
    codes = np.frombuffer(bare, dtype=np.uint8)
    steps = np.isin(codes, _OPEN).astype(np.int32) - np.isin(codes, _CLOSE).astype(np.int32)
    depth = int(np.cumsum(steps).max()) if len(steps) else 0
    if depth > MAX_DEPTH:
        return f"nested {depth:,} deep, over the {MAX_DEPTH} {what} may nest"
    return None


def _walk_refusal(value: Any, max_bytes: int, max_items: int) -> str | None:
    """Why a Python value cannot be an answer (too deep, too many items, too
    much text), walked with an explicit stack and stopped at the first limit."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    items = 0
    text = 0
    while stack:
        node, depth = stack.pop()
        if isinstance(node, dict | list | tuple):
            if depth > MAX_DEPTH:
                return f"nested deeper than the {MAX_DEPTH} an answer may nest"
            items += len(node) * (2 if isinstance(node, dict) else 1)
            if items > max_items:
                return f"more than the {max_items:,} members and items an answer may hold"
            children = [*node.keys(), *node.values()] if isinstance(node, dict) else node
            stack.extend((child, depth + 1) for child in children)
        elif isinstance(node, str | bytes):
            text += len(node)
            if text > max_bytes:
                return f"more than the {max_bytes:,} bytes an answer may take"
    return None


def value_line(
    value: Any, max_bytes: int = MAX_ANSWER_BYTES, max_items: int = MAX_ITEMS
) -> tuple[bytes | None, str]:
    """A callable's answer as the JSON text a process would have written, or
    (None, why) when it could not be one: over the limits of :func:`scan`,
    or not JSON (a set, an object, NaN). Raises nothing."""
    refusal = _walk_refusal(value, max_bytes, max_items)
    if refusal is not None:
        return None, refusal
    try:
        line = json.dumps(value, separators=(",", ":"), allow_nan=False).encode()
    except (TypeError, ValueError) as exc:
        return None, f"not JSON: {exc}"
    refusal = scan(line, max_bytes, max_items=max_items)
    return (None, refusal) if refusal is not None else (line, "")


def kept(value: Any) -> Any:
    """``value`` when its JSON is at most :data:`KEPT_BYTES`, else a note
    ``{"truncated": <the JSON's head>, "bytes": <its length>}``. Raises nothing."""
    try:
        text = json.dumps(value, separators=(",", ":"), default=str)
    except (ValueError, RecursionError):
        return {"truncated": repr(value)[:KEPT_BYTES], "bytes": None}
    if len(text) <= KEPT_BYTES:
        return value
    return {"truncated": text[: KEPT_BYTES // 2], "bytes": len(text)}
