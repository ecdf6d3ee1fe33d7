"""Reading a request: its JSON body (bounded in size and depth, UTF-8
only), a body's fields and the seat of a path; every malformed part a
typed :class:`ApiError`."""

from __future__ import annotations

import json
import re
from typing import Any

from starlette.requests import Request

from examples.server.errors import ApiError

__all__ = ["field", "json_depth_over", "read_body", "seat_number"]

_SEAT = re.compile("[0-9]{1,3}")
# what json_depth_over keeps of a body: brackets only, as one kind
_BRACKETS = bytes.maketrans(b"{}", b"[]")
_NOT_BRACKETS = bytes(b for b in range(256) if b not in b"[]{}")


def json_depth_over(data: bytes, limit: int) -> bool:
    """Whether the JSON text ``data`` nests arrays and objects deeper than
    ``limit``, found before any parsing (a parser recurses once a level);
    linear in ``data`` for a fixed ``limit``, in C, whatever the text holds.
    Text that is not JSON may be answered either way: the parser refuses it
    next."""
    if data.count(b"[") + data.count(b"{") <= limit:
        return False
    # escaped backslashes first, then escaped quotes: what is left of the
    # quotes delimit strings, whose insides go
    outside = data.replace(b"\\\\", b"").replace(b'\\"', b"").split(b'"')[::2]
    brackets = b"".join(outside).translate(_BRACKETS, _NOT_BRACKETS)
    # each pass takes away the innermost pairs: one level
    for _ in range(limit):
        shorter = brackets.replace(b"[]", b"")
        if len(shorter) == len(brackets):
            return False  # empty, or not JSON
        brackets = shorter
    return b"[]" in brackets


async def read_body(request: Request, max_bytes: int, max_depth: int) -> dict[str, Any]:
    """The request's JSON object: at most ``max_bytes`` bytes (413
    ``BodyTooLarge``, read no further), UTF-8, nested at most ``max_depth``
    deep (400 ``JsonTooDeep``), an object (400 ``BadJson``)."""
    declared = request.headers.get("content-length")
    # the parser checked the header; a length of many digits is as large
    if (
        declared is not None
        and declared.isascii()
        and declared.isdigit()
        and (len(declared) > 12 or int(declared) > max_bytes)
    ):
        raise ApiError(413, "BodyTooLarge", f"the body is over {max_bytes} bytes")
    data = bytearray()
    async for chunk in request.stream():
        data += chunk
        if len(data) > max_bytes:
            raise ApiError(413, "BodyTooLarge", f"the body is over {max_bytes} bytes")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ApiError(400, "BadJson", f"the body is not UTF-8 text ({exc.reason})") from None
    if json_depth_over(bytes(data), max_depth):
        raise ApiError(400, "JsonTooDeep", f"the body nests deeper than {max_depth} levels")
    try:
        body = json.loads(text)
    except ValueError as exc:
        raise ApiError(400, "BadJson", f"the body is not JSON: {exc}") from None
    if not isinstance(body, dict):
        raise ApiError(400, "BadJson", f"the body is a JSON {type(body).__name__}, not an object")
    return body


def field(body: dict[str, Any], name: str, kind: type, *, optional: bool = False) -> Any:
    """``body[name]``, which must be a ``kind`` (never a bool for another
    kind): 400 ``MissingField``, 422 ``WrongType``; None when ``optional``
    and absent or null."""
    if name not in body:
        if optional:
            return None
        raise ApiError(400, "MissingField", f"the body has no {name!r}")
    value = body[name]
    if (value is None and optional) or (isinstance(value, kind) and not isinstance(value, bool)):
        return value
    raise ApiError(
        422, "WrongType", f"{name!r} must be {kind.__name__}, not {type(value).__name__}"
    )


def seat_number(text: str) -> int:
    """The seat of a path: 1 to 3 ASCII digits, else 404 ``UnknownSeat``."""
    if _SEAT.fullmatch(text) is None:
        shown = text if len(text) <= 16 else f"{text[:16]}..."
        raise ApiError(404, "UnknownSeat", f"{shown!r} is not a seat number")
    return int(text)
