"""The plumbing every ``capsa`` command shares: exit codes, the one-line
usage error, argument types, rules loading, opening input and output, and
reading lines.

Every failure a user can cause (a bad argument, a file that cannot be read
or written, a full disk) is a :class:`UsageError`, which ``capsa`` reports
as one line and exit code ``EXIT_USAGE``.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO, Any, NoReturn

from capsa import _core
from capsa.bulk.columns import DEFAULT_SEATS, MAX_SEATS
from capsa.rules import Rules, RulesError, presets

__all__ = [
    "EXIT_FAILED",
    "EXIT_INTERNAL",
    "EXIT_INTERRUPTED",
    "EXIT_SETTLEMENT_VERSION",
    "EXIT_USAGE",
    "CommandParser",
    "Prefixed",
    "UsageError",
    "add_seats",
    "check_writable",
    "digest_arg",
    "int_in",
    "is_blank",
    "lines",
    "load_rules",
    "open_input",
    "open_output",
    "prepare_folder",
    "read_document",
    "sniff",
    "stake_arg",
    "write_file",
]

#: Some rounds (or records) failed, under ``--strict`` or a checking command.
EXIT_FAILED = 1
#: A usage or input error.
EXIT_USAGE = 2
#: Records this capsa cannot judge: written under a settlement version it
#: does not settle (an input it cannot read, not a failed check).
EXIT_SETTLEMENT_VERSION = EXIT_USAGE
#: An internal error: a bug in capsa.
EXIT_INTERNAL = 70
#: Interrupted.
EXIT_INTERRUPTED = 130


class UsageError(Exception):
    """A command-line argument, input or output that cannot be used (exit code 2)."""


class CommandParser(argparse.ArgumentParser):
    """An argument parser whose errors are one line (and exit code 2)."""

    def error(self, message: str) -> NoReturn:
        """Raises ``UsageError`` with ``message``."""
        raise UsageError(f"{message} (see '{self.prog} --help')")


def _integer(text: str) -> int:
    """A command-line integer, or the one-line error that it is not one."""
    try:
        return int(text, 10)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be an integer, not {text[:24]!r}") from None


def int_in(low: int, high: int | None, what: str) -> Callable[[str], int]:
    """An argparse type: an integer from ``low`` to ``high`` (inclusive)."""

    def parse(text: str) -> int:
        value = _integer(text)
        if value < low or (high is not None and value > high):
            shown = text if len(text) <= 24 else text[:21] + "..."
            span = f"from {low} to {high}" if high is not None else f">= {low}"
            raise argparse.ArgumentTypeError(f"must be {span}, got {shown}")
        return value

    parse.__name__ = what
    return parse


def add_seats(parser: argparse.ArgumentParser, what: str) -> None:
    """Adds ``--seats``: ``what`` the number is (a table size, a file's
    width), 2 to 8, default 4; what the rules' deck seats is the engine's
    to check (the 52-card deck seats 2 to 4)."""
    parser.add_argument(
        "--seats",
        type=int_in(2, MAX_SEATS, "--seats"),
        default=DEFAULT_SEATS,
        help=f"{what}: 2 to 4, up to {MAX_SEATS} as the rules' deck deals "
        f"(default {DEFAULT_SEATS})",
    )


# one stake for every pair of seats reads the same at every table size
_ANY_TABLE = 2


def stake_arg(what: str) -> Callable[[str], int]:
    """An argparse type: one stake for every pair of seats, in minor units,
    read by the engine's stakes reader."""

    def parse(text: str) -> int:
        try:
            stake = _core.read_stakes(_integer(text), _ANY_TABLE)
        except _core.CapsaError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None
        assert isinstance(stake, int)
        return stake

    parse.__name__ = what
    return parse


def digest_arg(what: str) -> Callable[[str], str]:
    """An argparse type: 32 bytes as 64 lowercase hexadecimal digits, read
    by the engine's digest reader."""

    def parse(text: str) -> str:
        try:
            digest = _core.read_digest(text, what)
        except _core.CapsaError as exc:
            # argparse names the argument before the message
            raise argparse.ArgumentTypeError(str(exc).removeprefix(f"{what} ")) from None
        assert digest is not None
        return digest

    parse.__name__ = what
    return parse


def load_rules(spec: str | None) -> Rules:
    """``--rules``: the default rules, a preset name or a rules TOML file.
    Raises ``RulesError`` for anything else."""
    if spec is None:
        return Rules()
    if spec in presets():
        return Rules.preset(spec)
    # os.path.exists is False for any path the system cannot look up
    if os.path.exists(spec):
        return Rules.load(spec)
    raise RulesError(f"--rules {spec!r} is neither a preset ({', '.join(presets())}) nor a file")


def _reason(exc: OSError) -> str:
    return exc.strerror or str(exc)


# ---------------------------------------------------------------- input


def open_input(path: str | None, stack: contextlib.ExitStack[Any]) -> IO[bytes]:
    """The file ``path`` opened for reading (standard input for None or
    ``-``), closed with ``stack``. Raises ``UsageError`` when it cannot be."""
    if path in (None, "-"):
        return sys.stdin.buffer
    assert path is not None
    if Path(path).is_dir():
        raise UsageError(f"cannot read {path}: it is a directory")
    try:
        return stack.enter_context(open(path, "rb"))
    except OSError as exc:
        raise UsageError(f"cannot read {path}: {_reason(exc)}") from None


