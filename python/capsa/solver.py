"""The arranging solver: best arrangements, ranked hints, baselines and tools.

The solver maximises the expected points of a hand under the given rules
against opponents dealt from the remaining cards and arranged well. It reads
per-row win-probability tables (the distribution of an opponent's row hands
over rank classes under self-play), computed by iterated best response and
shipped per preset in ``capsa/tables/<preset>.bin`` (compiled into the
extension as well).

Custom rules use the shipped tables of the preset with the same ranking
(``wheel``, ``flush_compare``) and the closest scoring (see
:func:`tables_info`); the expected value is always computed with the custom
rules' own numbers (row points, royalties, scoop, sweep-all, table size).
For rules far from every preset, train tables on demand with
:func:`train_tables` and pass them as ``tables=``.

Regenerate the shipped tables with::

    python -m capsa.tables train --preset pagat        # or --all
    pip install -e .                                   # re-embeds them

Strategies: ``"solver"`` (the model), ``"separable"`` (the model without the
scoop and sweep-all terms), ``"greedy"`` (strongest bottom, then strongest
middle of the rest) and ``"random"`` (a random valid split, seeded by the
cards).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources
from typing import Any

import numpy as np
import numpy.typing as npt

from capsa import _core
from capsa.arrangement import Arrangement, CardsLike
from capsa.cards import format_cards
from capsa.rules import Rules, RulesError, presets

__all__ = [
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

TablesLike = bytes | bytearray | memoryview | str | os.PathLike[str] | None

#: The largest tables file :func:`load_tables` reads (shipped files are ~20 KB).
MAX_TABLES_BYTES = 4 * 1024 * 1024


@dataclass(frozen=True)
class Choice:
    """An arrangement with the solver's decision and its estimate."""

    arrangement: Arrangement
    declare_natural: bool
    expected_points: float

    @property
    def ids(self) -> tuple[int, ...]:
        """The 13 ids: top 0-2, middle 3-7, bottom 8-12."""
        return self.arrangement.ids


def _choice(t: tuple[list[int], bool, float]) -> Choice:
    ids, declare, ev = t
    return Choice(Arrangement.from_ids(ids), bool(declare), float(ev))


def load_tables(tables: TablesLike) -> bytes | None:
    """Tables as bytes: ``None`` (the nearest shipped tables, chosen in the
    engine), bytes (a ``bytearray`` or ``memoryview`` is copied) as given, a
    preset name or the path of a tables file of at most
    :data:`MAX_TABLES_BYTES` bytes. The engine validates the bytes."""
    if tables is None or isinstance(tables, bytes):
        return tables
    if isinstance(tables, bytearray | memoryview):
        return bytes(tables)
    if not isinstance(tables, str | os.PathLike):
        raise TypeError(
            f"tables must be bytes, a preset name or a path, not {type(tables).__name__}"
        )
    if isinstance(tables, str) and tables in presets():
        return (resources.files("capsa") / "tables" / f"{tables}.bin").read_bytes()
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


def best_arrangement(
    cards: CardsLike,
    rules: Rules | None = None,
    *,
    seats: int = 4,
    strategy: str = "solver",
    tables: TablesLike = None,
) -> Choice:
    """The best arrangement of 13 cards, whether to declare the natural, and
    the estimated expected points of the hand (summed over opponents).

    ``cards`` is read as by :func:`capsa.card_ids` (exactly 13); ``seats`` is
    an int 2..4 (``TableError`` outside, ``TypeError`` for a non-int)."""
    return _choice(
        _core.best_arrangement(
            cards, rules, seats=seats, strategy=strategy, tables=load_tables(tables)
        )
    )


def rank_arrangements(
    cards: CardsLike,
    rules: Rules | None = None,
    k: int = 5,
    *,
    seats: int = 4,
    tables: TablesLike = None,
) -> list[Choice]:
    """The k best choices, best first (a declared natural is one entry).

    ``k`` is an int >= 1 (``ArgumentError`` below, ``TypeError`` for a
    non-int); a k larger than the hand's choices gives all of them."""
    rows = _core.rank_arrangements(cards, rules, k, seats=seats, tables=load_tables(tables))
    return [_choice(r) for r in rows]


