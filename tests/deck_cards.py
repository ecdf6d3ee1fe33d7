"""Cards of every deck as the decks' tests write them, from docs/rules.md,
"Decks: added suits, two decks and jokers" apart from the engine and the
oracle: a card's id from its text, the ids of a deck, its largest table."""

from __future__ import annotations

from typing import Any

__all__ = [
    "ADDED_SUITS",
    "BLACK_JOKER",
    "RANKS",
    "RED_JOKER",
    "SUITS",
    "card",
    "cs",
    "deck_ids",
    "most_seats",
]

RANKS = "23456789TJQKA"
SUITS = "dchs"
BLACK_JOKER, RED_JOKER = 104, 105
# One or two suits entering a second time, named strongest first by s h c d.
ADDED_SUITS = ["s", "h", "c", "d", "sh", "sc", "sd", "hc", "hd", "cd"]


def card(text: str) -> int:
    """A card id from its text: ``As``, ``As'`` (the second copy), ``BJ``, ``RJ``."""
    if text in ("BJ", "RJ"):
        return BLACK_JOKER if text == "BJ" else RED_JOKER
    copy = 1 if text.endswith("'") else 0
    return 52 * copy + 4 * RANKS.index(text[0]) + SUITS.index(text[1])


def cs(text: str) -> list[int]:
    """Card ids from text such as ``"As As' BJ"``; ``/`` between rows is skipped."""
    return [card(t) for t in text.split() if t != "/"]


def deck_ids(deck: dict[str, Any]) -> list[int]:
    """The ids of a deck (its ``[deck]`` knobs), in ascending order."""
    added = deck.get("added_suits", "none")
    ids = list(range(52))
    for face in range(52):
        if deck.get("decks", 1) == 2 or (added != "none" and SUITS[face % 4] in added):
            ids.append(52 + face)
    return ids + [BLACK_JOKER, RED_JOKER][: deck.get("jokers", 0)]


def most_seats(deck: dict[str, Any]) -> int:
    """The largest table of a deck: 4 with the 52-card deck, else as many
    as it deals 13 cards to, at most 8."""
    size = len(deck_ids(deck))
    return 4 if size == 52 else min(8, size // 13)
