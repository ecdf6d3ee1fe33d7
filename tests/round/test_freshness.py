"""A round's saved state is bound to what the server expects: its table, its
round and its sequence (one more with every change of the round), so that
an older state of the round (dealt, after it settled), one re-dealt with
other client seeds or settled into a second record, and another table's or
round's state, are each refused when bound (``StaleStateError``, naming
which); a state of version 2 is read as sequence 0."""

from __future__ import annotations

import hashlib
import json
from typing import Any

import pytest

import capsa
from capsa.round import StaleStateError
from capsa.round.state import MAC_FIELD, seal

KEY = hashlib.sha256(b"round freshness test key").digest()
PLAYERS = ["ana", "ben", "cy", "di"]


def _round(rules: capsa.Rules | None = None, **kw: Any) -> capsa.Round:
    args: dict[str, Any] = {
        "round_id": "t7/r12",
        "table_id": "t7",
        "players": PLAYERS,
        "server_seed": bytes(range(32)),
        "nonce": 12,
    }
    args.update(kw)
    return capsa.Round(rules, 4, 100, **args)


def _saved(rnd: capsa.Round) -> dict[str, Any]:
    """The state as a server keeps it between requests (through JSON)."""
    loaded: dict[str, Any] = json.loads(json.dumps(rnd.to_dict(key=KEY)))
    return loaded


def _play_through(rnd: capsa.Round) -> list[dict[str, Any]]:
    """Plays the round to its settlement, saving the state after each
    change, as a stateless server does; returns the states in order."""
    states = [_saved(rnd)]
    for seat, seed in enumerate(["s0", "s1", "s2", "s3"]):
        rnd.add_client_seed(seat, seed)
        states.append(_saved(rnd))
    hands = rnd.deal()
    states.append(_saved(rnd))
    rnd.submit(0, hands[0])
    states.append(_saved(rnd))
    rnd.close(force=True)
    states.append(_saved(rnd))
    rnd.settle()
    states.append(_saved(rnd))
    return states


def test_every_change_of_the_round_counts_once() -> None:
    rnd = _round(capsa.Rules.preset("1-6"), players=None, table_id=None)
    assert rnd.sequence == 0
    rnd.add_client_seed(1, "b")
    with pytest.raises(capsa.RoundError):
        rnd.add_client_seed(1, "again")  # refused: no change
    with pytest.raises(capsa.RoundError):
        rnd.submit(0, "2c 3c 4c / 5c 6c 7c 8c 9c / Tc Jc Qc Kc Ac")  # before the deal
    assert rnd.sequence == 1
    hands = rnd.deal()
    assert rnd.sequence == 2
    rnd.submit(0, hands[0])
    rnd.submit(0, hands[0])  # a second submission is a change too
    rnd.surrender(1)
    rnd.surrender(1, False)
    assert rnd.sequence == 6
    rnd.close(force=True)
    assert rnd.sequence == 7
    rnd.settle()
    rnd.settle()  # settling again changes nothing
    assert rnd.sequence == 8
    state = rnd.to_dict(key=KEY)
    assert state["sequence"] == 8 and state["format_version"] == 4
    assert capsa.Round.from_dict(state, key=KEY, sequence=8).sequence == 8


def test_each_state_of_a_round_restores_its_own_sequence() -> None:
    states = _play_through(_round())
    assert [s["sequence"] for s in states] == list(range(len(states)))
    for k, state in enumerate(states):
        restored = capsa.Round.from_dict(
            state, key=KEY, table_id="t7", round_id="t7/r12", sequence=k
        )
        assert restored.sequence == k and restored.to_dict(key=KEY) == state


def test_an_older_state_after_the_settlement_is_refused_when_bound() -> None:
    rnd = _round()
    states = _play_through(rnd)
    dealt = next(s for s in states if s["phase"] == "dealt")
    now = rnd.sequence
    with pytest.raises(StaleStateError, match="sequence is 5, the server expects 8") as refused:
        capsa.Round.from_dict(dealt, key=KEY, sequence=now)
    assert refused.value.field == "sequence" and isinstance(refused.value, capsa.RoundError)
    # unbound, the MAC alone lets it through: it is the server's own state
    assert capsa.Round.from_dict(dealt, key=KEY).phase == "dealt"


def test_a_state_re_dealt_with_other_client_seeds_is_refused_when_bound() -> None:
    rnd = _round()
    opened = _saved(rnd)
    dealt_hands = rnd.deal(["a", "b", "c", "d"])
    # unbound, the open state deals again with other seeds: other hands
    again = capsa.Round.from_dict(opened, key=KEY)
    assert again.deal(["w", "x", "y", "z"]) != dealt_hands
    with pytest.raises(StaleStateError) as refused:
        capsa.Round.from_dict(opened, key=KEY, sequence=rnd.sequence)
    assert refused.value.field == "sequence"
    assert "an older state of the round" in str(refused.value)


