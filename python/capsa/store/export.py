"""Stored records written out: JSON Lines byte for byte, or a Parquet rounds
table for analytics."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable

from capsa.store.errors import StoreError

__all__ = ["OnSkip", "OnVoid", "export_format", "export_records"]


def export_format(path: str | os.PathLike[str], format: str | None) -> str:
    """``"jsonl"`` or ``"parquet"``: ``format``, else from the path's suffix."""
    if format is None:
        name = os.fspath(path).lower()
        if name.endswith((".parquet", ".pq")):
            return "parquet"
        if name.endswith((".jsonl", ".json", ".ndjson")):
            return "jsonl"
        raise StoreError(f"{os.fspath(path)}: give a .jsonl or .parquet path, or a format")
    if format not in ("jsonl", "parquet"):
        raise StoreError(f"an export format is 'jsonl' or 'parquet', not {format!r}")
    return format


OnSkip = Callable[[str | None, Exception], None]
OnVoid = Callable[[str], None]
"""Called with the round id of each void record a Parquet file leaves out."""


def export_records(
    texts: Iterable[str],
    path: str | os.PathLike[str],
    format: str | None = None,
    on_skip: OnSkip | None = None,
    on_void: OnVoid | None = None,
    batch_records: int | None = None,
) -> int:
    """Writes the records' texts to ``path`` in the format; returns how many.

    Both formats stream: JSON Lines a record at a time, Parquet a batch of
    ``batch_records`` records at a time (default
    ``capsa.bulk.record_tables.DEFAULT_BATCH_RECORDS``), each batch a row group
    of the file (:func:`capsa.bulk.record_tables.to_parquet`), so memory holds
    one batch whatever the number of records. A record the rounds schema
    cannot hold (a stakes matrix) is left out of a Parquet file and handed
    to ``on_skip`` (its round id, the error); without ``on_skip``,
    ``StoreError`` names the first once the file is written. A void record
    has no seats to be a row of a Parquet file: it is left out and handed
    to ``on_void`` (its round id), never an error; JSON Lines holds it as
    every record."""
    kind = export_format(path, format)
    if kind == "jsonl":
        count = 0
        with open(path, "w", encoding="utf-8", newline="\n") as out:
            for text in texts:
                out.write(text)
                out.write("\n")
                count += 1
        return count
    from capsa.bulk.record_tables import DEFAULT_BATCH_RECORDS, to_parquet

    failures: list[str] = []

    def failed(line: int, round_id: str | None, exc: Exception) -> None:
        if on_skip is not None:
            on_skip(round_id, exc)
        else:
            failures.append(f"round {round_id!r}: {exc}")

    def void(line: int, round_id: str) -> None:
        if on_void is not None:
            on_void(round_id)

    batch = DEFAULT_BATCH_RECORDS if batch_records is None else batch_records
    written, _ = to_parquet(
        texts, os.fspath(path), on_error=failed, on_void=void, batch_records=batch
    )
    if failures:
        raise StoreError(f"{len(failures)} record(s) left out of {os.fspath(path)}; {failures[0]}")
    return written
