"""The ``capsa`` command line.

``capsa play`` deals, arranges and settles a table; ``capsa settle`` settles
rounds read as JSON Lines, one JSON document or Parquet; ``capsa arrange``
and ``capsa rank`` look at one hand; ``capsa presets`` and ``capsa rules``
show the rules data; ``capsa simulate`` compares rules variants; ``capsa
render`` draws rounds as pages; ``capsa verify`` and ``capsa replay`` check
round records and ``capsa records to-parquet`` writes them as a rounds
table; ``capsa store`` keeps them in a database; ``capsa rng`` dumps the
dealing generators; ``capsa tables`` trains and checks the solver's tables;
``capsa conformance`` tests another engine.

Each command is a module of this package with a ``register(subparsers)``
function, listed in ``_MODULES`` with the command names it registers in
``_COMMAND_MODULES``: a command loads only its own module (a test holds the
two tables to what the modules register). What they share (exit codes,
argument types, input and output) is :mod:`capsa.cli.common`. Nothing else
in capsa imports this package.

Every failure is one line on standard error and an exit code, each a
constant of this module:

* 0: done (``capsa settle`` without ``--strict``: even if some rounds failed,
  each one reported in the output, as long as one was settled or the input
  held none; also when the reader of the output went away, as with
  ``capsa settle x.parquet | head -1``);
* ``EXIT_FAILED_ROUNDS`` (1): ``capsa settle`` read rounds and settled none,
  or ``--strict`` and at least one round could not be settled; a record
  failed under ``verify``, ``replay`` or ``records to-parquet``;
* ``EXIT_USAGE`` (2): a usage or input error (a bad argument, an unknown
  preset, an unreadable file or rules file, an output that cannot be
  written or a full disk under standard output, cards that cannot be
  read, a missing optional extra);
* ``EXIT_INTERNAL`` (70): an internal error (a bug in capsa: please report
  it);
* ``EXIT_INTERRUPTED`` (130): interrupted.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import os
import sys

from capsa import _core
from capsa.cli.common import (
    EXIT_FAILED,
    EXIT_INTERNAL,
    EXIT_INTERRUPTED,
    EXIT_USAGE,
    CommandParser,
    UsageError,
)

__all__ = ["EXIT_FAILED_ROUNDS", "EXIT_INTERNAL", "EXIT_INTERRUPTED", "EXIT_USAGE", "main"]

EXIT_FAILED_ROUNDS = EXIT_FAILED

# Each command's module, in the order ``capsa --help`` lists them. A module
# may register several commands; ``_COMMAND_MODULES`` names which.
_MODULES = (
    "play",
    "settle",
    "hands",
    "simulate",
    "presets",
    "conformance",
    "render",
    "records",
    "store",
    "rng",
    "tables",
)

# The command names each module registers (a test holds this to what the
# modules register).
_COMMAND_MODULES = {
    "play": "play",
    "settle": "settle",
    "rank": "hands",
    "arrange": "hands",
    "simulate": "simulate",
    "presets": "presets",
    "rules": "presets",
    "conformance": "conformance",
    "render": "render",
    "verify": "records",
    "replay": "records",
    "records": "records",
    "store": "store",
    "rng": "rng",
    "tables": "tables",
}


def _modules_for(argv: list[str] | None) -> tuple[str, ...]:
    """The command modules to load: only the named command's when the first
    argument names one (so a command pays only for what it runs), else all
    of them (``capsa --help``, a mistyped command)."""
    if argv and argv[0] in _COMMAND_MODULES:
        return (_COMMAND_MODULES[argv[0]],)
    return _MODULES


def _parser(argv: list[str] | None = None) -> argparse.ArgumentParser:
    """The parser for ``argv`` (every command when None)."""
    from capsa import __version__

    parser = CommandParser(
        prog="capsa",
        description="Capsa Susun / Chinese poker engine: deal, rank, arrange and settle.",
        epilog="Exit codes: 0 done, 1 rounds or records failed (settle: none settled, or any "
        "under --strict), "
        "2 usage or input error, 70 internal error, 130 interrupted.",
    )
    parser.add_argument("--version", action="version", version=f"capsa {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in _modules_for(argv):
        importlib.import_module(f"capsa.cli.{name}").register(subparsers)
    return parser


def _fail(command: str, message: str) -> None:
    print(f"{command}: {message}", file=sys.stderr)


def _reader_gone() -> int:
    """The reader of standard output went away (``| head -1``): not an
    error. Output still buffered goes nowhere, so that closing standard
    output at exit does not fail again."""
    with contextlib.suppress(OSError, ValueError, AttributeError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    return 0


def _io_failure(exc: OSError) -> str:
    """One line for an input or output failure no command named."""
    reason = exc.strerror or str(exc)
    if exc.filename is not None:
        return f"cannot read or write {exc.filename}: {reason}"
    return f"cannot read the input or write the output: {reason}"


def _closed_standard_stream() -> str | None:
    """The standard stream the process was started without (Python then
    holds None for it), if any."""
    for name, what in (("stdin", "standard input"), ("stdout", "standard output")):
        if getattr(sys, name) is None:
            return what
    return None


def main(argv: list[str] | None = None) -> int:
    """Runs the command line; returns the exit code (see the module docs)."""
    if argv is None:
        argv = sys.argv[1:]
    parser = _parser(argv)
    command = "capsa"
    try:
        args = parser.parse_args(argv)
        if not getattr(args, "run", None):
            parser.print_help()
            return 0
        command = f"capsa {args.command}"
        code = int(args.run(args))
        sys.stdout.flush()
        return code
    except UsageError as exc:
        _fail(command, str(exc))
        return EXIT_USAGE
    except _core.CapsaError as exc:
        _fail(command, f"{type(exc).__name__}: {exc}")
        return EXIT_USAGE
    except BrokenPipeError:
        return _reader_gone()
    except OSError as exc:  # the system's, not capsa's: a full disk under standard output
        _fail(command, _io_failure(exc))
        return EXIT_USAGE
    except KeyboardInterrupt:
        _fail(command, "interrupted")
        return EXIT_INTERRUPTED
    except SystemExit as exc:  # --help and --version
        return int(exc.code or 0) if isinstance(exc.code, int | None) else EXIT_USAGE
    except Exception as exc:  # a bug: still one line, never a traceback
        closed = _closed_standard_stream()
        if closed is not None:  # the command needed it: not a bug of capsa's
            _fail(command, f"cannot read the input or write the output: {closed} is closed")
            return EXIT_USAGE
        _fail(command, f"internal error: {type(exc).__name__}: {exc}")
        return EXIT_INTERNAL
