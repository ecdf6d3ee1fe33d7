"""The fixed probes: cases written out whole (the ranking, fixed rules, fouls, scoring)."""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from capsa.cards import card_ids
from capsa.conformance.protocol import Case, RulesSpec, ids_of, text_of

__all__ = [
    "RAKE_KNOBS",
    "SIZED",
    "Probe",
    "compare_probe",
    "fixed_rule_probes",
    "foul_probes",
    "rake_probe",
    "rake_probes",
    "ranking_probes",
    "round_of",
    "scoring_probes",
    "seat",
    "seat_ids",
    "settle_probe",
    "three_winners",
]

# ------------------------------------------------------------------ probes

# Settle probes whose table size is their point (they are never widened).
SIZED = ("sweep-2", "sweep-3", "sweep-4", "foul-sweep-4")


@dataclass(frozen=True)
class Probe:
    """One question to the engine: a case under the base rules, the knobs
    whose value it shows, and what it shows in words (for an observation)."""

    name: str
    op: str
    input: Mapping[str, Any]
    knobs: tuple[str, ...]
    why: str
    money: bool = False  # compare the rake too, not only the points

    def case(self, spec: RulesSpec) -> Case:
        """The probe as a case under the rules ``spec``."""
        return Case(self.op, spec, self.input)


def seat(
    rows: str | Sequence[int], surrender: bool = False, declare: bool = False
) -> dict[str, Any]:
    """A seat of a round: rows as ``"top / middle / bottom"`` text or 13 ids."""
    if isinstance(rows, str):
        parts = [" ".join(p.split()) for p in rows.split("/")]
        ids = [c for part in parts for c in card_ids(part)]
    else:
        ids = list(rows)
    return {
        "top": text_of(ids[:3]),
        "middle": text_of(ids[3:8]),
        "bottom": text_of(ids[8:]),
        "surrender": surrender,
        "declare_natural": declare,
    }


def seat_ids(seat_: Mapping[str, Any]) -> list[int]:
    """A seat's 13 card ids, top, middle, bottom."""
    return [c for row in ("top", "middle", "bottom") for c in ids_of(seat_[row])]


def round_of(*seats: dict[str, Any], stakes: int = 1) -> dict[str, Any]:
    """A ``settle`` input: the seats and the stakes."""
    return {"round": {"seats": list(seats), "stakes": stakes}}


def settle_probe(
    name: str,
    knobs: Iterable[str],
    why: str,
    *seats: dict[str, Any],
    stakes: int = 1,
    money: bool = False,
) -> Probe:
    """A ``settle`` probe of the seats."""
    return Probe(name, "settle", round_of(*seats, stakes=stakes), tuple(knobs), why, money)


# The seats of the scoring probes. Every row is a high card (no royalty of
# any house applies, whoever collects them), no hand holds a natural under
# any definition, and the rows compare alike under every ranking knob: the
# answers show the figures alone. _QUADS and _STRAIGHT_FLUSH_BOTTOM hold the
# one royalty their probes are about. tests/conformance/test_infer_probes.py
# holds them to this.
# _WIN2 wins the top and the middle against _LOSE1 and loses the bottom.
_WIN2 = "Th 4c 2d / Kh 9c 8c 6h 5c / Ah 9s 6d 4s 3h"
_LOSE1 = "7s 6c 5d / Qs Js Tc 8h 2s / As Kd Jd 8s 2c"
# rows of _WIN2's ranks that tie it without a suit rule
_TIE_BOTTOM = "7h 3d 2c / Qc Jh 7s 6c 2s / Ad 9h 6s 4h 3c"  # _WIN2 wins the top and middle
_TIE_TOP = "Tc 4d 2s / Jc Ts 7h 5h 2c / Kc Js 8s 7d 3c"  # _WIN2 wins the middle and bottom
_TIE_MIDDLE = "Qd 7d 5h / Ks 9d 8d 6s 5d / Kc Qs Jc 7h 2c"  # _WIN2 loses the top, wins the bottom
_TIE_TWO = "Ts 4h 2s / Kd 9h 8h 6s 5h / Ac Kc Qs Tc 3s"  # _WIN2 loses the bottom
_SCOOPED = "9h 3c 2s / 9d 7h 4h 3s 2c / Js Td 7c 4d 2h"
_FOULED = "9h 8s 7h / As Kc 7c 6c 3c / Jh 8d 7d 5d 2s"  # a 9-high top over an 8-high middle
_QUADS = "Th 4c 2d / Kh 9c 8c 6h 5c / Ks Qs Qh Qc Qd"  # _WIN2 with bottom quads
_STRAIGHT_FLUSH_BOTTOM = "9h 3c 2s / 9d 7h 4h 3s 2c / Js Ts 9s 8s 7s"  # _SCOOPED's, above quads
# the royalty the probes with _QUADS show beside the knob they are about
_QUADS_ROYALTY = ("royalties.bottom.quads",)
_TOP_WINS = "Tc 7c 3s / Td 8h 6s 3c 2h / Ac Kc Jh 8s 5s"  # wins the top from _QUADS
# A seat that wins every row against each of the three others; each of those
# wins two rows and loses one against each other.
_SWEEPER = "As Kh Jh / Ac Ks Qh 6h 2h / Ah Kc Qs 9c 7c"
_SWEPT = (
    "8s 4d 2s / Js Ts 9d 8h 5s / Ad Td 9s 6s 3c",
    "8d 6d 5h / Qd Jd 7h 6c 2c / Kd 9h 7s 5c 2d",
    "Th 4s 3h / Jc Tc 7d 4h 3d / Qc 8c 5d 4c 3s",
)
_FOULED_SWEPT = "Th 4c 3h / 8c 7d 5d 4s 3s / Qc Jc Tc 4h 3d"  # the third's cards, fouled


