"""The naturals an engine pays: which, in which order, and for how many points."""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from typing import Any

import capsa
from capsa import Arrangement
from capsa.cards import card_ids
from capsa.conformance.inference.probes import Probe, seat, settle_probe
from capsa.conformance.inference.rounds import (
    NATURAL_HANDS,
    PARAMETER_HANDS,
    TWINS,
    natural_hand,
    plain_seat,
    rows_of,
)
from capsa.conformance.inference.solving import Inferrer
from capsa.rules import Rules

__all__ = ["NaturalParts"]


class NaturalParts(Inferrer):
    """``naturals.enabled`` from ``natural`` answers (and settles of two naturals),
    and the settle probes of each paid natural."""

    def naturals(self) -> None:
        """The naturals paid, in order, from ``natural`` answers on a hand of each."""
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
            for name, text in {**NATURAL_HANDS, **PARAMETER_HANDS}.items()
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
            qualifies = self._qualifying(probe.input["hand"])
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

    def _qualifying(self, hand: str) -> set[str]:
        """The naturals ``hand`` qualifies for: by the base's parameters for those
        it lists (twelve royals from 13), by the default definitions otherwise."""
        entries = {
            i["name"]: {k: v for k, v in i.items() if k != "same_tier"}
            for i in self.base["naturals.enabled"]
        }
        out = set()
        for name in capsa.naturals(hand):
            entry = entries.get(name)
            alone = self.base.derive({"naturals.enabled": [entry]}) if entry else None
            if alone is None or capsa.natural(hand, alone) == name:
                out.add(name)
        return out

    def _parameters(self, name: str) -> dict[str, Any]:
        """A natural's parameters as the rules so far give them (not its tier)."""
        for entry in self.rules["naturals.enabled"]:
            if entry["name"] == name:
                return {k: v for k, v in entry.items() if k not in ("name", "points", "same_tier")}
        return {}

    def reorder_naturals(self, enabled: Sequence[Mapping[str, Any]]) -> None:
        """Orders the paid naturals as the answers require (``natural_after``),
        the rest by points (strongest first), then as the rules list them."""
        order = [i["name"] for i in self.rules["naturals.enabled"]]
        points = {i["name"]: i["points"] for i in enabled}

        def rank(name: str) -> tuple[int, int]:
            listed = (
                order.index(name) if name in order else len(order) + capsa.NATURAL_NAMES.index(name)
            )
            return (-points[name], listed)

        ordered: list[str] = []
        left = set(points)
        while left:
            ready = [n for n in left if not (self.natural_after.get(n, set()) & left)] or list(left)
            pick = min(ready, key=rank)
            ordered.append(pick)
            left.remove(pick)
        new = [{"name": n, "points": points[n], **self._parameters(n)} for n in ordered]
        if ordered == order:  # the tiers stand where the order does
            tiers = {i["name"] for i in self.rules["naturals.enabled"] if i.get("same_tier")}
            new = [{**e, **({"same_tier": True} if e["name"] in tiers else {})} for e in new]
        if new != self.rules["naturals.enabled"]:
            self.rules = self.rules.derive({"naturals.enabled": new})

    def natural_precedence(self) -> None:
        """Which of two paid naturals is the stronger, from a round of one against
        the other, for every pair no ``natural`` answer has ordered."""
        if "naturals.enabled" not in self.probed:
            return  # no natural answer: naturals.enabled is not probed, and says why
        enabled = [i["name"] for i in self.rules["naturals.enabled"]]
        probes = []
        for first, second in itertools.combinations(enabled, 2):
            if first in self.natural_after.get(second, set()) or second in self.natural_after.get(
                first, set()
            ):
                continue
            a, b = _natural_pair(first, second, self.rules)
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
            self.undetermine(
                "naturals.enabled",
                f"no answer shows whether {loose[0]} or {loose[1]} is the stronger "
                "(listed by points, then as the base lists them)",
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

    def natural_settle_probes(self) -> list[Probe]:
        """Settle probes of each paid natural's points, two naturals, and twins."""
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
                if Arrangement.from_ids(fouled).is_foul(rules):
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
        return out + _twin_probes(rules)


def _twin_probes(rules: Rules) -> list[Probe]:
    """A settle probe of the same natural on both sides, of different ranks
    (``naturals.ties``), for the first twins the rules pay."""
    for name, (one, two) in TWINS.items():
        a, b = card_ids(one), card_ids(two)
        if capsa.natural(a, rules) == name == capsa.natural(b, rules):
            probe = settle_probe(
                f"natural-twins-{name}",
                ("naturals.ties",),
                f"{name} on both sides, of different ranks",
                seat(rows_of(a, rules), declare=True),
                seat(rows_of(b, rules), declare=True),
            )
            return [probe]
    return []


def _natural_pair(
    first: str, second: str, rules: Rules
) -> tuple[list[int] | None, list[int] | None]:
    """Two hands of 13 distinct cards holding ``first`` and ``second``: the
    second found among the cards the first leaves, else the other way round."""
    a = natural_hand(first, rules, set())
    b = natural_hand(second, rules, set(a or ()))
    if a is None or b is None:
        b = natural_hand(second, rules, set())
        a = natural_hand(first, rules, set(b or ()))
    return a, b
