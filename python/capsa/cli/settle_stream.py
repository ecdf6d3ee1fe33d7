"""The JSON side of ``capsa settle``: rounds read as JSON Lines or one JSON
document, settled by the core a chunk at a time, the records written to
any byte sink (standard output, a file, a Parquet writer)."""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import queue
import stat
import sys
import threading
from collections.abc import Iterator
from typing import IO, Any

from capsa import _core
from capsa.bulk.record_tables import (
    _RECORD_MARK,
    read_record_round,
    record_data,
    round_id_of,
    rules_key,
)
from capsa.cli.common import (
    EXIT_FAILED,
    is_blank,
    open_input,
    read_document,
    sniff,
)
from capsa.records import RecordError, ReplayError
from capsa.rules import Rules, RulesError
from capsa.rules.known import default_known_rules, with_known

__all__ = ["Tally", "finish", "settle_document", "settle_lines", "settle_stream"]

# Lines settled per call into the core: large enough to use every core,
# small enough that output starts at once and memory stays flat.
_CHUNK = 4_096

# Bytes of input read at a time (several thousand rounds): as _CHUNK, few
# enough calls that reading costs little beside settling, and more than a
# line may hold, so that a block always ends a line or outgrows one.
_BLOCK = 2 << 20


class Tally:
    """How many rounds a stream held and how many of them failed."""

    def __init__(self) -> None:
        self.rounds = 0
        self.failed = 0

    def add(self, rounds: int, failed: int) -> None:
        """Counts ``rounds`` more rounds, ``failed`` of them failed."""
        self.rounds += rounds
        self.failed += failed