def compare_probe(name: str, a: str, b: str, knobs: Iterable[str], why: str) -> Probe:
    """A ``compare`` probe of hands ``a`` and ``b``."""
    return Probe(name, "compare", {"a": a, "b": b}, tuple(knobs), why)


def ranking_probes() -> list[Probe]:
    """The ``compare`` probes of the four ranking knobs."""
    probes = [
        compare_probe(
            "wheel-vs-six",
            "As 2d 3c 4h 5s",
            "2c 3d 4s 5h 6d",
            ["wheel"],
            "A-2-3-4-5 against 2-3-4-5-6",
        ),
        compare_probe(
            "wheel-vs-king",
            "As 2d 3c 4h 5s",
            "9c Td Js Qh Kd",
            ["wheel"],
            "A-2-3-4-5 against 9-T-J-Q-K",
        ),
        compare_probe(
            "wheel-flush",
            "Ah 2h 3h 4h 5h",
            "9s Ts Js Qs Ks",
            ["wheel"],
            "the A-5 straight flush against the K-high one",
        ),
    ]
    suits = "shcd"
    for x, y in itertools.combinations(suits, 2):
        z, w = (s for s in suits if s not in (x, y))
        probes.append(
            compare_probe(
                f"suit-{x}{y}",
                f"A{x} K{z} Q{z} J{w} 9{w}",
                f"A{y} K{w} Q{w} J{z} 9{z}",
                ["tie_break", "suit_order"],
                f"equal ranks, the aces of {x} and {y}",
            )
        )
        for low, high in ((x, y), (y, x)):
            probes.append(
                compare_probe(
                    f"flush-{low}{high}",
                    f"2{low} 4{low} 6{low} 8{low} T{low}",
                    f"3{high} 5{high} 7{high} 9{high} J{high}",
                    ["flush_compare", "suit_order"],
                    f"a T-high flush of {low} against a J-high flush of {high}",
                )
            )
    return probes


def fixed_rule_probes(ops: set[str]) -> list[Probe]:
    """Cases no knob changes: an engine that differs has a rule capsa does not."""
    out = []
    if "compare" in ops:
        out += [
            compare_probe(
                "top-no-straight",
                "2d 3c 4h",
                "Ac Kd 9s",
                [],
                "three consecutive cards make no straight (4-high loses to ace-high)",
            ),
            compare_probe(
                "top-no-straight-ace",
                "Qd Kc Ah",
                "2s 2h 3d",
                [],
                "Q-K-A is no straight in three cards (it loses to a pair)",
            ),
            compare_probe(
                "top-no-flush",
                "2s 7s 9s",
                "2d 2c 3h",
                [],
                "three cards of one suit make no flush (they lose to a pair)",
            ),
            compare_probe(
                "no-wrap", "Qd Kc As 2h 3d", "4c 5d 6h 7s 8c", [], "Q-K-A-2-3 is no straight"
            ),
            compare_probe(
                "three-vs-five",
                "Kd Kc Ad 7c 3d",
                "Ks Kh As",
                [],
                "a middle K-K-A-7-3 against a top K-K-A (the longer hand wins the prefix)",
            ),
        ]
    if "category" in ops:
        out += [
            Probe(
                "category-top-run",
                "category",
                {"hand": "2d 3c 4h"},
                (),
                "the category of three consecutive cards (no straight in three cards)",
            ),
            Probe(
                "category-top-suited",
                "category",
                {"hand": "2s 7s 9s"},
                (),
                "the category of three cards of one suit (no flush in three cards)",
            ),
        ]
    return out


