"""The scoring of an engine: row points, bonuses, royalties, fouls, surrender,
natural points and the rake, solved from ``settle`` answers."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from capsa import _core
from capsa.conformance.inference.knobs import (
    FIVE_CATEGORIES,
    MAX_PASSES,
    all_knobs,
    integers,
    with_knobs,
)
from capsa.conformance.inference.probes import (
    Probe,
    rake_probes,
    scoring_probes,
    seat,
    settle_probe,
)
from capsa.conformance.inference.rounds import (
    TOP_HANDS,
    TWINS,
    natural_hand,
    plain_seat,
    rows_of,
    royalty_probe,
)
from capsa.conformance.inference.solving import Inferrer

__all__ = ["SettlingParts"]


class SettlingParts(Inferrer):
    """The scoring knobs, solved from ``settle`` answers."""

    def settle_probes(self) -> list[Probe]:
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
                    probes.append(probe)
        return probes

    def natural_settle_probes(self) -> list[Probe]:
        rules = self.rules
        out = []
        enabled = [i["name"] for i in rules["naturals.enabled"]]
        for name in enabled:
            hand = natural_hand(name, rules, set())
            if hand is None:
                self.skip([f"naturals.points.{name}"], "no catalogue hand pays it first")
                continue
            seat0 = seat(rows_of(hand, rules), declare=True)
            seat1 = plain_seat(set(hand), rules, name)
            out.append(
                settle_probe(
                    f"natural-points-{name}",
                    (f"naturals.points.{name}",),
                    f"seat 0 declares {name} against plain rows",
                    seat0,
                    seat1,
                )
            )
            if len(out) == 1:
                fouled = rows_of(hand, rules, foul=True)
                if _core.is_foul(fouled, rules):
                    out.append(
                        settle_probe(
                            "natural-over-foul",
                            (),
                            f"seat 0 declares {name} with fouled rows (the natural "
                            "decides, not the rows)",
                            seat(fouled, declare=True),
                            plain_seat(set(hand), rules, "foul"),
                        )
                    )
        for strong, weak in itertools.combinations(enabled, 2):
            a = natural_hand(strong, rules, set())
            b = natural_hand(weak, rules, set(a or ()))
            if a is None or b is None:
                continue
            out.append(
                settle_probe(
                    f"natural-vs-natural-{strong}-{weak}",
                    ("naturals.resolve",),
                    f"{strong} against {weak}",
                    seat(rows_of(a, rules), declare=True),
                    seat(rows_of(b, rules), declare=True),
                )
            )
            break
        for name, (one, two) in TWINS.items():
            a, b = _core.card_ids(one), _core.card_ids(two)
            if _core.natural(a, rules) == name == _core.natural(b, rules):
                out.append(
                    settle_probe(
                        f"natural-twins-{name}",
                        ("naturals.ties",),
                        f"{name} on both sides, of different ranks",
                        seat(rows_of(a, rules), declare=True),
                        seat(rows_of(b, rules), declare=True),
                    )
                )
                break
        return out

    def settlement(self) -> None:
        settle_knobs = sorted(
            k
            for k in all_knobs(self.base)
            if k.split(".")[0]
            in (
                "row_points",
                "overall_point",
                "royalty_mode",
                "royalty_adds",
                "scoop",
                "sweep_all",
                "foul",
                "surrender",
                "royalties",
                "money",
            )
            or k.startswith(("naturals.points.", "naturals.resolve", "naturals.ties"))
        )
        if "settle" not in self.ops:
            self.skip(settle_knobs, "the engine does not support settle")
            return
        probes = {p.name: p for p in self.settle_probes()}
        self.ask(probes.values())
        if self.money:
            rake = rake_probes()
            self.ask(rake)
        natural = {p.name: p for p in self.natural_settle_probes()}
        self.ask(natural.values())
        by_knob: dict[str, list[Probe]] = {}
        for probe in [*probes.values(), *natural.values()]:
            for knob in probe.knobs:
                by_knob.setdefault(knob, []).append(probe)
        steps = self._settle_steps(by_knob)
        for _ in range(MAX_PASSES):
            changed = False
            for step in steps:
                changed = step() or changed
            if not changed:
                break
        every = [*probes.values(), *natural.values()]
        for group in (
            ("row_points", "overall_point"),
            ("scoop.multiplier", "scoop.bonus"),
            ("sweep_all.multiplier", "sweep_all.bonus"),
        ):
            self.confounded(group, by_knob.get(group[0], []), every)
        if self.money:
            self.rake(rake_probes())
        else:
            self.skip(["money.rake_percent"], "the engine does not answer money")
        self.skip(["money.stake"], "the protocol sends the stakes with every round")
        self.skip(settle_knobs, "no probe shows it under the base rules")

    def _settle_steps(self, by_knob: Mapping[str, list[Probe]]) -> list[Callable[[], bool]]:
        def probes(*knobs: str) -> list[Probe]:
            return [p for k in knobs for p in by_knob.get(k, [])]

        def solve_first(knobs: Sequence[str], shown_by: str) -> Callable[[], bool]:
            # Knobs one answer cannot tell apart (a multiplier and a bonus, the
            # row point and the overall point): the first is solved, the next
            # only when no value of the first fits.
            def step() -> bool:
                for knob in knobs:
                    if self.solve(knob, probes(shown_by)):
                        return True
                    if self.consistent(probes(shown_by)):
                        return False
                return False

            return step

        def choose(knob: str, values: Sequence[Any]) -> Callable[[], bool]:
            return lambda: self.choose([{knob: v} for v in values], probes(knob))

        def royalty(knob: str) -> Callable[[], bool]:
            return lambda: self.solve(knob, probes(knob))

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
        steps += [royalty(k) for k in by_knob if k.startswith("naturals.points.")]
        steps += [
            choose("naturals.resolve", ("higher-wins", "difference")),
            choose("naturals.ties", ("push", "compare")),
        ]
        return steps

    def _foul_step(self, probes: Sequence[Probe]) -> Callable[[], bool]:
        def step() -> bool:
            if self.choose([{"foul.mode": m} for m in ("sweep-all", "scoop")], probes):
                return True
            if all(self.expect(p, self.rules) == self.got(p) for p in self.answered(probes)):
                if self.rules["foul.mode"] == "fixed":
                    return self.solve("foul.points", probes)
                return False
            before = self.rules
            self.rules = with_knobs(self.rules, {"foul.mode": "fixed"})
            self.solve("foul.points", probes)
            if all(self.expect(p, self.rules) == self.got(p) for p in self.answered(probes)):
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
                self.skip(["surrender.cost"], "the engine refuses a surrender under the base rules")
            else:
                changed = self.solve("surrender.cost", probes) or changed
            return changed

        return step

    def rake(self, probes: Sequence[Probe]) -> None:
        answered = [
            p for p in self.answered(probes) if self.expect(p, self.rules)[0] == self.got(p)[0]
        ]
        if not answered:
            self.skip(["money.rake_percent"], "no rake probe's points matched the inferred rules")
            return
        self.note(["money.rake_percent"], answered)
        current = self.rules["money.rake_percent"]
        fits = []
        for percent in [current, *range(101)]:
            trial = self.rules.derive({"money.rake_percent": percent})
            if all(self.expect(p, trial) == self.got(p) for p in answered):
                fits.append(percent)
                break
        if fits and fits[0] != current:
            self.rules = self.rules.derive({"money.rake_percent": fits[0]})

    # ---------------------------------------------------------- verifying
