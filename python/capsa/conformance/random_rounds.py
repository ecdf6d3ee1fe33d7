"""Random rounds for the settle suite: biased deals (a natural now and
then), rows laid out legally, at random or by the greedy arranger,
surrenders, declined naturals and stakes; and a seat of a settle case
written from 13 ids laid out top, middle, bottom."""

from __future__ import annotations

import itertools
import random
from typing import Any

from capsa import Arrangement
from capsa.cards import card_ids
from capsa.conformance.protocol import RulesSpec, text_of
from capsa.conformance.vector_seeds import NATURAL_HANDS
from capsa.rules import Rules
from capsa.solver import best_arrangement

__all__ = ["SETTLE_NATURALS", "arrangement_text", "random_round", "seat_of"]


def arrangement_text(ids: list[int]) -> dict[str, str]:
    """13 ids laid out top, middle, bottom as a case's rows, each sorted."""
    return {
        "top": text_of(sorted(ids[:3])),
        "middle": text_of(sorted(ids[3:8])),
        "bottom": text_of(sorted(ids[8:])),
    }


def seat_of(ids: list[int], surrender: bool, declare: bool) -> dict[str, Any]:
    """A seat of a settle case: its rows (:func:`arrangement_text`) and flags."""
    seat: dict[str, Any] = dict(arrangement_text(ids))
    seat["surrender"] = surrender
    seat["declare_natural"] = declare
    return seat


# The settle suite draws its natural hands from the fifteen naturals it was
# written with, so that a natural added later leaves its vectors as shipped.
SETTLE_NATURALS = list(NATURAL_HANDS)[:15]


def _natural_or_random(rng: random.Random, deck: list[int]) -> list[int]:
    """Takes 13 cards from the deck, built to hold a natural a third of the time."""
    if rng.random() < 0.35:
        name = rng.choice(SETTLE_NATURALS)
        wanted = card_ids(NATURAL_HANDS[name][rng.random() < 0.2])
        if all(c in deck for c in wanted):
            for c in wanted:
                deck.remove(c)
            return sorted(wanted)
    hand = sorted(deck[:13])
    del deck[:13]
    return hand


def _rows_for(rng: random.Random, hand: list[int], rules: Rules) -> list[int]:
    """Rows for a hand: the greedy arranger's a quarter of the time (strong rows, royalties),
    a random legal split half the time, random rows (mostly fouled) otherwise."""
    draw = rng.random()
    if draw < 0.25:
        return [c.id for c in best_arrangement(hand, rules, strategy="greedy").arrangement.cards]
    ids = hand[:]
    for _ in range(40 if draw < 0.75 else 1):
        rng.shuffle(ids)
        if draw >= 0.75 or not Arrangement.from_ids(ids).is_foul(rules):
            break
    return ids


def random_round(rng: random.Random, spec: RulesSpec, seats: int) -> dict[str, Any]:
    """A random round: biased deals, legal or random rows, surrenders, declines, stakes."""
    rules = spec.rules()
    deck = list(range(52))
    rng.shuffle(deck)
    out = []
    for _ in range(seats):
        hand = _natural_or_random(rng, deck)
        ids = _rows_for(rng, hand, rules)
        surrender = bool(rules["surrender.enabled"]) and rng.random() < 0.15
        declare = rng.random() < 0.9
        out.append(seat_of(ids, surrender, declare))
    if rng.random() < 0.25:
        matrix = [[0] * seats for _ in range(seats)]
        for i, j in itertools.combinations(range(seats), 2):
            matrix[i][j] = matrix[j][i] = rng.choice([0, 1, 10, 25, 100])
        stakes: Any = matrix
    else:
        stakes = rng.choice([1, 1, 1, 7, 100, 0, rules["money.stake"]])
    round_: dict[str, Any] = {"seats": out, "stakes": stakes}
    if rules["banker.enabled"]:
        banker = rng.randrange(seats)
        top = int(rules["banker.max_multiplier"])
        round_["banker"] = banker
        round_["multipliers"] = [1 if k == banker else rng.randint(1, top) for k in range(seats)]
    return {"round": round_}
