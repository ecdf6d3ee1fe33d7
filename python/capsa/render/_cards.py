"""Card faces as inline SVG: the rank and the suit symbol, red suits red and
black suits black, drawn from paths (no font needed for the suits), each
named for screen readers in the page's language ("ace of spades").

Larger decks (docs/rules.md, "Decks: added suits, two decks and jokers")
draw a second copy as its first with a "2" in a disc at the foot ("ace of
spades, second copy"), and the jokers as the word JOKER over a star, the
black one black and the red one red, so that no two cards of a deck look
alike. The suit symbols and the star are defined once per document
(:data:`SUIT_DEFS`) and every face uses them; the 106 faces of a language
are built once.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from capsa import _core
from capsa._core import Card
from capsa.render._words import words
from capsa.rules import Rules

__all__ = [
    "CARD_HEIGHT",
    "CARD_IDS",
    "CARD_WIDTH",
    "SUIT_DEFS",
    "card_drawing",
    "card_face",
    "card_name",
    "jokers_played",
    "short_name",
]

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

# a five-pointed star in a 100 x 100 box
_STAR = "M50 4L61 37L96 37L68 58L79 92L50 71L21 92L32 58L4 37L39 37Z"

SUIT_DEFS = (
    "".join(
        f'<symbol id="suit-{suit}" viewBox="0 0 100 100"><path d="{path}"/></symbol>'
        for suit, path in _SUIT_PATHS.items()
    )
    + f'<symbol id="joker-star" viewBox="0 0 100 100"><path d="{_STAR}"/></symbol>'
)
"""The suit symbols and the jokers' star, for a document's ``<defs>``
(each face uses them)."""

# every card id of every deck: 52 first copies, 52 second copies, the
# black joker and the red joker
CARD_IDS = 106
_RED_JOKER = 105


_SUIT_SYMBOLS = {"s": "♠", "h": "♥", "d": "♦", "c": "♣"}


def short_name(card: Card) -> str:
    """A card of the 52-card deck written short, its rank and its suit's
    symbol (``Q♠``): what a picture says a joker was played as."""
    return f"{_RANKS.get(card.rank, str(card.rank))}{_SUIT_SYMBOLS[card.suit]}"


def card_name(card: Card, lang: str) -> str:
    """The card in words of a page's language, as a screen reader says it:
    ``ace of spades``, ``as sekop``, ``ace of spades, second copy``,
    ``black joker`` (escaped)."""
    w = words(lang)
    if card.joker:
        return w[f"card.joker_{'r' if card.id == _RED_JOKER else 'b'}"]
    name = w.fill("card.name", rank=w[f"card_rank.r{card.rank}"], suit=w[f"card_suit.{card.suit}"])
    return w.fill("card.second_copy", card=name) if card.copy else name


def card_drawing(card: Card) -> tuple[str, str]:
    """A card's face in a 50 x 70 box: its classes (``card`` and its
    colour, ``copy`` or ``joker``) and its SVG elements, which the pages and
    the SVG picture both draw."""
    face = '<rect class="face" x="0.75" y="0.75" width="48.5" height="68.5" rx="5"/>'
    if card.joker:
        colour = "red" if card.id == _RED_JOKER else "black"
        # the word down the left edge, as printed jokers have it
        letters = "".join(
            # the last letter's box ends inside the face, not on its edge
            f'<tspan x="4.5" y="{15 + 12.5 * k:g}">{letter}</tspan>'
            for k, letter in enumerate("JOKER")
        )
        return f"card joker {colour}", (
            f'{face}<text class="joker-word" aria-hidden="true">{letters}</text>'
            '<use href="#joker-star" x="18" y="20" width="29" height="29"/>'
        )
    rank = _RANKS.get(card.rank, str(card.rank))
    colour = "red" if card.suit in _RED else "black"
    wide = " wide" if len(rank) > 1 else ""
    # a second copy: a "2" in a disc at the foot of the index
    copy = (
        '<circle class="copy" cx="10" cy="58" r="8.5"/>'
        '<text class="copy-mark" x="10" y="63.5" text-anchor="middle" aria-hidden="true">2</text>'
        if card.copy
        else ""
    )
    return f"card {colour} suit-{card.suit}{' copy' if card.copy else ''}", (
        f"{face}"
        f'<text class="rank{wide}" x="4.5" y="17" aria-hidden="true">{rank}</text>'
        f'<use href="#suit-{card.suit}" x="4.5" y="20" width="11" height="11"/>'
        f'<use href="#suit-{card.suit}" x="17" y="32" width="28" height="28"/>'
        f"{copy}"
    )


def _face(card: Card, lang: str) -> str:
    classes, drawing = card_drawing(card)
    return (
        f'<svg class="{classes}" data-card="{card}" viewBox="0 0 50 70" '
        f'width="{CARD_WIDTH}" height="{CARD_HEIGHT}" role="img" '
        f'aria-label="{card_name(card, lang)}">{drawing}</svg>'
    )


@cache
def _faces(lang: str) -> tuple[str, ...]:
    return tuple(_face(Card(k), lang) for k in range(CARD_IDS))


def card_face(card: Card, lang: str) -> str:
    """The inline SVG face of one card (``data-card`` holds its text, e.g.
    ``As``; its accessible name is the card in words of ``lang``)."""
    return _faces(lang)[card.id]


def jokers_played(cards: Sequence[Card], rules: Rules | None) -> list[tuple[Card, Card]]:
    """Each joker of a row with the card it is played as in the row's
    strongest hand (:func:`capsa.played_cards`); none when the rules are
    not known."""
    if rules is None or not any(card.joker for card in cards):
        return []
    played = _core.played_cards(list(cards), rules)
    return [(card, as_) for card, as_ in zip(cards, played, strict=True) if card.joker]