def foul_probes() -> list[Probe]:
    """Arrangements with two rows of equal strength, as equal as ranks make them."""
    return [
        Probe(
            "foul-equal-middle-bottom",
            "foul",
            {"top": "2d 3c 5h", "middle": "Ks Kh 8d 6c 4s", "bottom": "Kd Kc 8h 6s 4d"},
            ("foul_check",),
            "a middle and a bottom of the same ranks",
        ),
        Probe(
            "foul-equal-top-middle",
            "foul",
            {"top": "Ks Kh Ad", "middle": "Kd Kc As 7c 3d", "bottom": "9s 9h 9d 2c 2s"},
            ("foul_check",),
            "a top K-K-A below a middle K-K-A-7-3",
        ),
        Probe(
            "foul-equal-straights",
            "foul",
            {"top": "2s 3s 5d", "middle": "9s Td Jc Qh Kd", "bottom": "9h Tc Js Qd Kc"},
            ("foul_check",),
            "a middle and a bottom straight of the same ranks",
        ),
    ]


# ------------------------------------------------------------------ settle probes


def scoring_probes(ties: bool) -> list[Probe]:
    """The settle probes of the scoring knobs (with a tied row when ``ties``)."""
    rows = ("row_points", "overall_point")
    scoop = ("scoop.multiplier", "scoop.bonus")
    sweep = ("sweep_all.multiplier", "sweep_all.bonus")
    probes = [
        settle_probe(
            "rows-2-1",
            rows,
            "seat 0 wins two rows and loses one, no royalty",
            seat(_WIN2),
            seat(_LOSE1),
        ),
        settle_probe(
            "scoop", scoop, "seat 0 wins all three rows, no royalty", seat(_WIN2), seat(_SCOOPED)
        ),
        settle_probe(
            "royalty-lost",
            ("royalty_mode", "royalty_adds", *_QUADS_ROYALTY, "royalties.bottom.straight-flush"),
            "seat 0's bottom quads lose to a straight flush (who collects royalties)",
            seat(_QUADS),
            seat(_STRAIGHT_FLUSH_BOTTOM),
        ),
        settle_probe(
            "royalty-won",
            ("royalty_adds", *_QUADS_ROYALTY),
            "seat 0 wins its bottom quads and the middle, loses the top",
            seat(_QUADS),
            seat(_TOP_WINS),
        ),
        settle_probe(
            "scoop-royalty",
            ("scoop.multiply_royalties", *_QUADS_ROYALTY),
            "seat 0 scoops with bottom quads (is the royalty multiplied)",
            seat(_QUADS),
            seat(_SCOOPED),
        ),
        settle_probe(
            "sweep-4",
            (*sweep, "sweep_all.min_players"),
            "seat 0 wins every row against three others",
            seat(_SWEEPER),
            *(seat(s) for s in _SWEPT),
        ),
        settle_probe(
            "sweep-3",
            ("sweep_all.min_players",),
            "seat 0 wins every row against two others",
            seat(_SWEEPER),
            *(seat(s) for s in _SWEPT[:2]),
        ),
        settle_probe(
            "sweep-2",
            ("sweep_all.min_players",),
            "seat 0 wins every row against one other",
            seat(_SWEEPER),
            seat(_SWEPT[0]),
        ),
    ]
    probes += _foul_and_surrender_probes()
    if ties:
        probes += [
            settle_probe(name, rows, why, seat(_WIN2), seat(other))
            for name, why, other in (
                ("rows-2-tie", "seat 0 wins two rows and ties the bottom", _TIE_BOTTOM),
                ("rows-tie-top", "seat 0 ties the top and wins the other rows", _TIE_TOP),
                (
                    "rows-tie-middle",
                    "seat 0 loses the top, ties the middle, wins the bottom",
                    _TIE_MIDDLE,
                ),
                (
                    "rows-tie-two",
                    "seat 0 ties the top and the middle and loses the bottom",
                    _TIE_TWO,
                ),
            )
        ]
    return probes


