"""Cards: the fixed id encoding, text forms and dealing.

A card id is ``4 * (rank - 2) + suit`` with suits d=0, c=1, h=2, s=3, so
``2d`` is 0 and ``As`` is 51; a second copy (decks with added suits or two
decks) adds 52, and the jokers are 104 and 105. Text is rank then suit
(``As``, ``Td``, ``10h``, ``7♣``), either case, separated by spaces or
commas; a second copy is marked ``'`` (``As'``), the jokers are ``BJ`` and
``RJ``.
``SUIT_SYMBOLS`` maps each suit letter to its symbol (``"s"`` to ``"♠"``).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal

from capsa._core import ArgumentError, Card, CardError, card_ids, deal, parse_cards

__all__ = ["SUIT_SYMBOLS", "Card", "CardError", "card_ids", "deal", "format_cards", "parse_cards"]

SUIT_SYMBOLS = {"d": "♦", "c": "♣", "h": "♥", "s": "♠"}
_INDONESIAN_SUITS = {"d": "Wajik", "c": "Keriting", "h": "Hati", "s": "Sekop"}
_INDONESIAN_RANKS = {11: "J", 12: "Q", 13: "K", 14: "As"}
_STYLES = ("text", "symbol", "indonesian")
_BLACK_JOKER = 104
_JOKERS = {"symbol": ("\U0001f0cf", "\U0001f0bf"), "indonesian": ("Joker hitam", "Joker merah")}


def _name(card: Card, style: str) -> str:
    """The card in ``style``, one of ``_STYLES``; a second copy is marked ``′``."""
    if style == "text":
        return str(card)
    if card.joker:
        return _JOKERS[style][card.id - _BLACK_JOKER]
    mark = "′" if card.copy else ""
    if style == "symbol":
        return str(card)[0] + SUIT_SYMBOLS[card.suit] + mark
    rank = _INDONESIAN_RANKS.get(card.rank, str(card.rank))
    return f"{rank} {_INDONESIAN_SUITS[card.suit]}{mark}"


def _check_style(style: object) -> None:
    if not isinstance(style, str):
        raise TypeError(f"style must be a str, not {type(style).__name__}")
    if style not in _STYLES:
        choices = ", ".join(repr(s) for s in _STYLES)
        raise ArgumentError(f"style must be one of {choices}, got {style!r}")


def format_cards(
    cards: str | Iterable[Card | int | str],
    style: Literal["text", "symbol", "indonesian"] = "text",
) -> str:
    """Writes cards as text: ``"As Kd"``, ``"A♠ K♦"`` or ``"As Sekop, K Wajik"``.

    ``cards`` is anything :func:`card_ids` reads: text (``"As Kd 10h"``), or
    a list, tuple or other iterable (a numpy array too) of ``Card`` objects,
    integer ids 0..105 and one-card texts; at most 106 distinct cards.
    ``style`` is ``"text"`` (``As Td``), ``"symbol"`` (``A♠ T♦``) or
    ``"indonesian"`` (``As Sekop, 10 Wajik``).

    Returns one str: the cards in the order given, separated by spaces
    (``", "`` in the Indonesian style); empty for no cards.

    Raises what :func:`card_ids` raises: ``CardError`` for a card that cannot
    be read or an id outside 0..105, ``HandError`` for more than 106 cards, a
    single ``Card`` instead of a list or a card given twice, ``TypeError``
    for cards of another type; ``ArgumentError`` for another ``style`` (naming
    it and the choices) and ``TypeError`` for a ``style`` that is not a str.
    """
    _check_style(style)
    names = [_name(Card(i), style) for i in card_ids(cards)]
    return ", ".join(names) if style == "indonesian" else " ".join(names)
