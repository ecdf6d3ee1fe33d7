"""Table sizes: a two-seat probe played at three or four seats.

An engine may not be zero-sum at small tables (a bonus the house pays at
two or three seats); its answers there are not solved from. The probes
are then asked again at the smallest table size where the engine is zero
sum, with *filler* seats added: seats of the cards left over that neither
scoop nor are scooped by anyone, tie no row, hold no royalty of any
table (high cards on top; at most two pair or a straight below) and
declare no natural, so that every pair a filler plays is a plain two-rows-
to-one (or a foul or a surrender it meets) under the inferred ranking.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

import capsa
from capsa import Arrangement
from capsa.conformance.inference.probes import Probe, seat, seat_ids
from capsa.conformance.serve import _seat
from capsa.rules import Rules

__all__ = ["TABLE_SIZES", "widen"]

TABLE_SIZES = (2, 3, 4)
_ATTEMPTS = 600  # tries for one filler
_RESTARTS = 4
_FILLER_ROWS = {
    "top": ("high-card",),
    "middle": ("high-card", "pair", "two-pair", "straight"),
    "bottom": ("high-card", "pair", "two-pair", "straight"),
}
# beside a fouled seat, which pays every filler its royalties: high cards only
_HIGH_CARD_ROWS = {row: ("high-card",) for row in _FILLER_ROWS}


def widen(probe: Probe, size: int, rules: Rules) -> Probe | None:
    """``probe`` (a settle round) played at ``size`` seats, filler seats added;
    None when no fillers fit (or the round already has that many seats)."""
    seats = list(probe.input["round"]["seats"])
    if len(seats) >= size:
        return None
    # a surrender probe is widened even where the rules refuse surrenders
    rules = rules.derive({"surrender.enabled": True})
    used = {c for s in seats for c in seat_ids(s)}
    rng = random.Random(f"{probe.name}/{size}")
    fouled = any(Arrangement.from_ids(seat_ids(s)).is_foul(rules) for s in seats)
    for _ in range(_RESTARTS):
        trial = _fill(seats, size, used, rules, rng, _HIGH_CARD_ROWS if fouled else _FILLER_ROWS)
        if trial is not None and _plain_fillers(trial, len(seats), rules, final=True):
            round_ = {**probe.input["round"], "seats": trial}
            return replace(
                probe,
                name=f"{probe.name}@{size}",
                input={**probe.input, "round": round_},
                why=f"{probe.why} (at {size} seats)",
            )
    return None


def _fill(
    seats: Sequence[dict[str, Any]],
    size: int,
    used: set[int],
    rules: Rules,
    rng: random.Random,
    categories: Mapping[str, Sequence[str]],
) -> list[dict[str, Any]] | None:
    """The seats with fillers added one by one, each plain against those before it."""
    out = list(seats)
    taken = set(used)
    while len(out) < size:
        rest = [c for c in range(52) if c not in taken]
        for _ in range(_ATTEMPTS):
            rng.shuffle(rest)
            filler = _filler(rest[:13], rules, rng, categories)
            if filler is not None and _plain_fillers([*out, seat(filler)], len(seats), rules):
                out.append(seat(filler))
                taken.update(filler)
                break
        else:
            return None
    return out


def _filler(
    cards: Sequence[int],
    rules: Rules,
    rng: random.Random,
    categories: Mapping[str, Sequence[str]],
) -> list[int] | None:
    """13 cards as legal rows of the categories a filler may hold, or None."""
    cards = list(cards)
    rng.shuffle(cards)
    run = _straight(cards) if rng.random() < 0.5 else None
    if run is not None:  # a straight below beats a strong row without a royalty
        cards = [c for c in cards if c not in run] + run
    top, middle, bottom = cards[:3], cards[3:8], cards[8:]
    if capsa.compare(middle, bottom, rules) > 0:
        middle, bottom = bottom, middle
    ids = [*top, *middle, *bottom]
    if Arrangement.from_ids(ids).is_foul(rules):
        return None
    for row, hand in (("top", top), ("middle", middle), ("bottom", bottom)):
        if capsa.evaluate(hand, rules).category not in categories[row]:
            return None
    return ids


def _straight(cards: Sequence[int]) -> list[int] | None:
    """Five of ``cards`` that make a straight (not the wheel), if any."""
    by_rank = {c // 4: c for c in cards}
    for high in range(12, 3, -1):
        ranks = range(high - 4, high + 1)
        if all(r in by_rank for r in ranks):
            return [by_rank[r] for r in ranks]
    return None


def _plain_fillers(
    seats: Sequence[dict[str, Any]], first: int, rules: Rules, final: bool = False
) -> bool:
    """Whether every pair with a filler (seats from ``first``) is plain: no tied
    row, no scoop either way; and, for the whole table (``final``), no sweep."""
    try:
        detail = capsa.settle([_seat(s, k) for k, s in enumerate(seats)], rules)
    except capsa.CapsaError:
        return False
    for pair in detail.pairs:
        if final and pair["sweep_all"] and pair["outcome"] == "rows":
            return False  # a foul paid as a sweep-all (foul.mode) is no sweep
        if max(pair["seats"]) < first or pair["outcome"] != "rows":
            continue
        if pair["scoop"] or 0 in pair["rows"].values():
            return False
    return True
