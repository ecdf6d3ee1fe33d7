"""The Rust core of capsa (hand-written stubs, checked by mypy.stubtest).

The docstrings of functions, classes, methods and properties are copies of
the extension's own (what ``help()`` shows), whose source is the binding's
Rust doc comments: ``python .ci/stub_docs.py --write`` writes them here and
``--check`` (run by ``tests/test_stub_docs.py``) finds any that differ.
Those of the constants are written here alone.
"""

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Final, Literal, Self, final, overload

import numpy as np
import numpy.typing as npt
from typing_extensions import disjoint_base

CATEGORIES: Final[tuple[str, ...]]
"""Category names on the shared scale, weakest first (index = strength >> 28)."""
NATURAL_NAMES: Final[tuple[str, ...]]
"""The naturals; bit i of a naturals bit set is NATURAL_NAMES[i]."""
KNOBS: Final[tuple[Knob, ...]]
"""The knob table: every knob of the rules, in the order a rules file writes them."""
RULE_CHOICES: Final[dict[str, tuple[str, ...]]]
"""Each named-choice rules knob (its dotted key) with its valid names, in order."""
SUITS: Final[str]

__version__: Final[str]
"""The package version: Cargo's, as the wheel's metadata holds it."""

class CapsaError(ValueError):
    """Base class of every capsa error, a ``ValueError``: a value that is not
    valid.

    ``seat`` (the seat index) and ``row`` (``"top"``, ``"middle"`` or
    ``"bottom"``) say where in a table the error was found, or are ``None``.
    A wrong Python type raises ``TypeError`` instead.
    """

    seat: int | None
    row: str | None

class CardError(CapsaError):
    """A card that cannot be read (naming the token and its position), a card
    id outside 0..105 (in a batch, naming the row and column) or a card the
    rules' deck does not hold."""

class HandError(CapsaError):
    """A hand, row or arrangement with the wrong number of cards, or a card
    given twice."""

class RulesError(CapsaError):
    """Rules that are not valid: an unknown preset or knob, a bad value (naming
    the key), malformed TOML, an unreadable rules file; also an unknown
    solver strategy and solver tables that fail validation."""

class TableError(CapsaError):
    """A table that cannot be settled or a table-shaped argument that is wrong:
    other than 2 to 4 seats, bad stakes or flags, a surrender the rules do
    not enable, figures past 64 bits, a batch array of the wrong shape."""

class ArgumentError(CapsaError):
    """An argument outside its range: a card count, ``k``, a seed, a number of
    deals, hands or opponents, a training size."""

@final
class Card:
    """A playing card: ``Card("As")``, ``Card(51)``, ``Card(card)``.

    Takes a ``Card``, the text of one card (rank then suit, either case:
    ``"As"``, ``"Td"``, ``"10h"``, ``"7♣"``; a second copy ``"As'"``; the
    jokers ``"BJ"`` and ``"RJ"``) or an integer id 0..105 (a Python int or a
    numpy integer): ``id = 52 * copy + 4 * (rank - 2) + suit`` with d=0, c=1,
    h=2, s=3, and the jokers 104 and 105. Whether a deck holds the card is the
    rules' to say. Cards are immutable and hashable, pickle, and order by id;
    ``str(card)`` is its text (``"As"``), ``int(card)`` its id.

    Raises ``CardError`` for an id outside 0..105 or text that is not exactly
    one card (lone surrogates included), ``TypeError`` for any other type (a
    bool, a float, bytes).
    """

    def __new__(cls, card: Card | int | str) -> Card: ...
    @property
    def id(self) -> int:
        """The card id 0..105: ``52 * copy + 4 * (rank - 2) + suit`` with d=0,
        c=1, h=2, s=3; the jokers 104 (black) and 105 (red)."""
    @property
    def rank(self) -> int:
        """The rank, 2..14 (11 jack, 12 queen, 13 king, 14 ace); 0 for a joker,
        which has none."""
    @property
    def suit(self) -> str:
        """The suit letter: ``"d"``, ``"c"``, ``"h"`` or ``"s"``; ``""`` for a
        joker."""
    @property
    def copy(self) -> int:
        """Which copy of its face the card is: 0, or 1 for the second (``As'``);
        0 for a joker."""
    @property
    def joker(self) -> bool:
        """Whether the card is a joker (``BJ`` or ``RJ``), wild in every row."""
    def __int__(self) -> int: ...
    def __reduce__(self) -> tuple[Any, tuple[int]]: ...
    def __eq__(self, other: object, /) -> bool: ...
    def __ne__(self, other: object, /) -> bool: ...
    def __lt__(self, other: Card, /) -> bool: ...
    def __le__(self, other: Card, /) -> bool: ...
    def __gt__(self, other: Card, /) -> bool: ...
    def __ge__(self, other: Card, /) -> bool: ...
    def __hash__(self) -> int: ...

@final
class HandValue:
    """The value of a three- or five-card hand under some rules (what ``evaluate``
    returns; not built directly).

    Values compare and hash by ``strength``: under the same rules a higher
    strength is a stronger hand, across three- and five-card hands too. Ordering
    a ``HandValue`` against another type raises ``TypeError``.
    """

    @property
    def strength(self) -> int:
        """The strength, an unsigned 32-bit int: bits 28-31 the category (its index
        in ``CATEGORIES``), bits 10-27 the rank key, bits 0-9 the suit key (0
        under ``tie_break = "none"``). Higher is stronger, under the same rules."""
    @property
    def category(self) -> str:
        """The category name, one of ``CATEGORIES`` (``"high-card"`` to
        ``"royal-flush"``; a three-card hand is at most ``"trips"``)."""
    @property
    def size(self) -> int:
        """The number of cards: 3 or 5."""
    @property
    def cards(self) -> list[Card]:
        """The hand's cards, in the order they were given."""
    def __eq__(self, other: object, /) -> bool: ...
    def __ne__(self, other: object, /) -> bool: ...
    def __lt__(self, other: HandValue, /) -> bool: ...
    def __le__(self, other: HandValue, /) -> bool: ...
    def __gt__(self, other: HandValue, /) -> bool: ...
    def __ge__(self, other: HandValue, /) -> bool: ...
    def __hash__(self) -> int: ...

@final
class Knob:
    """One knob of the rules: a row of the engine's knob table
    (``capsa.rules.KNOBS``), which every reader of rules data checks
    against and ``docs/rules.md`` is written from.

    Raises nothing: the rows are the engine's, built when it loads.
    """

    @property
    def name(self) -> str:
        """The dotted name, as rules files and ``rules["..."]`` spell it:
        ``"scoop.multiplier"``."""
    @property
    def type(self) -> str:
        """What values it takes: ``"text"``, ``"suit-order"``, ``"choice"``,
        ``"bool"``, ``"int"``, ``"naturals"``, ``"royalties"``,
        ``"royalties-by-rank"`` or ``"card"``."""
    @property
    def choices(self) -> tuple[str, ...]:
        """The names a choice takes, the categories a royalty row may name or
        the naturals a naturals list may name, in order; empty for the
        other types."""
    @property
    def low(self) -> int | None:
        """The least value of an integer knob, else None."""
    @property
    def high(self) -> int | None:
        """The greatest value of an integer knob, the most bytes of UTF-8 of a
        text knob, else None."""
    @property
    def default(self) -> Any:
        """The value in the capsa-susun preset, as ``Rules.to_dict()`` writes
        it (a new copy each time); None for an optional knob the preset
        leaves out."""
    @property
    def doc(self) -> str:
        """The sentence of the knob reference in docs/rules.md."""
    @property
    def ranking(self) -> bool:
        """Whether it changes how hands rank (and so what ``compare`` answers):
        ``tie_break``, ``suit_order``, ``flush_compare``, ``wheel``."""
    @property
    def required(self) -> bool:
        """Whether rules data in full must give it; a knob that need not reads
        as its default when left out, and ``Rules.to_dict()`` leaves it out
        at its default."""
    @property
    def tables_key(self) -> str | None:
        """The key the solver tables' metadata writes the knob under, or None
        for a knob the tables are not trained per."""
    @property
    def tables_weight(self) -> float | None:
        """Its weight in the distance that picks the nearest shipped tables for
        custom rules, or None."""
    def fault(self, value: int) -> str | None:
        """Why ``value`` is out of the knob's range (``"must be >= 0"``,
        ``"must be in 2..5"``): an integer knob's, or a royalty's points; None
        when it is in range or the knob holds no integers. The engine's own
        check, which rules data is checked by as it is read. Raises nothing
        (``TypeError`` for a value that is not an int)."""
    def category_fault(self, category: str) -> str | None:
        """Why a royalty row may not name ``category`` (``"is not a category
        of that row; the categories are: ..."``), or None. Raises nothing
        (``TypeError`` for a category that is not a str)."""

