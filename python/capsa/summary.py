"""What a simulation counted: the :class:`Summary` of a run of deals, its
:class:`Stats`, and :func:`simulate_range`, which counts one range of deals
in this process.

Summaries hold only integer counts, so the summaries of any split of a
range of deals merge (:meth:`Summary.merge`, :func:`merge_all`) into exactly
the summary of the whole range. :mod:`capsa.simulation` runs whole
simulations on top of this; :mod:`capsa.dask` spreads the ranges over a
cluster.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

from capsa import _core
from capsa._core import NATURAL_NAMES, ArgumentError, TableError
from capsa.rules import Rules

__all__ = [
    "PERCENTILES",
    "RAKE_KNOBS",
    "Histogram",
    "Stats",
    "Summary",
    "merge_all",
    "percentile",
    "rake_text",
    "simulate_range",
    "summaries_json",
    "write_summaries",
]

#: The percentiles every :class:`Stats` reports.
PERCENTILES = (1, 5, 25, 50, 75, 95, 99)
_ROUND_EVENTS = ("natural", "foul", "surrender", "scoop", "sweep_all")

#: A histogram {value: rounds}.
Histogram = dict[int, int]

#: The rake's knobs, ``money.rake_<name>``, as a summary names them.
RAKE_KNOBS = ("basis_points", "minimum_pot", "cap_per_pot", "cap_per_round")


def rake_text(rake: Mapping[str, int]) -> str:
    """A rake (:data:`RAKE_KNOBS`) in words: "3%", "2.5%, from pots of 100,
    at most 50 a pot, at most 80 a round", "none"."""
    if rake["basis_points"] == 0:
        return "none"
    whole, hundredths = divmod(rake["basis_points"], 100)
    words = [f"{whole}.{hundredths:02d}".rstrip("0").rstrip(".") + "%"]
    if rake["minimum_pot"]:
        words.append(f"from pots of {rake['minimum_pot']}")
    if rake["cap_per_pot"]:
        words.append(f"at most {rake['cap_per_pot']} a pot")
    if rake["cap_per_round"]:
        words.append(f"at most {rake['cap_per_round']} a round")
    return ", ".join(words)


