"""Columnar rounds (capsa.bulk and capsa settle with Parquet): the figures
are those of the batch kernel and of capsa.settle, bad rounds land in the
error column and never stop the others, wrong columns are refused."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import capsa
from capsa import _core, bulk
from capsa.cli import main

PAGAT = capsa.Rules.preset("pagat")


def arranged_rounds(n: int, seats: int = 4, seed: int = 0) -> npt.NDArray[np.uint8]:
    """(n, seats, 13) rounds: deals arranged by the greedy baseline, every
    fifth seat left as dealt (sorted ids, so often fouled)."""
    rng = np.random.default_rng(seed)
    decks = np.argsort(rng.random((n, 52)), axis=1).astype(np.uint8)[:, : 13 * seats]
    hands = np.sort(decks.reshape(n * seats, 13), axis=1)
    laid = capsa.best_arrangement_batch(hands, capsa.Rules(), seats=seats, strategy="greedy")
    keep = (np.arange(n * seats) % 5) == 0
    laid[keep] = hands[keep]
    return laid.reshape(n, seats, 13)


def figures(table: pa.Table, figure: str, seats: int) -> npt.NDArray[np.int64]:
    """(N, seats) of one figure, nulls as a sentinel."""
    return np.stack(
        [table.column(f"{figure}{s}").fill_null(-(2**62)).to_numpy() for s in range(seats)], axis=1
    )


def test_figures_are_those_of_settle_batch_and_settle() -> None:
    rules = capsa.Rules().derive({"surrender.enabled": True, "surrender.cost": 2})
    cards = arranged_rounds(600, seed=1)
    rng = np.random.default_rng(2)
    stakes = rng.integers(0, 500, 600)
    surrender = rng.random((600, 4)) < 0.05
    declare = rng.random((600, 4)) < 0.9
    table = bulk.rounds_table(cards, stakes=stakes, surrender=surrender, declare_natural=declare)
    result = bulk.settle_table(table, rules)
    assert result.column("error").null_count == 600
    for stake in np.unique(stakes)[:20]:
        rows = stakes == stake
        batch = capsa.settle_batch(cards[rows], rules, int(stake), surrender[rows], declare[rows])
        assert (figures(result, "points", 4)[rows] == batch.points).all()
        assert (figures(result, "money", 4)[rows] == batch.money).all()
    for row in range(0, 600, 37):
        seats = [
            capsa.Seat(
                capsa.Arrangement.from_ids(cards[row, s].tolist()),
                surrender=bool(surrender[row, s]),
                declare_natural=bool(declare[row, s]),
            )
            for s in range(4)
        ]
        one = capsa.settle(seats, rules, int(stakes[row]))
        assert figures(result, "rake", 4)[row].tolist() == one.rake
        assert figures(result, "net", 4)[row].tolist() == one.net
    assert result.column("id").to_pylist() == list(range(600))
    assert set(result.column("seats").to_pylist()) == {4}


def card_column(cards: npt.NDArray[np.uint8], kind: str) -> pa.Array:
    if kind == "binary":
        return pa.array([bytes(row) for row in cards], pa.binary(13))
    if kind == "fixed_list":
        return pa.array(cards.tolist(), pa.list_(pa.int16(), 13))
    return pa.array(cards.tolist(), pa.list_(pa.int64()))


@pytest.mark.parametrize("kind", ["binary", "fixed_list", "list"])
def test_every_card_column_type_gives_the_same_results(kind: str) -> None:
    cards = arranged_rounds(300, seats=3, seed=3)
    columns = {f"cards{s}": card_column(cards[:, s], kind) for s in range(3)}
    result = bulk.settle_table(pa.table(columns), PAGAT)
    batch = capsa.settle_batch(cards, PAGAT)
    assert (figures(result, "points", 3) == batch.points).all()
    assert "id" not in result.column_names
    assert result.schema == bulk.results_schema(3)


def test_bad_rounds_land_in_the_error_column_and_the_others_are_settled() -> None:
    cards = arranged_rounds(400, seed=4)
    lists = [cards[:, s].astype(np.int64).tolist() for s in range(4)]
    lists[2][10][4] = 60  # the second 4d, not in the 52-card deck
    lists[1][11] = lists[1][11][:12]  # twelve cards
    lists[3][12][0] = lists[3][12][1]  # a card twice
    lists[0][13][7] = None  # a null card
    lists[3][14] = None  # a three-seat table
    lists[2][14] = None
    lists[3][15] = None
    lists[1][15] = None  # seat 2 without seat 1
    columns: dict[str, Any] = {
        "id": pa.array([f"r{k}" for k in range(400)]),
        "rules": pa.array(["pagat"] * 16 + ["house-x"] + ["pagat"] * 383),
        "stakes": pa.array([10] * 17 + [-3] + [None] * 382, pa.int64()),
        "surrender0": pa.array([False] * 18 + [True] + [False] * 381),
    }
    for s in range(4):
        columns[f"cards{s}"] = pa.array(lists[s], pa.list_(pa.int64()))
    result = bulk.settle_table(pa.table(columns))
    errors = result.column("error").to_pylist()
    expected = {
        10: ("CardError", "seat 2: card 4d' (id 60) at position 4 is not in the 52-card deck"),
        11: ("HandError", "seat 1: an arrangement has 13 cards, got 12"),
        12: ("HandError", "seat 3"),
        13: ("CardError", "seat 0, card 7: the card id is null"),
        15: ("TableError", "seat 2 is given but seat 1 is null"),
        16: ("RulesError", "unknown rules 'house-x'"),
        17: ("TableError", "-3"),
        18: ("TableError", "surrender"),
    }
    for row, (kind, text) in expected.items():
        assert errors[row] is not None and errors[row].startswith(kind + ":"), (row, errors[row])
        assert text in errors[row], (row, errors[row])
        assert all(result.column(f"points{s}")[row].as_py() is None for s in range(4))
    bad = set(expected)
    assert {k for k, e in enumerate(errors) if e is not None} == bad
    # the three-seat round is settled as a three-seat table
    row14 = capsa.settle(
        [capsa.Arrangement.from_ids(cards[14, s].tolist()) for s in range(2)], PAGAT, 10
    )
    assert result.column("seats")[14].as_py() == 2
    assert [result.column(f"points{s}")[14].as_py() for s in range(4)] == [
        *row14.points,
        None,
        None,
    ]
    good = np.array([k not in bad and k != 14 for k in range(400)])
    stakes = np.array([10] * 17 + [1] * 383)
    for stake in (10, 1):
        rows = good & (stakes == stake)
        batch = capsa.settle_batch(cards[rows], PAGAT, stake)
        assert (figures(result, "points", 4)[rows] == batch.points).all()
        assert (figures(result, "money", 4)[rows] == batch.money).all()


def test_rounds_of_several_rules_are_settled_each_by_its_rules() -> None:
    cards = arranged_rounds(300, seed=5)
    names = ["pagat", None, "mau-binh"] * 100
    table = bulk.rounds_table(cards).set_column(1, "rules", pa.array(names, pa.string()))
    house = capsa.Rules.preset("2-4").derive({"name": "house"})
    result = bulk.settle_table(table.cast(table.schema), house)
    for name, rules in (
        ("pagat", PAGAT),
        (None, house),
        ("mau-binh", capsa.Rules.preset("mau-binh")),
    ):
        rows = np.array([n == name for n in names])
        batch = capsa.settle_batch(cards[rows], rules)
        assert (figures(result, "points", 4)[rows] == batch.points).all(), name
    encoded = table.set_column(1, "rules", pa.array(names).dictionary_encode())
    assert bulk.settle_table(encoded, house).equals(result)


def test_a_rules_column_may_name_only_known_rules() -> None:
    cards = arranged_rounds(4, seed=6)
    table = bulk.rounds_table(cards, rules="custom")
    custom = capsa.Rules.preset("pagat").derive({"name": "custom"})
    for refused in (bulk.settle_table(table), bulk.settle_table(table, known={"pagat": PAGAT})):
        assert all("unknown rules 'custom'" in e for e in refused.column("error").to_pylist())
    accepted = bulk.settle_table(table, known={"custom": custom})
    assert accepted.column("error").null_count == 4


@pytest.mark.parametrize(
    ("change", "error", "text"),
    [
        (lambda t: t.drop_columns(["cards1"]), capsa.TableError, "cards1"),
        (lambda t: t.drop_columns(["cards2"]), capsa.TableError, "cards2"),
        (lambda t: t.set_column(3, "cards0", pa.array(["As"] * t.num_rows)), TypeError, "cards0"),
        (
            lambda t: t.set_column(2, "stakes", pa.array([1.5] * t.num_rows)),
            TypeError,
            "stakes",
        ),
        (
            lambda t: t.set_column(7, "surrender0", pa.array([1] * t.num_rows)),
            TypeError,
            "surrender0",
        ),
        (lambda t: t.set_column(1, "rules", pa.array([1] * t.num_rows)), TypeError, "rules"),
    ],
)
def test_a_wrong_column_is_refused_before_any_round(change: Any, error: type, text: str) -> None:
    table = bulk.rounds_table(arranged_rounds(5, seed=7))
    with pytest.raises(error, match=text):
        bulk.settle_table(change(table))


def test_wrong_arguments_are_typed_errors() -> None:
    table = bulk.rounds_table(arranged_rounds(3, seed=8))
    with pytest.raises(TypeError, match="pyarrow Table"):
        bulk.settle_table({"cards0": []})  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="capsa\\.Rules"):
        bulk.settle_table(table, "pagat")  # type: ignore[arg-type]
    with pytest.raises(capsa.ArgumentError, match="threads"):
        bulk.settle_table(table, threads=0)
    with pytest.raises(capsa.TableError, match="one entry per round"):
        _core.settle_rounds(arranged_rounds(3), None, np.zeros(2, np.int64))
    with pytest.raises(TypeError, match="int64"):
        _core.settle_rounds(arranged_rounds(3), None, np.zeros(3))
    with pytest.raises(capsa.TableError, match="shape"):
        _core.settle_rounds(arranged_rounds(3), None, None, np.zeros((3, 3), bool))


def test_a_round_too_large_for_64_bits_is_one_error() -> None:
    cards = arranged_rounds(3, seed=9)
    table = bulk.rounds_table(cards, stakes=np.array([1, 2**62, 1]))
    result = bulk.settle_table(table)
    errors = result.column("error").to_pylist()
    assert errors[0] is None and errors[2] is None
    assert errors[1].startswith("TableError:") and "64-bit" in errors[1]


def test_an_empty_table_gives_an_empty_result() -> None:
    table = bulk.rounds_table(np.zeros((0, 2, 13), np.uint8))
    result = bulk.settle_table(table)
    assert result.num_rows == 0
    assert result.schema == bulk.results_schema(2, pa.int64())


def test_a_pandas_frame_settles_as_its_table() -> None:
    cards = arranged_rounds(50, seed=10)
    table = bulk.rounds_table(cards, stakes=5)
    frame = pd.DataFrame(
        {
            "id": np.arange(50),
            **{f"cards{s}": [bytes(r) for r in cards[:, s]] for s in range(4)},
            "stakes": [5] * 50,
        }
    )
    out = bulk.settle_frame(frame)
    expected = bulk.settle_table(table)
    for name in expected.column_names:
        assert pa.array(out[name]).to_pylist() == expected.column(name).to_pylist(), name
    frame.loc[3, "cards2"] = b"\x01\x02"
    short = bulk.settle_frame(frame)
    assert "13 cards, got 2" in short["error"][3]


def test_settle_parquet_streams_files_in_order(tmp_path: Path) -> None:
    cards = arranged_rounds(900, seed=11)
    source = tmp_path / "rounds"
    source.mkdir()
    whole = bulk.rounds_table(cards, ids=[f"x{k}" for k in range(900)])
    pq.write_table(whole.slice(0, 500), source / "a.parquet", row_group_size=128)
    pq.write_table(whole.slice(500), source / "b.parquet", row_group_size=128)
    target = tmp_path / "results.parquet"
    seen: list[int] = []
    assert bulk.settle_parquet(source, target, batch_rows=100, progress=seen.append) == (900, 0)
    assert sum(seen) == 900 and max(seen) <= 100
    assert pq.read_table(target).equals(bulk.settle_table(whole))
    with pytest.raises(capsa.ArgumentError, match="batch_rows"):
        bulk.settle_parquet(source, target, batch_rows=0)
    with pytest.raises(capsa.ArgumentError, match="does not exist"):
        bulk.settle_parquet(tmp_path / "nothing", target)


def test_rounds_table_checks_its_arrays() -> None:
    with pytest.raises(capsa.TableError, match="shape"):
        bulk.rounds_table(np.zeros((2, 9, 13), np.uint8))
    with pytest.raises(capsa.CardError, match=r"0\.\.105"):
        bulk.rounds_table(np.full((2, 2, 13), 106))
    with pytest.raises(capsa.TableError, match="a table has 2 to 8 seats"):
        bulk.rounds_schema(9)
    assert len(bulk.rounds_schema(8)) == 3 + 3 * 8


def test_a_second_copy_is_settled_by_the_rules_of_its_round() -> None:
    cards = arranged_rounds(3, seed=5)
    cards[1, 0, 0] = 52 + int(cards[1, 0, 0])  # its second copy: no 52-card deck holds it
    table = bulk.rounds_table(cards, rules="capsa-susun")
    errors = bulk.settle_table(table).column("error").to_pylist()
    assert errors[0] is None and errors[2] is None
    assert "is not in the 52-card deck" in errors[1]


# ---------------------------------------------------------------- the command line


def write_rounds(path: Path, n: int, seed: int) -> pa.Table:
    table = bulk.rounds_table(arranged_rounds(n, seed=seed), stakes=25)
    pq.write_table(table, path)
    return table


def test_capsa_settle_parquet_to_parquet(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    table = write_rounds(tmp_path / "r.parquet", 200, 12)
    out = tmp_path / "out.parquet"
    assert main(["settle", str(tmp_path / "r.parquet"), "-o", str(out)]) == 0
    assert pq.read_table(out).equals(bulk.settle_table(table))


def test_capsa_settle_parquet_to_json_lines(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    table = write_rounds(tmp_path / "r.parquet", 30, 13)
    assert main(["settle", str(tmp_path / "r.parquet")]) == 0
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    expected = bulk.settle_table(table)
    assert [r["id"] for r in records] == list(range(30))
    assert [r["net"] for r in records] == figures(expected, "net", 4).tolist()
    assert all(r["error"] is None and r["seats"] == 4 for r in records)


@pytest.mark.parametrize(
    ("ids", "fault"),
    [
        (pa.array([1.5, float("nan"), float("inf")]), "is not a finite number"),
        (pa.array([b"a", b"\xff", b"c"]), "is binary data"),
    ],
)
def test_capsa_settle_writes_valid_json_for_every_id(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], ids: pa.Array, fault: str
) -> None:
    table = bulk.rounds_table(arranged_rounds(3, seed=15), stakes=25)
    table = table.set_column(0, "id", ids)
    pq.write_table(table, tmp_path / "r.parquet")
    # exit 1 when no round at all could be settled (docs/cli.md, exit codes)
    every_failed = fault == "is binary data"
    assert main(["settle", str(tmp_path / "r.parquet")]) == (1 if every_failed else 0)
    captured = capsys.readouterr()
    records = [json.loads(line) for line in captured.out.splitlines()]
    assert len(records) == 3
    failed = [r for r in records if r["error"] is not None]
    assert len(failed) == (3 if fault == "is binary data" else 2)
    for r in failed:
        assert r["id"] is None and r["net"] is None and fault in r["error"], r
    assert "could not be settled" in captured.err
    assert main(["settle", str(tmp_path / "r.parquet"), "--strict"]) != 0


def test_capsa_settle_json_to_parquet_matches_the_stream(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cards = arranged_rounds(20, seed=14)
    lines = [
        json.dumps({"id": k, "stakes": 3, "seats": [cards[k, s].tolist() for s in range(4)]})
        for k in range(20)
    ]
    lines.insert(5, '{"id": "bad", "seats": [[1, 2]]}')
    (tmp_path / "r.jsonl").write_text("\n".join(lines) + "\n")
    assert main(["settle", str(tmp_path / "r.jsonl")]) == 0
    stream = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    out = tmp_path / "out.parquet"
    assert main(["settle", str(tmp_path / "r.jsonl"), "-o", str(out)]) == 0
    result = pq.read_table(out)
    assert result.column("id").to_pylist() == [str(r["id"]) for r in stream]
    for k, record in enumerate(stream):
        if "error" in record:
            assert result.column("error")[k].as_py().startswith(record["error"] + ": line 6: ")
            continue
        assert [result.column(f"money{s}")[k].as_py() for s in range(4)] == record["money"]
        assert [result.column(f"rake{s}")[k].as_py() for s in range(4)] == record["rake"]


def test_capsa_settle_writes_json_to_an_output_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    line = json.dumps({"id": 1, "seats": [r.tolist() for r in arranged_rounds(1, seed=15)[0]]})
    (tmp_path / "r.jsonl").write_text(line + "\n")
    assert main(["settle", str(tmp_path / "r.jsonl")]) == 0
    printed = capsys.readouterr().out
    assert main(["settle", str(tmp_path / "r.jsonl"), "-o", str(tmp_path / "o.jsonl")]) == 0
    assert (tmp_path / "o.jsonl").read_text() == printed


def test_capsa_settle_parquet_refuses_what_it_cannot_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["settle", "--format", "parquet"]) == 2
    assert "not standard input" in capsys.readouterr().err
    (tmp_path / "x.parquet").write_bytes(b"not parquet")
    assert main(["settle", str(tmp_path / "x.parquet")]) == 2
    assert "cannot settle" in capsys.readouterr().err
    pq.write_table(pa.table({"cards0": [1], "cards1": ["x"]}), tmp_path / "y.parquet")
    assert main(["settle", str(tmp_path / "y.parquet")]) == 2
    assert "cards0" in capsys.readouterr().err
    assert main(["settle", str(tmp_path / "missing.parquet")]) == 2


def test_capsa_settle_strict_exits_1_on_a_bad_round(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cards = arranged_rounds(5, seed=16)
    cards[2, 1, 0] = cards[2, 1, 1]
    pq.write_table(bulk.rounds_table(cards), tmp_path / "r.parquet")
    out = str(tmp_path / "o.parquet")
    assert main(["settle", str(tmp_path / "r.parquet"), "-o", out]) == 0
    assert main(["settle", str(tmp_path / "r.parquet"), "-o", out, "--strict"]) == 1
    assert "1 round(s)" in capsys.readouterr().err


def test_import_capsa_needs_none_of_the_extras() -> None:
    code = (
        "import sys, capsa, capsa.cli, capsa.simulation, capsa.odds\n"
        "extras = ['pyarrow', 'pandas', 'dask', 'distributed', 'matplotlib', 'tqdm']\n"
        "print([m for m in extras if m in sys.modules])\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_a_card_id_is_named_as_written_whatever_its_type() -> None:
    cards = arranged_rounds(2, seed=17)
    lists = [cards[:, s].astype(np.uint64).tolist() for s in range(2)]
    lists[1][0][3] = 2**63 + 5
    table = pa.table({f"cards{s}": pa.array(lists[s], pa.list_(pa.uint64(), 13)) for s in range(2)})
    errors = bulk.settle_table(table).column("error").to_pylist()
    assert errors[0] == f"CardError: seat 1: card id {2**63 + 5} at position 3 is outside 0..105"
    assert errors[1] is None
