"""Probes found by search: royalty rounds, natural hands and plain seats."""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence
from typing import Any

import capsa
from capsa import Arrangement
from capsa.cards import card_ids
from capsa.conformance.inference.knobs import ROWS
from capsa.conformance.inference.probes import Probe, seat, seat_ids, settle_probe
from capsa.conformance.vector_seeds import NATURAL_HANDS as _VECTOR_NATURALS
from capsa.rules import Rules

__all__ = [
    "FOULED_SUFFIX",
    "NATURAL_HANDS",
    "PARAMETER_HANDS",
    "TOP_HANDS",
    "TWINS",
    "fouled_against",
    "natural_hand",
    "own_round",
    "plain_seat",
    "rows_of",
    "royalty_probe",
]


# Royalty cases: seat 0 holds the category in the row and wins it.
_BOTTOM_HANDS = {
    "pair": "Ad Ac Kh Qd Js",
    "two-pair": "Ad Ac Kh Kd Qs",
    "trips": "Ad Ac Ah Kd Qs",
    "straight": "Ts Jd Qc Kh Ad",
    "flush": "Ah Kh Qh Jh 9h",
    "full-house": "Ad Ac Ah Kd Ks",
    "quads": "Ad Ac Ah As Kd",
    "straight-flush": "9h Th Jh Qh Kh",
    "royal-flush": "Ts Js Qs Ks As",
}
# (middle, the bottom above it)
_MIDDLE_HANDS = {
    "pair": ("2d 2c 5h 7d 9s", "Ad Ac Kh Qd Js"),
    "two-pair": ("3d 3c 2h 2d 9s", "Ad Ac Kh Kd Qs"),
    "trips": ("2d 2c 2h 5d 7s", "Ad Ac Ah Kd Qs"),
    "straight": ("2d 3c 4h 5s 6d", "Ts Jd Qc Kh Ad"),
    "flush": ("2c 4c 6c 8c Tc", "Ah Kh Qh Jh 9h"),
    "full-house": ("2d 2c 2h 3d 3s", "Ad Ac Ah Kd Ks"),
    "quads": ("2d 2c 2h 2s 3d", "Ad Ac Ah As Kd"),
    "straight-flush": ("2c 3c 4c 5c 6c", "9h Th Jh Qh Kh"),
    "royal-flush": ("Td Jd Qd Kd Ad", "Ts Js Qs Ks As"),
}
# (top, middle, bottom)
TOP_HANDS = {
    "pair": ("Qd Qc 4h", "5d 5c 3h 3d 9s", "Kd Kc 7h 7d 8s"),
    "trips": ("Qd Qc Qh", "Kd Kc Kh 2s 3c", "Ad Ac As 4d 5c"),  # no three flushes
}