def _record_error(number: int, exc: Exception, round_id: str | None) -> bytes:
    """The error record of a round record that cannot be settled (the shape
    of every ``capsa settle`` error record)."""
    record = {
        "error": type(exc).__name__,
        "id": round_id,
        "line": number,
        "message": str(exc),
        "row": None,
        "seat": None,
    }
    return json.dumps(record, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def _know(known: dict[str, _core.RuleSet], rules: Rules) -> None:
    """Adds a record's rules to ``known`` under :func:`rules_key`; a
    ``RulesError`` when ``--rules`` gave that name to other rules."""
    key = rules_key(rules)
    given = {key: known[key]} if key in known else {}
    known.update(with_known(given, {key: rules}, "the record"))


def _settle_items(
    items: Iterator[bytes | int],
    first: int,
    known: dict[str, _core.RuleSet],
    default: str,
    out: Any,
    tally: Tally,
) -> None:
    """Settles lines one chunk at a time into ``out``, line ``first``
    first: a round, or a round record (replayed, then settled as the round
    it holds, under its own rules)."""
    chunk: list[bytes | int] = []
    # what the results of the chunk's records carry besides the settlement
    echoed: dict[int, dict[str, Any]] = {}

    def flush() -> None:
        if chunk:
            data, bad = _core.settle_json_lines(chunk, known, default, first)
            out.write(_with_echoed(data, chunk, echoed) if echoed else data)
            tally.add(data.count(b"\n"), bad)

    for number, line in enumerate(items, start=first):
        parsed = None if isinstance(line, int) else record_data(line)
        if parsed is not None and not isinstance(line, int):
            try:
                record = read_record_round(line, parsed)
                _know(known, record.rules)
            except (RecordError, ReplayError, RulesError) as exc:
                flush()
                out.write(_record_error(number, exc, round_id_of(line)) + b"\n")
                tally.add(1, 1)
                chunk, echoed, first = [], {}, number + 1
                continue
            line = json.dumps(record.settle_round(), ensure_ascii=False).encode()
            echoed[len(chunk)] = record.echoed()
        chunk.append(line)
        if len(chunk) >= _CHUNK:
            flush()
            chunk, echoed, first = [], {}, number + 1
    flush()


def _with_echoed(data: bytes, chunk: list[bytes | int], echoed: dict[int, dict[str, Any]]) -> bytes:
    """The results of a chunk with each record's own fields (its table,
    players and time) added to its result; a blank line of the chunk gave
    no result, an error record is left as it is."""
    results = data.split(b"\n")
    at = 0
    for k, line in enumerate(chunk):
        if not isinstance(line, int) and is_blank(line):
            continue
        if k in echoed and not results[at].startswith(b'{"error":'):
            result = json.loads(results[at])
            result.update(echoed[k])
            text = json.dumps(result, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
            results[at] = text.encode()
        at += 1
    return b"\n".join(results)


def _block_items(block: bytes) -> Iterator[bytes | int]:
    """The lines of a block (separated by line feeds, none after the last),
    each line too long to be a round as its length."""
    for line in block.split(b"\n"):
        yield len(line) if len(line) > _core.MAX_LINE_BYTES else line


def _fileno(stream: Any) -> int | None:
    """The file descriptor under ``stream``, if it has one."""
    try:
        fd = stream.fileno()
    except (AttributeError, OSError, ValueError):  # io.UnsupportedOperation is both
        return None
    return fd if isinstance(fd, int) and fd >= 0 else None


def _output_fd(out: Any) -> int | None:
    """The file descriptor under ``out`` when records can be written to it
    directly (a file or standard output, on a Unix system), else None."""
    return _fileno(out) if os.name == "posix" else None


def _settle_block(
    block: bytes,
    first: int,
    known: dict[str, _core.RuleSet],
    default: str,
    out: Any,
    tally: Tally,
    fd: int | None,
) -> int:
    """Settles the lines of a block into ``out``, line ``first`` first;
    returns the number of the line after them. A block holding a round
    record goes line by line, the others to the core whole, which writes
    their records straight to ``fd`` when it is given (``out`` flushed
    first, so that the order holds): the block's 20-odd MB of records are
    never copied into one bytes object."""
    if _RECORD_MARK in block:
        _settle_items(_block_items(block), first, known, default, out, tally)
        return first + block.count(b"\n") + 1
    if fd is None:
        data, records, failed, count = _core.settle_json_block(block, known, default, first)
        assert data is not None
        out.write(data)
    else:
        out.flush()
        try:
            _, records, failed, count = _core.settle_json_block(block, known, default, first, fd=fd)
        except OSError as exc:
            # an output file names itself in its errors (capsa.cli.common)
            failure = getattr(out, "failure", None)
            if failure is None:
                raise
            raise failure(exc) from None
    tally.add(records, failed)
    return first + count


def _skip_line(rest: bytes, stream: IO[bytes]) -> tuple[int, bytes]:
    """Reads past the end of a line too long to be a round, begun by
    ``rest`` (never holding it whole): its length, and what follows it."""
    cut = rest.find(b"\n")
    if cut >= 0:
        return cut, rest[cut + 1 :]
    length = len(rest)
    while block := stream.read(_BLOCK):
        cut = block.find(b"\n")
        if cut >= 0:
            return length + cut, block[cut + 1 :]
        length += len(block)
    return length, b""


def _pieces(stream: IO[bytes], head: bytes) -> Iterator[bytes | int]:
    """``head`` then ``stream`` cut into what is settled, in order: blocks
    of whole lines (without the block's last line feed), and the length of
    each line too long to be a round, never read whole."""
    rest, end = head, False
    while rest or not end:
        if not end and len(rest) < _BLOCK:
            block = stream.read(_BLOCK)
            end, rest = not block, rest + block
            continue
        cut = rest.rfind(b"\n", 0, 2 * _BLOCK)
        if cut >= 0:
            yield rest[:cut]
            rest = rest[cut + 1 :]
        elif len(rest) > _core.MAX_LINE_BYTES:
            length, rest = _skip_line(rest, stream)
            yield length
        elif not end:
            block = stream.read(_BLOCK)
            end, rest = not block, rest + block
        else:
            yield rest
            rest = b""


_DONE = object()


def _read_ahead(pieces: Iterator[bytes | int], depth: int = 2) -> Iterator[bytes | int]:
    """The items of ``pieces``, made on a thread of their own up to
    ``depth`` ahead, so that reading and cutting the next block overlaps
    settling this one (the core settles without the GIL). An error of the
    reading is raised here, in its place; leaving early stops the thread.
    Only for a regular file (:func:`_reads_ahead`), whose reads end soon:
    a thread waiting on a pipe would hold up an interrupt until input came."""
    ready: queue.Queue[tuple[Any, BaseException | None]] = queue.Queue(maxsize=depth)
    stop = threading.Event()

    def put(item: tuple[Any, BaseException | None]) -> bool:
        while not stop.is_set():
            try:
                ready.put(item, timeout=0.1)
                return True
            except queue.Full:
                continue
        return False

    def produce() -> None:
        try:
            for piece in pieces:
                if not put((piece, None)):
                    return
            put((_DONE, None))
        except BaseException as exc:  # handed to the reading side, raised there
            put((None, exc))

    thread = threading.Thread(target=produce, name="capsa-settle-reader", daemon=True)
    thread.start()
    try:
        while True:
            piece, error = ready.get()
            if error is not None:
                raise error
            if piece is _DONE:
                return
            yield piece
    finally:
        stop.set()
        thread.join()


def _reads_ahead(stream: IO[bytes]) -> bool:
    """Whether ``stream`` is read a block ahead on a thread: a regular file
    (given by name or redirected to standard input), not a pipe or a
    terminal, whose reads may wait for input indefinitely."""
    fd = _fileno(stream)
    try:
        return fd is not None and stat.S_ISREG(os.fstat(fd).st_mode)
    except OSError:
        return False


def settle_lines(
    stream: IO[bytes], known: dict[str, _core.RuleSet], default: str, out: Any, head: bytes = b""
) -> Tally:
    """Settles every line of ``head`` then ``stream`` into ``out``: a round,
    or a round record (replayed, then settled as the round it holds, under
    its own rules). Returns the tally.

    The input is read a block at a time (a block ahead on a thread of its
    own when it is a regular file), and the complete lines of each are
    settled together; a line that outgrows a round is skipped, only its
    length kept."""
    tally = Tally()
    fd = _output_fd(out)
    number = 1
    pieces = _pieces(stream, head)
    for piece in _read_ahead(pieces) if _reads_ahead(stream) else pieces:
        if isinstance(piece, int):
            _settle_items(iter([piece]), number, known, default, out, tally)
            number += 1
        else:
            number = _settle_block(piece, number, known, default, out, tally, fd)
    return tally


def settle_document(
    text: bytes, known: dict[str, _core.RuleSet], default: str, indent: int | None, out: Any
) -> Tally:
    """Settles one JSON document into ``out``; returns the tally."""
    tally = Tally()
    if is_blank(text):
        return tally
    if indent is None:
        # written as settled, so the output is never held whole
        failed = _core.write_json_document(text, known, out.write, default)
    else:
        data, failed = _core.settle_json_document(text, known, default, indent)
        out.write(data)
    out.write(b"\n")
    tally.add(_document_rounds(text) if failed else 0, int(failed))
    return tally


def _document_rounds(text: bytes) -> int:
    """How many rounds a document holds (counted only when some failed: a
    document that is not JSON is one failed round)."""
    try:
        data = json.loads(text.removeprefix(b"\xef\xbb\xbf"))
    except (ValueError, RecursionError):
        return 1
    return len(data) if isinstance(data, list) else 1


def settle_stream(args: argparse.Namespace, default: Rules, out: Any) -> Tally:
    """Settles the JSON input of ``args`` (``--format`` json, jsonl or auto)
    into ``out``; returns the tally. ``out`` may have a
    ``document`` attribute, set to whether the input was one document."""
    known: dict[str, _core.RuleSet] = dict(default_known_rules(default))
    with contextlib.ExitStack() as stack:
        stream = open_input(args.input, stack)
        fmt, head = args.format, b""
        if fmt == "auto":
            fmt, head = sniff(stream)
        if hasattr(out, "document"):
            out.document = fmt == "json"
        if fmt == "json":
            text = head if args.format == "auto" else read_document(stream)
            return settle_document(text, known, default.name, args.indent, out)
        return settle_lines(stream, known, default.name, out, head)


def finish(tally: Tally, strict: bool) -> int:
    """Reports failed rounds; the exit code: ``EXIT_FAILED`` when rounds
    were read and none could be settled, or under ``strict`` when any
    failed, else 0."""
    every = tally.rounds > 0 and tally.failed >= tally.rounds
    if tally.failed:
        none = "; none was settled" if every else ""
        print(f"capsa settle: {tally.failed} round(s) could not be settled{none}", file=sys.stderr)
    return EXIT_FAILED if every or (tally.failed and strict) else 0
