"""The variants of a report, as an operator reads them: each labelled by
its rules' name (with where the rules came from only where two variants
share a name), what the house keeps of the money that changes hands, the
rake an hour brings in, which variants' curves are the same, and how the
simulated players arranged their cards."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from capsa.report.words import report_words
from capsa.summary import Summary

__all__ = [
    "ARRANGING",
    "ROUNDS_PER_HOUR",
    "Variant",
    "arranging_text",
    "identical_groups",
    "variants_of",
]

#: The rounds a table plays in an hour that the rake per hour assumes,
#: unless told otherwise (``capsa simulate --rounds-per-hour``): a dealt
#: table of four, a minute or so to arrange, and the showdown.
ROUNDS_PER_HOUR = 30

_STRATEGIES = ("solver", "separable", "greedy", "random")

#: How each strategy arranges, in English words (``words.toml`` has every
#: language's).
ARRANGING = {k: report_words("en")[f"arranging.{k}"] for k in _STRATEGIES}


@dataclass(frozen=True)
class Variant:
    """One column of the report: ``name`` (the rules' name, with
    ``source`` in brackets where two variants share a name), ``source``
    (the label the variant was given: a preset name or a rules file) and
    its ``summary``."""

    name: str
    source: str
    summary: Summary

    @property
    def turnover_per_round(self) -> float:
        """The money a round's winners win before rake (each player's
        payments netted), in minor units a round: what changes hands."""
        s = self.summary
        if not s.deals:
            return float("nan")
        won = sum(p * count for h in s.points for p, count in h.items() if p > 0)
        return won * s.stake / s.deals

    @property
    def hold(self) -> float:
        """The house's rake as a share of the turnover (NaN without any)."""
        turnover = self.turnover_per_round
        if not math.isfinite(turnover) or turnover == 0:
            return float("nan")
        return self.summary.house_rake_per_round / turnover

    def rake_per_hour(self, rounds_per_hour: int) -> float:
        """The house's rake a table brings in an hour at ``rounds_per_hour``,
        in minor units."""
        return self.summary.house_rake_per_round * rounds_per_hour


def variants_of(pairs: Sequence[tuple[str, Summary]]) -> list[Variant]:
    """The report's variants of ``(label, summary)`` pairs: named by their
    rules, the label added where two share a name, and a number where even
    that is shared."""
    names = [s.rules for _, s in pairs]
    out = []
    for label, s in pairs:
        name = s.rules if names.count(s.rules) == 1 or label == s.rules else f"{s.rules} ({label})"
        out.append(Variant(name, label, s))
    shown = [v.name for v in out]
    return [
        Variant(f"{v.name} #{k + 1}", v.source, v.summary) if shown.count(v.name) > 1 else v
        for k, v in enumerate(out)
    ]


def identical_groups(variants: Sequence[Variant]) -> list[list[Variant]]:
    """The variants grouped by their distribution of points per round,
    in the order they first appear: variants in one group draw one curve."""
    groups: dict[tuple[tuple[int, int], ...], list[Variant]] = {}
    for v in variants:
        key = tuple(sorted(v.summary.points_histogram().items()))
        groups.setdefault(key, []).append(v)
    return list(groups.values())


def arranging_text(variants: Sequence[Variant], lang: str = "en") -> str:
    """How the simulated players arranged their cards and what that hides,
    as sentences for the page, in ``lang``."""
    words = report_words(lang)
    strategies = list(dict.fromkeys(v.summary.strategy for v in variants))
    parts = []
    for strategy in strategies:
        how = words.get(f"arranging.{strategy}", strategy)
        parts.append(words.fill("arranging.every", how=how))
        if strategy in ("solver", "separable"):
            parts.append(words["arranging.hidden_solver"])
        elif strategy in _STRATEGIES:
            parts.append(words["arranging.hidden_plain"])
    surrendered = sum(v.summary.surrenders for v in variants)
    surrenders = words["arranging.no_surrender" if surrendered == 0 else "arranging.surrendered"]
    parts.append(words.fill("arranging.fouls", surrenders=surrenders))
    return " ".join(parts)
