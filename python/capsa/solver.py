"""The arranging solver: best arrangements, ranked hints, baselines and tools.

The solver maximises the expected points of a hand under the given rules
against opponents dealt from the remaining cards and arranged well. It reads
per-row win-probability tables (the distribution of an opponent's row hands
over rank classes under self-play), computed by iterated best response and
shipped per preset in the game core (``crates/capsa-core/tables/<preset>.bin``, compiled into the
extension as well).

Custom rules use the shipped tables of the preset with the same ranking
(``wheel``, ``flush_compare``) and the closest scoring (see
:func:`tables_info`); the expected value is always computed with the custom
rules' own numbers (row points, royalties, scoop, sweep-all, table size).
For rules far from every preset, train tables on demand with
:func:`train_tables` and pass them as ``tables=``.

Regenerate the shipped tables (in a source checkout) with::

    python -m capsa.tables train --all --ship          # or --preset pagat
    pip install -e .                                   # re-embeds them

``TRAIN_DEFAULTS`` are the training parameters of the shipped tables and the
defaults of :func:`train_tables`; ``TRAINER_VERSION`` is the version of the
training procedure, which every tables file records.

Strategies (``STRATEGIES``, in this order): ``"solver"`` (the model),
``"separable"`` (the model without the scoop and sweep-all terms),
``"greedy"`` (strongest bottom, then strongest middle of the rest) and
``"random"`` (a random valid split, seeded by the cards).

Efforts (``EFFORTS``): ``"fast"`` (the model alone, about 150 us a hand, the
default) and ``"deep"`` (for hints and the timer's last seconds, at most
about 50 ms a hand on one core): the model's best candidates are settled
exactly against opponent hands sampled from the unseen cards of the rules'
deck and arranged by the fast solver, the same samples for every candidate; the
rows' points are the model's and what the rows' joint outcome decides (the
scoop, the overall point, the sweep-all) the samples', so under rules that
pay only rows (pagat) the deep ranking is the fast one. The sampler is
seeded by the hand's cards, so the answer is reproducible. Only
the model strategies (solver, separable) have a deep mode, and a deep
ranking lists at most ``MAX_DEEP_CHOICES`` (64) choices.

Tables (``TablesLike``) are given as None (the nearest shipped tables),
bytes, a ``bytearray`` or ``memoryview``, a preset name, or the path (a str
or ``os.PathLike``) of a tables file of at most ``MAX_TABLES_BYTES`` bytes
(4 MiB). Tables given as ``tables=`` must be trained under the rules'
``wheel`` and ``flush_compare``: they are keyed by rank class, which those
knobs define, so other tables raise ``RulesError`` naming the knob
(:func:`tables_info` shows any). The ``tie_break`` and the scoring they
were trained under may differ: a rank class leaves the suits out.

Every function takes ``rules`` as a ``capsa.Rules`` or None (the
capsa-susun preset) and raises ``TypeError`` for another type (a preset
name is not taken: use ``Rules.preset(name)``).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from capsa import _core
from capsa._core import ArgumentError
from capsa.arrangement import Arrangement, CardsLike
from capsa.cards import format_cards
from capsa.rules import Rules, RulesError, presets

__all__ = [
    "EFFORTS",
    "MAX_DEEP_CHOICES",
    "MAX_TABLES_BYTES",
    "STRATEGIES",
    "TRAINER_VERSION",
    "TRAIN_DEFAULTS",
    "Choice",
    "TablesLike",
    "best_arrangement",
    "best_arrangement_batch",
    "best_response_check",
    "duplicate_tournament",
    "format_choices",
    "load_tables",
    "rank_arrangements",
    "tables_info",
    "train_tables",
]

STRATEGIES: tuple[str, ...] = tuple(_core.solver_strategies())

#: The efforts, in order of work: ``"fast"`` (the default) and ``"deep"``.
EFFORTS: tuple[str, ...] = tuple(_core.solver_efforts())

#: The most choices :func:`rank_arrangements` lists with ``effort="deep"``.
MAX_DEEP_CHOICES: int = _core.MAX_DEEP_CHOICES

TablesLike = bytes | bytearray | memoryview | str | os.PathLike[str] | None

#: The largest tables file :func:`load_tables` reads (shipped files are ~20 KB).
MAX_TABLES_BYTES = 4 * 1024 * 1024


@dataclass(frozen=True)
class Choice:
    """An arrangement with the solver's decision and its estimate (what
    :func:`best_arrangement` and :func:`rank_arrangements` return).

    ``arrangement``: the :class:`~capsa.Arrangement` to play;
    ``declare_natural``: whether to declare the hand's natural (True only
    when the rules pay one it qualifies for and, for the solver, declaring
    is worth more than the best arrangement; the baselines always declare);
    ``expected_points``: the estimated points of the hand, summed over the
    opponents (a float, in points, not money).
    """

    arrangement: Arrangement
    declare_natural: bool
    expected_points: float

    @property
    def ids(self) -> tuple[int, ...]:
        """The 13 ids as a tuple of ints: top 0-2, middle 3-7, bottom 8-12."""
        return self.arrangement.ids


def _choice(t: tuple[list[int], bool, float]) -> Choice:
    ids, declare, ev = t
    return Choice(Arrangement.from_ids(ids), bool(declare), float(ev))


def load_tables(tables: TablesLike) -> bytes | None:
    """Reads tables given in any accepted form, for the ``tables=`` arguments.

    ``tables`` is None (the nearest shipped tables, chosen in the engine),
    bytes (returned as given), a ``bytearray`` or ``memoryview`` (copied), a
    preset name (its shipped tables) or the path (a str or ``os.PathLike``)
    of a tables file of at most :data:`MAX_TABLES_BYTES` bytes.

    Returns the bytes, or None. They are not validated here: the engine
    validates them where they are used (``RulesError``).

    Raises ``RulesError`` for a preset that ships no tables of its own, a
    path that is neither a preset nor a readable file, a path holding a
    NUL, or a file larger than
    :data:`MAX_TABLES_BYTES`; ``TypeError`` for another type.
    """
    if tables is None or isinstance(tables, bytes):
        return tables
    if isinstance(tables, bytearray | memoryview):
        return bytes(tables)
    if not isinstance(tables, str | os.PathLike):
        raise TypeError(
            f"tables must be bytes, a preset name or a path, not {type(tables).__name__}"
        )
    if isinstance(tables, str) and tables in presets():
        shipped = _core.shipped_tables(tables)
        if shipped is None:
            raise RulesError(
                f"preset {tables!r} ships no tables of its own; leave tables out "
                "for the shipped tables nearest to its rules, or train them "
                "(python -m capsa.tables train --preset ... --ship)"
            )
        return shipped
    shown = repr(os.fspath(tables))
    try:
        with open(tables, "rb") as f:
            # one byte past the bound tells an oversized file apart
            data = f.read(MAX_TABLES_BYTES + 1)
    except OSError as exc:
        raise RulesError(
            f"tables {shown} are neither a preset nor a readable file: {exc.strerror}"
        ) from None
    except ValueError as exc:  # a NUL in the path
        raise RulesError(f"tables {shown} are not a valid path: {exc}") from None
    if len(data) > MAX_TABLES_BYTES:
        raise RulesError(
            f"tables file {shown} is larger than {MAX_TABLES_BYTES} bytes "
            "(a tables file is about 20 KB)"
        )
    return data


# The names the core takes for a strategy and an effort: what they are
# called together, the choices, and the error an unknown one raises.
_NAMED_CHOICES: dict[str, tuple[str, tuple[str, ...], type[Exception]]] = {
    "strategy": ("strategies", STRATEGIES, RulesError),
    "effort": ("efforts", EFFORTS, ArgumentError),
}


def _core_name(value: str, what: str) -> str:
    """``value`` as the core reads a strategy or effort name. A str the core
    cannot take as text (a lone surrogate) is an unknown name, raised as the
    core raises one; other types go on to the core, which raises
    ``TypeError`` naming the argument."""
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            plural, names, error = _NAMED_CHOICES[what]
            raise error(f"unknown {what} {value!r}; the {plural} are {', '.join(names)}") from None
    return value


def best_arrangement(
    cards: CardsLike,
    rules: Rules | None = None,
    *,
    seats: int = 4,
    strategy: str = "solver",
    tables: TablesLike = None,
    effort: str = "fast",
) -> Choice:
    """The best arrangement of 13 cards, whether to declare the natural, and
    the estimated expected points of the hand (summed over opponents).

    ``cards`` is 13 cards: text (``"As Kd ..."``), or a list, tuple or other
    iterable (a numpy array too) of ``Card`` objects, integer ids and
    one-card texts, each a card of the rules' deck (0..51 for the 52-card
    deck). ``rules`` is a ``Rules`` or None (capsa-susun). ``seats`` (an
    int, default 4: 2..4 for the 52-card deck, up to as many as a larger
    deck deals 13 cards to) is the table size the estimate is for.
    ``strategy`` is one of :data:`STRATEGIES`: ``"solver"`` (the default),
    ``"separable"``, ``"greedy"`` or ``"random"``. ``tables`` is
    None (the nearest shipped tables), bytes, a preset name or the path of a
    tables file (see :func:`load_tables`). ``effort`` is one of
    :data:`EFFORTS`: ``"fast"`` (the default) or ``"deep"`` (the strategy's
    best candidates re-scored against sampled opponents, see the module
    documentation; then ``expected_points`` is the blend of the model's and
    the sampled estimate).

    Returns a :class:`Choice`; its arrangement never fouls under the rules.

    Raises ``CardError`` for a card that cannot be read or is not in the
    rules' deck; ``HandError`` for other than 13 cards or a card given
    twice; ``TableError`` for ``seats`` the deck does not seat;
    ``RulesError`` for an unknown strategy or tables that cannot be read,
    fail validation or were trained under another ``wheel``,
    ``flush_compare`` or deck;
    ``ArgumentError`` for an unknown effort or ``effort="deep"`` with a
    baseline (greedy, random); ``TypeError`` for cards, ``seats`` (a bool, a
    float), ``strategy``, ``tables``, ``effort`` or ``rules`` of the wrong
    type.
    """
    return _choice(
        _core.best_arrangement(
            cards,
            rules,
            seats=seats,
            strategy=_core_name(strategy, "strategy"),
            tables=load_tables(tables),
            effort=_core_name(effort, "effort"),
        )
    )


def rank_arrangements(
    cards: CardsLike,
    rules: Rules | None = None,
    k: int = 5,
    *,
    seats: int = 4,
    tables: TablesLike = None,
    effort: str = "fast",
) -> list[Choice]:
    """The k best choices of the solver for 13 cards, best first (declaring
    the natural, when the rules pay one, is one entry).

    ``cards``, ``rules``, ``seats``, ``tables`` and ``effort`` are as for
    :func:`best_arrangement`; ``k`` is an int >= 1 (default 5), and a k
    larger than the hand's choices gives all of them. With
    ``effort="deep"`` the model's best ``max(k, 32)`` candidates are
    re-scored and ``k`` is at most :data:`MAX_DEEP_CHOICES`.

    Returns a list of at most ``k`` :class:`Choice`, by descending
    ``expected_points``.

    Raises what :func:`best_arrangement` raises (``CardError``,
    ``HandError``, ``TableError``, ``RulesError``, ``ArgumentError``,
    ``TypeError``), and ``ArgumentError`` for ``k`` < 1 or, deep, above
    :data:`MAX_DEEP_CHOICES`; ``TypeError`` for a ``k`` that is not an int.
    """
    rows = _core.rank_arrangements(
        cards,
        rules,
        k,
        seats=seats,
        tables=load_tables(tables),
        effort=_core_name(effort, "effort"),
    )
    return [_choice(r) for r in rows]


def best_arrangement_batch(
    ids: npt.NDArray[np.integer[Any]],
    rules: Rules | None = None,
    *,
    seats: int = 4,
    strategy: str = "solver",
    tables: TablesLike = None,
    effort: str = "fast",
) -> npt.NDArray[np.uint8]:
    """Arranges N hands at once, on every core without the GIL.

    ``ids`` is a numpy array of card ids of shape (N, 13), of any integer
    dtype, byte order and strides (uint8 C-contiguous is read in place,
    others are copied); N may be 0. ``rules``, ``seats``, ``strategy``,
    ``tables`` and ``effort`` are as for :func:`best_arrangement`.

    Returns a uint8 array of shape (N, 13): each hand's best arrangement,
    laid out top 0-2, middle 3-7, bottom 8-12 (the natural is not reported:
    use :func:`best_arrangement` for that).

    Raises ``CardError`` for an id not in the rules' deck and ``HandError``
    for a card repeated in a row (each naming the row); ``TableError`` for
    another shape or ``seats`` the deck does not seat; ``RulesError`` for an unknown strategy
    or bad tables; ``ArgumentError`` for an unknown effort or a deep
    baseline; ``TypeError`` for a non-array, a non-integer dtype, or an
    argument of the wrong type.
    """
    return _core.best_arrangement_batch(
        ids,
        rules,
        seats=seats,
        strategy=_core_name(strategy, "strategy"),
        tables=load_tables(tables),
        effort=_core_name(effort, "effort"),
    )


#: The training parameters of the shipped tables, the defaults of
#: :func:`train_tables` and of ``python -m capsa.tables train``.
TRAIN_DEFAULTS: dict[str, int] = dict(_core.TRAIN_DEFAULTS)

#: The version of the training procedure, written into every tables file as
#: ``trainer``; the shipped tables carry the current one.
TRAINER_VERSION: int = _core.TRAINER_VERSION


def train_tables(
    rules: Rules | None = None,
    *,
    seats: int = TRAIN_DEFAULTS["seats"],
    hands: int = TRAIN_DEFAULTS["hands"],
    iterations: int = TRAIN_DEFAULTS["iterations"],
    seed: int = TRAIN_DEFAULTS["seed"],
    name: str = "custom",
    progress: Callable[[int, int], object] | None = None,
) -> bytes:
    """Computes tables for any rules by iterated best response (greedy
    start, then ``iterations`` rounds of the solver against the current
    tables, each averaged with the previous). The result depends only on
    the rules and the parameters, never on the thread count or on the
    tables shipped today.

    ``rules`` is a ``Rules`` or None (capsa-susun); ``seats`` an int, the
    table size the opponents play for (2..4 for the 52-card deck, up to as
    many as a larger deck deals 13 cards to); ``hands`` an int
    1..10,000,000, rounded up to a multiple of the hands a deck deals (four
    of the 52-card deck, as many as a larger deck seats; fresh each
    iteration); ``iterations`` an int 0..100; ``seed`` an int
    0..2**64-1; ``name`` the tables' name, 1 to 64 of ``A-Z a-z 0-9 _ . -``.
    The defaults are :data:`TRAIN_DEFAULTS`, the parameters of the shipped
    tables (about 75 s on two cores); every parameter and
    :data:`TRAINER_VERSION` go into the metadata.

    ``progress``, when given, is called as ``progress(done, total)`` with the
    deals arranged so far and in all, a few times a second while training
    (from the calling thread); an exception it raises, or a signal such as
    Ctrl-C, stops the training and is raised here.

    Returns the tables file's bytes, to pass as ``tables=`` or write to a
    file.

    Raises ``TableError`` for ``seats`` the deck does not seat (as every
    ``seats`` argument), ``ArgumentError`` for ``hands``, ``iterations`` or ``seed``
    out of range, ``RulesError`` for a bad ``name``, ``TypeError`` for an
    argument of the wrong type (a bool, a float, a non-str name).
    """
    return _core.train_tables(
        rules,
        seats=seats,
        hands=hands,
        iterations=iterations,
        seed=seed,
        name=name,
        progress=progress,
    )


def tables_info(rules: Rules | None = None, tables: TablesLike = None) -> dict[str, Any]:
    """Metadata of the tables the solver uses for ``rules`` (``tables`` when
    given, else the nearest shipped ones).

    ``rules`` is a ``Rules`` or None (capsa-susun); ``tables`` is any form
    :func:`load_tables` takes.

    Returns a dict: the tables file's metadata as strs (``preset``, the one
    they were trained for; ``seats``, ``hands``, ``iterations``, ``seed``,
    ``scoop_rate`` and the rules they were trained with), ``distance`` (a
    float, how far their scoring is from the rules', 0 for a preset's own
    rules), ``classes`` (the number of rank classes of each row) and
    ``joint`` (the bins per row of the copula's grid of row percentiles,
    None for tables without one).

    Raises ``RulesError`` for tables that cannot be read or fail validation,
    ``TypeError`` for arguments of the wrong type.
    """
    return dict(_core.solver_tables_info(rules, load_tables(tables)))


def duplicate_tournament(
    strategies: Sequence[str],
    rules: Rules | None = None,
    *,
    seats: int = 4,
    deals: int = 2000,
    seed: int = 0,
    tables: TablesLike = None,
) -> dict[str, Any]:
    """Duplicate tournament: every deal replayed with the strategies rotated
    through the seats, settled under the rules.

    ``strategies`` is a list or other sequence of at least two names from
    :data:`STRATEGIES` (repeats allowed); ``rules`` a ``Rules`` or None
    (capsa-susun); ``seats`` an int the rules' deck seats (2..4 for the
    52-card deck); ``deals`` an int >= 1; ``seed`` an
    int 0..2**64-1; ``tables`` any form :func:`load_tables` takes.

    Returns a dict: ``strategies``, ``seats``, ``deals``, ``patterns`` (the
    seatings), ``mean`` and ``ci95`` (points per hand of each strategy and
    the half-width of its 95% interval) and ``diff``, ``diff_ci95`` (the
    first strategy minus the second, per hand).

    Raises ``TableError`` for ``seats`` the deck does not seat or fewer than
    two strategies, ``ArgumentError`` for ``deals`` or ``seed`` out of range,
    ``RulesError`` for an unknown strategy or bad tables, ``TypeError`` for
    an argument of the wrong type (``strategies`` given as one str
    included: it is a list of names).
    """
    if isinstance(strategies, str):
        raise TypeError(f"strategies must be a list of strategy names, not the str {strategies!r}")
    return dict(
        _core.duplicate_tournament(
            list(strategies), rules, seats=seats, deals=deals, seed=seed, tables=load_tables(tables)
        )
    )


def best_response_check(
    rules: Rules | None = None,
    *,
    hands: int = 100,
    opponents: int = 1000,
    seed: int = 0,
    tables: TablesLike = None,
    strategy: str = "solver",
    effort: str = "fast",
    opponents_strategy: str = "solver",
) -> dict[str, Any]:
    """Measures a strategy against the best response: for ``hands`` sampled
    hands, every legal arrangement (and declaring the natural) is settled
    heads-up against ``opponents`` hands dealt from the rest of the rules'
    deck and arranged (fast) by ``opponents_strategy``, and compared with the pick of
    ``strategy`` at ``effort``.

    ``rules`` is a ``Rules`` or None (capsa-susun); ``hands`` and
    ``opponents`` are ints >= 1; ``seed`` an int 0..2**64-1; ``tables`` any
    form :func:`load_tables` takes; ``strategy`` and ``opponents_strategy``
    names from :data:`STRATEGIES` (default ``"solver"``); ``effort`` one of
    :data:`EFFORTS` (default ``"fast"``). The check's opponents are dealt
    from the seed's own stream, never the deep mode's samples (which are
    seeded by the hand's cards): a pick fitted to the very opponents it is
    scored against would show a regret biased low.

    Returns a dict: ``opponents``; ``mean_regret`` and ``regret_ci95`` (the
    best mean minus the solver pick's mean, in points per opponent per hand,
    and its 95% half-width); ``mean_holdout_regret`` and ``holdout_ci95``
    (the best chosen on half of the opponents, scored on the other half);
    ``hands``, per hand a tuple (ids, legal arrangements, solver points,
    best points, regret, holdout regret).

    Raises ``ArgumentError`` for ``hands``, ``opponents`` or ``seed`` out of
    range, an unknown effort or a deep baseline; ``RulesError`` for bad
    tables or an unknown strategy; ``TypeError`` for an argument of the
    wrong type.
    """
    return dict(
        _core.best_response_check(
            rules,
            hands=hands,
            opponents=opponents,
            seed=seed,
            tables=load_tables(tables),
            strategy=strategy,
            effort=effort,
            opponents_strategy=opponents_strategy,
        )
    )


def format_choices(choices: Sequence[Choice], natural: str | None = None) -> str:
    """A text table of ranked choices, best first (what ``capsa arrange``
    prints).

    ``choices`` is a sequence of :class:`Choice` (as
    :func:`rank_arrangements` returns); ``natural`` the hand's natural name
    (or None), named in the note of a choice that declares it.

    Returns the table as one str: a header line, then per choice its rank,
    rows, expected points and note. Raises ``TypeError`` for an item that is
    not a ``Choice`` (naming its index and type) or a ``natural`` that is not
    a str or None.
    """
    if natural is not None and not isinstance(natural, str):
        raise TypeError(f"natural must be a str or None, not {type(natural).__name__}")
    lines = [f"{'#':>2}  {'top':<10} {'middle':<16} {'bottom':<16} {'E[points]':>9}  note"]
    for k, c in enumerate(choices, start=1):
        if not isinstance(c, Choice):
            raise TypeError(f"choices[{k - 1}] must be a Choice, not {type(c).__name__}")
        a = c.arrangement
        note = f"declare {natural or 'the natural'}" if c.declare_natural else ""
        lines.append(
            f"{k:>2}  {format_cards(a.top):<10} {format_cards(a.middle):<16} "
            f"{format_cards(a.bottom):<16} {c.expected_points:>+9.3f}  {note}".rstrip()
        )
    return "\n".join(lines)
