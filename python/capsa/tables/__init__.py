"""Per-row win-probability tables of the arranging solver, one file per preset.

``<preset>.bin`` holds, for the top, middle and bottom rows, the distribution
of a well-playing opponent's row hands over rank classes (``strength >> 10``:
category and rank key, suits ignored), computed by iterated best response,
and how the three rows move together (a copula: the hands counted in a grid
of their three rows' percentiles). Files are
keyed by rank-class value, never by an internal index.

Format: ``CAPSATB1``, a little-endian u32 length and that many bytes of
``key=value`` lines (the rules the tables were trained for, the trainer
version, the training parameters, ``scoop_rate``), then per row a varint
count and (varint class delta, varint weight) pairs, then the joint section:
varint bins and bins^3 varint counts (top bin, then middle, then bottom).
Tables without the joint section are read too.

Commands (``python -m capsa.tables``)::

    train --preset pagat            # writes ./pagat.bin
    train --rules house.toml        # writes ./<rules name>.bin
    train --all --ship              # regenerates the shipped files (source checkout)
    check --preset pagat            # retrains, compares with the shipped bytes
    info --preset pagat             # metadata of the tables the solver uses

Training with the defaults takes about 4.5 min per preset on two cores; the
shipped files are the output of ``train --all --ship`` byte for byte, and
``check --all`` proves it (about 28 minutes).

``TABLES_DIR`` is the folder of the package's tables files (a ``pathlib.Path``).
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from collections.abc import Sequence
from pathlib import Path

__all__ = ["TABLES_DIR", "main", "source_tables_dir"]

#: Where the package's tables files are (the ones embedded at build time
#: when this is a source checkout).
TABLES_DIR = Path(__file__).resolve().parent


def source_tables_dir() -> Path | None:
    """The tables directory of a source checkout (beside ``Cargo.toml``,
    whose build embeds it), or ``None`` for an installed package, which
    training never writes into. Raises nothing."""
    root = TABLES_DIR.parent.parent.parent
    if (root / "Cargo.toml").is_file() and (root / "src" / "solver").is_dir():
        return TABLES_DIR
    return None


def _parser() -> argparse.ArgumentParser:
    from capsa.rules import presets
    from capsa.solver import TRAIN_DEFAULTS

    parser = argparse.ArgumentParser(
        prog="python -m capsa.tables", description="Solver tables: train, check, inspect."
    )
    sub = parser.add_subparsers(dest="command", required=True)
    tr = sub.add_parser("train", help="compute tables by iterated best response")
    group = tr.add_mutually_exclusive_group(required=True)
    group.add_argument("--preset", choices=presets())
    group.add_argument("--all", action="store_true", help="every preset")
    group.add_argument("--rules", type=Path, help="a rules TOML file")
    for key in ("hands", "iterations", "seed", "seats"):
        tr.add_argument(f"--{key}", type=int, default=TRAIN_DEFAULTS[key])
    where = tr.add_mutually_exclusive_group()
    where.add_argument("--out", type=Path, help="output file (one job) or directory")
    where.add_argument(
        "--ship",
        action="store_true",
        help="replace the shipped files of a source checkout (presets only)",
    )
    check = sub.add_parser("check", help="retrain shipped tables and compare the bytes")
    group = check.add_mutually_exclusive_group(required=True)
    group.add_argument("--preset", choices=presets())
    group.add_argument("--all", action="store_true", help="every preset")
    info = sub.add_parser("info", help="show which tables the solver uses for rules")
    info.add_argument("--preset", choices=presets(), default="capsa-susun")
    return parser


def _safe_name(name: str) -> str:
    # a tables name is a safe word: the rules name with other characters replaced
    return re.sub(r"[^A-Za-z0-9_.-]", "-", name)[:64].strip(".") or "custom"


def _train(args: argparse.Namespace) -> int:
    from capsa.rules import Rules, presets
    from capsa.solver import train_tables

    if args.ship and args.rules:
        print("error: --ship replaces preset tables; use --out for --rules", file=sys.stderr)
        return 2
    target = source_tables_dir() if args.ship else None
    if args.ship and target is None:
        print(
            "error: --ship needs a source checkout; this package is installed "
            f"({TABLES_DIR}), use --out",
            file=sys.stderr,
        )
        return 2
    if args.rules:
        rules = Rules.load(args.rules)
        jobs = [(_safe_name(rules.name), rules)]
    else:
        jobs = [(n, Rules.preset(n)) for n in (presets() if args.all else [args.preset])]
    if args.out is not None and len(jobs) > 1 and not args.out.is_dir():
        print("error: --out must be a directory when training several", file=sys.stderr)
        return 2
    written: list[Path] = []
    for name, rules in jobs:
        out = _output(name, args.out, target)
        start = time.monotonic()
        data = train_tables(
            rules,
            seats=args.seats,
            hands=args.hands,
            iterations=args.iterations,
            seed=args.seed,
            name=name,
        )
        out.write_bytes(data)
        written.append(out)
        print(f"{name}: {len(data)} bytes -> {out} ({time.monotonic() - start:.0f} s)")
    _advise(written, shipped=target is not None)
    return 0


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
    from capsa.rules import Rules, presets
    from capsa.solver import TRAINER_VERSION, tables_info, train_tables

    failed = 0
    for name in presets() if args.all else [args.preset]:
        shipped = (TABLES_DIR / f"{name}.bin").read_bytes()
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
        )
        verdict = "identical" if fresh == shipped else "DIFFERENT"
        failed += fresh != shipped
        print(f"{name}: {verdict} ({time.monotonic() - start:.0f} s)")
    return 1 if failed else 0


def main(argv: Sequence[str] | None = None) -> int:
    """Runs ``python -m capsa.tables`` with ``argv`` (default:
    ``sys.argv[1:]``): ``train``, ``check`` or ``info`` (see the module
    docstring). Returns the exit code: 0 done (``check``: every file
    identical), 1 a ``check`` found a difference, 2 a usage error or a
    refused argument (a rules file that cannot be read, ``--hands 0``),
    reported as one line on standard error.

    Raises ``SystemExit`` for an argparse usage error (exit code 2) or
    ``--help``; ``OSError`` for an output file that cannot be written.
    """
    from capsa._core import CapsaError

    args = _parser().parse_args(list(sys.argv[1:] if argv is None else argv))
    try:
        return _run(args)
    except CapsaError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2


def _run(args: argparse.Namespace) -> int:
    if args.command == "info":
        from capsa.rules import Rules
        from capsa.solver import tables_info

        for k, v in tables_info(Rules.preset(args.preset)).items():
            print(f"{k} = {v}")
        return 0
    if args.command == "check":
        return _check(args)
    return _train(args)
