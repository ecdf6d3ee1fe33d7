"""What a showdown page draws: a settled table read from the settlement's own
breakdown (``Settlement.to_dict()``, the record ``capsa settle`` writes),
checked on the way in, with its round id, seat names and rules when known.

Nothing here computes a payment: every figure is the settlement core's.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from capsa import _core
from capsa._core import ArgumentError, Card, CardError, HandError, Settlement, TableError
from capsa.json_faults import is_integer_too_long, too_long_integer
from capsa.rules import Rules

__all__ = [
    "OUTCOMES",
    "ROWS",
    "Check",
    "PairView",
    "Row",
    "SeatView",
    "Table",
    "VoidRound",
    "display_id",
    "table_from_settlement",
]

ROWS = ("top", "middle", "bottom")
"""The rows, as the settlement names them, top first."""
OUTCOMES = ("natural", "surrender", "foul", "rows", "unplayed")
"""How a pair can be settled (docs/rules.md, "Settlement": the first step that
applies; ``unplayed``: two seats that are not the banker of a banker game)."""
_ROW_SIZES = (3, 5, 5)
# the longest seat name or round id drawn whole; longer ones are cut with "…"
_NAME_LIMIT = 200


@dataclass(slots=True)
class Row:
    """One row of a seat: its cards, category, strength and royalty."""

    name: str
    cards: tuple[Card, ...]
    category: str
    strength: int
    royalty: int


@dataclass(slots=True)
class SeatView:
    """One seat as settled: its rows, what it declared, and its totals."""

    index: int
    rows: tuple[Row, Row, Row]
    foul: bool
    surrender: bool
    natural: str | None
    natural_points: int
    swept_all: bool
    points: int
    money: int
    rake: int
    net: int
    name: str | None = None
    """The seat's name, or None for the page's own ("Seat 0")."""
    auto: bool = False
    """True when the server arranged the seat at the close (a record's
    ``auto``: the player had not submitted by the deadline)."""
    player_id: str | None = None
    """The seat's player id in a round record, None without one."""
    natural_rows: tuple[tuple[Card, ...], ...] | None = None
    """The split that makes the declared natural, when known (else the rows
    as submitted are shown)."""
    banker: bool = False
    """True for the banker seat of a banker game."""
    multiplier: int = 1
    """The seat's stake multiplier in a banker game (1 otherwise)."""
    declined: str | None = None
    """The natural the seat's 13 cards make under the rules but that it did
    not declare (its rows were played), when the rules are known."""


@dataclass(slots=True)
class PairView:
    """One pair (i < j) as settled, from seat i's view (see the output schema
    in docs/cli.md): every figure is the settlement's."""

    i: int
    j: int
    outcome: str
    rows: tuple[int, int, int]
    row_points: int
    overall: int
    royalties: int
    scoop: int
    sweep_all: bool
    multiplier: int
    bonus: int
    points: int
    stake: int
    money: int
    base: int = 0
    """The points of the base step (naturals, surrender, fouls or rows)
    before the terms below (docs/rules.md, "A pair's terms")."""
    natural_bonus: int = 0
    """i's bonus natural's points less j's, added to the base."""
    cap: int = 0
    """The cap that bound the points, 0 when none did."""
    horse: int = 1
    """The horse card's multiplier applied, 1 when none."""
    seat_multiplier: int = 1
    """The player's stake multiplier of a banker game applied, 1 when none."""

    def has_terms(self) -> bool:
        """Whether a term after the base changed the points: a bonus natural,
        a cap that bound, the horse card or a player's multiplier."""
        return (
            self.natural_bonus != 0 or self.cap != 0 or self.horse != 1 or self.seat_multiplier != 1
        )


@dataclass(frozen=True, slots=True)
class Check:
    """One verification of a round record: ``ok`` True (passed), False
    (failed, ``detail`` says why) or None (not checked)."""

    name: str
    ok: bool | None
    detail: str = ""


