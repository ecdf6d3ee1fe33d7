"""The showdown drawings as methods of :class:`capsa.Settlement`
(``to_html``, ``to_svg``): attached when capsa is imported, so that every
settlement has them however it was made."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from capsa._core import Settlement

__all__: list[str] = []

# The showdown drawings are capsa.render's; a settlement's methods hand over
# to them, so help(Settlement) lists them and the extension stays free of
# drawing code.
_DRAWING_DOC = """The showdown as {picture} (``capsa.render.{draw}``).

``lang`` is ``"en"`` or ``"id"`` (Indonesian, with the game's own
terms); ``rules`` (the rules it was settled under) lets each payment name
the rule's figures where the settlement gives only a total; ``round_id``,
``seat_names`` (one str per seat) and ``title`` are shown as text,
escaped.

Raises ``ArgumentError`` for an unknown ``lang`` or a ``round_id``
integer too long to write, ``TypeError`` for
arguments of the wrong type, ``TableError`` for ``seat_names`` of the
wrong length.
"""


def _drawing_method(draw: str, picture: str) -> Callable[..., str]:
    """A ``Settlement`` method: ``capsa.render.<draw>(self, lang, **options)``."""

    def method(self: Settlement, lang: str = "en", **options: Any) -> str:
        from capsa import render

        drawn: str = getattr(render, draw)(self, lang, **options)
        return drawn

    method.__name__ = method.__qualname__ = "to_" + draw.rpartition("_")[2]
    method.__doc__ = _DRAWING_DOC.format(picture=picture, draw=draw)
    return method


Settlement.to_html = _drawing_method(  # type: ignore[method-assign]
    "settlement_html", "a self-contained HTML page"
)
Settlement.to_svg = _drawing_method(  # type: ignore[method-assign]
    "settlement_svg", "a standalone SVG picture"
)
