"""The rake as houses charge it (docs/rules.md, "Money, rake and exactness"):
a rate in basis points, a minimum pot, a cap per pot and a cap per round
shared by largest remainders.

The oracle's figures are worked by hand; the engine is held to them and to
the oracle: ``capsa.settle`` on random tables (Hypothesis), the bulk kernel
on many rounds at once, and every small money vector of 2 to 4 seats under
every small cap and minimum.

Any money vector summing to zero is settled by the engine with the deals in
``CYCLES``: there seat i collects exactly one point from seat i + 1 (the
last seat from seat 0), so a stake matrix that carries a flow round the
cycle gives each seat the money wanted (chords are staked 0).
"""

from __future__ import annotations

import random
from functools import cache
from itertools import accumulate, combinations, product
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import capsa
from capsa import bulk, oracle
from strategies import deal_hands, dealt_seats, oracle_seats

I64_MAX = 2**63 - 1
PRESETS = ["capsa-susun", "pagat", "2-4", "1-6", "mau-binh", "hawaiian-gardens"]
KNOB_NAMES = ("rake_basis_points", "rake_minimum_pot", "rake_cap_per_pot", "rake_cap_per_round")

# Rules under which every pair of the deals below is worth one point a row
# won: no royalties, no naturals, and no pair is scooped.
CYCLE_RULES: dict[str, Any] = {
    "base": "pagat",
    "royalty_mode": "none",
    "naturals": {"enabled": []},
}
CYCLES = {
    3: [
        "3s 6s 7c / 4d Ts Jd Kc Ah / 2c 4c 6h Kh Ks",
        "7s Jc Ad / 4h 8c 9s Qd Ac / 2s 5c Td Jh Js",
        "2h 5d Th / 2d 3h 4s 6d 6c / 3c 8h 9d 9h As",
    ],
    4: [
        "4d 7d Jc / 3s 5d 5c Jd Qs / 4c 4h 4s Jh Qc",
        "8c 9d Ks / 2d 5s 9s Tc As / 7s 9c Th Ts Ah",
        "3d 8s Kh / 2h 5h 7c Js Kd / 2s 6s Qh Ad Ac",
        "2c 7h Qd / 3c 6c 6h 9h Td / 3h 6d 8d 8h Kc",
    ],
}


def money_knobs(
    basis_points: int = 300, minimum_pot: int = 0, cap_per_pot: int = 0, cap_per_round: int = 0
) -> dict[str, int]:
    """The rake knobs of a ``[money]`` table."""
    values = (basis_points, minimum_pot, cap_per_pot, cap_per_round)
    return dict(zip(KNOB_NAMES, values, strict=True))


def oracle_rake(money: list[int], knobs: dict[str, int]) -> list[int]:
    return oracle.rake(money, oracle.load_rules({"money": knobs}))


def _cycle_stakes(money: list[int]) -> list[list[int]]:
    """The stake matrix under which the seats of a cycle deal win ``money``:
    seat i collects ``t + money[0] + .. + money[i]`` from seat i + 1 and the
    last seat ``t`` from seat 0, with ``t`` the least that keeps every
    stake non-negative."""
    n = len(money)
    prefix = list(accumulate(money[:-1]))
    t = max(0, *(-p for p in prefix))
    stakes = [[0] * n for _ in range(n)]
    for i, flow in enumerate([t + p for p in prefix] + [t]):
        j = (i + 1) % n
        stakes[i][j] = stakes[j][i] = flow
    return stakes


@cache
def cycle_seats(players: int) -> list[capsa.Arrangement]:
    return [capsa.Arrangement.parse(t) for t in CYCLES[players]]