@dataclass(frozen=True, slots=True)
class VoidRound:
    """What a void record says of its round, which was never played: why
    (``reason``), and the ``commitment`` and ``nonce`` its deal would have
    had."""

    reason: str
    commitment: str
    nonce: int


@dataclass(frozen=True, slots=True)
class Table:
    """Everything a showdown page shows (for a void round, no seats: its
    ``void`` says why)."""

    seats: tuple[SeatView, ...]
    pairs: tuple[PairView, ...]
    rules: Rules | None = None
    """The rules the table was settled under; with them every payment names
    the rule's own figures (a foul's three rows times the row points, ...)."""
    round_id: str | None = None
    title: str | None = None
    checks: tuple[Check, ...] = ()
    table_id: str | None = None
    """A round record's table (None: a server of one table, or no record)."""
    played_at: str | None = None
    """When the round was played, ISO 8601 text (a record's ``meta.played_at``)."""
    meta: tuple[tuple[str, str], ...] = ()
    """A round record's ``meta``, each entry as text (JSON for non-text), in
    the record's order; to be escaped when shown."""
    digest: str | None = None
    """A round record's digest (hex)."""
    previous_digest: str | None = None
    """The digest of the table's previous record; None for the first round
    of a chain, or no record."""
    void: VoidRound | None = None
    """A void record's round (never played), None for a settled round."""
    banker: int | None = None
    """The banker seat of a banker game, None outside one."""


def _where(path: str, key: str | int) -> str:
    return f"{path}[{key}]" if isinstance(key, int) else f"{path}.{key}"


def _get(data: Any, key: str | int, path: str) -> Any:
    try:
        return data[key]
    except (KeyError, IndexError, TypeError):
        what = "a list" if isinstance(key, int) else "an object"
        shape = "list" if isinstance(data, list) else type(data).__name__
        message = f"{_where(path, key)} is missing ({path} must be {what}, got {shape})"
        raise TableError(message) from None


def _int(data: Any, key: str, path: str) -> int:
    try:
        value = data[key]
    except (KeyError, IndexError, TypeError):
        value = _get(data, key, path)
    if type(value) is not int:
        raise TableError(f"{_where(path, key)} must be an integer, not {_shown(value)}")
    return value


def _optional_int(data: Any, key: str, path: str, default: int) -> int:
    """A figure a settlement leaves out at its neutral value (a pair's terms)."""
    if key not in data:
        return default
    return _int(data, key, path)


def _bool(data: Any, key: str, path: str) -> bool:
    value = _get(data, key, path)
    if not isinstance(value, bool):
        raise TableError(f"{_where(path, key)} must be true or false, not {_shown(value)}")
    return value


def _name(data: Any, key: str, path: str, names: Sequence[str]) -> str:
    value = _get(data, key, path)
    if value not in names:
        raise TableError(
            f"{_where(path, key)} must be one of {', '.join(names)}, not {_shown(value)}"
        )
    return str(value)


# the most seats a table of any deck has: two decks and jokers seat eight
_MOST_SEATS = 8


def _list(data: Any, key: str, path: str, low: int, high: int) -> list[Any]:
    value = _get(data, key, path)
    if not isinstance(value, list) or not low <= len(value) <= high:
        size = f"{low}" if low == high else f"{low} to {high}"
        raise TableError(f"{_where(path, key)} must be a list of {size} items, not {_shown(value)}")
    return value


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _row(data: Any, k: int, seat: int, path: str) -> Row:
    name = ROWS[k]
    at = _where(path, name)
    text = _get(data, name, path)
    cards_text = _get(text, "cards", at)
    if not isinstance(cards_text, str):
        raise TableError(f"{at}.cards must be card text, not {_shown(cards_text)}")
    try:
        cards = _drawn_cards(cards_text)
    except CardError as exc:
        raise _placed(CardError(f"{at}.cards: {exc}"), seat, name) from None
    if len(cards) != _ROW_SIZES[k]:
        error = HandError(
            f"{at}.cards holds {len(cards)} cards; the {name} row holds {_ROW_SIZES[k]}"
        )
        raise _placed(error, seat, name)
    return Row(
        name,
        cards,
        _name(text, "category", at, _core.CATEGORIES),
        _int(text, "strength", at),
        _int(text, "royalty", at),
    )