def _foul_and_surrender_probes() -> list[Probe]:
    """Settle probes of fouls and surrenders."""
    return [
        settle_probe(
            "foul",
            ("foul.mode", "foul.points"),
            "seat 1 fouls, seat 0 has no royalty",
            seat(_WIN2),
            seat(_FOULED),
        ),
        settle_probe(
            "foul-sweep-4",
            ("foul.mode", "foul.points"),
            "seat 0 wins every row against two others and the third fouls (what a foul "
            "pays a sweeper)",
            seat(_SWEEPER),
            *(seat(s) for s in _SWEPT[:2]),
            seat(_FOULED_SWEPT),
        ),
        settle_probe(
            "foul-royalty",
            ("foul.pays_royalties", *_QUADS_ROYALTY),
            "seat 1 fouls against seat 0's bottom quads",
            seat(_QUADS),
            seat(_FOULED),
        ),
        settle_probe(
            "surrender",
            ("surrender.enabled", "surrender.cost"),
            "seat 1 surrenders against plain rows",
            seat(_WIN2),
            seat(_LOSE1, surrender=True),
        ),
        settle_probe(
            "surrender-vs-foul",
            (),
            "seat 1 surrenders against a fouled hand (nothing changes hands)",
            seat(_FOULED),
            seat(_WIN2, surrender=True),
        ),
    ]


RAKE_KNOBS = (
    "money.rake_basis_points",
    "money.rake_minimum_pot",
    "money.rake_cap_per_pot",
    "money.rake_cap_per_round",
)
# A ladder of stakes for one winner: the small ones show the rate's rounding,
# 10,000 and up the rate itself, the top ones a cap.
RAKE_STAKES = (7, 33, 100, 1_000, 10_000, 1_000_000, 10**9, 10**12)
# Three seats that each win every row against the fourth under every preset:
# with stakes only against the fourth, the round has three winners. As in
# the scoring probes, every row is a high card and no hand holds a natural.
_THREE_WINNERS = (
    "Js 7d 6s / Kh 9h 8d 5h 4d / Ah Qh Ts 8h 4c",
    "Ks Jh 9d / Kc Qd 8s 6c 3h / Ad Jc 7c 3c 2h",
    "Kd 4s 2s / Ac Td 9c 7h 3d / As Qc 7s 5d 4h",
)
_BEATEN_BY_ALL = "8c 6d 5c / Th 9s 6h 5s 2d / Qs Jd Tc 3s 2c"


def rake_probe(stake: int) -> Probe:
    """A settle probe where seat 0 wins at ``stake`` a point: the rake of one winner."""
    return settle_probe(
        f"rake-stake-{stake}",
        RAKE_KNOBS,
        f"seat 0 wins at {stake:,} a point: the rake on its money",
        seat(_WIN2),
        seat(_LOSE1),
        stakes=stake,
        money=True,
    )


def three_winners(name: str, stakes: Sequence[int]) -> Probe:
    """A settle probe where seats 0, 1 and 2 each win against seat 3 (alone at a stake)."""
    matrix = [[0] * 4 for _ in range(4)]
    for k, stake in enumerate(stakes):
        matrix[k][3] = matrix[3][k] = stake
    shown = ", ".join(f"{s:,}" for s in stakes)
    return Probe(
        name,
        "settle",
        {
            "round": {
                "seats": [*(seat(s) for s in _THREE_WINNERS), seat(_BEATEN_BY_ALL)],
                "stakes": matrix,
            }
        },
        RAKE_KNOBS,
        f"seats 0, 1 and 2 each win every row against seat 3, at stakes {shown}: the "
        "rake of three winners",
        money=True,
    )


def rake_probes() -> list[Probe]:
    """The rake probes: one winner at each of :data:`RAKE_STAKES`, and three
    winners at equal and at unequal stakes (caps per pot and per round)."""
    return [
        *(rake_probe(s) for s in RAKE_STAKES),
        three_winners("rake-three-winners", (10**12, 10**12, 10**12)),
        three_winners("rake-three-unequal", (5 * 10**11, 3 * 10**11, 10**11)),
    ]
