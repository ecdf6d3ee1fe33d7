"""``capsa conformance``: serve (capsa as a protocol engine), vectors
(regenerate the suites), run (test an engine against them) and infer (the
rules an engine plays). The kit itself is :mod:`capsa.conformance`; each
verb imports its part of it when it runs.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

from capsa.cli.common import UsageError, check_writable, int_in, prepare_folder, write_file

__all__ = ["register"]


def _serve(args: argparse.Namespace) -> int:
    from capsa.conformance.serve import serve

    serve(sys.stdin.buffer, sys.stdout.buffer)
    return 0


def _vectors(args: argparse.Namespace) -> int:
    from capsa.conformance.protocol import OPS
    from capsa.conformance.vectors import generate, write_suites

    for op in args.op or ():
        if op not in OPS:
            raise UsageError(f"--op {op!r} is not an op; the ops are: {', '.join(OPS)}")
    prepare_folder(args.out, "--out")
    started = time.monotonic()

    def progress(suite: str, count: int) -> None:
        # each suite as it is made and checked by the oracle (a minute in all)
        seconds = time.monotonic() - started
        print(
            f"capsa conformance vectors: {suite}: {count} vectors ({seconds:.0f} s)",
            file=sys.stderr,
            flush=True,
        )

    suites = generate(args.op or OPS, progress=progress)
    try:
        paths = write_suites(args.out, suites)
    except OSError as exc:
        raise UsageError(f"cannot write the vectors in {args.out}: {exc.strerror or exc}") from None
    for path in paths:
        count = len(path.read_text(encoding="utf-8").splitlines())
        print(f"{path}: {count} vectors")
    return 0


def _run(args: argparse.Namespace) -> int:
    from capsa import CapsaError
    from capsa.conformance.engines import HandshakeError
    from capsa.conformance.harness import run

    if args.vectors is not None and not Path(args.vectors).exists():
        raise UsageError(f"--vectors {args.vectors!r}: no such file or folder")
    rules = _rules_arg(args.rules)
    if args.out:
        prepare_folder(args.out, "--out")  # before the run, not after it
    try:
        report = run(
            args.engine,
            vectors=args.vectors,
            fuzz=args.fuzz,
            seed=args.seed,
            digests=args.digests,
            out=args.out,
            timeout=args.timeout,
            rules=rules,
            min_requests=args.min_requests,
            shrink_budget=args.shrink_budget.requests,
            shrink_seconds=args.shrink_budget.seconds,
            digest_timeout=args.digest_timeout,
        )
    except HandshakeError as exc:
        raise UsageError(f"the engine: {exc}") from None
    except CapsaError:
        raise  # a bad rules knob in a vector: reported with its type
    except OSError as exc:
        if args.out and exc.filename and Path(exc.filename).is_relative_to(args.out):
            raise UsageError(f"cannot write in --out {args.out}: {exc.strerror or exc}") from None
        raise UsageError(f"--vectors: {exc}") from None
    except ValueError as exc:  # a vector file that cannot be read
        raise UsageError(f"--vectors: {exc}") from None
    print(report.matrix_text())
    print()
    if report.causes_text():
        print(report.causes_text())
        print()
    for failure in report.failures[: args.show]:
        print(
            f"FAIL {failure.kind} {failure.id} ({failure.op})"
            + (f" invariant {failure.invariant}" if failure.invariant else "")
        )
        shown = failure.shrunk.to_json() if failure.shrunk else None
        if shown:
            print(f"  shrunk: rules {shown['rules']}, input {shown['input']}")
            print(f"  capsa: {shown['expected']}; engine: {failure.shrunk_got}")
        else:
            print(f"  capsa: {failure.expected}; engine: {failure.got}")
        for line in failure.explanation.splitlines()[:8]:
            print(f"  {line}")
        if failure.replay:
            print(f"  replay: {failure.replay}")
    if len(report.failures) > args.show:
        print(f"... and {len(report.failures) - args.show} more in the report")
    if report.rules is not None:
        print(f"tested under the rules {report.rules.describe()}")
    if report.skips:
        reasons = sorted(report.skips.items(), key=lambda kv: -kv[1])
        print("vectors skipped: " + "; ".join(f"{n} {reason}" for reason, n in reasons))
    print(report.summary())
    if args.out:
        print(f"report: {Path(args.out) / 'report.json'}")
    return report.exit_code


def _infer(args: argparse.Namespace) -> int:
    from capsa.conformance.engines import HandshakeError
    from capsa.conformance.inference import infer
    from capsa.rules import Rules, presets

    if args.out:
        check_writable(args.out, "--out")
    base: str | Rules | None = None
    if args.rules is not None:
        base = args.rules if args.rules in presets() else Rules.load(args.rules)
    try:
        check = None if args.no_check else args.check_fuzz
        found = infer(
            args.engine,
            base=base,
            timeout=args.timeout,
            check=check,
            check_vectors=args.check_vectors,
        )
    except HandshakeError as exc:
        raise UsageError(f"the engine: {exc}") from None
    text = found.to_toml()
    if args.out:
        write_file(args.out, text.encode("utf-8"))
    print(text, end="")
    print(f"# {found.summary()}" + (f"; written to {args.out}" if args.out else ""))
    return 0


def _rules_arg(text: str | None) -> Any:
    """``--rules``: a preset name or a rules file (read by the harness)."""
    from capsa.rules import presets

    if text is None or text in presets():
        return text
    if not Path(text).is_file():
        raise UsageError(
            f"--rules {text!r} is neither a preset ({', '.join(presets())}) nor a file"
        )
    return Path(text)


def _seconds(text: str) -> float:
    """An argparse type: a number of seconds above zero."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a number of seconds, not {text!r}") from None
    if not 0 < value <= 86_400:
        raise argparse.ArgumentTypeError(f"must be above 0 and at most 86400, got {text}")
    return value


