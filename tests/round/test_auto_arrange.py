"""The auto-arrange policies (solver, greedy, foul) that arrange a seat left
at a round's close, and the records that name them: format 4's
``solver.strategy``, checked at replay. The foul policy's arrangement is the
first split in split order that fouls (docs/records.md), found again here
from the documented order with the oracle's foul check alone."""

from __future__ import annotations

import hashlib
import json
from itertools import combinations
from typing import Any

import numpy as np
import pytest

import capsa
from capsa import _core, oracle
from capsa.records.read import (
    AUTO_ARRANGE_POLICIES,
    RECORD_FORMAT_VERSION,
    RecordError,
    ReplayError,
    SolverMismatchError,
    read_record,
    record_digest,
    rules_for_record,
)
from capsa.rules.known import presets_of_52_cards

PRESETS = presets_of_52_cards()
STRICT = capsa.Rules().derive({"foul_check": "strict", "tie_break": "none", "name": "strict"})
HANDS = [hand for seed in range(500) for hand in capsa.deal(4, seed)]


def _rows(ids: list[int]) -> tuple[list[int], list[int], list[int]]:
    return ids[:3], ids[3:8], ids[8:]


def first_foul(hand: list[int], rules: dict[str, Any]) -> list[int]:
    """The first split in the documented order (docs/rules.md,
    "Split order") that the oracle finds fouls."""
    cards = sorted(hand)
    for top in combinations(cards, 3):
        rest = [c for c in cards if c not in top]
        for middle in combinations(rest, 5):
            bottom = [c for c in rest if c not in middle]
            if oracle.is_foul(top, middle, bottom, rules):
                return [*top, *middle, *bottom]
    raise AssertionError("no split fouls")


@pytest.mark.parametrize("name", [*PRESETS, "strict"])
def test_the_foul_policy_always_fouls_under_every_preset(name: str) -> None:
    rules = STRICT if name == "strict" else capsa.Rules.preset(name)
    witness = oracle.load_rules(rules.to_dict())
    for k, hand in enumerate(HANDS):
        ids = [int(c) for c in hand]
        arranged, declare = _core.auto_arrangement(ids, rules, 4, "foul")
        assert sorted(arranged) == sorted(ids) and declare is False
        assert oracle.is_foul(*_rows(arranged), witness), (name, ids)
        if k < 12:
            assert arranged == first_foul(ids, witness)


@pytest.mark.parametrize("name", PRESETS)
def test_the_greedy_policy_is_capsas_greedy_strategy(name: str) -> None:
    rules = capsa.Rules.preset(name)
    witness = oracle.load_rules(rules.to_dict())
    ids = np.array([[int(c) for c in hand] for hand in HANDS[:60]], dtype=np.uint8)
    batch = capsa.best_arrangement_batch(ids, rules, strategy="greedy")
    for row, arranged in zip(ids.tolist(), batch.tolist(), strict=True):
        got, declare = _core.auto_arrangement(row, rules, 4, "greedy")
        assert got == arranged and not oracle.is_foul(*_rows(got), witness)
        assert declare == (capsa.natural(row, rules) is not None)


def test_the_solver_policy_is_what_a_round_closes_with() -> None:
    for hand in HANDS[:8]:
        choice = capsa.best_arrangement(hand, capsa.Rules(), seats=3)
        assert _core.auto_arrangement(hand, None, 3, "solver") == (
            list(choice.ids),
            choice.declare_natural,
        )


def test_an_unknown_policy_is_named() -> None:
    assert AUTO_ARRANGE_POLICIES == ("solver", "greedy", "foul")
    with pytest.raises(capsa.ArgumentError, match="solver, greedy, foul"):
        _core.auto_arrangement(HANDS[0], None, 4, "simple")
    with pytest.raises(capsa.TableError):
        _core.auto_arrangement(HANDS[0], None, 5, "foul")


# ---------------------------------------------------------------- records


def _seed(k: int) -> bytes:
    return hashlib.sha256(f"policy {k}".encode()).digest()