def engine_settle(money: list[int], rules: capsa.Rules) -> capsa.Settlement:
    """The engine's settlement of a round in which each seat wins ``money``
    (summing to zero), from the cycle deals and a stake matrix."""
    if len(money) == 2:
        # two seats of the three-seat cycle: seat 0 beats seat 1 by a point
        winner, loser = cycle_seats(3)[:2]
        seats = [winner, loser] if money[0] >= 0 else [loser, winner]
        settlement = capsa.settle(seats, rules, abs(money[0]))
    else:
        settlement = capsa.settle(cycle_seats(len(money)), rules, _cycle_stakes(money))
    assert settlement.money == money
    return settlement


def cycle_rules(knobs: dict[str, int]) -> capsa.Rules:
    return capsa.Rules({**CYCLE_RULES, "money": knobs})


# ---------------------------------------------------------------------------
# Worked by hand
# ---------------------------------------------------------------------------

WORKED = [
    # 1. the rate: floor(money * basis points / 10000), winners only
    pytest.param(money_knobs(300), [1234, -1234], [37, 0], id="3%-rounds-down"),
    pytest.param(money_knobs(1), [9999, -9999], [0, 0], id="1bp-below-a-unit"),
    pytest.param(money_knobs(1), [10000, -10000], [1, 0], id="1bp-one-unit"),
    pytest.param(money_knobs(333), [-50, 299, 1, -250], [0, 9, 0, 0], id="333bp-two-winners"),
    pytest.param(money_knobs(10_000), [7, -3, -4], [7, 0, 0], id="all-of-it"),
    pytest.param(money_knobs(0), [500, -500], [0, 0], id="no-rate"),
    # 2. the minimum pot: at it is raked, one below is not
    pytest.param(money_knobs(300, minimum_pot=100), [100, -100], [3, 0], id="minimum-at"),
    pytest.param(money_knobs(300, minimum_pot=100), [99, -99], [0, 0], id="minimum-one-below"),
    pytest.param(
        money_knobs(1000, minimum_pot=50), [60, 49, -109], [6, 0, 0], id="minimum-per-winner"
    ),
    # 3. the cap per pot: each winner alone
    pytest.param(money_knobs(1000, cap_per_pot=5), [100, 30, -130], [5, 3, 0], id="cap-per-pot"),
    pytest.param(money_knobs(1000, cap_per_pot=10), [100, -100], [10, 0], id="cap-per-pot-equal"),
    # 4. the cap per round, shared by largest remainders
    pytest.param(
        # R = 9, C = 4: 16/9 and 20/9 give 1 and 2, remainders 7 and 2
        money_knobs(10_000, cap_per_round=4),
        [4, 5, -9],
        [2, 2, 0],
        id="round-cap-largest-remainder",
    ),
    pytest.param(
        # R = 9, C = 3: 6/9 and 21/9 give 0 and 2, remainders 6 and 3: the
        # smaller pot gets the unit left over
        money_knobs(10_000, cap_per_round=3),
        [2, 7, -9],
        [1, 2, 0],
        id="round-cap-remainder-over-size",
    ),
    pytest.param(
        # R = 7, C = 5: 15/7, 10/7, 10/7 give 2, 1, 1, remainders 1, 3, 3:
        # seats 1 and 2 tie and the lower seat gets the unit
        money_knobs(10_000, cap_per_round=5),
        [3, 2, 2, -7],
        [2, 2, 1, 0],
        id="round-cap-tie-to-lower-seat",
    ),
    pytest.param(
        # R = 6, C = 2: 4/6 each, remainders 4, 4, 4: the two lowest seats
        money_knobs(10_000, cap_per_round=2),
        [-6, 2, 2, 2],
        [0, 1, 1, 0],
        id="round-cap-three-way-tie",
    ),
    pytest.param(
        money_knobs(1000, cap_per_round=100), [100, 300, -400], [10, 30, 0], id="round-cap-above"
    ),
    pytest.param(
        money_knobs(1000, cap_per_round=40), [100, 300, -400], [10, 30, 0], id="round-cap-equal"
    ),
    # every step together: rates 50 and 12, the third winner under the
    # minimum, 50 capped to 20, then 32 over the round cap of 25: 500/32 and
    # 300/32 give 15 and 9, remainders 20 and 12
    pytest.param(
        money_knobs(2500, minimum_pot=40, cap_per_pot=20, cap_per_round=25),
        [200, 50, 39, -289],
        [16, 9, 0, 0],
        id="all-steps",
    ),
    # no money, no rake
    pytest.param(
        money_knobs(10_000, minimum_pot=0, cap_per_pot=1, cap_per_round=1),
        [0, 0, 0],
        [0, 0, 0],
        id="zero-money",
    ),
    # money near 2**63: the products need 128 bits, the figures fit in 64
    pytest.param(money_knobs(10_000), [I64_MAX, -I64_MAX], [I64_MAX, 0], id="max-all"),
    pytest.param(money_knobs(9999), [I64_MAX, -I64_MAX], [9222449699651090329, 0], id="max-9999bp"),
    pytest.param(
        money_knobs(10_000, minimum_pot=I64_MAX), [I64_MAX, -I64_MAX], [I64_MAX, 0], id="max-min"
    ),
    pytest.param(
        money_knobs(10_000, minimum_pot=I64_MAX),
        [I64_MAX - 1, -(I64_MAX - 1)],
        [0, 0],
        id="max-min-one-below",
    ),
    pytest.param(
        # C = 2**62, R = 2**63 - 1: 2**124 / R and (2**124 - 2**62) / R give
        # 2**61 and 2**61 - 1, remainders 2**61 and 2**62 + 2**61 - 1
        money_knobs(10_000, cap_per_pot=I64_MAX, cap_per_round=2**62),
        [2**62, 2**62 - 1, -I64_MAX],
        [2**61, 2**61, 0],
        id="max-round-cap",
    ),
    pytest.param(
        # R = 2 * (2**63 - 1) is past 64 bits; C = 2**63 - 1: each share is
        # 2**62 - 1 with remainder C, and the one unit left goes to seat 0
        money_knobs(10_000, cap_per_round=I64_MAX),
        [I64_MAX, -I64_MAX, I64_MAX, -I64_MAX],
        [2**62, 0, 2**62 - 1, 0],
        id="max-round-total-past-64-bits",
    ),
]


