"""The rules of the houses: the horse card, banker games, caps, seats-sized
scoops, natural opponents and royalties by rank, read from dealt rounds.

No fixed probe is written for these knobs. Each is a set of readings (the
rules so far, and the same with each value tried: the horse card none, the
base's, A, 5 and 10 of hearts and the ace of spades; each choice of a
choice knob; the integers around the current value, and 0; no royalty
table by rank, and the base's), settled as any ambiguity is
(:mod:`~capsa.conformance.inference.separating`): the dealt rounds that
tell the readings apart are asked, and the reading left is inferred once
the rounds that read the knob confirm it. A knob that only counts under
another (the horse's multiplier without a horse card, a banker's knobs
without a banker, the cap's stage without a cap, the natural opponents of
a sweep without naturals) is equivalent for every value once that one is
off; a banker game is read only under a base that plays one (its rounds
name the banker and the multipliers); a knob of larger decks (five of a kind, both
jokers on top) is equivalent for every value under the 52-card deck.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from capsa.conformance.inference.knobs import candidates, get, with_knobs
from capsa.conformance.inference.probes import RAKE_KNOBS
from capsa.conformance.inference.separating import SeparatingParts
from capsa.rules import Rules

__all__ = ["HOUSE_KNOBS", "HouseParts"]

# knob -> the knob it counts under (None: on its own)
HOUSE_KNOBS: dict[str, str | None] = {
    "horse.card": None,
    "banker.enabled": None,
    "cap.pair": None,
    "cap.scoop": None,
    "cap.sweep_all": None,
    "scoop.by_seats": None,
    "sweep_all.natural_opponents": "naturals.enabled",
    "royalties.top_by_rank": None,
    "royalties.middle_by_rank": None,
    "royalties.bottom_by_rank": None,
    "horse.multiplier": "horse.card",
    "horse.naturals": "horse.card+naturals",
    "banker.wins_ties": "banker.enabled",
    "banker.max_multiplier": "banker.enabled",
    "cap.stage": "cap.pair",
}
# knobs of larger decks: no hand of the 52-card deck reads them
_LARGER_DECKS = (
    "royalties.middle_five_of_a_kind",
    "royalties.bottom_five_of_a_kind",
    "royalties.top_two_jokers",
)
_CAPS = ("cap.pair", "cap.scoop", "cap.sweep_all")
_DECK = ("deck.added_suits", "deck.decks", "deck.jokers")
_UNSEEN = "no answer depends on it under the inferred rules"
_TOO_FEW = "too few to decide)"
_SET_ASIDE = "the answers of its probes are set aside"
_UNREAD = "no fixed probe reads it"
# the house knobs read before the scoring is solved: each moves every round's points
_FIRST = ("horse.card", "cap.pair", "cap.scoop", "cap.sweep_all", "scoop.by_seats")
# scoring knobs a dealt round may read when no probe does
_SCORING = ("sweep_all.", "scoop.", "royalties.", "overall_point", "royalty_")


class HouseParts(SeparatingParts):
    """The knobs of the houses, each read from dealt rounds."""

    def house_first(self) -> None:
        """Reads the house knobs that count on their own before the scoring is
        solved, so that it is solved under them (a horse card or a cap the base
        does not have moves every round's points); one no reading fits yet is
        read again after the scoring (:meth:`house_rules`)."""
        if "settle" not in self.ops:
            return
        for knob, parent in HOUSE_KNOBS.items():
            if parent is None and knob in _FIRST:
                self._read_house(knob, None)
        self.separate()
        for knob in _FIRST:  # not decided yet: the scoring first, then again
            if self.undetermined.get(knob, "").startswith(f"{knob}: {_UNREAD}"):
                self.undetermined.pop(knob)
                self.probed.pop(knob, None)

    def house_rules(self) -> None:
        """Reads every house knob (see the module docstring): the ones that
        count on their own first, then those that count under them."""
        if "settle" not in self.ops:
            self.skip(HOUSE_KNOBS, "the engine does not support settle")
            return
        deck = (self.rules["deck.added_suits"], self.rules["deck.decks"], self.rules["deck.jokers"])
        if deck == ("none", 1, 0):
            self.moot(_LARGER_DECKS, "the 52-card deck holds no five of a kind and no joker")
        else:
            self._first_copies()
        unseen = self._unseen()
        before = self.rules
        for under in (False, True):
            for knob, parent in HOUSE_KNOBS.items():
                if (parent is not None) == under:
                    self._read_house(knob, parent)
            if not under:
                for knob in unseen:
                    self.undetermined.pop(knob, None)
                    self._read_house(knob, None)
            self.separate()
        self._follow_house(before)
        if self.rules["foul.mode"] != "fixed" and "foul.points" in self.not_probed:
            self.not_probed.pop("foul.points")
            mode = self.rules["foul.mode"]
            self.moot(
                ["foul.points"], f'it counts only under foul.mode = "fixed", and it is "{mode}"'
            )
        for knob, said in unseen.items():  # still unread: as before, not a doubt
            if self.undetermined.get(knob, "").endswith(_TOO_FEW):
                self.undetermined.pop(knob)
                if said.endswith(_UNSEEN):
                    self.not_probed[knob] = f"{said}, nor do enough dealt rounds"
                else:
                    self.undetermined[knob] = f"{said}, and too few dealt rounds read it"

    def _follow_house(self, before: Rules) -> None:
        """The knobs solved under the house knobs' values before they were read:
        decided again where a house knob changed, not determined where one is,
        when that knob changes the answers they were solved from."""
        for house in HOUSE_KNOBS:
            changed = get(self.rules, house) != get(before, house)
            doubtful = house in self.undetermined
            if not changed and not doubtful:
                continue
            # the rake is read from the engine's own money: no house knob moves it
            for knob in [k for k in self.probed if k not in HOUSE_KNOBS and k not in RAKE_KNOBS]:
                if knob in self.undetermined or knob in self.equivalent:
                    continue
                probes = [p for p in self.answered(self._probes_of(knob)) if p.op == "settle"]
                if not probes or not self._shifts(house, probes):
                    continue
                if doubtful:
                    self.undetermine(knob, f"its answers depend on {house}, not determined")
                else:
                    self.classify(knob)

    def _unseen(self) -> dict[str, str]:
        """The scoring knobs no probe's answer depends on, or whose probes' answers
        were set aside, with why: dealt rounds may read them."""
        found = {k: w for k, w in self.not_probed.items() if w.endswith(_UNSEEN)}
        found |= {k: w for k, w in self.undetermined.items() if _SET_ASIDE in w}
        return {k: w for k, w in found.items() if k.startswith(_SCORING) and k not in _LARGER_DECKS}

    def _first_copies(self) -> None:
        """Under a larger deck the probes deal its first 52 cards: no hand holds a
        second copy or a joker, so the deck and five of a kind stay the base's."""
        why = "the probes deal the deck's first 52 cards: no hand holds a second copy or a joker"
        for knob in (*_LARGER_DECKS, *_DECK):
            if knob not in self.probed and knob not in self.equivalent:
                self.not_probed[knob] = f"{knob}: {why}"

    def _read_house(self, knob: str, parent: str | None) -> None:
        if knob in self.probed or knob in self.equivalent:
            return
        if knob == "banker.enabled" and not self.base[knob]:
            why = "a banker game changes what a round holds: probe under rules that play one"
            self.skip([knob], why)
            return
        if parent is not None and not self._counts(parent):
            under = parent.replace("+", " and ")
            self.moot([knob], f"it counts only under {under}, and {self._off(parent)}")
            return
        current = get(self.rules, knob)
        values = [v for v in _unique(self._house_values(knob)) if v != current and (v or current)]
        if not values:
            self.skip([knob], "infer tries a royalty table by rank only when the base has one")
            return
        readings = [with_knobs(self.rules, {knob: v}) for v in values]
        shown = ", ".join(_shown(v) for v in values[:8])
        why = f"{_UNREAD}, and no dealt round decided it from {shown}"
        self.ambiguity([knob], readings, why)

    def _counts(self, parent: str) -> bool:
        if parent == "horse.card+naturals":
            return self._counts("horse.card") and self._counts("naturals.enabled")
        if parent == "cap.pair":
            return any(get(self.rules, c) for c in _CAPS)
        return bool(get(self.rules, parent))

    def _off(self, parent: str) -> str:
        if parent == "horse.card+naturals":
            return "the engine pays no natural or plays no horse card"
        if parent == "cap.pair":
            return "no cap is inferred"
        if parent == "naturals.enabled":
            return "the engine pays no natural"
        return f"{parent} is inferred as {_shown(get(self.rules, parent))}"

    def _house_values(self, knob: str) -> Sequence[Any]:
        current = get(self.rules, knob)
        values = [*candidates(knob, self.rules), get(self.base, knob)]
        if isinstance(current, int) and not isinstance(current, bool):
            low = min(values)
            near = [v for v in values if abs(v - current) <= 2 or v in (low, get(self.base, knob))]
            return sorted(set(near))
        return values


def _unique(values: Sequence[Any]) -> list[Any]:
    out: list[Any] = []
    for value in values:
        if value not in out:
            out.append(value)
    return out


def _shown(value: Any) -> str:
    if value is None:
        return "none"
    return (
        str(value) if not isinstance(value, dict) else ("{}" if not value else "the base's table")
    )
