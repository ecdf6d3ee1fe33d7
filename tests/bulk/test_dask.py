"""capsa.dask on a two-worker local cluster (processes) started here: the
results and summaries are exactly those of the single-process path."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import dask.dataframe as dd
import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.dataset as ds
import pyarrow.parquet as pq
import pytest
from distributed import Client, LocalCluster

import capsa
import capsa.dask
from bulk.test_bulk import arranged_rounds
from capsa import ArgumentError, bulk


@pytest.fixture(scope="module")
def client() -> Iterator[Any]:
    with (
        LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0"
        ) as cluster,
        Client(cluster) as c,
    ):
        yield c


def rounds_dataset(folder: Path) -> pa.Table:
    """Three files of rounds with some bad ones, several row groups each."""
    cards = arranged_rounds(3000, seed=21)
    cards[2500, 0, 0] = cards[2500, 0, 1]
    stakes = np.where(np.arange(3000) == 1234, -1, np.arange(3000) % 40)
    ids = [f"t/{k}" for k in range(3000)]
    whole = bulk.rounds_table(cards, ids=ids, rules="pagat", stakes=stakes)
    cards[17, 2, 5] = 77  # an id a uint8 column can hold but no card has
    bad = pa.array([bytes(row) for row in cards[:, 2]], pa.binary(13))
    whole = whole.set_column(whole.column_names.index("cards2"), "cards2", bad)
    folder.mkdir()
    for k, (a, b) in enumerate([(0, 1000), (1000, 1700), (1700, 3000)]):
        pq.write_table(whole.slice(a, b - a), folder / f"part-{k}.parquet", row_group_size=256)
    return whole


def plain(table: pa.Table) -> pa.Table:
    return table.replace_schema_metadata(None)


def test_a_parquet_dataset_settles_as_in_one_process(client: Any, tmp_path: Path) -> None:
    whole = rounds_dataset(tmp_path / "rounds")
    capsa.dask.settle_parquet(
        tmp_path / "rounds",
        tmp_path / "results",
        client=client,
        rows_per_task=1,
    )
    files = sorted((tmp_path / "results").glob("*.parquet"))
    # one per row group (4 + 3 + 6): the cluster saw many partitions
    assert len(files) == 13
    got = plain(ds.dataset(files).to_table())
    expected = bulk.settle_table(whole)
    assert got.equals(expected)
    errors = [e for e in got.column("error").to_pylist() if e]
    assert len(errors) == 3 and any("77" in e for e in errors)


def test_rounds_of_a_larger_deck_settle_on_the_cluster_as_in_one_process(
    client: Any, tmp_path: Path
) -> None:
    from capsa.bulk.record_tables import records_table, to_parquet

    texts = []
    for k in range(9):
        name, seats = [("shisanshui-6", 6), ("shisanshui-jokers", 4), ("shisanshui-5", 5)][k % 3]
        rnd = capsa.Round(capsa.Rules.preset(name), seats, 10, round_id=f"d/{k}", nonce=k)
        rnd.deal()
        rnd.close(force=True)
        rnd.settle()
        texts.append(rnd.record_json())
    (tmp_path / "rounds").mkdir()
    rounds = tmp_path / "rounds" / "part-0.parquet"
    assert to_parquet(texts, rounds, batch_records=2, seats=6) == (9, 0)
    capsa.dask.settle_parquet(rounds, tmp_path / "results", client=client, rows_per_task=1)
    files = sorted((tmp_path / "results").glob("*.parquet"))
    assert len(files) == 5
    got = plain(ds.dataset(files).to_table())
    expected = bulk.settle_table(records_table(texts, seats=6))
    assert got.equals(plain(expected))
    assert got.column("error").null_count == 9
    assert got.column("money5").to_pylist()[::3] == [
        json.loads(t)["settlement"]["money"][5] for t in texts[::3]
    ]


def test_a_dask_dataframe_settles_as_in_one_process(client: Any) -> None:
    cards = arranged_rounds(500, seed=22)
    frame = pd.DataFrame({f"cards{s}": [bytes(r) for r in cards[:, s]] for s in range(4)})
    frame.insert(0, "id", np.arange(500))
    table = pa.Table.from_pandas(frame, preserve_index=False)
    table = table.cast(
        pa.schema([("id", pa.int64())] + [(f"cards{s}", pa.binary(13)) for s in range(4)])
    )
    arrow_frame = table.to_pandas(types_mapper=pd.ArrowDtype)
    results = capsa.dask.settle_dataframe(dd.from_pandas(arrow_frame, npartitions=4))
    got = client.compute(results).result()
    expected = bulk.settle_table(table).to_pandas(types_mapper=pd.ArrowDtype)
    pd.testing.assert_frame_equal(got.reset_index(drop=True), expected)


def test_a_banker_games_rounds_settle_on_the_cluster_as_in_one_process(
    client: Any, tmp_path: Path
) -> None:
    cards = arranged_rounds(800, seed=23)
    table = bulk.rounds_table(cards, rules="shisanshui-banker", stakes=np.full(800, 5))
    rows = np.arange(800)
    banker = pa.array(np.where(rows == 99, 4, rows % 4))  # round 99's banker is no seat
    table = table.append_column("banker", banker)
    for s in range(4):
        table = table.append_column(
            f"multiplier{s}", pa.array(np.where(rows % 4 == s, 1, 1 + (rows + s) % 5))
        )
    (tmp_path / "rounds").mkdir()
    pq.write_table(table, tmp_path / "rounds" / "part-0.parquet", row_group_size=100)
    capsa.dask.settle_parquet(
        tmp_path / "rounds", tmp_path / "results", client=client, rows_per_task=1
    )
    got = plain(ds.dataset(sorted((tmp_path / "results").glob("*.parquet"))).to_table())
    assert got.equals(bulk.settle_table(table))
    errors = got.column("error").to_pylist()
    assert [k for k, e in enumerate(errors) if e] == [99] and "banker must be a seat" in errors[99]
    # each round as capsa.settle settles it with its banker and multipliers
    for k in (0, 1, 402):
        seats = [capsa.Arrangement.from_ids(cards[k, s].tolist()) for s in range(4)]
        multipliers = [1 if k % 4 == s else 1 + (k + s) % 5 for s in range(4)]
        want = capsa.settle(
            seats,
            capsa.Rules.preset("shisanshui-banker"),
            5,
            banker=k % 4,
            multipliers=multipliers,
        )
        assert [got.column(f"money{s}")[k].as_py() for s in range(4)] == want.money


@pytest.mark.parametrize(
    ("strategy", "deals", "partitions"), [("greedy", 20_000, None), ("solver", 60, 7)]
)
def test_a_cluster_simulation_is_the_one_process_simulation(
    client: Any, strategy: str, deals: int, partitions: int | None
) -> None:
    here = capsa.simulate("capsa-susun", deals=deals, strategy=strategy, seed=31, stake=10)
    there = capsa.simulate(
        "capsa-susun",
        deals=deals,
        strategy=strategy,
        seed=31,
        stake=10,
        client=client,
        partitions=partitions,
    )
    assert there == here
    seen: list[int] = []
    capsa.simulate("pagat", deals=100, strategy="greedy", client=client, progress=seen.append)
    assert sum(seen) == 100


def test_settle_dataframe_refuses_what_is_not_a_dask_frame() -> None:
    with pytest.raises(TypeError, match="dask DataFrame"):
        capsa.dask.settle_dataframe(pd.DataFrame())  # type: ignore[arg-type]


def test_pieces_are_whole_row_groups_of_about_rows_per_task(client: Any, tmp_path: Path) -> None:
    whole = rounds_dataset(tmp_path / "rounds")
    expected = bulk.settle_table(whole)
    for rows_per_task, parts in [(None, 3), (600, 5)]:
        target = tmp_path / f"results-{rows_per_task}"
        options = {} if rows_per_task is None else {"rows_per_task": rows_per_task}
        counts = capsa.dask.settle_parquet(
            tmp_path / "rounds" / "part-*.parquet", target, client=client, **options
        )
        assert counts == (3000, 3)
        files = sorted(target.glob("*.parquet"))
        # 600 rounds: row groups of 256 gathered three at a time, per file
        assert len(files) == parts
        assert plain(ds.dataset(files).to_table()).equals(expected)


def test_settle_parquet_refuses_a_missing_source_and_a_bad_piece_size(tmp_path: Path) -> None:
    with pytest.raises(ArgumentError, match="does not exist"):
        capsa.dask.settle_parquet(tmp_path / "nothing", tmp_path / "out")
    with pytest.raises(ArgumentError, match="matches no file"):
        capsa.dask.settle_parquet(tmp_path / "*.parquet", tmp_path / "out")
    (tmp_path / "empty").mkdir()
    with pytest.raises(ArgumentError, match=r"holds no \.parquet"):
        capsa.dask.settle_parquet(tmp_path / "empty", tmp_path / "out")
    with pytest.raises(ArgumentError, match="rows_per_task must be >= 1"):
        capsa.dask.settle_parquet(tmp_path, tmp_path / "out", rows_per_task=0)
    with pytest.raises(TypeError, match="rows_per_task must be an int"):
        capsa.dask.settle_parquet(tmp_path, tmp_path / "out", rows_per_task=True)
