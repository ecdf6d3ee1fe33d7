"""``capsa rng dump``: raw output of the dealing generators, for
statistical batteries.

``capsa rng dump --count N --out FILE`` writes the fair deal's HMAC-SHA256
word stream or the seeded deal's ChaCha20 stream (``--what words``, raw
bytes as ``dieharder -g 201`` and ``rngtest`` read them, or decimal text),
or whole shuffles (``--what shuffles``, 52 card ids per deal, raw bytes or
one deal a line).
"""

from __future__ import annotations

import argparse
import contextlib
import secrets
import sys
from collections.abc import Iterator
from typing import Any, Literal

from capsa import _core
from capsa.cli.common import UsageError, digest_arg, int_in, open_output

__all__ = ["register"]

# Words and shuffles asked of the core per call: memory stays flat.
_WORDS_PER_CHUNK = 1 << 18
_SHUFFLES_PER_CHUNK = 1 << 14


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
        out = open_output(args.out, stack)
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


def register(subparsers: Any) -> None:
    """Adds ``capsa rng dump``."""
    rng = subparsers.add_parser("rng", help="raw output of the dealing generators, for test labs")
    rng_sub = rng.add_subparsers(dest="rng_command", metavar="COMMAND", required=True)
    dump = rng_sub.add_parser(
        "dump",
        help="write generator words or shuffles for a statistical battery",
        description="Writes --count words (32 bits) or shuffles of a dealing generator. "
        "raw words: the stream's bytes (dieharder -g 201 -f FILE, rngtest < FILE); "
        "raw shuffles: 52 card ids (0..51) a deal, in deck order; text: one word or deal a line.",
    )
    dump.add_argument(
        "--count",
        type=int_in(1, 2**40, "--count"),
        required=True,
        help="how many words or deals to write",
    )
    dump.add_argument("--out", required=True, help="output file, or - for standard output")
    dump.add_argument(
        "--what",
        choices=["words", "shuffles"],
        default="words",
        help="the stream's 32-bit words, or the deals it shuffles (default: words)",
    )
    dump.add_argument(
        "--generator",
        choices=["fair", "chacha20"],
        default="fair",
        help="fair: the real-money deal's HMAC-SHA256 stream (default); "
        "chacha20: the seeded deal's stream",
    )
    dump.add_argument(
        "--format",
        choices=["raw", "text"],
        default="raw",
        help="raw bytes, or text a line each (default: raw)",
    )
    dump.add_argument(
        "--server-seed",
        type=digest_arg("--server-seed"),
        help="fair: the server seed as 64 hex digits (default: 32 bytes of OS entropy)",
    )
    dump.add_argument(
        "--nonce",
        type=int_in(0, 2**64 - 1, "--nonce"),
        default=0,
        help="fair: the nonce (shuffles: of the first deal)",
    )
    dump.add_argument(
        "--seed",
        type=int_in(0, 2**64 - 1, "--seed"),
        default=None,
        help="chacha20: the seed (shuffles: of the first deal; default: random)",
    )
    dump.set_defaults(run=_cmd_rng_dump)
