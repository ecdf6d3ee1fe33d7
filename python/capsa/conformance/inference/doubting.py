"""The loop closed on the inference: settle answers the inferred rules do not give.

Besides the probes, a few dealt rounds are asked (:func:`dealt_probes`,
seeded: two and four seats, half of them with one seat dealt the stronger
cards, so scoops and sweeps occur): answers no probe was chosen for. When
capsa, under the inferred rules, does not give some zero-sum settle
answer, a knob was solved against a wrong value of another. :meth:`doubt`
first tries each other value of each scoring knob those answers read: one
that explains every answer is inferred (the unexplained answers are its
probes). Then the readings of two open ambiguities together (two
royalties below the row point they replace, which only a foul shows):
rules that explain every answer are kept, the knobs left for the dealt
cases to decide. Otherwise every knob the unexplained answers read, and every
knob solved from answers that also read one of those, is not determined,
with the reason (the answers left unexplained, and a value that fits them
when one does): nothing solved against a doubtful value stays confident.
"""

from __future__ import annotations

import itertools
import json
import random
from collections.abc import Mapping, Sequence
from typing import Any

from capsa.conformance.inference.knobs import all_knobs, candidates, get, with_knobs
from capsa.conformance.inference.probes import Probe, seat, settle_probe
from capsa.conformance.inference.rounds import rows_of
from capsa.conformance.inference.trading import PARTNERS, SOLVED_TOGETHER, TradingParts
from capsa.rules import Rules

__all__ = ["DoubtingParts", "dealt_probes"]

_DEALT = 8  # dealt rounds asked: a few requests, each settled under every trial value
_READINGS = 4  # the alternative readings of one ambiguity tried in a repair

_SCORING: tuple[str, ...] = ("row_points", "overall_point", "royalty_", "scoop.", "sweep_all.")
_SCORING += ("foul.", "surrender.", "royalties.", "naturals.points.")


