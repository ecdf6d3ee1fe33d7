"""capsa.Round's auto-arrange policy at the close: ``solver`` (as before),
``greedy`` (never fouls) and ``foul`` (always fouls, settled under the
rules' foul penalty); the record names the policy and replays; a seat's own
decision on its natural stands; a restored seat arranged at the close is
checked against the round's policy (fouls under ``foul``, never under the
others)."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from typing import Any

import pytest

import capsa
from capsa import _core, oracle
from capsa.round.state import MAC_FIELD, seal

KEY = hashlib.sha256(b"round policy test key").digest()
STRICT = capsa.Rules().derive({"foul_check": "strict", "tie_break": "none", "name": "strict"})
# a foul pays a fixed amount and no royalties, so what each seat settles is known
FIXED = capsa.Rules().derive({"foul": {"mode": "fixed", "points": 6, "pays_royalties": False}})
POLICIES = ["solver", "greedy", "foul"]


def new_round(k: int, policy: str, rules: capsa.Rules | None = None, seats: int = 4) -> capsa.Round:
    seed = hashlib.sha256(f"round policy {k}".encode()).digest()
    return capsa.Round(
        rules, seats, 100, round_id=f"t/{k}", nonce=k, server_seed=seed, auto_arrange=policy
    )


def rows(arrangement: capsa.Arrangement | None) -> list[list[int]]:
    assert arrangement is not None
    ids = list(arrangement.ids)
    return [ids[:3], ids[3:8], ids[8:]]


def oracle_seat(seat: dict[str, Any]) -> dict[str, Any]:
    """A record's seat as the oracle settles it."""
    top, middle, bottom = rows(capsa.Arrangement.parse(seat["arrangement"]))
    return {
        "top": top,
        "middle": middle,
        "bottom": bottom,
        "declare_natural": seat["declare_natural"],
    }


def fouls(rnd: capsa.Round, seat: int) -> bool:
    witness = oracle.load_rules(rnd.rules.to_dict())
    return bool(oracle.is_foul(*rows(rnd.arrangement(seat)), witness))


def closed(k: int, policy: str, rules: capsa.Rules | None = None, seats: int = 4) -> capsa.Round:
    """A round in which seat 0 submits a valid arrangement (declining any
    natural) and the other seats are left to the policy."""
    rnd = new_round(k, policy, rules, seats)
    hands = rnd.deal([f"c{k}"] * seats)
    rnd.submit(0, capsa.Arrangement.from_ids(capsa.splits(hands[0], rnd.rules)[-1]))
    if capsa.natural(hands[0], rnd.rules) is not None:
        rnd.declare_natural(0, False)
    rnd.close()
    return rnd


def replayed(rnd: capsa.Round) -> dict[str, Any]:
    """The settled round's record, replayed (as text and after a state trip)."""
    rnd.settle()
    assert capsa.replay(rnd.record_json()) == rnd.digest
    back = capsa.Round.from_dict(json.loads(json.dumps(rnd.to_dict(key=KEY))), key=KEY)
    assert back.record_json() == rnd.record_json()
    record: dict[str, Any] = json.loads(rnd.record_json())
    return record


@pytest.mark.parametrize("policy", POLICIES)
def test_the_record_names_the_policy_and_replays(policy: str) -> None:
    for k in range(3):
        rnd = closed(k, policy, seats=3)
        record = replayed(rnd)
        assert record["format_version"] == 5 and record["solver"]["strategy"] == policy
        assert [seat["auto"] for seat in record["seats"]] == [False, True, True]
        assert rnd.auto_arrange == policy


def test_the_solver_arranges_as_before() -> None:
    for k in range(4):
        rnd = closed(k, "solver")
        default = capsa.Round(
            None, 4, 100, round_id=f"t/{k}", nonce=k, server_seed=rnd._server_seed
        )
        default.deal([f"c{k}"] * 4)
        default.submit(0, rnd.arrangement(0))
        if rnd.view(0)["declare_natural"] is False:
            default.declare_natural(0, False)
        default.close()
        assert default.auto_arrange == "solver"
        for seat in range(1, 4):
            choice = capsa.best_arrangement(rnd.hands[seat], rnd.rules, seats=4)
            assert rnd.arrangement(seat) == default.arrangement(seat) == choice.arrangement
            assert not fouls(rnd, seat)
        assert replayed(rnd) == replayed(default)


@pytest.mark.parametrize("rules", [None, STRICT], ids=["capsa-susun", "strict"])
def test_greedy_never_fouls(rules: capsa.Rules | None) -> None:
    for k in range(40):
        rnd = closed(k, "greedy", rules)
        for seat in range(1, 4):
            arranged = rnd.arrangement(seat)
            assert arranged is not None and not fouls(rnd, seat)
            ids, _ = _core.auto_arrangement(rnd.hands[seat], rnd.rules, 4, "greedy")
            assert arranged.cards == capsa.Arrangement.from_ids(ids).cards
        if k < 6:
            replayed(rnd)


