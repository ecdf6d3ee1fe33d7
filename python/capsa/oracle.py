"""Reference oracle for the Capsa Susun rules.

A slow, plain, standard-library-only implementation written straight from
the project's rule reference, docs/rules.md.
It exists to be an independent witness for differential tests of the fast
engine, so it imports nothing from the ``capsa`` package, reads no project
file and uses no precomputed tables.

Cards are integer ids ``52 * copy + 4 * (rank - 2) + suit`` with suits
d=0 c=1 h=2 s=3, ranks 2..14 (ace = 14) and copy 0 or 1, and the jokers 104
(black) and 105 (red), given as sequences of integers (Python ints or numpy
integers, not bools). Which of them a hand may hold is the rules' deck
(docs/rules.md, "Decks: added suits, two decks and jokers"): the 52 first
copies always, second copies and jokers as ``deck.added_suits``,
``deck.decks`` and ``deck.jokers`` say. The ranking functions (``category``,
``compare``, ``is_foul``, ``splits``, ``count_splits``, ``key_rank``), the
royalties, ``natural``, ``declared_natural`` and the settlement take the
rules' deck: 2 to 4 seats under the 52-card deck, up to 8 under a larger
one, as docs/rules.md, "Tables of larger decks" says. Naturals are judged
on the cards' faces, jokers played as the cards that qualify, as
docs/rules.md, "Naturals of larger decks" says; ``naturals`` reads the
52-card deck unless given rules. Rules are the plain dicts
:func:`load_rules` and :func:`default_rules` return (a hand-made dict is not
checked again). Every bad input raises ``ValueError`` naming what was wrong.

``CATEGORIES`` are the ten category names of the 52-card deck, weakest
first; ``ALL_CATEGORIES`` adds ``FIVE_OF_A_KIND`` (``"five-of-a-kind"``),
which only a deck with copies or jokers makes; ``NATURAL_NAMES`` the
twenty naturals in the engine's bit order.
"""

from __future__ import annotations

import copy
import hashlib
import hmac
import importlib
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from functools import lru_cache
from itertools import combinations, combinations_with_replacement, product
from numbers import Integral
from typing import Any, NoReturn

try:
    import tomllib
except ModuleNotFoundError:  # pragma: no cover - Python < 3.11 only
    tomllib = importlib.import_module("tomli")

__all__ = [
    "ALL_CATEGORIES",
    "CATEGORIES",
    "FIVE_OF_A_KIND",
    "NATURAL_NAMES",
    "category",
    "chacha20_block",
    "compare",
    "count_splits",
    "deal",
    "declared_natural",
    "default_rules",
    "fair_commitment",
    "fair_deal",
    "is_foul",
    "key_rank",
    "load_rules",
    "natural",
    "naturals",
    "rake",
    "royalty",
    "settle",
    "splits",
    "table_sizes",
]

# ---------------------------------------------------------------------------
# Names
# ---------------------------------------------------------------------------

# Five-card categories, weakest first; the index is the shared scale.
CATEGORIES: tuple[str, ...] = (
    "high-card",
    "pair",
    "two-pair",
    "trips",
    "straight",
    "flush",
    "full-house",
    "quads",
    "straight-flush",
    "royal-flush",
)

# docs/rules.md, "Copies, five of a kind and jokers": the highest category,
# above royal-flush, made only by a deck with copies or jokers. It is kept
# out of CATEGORIES (the categories of the 52-card deck, which the royalty
# tables take); ALL_CATEGORIES is the whole shared scale, index 10 for it.
FIVE_OF_A_KIND = "five-of-a-kind"
ALL_CATEGORIES: tuple[str, ...] = (*CATEGORIES, FIVE_OF_A_KIND)

THREE_CARD_CATEGORIES: tuple[str, ...] = ("high-card", "pair", "trips")

# docs/rules.md, "The naturals", in table order: two-full-houses after
# the fifteen before it, so that they keep their bits, and the four naturals
# of larger decks ("Naturals of larger decks") last.
NATURAL_NAMES: tuple[str, ...] = (
    "clean-dragon",
    "dragon",
    "twelve-royals",
    "three-straight-flushes",
    "three-quads",
    "all-high",
    "all-low",
    "full-colored",
    "twelve-same-color",
    "four-triples",
    "five-pairs-trips",
    "six-pairs",
    "three-straights",
    "three-flushes",
    "no-picture-cards",
    "two-full-houses",
    "six-of-a-kind",
    "seven-of-a-kind",
    "eight-of-a-kind",
    "two-five-of-a-kinds",
)

# Naturals whose equal pairs are compared under ``naturals.ties = "compare"``
# (docs/rules.md, "Natural against natural").
COMPARABLE_NATURALS: frozenset[str] = frozenset(
    {
        "six-pairs",
        "five-pairs-trips",
        "four-triples",
        "three-quads",
        "six-of-a-kind",
        "seven-of-a-kind",
        "eight-of-a-kind",
        "two-five-of-a-kinds",
    }
)

ROWS: tuple[str, ...] = ("top", "middle", "bottom")
ROW_SIZES: dict[str, int] = {"top": 3, "middle": 5, "bottom": 5}

SUIT_LETTERS = "dchs"  # index = suit number in the card id
RED_SUITS = frozenset({0, 2})  # diamonds, hearts
BLACK_SUITS = frozenset({1, 3})  # clubs, spades
ACE = 14

# docs/rules.md, "Decks: added suits, two decks and jokers": a second copy
# is its first copy's id plus 52; the jokers follow the 104 copies.
FACES = 52  # rank-and-suit faces, the ids of the first copies
BLACK_JOKER = 104
RED_JOKER = 105


def rank_of(card: int) -> int:
    """The rank 2..14 of a card id other than a joker (either copy)."""
    return card % FACES // 4 + 2


def suit_of(card: int) -> int:
    """The suit number 0..3 (d c h s) of a card id other than a joker."""
    return card % 4


# ---------------------------------------------------------------------------
# Rules data
# ---------------------------------------------------------------------------


def default_rules() -> dict[str, Any]:
    """The capsa-susun preset (docs/rules.md, "Presets"), written out by hand:
    a new nested dict on every call. Raises nothing."""
    return {
        "name": "capsa-susun",
        "tie_break": "suit",
        "suit_order": "shcd",
        "flush_compare": "ranks",
        "wheel": "low",
        "foul_check": "allow-equal",
        "row_points": 1,
        "overall_point": 0,
        "royalty_mode": "winner",
        "royalty_adds": True,
        "scoop": {"multiplier": 2, "bonus": 0, "multiply_royalties": False},
        "sweep_all": {"multiplier": 4, "bonus": 0, "min_players": 4},
        "foul": {"mode": "sweep-all", "points": 0, "pays_royalties": True},
        "surrender": {"enabled": False, "cost": 0},
        "naturals": {
            "resolve": "higher-wins",
            "ties": "push",
            "enabled": [
                {"name": "dragon", "points": 208},
                {"name": "three-flushes", "points": 3},
                {"name": "three-straights", "points": 3},
                {"name": "six-pairs", "points": 3},
            ],
        },
        "royalties": {
            "top": {"trips": 5},
            "middle": {
                "full-house": 3,
                "quads": 14,
                "straight-flush": 18,
                "royal-flush": 22,
            },
            "bottom": {"quads": 7, "straight-flush": 9, "royal-flush": 11},
        },
        "money": {
            "stake": 1,
            "rake_basis_points": 300,
            "rake_minimum_pot": 0,
            "rake_cap_per_pot": 0,
            "rake_cap_per_round": 0,
        },
    }


# A scalar knob is described by (kind, allowed): kind "str" (allowed None =
# any string), "enum" (allowed = the strings), "bool", or "int" (allowed =
# (min, max) with max None for unbounded).
_Spec = tuple[str, Any]

_SCALARS: dict[str, _Spec] = {
    "name": ("str", None),
    "tie_break": ("enum", ("none", "suit")),
    "suit_order": ("suit_order", None),
    "flush_compare": ("enum", ("ranks", "suit-first")),
    "wheel": ("enum", ("low", "second")),
    "foul_check": ("enum", ("allow-equal", "strict")),
    "row_points": ("int", (0, None)),
    "overall_point": ("int", (0, None)),
    "royalty_mode": ("enum", ("winner", "always", "none")),
    "royalty_adds": ("bool", None),
}

_TABLES: dict[str, dict[str, _Spec]] = {
    "scoop": {
        "multiplier": ("int", (1, None)),
        "bonus": ("int", (0, None)),
        "multiply_royalties": ("bool", None),
        "by_seats": ("bool", None),
    },
    "sweep_all": {
        "multiplier": ("int", (1, None)),
        "bonus": ("int", (0, None)),
        "min_players": ("int", (2, 9)),
        "natural_opponents": ("enum", ("block", "exempt")),
    },
    "foul": {
        "mode": ("enum", ("sweep-all", "scoop", "fixed", "none", "refuse")),
        "points": ("int", (0, None)),
        "pays_royalties": ("bool", None),
    },
    "surrender": {
        "enabled": ("bool", None),
        "cost": ("int", (0, None)),
    },
    "naturals": {
        "resolve": ("enum", ("higher-wins", "difference")),
        "ties": ("enum", ("push", "compare")),
        "enabled": ("naturals", None),
    },
    "horse": {
        "card": ("card", None),
        "multiplier": ("int", (1, None)),
        "naturals": ("bool", None),
    },
    "cap": {
        "pair": ("int", (0, None)),
        "scoop": ("int", (0, None)),
        "sweep_all": ("int", (0, None)),
        "stage": ("enum", ("pair", "final")),
    },
    "banker": {
        "enabled": ("bool", None),
        "wins_ties": ("bool", None),
        "max_multiplier": ("int", (1, 100)),
    },
    "money": {
        "stake": ("int", (0, None)),
        "rake_basis_points": ("int", (0, 10_000)),
        "rake_minimum_pot": ("int", (0, None)),
        "rake_cap_per_pot": ("int", (0, None)),
        "rake_cap_per_round": ("int", (0, None)),
    },
    "deck": {
        "added_suits": ("added_suits", None),
        "decks": ("int", (1, 2)),
        "jokers": ("int", (0, 2)),
    },
}

# The royalties of five of a kind, in the middle and at the bottom only (a
# top row never holds five of a kind), and of a top holding both jokers
# (docs/rules.md, "Tables of larger decks"): keys of the ``[royalties]``
# table beside its rows.
_ROYALTY_SCALARS: dict[str, _Spec] = {
    "middle_five_of_a_kind": ("int", (0, None)),
    "bottom_five_of_a_kind": ("int", (0, None)),
    "top_two_jokers": ("int", (0, None)),
}

# The knobs of scoop by seats, exempt sweeps, the horse card, caps, banker
# games, the deck and the royalties of five of a kind at their defaults,
# which settle and rank as rules without them did. They are in the rules
# dict only when given and not at their default, so that rules written
# before them read back as written; the settlement and the ranking read them
# through :func:`_knob`.
NEW_KNOB_DEFAULTS: dict[str, Any] = {
    "scoop.by_seats": False,
    "sweep_all.natural_opponents": "block",
    "horse.card": None,
    "horse.multiplier": 2,
    "horse.naturals": True,
    "cap.pair": 0,
    "cap.scoop": 0,
    "cap.sweep_all": 0,
    "cap.stage": "pair",
    "banker.enabled": False,
    "banker.wins_ties": False,
    "banker.max_multiplier": 1,
    "deck.added_suits": "none",
    "deck.decks": 1,
    "deck.jokers": 0,
    "royalties.middle_five_of_a_kind": 0,
    "royalties.bottom_five_of_a_kind": 0,
    "royalties.top_two_jokers": 0,
}

