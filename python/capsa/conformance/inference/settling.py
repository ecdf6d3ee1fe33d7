"""The scoring of an engine: row points, bonuses, royalties, fouls, surrender,
natural points and the rake, solved from ``settle`` answers."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from capsa.conformance.inference.knobs import (
    FIVE_CATEGORIES,
    MAX_PASSES,
    all_knobs,
    get,
    integers,
    with_knobs,
)
from capsa.conformance.inference.naturals import NaturalParts
from capsa.conformance.inference.probes import (
    RAKE_KNOBS,
    SIZED,
    Probe,
    rake_probes,
    scoring_probes,
)
from capsa.conformance.inference.raking import RakingParts
from capsa.conformance.inference.rounds import (
    FOULED_SUFFIX,
    TOP_HANDS,
    fouled_against,
    own_round,
    royalty_probe,
)
from capsa.conformance.inference.solving import NOT_ZERO_SUM
from capsa.conformance.inference.tables import TABLE_SIZES, widen
from capsa.conformance.inference.trading import FIGURES, PARTNERS, TradingParts
from capsa.rules import KNOBS, Rules

__all__ = ["SettlingParts"]

# The scoring knobs by their first part (``scoop`` for ``scoop.bonus``): every
# knob but the text ones, those of ranking and fouling, and the naturals,
# whose names and points are solved apart.
_SCORING = tuple(
    dict.fromkeys(
        k.name.split(".")[0]
        for k in KNOBS
        if k.type != "text"
        and not k.ranking
        and k.name != "foul_check"
        and not k.name.startswith("naturals.")
    )
)
_UNSUPPORTED = ("error", "unsupported")
_FOUL_KNOBS = tuple(k.name for k in KNOBS if k.name.startswith("foul."))


def _settle_knobs(rules: Rules) -> list[str]:
    return sorted(
        k
        for k in all_knobs(rules)
        if k.split(".")[0] in _SCORING
        or k.startswith(("naturals.points.", "naturals.resolve", "naturals.ties"))
    )


def _is_scoring(knob: str) -> bool:
    return knob.split(".")[0] in _SCORING or knob.startswith(
        ("naturals.points.", "naturals.resolve", "naturals.ties")
    )


def _fouled(probe: Probe) -> bool:
    """Whether a settle probe has a fouled seat (by its name: the foul probes)."""
    return "foul" in probe.name


class SettlingParts(NaturalParts, TradingParts, RakingParts):
    """The scoring knobs, solved from ``settle`` answers."""

    def settle_probes(self) -> list[Probe]:
        """The scoring probes and, per row and category, a royalty probe and the
        same round with the other seat fouled."""
        probes = scoring_probes(self.rules["tie_break"] == "none")
        for row, categories in (
            ("bottom", FIVE_CATEGORIES),
            ("middle", FIVE_CATEGORIES),
            ("top", tuple(TOP_HANDS)),
        ):
            for category in categories:
                probe = royalty_probe(row, category, self.rules)
                if probe is None:
                    self.skip(
                        [f"royalties.{row}.{category}"],
                        "no legal round shows it under the inferred ranking",
                    )
                else:
                    fouled = fouled_against(probe, self.rules)
                    probes += [probe] if fouled is None else [probe, fouled]
        return probes

    def settlement(self) -> None:
        """Asks the settle probes and solves the scoring knobs from the answers at
        a table size where the engine is zero-sum."""
        if "settle" not in self.ops:
            self.skip(_settle_knobs(self.base), "the engine does not support settle")
            return
        every = self.settle_probes() + (rake_probes() if self.money else [])
        if self.fouls_never:
            every = [p for p in every if not _fouled(p)]
            self.skip(
                _FOUL_KNOBS, 'the engine declares "fouls": "never" (no fouled round is asked)'
            )
        self.ask(every)
        natural = [p for p in self.natural_settle_probes() if not (self.fouls_never and _fouled(p))]
        self.ask(natural)
        every += natural
        size = self.zero_sum_size(every)
        if size > 2:
            every = self.widened(every, size)
        by_knob: dict[str, list[Probe]] = {}
        for probe in every:
            for knob in probe.knobs:
                by_knob.setdefault(knob, []).append(probe)
        steps = self._settle_steps(by_knob)
        self._passes(steps)
        if self._improved(every):
            self._passes(steps)  # the knobs the better rules' answers read are noted
        self.decide(every)
        self.settled_rules = self.rules
        if self.money:
            self.rake([p for p in every if p.money])
        else:
            self.skip(RAKE_KNOBS, "the engine does not answer money")
        self.moot(["money.stake"], "the protocol sends the stakes with every round")
        named = {k for p in every for k in p.knobs if _is_scoring(k)}
        unseen = sorted(named | {*_settle_knobs(self.base), *_settle_knobs(self.rules)})
        self.skip(unseen, "no answer depends on it under the inferred rules")

    def zero_sum_size(self, probes: Sequence[Probe]) -> int:
        """The table sizes where the engine is not zero-sum (an answer seen, or its
        hello's ``not_zero_sum``) are set aside; returns the smallest other one
        (2 when every size is set aside: only zero-sum answers are solved from)."""
        seen = {
            len(self.points(p) or ()) for p in probes if self.unusable.get(p.name) == NOT_ZERO_SUM
        }
        self.not_zero_sum = seen | self.declared_not_zero_sum()
        for probe in probes:
            if probe.name in SIZED and self.unusable.get(probe.name) == NOT_ZERO_SUM:
                self.partial.add(probe.name)  # its payers still show the table size
        size = next((s for s in TABLE_SIZES if s not in self.not_zero_sum), 2)
        if size > 2:
            sizes = ", ".join(str(s) for s in sorted(self.not_zero_sum))
            self.notes.append(
                f"the engine is not zero-sum at {sizes} seats: the scoring is solved from "
                f"rounds of {size} seats (two seats played against filler seats)"
            )
        return size

    def widened(self, probes: Sequence[Probe], size: int) -> list[Probe]:
        """The probes played at ``size`` seats where they can be (the smaller
        originals set aside), asked."""
        out = []
        for probe in probes:
            # a foul against filler seats would pay their royalties too: the
            # royalty's own round, widened, shows it
            kept = probe.name in SIZED or probe.name.endswith(FOULED_SUFFIX)
            wide = None if kept else widen(probe, size, self.rules)
            if wide is None:
                out.append(probe)
                continue
            self.unusable.setdefault(
                probe.name, f"asked at a table size where the engine is not zero-sum ({wide.name})"
            )
            out.append(wide)
        self.ask(out)
        return out

    def decide(self, probes: Sequence[Probe]) -> None:
        """Classifies every scoring knob a probe showed, then marks knobs only a
        combination of which shows as not determined."""
        royalties = tuple(k for k in self.probed if k.startswith("royalties."))
        knobs = [k for k in self.probed if _is_scoring(k)]
        for _ in range(MAX_PASSES):
            if not any([self.classify(k) for k in knobs]):
                break
        for knob, partners in PARTNERS.items():
            self.trade(knob, partners or royalties, probes)
        self._fixed_fouls()
        self.suspects()
        self.set_aside(probes)

    @staticmethod
    def _passes(steps: Sequence[Callable[[], bool]]) -> None:
        for _ in range(MAX_PASSES):
            changed = False
            for step in steps:
                changed = step() or changed
            if not changed:
                break

    def _improved(self, probes: Sequence[Probe]) -> bool:
        """Takes, while there are any, the rules that explain the most answers
        more than the inferred ones do (the fewest knobs changed among them),
        trying other values of each knob with its partners, and of
        ``royalty_mode`` with ``royalty_adds``; True when the rules changed."""
        # every royalty a probe shows, those no answer read under the rules kept too
        shown = tuple(sorted({k for p in probes for k in p.knobs if k.startswith("royalties.")}))
        groups: list[tuple[tuple[str, ...], tuple[str, ...]]] = [
            ((k,), ps or shown) for k, ps in PARTNERS.items()
        ]
        groups.append((("royalty_mode", "royalty_adds"), shown))
        answered = self.answered(probes)
        improved = False
        for _ in range(MAX_PASSES):
            trials = [t for knobs, ps in groups for t in self.better(knobs, ps, probes)]
            if not trials:
                break
            self.rules = min(trials, key=lambda t: self._rank(t, answered))
            improved = True
        return improved

    def _rank(self, trial: Rules, answered: Sequence[Probe]) -> tuple[int, int]:
        """The most answers explained first, then the fewest knobs changed."""
        moved = sum(1 for k in all_knobs(trial) if get(trial, k) != get(self.rules, k))
        return -sum(self.matches(p, trial) for p in answered), moved

    def _fixed_fouls(self) -> None:
        """Fixed foul points can mimic what a sweep or a scoop pays: they are not
        determined while the figures of those are not."""
        if self.rules["foul.mode"] != "fixed" or "foul.mode" not in self.probed:
            return
        open_ = [k for k in FIGURES if k in self.undetermined]
        if open_ and "foul.mode" not in self.undetermined:
            why = (
                'fixed points fit the foul answers, and so may "sweep-all" or "scoop" '
                f"with other values of {', '.join(open_)}, which are not determined"
            )
            for knob in ("foul.mode", "foul.points"):
                self.undetermine(knob, why)

    def set_aside(self, probes: Sequence[Probe]) -> None:
        """Marks a knob whose every probe was answered but set aside (not zero-sum)
        as not determined, saying why."""
        by_knob: dict[str, list[Probe]] = {}
        for probe in probes:
            for knob in probe.knobs:
                by_knob.setdefault(knob, []).append(probe)
        for knob, shown in by_knob.items():
            if knob in self.probed or self.answered(shown):
                continue
            refused = [
                p.name for p in shown if self.answers.get(p.name) == ("error", "unsupported")
            ]
            if refused and len(refused) == len(shown):
                self.skip(
                    [knob], f"the engine answers its probes unsupported ({', '.join(refused)})"
                )
                continue
            aside = [p for p in shown if p.name in self.unusable]
            if aside:
                why = "; ".join(f"{p.name}: {self.unusable[p.name]}" for p in aside[:3])
                self.undetermine(knob, f"the answers of its probes are set aside ({why})")
        paid = {i["name"] for i in self.rules["naturals.enabled"]}
        unpaid = [k for k in _settle_knobs(self.base) if k.startswith("naturals.points.")]
        why = "the engine pays no such natural (see naturals.enabled)"
        self.moot([k for k in unpaid if k.rsplit(".", 1)[1] not in paid], why)
        if not paid:
            self.moot(["naturals.resolve", "naturals.ties"], "the engine pays no natural")

    def _settle_steps(self, by_knob: Mapping[str, list[Probe]]) -> list[Callable[[], bool]]:
        def probes(*knobs: str) -> list[Probe]:
            return [p for k in knobs for p in by_knob.get(k, [])]

        def solve_first(knobs: Sequence[str], shown_by: str) -> Callable[[], bool]:
            # Knobs one answer cannot tell apart (a multiplier and a bonus, the
            # row point and the overall point): the first is solved, the next
            # only when no value of the first fits, and both together last.
            def step() -> bool:
                shown = probes(shown_by)
                changed = False
                for knob in knobs:  # each is solved (or, when the answers fit, noted)
                    if self.consistent(shown):
                        self.solve(knob, shown)
                    else:
                        changed = self.solve(knob, shown) or changed
                if not self.consistent(shown):
                    changed = self.solve_jointly(knobs[0], knobs[1], shown) or changed
                return changed

            return step

        def choose(knob: str, values: Sequence[Any]) -> Callable[[], bool]:
            return lambda: self.choose([{knob: v} for v in values], probes(knob))

        def solved(knob: str) -> Callable[[], bool]:
            return lambda: self.solve(knob, probes(knob))

        def royalty(knob: str) -> Callable[[], bool]:
            own = own_round(knob, probes(knob))
            return lambda: self.solve(knob, own) | self.solve(knob, probes(knob))

        # Who sweeps decides which figures the scoop probes show: the sweep's
        # figures are found at four seats first, then the table size it needs.
        steps: list[Callable[[], bool]] = [
            solve_first(["row_points", "overall_point"], "row_points"),
            solve_first(["sweep_all.multiplier", "sweep_all.bonus"], "sweep_all.multiplier"),
            choose("sweep_all.min_players", (2, 3, 4, 5)),
            solve_first(["scoop.multiplier", "scoop.bonus"], "scoop.multiplier"),
            choose("royalty_mode", ("winner", "always", "none")),
            choose("royalty_adds", (True, False)),
        ]
        for row, categories in (
            ("bottom", FIVE_CATEGORIES),
            ("middle", FIVE_CATEGORIES),
            ("top", tuple(TOP_HANDS)),
        ):
            steps += [royalty(f"royalties.{row}.{c}") for c in categories]
        steps += [
            choose("scoop.multiply_royalties", (False, True)),
            self._foul_step(probes("foul.mode")),
            choose("foul.pays_royalties", (True, False)),
            self._surrender_step(probes("surrender.enabled")),
        ]
        steps += [solved(k) for k in by_knob if k.startswith("naturals.points.")]
        steps += [
            choose("naturals.resolve", ("higher-wins", "difference")),
            choose("naturals.ties", ("push", "compare")),
        ]
        return steps

    def _foul_step(self, probes: Sequence[Probe]) -> Callable[[], bool]:
        def step() -> bool:
            if self.choose([{"foul.mode": m} for m in ("sweep-all", "scoop")], probes):
                return True
            if all(self.matches(p, self.rules) for p in self.answered(probes)):
                if self.rules["foul.mode"] == "fixed":
                    return self.solve("foul.points", probes)
                return False
            before = self.rules
            self.rules = with_knobs(self.rules, {"foul.mode": "fixed"})
            self.solve("foul.points", probes)
            if all(self.matches(p, self.rules) for p in self.answered(probes)):
                self.note(["foul.mode"], self.answered(probes))
                return True
            self.rules = before
            return False

        return step

    def _surrender_step(self, probes: Sequence[Probe]) -> Callable[[], bool]:
        def step() -> bool:
            answered = self.answered(probes)
            if not answered:
                return False
            refused = all(self.got(p) == ("error",) for p in answered)
            settled = all(integers(list(self.got(p))) is not None for p in answered)
            if not refused and not settled:
                return False  # a malformed answer says neither: the verification reports it
            changed = False
            self.note(["surrender.enabled"], answered)
            if refused == bool(self.rules["surrender.enabled"]):
                self.rules = with_knobs(self.rules, {"surrender.enabled": not refused})
                changed = True
            if refused:
                self.moot(["surrender.cost"], "the engine refuses a surrender under the base rules")
            else:
                changed = self.solve("surrender.cost", probes) or changed
            return changed

        return step

    # ---------------------------------------------------------- verifying
