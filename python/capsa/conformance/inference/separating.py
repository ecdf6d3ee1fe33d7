"""Ambiguities settled by asking: rounds that tell apart the rules that fit.

When several rules explain every answer (a multiplier traded for its bonus,
several values of one knob), capsa looks for a case whose answer differs
between them among cases it deals itself (seeded): rounds at every table
size where the engine is zero-sum, some with a seat dealt the stronger
cards so that scoops and sweeps occur, some with a fouled seat, every
hand holding no natural under any definition the kit knows; and pairs of
hands of one category for ``compare``. The cases found are asked, and
the rules that still fit every answer decide:

* one left: it is inferred, and the cases that told it apart are its probes;
* several never told apart by any case dealt: they are **equivalent**, every
  answer is the same under each, and the one closest to the base is kept,
  saying so with the inferred rules it holds under;
* none: the knobs stay not determined.
"""

from __future__ import annotations

import json
import random
from collections.abc import Collection, Sequence
from dataclasses import replace
from functools import cached_property
from typing import Any

import capsa
from capsa.conformance.inference.knobs import all_knobs, get, with_knobs
from capsa.conformance.inference.probes import Probe, compare_probe, seat, settle_probe
from capsa.conformance.inference.rounds import natural_hand, rows_of
from capsa.conformance.inference.tables import TABLE_SIZES
from capsa.conformance.inference.trading import PAIRS, PARTNERS, SOLVED_TOGETHER, TradingParts
from capsa.conformance.protocol import text_of
from capsa.rules import Rules

__all__ = ["SeparatingParts", "telling_cases"]

_ROUNDS = 96  # dealt rounds in the pool
_NATURAL_ROUNDS = 24  # and rounds with a natural declared
_PAIRS = 160  # pairs of hands of one category in the pool
_STRONG_OF = 20
_ASKED = 2  # cases asked for each alternative rules
_CONFIRMING = 8  # cases reading the knobs asked before a reading is kept
_CONFIRMED = 4  # the fewest of them answered: a pool that barely reads a knob proves nothing
_DEALT = "separate-"
_TOLD = 8  # the answers named as a knob's probes
_PASSES = 3
# the knobs whose values an equivalence holds under, when not among its own
_CONTEXT = (
    "row_points",
    "overall_point",
    "royalty_mode",
    "scoop.multiplier",
    "scoop.bonus",
    "scoop.multiply_royalties",
    "sweep_all.multiplier",
    "sweep_all.bonus",
)


_MOOT = (
    "any value gives the same answers: no answer, nor any of the {} cases dealt to tell "
    "rules apart, depends on it under the inferred rules"
)
# the knobs of the figures a round pays, which another knob's value can leave unread
_FIGURE_KNOBS = ("scoop.", "sweep_all.", "row_points", "overall_point", "foul.")

Ambiguity = tuple[tuple[str, ...], list[dict[str, Any]], str]