def _placed(error: _core.CapsaError, seat: int, row: str | None) -> _core.CapsaError:
    error.seat = seat
    error.row = row
    return error


def _seat(data: Any, k: int, name: str | None) -> SeatView:
    path = f"seats[{k}]"
    rows = _get(data, "rows", path)
    natural = _get(data, "natural", path)
    if natural is not None and natural not in _core.NATURAL_NAMES:
        raise TableError(f"{path}.natural must be null or a natural's name, not {_shown(natural)}")
    seat = SeatView(
        index=k,
        rows=(
            _row(rows, 0, k, f"{path}.rows"),
            _row(rows, 1, k, f"{path}.rows"),
            _row(rows, 2, k, f"{path}.rows"),
        ),
        foul=_bool(data, "foul", path),
        surrender=_bool(data, "surrender", path),
        natural=natural,
        natural_points=_int(data, "natural_points", path),
        swept_all=_bool(data, "swept_all", path),
        points=_int(data, "points", path),
        money=_int(data, "money", path),
        rake=_int(data, "rake", path),
        net=_int(data, "net", path),
        name=name,
        banker=data.get("banker", False) is True,
        multiplier=_optional_int(data, "multiplier", path, 1),
    )
    return seat


def _pair(data: Any, k: int, seats: int) -> PairView:
    path = f"pairs[{k}]"
    ij = _list(data, "seats", path, 2, 2)
    i, j = ij
    if not (type(i) is int and type(j) is int and 0 <= i < j < seats):
        raise TableError(f"{path}.seats must be two seats i < j of the table, not {_shown(ij)}")
    rows = _get(data, "rows", path)
    results = tuple(_int(rows, r, f"{path}.rows") for r in ROWS)
    if any(r not in (-1, 0, 1) for r in results):
        raise TableError(f"{path}.rows must be 1, 0 or -1 for each row, not {_shown(rows)}")
    scoop = _int(data, "scoop", path)
    if scoop not in (-1, 0, 1):
        raise TableError(f"{path}.scoop must be 1, 0 or -1, not {scoop}")
    return PairView(
        i=i,
        j=j,
        outcome=_name(data, "outcome", path, OUTCOMES),
        rows=(results[0], results[1], results[2]),
        row_points=_int(data, "row_points", path),
        overall=_int(data, "overall", path),
        royalties=_int(data, "royalties", path),
        scoop=scoop,
        sweep_all=_bool(data, "sweep_all", path),
        multiplier=_int(data, "multiplier", path),
        bonus=_int(data, "bonus", path),
        points=_int(data, "points", path),
        stake=_int(data, "stake", path),
        money=_int(data, "money", path),
        base=_optional_int(data, "base", path, _int(data, "points", path)),
        natural_bonus=_optional_int(data, "natural_bonus", path, 0),
        cap=_optional_int(data, "cap", path, 0),
        horse=_optional_int(data, "horse", path, 1),
        seat_multiplier=_optional_int(data, "seat_multiplier", path, 1),
    )


def _trusted_row(data: Any, name: str, seat: int) -> Row:
    row = data[name]
    try:
        cards = _drawn_cards(row["cards"])
    except CardError as exc:
        raise _placed(
            CardError(f"settlement.seats[{seat}].rows.{name}.cards: {exc}"), seat, name
        ) from None
    return Row(name, cards, row["category"], row["strength"], row["royalty"])


