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

import hashlib
import json
import math
import os
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

from capsa import _core
from capsa._core import NATURAL_NAMES, ArgumentError, TableError
from capsa.rules import Rules, presets
from capsa.solver import STRATEGIES, TablesLike, load_tables

__all__ = [
    "PERCENTILES",
    "Stats",
    "Summary",
    "deal_seed",
    "dealt_naturals",
    "resolve_rules",
    "simulate",
    "simulated_deal",
]

#: The percentiles every :class:`Stats` reports.
PERCENTILES = (1, 5, 25, 50, 75, 95, 99)
_U64 = 2**64
_ROUND_EVENTS = ("natural", "foul", "surrender", "scoop", "sweep_all")
# deals per call into the core: a few seconds of work at most, so that a
# progress bar moves and an interrupt is seen
_CHUNK = {"solver": 4096, "separable": 4096, "random": 8192, "greedy": 1 << 17}

Histogram = dict[int, int]


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


@dataclass(frozen=True)
class Stats:
    """Exact statistics of a per-round figure over the rounds of a summary:
    ``mean``, ``std`` (population standard deviation), ``percentiles`` (the
    :data:`PERCENTILES`, nearest rank: the smallest value at or above that
    share of rounds), ``min`` and ``max``. Built by :meth:`of`; raises
    nothing itself."""

    mean: float
    std: float
    percentiles: dict[int, int]
    min: int
    max: int

    @classmethod
    def of(cls, histogram: Histogram) -> Stats:
        """The statistics of a histogram {value: rounds}. Raises nothing
        (NaN statistics for an empty one)."""
        n = sum(histogram.values())
        if n == 0:
            nan = float("nan")
            return cls(nan, nan, {q: 0 for q in PERCENTILES}, 0, 0)
        total = sum(v * c for v, c in histogram.items())
        mean = Fraction(total, n)
        variance = sum(c * (v - mean) ** 2 for v, c in histogram.items()) / n
        return cls(
            mean=float(mean),
            std=math.sqrt(variance),
            percentiles={q: percentile(histogram, q) for q in PERCENTILES},
            min=min(histogram),
            max=max(histogram),
        )


def percentile(histogram: Histogram, q: float) -> int:
    """The nearest-rank ``q``-th percentile (0 < q <= 100) of a histogram:
    the smallest value with at least ``ceil(q / 100 * n)`` rounds at or
    below it."""
    n = sum(histogram.values())
    if n == 0:
        raise ArgumentError("the percentile of no rounds")
    rank = max(1, math.ceil(Fraction(q) / 100 * n))
    seen = 0
    for value in sorted(histogram):
        seen += histogram[value]
        if seen >= rank:
            return value
    return max(histogram)


def _rules_digest(rules: Rules) -> str:
    return hashlib.sha256(rules.to_toml().encode()).hexdigest()[:16]


def _merge_ranges(ranges: Iterable[tuple[int, int]]) -> tuple[tuple[int, int], ...]:
    """Sorted, adjacent ranges joined; an overlap is an ArgumentError."""
    out: list[tuple[int, int]] = []
    for start, end in sorted(r for r in ranges if r[1] > r[0]):
        if out and start < out[-1][1]:
            raise ArgumentError(
                f"deals {start}..{end - 1} overlap deals {out[-1][0]}..{out[-1][1] - 1}: "
                "a summary counts each deal once"
            )
        if out and start == out[-1][1]:
            out[-1] = (out[-1][0], end)
        else:
            out.append((start, end))
    return tuple(out)


def _add(a: Mapping[Any, int], b: Mapping[Any, int]) -> dict[Any, int]:
    out = dict(a)
    for key, count in b.items():
        out[key] = out.get(key, 0) + count
    return dict(sorted(out.items())) if all(isinstance(k, int) for k in out) else out