PRESETS: Final[tuple[str, ...]]
"""The names of the shipped presets, sorted."""
DEFAULT_PRESET: Final[str]
"""The preset a rules file starts from when it names no ``base``."""

def preset_text(name: str) -> str | None:
    """The TOML text of a shipped preset (the engine's own data), or None for a
    name that is not one."""

@disjoint_base
class RuleSet:
    """The engine's compiled form of a rules value.

    ``capsa.Rules`` is a subclass: every ``rules`` argument is ``None`` (the
    default preset) or a ``RuleSet``, so any ``capsa.Rules``; anything else is
    a ``TypeError``. ``RuleSet(config)`` compiles a full rules dict (as
    ``capsa.Rules.to_dict()`` gives): every knob but the optional ones, each
    read by its type.

    Raises ``RulesError`` naming the key for a missing or bad one.
    """

    def __new__(cls, config: dict[str, Any]) -> Self: ...

@final
class Settlement:
    """The settlement of one table (what ``settle`` returns; not built directly).

    Every figure is an exact integer. ``points`` are game points; ``money``,
    ``rake`` and ``net`` are money in minor units. Points sum to zero over the
    seats, money too, and net plus rake.
    """

    @property
    def points(self) -> list[int]:
        """Each seat's points for the round, in seat order (they sum to zero)."""
    @property
    def money(self) -> list[int]:
        """Each seat's money in minor units: its points against each opponent times
        that pair's stake (they sum to zero)."""
    @property
    def rake(self) -> list[int]:
        """The house's rake from each seat in minor units: a share of a winner's
        money, 0 for the others (docs/rules.md, "Money, rake and exactness")."""
    @property
    def net(self) -> list[int]:
        """Each seat's money after rake, in minor units (``money - rake``)."""
    @property
    def seat_count(self) -> int:
        """The number of seats, 2 to 8."""
    @property
    def seats(self) -> list[dict[str, Any]]:
        """Per seat, a dict: ``seat``; ``rows`` (``top``, ``middle``, ``bottom``:
        each row's ``cards`` text, ``category``, ``strength`` and ``royalty``);
        ``foul``, ``surrender``, ``natural`` (its name or None),
        ``natural_points``, ``swept_all``; ``points``, ``money``, ``rake`` and
        ``net``."""
    @property
    def pairs(self) -> list[dict[str, Any]]:
        """Per pair of seats i < j, a dict from seat i's view: ``seats`` (``[i,
        j]``); ``outcome`` (``"natural"``, ``"surrender"``, ``"foul"`` or
        ``"rows"``); ``rows`` (each row won 1, lost -1 or tied 0);
        ``row_points``, ``overall``, ``royalties``; ``scoop`` (1 i scooped, -1 j
        did, else 0), ``sweep_all``, ``multiplier``, ``bonus``; ``points``,
        ``stake`` and ``money`` (what i collects from j)."""
    def to_dict(self) -> dict[str, Any]:
        """Everything as JSON-ready dicts and lists: ``points``, ``money``,
        ``rake``, ``net``, ``seats`` and ``pairs`` (as the properties give
        them), the record ``capsa settle`` writes."""
    def explain(self) -> str:
        """A text table a player or a support agent can read: each seat's rows and
        figures, then one line per pair saying how it was settled."""
    def to_html(
        self,
        lang: str = "en",
        *,
        rules: Any = None,
        round_id: object = None,
        seat_names: Sequence[str] | None = None,
        title: str | None = None,
    ) -> str:
        """The showdown as a self-contained HTML page (``capsa.render.settlement_html``).

        ``lang`` is ``"en"`` or ``"id"`` (Indonesian, with the game's own
        terms); ``rules`` (the rules it was settled under) lets each payment
        name the rule's figures where the settlement gives only a total;
        ``round_id``, ``seat_names`` (one str per seat) and ``title`` are
        shown as text, escaped.

        Raises ``ArgumentError`` for an unknown ``lang`` or a ``round_id``
        integer too long to write, ``TypeError`` for arguments of the wrong
        type, ``TableError`` for ``seat_names`` of the wrong length.
        """
    def to_svg(
        self,
        lang: str = "en",
        *,
        rules: Any = None,
        round_id: object = None,
        seat_names: Sequence[str] | None = None,
        title: str | None = None,
        width: int = 980,
    ) -> str:
        """The showdown as a standalone SVG picture (``capsa.render.settlement_svg``).

        ``lang``, ``rules``, ``round_id``, ``seat_names`` and ``title`` as
        :meth:`to_html`; ``width`` the picture's width in CSS px, 360 to 2000
        (980 by default: two columns of seats; ``capsa.render.NARROW``, 380,
        draws a phone's picture).

        Raises as :meth:`to_html`, and ``ArgumentError`` for a ``width``
        outside its range.
        """

_CardLike = Card | int | str
_CardsLike = str | Iterable[_CardLike]
"""Card text, or an iterable of cards (a list, tuple, numpy array, iterator).

Every reader takes at most one card more than it needs (``HandError`` naming
the expected count, even for an endless iterator); refuses dicts and other
mappings, bytes, bytearray, memoryview and sets (``TypeError``), and card
ids that are bools or floats (``TypeError``).
"""
_IdArray = npt.NDArray[np.integer[Any]]
"""A numpy array of card ids of any integer dtype, byte order and strides.

A uint8 array is read as it is (in place when C-contiguous) and its ids
checked row by row; any other integer array is copied, each id checked to be
in 0..51 (``CardError`` naming the row and column). Other dtypes and
non-arrays raise ``TypeError`` naming the dtype, other shapes ``TableError``
naming the shape; N may be 0.
"""
_Rules = Any  # capsa.Rules or None (kept loose to avoid an import cycle)

def parse_cards(text: str) -> list[Card]:
    """Reads cards written as text: ``parse_cards("As, kd 10h 7♣")``.

    ``text`` is a str of cards, each rank then suit (``2``-``9``, ``T`` or
    ``10``, ``J``, ``Q``, ``K``, ``A``; suits ``d c h s`` or ``♦ ♣ ♥ ♠`` and ``♢
    ♧ ♡ ♤``; either case; a second copy marked ``'``: ``As'``), or a joker
    (``BJ``, ``RJ``), separated by spaces or commas; empty text gives no cards.

    Returns the cards as a list of ``Card``, in the order written.

    Raises ``CardError`` for a token that is not a card (naming it and its
    position), ``HandError`` for a card written twice, ``TypeError`` when
    ``text`` is not a str.
    """

def arrangement_ids(text: str) -> list[int]:
    """Reads an arrangement written as text, as every reader of capsa does:
    ``"top / middle / bottom"`` (rows separated by ``/`` or ``|``) or 13
    cards in row order.

    Returns the 13 ids laid out as top 0-2, middle 3-7, bottom 8-12.

    Raises ``HandError`` for rows of the wrong size (naming the row) or text
    that is neither form, ``CardError`` for a card that cannot be read (its
    ``row`` set), ``TypeError`` when ``text`` is not a str.
    """

def card_ids(cards: _CardsLike, count: int | None = None) -> list[int]:
    """Checks any accepted form of cards and returns their ids.

    ``cards`` is text (``"As Kd 10h"``), or a list, tuple or other iterable (a
    numpy array, an iterator) of ``Card`` objects, integer ids 0..105 (Python or
    numpy integers; 52 and up are second copies and jokers) and one-card texts,
    mixed freely. ``count`` (an int 0..106) is the number of cards required;
    without it any number up to 106 is taken.

    Returns the ids as a list of ints, in the order given, distinct.

    Raises ``CardError`` for a card that cannot be read or an id outside
    0..105; ``HandError`` for other than ``count`` cards (or more than 106;
    reading stops one card past the limit), a single ``Card`` instead of a list,
    or a card given twice; ``ArgumentError`` for a ``count`` outside 0..106;
    ``TypeError`` for a ``count`` that is not an int, cards of another type (a
    mapping, bytes, bytearray, memoryview, a set, a number) or an id that is a
    bool or float.
    """