RANK_LETTERS = "23456789TJQKA"  # index + 2 = rank

# naturals.enabled entry fields beyond name and points: the naturals each
# may be given for (None: any natural).
_ENTRY_FIELDS: dict[str, frozenset[str] | None] = {
    "lowest": frozenset({"all-high"}),
    "highest": frozenset({"all-low"}),
    "count": frozenset({"twelve-royals"}),
    "exactly": frozenset({"twelve-same-color"}),
    "same_tier": None,
    "raised_points": None,
    "raised_by": None,
    "must_declare": None,
    "bonus": None,
}

# The entry fields' defaults: a field given at its default is left out of
# the rules dict, as a field left out is.
_ENTRY_DEFAULTS: dict[str, Any] = {
    "lowest": "8",
    "highest": "8",
    "count": 12,
    "exactly": False,
    "same_tier": False,
    "must_declare": False,
    "bonus": False,
}

# The naturals a straight flush can raise (some split of their shape has
# five-card rows a straight flush may be).
_RAISED_BY_STRAIGHT_FLUSH = frozenset({"three-straights", "three-flushes"})


def _knob(rules: Mapping[str, Any], dotted: str) -> Any:
    """A knob of ``NEW_KNOB_DEFAULTS``, its default when the rules
    dict does not hold it."""
    table, sub = dotted.split(".")
    given = rules.get(table)
    if isinstance(given, Mapping) and sub in given:
        return given[sub]
    return NEW_KNOB_DEFAULTS[dotted]


def _rank_from_text(key: str, value: Any) -> int:
    """A rank letter (``2``..``9``, ``T``/``10``, ``J``, ``Q``, ``K``, ``A``,
    either case) as its rank 2..14."""
    if not isinstance(value, str):
        _fail(f"{key}: expected a rank letter, got {value!r}")
    text = value.upper()
    if text == "10":
        text = "T"
    if len(text) != 1 or text not in RANK_LETTERS:
        _fail(f"{key}: expected a rank letter 2..9, T, J, Q, K or A, got {value!r}")
    return RANK_LETTERS.index(text) + 2


_SUIT_SYMBOLS = {"♠": "s", "♤": "s", "♥": "h", "♡": "h", "♣": "c", "♧": "c", "♦": "d", "♢": "d"}


def _card_from_text(key: str, value: Any) -> int:
    """A card as text (``"Ah"``, ``"10h"``, ``"a♥"``) as its id."""
    if not isinstance(value, str) or len(value) < 2:
        _fail(f'{key}: expected a card such as "Ah", got {value!r}')
    rank = _rank_from_text(key, value[:-1])
    suit = _SUIT_SYMBOLS.get(value[-1], value[-1].lower())
    if suit not in SUIT_LETTERS:
        _fail(f'{key}: expected a card such as "Ah", got {value!r}')
    return 4 * (rank - 2) + SUIT_LETTERS.index(suit)


def _card_text(card: int) -> str:
    return RANK_LETTERS[rank_of(card) - 2] + SUIT_LETTERS[suit_of(card)]


# The rate's older form, whole percent: read as 100 basis points a percent,
# never written (docs/rules.md, "Money, rake and exactness").
_PERCENT = "rake_percent"
_BASIS_POINTS = "rake_basis_points"


def _fail(message: str) -> NoReturn:
    """Every bad input (wrong type, bad value, unknown key) is a ValueError."""
    raise ValueError(message)


def _check_int(key: str, value: Any, low: int, high: int | None) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        _fail(f"{key}: expected an integer, got {value!r}")
    if value < low or (high is not None and value > high):
        upper = "" if high is None else f"..{high}"
        _fail(f"{key}: {value} is out of range {low}{upper}")
    return value


def _check_scalar(key: str, spec: _Spec, value: Any) -> Any:
    kind, allowed = spec
    if kind == "int":
        low, high = allowed
        return _check_int(key, value, low, high)
    if kind == "bool":
        if not isinstance(value, bool):
            _fail(f"{key}: expected true or false, got {value!r}")
        return value
    if kind == "str":
        if not isinstance(value, str):
            _fail(f"{key}: expected a string, got {value!r}")
        return value
    if kind == "enum":
        if not isinstance(value, str) or value not in allowed:
            _fail(f"{key}: expected one of {list(allowed)}, got {value!r}")
        return value
    if kind == "suit_order":
        if not isinstance(value, str) or sorted(value) != sorted("shcd"):
            _fail(f"{key}: expected the four suit letters s h c d in some order, got {value!r}")
        return value
    if kind == "added_suits":
        # "none", or one or two suits entering a second time, each suit
        # letter once, written strongest first by the default order s h c d
        # (docs/rules.md, "Decks: added suits, two decks and jokers").
        if value == "none":
            return value
        if (
            not isinstance(value, str)
            or not 1 <= len(value) <= 2
            or len(set(value)) != len(value)
            or any(letter not in SUIT_LETTERS for letter in value)
            or value != "".join(sorted(value, key="shcd".index))
        ):
            _fail(
                f'{key}: expected "none" or one or two distinct suit letters, strongest '
                f"first by s h c d, got {value!r}"
            )
        return value
    if kind == "naturals":
        return _check_naturals(key, value)
    if kind == "card":
        # None (a dict's way of giving no card) is the default: no horse card.
        return None if value is None else _card_text(_card_from_text(key, value))
    raise AssertionError(kind)  # pragma: no cover


def _check_entry_field(where: str, name: str, field: str, value: Any) -> Any:
    """One optional field of a naturals entry, in its written form."""
    key = f"{where}.{field}"
    if field in ("lowest", "highest"):
        return RANK_LETTERS[_rank_from_text(key, value) - 2]
    if field == "count":
        if isinstance(value, bool) or value not in (12, 13):
            _fail(f"{key}: expected 12 or 13, got {value!r}")
        return value
    if field == "raised_points":
        return _check_int(key, value, 0, None)
    if field == "raised_by":
        if value not in ("quads", "straight-flush"):
            _fail(f"{key}: expected one of ['quads', 'straight-flush'], got {value!r}")
        if value == "straight-flush" and name not in _RAISED_BY_STRAIGHT_FLUSH:
            _fail(f"{key}: a straight flush raises three-straights and three-flushes only")
        return value
    if not isinstance(value, bool):
        _fail(f"{key}: expected true or false, got {value!r}")
    return value


def _check_naturals(key: str, value: Any) -> list[dict[str, Any]]:
    if isinstance(value, (str, bytes)) or not isinstance(value, Sequence):
        _fail(f"{key}: expected a list of {{name, points}} tables")
    result: list[dict[str, Any]] = []
    seen: set[str] = set()
    for index, entry in enumerate(value):
        where = f"{key}[{index}]"
        if not isinstance(entry, Mapping):
            _fail(f"{where}: expected a {{name, points}} table")
        for extra in entry:
            if extra not in ("name", "points") and extra not in _ENTRY_FIELDS:
                _fail(f"{where}.{extra}: unknown key")
        if "name" not in entry or "points" not in entry:
            _fail(f"{where}: needs both name and points")
        name = entry["name"]
        if not isinstance(name, str) or name not in NATURAL_NAMES:
            _fail(f"{where}.name: unknown natural {name!r}")
        if name in seen:
            _fail(f"{where}.name: natural {name!r} listed twice")
        seen.add(name)
        where = f"{where} ({name})"
        points = _check_int(f"{where}.points", entry["points"], 0, None)
        checked: dict[str, Any] = {"name": name, "points": points}
        for field, applies in _ENTRY_FIELDS.items():
            if field not in entry:
                continue
            if applies is not None and name not in applies:
                _fail(
                    f"{where}.{field}: not a field of {name} (only of {', '.join(sorted(applies))})"
                )
            if field == "same_tier" and index == 0 and entry[field] is True:
                _fail(f"{where}.same_tier: the first entry has no entry before it to share a tier")
            value = _check_entry_field(where, name, field, entry[field])
            if value != _ENTRY_DEFAULTS.get(field):
                checked[field] = value  # a field at its default is left out
        if ("raised_points" in checked) != ("raised_by" in checked):
            _fail(f"{where}: raised_points and raised_by go together, give both or neither")
        result.append(checked)
    return result


def _check_royalty_row(row: str, value: Any) -> dict[str, int]:
    key = f"royalties.{row}"
    if not isinstance(value, Mapping):
        _fail(f"{key}: expected a table of category = points")
    allowed = THREE_CARD_CATEGORIES if row == "top" else CATEGORIES
    result: dict[str, int] = {}
    for cat, points in value.items():
        if cat not in allowed:
            _fail(f"{key}.{cat}: not a category of the {row} row")
        result[cat] = _check_int(f"{key}.{cat}", points, 0, None)
    return result


def _check_royalty_by_rank(row: str, value: Any) -> dict[str, dict[str, int]]:
    """A ``royalties.<row>_by_rank`` table: category -> rank letter -> points,
    rank keys written as the upper-case letter (``T`` for ten)."""
    key = f"royalties.{row}_by_rank"
    if not isinstance(value, Mapping):
        _fail(f"{key}: expected a table of category = {{ rank = points }}")
    allowed = THREE_CARD_CATEGORIES if row == "top" else CATEGORIES
    result: dict[str, dict[str, int]] = {}
    for cat, ranks in value.items():
        if cat not in allowed:
            _fail(f"{key}.{cat}: not a category of the {row} row")
        if not isinstance(ranks, Mapping):
            _fail(f"{key}.{cat}: expected a table of rank = points")
        table: dict[str, int] = {}
        for rank, points in ranks.items():
            letter = RANK_LETTERS[_rank_from_text(f"{key}.{cat}.{rank}", rank) - 2]
            if letter in table:
                _fail(f"{key}.{cat}.{rank}: rank {letter} given twice")
            table[letter] = _check_int(f"{key}.{cat}.{rank}", points, 0, None)
        result[cat] = table
    return result


def _rate_as_basis_points(money: Mapping[str, Any]) -> Mapping[str, Any]:
    """The money table with an older ``rake_percent = p`` read as
    ``rake_basis_points = 100 * p``; both at once is refused."""
    if _PERCENT not in money:
        return money
    if _BASIS_POINTS in money:
        _fail(f"money.{_PERCENT} and money.{_BASIS_POINTS}: give one rake rate, not both")
    percent = _check_int(f"money.{_PERCENT}", money[_PERCENT], 0, 100)
    rest = {sub: value for sub, value in money.items() if sub != _PERCENT}
    return {**rest, _BASIS_POINTS: 100 * percent}