class SeparatingParts(TradingParts):
    """Ambiguous knobs settled by cases that tell the rules apart."""

    def separate(self) -> None:
        """Asks the cases that tell each ambiguity's readings apart and decides
        (see the module docstring)."""
        for last in [False] * (_PASSES - 1) + [True]:
            pending = [a for a in self.ambiguous if self._open(a)]
            if not pending:
                return
            self.ask([p for a in pending for p in self._separating(self._fitting(a))])
            for ambiguity in pending:
                self._decide(ambiguity, last)

    def _open(self, ambiguity: Ambiguity) -> bool:
        knobs, _, why = ambiguity
        return any(self.undetermined.get(k) == f"{k}: {why}" for k in knobs)

    def _readings(self, ambiguity: Ambiguity) -> list[Rules]:
        """The current rules, and with each alternative's changes."""
        return [self.rules, *(with_knobs(self.rules, c) for c in ambiguity[1])]

    def _fitting(self, ambiguity: Ambiguity) -> list[Rules]:
        """The readings that give every answer the current rules give and every
        case dealt."""
        kept = self.rules
        readings = self._readings(ambiguity)
        answered = self.answered(self.probes.values())
        evidence = [p for p in answered if p.name.startswith(_DEALT) or self.matches(p, kept)]
        return [r for r in readings if self.consistent(evidence, r)]

    def _separating(self, readings: Sequence[Rules], asked: bool = False) -> list[Probe]:
        """Up to two cases of the pool per reading whose answer differs from the
        first reading's (not asked yet, or ``asked`` too)."""
        out: list[Probe] = []
        for other in readings[1:]:
            found = [
                p
                for p in self._pool
                if (asked or p.name not in self.answers)
                and self.expect(p, other) != self.expect(p, readings[0])
            ]
            out += [p for p in found[:_ASKED] if p not in out]
        return out

    def _decide(self, ambiguity: Ambiguity, last: bool) -> None:
        """One reading left is inferred; several that no case dealt tells apart
        are equivalent; none, or a reading the engine answers otherwise, leave
        the knobs not determined."""
        knobs, _, why = ambiguity
        fitting = self._fitting(ambiguity)
        if not fitting or (len(fitting) > 1 and self._separating(fitting)):
            return  # none fits, or the next pass asks what tells them apart
        if len(fitting) > 1 and (last or self._separating(fitting, asked=True)):
            return
        chosen = fitting[0] if len(fitting) == 1 else min(fitting, key=self._changes)
        if not self._readers(knobs, chosen, self._pool):
            # every value plays the same under the rules chosen (a scoop paid as
            # a sweep makes the table size a sweep needs moot)
            self.rules = chosen
            if len(fitting) > 1:
                self._equivalent(knobs, why, fitting, chosen)
            else:
                self._moot(knobs, why)
            return
        unread = self._read(knobs, chosen)
        if unread:
            if len(fitting) == 1:
                self.rules = chosen  # not decided, yet the later parts work under what fits
            for knob in knobs:
                if self.undetermined.get(knob) == f"{knob}: {why}":
                    self.undetermined[knob] = f"{knob}: {why} ({unread})"
            return
        others = [r for r in self._readings(ambiguity) if r != chosen]
        told = [
            p
            for p in self.answered(self.probes.values())
            if any(self.expect(p, r) != self.expect(p, chosen) for r in others)
        ][:_TOLD]
        self.rules = chosen
        if len(fitting) == 1:
            self._settled(knobs, why, told)
        else:
            self._equivalent(knobs, why, fitting, chosen)

    def _readers(
        self,
        knobs: Sequence[str],
        rules: Rules,
        cases: Sequence[Probe],
        enough: int = 1,
        first: bool = True,
    ) -> list[Probe]:
        """The answers, then the ``cases`` not asked, that read ``knobs`` (whose
        answer under ``rules`` another value of one of them would change): the
        first one found (``first``), else every answer and cases up to
        ``enough`` in all."""
        others = [with_knobs(rules, {k: v}) for k in knobs for v in self._alternatives(k, rules)]

        def reads(probe: Probe) -> bool:
            shown = self.expect(probe, rules)
            return any(self.expect(probe, other) != shown for other in others)

        out = []
        for probe in self.answered(self.probes.values()):
            if reads(probe):
                out.append(probe)
                if first:
                    return out
        for probe in cases:
            if len(out) >= enough:
                break
            if probe.name not in self.answers and reads(probe):
                out.append(probe)
        return out

    def _read(self, knobs: Sequence[str], rules: Rules) -> str:
        """The answers that read ``knobs``, with cases of the pool asked up to
        eight in all; returns why the reading is not kept (fewer than four, or
        one answered otherwise), or ""."""
        reading = self._readers(knobs, rules, self._pool, _CONFIRMING, first=False)
        self.ask([p for p in reading if p.name not in self.answers])
        answered = self.answered(reading)
        if len(answered) < _CONFIRMED:
            return f"{len(answered)} dealt round(s) read it, too few to decide"
        wrong = [p.name for p in answered if not self.matches(p, rules)]
        return f"the reading kept is answered otherwise on {', '.join(wrong[:3])}" if wrong else ""

    def trade_again(self) -> None:
        """When a knob that trades with partners (:data:`PARTNERS`) moved after
        the scoring was solved, checks the figures' trade-offs again under the
        rules as they now stand and decides what that leaves open: a foul of
        fixed points kept while a sweep's table size was open may now be told
        apart from the scoop it pays, or be its equivalent."""
        before = self.settled_rules
        moved = [k for k in PARTNERS if before is None or get(self.rules, k) != get(before, k)]
        if not moved:
            return  # the trade-offs were checked under these values
        settled = self._settle_answers()
        for knob, partners in PARTNERS.items():
            if partners and knob not in self.equivalent:
                self.trade(knob, partners, settled)
        self.separate()

    def moot_left(self) -> None:
        """Names equivalent every scoring knob inferred that, under the rules as
        they ended, no answer and no case dealt reads: a scoop paid as a sweep
        at every table size leaves the scoop's figures unread."""
        for knob in [k for k in self.probed if k.startswith(_FIGURE_KNOBS)]:
            if knob in self.undetermined or knob in self.equivalent:
                continue
            if not self._readers([knob], self.rules, self._pool):
                self.probed.pop(knob)
                self.equivalent[knob] = f"{knob}: {_MOOT.format(len(self._pool))}"

    def _moot(self, knobs: Sequence[str], why: str) -> None:
        said = _MOOT.format(len(self._pool))
        partners = self._partners(knobs)
        for knob in [*knobs, *partners]:
            if knob in knobs and self.undetermined.get(knob) != f"{knob}: {why}":
                continue
            self.undetermined.pop(knob)
            if knob in knobs or not self._readers([knob], self.rules, self._pool):
                self.equivalent[knob] = f"{knob}: {said}"
                self.probed.pop(knob, None)
        # a partner the answers still read is decided again from them, and with
        # its own partner (a scoop's multiplier for its bonus) may trade
        read = [k for k in partners if k not in self.equivalent]
        read += [a for a, b in PAIRS.items() if b in read] + [PAIRS[k] for k in read if k in PAIRS]
        for knob in dict.fromkeys(read):
            if knob not in self.undetermined:
                self.note([knob], self._readers([knob], self.rules, (), first=False))
                self.classify(knob)
        self._trade_pairs(read)

    def _settle_answers(self) -> list[Probe]:
        return [p for p in self.answered(self.probes.values()) if p.op == "settle"]

    def _trade_pairs(self, knobs: Collection[str]) -> None:
        """Checks again whether the multiplier of each pair among ``knobs`` trades
        with its bonus, under the rules as they now stand."""
        settled = self._settle_answers()
        for first, second in PAIRS.items():
            if first in knobs or second in knobs:
                self.trade(first, (second,), settled)

    def _changes(self, rules: Rules) -> tuple[int, bool]:
        """Fewest knobs away from the base first, then the rules kept so far."""
        changed = sum(1 for k in all_knobs(rules) if get(rules, k) != get(self.base, k))
        return changed, rules is not self.rules

    def _settled(self, knobs: Sequence[str], why: str, told: Sequence[Probe]) -> None:
        for knob in knobs:
            if self.undetermined.get(knob) == f"{knob}: {why}":
                self.undetermined.pop(knob)
        self.note(knobs, told)
        following = self._partners(knobs)
        for knob in list(self.undetermined):
            if knob in following or any(f"depend on {k}" in self.undetermined[knob] for k in knobs):
                self.undetermined.pop(knob)
                self.classify(knob)

    def _equivalent(
        self, knobs: Sequence[str], why: str, fitting: Sequence[Rules], chosen: Rules
    ) -> None:
        named = [*knobs, *sorted({k for r in fitting for k in all_knobs(r)} - set(knobs))]
        moved = [k for k in named if len({json.dumps(get(r, k)) for r in fitting}) > 1]
        readings = [_reading(r, moved) + (" (kept)" if r is chosen else "") for r in fitting]
        context = [k for k in _CONTEXT if k not in moved]
        holds = ", ".join(f"{k} = {json.dumps(get(chosen, k))}" for k in context)
        said = (
            f"{' and '.join(readings)} give the same answer to every case, the "
            f"{len(self._pool)} dealt to tell them apart included, under the inferred "
            f"rules ({holds})"
        )
        partners = self._partners(knobs)
        for knob in [*knobs, *partners]:
            if knob in knobs and self.undetermined.get(knob) != f"{knob}: {why}":
                continue
            self.undetermined.pop(knob)
            self.equivalent[knob] = f"{knob}: {said}"
        # a knob a reading changes with them (a scoop's bonus with its multiplier),
        # and one solved with them (the points of a fixed foul)
        solved_with = [p for k in knobs for p in PARTNERS.get(k, ()) if p in self.probed]
        for knob in [*moved, *solved_with]:
            if knob not in self.undetermined:
                self.equivalent.setdefault(knob, f"{knob}: {said}")
        self._trade_pairs(partners)

    def _partners(self, knobs: Sequence[str]) -> list[str]:
        """The knobs not determined only for having been solved with ``knobs``."""
        return [
            k
            for k, reason in self.undetermined.items()
            if k not in knobs and any(reason == f"{k}: {SOLVED_TOGETHER.format(o)}" for o in knobs)
        ]

    @cached_property
    def _pool(self) -> list[Probe]:
        """The cases dealt to tell rules apart (built once, under the rules
        inferred when first needed)."""
        sizes = [s for s in TABLE_SIZES if s not in self.not_zero_sum]
        return telling_cases(self.rules, self.ops, sizes, fouls=not self.fouls_never)


