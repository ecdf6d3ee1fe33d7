"""``capsa tables``: train the solver's tables, check the shipped ones, show
which ones the solver uses (see :mod:`capsa.tables`).

``train`` writes ``./<preset>.bin`` (``--out`` a file or a folder;
``--ship`` the shipped files of a source checkout); ``check`` retrains the
shipped files and compares the bytes (exit 1 when one differs); ``info``
shows a preset's tables metadata.
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from pathlib import Path
from typing import Any

from capsa import tables
from capsa.bulk.columns import MAX_SEATS
from capsa.cli.common import UsageError, check_writable, int_in, write_file
from capsa.rules import Rules, presets
from capsa.solver import TRAIN_DEFAULTS, TRAINER_VERSION, tables_info, train_tables

__all__ = ["register"]

# the training's parameters: what each is, and its range (solver.train_tables)
_TRAINING = {
    "hands": ("hands dealt a round of training", 1, 10_000_000),
    "iterations": ("rounds of the solver against the tables so far", 0, 100),
    "seed": ("the deals' seed", 0, 2**64 - 1),
    "seats": ("the table size the opponents play for", 2, MAX_SEATS),
}


def register(subparsers: Any) -> None:
    """Adds ``capsa tables``: train, check and info."""
    parser = subparsers.add_parser(
        "tables",
        help="the solver's tables: train, check, inspect",
        description="Solver tables: train, check, inspect.",
    )
    parser.set_defaults(run=_run)
    sub = parser.add_subparsers(dest="tables_command", metavar="COMMAND", required=True)
    tr = sub.add_parser("train", help="compute tables by iterated best response")
    group = tr.add_mutually_exclusive_group(required=True)
    group.add_argument("--preset", choices=presets(), help="a preset's tables")
    group.add_argument("--all", action="store_true", help="every preset")
    group.add_argument("--rules", type=Path, help="a rules TOML file")
    for key, (what, low, high) in _TRAINING.items():
        default = TRAIN_DEFAULTS[key]
        tr.add_argument(
            f"--{key}",
            type=int_in(low, high, f"--{key}"),
            default=default,
            help=f"{what}, {low} to {high} (default: {default})",
        )
    where = tr.add_mutually_exclusive_group()
    where.add_argument("--out", type=Path, help="output file (one job) or directory")
    where.add_argument(
        "--ship",
        action="store_true",
        help="replace the shipped files of a source checkout (presets only)",
    )
    check = sub.add_parser("check", help="retrain shipped tables and compare the bytes")
    group = check.add_mutually_exclusive_group(required=True)
    group.add_argument("--preset", choices=presets(), help="a preset's shipped tables")
    group.add_argument("--all", action="store_true", help="every preset")
    info = sub.add_parser("info", help="show which tables the solver uses for rules")
    info.add_argument(
        "--preset",
        choices=presets(),
        default="capsa-susun",
        help="the rules whose tables to show (default: capsa-susun)",
    )


def _safe_name(name: str) -> str:
    # a tables name is a safe word: the rules name with other characters replaced
    return re.sub(r"[^A-Za-z0-9_.-]", "-", name)[:64].strip(".") or "custom"


def _train(args: argparse.Namespace) -> int:
    if args.ship and args.rules:
        raise UsageError("--ship replaces preset tables; use --out for --rules")
    target = tables.source_tables_dir() if args.ship else None
    if args.ship and target is None:
        raise UsageError("--ship needs a source checkout; this package is installed, use --out")
    if args.rules:
        rules = Rules.load(args.rules)
        jobs = [(_safe_name(rules.name), rules)]
    else:
        jobs = [(n, Rules.preset(n)) for n in (presets() if args.all else [args.preset])]
    if args.out is not None and len(jobs) > 1 and not args.out.is_dir():
        raise UsageError("--out must be a directory when training several")
    outputs = [_output(name, args.out, target) for name, _ in jobs]
    for out in outputs:
        check_writable(out)
    written: list[Path] = []
    for (name, rules), out in zip(jobs, outputs, strict=True):
        start = time.monotonic()
        # one call into the core that runs for minutes: say what it is doing
        print(
            f"{name}: training, {args.hands:,} hands a round, {args.iterations} rounds "
            "(about 75 s a preset on two cores at the defaults)",
            file=sys.stderr,
            flush=True,
        )
        data = train_tables(
            rules,
            seats=args.seats,
            hands=args.hands,
            iterations=args.iterations,
            seed=args.seed,
            name=name,
            progress=_Progress(name),
        )
        write_file(out, data)
        written.append(out)
        print(f"{name}: {len(data)} bytes -> {out} ({time.monotonic() - start:.0f} s)")
    _advise(written, shipped=target is not None)
    return 0


class _Progress:
    """A training's progress on standard error: one line rewritten in place
    on a terminal, else a line at every tenth (a log's reader sees it move)."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.live = sys.stderr.isatty()
        self.tenth = -1

    def __call__(self, done: int, total: int) -> None:
        percent = 100 * done // max(total, 1)
        if self.live:
            end = "\n" if done >= total else ""
            text = f"\r{self.name}: {percent}% ({done:,} of {total:,} deals){end}"
            print(text, end="", file=sys.stderr, flush=True)
        elif percent // 10 > self.tenth:
            self.tenth = percent // 10
            print(f"{self.name}: {percent}% of {total:,} deals", file=sys.stderr, flush=True)


def _output(name: str, out: Path | None, ship_dir: Path | None) -> Path:
    if ship_dir is not None:
        return ship_dir / f"{name}.bin"
    if out is None:
        return Path(f"{name}.bin")
    return out / f"{name}.bin" if out.is_dir() else out


def _advise(written: list[Path], *, shipped: bool) -> None:
    if shipped:
        print(
            "the solver embeds its tables when the extension is built: "
            "rebuild it (pip install -e .) to use these"
        )
        return
    for path in written:
        print(
            f"use {path} with the solver's tables= argument, e.g. "
            f"capsa.solver.best_arrangement(cards, rules, tables={str(path)!r})"
        )


def _check(args: argparse.Namespace) -> int:
    failed = 0
    for name in presets() if args.all else [args.preset]:
        shipped = tables.shipped(name)
        if shipped is None:
            print(f"{name}: ships no tables of its own (the nearest shipped tables play it)")
            failed += not args.all
            continue
        meta = tables_info(Rules.preset(name), shipped)
        if int(meta["trainer"]) != TRAINER_VERSION:
            print(f"{name}: trained by trainer {meta['trainer']}, current is {TRAINER_VERSION}")
            failed += 1
            continue
        start = time.monotonic()
        fresh = train_tables(
            Rules.preset(name),
            **{k: int(meta[k]) for k in ("seats", "hands", "iterations", "seed")},
            name=name,
            progress=_Progress(name),
        )
        verdict = "identical" if fresh == shipped else "DIFFERENT"
        failed += fresh != shipped
        print(f"{name}: {verdict} ({time.monotonic() - start:.0f} s)")
    return 1 if failed else 0


def _run(args: argparse.Namespace) -> int:
    if args.tables_command == "info":
        for k, v in tables_info(Rules.preset(args.preset)).items():
            print(f"{k} = {v}")
        return 0
    if args.tables_command == "check":
        return _check(args)
    return _train(args)