def load_rules(source: str | Mapping[str, Any]) -> dict[str, Any]:
    """Read rules from TOML text or a (possibly partial) mapping.

    Missing keys take the capsa-susun value, key by key inside tables; a
    royalty row table, a ``royalties.<row>_by_rank`` table or the
    ``naturals.enabled`` list, when given, replaces the default one whole.
    ``money.rake_percent = p``, the rake rate's older form, is read as
    ``money.rake_basis_points = 100 * p``. The ``[deck]`` knobs
    (``added_suits``: ``"none"`` or one or two distinct suit letters of
    ``shcd``, written strongest first by the default order, ``""`` read as
    ``"none"``; ``decks``: 1 or 2, and 2 only without added suits;
    ``jokers``: 0..2) and ``royalties.middle_five_of_a_kind``,
    ``royalties.bottom_five_of_a_kind`` and ``royalties.top_two_jokers``
    (integers >= 0) are among the knobs
    of ``NEW_KNOB_DEFAULTS``. Returns
    the full rules as a new
    nested dict; the knobs of ``NEW_KNOB_DEFAULTS``, ranked royalty tables
    and a naturals entry's optional fields are in it only when given and not
    at their defaults (an empty ranked table is a default), in their written
    form (rank letters upper case, ``T`` for ten, a card as ``"Ah"``), so
    that rules written before those knobs read as written; :func:`settle`
    reads them at their defaults when absent.

    Raises ``ValueError`` naming the dotted key for unknown keys, wrong
    types and out-of-range values (a naturals entry's field names the entry
    and the field, and a field of another natural, ``same_tier = true`` on the
    first entry, ``raised_points`` without ``raised_by`` or the other way
    round, and ``raised_by = "straight-flush"`` on a natural other than
    three-straights and three-flushes are refused), for both rake rates at
    once and for added suits under two decks (naming ``deck.added_suits``),
    ``ValueError`` for a ``source`` that is
    neither a str nor a mapping, and ``tomllib.TOMLDecodeError`` (a
    ``ValueError``) for malformed TOML.
    """
    if isinstance(source, str):
        data: Mapping[str, Any] = tomllib.loads(source)
    elif isinstance(source, Mapping):
        data = source
    else:
        _fail(f"rules: expected TOML text or a mapping, got {type(source)}")

    rules = default_rules()
    for key, value in data.items():
        if key in _SCALARS:
            rules[key] = _check_scalar(key, _SCALARS[key], value)
        elif key in _TABLES:
            if not isinstance(value, Mapping):
                _fail(f"{key}: expected a table")
            specs = _TABLES[key]
            if key == "money":
                value = _rate_as_basis_points(value)
            table = rules.setdefault(key, {})
            for sub, subvalue in value.items():
                dotted = f"{key}.{sub}"
                if sub not in specs:
                    _fail(f"{dotted}: unknown key")
                table[sub] = _check_scalar(dotted, specs[sub], subvalue)
        elif key == "royalties":
            if not isinstance(value, Mapping):
                _fail(f"{key}: expected a table")
            for row, table in value.items():
                if row in ROWS:
                    rules["royalties"][row] = _check_royalty_row(row, table)
                elif row.endswith("_by_rank") and row[: -len("_by_rank")] in ROWS:
                    rules["royalties"][row] = _check_royalty_by_rank(row[: -len("_by_rank")], table)
                elif row in _ROYALTY_SCALARS:
                    dotted = f"royalties.{row}"
                    rules["royalties"][row] = _check_scalar(dotted, _ROYALTY_SCALARS[row], table)
                else:
                    _fail(f"royalties.{row}: unknown key")
        else:
            _fail(f"{key}: unknown key")
    if _knob(rules, "deck.decks") == 2 and _knob(rules, "deck.added_suits") != "none":
        _fail(
            "deck.added_suits: no suit is added to two decks (deck.decks = 2), got "
            f"{_knob(rules, 'deck.added_suits')!r}"
        )
    return _without_new_defaults(rules)


def _without_new_defaults(rules: dict[str, Any]) -> dict[str, Any]:
    """The rules with each knob of ``NEW_KNOB_DEFAULTS`` at its default and
    each empty ranked royalty table left out (a table left empty too), so
    that rules read the same whether a default is written or not."""
    out = copy.deepcopy(rules)
    for dotted, default in NEW_KNOB_DEFAULTS.items():
        table, sub = dotted.split(".")
        if table in out and sub in out[table] and out[table][sub] == default:
            del out[table][sub]
            if not out[table]:
                del out[table]
    for row in ROWS:
        if out["royalties"].get(f"{row}_by_rank") == {}:
            del out["royalties"][f"{row}_by_rank"]
    return out


# ---------------------------------------------------------------------------
# Hands
# ---------------------------------------------------------------------------


def _deck_ids(rules: Mapping[str, Any] | None) -> frozenset[int]:
    """The card ids of the rules' deck (docs/rules.md,
    "Decks: added suits, two decks and jokers"): the 52 first copies; the
    second copy ``52 + x`` of every card when ``deck.decks = 2``, else of
    the cards whose suit is in ``deck.added_suits``; the black joker 104
    with one joker or more, the red joker 105 with two. ``None`` is the
    52-card deck."""
    ids = set(range(FACES))
    if rules is None:
        return frozenset(ids)
    added: str = _knob(rules, "deck.added_suits").replace("none", "")
    two_decks = _knob(rules, "deck.decks") == 2
    for face in range(FACES):
        if two_decks or SUIT_LETTERS[suit_of(face)] in added:
            ids.add(FACES + face)
    jokers: int = _knob(rules, "deck.jokers")
    if jokers >= 1:
        ids.add(BLACK_JOKER)
    if jokers >= 2:
        ids.add(RED_JOKER)
    return frozenset(ids)


def _deck_text(rules: Mapping[str, Any] | None) -> str:
    """The rules' deck in words, for error messages."""
    if rules is None:
        return "the 52-card deck"
    parts = ["two decks" if _knob(rules, "deck.decks") == 2 else "one deck"]
    if _knob(rules, "deck.added_suits") != "none":
        parts.append(f"added suits {_knob(rules, 'deck.added_suits')!r}")
    jokers: int = _knob(rules, "deck.jokers")
    parts.append(f"{jokers} joker{'' if jokers == 1 else 's'}")
    return f"the deck of {len(_deck_ids(rules))} cards ({', '.join(parts)})"


def _check_cards(
    cards: Sequence[int],
    sizes: tuple[int, ...],
    what: str,
    rules: Mapping[str, Any] | None = None,
) -> None:
    """Refuses a hand of another size than ``sizes``, an id that is not an
    integer of the rules' deck (``rules = None``: the 52-card deck) or an id
    given twice. Two copies of one face are two ids, and may both be
    there."""
    if len(cards) not in sizes:
        _fail(f"{what}: expected {' or '.join(map(str, sizes))} cards, got {len(cards)}")
    deck = _deck_ids(rules)
    # The 52-card deck's message as before the larger decks.
    wanted = "an integer 0..51" if len(deck) == FACES else f"a card of {_deck_text(rules)}"
    for card in cards:
        # Any integer type (int, numpy integers) is accepted; bool is not.
        if isinstance(card, bool) or not isinstance(card, Integral) or int(card) not in deck:
            _fail(f"{what}: card id {card!r} is not {wanted}")
    if len({int(c) for c in cards}) != len(cards):
        _fail(f"{what}: duplicate cards")


def _five_card_straight_top(ranks: Sequence[int]) -> int | None:
    """The top card of a five-card straight (5 for A-2-3-4-5), else None."""
    distinct = sorted(set(ranks))
    if len(distinct) != 5:
        return None
    if distinct == [2, 3, 4, 5, ACE]:
        return 5
    if distinct[4] - distinct[0] == 4:
        return distinct[4]
    return None


def _straight_position(top: int, rules: Mapping[str, Any]) -> int:
    """Position of a straight in the straight order, 0 = lowest."""
    # The straights listed by their top card (5 is A-2-3-4-5), weakest first.
    if rules["wheel"] == "low":
        order = [5, 6, 7, 8, 9, 10, 11, 12, 13, 14]
    else:
        order = [6, 7, 8, 9, 10, 11, 12, 13, 5, 14]
    return order.index(top)


def _suit_strength(suit: int, rules: Mapping[str, Any]) -> int:
    """Higher is stronger: suit_order lists the strongest first."""
    order: str = rules["suit_order"]
    return 3 - order.index(SUIT_LETTERS[suit])


def _category_name(faces: Sequence[int]) -> str:
    """The category of 3 or 5 faces (ids 0..51, a face possibly repeated:
    two copies of a card, or a joker given a card's face)."""
    ranks = [rank_of(c) for c in faces]
    counts = sorted(Counter(ranks).values(), reverse=True)
    if len(faces) == 3:
        # A top row holds at most trips.
        if counts[0] == 3:
            return "trips"
        if counts[0] == 2:
            return "pair"
        return "high-card"
    if counts[0] == 5:
        return FIVE_OF_A_KIND
    one_suit = len({suit_of(c) for c in faces}) == 1
    top = _five_card_straight_top(ranks)  # five distinct ranks: no pair
    if one_suit and top is not None:
        return "royal-flush" if sorted(ranks) == [10, 11, 12, 13, ACE] else "straight-flush"
    if counts[0] == 4:
        return "quads"
    if counts == [3, 2]:
        return "full-house"
    # A flush holds no pair, one pair, two pairs or trips (three faces of
    # one rank need a joker); quads or a full house of one suit are quads
    # or a full house, above.
    if one_suit:
        return "flush"
    if top is not None:
        return "straight"
    if counts[0] == 3:
        return "trips"
    if counts == [2, 2, 1]:
        return "two-pair"
    if counts[0] == 2:
        return "pair"
    return "high-card"


HandKey = tuple[int, tuple[int, ...], tuple[int, ...]]


# The knobs a hand's strength depends on (docs/rules.md, "Hand ranking").
_RANKING_KNOBS = ("tie_break", "suit_order", "flush_compare", "wheel")


def _face_key(faces: Sequence[int], rules: Mapping[str, Any]) -> HandKey:
    """The sortable strength of 3 or 5 faces under the rules (see
    :func:`_face_key_of`), remembered: a joker row tries many faces, and the
    rows of one hand share many of them."""
    knobs = tuple(rules[name] for name in _RANKING_KNOBS)
    return _face_key_remembered(tuple(sorted(faces)), knobs)


@lru_cache(maxsize=1 << 17)
def _face_key_remembered(faces: tuple[int, ...], knobs: tuple[str, ...]) -> HandKey:
    """:func:`_face_key_of` of faces in ascending order (a hand's strength
    does not depend on the order of its cards) under the ranking knobs."""
    return _face_key_of(faces, dict(zip(_RANKING_KNOBS, knobs, strict=True)))


def _face_key_of(faces: Sequence[int], rules: Mapping[str, Any]) -> HandKey:
    """The sortable strength of 3 or 5 faces (ids 0..51, a face possibly
    repeated): (category index on the shared scale, rank vector, suit
    vector).

    Python compares tuples element by element and a proper prefix is
    smaller, which is exactly the rule of
    docs/rules.md, "Three cards against five". The suit vector is empty
    unless ``tie_break = "suit"``; two copies of a face have one suit, so a
    row and its copy tie.
    """
    cat = _category_name(faces)
    ranks = [rank_of(c) for c in faces]
    counts = Counter(ranks)

    # Significance order: larger rank groups first, then higher rank, then
    # the stronger suit.
    ordered = sorted(
        faces,
        key=lambda c: (
            counts[rank_of(c)],
            rank_of(c),
            _suit_strength(suit_of(c), rules),
        ),
        reverse=True,
    )

    rank_vector: tuple[int, ...]
    if cat in ("straight", "straight-flush", "royal-flush"):
        top = _five_card_straight_top(ranks)
        assert top is not None
        rank_vector = (_straight_position(top, rules),)
        if top == 5:
            # A-2-3-4-5: the ace is the lowest card under wheel = "low",
            # the highest under "second".
            ace_value = 1 if rules["wheel"] == "low" else 15
            ordered = sorted(
                faces,
                key=lambda c: ace_value if rank_of(c) == ACE else rank_of(c),
                reverse=True,
            )
    else:
        # Group ranks: each rank once, in significance order. This gives
        # five of a kind: its rank; quads: quad, kicker; full house: trips,
        # pair; trips: trips, kickers; two pair: high, low, kicker; pair:
        # pair, kickers; flush holding trips: trips, the other two high to
        # low; flush with two pairs: high pair, low pair, fifth card; flush
        # with one pair: pair, the other three high to low; flush and high
        # card: all ranks high to low.
        rank_vector = tuple(sorted(counts, key=lambda r: (counts[r], r), reverse=True))
        if cat == "flush":
            # A flush's kind: 0 no repeated face, 1 one pair, 2 two pairs,
            # 3 trips; every flush of a kind is above every flush of a lower
            # kind. Under suit-first the flush's suit decides next, between
            # flushes of the same kind, then the ranks.
            pairs = sum(1 for r in counts if counts[r] == 2)
            kind = 3 if max(counts.values()) == 3 else pairs
            if rules["flush_compare"] == "suit-first":
                rank_vector = (_suit_strength(suit_of(faces[0]), rules), *rank_vector)
            rank_vector = (kind, *rank_vector)

    suit_vector: tuple[int, ...] = ()
    if rules["tie_break"] == "suit":
        suit_vector = tuple(_suit_strength(suit_of(c), rules) for c in ordered)
    return (ALL_CATEGORIES.index(cat), rank_vector, suit_vector)