def deal(seats: int = 4, seed: int | None = None, rules: _Rules = None) -> list[list[Card]]:
    """Deals 13 cards to each seat from one shuffled deck.

    ``seats`` is an int 2..4 (default 4; up to as many as the rules' deck
    deals 13 cards to under a larger deck). ``seed`` is None (the deck is
    shuffled from 32 bytes of operating-system entropy) or an int
    ``0 <= seed < 2**64`` (the same deal on every platform and every version:
    ChaCha20 keyed with the seed, Fisher-Yates with rejection sampling).
    Python and numpy integers are taken. ``rules`` is a ``capsa.Rules`` or
    None (the 52-card deck): the deck shuffled is the rules' deck, its ids in
    ascending order, so that the 52-card deck deals the same cards either way.

    Returns ``seats`` lists of 13 ``Card``, each sorted by id; seat s holds deck
    positions 13s..13s+12.

    Raises ``TableError`` for ``seats`` outside 2..4 (outside 2 to the most
    the rules' deck seats), ``ArgumentError`` for a seed outside
    ``0..2**64-1``, ``TypeError`` for either given as a bool, a float or
    another non-integer, or ``rules`` that is not a ``capsa.Rules`` or None.
    """

def evaluate(cards: _CardsLike, rules: _Rules = None) -> HandValue:
    """Ranks a three- or five-card hand.

    ``cards`` is 3 or 5 cards: text (``"As Kd Th"``), or a list, tuple or other
    iterable (a numpy array, an iterator) of ``Card`` objects, integer ids of the
    rules' deck (0..51 for the 52-card deck) (Python or numpy integers) and one-card
    texts, mixed freely. ``rules`` is a ``capsa.Rules`` or None (the capsa-susun
    preset).

    Returns the hand's ``HandValue`` (``category``, ``strength``, ``cards``) under
    the rules.

    Raises ``CardError`` for a card that cannot be read or an id or card the rules'
    deck does not hold; ``HandError`` for other than 3 or 5 cards (reading stops at
    the sixth), a single ``Card`` instead of a list, or a card given twice;
    ``TypeError`` for cards of another type (a mapping, bytes, bytearray,
    memoryview, a set, a number), an id that is a bool or float, or ``rules`` that
    is not a ``capsa.Rules`` or None (a preset name is not taken: use
    ``Rules.preset(name)``).
    """

def compare(a: _CardsLike, b: _CardsLike, rules: _Rules = None) -> int:
    """Compares two hands of 3 or 5 cards each (sizes may differ).

    ``a`` and ``b`` each take any form ``evaluate`` takes: text, or an iterable of
    ``Card`` objects, ids of the rules' deck and one-card texts. ``rules`` is a
    ``capsa.Rules`` or None (the capsa-susun preset).

    Returns -1, 0 or 1 as ``a`` is weaker than, equal to or stronger than ``b``
    under the rules.

    Raises what ``evaluate`` raises, for either hand: ``CardError``, ``HandError``
    (other than 3 or 5 cards, a card given twice within a hand), ``TypeError`` (a
    wrong type of cards or ``rules``).
    """

def played_cards(cards: _CardsLike, rules: _Rules = None) -> list[Card]:
    """The cards a row of 3 or 5 cards plays as under the rules' deck: each
    joker as the card it stands for in the row's strongest hand (of the
    cards that make it, the first found), a second copy as its first copy,
    every other card as itself.

    ``cards`` takes any form ``evaluate`` takes; ``rules`` is a
    ``capsa.Rules`` or None (the capsa-susun preset).

    Returns a list of ``Card`` in the row's order, each of the 52-card deck.

    Raises what ``evaluate`` raises: ``CardError``, ``HandError``,
    ``TypeError``.
    """

def evaluate_batch(ids: _IdArray, rules: _Rules = None) -> npt.NDArray[np.uint32]:
    """Ranks N hands at once, without the GIL, on every core.

    ``ids`` is a numpy array of card ids of shape (N, 5) or (N, 3), of any integer
    dtype, byte order and strides (uint8 C-contiguous is read in place, other arrays
    are copied); N may be 0. ``rules`` is a ``capsa.Rules`` or None (the capsa-susun
    preset).

    Returns a uint32 array of shape (N,): each row's strength, as ``evaluate(row,
    rules).strength``.

    Raises ``CardError`` for an id or card the rules' deck does not hold and
    ``HandError`` for a card repeated in a row (each naming the row); ``TableError``
    for another shape; ``TypeError`` for a non-array, a non-integer dtype (bool and
    float included) or ``rules`` that is not a ``capsa.Rules`` or None.
    """

def category_of_strength(strength: int) -> str:
    """The category name of a strength (``ValueError`` for one that is not)."""

def splits(
    cards: _CardsLike, rules: _Rules = None, valid_only: bool = True
) -> npt.NDArray[np.uint8]:
    """Every split of 13 cards into a top, middle and bottom row.

    ``cards`` is 13 cards: text, or a list, tuple or other iterable (a numpy array,
    an iterator) of ``Card`` objects, integer ids of the rules' deck (0..51 for the
    52-card deck) and one-card texts. ``rules`` is a ``capsa.Rules`` or None (the
    capsa-susun preset). ``valid_only`` (a bool or numpy bool, default True) keeps
    only the splits that do not foul under the rules; False gives all 72,072.

    Returns a uint8 array of shape (K, 13) of card ids, each row laid out top 0-2,
    middle 3-7, bottom 8-12 (each row's cards by ascending id), in the order of
    docs/rules.md, "Split order".

    Raises ``CardError`` for a card that cannot be read or an id or card the rules'
    deck does not hold; ``HandError`` for other than 13 cards or a card given twice;
    ``TypeError`` for cards of another type, a ``valid_only`` that is not a bool, or
    ``rules`` that is not a ``capsa.Rules`` or None.
    """

def is_foul(cards: _CardsLike, rules: _Rules = None) -> bool:
    """True when 13 cards laid out top 0-2, middle 3-7, bottom 8-12 foul: their rows
    are out of order under the rules (the check settlement makes)."""

def count_splits(cards: _CardsLike, rules: _Rules = None) -> int:
    """Counts the valid splits of 13 cards.

    ``cards`` is 13 cards in any form ``splits`` takes (text, or an iterable of
    ``Card`` objects, ids of the rules' deck and one-card texts); ``rules`` is a
    ``capsa.Rules`` or None (the capsa-susun preset).

    Returns the number of the 72,072 splits that do not foul under the rules (at
    least 1: a hand always has a valid split), as ``len(splits(...))``.

    Raises ``CardError`` for a card that cannot be read or an id or card the rules'
    deck does not hold; ``HandError`` for other than 13 cards or a card given twice;
    ``TypeError`` for cards of another type or ``rules`` that is not a
    ``capsa.Rules`` or None.
    """

def count_splits_batch(ids: _IdArray, rules: _Rules = None) -> npt.NDArray[np.uint32]:
    """Counts the valid splits of N hands at once, without the GIL, on every core.

    ``ids`` is a numpy array of card ids of shape (N, 13), of any integer dtype,
    byte order and strides (uint8 C-contiguous is read in place, other arrays are
    copied); N may be 0. ``rules`` is a ``capsa.Rules`` or None (the capsa-susun
    preset).

    Returns a uint32 array of shape (N,): each row's ``count_splits``.

    Raises ``CardError`` for an id or card the rules' deck does not hold and
    ``HandError`` for a card repeated in a row (each naming the row); ``TableError``
    for another shape; ``TypeError`` for a non-array, a non-integer dtype (bool and
    float included) or ``rules`` that is not a ``capsa.Rules`` or None.
    """