def _drawn_cards(text: str) -> tuple[Card, ...]:
    """The cards of a row's text: of any deck (second copies and jokers
    too), a ``CardError`` naming what is not a card."""
    return tuple(_core.parse_cards(text))


def _trusted_seat(data: Any, k: int, name: str | None) -> SeatView:
    rows = data["rows"]
    return SeatView(
        k,
        (
            _trusted_row(rows, "top", k),
            _trusted_row(rows, "middle", k),
            _trusted_row(rows, "bottom", k),
        ),
        data["foul"],
        data["surrender"],
        data["natural"],
        data["natural_points"],
        data["swept_all"],
        data["points"],
        data["money"],
        data["rake"],
        data["net"],
        name,
        banker=data.get("banker", False) is True,
        multiplier=data.get("multiplier", 1),
    )


def _trusted_pair(data: Any) -> PairView:
    i, j = data["seats"]
    rows = data["rows"]
    return PairView(
        i,
        j,
        data["outcome"],
        (rows["top"], rows["middle"], rows["bottom"]),
        data["row_points"],
        data["overall"],
        data["royalties"],
        data["scoop"],
        data["sweep_all"],
        data["multiplier"],
        data["bonus"],
        data["points"],
        data["stake"],
        data["money"],
        data.get("base", data["points"]),
        data.get("natural_bonus", 0),
        data.get("cap", 0),
        data.get("horse", 1),
        data.get("seat_multiplier", 1),
    )


def _checked(
    data: Mapping[str, Any], seats_data: list[Any], names: list[str | None]
) -> tuple[tuple[SeatView, ...], tuple[PairView, ...]]:
    seats = tuple(_seat(s, k, names[k]) for k, s in enumerate(seats_data))
    count = len(seats)
    size = count * (count - 1) // 2
    pairs_data = _list(data, "pairs", "settlement", size, size)
    pairs = tuple(_pair(p, k, count) for k, p in enumerate(pairs_data))
    every = [(i, j) for i in range(count) for j in range(i + 1, count)]
    if sorted((p.i, p.j) for p in pairs) != every:
        raise TableError("settlement.pairs must hold every pair of seats once")
    return seats, pairs


def display_id(value: object, what: str = "round_id") -> str | None:
    """A round id as people read it: a string as it is, a number as written
    (``-0``, ``1e400``), None for none; cut to a bounded length. Raises
    ``ArgumentError`` naming ``what`` for an integer too long to write."""
    if value is None:
        return None
    if isinstance(value, bool):
        return "true" if value else "false"
    try:
        text = value if isinstance(value, str) else str(value)
    except ValueError as exc:
        if not is_integer_too_long(exc):
            raise
        raise ArgumentError(f"{what} is {too_long_integer()}") from None
    return text if len(text) <= _NAME_LIMIT else text[: _NAME_LIMIT - 1] + "…"


def _seat_names(names: Sequence[str | None] | None, count: int) -> list[str | None]:
    if names is None:
        return [None] * count
    if isinstance(names, str) or not isinstance(names, Sequence):
        raise TypeError(f"seat_names is a list of str, not {type(names).__name__}")
    if len(names) != count:
        raise TableError(f"seat_names has {len(names)} names for a table of {count} seats")
    for k, name in enumerate(names):
        if not isinstance(name, str | None):
            raise TypeError(f"seat_names[{k}] is a str or None, not {type(name).__name__}")
    # None: the page's own label for the seat ("Seat 0")
    return [None if name is None else display_id(name) for name in names]


def _with_natural_split(seat: SeatView, rules: Rules | None) -> SeatView:
    """The seat with the split that makes its natural, when the natural is
    row-shaped (three flushes, three straights, two full houses): the core's
    ``natural_split``."""
    if seat.natural is None or seat.natural_rows is not None:
        return seat
    cards = [card for row in seat.rows for card in row.cards]
    if any(card.id >= 52 for card in cards) or (rules is not None and not rules.deals_52_cards):
        # a larger deck's natural is shown on the rows as submitted
        return seat
    ids = _core.natural_split([int(c) for c in cards], seat.natural, rules)
    if ids is None:
        return seat
    shown = [_core.Card(i) for i in ids]
    return replace(seat, natural_rows=(tuple(shown[:3]), tuple(shown[3:8]), tuple(shown[8:])))


