"""Huge rule values: a round is refused exactly when a figure it reports does
not fit in a 64-bit integer, and otherwise settled exactly (Python ints are
the yardstick, and the oracle the independent witness)."""

from __future__ import annotations

import random
from itertools import combinations
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import capsa
from capsa import oracle
from capsa.rules.known import presets_of_52_cards
from strategies import arrange, deal_hands, oracle_seats

I64_MAX = 2**63 - 1
I64_MIN = -(2**63)
ROWS = ("top", "middle", "bottom")

# Seat 0 wins the middle (sevens over sixes) and the bottom (aces, king-queen-
# eight over king-queen-seven); seat 1 the top (fours over a five high). Both
# hold three flushes, which they decline; no row holds a royalty.
TWO_ONE = [
    "2d 3d 5c / 7d 7c 9d Td Jc / Ad Ac Kd Qd 8c",
    "4h 4s 2h / 6h 6s 8h 9s Jh / Ah As Kh Qh 7s",
]
SIX_PAIRS = "2h 2s 5h / 5s 8h 8s Jh Js / Kh Ks Ah As 9h"


def _seat(text: str, declare: bool = False) -> capsa.Seat:
    return capsa.Seat(capsa.Arrangement.parse(text), False, declare)


def _batch(seats: list[capsa.Seat], rules: capsa.Rules, stakes: int) -> capsa.BatchSettlement:
    cards = np.array([[s.arrangement.ids for s in seats]], dtype=np.uint8)
    declare = np.array([[s.declare_natural for s in seats]])
    return capsa.settle_batch(cards, rules, stakes, None, declare)


def test_natural_settles_although_row_points_are_huge() -> None:
    # the rows are never compared: a declared natural pays 3 either way
    rules = capsa.Rules.preset("pagat").derive(row_points=9 * 10**18)
    seats = [_seat(SIX_PAIRS, declare=True), _seat(TWO_ONE[0])]
    s = capsa.settle(seats, rules, stakes=1)
    assert s.pairs[0]["outcome"] == "natural"
    assert (s.points, s.money) == ([3, -3], [3, -3])
    batch = _batch(seats, rules, 1)
    assert batch.errors == []
    assert batch.points[0].tolist() == [3, -3]