def policy_record(
    policy: str, k: int = 0, format_version: int | None = None, late: int = 1
) -> dict[str, Any]:
    """A round of 3 seats whose seat ``late`` is arranged at the close by
    ``policy``, the others playing the last valid split, as a record."""
    rules = capsa.Rules()
    rnd = capsa.Round(rules, 3, 100, round_id=f"t/{k}", server_seed=_seed(k), table_id="t")
    hands = rnd.deal()
    seats = []
    for seat, hand in enumerate(hands):
        if seat == late:
            ids, declare = _core.auto_arrangement(hand, rules, 3, policy)
            seats.append((ids, True, False, declare or capsa.natural(hand, rules) is None))
        else:
            seats.append((capsa.splits(hand, rules)[-1].tolist(), False, False, True))
    version = {} if format_version is None else {"format_version": format_version}
    text, _ = _core.write_round_record(
        rules_for_record(rules, format_version or 4),
        rnd.round_id,
        100,
        _seed(k),
        None,
        0,
        seats,
        table_id="t",
        players=None,
        auto_arrange=policy,
        **version,
    )
    record: dict[str, Any] = json.loads(text)
    return record


def forged(record: dict[str, Any], **changes: Any) -> dict[str, Any]:
    """The record changed, its digest recomputed (a forger who knows the format)."""
    changed = json.loads(json.dumps(record))
    for path, value in changes.items():
        at = changed
        *parents, last = path.split("__")
        for part in parents:
            at = at[int(part)] if isinstance(at, list) else at[part]
        if isinstance(at, list):
            at[int(last)] = value
        else:
            at[last] = value
    changed["digest"] = record_digest(changed)
    return changed


@pytest.mark.parametrize("policy", AUTO_ARRANGE_POLICIES)
def test_a_record_names_its_policy_and_replays(policy: str) -> None:
    record = policy_record(policy)
    assert record["format_version"] == RECORD_FORMAT_VERSION
    assert record["solver"]["strategy"] == policy
    if policy != "solver":
        assert record["solver"] == {"effort": "fast", "strategy": policy, "tables": "0" * 64}
    view = read_record(record)
    assert isinstance(view, _core.RecordView) and view.auto_arrange == policy
    assert capsa.replay(record) == record["digest"]
    fouled = record["settlement"]["seats"][1]["foul"]
    assert fouled == (policy == "foul")


@pytest.mark.parametrize("policy", ["greedy", "foul"])
def test_a_seat_not_arranged_as_its_policy_says_is_named(policy: str) -> None:
    record = policy_record(policy)
    other = "solver" if policy == "greedy" else "greedy"
    cards = _core.card_ids(record["seats"][1]["hand"])
    ids, _ = _core.auto_arrangement(cards, None, 3, other)
    text = str(capsa.Arrangement.from_ids(ids))
    if text == record["seats"][1]["arrangement"]:
        pytest.skip("the two policies agree on this hand")
    with pytest.raises(ReplayError) as info:
        capsa.replay(forged(record, seats__1__arrangement=text))
    assert {"seats[1].auto", "seats[1].arrangement"} <= set(info.value.fields)
    assert f"the {policy} policy arranges" in str(info.value)


def test_a_recorded_policy_cannot_be_swapped_for_another() -> None:
    # a foul seat called greedy: it fouls, which greedy never does
    record = policy_record("foul")
    with pytest.raises(ReplayError) as info:
        capsa.replay(forged(record, solver__strategy="greedy"))
    assert "seats[1].arrangement" in info.value.fields
    # a greedy seat called foul: it does not foul
    record = policy_record("greedy")
    with pytest.raises(ReplayError) as info:
        capsa.replay(forged(record, solver__strategy="foul"))
    assert "seats[1].arrangement" in info.value.fields


def test_greedy_and_foul_records_name_no_tables() -> None:
    record = policy_record("greedy")
    for change, field in (
        ({"solver__tables": "ab" * 32}, "solver.tables"),
        ({"solver__effort": "deep"}, "solver.effort"),
        ({"solver__strategy": "separable"}, "solver.strategy"),
    ):
        with pytest.raises(RecordError) as info:
            capsa.replay(forged(record, **change))
        assert info.value.field == field


def test_an_older_format_holds_the_solver_policy_only() -> None:
    with pytest.raises(capsa.ArgumentError, match="solver only"):
        policy_record("greedy", format_version=3)
    record = policy_record("solver", format_version=3)
    assert capsa.replay(record) == record["digest"]
    # a format 3 record naming greedy is read as every older capsa reads it:
    # its seat cannot be checked here
    with pytest.raises(SolverMismatchError):
        capsa.replay(forged(record, solver__strategy="greedy"))
