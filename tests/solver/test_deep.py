"""The deep mode (``effort="deep"``) and the best-response check's pick and
opponents: reproducible, never fouls, refuses what it cannot do by name."""

from __future__ import annotations

import pytest

import capsa
from capsa import ArgumentError, Rules, RulesError
from capsa.cli import main as cli_main
from capsa.solver import (
    EFFORTS,
    MAX_DEEP_CHOICES,
    best_arrangement,
    best_arrangement_batch,
    best_response_check,
    rank_arrangements,
)

HANDS = [capsa.deal(4, seed=seed)[seed % 4] for seed in range(3)]


def test_efforts_are_fast_then_deep() -> None:
    assert EFFORTS == ("fast", "deep")


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_deep_arranges_the_hand_reproducibly(seats: int) -> None:
    rules = Rules.preset("capsa-susun")
    for hand in HANDS:
        choice = best_arrangement(hand, rules, seats=seats, effort="deep")
        assert sorted(choice.ids) == sorted(c.id for c in hand)
        assert not choice.arrangement.is_foul(rules)
        # seeded by the cards, whatever their order
        again = best_arrangement(list(reversed(hand)), rules, seats=seats, effort="deep")
        assert again == choice


def test_deep_ranking_is_sorted_and_leads_with_the_best() -> None:
    rules = Rules.preset("pagat")
    for hand in HANDS:
        ranked = rank_arrangements(hand, rules, k=4, effort="deep")
        assert 1 <= len(ranked) <= 4
        values = [c.expected_points for c in ranked]
        assert values == sorted(values, reverse=True)
        assert ranked[0] == best_arrangement(hand, rules, effort="deep")


def test_deep_is_the_fast_ranking_when_the_rules_pay_only_rows() -> None:
    # pagat pays no scoop multiplier or bonus, overall point or sweep-all:
    # the model's rows are trusted, and the samples have nothing else to add
    rules = Rules.preset("pagat")
    for hand in HANDS:
        # the deep mode ranks the model's best 32
        fast = rank_arrangements(hand, rules, k=32)[:5]
        assert rank_arrangements(hand, rules, k=5, effort="deep") == fast


def test_deep_re_estimates_the_scoop_from_samples() -> None:
    # capsa-susun doubles a scoop: the deep estimate of that part comes from
    # the samples, so it departs from the model's
    rules = Rules.preset("capsa-susun")
    moved = 0
    for hand in HANDS:
        fast = {c.ids: c.expected_points for c in rank_arrangements(hand, rules, k=5)}
        for c in rank_arrangements(hand, rules, k=5, effort="deep"):
            if c.ids in fast and abs(fast[c.ids] - c.expected_points) > 1e-6:
                moved += 1
    assert moved > 0


def test_deep_batch_matches_single() -> None:
    import numpy as np

    ids = np.array([[c.id for c in h] for h in HANDS], dtype=np.uint8)
    out = best_arrangement_batch(ids, seats=2, effort="deep")
    for row, hand in zip(out, HANDS, strict=True):
        assert tuple(int(x) for x in row) == best_arrangement(hand, seats=2, effort="deep").ids


def test_unknown_effort_is_named() -> None:
    with pytest.raises(ArgumentError, match='"thorough"'):
        best_arrangement(HANDS[0], effort="thorough")
    with pytest.raises(ArgumentError, match="thorough"):
        rank_arrangements(HANDS[0], effort="thorough")
    with pytest.raises(TypeError):
        best_arrangement(HANDS[0], effort=1)  # type: ignore[arg-type]


@pytest.mark.parametrize("strategy", ["greedy", "random"])
def test_baselines_have_no_deep_mode(strategy: str) -> None:
    with pytest.raises(ArgumentError, match=strategy):
        best_arrangement(HANDS[0], strategy=strategy, effort="deep")
    # the fast effort is what they always played
    fast = best_arrangement(HANDS[0], strategy=strategy, effort="fast")
    assert fast == best_arrangement(HANDS[0], strategy=strategy)


def test_deep_ranking_bounds_k() -> None:
    with pytest.raises(ArgumentError, match=f"k = {MAX_DEEP_CHOICES + 1}"):
        rank_arrangements(HANDS[0], k=MAX_DEEP_CHOICES + 1, effort="deep")
    # a k past every hand's number of splits is named as given, not clamped
    with pytest.raises(ArgumentError, match=r"got k = 1000000$"):
        rank_arrangements(HANDS[0], k=10**6, effort="deep")
    assert len(rank_arrangements(HANDS[0], k=MAX_DEEP_CHOICES, effort="deep")) >= 32


def test_check_takes_the_pick_and_the_opponents() -> None:
    rules = Rules.preset("pagat")
    base = best_response_check(rules, hands=2, opponents=30, seed=3)
    same = best_response_check(
        rules, hands=2, opponents=30, seed=3, strategy="solver", opponents_strategy="solver"
    )
    assert same == base
    greedy = best_response_check(rules, hands=2, opponents=30, seed=3, opponents_strategy="greedy")
    assert [h[0] for h in greedy["hands"]] == [h[0] for h in base["hands"]]
    assert greedy["hands"] != base["hands"]
    deep = best_response_check(rules, hands=2, opponents=30, seed=3, effort="deep")
    assert all(h[4] >= 0 for h in deep["hands"])
    with pytest.raises(ArgumentError, match="greedy"):
        best_response_check(rules, hands=1, opponents=4, strategy="greedy", effort="deep")
    with pytest.raises(RulesError, match="nope"):
        best_response_check(rules, hands=1, opponents=4, opponents_strategy="nope")


def test_cli_arrange_takes_the_effort(capsys: pytest.CaptureFixture[str]) -> None:
    hand = "As Ks Qs Js 9s 2d 2c 3h 4h 7c 8d Td 5c"
    assert cli_main(["arrange", hand, "-k", "2", "--effort", "deep"]) == 0
    out = capsys.readouterr().out
    assert "effort deep" in out.splitlines()[0]
    assert len(out.strip().splitlines()) == 4
    assert cli_main(["arrange", hand, "--strategy", "greedy", "--effort", "deep"]) != 0
    assert "deep" in capsys.readouterr().err
