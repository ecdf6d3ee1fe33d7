"""The command-line side of bulk work: ``capsa settle`` with Parquet (or an
output file), and ``capsa simulate``. ``capsa.cli`` hands these over; the
exit codes and the one-line errors are its (see ``capsa.cli``).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any

from capsa.rules import Rules

__all__ = ["add_simulate_command", "handles_settle", "settle_command"]

_PARQUET_SUFFIXES = (".parquet", ".pq")


def _is_parquet_path(path: str | None) -> bool:
    if path in (None, "-"):
        return False
    assert path is not None
    p = Path(path)
    return p.suffix.lower() in _PARQUET_SUFFIXES or (
        p.is_dir() and any(q.suffix.lower() in _PARQUET_SUFFIXES for q in p.iterdir())
    )


def handles_settle(args: argparse.Namespace) -> bool:
    """True when ``capsa settle`` reads or writes Parquet, or writes to a file."""
    return bool(
        args.format == "parquet" or _is_parquet_path(args.input) or getattr(args, "output", None)
    )


def _usage(message: str) -> Exception:
    from capsa.cli import UsageError

    return UsageError(message)


# ---------------------------------------------------------------- settle


def _id_fault(value: Any) -> str | None:
    """Why a round's id has no JSON form (binary data, a number that is not
    finite), or None when it has one."""
    if isinstance(value, bytes | bytearray | memoryview):
        return "TableError: the id is binary data, which JSON cannot hold; ids are text or numbers"
    try:
        json.dumps(value, allow_nan=False, default=str)
    except ValueError:
        return f"TableError: the id {value!r} is not a finite number, which JSON cannot hold"
    return None


class _ResultsJsonLines:
    """Writes results tables as JSON Lines: one object per round, the
    results fields with each figure as a list over the seats. A round whose
    id has no JSON form is written as an error of that round (``refused``
    counts those that had settled)."""

    def __init__(self, out: IO[bytes]) -> None:
        self._out = out
        self.refused = 0

    def write_table(self, table: Any) -> None:
        columns = table.to_pydict()
        seats = sum(1 for name in columns if name.startswith("points"))
        for k in range(table.num_rows):
            n = columns["seats"][k]
            error = columns["error"][k]
            record: dict[str, Any] = {}
            if "id" in columns:
                record["id"] = columns["id"][k]
                fault = _id_fault(record["id"])
                if fault is not None:
                    record["id"] = None
                    self.refused += error is None
                    error = error or fault
            record["seats"] = n
            for figure in ("points", "money", "rake", "net"):
                values = [columns[f"{figure}{s}"][k] for s in range(seats)]
                record[figure] = None if error else values[:n]
            record["error"] = error
            line = json.dumps(record, sort_keys=True, allow_nan=False, default=str)
            self._out.write(line.encode() + b"\n")

    def close(self) -> None:
        self._out.flush()


class _Literal(str):
    """A JSON number kept as the text it was written as."""


class _StreamToParquet:
    """Takes the output records of the JSON stream (``write`` of JSON Lines
    bytes, or one document) and writes them as a results table."""

    def __init__(self, target: str, document: bool) -> None:
        from capsa.bulk import ParquetResultsWriter

        self._writer = ParquetResultsWriter(target)
        self._document = document

    def write(self, data: bytes) -> int:
        text = data.decode("utf-8")
        if self._document:
            parsed = json.loads(text, parse_int=_Literal, parse_float=_Literal)
            records = parsed if isinstance(parsed, list) else [parsed]
        else:
            records = [
                json.loads(line, parse_int=_Literal, parse_float=_Literal)
                for line in text.splitlines()
                if line.strip()
            ]
        if records:
            self._writer.write_table(_records_table(records))
        return len(data)

    def flush(self) -> None:
        pass

    def close(self) -> None:
        import pyarrow as pa

        from capsa.bulk import results_schema

        self._writer.close(results_schema(4, pa.string()))


def _records_table(records: list[dict[str, Any]]) -> Any:
    """A results table (id as text, four seat columns) of stream records."""
    import pyarrow as pa

    from capsa.bulk import FIGURES, MAX_SEATS, results_schema

    def text(value: Any) -> str | None:
        if value is None:
            return None
        return str(value) if isinstance(value, str) else json.dumps(value)

    columns: dict[str, list[Any]] = {"id": [], "seats": [], "error": []}
    for figure in FIGURES:
        for s in range(MAX_SEATS):
            columns[f"{figure}{s}"] = []
    for record in records:
        columns["id"].append(text(record.get("id")))
        error = record.get("error")
        if error is not None:
            line = record.get("line")
            where = f"line {line}: " if line is not None else ""
            columns["error"].append(f"{error}: {where}{record.get('message')}")
            columns["seats"].append(None)
        else:
            columns["error"].append(None)
            columns["seats"].append(len(record["points"]))
        for figure in FIGURES:
            values = [] if error is not None else [int(v) for v in record[figure]]
            for s in range(MAX_SEATS):
                columns[f"{figure}{s}"].append(values[s] if s < len(values) else None)
    schema = results_schema(MAX_SEATS, pa.string())
    return pa.table({f.name: pa.array(columns[f.name], f.type) for f in schema}, schema=schema)


def _progress_bar(total: int | None, unit: str) -> Callable[[int], None] | None:
    """A tqdm bar on a terminal's standard error, else None."""
    if not sys.stderr.isatty():
        return None
    try:
        from tqdm import tqdm
    except ImportError:
        return None
    bar = tqdm(total=total, unit=unit, unit_scale=True, leave=False)
    return bar.update  # type: ignore[no-any-return]


