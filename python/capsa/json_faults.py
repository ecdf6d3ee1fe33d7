"""What is wrong with JSON data Python could not read or write, in words a
user can act on.

Python refuses integers of more than ``sys.get_int_max_str_digits()``
digits with a hint to change an interpreter setting; a record, a request
or a round id with such a number is bad input, and its message says so.
"""

from __future__ import annotations

import json
import sys

__all__ = ["int_or_text", "is_integer_too_long", "json_fault", "too_long_integer", "utf8_text"]


def is_integer_too_long(exc: BaseException) -> bool:
    """Whether ``exc`` is Python refusing to convert a too long integer
    between text and ``int``. Raises nothing."""
    return (
        isinstance(exc, ValueError)
        and not isinstance(exc, json.JSONDecodeError)
        and "int_max_str_digits" in str(exc)
    )


def too_long_integer() -> str:
    """The words for an integer too long to read or write. Raises nothing."""
    return f"an integer of more than {sys.get_int_max_str_digits()} digits"


def json_fault(exc: ValueError | RecursionError) -> str:
    """Why JSON text could not be read or written: ``exc``'s message, or
    words of capsa's for an integer too long or nesting too deep. Raises
    nothing."""
    if isinstance(exc, RecursionError):
        return "nested too deeply"
    if is_integer_too_long(exc):
        return too_long_integer()
    return str(exc)


def int_or_text(text: str) -> int | str:
    """A JSON integer's text as an ``int``, or as the text itself when
    Python refuses to convert it (more than ``sys.get_int_max_str_digits()``
    digits): ``json.loads(..., parse_int=int_or_text)`` reads any number a
    record or round may echo. Raises nothing."""
    try:
        return int(text)
    except ValueError:
        return text


def utf8_text(value: object) -> str | None:
    """``value`` when it is a str that UTF-8 can hold; None for another
    type and for text holding a lone surrogate (which ``json.loads`` makes
    of an escape such as ``"\\ud800"``). Raises nothing."""
    if not isinstance(value, str):
        return None
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return None
    return value