def _with_declined(seat: SeatView, rules: Rules | None) -> SeatView:
    """The seat with the natural it held and did not declare: a seat that
    settled without a natural though its cards make one under the rules."""
    if rules is None or seat.natural is not None or seat.surrender:
        return seat
    held = _core.natural([card for row in seat.rows for card in row.cards], rules)
    return seat if held is None else replace(seat, declined=held)


def _banker(
    data: Mapping[str, Any], seats: tuple[SeatView, ...], pairs: tuple[PairView, ...]
) -> int | None:
    """The banker seat as the settlement names it: its ``banker`` (a seat),
    the one seat marked ``banker``, or else the one seat in every pair that
    was played when some pair was not."""
    banker = data.get("banker")
    if banker is None:
        marked = [seat.index for seat in seats if seat.banker]
        if len(marked) == 1:
            return marked[0]
        played = [{p.i, p.j} for p in pairs if p.outcome != "unplayed"]
        if played and len(played) < len(pairs):
            common = set.intersection(*played)
            if len(common) == 1:
                return common.pop()
        return None
    if type(banker) is not int or not 0 <= banker < len(seats):
        raise TableError(f"settlement.banker must be a seat of the table, not {_shown(banker)}")
    return banker


def table_from_settlement(
    settlement: Settlement | Mapping[str, Any],
    *,
    rules: Rules | None = None,
    round_id: object = None,
    seat_names: Sequence[str | None] | None = None,
    title: str | None = None,
    checks: Sequence[Check] = (),
) -> Table:
    """The page's view of a settlement: a :class:`capsa.Settlement`, or its
    ``to_dict()`` (a record of ``capsa settle``; its ``id`` is the round id
    unless ``round_id`` is given).

    A dict that is not a settlement's breakdown raises ``TableError`` naming
    the key (``CardError``/``HandError`` for its cards, with ``seat`` and
    ``row`` set); a wrong argument type is a ``TypeError``.
    """
    if isinstance(settlement, Settlement):
        data: Mapping[str, Any] = settlement.to_dict()
    elif isinstance(settlement, Mapping):
        data = settlement
        if round_id is None:
            round_id = data.get("id")
    else:
        raise TypeError(
            f"a showdown draws a Settlement or its to_dict(), not {type(settlement).__name__}"
        )
    if rules is not None and not isinstance(rules, Rules):
        raise TypeError(f"rules is a capsa.Rules or None, not {type(rules).__name__}")
    if title is not None and not isinstance(title, str):
        raise TypeError(f"title is a str or None, not {type(title).__name__}")
    seats_data = _list(data, "seats", "settlement", 2, _MOST_SEATS)
    names = _seat_names(seat_names, len(seats_data))
    if isinstance(settlement, Settlement):
        # the core's own breakdown: its shape is the core's, not checked again
        seats = tuple(_trusted_seat(s, k, names[k]) for k, s in enumerate(seats_data))
        pairs = tuple(_trusted_pair(p) for p in data["pairs"])
    else:
        seats, pairs = _checked(data, seats_data, names)
    seats = tuple(_with_declined(_with_natural_split(seat, rules), rules) for seat in seats)
    banker = _banker(data, seats, pairs)
    if banker is not None:
        seats = tuple(replace(seat, banker=seat.index == banker) for seat in seats)
    return Table(
        seats=seats,
        pairs=pairs,
        rules=rules,
        round_id=display_id(round_id),
        title=display_id(title, "title"),
        checks=tuple(checks),
        banker=banker,
    )