def settle_command(args: argparse.Namespace) -> int:
    """``capsa settle`` reading or writing Parquet, or writing to ``--output``."""
    from capsa import cli

    default = cli._load_rules(args.rules)
    try:
        import pyarrow  # noqa: F401
    except ImportError:
        if (
            args.format == "parquet"
            or _is_parquet_path(args.input)
            or _is_parquet_path(args.output)
        ):
            raise _usage("Parquet needs pyarrow: pip install 'capsa[parquet]'") from None
    parquet_out = args.output is not None and Path(args.output).suffix.lower() in _PARQUET_SUFFIXES
    if args.format == "parquet" or _is_parquet_path(args.input):
        return _settle_parquet_input(args, default, parquet_out)
    if not parquet_out:
        # JSON in, JSON out, to a file
        with contextlib.ExitStack() as stack:
            out = _open_output(args.output, stack)
            return _settle_json(args, default, out)
    with contextlib.ExitStack() as stack:
        sink = _StreamToParquet(args.output, document=args.format == "json")
        stack.callback(sink.close)
        return _settle_json(args, default, sink)


def _open_output(path: str, stack: contextlib.ExitStack[Any]) -> IO[bytes]:
    try:
        return stack.enter_context(open(path, "wb"))
    except OSError as exc:
        raise _usage(f"cannot write {path}: {exc.strerror or exc}") from None


def _settle_json(args: argparse.Namespace, default: Rules, out: Any) -> int:
    """The JSON stream of ``capsa settle``, writing to ``out``."""
    from capsa import _core, cli
    from capsa.rules import presets

    known: dict[str, _core.RuleSet] = {name: Rules.preset(name) for name in presets()}
    known[default.name] = default
    with contextlib.ExitStack() as stack:
        stream = cli._open_input(args.input, stack)
        fmt = args.format
        head = b""
        if fmt == "auto":
            fmt, head = cli._sniff(stream)
            if isinstance(out, _StreamToParquet):
                out._document = fmt == "json"
        if fmt == "json":
            text = head or stream.read(_core.MAX_DOCUMENT_BYTES + 1)
            if len(text) > _core.MAX_DOCUMENT_BYTES:
                raise _usage("the JSON document is too large; give the rounds as JSON Lines")
            failed = cli._settle_document(text, known, default.name, args.indent, out)
        else:
            source = cli._Prefixed(head, stream) if head else stream
            failed = cli._settle_lines(source, known, default.name, out)
    out.flush()
    return _finish(failed, args.strict)


def _finish(failed: int, strict: bool) -> int:
    from capsa import cli

    if failed:
        print(f"capsa settle: {failed} round(s) could not be settled", file=sys.stderr)
    return cli.EXIT_FAILED_ROUNDS if failed and strict else 0


