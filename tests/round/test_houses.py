"""A round of a banker game and a round of rules that refuse fouls, played
as a game server plays them: the banker and each seat's multiplier are the
round's inputs, checked when it is made, kept in its state, written in its
record (format 5) and settled from there; a fouled submission is refused so
that the player arranges again."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import capsa
from capsa import _core, oracle
from capsa.records import RecordError, ReplayError, read_record
from capsa.round.state import MAC_FIELD, seal
from strategies import oracle_seats

KEY = bytes(range(32))
BANKER = capsa.Rules.preset("shisanshui-banker")
REFUSE = capsa.Rules().derive({"foul.mode": "refuse"})


def _banker_round(banker: int = 2, multipliers: list[int] | None = None) -> capsa.Round:
    return capsa.Round(
        BANKER,
        4,
        25,
        round_id="table-9/round-1",
        banker=banker,
        multipliers=multipliers or [3, 1, 1, 5],
        server_seed=bytes(range(32)),
        nonce=9,
    )


def _settled(rnd: capsa.Round) -> capsa.Round:
    rnd.deal()
    rnd.close(force=True)
    rnd.settle()
    return rnd


def _fouled(hand: list[capsa.Card], rules: capsa.Rules) -> capsa.Arrangement:
    """An arrangement of the hand that fouls: its cards from the highest
    down, so the top holds the highest cards."""
    ids = sorted((c.id for c in hand), reverse=True)
    arrangement = capsa.Arrangement.from_ids(ids)
    assert arrangement.is_foul(rules)
    return arrangement


# ------------------------------------------------------------ banker games


def test_a_banker_game_needs_its_banker_and_other_games_refuse_one() -> None:
    with pytest.raises(capsa.TableError, match="no seat is named the banker"):
        capsa.Round(BANKER, 4, round_id="r")
    with pytest.raises(capsa.TableError, match=r"banker\.enabled is false"):
        capsa.Round(capsa.Rules(), 4, round_id="r", banker=0)
    with pytest.raises(capsa.TableError, match="multiplier must be 1 outside a banker game"):
        capsa.Round(capsa.Rules(), 2, round_id="r", multipliers=[1, 2])
    with pytest.raises(capsa.ArgumentError, match="banker"):
        capsa.Round(BANKER, 4, round_id="r", banker=4)
    with pytest.raises(capsa.TableError, match=r"1\.\.=5 \(banker.max_multiplier\), got 6"):
        capsa.Round(BANKER, 4, round_id="r", banker=0, multipliers=[1, 6, 1, 1])
    with pytest.raises(capsa.TableError, match="the banker, whose multiplier must be 1"):
        capsa.Round(BANKER, 4, round_id="r", banker=0, multipliers=[2, 1, 1, 1])
    with pytest.raises(capsa.ArgumentError, match="one integer per seat"):
        capsa.Round(BANKER, 4, round_id="r", banker=0, multipliers=[1, 1])
    with pytest.raises(TypeError, match="multipliers"):
        capsa.Round(BANKER, 4, round_id="r", banker=0, multipliers="1111")  # type: ignore[arg-type]


def test_a_banker_round_settles_as_settle_and_the_oracle_settle_its_table() -> None:
    rnd = _settled(_banker_round())
    assert (rnd.banker, rnd.multipliers) == (2, [3, 1, 1, 5])
    arranged = [a for a in (rnd.arrangement(k) for k in range(4)) if a is not None]
    seats = [capsa.Seat(a) for a in arranged]
    roles = {"banker": 2, "multipliers": [3, 1, 1, 5]}
    want = capsa.settle(seats, BANKER, 25, **roles)
    assert rnd.settle().money == want.money
    assert sum(want.money) == 0
    seen = oracle.settle(
        oracle_seats(
            [{"cards": list(a.ids), "surrender": False, "declare_natural": True} for a in arranged]
        ),
        BANKER.to_dict(),
        25,
        **roles,
    )
    assert rnd.settle().money == seen["money"]
    # the pairs of two players are not played: each plays the banker only
    outcomes = {tuple(p["seats"]): p["outcome"] for p in rnd.settle().pairs}
    assert outcomes[(0, 1)] == outcomes[(1, 3)] == "unplayed"
    assert outcomes[(0, 2)] != "unplayed"


def test_the_record_names_the_banker_and_the_multipliers_and_replays() -> None:
    rnd = _settled(_banker_round())
    record = rnd.record()
    assert record["format_version"] == 5
    assert [s.get("banker") for s in record["seats"]] == [None, None, True, None]
    assert [s.get("multiplier") for s in record["seats"]] == [3, None, None, 5]
    assert capsa.replay(rnd.record_json()) == rnd.digest
    view = read_record(rnd.record_json())
    assert (view.banker, view.multipliers) == (2, [3, 1, 1, 5])
    # a record of another game names neither
    plain = _settled(capsa.Round(capsa.Rules(), 2, round_id="r", server_seed=bytes(32)))
    assert all({"banker", "multiplier"}.isdisjoint(s) for s in plain.record()["seats"])
    assert read_record(plain.record_json()).banker is None


def test_a_record_whose_multiplier_was_changed_does_not_replay() -> None:
    record = _settled(_banker_round()).record()
    record["seats"][0]["multiplier"] = 2
    with pytest.raises(ReplayError):
        capsa.replay(record)


@pytest.mark.parametrize(
    ("seat", "key", "value", "message"),
    [
        (0, "banker", False, r"seats\[0\]\.banker is written only on the banker seat"),
        (1, "multiplier", 1, r"seats\[1\]\.multiplier is written only when it is not 1"),
        (1, "multiplier", "2", r"seats\[1\]\.multiplier must be an integer"),
        (1, "multiplier", 2**63, r"seats\[1\]\.multiplier must be in"),
    ],
)
def test_a_record_holding_a_role_as_the_engine_never_writes_it_is_refused(
    seat: int, key: str, value: Any, message: str
) -> None:
    record = _settled(_banker_round()).record()
    record["seats"][seat][key] = value
    with pytest.raises(RecordError, match=message):
        read_record(record)


def test_an_older_format_has_no_place_for_a_banker() -> None:
    rnd = _settled(_banker_round())
    state = rnd.to_dict(key=KEY)
    seats = [(list(rnd.arrangement(k).ids), True, False, True) for k in range(4)]  # type: ignore[union-attr]
    with pytest.raises(capsa.ArgumentError, match="format 4 records hold no banker"):
        _core.write_round_record(
            capsa.records.read.rules_for_record(BANKER),
            rnd.round_id,
            25,
            bytes.fromhex(state["server_seed"]),
            None,
            rnd.nonce,
            seats,
            table_id=None,
            players=rnd.players,
            format_version=4,
            banker=2,
            multipliers=[3, 1, 1, 5],
        )


def test_the_state_keeps_the_roles_and_a_changed_role_is_refused() -> None:
    rnd = _banker_round()
    state = rnd.to_dict(key=KEY)
    assert (state["format_version"], state["banker"], state["multipliers"]) == (4, 2, [3, 1, 1, 5])
    back = capsa.Round.from_dict(state, key=KEY)
    assert (back.banker, back.multipliers) == (2, [3, 1, 1, 5])
    _settled_back = capsa.Round.from_dict(_settled(rnd).to_dict(key=KEY), key=KEY)
    assert _settled_back.record_json() == rnd.record_json()
    changed = dict(state, banker=0)
    with pytest.raises(capsa.RoundError, match="banker was changed"):
        capsa.Round.from_dict(changed, key=KEY)
    # a state of version 3 holds no roles: a round of it has no banker
    fields = {k: v for k, v in state.items() if k not in (MAC_FIELD, "banker", "multipliers")}
    with pytest.raises(capsa.TableError, match="no seat is named the banker"):
        capsa.Round.from_dict(seal(dict(fields, format_version=3), KEY), key=KEY)
    with pytest.raises(capsa.RoundError, match="a state of version 3 has no banker"):
        capsa.Round.from_dict(seal(dict(fields, format_version=3, banker=2), KEY), key=KEY)


def test_each_player_sees_the_banker_and_the_multipliers() -> None:
    rnd = _banker_round()
    rnd.deal()
    view = rnd.view(0)
    assert (view["banker"], view["multipliers"]) == (2, [3, 1, 1, 5])
    plain = capsa.Round(capsa.Rules(), 2, round_id="r")
    assert (plain.view(1)["banker"], plain.view(1)["multipliers"]) == (None, [1, 1])


def test_the_settle_stream_takes_the_banker_and_the_multipliers(tmp_path: Path) -> None:
    rnd = _settled(_banker_round())
    seats = [str(rnd.arrangement(k)) for k in range(4)]
    rounds = [
        {"id": "ok", "rules": "shisanshui-banker", "stakes": 25, "seats": seats, "banker": 2,
         "multipliers": [3, 1, 1, 5]},
        {"id": "no-banker", "rules": "shisanshui-banker", "seats": seats},
        {"id": "off-table", "rules": "shisanshui-banker", "seats": seats, "banker": 4},
        {"id": "short", "rules": "shisanshui-banker", "seats": seats, "banker": 2,
         "multipliers": [1, 1]},
        {"id": "plain", "rules": "capsa-susun", "seats": seats, "banker": 0},
    ]  # fmt: skip
    path = tmp_path / "rounds.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rounds), encoding="utf-8")
    run = subprocess.run(
        [sys.executable, "-m", "capsa", "settle", str(path)],
        capture_output=True,
        text=True,
        check=False,
    )
    out = {r["id"]: r for r in map(json.loads, run.stdout.splitlines())}
    assert out["ok"]["money"] == rnd.settle().money
    assert "no seat is named the banker" in out["no-banker"]["message"]
    assert '"banker" is a seat number, 0 to 3, not 4' in out["off-table"]["message"]
    assert "one integer per seat (4), got 2" in out["short"]["message"]
    assert "banker.enabled is false" in out["plain"]["message"]


# ------------------------------------------------------------ refused fouls


def test_a_fouled_submission_is_refused_and_the_seat_arranges_again() -> None:
    rnd = capsa.Round(REFUSE, 2, 10, round_id="r", server_seed=bytes(32))
    hands = rnd.deal()
    good = capsa.Arrangement.from_ids(capsa.splits(hands[0], REFUSE)[0])
    rnd.submit(0, good)
    sequence = rnd.sequence
    with pytest.raises(capsa.TableError, match="seat 0's arrangement fouls") as e:
        rnd.submit(0, _fouled(hands[0], REFUSE))
    assert e.value.seat == 0
    # the refused submission changed nothing
    assert rnd.arrangement(0) == good and rnd.sequence == sequence
    rnd.close(force=True)
    settled = rnd.settle()
    assert not any(s["foul"] for s in settled.seats)
    assert capsa.replay(rnd.record_json()) == rnd.digest


def test_rules_that_penalise_fouls_still_take_a_fouled_submission() -> None:
    rnd = capsa.Round(capsa.Rules(), 2, 10, round_id="r", server_seed=bytes(32))
    hands = rnd.deal()
    rnd.submit(0, _fouled(hands[0], capsa.Rules()))
    rnd.close(force=True)
    assert rnd.settle().seats[0]["foul"]


def test_a_state_holding_a_refused_foul_is_refused() -> None:
    rnd = capsa.Round(REFUSE, 2, 10, round_id="r", server_seed=bytes(32))
    hands = rnd.deal()
    fields = {k: v for k, v in rnd.to_dict(key=KEY).items() if k != MAC_FIELD}
    fields["play"][0]["arrangement"] = str(_fouled(hands[0], REFUSE))
    with pytest.raises(capsa.RoundError, match=r"play\[0\]\.arrangement fouls"):
        capsa.Round.from_dict(seal(fields, KEY), key=KEY)


# ------------------------------------------------------------ columns


def test_a_banker_round_settles_from_a_rounds_table_and_a_table_of_records() -> None:
    pa = pytest.importorskip("pyarrow")
    from capsa import bulk

    rnd = _settled(_banker_round())
    records = bulk.records_table([rnd.record_json()])
    assert records.column("banker").to_pylist() == [2]
    assert [records.column(f"multiplier{s}")[0].as_py() for s in range(4)] == [3, 1, 1, 5]
    settled = bulk.settle_table(records)
    assert [settled.column(f"money{s}")[0].as_py() for s in range(4)] == rnd.settle().money
    # the same round as a rounds table of its own, and its faults row by row
    cards = pa.array([bytes(rnd.arrangement(s).ids) for s in range(4)], pa.binary(13))  # type: ignore[union-attr]
    columns: dict[str, Any] = {f"cards{s}": [cards[s].as_py()] * 4 for s in range(4)}
    columns |= {
        "rules": ["shisanshui-banker"] * 3 + ["capsa-susun"],
        "stakes": [25] * 4,
        "banker": [2, None, 7, 1],
        "multiplier0": [3, 3, 3, None],
        "multiplier3": [5, 5, 5, None],
    }
    schema = {f"cards{s}": pa.binary(13) for s in range(4)}
    table = pa.table({k: pa.array(v, schema.get(k)) for k, v in columns.items()})
    out = bulk.settle_table(table)
    errors = out.column("error").to_pylist()
    assert errors[0] is None
    assert [out.column(f"money{s}")[0].as_py() for s in range(4)] == rnd.settle().money
    assert "no seat is named the banker" in errors[1]
    assert "banker must be a seat, in 0..3" in errors[2]
    assert "banker.enabled is false" in errors[3]