class DoubtingParts(TradingParts):
    """Settle answers left unexplained: a one-knob repair, else doubt."""

    def doubt(self) -> None:
        """Repairs or marks as not determined the knobs that unexplained zero-sum
        settle answers read (see the module docstring)."""
        if "settle" in self.ops:
            self.ask(dealt_probes(self.rules))
        settled = [p for p in self.answered(self.probes.values()) if p.op == "settle"]
        unexplained = [p for p in settled if not self.matches(p, self.rules)]
        if unexplained:
            self._unexplained(settled, unexplained)
        self._pairs()

    def _pairs(self) -> None:
        """Marks the partner of a knob not determined (a multiplier and its
        bonus, the row and overall points, the foul mode and its points) as not
        determined too: they were solved together."""
        for _ in range(2):
            for knob, partners in PARTNERS.items():
                if knob not in self.undetermined:
                    continue
                for partner in partners:
                    if partner in self.probed and partner not in self.undetermined:
                        why = SOLVED_TOGETHER.format(knob)
                        self.undetermine(partner, why)

    def doubt_check(self, settles: Sequence[tuple[Mapping[str, Any], Any]]) -> None:
        """Marks as not determined the knobs that the check run's settle
        disagreements (input, the engine's result) read, as for probes."""
        cases = []
        for k, (given, result) in enumerate(settles):
            why = "a settle case of the check run"
            probe = Probe(f"check-{k + 1}", "settle", given, (), why)
            self.probes[probe.name] = probe
            self.answers[probe.name] = ("ok", result)
            self._check_defects(probe)
            cases.append(probe)
        settled = [p for p in self.answered(self.probes.values()) if p.op == "settle"]
        unexplained = [p for p in self.answered(cases) if not self.matches(p, self.rules)]
        if unexplained:
            self._demote(settled, unexplained)
        self._pairs()

    def _unexplained(self, settled: Sequence[Probe], unexplained: Sequence[Probe]) -> None:
        """Infers the one-knob change that explains every answer, when one does;
        else marks the knobs involved as not determined."""
        _, fits = self._reads(unexplained, settled)
        for knob, value in fits.items():
            trial = with_knobs(self.rules, {knob: value})
            if self.consistent(settled, trial):
                self.rules = trial
                self.undetermined.pop(knob, None)
                self.misfit.discard(knob)
                self.note([knob], unexplained)
                return
        repaired = self._other_readings(settled, unexplained)
        if repaired is not None:
            self.rules = repaired  # the knobs stay open: separate() decides them
            return
        self._demote(settled, unexplained)

    def _other_readings(
        self, settled: Sequence[Probe], unexplained: Sequence[Probe]
    ) -> Rules | None:
        """The rules with the readings of up to two open ambiguities taken
        together (two royalties below the row point they replace, which only a
        foul shows) that give every settle answer, if some do."""
        readings = [
            changes
            for knobs, alternatives, why in self.ambiguous
            if any(self.undetermined.get(k) == f"{k}: {why}" for k in knobs)
            for changes in alternatives[:_READINGS]
        ]
        for first, second in itertools.combinations([{}, *readings], 2):
            if set(first) & set(second):
                continue
            trial = with_knobs(self.rules, {**first, **second})
            if all(self.matches(p, trial) for p in unexplained) and self.consistent(settled, trial):
                return trial
        return None

    def _demote(self, settled: Sequence[Probe], unexplained: Sequence[Probe]) -> None:
        reads, fits = self._reads(unexplained, settled)
        names = ", ".join(p.name for p in unexplained[:3])
        more = f" and {len(unexplained) - 3} more" if len(unexplained) > 3 else ""
        count = len(unexplained)
        said = f"the inferred rules do not explain {count} settle answer(s) ({names}{more})"
        for knob in reads:
            fit = f"; {knob} = {json.dumps(fits[knob])} fits them" if knob in fits else ""
            self.undetermine(knob, f"{said}, which depend on it{fit}")
        for knob in self._solved_against(reads, settled):
            self.undetermine(knob, f"{said}; its value was solved against knobs they depend on")

    def _reads(
        self, probes: Sequence[Probe], settled: Sequence[Probe]
    ) -> tuple[list[str], dict[str, Any]]:
        """The scoring knobs another value of which changes capsa's answer to a
        probe, and for each the first such value that gives every answer."""
        reads: list[str] = []
        fits: dict[str, Any] = {}
        for knob in _knobs(self.rules, settled):
            current = get(self.rules, knob)
            for value in candidates(knob, self.rules):
                if value == current:
                    continue
                other = with_knobs(self.rules, {knob: value})
                if all(self.expect(p, other) == self.expect(p, self.rules) for p in probes):
                    continue
                if knob not in reads:
                    reads.append(knob)
                if all(self.matches(p, other) for p in probes):
                    fits[knob] = value
                    break
        return reads, fits

    def _solved_against(self, doubtful: Sequence[str], settled: Sequence[Probe]) -> list[str]:
        """The knobs inferred from settle answers (their own probes, or the probes
        naming them) that another value of a doubtful knob would change."""
        out = []
        for knob in _knobs(self.rules, settled):
            if knob in self.undetermined or knob in doubtful or knob in self.not_probed:
                continue
            named = [p for p in settled if knob in p.knobs]
            probes = [p for p in self.answered(self._probes_of(knob)) if p.op == "settle"] or named
            if probes and any(self._shifts(u, probes) for u in doubtful):
                out.append(knob)
        return out


def _knobs(rules: Rules, probes: Sequence[Probe]) -> list[str]:
    """The scoring knobs of ``rules`` and those the probes are for (a royalty
    the rules' table lacks included)."""
    named = {k for p in probes for k in p.knobs}
    return sorted(k for k in all_knobs(rules) | named if k.startswith(_SCORING))


def dealt_probes(rules: Rules) -> list[Probe]:
    """Seeded dealt rounds, every seat's rows legal under ``rules``: alternately
    two and four seats; in every other pair of rounds seat 0 holds the
    higher 13 of the first 26 cards dealt (a scoop or a sweep, mostly)."""
    draw = random.Random(21)
    out = []
    for k in range(_DEALT):
        deck = list(range(52))
        draw.shuffle(deck)
        size = 2 if k % 2 == 0 else 4
        hands = [sorted(deck[13 * i : 13 * i + 13]) for i in range(size)]
        if k % 4 < 2:
            pool = sorted(deck[:26])  # ids rise with rank
            hands[0], hands[1] = pool[13:], pool[:13]
        seats = [seat(rows_of(hand, rules)) for hand in hands]
        why = f"a dealt round of {size} seats (no knob chosen for it)"
        out.append(settle_probe(f"dealt-{k}", (), why, *seats))
    return out
