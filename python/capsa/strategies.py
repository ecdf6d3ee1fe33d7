"""Hypothesis strategies for Chinese poker, for your own property tests.

Needs Hypothesis, which is not a dependency of capsa itself: install
``capsa[strategies]`` (or the ``test`` extra). Importing capsa never imports
this module; Hypothesis finds it through the ``hypothesis`` entry point, so
``st.from_type(capsa.Card)`` (and ``Arrangement``, ``Seat``, ``Rules``)
works once capsa is installed.

Every strategy is biased toward the corners where engines differ: few
ranks (pairs, trips, quads, the pair naturals), few suits (flushes, three
flushes), runs (straights, the wheel), and hands built to hold a natural.
``docs/conformance.md``, "Strategies", lists them with examples.

``KNOB_VALUES`` maps each knob fuzzing varies (dotted names, as in
:meth:`capsa.Rules.derive`) to the values :func:`rules_specs` draws from, in the
order of the knob table (``capsa.rules.KNOBS``): every choice of a named
knob and both values of a flag (from the table), and small numbers that
reach each branch of the rule text.

A strategy checks its arguments when it is built, with capsa's errors: an
out-of-range number or a bad hand is a :class:`capsa.ArgumentError` (or
:class:`capsa.CardError`, :class:`capsa.HandError`), an unknown preset or
knob a :class:`capsa.RulesError`, a wrong Python type a ``TypeError``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from capsa import _core
from capsa._core import ArgumentError, CardError, HandError
from capsa.arrangement import Arrangement
from capsa.cards import Card
from capsa.rules import INT_MAX, KNOBS, Knob, Rules
from capsa.rules import RANKING_KNOBS as RANKING_KNOBS  # the fuzzed ranking knobs
from capsa.rules.known import presets_of_52_cards
from capsa.rules_spec import RulesSpec
from capsa.settlement import Seat


def _hypothesis_setup_hook() -> None:
    """Registers the strategies for capsa's types (the ``hypothesis`` entry point).

    Hypothesis runs its entry points while it is first imported, which may be
    this module's own import of it below, before the strategies exist: so the
    hook is defined first and registers deferred strategies, built when first
    drawn. Raises nothing."""
    from hypothesis import strategies as hst

    hst.register_type_strategy(Card, hst.deferred(lambda: cards()))
    hst.register_type_strategy(Arrangement, hst.deferred(lambda: arrangements()))
    hst.register_type_strategy(Rules, hst.deferred(lambda: rules()))
    hst.register_type_strategy(
        Seat,
        hst.deferred(
            lambda: hst.builds(
                Seat, arrangements(), surrender=hst.just(False), declare_natural=hst.booleans()
            )
        ),
    )


try:
    from hypothesis import strategies as st
except ImportError as exc:  # pragma: no cover - only without the extra
    raise ImportError('capsa.strategies needs Hypothesis: pip install "capsa[strategies]"') from exc

__all__ = [
    "KNOB_VALUES",
    "Table",
    "arrangements",
    "card_ids",
    "cards",
    "hand_ids",
    "hands",
    "rows",
    "rules",
    "rules_specs",
    "tables",
]

# The values fuzzing gives the knobs that are not a choice or a flag: small
# numbers that reach each branch of the rule text, and suit orders
# (docs/rules.md, "Rules data (TOML)").
_SAMPLES: dict[str, tuple[Any, ...]] = {
    "suit_order": ("shcd", "dchs", "hscd", "cdsh", "sdhc"),
    "row_points": (0, 1, 2, 3),
    "overall_point": (0, 1, 2),
    "scoop.multiplier": (1, 2, 3),
    "scoop.bonus": (0, 1, 3),
    "sweep_all.multiplier": (1, 2, 4),
    "sweep_all.bonus": (0, 2, 6),
    "sweep_all.min_players": (2, 3, 4, 5),
    "foul.points": (0, 5, 12),
    "surrender.cost": (0, 2, 3),
    "money.stake": (0, 1, 10, 100),
    "money.rake_basis_points": (0, 1, 250, 300, 500, 10_000),
    "money.rake_minimum_pot": (0, 1, 10, 100),
    "money.rake_cap_per_pot": (0, 1, 5, 50),
    "money.rake_cap_per_round": (0, 1, 7, 80),
}


# Choice names no rules drawn here take: the foul modes the oracle does not
# settle yet.
_UNDRAWN = frozenset({("foul.mode", "none"), ("foul.mode", "refuse")})


def _knob_values(knob: Knob) -> tuple[Any, ...] | None:
    """Every name of a choice, both values of a flag (the default first),
    the samples of another knob; an integer knob without samples, the
    bottom of its range. None for the knobs rules data may leave out: they
    stay at their defaults."""
    if not knob.required:
        return None
    if knob.type == "choice":
        return tuple(n for n in knob.choices if (knob.name, n) not in _UNDRAWN)
    if knob.type == "bool":
        return (knob.default, not knob.default)
    if knob.name not in _SAMPLES and knob.type == "int":
        low = knob.low or 0
        high = INT_MAX if knob.high is None else knob.high
        return tuple(range(low, min(low + 3, high) + 1))
    return _SAMPLES.get(knob.name)


KNOB_VALUES: dict[str, tuple[Any, ...]] = {
    k.name: values for k in KNOBS if (values := _knob_values(k)) is not None
}


def card_ids() -> st.SearchStrategy[int]:
    """One card id, 0..51 (``4 * (rank - 2) + suit``, d=0 c=1 h=2 s=3), shrinking
    toward ``2d``. Raises nothing."""
    return st.integers(0, 51)


def cards() -> st.SearchStrategy[Card]:
    """One :class:`capsa.Card` (what ``st.from_type(capsa.Card)`` draws). Raises
    nothing."""
    return card_ids().map(Card)


def _pool(mode: str, pick: Sequence[int]) -> list[int]:
    if mode == "ranks":
        return [4 * r + s for r in pick for s in range(4)]
    if mode == "suits":
        return [4 * r + s for r in range(13) for s in pick]
    if mode == "run":
        start = pick[0] % 10 - 1
        ranks = [12, 0, 1, 2, 3] if start < 0 else list(range(start, start + 5))
        return [4 * r + s for r in ranks for s in range(4)]
    return list(range(52))


_MODES = st.sampled_from(["any", "ranks", "suits", "run"])
_WIDTHS = {"ranks": (3, 7), "suits": (1, 2), "run": (1, 1), "any": (1, 1)}
_BOOLEANS = st.booleans()


@lru_cache(maxsize=512)
def _picks(pool_size: int, size: int) -> st.SearchStrategy[list[int]]:
    """``size`` distinct positions in a pool of ``pool_size`` (built once per shape:
    building a strategy costs more than drawing from it)."""
    return st.lists(st.integers(0, pool_size - 1), min_size=size, max_size=size, unique=True)


def _draw_ids(draw: st.DrawFn, size: int, taken: frozenset[int]) -> list[int]:
    mode = draw(_MODES)
    low, high = _WIDTHS[mode]
    limit = 4 if mode == "suits" else 13
    pick = draw(_picks(limit, draw(st.integers(low, high)) if low != high else low))
    pool = [c for c in _pool(mode, pick) if c not in taken]
    if len(pool) < size:
        pool += [c for c in range(52) if c not in taken and c not in pool]
    return sorted(pool[k] for k in draw(_picks(len(pool), size)))


@st.composite
def _biased_ids(draw: st.DrawFn, size: int, taken: frozenset[int] = frozenset()) -> list[int]:
    return _draw_ids(draw, size, taken)


def hand_ids(size: int = 13, exclude: frozenset[int] = frozenset()) -> st.SearchStrategy[list[int]]:
    """``size`` distinct card ids (sorted), none in ``exclude``, biased toward few
    ranks, few suits and runs.

    Raises :class:`capsa.ArgumentError` when ``size`` is negative or more
    than the cards left, and :class:`capsa.CardError` for an id in
    ``exclude`` outside 0..51; ``TypeError`` when ``size`` is not an
    integer."""
    _check_int(size, "size")
    excluded = frozenset(exclude)
    _deck52_ids(list(excluded))  # a CardError naming a bad id
    if not 0 <= size <= 52 - len(excluded):
        raise ArgumentError(f"size: cannot draw {size} cards from {52 - len(excluded)}")
    return _biased_ids(size, excluded)


def _check_int(value: Any, name: str) -> None:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name} must be an integer, not {type(value).__name__}")


def hands(size: int = 13) -> st.SearchStrategy[list[Card]]:
    """``size`` distinct cards, sorted by id (13 for a player's hand), drawn as
    :func:`hand_ids` draws them. Raises what :func:`hand_ids` raises."""
    return hand_ids(size).map(lambda ids: [Card(i) for i in ids])


def rows(size: int | None = None) -> st.SearchStrategy[list[Card]]:
    """A row: 3 cards (the top) or 5 (middle, bottom); either when ``size`` is None.

    Raises :class:`capsa.ArgumentError` for another size and ``TypeError``
    when it is not an integer."""
    if size is None:
        return st.sampled_from([3, 5]).flatmap(hands)
    _check_int(size, "size")
    if size not in (3, 5):
        raise ArgumentError(f"size: a row has 3 or 5 cards, not {size}")
    return hands(size)


_ORDERS = st.permutations(range(13))


def _draw_arrangement(
    draw: st.DrawFn, hand: list[int], rules: Rules, valid: bool | None
) -> list[int]:
    if valid is None:
        valid = draw(_BOOLEANS)
    # About a third of all splits are legal: a few shuffles nearly always find
    # what is wanted, and the rare hand that does not falls back below.
    for _ in range(16):
        order = [hand[k] for k in draw(_ORDERS)]
        if valid and _core.is_foul(order, rules):
            # the stronger five-card row goes to the bottom: legal far more often
            swapped = order[:3] + order[8:] + order[3:8]
            if not _core.is_foul(swapped, rules):
                return swapped
        if bool(_core.is_foul(order, rules)) != valid:
            return order
    if valid:
        splits = _core.splits(hand, rules)
        return [int(x) for x in splits[draw(st.integers(0, len(splits) - 1))]]
    legal = [int(x) for x in _core.splits(hand, rules)[-1]]
    return legal[:3] + legal[8:] + legal[3:8]  # middle and bottom exchanged


@st.composite
def _arrangement_ids(
    draw: st.DrawFn, hand: list[int] | None, rules: Rules, valid: bool | None
) -> list[int]:
    ids = sorted(hand) if hand is not None else _draw_ids(draw, 13, frozenset())
    return _draw_arrangement(draw, ids, rules, valid)


def _hand_of(hand: Sequence[int]) -> list[int]:
    """The 13 ids of ``hand``, sorted; its errors name the argument."""
    try:
        return sorted(_deck52_ids(list(hand), 13))
    except (CardError, HandError) as exc:
        raise type(exc)(f"hand: {exc}") from None


def _deck52_ids(cards: list[int], count: int | None = None) -> list[int]:
    """The ids of ``cards``, each a card of the 52-card deck the strategies
    draw from: a second copy or a joker is a ``CardError`` naming it."""
    ids = _core.card_ids(cards, count)
    for position, card in enumerate(ids):
        if card >= 52:
            shown = f"card {_core.Card(card)} (id {card}) at position {position}"
            raise CardError(f"{shown} is not in the 52-card deck")
    return ids


def arrangements(
    rules: Rules | None = None, valid: bool | None = None, hand: Sequence[int] | None = None
) -> st.SearchStrategy[Arrangement]:
    """:class:`capsa.Arrangement` of a drawn (or the given) 13-card hand: legal
    under ``rules`` (default ``capsa.Rules()``) when ``valid`` is True, fouled
    when False, either when None. ``hand`` is 13 card ids.

    Raises :class:`capsa.HandError` for a ``hand`` that is not 13 distinct
    cards, :class:`capsa.CardError` for an id outside 0..51, and
    ``TypeError`` for ``rules`` that are not a :class:`capsa.Rules` or a
    ``valid`` that is not a bool or None."""
    if rules is not None and not isinstance(rules, Rules):
        raise TypeError(
            f"argument 'rules': must be a capsa.Rules or None, not {type(rules).__name__}"
        )
    if valid is not None and not isinstance(valid, bool):
        raise TypeError(f"valid must be True, False or None, not {type(valid).__name__}")
    given = _hand_of(hand) if hand is not None else None
    return _arrangement_ids(given, rules or Rules(), valid).map(Arrangement.from_ids)


def _check_rules_choices(names: list[str], values: dict[str, list[Any]], max_changes: int) -> None:
    """Refuses what would fail only when drawn: an unknown preset, knob or value."""
    _check_int(max_changes, "max_changes")
    if max_changes < 0:
        raise ArgumentError(f"max_changes must be >= 0, got {max_changes}")
    for name in names:
        Rules.preset(name)  # a RulesError naming an unknown preset
    base = Rules()
    for key, candidates in values.items():
        for value in candidates:
            base.derive({key: value})  # a RulesError naming the knob


def rules_specs(
    presets_: Sequence[str] | None = None,
    knobs: dict[str, Sequence[Any]] | None = None,
    max_changes: int = 4,
) -> st.SearchStrategy[RulesSpec]:
    """:class:`capsa.conformance.RulesSpec`: a preset from ``presets_`` (default:
    every preset but the banker games, whose tables name a banker that
    :class:`Table` does not carry) plus up to ``max_changes`` knobs changed, each to a value from
    ``knobs`` (dotted knob name to candidate values; default
    ``KNOB_VALUES``); a knob left out of ``knobs`` keeps the preset's value.
    Shrinks toward fewer changes and earlier presets and values.

    Raises :class:`capsa.RulesError` for an unknown preset, an unknown knob
    or a value out of the knob's range (each named), and
    :class:`capsa.ArgumentError` for a negative ``max_changes``."""
    names = list(presets_ or _unbanked_presets())
    values = {
        key: list(candidates)
        for key, candidates in (KNOB_VALUES if knobs is None else knobs).items()
    }
    _check_rules_choices(names, values, max_changes)
    keys = sorted(k for k, v in values.items() if len(v))

    @st.composite
    def build(draw: st.DrawFn) -> RulesSpec:
        preset = draw(st.sampled_from(names))
        chosen = (
            draw(st.lists(st.sampled_from(keys), max_size=max_changes, unique=True)) if keys else []
        )
        base = Rules.preset(preset)
        changes = {}
        for key in chosen:
            value = draw(st.sampled_from(list(values[key])))
            if value != base[key]:
                changes[key] = value
        return RulesSpec.of(preset, changes)

    return build()


def rules(
    presets_: Sequence[str] | None = None,
    knobs: dict[str, Sequence[Any]] | None = None,
    max_changes: int = 4,
) -> st.SearchStrategy[Rules]:
    """:class:`capsa.Rules`: a preset with a few knobs changed, drawn as
    :func:`rules_specs` draws them (what ``st.from_type(capsa.Rules)`` draws).
    Raises what :func:`rules_specs` raises."""
    return rules_specs(presets_, knobs, max_changes).map(RulesSpec.rules)


_any_rules = rules


def _unbanked_presets() -> list[str]:
    return [p for p in presets_of_52_cards() if not Rules.preset(p)["banker.enabled"]]


@dataclass(frozen=True)
class Table:
    """A drawn table, ready for ``capsa.settle(table.seats, table.rules,
    table.stakes, banker=table.banker, multipliers=table.multipliers)``:
    ``rules`` (a :class:`capsa.Rules`), ``seats`` (2 to 4
    :class:`capsa.Seat`, from one deck), ``stakes`` (one integer for every
    pair, or a P x P symmetric matrix), and in a banker game the ``banker``
    seat and each seat's stake ``multipliers`` (both None otherwise). Built
    by :func:`tables`; building one checks nothing and raises nothing."""

    rules: Rules
    seats: list[Seat]
    stakes: int | list[list[int]]
    banker: int | None = None
    multipliers: list[int] | None = None


_NATURAL_SHAPES = {
    "pairs": lambda r: [4 * x + s for x in r[:6] for s in (0, 1)] + [4 * r[6] + 2],
    "flushes": lambda r: (
        [4 * x for x in r[:3]] + [4 * x + 1 for x in r[:5]] + [4 * x + 3 for x in r[:5]]
    ),
    "dragon": lambda r: [4 * x + (x * 7 + r[0]) % 4 for x in range(13)],
    "colour": lambda r: [4 * x + s for x in r[:7] for s in (0, 2)][:13],
}


_SHAPES = st.sampled_from(sorted(_NATURAL_SHAPES))
_QUARTER, _SIXTH, _EIGHTH = st.integers(0, 3), st.integers(0, 5), st.integers(0, 7)
_STAKES = st.sampled_from([0, 1, 3, 100])
_PAIR_STAKES = st.sampled_from([0, 1, 10, 100])


def _draw_natural(draw: st.DrawFn, taken: frozenset[int]) -> list[int] | None:
    shape = draw(_SHAPES)
    ranks = draw(_ORDERS)
    ids = _NATURAL_SHAPES[shape](ranks)
    if len(set(ids)) != 13 or set(ids) & taken:
        return None
    return sorted(ids)


@st.composite
def _natural_ids(draw: st.DrawFn, taken: frozenset[int]) -> list[int] | None:
    return _draw_natural(draw, taken)


def _check_seats(count: Any) -> None:
    if isinstance(count, bool) or not isinstance(count, int) or not 2 <= count <= 4:
        raise ArgumentError(f"seats: a table has 2 to 4 seats (one deck), got {count!r}")


@st.composite
def _table(
    draw: st.DrawFn,
    rules_strategy: st.SearchStrategy[Rules],
    seats: st.SearchStrategy[int],
    naturals: bool,
    fouls: bool,
    surrenders: bool,
    stakes: bool,
) -> Table:
    table_rules = draw(rules_strategy)
    count = draw(seats)
    _check_seats(count)
    taken: frozenset[int] = frozenset()
    out = []
    for _ in range(count):
        hand = _draw_natural(draw, taken) if naturals and draw(_QUARTER) == 0 else None
        if hand is None:
            hand = _draw_ids(draw, 13, taken)
        taken = taken | set(hand)
        arrangement = Arrangement.from_ids(
            _draw_arrangement(draw, hand, table_rules, None if fouls else True)
        )
        surrender = surrenders and table_rules["surrender.enabled"] and draw(_SIXTH) == 0
        declare = not naturals or draw(_EIGHTH) != 0
        out.append(Seat(arrangement, surrender=bool(surrender), declare_natural=declare))
    stake: int | list[list[int]] = 1
    if stakes:
        if draw(_BOOLEANS):
            stake = draw(_STAKES)
        else:
            matrix = [[0] * count for _ in range(count)]
            for i in range(count):
                for j in range(i + 1, count):
                    matrix[i][j] = matrix[j][i] = draw(_PAIR_STAKES)
            stake = matrix
    banker, multipliers = _draw_roles(draw, table_rules, count)
    return Table(table_rules, out, stake, banker, multipliers)


def _draw_roles(draw: st.DrawFn, rules: Rules, count: int) -> tuple[int | None, list[int] | None]:
    """A banker game's banker seat and the seats' multipliers (the banker's
    1); (None, None) outside one."""
    if not rules["banker.enabled"]:
        return None, None
    banker = draw(st.integers(0, count - 1))
    most = st.integers(1, rules["banker.max_multiplier"])
    return banker, [1 if s == banker else draw(most) for s in range(count)]


def tables(
    rules: st.SearchStrategy[Rules] | Rules | None = None,
    seats: st.SearchStrategy[int] | int | None = None,
    naturals: bool = True,
    fouls: bool = True,
    surrenders: bool = True,
    stakes: bool = True,
) -> st.SearchStrategy[Table]:
    """:class:`Table` of 2 to 4 seats from one deck: hands built to hold naturals
    (and some naturals declined), fouled rows, surrenders (when the rules
    allow them) and stakes, one integer or a matrix, each when its flag is
    on. ``rules`` is a :class:`capsa.Rules`, a strategy of them or None (then
    :func:`rules`); ``seats`` a number of seats, a strategy of them or None
    (2 to 4).

    Raises :class:`capsa.ArgumentError` for a number of seats outside 2..4
    (at once for an integer, when drawn for a strategy), and ``TypeError``
    when ``rules`` or ``seats`` is of another type or a flag is not a
    bool."""
    naturals, fouls, surrenders, stakes = (
        _core.read_flag(flag, name)
        for flag, name in (
            (naturals, "naturals"),
            (fouls, "fouls"),
            (surrenders, "surrenders"),
            (stakes, "stakes"),
        )
    )
    if isinstance(rules, Rules):
        rules = st.just(rules)
    elif rules is not None and not isinstance(rules, st.SearchStrategy):
        raise TypeError(
            f"rules must be a capsa.Rules, a strategy of them or None, not {type(rules).__name__}"
        )
    if isinstance(seats, int) and not isinstance(seats, bool):
        _check_seats(seats)
        seats = st.just(seats)
    elif seats is not None and not isinstance(seats, st.SearchStrategy):
        raise TypeError(
            f"seats must be an integer, a strategy of them or None, not {type(seats).__name__}"
        )
    return _table(
        rules if rules is not None else _any_rules(),
        seats if seats is not None else st.integers(2, 4),
        naturals,
        fouls,
        surrenders,
        stakes,
    )