@pytest.mark.parametrize("row_points", [6 * 10**18, I64_MAX // 3 * 2, I64_MAX])
def test_two_rows_won_one_lost_settles_one_row(row_points: int) -> None:
    # 2 * row_points does not fit in 64 bits; 2 - 1 rows = row_points does
    seats = [_seat(t) for t in TWO_ONE]
    pagat = capsa.Rules.preset("pagat").derive(row_points=row_points)
    s = capsa.settle(seats, pagat, stakes=1)
    pair = s.pairs[0]
    assert pair["rows"] == {"top": -1, "middle": 1, "bottom": 1}
    assert (pair["row_points"], pair["points"]) == (row_points, row_points)
    assert (s.points, s.money, s.net) == ([row_points, -row_points],) * 3
    # capsa-susun: 3% rake on the winner's money, rounded down
    susun = capsa.Rules().derive(row_points=row_points)
    s = capsa.settle(seats, susun, stakes=1)
    assert s.rake == [3 * row_points // 100, 0]
    assert s.net == [row_points - 3 * row_points // 100, -row_points]
    batch = _batch(seats, pagat, 1)
    assert batch.errors == []
    assert batch.money[0].tolist() == [row_points, -row_points]


def test_rake_at_the_largest_money() -> None:
    seats = [_seat(t) for t in TWO_ONE]
    rules = capsa.Rules().derive(money={"rake_percent": 100})
    s = capsa.settle(seats, rules, stakes=I64_MAX)
    assert (s.money, s.rake, s.net) == ([I64_MAX, -I64_MAX], [I64_MAX, 0], [0, -I64_MAX])


@pytest.mark.parametrize(
    ("knobs", "stakes"),
    [
        ({"row_points": 6 * 10**18}, 2),  # the money of 1 row does not fit
        ({"row_points": 6 * 10**18, "overall_point": 4 * 10**18}, 1),  # row + overall
    ],
)
def test_a_round_that_does_not_fit_is_refused(knobs: dict[str, Any], stakes: int) -> None:
    seats = [_seat(t) for t in TWO_ONE]
    rules = capsa.Rules.preset("pagat").derive(knobs)
    with pytest.raises(capsa.TableError, match="64-bit"):
        capsa.settle(seats, rules, stakes=stakes)
    batch = _batch(seats, rules, stakes)
    assert [row for row, _ in batch.errors] == [0]
    assert "64-bit" in batch.errors[0][1]
    assert batch.points[0].tolist() == [0, 0]


# ---- the engine against the oracle, with extreme knobs ----

# the 52-card deck's: the bound's tests take these tables to rounds, which
# deal it
PRESETS = presets_of_52_cards()


def _extreme(low: int) -> st.SearchStrategy[int]:
    """Small values, values at and near the 64-bit limit, and anything in range."""
    near = [I64_MAX, I64_MAX - 1, 2**62, I64_MAX // 2, I64_MAX // 3, I64_MAX // 3 + 1, 2**31]
    small = st.integers(low, 3)
    # small half the time, so that huge values meet tables that do not use them
    return st.one_of(
        small,
        small,
        st.sampled_from(near),
        st.integers(low, I64_MAX),
    )


@st.composite
def extreme_tables(draw: st.DrawFn) -> dict[str, Any]:
    big = _extreme(0)
    royalty = {
        "top": {"pair": draw(big), "trips": draw(big)},
        "middle": {c: draw(big) for c in ("two-pair", "straight", "flush", "full-house")},
        "bottom": {c: draw(big) for c in ("straight", "flush", "full-house", "quads")},
    }
    names = draw(st.permutations(list(capsa.NATURAL_NAMES)))[: draw(st.integers(0, 15))]
    knobs: dict[str, Any] = {
        "row_points": draw(big),
        "overall_point": draw(big),
        "royalty_mode": draw(st.sampled_from(["winner", "always", "none"])),
        "royalty_adds": draw(st.booleans()),
        "scoop": {
            "multiplier": draw(_extreme(1)),
            "bonus": draw(big),
            "multiply_royalties": draw(st.booleans()),
        },
        "sweep_all": {
            "multiplier": draw(_extreme(1)),
            "bonus": draw(big),
            "min_players": draw(st.integers(2, 5)),
        },
        "foul": {
            "mode": draw(st.sampled_from(["sweep-all", "scoop", "fixed"])),
            "points": draw(big),
            "pays_royalties": draw(st.booleans()),
        },
        "surrender": {"enabled": draw(st.booleans()), "cost": draw(big)},
        "naturals": {
            "resolve": draw(st.sampled_from(["higher-wins", "difference"])),
            "ties": draw(st.sampled_from(["push", "compare"])),
            "enabled": [{"name": n, "points": draw(big)} for n in names],
        },
        "royalties": royalty,
        "money": {"rake_percent": draw(st.sampled_from([0, 3, 100]))},
    }
    rules = capsa.Rules.preset(draw(st.sampled_from(PRESETS))).derive(knobs)
    rng = random.Random(draw(st.integers(0, 2**32)))
    players = draw(st.integers(2, 4))
    hands = deal_hands(rng, players)
    seats = [
        {
            "cards": arrange(rng, h, rules),
            "surrender": rules["surrender.enabled"] and rng.random() < 0.2,
            "declare_natural": rng.random() < 0.85,
        }
        for h in hands
    ]
    if draw(st.booleans()):
        stakes: Any = draw(big)
    else:
        stakes = [[0] * players for _ in range(players)]
        for i, j in combinations(range(players), 2):
            stakes[i][j] = stakes[j][i] = draw(big)
    # a banker game names its banker; the players' multipliers up to the largest
    banker = multipliers = None
    if rules["banker.enabled"]:
        banker = draw(st.integers(0, players - 1))
        top = st.integers(1, rules["banker.max_multiplier"])
        multipliers = [1 if s == banker else draw(top) for s in range(players)]
    return {
        "rules": rules,
        "seats": seats,
        "stakes": stakes,
        "banker": banker,
        "multipliers": multipliers,
    }


def roles(table: dict[str, Any]) -> dict[str, Any]:
    """The table's banker and multipliers as keywords of ``settle`` (none
    outside a banker game)."""
    if table["banker"] is None:
        return {}
    return {"banker": table["banker"], "multipliers": table["multipliers"]}


def batch_roles(table: dict[str, Any]) -> dict[str, Any]:
    """:func:`roles` as the arrays of ``settle_batch`` (one table)."""
    if table["banker"] is None:
        return {}
    return {
        "banker": np.array([table["banker"]], dtype=np.int64),
        "multipliers": np.array([table["multipliers"]], dtype=np.int64),
    }


def _row_figures(
    seats: list[dict[str, Any]], rules: dict[str, Any], banker: int | None
) -> list[tuple[int, int]]:
    """(row_points, royalties) of each pair as the engine reports them, from
    docs/rules.md ("Settlement") with the oracle's hands: the rows' points
    and royalties, i's minus j's, when the rows are compared (a tied row the
    banker's when the banker wins ties); the royalties a fouled seat pays; 0
    otherwise, and in a pair a banker game leaves unplayed. The oracle does
    not report these two."""
    rows = [(s["cards"][:3], s["cards"][3:8], s["cards"][8:]) for s in seats]
    natural = [
        s["declare_natural"] and oracle.natural(s["cards"], rules) is not None for s in seats
    ]
    surrender = [s["surrender"] and not n for s, n in zip(seats, natural, strict=True)]
    fouled = [
        oracle.is_foul(*r, rules) and not n and not u
        for r, n, u in zip(rows, natural, surrender, strict=True)
    ]
    mode = rules["royalty_mode"]
    roy = [
        [0] * 3
        if mode == "none"
        else [oracle.royalty(name, cards, rules) for name, cards in zip(ROWS, r, strict=True)]
        for r in rows
    ]
    pays = rules["foul"]["pays_royalties"] and mode != "none"
    figures = []
    wins_ties = rules.get("banker", {}).get("wins_ties", False)
    for i, j in combinations(range(len(seats)), 2):
        unplayed = banker is not None and banker not in (i, j)
        settled = natural[i] or natural[j] or surrender[i] or surrender[j]
        if unplayed or settled or (fouled[i] and fouled[j]):
            figures.append((0, 0))
        elif fouled[j]:
            figures.append((0, sum(roy[i]) if pays else 0))
        elif fouled[i]:
            figures.append((0, -sum(roy[j]) if pays else 0))
        else:
            row_points = royalties = 0
            for r in range(3):
                sign = oracle.compare(rows[i][r], rows[j][r], rules)
                if sign == 0 and wins_ties and banker is not None:
                    sign = 1 if banker == i else -1
                if sign == 0:
                    continue
                value = roy[i if sign > 0 else j][r]
                if mode == "winner" and not rules["royalty_adds"] and value > rules["row_points"]:
                    royalties += sign * value
                else:
                    row_points += sign * rules["row_points"]
                    if mode == "winner" and rules["royalty_adds"]:
                        royalties += sign * value
            if mode == "always":
                royalties = sum(roy[i]) - sum(roy[j])
            figures.append((row_points, royalties))
    return figures


def _fits(x: int) -> bool:
    return I64_MIN <= x <= I64_MAX


@given(table=extreme_tables())
def test_engine_agrees_with_the_oracle_or_refuses(table: dict[str, Any]) -> None:
    rules, seats, stakes = table["rules"], table["seats"], table["stakes"]
    config = rules.to_dict()
    want = oracle.settle(oracle_seats(seats), config, stakes, **roles(table))
    players = len(seats)

    def stake(i: int, j: int) -> int:
        return stakes if isinstance(stakes, int) else int(stakes[i][j])

    pairs = list(combinations(range(players), 2))
    pair_points = [want["pair_points"][i][j] for i, j in pairs]
    row_figures = _row_figures(seats, config, table["banker"])
    reported = [
        *pair_points,
        *(p * stake(i, j) for p, (i, j) in zip(pair_points, pairs, strict=True)),
        *(x for f in row_figures for x in f),
        # a pair's terms before its cap are reported too
        *(pair[term] for pair in want["pairs"] for term in ("base", "natural_bonus")),
        *want["points"],
        *want["money"],
        *want["rake"],
        *want["net"],
    ]
    engine_seats = [
        capsa.Seat(capsa.Arrangement.from_ids(s["cards"]), s["surrender"], s["declare_natural"])
        for s in seats
    ]
    cards = np.array([[s["cards"] for s in seats]], dtype=np.uint8)
    sur = np.array([[s["surrender"] for s in seats]])
    dec = np.array([[s["declare_natural"] for s in seats]])
    batch_stakes = stakes if isinstance(stakes, int) else np.array(stakes, dtype=np.int64)
    batch = capsa.settle_batch(cards, rules, batch_stakes, sur, dec, **batch_roles(table))
    if all(_fits(x) for x in reported):
        got = capsa.settle(engine_seats, rules, stakes, **roles(table))
        assert (got.points, got.money) == (want["points"], want["money"])
        assert (got.rake, got.net) == (want["rake"], want["net"])
        for pair, (i, j), points, (row_points, royalties) in zip(
            got.pairs, pairs, pair_points, row_figures, strict=True
        ):
            assert pair["seats"] == [i, j]
            assert (pair["points"], pair["money"]) == (points, points * stake(i, j))
            assert (pair["row_points"], pair["royalties"]) == (row_points, royalties)
        assert sum(got.points) == 0 and sum(got.money) == 0
        assert sum(got.net) + sum(got.rake) == 0
        assert batch.errors == []
        assert batch.points[0].tolist() == want["points"]
        assert batch.money[0].tolist() == want["money"]
    else:
        with pytest.raises(capsa.TableError, match="64-bit"):
            capsa.settle(engine_seats, rules, stakes, **roles(table))
        assert [row for row, _ in batch.errors] == [0]
        assert "64-bit" in batch.errors[0][1]
