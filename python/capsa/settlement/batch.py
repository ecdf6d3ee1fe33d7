"""Many tables settled at once: :func:`settle_batch` settles tables given
as numpy arrays, on every core, with points and money only."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from capsa import _core
from capsa.rules import Rules

__all__ = ["BatchSettlement", "settle_batch"]


class BatchSettlement(NamedTuple):
    """Points and money of N tables, and the tables that could not be settled
    (what :func:`settle_batch` returns; a named tuple).

    ``points``: int64 (N, P) points per seat, zero on the rows listed in
    ``errors``. ``money``: int64 (N, P) money per seat in minor units (points
    times the pair stakes, before rake). ``errors``: a list of (row index,
    ``"Kind: message"``) for every table that could not be settled, ``Kind``
    the name of the ``CapsaError`` subclass it would have raised.
    """

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
    *,
    banker: int | npt.NDArray[np.integer[Any]] | None = None,
    multipliers: npt.NDArray[np.integer[Any]] | None = None,
) -> BatchSettlement:
    """Settles N tables at once, on every core without the GIL: points and
    money only (see :func:`settle` for one table in full detail).

    ``cards`` is a numpy array of card ids of shape (N, P, 13), P from 2 to
    4 (to as many as a larger deck deals 13 cards to, at most 8: docs/rules.md,
    "Tables of larger decks"), each seat's 13 ids laid out top 0-2, middle 3-7, bottom 8-12 (as
    :func:`capsa.splits` gives them); any integer dtype, byte order and
    strides (a C-contiguous uint8 array is read in place, any other is
    copied); N may be 0. ``rules`` is a ``Rules`` or None (the capsa-susun
    preset). ``stakes``, in minor units per point, is None (the rules'
    ``money.stake``), one integer or a P x P symmetric matrix of
    non-negative integers (nested sequences or a 2-d numpy integer array;
    the diagonal is ignored). ``surrender`` and ``declare_natural`` are None
    (no seat surrenders; every seat declares its natural) or numpy bool
    arrays of shape (N, P). ``banker`` (a banker game's banker seat: one
    int for every table or an int array of shape (N,), -1 for a table of no
    banker) and ``multipliers``
    (each seat's stake multiplier, an int array of shape (N, P)) are as
    :func:`settle`'s; a table whose banker or multipliers its rules refuse
    is listed in ``errors``.

    Returns a :class:`BatchSettlement` (``points``, ``money``, ``errors``).
    A table that cannot be settled (a repeated card, a card the rules' deck
    does not hold, a surrender the rules do not enable, figures past 64 bits)
    is listed in ``errors`` by its row index with zero points and money; the
    others are settled.

    Raises, before any row is settled: ``TableError`` for another shape,
    stakes that are negative, not symmetric or of the wrong shape, or flag
    arrays of the wrong shape; ``ArgumentError`` for a banker that is not a
    seat; ``CardError`` for an id outside 0..105 in an array that is not
    uint8 (naming its row, seat and column); ``TypeError`` for a non-array
    or non-integer ``cards``, ``banker`` or ``multipliers``, stakes given as
    a float, bool, str or non-integer array, flags that are not numpy bool arrays, or
    ``rules`` that is not a ``Rules`` or None.
    """
    points, money, errors = _core.settle_batch(
        cards, rules, stakes, surrender, declare_natural, banker=banker, multipliers=multipliers
    )
    return BatchSettlement(points, money, errors)
