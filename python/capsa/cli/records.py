"""``capsa verify`` and ``capsa replay``: round records checked.

``capsa verify FILE`` checks the provably fair deal of every round record of
a JSON Lines file (standard input without FILE); ``capsa replay FILE``
replays every record and checks that each follows the one before it in the
table's chain. Both write one JSON line per record, in order (keys sorted):

* ``{"digest": ..., "line": n, "ok": true, "round_id": ...}``, or
* ``{"error": "RecordError"|"ReplayError", "fields": [...], "line": n,
  "message": ..., "round_id": ... or null}``: a record that cannot be read
  (``fields`` holds the one field named) or does not verify or replay
  (every field that differs); the next records go on.

Lines end at a line feed; blank lines (white space, after a byte-order mark
at the start of the line) give nothing; a line is at most
``capsa._core.MAX_LINE_BYTES`` (1 MiB; a record is about 5 KB), a longer one
is skipped, never held whole, and reported. Exit codes as the rest of the
command line (``capsa.cli``), and 1 when any record failed.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
from collections.abc import Callable, Iterator
from types import EllipsisType
from typing import IO, Any

from capsa import _core
from capsa.cli import records_parquet
from capsa.cli.common import EXIT_FAILED, digest_arg, is_blank, lines, open_input
from capsa.records import RecordError, ReplayError, read_record, replay_view

__all__ = ["register"]


def _write(out: IO[bytes], record: dict[str, Any]) -> None:
    out.write(json.dumps(record, sort_keys=True, separators=(",", ":")).encode() + b"\n")


def _error_record(
    line: int, exc: RecordError | ReplayError, round_id: str | None
) -> dict[str, Any]:
    fields = list(exc.fields) if isinstance(exc, ReplayError) else [exc.field]
    return {
        "error": type(exc).__name__,
        "fields": fields,
        "line": line,
        "message": str(exc),
        "round_id": round_id,
    }


def _records(stream: IO[bytes]) -> Iterator[tuple[int, bytes | int]]:
    """(line number, line) of every line that is not blank (a byte-order mark
    and white space are); an int for a line too long."""
    for number, line in enumerate(lines(stream), start=1):
        if isinstance(line, int) or not is_blank(line):
            yield number, line


def _overlong(line: int, length: int) -> RecordError:
    return RecordError(
        f"line {line} is {length} bytes long; a record is at most {_core.MAX_LINE_BYTES} bytes"
    )


Check = Callable[[_core.RecordView, "str | EllipsisType | None"], str]


def _check_records(args: argparse.Namespace, verb: str, check: Check, chain: bool) -> int:
    """Checks every record of the input with ``check``; with ``chain``, each
    must follow the record before it (a record that cannot be read leaves
    the next link unchecked)."""
    failed = total = 0
    out = sys.stdout.buffer
    previous: str | EllipsisType | None = args.previous if chain else ...
    with contextlib.ExitStack() as stack:
        stream = open_input(args.input, stack)
        for number, line in _records(stream):
            total += 1
            view: _core.RecordView | None = None
            try:
                if isinstance(line, int):
                    raise _overlong(number, line)
                view = read_record(line)
                digest = check(view, previous)
            except (RecordError, ReplayError) as exc:
                failed += 1
                _write(out, _error_record(number, exc, view.round_id if view else None))
                if chain:
                    previous = view.digest if view else ...
                continue
            _write(out, {"digest": digest, "line": number, "ok": True, "round_id": view.round_id})
            if chain:
                previous = digest
    out.flush()
    if failed:
        print(f"capsa {verb}: {failed} of {total} record(s) failed", file=sys.stderr)
    return EXIT_FAILED if failed else 0


def _cmd_verify(args: argparse.Namespace) -> int:
    def check(view: _core.RecordView, previous: str | EllipsisType | None) -> str:
        problems = view.verify_deal(args.commitment)
        if problems:
            raise ReplayError(view.round_id, problems, "fails verification of its deal")
        return view.digest

    return _check_records(args, "verify", check, chain=False)


def _cmd_replay(args: argparse.Namespace) -> int:
    return _check_records(args, "replay", replay_view, chain=True)


def register(subparsers: Any) -> None:
    """Adds ``capsa verify``, ``capsa replay`` and ``capsa records``."""
    verify = subparsers.add_parser(
        "verify",
        help="check the provably fair deal of round records (JSON Lines)",
        description="Checks each record's commitment and recomputes its hands from the "
        "revealed seeds. One JSON line per record; exit 1 when any failed.",
    )
    verify.add_argument("input", nargs="?", help="records file (default: standard input)")
    verify.add_argument(
        "--commitment",
        type=digest_arg("--commitment"),
        help="the commitment published before the deal (every record must have it)",
    )
    verify.set_defaults(run=_cmd_verify)

    rep = subparsers.add_parser(
        "replay",
        help="replay round records (JSON Lines) and check their chain",
        description="Recomputes every derived field of each record and checks that each "
        "follows the record before it. One JSON line per record; exit 1 when any failed.",
    )
    rep.add_argument("input", nargs="?", help="records file (default: standard input)")
    start = rep.add_mutually_exclusive_group()
    start.add_argument(
        "--previous",
        type=digest_arg("--previous"),
        default=...,
        help="the digest the first record must follow (default: not checked)",
    )
    start.add_argument(
        "--first",
        dest="previous",
        action="store_const",
        const=None,
        help="the first record starts the chain (its previous_digest is null)",
    )
    rep.set_defaults(run=_cmd_replay)
    records_parquet.register(subparsers)
