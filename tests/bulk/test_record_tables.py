"""Round records into analytics: ``capsa settle`` reads a record log as
rounds, the results carry each seat's outcome, and a record log written as
Parquet (``capsa records to-parquet``) settles back to the records' own
figures, on the single-process and the Dask paths."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import capsa
from capsa import _core, bulk
from capsa.bulk import record_tables
from capsa.bulk.columns import OUTCOMES, outcome_values
from capsa.cli import main

GOLDEN = Path(__file__).parents[1] / "golden" / "records-1.jsonl"


def golden_lines() -> list[str]:
    return GOLDEN.read_text(encoding="utf-8").splitlines()


def _seed(k: int) -> bytes:
    return hashlib.sha256(f"capsa analytics record {k}".encode()).digest()


def played_records(count: int, rules: capsa.Rules | None = None) -> list[str]:
    """``count`` records of 2 to 4 seats, one stake each: some seats arranged
    by the solver, some by the first split (which may foul), a surrender."""
    rules = rules or capsa.Rules().derive({"surrender.enabled": True, "surrender.cost": 2})
    lines = []
    for k in range(count):
        seats = 2 + k % 3
        rnd = capsa.Round(rules, seats, 10 + k, round_id=f"t/{k}", nonce=k, server_seed=_seed(k))
        hands = rnd.deal()
        for seat, hand in enumerate(hands):
            if (seat + k) % 3 == 0:
                continue  # arranged by the solver at the close
            rnd.submit(seat, capsa.splits(hand, rules)[k % 7].tolist())
        if k % 5 == 1 and rules["surrender.enabled"]:
            rnd.surrender(seats - 1)
        rnd.close()
        rnd.settle()
        lines.append(rnd.record_json())
    return lines


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


# ---------------------------------------------------------------- capsa settle


def test_capsa_settle_settles_a_record_log_as_its_rounds(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Each record is settled under its own rules, stakes (a matrix too) and
    flags, to exactly its recorded settlement, with its round id as id."""
    lines = golden_lines() + played_records(12)
    (tmp_path / "t.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    code, out, err = run(["settle", str(tmp_path / "t.jsonl")], capsys)
    assert code == 0 and err == ""
    results = [json.loads(line) for line in out.splitlines()]
    assert len(results) == len(lines)
    for line, result in zip(lines, results, strict=True):
        record = json.loads(line)
        assert result.pop("id") == record["round_id"]
        # the record's own table, players and time come with its result
        assert result.pop("table_id") == record.get("table_id")
        players = [
            seat.get("player", {}).get("id", f"seat-{k}") for k, seat in enumerate(record["seats"])
        ]
        assert result.pop("players") == players
        assert result.pop("played_at") == record.get("meta", {}).get("played_at")
        # a settlement's figures: the record's, without the version it names
        assert result == {k: v for k, v in record["settlement"].items() if k != "version"}


def test_a_record_keeps_its_rules_whatever_the_default_rules(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A --rules file named as a preset is not the preset a record holds."""
    (tmp_path / "house.toml").write_text('name = "capsa-susun"\nrow_points = 5\n', encoding="utf-8")
    line = golden_lines()[0]
    (tmp_path / "t.jsonl").write_text(line + "\n", encoding="utf-8")
    code, out, _ = run(
        ["settle", str(tmp_path / "t.jsonl"), "--rules", str(tmp_path / "house.toml")], capsys
    )
    assert code == 0
    result = json.loads(out)
    for key in ("id", "table_id", "players", "played_at"):
        result.pop(key)
    assert result == json.loads(line)["settlement"]


def test_a_stream_mixes_records_and_rounds_and_a_bad_record_is_one_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good, other = golden_lines()[0], golden_lines()[2]
    tampered = json.loads(golden_lines()[3])
    tampered["stakes"] = 26  # the digest no longer holds
    round_line = json.dumps({"id": "plain", "rules": "pagat", "seats": _two_seats()})
    lines = [good, "", json.dumps(tampered), round_line, '{"format": "capsa-round-record"}', other]
    (tmp_path / "m.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    code, out, err = run(["settle", str(tmp_path / "m.jsonl")], capsys)
    assert code == 0
    results = [json.loads(line) for line in out.splitlines()]
    assert [r.get("id") for r in results] == [
        "table-7/round-1",
        "table-7/round-4",
        "plain",
        None,
        "table-7/round-3",
    ]
    bad, plain, unreadable = results[1], results[2], results[3]
    assert bad["error"] == "ReplayError" and bad["line"] == 3
    assert "digest" in bad["message"] and bad["seat"] is None and bad["row"] is None
    assert sorted(bad) == ["error", "id", "line", "message", "row", "seat"]
    assert plain["rake"] == [0, 0] and "error" not in plain
    assert unreadable["error"] == "RecordError" and unreadable["line"] == 5
    assert "2 round(s) could not be settled" in err
    code, _, _ = run(["settle", str(tmp_path / "m.jsonl"), "--strict"], capsys)
    assert code == 1


def _two_seats() -> list[str]:
    return [
        "Ah Kh 8s / As Ks 9d 7d 5h / Jc Jd Jh 3c 3d",
        "2h 3h 4h / 5s 6s 7s 8c 9s / Tc Qc Kc Ac 2c",
    ]


def test_a_stream_where_every_round_failed_exits_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """docs/cli.md: exit 0 is "done"; a stream that settled nothing is not."""
    record = json.loads(golden_lines()[0])
    record["meta"] = {"changed": True}
    (tmp_path / "bad.jsonl").write_text(json.dumps(record) + "\n{}\n", encoding="utf-8")
    code, out, err = run(["settle", str(tmp_path / "bad.jsonl")], capsys)
    assert code == 1
    assert len(out.splitlines()) == 2 and "none was settled" in err
    (tmp_path / "doc.json").write_text('[{"seats": []}, {"seats": [1]}]', encoding="utf-8")
    assert run(["settle", str(tmp_path / "doc.json")], capsys)[0] == 1
    (tmp_path / "empty.jsonl").write_text("\n\n", encoding="utf-8")
    assert run(["settle", str(tmp_path / "empty.jsonl")], capsys)[0] == 0


# ---------------------------------------------------------------- outcome columns


def test_results_carry_each_seats_outcome_after_the_figures() -> None:
    rules = capsa.Rules().derive({"surrender.enabled": True})
    rng = np.random.default_rng(5)
    n = 400
    cards = np.stack([rng.permutation(52)[:52].reshape(4, 13) for _ in range(n)])
    surrender = rng.random((n, 4)) < 0.05
    table = bulk.rounds_table(cards, surrender=surrender)
    auto = pa.array(rng.random(n) < 0.5)
    table = table.append_column("auto1", auto)
    result = bulk.settle_table(table, rules)
    old = ["id", "seats", *(f"{f}{s}" for f in bulk.FIGURES for s in range(4)), "error"]
    new = [f"{o}{s}" for o in OUTCOMES for s in range(4)]
    assert result.schema.names == old + new
    assert result.schema.field("scoops0").type == pa.int8()
    assert result.schema.field("natural0").type == pa.string()
    assert result.schema.field("fouled0").type == pa.bool_()
    rows = result.to_pylist()
    seen: set[str] = set()
    for k in range(n):
        seats = [
            capsa.Seat(
                capsa.Arrangement.from_ids(cards[k, s].tolist()), surrender=bool(surrender[k, s])
            )
            for s in range(4)
        ]
        settlement = capsa.settle(seats, rules)
        want = outcome_values(settlement.to_dict())
        for name, values in want.items():
            got = [rows[k][f"{name}{s}"] for s in range(4)]
            assert got == values, (k, name)
            if any(values):
                seen.add(name)
        assert rows[k]["auto1"] == auto[k].as_py() and rows[k]["auto0"] is None
    assert seen == set(OUTCOMES) - {"auto"}, "the rounds hold every outcome"


def test_a_failed_round_has_null_outcomes_and_small_tables_null_seats() -> None:
    cards = np.stack(
        [np.random.default_rng(k).permutation(52)[:26].reshape(2, 13) for k in range(3)]
    )
    table = bulk.rounds_table(cards, stakes=np.array([1, -1, 1]))
    result = bulk.settle_table(table).to_pylist()
    assert result[1]["error"] is not None
    assert all(result[1][f"{o}0"] is None for o in OUTCOMES)
    assert result[0]["fouled0"] is not None and result[0]["scoops1"] is not None


def test_json_rounds_written_as_parquet_results_carry_outcomes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = golden_lines()
    (tmp_path / "t.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert main(["settle", str(tmp_path / "t.jsonl"), "-o", str(tmp_path / "r.parquet")]) == 0
    rows = pq.read_table(tmp_path / "r.parquet").to_pylist()
    for line, row in zip(lines, rows, strict=True):
        record = json.loads(line)
        for name, values in outcome_values(record["settlement"]).items():
            padded = values + [None] * (4 - len(values))
            assert [row[f"{name}{s}"] for s in range(4)] == padded


# ---------------------------------------------------------------- records to Parquet


def test_records_to_parquet_settle_back_to_the_records_figures(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """records -> Parquet -> capsa settle gives every record's figures."""
    house = capsa.Rules().derive({"money.rake_percent": 7, "name": "house"})
    lines = played_records(15) + played_records(6, house)
    (tmp_path / "t.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    code, out, err = run(
        ["records", "to-parquet", str(tmp_path / "t.jsonl"), "-o", str(tmp_path / "r.parquet")],
        capsys,
    )
    assert (code, out, err) == (0, "", "")
    rounds = pq.read_table(tmp_path / "r.parquet")
    assert rounds.schema == record_tables.records_schema()
    assert rounds.num_rows == len(lines)
    assert len(set(rounds.column("rules").to_pylist())) == 2
    assert main(["settle", str(tmp_path / "r.parquet"), "-o", str(tmp_path / "s.parquet")]) == 0
    results = pq.read_table(tmp_path / "s.parquet").to_pylist()
    written = rounds.to_pylist()
    for line, row, result in zip(lines, written, results, strict=True):
        record = json.loads(line)
        settlement = record["settlement"]
        n = len(record["seats"])
        assert result["id"] == row["id"] == row["round_id"] == record["round_id"]
        assert row["digest"] == record["digest"]
        assert result["error"] is None and result["seats"] == n
        for figure in bulk.FIGURES:
            assert [result[f"{figure}{s}"] for s in range(n)] == settlement[figure]
        outcomes = outcome_values(settlement)
        outcomes["auto"] = [seat["auto"] for seat in record["seats"]]
        for name, values in outcomes.items():
            assert [row[f"{name}{s}"] for s in range(n)] == values, name
            assert [result[f"{name}{s}"] for s in range(n)] == values, name
    assert any(row["auto0"] for row in written) and any(row["surrendered2"] for row in written)


def test_records_to_parquet_reports_a_bad_record_and_goes_on(tmp_path: Path) -> None:
    lines = played_records(4)
    tampered = json.loads(lines[1])
    tampered["seats"][0]["auto"] = not tampered["seats"][0]["auto"]
    matrix = golden_lines()[1]  # a stakes matrix: no place in the rounds schema
    given = [lines[0], json.dumps(tampered), "", "not json", matrix, lines[2], lines[3]]
    errors: list[tuple[int, str | None, str]] = []
    written, failed = record_tables.to_parquet(
        given,
        tmp_path / "r.parquet",
        on_error=lambda line, rid, exc: errors.append((line, rid, type(exc).__name__)),
        batch_records=2,
    )
    assert (written, failed) == (3, 3)
    assert errors == [
        (2, "t/1", "ReplayError"),
        (4, None, "RecordError"),
        (5, "table-7/round-2", "TableError"),
    ]
    table = pq.read_table(tmp_path / "r.parquet")
    assert table.column("round_id").to_pylist() == ["t/0", "t/2", "t/3"]
    assert pq.ParquetFile(tmp_path / "r.parquet").metadata.num_row_groups == 2


def test_capsa_records_to_parquet_writes_one_line_per_failed_record(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    big = "x" * (_core.MAX_LINE_BYTES + 10)
    (tmp_path / "t.jsonl").write_text(golden_lines()[0] + "\n" + big + "\n", encoding="utf-8")
    code, out, err = run(
        ["records", "to-parquet", str(tmp_path / "t.jsonl"), "-o", str(tmp_path / "r.parquet")],
        capsys,
    )
    assert code == 1 and "1 of 2 record(s) failed" in err
    (failure,) = [json.loads(line) for line in out.splitlines()]
    assert failure["line"] == 2 and failure["error"] == "RecordError"
    assert sorted(failure) == ["error", "fields", "line", "message", "round_id"]
    assert pq.read_table(tmp_path / "r.parquet").num_rows == 1
    code, _, err = run(
        ["records", "to-parquet", str(GOLDEN), "-o", str(tmp_path / "r.csv")], capsys
    )
    assert code == 2 and "Parquet" in err


def test_custom_rules_travel_in_the_files_footer(tmp_path: Path) -> None:
    house = capsa.Rules().derive({"row_points": 2, "name": "house"})
    lines = played_records(3, house)
    record_tables.to_parquet(lines, tmp_path / "r.parquet")
    name = record_tables.rules_name(house)
    assert name.startswith("house@")
    assert record_tables.parquet_rules(tmp_path / "r.parquet") == {name: house}
    # read whole, the footer's notes are dropped: the rules are given back
    table = pq.read_table(tmp_path / "r.parquet")
    known = record_tables.parquet_rules(tmp_path / "r.parquet")
    result = bulk.settle_table(table, known=known)
    assert result.column("error").null_count == 3
    nets = [json.loads(line)["settlement"]["net"] for line in lines]
    assert [row[: len(n)] for row, n in zip(_nets(result), nets, strict=True)] == nets
    rounds, failed = bulk.settle_parquet(tmp_path / "r.parquet", tmp_path / "s.parquet")
    assert (rounds, failed) == (3, 0)


def test_bulk_reads_a_record_log_as_a_rounds_table() -> None:
    house = capsa.Rules().derive({"scoop.multiplier": 3, "name": "house"})
    lines = [*played_records(5, house), "", "{}"]
    failed: list[int] = []
    table = bulk.records_table(lines, on_error=lambda line, rid, exc: failed.append(line))
    assert failed == [7] and table.num_rows == 5
    result = bulk.settle_table(table)  # the rules come with the table
    nets = [json.loads(line)["settlement"]["net"] for line in lines[:5]]
    assert [row[: len(n)] for row, n in zip(_nets(result), nets, strict=True)] == nets
    assert bulk.records_table([]).num_rows == 0


def _nets(result: pa.Table) -> list[list[Any]]:
    return [[row[f"net{s}"] for s in range(4)] for row in result.to_pylist()]


def test_the_dask_path_reads_records_written_as_parquet(tmp_path: Path) -> None:
    pytest.importorskip("dask.dataframe")
    from capsa import dask as capsa_dask

    lines = played_records(9)
    record_tables.to_parquet(lines, tmp_path / "r.parquet", batch_records=4)
    rounds, failed = capsa_dask.settle_parquet(
        tmp_path / "r.parquet", tmp_path / "out", rows_per_task=1
    )
    assert (rounds, failed) == (9, 0)
    results = pq.read_table(tmp_path / "out")
    nets = [json.loads(line)["settlement"]["net"] for line in lines]
    assert [row[: len(n)] for row, n in zip(_nets(results), nets, strict=True)] == nets
    # a frame drops the footer's notes: the rules are given back
    frame = capsa_dask.read_rounds(tmp_path / "r.parquet")
    known = {**bulk.default_known_rules(), **record_tables.parquet_rules(tmp_path / "r.parquet")}
    settled = capsa_dask.settle_dataframe(frame, known=known).compute()
    assert settled["error"].isna().all()
    assert list(settled["fouled0"]) == list(results.column("fouled0").to_pylist())


def test_a_records_table_carries_the_table_and_player_ids() -> None:
    rules = capsa.Rules()
    lines = []
    for k, table in enumerate(["t-1", None]):
        rnd = capsa.Round(
            rules, 3, 5, round_id=f"r{k}", table_id=table, server_seed=_seed(100 + k),
            players=None if table is None else ["ann", {"id": "bo", "name": "Bo"}, "cy"],
        )  # fmt: skip
        rnd.deal()
        rnd.close()
        rnd.settle()
        lines.append(rnd.record_json())
    rows = bulk.records_table(lines).to_pylist()
    ids = [(r["table_id"], r["player0"], r["player1"], r["player2"], r["player3"]) for r in rows]
    assert ids == [("t-1", "ann", "bo", "cy", None), (None, "seat-0", "seat-1", "seat-2", None)]
