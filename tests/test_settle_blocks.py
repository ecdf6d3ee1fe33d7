"""capsa settle's JSON Lines reader, a block at a time: the same records, in
the same order with the same line numbers, as settling the stream line by
line, whatever the block size, where the blocks cut the lines, and with
round records, blank lines, lines too long and a last line without its end
among the rounds."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from capsa import _core
from capsa.bulk import default_known_rules
from capsa.cli import settle_stream
from capsa.cli.common import lines
from capsa.rules import Rules

GOLDEN = Path(__file__).parent / "golden" / "records-3.jsonl"

ROUND = (
    b'{"id":%d,"seats":[{"top":[37,39,46],"middle":[20,21,23,24,31],'
    b'"bottom":[3,6,32,33,35]},"Qd Ad Ah / 4c 4h 4s 9h Jd / 3d 5d 5c 5h 8h"]}'
)


def stream_text(records: bool, overlong: bool, end: bytes) -> bytes:
    """Rounds with blank lines, bad lines and (as asked) round records and
    a line too long among them."""
    parts = [ROUND % k for k in range(40)]
    parts[3] = b"   \r"
    parts[7] = b"not json"
    parts[11] = b"\xef\xbb\xbf" + ROUND % 11
    parts[12] = b""
    parts[20] = b'{"id":"bad \xff","seats":[]}'
    if records:
        golden = GOLDEN.read_bytes().splitlines()
        parts[5], parts[30] = golden[0], golden[1]
    if overlong:
        parts[25] = b'{"id":1,"seats":"' + b"x" * _core.MAX_LINE_BYTES + b'"}'
    return b"\n".join(parts) + end


def settled(text: bytes, head: bytes = b"") -> tuple[bytes, int, int]:
    rules = Rules()
    known = dict(default_known_rules(rules))
    out = io.BytesIO()
    tally = settle_stream.settle_lines(io.BytesIO(text), known, rules.name, out, head)
    return out.getvalue(), tally.rounds, tally.failed


def line_by_line(text: bytes) -> tuple[bytes, int, int]:
    rules = Rules()
    known = dict(default_known_rules(rules))
    out = io.BytesIO()
    tally = settle_stream.Tally()
    items = lines(io.BytesIO(text))
    settle_stream._settle_items(items, 1, known, rules.name, out, tally)
    return out.getvalue(), tally.rounds, tally.failed


@pytest.mark.parametrize("block", [1, 7, 100, 333, 4096, 2 << 20])
@pytest.mark.parametrize("records", [False, True])
@pytest.mark.parametrize("end", [b"", b"\n", b"\n\n"])
def test_blocks_settle_as_lines_do(
    monkeypatch: pytest.MonkeyPatch, block: int, records: bool, end: bytes
) -> None:
    text = stream_text(records, overlong=False, end=end)
    want = line_by_line(text)
    assert want[1] == 38 and want[2] == 2
    monkeypatch.setattr(settle_stream, "_BLOCK", block)
    assert settled(text) == want
    cut = len(text) // 3
    assert settled(text[cut:], text[:cut]) == want


@pytest.mark.parametrize("block", [4096, 2 << 20])
@pytest.mark.parametrize("end", [b"", b"\n"])
def test_a_line_too_long_is_one_error_record(
    monkeypatch: pytest.MonkeyPatch, block: int, end: bytes
) -> None:
    text = stream_text(records=True, overlong=True, end=end)
    want = line_by_line(text)
    assert b'"line":26' in want[0].splitlines()[23]
    monkeypatch.setattr(settle_stream, "_BLOCK", block)
    assert settled(text) == want
    tail = b"\n" + b"y" * (_core.MAX_LINE_BYTES + 5) + end
    assert settled(text + tail) == line_by_line(text + tail)


def test_the_core_counts_lines_records_and_failures() -> None:
    rules = Rules()
    known = dict(default_known_rules(rules))
    block = b"\n".join([ROUND % 1, b"", b"  ", b"{", ROUND % 2])
    data, records, failed, count = _core.settle_json_block(block, known, rules.name, 10)
    assert (records, failed, count) == (3, 1, 5)
    assert data.count(b"\n") == 3 and b'"line":13' in data.splitlines()[1]
    assert _core.settle_json_block(b"", known, rules.name)[1:] == (0, 0, 1)
