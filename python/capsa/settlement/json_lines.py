"""Rounds written as JSON settled as ``capsa settle`` settles a line of
JSON Lines, for code that holds the rounds rather than a file of them."""

from __future__ import annotations

from collections.abc import Iterable

from capsa._core import settle_json_lines as _settle_json_lines
from capsa.rules import Rules

__all__ = ["settle_json_lines"]


def settle_json_lines(
    lines: Iterable[str | bytes], rules: Rules | None = None
) -> tuple[bytes, int]:
    """Settles rounds written as JSON, reading each as ``capsa settle``
    reads a line of JSON Lines (docs/cli.md, "capsa settle: the JSON
    schema"), all under ``rules``.

    ``lines`` is an iterable of rounds, each one JSON object as str or
    UTF-8 bytes, without its line feed; line ``k + 1`` is ``lines[k]``.
    ``rules`` is a ``capsa.Rules`` or None (the capsa-susun preset); a
    round that names rules of its own (``"rules"``) is refused.

    Returns the records ``capsa settle`` writes for them, as JSON Lines
    (UTF-8 bytes: for each round its settlement, or an error record whose
    ``error``, ``message``, ``seat`` and ``row`` say what is wrong with it;
    a blank line gives none), and how many rounds failed.

    Raises ``TypeError`` for a line that is neither str nor bytes or
    ``rules`` that is not a ``capsa.Rules`` or None; a round that cannot
    be settled raises nothing (its error record says why).
    """
    if rules is None:
        rules = Rules()
    items: list[bytes | int] = []
    for line in lines:
        if isinstance(line, str):
            line = line.encode("utf-8", "surrogatepass")
        if not isinstance(line, bytes):
            raise TypeError(f"a round is JSON text (str or bytes), not {type(line).__name__}")
        items.append(line)
    return _settle_json_lines(items, {"": rules}, "")
