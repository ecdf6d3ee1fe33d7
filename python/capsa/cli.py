"""The ``capsa`` command line.

``capsa play`` deals, arranges and settles a table; ``capsa settle`` settles
rounds read as JSON or JSON Lines; ``capsa rank`` ranks a hand; ``capsa
presets`` and ``capsa rules`` show the rules data.
"""

from __future__ import annotations

import argparse
import contextlib
import itertools
import json
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import IO

from capsa import _core
from capsa.cards import deal, format_cards
from capsa.rules import Rules, RulesError, presets
from capsa.settlement import Seat, settle
from capsa.solver import best_arrangement, rank_arrangements

__all__ = ["main"]

_CHUNK = 4_096


def _load_rules(spec: str | None) -> Rules:
    if spec is None:
        return Rules()
    if spec in presets():
        return Rules.preset(spec)
    if Path(spec).is_file():
        return Rules.load(spec)
    raise RulesError(f"--rules {spec!r} is neither a preset ({', '.join(presets())}) nor a file")


def _cmd_play(args: argparse.Namespace) -> int:
    rules = _load_rules(args.rules)
    hands = deal(args.seats, seed=args.seed)
    print(f"capsa play: {args.seats} seats, rules {rules.name}, seed {args.seed}")
    print()
    seats = []
    for k, hand in enumerate(hands):
        choice = best_arrangement(hand, rules, seats=args.seats)
        natural = _core.natural(hand, rules)
        print(f"seat {k}: {format_cards(hand, 'symbol')}")
        print(
            f"        arranged {choice.arrangement}  "
            f"(solver: expected {choice.expected_points:+.2f} points)"
        )
        if natural:
            verb = "declares" if choice.declare_natural else "holds but does not declare"
            print(f"        {verb} the natural {natural}")
        seats.append(Seat(choice.arrangement, declare_natural=choice.declare_natural))
    print()
    stake = args.stake if args.stake is not None else rules["money.stake"]
    result = settle(seats, rules, stake)
    print(result.explain())
    return 0


def _is_json(line: str) -> bool:
    try:
        json.loads(line)
    except json.JSONDecodeError:
        return False
    return True


def _cmd_settle(args: argparse.Namespace) -> int:
    default = _load_rules(args.rules)
    known = {name: Rules.preset(name)._engine for name in presets()}
    known[default.name] = default._engine
    errors = 0
    with contextlib.ExitStack() as stack:
        stream: IO[str] = (
            sys.stdin
            if args.input in (None, "-")
            else stack.enter_context(open(args.input, encoding="utf-8"))
        )
        first = stream.readline()
        while first and not first.strip():
            first = stream.readline()
        fmt = args.format
        if fmt == "auto":
            one_line_round = first.lstrip().startswith("{") and _is_json(first)
            fmt = "jsonl" if one_line_round else "json"
        if fmt == "json":
            errors = _settle_document(first + stream.read(), known, default.name, args.indent)
        else:
            lines = itertools.chain([first], stream)
            for start, chunk in _chunks(lines):
                text, failed = _core.settle_json_lines(chunk, known, default.name, start)
                errors += failed
                sys.stdout.write(text)
    if errors:
        print(f"capsa settle: {errors} round(s) could not be settled", file=sys.stderr)
    return 1 if errors and args.strict else 0


def _settle_document(
    text: str, known: dict[str, _core.RuleSet], default: str, indent: int | None
) -> int:
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        record = {"line": exc.lineno, "error": "TableError", "message": f"malformed JSON: {exc}"}
        sys.stdout.write(json.dumps(record) + "\n")
        return 1
    rounds = doc if isinstance(doc, list) else [doc]
    texts = [json.dumps(r) for r in rounds]
    # in a document, "line" in an error record is the round's position (from 1)
    text, _ = _core.settle_json_lines(texts, known, default, 1)
    results = [json.loads(line) for line in text.splitlines()]
    json.dump(results if isinstance(doc, list) else results[0], sys.stdout, indent=indent)
    sys.stdout.write("\n")
    return sum("error" in r for r in results)


def _chunks(lines: Iterable[str]) -> Iterator[tuple[int, list[str]]]:
    """Yields (number of the first line, consecutive non-blank lines)."""
    chunk: list[str] = []
    start = 0
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            if chunk:
                yield start, chunk
                chunk = []
            continue
        if not chunk:
            start = number
        chunk.append(line)
        if len(chunk) >= _CHUNK:
            yield start, chunk
            chunk = []
    if chunk:
        yield start, chunk


