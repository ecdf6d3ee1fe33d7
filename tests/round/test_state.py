"""capsa.Round's saved state is tamper-evident: sealed by HMAC-SHA256 under
the server's key, every changed, added, removed, renamed or swapped field is
refused naming it; a state without a MAC or under another key is refused;
and a state sealed again under the key is still checked for every
invariant (a fouled arrangement marked auto, a commitment that does not
match)."""

from __future__ import annotations

import hashlib
import hmac
import json
from collections.abc import Callable
from typing import Any

import pytest

import capsa
from capsa.round.state import MAC_FIELD, seal

RULES = capsa.Rules()
KEY = hashlib.sha256(b"round state test key").digest()


def closed_round() -> capsa.Round:
    rnd = capsa.Round(RULES, 4, 100, round_id="t/state", server_seed=bytes(32), nonce=3)
    hands = rnd.deal(["a", "b", "c", "d"])
    rnd.submit(0, capsa.splits(hands[0], RULES)[-1].tolist())
    rnd.close()
    return rnd


GOOD = json.loads(json.dumps(closed_round().to_dict(key=KEY)))


def changed(change: Callable[[dict[str, Any]], object]) -> dict[str, Any]:
    state = json.loads(json.dumps(GOOD))
    change(state)
    return state


@pytest.mark.parametrize(
    ("change", "named"),
    [
        (lambda s: s.update(server_seed="11" * 32), "server_seed was changed"),
        (lambda s: s.update(client_seeds=["x", "b", "c", "d"]), "client_seeds was changed"),
        (lambda s: s.update(stakes=1000), "stakes was changed"),
        (
            lambda s: s.update(rules=s["rules"].replace('"stake":1', '"stake":9')),
            "rules was changed",
        ),
        (lambda s: s["play"][1].update(auto=False), "play was changed"),
        (lambda s: s.update(nonce=4), "nonce was changed"),
        (lambda s: s.update(commitment="00" * 32), "commitment was changed"),
        (lambda s: s.update(deadline=1), "deadline was changed"),
        (lambda s: s.update(extra=1), "'extra' is not covered by the MAC"),
        (lambda s: s.update(round_ID=s.pop("round_id")), "'round_ID' is not covered"),
        (lambda s: s.pop("meta"), "meta is missing"),
        (lambda s: s.update(nonce=s["seats"], seats=s["nonce"]), "nonce was changed"),
        (lambda s: s[MAC_FIELD].update(whole="0" * 64), "the MAC of the whole does not match"),
        (lambda s: s.pop(MAC_FIELD), "mac is missing"),
        (lambda s: s.update(mac={"fields": {}}), "mac is missing or malformed"),
    ],
)
def test_a_changed_state_is_refused_naming_the_field(
    change: Callable[[dict[str, Any]], object], named: str
) -> None:
    with pytest.raises(capsa.RoundError, match=named):
        capsa.Round.from_dict(changed(change), key=KEY)


def test_the_mac_of_a_moved_field_does_not_follow_it() -> None:
    def swap(s: dict[str, Any]) -> None:
        fields = s[MAC_FIELD]["fields"]
        s["round_id"], s["meta"] = s["meta"], s["round_id"]
        fields["round_id"], fields["meta"] = fields["meta"], fields["round_id"]

    with pytest.raises(capsa.RoundError, match="was changed"):
        capsa.Round.from_dict(changed(swap), key=KEY)


def test_another_key_is_refused_and_the_key_is_checked() -> None:
    with pytest.raises(capsa.RoundError, match="was changed"):
        capsa.Round.from_dict(GOOD, key=bytes(32))
    assert capsa.Round.from_dict(GOOD, key=KEY).to_dict(key=KEY) == GOOD
    rnd = closed_round()
    with pytest.raises(capsa.ArgumentError, match="at least 16 bytes"):
        rnd.to_dict(key=b"short")
    with pytest.raises(TypeError, match="key must be bytes"):
        rnd.to_dict(key="a text key of enough length")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="key must be bytes"):
        capsa.Round.from_dict(GOOD, key=None)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        capsa.Round.from_dict(GOOD)  # type: ignore[call-arg]


def resealed(change: Callable[[dict[str, Any]], object]) -> dict[str, Any]:
    """The state changed and sealed again: only a holder of the key can."""
    state = changed(change)
    state.pop(MAC_FIELD)
    return seal(state, KEY)