@dataclass(frozen=True)
class Summary:
    """What a simulation counted (every field an exact integer count).

    ``points[s]`` is seat ``s``'s histogram {points in a round: rounds};
    money is points times ``stake``, so it is also the seat's money, rake
    and net distribution. ``house_rake`` is the histogram of the house's
    total rake per round. ``qualifying[name]`` counts seat-rounds whose 13
    cards qualify for the natural (enabled or not), ``declared[name]`` those
    settled with it declared. ``fouls``, ``surrenders`` and ``sweep_alls``
    count seat-rounds; ``scoops`` counts pairs settled on their rows where
    one seat won all three (the pairs of a sweep-all included) out of
    ``pairs``; ``rounds[event]`` counts rounds with at least one natural,
    foul, surrender, scoop or sweep-all. ``ranges`` are the deal indices
    counted, ``[start, end)``. ``rules`` and ``rules_digest`` name the rules,
    ``seats``, ``strategy``, ``seed``, ``stake`` and ``rake_percent`` the
    run; ``points``, ``qualifying``, ``declared`` and ``rounds`` are as
    above. Built by :func:`simulate` (or merged); raises nothing itself.
    """

    rules: str
    rules_digest: str
    seats: int
    strategy: str
    seed: int
    stake: int
    rake_percent: int
    ranges: tuple[tuple[int, int], ...]
    points: tuple[Histogram, ...]
    house_rake: Histogram
    qualifying: dict[str, int]
    declared: dict[str, int]
    fouls: int
    surrenders: int
    sweep_alls: int
    scoops: int
    pairs: int
    rounds: dict[str, int] = field(default_factory=dict)

    # ------------------------------------------------------------ building

    @classmethod
    def _from_core(
        cls, counts: Mapping[str, Any], rules: Rules, strategy: str, seed: int, start: int
    ) -> Summary:
        deals = int(counts["deals"])
        return cls(
            rules=rules.name,
            rules_digest=_rules_digest(rules),
            seats=int(counts["seats"]),
            strategy=strategy,
            seed=seed,
            stake=int(rules["money.stake"]),
            rake_percent=int(rules["money.rake_percent"]),
            ranges=_merge_ranges([(start, start + deals)]),
            points=tuple(dict(h) for h in counts["points"]),
            house_rake=dict(counts["house_rake"]),
            qualifying=dict(zip(NATURAL_NAMES, counts["qualifying"], strict=True)),
            declared=dict(zip(NATURAL_NAMES, counts["declared"], strict=True)),
            fouls=counts["fouls"],
            surrenders=counts["surrenders"],
            sweep_alls=counts["sweep_alls"],
            scoops=counts["scoops"],
            pairs=counts["pairs"],
            rounds=dict(counts["rounds"]),
        )

    def merge(self, other: Summary) -> Summary:
        """The summary of both summaries' deals. They must be of the same
        run (rules, seats, strategy, seed, stake) and of different deals.
        Raises ``ArgumentError`` otherwise, ``TypeError`` for another type."""
        if not isinstance(other, Summary):
            raise TypeError(f"can only merge a Summary, not {type(other).__name__}")
        mine = (self.rules_digest, self.seats, self.strategy, self.seed, self.stake)
        theirs = (other.rules_digest, other.seats, other.strategy, other.seed, other.stake)
        if mine != theirs:
            raise ArgumentError(
                f"cannot merge summaries of different runs: {self._run_text()} and "
                f"{other._run_text()}"
            )
        return replace(
            self,
            ranges=_merge_ranges(self.ranges + other.ranges),
            points=tuple(_add(a, b) for a, b in zip(self.points, other.points, strict=True)),
            house_rake=_add(self.house_rake, other.house_rake),
            qualifying=_add(self.qualifying, other.qualifying),
            declared=_add(self.declared, other.declared),
            fouls=self.fouls + other.fouls,
            surrenders=self.surrenders + other.surrenders,
            sweep_alls=self.sweep_alls + other.sweep_alls,
            scoops=self.scoops + other.scoops,
            pairs=self.pairs + other.pairs,
            rounds=_add(self.rounds, other.rounds),
        )

    def _run_text(self) -> str:
        return (
            f"{self.rules} ({self.rules_digest}), {self.seats} seats, {self.strategy}, "
            f"seed {self.seed}, stake {self.stake}"
        )

    # ------------------------------------------------------------ JSON

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: histograms as sorted [value, rounds] pairs. Raises
        nothing."""
        return {
            "rules": self.rules,
            "rules_digest": self.rules_digest,
            "seats": self.seats,
            "strategy": self.strategy,
            "seed": self.seed,
            "stake": self.stake,
            "rake_percent": self.rake_percent,
            "ranges": [list(r) for r in self.ranges],
            "deals": self.deals,
            "points": [sorted(h.items()) for h in self.points],
            "house_rake": sorted(self.house_rake.items()),
            "qualifying": self.qualifying,
            "declared": self.declared,
            "fouls": self.fouls,
            "surrenders": self.surrenders,
            "sweep_alls": self.sweep_alls,
            "scoops": self.scoops,
            "pairs": self.pairs,
            "rounds": self.rounds,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Summary:
        """The summary :meth:`to_dict` wrote. Raises ``TableError`` naming a
        missing or malformed field."""
        try:
            return cls(
                rules=str(data["rules"]),
                rules_digest=str(data["rules_digest"]),
                seats=int(data["seats"]),
                strategy=str(data["strategy"]),
                seed=int(data["seed"]),
                stake=int(data["stake"]),
                rake_percent=int(data["rake_percent"]),
                ranges=_merge_ranges((int(a), int(b)) for a, b in data["ranges"]),
                points=tuple({int(v): int(c) for v, c in h} for h in data["points"]),
                house_rake={int(v): int(c) for v, c in data["house_rake"]},
                qualifying={str(k): int(v) for k, v in data["qualifying"].items()},
                declared={str(k): int(v) for k, v in data["declared"].items()},
                fouls=int(data["fouls"]),
                surrenders=int(data["surrenders"]),
                sweep_alls=int(data["sweep_alls"]),
                scoops=int(data["scoops"]),
                pairs=int(data["pairs"]),
                rounds={str(k): int(v) for k, v in data["rounds"].items()},
            )
        except KeyError as exc:
            raise TableError(f"a summary needs the field {exc.args[0]!r}") from None
        except (TypeError, ValueError, AttributeError) as exc:
            raise TableError(f"a malformed summary field: {exc}") from None

    # ------------------------------------------------------------ figures

    @property
    def deals(self) -> int:
        """Rounds counted."""
        return sum(end - start for start, end in self.ranges)

    def _seat(self, seat: int) -> Histogram:
        if isinstance(seat, bool) or not isinstance(seat, int):
            raise TypeError(f"seat must be an int, not {type(seat).__name__}")
        if not 0 <= seat < self.seats:
            raise ArgumentError(f"seat must be in 0..{self.seats - 1}, got {seat}")
        return self.points[seat]

    def points_histogram(self, seat: int | None = None) -> Histogram:
        """{points in a round: rounds} of one seat, or of every seat pooled.
        Raises ``ArgumentError`` for a seat the table does not have,
        ``TypeError`` for a non-int seat."""
        if seat is not None:
            return dict(self._seat(seat))
        pooled: Histogram = {}
        for h in self.points:
            pooled = _add(pooled, h)
        return pooled

    def _rake(self, money: int) -> int:
        return self.rake_percent * max(money, 0) // 100

    def money_histogram(self, seat: int | None = None, *, net: bool = False) -> Histogram:
        """{money in a round: rounds} (minor units, before rake; after rake
        with ``net=True``) of one seat or every seat pooled.
        Raises ``ArgumentError`` for a seat the table does not have,
        ``TypeError`` for a non-int seat."""
        out: Histogram = {}
        for points, count in self.points_histogram(seat).items():
            money = points * self.stake
            value = money - self._rake(money) if net else money
            out[value] = out.get(value, 0) + count
        return dict(sorted(out.items()))

    def points_stats(self, seat: int | None = None) -> Stats:
        """Points per round of a seat (or every seat pooled).
        Raises ``ArgumentError`` for a seat the table does not have,
        ``TypeError`` for a non-int seat."""
        return Stats.of(self.points_histogram(seat))

    def money_stats(self, seat: int | None = None, *, net: bool = False) -> Stats:
        """Money per round of a seat (or every seat pooled), before or after
        rake.
        Raises ``ArgumentError`` for a seat the table does not have,
        ``TypeError`` for a non-int seat."""
        return Stats.of(self.money_histogram(seat, net=net))

    @property
    def house_rake_total(self) -> int:
        """The house's rake over every round, in minor units."""
        return sum(v * c for v, c in self.house_rake.items())

    @property
    def house_rake_per_round(self) -> float:
        """The house's mean rake per round, in minor units."""
        return self.house_rake_total / self.deals if self.deals else float("nan")

    @property
    def house_rake_per_1000(self) -> float:
        """The house's rake per 1,000 rounds, in minor units."""
        return 1000 * self.house_rake_per_round

    def _share(self, count: int, of: int) -> float:
        return count / of if of else float("nan")

    def natural_frequency(self, name: str, *, declared: bool = False) -> float:
        """Share of seat-rounds whose hand qualifies for the natural (or, with
        ``declared=True``, that were settled with it declared). Raises
        ``ArgumentError`` for an unknown natural."""
        counts = self.declared if declared else self.qualifying
        if name not in counts:
            raise ArgumentError(f"unknown natural {name!r}; the naturals are {', '.join(counts)}")
        return self._share(counts[name], self.deals * self.seats)

    @property
    def rates(self) -> dict[str, float]:
        """Per seat-round: foul, surrender, sweep_all, natural (declared);
        per pair: scoop; per round: every ``rounds`` event (``round_...``)."""
        seat_rounds = self.deals * self.seats
        out = {
            "foul": self._share(self.fouls, seat_rounds),
            "surrender": self._share(self.surrenders, seat_rounds),
            "sweep_all": self._share(self.sweep_alls, seat_rounds),
            "natural": self._share(sum(self.declared.values()), seat_rounds),
            "scoop": self._share(self.scoops, self.pairs),
        }
        for event in _ROUND_EVENTS:
            out[f"round_{event}"] = self._share(self.rounds.get(event, 0), self.deals)
        return out