def _settle_parquet_input(args: argparse.Namespace, default: Rules, parquet_out: bool) -> int:
    from capsa import bulk

    if args.input in (None, "-"):
        raise _usage("Parquet rounds are read from a file or a directory, not standard input")
    if not os.path.exists(args.input):
        raise _usage(f"cannot read {args.input}: no such file or directory")
    known = bulk.default_known_rules(default)
    import pyarrow as pa

    with contextlib.ExitStack() as stack:
        if parquet_out:
            writer: Any = bulk.ParquetResultsWriter(args.output)
        else:
            out = _open_output(args.output, stack) if args.output else sys.stdout.buffer
            writer = _ResultsJsonLines(out)
        rounds = failed = 0
        bar = _progress_bar(_rows(args.input), "round")
        try:
            for batch in bulk._batches(bulk._parquet_files(args.input), bulk.DEFAULT_BATCH_ROWS):
                result = bulk.settle_table(batch, default, known=known)
                writer.write_table(result)
                rounds += result.num_rows
                failed += result.num_rows - result.column("error").null_count
                if bar is not None:
                    bar(result.num_rows)
        except (TypeError, pa.ArrowException, OSError) as exc:
            raise _usage(f"cannot settle {args.input}: {exc}") from None
        finally:
            writer.close()
        failed += getattr(writer, "refused", 0)
    return _finish(failed, args.strict)


def _rows(source: str) -> int | None:
    import pyarrow.parquet as pq

    from capsa import bulk

    try:
        return sum(int(pq.ParquetFile(f).metadata.num_rows) for f in bulk._parquet_files(source))
    except Exception:  # a count for the progress bar only
        return None


# ---------------------------------------------------------------- simulate


def add_simulate_command(
    sub: Any, int_in: Callable[[int, int | None, str], Callable[[str], int]]
) -> None:
    """Adds ``capsa simulate`` to the subcommands (``int_in`` is cli's
    integer argument type)."""
    from capsa.solver import STRATEGIES

    sim = sub.add_parser(
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
    sim.add_argument("--deals", type=int_in(1, 2**64 - 2, "--deals"), default=10_000)
    sim.add_argument("--seats", type=int_in(2, 4, "--seats"), default=4)
    sim.add_argument("--strategy", choices=STRATEGIES, default="solver")
    sim.add_argument("--seed", type=int_in(0, 2**64 - 1, "--seed"), default=0)
    sim.add_argument(
        "--stake",
        type=int_in(0, 2**63 - 1, "--stake"),
        default=None,
        help="minor units per point for every variant (default: each variant's money.stake)",
    )
    sim.add_argument("--report", help="write an HTML report comparing the variants here")
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
    sim.set_defaults(run=simulate_command)


def _client(args: argparse.Namespace, stack: contextlib.ExitStack[Any]) -> Any:
    if args.scheduler is None and args.workers is None:
        return None
    try:
        import distributed
    except ImportError:
        raise _usage("--scheduler and --workers need Dask: pip install 'capsa[dask]'") from None
    dist: Any = distributed
    Client, LocalCluster = dist.Client, dist.LocalCluster
    if args.scheduler is not None:
        try:
            return stack.enter_context(Client(args.scheduler, timeout="20s"))
        except OSError as exc:
            raise _usage(f"cannot reach the scheduler {args.scheduler}: {exc}") from None
    cluster = stack.enter_context(
        LocalCluster(n_workers=args.workers, threads_per_worker=1, dashboard_address=":0")
    )
    return stack.enter_context(Client(cluster))


def simulate_command(args: argparse.Namespace) -> int:
    """``capsa simulate``: every variant on the same deals, a table on
    standard output, the report and summaries on request."""
    from capsa import cli
    from capsa.simulation import simulate, write_summaries

    specs = args.rules or [None]
    variants = [(spec or "capsa-susun", cli._load_rules(spec)) for spec in specs]
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
        write_summaries([s for _, s in summaries], args.json_out)
    if args.report:
        try:
            from capsa.report import write_report
        except ImportError as exc:
            raise _usage(str(exc)) from None

        write_report(summaries, args.report)
        print(f"report written to {args.report}")
    return 0


def _comparison(summaries: list[tuple[str, Any]]) -> str:
    """A plain-text table of the main figures, one column per variant."""
    rows: list[list[str]] = [["", *[label for label, _ in summaries]]]

    def add(name: str, cell: Callable[[Any], str]) -> None:
        rows.append([name, *[cell(s) for _, s in summaries]])

    add("deals", lambda s: f"{s.deals:,}")
    add("stake / rake %", lambda s: f"{s.stake} / {s.rake_percent}")
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