@pytest.mark.parametrize(("knobs", "money", "rake"), WORKED)
def test_worked_examples_in_the_oracle(
    knobs: dict[str, int], money: list[int], rake: list[int]
) -> None:
    assert oracle_rake(money, knobs) == rake


@pytest.mark.parametrize(("knobs", "money", "rake"), WORKED)
def test_worked_examples_in_the_engine(
    knobs: dict[str, int], money: list[int], rake: list[int]
) -> None:
    settlement = engine_settle(money, cycle_rules(knobs))
    assert settlement.rake == rake
    assert settlement.net == [m - r for m, r in zip(money, rake, strict=True)]


def test_the_cycle_deals_pay_one_point_round_the_cycle() -> None:
    """What engine_settle relies on, in the engine and the oracle alike."""
    rules = cycle_rules(money_knobs(0))
    for n in CYCLES:
        seats = cycle_seats(n)
        want = oracle.settle(
            [{"top": a.ids[:3], "middle": a.ids[3:8], "bottom": a.ids[8:]} for a in seats],
            oracle.load_rules(rules.to_dict()),
            1,
        )
        got = capsa.settle(seats, rules, 1)
        assert got.points == want["points"]
        for i in range(n):
            assert want["pair_points"][i][(i + 1) % n] == 1
        for pair in got.pairs:
            i, j = pair["seats"]
            assert pair["points"] == want["pair_points"][i][j]