def _best_faces(cards: Sequence[int], rules: Mapping[str, Any]) -> tuple[HandKey, tuple[int, ...]]:
    """The strongest key of a hand of card ids under the rules, and faces
    giving it (docs/rules.md, "Copies, five of a kind and jokers": jokers
    are wild).

    A copy plays as its face (``id % 52``). Each joker takes any of the 52
    faces, a face already in the row included, and the row is ranked as if
    the jokers were those cards; the jokers together take the faces that make
    the row strongest. By brute force: every choice of faces for the jokers
    is ranked and the strongest kept. A key depends on the faces alone, not
    on which joker took which, so each multiset of faces is tried once.
    """
    faces = tuple(int(c) % FACES for c in cards if int(c) < BLACK_JOKER)
    jokers = len(cards) - len(faces)
    best: tuple[HandKey, tuple[int, ...]] | None = None
    for wild in combinations_with_replacement(range(FACES), jokers):
        row = faces + wild
        key = _face_key(row, rules)
        if best is None or key > best[0]:
            best = (key, row)
    assert best is not None
    return best


def _key(cards: Sequence[int], rules: Mapping[str, Any]) -> HandKey:
    """A sortable strength of a hand of card ids: (category index, rank
    vector, suit vector) of the strongest faces it can take (see
    :func:`_face_key` and :func:`_best_faces`)."""
    return _best_faces(cards, rules)[0]


def category(cards: Sequence[int], rules: Mapping[str, Any]) -> str:
    """The category name of a 3- or 5-card hand of ids (one of
    ``ALL_CATEGORIES``; only a deck with copies or jokers makes
    ``five-of-a-kind``), a joker taking the face that makes the hand
    strongest. The rules give the deck; the category does not depend on the
    ranking knobs. Raises ``ValueError`` for other than 3 or 5 cards, an id
    that is not an integer of the rules' deck, or a repeated id."""
    _check_cards(cards, (3, 5), "hand", rules)
    return ALL_CATEGORIES[_key(cards, rules)[0]]


def compare(a: Sequence[int], b: Sequence[int], rules: Mapping[str, Any]) -> int:
    """-1, 0 or 1 as hand a is below, equal to or above hand b under the
    rules (each 3 or 5 ids of the rules' deck; the two may share ids).
    Raises ``ValueError`` for a hand of other than 3 or 5 cards, an id
    outside the rules' deck or an id repeated within a hand."""
    _check_cards(a, (3, 5), "hand a", rules)
    _check_cards(b, (3, 5), "hand b", rules)
    ka = _key(a, rules)
    kb = _key(b, rules)
    return (ka > kb) - (ka < kb)


def _is_foul_keys(top: HandKey, middle: HandKey, bottom: HandKey, rules: Mapping[str, Any]) -> bool:
    if rules["foul_check"] == "strict":
        return not (bottom > middle > top)
    return not (bottom >= middle >= top)


def is_foul(
    top: Sequence[int],
    middle: Sequence[int],
    bottom: Sequence[int],
    rules: Mapping[str, Any],
) -> bool:
    """True when the arrangement breaks bottom >= middle >= top (or > under
    strict) under the rules; ``top`` is 3 ids, ``middle`` and ``bottom`` 5
    each, of the rules' deck. Raises ``ValueError`` for a row of the wrong
    size, an id outside the rules' deck or an id repeated within a row."""
    _check_cards(top, (3,), "top", rules)
    _check_cards(middle, (5,), "middle", rules)
    _check_cards(bottom, (5,), "bottom", rules)
    return _is_foul_keys(_key(top, rules), _key(middle, rules), _key(bottom, rules), rules)


# ---------------------------------------------------------------------------
# Splits
# ---------------------------------------------------------------------------

Split = tuple[tuple[int, int, int], tuple[int, ...], tuple[int, ...]]


def splits(cards: Sequence[int], rules: Mapping[str, Any], valid_only: bool = True) -> list[Split]:
    """Every 3/5/5 split of 13 cards, in the documented order.

    The 13 cards are sorted by id; the top runs over the 3-combinations of
    the 13 positions in lexicographic order, and for each top the middle runs
    over the 5-combinations of the remaining 10 in lexicographic order; the
    bottom is the rest. Returns a list of (top, middle, bottom) tuples of
    ids: only the splits that do not foul unless ``valid_only`` is False.

    Raises ``ValueError`` for other than 13 cards, an id outside the rules'
    deck or a repeated id, ``TypeError`` for a ``valid_only`` that is not a
    bool.
    """
    if type(valid_only) is not bool:
        raise TypeError(f"valid_only must be true or false, not {type(valid_only).__name__}")
    _check_cards(cards, (13,), "hand", rules)
    hand = sorted(int(c) for c in cards)
    key_cache: dict[tuple[int, ...], HandKey] = {}

    def key_of(row: tuple[int, ...]) -> HandKey:
        if row not in key_cache:
            key_cache[row] = _key(row, rules)
        return key_cache[row]

    result: list[Split] = []
    for top in combinations(hand, 3):
        rest = [c for c in hand if c not in top]
        for middle in combinations(rest, 5):
            bottom = tuple(c for c in rest if c not in middle)
            if valid_only and _is_foul_keys(key_of(top), key_of(middle), key_of(bottom), rules):
                continue
            result.append(((top[0], top[1], top[2]), middle, bottom))
    return result


def count_splits(cards: Sequence[int], rules: Mapping[str, Any]) -> int:
    """The number of valid splits of 13 ids under the rules. Raises
    ``ValueError`` as :func:`splits` does."""
    return len(splits(cards, rules, valid_only=True))


# ---------------------------------------------------------------------------
# Naturals
# ---------------------------------------------------------------------------

# The naturals are judged on faces: a card's rank and suit, the id of its
# first copy (docs/rules.md, "Naturals of larger decks"). A second copy is
# its face again; a joker plays as any face, one the hand holds included.
# A hand "as played" is its 13 faces in ascending order, each joker given one.
Played = tuple[int, ...]

# The rows of a partition natural, in split order: top, middle, bottom.
_NATURAL_ROWS = (3, 5, 5)


def _three_card_straight_rank_sets() -> list[frozenset[int]]:
    # A-2-3, 2-3-4, ..., Q-K-A; K-A-2 is not a straight.
    sets = [frozenset({ACE, 2, 3})]
    sets += [frozenset({low, low + 1, low + 2}) for low in range(2, 13)]
    return sets


def _five_card_straight_rank_sets() -> list[frozenset[int]]:
    # A-2-3-4-5, 2-3-4-5-6, ..., T-J-Q-K-A.
    sets = [frozenset({ACE, 2, 3, 4, 5})]
    sets += [frozenset(range(low, low + 5)) for low in range(2, 11)]
    return sets


def _straight_rank_sets(size: int) -> list[frozenset[int]]:
    """The rank sets of the straights of a row of ``size`` (3 or 5) cards."""
    return _three_card_straight_rank_sets() if size == 3 else _five_card_straight_rank_sets()


RankCounts = tuple[tuple[int, int], ...]


def _rank_counts(faces: Sequence[int]) -> RankCounts:
    """The faces' rank counts as sorted (rank, count) pairs."""
    return tuple(sorted(Counter(rank_of(f) for f in faces).items()))


@lru_cache(maxsize=4)
def _straights_rank_counts(sizes: tuple[int, ...]) -> frozenset[RankCounts]:
    """The rank counts of rows of these sizes that are all straights (each
    row's ranks distinct, docs/rules.md, "The naturals"), built once by brute
    force over every straight of every row: 1,200 for 3 + 5 + 5."""
    found: set[RankCounts] = set()
    for rows in product(*(_straight_rank_sets(size) for size in sizes)):
        total: Counter[int] = Counter()
        for ranks in rows:
            total.update(ranks)
        found.add(tuple(sorted(total.items())))
    return frozenset(found)


@lru_cache(maxsize=2)
def _straight_flush_rows(size: int) -> tuple[Played, ...]:
    """Every straight flush of a row of ``size`` (3 or 5) cards, as faces."""
    return tuple(
        tuple(sorted(4 * (r - 2) + suit for r in ranks))
        for ranks in _straight_rank_sets(size)
        for suit in range(4)
    )


@lru_cache(maxsize=4)
def _flushes_suit_counts(sizes: tuple[int, ...]) -> frozenset[tuple[int, ...]]:
    """The suit counts (diamonds, clubs, hearts, spades) of rows of these
    sizes that are all flushes, built once by brute force over a suit for
    each row."""
    found: set[tuple[int, ...]] = set()
    for suits in product(range(4), repeat=len(sizes)):
        needed = [0, 0, 0, 0]
        for size, suit in zip(sizes, suits, strict=True):
            needed[suit] += size
        found.add(tuple(needed))
    return frozenset(found)


def _flushes_split(faces: Sequence[int], sizes: tuple[int, ...]) -> bool:
    """Whether the faces split into flushes of these sizes: only suits
    matter, so the faces' suit counts must be those of some suit for each
    row (a flush may hold both copies of a card)."""
    counts = Counter(suit_of(f) for f in faces)
    return tuple(counts[suit] for suit in range(4)) in _flushes_suit_counts(sizes)


def _straight_flushes_split(hand: Counter[int], sizes: tuple[int, ...]) -> bool:
    """Whether the faces counted in ``hand`` (as many as ``sizes`` sum to)
    split into straight flushes of these sizes, by brute force over the
    first row's straight flushes and the rest split again."""
    if not sizes:
        return True
    for row in _straight_flush_rows(sizes[0]):
        fits = all(hand[f] > 0 for f in row)
        if fits and _straight_flushes_split(hand - Counter(row), sizes[1:]):
            return True
    return False


def _splits_as(shape: str, faces: Sequence[int], sizes: tuple[int, ...]) -> bool:
    """Whether the faces split into rows of these sizes of the partition
    natural ``shape``'s kind: all straights (``three-straights``), all
    flushes (``three-flushes``) or all straight flushes (docs/rules.md, "The naturals")."""
    if shape == "three-straights":
        return _rank_counts(faces) in _straights_rank_counts(sizes)
    if shape == "three-flushes":
        return _flushes_split(faces, sizes)
    # Every row of such a split is a straight and a flush as well, so both
    # shapes must hold first (a quick way out of the brute force).
    return (
        _splits_as("three-straights", faces, sizes)
        and _splits_as("three-flushes", faces, sizes)
        and _straight_flushes_split(Counter(faces), sizes)
    )


