"""The variant simulator: reproducible by deal index, exact and mergeable,
the figures of playing the deals through the public API, natural
frequencies that agree with the exact probabilities, and the report."""

from __future__ import annotations

import json
import math
import random
from fractions import Fraction
from pathlib import Path

import pytest

import capsa
from capsa import odds, simulation
from capsa.cli import main
from capsa.simulation import Stats, Summary, deal_seed, percentile, simulate


def test_deal_i_is_the_seeded_deal_of_its_seed() -> None:
    for seed, index in [(0, 0), (7, 1), (2**64 - 1, 12345), (99, 2**64 - 2)]:
        hands = capsa.deal(3, seed=deal_seed(seed, index))
        assert simulation.simulated_deal(seed, index, 3) == [[c.id for c in h] for h in hands]
    assert deal_seed(1, 0) != deal_seed(1, 1) != deal_seed(2, 1)


@pytest.mark.parametrize(
    ("preset", "strategy"),
    [("pagat", "greedy"), ("pagat", "solver"), ("shisanshui-banker", "greedy")],
)
def test_a_summary_counts_the_deals_played_through_the_api(preset: str, strategy: str) -> None:
    rules = capsa.Rules.preset(preset)
    deals, seed = 12, 5
    summary = simulate(rules, deals=deals, strategy=strategy, seed=seed, stake=7)
    stake_rules = rules.derive({"money.stake": 7})
    points: list[dict[int, int]] = [{} for _ in range(4)]
    declared = dict.fromkeys(capsa.NATURAL_NAMES, 0)
    scoops = played = 0
    for index in range(deals):
        seats = []
        for ids in simulation.simulated_deal(seed, index, 4):
            choice = capsa.best_arrangement(ids, rules, strategy=strategy)
            seats.append(capsa.Seat(choice.arrangement, declare_natural=choice.declare_natural))
        # a banker game's bank passes round the table, one seat a deal
        roles = {"banker": index % 4} if rules["banker.enabled"] else {}
        result = capsa.settle(seats, stake_rules, **roles)
        for s, p in enumerate(result.points):
            points[s][p] = points[s].get(p, 0) + 1
        for seat in result.seats:
            if seat["natural"] is not None:
                declared[seat["natural"]] += 1
        scoops += sum(1 for p in result.pairs if p["outcome"] == "rows" and p["scoop"] != 0)
        played += sum(1 for p in result.pairs if p["outcome"] != "unplayed")
        assert result.money == [7 * p for p in result.points]
    assert summary.points == tuple(points)
    assert summary.declared == declared
    # a banker game plays the banker's three pairs of the six
    assert summary.scoops == scoops and summary.pairs == played
    assert played == (3 if rules["banker.enabled"] else 6) * deals
    assert summary.deals == deals and summary.ranges == ((0, deals),)


def test_any_split_of_the_deals_and_any_thread_count_give_the_same_summary() -> None:
    whole = simulate("capsa-susun", deals=3000, strategy="greedy", seed=11, stake=100)
    parts = [
        simulate("capsa-susun", deals=n, start=a, strategy="greedy", seed=11, stake=100)
        for a, n in [(2000, 1000), (0, 1), (1, 1999)]
    ]
    merged = parts[0].merge(parts[1]).merge(parts[2])
    assert merged == whole
    one_thread = simulate(
        "capsa-susun", deals=3000, strategy="greedy", seed=11, stake=100, threads=1
    )
    assert one_thread == whole
    assert Summary.from_dict(json.loads(json.dumps(whole.to_dict()))) == whole


def test_merging_refuses_other_runs_and_deals_counted_twice() -> None:
    a = simulate("pagat", deals=50, strategy="greedy", seed=1)
    with pytest.raises(capsa.ArgumentError, match="overlap"):
        a.merge(simulate("pagat", deals=50, start=49, strategy="greedy", seed=1))
    for other in (
        simulate("pagat", deals=5, start=50, strategy="greedy", seed=2),
        simulate("2-4", deals=5, start=50, strategy="greedy", seed=1),
        simulate("pagat", deals=5, start=50, strategy="random", seed=1),
        simulate("pagat", deals=5, start=50, strategy="greedy", seed=1, stake=3),
        simulate("pagat", deals=5, start=50, strategy="greedy", seed=1, seats=3),
    ):
        with pytest.raises(capsa.ArgumentError, match="different runs"):
            a.merge(other)
    with pytest.raises(TypeError, match="Summary"):
        a.merge({"deals": 1})  # type: ignore[arg-type]
    data = a.to_dict()
    del data["points"]
    with pytest.raises(capsa.TableError, match="'points'"):
        Summary.from_dict(data)


