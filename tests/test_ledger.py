"""capsa.Ledger: running balances per player and rake over many rounds of
many tables, zero-sum after every round, booking only records that replay
and follow their table's chain, saved and loaded, exported as CSV and JSON
Lines."""

from __future__ import annotations

import copy
import csv
import hashlib
import io
import json
from pathlib import Path
from typing import Any

import pytest

import capsa


def table(
    rounds: int,
    seats: int = 4,
    rules: capsa.Rules | None = None,
    *,
    table_id: str | None = None,
    players: list[str] | None = None,
) -> list[str]:
    """The records of ``rounds`` chained rounds of one table."""
    rules = rules or capsa.Rules()
    previous: str | None = None
    records = []
    for k in range(rounds):
        rnd = capsa.Round(
            rules,
            seats,
            50,
            round_id=f"table/{k}",
            nonce=k,
            previous_digest=previous,
            server_seed=hashlib.sha256(f"ledger {table_id} {k}".encode()).digest(),
            table_id=table_id,
            players=players,
        )
        rnd.deal()
        rnd.close()
        rnd.settle()
        records.append(rnd.record_json())
        previous = rnd.digest
    return records


def test_balances_and_rake_are_zero_sum_at_every_step() -> None:
    records = table(12)
    ledger = capsa.Ledger(4, previous_digest=None)
    running = [0] * 4
    house = 0
    for record in records:
        entry = ledger.add(record)
        settlement = json.loads(record)["settlement"]
        running = [b + n for b, n in zip(running, settlement["net"], strict=True)]
        house += sum(settlement["rake"])
        assert entry.balances == tuple(running)
        assert ledger.balances == {f"seat-{k}": b for k, b in enumerate(running)}
        assert entry.house == house == ledger.house
        assert sum(entry.balances) + entry.house == 0
        assert sum(entry.net) + sum(entry.rake) == 0
    assert len(ledger) == 12 and ledger.last_digest == json.loads(records[-1])["digest"]
    assert house > 0  # capsa-susun takes 3% of each winner's money


def test_only_records_that_replay_and_follow_the_chain_are_booked() -> None:
    records = table(4)
    ledger = capsa.Ledger(4)
    ledger.add(records[0])
    with pytest.raises(capsa.ReplayError) as info:
        ledger.add(records[2])  # round 1 left out
    assert info.value.fields == ("previous_digest",)
    tampered = json.loads(records[1])
    tampered["settlement"]["seats"][0]["net"] += 1
    with pytest.raises(capsa.ReplayError):
        ledger.add(tampered)
    assert len(ledger) == 1
    ledger.extend(records[1:])
    assert len(ledger) == 4
    with pytest.raises(capsa.TableError, match="3-seat table; this ledger is of 4 seats"):
        capsa.Ledger(4).add(table(1, seats=3)[0])
    with pytest.raises(capsa.ReplayError, match="previous_digest"):
        capsa.Ledger(4, previous_digest="0" * 64).add(records[0])
    with pytest.raises(capsa.TableError, match="2 to 4 seats"):
        capsa.Ledger(5)
    with pytest.raises(TypeError):
        capsa.Ledger("4")  # type: ignore[arg-type]


