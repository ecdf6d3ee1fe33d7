"""``capsa store``: a records store on SQLite or PostgreSQL
(:mod:`capsa.store`, ``docs/store.md``).

* ``init URL``: makes the store's tables (nothing changes in a store);
* ``append URL [FILE|-]``: appends every record of a JSON Lines log, one
  JSON line out per record (``{"digest", "line", "ok": true, "round_id",
  "stored"}``, ``stored`` false for a record stored already; or the error
  record ``capsa replay`` writes, also for a chain or duplicate refusal);
  the next records go on; ``--batch N`` appends N records per transaction;
* ``verify URL [--table T] [--checkpoint FILE]...``: checks the whole
  store (or one table: exit 2 for a table it does not hold), one JSON line
  per problem, then a summary on standard error that says what was not
  checked (head MACs without a key, no checkpoint);
* ``checkpoint URL``: makes a checkpoint of every table and prints its
  canonical JSON text (one line: what an operator publishes);
* ``sign-heads URL``: signs every unsigned head under the key;
* ``export URL --format jsonl|parquet --out PATH``;
* ``stats URL [--tz ZONE]``: one JSON line per table and business day in the
  time zone (rounds, players, rake);
* ``pending URL``: one JSON line per table with a pending round;
* ``set-aside URL``: one JSON line per record set aside;
* ``migrate URL``: brings an older store to this capsa's schema.

Every verb takes ``--retry-seconds S``: how long a database that went away
is waited for (the store's ``retry_seconds``, 30 s by default). The store
key (``append``, ``verify``, ``checkpoint``, ``sign-heads``) is read from
``--key-file PATH`` (the key as hex), else from the environment variable
``CAPSA_STORE_KEY`` (hex); without either the store has none.

Exit codes as the rest of the command line: 1 when a record failed to
append or verify, 2 for a usage error, a store that cannot be opened or a
database error, the database unavailable included (one line, never a
traceback).
"""

from __future__ import annotations

import argparse
import base64
import contextlib
import json
import math
import os
import sys
from collections.abc import Callable, Iterator
from typing import IO, Any

from capsa import _core
from capsa.cli.common import (
    EXIT_FAILED,
    UsageError,
    check_writable,
    int_in,
    is_blank,
    lines,
    open_input,
)
from capsa.records import RecordError, ReplayError, read_record
from capsa.store import (
    ChainError,
    Checkpoint,
    CheckpointError,
    DuplicateRoundError,
    NulCharacterError,
    Store,
    StoreError,
    migrate,
)
from capsa.store.anchors import KEY_ENV, key_from_hex
from capsa.store.outages import DEFAULT_RETRY_SECONDS
from capsa.store.store import backend_for, open_store

__all__ = ["register"]


def _write(out: IO[bytes], record: dict[str, Any]) -> None:
    out.write(json.dumps(record, sort_keys=True, separators=(",", ":")).encode() + b"\n")


@contextlib.contextmanager
def _database_errors(url: str) -> Iterator[None]:
    """A failure of the database itself (unreachable, a full disk, a read-only
    file) as one usage line."""
    errors = backend_for(url).errors
    try:
        yield
    except errors as exc:
        reason = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise UsageError(f"{url}: {type(exc).__name__}: {reason}") from None


def _key(args: argparse.Namespace) -> bytes | None:
    """The store key: ``--key-file`` (hex), else ``CAPSA_STORE_KEY`` (hex),
    else none. Raises ``UsageError`` for a file that cannot be read,
    ``StoreError``/``ArgumentError`` for one that is not a key."""
    if not hasattr(args, "key_file"):
        return None  # a verb that neither signs nor checks
    if args.key_file is not None:
        with contextlib.ExitStack() as stack:
            raw = open_input(args.key_file, stack).read()
        return key_from_hex(raw.decode("ascii", "replace"), f"--key-file {args.key_file}")
    text = os.environ.get(KEY_ENV)
    return key_from_hex(text, KEY_ENV) if text else None


def _opened(args: argparse.Namespace, run: Callable[[Store], int], create: bool = False) -> int:
    key = _key(args)
    with (
        _database_errors(args.url),
        open_store(args.url, create=create, key=key, retry_seconds=args.retry_seconds) as store,
    ):
        return run(store)


