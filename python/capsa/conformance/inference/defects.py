"""Ranking defects: orders no poker ranking has, named with the hands that show them.

An engine may rank hands in an order that is no setting of the ranking
knobs: a category above a stronger one (scores that overflow from one
category into the next), a suit deciding before a kicker, a three-card row
tied with a five-card row of the same leading ranks. Such an order is no
scoring knob either, so it is asked for directly (``compare``): the
strongest hand of each category against the weakest of every stronger one,
equal pairs, two pair and high cards told apart by a kicker while their
best suits say the opposite, and three cards against five. A case is used
only when every combination of the ranking knobs gives it the same answer;
an engine that answers one otherwise has a ranking defect, reported as an
observation of kind ``"ranking-defect"`` with the two hands, and no knob is
fitted to it.
"""

from __future__ import annotations

import itertools
from functools import lru_cache

import capsa
from capsa import Rules
from capsa.cards import card_ids
from capsa.conformance.inference.probes import Probe, compare_probe
from capsa.conformance.inference.solving import Inferrer
from capsa.conformance.inference.wording import show
from capsa.conformance.rankings import order_under_every_ranking

__all__ = [
    "DEFECT_NOTE",
    "DefectParts",
    "defect_message",
    "defect_probes",
    "invariant",
    "shows_defect",
]

DEFECT_NOTE = (
    "the engine's ranking has defects no ranking knob expresses (the ranking-defect "
    "observations name the smallest hands that show each): no knob is fitted to them, "
    "and a settle answer over such hands is not explained by any rules"
)

# the weakest and the strongest five-card hand of each category, weakest first
# (no wheel: where the wheel ranks is a knob)
_FIVE = (
    ("high-card", "2c 3d 4h 5s 7c", "Ac Kd Qh Js 9c"),
    ("pair", "2c 2d 3h 4s 5c", "Ac Ad Kh Qs Jc"),
    ("two-pair", "2c 2d 3h 3s 4c", "Ac Ad Kh Ks Qc"),
    ("trips", "2c 2d 2h 3s 4c", "Ac Ad Ah Ks Qc"),
    ("straight", "2c 3d 4h 5s 6c", "Tc Jd Qh Ks Ac"),
    ("flush", "2c 3c 4c 5c 7c", "Ah Kh Qh Jh 9h"),
    ("full-house", "2c 2d 2h 3s 3c", "Ac Ad Ah Ks Kc"),
    ("quads", "2c 2d 2h 2s 3c", "Ac Ad Ah As Kc"),
    ("straight-flush", "2d 3d 4d 5d 6d", "9s Ts Js Qs Ks"),
)
_THREE = (
    ("high-card", "2c 3d 5h", "Ac Kd Jh"),
    ("pair", "2c 2d 3h", "Ac Ad Kh"),
    ("trips", "2c 2d 2h", "Ac Ad Ah"),
)
# hands a kicker decides while the best suits say the opposite (suit order shcd)
_KICKERS = (
    ("a pair's kicker", "Ks Kh 9c 5d 3c", "Kd Kc Qs 7h 4h"),
    ("a high card's second card", "As 9s 7d 5c 3h", "Ad Kc 7c 5h 3d"),
    ("two pair's kicker", "Ks Kh 9s 9h 3c", "Kd Kc 9d 9c 5h"),
)
_THREE_FIVE = (
    ("three cards against five of the same leading ranks", "Ah Kd Qc", "As Kc Qd 3h 2s"),
    ("a pair of three cards against the same pair of five", "Ah Ad Qc", "As Ac Qd 3h 2s"),
)


def _disjoint(a: str, b: str) -> str | None:
    """``b`` with its suits permuted so that it shares no card with ``a`` and keeps
    its category; None when no permutation does."""
    taken = set(card_ids(a))
    rules = Rules.preset("capsa-susun")
    category = capsa.evaluate(card_ids(b), rules).category
    for perm in itertools.permutations("cdhs"):
        shifted = " ".join(c[0] + perm["cdhs".index(c[1])] for c in b.split())
        ids = card_ids(shifted)
        if taken.isdisjoint(ids) and capsa.evaluate(ids, rules).category == category:
            return shifted
    return None


@lru_cache(maxsize=1)
def defect_probes() -> tuple[Probe, ...]:
    """The ``compare`` cases no ranking knob changes the answer of (see the
    module docstring). Raises nothing."""
    out = []
    for table in (_FIVE, _THREE):
        for (low, _, strong), (high, weak, _) in itertools.combinations(table, 2):
            other = _disjoint(strong, weak)
            if other is not None:
                why = f"the strongest {low} against the weakest {high}"
                name = f"defect-{low}-{high}-{len(strong.split())}"
                out.append(compare_probe(name, strong, other, (), why))
    out += [
        compare_probe(f"defect-kicker-{k}", a, b, (), w) for k, (w, a, b) in enumerate(_KICKERS)
    ]
    out += [
        compare_probe(f"defect-rows-{k}", a, b, (), w) for k, (w, a, b) in enumerate(_THREE_FIVE)
    ]
    return tuple(p for p in out if invariant(p))


def shows_defect(probe: Probe) -> bool:
    """Whether a probe answered otherwise than capsa shows a ranking defect: a
    defect case, or the fixed rule of three cards against five (straights
    and flushes of three cards, or Q-K-A-2-3, are rules some houses play)."""
    names = {p.name for p in defect_probes()} | {"three-vs-five"}
    return probe.name in names and invariant(probe)


def invariant(probe: Probe) -> bool:
    """Whether every combination of the ranking knobs answers a ``compare``
    probe alike."""
    if probe.op != "compare":
        return False
    a, b = (card_ids(probe.input[k]) for k in ("a", "b"))
    return order_under_every_ranking(a, b) is not None


class DefectParts(Inferrer):
    """Ranking defects, asked (the verification names them)."""

    def defects(self) -> None:
        """Asks the defect cases (of an engine that supports ``compare``) and
        keeps the category pairs the engine ranks otherwise, so that the settle
        answers over such rows are set aside."""
        if "compare" not in self.ops:
            return
        probes = defect_probes()
        self.ask(probes)
        for probe in self.answered(probes):
            if probe.name.startswith("defect-rows-") or self.got(probe) == self.expect(
                probe, self.rules
            ):
                continue
            a, b = (capsa.evaluate(card_ids(probe.input[k]), self.rules) for k in ("a", "b"))
            self.defects_found.add((a.category, b.category))


def defect_message(probe: Probe, got: object, expected: object) -> str:
    """What a ``compare`` answer no ranking gives says, in words."""
    a, b = probe.input["a"], probe.input["b"]
    said = {1: f"{a} above {b}", -1: f"{b} above {a}", 0: f"{a} and {b} equal"}
    engine = said.get(got, show(got)) if isinstance(got, int) else show(got)
    ours = said.get(expected, show(expected)) if isinstance(expected, int) else show(expected)
    return f"ranking defect ({probe.why}): the engine ranks {engine}; every ranking ranks {ours}"
