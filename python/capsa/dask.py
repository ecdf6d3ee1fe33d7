"""Bulk settlement and simulation on Dask: one machine or a cluster.

:func:`settle_dataframe` settles a Dask dataframe of rounds (the schema of
:mod:`capsa.bulk`) partition by partition with ``map_partitions`` over the
batch kernel; :func:`settle_parquet` reads a Parquet dataset, settles it and
writes the results as a Parquet dataset, one file per partition, in the
rounds' order. Every partition gives exactly what :func:`capsa.bulk.settle_table`
gives for its rows, so the results are those of the single-process path.
:func:`simulate_on_cluster` runs :func:`capsa.simulate` over a cluster by
cutting the deal index range into parts.

The same calls run on a local cluster or a real one; only the client
changes (``docs/bulk.md`` has the examples)::

    from distributed import Client, LocalCluster
    client = Client(LocalCluster(n_workers=2, threads_per_worker=1))
    # or: client = Client("tcp://scheduler.example:8786")
    capsa.dask.settle_parquet("rounds/", "results/", client=client)

Needs ``pip install 'capsa[dask]'`` (dask[dataframe], distributed, pyarrow).
"""

from __future__ import annotations

import glob
import os
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from capsa import _core
from capsa._core import ArgumentError
from capsa.bulk.settle import (
    CARD_COLUMNS,
    DEFAULT_BATCH_ROWS,
    ECHOED_COLUMNS,
    parquet_files,
    results_schema,
    settle_table,
)
from capsa.rules import Rules
from capsa.summary import Summary, merge_all, simulate_range

if TYPE_CHECKING:
    import dask.dataframe as dd
    import pandas as pd

__all__ = ["read_rounds", "settle_dataframe", "settle_parquet", "simulate_on_cluster"]


def _dataframe() -> Any:
    """``dask.dataframe`` (typed as Any: Dask's own annotations are partial)."""
    try:
        import dask.dataframe
    except ImportError as exc:  # pragma: no cover - the test extra installs it
        raise ImportError("capsa.dask needs Dask: pip install 'capsa[dask]'") from exc
    return dask.dataframe


def _distributed() -> Any:
    """``distributed`` (typed as Any, as ``_dataframe``)."""
    import distributed

    return distributed


def read_rounds(source: str | os.PathLike[str], **options: Any) -> dd.DataFrame:
    """A Parquet dataset of rounds as a Dask dataframe with Arrow-backed
    columns (the cards stay 13-byte binary values, never Python objects),
    a partition per row group (``split_row_groups=True``; an export of
    round records has a row group per 8,192 rounds), so that its tasks run
    in parallel. ``options`` go to ``dask.dataframe.read_parquet``."""
    dask_dataframe = _dataframe()
    options.setdefault("dtype_backend", "pyarrow")
    options.setdefault("split_row_groups", True)
    frame: dd.DataFrame = dask_dataframe.read_parquet(os.fspath(source), **options)
    return frame


def _settle_partition(
    part: pd.DataFrame, rules: Rules | None, known: Mapping[str, Rules] | None, threads: int | None
) -> pd.DataFrame:
    import pandas as pd
    import pyarrow as pa

    table = pa.Table.from_pandas(part, preserve_index=False)
    out = settle_table(table, rules, known=known, threads=threads)
    frame = out.to_pandas(types_mapper=pd.ArrowDtype)
    frame.index = part.index
    for name in _echoed(part.columns):
        frame[name] = part[name]  # as given, with its dtype
    return frame


def _echoed(columns: Any) -> list[str]:
    """The columns of the rounds the results carry as given, in order."""
    return [name for name in ("id", *ECHOED_COLUMNS) if name in columns]


def _meta(frame: dd.DataFrame) -> pd.DataFrame:
    """The empty results frame of ``frame``'s rounds (id, table, time and
    players as given)."""
    import pandas as pd

    seats = sum(1 for name in CARD_COLUMNS if name in frame.columns)
    schema = results_schema(max(seats, 2))
    meta = schema.empty_table().to_pandas(types_mapper=pd.ArrowDtype)
    for at, name in enumerate(_echoed(frame.columns)):
        meta.insert(at, name, frame._meta[name])
    return meta


