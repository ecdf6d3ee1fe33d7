"""The hand-picked settle cases of the rules of every house (docs/rules.md,
"Settlement" and "A pair's terms"): ranked royalties, scoop by seats, the
sweep-all's natural opponents, the horse card with and without naturals,
each cap and its stage, banker games (ties, multipliers, unplayed pairs),
bonus, raised and must-declare naturals, tiers, and the foul modes
``none`` and ``refuse``. ``capsa.conformance.vectors`` writes them as the
suite ``settle-house`` (``settle-house.jsonl``), beside the suites of the
rules before them, which it writes unchanged.
"""

from __future__ import annotations

from typing import Any

from capsa.conformance.protocol import RulesSpec
from capsa.conformance.vector_seeds import round_of, rules_spec, seat_of_text

__all__ = ["BANKER_SETTLE_SEEDS", "HOUSE_NATURAL_SEEDS", "HOUSE_SETTLE_SEEDS"]

# seat A scoops B; A beats E in every row; C wins two rows of A; N is six pairs
A = "Ah Ad 8s / Ks Kd 9c 9d 5h / Jc Jd Jh 3c 3s"
B = "Qs Js 7s / Tc Td 2s 4s 6s / 2h 4h 6h 9h Qh"
C = "3h 7h 8h / 2c 4c 5c 6c 7c / 2d 3d 4d 5d 6d"
E = "3h 5s 7h / 2c 4c 5c 6d 7d / 2d 3d 8d 8h Qc"
N = "Qc 2c 2d / 4c 4d 5c 5d 6c / 6d 7c 7d 8c 8d"
# B's cards with the middle above the bottom: a foul
F = "2h 2s 4h / Tc Td Qs Js 7s / 4s 6s 6h 9h Qh"
# T's top ties A's; T is the banker of the banker games
T = "Ac As 8c / Kc Kh Qc Qd 2c / 3d 4d 5d 6d 8d"
# a dragon, six pairs, and V, an opponent of the six pairs without a natural
D = "2d 3s 4c / 5d 6d 7c 8s 9c / Td Jc Qd Kc Ad"
P = "3c 3h 9h / 4h 4s 5c 5h 6c / 6h 7h 7s 8c 8h"
V = "Ks Qh 2h / 9c 9s Jc Js 2s / Ac Ad As 3d 4d"
# six pairs, two of them a four of a kind
Q = "Ac 7c 7d / 4c 4d 5c 5d 6c / 2c 2d 2h 2s 6d"


def _round(*seats: str, declare: tuple[bool, ...] = (), **extra: Any) -> dict[str, Any]:
    listed = [
        seat_of_text(text, declare=declare[k] if k < len(declare) else True)
        for k, text in enumerate(seats)
    ]
    case = round_of(listed)
    case["round"].update(extra)
    return case


_PAGAT = "pagat"


def _spec(**knobs: Any) -> RulesSpec:
    return rules_spec(_PAGAT, **knobs)