def naturals(cards: _CardsLike, rules: _Rules = None) -> list[str]:
    """Every natural 13 cards qualify for, whatever the rules enable (each by its
    default definition: all-high from the 8, all-low to the 8, twelve-royals
    from 12, twelve-same-color at least 12).

    ``cards`` is 13 cards: text, or a list, tuple or other iterable (a numpy
    array, an iterator) of ``Card`` objects, integer ids and one-card texts.
    ``rules`` is None (the cards are of the 52-card deck) or a ``capsa.Rules``,
    whose deck the cards are of: under a larger deck a second copy counts as
    its face and a natural is held when some way of playing the jokers holds
    it (docs/rules.md, "Naturals of larger decks"). See ``natural`` for the one
    the rules pay.

    Returns the names, in ``NATURAL_NAMES`` order (empty when none).

    Raises ``CardError`` for a card that cannot be read or an id the deck does
    not hold (outside 0..51 without rules); ``HandError`` for other than 13
    cards or a card given twice; ``TypeError`` for cards of another type or
    ``rules`` that is not a ``capsa.Rules`` or None.
    """

def natural(cards: _CardsLike, rules: _Rules = None) -> str | None:
    """The natural 13 cards would declare under the rules.

    ``cards`` is 13 cards of the rules' deck, in any form ``naturals`` takes
    (second copies and jokers too under a larger deck); ``rules`` is a
    ``capsa.Rules`` or None (the capsa-susun preset).

    Returns the name of the strongest natural the rules enable (the earliest
    entry of ``naturals.enabled``) that the cards qualify for, each entry's
    parameters applied and jokers played as the cards that qualify, or None.
    A seat that declares is assumed.

    Raises ``CardError`` for a card that cannot be read or is not in the
    rules' deck; ``HandError`` for other than 13 cards or a card given twice;
    ``TypeError`` for cards of another type or ``rules`` that is not a
    ``capsa.Rules`` or None.
    """

def naturals_batch(ids: _IdArray) -> npt.NDArray[np.uint16]:
    """The naturals of N hands at once, without the GIL, on every core.

    ``ids`` is a numpy array of card ids of shape (N, 13), of any integer dtype,
    byte order and strides (uint8 C-contiguous is read in place, other arrays
    are copied); N may be 0. Whatever the rules, as ``naturals``.

    Returns a uint16 array of shape (N,): bit i of a row's value is set when the
    hand qualifies for ``NATURAL_NAMES[i]``.

    Raises ``CardError`` for an id outside 0..51 and ``HandError`` for a card
    repeated in a row (each naming the row); ``TableError`` for another shape;
    ``TypeError`` for a non-array or a non-integer dtype (bool and float
    included).
    """

def natural_split(cards: _CardsLike, natural: str, rules: _Rules = None) -> list[int] | None:
    """The split that shows a row-shaped natural of 13 cards, or ``None``.

    For ``three-flushes``, ``three-straights``, ``three-straight-flushes``
    and ``two-full-houses``: 13 ids laid out top 0-2, middle 3-7, bottom
    8-12 (each row by ascending id) whose three rows have the natural's
    shape (for ``two-full-houses`` a pair and a single on top and two full
    houses): the first such split in ``splits()`` order that does not foul
    under the rules, or the first such split when every one fouls (only
    possible under ``foul_check = "strict"``); when the rules' entry of the
    natural is raised by a straight flush and the cards raise it, among the
    splits with a straight flush as
    a five-card row. ``None`` for any other natural (their cards, not their
    rows, make them) and when the cards do not qualify. ``natural`` is a
    name from ``NATURAL_NAMES`` (``ArgumentError`` otherwise, ``TypeError``
    when not a str).
    """

def settle(
    seats: Iterable[Any],
    rules: _Rules = None,
    stakes: int | Sequence[Sequence[int]] | None = None,
    *,
    banker: int | None = None,
    multipliers: Sequence[int] | None = None,
) -> Settlement:
    """Settles one table of 2 to 4 seats (to 8 under a larger deck): who pays
    whom, and why.

    ``seats`` is a list, tuple or other iterable of seats (reading stops one
    past the most the rules' deck seats).
    A seat is read by its public attributes, never by its class: an object with
    ``arrangement`` (a seat, as ``capsa.Seat``: that arrangement, read as the
    others, and its bool ``surrender`` and ``declare_natural``, both required);
    an object with ``ids`` (an arrangement, as ``capsa.Arrangement``); text,
    ``"top / middle / bottom"`` (rows separated by ``/`` or ``|``) or the 13
    cards in row order; or 13 cards laid out top 0-2, middle 3-7, bottom 8-12,
    as a list, tuple, numpy array or other iterable of ``Card`` objects, integer
    ids of the rules' deck or one-card texts (a row of ``splits()`` is one). Only a seat with
    ``arrangement`` surrenders or declines its natural. ``rules`` is a
    ``capsa.Rules`` or None (the capsa-susun preset). ``stakes``, in minor units
    per point, is None (the rules' ``money.stake`` for every pair), one integer
    for every pair, or a seats x seats symmetric matrix of non-negative integers
    (nested sequences or a 2-d numpy integer array; the diagonal is ignored).
    ``banker`` names the banker seat of a banker game (required when the
    rules' ``banker.enabled``, refused otherwise) and ``multipliers`` gives
    each seat's stake multiplier (1 each when None; the banker's 1, the
    others' in ``1..=banker.max_multiplier``; all 1 outside a banker game).

    Returns a ``Settlement``: points, money (minor units), rake and net per
    seat, per-seat and per-pair detail, ``explain()`` and ``to_dict()``.

    Raises ``TableError`` for a number of seats the rules' deck does not seat
    (2 to 4 with the 52-card deck), stakes that are negative, not symmetric
    or of the wrong shape, a surrender the rules do not enable, a banker or
    multipliers the rules do not allow (naming the seat and value), a fouled
    arrangement under ``foul.mode = "refuse"``, or figures that do not fit in
    64 bits; ``ArgumentError`` for a banker that is not a seat or multipliers
    that are not one integer per seat; ``CardError`` and ``HandError`` for a
    bad card (one the rules' deck does not hold), a seat without 13 cards or
    a card held twice (the error's ``seat`` names the seat); ``TypeError``
    for seats that are not an iterable of seats (a str, a single
    ``Arrangement`` or ``Seat``, a mapping), a seat of another type, a seat
    whose ``surrender`` or ``declare_natural`` is missing or not a bool,
    stakes given as a float, bool, str or non-integer array, or ``rules``
    that is not a ``capsa.Rules`` or None.
    """

def settle_batch(
    cards: _IdArray,
    rules: _Rules = None,
    stakes: int | Sequence[Sequence[int]] | npt.NDArray[np.integer[Any]] | None = None,
    surrender: npt.NDArray[np.bool_] | None = None,
    declare_natural: npt.NDArray[np.bool_] | None = None,
    *,
    banker: int | npt.NDArray[np.integer[Any]] | None = None,
    multipliers: npt.NDArray[np.integer[Any]] | None = None,
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], list[tuple[int, str]]]:
    """Settles N tables of P seats at once, without the GIL, on every core.

    ``cards`` is a numpy array of card ids of shape (N, P, 13), P from 2 to 4
    (to as many as a larger deck deals 13 cards to, at most 8), each seat's
    ids laid out top 0-2, middle 3-7, bottom 8-12; any integer
    dtype, byte order and strides; N may be 0. ``rules`` is a ``capsa.Rules``
    or None (the capsa-susun preset). ``stakes`` is None (the rules'
    ``money.stake``), one integer or a P x P symmetric matrix of non-negative
    integers (nested sequences or a 2-d numpy integer array; the diagonal is
    ignored).
    ``surrender`` and ``declare_natural`` are None (no seat surrenders, every
    seat declares) or numpy bool arrays of shape (N, P). ``banker`` is None,
    one seat for every table or an int array of shape (N,) (-1: that table
    has no banker), ``multipliers`` None or an int array of shape (N, P),
    as :func:`settle` takes them; a table whose roles the rules do not
    allow is an error row.

    Returns (points, money, errors): int64 arrays of shape (N, P), points and
    money in minor units (before rake), zero on the rows that could not be
    settled, and errors, a list of (row index, ``"Kind: message"``) for
    those rows (a repeated card, a card the rules' deck does not hold, a
    surrender the rules do not enable, figures past 64 bits).

    Raises, before any row is settled: ``TableError`` for another shape,
    stakes that are negative, not symmetric or of the wrong shape, or flag
    arrays of the wrong shape; ``CardError`` for an id outside 0..105 in an
    array that is not uint8 (naming its row, seat and column); ``TypeError``
    for a non-array or non-integer ``cards``, stakes given as a float, bool,
    str or non-integer array, flags that are not numpy bool arrays, or
    ``rules`` that is not a ``capsa.Rules`` or None.
    """

