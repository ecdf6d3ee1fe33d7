"""The ranking, fixed rules, fouls and naturals of an engine."""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from typing import Any

from capsa import _core
from capsa.conformance.inference.knobs import RANKING_KNOBS
from capsa.conformance.inference.probes import (
    Probe,
    fixed_rule_probes,
    foul_probes,
    ranking_probes,
    seat,
    settle_probe,
)
from capsa.conformance.inference.rounds import NATURAL_HANDS, natural_hand, rows_of
from capsa.conformance.inference.solving import Inferrer

__all__ = ["RankingParts"]


class RankingParts(Inferrer):
    """The ranking knobs, the rules no knob changes, ``foul_check`` and which
    naturals are paid in which order."""

    def ranking(self) -> None:
        probes = ranking_probes()
        if "compare" not in self.ops:
            self.skip(RANKING_KNOBS, "the engine does not support compare")
            return
        self.ask(probes)
        answered = self.answered(probes)
        if not answered:
            self.skip(RANKING_KNOBS, "the engine answered no compare probe")
            return
        combos = []
        for tie_break, order, flush, wheel in itertools.product(
            ("suit", "none"),
            ["".join(p) for p in itertools.permutations("shcd")],
            ("ranks", "suit-first"),
            ("low", "second"),
        ):
            combos.append(
                {
                    "tie_break": tie_break,
                    "suit_order": order,
                    "flush_compare": flush,
                    "wheel": wheel,
                }
            )
        got = [self.got(p) for p in answered]
        scored = []
        for combo in combos:
            rules = self.rules.derive(combo)
            misses = sum(
                _core.compare(p.input["a"], p.input["b"], rules) != g
                for p, g in zip(answered, got, strict=True)
            )
            changes = sum(self.rules[k] != v for k, v in combo.items())
            scored.append((misses, changes, combo))
        best = min(scored, key=lambda s: (s[0], s[1]))
        fits = [c for m, _, c in scored if m == best[0]]
        self.rules = self.rules.derive(best[2])
        for knob in RANKING_KNOBS:
            if len({c[knob] for c in combos}) > 1 and len({c[knob] for c in fits}) == 1:
                self.note([knob], [p for p in answered if knob in p.knobs])
            else:
                self.not_probed.setdefault(
                    knob, "no answer depends on it given the other ranking knobs (kept)"
                )

    def fixed_rules(self) -> None:
        self.ask(fixed_rule_probes(self.ops))

    def fouls(self) -> None:
        if "foul" not in self.ops:
            self.skip(["foul_check"], "the engine does not support foul")
            return
        probes = foul_probes()
        self.ask(probes)
        self.choose([{"foul_check": v} for v in ("allow-equal", "strict")], probes)
        if "foul_check" not in self.probed:
            self.skip(["foul_check"], "no two rows can be equal under these ranking rules")

    def naturals(self) -> None:
        if "natural" not in self.ops:
            self.skip(["naturals.enabled"], "the engine does not support natural")
            return
        probes = [
            Probe(
                f"natural-{name}",
                "natural",
                {"hand": text},
                ("naturals.enabled",),
                f"13 cards that qualify for {name}",
            )
            for name, text in NATURAL_HANDS.items()
        ]
        self.ask(probes)
        answered = self.answered(probes)
        if not answered:
            self.skip(["naturals.enabled"], "the engine answered no natural probe")
            return
        self.note(["naturals.enabled"], answered)
        current_order = [i["name"] for i in self.rules["naturals.enabled"]]
        paid: list[str] = []
        against: set[str] = set()  # naturals some answer shows are not paid
        before: dict[str, set[str]] = {}  # name -> names it must come after
        for probe in answered:
            name = self.got(probe)
            qualifies = set(_core.naturals(probe.input["hand"]))
            if name is None:
                against |= qualifies
                continue
            if not isinstance(name, str) or name not in qualifies:
                continue  # an answer capsa cannot model: the verification reports it
            if name not in paid:
                paid.append(name)
            for other in qualifies - {name}:
                before.setdefault(other, set()).add(name)
                listed = other in current_order and name in current_order
                if listed and current_order.index(other) < current_order.index(name):
                    against.add(other)  # it would have been answered, were it paid first
        # A natural never answered but shadowed each time by one paid before it
        # stays as it is: no answer says otherwise.
        paid += [n for n in current_order if n not in paid and n not in against]
        self.natural_after = before
        current = {i["name"]: i["points"] for i in self.rules["naturals.enabled"]}
        self.reorder_naturals([{"name": n, "points": current.get(n, 0)} for n in paid])

    def reorder_naturals(self, enabled: Sequence[Mapping[str, Any]]) -> None:
        """Orders the paid naturals as the answers require (``natural_after``),
        the rest by points (strongest first), then as the rules list them."""
        order = [i["name"] for i in self.rules["naturals.enabled"]]
        points = {i["name"]: i["points"] for i in enabled}

        def rank(name: str) -> tuple[int, int]:
            listed = (
                order.index(name) if name in order else len(order) + _core.NATURAL_NAMES.index(name)
            )
            return (-points[name], listed)

        ordered: list[str] = []
        left = set(points)
        while left:
            ready = [n for n in left if not (self.natural_after.get(n, set()) & left)] or list(left)
            pick = min(ready, key=rank)
            ordered.append(pick)
            left.remove(pick)
        new = [{"name": n, "points": points[n]} for n in ordered]
        if new != self.rules["naturals.enabled"]:
            self.rules = self.rules.derive({"naturals.enabled": new})

    def natural_precedence(self) -> None:
        """Which of two paid naturals is the stronger, from a round of one against
        the other, for every pair no ``natural`` answer has ordered."""
        enabled = [i["name"] for i in self.rules["naturals.enabled"]]
        probes = []
        for first, second in itertools.combinations(enabled, 2):
            if first in self.natural_after.get(second, set()) or second in self.natural_after.get(
                first, set()
            ):
                continue
            a = natural_hand(first, self.rules, set())
            b = natural_hand(second, self.rules, set(a or ()))
            if a is None or b is None:
                continue
            probes.append(
                settle_probe(
                    f"natural-order-{first}-{second}",
                    ("naturals.enabled",),
                    f"{first} against {second} (which is stronger)",
                    seat(rows_of(a, self.rules), declare=True),
                    seat(rows_of(b, self.rules), declare=True),
                )
            )
        self.ask(probes)
        for probe in self.answered(probes):
            pair = next(
                (x, y)
                for x, y in itertools.combinations(enabled, 2)
                if probe.name == f"natural-order-{x}-{y}"
            )
            got = self.got(probe)
            seen = []
            for strong, weak in (pair, pair[::-1]):
                listed = [n for n in enabled if n != weak]
                listed.insert(listed.index(strong) + 1, weak)
                items = {i["name"]: i for i in self.rules["naturals.enabled"]}
                trial = self.rules.derive({"naturals.enabled": [items[n] for n in listed]})
                seen.append(self.expect(probe, trial))
            if seen[0] == seen[1]:
                continue
            self.note(["naturals.enabled"], [probe])
            if got == seen[0]:
                self.natural_after.setdefault(pair[1], set()).add(pair[0])
            elif got == seen[1]:
                self.natural_after.setdefault(pair[0], set()).add(pair[1])
        self.reorder_naturals(self.rules["naturals.enabled"])
        loose = self.unordered_naturals()
        if loose:
            self.probed.pop("naturals.enabled", None)
            self.undetermined["naturals.enabled"] = (
                f"no answer shows whether {loose[0]} or {loose[1]} is the stronger "
                "(listed by points, then as the base lists them)"
            )

    def unordered_naturals(self) -> tuple[str, str] | None:
        """Two neighbours in the inferred list that no answer orders, if any."""
        names = [i["name"] for i in self.rules["naturals.enabled"]]

        def above(name: str) -> set[str]:
            seen: set[str] = set()
            todo = list(self.natural_after.get(name, ()))
            while todo:
                n = todo.pop()
                if n not in seen:
                    seen.add(n)
                    todo.extend(self.natural_after.get(n, ()))
            return seen

        for first, second in itertools.pairwise(names):
            if first not in above(second):
                return first, second
        return None
