"""A round's stakes are checked when it is made: ``Round(...)`` refuses
stakes (or rules) with which some round of its table could settle beyond
the engine's 64-bit money, naming the stake and the bound, so that a round
that is made can always be settled (a server's table never stalls on a
round that cannot settle). The bound is the engine's
(``_core.largest_seat_points``); the oracle, which settles in Python's
unbounded ints and shares none of it, is the witness that no table settles
beyond it, and directed tables reach it exactly."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings

import capsa
from capsa import _core, oracle
from settlement.test_overflow import extreme_tables, roles
from strategies import oracle_seats

I64_MAX = 2**63 - 1


def _largest_stake(rules: capsa.Rules, seats: int) -> int | None:
    points = _core.largest_seat_points(rules, seats)
    if points > I64_MAX:
        return None
    return I64_MAX if points == 0 else I64_MAX // points


def _seat(text: str, declare: bool = True) -> capsa.Seat:
    return capsa.Seat(capsa.Arrangement.parse(text), False, declare)


def test_stakes_that_overflow_only_at_settlement_are_refused_when_the_round_is_made() -> None:
    # the case: made, dealt and closed, then no settlement, ever
    largest = _largest_stake(capsa.Rules(), 4)
    assert largest == I64_MAX // 624  # a dragon collects 208 from each other seat
    with pytest.raises(capsa.ArgumentError) as refused:
        capsa.Round(None, 4, 2**62, round_id="t/1")
    message = str(refused.value)
    assert message.startswith(f"stakes: {2**62} is more than {largest}, the largest stake")
    assert "208 points" in message
    rnd = capsa.Round(None, 4, largest, round_id="t/1", server_seed=bytes(32))
    rnd.deal()
    rnd.close()
    assert sum(rnd.settle().money) == 0


def test_a_simulation_that_could_not_settle_a_deal_is_refused_before_any() -> None:
    largest = _largest_stake(capsa.Rules(), 4)
    with pytest.raises(capsa.ArgumentError, match=f"^stakes: {2**62} is more than {largest}"):
        capsa.simulate(None, 1_000_000, strategy="greedy", stake=2**62)
    assert capsa.simulate(None, 4, strategy="greedy", stake=largest).deals == 4


def test_a_seats_stakes_in_a_matrix_are_summed() -> None:
    # a seat settles for at most 208 points with each other seat
    most = I64_MAX // (_core.largest_seat_points(capsa.Rules(), 3) // 2)
    a = most // 2
    fits = [[0, a, most - a], [a, 0, 0], [most - a, 0, 0]]
    capsa.Round(None, 3, fits, round_id="t/1")
    over = [[0, a, most - a + 1], [a, 0, 0], [most - a + 1, 0, 0]]
    with pytest.raises(capsa.ArgumentError) as refused:
        capsa.Round(None, 3, over, round_id="t/1")
    assert str(refused.value).startswith(
        f"stakes[0]: seat 0's stakes sum to {most + 1}, more than {most}"
    )


def test_rules_whose_points_alone_overflow_are_refused() -> None:
    rules = capsa.Rules.preset("pagat").derive(row_points=2**61)
    with pytest.raises(capsa.ArgumentError, match=r"^rules: a seat of a 4-seat table"):
        capsa.Round(rules, 4, 0, round_id="t/1")
    # settle alone still settles every round that fits, exactly
    seats = [_seat("2d 3d 5c / 7d 7c 9d Td Jc / Ad Ac Kd Qd 8c", False)]
    seats.append(_seat("4h 4s 2h / 6h 6s 8h 9s Jh / Ah As Kh Qh 7s", False))
    assert capsa.settle(seats, rules, stakes=1).points == [2**61, -(2**61)]


DRAGON = "2s 3h 4d / 5c 6s 7h 8d 9c / Ts Jh Qd Kc As"
LOSERS = [
    "2c 3c 4c / 5d 6d 7d 8c 9d / Tc Jc Qc Kd Ac",
    "2h 3s 4s / 5h 6h 7c 8s 9h / Th Js Qh Ks Ad",
    "2d 3d 4h / 5s 6c 7s 8h 9s / Td Jd Qs Kh Ah",
]


def test_a_dragon_reaches_the_bound_and_one_more_overflows() -> None:
    seats = [_seat(DRAGON), *(_seat(t, False) for t in LOSERS)]
    largest = _largest_stake(capsa.Rules(), 4)
    assert largest is not None
    s = capsa.settle(seats, None, stakes=largest)
    assert s.points[0] == 624 and s.money[0] == 624 * largest
    with pytest.raises(capsa.TableError, match="64-bit"):
        capsa.settle(seats, None, stakes=largest + 1)
    config = capsa.Rules().to_dict()
    assert oracle.settle(_oracle(seats), config, largest + 1)["money"][0] > I64_MAX


def _oracle(seats: list[capsa.Seat]) -> list[dict[str, Any]]:
    return oracle_seats(
        [
            {
                "cards": list(s.arrangement.ids),
                "surrender": s.surrender,
                "declare_natural": s.declare_natural,
            }
            for s in seats
        ]
    )


def test_a_sweep_of_every_row_reaches_the_bound_of_rules_without_naturals() -> None:
    rules = capsa.Rules.preset("capsa-susun").derive(
        royalty_mode="none",
        overall_point=2,
        naturals={"enabled": []},
        scoop={"multiplier": 3, "bonus": 5},
        sweep_all={"multiplier": 6, "bonus": 7, "min_players": 4},
        foul={"mode": "fixed", "points": 1},
    )
    # a pair: (3 rows + the overall point) * 6 + 7 at four seats
    assert _core.largest_seat_points(rules, 4) == 3 * (5 * 6 + 7)
    assert _core.largest_seat_points(rules, 3) == 2 * (5 * 3 + 5)  # no sweep-all
    winner = "Ac Ah Ad / 9h Th Jh Qh Kh / Ts Js Qs Ks As"
    rest = [c for c in range(52) if c not in capsa.Arrangement.parse(winner).ids]
    rng = random.Random(5)
    rng.shuffle(rest)
    seats = [_seat(winner, False)]
    for k in range(3):
        hand = rest[13 * k : 13 * k + 13]
        split = capsa.splits(hand, rules)[0]
        seats.append(capsa.Seat(capsa.Arrangement.from_ids(split), False, False))
    largest = _largest_stake(rules, 4)
    assert largest is not None
    s = capsa.settle(seats, rules, stakes=largest)
    assert s.points[0] == 3 * 37 and all(p["sweep_all"] for p in s.pairs[:3])
    with pytest.raises(capsa.TableError, match="64-bit"):
        capsa.settle(seats, rules, stakes=largest + 1)
    capsa.Round(rules, 4, largest, round_id="t/1")
    with pytest.raises(capsa.ArgumentError, match=f"more than {largest}"):
        capsa.Round(rules, 4, largest + 1, round_id="t/1")


@settings(max_examples=200)
@given(table=extreme_tables())
def test_no_table_settles_beyond_the_bound_and_the_largest_stake_settles(
    table: dict[str, Any],
) -> None:
    rules, seats = table["rules"], table["seats"]
    n = len(seats)
    bound = _core.largest_seat_points(rules, n)
    want = oracle.settle(oracle_seats(seats), rules.to_dict(), 1, **roles(table))
    pairs = [want["pair_points"][i][j] for i in range(n) for j in range(i + 1, n)]
    if bound < 2**127 - 1:  # the bound saturates there: far beyond 64 bits
        assert max(abs(p) for p in pairs) <= bound // (n - 1)
        assert max(abs(p) for p in want["points"]) <= bound
    largest = _largest_stake(rules, n)
    if largest is None:
        with pytest.raises(capsa.ArgumentError, match=r"^rules: "):
            capsa.Round(rules, n, 0, round_id="t/1", **roles(table))
        return
    # the largest stake a round takes settles this table, as the oracle does
    capsa.Round(rules, n, largest, round_id="t/1", **roles(table))
    engine = capsa.Seat
    settled = capsa.settle(
        [
            engine(capsa.Arrangement.from_ids(s["cards"]), s["surrender"], s["declare_natural"])
            for s in seats
        ],
        rules,
        stakes=largest,
        **roles(table),
    )
    want = oracle.settle(oracle_seats(seats), rules.to_dict(), largest, **roles(table))
    assert settled.money == want["money"]
    if largest < I64_MAX:
        with pytest.raises(capsa.ArgumentError, match=r"^stakes: "):
            capsa.Round(rules, n, largest + 1, round_id="t/1", **roles(table))
