"""capsa.Ledger: running balances and rake over many rounds of one table,
zero-sum after every round, booking only records that replay and follow
the chain, exported as CSV and JSON Lines."""

from __future__ import annotations

import csv
import hashlib
import io
import json

import pytest

import capsa


def table(rounds: int, seats: int = 4, rules: capsa.Rules | None = None) -> list[str]:
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
            server_seed=hashlib.sha256(f"ledger {k}".encode()).digest(),
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
        assert entry.balances == tuple(running) == ledger.balances
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


def test_exports() -> None:
    records = table(3, seats=2)
    ledger = capsa.Ledger(2, previous_digest=None)
    ledger.extend(records)
    out = io.StringIO()
    ledger.write_csv(out)
    rows = list(csv.reader(io.StringIO(out.getvalue())))
    assert rows[0] == [
        "round", "round_id", "digest", "net_0", "net_1", "rake_0", "rake_1",
        "balance_0", "balance_1", "house",
    ]  # fmt: skip
    assert len(rows) == 4
    for row, entry in zip(rows[1:], ledger.entries, strict=True):
        assert row[:3] == [str(entry.round), entry.round_id, entry.digest]
        assert [int(x) for x in row[3:]] == [*entry.net, *entry.rake, *entry.balances, entry.house]
    out = io.StringIO()
    ledger.write_jsonl(out)
    lines = out.getvalue().splitlines()
    assert [json.loads(line) for line in lines] == [e.to_dict() for e in ledger.entries]
    assert all(list(json.loads(line)) == sorted(json.loads(line)) for line in lines)