def largest_seat_points(rules: _Rules, seats: int) -> int:
    """The most points a seat of a ``seats``-seat table can settle for,
    either way, under ``rules``: ``seats - 1`` times the most a pair settles
    for (the largest of a declared natural, a surrender, a foul and a scoop
    of every row with its royalties, by the rules' values), saturating at
    2**127-1. ``TableError`` for a seat count the rules' deck does not deal
    (outside 2..4 for the 52-card deck), ``TypeError`` for rules that are
    not a ``capsa.Rules`` or None."""

def read_seat_roles(
    rules: _Rules,
    seats: int,
    banker: int | None = None,
    multipliers: Sequence[int] | None = None,
) -> tuple[int | None, list[int]]:
    """The banker seat and each seat's multiplier of a ``seats``-seat table under
    ``rules``, read and checked as :func:`settle` reads and checks them
    (``None``: no banker, every multiplier 1): ``(banker or None,
    multipliers)``. ``ArgumentError``/``TableError`` naming what is wrong (a
    banker the rules do not play, none in a banker game, a multiplier out of
    range), ``TypeError`` for a value that is not an int."""

def check_settlement_fits(
    rules: _Rules, seats: int, stakes: int | Sequence[Sequence[int]] | None
) -> None:
    """Checks that every round of a ``seats``-seat table under ``rules`` and
    ``stakes`` (None: the rules' stake) settles with every figure in 64
    bits: ``ArgumentError`` naming the stake (or a seat's row of stakes, or
    the rules) and the bound otherwise; what ``settle`` raises for stakes
    that are not stakes."""

def settle_rounds(
    cards: _IdArray,
    rules: _Rules = None,
    stakes: npt.NDArray[np.int64] | None = None,
    surrender: npt.NDArray[np.bool_] | None = None,
    declare_natural: npt.NDArray[np.bool_] | None = None,
    *,
    threads: int | None = None,
    banker: int | npt.NDArray[np.integer[Any]] | None = None,
    multipliers: npt.NDArray[np.integer[Any]] | None = None,
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.uint8], npt.NDArray[np.int64], list[str]]:
    """Settles N rounds of P seats ((N, P, 13) ids), each with its own stake.

    ``stakes`` is one int64 per round (None: the rules' stake), the flags (N,
    P) bool arrays; ``banker`` (an int or an int (N,) array) and
    ``multipliers`` (an int (N, P) array) give a banker game's roles;
    ``threads`` caps the cores (default all). Returns the figures as int64 (4,
    P, N): points, money, rake, net, each seat's column contiguous; the
    outcomes as uint8 (5, P, N): fouled (0/1), natural (0: none, else its
    index in ``NATURAL_NAMES`` plus one), scoops (opponents won all three rows
    against), swept (0/1), surrendered (0/1); the rows that could not be
    settled (int64, in order) and their reasons ("Kind: message"), whose
    figures and outcomes are zero. A bad argument raises before any round is
    settled.
    """

MAX_LINE_BYTES: Final[int]
"""The longest line (one round) ``capsa settle`` reads, in bytes."""
MAX_DOCUMENT_BYTES: Final[int]
"""The largest JSON document ``capsa settle`` reads whole, in bytes."""

def settle_json_lines(
    lines: Sequence[bytes | int],
    rules: dict[str, RuleSet],
    default: str | None = None,
    first_line: int = 1,
) -> tuple[bytes, int]:
    """Settles lines of a JSON Lines stream in parallel.

    Each item is a line's bytes without its line feed, or (for a line too
    long to read) its length. Line ``first_line + k`` is ``lines[k]``.
    Returns the output records, UTF-8, one line per round (a settlement or
    an error record; a blank line gives none), and how many rounds failed.
    """

def settle_json_block(
    block: bytes,
    rules: dict[str, RuleSet],
    default: str | None = None,
    first_line: int = 1,
    fd: int | None = None,
) -> tuple[bytes | None, int, int, int]:
    """Settles a block of a JSON Lines stream in parallel.

    The block is lines separated by line feeds (none after the last: a block
    of n line feeds holds n + 1 lines), line ``first_line`` first; a line
    longer than ``MAX_LINE_BYTES`` gets the error record of a line too long.
    Returns the output records as ``settle_json_lines`` does, how many
    records they are, how many of them failed, and how many lines the block
    held. Given ``fd`` (an open file descriptor, on a Unix system), the
    records are written to it, in order, and None is returned in their
    place; ``OSError`` when writing fails.
    """

def settle_json_document(
    document: bytes,
    rules: dict[str, RuleSet],
    default: str | None = None,
    indent: int | None = None,
) -> tuple[bytes, int]:
    """Settles one JSON document (a round, or a list of rounds): its record or
    list of records, UTF-8, indented by ``indent`` spaces when given, and how
    many rounds failed."""

def write_json_document(
    document: bytes,
    rules: dict[str, RuleSet],
    out: Callable[[bytes], object],
    default: str | None = None,
) -> int:
    """Settles one JSON document as ``settle_json_document`` does (not indented),
    handing the output to ``out`` (its ``write`` method) a batch of rounds at
    a time, so that it is never held whole; returns how many rounds failed."""

def is_json_object_line(line: bytes) -> bool:
    """True when the line holds one complete JSON object (the first line of a
    JSON Lines stream does)."""

def is_json_document(document: bytes) -> bool:
    """True when the bytes are one valid JSON document (a round or a list)."""

# arranging solver: capsa.solver wraps these (its docstrings say what they
# take, return and raise; ``tables`` here are bytes or None)

def shipped_tables(name: str) -> bytes | None:
    """The bytes of a preset's shipped tables file (embedded in the engine), or
    None for a name that ships none."""

def best_arrangement(
    cards: Any,
    rules: Any = None,
    *,
    seats: int = 4,
    strategy: str = "solver",
    tables: bytes | None = None,
    effort: str = "fast",
) -> tuple[list[int], bool, float]:
    """The best arrangement of 13 cards: (ids laid out top 0-2, middle 3-7,
    bottom 8-12; declare the natural; estimated expected points). See
    ``capsa.solver.best_arrangement``."""

def auto_arrangement(cards: Any, rules: Any, seats: int, policy: str) -> tuple[list[int], bool]:
    """How a round's auto-arrange ``policy`` (``"solver"``, ``"greedy"`` or
    ``"foul"``) arranges a seat that did not submit by the close, at a table
    of ``seats``: (ids laid out top 0-2, middle 3-7, bottom 8-12; whether it
    declares a natural its hand holds). ``ArgumentError`` for another policy."""

def rank_arrangements(
    cards: Any,
    rules: Any = None,
    k: int = 5,
    *,
    seats: int = 4,
    tables: bytes | None = None,
    effort: str = "fast",
) -> list[tuple[list[int], bool, float]]:
    """The k best choices, best first, each (ids, declare_natural, expected
    points). See ``capsa.solver.rank_arrangements``."""

def best_arrangement_batch(
    ids: _IdArray,
    rules: Any = None,
    *,
    seats: int = 4,
    strategy: str = "solver",
    tables: bytes | None = None,
    effort: str = "fast",
) -> npt.NDArray[np.uint8]:
    """Best arrangements of N hands ((N, 13) ids) on all cores: uint8 (N, 13),
    each row laid out top 0-2, middle 3-7, bottom 8-12. See
    ``capsa.solver.best_arrangement_batch``."""

TRAINER_VERSION: int
"""The version of the training procedure, written into every tables file."""
TRAIN_DEFAULTS: dict[str, int]
"""The training parameters of the shipped tables (seats, hands, iterations, seed)."""