def test_the_house_rake_is_the_rake_of_every_seat() -> None:
    summary = simulate("capsa-susun", deals=4000, strategy="greedy", seed=3, stake=50)
    per_seat = sum(
        count * (3 * max(points * 50, 0) // 100)
        for seat in range(4)
        for points, count in summary.points_histogram(seat).items()
    )
    assert summary.house_rake_total == per_seat > 0
    assert summary.house_rake_per_1000 == pytest.approx(1000 * per_seat / 4000)
    net = summary.money_stats(net=True)
    money = summary.money_stats()
    assert money.mean == pytest.approx(0, abs=1e-9)  # money is zero-sum
    assert net.mean == pytest.approx(-per_seat / 16000)
    assert summary.points_stats(0).mean * 50 == pytest.approx(summary.money_stats(0).mean)


def test_a_capped_rake_is_counted_as_played() -> None:
    rules = capsa.Rules.preset("capsa-susun").derive(
        {
            "money.rake_basis_points": 750,
            "money.rake_minimum_pot": 120,
            "money.rake_cap_per_pot": 40,
            "money.rake_cap_per_round": 60,
        }
    )
    summary = simulate(rules, deals=3000, strategy="greedy", seed=5, stake=50)
    assert summary.rake == {
        "basis_points": 750,
        "minimum_pot": 120,
        "cap_per_pot": 40,
        "cap_per_round": 60,
    }
    assert summary.rake_text == "7.5%, from pots of 120, at most 40 a pot, at most 60 a round"
    # what the seats lost to the house is what the house took
    lost = sum(
        sum(v * c for v, c in summary.money_histogram(s).items())
        - sum(v * c for v, c in summary.money_histogram(s, net=True).items())
        for s in range(4)
    )
    assert lost == summary.house_rake_total > 0
    # the round cap binds in some rounds and is never passed
    assert max(summary.house_rake) == 60
    # a per-seat rake by the rate alone would take more: the caps bound
    by_rate = sum(
        c * (750 * m // 10_000 if m >= 120 else 0)
        for s in range(4)
        for m, c in summary.money_histogram(s).items()
    )
    assert summary.house_rake_total < by_rate
    again = Summary.from_dict(json.loads(json.dumps(summary.to_dict())))
    assert again == summary


def test_a_summary_an_older_capsa_wrote_still_loads() -> None:
    summary = simulate("capsa-susun", deals=500, strategy="greedy", seed=2, stake=30)
    old = summary.to_dict()
    del old["rake"], old["net"]
    old["rake_percent"] = 3
    loaded = Summary.from_dict(old)
    # the preset's rake is 3% with no caps, so the net it derives is the one counted
    assert loaded == summary


def test_statistics_are_exact_over_the_histogram() -> None:
    h = {-3: 1, 0: 2, 5: 1}
    stats = Stats.of(h)
    assert stats.mean == 0.5 and stats.min == -3 and stats.max == 5
    assert stats.std == pytest.approx(
        math.sqrt(float(Fraction(9 + 0 + 0 + 25, 4) - Fraction(1, 4)))
    )
    assert [percentile(h, q) for q in (1, 25, 26, 50, 75, 76, 100)] == [-3, -3, 0, 0, 0, 5, 5]
    with pytest.raises(capsa.ArgumentError):
        percentile({}, 50)


def test_the_solver_surrenders_only_where_the_rules_allow() -> None:
    rules = capsa.Rules.preset("2-4")  # surrender costs 3
    assert rules["surrender.enabled"]
    solver = simulate(rules, deals=60, seed=4)
    assert solver.surrenders > 0 and solver.rounds["surrender"] > 0
    assert solver.fouls == 0
    assert simulate(rules, deals=60, seed=4, strategy="greedy").surrenders == 0
    assert simulate("pagat", deals=60, seed=4).surrenders == 0


def test_arguments_are_checked() -> None:
    with pytest.raises(capsa.ArgumentError, match="deals"):
        simulate(deals=-1)
    with pytest.raises(TypeError, match="deals"):
        simulate(deals=True)
    with pytest.raises(capsa.TableError, match="2 to 4"):
        simulate(deals=1, seats=5)
    with pytest.raises(capsa.ArgumentError, match="strategy"):
        simulate(deals=1, strategy="best")
    with pytest.raises(capsa.ArgumentError, match="seed"):
        simulate(deals=1, seed=2**64)
    with pytest.raises(capsa.ArgumentError, match="2\\*\\*64"):
        simulate(deals=2, start=2**64 - 2)
    with pytest.raises(capsa.RulesError):
        simulate("no-such-preset-or-file", deals=1)
    with pytest.raises(TypeError, match="rules"):
        simulate(3, deals=1)  # type: ignore[arg-type]
    summary = simulate(deals=0)
    assert summary.deals == 0 and math.isnan(summary.house_rake_per_round)


def test_progress_reports_every_deal() -> None:
    seen: list[int] = []
    simulate("pagat", deals=140_000, strategy="greedy", seed=8, progress=seen.append)
    assert sum(seen) == 140_000 and len(seen) > 1


# ---------------------------------------------------------------- naturals


def test_exact_counts_add_up() -> None:
    counts = odds.natural_counts()
    assert list(counts) == list(capsa.NATURAL_NAMES)
    assert sum(odds._profile_hands(p) for p in odds._profiles()) == odds.HANDS
    assert counts["clean-dragon"] == 4
    assert counts["dragon"] == 4**13
    assert counts["all-high"] == counts["all-low"]
    # every hand of a clean dragon is a three-straight-flushes hand, and more
    assert counts["three-straight-flushes"] > counts["clean-dragon"]
    assert counts["six-pairs"] > counts["five-pairs-trips"] > counts["four-triples"]


def test_the_hands_the_partition_counts_enumerate_qualify() -> None:
    rng = random.Random(3)
    flushes = sorted(odds.three_straight_flush_hands())
    for mask in rng.sample(flushes, 300):
        ids = [c for c in range(52) if mask >> c & 1]
        assert "three-straight-flushes" in capsa.naturals(ids), ids
    counts = sorted(odds.three_straight_counts())
    for vector in rng.sample(counts, 300):
        ids = [4 * r + s for r, n in enumerate(vector) for s in rng.sample(range(4), n)]
        assert "three-straights" in capsa.naturals(ids), vector
    # a clean dragon splits into three straight flushes: all four are counted
    for suit in range(4):
        assert sum(1 << (4 * r + suit) for r in range(13)) in odds.three_straight_flush_hands()


def test_the_simulation_deals_the_hands_it_counts() -> None:
    dealt = simulation.dealt_naturals(5000, seats=3, seed=9, start=100)
    summary = simulate("pagat", deals=5000, seats=3, start=100, strategy="greedy", seed=9)
    assert dealt == summary.qualifying


def test_dealt_naturals_agree_with_the_exact_probabilities() -> None:
    """10^6 deals of four hands (the naturals-only path, a few seconds):
    each count within 4.5 standard deviations of its expectation, and the
    rarest (expected below one) seen at most a few times."""
    deals = 1_000_000
    hands = 4 * deals
    dealt = simulation.dealt_naturals(deals, seats=4, seed=2026)
    for name, p in odds.natural_probabilities().items():
        expected = float(p) * hands
        sd = math.sqrt(expected * (1 - float(p)))
        if expected >= 5:
            assert abs(dealt[name] - expected) <= 4.5 * sd, (name, dealt[name], expected)
        else:
            assert dealt[name] <= 6, (name, dealt[name], expected)


# ---------------------------------------------------------------- the command line and report


def test_capsa_simulate_compares_variants_and_writes_a_report(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    report = tmp_path / "report.html"
    summaries = tmp_path / "summaries.json"
    argv = ["simulate", "--rules", "pagat", "--rules", "capsa-susun", "--deals", "400",
            "--strategy", "greedy", "--seed", "12", "--stake", "100",
            "--report", str(report), "--json", str(summaries)]  # fmt: skip
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "pagat" in out and "capsa-susun" in out and "house rake per 1,000 rounds" in out
    written = [Summary.from_dict(d) for d in json.loads(summaries.read_text())]
    assert written[0] == simulate("pagat", deals=400, strategy="greedy", seed=12, stake=100)
    page = report.read_text()
    assert page.count("<svg") == 8  # each chart drawn wide and narrow
    assert "src=" not in page and "<script" not in page  # self-contained
    for text in ("pagat", "capsa-susun", "three-flushes", "House rake per 1,000 rounds"):
        assert text in page


def test_capsa_simulate_refuses_bad_arguments(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--deals", "0"]) == 2
    assert "--deals" in capsys.readouterr().err
    assert main(["simulate", "--rules", "nope", "--deals", "1"]) == 2
    assert "nope" in capsys.readouterr().err
    assert main(["simulate", "--workers", "2", "--scheduler", "tcp://x:1"]) == 2