def test_settle_uses_the_rake() -> None:
    # docs/rules.md, "Worked examples": money 3000, 1000, -1000, -3000 at 1000 a point
    seats = [
        "Ah Kh 8s / As Ks 9d 7d 5h / Jc Jd Jh 3c 3d",
        "Qs Js 7s / Tc Td 2s 4s 6s / 2h 4h 6h 9h Qh",
        "Th 9s 8c / Qc Qd 2d 3s 5s / 5c 6d 7c 8d 9c",
        "Ts 8h 7h / Kc Kd 3h 4d 6c / Ac Ad 2c 4c 5d",
    ]
    arrangements = [capsa.Arrangement.parse(t) for t in seats]
    rows = [{"top": a.ids[:3], "middle": a.ids[3:8], "bottom": a.ids[8:]} for a in arrangements]
    # 250 bp: 75 and 25; a minimum of 1001 lets only the 3000 in; a cap of 60
    # a pot takes 75 to 60; a round cap of 50 shares 60 and 0 as 50 and 0
    knobs = money_knobs(250, minimum_pot=1001, cap_per_pot=60, cap_per_round=50)
    want = oracle.settle(rows, oracle.load_rules({"money": knobs}), 1000)
    assert want["money"] == [3000, 1000, -1000, -3000]
    assert want["rake"] == [50, 0, 0, 0]
    assert want["net"] == [2950, 1000, -1000, -3000]
    got = capsa.settle(arrangements, capsa.Rules({"money": knobs}), 1000)
    assert (got.money, got.rake, got.net) == (want["money"], want["rake"], want["net"])


# ---------------------------------------------------------------------------
# Reading the knobs
# ---------------------------------------------------------------------------


def test_the_defaults_are_three_percent_and_no_caps() -> None:
    assert oracle.default_rules()["money"] == {"stake": 1, **money_knobs(300)}
    engine = capsa.Rules()
    assert {k: engine[f"money.{k}"] for k in KNOB_NAMES} == money_knobs(300)


@pytest.mark.parametrize("percent", [0, 3, 7, 100])
def test_rake_percent_is_read_as_basis_points(percent: int) -> None:
    config = {"money": {"rake_percent": percent, "rake_cap_per_round": 9}}
    read = oracle.load_rules(config)["money"]
    assert read == {"stake": 1, **money_knobs(100 * percent, cap_per_round=9)}
    assert "rake_percent" not in read
    toml = f"[money]\nrake_percent = {percent}\n"
    assert oracle.load_rules(toml)["money"]["rake_basis_points"] == 100 * percent
    assert capsa.Rules(config).to_dict() == oracle.load_rules(config)


@pytest.mark.parametrize(
    "money",
    [
        {"rake_percent": 3, "rake_basis_points": 300},
        {"rake_basis_points": 0, "rake_percent": 0},
    ],
)
def test_both_rates_at_once_are_refused_naming_both(money: dict[str, int]) -> None:
    with pytest.raises(ValueError, match="rake_percent") as info:
        oracle.load_rules({"money": money})
    assert "rake_basis_points" in str(info.value)
    with pytest.raises(capsa.RulesError, match="rake_percent") as engine_info:
        capsa.Rules({"money": money})
    assert "rake_basis_points" in str(engine_info.value)


@pytest.mark.parametrize(
    ("knob", "value"),
    [
        ("rake_basis_points", 10_001),
        ("rake_basis_points", -1),
        ("rake_minimum_pot", -1),
        ("rake_cap_per_pot", -1),
        ("rake_cap_per_round", -1),
        ("rake_percent", 101),
    ],
)
def test_out_of_range_knobs_are_refused(knob: str, value: int) -> None:
    with pytest.raises(ValueError, match=f"money.{knob}"):
        oracle.load_rules({"money": {knob: value}})
    with pytest.raises(capsa.RulesError, match=f"money.{knob}"):
        capsa.Rules({"money": {knob: value}})


@pytest.mark.parametrize("knobs", [money_knobs(10_000, 1, 2, 3), money_knobs(0, I64_MAX)])
def test_the_knobs_round_trip_alike(knobs: dict[str, int]) -> None:
    engine = capsa.Rules({"money": knobs})
    assert engine.to_dict()["money"] == {"stake": 1, **knobs}
    assert oracle.load_rules(engine.to_toml()) == engine.to_dict()


