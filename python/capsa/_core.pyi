"""The Rust core of capsa (hand-written stubs, checked by mypy.stubtest)."""

from collections.abc import Iterable, Sequence
from typing import Any, Final, final

import numpy as np
import numpy.typing as npt

CATEGORIES: Final[tuple[str, ...]]
"""Category names on the shared scale, weakest first (index = strength >> 28)."""
NATURAL_NAMES: Final[tuple[str, ...]]
"""The fifteen naturals; bit i of a naturals bit set is NATURAL_NAMES[i]."""
RULE_CHOICES: Final[dict[str, tuple[str, ...]]]
"""Each named-choice rules knob (its dotted key) with its valid names, in order."""
SUITS: Final[str]

class CapsaError(ValueError):
    """Base class of every capsa error.

    ``seat`` and ``row`` say where in a table the error was found (the seat
    index and ``"top"``, ``"middle"`` or ``"bottom"``), or are ``None``.
    """

    seat: int | None
    row: str | None

class CardError(CapsaError):
    """A card that cannot be read or an id outside 0..51."""

class HandError(CapsaError):
    """A hand or row with the wrong number of cards, or repeated cards."""

class RulesError(CapsaError):
    """A rules file, preset name, knob or solver table that is not valid."""

class TableError(CapsaError):
    """A table (seats, stakes, flags, arrays, a round) that cannot be settled."""

class ArgumentError(CapsaError):
    """An argument outside its range (a count, k, a training size)."""

@final
class Card:
    """A playing card: ``Card("As")``, ``Card(51)``.

    Takes a ``Card``, one card's text or an integer id 0..51 (a Python int or
    numpy integer; not a bool or float: ``TypeError``). Raises ``CardError``
    for an id out of range or unreadable text (lone surrogates included).
    """

    def __new__(cls, card: Card | int | str) -> Card: ...
    @property
    def id(self) -> int:
        """``4 * (rank - 2) + suit`` with d=0, c=1, h=2, s=3."""
    @property
    def rank(self) -> int:
        """2..14 (ace is 14)."""
    @property
    def suit(self) -> str:
        """The suit letter: d, c, h or s."""
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
    """The value of a three- or five-card hand under some rules.

    Values compare and hash by strength: under the same rules, a higher
    strength is a stronger hand, across three- and five-card hands.
    """

    @property
    def strength(self) -> int: ...
    @property
    def category(self) -> str: ...
    @property
    def size(self) -> int: ...
    @property
    def cards(self) -> list[Card]: ...
    def __eq__(self, other: object, /) -> bool: ...
    def __ne__(self, other: object, /) -> bool: ...
    def __lt__(self, other: HandValue, /) -> bool: ...
    def __le__(self, other: HandValue, /) -> bool: ...
    def __gt__(self, other: HandValue, /) -> bool: ...
    def __ge__(self, other: HandValue, /) -> bool: ...
    def __hash__(self) -> int: ...

@final
class RuleSet:
    """The engine's compiled form of a ``capsa.Rules`` value."""

    def __new__(cls, config: dict[str, Any]) -> RuleSet: ...

@final
class Settlement:
    """The settlement of one table."""

    @property
    def points(self) -> list[int]:
        """Each seat's points (they sum to zero)."""
    @property
    def money(self) -> list[int]:
        """Each seat's money in minor units (points times the pair stakes)."""
    @property
    def rake(self) -> list[int]:
        """The house's rake from each seat (only winners pay it)."""
    @property
    def net(self) -> list[int]:
        """Each seat's money after rake."""
    @property
    def seat_count(self) -> int: ...
    @property
    def seats(self) -> list[dict[str, Any]]:
        """Per seat: rows, categories, royalties, foul, surrender, natural, sweep."""
    @property
    def pairs(self) -> list[dict[str, Any]]:
        """Per pair (i < j), from seat i's view: how it was settled and why."""
    def to_dict(self) -> dict[str, Any]:
        """Everything, as JSON-ready dicts and lists."""
    def explain(self) -> str:
        """A table a player or a support agent can read."""

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