def best_arrangement_batch(
    ids: npt.NDArray[np.integer[Any]],
    rules: Rules | None = None,
    *,
    seats: int = 4,
    strategy: str = "solver",
    tables: TablesLike = None,
) -> npt.NDArray[np.uint8]:
    """Arranges N hands ((N, 13) ids) on all cores: uint8 (N, 13) laid out
    top 0-2, middle 3-7, bottom 8-12.

    ``ids`` is a numpy array of any integer dtype, byte order and strides
    (uint8 C-contiguous is read in place; others are copied, an id outside
    0..51 raising ``CardError`` naming its row and column); N may be 0.
    Other dtypes and non-arrays raise ``TypeError``, other shapes
    ``TableError``."""
    return _core.best_arrangement_batch(
        ids, rules, seats=seats, strategy=strategy, tables=load_tables(tables)
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
) -> bytes:
    """Computes tables for ``rules`` (``None``: capsa-susun) by iterated best
    response: a greedy start, then ``iterations`` rounds of the solver
    against the current tables, each averaged with the previous. ``hands``
    are dealt four to a deck (rounded up to whole deals), fresh each
    iteration, from ``seed``; ``seats`` (2 to 4) is the table size the
    opponents play for; ``name`` (1 to 64 of ``A-Z a-z 0-9 _ . -``) goes
    into the metadata beside :data:`TRAINER_VERSION` and every parameter.

    The result depends only on the rules and the parameters, never on the
    thread count or on the tables shipped today. Returns the file's bytes,
    for :func:`load_tables` or the ``tables=`` argument of the solver's
    functions. Takes about 75 s for the defaults on two cores.

    Raises ``RulesError`` for a bad name, ``ArgumentError`` for sizes out of
    range, ``TypeError`` for non-int sizes (bools included)."""
    return _core.train_tables(
        rules, seats=seats, hands=hands, iterations=iterations, seed=seed, name=name
    )


def tables_info(rules: Rules | None = None, tables: TablesLike = None) -> dict[str, Any]:
    """Metadata of the tables used for ``rules``: the preset they were trained
    for, training parameters and ``distance`` (0 for a preset's own rules)."""
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
    through the seats; mean points per hand per strategy with 95% CIs, and
    ``diff`` (first minus second strategy, per hand) with its CI.

    ``seats`` is 2..4 (``TableError``), ``deals`` >= 1 and ``seed`` in
    0..2**64-1 (``ArgumentError``); non-ints are a ``TypeError``."""
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
) -> dict[str, Any]:
    """For sampled hands, every legal arrangement scored heads-up against
    ``opponents`` sampled hands arranged by the solver; the regret of the
    solver's pick (``mean_regret``) and a held-out version.

    ``hands`` and ``opponents`` are >= 1 and ``seed`` in 0..2**64-1
    (``ArgumentError``); non-ints are a ``TypeError``."""
    return dict(
        _core.best_response_check(
            rules, hands=hands, opponents=opponents, seed=seed, tables=load_tables(tables)
        )
    )


def format_choices(choices: Sequence[Choice], natural: str | None = None) -> str:
    """A text table of ranked choices, best first (what ``capsa arrange``
    prints); a choice that declares the hand's ``natural`` says so."""
    lines = [f"{'#':>2}  {'top':<10} {'middle':<16} {'bottom':<16} {'E[points]':>9}  note"]
    for k, c in enumerate(choices, start=1):
        a = c.arrangement
        note = f"declare {natural or 'the natural'}" if c.declare_natural else ""
        lines.append(
            f"{k:>2}  {format_cards(a.top):<10} {format_cards(a.middle):<16} "
            f"{format_cards(a.bottom):<16} {c.expected_points:>+9.3f}  {note}".rstrip()
        )
    return "\n".join(lines)