def royalty_probe(row: str, category: str, rules: Rules) -> Probe | None:
    """A two-seat round where seat 0 wins ``row`` with ``category`` and, when it
    can, loses another row; the other rows are high cards where they can be;
    neither hand holds a natural under any definition the kit knows."""
    rng = random.Random(f"{row}/{category}")
    if row == "bottom":
        fixed = {"bottom": card_ids(_BOTTOM_HANDS[category])}
    elif row == "middle":
        middle, bottom = _MIDDLE_HANDS[category]
        fixed = {"middle": card_ids(middle), "bottom": card_ids(bottom)}
    else:
        top, middle, bottom = TOP_HANDS[category]
        fixed = {r: card_ids(t) for r, t in zip(ROWS, (top, middle, bottom), strict=True)}
    used = {c for ids in fixed.values() for c in ids}
    rest = [c for c in range(52) if c not in used]
    size = {"top": 3, "middle": 5, "bottom": 5}
    for attempt in range(4000):
        strict = attempt < 2500
        rng.shuffle(rest)
        deck = iter(rest)
        seat0 = {r: fixed.get(r) or [next(deck) for _ in range(size[r])] for r in ROWS}
        seat1_cards = [next(deck) for _ in range(13)]
        seat1 = {"top": seat1_cards[:3], "middle": seat1_cards[3:8], "bottom": seat1_cards[8:]}
        if capsa.compare(seat1["middle"], seat1["bottom"], rules) > 0:
            seat1["middle"], seat1["bottom"] = seat1["bottom"], seat1["middle"]
        flat0 = [c for r in ROWS for c in seat0[r]]
        flat1 = [c for r in ROWS for c in seat1[r]]
        if Arrangement.from_ids(flat0).is_foul(rules) or Arrangement.from_ids(flat1).is_foul(rules):
            continue
        if capsa.naturals(flat0) or capsa.naturals(flat1):
            continue  # a natural under some house's definition: an engine may not decline it
        results = {r: capsa.compare(seat0[r], seat1[r], rules) for r in ROWS}
        if results[row] <= 0 or 0 in results.values():
            continue
        if strict and all(v > 0 for v in results.values()):
            continue  # a scoop only once no round with a lost row turned up
        plain = all(capsa.evaluate(seat1[r], rules).category == "high-card" for r in ROWS) and all(
            capsa.evaluate(seat0[r], rules).category == "high-card" for r in ROWS if r not in fixed
        )
        if strict and not plain:
            continue
        knob = f"royalties.{row}.{category}"
        return settle_probe(
            f"royalty-{row}-{category}",
            (knob,),
            f"seat 0 wins the {row} with {category}",
            seat(flat0),
            seat(flat1),
        )
    return None


def own_round(knob: str, probes: Sequence[Probe]) -> list[Probe]:
    """Of ``probes``, the rounds made for the royalty ``knob`` (at any table
    size): a royalty is solved from them first, then refined by the rounds
    that show it beside another knob (a foul, a scoop)."""
    if not knob.startswith("royalties.") or knob.count(".") != 2:
        return []
    _, row, category = knob.split(".")
    return [p for p in probes if p.name.split("@")[0] == f"royalty-{row}-{category}"]


def fouled_against(probe: Probe, rules: Rules) -> Probe | None:
    """The royalty ``probe`` with seat 1's cards laid out as a foul: a foul that
    pays royalties pays seat 0's in full, one a row point as large hides
    (a royalty in place of the row point shows only when larger)."""
    seats = probe.input["round"]["seats"]
    fouled = _plain_foul(seat_ids(seats[1]), rules, random.Random(probe.name))
    if fouled is None:
        return None
    _, row, category = probe.knobs[0].split(".")
    return settle_probe(
        f"{probe.name}{FOULED_SUFFIX}",
        probe.knobs,
        f"seat 1 fouls against seat 0's {category} in the {row} (a foul pays royalties in full)",
        seats[0],
        seat(fouled),
    )


def _plain_foul(cards: Sequence[int], rules: Rules, rng: random.Random) -> list[int] | None:
    """``cards`` laid out as a foul of high cards and pairs only (a top over
    the middle), which no ranking of a house, nor a ranking defect of two pair
    or above, can make legal."""
    plain = ("high-card", "pair")
    cards = list(cards)
    for _ in range(_FOUL_TRIES):
        rng.shuffle(cards)
        top, middle, bottom = cards[:3], cards[3:8], cards[8:]
        rows = (top, middle, bottom)
        if all(capsa.evaluate(r, rules).category in plain for r in rows) and (
            capsa.compare(top, middle, rules) > 0
        ):
            return [*top, *middle, *bottom]
    return None


