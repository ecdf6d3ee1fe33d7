"""``capsa verify`` and ``capsa replay``: round records checked.

``capsa verify FILE`` checks the provably fair deal of every round record of
a JSON Lines file (standard input without FILE), and with ``--commitments``
each record's commitment against a file of published ones; ``capsa replay
FILE`` replays every record and checks that each follows the one before it
in its table's chain. A log may interleave many tables: records are grouped
by ``table_id`` (format 1 records, and those of no table id, form one
table), and a round id or nonce used twice within a table is refused. Both
write one JSON line per record, in order (keys sorted):

* ``{"digest": ..., "line": n, "ok": true, "round_id": ...}`` (and
  ``"void": true`` for a void record: a round never dealt, whose commitment
  was published; verify checks its commitment, replay its digest and link),
  or
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
from capsa.cli.common import (
    EXIT_FAILED,
    EXIT_SETTLEMENT_VERSION,
    UsageError,
    digest_arg,
    is_blank,
    lines,
    open_input,
)
from capsa.records.chains import Chains
from capsa.records.read import (
    RecordError,
    ReplayError,
    SettlementVersionError,
    View,
    read_record,
    replay_view,
)

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


Check = Callable[[View, "str | EllipsisType | None"], str]


def _chains(args: argparse.Namespace, chain: bool) -> Chains:
    """Each table's first link: ``--first`` for every table, ``--previous``
    for the table of the input's first record, else not checked."""
    return Chains(None if chain and args.previous is None else ...)


def _check_one(
    view: View, chains: Chains, check: Check, chain: bool, first: bool, args: Any
) -> str:
    """Checks one record read: its round id and nonce unused in its table,
    then ``check`` against its table's link."""
    duplicates = chains.duplicates(view)
    if duplicates:
        raise ReplayError(view.round_id, duplicates, "repeats a round of its table")
    if chain and first and isinstance(args.previous, str):
        chains.start(view.table_id, args.previous)
    return check(view, chains.table(view.table_id).last if chain else ...)


def _check_records(args: argparse.Namespace, verb: str, check: Check, chain: bool) -> int:
    """Checks every record of the input with ``check``; with ``chain``, each
    must follow the record before it in its table (a record that cannot be
    read leaves the next link of every table unchecked: its table is not
    known)."""
    failed = total = unknown_version = 0
    out = sys.stdout.buffer
    chains = _chains(args, chain)
    with contextlib.ExitStack() as stack:
        stream = open_input(args.input, stack)
        for number, line in _records(stream):
            total += 1
            view: View | None = None
            try:
                if isinstance(line, int):
                    raise _overlong(number, line)
                view = read_record(line)
                digest = _check_one(view, chains, check, chain, total == 1, args)
            except (RecordError, ReplayError) as exc:
                failed += 1
                unknown_version += isinstance(exc, SettlementVersionError)
                _write(out, _error_record(number, exc, view.round_id if view else None))
                if view is not None:
                    chains.book(view, view.digest)
                else:
                    chains.unlink()
                continue
            done: dict[str, Any] = {
                "digest": digest, "line": number, "ok": True, "round_id": view.round_id
            }  # fmt: skip
            if isinstance(view, _core.VoidView):
                done["void"] = True
            _write(out, done)
            chains.book(view, digest)
    out.flush()
    if failed and unknown_version == failed:
        # not a failed check: this capsa cannot settle what the records hold
        print(
            f"capsa {verb}: {failed} of {total} record(s) written under a settlement "
            "version this capsa does not settle",
            file=sys.stderr,
        )
        return EXIT_SETTLEMENT_VERSION
    if failed:
        print(f"capsa {verb}: {failed} of {total} record(s) failed", file=sys.stderr)
    return EXIT_FAILED if failed else 0


_COMMITMENT_KEYS = frozenset({"round_id", "commitment", "table_id"})