def telling_cases(
    rules: Rules, ops: Collection[str], sizes: Sequence[int], fouls: bool = True, seed: int = 0
) -> list[Probe]:
    """The cases dealt to tell rules apart (seeded by ``seed``, so the same each
    time; ``infer`` deals seed 0): ``settle`` rounds at ``sizes`` seats (rows
    laid out under ``rules``, a fouled seat in some when ``fouls``) and
    ``compare`` pairs of one category, for the ops in ``ops``. Raises nothing."""
    out: list[Probe] = []
    if "settle" in ops:
        out += _dealt_rounds(rules, sizes, fouls, seed)
        out += _natural_rounds(rules, [s for s in sizes if s >= 3], seed)
    if "compare" in ops:
        out += _category_pairs(rules, seed)
    return out


def _reading(rules: Rules, knobs: Sequence[str]) -> str:
    return ", ".join(f"{k} = {json.dumps(get(rules, k))}" for k in knobs)


def _deal(draw: random.Random, size: int, strong: bool) -> list[list[int]] | None:
    """``size`` hands of 13 from one shuffled deck, none of which holds a
    natural under any definition (None when the deal has one); ``strong``
    gives seat 0 the higher 13 of 20 cards (more and it is all high cards, a
    natural) and the others the rest, shuffled."""
    deck = list(range(52))
    draw.shuffle(deck)
    if strong:
        pool = sorted(deck[:_STRONG_OF])  # ids rise with rank
        rest = pool[:-13] + deck[_STRONG_OF:]
        draw.shuffle(rest)
        deck = pool[-13:] + rest
    hands = [sorted(deck[13 * i : 13 * i + 13]) for i in range(size)]
    if any(capsa.naturals(hand) for hand in hands):
        return None
    return hands


