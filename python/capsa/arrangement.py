"""Arrangements: 13 cards set as a 3-card top, 5-card middle and 5-card bottom.

``CardsLike`` is the type of a row or hand given as cards: text, or a
sequence of ``Card`` objects, integer ids 0..105 (52 and up: second copies
and jokers, which the rules' deck may hold) or one-card texts.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping, Sequence, Set
from typing import Any

from capsa._core import (
    CapsaError,
    Card,
    HandError,
    HandValue,
    arrangement_ids,
    card_ids,
    evaluate,
    is_foul,
)
from capsa.rules import Rules

__all__ = ["Arrangement", "CardsLike"]

CardsLike = str | Sequence[Card | int | str]
"""Cards as text or a sequence of ``Card`` objects, integer ids or card texts."""
_DEFAULT: list[Rules] = []


def _rules(rules: Rules | None) -> Rules:
    if rules is not None:
        return rules
    if not _DEFAULT:
        _DEFAULT.append(Rules())
    return _DEFAULT[0]


class Arrangement:
    """A top (3 cards), middle (5) and bottom (5) of 13 distinct cards:
    ``Arrangement("Ah Kd 2c", "3s 4s 5s 6s 7s", "8h 9h Th Jh Qh")``.

    Each row is text (``"Ah Kd 2c"``), or a list, tuple or other iterable (a
    numpy array too) of ``Card`` objects, integer ids 0..105 (Python or numpy
    integers, not bools or floats) and one-card texts. See also
    :meth:`parse` (one text) and :meth:`from_ids` (13 ids in row order).

    Arrangements are immutable; two are equal (and hash alike) when each row
    holds the same cards, in any order. ``str()`` gives the
    ``"top / middle / bottom"`` text.

    Raises ``HandError`` for a row of the wrong size or a card in two rows,
    ``CardError`` for a card that cannot be read or an id outside 0..105 (a
    row's error has ``row`` naming it), ``TypeError`` for a row of the wrong
    type (a number, a mapping, bytes, a set, an ``Arrangement``) or a card
    of the wrong type.
    """

    __slots__ = ("_ids",)
    _ids: tuple[int, ...]

    def __init__(self, top: CardsLike, middle: CardsLike, bottom: CardsLike) -> None:
        ids: list[int] = []
        for name, row, size in (("top", top, 3), ("middle", middle, 5), ("bottom", bottom, 5)):
            if isinstance(row, Arrangement):
                raise TypeError(f"the {name} row is a row of cards, not an Arrangement")
            try:
                ids.extend(card_ids(row, size))
            except CapsaError as exc:
                placed = type(exc)(f"{name} row: {exc}")
                placed.seat, placed.row = exc.seat, name
                raise placed from None
            except TypeError as exc:
                raise TypeError(f"{name} row: {exc}") from exc
        card_ids(ids, 13)  # no card in two rows
        object.__setattr__(self, "_ids", tuple(ids))

    @classmethod
    def parse(cls, text: str) -> Arrangement:
        """Reads ``"Ah Kd 2c / 3s 4s 5s 6s 7s / 8h 9h Th Jh Qh"`` (top / middle / bottom).

        ``text`` is a str of three rows separated by ``/`` or ``|``, or 13
        cards in row order (top, middle, bottom), each card as
        :func:`capsa.parse_cards` reads it: the one reader of arrangements
        that ``settle``, the stream and the records use.

        Returns the ``Arrangement``.

        Raises ``TypeError`` when ``text`` is not a str, ``HandError`` when it
        is not three rows of 3, 5 and 5 distinct cards, ``CardError`` for a
        card that cannot be read (``row`` names its row).
        """
        if not isinstance(text, str):
            raise TypeError(f"Arrangement.parse() takes a str, not {type(text).__name__}")
        return cls.from_ids(arrangement_ids(text))

    @classmethod
    def from_ids(cls, ids: Iterable[int | Card]) -> Arrangement:
        """From 13 ids laid out as top 0-2, middle 3-7, bottom 8-12 (a row of
        :func:`capsa.splits`, or ``arrangement.ids``).

        ``ids`` is a list, tuple, numpy array or other iterable of integer
        ids (Python ints or numpy integers, not bools) or ``Card`` objects;
        at most 14 items are read.

        Returns the ``Arrangement``.

        Raises ``TypeError`` for other types (a str or card texts, a float, a
        mapping, a set, an ``Arrangement``), ``HandError`` for other than 13
        cards or a card given twice, ``CardError`` for an id outside 0..105.
        """
        if isinstance(ids, Arrangement):
            raise TypeError("from_ids() takes 13 ids; this is already an Arrangement")
        if isinstance(ids, str | bytes | bytearray | memoryview | Mapping | Set):
            raise TypeError(f"from_ids() takes a sequence of 13 ids, not {type(ids).__name__}")
        flat = list(itertools.islice(ids, 14))
        if len(flat) != 13:
            got = "more than 13" if len(flat) > 13 else str(len(flat))
            raise HandError(f"an arrangement has 13 cards, got {got}")
        for item in flat:
            if isinstance(item, str):
                raise TypeError(f"from_ids() takes integer ids, not the str {item!r}")
        checked = card_ids(flat, 13)
        return cls(checked[:3], checked[3:8], checked[8:])

    @property
    def ids(self) -> tuple[int, ...]:
        """The 13 ids as a tuple of ints: top 0-2, middle 3-7, bottom 8-12."""
        return self._ids

    @property
    def top(self) -> tuple[Card, ...]:
        """The top row's 3 cards, as given."""
        return tuple(Card(i) for i in self._ids[:3])

    @property
    def middle(self) -> tuple[Card, ...]:
        """The middle row's 5 cards, as given."""
        return tuple(Card(i) for i in self._ids[3:8])

    @property
    def bottom(self) -> tuple[Card, ...]:
        """The bottom row's 5 cards, as given."""
        return tuple(Card(i) for i in self._ids[8:])

    @property
    def rows(self) -> tuple[tuple[Card, ...], tuple[Card, ...], tuple[Card, ...]]:
        """The (top, middle, bottom) rows, each a tuple of ``Card``."""
        return self.top, self.middle, self.bottom

    @property
    def cards(self) -> tuple[Card, ...]:
        """All 13 cards in row order: top, middle, bottom."""
        return tuple(Card(i) for i in self._ids)

    def values(self, rules: Rules | None = None) -> tuple[HandValue, HandValue, HandValue]:
        """The (top, middle, bottom) ``HandValue`` of the rows under the rules.

        ``rules`` is a ``capsa.Rules`` or None (the capsa-susun preset).
        Raises ``TypeError`` for ``rules`` of another type (a preset name is
        not taken: use ``Rules.preset(name)``).
        """
        r = _rules(rules)
        ids = list(self._ids)
        return evaluate(ids[:3], r), evaluate(ids[3:8], r), evaluate(ids[8:], r)

    def is_foul(self, rules: Rules | None = None) -> bool:
        """True when the rows are out of order under the rules, the check
        settlement makes: a valid arrangement has bottom >= middle >= top (or
        > with ``foul_check = "strict"``).

        ``rules`` is a ``capsa.Rules`` or None (the capsa-susun preset).
        Raises ``TypeError`` for ``rules`` of another type.
        """
        return is_foul(self._ids, _rules(rules))

    def __setattr__(self, key: str, value: Any) -> None:
        raise AttributeError("Arrangement is immutable")

    def __str__(self) -> str:
        return " / ".join(" ".join(str(c) for c in row) for row in self.rows)

    def __repr__(self) -> str:
        return f"Arrangement.parse({str(self)!r})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Arrangement):
            return NotImplemented
        return (
            sorted(self._ids[:3]) == sorted(other._ids[:3])
            and sorted(self._ids[3:8]) == sorted(other._ids[3:8])
            and sorted(self._ids[8:]) == sorted(other._ids[8:])
        )

    def __hash__(self) -> int:
        return hash(
            (
                frozenset(self._ids[:3]),
                frozenset(self._ids[3:8]),
                frozenset(self._ids[8:]),
            )
        )