def _cmd_rank(args: argparse.Namespace) -> int:
    rules = _load_rules(args.rules)
    value = _core.evaluate(" ".join(args.cards), rules)
    print(f"{format_cards(value.cards)}: {value.category} (strength {value.strength})")
    return 0


def _cmd_arrange(args: argparse.Namespace) -> int:
    rules = _load_rules(args.rules)
    cards = " ".join(args.cards)
    natural = _core.natural(cards, rules)
    choices = rank_arrangements(cards, rules, k=args.k, seats=args.seats)
    print(f"rules {rules.name}, {args.seats} seats; expected points against all opponents")
    print(f"{'#':>2}  {'top':<10} {'middle':<16} {'bottom':<16} {'expected':>9}  note")
    for k, c in enumerate(choices, start=1):
        a = c.arrangement
        note = f"declare {natural}" if c.declare_natural and natural else ""
        print(
            f"{k:>2}  {format_cards(a.top):<10} {format_cards(a.middle):<16} "
            f"{format_cards(a.bottom):<16} {c.expected_points:>+9.3f}  {note}"
        )
    return 0


def _cmd_presets(args: argparse.Namespace) -> int:
    for name in presets():
        print(name)
    return 0


def _cmd_rules(args: argparse.Namespace) -> int:
    sys.stdout.write(_load_rules(args.name).to_toml())
    return 0


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="capsa",
        description="Capsa Susun / Chinese poker engine: deal, rank, arrange and settle.",
    )
    sub = p.add_subparsers(dest="command", metavar="COMMAND")

    play = sub.add_parser("play", help="deal a table, arrange every seat, settle and explain")
    play.add_argument("--seats", type=int, default=4, help="2 to 4 (default 4)")
    play.add_argument("--seed", type=int, default=None, help="reproducible deal")
    play.add_argument("--rules", help="a preset name or a rules TOML file")
    play.add_argument("--stake", type=int, default=None, help="minor units per point")
    play.set_defaults(run=_cmd_play)

    st = sub.add_parser(
        "settle",
        help="settle rounds read as JSON Lines (one round a line) or one JSON document",
        description="Reads rounds from FILE or standard input and writes settlements. "
        "A round that cannot be settled yields an error record naming its line.",
    )
    st.add_argument("input", nargs="?", help="input file (default: standard input)")
    st.add_argument("--rules", help="rules for rounds that name none (preset or TOML file)")
    st.add_argument("--format", choices=["auto", "jsonl", "json"], default="auto")
    st.add_argument("--indent", type=int, default=None, help="indent a JSON document output")
    st.add_argument("--strict", action="store_true", help="exit 1 when any round failed")
    st.set_defaults(run=_cmd_settle)

    rank = sub.add_parser("rank", help="rank a 3- or 5-card hand")
    rank.add_argument("cards", nargs="+", help='cards, e.g. "As Ks Qs Js Ts"')
    rank.add_argument("--rules", help="a preset name or a rules TOML file")
    rank.set_defaults(run=_cmd_rank)

    arrange = sub.add_parser("arrange", help="the best arrangements of 13 cards")
    arrange.add_argument("cards", nargs="+", help="13 cards")
    arrange.add_argument("--rules", help="a preset name or a rules TOML file")
    arrange.add_argument("-k", type=int, default=5, help="how many arrangements (default 5)")
    arrange.add_argument("--seats", type=int, default=4, help="table size (default 4)")
    arrange.set_defaults(run=_cmd_arrange)

    pr = sub.add_parser("presets", help="list the shipped rule presets")
    pr.set_defaults(run=_cmd_presets)

    rules = sub.add_parser("rules", help="print a preset's (or file's) rules as TOML")
    rules.add_argument("name", nargs="?", default=None)
    rules.set_defaults(run=_cmd_rules)
    return p


def main(argv: list[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    if not getattr(args, "run", None):
        parser.print_help()
        return 0
    try:
        return int(args.run(args))
    except _core.CapsaError as exc:
        print(f"capsa {args.command}: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # pragma: no cover - e.g. piped into head
        return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
