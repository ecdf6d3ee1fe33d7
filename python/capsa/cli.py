"""The ``capsa`` command line.

``capsa play`` deals, arranges and settles a table; ``capsa settle`` settles
rounds read as JSON Lines or one JSON document; ``capsa arrange`` and
``capsa rank`` look at one hand; ``capsa presets`` and ``capsa rules`` show
the rules data.

Every failure is one line on standard error and an exit code, each a
constant of this module:

* 0: done (``capsa settle`` without ``--strict``: even if some rounds failed,
  each one reported in the output);
* ``EXIT_FAILED_ROUNDS`` (1): ``capsa settle --strict`` and at least one
  round could not be settled;
* ``EXIT_USAGE`` (2): a usage or input error (a bad argument, an unknown
  preset, an unreadable file or rules file, cards that cannot be read);
* ``EXIT_INTERNAL`` (70): an internal error (a bug in capsa: please report
  it);
* ``EXIT_INTERRUPTED`` (130): interrupted.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO, NoReturn

from capsa import _core, bulk_cli
from capsa.arrangement import Arrangement
from capsa.cards import deal, format_cards
from capsa.rules import Rules, RulesError, presets
from capsa.settlement import Seat, settle
from capsa.solver import (
    EFFORTS,
    STRATEGIES,
    Choice,
    best_arrangement,
    format_choices,
    rank_arrangements,
)

__all__ = ["EXIT_FAILED_ROUNDS", "EXIT_INTERNAL", "EXIT_INTERRUPTED", "EXIT_USAGE", "main"]

EXIT_FAILED_ROUNDS = 1
EXIT_USAGE = 2
EXIT_INTERNAL = 70
EXIT_INTERRUPTED = 130

# Lines settled per call into the core: large enough to use every core,
# small enough that output starts at once and memory stays flat.
_CHUNK = 4_096
_SEED_LIMIT = 2**64


class UsageError(Exception):
    """A command-line argument or input that cannot be used (exit code 2)."""


class _Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line (and exit code 2)."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{message} (see '{self.prog} --help')")


def _int_in(low: int, high: int | None, what: str) -> Callable[[str], int]:
    """An argparse type: an integer from ``low`` to ``high`` (inclusive)."""

    def parse(text: str) -> int:
        try:
            value = int(text, 10)
        except ValueError:
            raise argparse.ArgumentTypeError(f"must be an integer, not {text!r}") from None
        if value < low or (high is not None and value > high):
            shown = text if len(text) <= 24 else text[:21] + "..."
            span = f"from {low} to {high}" if high is not None else f">= {low}"
            raise argparse.ArgumentTypeError(f"must be {span}, got {shown}")
        return value

    parse.__name__ = what
    return parse


def _load_rules(spec: str | None) -> Rules:
    if spec is None:
        return Rules()
    if spec in presets():
        return Rules.preset(spec)
    # os.path.exists is False for any path the system cannot look up
    if os.path.exists(spec):
        return Rules.load(spec)
    raise RulesError(f"--rules {spec!r} is neither a preset ({', '.join(presets())}) nor a file")


def _shown_arrangement(choice: Choice, natural: str | None, rules: Rules) -> Arrangement:
    """The rows a seat shows: for a declared natural made by its rows (three
    flushes, three straights, three straight flushes) the split that makes
    it; otherwise, the cards being the point, the solver's arrangement."""
    if natural is None or not choice.declare_natural:
        return choice.arrangement
    split = _core.natural_split(choice.arrangement.ids, natural, rules)
    return choice.arrangement if split is None else Arrangement.from_ids(split)