# ---------------------------------------------------------------- running


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
    never surrenders: ``"greedy"`` or ``"random"``. ``tables`` are the
    solver's tables (see :func:`capsa.solver.load_tables`).

    Without ``client`` the deals run in this process on ``threads`` cores
    (default all); with a ``distributed.Client`` they are cut into
    ``partitions`` ranges (default four per worker thread) run on the
    cluster. ``progress=True`` shows a progress bar (``tqdm`` when
    installed; Dask's own on a cluster); a callable is called with the
    number of deals each finished part held. The summary is the same
    whatever the threads, partitions or workers.

    Raises ``RulesError`` for unknown rules or strategy, ``TableError`` for
    ``seats`` outside 2..4, ``ArgumentError`` for counts or a seed out of
    range, ``TypeError`` for arguments of the wrong type.
    """
    rules = resolve_rules(rules)
    deals = _check_count(deals, "deals")
    seed = _check_count(seed, "seed")
    start = _check_count(start, "start")
    if start + deals > _U64 - 1:
        raise ArgumentError(f"deals {start} + {deals} run past the last deal index 2**64 - 2")
    if isinstance(seats, bool) or not isinstance(seats, int):
        raise TypeError(f"seats must be an int, not {type(seats).__name__}")
    if not 2 <= seats <= 4:
        raise TableError(f"a table has 2 to 4 seats, got {seats}")
    if strategy not in STRATEGIES:
        raise ArgumentError(
            f"unknown strategy {strategy!r}; the strategies are {', '.join(STRATEGIES)}"
        )
    if stake is not None:
        rules = rules.derive({"money.stake": _check_count(stake, "stake")})
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


def simulate_range(
    rules: Rules,
    start: int,
    deals: int,
    seats: int,
    strategy: str,
    seed: int,
    tables: bytes | None = None,
    threads: int | None = None,
) -> Summary:
    """The summary of one range of deals, in this process (one part of a run)."""
    counts = _core.simulate_deals(
        rules,
        start=start,
        count=deals,
        seats=seats,
        strategy=strategy,
        seed=seed,
        tables=tables,
        threads=threads,
    )
    return Summary._from_core(counts, rules, strategy, seed, start)


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


def merge_all(summaries: Sequence[Summary]) -> Summary:
    """The merge of one or more summaries of one run."""
    if not summaries:
        raise ArgumentError("merge_all needs at least one summary")
    total = summaries[0]
    for part in summaries[1:]:
        total = total.merge(part)
    return total


def write_summaries(summaries: Sequence[Summary], path: str | os.PathLike[str]) -> None:
    """Writes summaries as one JSON document (a list of :meth:`Summary.to_dict`)."""
    with open(path, "w", encoding="utf-8") as f:
        json.dump([s.to_dict() for s in summaries], f, indent=1)
        f.write("\n")
