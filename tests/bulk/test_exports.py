"""Exports that scale: a record log or a store written as Parquet a row
group at a time, in memory that does not grow with the records, in row
groups Dask reads as tasks of their own; the round's table, time and
players in the export, and in every settle result of it."""

from __future__ import annotations

import datetime
import hashlib
import json
from pathlib import Path
from typing import Any

import pytest
from store_records import played

import capsa
import capsa.store
from capsa import bulk
from capsa.bulk import record_tables
from capsa.cli import main

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")

UTC = datetime.timezone.utc


def records(count: int, tables: int = 3, played_at: Any = None) -> list[str]:
    """``count`` four-seat records, round-robin over ``tables`` chained
    tables of named players, each played at its own moment (or at
    ``played_at(k)``); the seats submit their hands as dealt."""
    previous: dict[str, str | None] = {}
    lines = []
    for k in range(count):
        table = f"table-{k % tables}"
        moment = f"2027-01-{1 + k % 28:02d}T0{k % 10}:30:00+07:00"
        rnd = capsa.Round(
            seats=4,
            round_id=f"{table}/r{k}",
            nonce=k,
            previous_digest=previous.get(table),
            table_id=table,
            players=[f"{table}-p{i}" for i in range(4)],
            server_seed=hashlib.sha256(f"exports {k}".encode()).digest(),
            meta={"played_at": moment if played_at is None else played_at(k)},
        )
        lines.append(played(rnd))
        previous[table] = json.loads(lines[-1])["digest"]
    return lines


@pytest.fixture(scope="module")
def log() -> list[str]:
    return records(30)


def _moment(text: str) -> datetime.datetime:
    return datetime.datetime.fromisoformat(text).astimezone(UTC)


# ---------------------------------------------------------------- row groups


def test_a_store_exports_row_groups_that_dask_reads_as_tasks(
    log: list[str], tmp_path: Path
) -> None:
    dd = pytest.importorskip("dask.dataframe")
    with capsa.store.open(f"sqlite:///{tmp_path / 's.db'}") as store:
        store.append_many(log)
        assert store.export(str(tmp_path / "r.parquet"), batch_records=8) == 30
    metadata = pq.ParquetFile(tmp_path / "r.parquet").metadata
    sizes = [metadata.row_group(k).num_rows for k in range(metadata.num_row_groups)]
    assert sizes == [8, 8, 8, 6]
    # one task a row group: Dask reads them in parallel, not as one task
    frame = dd.read_parquet(tmp_path / "r.parquet", split_row_groups=True)
    assert frame.npartitions == 4
    assert frame.map_partitions(len).compute().tolist() == sizes
    from capsa import dask as capsa_dask

    rounds = capsa_dask.read_rounds(tmp_path / "r.parquet")
    assert rounds.npartitions == 4  # read_rounds splits at row groups itself
    counted = capsa_dask.settle_parquet(tmp_path / "r.parquet", tmp_path / "out", rows_per_task=8)
    assert counted == (30, 0)
    assert len(list((tmp_path / "out").glob("*.parquet"))) == 4


