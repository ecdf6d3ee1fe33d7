"""Card faces as inline SVG: the rank and the suit symbol, red suits red and
black suits black, drawn from paths (no font needed for the suits), each
named for screen readers in the page's language ("ace of spades").

The four suit symbols are defined once per document (:data:`SUIT_DEFS`) and
every face uses them; the 52 faces of a language are built once.
"""

from __future__ import annotations

from functools import cache

from capsa._core import Card
from capsa.render._words import words

__all__ = ["CARD_HEIGHT", "CARD_WIDTH", "SUIT_DEFS", "card_face", "card_name"]

CARD_WIDTH = 40
CARD_HEIGHT = 56

# each suit drawn in a 100 x 100 box
_SUIT_PATHS = {
    "s": "M50 6C62 26 92 40 92 62C92 76 82 84 70 84C62 84 56 80 53 74C54 84 58 90 66 95"
    "L34 95C42 90 46 84 47 74C44 80 38 84 30 84C18 84 8 76 8 62C8 40 38 26 50 6Z",
    "h": "M50 90C35 76 6 58 6 33C6 18 17 8 30 8C39 8 46 13 50 21C54 13 61 8 70 8"
    "C83 8 94 18 94 33C94 58 65 76 50 90Z",
    "d": "M50 4L86 50L50 96L14 50Z",
    "c": "M31 29a19 19 0 1 0 38 0a19 19 0 1 0-38 0Z"
    "M9 59a19 19 0 1 0 38 0a19 19 0 1 0-38 0Z"
    "M53 59a19 19 0 1 0 38 0a19 19 0 1 0-38 0Z"
    "M40 53a10 10 0 1 0 20 0a10 10 0 1 0-20 0Z"
    "M50 56C50 76 46 87 36 95L64 95C54 87 50 76 50 56Z",
}
_RED = frozenset("hd")
_RANKS = {10: "10", 11: "J", 12: "Q", 13: "K", 14: "A"}

SUIT_DEFS = "".join(
    f'<symbol id="suit-{suit}" viewBox="0 0 100 100"><path d="{path}"/></symbol>'
    for suit, path in _SUIT_PATHS.items()
)
"""The suit symbols, for a document's ``<defs>`` (each face uses them)."""


def card_name(card: Card, lang: str) -> str:
    """The card in words of a page's language, as a screen reader says it:
    ``ace of spades``, ``as sekop`` (escaped)."""
    w = words(lang)
    return w.fill("card.name", rank=w[f"card_rank.r{card.rank}"], suit=w[f"card_suit.{card.suit}"])


def _face(card: Card, lang: str) -> str:
    rank = _RANKS.get(card.rank, str(card.rank))
    colour = "red" if card.suit in _RED else "black"
    wide = " wide" if len(rank) > 1 else ""
    suit = card.suit
    return (
        f'<svg class="card {colour}" data-card="{card}" viewBox="0 0 50 70" '
        f'width="{CARD_WIDTH}" height="{CARD_HEIGHT}" role="img" '
        f'aria-label="{card_name(card, lang)}">'
        '<rect class="face" x="0.75" y="0.75" width="48.5" height="68.5" rx="5"/>'
        f'<text class="rank{wide}" x="4.5" y="17" aria-hidden="true">{rank}</text>'
        f'<use href="#suit-{suit}" x="4.5" y="20" width="11" height="11"/>'
        f'<use href="#suit-{suit}" x="17" y="32" width="28" height="28"/>'
        "</svg>"
    )


@cache
def _faces(lang: str) -> tuple[str, ...]:
    return tuple(_face(Card(k), lang) for k in range(52))


def card_face(card: Card, lang: str) -> str:
    """The inline SVG face of one card (``data-card`` holds its text, e.g.
    ``As``; its accessible name is the card in words of ``lang``)."""
    return _faces(lang)[card.id]
