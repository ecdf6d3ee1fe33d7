"""Round records from format 2 on: the table id and players a round is given,
and the fields a forger could change with the digest recomputed (an `auto`
flag, the stakes diagonal, the solver) caught at replay."""

from __future__ import annotations

import copy
import hashlib
from typing import Any

import pytest

import capsa
from capsa.records import RecordError, ReplayError, SolverMismatchError, record_digest

PLAYERS: list[str | dict[str, str | None]] = [
    {"id": "p-1", "name": "Alice"},
    "p-2",
    {"id": "p-3", "name": None},
    {"id": "p-4", "name": "Dewi"},
]


def played(
    stakes: int | list[list[int]] = 100, *, submit: bool = True, **kw: Any
) -> dict[str, Any]:
    """A settled round's record: seats 0 and 1 submit their last valid split
    (when ``submit``), the others are arranged at the close."""
    rnd = capsa.Round(
        capsa.Rules(),
        4,
        stakes,
        round_id="t/1",
        server_seed=hashlib.sha256(b"format 2").digest(),
        **kw,
    )
    rnd.deal()
    if submit:
        for seat in (0, 1):
            rnd.submit(seat, capsa.splits(rnd.hands[seat], rnd.rules)[-1].tolist())
    rnd.close()
    rnd.settle()
    return rnd.record()


def resealed(record: dict[str, Any]) -> dict[str, Any]:
    record = copy.deepcopy(record)
    record["digest"] = record_digest(record)
    return record


def test_a_round_records_its_table_and_players() -> None:
    rnd = capsa.Round(capsa.Rules(), 4, round_id="r", table_id="table-9", players=PLAYERS)
    assert rnd.table_id == "table-9"
    assert rnd.players[1] == {"id": "p-2", "name": None}
    record = played(table_id="table-9", players=PLAYERS)
    assert record["format_version"] >= 2 and record["table_id"] == "table-9"
    assert [s["player"]["id"] for s in record["seats"]] == ["p-1", "p-2", "p-3", "p-4"]
    assert record["seats"][0]["player"]["name"] == "Alice"
    capsa.replay(record)


def test_players_left_out_are_the_seats() -> None:
    record = played()
    assert record["table_id"] is None
    assert [s["player"] for s in record["seats"]] == [
        {"id": f"seat-{k}", "name": None} for k in range(4)
    ]


@pytest.mark.parametrize(
    ("kw", "error", "match"),
    [
        ({"table_id": ""}, capsa.ArgumentError, "table_id must be 1 to 256 bytes"),
        ({"table_id": 7}, TypeError, "table_id must be a str"),
        ({"players": ["a", "b"]}, capsa.ArgumentError, r"one player per seat \(4\), got 2"),
        ({"players": ["a", "b", "c", "a"]}, capsa.ArgumentError, r"players\[3\].id: player"),
        ({"players": ["a", "b", "c", ""]}, capsa.ArgumentError, r"players\[3\].id must be 1"),
        ({"players": ["a", "b", "c", 4]}, TypeError, r"players\[3\] must be a str"),
        ({"players": ["a", "b", "c", {"id": "d", "x": 1}]}, capsa.ArgumentError, "unknown key"),
        ({"players": ["a", "b", "c", {"name": "d"}]}, capsa.ArgumentError, r"\.id is missing"),
        ({"players": "abcd"}, TypeError, "players must be a list"),
    ],
)
def test_bad_tables_and_players_are_refused(
    kw: dict[str, Any], error: type[Exception], match: str
) -> None:
    with pytest.raises(error, match=match):
        capsa.Round(capsa.Rules(), 4, round_id="r", **kw)


def test_a_seat_falsely_marked_auto_fails_replay() -> None:
    """Seat 0 played its own legal arrangement; flagging it as arranged at the
    close, digest recomputed, is caught: the solver arranges it otherwise."""
    record = played()
    assert not record["seats"][0]["auto"]
    forged = copy.deepcopy(record)
    forged["seats"][0]["auto"] = True
    with pytest.raises(ReplayError) as info:
        capsa.replay(resealed(forged))
    assert "seats[0].auto" in info.value.fields
    assert "seats[0].arrangement" in info.value.fields
    assert "digest" not in info.value.fields


def test_an_auto_seat_given_another_arrangement_fails_replay() -> None:
    record = played()
    assert record["seats"][3]["auto"]
    forged = copy.deepcopy(record)
    hand = forged["seats"][3]["hand"]
    other = capsa.splits(hand, capsa.Rules())[0]
    forged["seats"][3]["arrangement"] = str(capsa.Arrangement.from_ids(other.tolist()))
    with pytest.raises(ReplayError) as info:
        capsa.replay(resealed(forged))
    assert "seats[3].arrangement" in info.value.fields


def test_a_changed_stakes_diagonal_is_refused() -> None:
    matrix = [[0, 5, 5, 5], [5, 0, 5, 5], [5, 5, 0, 5], [5, 5, 5, 0]]
    record = played(matrix)
    forged = copy.deepcopy(record)
    forged["stakes"][2][2] = 1000
    with pytest.raises(RecordError, match=r"stakes\[2\]\[2\] must be 0") as info:
        capsa.replay(resealed(forged))
    assert info.value.field == "stakes[2][2]"
    matrix[1][1] = 3
    with pytest.raises(capsa.TableError, match=r"stakes\[1\]\[1\] must be 0"):
        capsa.Round(capsa.Rules(), 4, matrix, round_id="r")


def test_another_solver_is_a_distinct_outcome() -> None:
    record = played()
    forged = copy.deepcopy(record)
    forged["solver"]["tables"] = "ab" * 32
    with pytest.raises(SolverMismatchError, match="cannot be checked here") as info:
        capsa.replay(resealed(forged))
    assert info.value.fields == ("solver",)
    assert isinstance(info.value, ReplayError)
    # a changed player is bound by the digest
    forged = copy.deepcopy(record)
    forged["seats"][0]["player"]["name"] = "Mallory"
    with pytest.raises(ReplayError) as digest_info:
        capsa.replay(forged)
    assert digest_info.value.fields == ("digest",)