def test_a_sealed_state_is_still_checked_for_every_invariant() -> None:
    auto = next(k for k, p in enumerate(GOOD["play"]) if p["auto"])
    hand = capsa.Round.from_dict(GOOD, key=KEY).hands[auto]
    ids = sorted((c.id for c in hand), key=lambda i: capsa.Card(i).rank, reverse=True)
    fouled = capsa.Arrangement.from_ids(ids)
    assert fouled.is_foul(RULES)

    def foul(s: dict[str, Any]) -> None:
        s["play"][auto]["arrangement"] = str(fouled)

    with pytest.raises(capsa.RoundError, match=rf"play\[{auto}\].auto: the arrangement fouls"):
        capsa.Round.from_dict(resealed(foul), key=KEY)
    with pytest.raises(capsa.RoundError, match="commitment is not the SHA-256"):
        capsa.Round.from_dict(resealed(lambda s: s.update(commitment="0" * 64)), key=KEY)
    with pytest.raises(capsa.RoundError, match="meta: a float is not state data"):
        capsa.Round.from_dict(resealed(lambda s: s.update(meta=1.5)), key=KEY)


def test_a_settled_state_restores_its_record() -> None:
    rnd = closed_round()
    rnd.settle()
    back = capsa.Round.from_dict(json.loads(json.dumps(rnd.to_dict(key=KEY))), key=KEY)
    assert back.phase == "settled"
    assert back.record_json() == rnd.record_json() and back.digest == rnd.digest


def test_a_settled_state_holds_its_digest_and_checks_it_when_written() -> None:
    rnd = closed_round()
    rnd.settle()
    state = json.loads(json.dumps(rnd.to_dict(key=KEY)))
    assert state["digest"] == rnd.digest
    # a state without the digest (as an earlier capsa wrote it) writes the record again
    older = {k: v for k, v in state.items() if k not in (MAC_FIELD, "digest")}
    back = capsa.Round.from_dict(seal(older, KEY), key=KEY)
    assert back.digest == rnd.digest and back.record_json() == rnd.record_json()
    # a digest the record does not give is refused when the record is written
    fields = {k: v for k, v in state.items() if k != MAC_FIELD}
    forged_round = capsa.Round.from_dict(seal(fields | {"digest": "0" * 64}, KEY), key=KEY)
    with pytest.raises(capsa.RoundError, match="written again has another digest"):
        forged_round.record_json()
    with pytest.raises(capsa.RoundError, match="digest must be 64 lowercase"):
        capsa.Round.from_dict(seal(fields | {"digest": "x"}, KEY), key=KEY)
    dealt = {k: v for k, v in GOOD.items() if k != MAC_FIELD} | {"digest": rnd.digest}
    with pytest.raises(capsa.RoundError, match="a closed round has no digest"):
        capsa.Round.from_dict(seal(dealt, KEY), key=KEY)


def test_a_sealed_closed_state_declines_only_a_natural_its_seat_holds() -> None:
    rnd = closed_round()
    hands = rnd.hands
    without = [k for k in range(4) if capsa.natural(hands[k], RULES) is None]
    assert without, "the fixed seed deals at least one hand without a natural"

    def declined(state: dict[str, Any]) -> None:
        state["play"][without[0]]["declare_natural"] = False

    with pytest.raises(capsa.RoundError, match=f"seat {without[0]} holds no natural"):
        capsa.Round.from_dict(resealed(declined), key=KEY)
    back = capsa.Round.from_dict(resealed(lambda s: None), key=KEY)
    assert back.to_dict(key=KEY) == GOOD


def _field_mac(key: bytes, name: str, value: object) -> str:
    """A field's MAC as docs/records.md defines it, computed with the
    standard library: HMAC-SHA256 of its name, a zero byte and its
    canonical JSON text."""
    text = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hmac.new(key, name.encode() + b"\0" + text.encode(), hashlib.sha256).hexdigest()


def test_every_field_mac_is_its_hmac_under_each_key_in_turn() -> None:
    # the engine remembers recent fields' MACs: sealing the same fields
    # again, under keys taken in turn, must give each key's own MACs
    other = hashlib.sha256(b"another server key").digest()
    for key in (KEY, other, KEY, KEY, other):
        state = capsa.Round.from_dict(GOOD, key=KEY).to_dict(key=key)
        macs = state[MAC_FIELD]["fields"]
        fields = {n: v for n, v in state.items() if n != MAC_FIELD}
        assert macs == {n: _field_mac(key, n, v) for n, v in fields.items()}
        assert capsa.Round.from_dict(state, key=key).to_dict(key=key) == state
        wrong = other if key == KEY else KEY
        with pytest.raises(capsa.RoundError, match="was changed"):
            capsa.Round.from_dict(state, key=wrong)
