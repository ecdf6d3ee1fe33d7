"""capsa settle's JSON Lines reader, a block at a time: the same records, in
the same order with the same line numbers, as settling the stream line by
line, whatever the block size, where the blocks cut the lines, and with
round records, blank lines, lines too long and a last line without its end
among the rounds; and the same whether the records go to a bytes sink or,
on a Unix system, straight to a file's descriptor from the core."""

from __future__ import annotations

import errno
import io
import os
import tempfile
import threading
from pathlib import Path
from typing import Any

import pytest

from capsa import _core
from capsa.bulk import default_known_rules
from capsa.cli import settle_stream
from capsa.cli.common import lines
from capsa.rules import Rules

GOLDEN = Path(__file__).parents[1] / "golden" / "records-3.jsonl"

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


def settled(text: bytes, head: bytes = b"", sink: str = "bytes") -> tuple[bytes, int, int]:
    """The records, rounds and failures of settling ``text`` block by block
    into a bytes sink, or into a file (whose descriptor the core writes to
    directly on a Unix system, between the records Python writes itself)."""
    rules = Rules()
    known = dict(default_known_rules(rules))
    if sink == "bytes":
        out = io.BytesIO()
        tally = settle_stream.settle_lines(io.BytesIO(text), known, rules.name, out, head)
        return out.getvalue(), tally.rounds, tally.failed
    with tempfile.TemporaryFile() as raw:
        # a buffer larger than anything Python writes here: what it wrote
        # must be flushed before the core writes to the descriptor
        with open(raw.fileno(), "wb", 1 << 20, closefd=False) as file:
            if os.name == "posix":
                assert settle_stream._output_fd(file) == raw.fileno()
            tally = settle_stream.settle_lines(io.BytesIO(text), known, rules.name, file, head)
        raw.seek(0)
        return raw.read(), tally.rounds, tally.failed


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
@pytest.mark.parametrize("sink", ["bytes", "file"])
def test_blocks_settle_as_lines_do(
    monkeypatch: pytest.MonkeyPatch, block: int, records: bool, end: bytes, sink: str
) -> None:
    text = stream_text(records, overlong=False, end=end)
    want = line_by_line(text)
    assert want[1] == 38 and want[2] == 2
    monkeypatch.setattr(settle_stream, "_BLOCK", block)
    assert settled(text, sink=sink) == want
    cut = len(text) // 3
    assert settled(text[cut:], text[:cut], sink=sink) == want


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


@pytest.mark.skipif(os.name != "posix", reason="the core writes to descriptors on Unix only")
def test_the_core_writes_a_block_to_a_descriptor_as_it_returns_it() -> None:
    rules = Rules()
    known = dict(default_known_rules(rules))
    block = b"\n".join([ROUND % k for k in range(600)] + [b"{", b""])
    data, *counts = _core.settle_json_block(block, known, rules.name, 4)
    assert data is not None and counts == [601, 1, 602]
    with tempfile.TemporaryFile() as file:
        written = _core.settle_json_block(block, known, rules.name, 4, fd=file.fileno())
        assert written == (None, *counts)
        file.seek(0)
        assert file.read() == data
    read, write = os.pipe()
    os.close(read)
    with pytest.raises(BrokenPipeError):
        _core.settle_json_block(block, known, rules.name, fd=write)
    os.close(write)
    with pytest.raises(OSError) as bad:
        _core.settle_json_block(block, known, rules.name, fd=write)
    assert bad.value.errno == errno.EBADF and bad.value.strerror == "Bad file descriptor"


@pytest.mark.parametrize("block", [3000, 4096, 16384])
@pytest.mark.parametrize("sink", ["bytes", "file"])
def test_blocks_with_and_without_records_keep_their_order(
    monkeypatch: pytest.MonkeyPatch, block: int, sink: str
) -> None:
    """Blocks holding round records go line by line through Python, the
    others whole through the core (straight to the file's descriptor for a
    file): the records still come out in the stream's order, also when what
    Python wrote is small enough to wait in the file's buffer."""
    golden = GOLDEN.read_bytes().splitlines()
    parts = [ROUND % k for k in range(400)]
    for at, record in zip((10, 150, 151, 390), golden, strict=False):
        parts[at] = record
    text = b"\n".join(parts) + b"\n"
    want = line_by_line(text)
    paths: list[str] = []
    whole, by_line = _core.settle_json_block, settle_stream._settle_items

    def core_block(*args: object, **kwargs: object) -> object:
        paths.append("descriptor" if kwargs.get("fd") is not None else "core")
        return whole(*args, **kwargs)  # type: ignore[arg-type]

    def python_lines(*args: object) -> None:
        paths.append("python")
        by_line(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(settle_stream, "_BLOCK", block)
    monkeypatch.setattr(_core, "settle_json_block", core_block)
    monkeypatch.setattr(settle_stream, "_settle_items", python_lines)
    assert settled(text, sink=sink) == want
    direct = "descriptor" if sink == "file" and os.name == "posix" else "core"
    assert {"python", direct} == set(paths) and paths.count("python") <= 4, paths


class _FailingStream(io.RawIOBase):
    """Gives ``good`` bytes, then fails to read."""

    def __init__(self, good: bytes) -> None:
        super().__init__()
        self._good = io.BytesIO(good)

    def readable(self) -> bool:
        return True

    def read(self, size: int = -1) -> bytes:
        chunk = self._good.read(size)
        if not chunk:
            raise OSError(5, "Input/output error")
        return chunk


def _readers() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name == "capsa-settle-reader"]


def test_a_read_error_is_raised_after_the_lines_read_before_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # the input is read a block ahead on a thread of its own: its error
    # still comes after the records of what was read before it
    monkeypatch.setattr(settle_stream, "_BLOCK", 4096)
    text = b"\n".join(ROUND % k for k in range(200)) + b"\n"
    rules = Rules()
    out = io.BytesIO()
    with pytest.raises(OSError, match="Input/output error"):
        settle_stream.settle_lines(
            _FailingStream(text), dict(default_known_rules(rules)), rules.name, out
        )
    # the records of the blocks cut before the failed read, in order
    written, whole = out.getvalue(), line_by_line(text)[0]
    assert whole.startswith(written) and 0 < written.count(b"\n") < 200
    assert not _readers()


def test_a_failing_output_stops_the_reader(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(settle_stream, "_BLOCK", 4096)
    text = b"\n".join(ROUND % k for k in range(2_000))

    class Closed(io.BytesIO):
        def write(self, data: Any) -> int:
            raise BrokenPipeError(32, "Broken pipe")

    rules = Rules()
    with pytest.raises(BrokenPipeError):
        settle_stream.settle_lines(
            io.BytesIO(text), dict(default_known_rules(rules)), rules.name, Closed()
        )
    assert not _readers()


def test_an_output_file_gets_the_records_of_the_stream(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # capsa settle -o FILE: blocks through Python and blocks the engine
    # writes to the file's descriptor, in the stream's order
    from capsa.cli import main

    golden = GOLDEN.read_bytes().splitlines()
    parts = [ROUND % k for k in range(300)]
    parts[40], parts[200] = golden[0], golden[1]
    source, target = tmp_path / "rounds.jsonl", tmp_path / "records.jsonl"
    source.write_bytes(b"\n".join(parts) + b"\n")
    monkeypatch.setattr(settle_stream, "_BLOCK", 4096)
    assert main(["settle", str(source), "-o", str(target)]) == 0
    assert target.read_bytes() == line_by_line(source.read_bytes())[0]