def settle_dataframe(
    frame: dd.DataFrame,
    rules: Rules | None = None,
    *,
    known: Mapping[str, Rules] | None = None,
    threads: int | None = 1,
) -> dd.DataFrame:
    """The results of a Dask dataframe of rounds, lazily (one results
    partition per rounds partition, same rows, same order). ``threads``
    cores settle each partition (default 1: Dask already runs one task per
    worker thread). A bad round gets its reason in ``error``; the job goes on."""
    if not isinstance(frame, _dataframe().DataFrame):
        raise TypeError(f"frame must be a dask DataFrame, not {type(frame).__name__}")
    results: dd.DataFrame = frame.map_partitions(
        _settle_partition, rules, known, threads, meta=_meta(frame)
    )
    return results


def settle_parquet(
    source: str | os.PathLike[str],
    target: str | os.PathLike[str],
    rules: Rules | None = None,
    *,
    client: Any = None,
    known: Mapping[str, Rules] | None = None,
    threads: int | None = 1,
    compression: str = "snappy",
    progress: bool = False,
    rows_per_task: int = DEFAULT_BATCH_ROWS,
) -> tuple[int, int]:
    """Settles a Parquet dataset (a file, a directory of ``.parquet`` files
    in path order, or a glob) into a Parquet results dataset at ``target``:
    a directory of ``part.000000.parquet``, ... files that, sorted by name,
    hold the rounds in order.

    The files are cut into pieces of whole row groups of about
    ``rows_per_task`` rounds (at least one row group; ``1`` gives one piece
    per row group), and each piece is a partition of a Dask dataframe
    (``dask.dataframe.from_map``): its task reads the piece with pyarrow,
    settles it with :func:`capsa.bulk.settle_table` on ``threads`` cores and
    writes its results file, so rounds and results stay Arrow from end to
    end. ``target`` must be a path every worker can write (a shared
    filesystem, or a URI pyarrow reads and writes, such as ``s3://...``).
    Runs on ``client`` (a ``distributed.Client``; by default the current
    client, else Dask's local scheduler), showing Dask's progress bar with
    ``progress=True``. Returns (rounds, rounds that could not be settled).

    Raises ``ArgumentError`` for a source that does not exist or holds no
    Parquet file, or ``rows_per_task`` below 1; ``TypeError`` for a
    ``rows_per_task`` that is not an int or a ``progress`` that is not a
    bool; errors of
    :func:`capsa.bulk.settle_table` for a rounds file of the wrong shape.
    """
    progress = _core.read_flag(progress, "progress")
    if isinstance(rows_per_task, bool) or not isinstance(rows_per_task, int):
        raise TypeError(f"rows_per_task must be an int, not {type(rows_per_task).__name__}")
    if rows_per_task < 1:
        raise ArgumentError(f"rows_per_task must be >= 1, got {rows_per_task}")
    pieces = _pieces(os.fspath(source), rows_per_task)
    where = os.fspath(target)
    _make_directory(where)
    import pandas as pd

    meta = pd.DataFrame(
        {"rounds": pd.Series([], dtype="int64"), "failed": pd.Series([], dtype="int64")}
    )
    written: Any = _dataframe().from_map(
        _settle_piece,
        pieces,
        where=where,
        rules=rules,
        known=known,
        threads=threads,
        compression=compression,
        meta=meta,
        enforce_metadata=False,
        label="capsa-settle",
    )
    counts = _run(written, client, progress)
    return int(counts["rounds"].sum()), int(counts["failed"].sum())


def _source_files(source: str) -> tuple[Any, list[str]]:
    """The filesystem and the sorted Parquet files of a file, a directory
    or a glob (a path, read as :func:`capsa.bulk.settle_parquet` reads it,
    or a URI)."""
    import pyarrow.fs

    if "://" not in source:
        if any(ch in source for ch in "*?["):
            files = sorted(p for p in glob.glob(source, recursive=True) if os.path.isfile(p))
            if not files:
                raise ArgumentError(f"{source} matches no file")
        else:
            files = [os.fspath(p) for p in parquet_files(source)]
        return pyarrow.fs.LocalFileSystem(), files
    fs, path = pyarrow.fs.FileSystem.from_uri(source)
    info = fs.get_file_info(path)
    if info.type == pyarrow.fs.FileType.File:
        return fs, [path]
    if info.type != pyarrow.fs.FileType.Directory:
        raise ArgumentError(f"{source} does not exist")
    found = fs.get_file_info(pyarrow.fs.FileSelector(path, recursive=True))
    files = sorted(f.path for f in found if f.is_file and f.path.endswith(".parquet"))
    if not files:
        raise ArgumentError(f"{source} holds no .parquet files")
    return fs, files