def train_tables(
    rules: Any,
    *,
    seats: int,
    hands: int,
    iterations: int,
    seed: int,
    name: str,
    progress: Callable[[int, int], object] | None = None,
) -> bytes:
    """Trains per-row tables for the rules by iterated best response; returns
    the tables file's bytes. Every parameter but ``progress`` is required:
    the defaults are ``TRAIN_DEFAULTS``, applied by
    ``capsa.solver.train_tables``. ``progress(done, total)`` is called as
    deals are arranged."""

def solver_tables_info(rules: Any = None, tables: bytes | None = None) -> dict[str, Any]:
    """Metadata of the tables the solver uses for ``rules`` (the given tables or
    the nearest shipped ones), plus ``distance`` (0 for a preset's own rules).
    See ``capsa.solver.tables_info``."""

def duplicate_tournament(
    strategies: list[str],
    rules: Any = None,
    *,
    seats: int = 4,
    deals: int = 2000,
    seed: int = 0,
    tables: bytes | None = None,
) -> dict[str, Any]:
    """Duplicate tournament between strategies (names); returns a dict. See
    ``capsa.solver.duplicate_tournament``."""

def best_response_check(
    rules: Any = None,
    *,
    hands: int = 100,
    opponents: int = 1000,
    seed: int = 0,
    tables: bytes | None = None,
    strategy: str = "solver",
    effort: str = "fast",
    opponents_strategy: str = "solver",
) -> dict[str, Any]:
    """Best-response check of a strategy at an effort against opponents of a
    strategy (heads-up); returns a dict. See
    ``capsa.solver.best_response_check``."""

def solver_strategies() -> list[str]:
    """The strategy names (``capsa.solver.STRATEGIES``)."""

def solver_efforts() -> list[str]:
    """The effort names (``capsa.solver.EFFORTS``)."""

MAX_DEEP_CHOICES: int
"""The most choices ``rank_arrangements`` lists with ``effort="deep"``."""

# rounds: the provably fair deal, submissions, round records, generator output

FAIR_ALGORITHM: Final[str]
"""The provably fair deal's algorithm id, written into every record."""
MAX_CLIENT_SEED_BYTES: Final[int]
"""The longest client seed, in bytes of UTF-8."""
RECORD_FORMAT: Final[str]
"""The ``format`` of every round record."""
RECORD_FORMAT_VERSION: Final[int]
SETTLEMENT_VERSION: Final[int]
"""The record format version written, and the newest read."""
MAX_RECORD_BYTES: Final[int]
"""The largest round record read, in bytes."""
MAX_ROUND_ID_BYTES: Final[int]
"""The longest round id, in bytes of UTF-8."""
MAX_TABLE_ID_BYTES: Final[int]
"""The longest table id, in bytes of UTF-8."""
MAX_PLAYER_BYTES: Final[int]
"""The longest player id or display name, in bytes of UTF-8."""
VOID_FORMAT: Final[str]
"""The ``format`` of every void record."""
VOID_FORMAT_VERSION: Final[int]
"""The void record format version written, and the newest read."""
MAX_REASON_BYTES: Final[int]
"""The longest reason of a void record, in bytes of UTF-8."""
AUTO_ARRANGE_POLICIES: Final[list[str]]
"""The auto-arrange policies: solver, greedy, foul."""
MAX_ID_BYTES: Final[int]
"""The longest id (of a table, a round or a player), in bytes of UTF-8."""
MAX_NAME_BYTES: Final[int]
"""The longest display name of a player, in bytes of UTF-8."""
MAX_RULES_NAME_BYTES: Final[int]
"""The longest ``name`` of a rule set, in bytes of UTF-8."""
MAX_RULES_DESCRIPTION_BYTES: Final[int]
"""The longest ``description`` of a rule set, in bytes of UTF-8."""
MAX_RNG_CHUNK: Final[int]
"""The most words or shuffles one generator call returns."""

def fair_commitment(server_seed: bytes) -> str:
    """The commitment to a 32-byte server seed: its SHA-256, lowercase hex."""

def fair_deal(
    server_seed: bytes,
    client_seeds: Sequence[str] | None,
    nonce: int,
    seats: int,
    rules: _Rules | None = None,
) -> tuple[list[tuple[int, ...]], list[list[Card]]]:
    """The provably fair deal of the rules' deck (None: the 52-card deck):
    each seat's 13 ids sorted (a tuple), and the same as a list of Cards.

    ``client_seeds`` is a list or tuple of str (one per seat, each at most
    ``MAX_CLIENT_SEED_BYTES`` of UTF-8) or None; ``ArgumentError`` otherwise
    (``TypeError`` for a wrong type)."""

def fair_deal_checked(
    server_seed: bytes,
    client_seeds: Sequence[str] | None,
    nonce: int,
    seats: int,
    arrangements: Sequence[object | None],
    rules: _Rules,
) -> tuple[list[list[int]], list[list[int] | None], list[bool], list[bool | None]]:
    """The provably fair deal again with each seat's arrangement (or None)
    checked against its hand, in one call, as a saved round is restored: each
    seat's 13 ids sorted, each arrangement's 13 ids, whether each hand holds a
    natural ``rules`` enable, and whether each arrangement fouls under them.
    Raises what ``fair_deal`` and ``submission`` raise."""

def submission(
    arrangement: Any, hand: Sequence[int], seat: int, rules: _Rules | None = None
) -> tuple[int, ...]:
    """Reads a submission (an Arrangement, "top / middle / bottom" text or 13
    cards in row order) and checks it holds exactly ``hand``; returns its 13
    ids. ``HandError``/``CardError`` name the seat and the cards."""

MIN_STATE_KEY_BYTES: Final[int]
"""The shortest key a round state is sealed under, in bytes (32 recommended)."""

def state_macs(key: bytes, fields: dict[str, Any]) -> tuple[dict[str, str], str]:
    """The MAC of a round state's ``fields`` under ``key`` (HMAC-SHA256;
    ``capsa.round.state``): each field's by name, and the whole's
    (lowercase hex).

    ``TypeError`` for a key that is not bytes, ``ArgumentError`` for one
    shorter than ``MIN_STATE_KEY_BYTES``, ``ValueError`` naming a field that
    is not JSON data (a float, an integer beyond 64 bits, a key not text).
    """

def canonical_json_of(value: object) -> str:
    """The canonical JSON text of Python data (``dict`` with str keys,
    ``list``, ``tuple``, ``str``, ``int`` of at most 64 bits, ``bool``,
    ``None``); ``ValueError`` for anything else."""

def json_value(text: str) -> Any:
    """The Python value of JSON text (``json.loads`` of it), for the canonical
    JSON capsa writes: integers only, keys in the order written."""

def record_value(
    text: str,
    settlement: dict[str, Any],
    rules: RecordRules,
    spans: tuple[int, int, int, int],
) -> dict[str, Any]:
    """The dict of a round record's text, with its ``rules`` a copy of the
    dict of ``rules`` (the text at the first span must be ``rules.text``)
    and its ``settlement`` the dict given: the settlement's own
    ``to_dict()``, made from the very settlement the text was written from.
    ``spans`` are the byte ranges of those two members' values, as
    :func:`write_round_record` gives them; only the rest of the text is
    read. ``ValueError`` when the spans are not those members'."""

def state_mac_matches(key: bytes, state: dict[str, Any], whole: str, skip: str) -> bool:
    """Whether the MAC of the whole of ``state`` under ``key``, every field but
    ``skip`` taken, is ``whole`` (hex), compared in constant time: the check
    of a state that was not changed, in one call. Raises as :func:`state_macs`
    does."""

def canonical_json(text: str | bytes) -> str:
    """The canonical JSON text of any JSON text holding integers only
    (``TableError`` for text that is not such JSON)."""

@final
class RecordRules:
    """Rules as a record holds them: compiled, with their canonical JSON text."""

    def __new__(cls, rules: Any, rules_json: str) -> RecordRules: ...
    @property
    def text(self) -> str:
        """The rules' canonical JSON text."""