def _cmd_play(args: argparse.Namespace) -> int:
    rules = _load_rules(args.rules)
    stake = args.stake if args.stake is not None else rules["money.stake"]
    hands = deal(args.seats, seed=args.seed)
    print(f"capsa play: {args.seats} seats, rules {rules.name}, seed {args.seed}")
    print()
    seats = []
    for k, hand in enumerate(hands):
        choice = best_arrangement(hand, rules, seats=args.seats)
        natural = _core.natural(hand, rules)
        arrangement = _shown_arrangement(choice, natural, rules)
        print(f"seat {k}: {format_cards(hand)}")
        print(
            f"        arranged {arrangement}  "
            f"(solver: expected {choice.expected_points:+.2f} points)"
        )
        if natural:
            verb = "declares" if choice.declare_natural else "holds but does not declare"
            print(f"        {verb} the natural {natural}")
        seats.append(Seat(arrangement, declare_natural=choice.declare_natural))
    print()
    result = settle(seats, rules, stake)
    print(result.explain())
    if args.html:
        from capsa.render.cli import write_play_page

        write_play_page(args.html, result, rules, args.seed)
    return 0


# ---------------------------------------------------------------- settle


class _Prefixed:
    """A byte stream read from ``prefix`` first, then from ``stream``."""

    def __init__(self, prefix: bytes, stream: IO[bytes]) -> None:
        self._prefix = io.BytesIO(prefix)
        self._stream = stream

    def readline(self, limit: int) -> bytes:
        line = self._prefix.readline(limit)
        if line.endswith(b"\n") or len(line) == limit:
            return line
        return line + self._stream.readline(limit - len(line))


def _read_line(stream: IO[bytes] | _Prefixed) -> bytes | int | None:
    """The next line without its line feed (lines end at a line feed only);
    for a line longer than a round may be, its length in bytes (the line is
    skipped, never held whole); None at the end of the input."""
    line = stream.readline(_core.MAX_LINE_BYTES + 1)
    if not line:
        return None
    if line.endswith(b"\n"):
        return line[:-1]
    if len(line) <= _core.MAX_LINE_BYTES:
        return line
    length = len(line)
    while line and not line.endswith(b"\n"):
        line = stream.readline(_core.MAX_LINE_BYTES)
        length += len(line)
    return length - line.endswith(b"\n")


def _lines(stream: IO[bytes] | _Prefixed) -> Iterator[bytes | int]:
    while (line := _read_line(stream)) is not None:
        yield line


def _is_blank(line: bytes) -> bool:
    return not line.lstrip(b"\xef\xbb\xbf").strip(b" \t\r\n")


def _sniff(stream: IO[bytes]) -> tuple[str, bytes]:
    """Decides between JSON Lines and one JSON document (``--format auto``).

    JSON Lines when the first non-blank line is a JSON object on its own;
    otherwise one document when the whole input (at most the largest
    document read) is one valid JSON document; otherwise JSON Lines. Returns
    the format and what was read so far (the document, or the start of the
    lines).
    """
    head: list[bytes] = []
    size = 0
    limit = _core.MAX_DOCUMENT_BYTES
    looking = True  # still before the first non-blank line
    while size <= limit:
        line = stream.readline(limit + 1 - size)
        if not line:
            text = b"".join(head)
            return ("json" if _core.is_json_document(text) else "jsonl"), text
        head.append(line)
        size += len(line)
        if looking and not _is_blank(line):
            looking = False
            if _core.is_json_object_line(line.rstrip(b"\n")):
                return "jsonl", b"".join(head)
    return "jsonl", b"".join(head)


def _settle_lines(
    stream: IO[bytes] | _Prefixed, known: dict[str, _core.RuleSet], default: str, out: IO[bytes]
) -> int:
    failed = 0
    chunk: list[bytes | int] = []
    first = 1
    for number, line in enumerate(_lines(stream), start=1):
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


def _settle_document(
    text: bytes, known: dict[str, _core.RuleSet], default: str, indent: int | None, out: IO[bytes]
) -> int:
    if _is_blank(text):
        return 0
    if indent is None:
        # written as settled, so the output is never held whole
        failed = _core.write_json_document(text, known, out.write, default)
    else:
        data, failed = _core.settle_json_document(text, known, default, indent)
        out.write(data)
    out.write(b"\n")
    return int(failed)