def test_exports(tmp_path: Path) -> None:
    records = table(3, seats=2, players=["ana", "ben"])
    ledger = capsa.Ledger(2, previous_digest=None)
    ledger.extend(records)
    out = io.StringIO()
    ledger.write_csv(out)
    rows = list(csv.reader(io.StringIO(out.getvalue())))
    assert rows[0] == [
        "round", "table_id", "round_id", "digest", "seat", "player", "name",
        "net", "rake", "balance", "house",
    ]  # fmt: skip
    assert len(rows) == 1 + 3 * 2
    for k, row in enumerate(rows[1:]):
        entry, seat = ledger.entries[k // 2], k % 2
        assert row[:7] == [
            str(entry.round),
            "",
            entry.round_id,
            entry.digest,
            str(seat),
            ["ana", "ben"][seat],
            "",
        ]
        assert [int(x) for x in row[7:]] == [
            entry.net[seat],
            entry.rake[seat],
            entry.balances[seat],
            entry.house,
        ]
    # a path, as Rules.load takes one
    ledger.write_csv(tmp_path / "ledger.csv")
    assert (tmp_path / "ledger.csv").read_text(encoding="utf-8") == out.getvalue()
    ledger.write_jsonl(str(tmp_path / "ledger.jsonl"))
    with pytest.raises(TypeError, match="path or an open text file"):
        ledger.write_csv(7)  # type: ignore[arg-type]
    out = io.StringIO()
    ledger.write_jsonl(out)
    assert (tmp_path / "ledger.jsonl").read_text(encoding="utf-8") == out.getvalue()
    lines = out.getvalue().splitlines()
    assert [json.loads(line) for line in lines] == [e.to_dict() for e in ledger.entries]
    assert all(list(json.loads(line)) == sorted(json.loads(line)) for line in lines)


def test_players_are_booked_across_tables() -> None:
    t0 = table(3, table_id="t0", players=["ana", "ben", "cy", "di"])
    t1 = table(3, seats=2, table_id="t1", players=["di", "ana"])
    ledger = capsa.Ledger(previous_digest=None)
    for pair in zip(t0, t1, strict=True):  # interleaved
        ledger.extend(list(pair))
    nets: dict[str, int] = {}
    for record in t0 + t1:
        data = json.loads(record)
        for seat, net in zip(data["seats"], data["settlement"]["net"], strict=True):
            nets[seat["player"]["id"]] = nets.get(seat["player"]["id"], 0) + net
    assert ledger.balances == nets
    assert sum(ledger.balances.values()) + ledger.house == 0
    assert ledger.last_digest_of("t0") == json.loads(t0[-1])["digest"]
    assert ledger.last_digest_of("t9") is None
    # a round id or nonce used twice within a table is refused
    repeat = json.loads(t0[1])
    with pytest.raises(capsa.ReplayError) as info:
        ledger.add(repeat)
    assert info.value.fields == ("round_id", "deal.nonce")
    assert len(ledger) == 6


def test_records_of_format_1_book_seats_as_players() -> None:
    golden = Path(__file__).parent / "golden" / "records-1.jsonl"
    ledger = capsa.Ledger(previous_digest=None)
    ledger.extend(golden.read_text(encoding="utf-8").splitlines())
    assert set(ledger.balances) == {"seat-0", "seat-1", "seat-2", "seat-3"}
    assert sum(ledger.balances.values()) + ledger.house == 0


def test_chain_arguments_are_checked() -> None:
    with pytest.raises(capsa.ArgumentError, match="64 lowercase hexadecimal"):
        capsa.Ledger(4, previous_digest="x")
    with pytest.raises(TypeError):
        capsa.Ledger(4, previous_digest=7)  # type: ignore[arg-type]
    with pytest.raises(capsa.ArgumentError, match=r"previous_digest\['t1'\]"):
        capsa.Ledger(previous_digest={"t0": None, "t1": "AB" * 32})
    t0 = table(2, table_id="t0")
    ledger = capsa.Ledger(previous_digest={"t0": json.loads(t0[0])["digest"]})
    ledger.add(t0[1])  # follows the given link
    with pytest.raises(capsa.ReplayError, match="previous_digest"):
        capsa.Ledger(previous_digest={"t0": "0" * 64}).add(t0[0])


def saved_ledger() -> capsa.Ledger:
    ledger = capsa.Ledger(previous_digest=None)
    ledger.extend(table(3, table_id="t0", players=["ana", "ben", "cy", "di"]))
    ledger.extend(table(2, seats=2, table_id="t1", players=["di", "ana"]))
    return ledger


def test_a_ledger_saves_and_loads() -> None:
    ledger = saved_ledger()
    data = ledger.to_dict()
    assert json.loads(json.dumps(data)) == data
    loaded = capsa.Ledger.from_dict(data)
    assert loaded.balances == ledger.balances and loaded.house == ledger.house
    assert loaded.entries == ledger.entries and loaded.to_dict() == data
    # it books on where it stopped, a repeat refused
    more = table(4, table_id="t0", players=["ana", "ben", "cy", "di"])
    loaded.add(more[3])
    with pytest.raises(capsa.ReplayError):
        loaded.add(more[1])


def _edit(data: dict[str, Any], path: list[str | int], value: object) -> dict[str, Any]:
    data = copy.deepcopy(data)
    at: Any = data
    for part in path[:-1]:
        at = at[part]
    at[path[-1]] = value
    return data


@pytest.mark.parametrize(
    ("path", "value", "match"),
    [
        (["format"], "x", "format must be"),
        (["seats"], 5, "seats must be"),
        (["start"], {"checked": True, "digest": "x"}, "start.digest must be 64"),
        (["start"], {"checked": "yes", "digest": None}, "start is not a chain link"),
        (["entries", 1, "net", 0], 10**6, "net plus rake is not zero"),
        (["entries", 1, "balances", 0], 1, r"entries\[1\].balances\[0\]"),
        (["entries", 2, "house"], 0, "house"),
        (["entries", 2, "round"], 9, r"entries\[2\].round must be 3"),
        (["entries", 2, "round_id"], "table/1", "already used"),
        (["entries", 0, "digest"], "z", "digest must be"),
        (["entries", 0, "players", 0], "nobody", "player ids of names"),
    ],
)
def test_a_changed_saved_ledger_is_refused(
    path: list[str | int], value: object, match: str
) -> None:
    data = saved_ledger().to_dict()
    with pytest.raises(capsa.ArgumentError, match=match):
        capsa.Ledger.from_dict(_edit(data, path, value))
    with pytest.raises(TypeError):
        capsa.Ledger.from_dict([])  # type: ignore[arg-type]