def _net_by_percent(points: Histogram, stake: int, percent: int) -> Histogram:
    """Net histogram of a seat raked a whole percent with no cap."""
    out: Histogram = {}
    for p, count in points.items():
        money = p * stake
        value = money - percent * max(money, 0) // 100
        out[value] = out.get(value, 0) + count
    return dict(sorted(out.items()))


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
    ``pairs``, the pairs played (a banker game's pairs of two players are
    not); ``rounds[event]`` counts rounds with at least one natural,
    foul, surrender, scoop or sweep-all. ``ranges`` are the deal indices
    counted, ``[start, end)``. ``rules`` and ``rules_digest`` name the rules,
    ``seats``, ``strategy``, ``seed``, ``stake`` and ``rake`` (the
    ``money.rake_*`` knobs without their prefix) the run; ``net`` holds each
    seat's histogram {money after rake in a round: rounds}; ``points``,
    ``qualifying``, ``declared`` and ``rounds`` are as above. Built by
    :func:`simulate` (or merged); raises nothing itself.
    """

    rules: str
    rules_digest: str
    seats: int
    strategy: str
    seed: int
    stake: int
    rake: dict[str, int]
    ranges: tuple[tuple[int, int], ...]
    points: tuple[Histogram, ...]
    net: tuple[Histogram, ...]
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
            rake={k: int(rules[f"money.rake_{k}"]) for k in RAKE_KNOBS},
            ranges=_merge_ranges([(start, start + deals)]),
            points=tuple(dict(h) for h in counts["points"]),
            net=tuple(dict(h) for h in counts["net"]),
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
            net=tuple(_add(a, b) for a, b in zip(self.net, other.net, strict=True)),
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
            "rake": self.rake,
            "ranges": [list(r) for r in self.ranges],
            "deals": self.deals,
            "points": [sorted(h.items()) for h in self.points],
            "net": [sorted(h.items()) for h in self.net],
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
        """The summary :meth:`to_dict` wrote (or an older capsa wrote, with
        ``rake_percent`` and no ``net``: the net is then the money less that
        percent, as that capsa settled it). Raises ``TableError`` naming a
        missing or malformed field."""
        try:
            points = tuple({int(v): int(c) for v, c in h} for h in data["points"])
            stake = int(data["stake"])
            if "rake_percent" in data and "rake" not in data:
                percent = int(data["rake_percent"])
                rake = {k: 100 * percent if k == "basis_points" else 0 for k in RAKE_KNOBS}
                net = tuple(_net_by_percent(h, stake, percent) for h in points)
            else:
                rake = {k: int(data["rake"][k]) for k in RAKE_KNOBS}
                net = tuple({int(v): int(c) for v, c in h} for h in data["net"])
            return cls(
                rules=str(data["rules"]),
                rules_digest=str(data["rules_digest"]),
                seats=int(data["seats"]),
                strategy=str(data["strategy"]),
                seed=int(data["seed"]),
                stake=stake,
                rake=rake,
                ranges=_merge_ranges((int(a), int(b)) for a, b in data["ranges"]),
                points=points,
                net=net,
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

    def _seat_index(self, seat: int) -> int:
        if isinstance(seat, bool) or not isinstance(seat, int):
            raise TypeError(f"seat must be an int, not {type(seat).__name__}")
        if not 0 <= seat < self.seats:
            raise ArgumentError(f"seat must be in 0..{self.seats - 1}, got {seat}")
        return seat

    def _seat(self, seat: int) -> Histogram:
        return self.points[self._seat_index(seat)]

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

    def money_histogram(self, seat: int | None = None, *, net: bool = False) -> Histogram:
        """{money in a round: rounds} (minor units, before rake; after rake
        with ``net=True``) of one seat or every seat pooled.
        Raises ``ArgumentError`` for a seat the table does not have,
        ``TypeError`` for a non-int seat."""
        if _core.read_flag(net, "net"):
            nets = self.net if seat is None else (self.net[self._seat_index(seat)],)
            pooled: Histogram = {}
            for h in nets:
                pooled = _add(pooled, h)
            return pooled
        out: Histogram = {}
        for points, count in self.points_histogram(seat).items():
            out[points * self.stake] = out.get(points * self.stake, 0) + count
        return dict(sorted(out.items()))

    @property
    def rake_text(self) -> str:
        """The rake in words: "3%", "2.5%, from pots of 100, at most 50 a pot,
        at most 80 a round"."""
        return rake_text(self.rake)

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
        ``declared=True``, that were settled with it declared); NaN for a
        natural the summary's capsa did not know (``two-full-houses`` in a
        summary written before it). Raises ``ArgumentError`` for an unknown
        natural."""
        counts = self.declared if _core.read_flag(declared, "declared") else self.qualifying
        if name not in counts:
            if name in NATURAL_NAMES:
                return float("nan")
            names = ", ".join(NATURAL_NAMES)
            raise ArgumentError(f"unknown natural {name!r}; the naturals are {names}")
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


def merge_all(summaries: Sequence[Summary]) -> Summary:
    """The merge of one or more summaries of one run."""
    if not summaries:
        raise ArgumentError("merge_all needs at least one summary")
    total = summaries[0]
    for part in summaries[1:]:
        total = total.merge(part)
    return total


def summaries_json(summaries: Sequence[Summary]) -> str:
    """Summaries as one JSON document (a list of :meth:`Summary.to_dict`), a
    line feed at its end."""
    return json.dumps([s.to_dict() for s in summaries], indent=1) + "\n"


def write_summaries(summaries: Sequence[Summary], path: str | os.PathLike[str]) -> None:
    """Writes :func:`summaries_json` to ``path``."""
    with open(path, "w", encoding="utf-8") as f:
        f.write(summaries_json(summaries))
