"""Checking rules data against the engine's knob table (``capsa._core.KNOBS``).

Every knob's name, type, range or choices come from the table: a mapping of
knobs (nested tables or dotted keys, as rules files, dicts, ``derive`` and
JSON requests give them) is flattened to dotted leaves, each checked by its
knob's type. One fault gives one message, whichever way the rules came.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from capsa import _core
from capsa._core import KNOBS, Knob, RulesError
from capsa.rules.messages import show

__all__ = [
    "INT_MAX",
    "KNOB_NAMES",
    "LEGACY_KNOBS",
    "RANKING_KNOBS",
    "REQUIRED",
    "check_changes",
    "check_knob",
    "knob",
]

# Points and money are 64-bit integers in the engine.
INT_MAX = 2**63 - 1

_BY_NAME: dict[str, Knob] = {k.name: k for k in KNOBS}
#: Every knob's dotted name, in the order a rules file writes them.
KNOB_NAMES: tuple[str, ...] = tuple(_BY_NAME)
#: The knobs that change how hands rank (and so what ``compare`` answers).
RANKING_KNOBS: tuple[str, ...] = tuple(k.name for k in KNOBS if k.ranking)
#: The knobs every full rules value holds; the others read as their
#: defaults when left out (``Knob.required``).
REQUIRED: tuple[str, ...] = tuple(k.name for k in KNOBS if k.required)
#: The rank letters of rules data, deuce first; ``10`` reads as ``T``.
RANKS = "23456789TJQKA"
#: Knobs of older rules files read as another knob: the old name, the knob
#: it sets, its range, and the factor to the new knob's unit.
LEGACY_KNOBS: dict[str, tuple[str, int, int]] = {
    # a whole percent is 100 basis points
    "money.rake_percent": ("money.rake_basis_points", 100, 100),
}
# Every table a knob is inside (``scoop``, ``royalties``, ...).
_TABLES = frozenset(
    ".".join(name.split(".")[:depth])
    for name in KNOB_NAMES
    for depth in range(1, name.count(".") + 1)
)


def knob(name: str) -> Knob:
    """The row of the knob table of a dotted name.

    Raises ``RulesError`` for a name that is not a knob."""
    try:
        return _BY_NAME[name]
    except KeyError:
        raise RulesError(f"rules: unknown key {show(name)}") from None


def _flatten(config: Mapping[str, Any], prefix: str = "") -> Iterator[tuple[str, Any]]:
    """Yields (dotted key, value) pairs down to the knobs of the table."""
    for key, value in config.items():
        if not isinstance(key, str):
            where = f"{prefix[:-1]}: " if prefix else ""
            raise RulesError(f"rules: {where}keys are strings, got {show(key)}")
        dotted = f"{prefix}{key}"
        if dotted in _BY_NAME or dotted in LEGACY_KNOBS:
            yield dotted, value
        elif dotted in _TABLES:
            if not isinstance(value, Mapping):
                raise RulesError(f"rules: {dotted} must be a table, got {show(value)}")
            yield from _flatten(value, dotted + ".")
        else:
            raise RulesError(f"rules: unknown key {show(dotted)}")


def _dotted(config: Mapping[str, Any]) -> Iterator[tuple[str, Any]]:
    """Like :func:`_flatten`, and a top-level key may be a dotted knob name."""
    for key, value in config.items():
        if isinstance(key, str) and key in LEGACY_KNOBS:
            yield key, value
        elif isinstance(key, str) and "." in key:
            yield knob(key).name, value
        else:
            yield from _flatten({key: value})


def check_changes(sources: Iterable[Mapping[str, Any]]) -> dict[str, Any]:
    """Every knob the sources set, each checked (:func:`check_knob`), by
    dotted name; a knob set twice is an error.

    ``{"scoop.multiplier": 2, "scoop": {"multiplier": 3}}`` or a config and a
    keyword naming the same knob would otherwise depend on their order.

    Raises ``RulesError`` naming the key for an unknown key, a key that is
    not a str, a table that is not a mapping, a knob given twice and every
    fault of a value.
    """
    updates: dict[str, Any] = {}
    given: dict[str, str] = {}
    for source in sources:
        for key, value in _dotted(source):
            name, value = _legacy(key, value) if key in LEGACY_KNOBS else (key, value)
            if name in given:
                first = given[name]
                raise RulesError(
                    f"rules: {key} is given twice"
                    if first == key
                    else f"rules: {first} and {key} set the same knob ({name}); give one"
                )
            given[name] = key
            updates[name] = check_knob(name, value)
    return updates


def _legacy(key: str, value: Any) -> tuple[str, Any]:
    """A knob of older rules files as the knob it sets: ``money.rake_percent
    = 3`` is ``money.rake_basis_points = 300``."""
    name, high, factor = LEGACY_KNOBS[key]
    return name, _check_int(key, value, 0, high) * factor


def check_knob(name: str, value: Any) -> Any:
    """``value`` checked against the knob ``name``'s row of the table, as a
    plain value (a str, int, bool, list or dict of them, as ``to_dict``
    writes it).

    Raises ``RulesError`` naming the knob and the value for an unknown knob,
    a value of the wrong type or out of range.
    """
    row = knob(name)
    kind = row.type
    if kind == "choice":
        if not isinstance(value, str) or value not in row.choices:
            options = ", ".join(repr(o) for o in row.choices)
            raise RulesError(f"rules: {name} must be one of {options}, got {show(value)}")
        return str.__str__(value)
    if kind == "int":
        return _check_knob_int(row, name, value)
    if kind == "bool":
        if not isinstance(value, bool):
            raise RulesError(f"rules: {name} must be true or false, got {show(value)}")
        return value
    if kind == "suit-order":
        return _check_suit_order(value)
    if kind == "text":
        return _check_text(name, value)
    if kind == "naturals":
        # the engine reads and checks the entries (and writes them back as
        # rules data does): the rules of an entry are written once, there
        return _core.natural_entries(value)
    if kind == "card":
        return _check_card(name, value)
    if kind == "royalties-by-rank":
        return _check_ranked_royalties(row, value)
    return _check_royalties(row, value)


def _check_int(key: str, value: Any, low: int, high: int = INT_MAX) -> int:
    # bool is an int subclass, but true is not a number of points.
    if isinstance(value, bool) or not isinstance(value, int):
        raise RulesError(f"rules: {key} must be an integer, got {show(value)}")
    if value < low or value > high:
        span = f">= {low}" if value < low and high == INT_MAX else f"in {low}..{high}"
        raise RulesError(f"rules: {key} must be {span}, got {show(value)}")
    return int(value)


# what the engine's range check takes: an integer beyond it is out of every
# knob's range, and shown as it was given
_I128 = 2**127


def _check_knob_int(row: Knob, key: str, value: Any) -> int:
    """An integer of a knob's (a knob's value, a royalty's points), in the
    range the engine's knob table gives it (``Knob.fault``)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise RulesError(f"rules: {key} must be an integer, got {show(value)}")
    fault = row.fault(max(-_I128, min(value, _I128 - 1)))
    if fault is not None:
        raise RulesError(f"rules: {key} {fault}, got {show(value)}")
    return int(value)


