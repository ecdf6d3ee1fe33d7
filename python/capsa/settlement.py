"""Settlement: who pays whom, and why, when the arranging time runs out.

:func:`settle` settles one table with full detail (a :class:`Settlement`
with ``explain()`` and ``to_dict()``); :func:`settle_batch` settles many
tables given as numpy arrays, on every core, with points and money only.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from capsa import _core
from capsa._core import Settlement, settle
from capsa.arrangement import Arrangement
from capsa.rules import Rules

__all__ = ["BatchSettlement", "Seat", "Settlement", "settle", "settle_batch"]


class Seat:
    """A seat at the showdown: its arrangement and what it chose to do.

    ``arrangement`` must be an :class:`Arrangement` and the flags bools
    (numpy bools and ints are refused); anything else is a ``TypeError``.
    """

    __slots__ = ("arrangement", "declare_natural", "surrender")

    arrangement: Arrangement
    surrender: bool
    declare_natural: bool

    def __init__(
        self, arrangement: Arrangement, surrender: bool = False, declare_natural: bool = True
    ) -> None:
        if isinstance(arrangement, Seat):
            raise TypeError("a Seat holds an Arrangement, not a Seat (pass seat.arrangement)")
        if not isinstance(arrangement, Arrangement):
            raise TypeError(f"a Seat holds an Arrangement, not {type(arrangement).__name__}")
        if not isinstance(surrender, bool) or not isinstance(declare_natural, bool):
            raise TypeError("surrender and declare_natural are bools")
        object.__setattr__(self, "arrangement", arrangement)
        object.__setattr__(self, "surrender", surrender)
        object.__setattr__(self, "declare_natural", declare_natural)

    def __setattr__(self, key: str, value: Any) -> None:
        raise AttributeError("Seat is immutable")

    def __repr__(self) -> str:
        return (
            f"Seat({self.arrangement!r}, surrender={self.surrender}, "
            f"declare_natural={self.declare_natural})"
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Seat):
            return NotImplemented
        return (self.arrangement, self.surrender, self.declare_natural) == (
            other.arrangement,
            other.surrender,
            other.declare_natural,
        )

    def __hash__(self) -> int:
        return hash((self.arrangement, self.surrender, self.declare_natural))


class BatchSettlement(NamedTuple):
    """Points and money of N tables, and the tables that could not be settled."""

    points: npt.NDArray[np.int64]
    """(N, P) points per seat; zero on rows listed in ``errors``."""
    money: npt.NDArray[np.int64]
    """(N, P) money per seat in minor units (before rake)."""
    errors: list[tuple[int, str]]
    """(row index, reason) of every table that could not be settled."""


def settle_batch(
    cards: npt.NDArray[np.integer[Any]],
    rules: Rules | None = None,
    stakes: int | Sequence[Sequence[int]] | npt.NDArray[np.integer[Any]] | None = None,
    surrender: npt.NDArray[np.bool_] | None = None,
    declare_natural: npt.NDArray[np.bool_] | None = None,
) -> BatchSettlement:
    """Settles N tables: ``cards`` is (N, P, 13) with P from 2 to 4, each seat's 13
    ids laid out top 0-2, middle 3-7, bottom 8-12 (as :func:`capsa.splits`
    gives them).

    ``cards`` may be a numpy array of any integer dtype, byte order and
    strides (a C-contiguous uint8 array is read in place; any other is
    copied, and an id outside 0..51 raises ``CardError`` naming its row,
    seat and column); N may be 0. Other dtypes and non-arrays raise
    ``TypeError``, other shapes ``TableError``. ``stakes`` (one integer or a
    P x P matrix) and the (N, P) bool flag arrays are checked before any row
    is settled: a bad one raises ``TableError`` (``TypeError`` for a wrong
    type). A table that cannot be settled (repeated cards, ids 52..255 in a
    uint8 array, a surrender the rules do not allow) is reported in
    ``errors`` by its row index; the others are settled. Runs on every core
    without the GIL.
    """
    points, money, errors = _core.settle_batch(cards, rules, stakes, surrender, declare_natural)
    return BatchSettlement(points, money, errors)


def _to_html(
    self: Settlement,
    lang: str = "en",
    *,
    rules: Rules | None = None,
    round_id: object = None,
    seat_names: Sequence[str] | None = None,
    title: str | None = None,
) -> str:
    """The showdown as a self-contained HTML page (``capsa.render.settlement_html``)."""
    from capsa.render import settlement_html

    return settlement_html(
        self, lang, rules=rules, round_id=round_id, seat_names=seat_names, title=title
    )


def _to_svg(
    self: Settlement,
    lang: str = "en",
    *,
    rules: Rules | None = None,
    round_id: object = None,
    seat_names: Sequence[str] | None = None,
    title: str | None = None,
) -> str:
    """The showdown as a standalone SVG picture (``capsa.render.settlement_svg``)."""
    from capsa.render import settlement_svg

    return settlement_svg(
        self, lang, rules=rules, round_id=round_id, seat_names=seat_names, title=title
    )


Settlement.to_html = _to_html  # type: ignore[method-assign]
Settlement.to_svg = _to_svg  # type: ignore[method-assign]
