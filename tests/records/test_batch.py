"""Many records read at once (``capsa.records.read_records``, on every core
without the GIL) read each exactly as ``read_record`` does."""

from __future__ import annotations

from pathlib import Path

import pytest

from capsa import _core
from capsa.records import RecordError, read_record, read_records

GOLDEN = Path(__file__).parents[1] / "golden"


def _as_read(text: str | bytes) -> tuple[str, object]:
    try:
        view = read_record(text)
    except RecordError as exc:
        return ("error", (exc.field, str(exc)))
    return ("record", (view.round_id, view.digest, view.previous_digest))


def _as_batch(item: object) -> tuple[str, object]:
    if isinstance(item, RecordError):
        return ("error", (item.field, str(item)))
    assert isinstance(item, _core.RecordView)
    return ("record", (item.round_id, item.digest, item.previous_digest))


def test_a_batch_reads_each_record_as_one_read_does() -> None:
    lines = []
    for version in (1, 2, 3):
        lines += (GOLDEN / f"records-{version}.jsonl").read_text(encoding="utf-8").splitlines()
    good = lines[0]
    texts: list[str | bytes] = [
        *lines,
        good.encode("utf-8"),
        "\ufeff" + good,
        good.replace('"round_id":', '"round_id" :'),
        good.replace('"nonce":', '"nonce":"x","n":'),
        "not json",
        "[]",
        "\ud800",
        b"\xff\xfe",
        "",
    ]
    batch = read_records(texts)
    assert len(batch) == len(texts)
    assert [_as_batch(item) for item in batch] == [_as_read(text) for text in texts]
    kinds = [kind for kind, _ in map(_as_batch, batch)]
    assert kinds.count("record") >= len(lines) + 3 and kinds.count("error") >= 5
    assert read_records([]) == []


def test_a_text_of_another_type_is_named_by_its_place() -> None:
    good = (GOLDEN / "records-3.jsonl").read_text(encoding="utf-8").splitlines()[0]
    with pytest.raises(TypeError, match=r"texts\[1\].*not int"):
        read_records([good, 7])  # type: ignore[list-item]
