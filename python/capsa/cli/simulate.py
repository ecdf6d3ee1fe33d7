"""``capsa simulate``: simulate rules variants on the same deals and
compare what they do to the money; optionally an HTML report and the
summaries as JSON. Every output is checked, and the report's extra looked
for, before the simulation starts."""

from __future__ import annotations

import argparse
import contextlib
import sys
from collections.abc import Callable
from typing import Any

from capsa.cli.common import (
    UsageError,
    add_seats,
    check_writable,
    int_in,
    load_rules,
    stake_arg,
    write_file,
)
from capsa.report import LANGUAGES, ROUNDS_PER_HOUR, render_report
from capsa.simulation import simulate
from capsa.solver import STRATEGIES
from capsa.summary import summaries_json

__all__ = ["register"]


def register(subparsers: Any) -> None:
    """Adds ``capsa simulate``."""
    sim = subparsers.add_parser(
        "simulate",
        help="simulate rules variants and compare what they do to the money",
        description="Deals, arranges (solver or a baseline) and settles many tables per "
        "variant, prints a comparison and optionally writes an HTML report. The same seed "
        "gives the same figures on any number of cores or workers.",
    )
    sim.add_argument(
        "--rules",
        action="append",
        help="a preset name or a rules TOML file; repeat to compare variants (default capsa-susun)",
    )
    sim.add_argument(
        "--deals",
        type=int_in(1, 2**64 - 2, "--deals"),
        default=10_000,
        help="deals played under each rules (default: 10000)",
    )
    add_seats(sim, "the table size")
    sim.add_argument(
        "--strategy",
        choices=STRATEGIES,
        default="solver",
        help="how every seat arranges (default: solver)",
    )
    sim.add_argument(
        "--seed",
        type=int_in(0, 2**64 - 1, "--seed"),
        default=0,
        help="the deals' seed: the same deals under every rules (default: 0)",
    )
    sim.add_argument(
        "--stake",
        type=stake_arg("--stake"),
        default=None,
        help="minor units per point for every variant (default: each variant's money.stake)",
    )
    sim.add_argument("--report", help="write an HTML report comparing the variants here")
    sim.add_argument(
        "--rounds-per-hour",
        type=int_in(1, 1_000_000, "--rounds-per-hour"),
        default=ROUNDS_PER_HOUR,
        help=f"rounds a table plays in an hour, for the report's rake per hour "
        f"(default {ROUNDS_PER_HOUR})",
    )
    sim.add_argument(
        "--lang",
        choices=LANGUAGES,
        default="en",
        help="the report's language: en (English) or id (Indonesian) (default: en)",
    )
    sim.add_argument("--json", dest="json_out", help="write the summaries as JSON here")
    where = sim.add_mutually_exclusive_group()
    where.add_argument("--scheduler", help="run on the Dask cluster at this address")
    where.add_argument(
        "--workers",
        type=int_in(1, 1024, "--workers"),
        default=None,
        help="run on a local Dask cluster of this many worker processes",
    )
    sim.add_argument(
        "--threads",
        type=int_in(1, 4096, "--threads"),
        default=None,
        help="cores to use in this process (default all)",
    )
    sim.add_argument("--no-progress", action="store_true", help="no progress bar")
    sim.set_defaults(run=_run)


def _client(args: argparse.Namespace, stack: contextlib.ExitStack[Any]) -> Any:
    if args.scheduler is None and args.workers is None:
        return None
    try:
        import distributed
    except ImportError:
        raise UsageError("--scheduler and --workers need Dask: pip install 'capsa[dask]'") from None
    dist: Any = distributed
    Client, LocalCluster = dist.Client, dist.LocalCluster
    if args.scheduler is not None:
        try:
            return stack.enter_context(Client(args.scheduler, timeout="20s"))
        except OSError as exc:
            raise UsageError(f"cannot reach the scheduler {args.scheduler}: {exc}") from None
    cluster = stack.enter_context(
        LocalCluster(n_workers=args.workers, threads_per_worker=1, dashboard_address=":0")
    )
    return stack.enter_context(Client(cluster))


def _check_outputs(args: argparse.Namespace) -> None:
    """Refuses, before simulating, an output that cannot be written and a
    report without its extra."""
    if args.json_out:
        check_writable(args.json_out, "--json")
    if args.report:
        check_writable(args.report, "--report")
        try:
            import matplotlib.figure  # noqa: F401
        except ImportError:
            raise UsageError("--report needs matplotlib: pip install 'capsa[report]'") from None


def _run(args: argparse.Namespace) -> int:
    """``capsa simulate``: every variant on the same deals, a table on
    standard output, the report and summaries on request."""
    specs = args.rules or [None]
    variants = [(spec or "capsa-susun", load_rules(spec)) for spec in specs]
    _check_outputs(args)
    summaries = []
    show = not args.no_progress and sys.stderr.isatty()
    with contextlib.ExitStack() as stack:
        client = _client(args, stack)
        for label, rules in variants:
            summary = simulate(
                rules,
                deals=args.deals,
                seats=args.seats,
                strategy=args.strategy,
                seed=args.seed,
                client=client,
                stake=args.stake,
                threads=args.threads,
                progress=show,
            )
            summaries.append((label, summary))
    print(_comparison(summaries))
    if args.json_out:
        text = summaries_json([s for _, s in summaries])
        write_file(args.json_out, text.encode("utf-8"))
    if args.report:
        page = render_report(
            summaries,
            rounds_per_hour=args.rounds_per_hour,
            lang=args.lang,
            rules=[rules for _, rules in variants],
        )
        write_file(args.report, page.encode("utf-8"))
        print(f"report written to {args.report}")
    return 0


def _comparison(summaries: list[tuple[str, Any]]) -> str:
    """A plain-text table of the main figures, one column per variant."""
    rows: list[list[str]] = [["", *[label for label, _ in summaries]]]

    def add(name: str, cell: Callable[[Any], str]) -> None:
        rows.append([name, *[cell(s) for _, s in summaries]])

    add("deals", lambda s: f"{s.deals:,}")
    add("stake / rake", lambda s: f"{s.stake} / {s.rake_text}")
    add("house rake per 1,000 rounds", lambda s: f"{s.house_rake_per_1000:,.1f}")
    add("points per round: std (seat 0)", lambda s: f"{s.points_stats(0).std:.3f}")
    add(
        "points per round: p5 .. p95",
        lambda s: f"{s.points_stats(0).percentiles[5]} .. {s.points_stats(0).percentiles[95]}",
    )
    add("net money per round: std (seat 0)", lambda s: f"{s.money_stats(0, net=True).std:,.2f}")
    add("scoops per pair", lambda s: f"{s.rates['scoop']:.4f}")
    add("sweep-alls per seat", lambda s: f"{s.rates['sweep_all']:.5f}")
    add("naturals declared per seat", lambda s: f"{s.rates['natural']:.5f}")
    add(
        "fouls / surrenders per seat",
        lambda s: f"{s.rates['foul']:.4f} / {s.rates['surrender']:.4f}",
    )
    widths = [max(len(r[k]) for r in rows) for k in range(len(rows[0]))]
    lines = []
    for r in rows:
        lines.append(
            "  ".join(
                c.ljust(w) if k == 0 else c.rjust(w)
                for k, (c, w) in enumerate(zip(r, widths, strict=True))
            )
        )
    return "\n".join(lines)