def test_the_default_row_group_is_bounded(log: list[str], tmp_path: Path) -> None:
    """A log of more records than a batch is written in row groups of at
    most ``DEFAULT_BATCH_RECORDS`` (8,192), never as one."""
    batch = record_tables.DEFAULT_BATCH_RECORDS
    assert batch == 8_192
    lines = (log * (batch // len(log) + 5))[: batch + 100]
    assert record_tables.to_parquet(lines, tmp_path / "r.parquet") == (batch + 100, 0)
    metadata = pq.ParquetFile(tmp_path / "r.parquet").metadata
    sizes = [metadata.row_group(k).num_rows for k in range(metadata.num_row_groups)]
    assert sizes == [batch, 100]


@pytest.mark.parametrize("batch", [7, 30, 4_000])
def test_records_are_read_a_bounded_batch_at_a_time(
    log: list[str], monkeypatch: pytest.MonkeyPatch, batch: int
) -> None:
    """The writer asks for more records only once it has written what it
    holds: at any time, at most a row group's rows and one read's records
    (here 8) are held, however long the log; every row group but the last
    is full, failures or not."""
    monkeypatch.setattr(record_tables, "_READ_RECORDS", 8)
    pulled = 0

    def source() -> Any:
        nonlocal pulled
        for k, line in enumerate(log * 4):
            pulled += 1
            yield "{}" if k % 11 == 0 else line

    written = 0
    sizes = []
    rules: dict[str, capsa.Rules] = {}
    tally = [0]
    for table in record_tables._record_batches(source(), None, batch, rules, tally):
        written += table.num_rows
        sizes.append(table.num_rows)
        assert pulled - written - tally[0] <= batch + 8
    assert written + tally[0] == pulled == 120 and tally[0] == 11
    assert all(size == batch for size in sizes[:-1]) and 0 < sizes[-1] <= batch


# ---------------------------------------------------------------- columns


def test_an_export_carries_the_table_time_and_players(log: list[str], tmp_path: Path) -> None:
    record_tables.to_parquet(log, tmp_path / "r.parquet")
    table = pq.read_table(tmp_path / "r.parquet")
    assert table.schema == record_tables.records_schema()
    assert table.schema.field("played_at").type == pa.timestamp("ms", tz="UTC")
    rows = table.to_pylist()
    for line, row in zip(log, rows, strict=True):
        record = json.loads(line)
        assert row["table_id"] == record["table_id"]
        assert row["played_at"] == _moment(record["meta"]["played_at"])
        assert [row[f"player{s}"] for s in range(4)] == [
            seat["player"]["id"] for seat in record["seats"]
        ]
        assert row["digest"] == record["digest"] and row["id"] == record["round_id"]


@pytest.mark.parametrize(
    ("played_at", "expected"),
    [
        (1_798_761_600_000, datetime.datetime(2027, 1, 1, tzinfo=UTC)),
        ("2027-01-01T07:00:00+07:00", datetime.datetime(2027, 1, 1, tzinfo=UTC)),
        ("yesterday", None),
        (2**64 - 1, None),  # a record holds it, no 64-bit timestamp does
    ],
)
def test_played_at_is_the_moment_it_names(played_at: Any, expected: Any) -> None:
    (line,) = records(1, played_at=lambda k: played_at)
    table = bulk.records_table([line])
    assert table.column("played_at").to_pylist() == [expected]


def test_settle_results_carry_the_table_time_and_players(
    log: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record_tables.to_parquet(log, tmp_path / "r.parquet", batch_records=8)
    rounds = pq.read_table(tmp_path / "r.parquet")
    results = bulk.settle_table(rounds)
    names = ["id", "table_id", "played_at", *(f"player{s}" for s in range(4)), "seats"]
    assert results.column_names[:8] == names
    for name in names[1:-1]:
        assert results.column(name).equals(rounds.column(name))
    # capsa settle: Parquet results, and JSON Lines results
    assert main(["settle", str(tmp_path / "r.parquet"), "-o", str(tmp_path / "s.parquet")]) == 0
    written = pq.read_table(tmp_path / "s.parquet")
    assert written.column_names[:8] == names
    assert written.column("played_at").equals(rounds.column("played_at"))
    assert main(["settle", str(tmp_path / "r.parquet")]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    for line, result in zip(log, lines, strict=True):
        record = json.loads(line)
        assert result["table_id"] == record["table_id"]
        assert _moment(result["played_at"]) == _moment(record["meta"]["played_at"])
        assert result["players"] == [seat["player"]["id"] for seat in record["seats"]]
        assert result["net"] == record["settlement"]["net"]
    # the Dask path keeps them too
    pytest.importorskip("dask.dataframe")
    from capsa import dask as capsa_dask

    frame = capsa_dask.settle_dataframe(capsa_dask.read_rounds(tmp_path / "r.parquet"))
    settled = frame.compute()
    assert list(settled.columns[:8]) == names
    assert list(settled["player2"]) == rounds.column("player2").to_pylist()


def test_a_record_logs_json_results_carry_the_table_time_and_players(
    log: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    plain = json.dumps(
        {
            "id": "plain",
            "seats": [
                "Ah Kh 8s / As Ks 9d 7d 5h / Jc Jd Jh 3c 3d",
                "Qs Js 7s / Tc Td 2s 4s 6s / 2h 4h 6h 9h Qh",
            ],
        }
    )
    source = tmp_path / "log.jsonl"
    source.write_text("\n".join([log[0], "", plain, log[1]]) + "\n", encoding="utf-8")
    assert main(["settle", str(source)]) == 0
    first, second, third = (json.loads(line) for line in capsys.readouterr().out.splitlines())
    assert "table_id" not in second  # a round names no table
    for result, line in ((first, log[0]), (third, log[1])):
        record = json.loads(line)
        assert result["table_id"] == record["table_id"]
        assert result["played_at"] == record["meta"]["played_at"]
        assert result["players"] == [seat["player"]["id"] for seat in record["seats"]]
    # as a Parquet results table
    assert main(["settle", str(source), "-o", str(tmp_path / "s.parquet")]) == 0
    table = pq.read_table(tmp_path / "s.parquet")
    assert table.column("table_id").to_pylist() == ["table-0", None, "table-1"]
    assert table.column("player3").to_pylist() == ["table-0-p3", None, "table-1-p3"]
    moment = _moment(json.loads(log[1])["meta"]["played_at"])
    assert table.column("played_at").to_pylist()[2] == moment


@pytest.mark.parametrize("block", [5, 64, 1 << 22])
def test_a_log_is_cut_into_lines_whatever_its_blocks(
    monkeypatch: pytest.MonkeyPatch, block: int
) -> None:
    """Lines are read a block at a time: each line whole, without its line
    feed, whatever block it straddles; a line longer than a record may be
    as its length, never held beyond the block it is in."""
    import io

    from capsa import _core

    monkeypatch.setattr(record_tables, "_BLOCK_BYTES", block)
    monkeypatch.setattr(_core, "MAX_LINE_BYTES", 40)
    long = b"x" * 100
    data = b"a\n\nbb\n" + long + b"\n" + b"c" * 40 + b"\n" + long + b"\nlast"
    expected = [b"a", b"", b"bb", 100, b"c" * 40, 100, b"last"]
    assert list(record_tables._stream_lines(io.BytesIO(data))) == expected
    assert list(record_tables._stream_lines(io.BytesIO(data + b"\n"))) == expected
    assert list(record_tables._stream_lines(io.BytesIO(long))) == [100]
    assert list(record_tables._stream_lines(io.BytesIO(b""))) == []
