"""Evidence about the dealing generators for test labs: decks drawn in bulk
and chi-square tests of how cards fall to seats and deck positions.

``capsa rng dump`` writes the raw generator output and shuffles for external
batteries (dieharder, rngtest); :func:`deal_uniformity` is the card-level
check ``benches/uniformity.py`` runs on a million deals and the tests on a
smaller sample.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from capsa import _core

__all__ = ["ChiSquare", "Uniformity", "deal_uniformity", "fair_decks", "seeded_decks"]


def fair_decks(server_seed: bytes, first_nonce: int, count: int) -> npt.NDArray[np.uint8]:
    """(count, 52) decks of the fair deal of ``server_seed`` (no client seeds)
    and nonces ``first_nonce``, ``first_nonce + 1``, ...; card ids in deck
    order (seat s holds positions 13s..13s+12)."""
    return _decks(
        lambda start, n: _core.rng_shuffles_fair(server_seed, first_nonce + start, n), count
    )


def seeded_decks(first_seed: int, count: int) -> npt.NDArray[np.uint8]:
    """(count, 52) decks of the seeded deals of seeds ``first_seed``, ..."""
    return _decks(lambda start, n: _core.rng_shuffles_seeded(first_seed + start, n), count)


def _decks(draw: Callable[[int, int], bytes], count: int) -> npt.NDArray[np.uint8]:
    chunk = 1 << 16
    parts = []
    for start in range(0, count, chunk):
        n = min(chunk, count - start)
        parts.append(np.frombuffer(draw(start, n), dtype=np.uint8))
    flat = np.concatenate(parts) if parts else np.zeros(0, dtype=np.uint8)
    return flat.reshape(count, 52)


@dataclass(frozen=True)
class ChiSquare:
    """A chi-square statistic, its degrees of freedom and how far it lies
    from its mean in standard deviations (Wilson-Hilferty)."""

    statistic: float
    dof: int

    @property
    def z(self) -> float:
        k = self.dof
        cube_root: float = (self.statistic / k) ** (1 / 3)
        return (cube_root - (1 - 2 / (9 * k))) / math.sqrt(2 / (9 * k))

    @property
    def p_value(self) -> float:
        """The upper-tail probability of the statistic."""
        return 0.5 * math.erfc(self.z / math.sqrt(2))


@dataclass(frozen=True)
class Uniformity:
    """Chi-square tests of N decks: each card's seat (52 x 4 counts, each
    card equally likely at each seat) and each card's position (52 x 52)."""

    deals: int
    card_to_seat: ChiSquare
    card_to_position: ChiSquare

    def passes(self, z_limit: float = 4.0) -> bool:
        """True when neither statistic lies more than ``z_limit`` standard
        deviations above or below its mean."""
        return all(abs(c.z) < z_limit for c in (self.card_to_seat, self.card_to_position))


def _chi_square(counts: npt.NDArray[np.int64], expected: float, dof: int) -> ChiSquare:
    return ChiSquare(float(((counts - expected) ** 2).sum() / expected), dof)


def deal_uniformity(decks: npt.NDArray[np.uint8]) -> Uniformity:
    """Chi-square tests of card-to-seat and card-to-position counts over
    (N, 52) decks of card ids in deck order."""
    n = decks.shape[0]
    if decks.ndim != 2 or decks.shape[1] != 52 or n == 0:
        raise ValueError(f"decks must be an (N, 52) array with N >= 1, got shape {decks.shape}")
    cells = decks.astype(np.int64) * 52 + np.arange(52)
    by_position = np.bincount(cells.ravel(), minlength=52 * 52).reshape(52, 52)
    by_seat = by_position.reshape(52, 4, 13).sum(axis=2)
    return Uniformity(
        deals=n,
        # each card's counts sum to n: 3 free cells per card
        card_to_seat=_chi_square(by_seat, n / 4, 52 * 3),
        # rows and columns both sum to n
        card_to_position=_chi_square(by_position, n / 52, 51 * 51),
    )