# Natural hands: one 13-card hand qualifying for each natural, and twins of
# equal naturals with different ranks (for naturals.ties).
NATURAL_HANDS = {name: has for name, (has, _) in _VECTOR_NATURALS.items()}
# Hands that qualify under a house's parameters where the catalogue's does not
# (twelve royals counted from 13): probes named for the parameter.
PARAMETER_HANDS = {"twelve-royals-13": "Jc Jd Jh Js Qc Qd Qh Qs Kc Kd Kh Ac Ad"}
TWINS = {
    "six-pairs": (
        "2d 2c 4d 4c 6d 6c 8d 8c Td Tc Qd Qc As",
        "3d 3c 5d 5c 7d 7c 9d 9c Jd Jc Kd Kc Ah",
    ),
    "four-triples": (
        "2d 2c 2h 5d 5c 5h 9d 9c 9h Kd Kc Kh As",
        "3d 3c 3h 6d 6c 6h Td Tc Th Qd Qc Qh Ah",
    ),
    "five-pairs-trips": (
        "2d 2c 4d 4c 6d 6c 8d 8c Td Tc Qd Qc Qh",
        "3d 3c 5d 5c 7d 7c 9d 9c Jd Jc Kd Kc Ks",
    ),
}
_SUIT_PERMUTATIONS = list(itertools.permutations(range(4)))
_REPLACING_RESTARTS = 4
FOULED_SUFFIX = "-fouled"  # a royalty probe's companion against a fouled hand
_FOUL_TRIES = 2000


def _relabel(ids: Sequence[int], perm: Sequence[int]) -> list[int]:
    return [4 * (c // 4) + perm[c % 4] for c in ids]


def rows_of(hand: Sequence[int], rules: Rules, foul: bool = False) -> list[int]:
    """13 ids laid out top, middle, bottom: a legal split, or a fouled one."""
    if not foul:
        from capsa.solver import best_arrangement

        cards = best_arrangement(list(hand), rules, strategy="greedy").arrangement.cards
        return [c.id for c in cards]
    ranked = sorted(hand, reverse=True)  # the strongest cards on top: a foul, nearly always
    for perm in itertools.islice(itertools.permutations(ranked), 0, 2000, 97):
        if Arrangement.from_ids(list(perm)).is_foul(rules):
            return list(perm)
    return ranked


def plain_seat(used: set[int], rules: Rules, seed: str) -> dict[str, Any]:
    """A seat of 13 cards not in ``used``, legal rows, not declaring a natural."""
    rng = random.Random(seed)
    rest = [c for c in range(52) if c not in used]
    rng.shuffle(rest)
    return seat(rows_of(sorted(rest[:13]), rules))


def natural_hand(name: str, rules: Rules, used: set[int]) -> list[int] | None:
    """13 cards not in ``used`` whose natural under ``rules`` is ``name``: a
    catalogue hand, relabelled by suits when needed."""
    if name not in NATURAL_HANDS:
        return None  # a natural of larger decks only: no hand of 52 cards holds it
    own = card_ids(NATURAL_HANDS[name])
    others = [card_ids(h) for n, h in NATURAL_HANDS.items() if n != name]
    bases = [b for b in (own, *others) if name in capsa.naturals(b)]
    for base in bases:
        for perm in _SUIT_PERMUTATIONS:
            ids = _relabel(base, perm)
            if not used.intersection(ids) and capsa.natural(ids, rules) == name:
                return ids
    rng = random.Random(f"{name}/{sorted(used)}")
    for _ in range(_REPLACING_RESTARTS):
        for base in bases:
            swapped = _replaced(base, name, rules, used, rng)
            if swapped is not None:
                return swapped
    return None


def _replaced(
    hand: Sequence[int], name: str, rules: Rules, used: set[int], rng: random.Random
) -> list[int] | None:
    """``hand`` with each card of ``used`` swapped, one at a time, for a free
    card that keeps the hand's natural ``name`` (a twelve-royals hand beside a
    dragon, which holds a jack, a queen, a king and an ace); None if a swap
    finds none."""
    ids = list(hand)
    for index in [i for i, c in enumerate(ids) if c in used]:
        free = [c for c in range(52) if c not in used and c not in ids]
        rng.shuffle(free)
        for card in free:
            trial = [*ids[:index], card, *ids[index + 1 :]]
            if capsa.natural(trial, rules) == name:
                ids = trial
                break
        else:
            return None
    return ids
