"""The variant simulator: what a rules variant does to the money at a table.

:func:`simulate` deals ``deals`` tables, arranges every seat with a strategy
(the solver, or a baseline), settles each round at the rules' stake and
returns a :class:`Summary`: per seat the distribution of points (and so of
money, rake and net) per round, the house's rake, and how often each
natural, foul, scoop, sweep-all and surrender happened.

Deal ``i`` of a run seeded ``s`` depends on ``(s, i)`` only (it is
``capsa.deal(seats, seed=deal_seed(s, i))``, see :func:`simulated_deal`),
and a summary holds only integer counts, so the summaries of any split of
a range of deals merge (:meth:`Summary.merge`) into exactly the summary of
the whole range: one process, many threads or a Dask cluster
(``client=``) give the same numbers. Percentiles come from the exact
histograms. ``docs/bulk.md`` documents every field.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from typing import Any

from capsa import _core
from capsa._core import NATURAL_NAMES, ArgumentError
from capsa.rules import Rules, presets
from capsa.solver import STRATEGIES, TablesLike, load_tables
from capsa.summary import (
    PERCENTILES,
    Stats,
    Summary,
    merge_all,
    percentile,
    simulate_range,
    write_summaries,
)

__all__ = [
    "PERCENTILES",
    "Stats",
    "Summary",
    "deal_seed",
    "dealt_naturals",
    "merge_all",
    "percentile",
    "read_progress",
    "resolve_rules",
    "simulate",
    "simulate_range",
    "simulated_deal",
    "write_summaries",
]

_U64 = 2**64
# deals per call into the core: a few seconds of work at most, so that a
# progress bar moves and an interrupt is seen
_CHUNK = {"solver": 4096, "separable": 4096, "random": 8192, "greedy": 1 << 17}


def deal_seed(seed: int, index: int) -> int:
    """The seed of deal ``index`` of a run seeded ``seed`` (SplitMix64 of
    ``seed`` xor the golden-ratio multiple of ``index + 1``), as the core
    computes it."""
    _check_u64(seed, "seed")
    _check_u64(index, "index")
    z = seed ^ ((0x9E37_79B9_7F4A_7C15 * (index + 1)) % _U64)
    z = ((z ^ (z >> 30)) * 0xBF58_476D_1CE4_E5B9) % _U64
    z = ((z ^ (z >> 27)) * 0x94D0_49BB_1331_11EB) % _U64
    return z ^ (z >> 31)


def simulated_deal(seed: int, index: int, seats: int = 4) -> list[list[int]]:
    """The sorted card ids of each seat's hand in deal ``index`` of a run
    seeded ``seed`` (the same as ``capsa.deal(seats, seed=deal_seed(seed,
    index))``)."""
    return _core.simulated_deal(seed, index, seats)


def dealt_naturals(
    deals: int, seats: int = 4, seed: int = 0, *, start: int = 0, threads: int | None = None
) -> dict[str, int]:
    """Per natural, how many hands of a run's deals ``start`` .. ``start +
    deals - 1`` qualify for it: the deals :func:`simulate` plays (its
    ``qualifying``), neither arranged nor settled, so millions a second."""
    counts = _core.simulated_naturals(seed, start=start, count=deals, seats=seats, threads=threads)
    return dict(zip(NATURAL_NAMES, counts, strict=True))


def _check_u64(value: Any, what: str) -> None:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{what} must be an int, not {type(value).__name__}")
    if not 0 <= value < _U64:
        raise ArgumentError(f"{what} must be in 0..2**64-1, got {value}")


def resolve_rules(rules: Rules | str | os.PathLike[str] | None) -> Rules:
    """Rules from a ``Rules``, a preset name, a rules TOML file or None (the default)."""
    if rules is None:
        return Rules()
    if isinstance(rules, Rules):
        return rules
    if isinstance(rules, str) and rules in presets():
        return Rules.preset(rules)
    if isinstance(rules, str | os.PathLike):
        return Rules.load(rules)
    raise TypeError(f"rules must be a Rules, a preset name or a path, not {type(rules).__name__}")


def _check_count(value: Any, what: str, low: int = 0) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{what} must be an int, not {type(value).__name__}")
    if not low <= value < _U64:
        raise ArgumentError(f"{what} must be in {low}..2**64-1, got {value}")
    return value


def _check_table(seats: object, strategy: object) -> None:
    """The types of ``seats`` and ``strategy``, and the strategy's name; the
    core checks the seats against the rules' deck."""
    if isinstance(seats, bool) or not isinstance(seats, int):
        raise TypeError(f"seats must be an int, not {type(seats).__name__}")
    if not isinstance(strategy, str):
        raise TypeError(f"strategy must be a str, not {type(strategy).__name__}")
    if strategy not in STRATEGIES:
        raise ArgumentError(
            f"unknown strategy {strategy!r}; the strategies are {', '.join(STRATEGIES)}"
        )