def _cmd_init(args: argparse.Namespace) -> int:
    def run(store: Store) -> int:
        print(f"{args.url}: a records store of schema version {_schema_version()}")
        return 0

    return _opened(args, run, create=True)


def _schema_version() -> int:
    from capsa.store import schema

    return schema.SCHEMA_VERSION


_REFUSED = (RecordError, ReplayError, DuplicateRoundError, ChainError, NulCharacterError)


def _error_fields(exc: Exception) -> list[str]:
    if isinstance(exc, ReplayError):
        return list(exc.fields)
    if isinstance(exc, RecordError | DuplicateRoundError | NulCharacterError):
        return [exc.field]
    return ["previous_digest"]


def _failure(number: int, exc: Exception) -> dict[str, Any]:
    return {
        "error": type(exc).__name__,
        "fields": _error_fields(exc),
        "line": number,
        "message": str(exc),
        "round_id": getattr(exc, "round_id", None),
    }


def _done(number: int, text: str, stored: bool) -> dict[str, Any]:
    view = read_record(text)
    return {
        "digest": view.digest,
        "line": number,
        "ok": True,
        "round_id": view.round_id,
        "stored": stored,
    }


def _append_one(store: Store, number: int, line: str) -> dict[str, Any]:
    """Appends one record of the log; the JSON line that reports it."""
    try:
        return _done(number, line, store.append(line))
    except _REFUSED as exc:
        return _failure(number, exc)


def _append_batch(store: Store, batch: list[tuple[int, str]]) -> Iterator[dict[str, Any]]:
    """Appends records in one transaction; when one is refused, none is, and
    each is appended on its own so that each gets its own line."""
    try:
        stored = store.append_many([text for _, text in batch])
    except _REFUSED:
        yield from (_append_one(store, number, text) for number, text in batch)
        return
    yield from (_done(n, t, s) for (n, t), s in zip(batch, stored, strict=True))


def _log(stream: IO[bytes]) -> Iterator[tuple[int, str | Exception]]:
    """(line number, record text or why the line is not one) of every line
    that is not blank."""
    for number, line in enumerate(lines(stream), start=1):
        if isinstance(line, int):
            too_long = f"{line} bytes; a record is at most {_core.MAX_LINE_BYTES} bytes"
            yield number, RecordError(f"line {number} is {too_long}")
        elif not is_blank(line):
            try:
                yield number, line.decode("utf-8")
            except UnicodeDecodeError as exc:
                yield number, RecordError(f"line {number} is not UTF-8: {exc.reason}")


def _appended(store: Store, stream: IO[bytes], size: int) -> Iterator[dict[str, Any]]:
    """The report of every line of the log, appended in batches of ``size``."""
    batch: list[tuple[int, str]] = []
    for number, item in _log(stream):
        if isinstance(item, Exception):
            yield _failure(number, item)
            continue
        batch.append((number, item))
        if len(batch) == size:
            yield from _append_batch(store, batch)
            batch = []
    if batch:
        yield from _append_batch(store, batch)


def _cmd_append(args: argparse.Namespace) -> int:
    def run(store: Store) -> int:
        counts = {"stored": 0, "present": 0, "failed": 0}
        out = sys.stdout.buffer
        with contextlib.ExitStack() as stack:
            stream = open_input(args.input, stack)
            for result in _appended(store, stream, args.batch):
                _write(out, result)
                key = "failed" if "error" in result else "stored" if result["stored"] else "present"
                counts[key] += 1
        out.flush()
        print(
            f"capsa store append: {counts['stored']} stored, {counts['present']} already "
            f"stored, {counts['failed']} failed",
            file=sys.stderr,
        )
        return EXIT_FAILED if counts["failed"] else 0

    return _opened(args, run)


def _checkpoints(paths: list[str] | None) -> list[Checkpoint]:
    """The checkpoints of ``--checkpoint`` files. Raises ``UsageError`` for
    a file that cannot be read, ``CheckpointError`` for one that is not a
    checkpoint (naming the file)."""
    found = []
    for path in paths or ():
        with contextlib.ExitStack() as stack:
            raw = open_input(path, stack).read()
        try:
            found.append(Checkpoint.parse(raw))
        except CheckpointError as exc:
            raise CheckpointError(f"--checkpoint {path}: {exc}") from None
    return found