def _dealt_rounds(rules: Rules, sizes: Sequence[int], fouls: bool, seed: int) -> list[Probe]:
    """Seeded rounds at each of ``sizes``: in every other one seat 0 holds
    stronger cards (scoops and sweeps), in two of every six seat 1 fouls
    (one of them against the stronger seat)."""
    if not sizes:
        return []
    draw = random.Random(43 + 1000 * seed)
    out: list[Probe] = []
    for k in range(_ROUNDS * 4):
        size = sizes[len(out) % len(sizes)]
        hands = _deal(draw, size, strong=len(out) % 2 == 0)
        if hands is None:
            continue
        foul = fouls and len(out) % 6 in (2, 3)
        seats = [seat(rows_of(h, rules, foul=foul and i == 1)) for i, h in enumerate(hands)]
        why = f"a round dealt to tell apart rules that fit every answer ({size} seats)"
        out.append(_with_banker(settle_probe(f"separate-{k}", (), why, *seats), rules, len(out)))
        if len(out) == _ROUNDS:
            break
    return out


def _natural_rounds(rules: Rules, sizes: Sequence[int], seed: int) -> list[Probe]:
    """Seeded rounds of three and four seats where seat 0 holds the stronger
    cards and the last seat declares a natural (what a sweep does with a
    natural at the table): the only dealt rounds that hold one."""
    if not sizes:
        return []
    draw = random.Random(45 + 1000 * seed)
    out: list[Probe] = []
    names = [i["name"] for i in rules["naturals.enabled"]] or ["six-pairs"]
    for k in range(_NATURAL_ROUNDS * 4):
        size = sizes[len(out) % len(sizes)]
        natural = natural_hand(names[len(out) % len(names)], rules, set())
        if natural is None:
            continue
        rest = [c for c in range(52) if c not in natural]
        draw.shuffle(rest)
        pool = sorted(rest[:_STRONG_OF])  # ids rise with rank
        others = pool[:-13] + rest[_STRONG_OF:]
        draw.shuffle(others)
        hands = [pool[-13:]] + [sorted(others[13 * i : 13 * i + 13]) for i in range(size - 2)]
        if any(capsa.naturals(hand) for hand in hands):
            continue
        seats = [seat(rows_of(h, rules)) for h in hands] + [seat(natural, declare=True)]
        why = f"a round dealt with a natural declared at the table ({size} seats)"
        out.append(_with_banker(settle_probe(f"separate-natural-{k}", (), why, *seats), rules, k))
        if len(out) == _NATURAL_ROUNDS:
            break
    return out