# ---------------------------------------------------------------------------
# The engine against the oracle
# ---------------------------------------------------------------------------


@st.composite
def rake_knobs(draw: st.DrawFn) -> dict[str, int]:
    """The four knobs across their ranges, small caps and minimums often
    enough that they bind."""
    small_or_any = st.one_of(st.just(0), st.integers(1, 60), st.integers(0, 20_000))
    return money_knobs(
        draw(st.one_of(st.sampled_from([0, 1, 300, 9999, 10_000]), st.integers(0, 10_000))),
        draw(small_or_any),
        draw(small_or_any),
        draw(small_or_any),
    )


@st.composite
def raked_tables(draw: st.DrawFn) -> dict[str, Any]:
    """A table of 2 to 4 seats under a preset with the rake knobs drawn; one
    stake, a per-pair stake matrix or the rules' stake."""
    rng = draw(st.randoms(use_true_random=False))
    rules = capsa.Rules({"base": draw(st.sampled_from(PRESETS)), "money": draw(rake_knobs())})
    players = draw(st.integers(2, 4))
    seats = dealt_seats(rng, rules, players)
    stakes: Any = None
    kind = draw(st.sampled_from(["one", "matrix", "rules"]))
    if kind == "one":
        stakes = draw(st.one_of(st.integers(0, 20), st.integers(0, 2000)))
    elif kind == "matrix":
        stakes = [[0] * players for _ in range(players)]
        for i, j in combinations(range(players), 2):
            stakes[i][j] = stakes[j][i] = draw(st.integers(0, 500))
    return {"rules": rules, "seats": seats, "stakes": stakes}


def _capped_pots(money: list[int], knobs: dict[str, int]) -> list[int]:
    """Steps 1 and 2 of the rake: each winner's rate, the minimum, the cap a pot."""
    pots = []
    for m in money:
        pot = m * knobs["rake_basis_points"] // 10_000
        if m <= 0 or m < knobs["rake_minimum_pot"]:
            pot = 0
        if knobs["rake_cap_per_pot"]:
            pot = min(pot, knobs["rake_cap_per_pot"])
        pots.append(pot)
    return pots


# the oracle's settlement and the legal splits of every hand cost ~20 ms an
# example: at most 100 keeps the file within seconds under any profile
@settings(max_examples=min(100, settings().max_examples))
@given(table=raked_tables())
def test_settle_rakes_as_the_oracle(table: dict[str, Any]) -> None:
    rules, seats, stakes = table["rules"], table["seats"], table["stakes"]
    engine_seats = [
        capsa.Seat(capsa.Arrangement.from_ids(s["cards"]), s["surrender"], s["declare_natural"])
        for s in seats
    ]
    got = capsa.settle(engine_seats, rules, stakes)
    want = oracle.settle(oracle_seats(seats), rules.to_dict(), stakes)
    assert (got.money, got.rake, got.net) == (want["money"], want["rake"], want["net"])
    assert sum(got.net) + sum(got.rake) == 0
    knobs = {k: rules[f"money.{k}"] for k in KNOB_NAMES}
    pots = _capped_pots(got.money, knobs)
    cap = knobs["rake_cap_per_round"]
    assert sum(got.rake) == (min(cap, sum(pots)) if cap else sum(pots))
    assert all(0 <= r <= pot for r, pot in zip(got.rake, pots, strict=True))


BULK_KNOBS = [
    money_knobs(300),
    money_knobs(777, minimum_pot=40, cap_per_pot=9),
    money_knobs(10_000, cap_per_round=7),
    money_knobs(2500, minimum_pot=15, cap_per_pot=30, cap_per_round=41),
]


BULK_ROUNDS = 120
SUSUN = capsa.Rules()