A C-contiguous uint8 array is read in place; any other integer array is
copied, each id checked to be in 0..51 (``CardError`` naming the row and
column). Other dtypes and non-arrays raise ``TypeError`` naming the dtype,
other shapes ``TableError`` naming the shape; N may be 0.
"""
_Rules = Any  # capsa.Rules or None (kept loose to avoid an import cycle)

def parse_cards(text: str) -> list[Card]:
    """Parses cards written as text ("As Kd 10h", commas allowed, suit symbols too)."""

def card_ids(cards: _CardsLike, count: int | None = None) -> list[int]:
    """Checks and converts any accepted card input to ids (distinct, in range).

    ``count`` (0..52, ``ArgumentError`` outside) is the number of cards
    required; without it at most 52 are read."""

def deal(seats: int = 4, seed: int | None = None) -> list[list[Card]]:
    """Deals 13 cards to each seat: reproducible with a seed, else from OS entropy.

    ``seats`` is an int 2..4 (``TableError``), ``seed`` None or an int
    0 <= seed < 2**64 (``ArgumentError``); bools and floats are a ``TypeError``."""

def evaluate(cards: _CardsLike, rules: _Rules = None) -> HandValue:
    """Ranks a three- or five-card hand."""

def compare(a: _CardsLike, b: _CardsLike, rules: _Rules = None) -> int:
    """-1, 0 or 1 as hand ``a`` is weaker than, equal to or stronger than ``b``."""

def evaluate_batch(ids: _IdArray, rules: _Rules = None) -> npt.NDArray[np.uint32]:
    """Strengths of N hands given as an (N, 5) or (N, 3) array of ids (see ``_IdArray``)."""

def category_of_strength(strength: int) -> str:
    """The category name of a strength."""

def splits(
    cards: _CardsLike, rules: _Rules = None, valid_only: bool = True
) -> npt.NDArray[np.uint8]:
    """Every split of 13 cards (or only the valid ones) as a uint8 (K, 13) array."""

def is_foul(cards: _CardsLike, rules: _Rules = None) -> bool:
    """True when 13 cards laid out top 0-2, middle 3-7, bottom 8-12 foul under
    the rules (rows out of order): the check settlement makes."""

def count_splits(cards: _CardsLike, rules: _Rules = None) -> int:
    """The number of valid splits of 13 cards (out of 72,072)."""

def count_splits_batch(ids: _IdArray, rules: _Rules = None) -> npt.NDArray[np.uint32]:
    """Valid-split counts of N hands given as an (N, 13) array of ids (see ``_IdArray``)."""

def naturals(cards: _CardsLike) -> list[str]:
    """Every natural the 13 cards qualify for, whatever the rules."""

def natural(cards: _CardsLike, rules: _Rules = None) -> str | None:
    """The strongest natural the rules enable that the 13 cards qualify for."""

def naturals_batch(ids: _IdArray) -> npt.NDArray[np.uint16]:
    """Bit sets of the naturals (bit i is NATURAL_NAMES[i]) of N hands ((N, 13) ids)."""

def settle(
    seats: Iterable[Any], rules: _Rules = None, stakes: int | Sequence[Sequence[int]] | None = None
) -> Settlement:
    """Settles one table: 2 to 4 seats, each an Arrangement, a Seat or 13 ids.

    At most 5 seats are read (``TableError`` for more or fewer than 2..4); a
    bad card raises with the error's ``seat`` set; ``stakes`` is one int64 or
    a seats x seats matrix (nested sequences or a 2-d integer array), a bad
    one ``TableError`` (``TypeError`` for a float, bool, str)."""

def settle_batch(
    cards: _IdArray,
    rules: _Rules = None,
    stakes: int | Sequence[Sequence[int]] | npt.NDArray[np.integer[Any]] | None = None,
    surrender: npt.NDArray[np.bool_] | None = None,
    declare_natural: npt.NDArray[np.bool_] | None = None,
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], list[tuple[int, str]]]:
    """Settles N tables ((N, P, 13) ids, see ``_IdArray``); points, money and the bad rows.

    Bad arguments (the array, stakes, flag arrays) raise before any row is
    settled; only a table that cannot be settled is a row error."""

def settle_rounds(
    cards: _IdArray,
    rules: _Rules = None,
    stakes: npt.NDArray[np.int64] | None = None,
    surrender: npt.NDArray[np.bool_] | None = None,
    declare_natural: npt.NDArray[np.bool_] | None = None,
    *,
    threads: int | None = None,
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], list[str]]:
    """Settles N rounds of P seats ((N, P, 13) ids), each with its own stake.

    ``stakes`` is one int64 per round (None: the rules' stake), the flags
    (N, P) bool arrays; ``threads`` caps the cores (default all). Returns the
    figures as int64 (4, P, N): points, money, rake, net, each seat's column
    contiguous; the rows that could not be settled (int64, in order) and
    their reasons ("Kind: message"), whose figures are zero. A bad argument
    raises before any round is settled."""

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

def settle_json_document(
    document: bytes,
    rules: dict[str, RuleSet],
    default: str | None = None,
    indent: int | None = None,
) -> tuple[bytes, int]:
    """Settles one JSON document (a round, or a list of rounds): its record or
    list of records, UTF-8, indented by ``indent`` spaces when given, and how
    many rounds failed."""

def is_json_object_line(line: bytes) -> bool:
    """True when the line holds one complete JSON object."""

def is_json_document(document: bytes) -> bool:
    """True when the bytes are one valid JSON document (a round or a list)."""

# arranging solver

def best_arrangement(
    cards: Any,
    rules: Any = None,
    *,
    seats: int = 4,
    strategy: str = "solver",
    tables: bytes | None = None,
) -> tuple[list[int], bool, float]: ...
def rank_arrangements(
    cards: Any,
    rules: Any = None,
    k: int = 5,
    *,
    seats: int = 4,
    tables: bytes | None = None,
) -> list[tuple[list[int], bool, float]]: ...
def best_arrangement_batch(
    ids: _IdArray,
    rules: Any = None,
    *,
    seats: int = 4,
    strategy: str = "solver",
    tables: bytes | None = None,
) -> npt.NDArray[np.uint8]: ...
def train_tables(
    rules: Any = None,
    *,
    seats: int = 4,
    hands: int = 200000,
    iterations: int = 4,
    seed: int = 1,
    name: str = "custom",
) -> bytes: ...
def solver_tables_info(rules: Any = None, tables: bytes | None = None) -> dict[str, Any]: ...
def duplicate_tournament(
    strategies: list[str],
    rules: Any = None,
    *,
    seats: int = 4,
    deals: int = 2000,
    seed: int = 0,
    tables: bytes | None = None,
) -> dict[str, Any]: ...
def best_response_check(
    rules: Any = None,
    *,
    hands: int = 100,
    opponents: int = 1000,
    seed: int = 0,
    tables: bytes | None = None,
) -> dict[str, Any]: ...
def solver_strategies() -> list[str]: ...

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
    """Per natural (``NATURAL_NAMES`` order), the hands of the run's deals
    ``start .. start + count - 1`` that qualify for it (neither arranged nor
    settled)."""