@overload
def write_round_record(
    rules: RecordRules,
    round_id: str,
    stakes: int | list[list[int]],
    server_seed: bytes,
    client_seeds: Sequence[str] | None,
    nonce: int,
    seats: Sequence[tuple[Sequence[int], bool, bool, bool]],
    previous_digest: str | None = None,
    meta: str | Mapping[str, str | int | bool | None] | None = None,
    *,
    table_id: str | None = None,
    players: Sequence[str | Mapping[str, str | None]] | None = None,
    format_version: int | None = None,
    with_settlement: Literal[False] = False,
    auto_arrange: str = "solver",
    banker: int | None = None,
    multipliers: Sequence[int] | None = None,
) -> tuple[str, str]:
    """The record of a played round, the hands dealt again from the seeds and the
    table settled: its canonical JSON text (one line) and digest (hex), and
    with ``with_settlement`` the :class:`Settlement` (a round settles once, as
    its record) and the byte ranges of the ``rules`` and ``settlement`` values
    in the text (start, end, start, end; for :func:`record_value`) too. Each
    seat is (13 ids, auto, surrender, declare_natural); ``meta`` is a mapping
    or a JSON object's text; ``format_version`` is 5 (the default), 4, 3, 2,
    or 1 (no table id or players), and ``rules`` must hold the rules as that
    version writes them (``capsa.records.rules_for_record``); ``auto_arrange``
    is the policy that arranged the seats marked auto (``"solver"``,
    ``"greedy"`` or ``"foul"``; the last two from format 4); ``banker`` and
    ``multipliers`` a banker game's roles, as :func:`settle` takes them
    (format 5)."""

@overload
def write_round_record(
    rules: RecordRules,
    round_id: str,
    stakes: int | list[list[int]],
    server_seed: bytes,
    client_seeds: Sequence[str] | None,
    nonce: int,
    seats: Sequence[tuple[Sequence[int], bool, bool, bool]],
    previous_digest: str | None = None,
    meta: str | Mapping[str, str | int | bool | None] | None = None,
    *,
    table_id: str | None = None,
    players: Sequence[str | Mapping[str, str | None]] | None = None,
    format_version: int | None = None,
    with_settlement: Literal[True],
    auto_arrange: str = "solver",
    banker: int | None = None,
    multipliers: Sequence[int] | None = None,
) -> tuple[str, str, Settlement, tuple[int, int, int, int]]:
    """The record of a played round, the hands dealt again from the seeds and the
    table settled: its canonical JSON text (one line) and digest (hex), and
    with ``with_settlement`` the :class:`Settlement` (a round settles once, as
    its record) and the byte ranges of the ``rules`` and ``settlement`` values
    in the text (start, end, start, end; for :func:`record_value`) too. Each
    seat is (13 ids, auto, surrender, declare_natural); ``meta`` is a mapping
    or a JSON object's text; ``format_version`` is 5 (the default), 4, 3, 2,
    or 1 (no table id or players), and ``rules`` must hold the rules as that
    version writes them (``capsa.records.rules_for_record``); ``auto_arrange``
    is the policy that arranged the seats marked auto (``"solver"``,
    ``"greedy"`` or ``"foul"``; the last two from format 4); ``banker`` and
    ``multipliers`` a banker game's roles, as :func:`settle` takes them
    (format 5)."""

@final
class RecordView:
    """A round record as read (every field checked for its form)."""

    @property
    def kind(self) -> Literal["round"]:
        """``"round"`` (a void record's view says ``"void"``)."""
    @property
    def auto_arrange(self) -> str:
        """The auto-arrange policy that arranged the seats marked auto
        (``"solver"`` for every record before format 4)."""
    @property
    def round_id(self) -> str:
        """The round's id, as written."""
    @property
    def format_version(self) -> int:
        """The format version the record is written in."""
    @property
    def settlement_version(self) -> int:
        """The settlement version the record was settled under
        (``settlement.version`` from format 5 on, 1 before)."""
    @property
    def table_id(self) -> str | None:
        """The table's id; None for format 1 and a server of one table."""
    @property
    def players(self) -> list[tuple[str, str | None]]:
        """Each seat's player as (id, name); format 1's seat k is ("seat-k", None)."""
    @property
    def nonce(self) -> int:
        """The nonce of the provably fair deal."""
    @property
    def digest(self) -> str:
        """The record's ``digest`` as written."""
    @property
    def content_digest(self) -> str:
        """The SHA-256 of the record's contents: its canonical form without
        ``digest`` (what ``digest`` must be)."""
    @property
    def canonical_as_read(self) -> bool:
        """Whether the text read is the record's canonical form as it stands
        (false for any other text, for some canonical text holding escapes,
        and for a record given as a dict)."""
    @property
    def previous_digest(self) -> str | None:
        """The ``digest`` of the table's previous record (a chain), or None for
        the first."""
    @property
    def commitment(self) -> str:
        """The SHA-256 of the server seed (hex), published before the deal."""
    @property
    def rules_json(self) -> str:
        """The record's rules object as canonical JSON text."""
    @property
    def banker(self) -> int | None:
        """The banker seat of a banker game (``None``: no banker)."""
    @property
    def multipliers(self) -> list[int]:
        """Each seat's multiplier (1 outside a banker game)."""
    @property
    def seat_count(self) -> int:
        """The number of seats."""
    def net_and_rake(self) -> list[tuple[int, int]]:
        """Each seat's (net, rake) from the recorded settlement."""
    @property
    def stakes(self) -> int | list[list[int]]:
        """The stakes as recorded: one int for every pair, or the matrix as a
        list of rows."""
    @property
    def played_at(self) -> str | int | None:
        """``meta.played_at`` as written: its text, or its integer; None when the
        record has none, or another JSON value."""
    def replay(
        self, rules: RecordRules, check_previous: bool = False, previous_digest: str | None = None
    ) -> list[tuple[str, str]]:
        """Recomputes everything from the record's inputs under ``rules`` (the
        record's own rules, compiled); (field, message) of every difference.
        ``check_previous`` says whether to check the chain link against
        ``previous_digest`` (None: the record must be the first of a chain)."""
    def verify_deal(self, commitment: str | None = None) -> list[tuple[str, str]]:
        """Checks the provably fair deal from the record alone (and that its
        commitment is ``commitment``, when given); (field, message) of every
        problem."""

@final
class VoidView:
    """A void record as read (every field checked for its form): the pending
    round it closes, and why."""

    @property
    def kind(self) -> Literal["void"]:
        """``"void"`` (a round record's view says ``"round"``)."""
    @property
    def format_version(self) -> int:
        """The format version the record is written in."""
    @property
    def capsa_version(self) -> str:
        """The version of capsa that wrote the record."""
    @property
    def round_id(self) -> str:
        """The round's id, as written."""
    @property
    def table_id(self) -> str | None:
        """The table's id; None for a server of one table."""
    @property
    def nonce(self) -> int:
        """The nonce of the provably fair deal."""
    @property
    def commitment(self) -> str:
        """The SHA-256 of the server seed (hex), published before the deal."""
    @property
    def reason(self) -> str:
        """Why the round is void."""
    @property
    def meta_json(self) -> str:
        """The record's ``meta`` as canonical JSON text."""
    @property
    def digest(self) -> str:
        """The record's ``digest`` as written."""
    @property
    def content_digest(self) -> str:
        """The SHA-256 of the record's contents: its canonical form without
        ``digest`` (what ``digest`` must be)."""
    @property
    def canonical_as_read(self) -> bool:
        """Whether the text read is the record's canonical form as it stands."""
    @property
    def previous_digest(self) -> str | None:
        """The ``digest`` of the table's previous record (a chain), or None for
        the first."""
    @property
    def seat_count(self) -> int:
        """0: a void round has no seats."""
    def replay(
        self, check_previous: bool = False, previous_digest: str | None = None
    ) -> list[tuple[str, str]]:
        """Checks the digest and, with ``check_previous``, the chain link against
        ``previous_digest`` (None: the record must be the first of a chain);
        (field, message) of every difference."""
    def verify_deal(self, commitment: str | None = None) -> list[tuple[str, str]]:
        """Checks the commitment against ``commitment``, the one published before the
        deal, when given; (field, message) of every problem."""