def _open_input(path: str | None, stack: contextlib.ExitStack[bool | None]) -> IO[bytes]:
    if path in (None, "-"):
        return sys.stdin.buffer
    assert path is not None
    if Path(path).is_dir():
        raise UsageError(f"cannot read {path}: it is a directory")
    try:
        return stack.enter_context(open(path, "rb"))
    except OSError as exc:
        raise UsageError(f"cannot read {path}: {exc.strerror or exc}") from None


def _cmd_settle(args: argparse.Namespace) -> int:
    if bulk_cli.handles_settle(args):  # Parquet, or an output file
        return bulk_cli.settle_command(args)
    default = _load_rules(args.rules)
    known: dict[str, _core.RuleSet] = {name: Rules.preset(name) for name in presets()}
    known[default.name] = default
    out = sys.stdout.buffer
    with contextlib.ExitStack() as stack:
        stream = _open_input(args.input, stack)
        if args.format == "json":
            text = stream.read(_core.MAX_DOCUMENT_BYTES + 1)
            if len(text) > _core.MAX_DOCUMENT_BYTES:
                raise UsageError(
                    f"the JSON document is larger than {_core.MAX_DOCUMENT_BYTES} bytes; "
                    "give the rounds as JSON Lines"
                )
            failed = _settle_document(text, known, default.name, args.indent, out)
        elif args.format == "jsonl":
            failed = _settle_lines(stream, known, default.name, out)
        else:
            fmt, head = _sniff(stream)
            if fmt == "json":
                failed = _settle_document(head, known, default.name, args.indent, out)
            else:
                failed = _settle_lines(_Prefixed(head, stream), known, default.name, out)
    out.flush()
    if failed:
        print(f"capsa settle: {failed} round(s) could not be settled", file=sys.stderr)
    return EXIT_FAILED_ROUNDS if failed and args.strict else 0


# ---------------------------------------------------------------- the rest


def _cmd_rank(args: argparse.Namespace) -> int:
    rules = _load_rules(args.rules)
    value = _core.evaluate(" ".join(args.cards), rules)
    print(f"{format_cards(value.cards)}: {value.category} (strength {value.strength})")
    return 0


def _cmd_arrange(args: argparse.Namespace) -> int:
    rules = _load_rules(args.rules)
    cards = " ".join(args.cards)
    natural = _core.natural(cards, rules)
    if args.strategy == "solver":
        choices = rank_arrangements(cards, rules, k=args.k, seats=args.seats, effort=args.effort)
    else:
        choices = [
            best_arrangement(
                cards, rules, seats=args.seats, strategy=args.strategy, effort=args.effort
            )
        ]
    print(
        f"rules {rules.name}, {args.seats} seats, strategy {args.strategy}, "
        f"effort {args.effort}; expected points against all opponents"
    )
    print(format_choices(choices, natural))
    return 0


def _cmd_presets(args: argparse.Namespace) -> int:
    for name in presets():
        print(name)
    return 0


def _cmd_rules(args: argparse.Namespace) -> int:
    sys.stdout.write(_load_rules(args.name).to_toml())
    return 0