def _cmd_verify(args: argparse.Namespace) -> int:
    checkpoints = _checkpoints(args.checkpoint)

    def run(store: Store) -> int:
        table = ... if args.table is None else args.table
        report = store.verify(table, checkpoints=checkpoints)
        out = sys.stdout.buffer
        for problem in report.problems:
            _write(
                out,
                {
                    "error": "VerifyProblem",
                    "fields": list(problem.fields),
                    "kind": problem.kind,
                    "message": problem.message,
                    "round_id": problem.round_id,
                    "table_id": problem.table_id,
                },
            )
        out.flush()
        verdict = "verify" if report.ok else f"checked, {len(report.problems)} problem(s)"
        checked = []
        if report.macs_checked:
            checked.append("head MACs checked")
        if report.checkpoints:
            checked.append(f"against {report.checkpoints} checkpoint(s)")
        notes = "; ".join(checked + report.unchecked)
        print(
            f"capsa store verify: {report.records} record(s) of {report.tables} table(s) "
            f"{verdict} ({notes})",
            file=sys.stderr,
        )
        return 0 if report.ok else EXIT_FAILED

    return _opened(args, run)


def _cmd_checkpoint(args: argparse.Namespace) -> int:
    def run(store: Store) -> int:
        checkpoint = store.checkpoint()
        sys.stdout.buffer.write(checkpoint.text.encode() + b"\n")
        sys.stdout.buffer.flush()
        signed = "signed under the store key" if checkpoint.mac else "not signed (no store key)"
        print(
            f"capsa store checkpoint: {len(checkpoint.tables)} table(s) at "
            f"{checkpoint.made_at}, {signed}",
            file=sys.stderr,
        )
        return 0

    return _opened(args, run)


def _cmd_sign_heads(args: argparse.Namespace) -> int:
    def run(store: Store) -> int:
        print(f"capsa store sign-heads: {store.sign_heads()} head(s) signed", file=sys.stderr)
        return 0

    return _opened(args, run)


def _cmd_export(args: argparse.Namespace) -> int:
    check_writable(args.out)

    def run(store: Store) -> int:
        if args.format == "parquet":
            try:
                import pyarrow  # noqa: F401 - only whether it is installed
            except ImportError:
                raise UsageError("Parquet needs pyarrow: pip install 'capsa[parquet]'") from None
        skipped: list[str] = []

        def skip(round_id: str | None, exc: Exception) -> None:
            skipped.append(str(round_id))
            print(f"capsa store export: round {round_id!r} left out: {exc}", file=sys.stderr)

        void: list[str] = []
        written = store.export(args.out, format=args.format, on_skip=skip, on_void=void.append)
        left = f" ({len(void)} void round(s) left out: no seats)" if void else ""
        print(
            f"capsa store export: {written} record(s) written to {args.out}{left}",
            file=sys.stderr,
        )
        return EXIT_FAILED if skipped else 0

    return _opened(args, run)


def _cmd_stats(args: argparse.Namespace) -> int:
    def run(store: Store) -> int:
        out = sys.stdout.buffer
        for row in store.stats(tz=args.tz):
            _write(
                out,
                {
                    "day": row.day,
                    "players": row.players,
                    "rake": row.rake,
                    "rounds": row.rounds,
                    "table_id": row.table_id,
                },
            )
        return 0

    return _opened(args, run)


def _cmd_pending(args: argparse.Namespace) -> int:
    def run(store: Store) -> int:
        out = sys.stdout.buffer
        for opening in store.pending_rounds():
            _write(
                out,
                {
                    "commitment": opening.commitment,
                    "nonce": opening.nonce,
                    "opened_ms": opening.opened_ms,
                    "previous_digest": opening.previous_digest,
                    "round_id": opening.round_id,
                    "table_id": opening.table_id,
                },
            )
        return 0

    return _opened(args, run)