def _load_commitments(path: str) -> dict[tuple[str | None, str], str]:
    """The commitments file: JSON Lines, each ``{"round_id": str,
    "commitment": 64 hex digits}`` with an optional ``"table_id"`` (a str or
    null); by (table id, round id). A ``UsageError`` names a bad line."""
    found: dict[tuple[str | None, str], str] = {}
    with contextlib.ExitStack() as stack:
        stream = open_input(path, stack)
        for number, line in _records(stream):
            where = f"--commitments {path}, line {number}"
            try:
                entry = json.loads(line) if isinstance(line, bytes) else None
            except (ValueError, RecursionError):
                entry = None
            if not isinstance(entry, dict) or not set(entry) <= {
                "round_id",
                "commitment",
                "table_id",
            }:
                raise UsageError(
                    f"{where}: each line is a JSON object of round_id, commitment and "
                    "optionally table_id"
                )
            given_round_id: Any = entry.get("round_id")
            try:
                # ids as the record reader reads them: an older record's too
                round_id = _core.check_id(given_round_id, "round_id", recorded=True)
                given_table_id = entry.get("table_id")
                table_id = (
                    None
                    if given_table_id is None
                    else _core.check_id(given_table_id, "table_id", recorded=True)
                )
            except (_core.CapsaError, TypeError) as exc:
                raise UsageError(f"{where}: {exc}") from None
            commitment = entry.get("commitment")
            try:
                if not isinstance(commitment, str):
                    raise argparse.ArgumentTypeError("commitment is a str of 64 hex digits")
                commitment = digest_arg("commitment")(commitment)
            except argparse.ArgumentTypeError as exc:
                raise UsageError(f"{where}: commitment {exc}") from None
            if (table_id, round_id) in found:
                raise UsageError(f"{where}: round {round_id!r} is listed twice")
            found[(table_id, round_id)] = commitment
    return found


def _published(args: argparse.Namespace, view: View) -> str | None:
    """The commitment the record must have: ``--commitment``, or its round's
    line of ``--commitments`` (a ``ReplayError`` when it has none)."""
    if args.commitments is None:
        return args.commitment  # type: ignore[no-any-return]
    key = (view.table_id, view.round_id)
    if key not in args.commitments:
        raise ReplayError(
            view.round_id,
            [("deal.commitment", "deal.commitment: the commitments file lists no commitment "
              "for this round")],
            "fails verification of its deal",
        )  # fmt: skip
    return args.commitments[key]  # type: ignore[no-any-return]


def _cmd_verify(args: argparse.Namespace) -> int:
    if args.commitments_file is not None:
        args.commitments = _load_commitments(args.commitments_file)

    def check(view: View, previous: str | EllipsisType | None) -> str:
        problems = view.verify_deal(_published(args, view))
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
    published = verify.add_mutually_exclusive_group()
    published.add_argument(
        "--commitment",
        type=digest_arg("--commitment"),
        help="the commitment published before the deal (every record must have it)",
    )
    published.add_argument(
        "--commitments",
        dest="commitments_file",
        metavar="FILE",
        help="JSON Lines of the commitments published before each deal: "
        '{"round_id": ..., "commitment": ..., "table_id": ... (optional)}',
    )
    verify.set_defaults(run=_cmd_verify, commitments=None)

    rep = subparsers.add_parser(
        "replay",
        help="replay round records (JSON Lines) and check their chain",
        description="Recomputes every derived field of each record and checks that each "
        "follows the record before it in its table. One JSON line per record; exit 1 when "
        "any failed.",
    )
    rep.add_argument("input", nargs="?", help="records file (default: standard input)")
    start = rep.add_mutually_exclusive_group()
    start.add_argument(
        "--previous",
        type=digest_arg("--previous"),
        default=...,
        help="the digest the input's first record must follow (default: not checked)",
    )
    start.add_argument(
        "--first",
        dest="previous",
        action="store_const",
        const=None,
        help="each table's first record starts its chain (its previous_digest is null)",
    )
    rep.set_defaults(run=_cmd_replay)
    records_parquet.register(subparsers)
