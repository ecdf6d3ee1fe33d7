"""capsa.Round: the lifecycle of one round, every action out of order or not
allowed refused with a typed error that changes nothing, and the state
saved and restored at every phase."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from typing import Any

import pytest

import capsa
from capsa import oracle
from capsa.round import PHASES
from capsa.round.state import MAC_FIELD, seal

RULES = capsa.Rules()
KEY = bytes(range(32))  # the server key the states are sealed under


def seed(k: int) -> bytes:
    return hashlib.sha256(f"round test {k}".encode()).digest()


def new_round(seats: int = 4, rules: capsa.Rules = RULES, k: int = 0, **kw: Any) -> capsa.Round:
    return capsa.Round(rules, seats, 100, round_id=f"t/{k}", server_seed=seed(k), **kw)


def valid(hand: list[capsa.Card], rules: capsa.Rules = RULES) -> capsa.Arrangement:
    return capsa.Arrangement.from_ids(capsa.splits(hand, rules)[-1])


def dealt(seats: int = 4, rules: capsa.Rules = RULES, k: int = 0) -> capsa.Round:
    rnd = new_round(seats, rules, k)
    rnd.deal()
    return rnd


def with_natural(rules: capsa.Rules = RULES) -> tuple[capsa.Round, int]:
    """A dealt round in which some seat holds a natural the rules enable."""
    for k in range(10_000):
        rnd = dealt(4, rules, k)
        for seat, hand in enumerate(rnd.hands):
            if capsa.natural(hand, rules):
                return rnd, seat
    raise AssertionError("no natural found")


def played(rnd: capsa.Round) -> capsa.Round:
    for seat, hand in enumerate(rnd.hands):
        rnd.submit(seat, valid(hand, rnd.rules))
    rnd.close()
    rnd.settle()
    return rnd


def test_a_round_from_commitment_to_record() -> None:
    rnd = new_round()
    assert rnd.phase == "open"
    assert rnd.commitment == hashlib.sha256(seed(0)).hexdigest()
    hands = rnd.deal(["a", "b", "c", "d"])
    assert rnd.phase == "dealt"
    assert [[c.id for c in h] for h in hands] == oracle.fair_deal(
        4, seed(0), ["a", "b", "c", "d"], 0
    )
    for seat, hand in enumerate(hands[:3]):
        rnd.submit(seat, str(valid(hand)))
    assert [rnd.submitted(s) for s in range(4)] == [True, True, True, False]
    rnd.close()
    assert rnd.phase == "closed"
    auto = rnd.arrangement(3)
    assert auto is not None and not auto.is_foul(RULES)
    assert sorted(auto.ids) == [c.id for c in hands[3]]
    result = rnd.settle()
    assert rnd.phase == "settled"
    assert rnd.settle() is result
    assert sum(result.points) == 0 and sum(result.net) + sum(result.rake) == 0
    record = rnd.record()
    assert json.loads(json.dumps(record)) == record
    assert record["settlement"] == {**result.to_dict(), "version": 2}
    assert record["seats"][3]["auto"] is True and record["seats"][0]["auto"] is False
    assert record["deal"]["server_seed"] == seed(0).hex()
    assert record["deal"]["commitment"] == rnd.commitment
    assert rnd.server_seed == seed(0)
    assert capsa.replay(record) == rnd.digest == record["digest"]
    capsa.verify_deal(record, commitment=rnd.commitment)


def test_a_late_seat_is_arranged_by_the_solver() -> None:
    rnd = dealt(2)
    rnd.close()
    for seat, hand in enumerate(rnd.hands):
        choice = capsa.best_arrangement(hand, RULES, seats=2)
        assert rnd.arrangement(seat) == choice.arrangement
        assert not rnd.submitted(seat)


def test_resubmission_replaces_until_the_close() -> None:
    rnd = dealt()
    hand = rnd.hands[0]
    splits = capsa.splits(hand, RULES)
    rnd.submit(0, splits[0].tolist())
    rnd.submit(0, capsa.Arrangement.from_ids(splits[-1]))
    assert rnd.arrangement(0) == capsa.Arrangement.from_ids(splits[-1])
    rnd.close()
    with pytest.raises(capsa.RoundError, match="cannot submit: the round is already closed"):
        rnd.submit(0, splits[0].tolist())
    assert rnd.arrangement(0) == capsa.Arrangement.from_ids(splits[-1])


def state_of(rnd: capsa.Round) -> dict[str, Any]:
    return rnd.to_dict(key=KEY)


def refused(
    rnd: capsa.Round, action: Callable[[], object], error: type[Exception], match: str
) -> None:
    """The action raises ``error`` naming ``match`` and changes nothing."""
    before = state_of(rnd)
    with pytest.raises(error, match=match):
        action()
    assert state_of(rnd) == before


def test_actions_out_of_order_change_nothing() -> None:
    rnd = new_round()
    hand_ids = list(range(13))
    refused(
        rnd,
        lambda: rnd.submit(0, hand_ids),
        capsa.RoundError,
        "cannot submit: the round is not dealt",
    )
    refused(rnd, rnd.close, capsa.RoundError, "cannot close: the round is not dealt")
    refused(rnd, rnd.settle, capsa.RoundError, "cannot settle: the round is not closed yet")
    refused(rnd, rnd.record, capsa.RoundError, "cannot write the record")
    refused(rnd, lambda: rnd.hands, capsa.RoundError, "cannot read the hands")
    refused(rnd, lambda: rnd.server_seed, capsa.RoundError, "reveal the server seed")
    rnd.deal()
    refused(rnd, rnd.deal, capsa.RoundError, "cannot deal: the round is already dealt")
    refused(rnd, rnd.settle, capsa.RoundError, "cannot settle: the round is not closed")
    refused(rnd, lambda: rnd.digest, capsa.RoundError, "cannot write the record")
    rnd.close()
    refused(rnd, rnd.close, capsa.RoundError, "cannot close: the round is already closed")
    refused(
        rnd,
        lambda: rnd.surrender(0),
        capsa.RoundError,
        "cannot surrender: the round is already closed",
    )
    refused(rnd, lambda: rnd.record_json(), capsa.RoundError, "not settled yet")
    refused(rnd, lambda: rnd.server_seed, capsa.RoundError, "not settled yet")
    rnd.settle()
    refused(rnd, rnd.deal, capsa.RoundError, "the round is already settled")


def test_wrong_seats_and_wrong_cards_are_named() -> None:
    rnd = dealt()
    hand = rnd.hands[1]
    refused(
        rnd,
        lambda: rnd.submit(4, valid(hand)),
        capsa.ArgumentError,
        "seat 4 is not at the table: it has seats 0 to 3",
    )
    refused(rnd, lambda: rnd.submit(-1, valid(hand)), capsa.ArgumentError, "seat -1")
    refused(rnd, lambda: rnd.submit(True, valid(hand)), TypeError, "seat must be an int")
    # seat 1's cards submitted for seat 0
    before = state_of(rnd)
    with pytest.raises(capsa.HandError) as info:
        rnd.submit(0, valid(hand))
    assert info.value.seat == 0
    assert str(hand[0]) in str(info.value) and "was not dealt" in str(info.value)
    assert state_of(rnd) == before
    # one card swapped for another seat's
    ids = list(valid(rnd.hands[0]).ids)
    ids[4] = rnd.hands[2][0].id
    with pytest.raises(
        capsa.HandError, match=f"holds {rnd.hands[2][0]} that the seat was not dealt"
    ):
        rnd.submit(0, ids)
    refused(rnd, lambda: rnd.submit(0, "As Ks"), capsa.HandError, "seat 0")
    refused(rnd, lambda: rnd.submit(0, "Zz " * 13), capsa.CardError, "seat 0")
    refused(rnd, lambda: rnd.submit(0, {"top": 1}), TypeError, "seat 0: an arrangement is")
    refused(
        rnd,
        lambda: rnd.submit(0, [*ids[:12], ids[0]]),
        capsa.HandError,
        "appears twice, at positions 0 and 12",
    )


def test_surrender_only_where_the_rules_allow_it() -> None:
    rnd = dealt()
    with pytest.raises(capsa.TableError, match="do not allow surrender") as info:
        rnd.surrender(2)
    assert info.value.seat == 2
    rnd = dealt(rules=capsa.Rules.preset("2-4"))
    rnd.surrender(2)
    rnd.surrender(1)
    rnd.surrender(1, False)
    refused(rnd, lambda: rnd.surrender(1, 1), TypeError, "surrender must be true or false")  # type: ignore[arg-type]
    played(rnd)
    seats = rnd.record()["seats"]
    assert [s["surrender"] for s in seats] == [False, False, True, False]
    assert rnd.settle().seats[2]["surrender"] is True
    capsa.replay(rnd.record())


def test_a_natural_is_declared_unless_declined() -> None:
    rnd, seat = with_natural()
    other = (seat + 1) % 4 if not capsa.natural(rnd.hands[(seat + 1) % 4], RULES) else None
    if other is not None:
        refused(
            rnd,
            lambda: rnd.declare_natural(other, False),
            capsa.RoundError,
            f"seat {other} holds no natural",
        )
    rnd.declare_natural(seat, False)
    rnd.declare_natural(seat, True)
    rnd.declare_natural(seat, False)
    refused(
        rnd,
        lambda: rnd.declare_natural(seat, "no"),
        TypeError,
        "declare_natural must be true or false",
    )  # type: ignore[arg-type]
    played(rnd)
    record = rnd.record()
    assert record["seats"][seat]["declare_natural"] is False
    assert rnd.settle().seats[seat]["natural"] is None
    assert all(s["declare_natural"] for k, s in enumerate(record["seats"]) if k != seat)
    capsa.replay(record)


def test_constructor_arguments_are_checked() -> None:
    cases: list[tuple[dict[str, Any], type[Exception], str]] = [
        ({"seats": 5}, capsa.TableError, "2 to 4 seats"),
        ({"seats": 4.0}, TypeError, "seats must be an int"),
        ({"stakes": -1}, capsa.TableError, "the stake must be in"),
        ({"stakes": True}, TypeError, "must be an integer or"),
        ({"stakes": [[0, 1], [1, 0]]}, capsa.TableError, "4 rows of 4"),
        ({"seats": 2, "stakes": [[0, 1], [2, 0]]}, capsa.TableError, "not symmetric"),
        ({"seats": 2, "stakes": [[0, 1], [1, -1]]}, capsa.TableError, r"stakes\[1\]\[1\]"),
        ({"round_id": ""}, capsa.ArgumentError, "round_id must be 1 to 256 bytes"),
        ({"round_id": "é" * 129}, capsa.ArgumentError, "got 258"),
        ({"round_id": 7}, TypeError, "round_id must be a str"),
        ({"round_id": "\ud800"}, capsa.ArgumentError, "lone surrogate"),
        ({"nonce": -1}, capsa.ArgumentError, "nonce must be in"),
        ({"nonce": 2**64}, capsa.ArgumentError, "nonce must be in"),
        (
            {"previous_digest": "AB" * 32},
            capsa.ArgumentError,
            "previous_digest must be 64 lowercase",
        ),
        ({"previous_digest": b"a"}, TypeError, "previous_digest must be a str"),
        ({"server_seed": bytes(31)}, capsa.ArgumentError, "server_seed must be 32 bytes"),
        ({"server_seed": "00" * 32}, TypeError, "server_seed must be bytes"),
        (
            {"meta": {"k": [1]}},
            TypeError,
            r'meta\["k"\] must be a text, an integer, a boolean or null, not an array',
        ),
        ({"meta": {"": 1}}, capsa.ArgumentError, "a key is 1 to 64 bytes"),
        ({"meta": {str(k): k for k in range(33)}}, capsa.ArgumentError, "at most 32 entries"),
        ({"meta": {"k": "x" * 1025}}, capsa.ArgumentError, "at most 1024 bytes"),
        ({"meta": {"k": 2**64}}, capsa.ArgumentError, "fit in 64 bits"),
        ({"rules": "pagat"}, TypeError, "argument 'rules': must be a capsa.Rules"),
    ]
    for kwargs, error, match in cases:
        args: dict[str, Any] = {"round_id": "r", **kwargs}
        with pytest.raises(error, match=match):
            capsa.Round(**args)


def test_deal_arguments_are_checked() -> None:
    rnd = new_round()
    refused(rnd, lambda: rnd.deal(["a"]), capsa.ArgumentError, r"one per seat \(4\) or none, got 1")
    refused(
        rnd, lambda: rnd.deal(["a", "b", "c", "x" * 257]), capsa.ArgumentError, r"client_seeds\[3\]"
    )
    refused(rnd, lambda: rnd.deal("abcd"), TypeError, "list of str")  # type: ignore[arg-type]
    rnd.deal(("a", "b", "c", "d"))
    assert rnd.client_seeds == ["a", "b", "c", "d"]


def test_stakes_and_meta_reach_the_record() -> None:
    stakes = [[0, 10, 20], [10, 0, 30], [20, 30, 0]]
    rnd = capsa.Round(RULES, 3, stakes, round_id="m", meta={"t": 1, "s": "x", "b": True, "n": None})
    rnd.deal()
    played(rnd)
    record = rnd.record()
    assert record["stakes"] == stakes
    assert record["meta"] == {"t": 1, "s": "x", "b": True, "n": None}
    assert [p["stake"] for p in record["settlement"]["pairs"]] == [10, 20, 30]
    capsa.replay(record)
    default = capsa.Round(capsa.Rules.preset("pagat").derive({"money.stake": 7}), 2, round_id="d")
    assert default.stakes == 7


def test_records_chain() -> None:
    first = played(dealt(k=1))
    second_round = new_round(k=2, previous_digest=first.digest)
    second_round.deal()
    second = played(second_round)
    record = second.record()
    assert record["previous_digest"] == first.digest
    assert capsa.replay(record, previous_digest=first.digest) == second.digest
    with pytest.raises(capsa.ReplayError) as info:
        capsa.replay(record, previous_digest=None)
    assert info.value.fields == ("previous_digest",)


@pytest.mark.parametrize("phase", PHASES)
def test_state_round_trips_at_every_phase(phase: str) -> None:
    rules = capsa.Rules.preset("2-4")
    rnd = new_round(4, rules, k=5, nonce=9, meta={"a": 1})
    if phase != "open":
        rnd.deal(["w", "x", "y", "z"])
        rnd.submit(0, valid(rnd.hands[0], rules))
        rnd.surrender(1)
    if phase in ("closed", "settled"):
        rnd.close()
    if phase == "settled":
        rnd.settle()
    state = json.loads(json.dumps(rnd.to_dict(key=KEY)))
    back = capsa.Round.from_dict(state, key=KEY)
    assert back.to_dict(key=KEY) == rnd.to_dict(key=KEY)
    assert back.phase == phase
    if phase != "open":
        assert back.hands == rnd.hands
    if phase == "settled":
        assert back.record_json() == rnd.record_json()
    if phase in ("open", "dealt"):
        # the restored round plays on to the same record
        for r in (rnd, back):
            if r.phase == "open":
                r.deal(["w", "x", "y", "z"])
            r.close()
            r.settle()
        assert back.record_json() == rnd.record_json()


def test_a_state_that_could_not_be_reached_is_refused() -> None:
    rnd = dealt()
    rnd.submit(0, valid(rnd.hands[0]))
    good = rnd.to_dict(key=KEY)

    def broken(change: Callable[[dict[str, Any]], None]) -> dict[str, Any]:
        """The state changed and sealed again, as a server with the key could."""
        state = json.loads(json.dumps(good))
        state.pop(MAC_FIELD)
        change(state)
        return seal(state, KEY)

    other_hand = valid(rnd.hands[1])
    cases: list[tuple[Callable[[dict[str, Any]], None], type[Exception], str]] = [
        (lambda s: s.pop("phase"), capsa.RoundError, "phase is missing"),
        (lambda s: s.update(extra=1), capsa.RoundError, "unknown key 'extra'"),
        (lambda s: s.update(format_version=1), capsa.RoundError, "format_version must be 2"),
        (lambda s: s.update(phase="done"), capsa.RoundError, "phase must be one of"),
        (lambda s: s.update(server_seed="zz"), capsa.RoundError, "server_seed must be 64"),
        (lambda s: s["play"][0].update(arrangement=str(other_hand)), capsa.HandError, "seat 0"),
        (lambda s: s["play"][1].update(surrender=True), capsa.TableError, "do not allow surrender"),
        (lambda s: s["play"][1].update(auto=True), capsa.RoundError, "only at the close"),
        (lambda s: s["play"].pop(), capsa.RoundError, "list of 4 seats"),
        (lambda s: s.update(rules='{"wheel":"high"}'), capsa.RoundError, "rules: .*wheel"),
        (lambda s: s.update(rules='{"wheel": "x"}'), capsa.RoundError, "canonical JSON"),
        (lambda s: s.update(rules=[]), TypeError, "rules must be JSON text"),
        (lambda s: s.update(seats=5), capsa.TableError, "2 to 4 seats"),
        (lambda s: s.update(phase="closed"), capsa.RoundError, "every seat's arrangement"),
    ]
    for change, error, match in cases:
        with pytest.raises(error, match=match):
            capsa.Round.from_dict(broken(change), key=KEY)
    with pytest.raises(TypeError, match="a round state is a mapping"):
        capsa.Round.from_dict([], key=KEY)  # type: ignore[arg-type]


def test_the_record_is_a_function_of_the_inputs() -> None:
    """The same seeds and play give the same record, byte for byte."""
    texts = {played(dealt(k=3)).record_json() for _ in range(3)}
    assert len(texts) == 1
    assert played(dealt(k=4)).record_json() not in texts


def test_server_seeds_are_fresh() -> None:
    rounds = [capsa.Round(round_id=f"r{k}") for k in range(50)]
    assert len({r.commitment for r in rounds}) == 50