def _cmd_set_aside(args: argparse.Namespace) -> int:
    def run(store: Store) -> int:
        out = sys.stdout.buffer
        for kept in store.set_aside_records():
            line: dict[str, Any] = {
                "reason": kept.reason,
                "round_id": kept.round_id,
                "seq": kept.seq,
                "set_aside_ms": kept.set_aside_ms,
                "table_id": kept.table_id,
            }
            try:
                line["record"] = kept.record.decode("utf-8")
            except UnicodeDecodeError:
                line["record_base64"] = base64.b64encode(kept.record).decode("ascii")
            _write(out, line)
        return 0

    return _opened(args, run)


def _cmd_migrate(args: argparse.Namespace) -> int:
    with _database_errors(args.url):
        before, after = migrate(args.url, retry_seconds=args.retry_seconds)
    if before == after:
        print(f"{args.url}: schema version {after}, nothing to migrate")
    else:
        print(f"{args.url}: migrated from schema version {before} to {after}")
    return 0


def _url(text: str) -> str:
    try:
        backend_for(text)
    except StoreError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return text


def _seconds(text: str) -> float:
    """An argparse type: a number of seconds >= 0."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a number of seconds, got {text[:24]}") from None
    if not 0 <= value < math.inf:
        raise argparse.ArgumentTypeError(f"must be a number of seconds >= 0, got {text[:24]}")
    return value


def register(subparsers: Any) -> None:
    """Adds ``capsa store`` and its verbs."""
    group = subparsers.add_parser(
        "store",
        help="a records store on SQLite or PostgreSQL",
        description="An append-only store of round records (docs/store.md). URL: "
        "sqlite:///PATH or postgresql://USER@HOST:PORT/DB.",
    )
    verbs = group.add_subparsers(dest="verb", metavar="VERB", required=True)

    def verb(name: str, run: Callable[[argparse.Namespace], int], text: str) -> Any:
        parser = verbs.add_parser(name, help=text, description=text)
        parser.add_argument("url", type=_url, help="sqlite:///PATH or postgresql://...")
        parser.add_argument(
            "--retry-seconds",
            type=_seconds,
            default=DEFAULT_RETRY_SECONDS,
            metavar="S",
            help="how long to wait for a database that went away before giving up "
            f"(default {DEFAULT_RETRY_SECONDS:g})",
        )
        parser.set_defaults(run=run)
        return parser

    verb("init", _cmd_init, "make the store's tables")
    append = verb("append", _cmd_append, "append a record log (JSON Lines)")
    append.add_argument("input", nargs="?", help="records file (default: standard input)")
    append.add_argument(
        "--batch",
        type=int_in(1, 100_000, "--batch"),
        default=1,
        help="records per transaction (default 1: each durable on its own; a batch is "
        "all or nothing, and a batch with a refused record is appended one by one)",
    )

    def keyed(parser: Any) -> Any:
        parser.add_argument(
            "--key-file",
            metavar="PATH",
            help=f"the store key, as hex (default: the environment's {KEY_ENV}, hex)",
        )
        return parser

    keyed(append)
    verify = keyed(verb("verify", _cmd_verify, "check every record, seat row and head"))
    verify.add_argument("--table", help="only this table (exit 2 when the store has none)")
    verify.add_argument(
        "--checkpoint",
        action="append",
        metavar="FILE",
        help="check each chain against a checkpoint (capsa store checkpoint); repeatable",
    )
    keyed(verb("checkpoint", _cmd_checkpoint, "make and print a checkpoint of every table"))
    keyed(verb("sign-heads", _cmd_sign_heads, "sign every unsigned head under the store key"))
    export = verb("export", _cmd_export, "write the records as JSON Lines or Parquet")
    export.add_argument(
        "--format",
        choices=("jsonl", "parquet"),
        required=True,
        help="JSON Lines (the records as written) or Parquet (a column a field)",
    )
    export.add_argument("--out", required=True, help="the file written")
    stats = verb("stats", _cmd_stats, "rounds, players and rake per table and day (JSON Lines)")
    stats.add_argument(
        "--tz",
        default="UTC",
        help="the time zone of the business days: an IANA name (Asia/Jakarta) or an "
        "offset (+07:00); default UTC",
    )
    verb("pending", _cmd_pending, "rounds opened whose records are not stored (JSON Lines)")
    verb("set-aside", _cmd_set_aside, "the records set aside, with why (JSON Lines)")
    verb("migrate", _cmd_migrate, "bring the store to this capsa's schema version")
