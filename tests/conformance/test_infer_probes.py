"""The seats of ``infer``'s scoring probes show the figures alone.

Every row of the scoring and rake probes is a high card (no royalty of any
house applies, whoever collects royalties), but for the one royalty a probe
is about; no hand holds a natural under any definition; the rows compare
alike under every ranking knob; and each probe's rounds are what its
description says. Two naturals of a pair probe are found on one table.
"""

from __future__ import annotations

import itertools

import pytest

from capsa import Rules, _core
from capsa.conformance.inference.naturals import _natural_pair
from capsa.conformance.inference.probes import Probe, rake_probes, scoring_probes
from capsa.conformance.protocol import ids_of
from capsa.rules import KNOBS

ROWS = ("top", "middle", "bottom")
# every ranking the knobs with choices can make, on the 52-card deck
_CHOICES = {k.name: k.choices for k in KNOBS if k.ranking and k.choices}
RANKINGS = [
    Rules.preset("capsa-susun").derive(dict(zip(_CHOICES, values, strict=True)))
    for values in itertools.product(*_CHOICES.values())
]
# probe -> (seat, row) of the royalty it is about
ROYALTY_ROWS = {
    "royalty-lost": {(0, "bottom"), (1, "bottom")},
    "royalty-won": {(0, "bottom")},
    "scoop-royalty": {(0, "bottom")},
    "foul-royalty": {(0, "bottom")},
}
# probe -> what seat 0 does against seat 1 in each row (1 wins, -1 loses, 0 ties)
OUTCOMES = {
    "rows-2-1": [1, 1, -1],
    "scoop": [1, 1, 1],
    "royalty-lost": [1, 1, -1],
    "royalty-won": [-1, 1, 1],
    "scoop-royalty": [1, 1, 1],
    "surrender": [1, 1, -1],
}
# under tie_break = "none"
TIED = {
    "rows-2-tie": [1, 1, 0],
    "rows-tie-top": [0, 1, 1],
    "rows-tie-middle": [-1, 0, 1],
    "rows-tie-two": [0, 0, -1],
}
FOULED = {"foul": {1}, "foul-royalty": {1}, "foul-sweep-4": {3}, "surrender-vs-foul": {0}}


def probes() -> list[Probe]:
    return [*scoring_probes(ties=True), *rake_probes()]


def rows_of(probe: Probe) -> list[dict[str, list[int]]]:
    return [{r: ids_of(s[r]) for r in ROWS} for s in probe.input["round"]["seats"]]


def results(a: dict[str, list[int]], b: dict[str, list[int]], rules: Rules) -> list[int]:
    return [_core.compare(a[r], b[r], rules) for r in ROWS]


@pytest.mark.parametrize("probe", probes(), ids=lambda p: p.name)
def test_every_row_is_a_high_card_but_the_royalty_the_probe_is_about(probe: Probe) -> None:
    for index, seat in enumerate(rows_of(probe)):
        for row in ROWS:
            category = _core.evaluate(seat[row], RANKINGS[0]).category
            about = (index, row) in ROYALTY_ROWS.get(probe.name, set())
            assert (category != "high-card") == about, (probe.name, index, row, category)


@pytest.mark.parametrize("probe", probes(), ids=lambda p: p.name)
def test_no_hand_holds_a_natural_under_any_definition(probe: Probe) -> None:
    for seat in rows_of(probe):
        assert _core.naturals([c for r in ROWS for c in seat[r]]) == []


@pytest.mark.parametrize("probe", probes(), ids=lambda p: p.name)
def test_rows_compare_alike_under_every_ranking_and_fouls_are_as_named(probe: Probe) -> None:
    seats = rows_of(probe)
    for a, b in itertools.combinations(range(len(seats)), 2):
        seen = {tuple(results(seats[a], seats[b], r)) for r in RANKINGS}
        if "tie" not in probe.name:  # its rows tie only without the suit tie-break
            assert len(seen) == 1, (probe.name, a, b, seen)
    for index, seat in enumerate(seats):
        flat = [c for r in ROWS for c in seat[r]]
        fouled = index in FOULED.get(probe.name, set())
        assert all(_core.is_foul(flat, r) == fouled for r in RANKINGS), (probe.name, index)


@pytest.mark.parametrize("name", sorted(OUTCOMES))
def test_the_rows_are_won_as_described(name: str) -> None:
    probe = next(p for p in probes() if p.name == name)
    seats = rows_of(probe)
    assert results(seats[0], seats[1], RANKINGS[0]) == OUTCOMES[name]


def test_the_sweeper_wins_every_row_and_the_others_split_two_to_one() -> None:
    seats = rows_of(next(p for p in probes() if p.name == "sweep-4"))
    for other in seats[1:]:
        assert results(seats[0], other, RANKINGS[0]) == [1, 1, 1]
    for a, b in itertools.combinations(seats[1:], 2):
        assert sorted(results(a, b, RANKINGS[0])) in ([-1, -1, 1], [-1, 1, 1])


@pytest.mark.parametrize("name", sorted(TIED))
def test_the_tied_rows_tie_without_the_suit_tie_break(name: str) -> None:
    seats = rows_of(next(p for p in probes() if p.name == name))
    plain = Rules.preset("capsa-susun").derive({"tie_break": "none"})
    assert results(seats[0], seats[1], plain) == TIED[name]


def test_three_winners_each_win_every_row_against_the_fourth() -> None:
    seats = rows_of(next(p for p in probes() if p.name == "rake-three-winners"))
    for winner in seats[:3]:
        assert results(winner, seats[3], RANKINGS[0]) == [1, 1, 1]


@pytest.mark.parametrize(
    ("first", "second"), [("dragon", "twelve-royals"), ("clean-dragon", "twelve-royals")]
)
def test_a_pair_of_naturals_is_found_on_one_table(first: str, second: str) -> None:
    # a dragon holds a jack, a queen, a king and an ace: twelve royals are the other 12
    rules = Rules.preset("1-6")
    a, b = _natural_pair(first, second, rules)
    assert a is not None and b is not None
    assert not set(a) & set(b)
    assert _core.natural(a, rules) == first and _core.natural(b, rules) == second