HOUSE_SETTLE_SEEDS: list[tuple[str, RulesSpec, dict[str, Any], str]] = [
    (
        "ranked-royalty",
        _spec(royalties__top_by_rank={"pair": {"A": 2, "K": 1}}),
        _round(A, B),
        "a ranked royalty: A's top pair of aces pays 2 (its rank's value), and A scoops",
    ),
    (
        "ranked-royalty",
        _spec(
            royalties__bottom_by_rank={"full-house": {"J": 6}, "straight-flush": {"6": 9}},
        ),
        _round(A, B, C),
        "ranked royalties of the bottom: A's jacks full pays 6 in place of none against "
        "B; C's three flushes settle as a natural",
    ),
    (
        "scoop-by-seats",
        _spec(scoop__by_seats=True),
        _round(A, B, E),
        "scoop by seats: every scoop (A over B and E, B over E) is multiplied by the 3 players",
    ),
    (
        "sweep-exempt",
        _spec(
            sweep_all__min_players=3, sweep_all__multiplier=2, sweep_all__natural_opponents="exempt"
        ),
        _round(A, B, N),
        "natural opponents exempt: N's six pairs is left out and A sweeps all over B alone (× 2)",
    ),
    (
        "sweep-exempt",
        _spec(sweep_all__min_players=3, sweep_all__multiplier=2),
        _round(A, B, N),
        "natural opponents block (the default): N's six pairs prevents A's sweep-all",
    ),
    (
        "horse",
        _spec(horse__card="Ah"),
        _round(A, B),
        "the horse card Ah: A holds it and B does not, so the pair's points are doubled",
    ),
    (
        "horse",
        _spec(horse__card="Ah", horse__multiplier=3),
        _round(A, B, E),
        "the horse card Ah at × 3: A holds it, both of A's pairs are tripled, B against E is not",
    ),
    (
        "horse",
        _spec(horse__card="Kh"),
        _round(A, B),
        "the horse card Kh: neither holds it, nothing is multiplied",
    ),
    (
        "horse-natural",
        _spec(horse__card="Ad"),
        _round(D, P),
        "the horse card with naturals: D's dragon beats P's six pairs, doubled by the Ad",
    ),
    (
        "horse-natural",
        _spec(horse__card="Ad", horse__naturals=False),
        _round(D, P),
        "horse.naturals = false: the dragon's points are not doubled",
    ),
    (
        "cap",
        _spec(scoop__multiplier=2, cap__pair=2),
        _round(A, B, C),
        "cap.pair 2: A's scoop of 6 over B is capped at 2, and so are C's three flushes",
    ),
    (
        "cap",
        _spec(scoop__multiplier=2, cap__pair=1, cap__scoop=4),
        _round(A, B, C),
        "cap.scoop 4 for A's scoop of 6 over B, cap.pair 1 for C's three flushes",
    ),
    (
        "cap",
        _spec(sweep_all__min_players=3, sweep_all__multiplier=3, cap__pair=1, cap__sweep_all=5),
        _round(A, B, E),
        "cap.sweep_all 5 for A's sweep-all pairs (9 each); B's scoop of E has cap.scoop 0, "
        "so cap.pair 1",
    ),
    (
        "cap-stage",
        _spec(horse__card="Ah", cap__pair=2),
        _round(A, B),
        "cap.stage pair: the scoop's 3 capped at 2, then doubled by the horse card: 4",
    ),
    (
        "cap-stage",
        _spec(horse__card="Ah", cap__pair=2, cap__stage="final"),
        _round(A, B),
        "cap.stage final: the scoop's 3 doubled by the horse card to 6, then capped at 2",
    ),
    (
        "bonus-natural",
        _spec(naturals__enabled=[{"name": "dragon", "points": 13, "bonus": True}]),
        _round(D, P),
        "a bonus natural: D's dragon plays its rows and collects 13 on top",
    ),
    (
        "bonus-natural",
        _spec(naturals__enabled=[{"name": "six-pairs", "points": 3, "bonus": True}]),
        _round(P, V),
        "a bonus natural: P's six pairs plays its rows against V and collects 3 on top",
    ),
    (
        "tiers",
        _spec(
            naturals__enabled=[
                {"name": "dragon", "points": 13},
                {"name": "six-pairs", "points": 3, "same_tier": True},
            ]
        ),
        _round(D, P),
        "a tier: the dragon and six pairs are one tier, and two naturals of a tier push",
    ),
    (
        "must-declare",
        _spec(naturals__enabled=[{"name": "six-pairs", "points": 3, "must_declare": True}]),
        _round(P, V, declare=(False, True)),
        "must-declare: P's six pairs is declared though P asks not to",
    ),
    (
        "must-declare",
        _spec(naturals__enabled=[{"name": "six-pairs", "points": 3}]),
        _round(P, V, declare=(False, True)),
        "without must-declare P plays its rows as it asked",
    ),
    (
        "raised-natural",
        _spec(
            naturals__enabled=[
                {"name": "six-pairs", "points": 3, "raised_points": 6, "raised_by": "quads"}
            ]
        ),
        _round(Q, A),
        "a raised natural: Q's six pairs hold four deuces and are worth 6",
    ),
    (
        "raised-natural",
        _spec(
            naturals__enabled=[
                {"name": "six-pairs", "points": 3, "raised_points": 6, "raised_by": "quads"}
            ]
        ),
        _round(P, V),
        "a natural that could be raised: P's six pairs hold no four of a kind, worth 3",
    ),
    (
        "foul-none",
        _spec(foul__mode="none"),
        _round(A, F),
        "foul.mode none: F's rows play as they stand and A scoops them",
    ),
    (
        "foul-none",
        _spec(foul__mode="none"),
        _round(F, E),
        "foul.mode none: F's out-of-order rows win what they win against E",
    ),
    (
        "foul-refuse",
        _spec(foul__mode="refuse"),
        _round(A, B, C),
        "foul.mode refuse: a table without a fouled arrangement settles as ever",
    ),
]
"""(family, rules, round, reason) of each case of the suite."""

