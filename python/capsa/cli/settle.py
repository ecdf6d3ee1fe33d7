"""``capsa settle``: rounds read as JSON Lines (one round a line), one JSON
document or Parquet, settled, one record per round written out.

JSON in and JSON out to standard output streams through
:mod:`capsa.cli.settle_stream`; Parquet on either side, or an output file,
goes through :mod:`capsa.cli.settle_files`.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from capsa.cli import settle_files
from capsa.cli.common import add_seats, int_in, load_rules
from capsa.cli.settle_stream import finish, settle_stream

__all__ = ["register"]


def _run(args: argparse.Namespace) -> int:
    if settle_files.handles(args):
        return settle_files.run(args)
    default = load_rules(args.rules)
    out = sys.stdout.buffer
    tally = settle_stream(args, default, out)
    out.flush()
    return finish(tally, args.strict)


def register(subparsers: Any) -> None:
    """Adds ``capsa settle``."""
    st = subparsers.add_parser(
        "settle",
        help="settle rounds read as JSON Lines (one round a line) or one JSON document",
        description="Reads rounds (or round records) from FILE or standard input and writes "
        "one record per round. A round that cannot be settled yields an error record naming "
        "its line; the others go on. Exit 1 when none could be settled.",
    )
    st.add_argument("input", nargs="?", help="input file (default: standard input)")
    st.add_argument("--rules", help="rules for rounds that name none (preset or TOML file)")
    st.add_argument(
        "--format",
        choices=["auto", "jsonl", "json", "parquet"],
        default="auto",
        help="the input's format (default: auto, told from the file's first bytes)",
    )
    st.add_argument("-o", "--output", help="output file; a .parquet one gets the results table")
    st.add_argument(
        "--indent", type=int_in(0, 16, "--indent"), default=None, help="indent a document's output"
    )
    add_seats(st, "seat columns of a Parquet output (a round of more is an error record)")
    st.add_argument("--strict", action="store_true", help="exit 1 when any round failed")
    st.set_defaults(run=_run)