def _parser() -> argparse.ArgumentParser:
    from capsa import __version__

    p = _Parser(
        prog="capsa",
        description="Capsa Susun / Chinese poker engine: deal, rank, arrange and settle.",
        epilog="Exit codes: 0 done, 1 a round failed under settle --strict, "
        "2 usage or input error, 70 internal error, 130 interrupted.",
    )
    p.add_argument("--version", action="version", version=f"capsa {__version__}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")
    seats = _int_in(2, 4, "--seats")

    play = sub.add_parser("play", help="deal a table, arrange every seat, settle and explain")
    play.add_argument("--seats", type=seats, default=4, help="2 to 4 (default 4)")
    play.add_argument(
        "--seed", type=_int_in(0, _SEED_LIMIT - 1, "--seed"), default=None, help="reproducible deal"
    )
    play.add_argument("--rules", help="a preset name or a rules TOML file")
    play.add_argument(
        "--stake", type=_int_in(0, 2**63 - 1, "--stake"), default=None, help="minor units per point"
    )
    play.add_argument("--html", metavar="OUT.html", help="also draw the table as a page")
    play.set_defaults(run=_cmd_play)

    st = sub.add_parser(
        "settle",
        help="settle rounds read as JSON Lines (one round a line) or one JSON document",
        description="Reads rounds from FILE or standard input and writes one record per round. "
        "A round that cannot be settled yields an error record naming its line; the others go on.",
    )
    st.add_argument("input", nargs="?", help="input file (default: standard input)")
    st.add_argument("--rules", help="rules for rounds that name none (preset or TOML file)")
    st.add_argument("--format", choices=["auto", "jsonl", "json", "parquet"], default="auto")
    st.add_argument("-o", "--output", help="output file; a .parquet one gets the results table")
    st.add_argument(
        "--indent", type=_int_in(0, 16, "--indent"), default=None, help="indent a document's output"
    )
    st.add_argument("--strict", action="store_true", help="exit 1 when any round failed")
    st.set_defaults(run=_cmd_settle)

    rank = sub.add_parser("rank", help="rank a 3- or 5-card hand")
    rank.add_argument("cards", nargs="+", help='cards, e.g. "As Ks Qs Js Ts"')
    rank.add_argument("--rules", help="a preset name or a rules TOML file")
    rank.set_defaults(run=_cmd_rank)

    arrange = sub.add_parser("arrange", help="the best arrangements of 13 cards")
    arrange.add_argument("cards", nargs="+", help="13 cards")
    arrange.add_argument("--rules", help="a preset name or a rules TOML file")
    arrange.add_argument(
        "-k", type=_int_in(1, None, "-k"), default=5, help="how many arrangements (default 5)"
    )
    arrange.add_argument("--seats", type=seats, default=4, help="table size (default 4)")
    arrange.add_argument(
        "--strategy",
        choices=STRATEGIES,
        default="solver",
        help="the solver (default), or a baseline: one arrangement",
    )
    arrange.add_argument(
        "--effort",
        choices=EFFORTS,
        default="fast",
        help="fast (default), or deep: the best candidates re-scored against "
        "sampled opponents (about 50 ms; the solver and separable only)",
    )
    arrange.set_defaults(run=_cmd_arrange)

    bulk_cli.add_simulate_command(sub, _int_in)

    pr = sub.add_parser("presets", help="list the shipped rule presets")
    pr.set_defaults(run=_cmd_presets)

    rules = sub.add_parser("rules", help="print a preset's (or file's) rules as TOML")
    rules.add_argument("name", nargs="?", default=None)
    rules.set_defaults(run=_cmd_rules)

    from capsa.conformance.cli import register as register_conformance

    register_conformance(sub, _int_in)
    from capsa.render.cli import add_render_command

    add_render_command(sub)
    from capsa.cli_rounds import add_commands  # verify, replay, rng

    add_commands(sub)
    return p


def _fail(command: str, message: str) -> None:
    print(f"{command}: {message}", file=sys.stderr)


def main(argv: list[str] | None = None) -> int:
    """Runs the command line; returns the exit code (see the module docs)."""
    parser = _parser()
    command = "capsa"
    try:
        args = parser.parse_args(argv)
        if not getattr(args, "run", None):
            parser.print_help()
            return 0
        command = f"capsa {args.command}"
        return int(args.run(args))
    except UsageError as exc:
        _fail(command, str(exc))
        return EXIT_USAGE
    except _core.CapsaError as exc:
        _fail(command, f"{type(exc).__name__}: {exc}")
        return EXIT_USAGE
    except BrokenPipeError:
        # the reader went away (e.g. piped into head): not an error
        with contextlib.suppress(OSError):
            sys.stdout = open(  # noqa: SIM115 - kept open until exit
                "/dev/null", "w", encoding="utf-8"
            )
        return 0
    except KeyboardInterrupt:
        _fail(command, "interrupted")
        return EXIT_INTERRUPTED
    except SystemExit as exc:  # --help and --version
        return int(exc.code or 0) if isinstance(exc.code, int | None) else EXIT_USAGE
    except Exception as exc:  # a bug: still one line, never a traceback
        _fail(command, f"internal error: {type(exc).__name__}: {exc}")
        return EXIT_INTERNAL


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