BANKER_SETTLE_SEEDS: list[tuple[str, RulesSpec, dict[str, Any], str]] = [
    (
        "banker",
        _spec(banker__enabled=True, banker__max_multiplier=5),
        _round(A, B, T, banker=2, multipliers=[3, 2, 1]),
        "a banker game: T is the banker; A's pair (even) × 3, B's (-1) × 2; A and B do not play",
    ),
    (
        "banker",
        _spec(banker__enabled=True, banker__wins_ties=True, banker__max_multiplier=5),
        _round(A, B, T, banker=2, multipliers=[3, 2, 1]),
        "the banker wins ties: T takes the top it tied with A, so A pays 1 × 3",
    ),
    (
        "banker",
        _spec(banker__enabled=True, banker__wins_ties=True),
        _round(A, T, banker=0),
        "the banker wins ties: A, the banker, takes the tied top; multipliers left out are 1",
    ),
]
"""The cases of banker games: their rounds name the banker and each seat's
multiplier (``banker``, ``multipliers``); the suite holds them after the
other cases, so that those keep their places."""


def _only(entry: dict[str, Any]) -> RulesSpec:
    return _spec(naturals__enabled=[{"points": 1} | entry])


HOUSE_NATURAL_SEEDS: list[tuple[str, RulesSpec, str, str]] = [
    (
        "two-full-houses",
        _only({"name": "two-full-houses"}),
        "2d 2c 2h 5d 5c 5h 9d 9c Kd Kc Qh Qs 3s",
        "two full houses, a pair and one card: two-full-houses",
    ),
    (
        "two-full-houses",
        _only({"name": "two-full-houses"}),
        "2d 2c 2h 5d 5c 5h 9d 9c 9h Kc Ah Qs 3s",
        "three trips: not two full houses, a pair and one card",
    ),
    (
        "two-full-houses",
        rules_spec("pagat", naturals__enabled=[{"name": "two-full-houses", "points": 1}]),
        "2d 2c 4d 4c 6d 6c 8d 8c Td Tc Qd Qc As",
        "six pairs are not two full houses",
    ),
    (
        "all-high-lowest",
        _only({"name": "all-high", "lowest": "6"}),
        "6d 7c 8h 9s Td Jc Qh Ks Ad 6s 7d 8c 9h",
        "all-high from the 6: every card a 6 or higher",
    ),
    (
        "all-high-lowest",
        _only({"name": "all-high"}),
        "6d 7c 8h 9s Td Jc Qh Ks Ad 6s 7d 8c 9h",
        "all-high from the 8 (the default): the sixes and sevens are too low",
    ),
    (
        "all-high-lowest",
        _only({"name": "all-high", "lowest": "9"}),
        "8d 9c Th Js Qd Kc Ah 9s 9d Tc Jh Qs Kd",
        "all-high from the 9: one 8 is too low",
    ),
    (
        "all-low-highest",
        _only({"name": "all-low", "highest": "T"}),
        "2d 3c 4h 5s 6d 7c 8h 9s Td 2s 3d 4c 5h",
        "all-low to the 10: every card a 10 or lower, as are the 13 cards against it: a push",
    ),
    (
        "all-low-highest",
        _only({"name": "all-low"}),
        "2d 3c 4h 5s 6d 7c 8h 9s Td 2s 3d 4c 5h",
        "all-low to the 8 (the default): the 9 and 10 are too high",
    ),
    (
        "twelve-royals-count",
        _only({"name": "twelve-royals", "count": 13}),
        "Jd Jc Jh Js Qd Qc Qh Kd Kc Ad Ac Ah 2s",
        "twelve-royals counting 13: twelve royals and a deuce fall short",
    ),
    (
        "twelve-royals-count",
        _only({"name": "twelve-royals", "count": 13}),
        "Jd Jc Jh Js Qd Qc Qh Qs Kd Kc Ad Ac Ah",
        "twelve-royals counting 13: all thirteen cards J, Q, K or A",
    ),
    (
        "twelve-same-color-exactly",
        _only({"name": "twelve-same-color", "exactly": True}),
        "2d 4d 6d 8d Td Qd Ad 3h 5h 7h 9h Jh 2c",
        "exactly twelve of one colour: twelve red and one black",
    ),
    (
        "twelve-same-color-exactly",
        _only({"name": "twelve-same-color", "exactly": True}),
        "2d 4d 6d 8d Td Qd Ad 3h 5h 7h 9h Jh 2h",
        "exactly twelve of one colour: thirteen red is not exactly twelve",
    ),
]
"""(family, rules, hand, reason) of the cases of the new natural and each
definition's parameters, settled in the suite (the hand against the lowest
13 cards left)."""
