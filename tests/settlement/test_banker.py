"""The banker game keywords of settle and settle_batch, and their errors."""

from __future__ import annotations

import numpy as np
import pytest

import capsa
from capsa import ArgumentError, TableError

# seat 0 beats every other seat in every row
SWEEP = [
    "As Ah Kd / 2s 5s 7s 9s Js / 3h 6h 8h Th Qh",
    "Ad Kc Qd / 2d 2c 4d 5d 7c / 3d 3c 8d 9d Tc",
    "Ac Kh Qc / 4c 4h 6d 8c Jd / 5c 5h 9c Td Jc",
]

BANKER = capsa.Rules.preset("capsa-susun").derive(
    {"banker.enabled": True, "banker.max_multiplier": 5, "sweep_all.min_players": 4}
)


def test_a_banker_game_settles_the_banker_pairs_times_the_multipliers() -> None:
    s = capsa.settle(SWEEP, BANKER, 1, banker=1, multipliers=[2, 1, 3])
    pairs = {tuple(p["seats"]): p for p in s.pairs}
    assert pairs[(0, 2)]["outcome"] == "unplayed"
    assert pairs[(0, 2)]["points"] == 0
    # each banker pair is its base times the other seat's multiplier
    assert pairs[(0, 1)]["seat_multiplier"] == 2
    assert pairs[(0, 1)]["points"] == 2 * pairs[(0, 1)]["base"]
    assert pairs[(1, 2)]["points"] == 3 * pairs[(1, 2)]["base"]
    assert sum(s.points) == 0


def test_the_terms_are_left_out_of_a_pair_without_them() -> None:
    s = capsa.settle(SWEEP)
    assert all("base" not in p and "horse" not in p for p in s.to_dict()["pairs"])


def test_settle_refuses_a_banker_or_multipliers_the_rules_do_not_allow() -> None:
    with pytest.raises(TableError, match="seat 1 is named the banker") as e:
        capsa.settle(SWEEP, banker=1)
    assert e.value.seat == 1
    with pytest.raises(TableError, match="multiplier must be 1 outside a banker game, got 2"):
        capsa.settle(SWEEP, multipliers=[1, 2, 1])
    with pytest.raises(TableError, match="no seat is named the banker"):
        capsa.settle(SWEEP, BANKER)
    with pytest.raises(TableError, match=r"seat 2's multiplier must be in 1..=5"):
        capsa.settle(SWEEP, BANKER, banker=0, multipliers=[1, 1, 6])
    with pytest.raises(ArgumentError, match=r"banker must be in 0\.\.2, got 3"):
        capsa.settle(SWEEP, BANKER, banker=3)
    with pytest.raises(ArgumentError, match="one integer per seat"):
        capsa.settle(SWEEP, BANKER, banker=0, multipliers=[1, 1])
    with pytest.raises(TypeError):
        capsa.settle(SWEEP, BANKER, banker="0")  # type: ignore[arg-type]


def test_settle_batch_takes_a_banker_per_table_and_multipliers_per_seat() -> None:
    one = [[capsa.Card(c).id for c in s.replace("/", " ").split()] for s in SWEEP]
    cards = np.array([one, one], dtype=np.uint8)
    multipliers = np.array([[2, 1, 3], [1, 4, 1]])
    got = capsa.settle_batch(cards, BANKER, 1, banker=np.array([1, 0]), multipliers=multipliers)
    assert got.errors == []
    for row, banker in enumerate([1, 0]):
        s = capsa.settle(SWEEP, BANKER, 1, banker=banker, multipliers=list(multipliers[row]))
        assert list(got.points[row]) == s.points
    # one banker for every table; a table the rules refuse is listed
    got = capsa.settle_batch(cards, BANKER, 1, banker=0, multipliers=multipliers)
    assert [row for row, _ in got.errors] == [0]
    assert "seat 0 is the banker" in got.errors[0][1]
    with pytest.raises(ArgumentError, match=r"banker\[1\] must be a seat"):
        capsa.settle_batch(cards, BANKER, banker=np.array([0, 5]))
    with pytest.raises(TableError, match="multipliers must have shape"):
        capsa.settle_batch(cards, BANKER, banker=0, multipliers=np.ones((2, 2), dtype=np.int64))
    with pytest.raises(TypeError, match="numpy integer array"):
        capsa.settle_batch(cards, BANKER, banker=0, multipliers=np.ones((2, 3)))  # type: ignore[arg-type]