@pytest.mark.parametrize("rules", [None, STRICT], ids=["capsa-susun", "strict"])
def test_foul_always_fouls(rules: capsa.Rules | None) -> None:
    for k in range(40):
        rnd = closed(k, "foul", rules)
        assert not fouls(rnd, 0)
        for seat in range(1, 4):
            assert fouls(rnd, seat) and rnd.view(seat)["auto"]
        if k < 6:
            replayed(rnd)


def test_foul_settles_under_the_rules_foul_penalty() -> None:
    for k in range(6):
        rnd = closed(k, "foul", FIXED)
        settlement = rnd.settle().to_dict()
        # seat 0 collects the fixed 6 from each fouled seat; two fouled seats pay nothing
        assert settlement["points"] == [18, -6, -6, -6]
        assert {pair["outcome"] for pair in settlement["pairs"]} == {"foul"}
        # and under capsa-susun's sweep-all foul amount, as the oracle settles the record
        record = replayed(closed(k, "foul"))
        seats = [oracle_seat(seat) for seat in record["seats"]]
        witness = oracle.settle(seats, oracle.load_rules(record["rules"]), record["stakes"])
        assert witness["points"] == record["settlement"]["points"]
        assert witness["points"][0] > 0


def _with_natural(policy: str) -> tuple[capsa.Round, int]:
    """A dealt round of ``policy`` in which some seat holds a natural."""
    for k in range(10_000):
        rnd = new_round(k, policy)
        hands = rnd.deal()
        for seat, hand in enumerate(hands):
            if capsa.natural(hand, rnd.rules) is not None:
                return rnd, seat
    raise AssertionError("no natural found")


@pytest.mark.parametrize(("earlier", "after"), [(None, False), (True, True), (False, False)])
def test_a_foul_seat_declines_its_natural_unless_it_decided(
    earlier: bool | None, after: bool
) -> None:
    rnd, seat = _with_natural("foul")
    if earlier is not None:
        rnd.declare_natural(seat, earlier)
    rnd.close()
    assert rnd.view(seat)["declare_natural"] is after and fouls(rnd, seat)
    record = replayed(rnd)
    assert record["seats"][seat]["declare_natural"] is after
    natural = record["settlement"]["seats"][seat]["natural"]
    assert (natural is not None) is after  # a declared natural is paid, rows aside


def _resealed(rnd: capsa.Round, change: Callable[[dict[str, Any]], object]) -> dict[str, Any]:
    fields = {k: v for k, v in rnd.to_dict(key=KEY).items() if k != MAC_FIELD}
    change(fields)
    return seal(fields, KEY)


@pytest.mark.parametrize("phase", ["closed", "settled"])
def test_a_restored_auto_seat_is_checked_against_the_policy(phase: str) -> None:
    # one deal under each policy: seat 1 is left to it
    greedy, foul, solver = closed(1, "greedy"), closed(1, "foul"), closed(1, "solver")
    if phase == "settled":
        for rnd in (greedy, foul, solver):
            rnd.settle()
    fouled, valid = str(foul.arrangement(1)), str(solver.arrangement(1))

    def seat_1(arrangement: str) -> Callable[[dict[str, Any]], None]:
        return lambda s: s["play"][1].update(arrangement=arrangement)

    with pytest.raises(
        capsa.RoundError, match="fouls, and the greedy policy that arranges at the close never"
    ):
        capsa.Round.from_dict(_resealed(greedy, seat_1(fouled)), key=KEY)
    with pytest.raises(capsa.RoundError, match="the solver that arranges at the close never"):
        capsa.Round.from_dict(_resealed(solver, seat_1(fouled)), key=KEY)
    with pytest.raises(capsa.RoundError, match=r"play\[1\].auto: the arrangement does not foul"):
        capsa.Round.from_dict(_resealed(foul, seat_1(valid)), key=KEY)
    # the policy changed under a closed round: the solver's seats do not foul
    with pytest.raises(capsa.RoundError, match="the foul policy that arranges at the close always"):
        capsa.Round.from_dict(_resealed(solver, lambda s: s.update(auto_arrange="foul")), key=KEY)
    with pytest.raises(capsa.RoundError, match="the solver that arranges at the close never"):
        capsa.Round.from_dict(_resealed(foul, lambda s: s.update(auto_arrange="solver")), key=KEY)
    for rnd in (greedy, foul, solver):
        back = capsa.Round.from_dict(_resealed(rnd, lambda s: None), key=KEY)
        assert back.to_dict(key=KEY) == rnd.to_dict(key=KEY)