@cache
def bulk_rounds(players: int) -> tuple[Any, Any, Any, dict[int, list[int]]]:
    """Rounds of ``players`` seats for the bulk kernel: cards (N, P, 13),
    a stake a round, the declare flags, and the oracle's money for every
    fifth round (the rake knobs do not change it)."""
    rng = random.Random(players)
    dealt = np.array([deal_hands(rng, players) for _ in range(BULK_ROUNDS)], np.uint8)
    hands = np.sort(dealt.reshape(-1, 13), axis=1)
    laid = capsa.best_arrangement_batch(hands, SUSUN, seats=players, strategy="greedy")
    as_dealt = np.arange(len(hands)) % 5 == 0  # sorted ids: often fouled
    laid[as_dealt] = hands[as_dealt]
    cards = laid.reshape(BULK_ROUNDS, players, 13)
    stakes = np.array([rng.choice([1, 5, 60, rng.randrange(0, 400)]) for _ in cards])
    declare = np.array([[rng.random() < 0.85 for _ in range(players)] for _ in cards])
    money = {}
    for row in range(0, BULK_ROUNDS, 5):
        seats = [
            {"cards": cards[row, s].tolist(), "surrender": False, "declare_natural": d}
            for s, d in enumerate(declare[row].tolist())
        ]
        settled = oracle.settle(oracle_seats(seats), oracle.default_rules(), int(stakes[row]))
        money[row] = settled["money"]
    return cards, stakes, declare, money


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("knobs", BULK_KNOBS)
def test_bulk_rakes_as_the_oracle(knobs: dict[str, int], players: int) -> None:
    """capsa.bulk (the batch kernel) against the oracle, round by round: the
    oracle's rake of the kernel's money, and the oracle's money on every
    fifth round."""
    rules = capsa.Rules({"base": "capsa-susun", "money": knobs})
    config = rules.to_dict()
    cards, stakes, declare, oracle_money = bulk_rounds(players)
    table = bulk.rounds_table(cards, stakes=stakes, declare_natural=declare)
    result = bulk.settle_table(table, rules)
    assert result.column("error").null_count == BULK_ROUNDS
    figures = {
        name: np.stack([result.column(f"{name}{s}").to_numpy() for s in range(players)], axis=1)
        for name in ("money", "rake", "net")
    }
    raked = 0
    for row in range(BULK_ROUNDS):
        money = figures["money"][row].tolist()
        rake = figures["rake"][row].tolist()
        assert rake == oracle.rake(money, config)
        assert figures["net"][row].tolist() == [m - r for m, r in zip(money, rake, strict=True)]
        assert money == oracle_money.get(row, money)
        raked += sum(rake) > 0
    assert raked > BULK_ROUNDS // 4  # the knobs were exercised, not only zeros


def _zero_sum_vectors(players: int, bound: int) -> list[list[int]]:
    return [
        [*head, -sum(head)]
        for head in product(range(-bound, bound + 1), repeat=players - 1)
        if abs(sum(head)) <= bound
    ]


@pytest.mark.parametrize(("players", "bound"), [(2, 6), (3, 4), (4, 3)])
def test_every_small_round_rakes_as_the_oracle(players: int, bound: int) -> None:
    """Every money vector of the seats with |money| <= bound, under every
    minimum, cap a pot and cap a round up to the bound, at the full rate (so
    the caps bind on every winner) and at two thirds (rounding down)."""
    vectors = _zero_sum_vectors(players, bound)
    shared = 0  # rounds whose cap was shared
    for basis_points, minimum, cap_per_pot, cap_per_round in product(
        (10_000, 6667), range(bound + 1), range(bound), range(bound + 1)
    ):
        knobs = money_knobs(basis_points, minimum, cap_per_pot, cap_per_round)
        rules = cycle_rules(knobs)
        config = oracle.load_rules({"money": knobs})
        for money in vectors:
            want = oracle.rake(money, config)
            assert engine_settle(money, rules).rake == want, (knobs, money)
            if cap_per_round and sum(want) == cap_per_round < sum(_capped_pots(money, knobs)):
                shared += 1
    assert shared > len(vectors)