def simulate(
    rules: Rules | str | os.PathLike[str] | None = None,
    deals: int = 10_000,
    seats: int = 4,
    strategy: str = "solver",
    seed: int = 0,
    client: Any = None,
    *,
    stake: int | None = None,
    start: int = 0,
    tables: TablesLike = None,
    threads: int | None = None,
    partitions: int | None = None,
    progress: bool | Callable[[int], Any] = False,
) -> Summary:
    """Deals, arranges and settles ``deals`` tables of ``seats``, deal
    indices ``start`` .. ``start + deals - 1`` of the run seeded ``seed``,
    and returns their :class:`Summary`.

    ``rules`` is a ``Rules``, a preset name or a rules file; ``stake``
    replaces its ``money.stake`` (minor units per point; the presets' stake
    is 1, where a 3% rake rounds down to nothing on most rounds).
    ``strategy`` is ``"solver"`` (the model; it surrenders, when the rules
    allow it, a hand whose expected points are below what surrendering costs
    against every opponent), ``"separable"`` (the same), or a baseline that
    never surrenders: ``"greedy"`` or ``"random"``; ``tables``, the solver's
    (:func:`capsa.solver.load_tables`). Seat ``i % seats`` banks deal ``i``.
    Under rules of a larger deck (added suits, two decks, jokers) deal ``i``
    is the seeded deal of that deck, at up to as many seats as it deals 13
    cards to.

    Without ``client`` the deals run in this process on ``threads`` cores
    (default all); with a ``distributed.Client`` they are cut into
    ``partitions`` ranges (default four per worker thread) run on the
    cluster. ``progress=True`` shows a progress bar (``tqdm`` when
    installed; Dask's own on a cluster); a callable is called with the
    number of deals each finished part held. The summary is the same
    whatever the threads, partitions or workers.

    Raises ``RulesError`` for unknown rules or strategy, ``TableError`` for
    ``seats`` outside 2..4 (outside what the rules' deck seats),
    ``ArgumentError`` for counts or a seed out of range or a stake a deal
    could settle beyond 64-bit money (before any deal), ``TypeError`` for
    arguments of the wrong type.
    """
    progress = read_progress(progress)
    rules = resolve_rules(rules)
    deals = _check_count(deals, "deals")
    seed = _check_count(seed, "seed")
    start = _check_count(start, "start")
    if start + deals > _U64 - 1:
        raise ArgumentError(f"deals {start} + {deals} run past the last deal index 2**64 - 2")
    _check_table(seats, strategy)
    if stake is not None:
        rules = rules.derive({"money.stake": _check_count(stake, "stake")})
    _core.check_settlement_fits(rules, seats, None)
    table_bytes = load_tables(tables)
    if client is not None:
        from capsa.dask import simulate_on_cluster

        return simulate_on_cluster(
            client,
            rules,
            deals=deals,
            seats=seats,
            strategy=strategy,
            seed=seed,
            start=start,
            tables=table_bytes,
            partitions=partitions,
            progress=progress,
        )
    return _simulate_here(
        rules, deals, seats, strategy, seed, start, table_bytes, threads, progress
    )


class _Progress:
    """A terminal progress bar: tqdm when installed, else a line on stderr."""

    def __init__(self, total: int, label: str) -> None:
        self._done = 0
        self._total = total
        self._label = label
        try:
            from tqdm import tqdm
        except ImportError:
            self._bar: Any = None
        else:
            self._bar = tqdm(total=total, unit="deal", unit_scale=True, desc=label, leave=False)

    def __call__(self, step: int) -> None:
        self._done += step
        if self._bar is not None:
            self._bar.update(step)
        else:
            share = self._done / self._total if self._total else 1.0
            print(
                f"\r{self._label}: {self._done:,} of {self._total:,} deals ({share:.0%})",
                end="",
                file=sys.stderr,
                flush=True,
            )

    def close(self) -> None:
        if self._bar is not None:
            self._bar.close()
        else:
            print(file=sys.stderr)


def read_progress(progress: object) -> bool | Callable[[int], Any]:
    """A ``progress`` argument: a bool (a progress bar or none), or a
    callable called with the deals of each finished part. Raises
    ``TypeError`` for anything else ("false" too)."""
    if callable(progress):
        return progress
    return _core.read_flag(progress, "progress")


def _simulate_here(
    rules: Rules,
    deals: int,
    seats: int,
    strategy: str,
    seed: int,
    start: int,
    tables: bytes | None,
    threads: int | None,
    progress: bool | Callable[[int], Any],
) -> Summary:
    bar = _Progress(deals, rules.name) if progress is True else None
    report = bar if bar is not None else (progress if callable(progress) else None)
    chunk = _CHUNK[strategy]
    summary = simulate_range(rules, start, 0, seats, strategy, seed, tables, threads)
    try:
        for first in range(start, start + deals, chunk):
            count = min(chunk, start + deals - first)
            part = simulate_range(rules, first, count, seats, strategy, seed, tables, threads)
            summary = summary.merge(part)
            if report is not None:
                report(count)
    finally:
        if bar is not None:
            bar.close()
    return summary
