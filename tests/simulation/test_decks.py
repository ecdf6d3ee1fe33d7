"""The variant simulator under larger decks (docs/bulk.md, "Simulating a
variant"): deal ``i`` is the seeded deal of the rules' deck, every seat
arranged by the strategy, each round settled at the rules' stake.

The summary is held to a run written here from the parts: the seeded deal
of the rules' deck, the auto-arrange policy of the same name (the solver's
choice, or greedy's), and the oracle's settlement and naturals, written
from the text alone.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from oracle_module import load_oracle

import capsa
from capsa.simulation import deal_seed

o = load_oracle()

# rules, seats, deals
RUNS = [("shisanshui-6", 6, 40), ("shisanshui-jokers", 4, 40), ("eight", 8, 15)]


def rules_of(name: str) -> capsa.Rules:
    if name == "eight":
        return capsa.Rules({"base": "shisanshui", "deck": {"decks": 2, "jokers": 2}})
    return capsa.Rules.preset(name)


def played_by_hand(
    rules: capsa.Rules, seats: int, seed: int, deals: int, policy: str = "greedy"
) -> dict[str, Any]:
    """Each seat's points histogram and the naturals dealt, from the parts,
    every seat arranged by the auto-arrange ``policy``."""
    config = o.load_rules(rules.to_dict())
    points: list[Counter[int]] = [Counter() for _ in range(seats)]
    qualifying: Counter[str] = Counter()
    for index in range(deals):
        hands = [[c.id for c in h] for h in capsa.deal(seats, deal_seed(seed, index), rules)]
        table = []
        for hand in hands:
            laid, declare = capsa._core.auto_arrangement(hand, rules, seats, policy)
            table.append(
                {
                    "top": laid[:3],
                    "middle": laid[3:8],
                    "bottom": laid[8:],
                    "declare_natural": declare,
                }
            )
            qualifying.update(o.naturals(hand, config))
        settled = o.settle(table, config, rules["money.stake"])
        for seat, seat_points in enumerate(settled["points"]):
            points[seat][seat_points] += 1
    return {"points": points, "qualifying": qualifying}


@pytest.mark.parametrize(("name", "seats", "deals"), RUNS)
def test_a_simulation_of_a_larger_deck_is_the_oracle_s_run_of_the_same_deals(
    name: str, seats: int, deals: int
) -> None:
    rules = rules_of(name)
    summary = capsa.simulate(rules, deals=deals, seats=seats, strategy="greedy", seed=3)
    want = played_by_hand(rules, seats, 3, deals)
    assert [dict(p) for p in summary.points] == [dict(p) for p in want["points"]]
    assert {k: v for k, v in summary.qualifying.items() if v} == dict(want["qualifying"])
    assert summary.fouls == 0 and summary.deals == deals


def test_a_simulation_of_a_larger_deck_splits_and_merges_exactly() -> None:
    rules = rules_of("shisanshui-5")
    whole = capsa.simulate(rules, deals=300, seats=5, strategy="greedy", seed=9)
    parts = [
        capsa.simulate(rules, deals=n, seats=5, strategy="greedy", seed=9, start=s, threads=1)
        for s, n in ((0, 120), (120, 180))
    ]
    assert capsa.simulation.merge_all(parts) == whole


@pytest.mark.parametrize(("name", "seats", "deals"), [("shisanshui-6", 6, 12), ("eight", 8, 4)])
def test_the_solver_s_simulation_of_a_larger_deck_is_the_oracle_s_run(
    name: str, seats: int, deals: int
) -> None:
    rules = rules_of(name)
    summary = capsa.simulate(rules, deals=deals, seats=seats, strategy="solver", seed=5)
    want = played_by_hand(rules, seats, 5, deals, policy="solver")
    assert [dict(p) for p in summary.points] == [dict(p) for p in want["points"]]
    assert summary.fouls == 0 and summary.deals == deals


def test_every_strategy_plays_a_larger_deck_within_its_seats() -> None:
    rules = rules_of("shisanshui-5")
    for strategy in ("solver", "separable", "random", "greedy"):
        summary = capsa.simulate(rules, deals=6, seats=5, strategy=strategy, seed=2)
        assert summary.deals == 6 and summary.fouls == 0
        assert sum(sum(k * n for k, n in p.items()) for p in summary.points) == 0
    with pytest.raises(capsa.TableError, match="has 2 to 5 seats, got 6"):
        capsa.simulate(rules, deals=4, seats=6, strategy="solver")