class Prefixed:
    """A byte stream read from ``prefix`` first, then from ``stream``."""

    def __init__(self, prefix: bytes, stream: IO[bytes]) -> None:
        self._prefix = io.BytesIO(prefix)
        self._stream = stream

    def readline(self, limit: int) -> bytes:
        """The next line, at most ``limit`` bytes."""
        line = self._prefix.readline(limit)
        if line.endswith(b"\n") or len(line) == limit:
            return line
        return line + self._stream.readline(limit - len(line))


def _read_line(stream: IO[bytes] | Prefixed) -> bytes | int | None:
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


def lines(stream: IO[bytes] | Prefixed) -> Iterator[bytes | int]:
    """Every line of ``stream`` (see the module docs of ``capsa.cli``): its
    bytes without the line feed, or its length for a line too long."""
    while (line := _read_line(stream)) is not None:
        yield line


def is_blank(line: bytes) -> bool:
    """Whether a line (or a document) holds only JSON white space, after a
    byte-order mark at its start (as the engine's line readers take it)."""
    return not line.removeprefix(b"\xef\xbb\xbf").strip(b" \t\r\n")


def sniff(stream: IO[bytes]) -> tuple[str, bytes]:
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
        if looking and not is_blank(line):
            looking = False
            if _core.is_json_object_line(line.rstrip(b"\n")):
                return "jsonl", b"".join(head)
    return "jsonl", b"".join(head)


def read_document(stream: IO[bytes]) -> bytes:
    """The whole input as one JSON document. Raises ``UsageError`` when it
    is larger than a document may be."""
    text = stream.read(_core.MAX_DOCUMENT_BYTES + 1)
    if len(text) > _core.MAX_DOCUMENT_BYTES:
        raise UsageError(
            f"the JSON document is larger than {_core.MAX_DOCUMENT_BYTES} bytes; "
            "give the rounds as JSON Lines"
        )
    return text


# ---------------------------------------------------------------- output


def check_writable(path: str | os.PathLike[str], what: str = "") -> None:
    """Refuses, before any work, an output path that cannot be written: a
    directory, or one whose folder does not exist or is not a folder (no
    folder is ever created). Raises ``UsageError``."""
    where = f"{what} " if what else ""
    target = Path(path)
    if target.is_dir():
        raise UsageError(f"cannot write {where}{path}: it is a directory")
    folder = target.parent
    if not folder.is_dir():
        reason = "not a directory" if folder.exists() else "no such directory"
        raise UsageError(f"cannot write {where}{path}: {folder}: {reason}")
    if not os.access(folder, os.W_OK) and not os.access(target, os.W_OK):
        raise UsageError(f"cannot write {where}{path}: permission denied")


def prepare_folder(path: str | os.PathLike[str], what: str = "") -> None:
    """Makes the output folder ``path`` (and its parents, as the command
    would) and checks a file can be written in it, before any work. Raises
    ``UsageError`` when it cannot be made or written."""
    where = f"{what} " if what else ""
    folder = Path(path)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=folder):
            pass
    except OSError as exc:
        raise UsageError(f"cannot write in {where}{path}: {_reason(exc)}") from None


class _Output(io.RawIOBase):
    """A file being written whose failures (a full disk, a closed pipe to a
    file) are a ``UsageError`` naming it."""

    def __init__(self, path: str, raw: IO[bytes]) -> None:
        super().__init__()
        self._path = path
        self._raw = raw

    def failure(self, exc: OSError) -> UsageError:
        """The error of a failed write to this file, naming it (also for
        writes the engine makes to its descriptor)."""
        return UsageError(f"cannot write {self._path}: {_reason(exc)}")

    def writable(self) -> bool:
        return True

    def fileno(self) -> int:
        return self._raw.fileno()

    def write(self, data: Any) -> int:
        try:
            return self._raw.write(data)
        except OSError as exc:
            raise self.failure(exc) from None

    def flush(self) -> None:
        if self._raw.closed:
            return
        try:
            self._raw.flush()
        except OSError as exc:
            raise self.failure(exc) from None

    def close(self) -> None:
        if self.closed:
            return
        try:
            self._raw.close()
        except OSError as exc:
            raise self.failure(exc) from None
        finally:
            super().close()


def open_output(path: str, stack: contextlib.ExitStack[Any]) -> IO[bytes]:
    """The file ``path`` opened for writing (standard output for ``-``),
    closed with ``stack``; a failure to open it or to write it is a
    ``UsageError`` naming it."""
    if path == "-":
        return sys.stdout.buffer
    check_writable(path)
    try:
        raw = open(path, "wb")  # noqa: SIM115 - closed by the stack, through _Output
    except OSError as exc:
        raise UsageError(f"cannot write {path}: {_reason(exc)}") from None
    out = _Output(path, raw)
    stack.callback(out.close)
    return out  # type: ignore[return-value]


def write_file(path: str | os.PathLike[str], data: bytes) -> None:
    """Writes ``data`` to ``path``; a failure is a ``UsageError`` naming it."""
    try:
        Path(path).write_bytes(data)
    except OSError as exc:
        raise UsageError(f"cannot write {path}: {_reason(exc)}") from None