def _budget(text: str) -> Any:
    """An argparse type: a shrink budget, ``REQUESTS:SECONDSs``."""
    from capsa.conformance.timing import ShrinkBudget

    try:
        return ShrinkBudget.parse(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def register(subparsers: Any) -> None:
    """Adds ``capsa conformance`` and its verbs."""
    conf = subparsers.add_parser(
        "conformance",
        help="differential-test an engine against capsa (docs/conformance.md)",
        description="The conformance kit: capsa as a protocol engine, the vector suites, "
        "and the harness that runs any engine against them.",
    )
    verbs = conf.add_subparsers(dest="verb", metavar="VERB", required=True)
    serve = verbs.add_parser("serve", help="answer protocol requests on stdin/stdout as capsa")
    serve.set_defaults(run=_serve)

    vec = verbs.add_parser("vectors", help="regenerate the vector suites (checked by the oracle)")
    vec.add_argument("--out", required=True, help="folder to write <op>.jsonl into")
    vec.add_argument("--op", action="append", help="only this op (repeatable)")
    vec.set_defaults(run=_vectors)
    _add_run(verbs)
    _add_infer(verbs)


def _add_run(verbs: Any) -> None:
    """``capsa conformance run``."""
    run = verbs.add_parser("run", help="run an engine against the vectors, then fuzz it")
    run.add_argument("--engine", required=True, help='the engine command, e.g. "node engine.js"')
    run.add_argument("--vectors", help="a .jsonl file or folder (default: the shipped suites)")
    run.add_argument(
        "--fuzz",
        type=int_in(0, None, "--fuzz"),
        default=200,
        help="Hypothesis examples to fuzz with (default 200; 0: none)",
    )
    run.add_argument(
        "--seed",
        type=int_in(0, 2**32 - 1, "--seed"),
        default=0,
        help="the fuzz cases' seed (default: 0)",
    )
    run.add_argument(
        "--digests",
        choices=["auto", "presets", "all", "none"],
        default="auto",
        help="which digest vectors to ask (default auto: the presets' rankings, "
        "the five-card ones only when the three-card ones say they are cheap)",
    )
    run.add_argument(
        "--out",
        default="conformance-report",
        help="folder for report.json and reproducers (default conformance-report)",
    )
    run.add_argument(
        "--timeout", type=_seconds, default=10.0, help="seconds to wait for an answer (default 10)"
    )
    run.add_argument(
        "--digest-timeout",
        type=_seconds,
        default=120.0,
        help="seconds to wait for a digest answer (default 120; "
        "a pure-Python engine needs about 50 s for the five-card hands)",
    )
    run.add_argument(
        "--shrink-budget",
        type=_budget,
        default="2000:60s",
        metavar="REQUESTS:SECONDSs",
        help="the most shrinking asks and takes over all failures (default 2000:60s)",
    )
    run.add_argument(
        "--show", type=int_in(0, None, "--show"), default=10, help="failures to print (default 10)"
    )
    run.add_argument(
        "--rules",
        help="test the engine under these rules, a preset or a rules file "
        '(default: the "rules" of the engine\'s hello, if any): every vector re-derived for them',
    )
    run.add_argument(
        "--min-requests",
        type=int_in(0, None, "--min-requests"),
        default=100,
        help="fewest answers checked for a run to pass (default 100; fewer: exit code 3)",
    )
    run.set_defaults(run=_run)


def _add_infer(verbs: Any) -> None:
    """``capsa conformance infer``."""
    inf = verbs.add_parser(
        "infer", help="probe an engine and print the rules it plays, as a rules file"
    )
    inf.add_argument("--engine", required=True, help='the engine command, e.g. "node engine.js"')
    inf.add_argument(
        "--rules",
        help="the preset or rules file every probe is sent under "
        '(default: the "preset" of the engine\'s hello, else capsa-susun)',
    )
    inf.add_argument("--out", help="also write the inferred rules file here")
    inf.add_argument(
        "--check-fuzz",
        type=int_in(0, None, "--check-fuzz"),
        default=50,
        help="fuzz cases of the check run under the inferred rules (default 50)",
    )
    inf.add_argument(
        "--check-vectors",
        help="a .jsonl file or folder for the check run (default: the shipped suites)",
    )
    inf.add_argument(
        "--no-check", action="store_true", help="skip the check run under the inferred rules"
    )
    inf.add_argument(
        "--timeout", type=_seconds, default=10.0, help="seconds to wait for an answer (default 10)"
    )
    inf.set_defaults(run=_infer)
