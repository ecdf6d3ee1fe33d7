"""capsa.Round's two timers: the seed deadline, when a deal that waits for
client seeds goes ahead without the missing ones, and the arranging window,
which the deal starts, so that a seat whose player never sends a seed
neither deals and closes the round in one instant nor takes the others'
arranging time. Each argument typed and checked, kept in the sealed state,
shown in a player's view."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from typing import Any

import pytest

import capsa
from capsa.round.args import now_ms
from capsa.round.state import MAC_FIELD, seal

RULES = capsa.Rules()
KEY = hashlib.sha256(b"round timers test key").digest()
SEEDS_DUE = 1_800_000_000_000  # the seed deadline, ms since the Unix epoch
WINDOW = 30_000  # the arranging window, ms


def new_round(**kw: Any) -> capsa.Round:
    seed = hashlib.sha256(b"round timers").digest()
    return capsa.Round(RULES, 4, 100, round_id="t/timers", server_seed=seed, **kw)


def waiting(**kw: Any) -> capsa.Round:
    """A round waiting for client seeds, seats 0 to 2's in, seat 3's never sent."""
    rnd = new_round(require_client_seeds=True, seed_deadline=SEEDS_DUE, arrangement_ms=WINDOW, **kw)
    for seat in range(3):
        rnd.add_client_seed(seat, f"seat {seat}")
    return rnd


def trip(rnd: capsa.Round) -> capsa.Round:
    """The round saved as JSON and restored."""
    state = json.loads(json.dumps(rnd.to_dict(key=KEY)))
    return capsa.Round.from_dict(state, key=KEY, sequence=rnd.sequence)


def valid(hand: list[capsa.Card]) -> capsa.Arrangement:
    return capsa.Arrangement.from_ids(capsa.splits(hand, RULES)[-1])


def test_a_missing_seed_deals_at_the_seed_deadline_and_every_seat_keeps_its_time() -> None:
    rnd = waiting()
    assert rnd.deadline is None and rnd.seed_deadline == SEEDS_DUE
    with pytest.raises(capsa.RoundError, match="before the seed deadline; missing seat 3"):
        rnd.deal(now=SEEDS_DUE - 1)
    rnd = trip(rnd)  # a stateless server restores the round on every request
    rnd.deal(now=SEEDS_DUE)
    assert rnd.client_seeds == ["seat 0", "seat 1", "seat 2", ""]
    assert rnd.deadline == SEEDS_DUE + WINDOW
    rnd = trip(rnd)
    assert rnd.deadline == SEEDS_DUE + WINDOW
    # the deal's instant, and every instant of the window, is not the close
    for now in (SEEDS_DUE, SEEDS_DUE + WINDOW - 1):
        with pytest.raises(capsa.RoundError, match=f"deadline {SEEDS_DUE + WINDOW} has not"):
            rnd.close(now=now)
    assert rnd.phase == "dealt"
    for seat in range(4):  # every seat, the late one too, arranges in its window
        rnd.submit(seat, valid(rnd.hands[seat]))
    rnd.close(now=SEEDS_DUE + WINDOW)
    assert [rnd.submitted(seat) for seat in range(4)] == [True] * 4
    rnd.settle()
    assert capsa.replay(trip(rnd).record_json()) == rnd.digest


def test_the_window_starts_when_the_deal_is_made() -> None:
    late = waiting()
    late.add_client_seed(3, "seat 3")
    at = SEEDS_DUE - 60_000  # every seed in: the deal goes ahead before the seed deadline
    late.deal(now=at)
    assert late.deadline == at + WINDOW
    on_the_clock = new_round(arrangement_ms=WINDOW)
    before = now_ms()
    on_the_clock.deal()
    after = now_ms()
    assert on_the_clock.deadline is not None
    assert before + WINDOW <= on_the_clock.deadline <= after + WINDOW
    with pytest.raises(capsa.RoundError, match="has not passed"):
        on_the_clock.close()
    on_the_clock.close(force=True)  # forced, as before
    end = new_round(arrangement_ms=WINDOW)
    end.deal(now=2**63 - 10)  # a window past the last time a round takes ends there
    assert end.deadline == 2**63 - 1


def test_the_seed_deadline_is_the_deadline_when_not_given() -> None:
    rnd = new_round(require_client_seeds=True, deadline=SEEDS_DUE)
    assert rnd.seed_deadline == SEEDS_DUE
    with pytest.raises(capsa.RoundError, match="missing seat 0, 1, 2, 3"):
        rnd.deal(now=SEEDS_DUE - 1)
    rnd.deal(now=SEEDS_DUE)
    assert rnd.deadline == SEEDS_DUE and rnd.arrangement_ms is None
    earlier = new_round(require_client_seeds=True, deadline=SEEDS_DUE, seed_deadline=SEEDS_DUE - 5)
    earlier.deal(now=SEEDS_DUE - 5)
    with pytest.raises(capsa.RoundError, match="has not passed"):
        earlier.close(now=SEEDS_DUE - 1)
    # without client seeds required the deal waits for none: no seed deadline
    assert new_round(deadline=SEEDS_DUE).seed_deadline is None
    assert new_round(require_client_seeds=True).seed_deadline is None


@pytest.mark.parametrize(
    ("arguments", "error", "match"),
    [
        ({"seed_deadline": "1800000000000"}, TypeError, "seed_deadline must be an int"),
        ({"seed_deadline": 1.5}, TypeError, "seed_deadline must be an int"),
        ({"seed_deadline": True}, TypeError, "seed_deadline must be an int"),
        ({"seed_deadline": -1}, capsa.ArgumentError, "seed_deadline must be 0 to 2\\*\\*63-1"),
        ({"seed_deadline": 2**63}, capsa.ArgumentError, "seed_deadline must be 0 to 2\\*\\*63-1"),
        (
            {"seed_deadline": 5, "require_client_seeds": False},
            capsa.ArgumentError,
            "give it with require_client_seeds=True",
        ),
        (
            {"seed_deadline": 6, "deadline": 5},
            capsa.ArgumentError,
            "seed_deadline 6 is after deadline 5",
        ),
        ({"arrangement_ms": "30000"}, TypeError, "arrangement_ms must be an int"),
        ({"arrangement_ms": 30.0}, TypeError, "arrangement_ms must be an int"),
        ({"arrangement_ms": False}, TypeError, "arrangement_ms must be an int"),
        ({"arrangement_ms": 0}, capsa.ArgumentError, "arrangement_ms must be 1 to 2\\*\\*63-1"),
        ({"arrangement_ms": -30}, capsa.ArgumentError, "arrangement_ms must be 1 to"),
        ({"arrangement_ms": 2**63}, capsa.ArgumentError, "arrangement_ms must be 1 to"),
        (
            {"arrangement_ms": 30, "deadline": 5},
            capsa.ArgumentError,
            "deadline and arrangement_ms: give one",
        ),
        ({"auto_arrange": b"solver"}, TypeError, "auto_arrange must be a str or None, not bytes"),
        ({"auto_arrange": 1}, TypeError, "auto_arrange must be a str"),
        (
            {"auto_arrange": "simple"},
            capsa.ArgumentError,
            "auto_arrange must be one of solver, greedy, foul, got 'simple'",
        ),
        ({"auto_arrange": "Solver"}, capsa.ArgumentError, "auto_arrange must be one of"),
    ],
)
def test_each_argument_is_typed_and_checked_when_the_round_is_made(
    arguments: dict[str, Any], error: type[Exception], match: str
) -> None:
    kw = {"require_client_seeds": True} | arguments
    with pytest.raises(error, match=match):
        new_round(**kw)


def test_a_view_shows_the_seed_deadline_and_after_the_deal_the_deadline() -> None:
    rnd = waiting(auto_arrange="greedy")
    view = rnd.view(3)
    assert view["seed_deadline"] == SEEDS_DUE and view["arrangement_ms"] == WINDOW
    assert view["deadline"] is None and view["auto_arrange"] == "greedy"
    rnd.deal(now=SEEDS_DUE + 7)
    view = rnd.view(3)
    assert view["deadline"] == SEEDS_DUE + 7 + WINDOW and view["seed_deadline"] == SEEDS_DUE
    assert trip(rnd).view(3) == view
    plain = new_round(deadline=SEEDS_DUE).view(0)
    assert plain["seed_deadline"] is None and plain["arrangement_ms"] is None
    assert plain["deadline"] == SEEDS_DUE and plain["auto_arrange"] == "solver"


def _at(phase: str) -> capsa.Round:
    rnd = waiting(auto_arrange="greedy")
    if phase != "open":
        rnd.deal(now=SEEDS_DUE)
        rnd.submit(0, valid(rnd.hands[0]))
    if phase in ("closed", "settled"):
        rnd.close(now=SEEDS_DUE + WINDOW)
    if phase == "settled":
        rnd.settle()
    return rnd


@pytest.mark.parametrize("phase", ["open", "dealt", "closed", "settled"])
def test_the_state_keeps_each_timer_and_the_policy(phase: str) -> None:
    rnd = _at(phase)
    state = rnd.to_dict(key=KEY)
    assert state["format_version"] == 4
    assert (state["seed_deadline"], state["arrangement_ms"]) == (SEEDS_DUE, WINDOW)
    assert state["auto_arrange"] == "greedy"
    assert state["deadline"] == (None if phase == "open" else SEEDS_DUE + WINDOW)
    back = trip(rnd)
    assert back.to_dict(key=KEY) == state
    assert (back.seed_deadline, back.arrangement_ms, back.deadline, back.auto_arrange) == (
        rnd.seed_deadline,
        rnd.arrangement_ms,
        rnd.deadline,
        "greedy",
    )


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("seed_deadline", SEEDS_DUE + 1),
        ("arrangement_ms", WINDOW + 1),
        ("auto_arrange", "solver"),
        ("deadline", SEEDS_DUE + WINDOW + 1),
    ],
)
def test_a_state_with_a_timer_or_the_policy_changed_is_refused(name: str, value: Any) -> None:
    state = json.loads(json.dumps(_at("dealt").to_dict(key=KEY)))
    state[name] = value
    with pytest.raises(capsa.RoundError, match=f"round state: {name} was changed"):
        capsa.Round.from_dict(state, key=KEY)


def _as_version_2(fields: dict[str, Any], keep: str = "") -> None:
    """The fields as a state of version 2 holds them, but ``keep``."""
    for name in ("sequence", "seed_deadline", "arrangement_ms", "auto_arrange"):
        if name != keep:
            del fields[name]
    del fields["banker"], fields["multipliers"]
    fields["format_version"] = 2


def _resealed(phase: str, change: Callable[[dict[str, Any]], object]) -> dict[str, Any]:
    fields = {k: v for k, v in _at(phase).to_dict(key=KEY).items() if k != MAC_FIELD}
    change(fields)
    return seal(fields, KEY)


@pytest.mark.parametrize(
    ("phase", "change", "error", "match"),
    [
        ("open", lambda s: s.update(arrangement_ms=0), capsa.ArgumentError, "arrangement_ms must"),
        (
            "open",
            lambda s: s.update(arrangement_ms="1"),
            TypeError,
            "arrangement_ms must be an int",
        ),
        ("open", lambda s: s.update(seed_deadline=-1), capsa.ArgumentError, "seed_deadline must"),
        ("open", lambda s: s.update(auto_arrange="simple"), capsa.ArgumentError, "auto_arrange"),
        ("open", lambda s: s.update(deadline=5), capsa.RoundError, "has none until the deal"),
        ("dealt", lambda s: s.update(deadline=None), capsa.RoundError, "has one"),
        ("dealt", lambda s: s.update(deadline=WINDOW - 1), capsa.RoundError, "before"),
        ("dealt", lambda s: s.update(deadline="soon"), TypeError, "round state: deadline must"),
        ("closed", lambda s: s.pop("seed_deadline"), capsa.RoundError, "seed_deadline is missing"),
        ("dealt", lambda s: _as_version_2(s, keep="seed_deadline"), capsa.RoundError, "no seed_"),
        ("dealt", lambda s: _as_version_2(s, keep="auto_arrange"), capsa.RoundError, "no auto_"),
    ],
)
def test_a_sealed_state_is_checked_as_the_constructor_checks(
    phase: str, change: Callable[[dict[str, Any]], object], error: type[Exception], match: str
) -> None:
    with pytest.raises(error, match=match):
        capsa.Round.from_dict(_resealed(phase, change), key=KEY)


def test_a_state_of_version_2_has_the_deadline_for_seeds_and_the_solver() -> None:
    rnd = new_round(require_client_seeds=True, deadline=SEEDS_DUE)
    rnd.add_client_seed(1, "east")
    fields = {k: v for k, v in rnd.to_dict(key=KEY).items() if k != MAC_FIELD}
    _as_version_2(fields)
    back = capsa.Round.from_dict(seal(dict(fields), KEY), key=KEY)
    assert (back.seed_deadline, back.arrangement_ms, back.auto_arrange) == (
        SEEDS_DUE,
        None,
        "solver",
    )
    again = {k: v for k, v in back.to_dict(key=KEY).items() if k != MAC_FIELD}
    _as_version_2(again)
    assert again == fields