def _with_banker(probe: Probe, rules: Rules, k: int) -> Probe:
    """The round with its banker (seat 0, the stronger, in every other round)
    and multipliers under a banker game."""
    if not rules["banker.enabled"]:
        return probe
    size = len(probe.input["round"]["seats"])
    banker, most = (0 if k % 2 == 0 else k % size), rules["banker.max_multiplier"]
    round_ = {**probe.input["round"], "banker": banker}
    multipliers = [1 if i == banker else 1 + (i + k) % most for i in range(size)]
    if k % 8 == 5:  # a multiplier above the most: the most is read by its refusal
        multipliers[(banker + 1) % size] = most + 1
    round_["multipliers"] = multipliers
    return replace(probe, input={**probe.input, "round": round_})


def _category_pairs(rules: Rules, seed: int) -> list[Probe]:
    """Seeded pairs of five-card hands (and of three) of one category."""
    draw = random.Random(44 + 1000 * seed)
    out: list[Probe] = []
    for k in range(_PAIRS * 4):
        size = 3 if k % 4 == 3 else 5
        deck = list(range(52))
        draw.shuffle(deck)
        a, b = deck[:size], deck[size : 2 * size]
        if len(out) == _PAIRS:
            break
        if capsa.evaluate(a, rules).category != capsa.evaluate(b, rules).category:
            continue
        why = "two hands of one category, dealt to tell apart rankings that fit every answer"
        out.append(compare_probe(f"separate-pair-{k}", text_of(a), text_of(b), (), why))
    return out
