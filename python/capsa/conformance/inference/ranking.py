"""The ranking, fixed rules, fouls and naturals of an engine."""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache

from capsa.conformance.digests import ranking_key
from capsa.conformance.inference.knobs import RANKING_KNOBS
from capsa.conformance.inference.probes import (
    Probe,
    fixed_rule_probes,
    foul_probes,
    ranking_probes,
)
from capsa.conformance.inference.solving import Inferrer
from capsa.conformance.protocol import RulesSpec
from capsa.conformance.rankings import ranking_combinations
from capsa.conformance.vectors import load_vectors, shipped_dir

__all__ = ["RankingParts"]


class RankingParts(Inferrer):
    """The ranking knobs, the rules no knob changes, ``foul_check`` and which
    naturals are paid in which order."""

    def ranking(self) -> None:
        """The ranking knobs, from every combination of them that fits the
        ``compare`` answers (and the ``digest`` answer, when there is one)."""
        probes = ranking_probes()
        if "compare" in self.ops:
            self.ask(probes)
        answered = self.answered(probes)
        scored = []
        for combo in ranking_combinations():
            rules = self.rules.derive(combo)
            misses = [p.name for p in answered if self.expect(p, rules) != self.got(p)]
            changes = sum(self.rules[k] != v for k, v in combo.items())
            scored.append((len(misses), changes, combo, misses))
        least = min(s[0] for s in scored)
        fits = [s for s in scored if s[0] == least]
        digest = self.digest_fit([s[2] for s in fits])
        if digest is not None:
            fits = [s for s in fits if s[2] in digest[1]] or fits
            answered.append(digest[0])
        if not answered:
            why = "the engine does not support compare" if "compare" not in self.ops else ""
            self.skip(RANKING_KNOBS, why or "the engine answered no compare probe")
            return
        best = min(fits, key=lambda s: s[1])
        self.rules = self.rules.derive(best[2])
        if least:
            shown = ", ".join(best[3][:6])
            for knob in RANKING_KNOBS:
                self.undetermine(
                    knob,
                    f"no combination of {', '.join(RANKING_KNOBS)} explains every compare "
                    f"answer (the closest misses {least}: {shown})",
                )
            return
        self._classify_ranking([s[2] for s in fits], answered)

    def _classify_ranking(self, fits: list[dict[str, str]], answered: list[Probe]) -> None:
        orders = {tuple(sorted(ranking_key(c, 5).items())) for c in fits}
        for knob in RANKING_KNOBS:
            values = sorted({c[knob] for c in fits})
            if len(values) == 1:
                self.note([knob], [p for p in answered if knob in p.knobs or p.op == "digest"])
            elif len(orders) == 1:
                self.moot(
                    [knob],
                    "no hand's order depends on it under the inferred ranking "
                    f"({', '.join(f'{k} = {self.rules[k]}' for k in RANKING_KNOBS if k != knob)})",
                )
            else:
                shown = ", ".join(values[:6]) + (", ..." if len(values) > 6 else "")
                self.undetermine(
                    knob, f"the compare answers fit {knob} = {shown} (kept {self.rules[knob]})"
                )

    def digest_fit(self, combos: list[dict[str, str]]) -> tuple[Probe, list[dict[str, str]]] | None:
        """The ``digest`` probe and the combinations whose pinned five-card digest
        is the engine's answer; None when it is not asked (no digest op, or
        the combinations already order every hand alike)."""
        orders = {tuple(sorted(ranking_key(c, 5).items())) for c in combos}
        if "digest" not in self.ops or len(orders) < 2:
            return None
        probe = Probe("digest-5", "digest", {"size": 5}, RANKING_KNOBS, "the order of every hand")
        self.ask([probe])
        if probe not in self.answered([probe]):
            return None
        pinned = pinned_digests()
        got = self.got(probe)
        return probe, [c for c in combos if pinned.get(_key(c)) == got]

    def fixed_rules(self) -> None:
        """Asks the probes of rules no knob changes (checked in the verification)."""
        self.ask(fixed_rule_probes(self.ops))

    def fouls(self) -> None:
        """``foul_check``, from arrangements with two rows of equal strength."""
        if "foul" not in self.ops:
            self.skip(["foul_check"], "the engine does not support foul")
            return
        probes = foul_probes()
        self.ask(probes)
        self.choose([{"foul_check": v} for v in ("allow-equal", "strict")], probes)
        self.classify("foul_check")
        if "foul_check" not in self.probed:
            self.moot(["foul_check"], "no two rows can be equal under these ranking rules")


def _key(combo: Mapping[str, str]) -> tuple[tuple[str, str], ...]:
    return tuple(sorted(ranking_key(dict(combo), 5).items()))


@lru_cache(maxsize=1)
def pinned_digests() -> dict[tuple[tuple[str, str], ...], str]:
    """The shipped five-card digests, by normalised ranking configuration."""
    out = {}
    for vector in load_vectors(shipped_dir() / "digest.jsonl"):
        if vector["input"].get("size") != 5:
            continue
        rules = RulesSpec.of(vector["rules"]["preset"], vector["rules"]["knobs"]).rules()
        out[_key({k: str(rules[k]) for k in RANKING_KNOBS})] = vector["expected"]
    return out
