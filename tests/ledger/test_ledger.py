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
from capsa.ledger.data import seal_saved
from capsa.sealing import MAC_FIELD

KEY = hashlib.sha256(b"test_ledger: the server key").digest()


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
    golden = Path(__file__).parents[1] / "golden" / "records-1.jsonl"
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
    data = ledger.to_dict(key=KEY)
    assert json.loads(json.dumps(data)) == data
    loaded = capsa.Ledger.from_dict(data, key=KEY)
    assert loaded.balances == ledger.balances and loaded.house == ledger.house
    assert loaded.entries == ledger.entries and loaded.to_dict(key=KEY) == data
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
    data = saved_ledger().to_dict(key=KEY)
    changed = _edit(data, path, value)
    # refused by its MAC, and when sealed again under the key (the key
    # leaked, or a bug in the server), by what booking could have made
    with pytest.raises(capsa.ArgumentError, match=f"saved ledger: {path[0]} was changed"):
        capsa.Ledger.from_dict(changed, key=KEY)
    changed.pop(MAC_FIELD)
    with pytest.raises(capsa.ArgumentError, match=match):
        capsa.Ledger.from_dict(seal_saved(changed, KEY), key=KEY)
    with pytest.raises(TypeError):
        capsa.Ledger.from_dict([], key=KEY)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="key must be bytes"):
        capsa.Ledger.from_dict(data, key="k" * 32)  # type: ignore[arg-type]


def _move_money(data: dict[str, Any], amount: int) -> dict[str, Any]:
    """``data`` with ``amount`` moved from the first entry's seat 1 to its
    seat 0, consistently: the nets, every later balance of both players,
    zero-sum kept."""
    data = copy.deepcopy(data)
    first = data["entries"][0]
    winner, loser = first["players"][0], first["players"][1]
    first["net"][0] += amount
    first["net"][1] -= amount
    for entry in data["entries"]:
        for seat, player in enumerate(entry["players"]):
            if player == winner:
                entry["balances"][seat] += amount
            elif player == loser:
                entry["balances"][seat] -= amount
    return data


def test_money_moved_between_players_consistently_is_refused() -> None:
    ledger = saved_ledger()
    data = ledger.to_dict(key=KEY)
    moved = _move_money(data, 1_000)
    # every check of booking passes: only the seal finds it
    other_key = hashlib.sha256(b"another key").digest()
    unsealed = {k: v for k, v in moved.items() if k != MAC_FIELD}
    forged = capsa.Ledger.from_dict(seal_saved(dict(unsealed), other_key), key=other_key)
    assert forged.balances != ledger.balances
    assert sum(forged.balances.values()) + forged.house == 0
    with pytest.raises(capsa.ArgumentError, match="saved ledger: entries was changed"):
        capsa.Ledger.from_dict(moved, key=KEY)
    # a whole ledger sealed under another key, or none
    with pytest.raises(capsa.ArgumentError, match="MAC"):
        capsa.Ledger.from_dict(data, key=other_key)
    with pytest.raises(capsa.ArgumentError, match="mac is missing"):
        capsa.Ledger.from_dict(unsealed, key=KEY)


def test_a_saved_ledger_of_version_1_is_not_read() -> None:
    data = saved_ledger().to_dict(key=KEY)
    data.pop(MAC_FIELD)
    data["format_version"] = 1
    with pytest.raises(capsa.ArgumentError, match="format_version 1 is not sealed"):
        capsa.Ledger.from_dict(data, key=KEY)


def test_saved_nonces_are_one_for_each_round_of_their_table() -> None:
    data = saved_ledger().to_dict(key=KEY)
    data.pop(MAC_FIELD)
    for change in (
        lambda d: d["nonces"][0]["nonces"].pop(),
        lambda d: d["nonces"][0]["nonces"].append(10**6),
        lambda d: d["nonces"].pop(0),
    ):
        changed = copy.deepcopy(data)
        change(changed)
        with pytest.raises(capsa.ArgumentError, match="nonces"):
            capsa.Ledger.from_dict(seal_saved(changed, KEY), key=KEY)


def _saved_of(rounds: int) -> dict[str, Any]:
    """A saved ledger of ``rounds`` rounds of one table of two players,
    sealed: each round's data as booking would make it (the records are
    not played: loading does not replay them)."""
    entries: list[dict[str, Any]] = []
    balances = [0, 0]
    for k in range(rounds):
        net = [3, -3] if k % 3 else [-6, 6]
        balances = [b + n for b, n in zip(balances, net, strict=True)]
        entries.append(
            {
                "round": k + 1,
                "table_id": "t",
                "round_id": f"t/{k}",
                "digest": hashlib.sha256(str(k).encode()).hexdigest(),
                "players": ["a", "b"],
                "net": net,
                "rake": [0, 0],
                "balances": balances,
                "house": 0,
            }
        )
    data = {
        "format": "capsa-ledger",
        "format_version": 2,
        "seats": 2,
        "start": {"checked": False, "digest": None},
        "names": {"a": None, "b": None},
        "entries": entries,
        "nonces": [{"table_id": "t", "nonces": list(range(rounds))}],
    }
    return seal_saved(data, KEY)


def test_loading_a_saved_ledger_takes_time_linear_in_its_entries() -> None:
    import time

    def load_time(rounds: int) -> float:
        data = _saved_of(rounds)
        best = float("inf")
        for _ in range(3):
            start = time.process_time()
            loaded = capsa.Ledger.from_dict(data, key=KEY)
            best = min(best, time.process_time() - start)
        assert len(loaded) == rounds and loaded.balances["a"] == -loaded.balances["b"]
        return best

    small, large = load_time(1_000), load_time(8_000)
    # 8 times the entries: about 8 times the time (the quadratic load of
    # before took about 64 times)
    assert large < 20 * small, (small, large)
