"""Per-row win-probability tables of the arranging solver, one file per preset.

``<preset>.bin`` holds, for the top, middle and bottom rows, the distribution
of a well-playing opponent's row hands over rank classes (``strength >> 10``:
category and rank key, suits ignored), computed by iterated best response.
Files are keyed by rank-class value, never by an internal index.

Format: ``CAPSATB1``, a little-endian u32 length and that many bytes of
``key=value`` lines (the rules the tables were trained for, training
parameters, ``scoop_rate``), then per row a varint count and (varint class
delta, varint weight) pairs.

Regenerate (then rebuild the extension, which embeds them)::

    python -m capsa.tables train --preset pagat
    python -m capsa.tables train --all

``TABLES_DIR`` is the folder of the shipped files (a ``pathlib.Path``).
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from collections.abc import Sequence
from pathlib import Path

__all__ = ["TABLES_DIR", "main"]

TABLES_DIR = Path(__file__).resolve().parent


def main(argv: Sequence[str] | None = None) -> int:
    """Runs ``python -m capsa.tables``: ``train`` (``--preset NAME``, ``--all``
    or ``--rules FILE``; ``--hands``, ``--iterations``, ``--seed``,
    ``--seats``, ``--out``) writes tables files, ``info [--preset NAME]``
    prints which tables the solver uses.

    ``argv`` is the argument list (default: ``sys.argv[1:]``). Returns 0.

    Raises ``SystemExit`` for a usage error (argparse's exit code 2) or
    ``--help``; ``RulesError`` for a rules file that cannot be read;
    ``ArgumentError`` for a training size :func:`capsa.solver.train_tables`
    refuses (``--hands 0``), as a traceback; ``OSError`` for an output file
    that cannot be written.
    """
    from capsa.rules import Rules, presets
    from capsa.solver import tables_info, train_tables

    parser = argparse.ArgumentParser(prog="python -m capsa.tables")
    sub = parser.add_subparsers(dest="command", required=True)
    tr = sub.add_parser("train", help="compute tables by iterated best response")
    group = tr.add_mutually_exclusive_group(required=True)
    group.add_argument("--preset", choices=presets())
    group.add_argument("--all", action="store_true", help="every preset")
    group.add_argument("--rules", type=Path, help="a rules TOML file")
    tr.add_argument("--hands", type=int, default=160_000)
    tr.add_argument("--iterations", type=int, default=4)
    tr.add_argument("--seed", type=int, default=1)
    tr.add_argument("--seats", type=int, default=4)
    tr.add_argument("--out", type=Path, help="output file (default: the shipped file)")
    info = sub.add_parser("info", help="show which tables the solver uses for rules")
    info.add_argument("--preset", choices=presets(), default="capsa-susun")
    args = parser.parse_args(list(sys.argv[1:] if argv is None else argv))

    if args.command == "info":
        for k, v in tables_info(Rules.preset(args.preset)).items():
            print(f"{k} = {v}")
        return 0
    jobs: list[tuple[str, Rules, Path]] = []
    if args.rules:
        rules = Rules.load(args.rules)
        # a tables name is a safe word: the rules name with other characters replaced
        name = re.sub(r"[^A-Za-z0-9_.-]", "-", rules.name)[:64].strip(".") or "custom"
        jobs.append((name, rules, args.out or Path(f"{name}.bin")))
    else:
        for name in presets() if args.all else [args.preset]:
            jobs.append((name, Rules.preset(name), args.out or TABLES_DIR / f"{name}.bin"))
    for name, rules, out in jobs:
        start = time.time()
        data = train_tables(
            rules,
            seats=args.seats,
            hands=args.hands,
            iterations=args.iterations,
            seed=args.seed,
            name=name,
        )
        out.write_bytes(data)
        print(f"{name}: {len(data)} bytes -> {out} ({time.time() - start:.0f}s)")
    print("rebuild the extension (pip install -e .) to embed shipped tables")
    return 0
