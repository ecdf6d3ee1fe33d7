"""The ``capsa verify``, ``capsa replay`` and ``capsa rng`` commands.

``capsa verify FILE`` checks the provably fair deal of every round record of
a JSON Lines file (standard input without FILE); ``capsa replay FILE``
replays every record and checks that each follows the one before it in the
table's chain. Both write one JSON line per record, in order (keys sorted):

* ``{"digest": ..., "line": n, "ok": true, "round_id": ...}``, or
* ``{"error": "RecordError"|"ReplayError", "fields": [...], "line": n,
  "message": ..., "round_id": ... or null}``: a record that cannot be read
  (``fields`` holds the one field named) or does not verify or replay
  (every field that differs); the next records go on.

Lines end at a line feed; blank lines give nothing; a line is at most
``capsa._core.MAX_LINE_BYTES`` (1 MiB; a record is about 5 KB), a longer one
is skipped, never held whole, and reported. Exit codes as the rest of the
command line (``capsa.cli``), and 1 when any record failed.

``capsa rng dump --count N --out FILE`` writes raw output of the dealing
generators for statistical batteries: the fair deal's HMAC-SHA256 word
stream or the seeded deal's ChaCha20 stream (``--what words``, raw bytes as
``dieharder -g 201`` and ``rngtest`` read them, or decimal text), or whole
shuffles (``--what shuffles``, 52 card ids per deal, raw bytes or one deal a
line).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import secrets
import sys
from collections.abc import Callable, Iterator
from types import EllipsisType
from typing import IO, Any, Literal

from capsa import _core
from capsa.cli import UsageError, _int_in, _lines, _open_input
from capsa.records import RecordError, ReplayError, read_record, replay_view

__all__ = ["add_commands"]

EXIT_FAILED_RECORDS = 1
_DIGEST_CHARS = frozenset("0123456789abcdef")
# Words and shuffles asked of the core per call: memory stays flat.
_WORDS_PER_CHUNK = 1 << 18
_SHUFFLES_PER_CHUNK = 1 << 14


def _digest(what: str) -> Callable[[str], str]:
    """An argparse type: 32 bytes as 64 lowercase hexadecimal digits."""

    def parse(text: str) -> str:
        if len(text) != 64 or not set(text) <= _DIGEST_CHARS:
            raise argparse.ArgumentTypeError(
                f"must be 64 lowercase hexadecimal digits, got {text[:80]!r}"
            )
        return text

    parse.__name__ = what
    return parse


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
    """(line number, line) of every non-blank line; an int for a line too long."""
    for number, line in enumerate(_lines(stream), start=1):
        if isinstance(line, int) or line.strip(b" \t\r"):
            yield number, line


def _overlong(line: int, length: int) -> RecordError:
    return RecordError(
        f"line {line} is {length} bytes long; a record is at most {_core.MAX_LINE_BYTES} bytes"
    )


Check = Callable[[_core.RecordView, "str | EllipsisType | None"], str]


def _check_records(args: argparse.Namespace, verb: str, check: Check, chain: bool) -> int:
    """Checks every record of the input with ``check``; with ``chain``, each
    must follow the record before it (a record that cannot be read leaves
    the next link unchecked)."""
    failed = total = 0
    out = sys.stdout.buffer
    previous: str | EllipsisType | None = args.previous if chain else ...
    with contextlib.ExitStack() as stack:
        stream = _open_input(args.input, stack)
        for number, line in _records(stream):
            total += 1
            view: _core.RecordView | None = None
            try:
                if isinstance(line, int):
                    raise _overlong(number, line)
                view = read_record(line)
                digest = check(view, previous)
            except (RecordError, ReplayError) as exc:
                failed += 1
                _write(out, _error_record(number, exc, view.round_id if view else None))
                if chain:
                    previous = view.digest if view else ...
                continue
            _write(out, {"digest": digest, "line": number, "ok": True, "round_id": view.round_id})
            if chain:
                previous = digest
    out.flush()
    if failed:
        print(f"capsa {verb}: {failed} of {total} record(s) failed", file=sys.stderr)
    return EXIT_FAILED_RECORDS if failed else 0


def _cmd_verify(args: argparse.Namespace) -> int:
    def check(view: _core.RecordView, previous: str | EllipsisType | None) -> str:
        problems = view.verify_deal(args.commitment)
        if problems:
            raise ReplayError(view.round_id, problems, "fails verification of its deal")
        return view.digest

    return _check_records(args, "verify", check, chain=False)


def _cmd_replay(args: argparse.Namespace) -> int:
    return _check_records(args, "replay", replay_view, chain=True)


# ---------------------------------------------------------------- rng dump


def _open_output(path: str, stack: contextlib.ExitStack[bool | None]) -> IO[bytes]:
    if path == "-":
        return sys.stdout.buffer
    if os.path.isdir(path):
        raise UsageError(f"cannot write {path}: it is a directory")
    try:
        return stack.enter_context(open(path, "wb"))
    except OSError as exc:
        raise UsageError(f"cannot write {path}: {exc.strerror or exc}") from None


def _word_chunks(args: argparse.Namespace, key: bytes) -> Iterator[bytes]:
    done = 0
    while done < args.count:
        n = min(_WORDS_PER_CHUNK, args.count - done)
        if args.generator == "fair":
            yield _core.rng_words_fair(key, args.nonce, done, n)
        else:
            yield _core.rng_words_chacha20(key, done, n)
        done += n


def _shuffle_chunks(args: argparse.Namespace, key: bytes, first: int) -> Iterator[bytes]:
    done = 0
    while done < args.count:
        n = min(_SHUFFLES_PER_CHUNK, args.count - done)
        if args.generator == "fair":
            yield _core.rng_shuffles_fair(key, first + done, n)
        else:
            yield _core.rng_shuffles_seeded(first + done, n)
        done += n


def _as_text(chunk: bytes, what: str, generator: str) -> bytes:
    if what == "shuffles":
        decks = (chunk[k : k + 52] for k in range(0, len(chunk), 52))
        return b"".join(b" ".join(b"%d" % c for c in deck) + b"\n" for deck in decks)
    order: Literal["big", "little"] = "big" if generator == "fair" else "little"
    words = (int.from_bytes(chunk[k : k + 4], order) for k in range(0, len(chunk), 4))
    return b"".join(b"%d\n" % w for w in words)


def _cmd_rng_dump(args: argparse.Namespace) -> int:
    if args.generator == "fair":
        if args.seed is not None:
            raise UsageError("--seed is for --generator chacha20; give --server-seed for fair")
        key = bytes.fromhex(args.server_seed) if args.server_seed else secrets.token_bytes(32)
        first = args.nonce
        source = f"fair ({_core.FAIR_ALGORITHM}), server seed {key.hex()}, nonce {args.nonce}"
        if args.what == "shuffles" and first + args.count > 2**64:
            raise UsageError("--nonce + --count must stay below 2**64")
    else:
        if args.server_seed is not None:
            raise UsageError("--server-seed is for --generator fair; give --seed for chacha20")
        seed = args.seed if args.seed is not None else secrets.randbelow(2**64 - args.count)
        if seed + args.count > 2**64:
            raise UsageError("--seed + --count must stay below 2**64")
        key, first = seed.to_bytes(8, "little") + bytes(24), seed
        source = f"chacha20, seed {seed}"
    with contextlib.ExitStack() as stack:
        out = _open_output(args.out, stack)
        chunks = (
            _word_chunks(args, key) if args.what == "words" else _shuffle_chunks(args, key, first)
        )
        for chunk in chunks:
            out.write(chunk if args.format == "raw" else _as_text(chunk, args.what, args.generator))
        out.flush()
    print(
        f"capsa rng dump: {args.count} {args.what} of the {source} to {args.out}", file=sys.stderr
    )
    return 0


def add_commands(sub: Any) -> None:
    """Adds ``verify``, ``replay`` and ``rng`` to the command line's sub-parsers."""
    verify = sub.add_parser(
        "verify",
        help="check the provably fair deal of round records (JSON Lines)",
        description="Checks each record's commitment and recomputes its hands from the "
        "revealed seeds. One JSON line per record; exit 1 when any failed.",
    )
    verify.add_argument("input", nargs="?", help="records file (default: standard input)")
    verify.add_argument(
        "--commitment",
        type=_digest("--commitment"),
        help="the commitment published before the deal (every record must have it)",
    )
    verify.set_defaults(run=_cmd_verify)

    rep = sub.add_parser(
        "replay",
        help="replay round records (JSON Lines) and check their chain",
        description="Recomputes every derived field of each record and checks that each "
        "follows the record before it. One JSON line per record; exit 1 when any failed.",
    )
    rep.add_argument("input", nargs="?", help="records file (default: standard input)")
    start = rep.add_mutually_exclusive_group()
    start.add_argument(
        "--previous",
        type=_digest("--previous"),
        default=...,
        help="the digest the first record must follow (default: not checked)",
    )
    start.add_argument(
        "--first",
        dest="previous",
        action="store_const",
        const=None,
        help="the first record starts the chain (its previous_digest is null)",
    )
    rep.set_defaults(run=_cmd_replay)

    rng = sub.add_parser("rng", help="raw output of the dealing generators, for test labs")
    rng_sub = rng.add_subparsers(dest="rng_command", metavar="COMMAND", required=True)
    dump = rng_sub.add_parser(
        "dump",
        help="write generator words or shuffles for a statistical battery",
        description="Writes --count words (32 bits) or shuffles of a dealing generator. "
        "raw words: the stream's bytes (dieharder -g 201 -f FILE, rngtest < FILE); "
        "raw shuffles: 52 card ids (0..51) a deal, in deck order; text: one word or deal a line.",
    )
    dump.add_argument("--count", type=_int_in(1, 2**40, "--count"), required=True)
    dump.add_argument("--out", required=True, help="output file, or - for standard output")
    dump.add_argument("--what", choices=["words", "shuffles"], default="words")
    dump.add_argument(
        "--generator",
        choices=["fair", "chacha20"],
        default="fair",
        help="fair: the real-money deal's HMAC-SHA256 stream (default); "
        "chacha20: the seeded deal's stream",
    )
    dump.add_argument("--format", choices=["raw", "text"], default="raw")
    dump.add_argument(
        "--server-seed",
        type=_digest("--server-seed"),
        help="fair: the server seed as 64 hex digits (default: 32 bytes of OS entropy)",
    )
    dump.add_argument(
        "--nonce",
        type=_int_in(0, 2**64 - 1, "--nonce"),
        default=0,
        help="fair: the nonce (shuffles: of the first deal)",
    )
    dump.add_argument(
        "--seed",
        type=_int_in(0, 2**64 - 1, "--seed"),
        default=None,
        help="chacha20: the seed (shuffles: of the first deal; default: random)",
    )
    dump.set_defaults(run=_cmd_rng_dump)
