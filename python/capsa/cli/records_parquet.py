"""``capsa records to-parquet``: a record log written as a Parquet rounds
table for analytics (:func:`capsa.bulk.record_tables.to_parquet`).

Every record is read and replayed. A record that fails is one JSON line on
standard output, in the shape ``capsa replay`` gives (keys sorted:
``error``, ``fields``, ``line``, ``message``, ``round_id``), and the others
go on; exit 1 when any failed. A void record has no seats to be a row: it
is left out and counted on standard error, never a failure.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
from typing import Any

from capsa._core import TableError
from capsa.cli.common import EXIT_FAILED, UsageError, add_seats, check_writable, open_input
from capsa.records import RecordError, ReplayError

__all__ = ["register"]


def _error_line(line: int, round_id: str | None, exc: Exception) -> bytes:
    if isinstance(exc, ReplayError):
        fields = list(exc.fields)
    elif isinstance(exc, RecordError):
        fields = [exc.field]
    else:  # a stakes matrix the rounds schema cannot hold
        fields = ["stakes"]
    record = {
        "error": type(exc).__name__,
        "fields": fields,
        "line": line,
        "message": str(exc),
        "round_id": round_id,
    }
    return json.dumps(record, sort_keys=True, separators=(",", ":")).encode() + b"\n"


def _to_parquet(args: argparse.Namespace) -> int:
    try:
        import pyarrow as pa
    except ImportError:
        raise UsageError("Parquet needs pyarrow: pip install 'capsa[parquet]'") from None
    from capsa.bulk.record_tables import to_parquet

    if not args.output.lower().endswith((".parquet", ".pq")):
        raise UsageError(f"-o {args.output}: the output is a Parquet file (.parquet)")
    check_writable(args.output)
    out = sys.stdout.buffer

    def report(
        line: int, round_id: str | None, exc: RecordError | ReplayError | TableError
    ) -> None:
        out.write(_error_line(line, round_id, exc))

    void: list[str] = []
    with contextlib.ExitStack() as stack:
        stream = open_input(args.input, stack)
        try:
            written, failed = to_parquet(
                stream,
                args.output,
                on_error=report,
                on_void=lambda _, r: void.append(r),
                seats=args.seats,
            )
        except (OSError, pa.ArrowException) as exc:
            reason = getattr(exc, "strerror", None) or str(exc)
            raise UsageError(f"cannot write {args.output}: {reason}") from None
    out.flush()
    if void:
        print(
            f"capsa records to-parquet: {len(void)} void round(s) left out (no seats)",
            file=sys.stderr,
        )
    if failed:
        total = written + failed + len(void)
        print(f"capsa records to-parquet: {failed} of {total} record(s) failed", file=sys.stderr)
    return EXIT_FAILED if failed else 0


def register(subparsers: Any) -> None:
    """Adds ``capsa records`` and its verbs."""
    group = subparsers.add_parser(
        "records",
        help="round records (JSON Lines) for analytics",
        description="Round records turned into data for analytics (docs/bulk.md).",
    )
    verbs = group.add_subparsers(dest="verb", metavar="VERB", required=True)
    parquet = verbs.add_parser(
        "to-parquet",
        help="write a record log as a Parquet rounds table with each seat's outcome",
        description="Replays every record and writes the rounds, each seat's outcome and "
        "the record's ids as Parquet. A record that fails is one JSON line on standard "
        "output and the others go on; exit 1 when any failed.",
    )
    parquet.add_argument("input", nargs="?", help="records file (default: standard input)")
    parquet.add_argument("-o", "--output", required=True, help="the Parquet file to write")
    add_seats(parquet, "seat columns of the table (a record of more fails)")
    parquet.set_defaults(run=_to_parquet)