def _count_naturals(cnt: Counter[int]) -> set[str]:
    """The naturals of the table that the rank counts decide, each as
    docs/rules.md, "The naturals" defines it for any deck."""
    counts = sorted(cnt.values())
    odd = [n for n in counts if n % 2 == 1]
    found: set[str] = set()
    if len(cnt) == 13:
        found.add("dragon")
    if sum(n // 4 for n in counts) >= 3:
        found.add("three-quads")
    if sum(n // 3 for n in counts) >= 4:
        found.add("four-triples")
    if len(odd) == 1 and odd[0] >= 3:
        found.add("five-pairs-trips")
    if sum(n // 2 for n in counts) >= 6:
        found.add("six-pairs")
    if counts == [1, 2, 2, 2, 3, 3]:
        found.add("two-full-houses")
    for name, least in (("six-of-a-kind", 6), ("seven-of-a-kind", 7), ("eight-of-a-kind", 8)):
        if counts[-1] >= least:
            found.add(name)
    if counts == [3, 5, 5]:
        found.add("two-five-of-a-kinds")
    return found


@lru_cache(maxsize=1 << 16)
def _face_naturals(played: Played) -> frozenset[str]:
    """Every natural 13 faces qualify for, at the table's default parameters
    (docs/rules.md, "The naturals" and "Naturals of larger decks")."""
    ranks = [rank_of(f) for f in played]
    suits = [suit_of(f) for f in played]
    found = _count_naturals(Counter(ranks))
    if len(set(suits)) == 1 and len(set(ranks)) == 13:
        found.add("clean-dragon")
    if sum(1 for r in ranks if r >= 11) >= 12:
        found.add("twelve-royals")
    if all(r >= 8 for r in ranks):
        found.add("all-high")
    if all(r <= 8 for r in ranks):
        found.add("all-low")
    if set(suits) <= RED_SUITS or set(suits) <= BLACK_SUITS:
        found.add("full-colored")
    red = sum(1 for s in suits if s in RED_SUITS)
    if red >= 12 or len(suits) - red >= 12:
        found.add("twelve-same-color")
    if not any(r in (11, 12, 13) for r in ranks):
        found.add("no-picture-cards")
    for shape in ("three-straight-flushes", "three-straights", "three-flushes"):
        if _splits_as(shape, played, _NATURAL_ROWS):
            found.add(shape)
    return frozenset(found)


@lru_cache(maxsize=256)
def _plays(faces: Played, jokers: int) -> tuple[tuple[Played, frozenset[str]], ...]:
    """Every way of playing a hand's jokers, given the faces of its other
    cards in ascending order (docs/rules.md, "Naturals of larger decks"):
    each joker plays as any of the 52 faces, one the hand holds included.
    Either joker plays alike, so each multiset of faces is one way. Each
    way is the 13 faces as played and the naturals they qualify for at
    their default parameters."""
    return tuple(
        (played, _face_naturals(played))
        for wild in combinations_with_replacement(range(FACES), jokers)
        for played in [tuple(sorted(faces + wild))]
    )


def _ways_to_play(cards: Sequence[int]) -> tuple[tuple[Played, frozenset[str]], ...]:
    """:func:`_plays` of 13 card ids: a copy as its face, jokers apart."""
    faces = tuple(sorted(int(c) % FACES for c in cards if int(c) < BLACK_JOKER))
    return _plays(faces, len(cards) - len(faces))


def naturals(cards: Sequence[int], rules: Mapping[str, Any] | None = None) -> frozenset[str]:
    """Every natural the 13 ids qualify for at the table's default
    parameters, whatever the rules enable, as a frozenset of names. Without
    ``rules`` the ids are of the 52-card deck (as the engine's ``naturals``
    reads them); with rules, of the rules' deck, a copy counting as its face
    and a natural counted when some way of playing the jokers qualifies for
    it (docs/rules.md, "Naturals of larger decks"). Raises ``ValueError``
    for other than 13 cards, an id outside the deck or a repeated id."""
    _check_cards(cards, (13,), "hand", rules)
    found: frozenset[str] = frozenset()
    for _, have in _ways_to_play(cards):
        found |= have
    return found


# The naturals that take a parameter ("A natural's entry").
_PARAMETER_NATURALS = frozenset({"all-high", "all-low", "twelve-royals", "twelve-same-color"})


def _qualifies(entry: Mapping[str, Any], played: Played, have: frozenset[str]) -> bool:
    """Whether 13 faces as played qualify for a naturals entry, its
    parameters applied (``have`` is :func:`_face_naturals` of them, the
    definitions at their default parameters)."""
    name = entry["name"]
    if name not in _PARAMETER_NATURALS:
        return name in have
    ranks = [rank_of(f) for f in played]
    if name == "all-high":
        lowest = RANK_LETTERS.index(entry.get("lowest", "8")) + 2
        return all(r >= lowest for r in ranks)
    if name == "all-low":
        highest = RANK_LETTERS.index(entry.get("highest", "8")) + 2
        return all(r <= highest for r in ranks)
    if name == "twelve-royals":
        return sum(1 for r in ranks if r >= 11) >= int(entry.get("count", 12))
    # twelve-same-color
    red = sum(1 for f in played if suit_of(f) in RED_SUITS)
    if entry.get("exactly", False):
        return red in (12, 1)
    return red >= 12 or red <= 1


def _raised(entry: Mapping[str, Any], played: Played) -> bool:
    """Whether the entry's ``raised_by`` holds for 13 faces as played
    (docs/rules.md, "A natural's entry"): four or more of a rank
    (``quads``), or some split of the natural's shape with a straight flush
    as one of its five-card rows (``straight-flush``)."""
    by = entry.get("raised_by")
    if by is None:
        return False
    if by == "quads":
        return max(Counter(rank_of(f) for f in played).values()) >= 4
    hand = Counter(played)
    for five in _straight_flush_rows(5):
        if all(hand[f] > 0 for f in five):
            rest = sorted((hand - Counter(five)).elements())
            if _splits_as(entry["name"], rest, _NATURAL_ROWS[:2]):
                return True
    return False


def _rank_groups(played: Sequence[int]) -> list[int]:
    """Ranks grouped, ordered by group size then rank, largest first
    (docs/rules.md, "Natural against natural")."""
    cnt = Counter(rank_of(f) for f in played)
    return sorted(cnt, key=lambda r: (cnt[r], r), reverse=True)


def _as_played(entry: Mapping[str, Any], qualifying: Sequence[Played]) -> tuple[Played, bool]:
    """The cards as played for a declared entry, of the ways of playing the
    jokers that qualify for it (docs/rules.md, "Naturals of larger decks"):
    one that raises it when one does, and of those the one whose rank groups
    are highest (the first such); and whether it raises it."""
    raising = [played for played in qualifying if _raised(entry, played)]
    pool = raising or list(qualifying)
    return max(pool, key=_rank_groups), bool(raising)


def declared_natural(
    cards: Sequence[int], rules: Mapping[str, Any], declare: bool = True
) -> dict[str, Any] | None:
    """The natural a seat holding the 13 ids (of the rules' deck) declares
    under the rules, or None: the earliest entry of ``naturals.enabled``
    that some way of playing the jokers qualifies for (its parameters
    applied), when ``declare`` is true or the entry is ``must_declare``.
    Returns ``{"index", "name", "points", "tier", "bonus", "played"}``: its
    place in the list, its points (``raised_points`` when the cards as
    played raise it), the index of the first entry of its tier, whether it
    is a bonus natural and the cards as played, 13 faces in ascending order
    (docs/rules.md, "Naturals of larger decks"). Raises ``ValueError`` for
    other than 13 cards, an id outside the rules' deck or a repeated id."""
    _check_cards(cards, (13,), "hand", rules)
    enabled = rules["naturals"]["enabled"]
    ways = _ways_to_play(cards) if enabled else ()
    tier = 0
    for index, entry in enumerate(enabled):
        if not entry.get("same_tier", False):
            tier = index
        qualifying = [played for played, have in ways if _qualifies(entry, played, have)]
        if not qualifying:
            continue
        if not (declare or entry.get("must_declare", False)):
            return None
        played, raised = _as_played(entry, qualifying)
        points: int = entry["raised_points"] if raised else entry["points"]
        return {
            "index": index,
            "name": entry["name"],
            "points": points,
            "tier": tier,
            "bonus": entry.get("bonus", False),
            "played": played,
        }
    return None


def natural(cards: Sequence[int], rules: Mapping[str, Any]) -> str | None:
    """The strongest natural enabled by the rules (the earliest in
    ``naturals.enabled``) that the 13 ids of the rules' deck qualify for,
    its entry's parameters applied and the jokers played any way
    (docs/rules.md, "Naturals of larger decks"), or None. Raises
    ``ValueError`` as :func:`declared_natural` does."""
    found = declared_natural(cards, rules)
    return None if found is None else str(found["name"])


def _settle_naturals(
    nat_i: Mapping[str, Any] | None,
    nat_j: Mapping[str, Any] | None,
    rules: Mapping[str, Any],
) -> int:
    """What i collects from j when at least one of them declared a natural
    that settles the pair (each a :func:`declared_natural` result), by
    docs/rules.md, "Natural against natural"."""
    if nat_j is None:
        assert nat_i is not None
        points_i: int = nat_i["points"]
        return points_i
    if nat_i is None:
        return -int(nat_j["points"])
    pi, pj = int(nat_i["points"]), int(nat_j["points"])
    if nat_i["index"] == nat_j["index"]:
        if rules["naturals"]["ties"] == "compare" and nat_i["name"] in COMPARABLE_NATURALS:
            # Compare the group ranks of the cards as played one by one; the
            # first difference decides. (Should one list be a prefix of the
            # other, the longer wins, as in the three-against-five-card
            # rule; identical lists push.)
            gi = _rank_groups(nat_i["played"])
            gj = _rank_groups(nat_j["played"])
            if gi > gj:
                return pi
            if gi < gj:
                return -pj
        return 0
    if nat_i["tier"] == nat_j["tier"]:
        return 0  # two naturals of one tier are as strong as each other
    difference = rules["naturals"]["resolve"] == "difference"
    if nat_i["tier"] < nat_j["tier"]:  # the earlier tier is the stronger
        return pi - pj if difference else pi
    return -(pj - pi) if difference else -pj


# ---------------------------------------------------------------------------
# Seeded deals
# ---------------------------------------------------------------------------

_MASK32 = 0xFFFFFFFF
# "expand 32-byte k" as four little-endian words (RFC 7539 section 2.3).
_CHACHA_CONSTANTS = (0x61707865, 0x3320646E, 0x79622D32, 0x6B206574)


def _rotl32(value: int, shift: int) -> int:
    return ((value << shift) | (value >> (32 - shift))) & _MASK32


def _quarter_round(state: list[int], a: int, b: int, c: int, d: int) -> None:
    """RFC 7539 section 2.1, on four words of the state."""
    state[a] = (state[a] + state[b]) & _MASK32
    state[d] = _rotl32(state[d] ^ state[a], 16)
    state[c] = (state[c] + state[d]) & _MASK32
    state[b] = _rotl32(state[b] ^ state[c], 12)
    state[a] = (state[a] + state[b]) & _MASK32
    state[d] = _rotl32(state[d] ^ state[a], 8)
    state[c] = (state[c] + state[d]) & _MASK32
    state[b] = _rotl32(state[b] ^ state[c], 7)


def chacha20_block(key: Sequence[int], counter: int, nonce: Sequence[int]) -> list[int]:
    """The ChaCha20 block function (RFC 7539 section 2.3): 8 key words,
    a 32-bit block counter and 3 nonce words in (each an int below 2**32),
    16 output words out. Raises ``ValueError`` for other than 8 key words or
    3 nonce words."""
    if len(key) != 8 or len(nonce) != 3:
        _fail("chacha20_block: expected 8 key words and 3 nonce words")
    initial = [*_CHACHA_CONSTANTS, *key, counter, *nonce]
    working = list(initial)
    for _ in range(10):  # 20 rounds: a column round then a diagonal round
        _quarter_round(working, 0, 4, 8, 12)
        _quarter_round(working, 1, 5, 9, 13)
        _quarter_round(working, 2, 6, 10, 14)
        _quarter_round(working, 3, 7, 11, 15)
        _quarter_round(working, 0, 5, 10, 15)
        _quarter_round(working, 1, 6, 11, 12)
        _quarter_round(working, 2, 7, 8, 13)
        _quarter_round(working, 3, 4, 9, 14)
    return [(w + i) & _MASK32 for w, i in zip(working, initial, strict=True)]


def _seeded_words(seed: int) -> Iterator[int]:
    """The 32-bit output words for a seed: the key is the seed as a
    little-endian 64-bit integer in key words 0-1, the rest zero; nonce zero;
    block counter from zero."""
    key = [seed & _MASK32, seed >> 32, 0, 0, 0, 0, 0, 0]
    counter = 0
    while True:
        yield from chacha20_block(key, counter, [0, 0, 0])
        counter += 1


def _uniform_below(words: Iterator[int], n: int) -> int:
    """A uniform integer in 0..n-1: words in the last partial run of n
    values of the 2**32 range are rejected, so there is no modulo bias."""
    limit = (1 << 32) - (1 << 32) % n
    while True:
        word = next(words)
        if word < limit:
            return word % n


def deal(seats: int, seed: int, rules: Mapping[str, Any] | None = None) -> list[list[int]]:
    """The seeded deal: the ids of the rules' deck (``rules = None``: the
    52-card deck) in ascending order, shuffled by Fisher-Yates from the top
    position down, each swap partner drawn from the seed's ChaCha20 stream;
    seat s holds deck positions 13s..13s+12, sorted (docs/api.md, "Seeded deals").
    Returns ``seats`` lists of 13 ids. Raises ``ValueError`` for ``seats``
    outside 2..4 (outside :func:`table_sizes` of the rules) or a ``seed``
    outside 0..2**64-1."""
    sizes = range(2, 5) if rules is None else table_sizes(rules)
    if seats not in sizes:
        _fail(f"seats: expected {sizes.start} to {sizes.stop - 1}, got {seats}")
    if not 0 <= seed < 1 << 64:
        _fail(f"seed: expected 0 <= seed < 2**64, got {seed}")
    words = _seeded_words(seed)
    deck = sorted(_deck_ids(rules))
    for top in range(len(deck) - 1, 0, -1):
        other = _uniform_below(words, top + 1)
        deck[top], deck[other] = deck[other], deck[top]
    return [sorted(deck[13 * s : 13 * s + 13]) for s in range(seats)]


# ---------------------------------------------------------------------------
# Provably fair deals (algorithm capsa-fair-1)
# ---------------------------------------------------------------------------

_FAIR_ALGORITHM = b"capsa-fair-1"


def fair_commitment(server_seed: bytes) -> str:
    """The commitment to a server seed: its SHA-256, as lowercase hex.
    Raises ``TypeError`` (from hashlib) for a seed that is not bytes."""
    return hashlib.sha256(server_seed).hexdigest()


def _fair_message(client_seeds: Sequence[str], nonce: int) -> bytes:
    """The algorithm's name, a zero byte, the nonce (8 bytes big-endian), the
    number of client seeds (4 bytes big-endian), then each client seed as its
    UTF-8 length (4 bytes big-endian) and its UTF-8 bytes."""
    parts = [_FAIR_ALGORITHM, b"\x00", nonce.to_bytes(8, "big")]
    parts.append(len(client_seeds).to_bytes(4, "big"))
    for seed in client_seeds:
        encoded = seed.encode("utf-8")
        parts += [len(encoded).to_bytes(4, "big"), encoded]
    return b"".join(parts)


def _fair_words(server_seed: bytes, client_seeds: Sequence[str], nonce: int) -> Iterator[int]:
    """Block i is HMAC-SHA256 keyed with the server seed over the message and
    i (8 bytes big-endian); each block's bytes are read 4 at a time as
    big-endian 32-bit words."""
    message = _fair_message(client_seeds, nonce)
    block = 0
    while True:
        mac = hmac.new(server_seed, message + block.to_bytes(8, "big"), hashlib.sha256).digest()
        for at in range(0, 32, 4):
            yield int.from_bytes(mac[at : at + 4], "big")
        block += 1


def fair_deal(
    seats: int,
    server_seed: bytes,
    client_seeds: Sequence[str],
    nonce: int,
    rules: Mapping[str, Any] | None = None,
) -> list[list[int]]:
    """The provably fair deal: the ids of the rules' deck (``rules = None``:
    the 52-card deck, 0..51) in ascending order, shuffled by Fisher-Yates
    from the top position down, each swap partner drawn by rejection from
    the HMAC word stream of the seeds and nonce; seat s holds deck positions
    13s..13s+12, sorted. Raises ``ValueError`` for seats outside 2..4
    (outside :func:`table_sizes` of the rules), a server seed that is not 32
    bytes or client seeds not one per seat."""
    sizes = range(2, 5) if rules is None else table_sizes(rules)
    if seats not in sizes:
        _fail(f"seats: expected {sizes.start} to {sizes.stop - 1}, got {seats}")
    if len(server_seed) != 32:
        _fail(f"server_seed: expected 32 bytes, got {len(server_seed)}")
    if client_seeds and len(client_seeds) != seats:
        _fail(f"client_seeds: expected one per seat or none, got {len(client_seeds)}")
    if not 0 <= nonce < 1 << 64:
        _fail(f"nonce: expected 0 <= nonce < 2**64, got {nonce}")
    words = _fair_words(server_seed, client_seeds, nonce)
    deck = sorted(_deck_ids(rules))
    for top in range(len(deck) - 1, 0, -1):
        other = _uniform_below(words, top + 1)
        deck[top], deck[other] = deck[other], deck[top]
    return [sorted(deck[13 * s : 13 * s + 13]) for s in range(seats)]


# ---------------------------------------------------------------------------
# Royalties and settlement
# ---------------------------------------------------------------------------


def key_rank(cards: Sequence[int], rules: Mapping[str, Any]) -> int:
    """The key rank (2..14) of a 3- or 5-card hand: the rank of its first
    card in significance order, the group's rank for quads, trips, full
    house and pair (the higher pair of two pair), the top card of a straight
    (the 5 of A-2-3-4-5 under ``wheel = "low"``, the ace under
    ``"second"``), the highest card otherwise; five of a kind's rank, and
    the trips' or the pair's rank (the higher pair's) of a flush holding
    them. A copy
    counts as its face and a joker as the face that makes the hand
    strongest (:func:`_best_faces`). Raises ``ValueError`` for other than 3
    or 5 cards, an id outside the rules' deck or a repeated id."""
    _check_cards(cards, (3, 5), "hand", rules)
    ranks = [rank_of(c) for c in _best_faces(cards, rules)[1]]
    if len(cards) == 5:
        top = _five_card_straight_top(ranks)
        if top is not None:
            return ACE if top == 5 and rules["wheel"] == "second" else top
    counts = Counter(ranks)
    return max(counts, key=lambda r: (counts[r], r))


def royalty(row: str, cards: Sequence[int], rules: Mapping[str, Any]) -> int:
    """The royalty of the hand in that row: ``royalties.<row>_by_rank``'s
    value for its category and key rank (:func:`key_rank`) when listed
    there, else the row table's value for its category (0 when neither
    lists it). ``row`` is ``"top"`` (3 ids), ``"middle"`` or ``"bottom"``
    (5 ids) of the rules' deck; the category is the row's as it ranks (a
    copy as its face, a joker as the face that makes the row strongest),
    and five of a kind pays ``royalties.middle_five_of_a_kind`` in the
    middle and ``royalties.bottom_five_of_a_kind`` at the bottom (0 unless
    set; docs/rules.md, "Tables of larger decks"), whatever the ranked and
    row tables say (they list no five of a kind); a top holding both
    jokers pays ``royalties.top_two_jokers`` when it is above 0. Raises ``ValueError`` for
    another row name or a row of the wrong size, an id outside the rules'
    deck or a repeated card."""
    if row not in ROWS:
        _fail(f"row: expected one of {list(ROWS)}, got {row!r}")
    _check_cards(cards, (ROW_SIZES[row],), row, rules)
    if row == "top" and _two_jokers_on_top(cards, rules):
        two_jokers: int = _knob(rules, "royalties.top_two_jokers")
        return two_jokers
    cat = ALL_CATEGORIES[_key(cards, rules)[0]]
    if cat == FIVE_OF_A_KIND:
        # a top row never holds it: the middle's or the bottom's knob
        five: int = _knob(rules, f"royalties.{row}_five_of_a_kind")
        return five
    ranked = rules["royalties"].get(f"{row}_by_rank", {}).get(cat, {})
    letter = RANK_LETTERS[key_rank(cards, rules) - 2]
    if letter in ranked:
        value: int = ranked[letter]
        return value
    points: int = rules["royalties"][row].get(cat, 0)
    return points


def _two_jokers_on_top(top: Sequence[int], rules: Mapping[str, Any]) -> bool:
    """Whether ``top`` holds both jokers under rules whose
    ``royalties.top_two_jokers`` is above 0, as
    docs/rules.md, "Tables of larger decks" has it."""
    on: bool = _knob(rules, "royalties.top_two_jokers") > 0
    return on and BLACK_JOKER in top and RED_JOKER in top


_SEAT_KEYS = frozenset({"top", "middle", "bottom", "surrender", "declare_natural"})

# docs/rules.md, "Tables of larger decks": a larger deck seats as many
# players as it deals 13 cards to, at most this many.
MOST_SEATS = 8


def _is_larger_deck(rules: Mapping[str, Any]) -> bool:
    """Whether the rules' deck has copies or jokers, as
    docs/rules.md, "Decks: added suits, two decks and jokers" adds them."""
    return len(_deck_ids(rules)) != FACES


def table_sizes(rules: Mapping[str, Any]) -> range:
    """The numbers of seats a table of the rules' deck may have
    (docs/rules.md, "Tables of larger decks"): 2 to 4 under the 52-card
    deck; 2 up to as many as the deck deals 13 cards to, at most 8, under a
    larger one (65 cards: 5, 78: 6, 104 or more: 8). Raises nothing for
    rules from :func:`load_rules`."""
    if not _is_larger_deck(rules):
        return range(2, 5)
    return range(2, min(MOST_SEATS, len(_deck_ids(rules)) // 13) + 1)


def _holds_horse(hand: Sequence[int], horse: int) -> bool:
    """Whether a hand holds the horse card ``horse`` (a face, 0..51): either
    copy of it; a joker never is it (docs/rules.md, "Tables of larger decks")."""
    return any(card < BLACK_JOKER and card % FACES == horse for card in hand)


def _stake_matrix(
    stakes: int | Sequence[Sequence[int]] | None, players: int, rules: Mapping[str, Any]
) -> list[list[int]]:
    if stakes is None:
        stakes = rules["money"]["stake"]
    if isinstance(stakes, int) and not isinstance(stakes, bool):
        _check_int("stakes", stakes, 0, None)
        return [[stakes] * players for _ in range(players)]
    if (
        isinstance(stakes, (str, bytes))
        or not isinstance(stakes, Sequence)
        or len(stakes) != players
    ):
        _fail(f"stakes: expected an integer or a {players}x{players} matrix")
    matrix: list[list[int]] = []
    for i, line in enumerate(stakes):
        if isinstance(line, (str, bytes)) or not isinstance(line, Sequence) or len(line) != players:
            _fail(f"stakes: expected an integer or a {players}x{players} matrix")
        row: list[int] = []
        for j, value in enumerate(line):
            if i == j:
                row.append(0)  # the diagonal is ignored
            else:
                row.append(_check_int(f"stakes[{i}][{j}]", value, 0, None))
        matrix.append(row)
    for i in range(players):
        for j in range(players):
            if matrix[i][j] != matrix[j][i]:
                _fail(f"stakes: matrix is not symmetric at [{i}][{j}]")
    return matrix


def _read_seats(
    seats: Sequence[Mapping[str, Any]], rules: Mapping[str, Any]
) -> tuple[list[dict[str, tuple[int, ...]]], list[bool], list[bool]]:
    """Each seat's rows, surrender and declare flags, checked (see :func:`settle`):
    as many seats as :func:`table_sizes` allows, each card one of the
    rules' deck, each id dealt once."""
    sizes = table_sizes(rules)
    if len(seats) not in sizes:
        if not _is_larger_deck(rules):
            # The 52-card deck's message as before the larger decks.
            _fail(f"seats: expected 2 to 4 players, got {len(seats)}")
        most = sizes[-1]
        _fail(f"seats: a table of {_deck_text(rules)} has 2 to {most} players, got {len(seats)}")
    rows_of: list[dict[str, tuple[int, ...]]] = []
    surrendered: list[bool] = []
    declares: list[bool] = []
    all_cards: list[int] = []
    for index, seat in enumerate(seats):
        for key in seat:
            if key not in _SEAT_KEYS:
                _fail(f"seats[{index}].{key}: unknown key")
        rows: dict[str, tuple[int, ...]] = {}
        for row in ROWS:
            if row not in seat:
                _fail(f"seats[{index}].{row}: missing")
            given = seat[row]
            if isinstance(given, (str, bytes)) or not hasattr(given, "__iter__"):
                _fail(f"seats[{index}].{row}: expected a list of card ids")
            cards = list(given)
            _check_cards(cards, (ROW_SIZES[row],), f"seats[{index}].{row}", rules)
            rows[row] = tuple(int(c) for c in cards)
            all_cards.extend(rows[row])
        surrender = seat.get("surrender", False)
        declare = seat.get("declare_natural", True)
        if not isinstance(surrender, bool):
            _fail(f"seats[{index}].surrender: expected true or false")
        if not isinstance(declare, bool):
            _fail(f"seats[{index}].declare_natural: expected true or false")
        if surrender and not rules["surrender"]["enabled"]:
            _fail(f"seats[{index}].surrender: surrender is not enabled by the rules")
        rows_of.append(rows)
        surrendered.append(surrender)
        declares.append(declare)
    if len(set(all_cards)) != len(all_cards):
        _fail("seats: the same card is dealt twice")
    return rows_of, surrendered, declares


def _read_banker(
    banker: int | None, multipliers: Sequence[int] | None, players: int, rules: Mapping[str, Any]
) -> tuple[int | None, list[int]]:
    """The banker seat and each seat's multiplier, checked (see :func:`settle`)."""
    enabled: bool = _knob(rules, "banker.enabled")
    if banker is None:
        if enabled:
            _fail("banker: the rules play a banker game and no banker seat is named")
    else:
        if not enabled:
            _fail("banker: a banker seat is named and the rules do not play a banker game")
        if isinstance(banker, bool) or not isinstance(banker, Integral):
            _fail(f"banker: expected a seat number, got {banker!r}")
        if not 0 <= int(banker) < players:
            _fail(f"banker: seat {banker} is not one of the {players} seats")
        banker = int(banker)
    if multipliers is None:
        return banker, [1] * players
    if isinstance(multipliers, (str, bytes)) or len(multipliers) != players:
        _fail(f"multipliers: expected one integer per seat ({players})")
    most: int = _knob(rules, "banker.max_multiplier") if enabled else 1
    result: list[int] = []
    for seat, value in enumerate(multipliers):
        if isinstance(value, bool) or not isinstance(value, Integral):
            _fail(f"multipliers[{seat}]: expected an integer, got {value!r}")
        value = int(value)
        if seat == banker and value != 1:
            _fail(f"multipliers[{seat}]: the banker's multiplier is 1, not {value}")
        if not enabled and value != 1:
            _fail(f"multipliers[{seat}]: {value} outside a banker game, where every seat's is 1")
        if not 1 <= value <= most:
            _fail(f"multipliers[{seat}]: {value} is out of range 1..{most}")
        result.append(value)
    return banker, result


def _blank(outcome: str) -> dict[str, Any]:
    """A pair's figures before the step that settles it fills them in:
    rows, row points, overall, royalties and bonus are only reported by
    the step that uses them; no multiplier is 1."""
    return {
        "outcome": outcome,
        "rows": dict.fromkeys(ROWS, 0),
        "row_points": 0,
        "overall": 0,
        "royalties": 0,
        "scoop": 0,
        "sweep_all": False,
        "multiplier": 1,
        "bonus": 0,
        "points": 0,
    }


class _Round:
    """One round's facts per seat (hand, natural, row keys, foul, royalties,
    sweep-all), and each pair settled from them."""

    def __init__(
        self,
        rows_of: list[dict[str, tuple[int, ...]]],
        surrendered: list[bool],
        declares: list[bool],
        rules: Mapping[str, Any],
        banker: int | None,
        multipliers: list[int],
    ) -> None:
        players = len(rows_of)
        self.players = players
        self.rules = rules
        self.banker = banker
        self.multipliers = multipliers
        self.surrendered = surrendered
        self.hands = [rows["top"] + rows["middle"] + rows["bottom"] for rows in rows_of]
        # The declared natural of each seat, of any deck, as
        # docs/rules.md, "Tables of larger decks" says; a bonus natural does
        # not settle pairs and is no natural to steps 1-3 and the sweep-all
        # test.
        self.declared = [
            declared_natural(self.hands[i], rules, declares[i]) for i in range(players)
        ]
        self.nat = [d if d is not None and not d["bonus"] else None for d in self.declared]
        self.bonus_points = [
            int(d["points"]) if d is not None and d["bonus"] else 0 for d in self.declared
        ]
        self.keys = [{row: _key(rows_of[i][row], rules) for row in ROWS} for i in range(players)]
        foul_mode = rules["foul"]["mode"]
        arranged_fouls = [
            _is_foul_keys(k["top"], k["middle"], k["bottom"], rules) for k in self.keys
        ]
        if foul_mode == "refuse":
            for i in range(players):
                if arranged_fouls[i] and self.nat[i] is None and not surrendered[i]:
                    _fail(f"seat {i}'s arrangement fouls and the rules refuse fouled arrangements")
        # foul.mode = "none": no arrangement is a foul.
        self.fouled = [False] * players if foul_mode == "none" else arranged_fouls
        self.mode = rules["royalty_mode"]
        # docs/rules.md, "Tables of larger decks": with
        # royalties.top_two_jokers above 0, a top holding both jokers beats
        # every top that does not (its royalty is royalty()'s)
        self.joker_top = [_two_jokers_on_top(rows_of[i]["top"], rules) for i in range(players)]
        self.roy_table = [
            {
                row: (royalty(row, rows_of[i][row], rules) if self.mode != "none" else 0)
                for row in ROWS
            }
            for i in range(players)
        ]
        self.swept_all = [self._sweeps_all(i) for i in range(players)]

    def _row_sign(self, i: int, j: int, row: str) -> int:
        """1, -1 or 0 as i wins, loses or ties the row against j; with
        ``banker.wins_ties`` a tied row is the banker's."""
        ki, kj = self.keys[i][row], self.keys[j][row]
        diff = (ki > kj) - (ki < kj)
        if row == "top" and self.joker_top[i] != self.joker_top[j]:
            diff = 1 if self.joker_top[i] else -1
        if diff == 0 and _knob(self.rules, "banker.wins_ties") and self.banker in (i, j):
            diff = 1 if self.banker == i else -1
        return diff

    def _row_wins(self, i: int, j: int) -> int:
        """How many rows i wins against j."""
        return sum(1 for row in ROWS if self._row_sign(i, j, row) > 0)

    def _sweeps_all(self, i: int) -> bool:
        if (
            self.players < self.rules["sweep_all"]["min_players"]
            or self.nat[i] is not None
            or self.fouled[i]
            or self.surrendered[i]
            or (self.banker is not None and i != self.banker)
        ):
            return False
        opponents = [j for j in range(self.players) if j != i]
        if _knob(self.rules, "sweep_all.natural_opponents") == "exempt":
            opponents = [j for j in opponents if self.nat[j] is None]
        if not opponents:
            return False
        for j in opponents:
            if self.nat[j] is not None or self.surrendered[j]:
                return False
            if not (self.fouled[j] or self._row_wins(i, j) == 3):
                return False
        return True

    def _scoop_multiplier(self) -> int:
        if _knob(self.rules, "scoop.by_seats"):
            return self.players
        multiplier: int = self.rules["scoop"]["multiplier"]
        return multiplier

    def _multiplier(self, seat: int) -> tuple[int, int]:
        """The multiplier and bonus of a seat winning all three rows."""
        if self.swept_all[seat]:
            return self.rules["sweep_all"]["multiplier"], self.rules["sweep_all"]["bonus"]
        return self._scoop_multiplier(), self.rules["scoop"]["bonus"]

    def _foul_collect(self, i: int) -> dict[str, Any]:
        """What the non-fouled seat i collects from a fouled opponent, with
        the multiplier, bonus and royalties of the amount (docs/rules.md,
        foul amount)."""
        rules = self.rules
        row_points: int = rules["row_points"]
        multiply_roy: bool = rules["scoop"]["multiply_royalties"]
        foul_mode = rules["foul"]["mode"]
        pays = rules["foul"]["pays_royalties"] and self.mode != "none"
        from_sweep = self.swept_all[i]
        if foul_mode == "sweep-all":
            m, b, from_sweep = rules["sweep_all"]["multiplier"], rules["sweep_all"]["bonus"], True
            base = 3 * row_points * m + b
        else:
            m, b = self._multiplier(i)
            if foul_mode == "scoop":
                base = (3 * row_points + rules["overall_point"]) * m + b
            else:
                # "fixed"; under "refuse" only a seat with a natural or a
                # surrender can hold a fouled arrangement, and such pairs are
                # settled before this step
                base, b = rules["foul"]["points"], 0
                if not (pays and multiply_roy):
                    # a fixed amount is multiplied by nothing
                    m, from_sweep = 1, False
        royalties = sum(self.roy_table[i][row] for row in ROWS) if pays else 0
        return {
            "royalties": royalties,
            "multiplier": m,
            "bonus": b,
            "sweep_all": from_sweep,
            "points": base + royalties * (m if multiply_roy else 1),
        }

    def _foul_result(self, i: int, j: int) -> dict[str, Any]:
        """The pair (i, j) when at least one of them fouled."""
        result = _blank("foul")
        if self.fouled[i] and self.fouled[j]:
            return result
        collector, sign = (i, 1) if self.fouled[j] else (j, -1)
        figures = self._foul_collect(collector)
        result.update(
            scoop=sign,
            sweep_all=figures["sweep_all"],
            multiplier=figures["multiplier"],
            royalties=sign * figures["royalties"],
            bonus=sign * figures["bonus"],
            points=sign * figures["points"],
        )
        return result

    def _rows_result(self, i: int, j: int) -> dict[str, Any]:
        """The pair (i, j) settled on its rows."""
        rules, roy_table = self.rules, self.roy_table
        row_points: int = rules["row_points"]
        result = _blank("rows")
        rows_i = rows_j = 0
        roy_i = roy_j = 0
        wins_i = wins_j = 0
        for row in ROWS:
            diff = self._row_sign(i, j, row)
            result["rows"][row] = diff
            if diff == 0:
                continue
            winner = i if diff > 0 else j
            points_rows = row_points
            points_roy = 0
            if self.mode == "winner":
                value = roy_table[winner][row]
                if rules["royalty_adds"]:
                    points_roy = value
                elif value > row_points:
                    points_rows, points_roy = 0, value
            if winner == i:
                wins_i += 1
                rows_i += points_rows
                roy_i += points_roy
            else:
                wins_j += 1
                rows_j += points_rows
                roy_j += points_roy
        if self.mode == "always":
            roy_i = sum(roy_table[i][row] for row in ROWS)
            roy_j = sum(roy_table[j][row] for row in ROWS)
        rows = rows_i - rows_j
        roy = roy_i - roy_j
        overall = 0
        if wins_i > wins_j:
            overall = rules["overall_point"]
        elif wins_i < wins_j:
            overall = -rules["overall_point"]
        result.update(row_points=rows, overall=overall, royalties=roy)
        m, b, sign = 1, 0, 0
        if wins_i == 3 or wins_j == 3:
            scooper, sign = (i, 1) if wins_i == 3 else (j, -1)
            m, b = self._multiplier(scooper)
            result["sweep_all"] = self.swept_all[scooper]
        multiply_roy: bool = rules["scoop"]["multiply_royalties"]
        result.update(
            scoop=sign,
            multiplier=m,
            bonus=sign * b,
            points=(rows + overall) * m + sign * b + roy * (m if multiply_roy else 1),
        )
        return result

    def _base(self, i: int, j: int) -> dict[str, Any]:
        """The pair (i, j) from i's view by the first of steps 1-4 of
        docs/rules.md "Settlement" that applies."""
        nat, surrendered, fouled = self.nat, self.surrendered, self.fouled
        # 1. Naturals.
        if nat[i] is not None or nat[j] is not None:
            result = _blank("natural")
            result["points"] = _settle_naturals(nat[i], nat[j], self.rules)
            return result
        # 2. Surrender.
        if surrendered[i] or surrendered[j]:
            result = _blank("surrender")
            cost = self.rules["surrender"]["cost"]
            if surrendered[i] and not surrendered[j]:
                result["points"] = 0 if fouled[j] else -cost
            elif surrendered[j] and not surrendered[i]:
                result["points"] = 0 if fouled[i] else cost
            return result
        # 3. Fouls.
        if fouled[i] or fouled[j]:
            return self._foul_result(i, j)
        # 4. Rows.
        return self._rows_result(i, j)

    def _cap(self, result: Mapping[str, Any]) -> int:
        """The pair's cap (0: none): the sweep-all cap for a pair with a
        sweep-all, the scoop cap for one with a scoop, else the pair cap,
        each falling back to the next when 0."""
        cap_pair: int = _knob(self.rules, "cap.pair")
        cap_scoop: int = _knob(self.rules, "cap.scoop") or cap_pair
        cap_sweep: int = _knob(self.rules, "cap.sweep_all") or cap_scoop
        if result["sweep_all"]:
            return cap_sweep
        if result["scoop"] != 0:
            return cap_scoop
        return cap_pair

    def pair_result(self, i: int, j: int) -> dict[str, Any]:
        """The pair (i, j) from i's view: the base, the bonus naturals, the
        cap, the horse card and the player's multiplier (docs/rules.md's
        steps 1-6), with each term."""
        if self.banker is not None and self.banker not in (i, j):
            result = _blank("unplayed")
            result.update(base=0, natural_bonus=0, cap=0, horse=1, seat_multiplier=1)
            return result
        result = self._base(i, j)
        base: int = result["points"]
        natural_bonus = self.bonus_points[i] - self.bonus_points[j]
        points = base + natural_bonus
        cap = self._cap(result)
        final_stage = _knob(self.rules, "cap.stage") == "final"
        cap_bound = 0
        if cap and not final_stage and abs(points) > cap:
            points, cap_bound = max(-cap, min(cap, points)), cap
        horse = 1
        card = _knob(self.rules, "horse.card")
        if card is not None:
            horse_id = _card_from_text("horse.card", card) if isinstance(card, str) else card
            # Its face: either copy of it is the horse card.
            holds_i = _holds_horse(self.hands[i], horse_id)
            holds_j = _holds_horse(self.hands[j], horse_id)
            by_naturals = result["outcome"] == "natural"
            if holds_i != holds_j and not (by_naturals and not _knob(self.rules, "horse.naturals")):
                horse = _knob(self.rules, "horse.multiplier")
        seat_multiplier = 1
        if self.banker is not None:
            seat_multiplier = self.multipliers[j if i == self.banker else i]
        points = points * horse * seat_multiplier
        if cap and final_stage and abs(points) > cap:
            points, cap_bound = max(-cap, min(cap, points)), cap
        result.update(
            base=base,
            natural_bonus=natural_bonus,
            cap=cap_bound,
            horse=horse,
            seat_multiplier=seat_multiplier,
            points=points,
        )
        return result

    def seat_facts(self, i: int) -> dict[str, Any]:
        """What the round holds of seat i besides its points: its declared
        natural (bonus ones included) and that natural's points, whether it
        fouled, surrendered and swept all (a seat whose natural settles its
        pairs neither fouls nor surrenders, and a surrendered seat does not
        foul), and each row's royalty."""
        declared = self.declared[i]
        plays = self.nat[i] is None
        return {
            "natural": None if declared is None else declared["name"],
            "natural_points": 0 if declared is None else declared["points"],
            "foul": self.fouled[i] and plays and not self.surrendered[i],
            "surrender": self.surrendered[i] and plays,
            "swept_all": self.swept_all[i],
            "royalties": dict(self.roy_table[i]),
        }


def rake(money: Sequence[int], rules: Mapping[str, Any]) -> list[int]:
    """The house's rake from each seat of a round, given each seat's money
    (docs/rules.md, "Money, rake and exactness"), in exact integers.

    A winner (money > 0) whose money is at least ``money.rake_minimum_pot``
    pays ``floor(money * rake_basis_points / 10000)``, at most
    ``rake_cap_per_pot`` (0: no cap); every other seat pays 0. When these
    sum past ``rake_cap_per_round`` (0: no cap) the house takes exactly the
    cap, shared in proportion to each seat's rake by largest remainders,
    equal remainders going to the lower seat.

    ``money`` is a sequence of integers (Python or numpy, not bools).
    Raises ``ValueError`` for another entry, and ``KeyError`` for rules
    without the four rake knobs (rules from :func:`load_rules` hold them).
    """
    for seat, m in enumerate(money):
        if isinstance(m, bool) or not isinstance(m, Integral):
            _fail(f"money[{seat}]: expected an integer, got {m!r}")
    money = [int(m) for m in money]
    knobs = rules["money"]
    rate: int = knobs["rake_basis_points"]
    minimum: int = knobs["rake_minimum_pot"]
    cap_per_pot: int = knobs["rake_cap_per_pot"]
    cap: int = knobs["rake_cap_per_round"]
    pots = [m * rate // 10_000 if m > 0 and m >= minimum else 0 for m in money]
    if cap_per_pot > 0:
        pots = [min(r, cap_per_pot) for r in pots]
    total = sum(pots)
    if cap == 0 or total <= cap:
        return pots
    shares = [cap * r // total for r in pots]
    left_over = cap - sum(shares)
    by_remainder = sorted(range(len(pots)), key=lambda s: (-(cap * pots[s] % total), s))
    for seat in by_remainder[:left_over]:
        shares[seat] += 1
    return shares


def settle(
    seats: Sequence[Mapping[str, Any]],
    rules: Mapping[str, Any],
    stakes: int | Sequence[Sequence[int]] | None = None,
    *,
    banker: int | None = None,
    multipliers: Sequence[int] | None = None,
) -> dict[str, Any]:
    """Settle one round (docs/rules.md, "Settlement", with bonus naturals,
    caps, the horse card, banker games and tables of larger decks): points,
    money, rake and net per seat, ``pair_points[i][j]`` (what i collects from j),
    ``seats`` (each seat's declared natural and its points, foul,
    surrender, sweep-all and row royalties) and ``pairs``, each pair i < j from i's view: how
    its base was settled (``outcome``, ``"unplayed"`` for a pair of two
    non-banker seats), each row won (1), lost (-1) or tied (0), the row
    points, overall point and royalties before any multiplier, ``scoop``
    (+1 i won all three rows or collected a foul, -1 j did), ``sweep_all``
    (the multiplier came from the sweep-all figures), the multiplier and
    bonus applied, and the pair's terms: ``base`` (the base's points),
    ``natural_bonus`` (i's bonus natural's points minus j's), ``cap`` (the
    cap that bound the points, 0 when none did), ``horse`` (the horse
    multiplier applied, 1 when none) and ``seat_multiplier`` (the non-banker
    seat's multiplier, 1 outside banker games); then points, stake and
    money.

    ``seats`` is :func:`table_sizes` mappings (2 to 4 under the 52-card
    deck; docs/rules.md, "Tables of larger decks"), each with ``top``,
    ``middle`` and ``bottom`` (iterables of ids of the rules' deck, each
    dealt once) and optional ``surrender`` and ``declare_natural`` bools
    (default False, True).
    ``stakes`` is None (the rules' ``money.stake``), one integer >= 0 or a
    P x P symmetric matrix of integers >= 0 (the diagonal is ignored).
    ``banker`` is the banker seat, required when ``banker.enabled`` and
    refused otherwise; ``multipliers`` one integer per seat,
    ``1..banker.max_multiplier`` with the banker's 1 (all 1 outside banker
    games; None: all 1).

    Raises ``ValueError`` for another number of seats, an unknown or
    missing seat key, a bad row or an id outside the rules' deck, a card
    dealt twice, a flag that is not a bool, a surrender the rules do not
    enable, bad stakes, a missing, unwanted or out-of-range banker, bad
    multipliers, or, under ``foul.mode = "refuse"``, a seat without a
    declared natural or a surrender whose arrangement fouls (naming the
    seat).
    """
    rows_of, surrendered, declares = _read_seats(seats, rules)
    players = len(rows_of)
    stake = _stake_matrix(stakes, players, rules)
    banker_seat, seat_multipliers = _read_banker(banker, multipliers, players, rules)
    table = _Round(rows_of, surrendered, declares, rules, banker_seat, seat_multipliers)

    pair_points = [[0] * players for _ in range(players)]
    pairs: list[dict[str, Any]] = []
    for i, j in combinations(range(players), 2):
        result = table.pair_result(i, j)
        pair_points[i][j] = result["points"]
        pair_points[j][i] = -result["points"]
        stake_ij = stake[i][j]
        pairs.append(
            {"seats": [i, j], **result, "stake": stake_ij, "money": result["points"] * stake_ij}
        )

    points = [sum(pair_points[i]) for i in range(players)]
    money = [
        sum(pair_points[i][j] * stake[i][j] for j in range(players) if j != i)
        for i in range(players)
    ]
    house = rake(money, rules)
    net = [m - r for m, r in zip(money, house, strict=True)]
    return {
        "points": points,
        "money": money,
        "rake": house,
        "net": net,
        "pair_points": pair_points,
        "pairs": pairs,
        "seats": [table.seat_facts(i) for i in range(players)],
    }