def _check_category(row: Knob, category: Any) -> str:
    """A category a royalty row names, one the engine's knob table lets it
    name (``Knob.category_fault``)."""
    # a key that is not text is no category: the message names the row's
    fault = row.category_fault(category if isinstance(category, str) else "")
    if fault is not None:
        raise RulesError(f"rules: {row.name}: {show(category)} {fault}")
    return str.__str__(category)


def _check_text(key: str, value: Any) -> str:
    if not isinstance(value, str):
        raise RulesError(f"rules: {key} must be a string, got {show(value)}")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise RulesError(
            f"rules: {key} holds the lone surrogate {value[exc.start]!r} at index {exc.start}, "
            "which is not a character and cannot be written as UTF-8 or TOML"
        ) from None
    fault = _core.rules_text_fault(key, value)
    if fault is not None:
        raise RulesError(f"rules: {fault}")
    return str.__str__(value)


def _check_suit_order(value: Any) -> str:
    order = value.lower() if isinstance(value, str) and value.isascii() else None
    if order is None or len(order) != 4 or sorted(order) != sorted("shcd"):
        raise RulesError(
            "rules: suit_order must name the suits s, h, c, d once each, "
            f"strongest first, got {show(value)}"
        )
    return str.__str__(order)


def _check_card(key: str, value: Any) -> str:
    try:
        if isinstance(value, str):
            return str(_core.Card(value))
    except _core.CardError:
        pass
    raise RulesError(f'rules: {key} must be one card such as "Ah", got {show(value)}')


def _check_rank(key: str, value: Any) -> str:
    letter = value.upper() if isinstance(value, str) else None
    if letter == "10":
        letter = "T"
    if letter is None or len(letter) != 1 or letter not in RANKS:
        raise RulesError(
            f"rules: {key} must be a rank letter 2..9, T, J, Q, K or A, got {show(value)}"
        )
    return letter


def _check_ranked_royalties(row: Knob, value: Any) -> dict[str, dict[str, int]]:
    key = row.name
    if not isinstance(value, Mapping):
        raise RulesError(
            f"rules: {key} must be a table of category = {{rank = points}}, got {show(value)}"
        )
    given: dict[str, dict[str, int]] = {}
    for category, ranks in value.items():
        category = _check_category(row, category)
        if not isinstance(ranks, Mapping):
            raise RulesError(
                f"rules: {key}.{category} must be a table of rank = points, got {show(ranks)}"
            )
        points: dict[str, int] = {}
        for rank, amount in ranks.items():
            letter = _check_rank(f"{key}.{category} key", rank)
            if letter in points:
                raise RulesError(f"rules: {key}.{category}.{letter} is given twice")
            points[letter] = _check_knob_int(row, f"{key}.{category}.{letter}", amount)
        if points:
            given[category] = {r: points[r] for r in RANKS if r in points}
    return {c: given[c] for c in row.choices if c in given}


def _check_royalties(row: Knob, value: Any) -> dict[str, int]:
    key = row.name
    if not isinstance(value, Mapping):
        raise RulesError(f"rules: {key} must be a table of category = points, got {show(value)}")
    out: dict[str, int] = {}
    for category, points in value.items():
        name = _check_category(row, category)
        out[name] = _check_knob_int(row, f"{key}.{name}", points)
    return out