def test_a_state_settled_into_a_second_record_is_refused_when_bound() -> None:
    rnd = _round()
    states = _play_through(rnd)
    first = rnd.record_json()
    closed = next(s for s in states if s["phase"] == "dealt")
    # unbound: a second record of the round, the same round id, other play
    second = capsa.Round.from_dict(closed, key=KEY)
    second.submit(0, sorted(second.hands[0], key=lambda c: -c.id))
    second.close(force=True)
    second.settle()
    assert second.round_id == rnd.round_id and second.record_json() != first
    with pytest.raises(StaleStateError, match="sequence"):
        capsa.Round.from_dict(closed, key=KEY, table_id="t7", sequence=rnd.sequence)


def test_another_tables_or_rounds_state_is_refused_when_bound() -> None:
    other_table = _saved(_round(table_id="t8"))
    with pytest.raises(StaleStateError, match="table_id is 't8', the server expects 't7'") as e:
        capsa.Round.from_dict(other_table, key=KEY, table_id="t7", round_id="t7/r12")
    assert e.value.field == "table_id"
    no_table = _saved(_round(table_id=None))
    with pytest.raises(StaleStateError, match="table_id is null"):
        capsa.Round.from_dict(no_table, key=KEY, table_id="t7")
    assert capsa.Round.from_dict(no_table, key=KEY, table_id=None).table_id is None
    other_round = _saved(_round(round_id="t7/r11"))
    with pytest.raises(StaleStateError, match="round_id is 't7/r11'") as e:
        capsa.Round.from_dict(other_round, key=KEY, table_id="t7", round_id="t7/r12")
    assert e.value.field == "round_id"


# what a state of version 3 holds that one of version 2 did not, and what
# one of version 4 holds that one of version 3 did not
_NEW_IN_VERSION_3 = ("sequence", "seed_deadline", "arrangement_ms", "auto_arrange")
_NEW_IN_VERSION_4 = ("banker", "multipliers")


def _version_2(state: dict[str, Any]) -> dict[str, Any]:
    """The state as capsa wrote it before the sequence (format version 2)."""
    fields = {
        k: v
        for k, v in state.items()
        if k not in (MAC_FIELD, *_NEW_IN_VERSION_3, *_NEW_IN_VERSION_4)
    }
    fields["format_version"] = 2
    return seal(fields, KEY)


def test_a_state_of_version_2_is_read_as_sequence_0() -> None:
    rnd = _round()
    rnd.deal()
    old = _version_2(_saved(rnd))
    restored = capsa.Round.from_dict(old, key=KEY, sequence=0)
    assert restored.sequence == 0 and restored.phase == "dealt"
    assert restored.to_dict(key=KEY)["format_version"] == 4
    with pytest.raises(StaleStateError, match="sequence is 0, the server expects 1"):
        capsa.Round.from_dict(old, key=KEY, sequence=1)
    # a version 2 state holds no sequence, a version 3 state must
    with_sequence = dict(old, sequence=0)
    with_sequence.pop(MAC_FIELD)
    with pytest.raises(capsa.RoundError, match="a state of version 2 has no sequence"):
        capsa.Round.from_dict(seal(with_sequence, KEY), key=KEY)
    without = {k: v for k, v in _saved(rnd).items() if k not in (MAC_FIELD, "sequence")}
    with pytest.raises(capsa.RoundError, match="sequence is missing"):
        capsa.Round.from_dict(seal(without, KEY), key=KEY)
    for bad in (-1, True, "3", None):
        fields = {k: v for k, v in _saved(rnd).items() if k != MAC_FIELD}
        fields["sequence"] = bad
        with pytest.raises(capsa.RoundError, match="sequence must be an integer"):
            capsa.Round.from_dict(seal(fields, KEY), key=KEY)


@pytest.mark.parametrize(
    ("bound", "error", "match"),
    [
        ({"table_id": 7}, TypeError, "table_id must be a string"),
        ({"table_id": ""}, capsa.ArgumentError, "table_id must be 1 to 256 bytes"),
        ({"round_id": None}, TypeError, "round_id must be a string"),
        ({"round_id": "r\n"}, capsa.ArgumentError, "round_id holds U\\+000A"),
        ({"sequence": -1}, capsa.ArgumentError, "sequence must be >= 0"),
        ({"sequence": True}, TypeError, "sequence must be an int"),
        ({"sequence": 1.0}, TypeError, "sequence must be an int"),
    ],
)
def test_a_bound_that_is_not_an_id_or_a_sequence_is_refused(
    bound: dict[str, Any], error: type[Exception], match: str
) -> None:
    state = _saved(_round())
    with pytest.raises(error, match=match):
        capsa.Round.from_dict(state, key=KEY, **bound)


def test_the_mac_is_checked_before_the_binding() -> None:
    state = _saved(_round(table_id="t8"))
    state["table_id"] = "t7"  # changed to pass the binding
    with pytest.raises(capsa.RoundError, match="table_id was changed") as refused:
        capsa.Round.from_dict(state, key=KEY, table_id="t7")
    assert not isinstance(refused.value, StaleStateError)
