"""capsa.strategies: what each public strategy promises, the registration
through Hypothesis' entry point, and that capsa itself does not need
Hypothesis."""

from __future__ import annotations

import subprocess
import sys

from hypothesis import given, settings
from hypothesis import strategies as st

import capsa
from capsa import strategies as cs


@given(cs.hand_ids(13))
def test_hand_ids_are_distinct_sorted_card_ids(ids: list[int]) -> None:
    assert len(ids) == len(set(ids)) == 13 and ids == sorted(ids)
    assert all(0 <= c <= 51 for c in ids)


@given(cs.hand_ids(5, exclude=frozenset(range(40))))
def test_hand_ids_keep_out_of_the_excluded_cards(ids: list[int]) -> None:
    assert all(c >= 40 for c in ids)


@given(cs.rows())
def test_rows_are_three_or_five_cards(row: list[capsa.Card]) -> None:
    assert len(row) in (3, 5) and all(isinstance(c, capsa.Card) for c in row)


@given(cs.rules(), st.data())
def test_valid_and_fouled_arrangements_are_what_they_say(
    rules: capsa.Rules, data: st.DataObject
) -> None:
    assert not data.draw(cs.arrangements(rules, valid=True)).is_foul(rules)
    assert data.draw(cs.arrangements(rules, valid=False)).is_foul(rules)


@settings(max_examples=30)
@given(cs.tables(surrenders=True))
def test_tables_settle_and_are_zero_sum(table: cs.Table) -> None:
    assert 2 <= len(table.seats) <= 4
    cards = [c for seat in table.seats for c in seat.arrangement.ids]
    assert len(cards) == len(set(cards))  # one deck
    if not table.rules["surrender.enabled"]:
        assert not any(seat.surrender for seat in table.seats)
    result = capsa.settle(
        table.seats, table.rules, table.stakes, banker=table.banker, multipliers=table.multipliers
    )
    assert sum(result.points) == 0 and sum(result.net) + sum(result.rake) == 0


@settings(max_examples=200)
@given(cs.tables(rules=capsa.Rules.preset("2-4")))
def _collect_corners(table: cs.Table) -> None:
    # a property of the draws as a whole, collected across examples below
    _SEEN.update(
        {"natural"}
        if any(capsa.natural(s.arrangement.ids, table.rules) for s in table.seats)
        else set()
    )
    _SEEN.update(
        {"foul"} if any(s.arrangement.is_foul(table.rules) for s in table.seats) else set()
    )
    _SEEN.update({"surrender"} if any(s.surrender for s in table.seats) else set())
    _SEEN.update({"matrix"} if isinstance(table.stakes, list) else set())


_SEEN: set[str] = set()


def test_the_table_draws_cover_the_corners() -> None:
    _SEEN.clear()
    _collect_corners()
    assert {"natural", "foul", "surrender", "matrix"} == _SEEN


@given(cs.rules_specs(knobs={"wheel": ["second"]}, max_changes=1))
def test_rules_specs_change_only_the_knobs_given(spec: cs.RulesSpec) -> None:
    assert {k for k, _ in spec.knobs} <= {"wheel"}
    assert spec.rules()["wheel"] == "second" or not spec.knobs


@given(st.from_type(capsa.Card), st.from_type(capsa.Arrangement), st.from_type(capsa.Rules))
def test_hypothesis_finds_the_strategies_through_the_entry_point(
    card: capsa.Card, arrangement: capsa.Arrangement, rules: capsa.Rules
) -> None:
    assert isinstance(card, capsa.Card) and isinstance(arrangement, capsa.Arrangement)
    assert isinstance(rules, capsa.Rules)


def test_capsa_imports_without_hypothesis() -> None:
    code = (
        "import sys; sys.modules['hypothesis'] = None\n"
        "import capsa, capsa.conformance, capsa.conformance.harness\n"
        "try:\n    import capsa.strategies\nexcept ImportError as exc:\n    print(exc)\n"
        "report = capsa.conformance.run(capsa.conformance.CapsaEngine().handle,\n"
        "    vectors=capsa.conformance.load_vectors()[:20], fuzz=10,\n"
        "    min_requests=20)\n"
        "print(report.exit_code, report.fuzz_note)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert 'pip install "capsa[strategies]"' in done.stdout.splitlines()[0]
    assert done.stdout.splitlines()[1].startswith("0 fuzzing skipped")