def write_void_record(
    round_id: str,
    commitment: str,
    nonce: int,
    reason: str,
    previous_digest: str | None = None,
    meta: str | Mapping[str, str | int | bool | None] | None = None,
    *,
    table_id: str | None = None,
) -> tuple[str, str]:
    """The void record of a pending round: its canonical JSON text (one line) and
    digest (hex). See ``capsa.records.void_record``."""

def read_record(text: str | bytes) -> tuple[RecordView | VoidView | None, str, str]:
    """Reads a record from its JSON text (bytes or str): the record (a round or a
    void record, by its format), or (None, field, message) naming the first
    field that is not as its format version writes it (a newer format version
    is refused first)."""

def read_record_value(record: dict[str, Any]) -> tuple[RecordView | VoidView | None, str, str]:
    """:func:`read_record` of a record given as a dict (its canonical text, at
    most ``MAX_RECORD_BYTES`` bytes, is what is digested); ``ValueError`` for
    a dict that is not plain JSON data (dicts with str keys, lists, tuples,
    str, int of at most 64 bits, bool, None), naming its fault."""

def read_records(texts: list[str | bytes]) -> list[tuple[RecordView | VoidView | None, str, str]]:
    """Many records read as :func:`read_record` reads each, on every core without
    the GIL: a list of (record or None, field, message) in the order given."""

def record_seats(views: list[RecordView], width: int = 4) -> tuple[bytes, bytes, bytes]:
    """The seats of many records read, as a rounds table of ``width`` seats
    (2 to 8; ``TableError`` otherwise) takes them, in three buffers: each
    record's seat count (a byte a record); each seat's arrangement as 13
    card ids, top row first (13 bytes a seat of the width, zero for a seat
    it lacks); each seat's ``auto``, ``surrender`` and ``declare_natural``
    as 0 or 1 (3 bytes a seat of the width)."""

def read_seat_count(seats: int) -> int:
    """The seat count of a table: an int 2..4."""

def read_stakes(
    stakes: int | Sequence[Sequence[int]] | npt.NDArray[np.integer[Any]],
    seats: int,
    *,
    for_record: bool = False,
) -> int | list[list[int]]:
    """The stakes of a table of ``seats``: one int for every pair, or the
    matrix as a list of rows. ``for_record``: every entry >= 0, the diagonal
    too, as a round record holds them."""

def read_round_id(round_id: str) -> str:
    """A round id: a str of 1 to ``MAX_ROUND_ID_BYTES`` bytes of UTF-8."""

def read_table_id(table_id: str | None = None) -> str | None:
    """A table id: None, or a str of 1 to ``MAX_TABLE_ID_BYTES`` bytes of UTF-8."""

def read_players(
    players: Sequence[str | Mapping[str, str | None]] | None, seats: int
) -> list[dict[str, str | None]]:
    """The players of a table of ``seats``, as a new list of dicts ``{"id": str,
    "name": str | None}``: None gives seat k the player ``seat-k``."""

def read_nonce(nonce: int) -> int:
    """The nonce of a fair deal: an int 0..2**64-1."""

def read_round_args(
    rules: _Rules,
    seats: int,
    stakes: int | Sequence[Sequence[int]] | npt.NDArray[np.integer[Any]] | None,
    round_id: str,
    nonce: int,
    previous_digest: str | None,
    meta: Mapping[str, str | int | bool | None] | None,
    table_id: str | None,
    players: Sequence[str | Mapping[str, str | None]] | None,
    server_seed: bytes | None,
) -> tuple[
    int,
    int | list[list[int]] | None,
    str,
    int,
    str | None,
    dict[str, str | int | bool | None],
    str | None,
    list[dict[str, str | None]],
    bytes | None,
]:
    """The arguments of a ``capsa.Round`` under ``rules`` as read, in one call
    and in the order the other readers read them: the seat count (as the
    rules' deck seats), the stakes as a record holds them (None when not
    given), the round id, the nonce, the previous digest, the meta, the table
    id, the players and the server seed (None when not given)."""

def read_digest(value: str | None, what: str) -> str | None:
    """A SHA-256 as 64 lowercase hexadecimal digits, or None; ``what`` names it."""

def read_server_seed(seed: bytes) -> bytes:
    """A server seed: 32 bytes."""

def read_meta(
    meta: Mapping[str, str | int | bool | None] | str | None,
) -> dict[str, str | int | bool | None]:
    """The server's notes for a record, as a new dict: None is empty."""

def read_flag(value: object, what: str) -> bool:
    """A flag: a bool (an int or a str is not one); ``what`` names it.
    ``TypeError`` for anything else."""

def check_id(value: object, field: str, *, recorded: bool = False) -> str:
    """An id (of a table, a round or a player) at ``field``, as a writer
    takes it: 1 to ``MAX_ID_BYTES`` bytes of UTF-8, no control character
    (U+0000 to U+001F, U+007F); ``recorded``: as the record reader takes an
    id read from a record (U+0000 refused, other controls read).
    ``TypeError`` for a value that is not a str, ``ArgumentError`` naming
    the field otherwise."""

def check_name(value: object, field: str, *, recorded: bool = False) -> str | None:
    """A player's display name at ``field``, or None, as a writer takes it:
    1 to ``MAX_NAME_BYTES`` bytes of UTF-8, no U+0000; ``recorded``: as the
    record reader takes one (U+0000 read). ``TypeError`` for a value that
    is neither a str nor None, ``ArgumentError`` naming the field
    otherwise."""

def rules_text_fault(knob: str, value: str) -> str | None:
    """What is wrong with ``value`` as the rules' text knob ``knob``
    (``name``: at most ``MAX_RULES_NAME_BYTES`` bytes of UTF-8,
    ``description``: at most ``MAX_RULES_DESCRIPTION_BYTES``), or None.
    ``TypeError`` for a value that is not a str, ``ArgumentError`` for one
    holding a lone surrogate."""

def natural_entries(value: object) -> list[dict[str, Any]]:
    """``naturals.enabled`` read and checked by the engine, as rules data
    writes it: each entry's name, points and the optional fields away from
    their defaults, in order (rank letters as ``"T"``).

    Raises ``RulesError`` naming the entry and the field for every fault of
    the list.
    """

def rng_words_fair(server_seed: bytes, nonce: int, start: int, count: int) -> bytes:
    """``count`` words of the fair deal's HMAC-SHA256 stream from word ``start``
    (no client seeds), as the stream's bytes (each word big-endian)."""

def rng_words_chacha20(key: bytes, start: int, count: int) -> bytes:
    """``count`` words of the ChaCha20 stream of a 32-byte key from word
    ``start``, as the key stream's bytes (each word little-endian)."""

def rng_shuffles_fair(server_seed: bytes, first_nonce: int, count: int) -> bytes:
    """The decks (52 ids each, in deck order) of the fair deals of a server seed
    with no client seeds and nonces ``first_nonce``, ``first_nonce + 1``, ..."""

def rng_shuffles_seeded(first_seed: int, count: int) -> bytes:
    """The decks (52 ids each, in deck order) of the seeded deals of seeds
    ``first_seed``, ``first_seed + 1``, ... (``capsa.deal(seats, seed)``)."""

# variant simulator

def simulate_deals(
    rules: _Rules = None,
    *,
    start: int,
    count: int,
    seats: int,
    strategy: str,
    seed: int,
    tables: bytes | None = None,
    threads: int | None = None,
) -> dict[str, Any]:
    """Plays deals ``start .. start + count - 1`` of the run seeded ``seed``
    (deal i: ``deal(seats, seed=deal_seed(seed, i))``), every seat arranged by
    ``strategy``, each round settled at the rules' stake; the summary's
    integer counts as a dict (see ``capsa.simulation.Summary``)."""

def simulated_deal(seed: int, index: int, seats: int) -> list[list[int]]:
    """The sorted card ids of each seat in deal ``index`` of a run seeded ``seed``."""

def simulated_naturals(
    seed: int, *, start: int, count: int, seats: int, threads: int | None = None
) -> list[int]:
    """Per natural (``NATURAL_NAMES`` order), the hands of deals ``start .. start
    + count - 1`` of a run seeded ``seed`` that qualify for it (neither
    arranged nor settled)."""
