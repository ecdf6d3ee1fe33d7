"""The JSON side of ``capsa settle``: rounds read as JSON Lines or one JSON
document, settled by the core a chunk at a time, the records written to
any byte sink (standard output, a file, a Parquet writer)."""

from __future__ import annotations

import argparse
import contextlib
import sys
from typing import IO, Any

from capsa import _core
from capsa.bulk import default_known_rules
from capsa.cli.common import (
    EXIT_FAILED,
    Prefixed,
    is_blank,
    lines,
    open_input,
    read_document,
    sniff,
)
from capsa.rules import Rules

__all__ = ["finish", "settle_document", "settle_lines", "settle_stream"]

# Lines settled per call into the core: large enough to use every core,
# small enough that output starts at once and memory stays flat.
_CHUNK = 4_096


def settle_lines(
    stream: IO[bytes] | Prefixed, known: dict[str, _core.RuleSet], default: str, out: Any
) -> int:
    """Settles every line of ``stream`` into ``out``; returns how many failed."""
    failed = 0
    chunk: list[bytes | int] = []
    first = 1
    for number, line in enumerate(lines(stream), start=1):
        chunk.append(line)
        if len(chunk) >= _CHUNK:
            data, bad = _core.settle_json_lines(chunk, known, default, first)
            out.write(data)
            failed += bad
            chunk, first = [], number + 1
    if chunk:
        data, bad = _core.settle_json_lines(chunk, known, default, first)
        out.write(data)
        failed += bad
    return failed


def settle_document(
    text: bytes, known: dict[str, _core.RuleSet], default: str, indent: int | None, out: Any
) -> int:
    """Settles one JSON document into ``out``; returns how many rounds failed."""
    if is_blank(text):
        return 0
    if indent is None:
        # written as settled, so the output is never held whole
        failed = _core.write_json_document(text, known, out.write, default)
    else:
        data, failed = _core.settle_json_document(text, known, default, indent)
        out.write(data)
    out.write(b"\n")
    return int(failed)


def settle_stream(args: argparse.Namespace, default: Rules, out: Any) -> int:
    """Settles the JSON input of ``args`` (``--format`` json, jsonl or auto)
    into ``out``; returns how many rounds failed. ``out`` may have a
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
        source = Prefixed(head, stream) if head else stream
        return settle_lines(source, known, default.name, out)


def finish(failed: int, strict: bool) -> int:
    """Reports failed rounds; the exit code."""
    if failed:
        print(f"capsa settle: {failed} round(s) could not be settled", file=sys.stderr)
    return EXIT_FAILED if failed and strict else 0
