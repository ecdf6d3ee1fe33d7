"""capsa.Round.view: what one player may see, never another seat's cards
or the server seed before the settlement; deadlines on the close and on
client seeds; client seeds added one seat at a time."""

from __future__ import annotations

import hashlib
import json
import re

import pytest

import capsa

RULES = capsa.Rules()
KEY = bytes(range(32))
DEADLINE = 1_800_000_000_000  # milliseconds since the Unix epoch


def new_round(**kw: object) -> capsa.Round:
    seed = hashlib.sha256(b"view test").digest()
    return capsa.Round(RULES, 4, 100, round_id="t/view", server_seed=seed, **kw)  # type: ignore[arg-type]


def at_phase(phase: str) -> capsa.Round:
    """The round played up to ``phase``: seat 2's client seed in, seat 1 submitted."""
    rnd = new_round(deadline=DEADLINE)
    rnd.add_client_seed(2, "carol")
    if phase != "open":
        rnd.deal(now=DEADLINE)
        rnd.submit(1, capsa.splits(rnd.hands[1], RULES)[-1].tolist())
    if phase != "open" and phase != "dealt":
        rnd.close(now=DEADLINE)
    if phase == "settled":
        rnd.settle()
    return rnd


def shows(text: str, card: capsa.Card) -> bool:
    return re.search(rf"(?<![0-9A-Za-z]){card}(?![0-9A-Za-z])", text) is not None


@pytest.mark.parametrize("phase", ["open", "dealt", "closed"])
def test_a_view_never_shows_another_seats_cards_or_the_server_seed(phase: str) -> None:
    rnd = at_phase(phase)
    hands = at_phase("dealt").hands
    seed = rnd._server_seed.hex()
    for seat in range(4):
        # the commitment is hex, where a card such as 2d could appear
        text = json.dumps(rnd.view(seat)).replace(rnd.commitment, "")
        assert seed not in text
        for other in range(4):
            shown = [c for c in hands[other] if shows(text, c)]
            expected = hands[seat] if other == seat and phase != "open" else []
            assert shown == expected, (seat, other)


def test_what_a_view_holds_at_each_phase() -> None:
    view = at_phase("open").view(2)
    assert view["client_seed"] == "carol" and view["client_seeds_in"] == [False, False, True, False]
    assert at_phase("open").view(0)["client_seed"] is None
    assert view["hand"] is None and view["commitment"] == at_phase("open").commitment
    assert view["deadline"] == DEADLINE and view["rules"] == "capsa-susun"
    dealt = at_phase("dealt")
    view = dealt.view(1)
    assert view["submitted"] == [False, True, False, False]
    assert view["arrangement"] == str(dealt.arrangement(1))
    assert dealt.view(0)["arrangement"] is None
    assert "carol" not in json.dumps(dealt.view(0))  # another seat's client seed
    assert view["client_seeds_in"] == [True] * 4
    assert capsa.Round.from_dict(dealt.to_dict(key=KEY), key=KEY).view(1) == view
    closed = at_phase("closed").view(0)
    assert closed["auto"] is True and closed["record"] is None
    rnd = at_phase("settled")
    after = rnd.view(0)
    assert after["record"] == rnd.record() and after["phase"] == "settled"
    assert json.loads(json.dumps(after)) == after
    with pytest.raises(capsa.ArgumentError, match="seat 4 is not at the table"):
        rnd.view(4)


def test_close_waits_for_the_deadline_unless_forced() -> None:
    rnd = new_round(deadline=DEADLINE)
    rnd.deal()
    with pytest.raises(capsa.RoundError, match="the deadline 1800000000000 has not passed"):
        rnd.close(now=DEADLINE - 1)
    assert rnd.phase == "dealt"
    rnd.close(now=DEADLINE)
    assert rnd.phase == "closed"
    early = new_round(deadline=10**15)
    early.deal()
    with pytest.raises(capsa.RoundError, match="has not passed"):
        early.close()  # the system clock
    early.close(force=True)
    with pytest.raises(TypeError, match="milliseconds"):
        new_round(deadline=1.5)
    with pytest.raises(capsa.ArgumentError, match="deadline must be 0 to"):
        new_round(deadline=-1)
    untimed = new_round()
    untimed.deal()
    with pytest.raises(TypeError, match="now must be an int"):
        untimed.close(now="soon")  # type: ignore[arg-type]
    untimed.close()


def test_client_seeds_one_seat_at_a_time() -> None:
    rnd = new_round(require_client_seeds=True, deadline=DEADLINE)
    for seat, seed in enumerate(["n", "e", "s"]):
        rnd.add_client_seed(seat, seed)
    with pytest.raises(capsa.RoundError, match="missing seat 3"):
        rnd.deal(now=DEADLINE - 1)
    with pytest.raises(capsa.RoundError, match="already in"):
        rnd.add_client_seed(0, "again")
    with pytest.raises(capsa.ArgumentError, match="at most 256 bytes"):
        rnd.add_client_seed(3, "x" * 257)
    saved = rnd.to_dict(key=KEY)
    rnd.add_client_seed(3, "w")
    with pytest.raises(capsa.RoundError, match="give none here"):
        rnd.deal(["a", "b", "c", "d"])
    hands = rnd.deal(now=DEADLINE - 1)
    assert rnd.client_seeds == ["n", "e", "s", "w"]
    assert hands == new_round().deal(["n", "e", "s", "w"])
    with pytest.raises(capsa.RoundError, match="cannot add a client seed: the round is already"):
        rnd.add_client_seed(3, "late")
    # restored, the missing seed stays missing until the deadline has passed
    late = capsa.Round.from_dict(saved, key=KEY)
    assert late.require_client_seeds and late.deadline == DEADLINE
    late.deal(now=DEADLINE)
    assert late.client_seeds == ["n", "e", "s", ""]
    back = capsa.Round.from_dict(late.to_dict(key=KEY), key=KEY)
    assert back.hands == late.hands


def test_the_deal_still_takes_every_seed_at_once() -> None:
    rnd = new_round(require_client_seeds=True)
    with pytest.raises(capsa.RoundError, match="missing seat 0, 1, 2, 3"):
        rnd.deal()
    rnd.deal(["a", "b", "c", "d"])
    assert rnd.client_seeds == ["a", "b", "c", "d"]