def _pieces(source: str, rows_per_task: int) -> list[tuple[Any, str, list[int], int]]:
    """(filesystem, file, row groups, part number) of every task, in the
    rounds' order: consecutive row groups of a file up to ``rows_per_task``
    rounds."""
    import pyarrow.parquet as pq

    fs, files = _source_files(source)
    pieces: list[tuple[Any, str, list[int], int]] = []
    for file in files:
        with fs.open_input_file(file) as handle:
            metadata = pq.ParquetFile(handle).metadata
        group: list[int] = []
        rows = 0
        for k in range(metadata.num_row_groups):
            group.append(k)
            rows += metadata.row_group(k).num_rows
            if rows >= rows_per_task:
                pieces.append((fs, file, group, len(pieces)))
                group, rows = [], 0
        if group or metadata.num_row_groups == 0:
            pieces.append((fs, file, group, len(pieces)))
    return pieces


def _make_directory(where: str) -> None:
    if "://" in where:
        import pyarrow.fs

        fs, path = pyarrow.fs.FileSystem.from_uri(where)
        fs.create_dir(path, recursive=True)
    else:
        os.makedirs(where, exist_ok=True)


def _part_name(index: int) -> str:
    """Zero-padded part names: the files' sorted order is the rounds' order."""
    return f"part.{index:06d}.parquet"


def _settle_piece(
    piece: tuple[Any, str, list[int], int],
    *,
    where: str,
    rules: Rules | None,
    known: Mapping[str, Rules] | None,
    threads: int | None,
    compression: str,
) -> pd.DataFrame:
    """One task of :func:`settle_parquet`: reads a piece, settles it and
    writes its results file; returns its counts."""
    import pandas as pd
    import pyarrow.parquet as pq

    fs, file, groups, number = piece
    with fs.open_input_file(file) as handle:
        table = pq.ParquetFile(handle).read_row_groups(groups)
    out = settle_table(table, rules, known=known, threads=threads)
    pq.write_table(out, f"{where.rstrip('/')}/{_part_name(number)}", compression=compression)
    failed = out.num_rows - out.column("error").null_count
    return pd.DataFrame({"rounds": [out.num_rows], "failed": [failed]})


def _run(job: Any, client: Any, progress: bool) -> Any:
    """Computes a Dask collection on ``client`` (or the default scheduler)."""
    if client is not None:
        future = client.compute(job)
        if progress:
            _distributed().progress(future)
        return future.result()
    if progress:
        import dask.diagnostics

        bar: Any = dask.diagnostics
        with bar.ProgressBar():
            return job.compute()
    return job.compute()


def _simulate_part(
    start: int,
    end: int,
    rules: Rules,
    seats: int,
    strategy: str,
    seed: int,
    tables: bytes | None,
) -> Summary:
    return simulate_range(rules, start, end - start, seats, strategy, seed, tables, threads=1)


def simulate_on_cluster(
    client: Any,
    rules: Rules,
    *,
    deals: int,
    seats: int = 4,
    strategy: str = "solver",
    seed: int = 0,
    start: int = 0,
    tables: bytes | None = None,
    partitions: int | None = None,
    progress: bool | Callable[[int], Any] = False,
) -> Summary:
    """:func:`capsa.simulate` on a ``distributed.Client``: the deal indices
    ``start`` .. ``start + deals - 1`` cut into ``partitions`` ranges (default
    four per worker thread), each simulated on one core of a worker, the
    summaries merged. The result does not depend on the cut. Raises
    ``TypeError`` for a ``partitions`` that is not an int or a ``progress``
    that is neither a bool nor a callable, ``ArgumentError`` for
    ``partitions`` below 1 or a stake with which a deal could settle beyond
    64-bit money."""
    if not callable(progress):
        progress = _core.read_flag(progress, "progress")
    _core.check_settlement_fits(rules, seats, None)
    if partitions is None:
        threads = sum(client.nthreads().values()) or 1
        partitions = 4 * threads
    if isinstance(partitions, bool) or not isinstance(partitions, int):
        raise TypeError(f"partitions must be an int, not {type(partitions).__name__}")
    if partitions < 1:
        raise ArgumentError(f"partitions must be >= 1, got {partitions}")
    parts = max(1, min(partitions, deals))
    bounds = [start + deals * k // parts for k in range(parts + 1)]
    futures = client.map(
        _simulate_part,
        bounds[:-1],
        bounds[1:],
        rules=rules,
        seats=seats,
        strategy=strategy,
        seed=seed,
        tables=tables,
        pure=False,
    )
    if progress is True:
        _distributed().progress(futures)
    elif callable(progress):
        for future in _distributed().as_completed(futures):
            progress(future.result().deals)
    total = client.submit(merge_all, futures)
    summary: Summary = total.result()
    return summary
