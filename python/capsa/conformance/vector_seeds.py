"""The hand-picked cases of the vector suites, by op: pairs of hands to
compare, hands of each category, arrangements on either side of a foul, a
hand with each natural and one a card away, rounds to settle, and the rules
they are asked under. ``capsa.conformance.vectors`` turns them into vectors
beside the generated ones; ``card_text``, ``seat_of_text``, ``round_of`` and
``rules_spec`` write a case's parts from short text.
"""

from __future__ import annotations

from typing import Any

from capsa.cards import card_ids
from capsa.conformance.protocol import RulesSpec, text_of
from capsa.rules import Rules, presets

__all__ = [
    "CATEGORY_SEEDS",
    "COMPARE_SEEDS",
    "FIRST_PRESETS",
    "FOULED",
    "FOUL_SEEDS",
    "LOSERS",
    "NATURAL_HANDS",
    "RANKING_SPECS",
    "SETTLE_SEEDS",
    "SETTLE_SPECS",
    "WINNER",
    "card_text",
    "presets_in_order",
    "round_of",
    "rules_spec",
    "seat_of_text",
]

_ROWS = ("top", "middle", "bottom")


# ------------------------------------------------------------------ cards


def card_text(text: str) -> str:
    """Any card text in canonical form (checked)."""
    return text_of(card_ids(text))


def seat_of_text(text: str, surrender: bool = False, declare: bool = True) -> dict[str, Any]:
    """A seat of a settle case from ``"top / middle / bottom"`` text."""
    rows = text.split("/")
    seat: dict[str, Any] = {row: card_text(part) for row, part in zip(_ROWS, rows, strict=True)}
    seat["surrender"] = surrender
    seat["declare_natural"] = declare
    return seat


def round_of(seats: list[dict[str, Any]], stakes: Any = 1) -> dict[str, Any]:
    """The input of a settle case."""
    return {"round": {"seats": seats, "stakes": stakes}}


def rules_spec(preset: str, **knobs: Any) -> RulesSpec:
    """A preset with knobs changed (``foul__mode`` for ``foul.mode``)."""
    return RulesSpec.of(preset, {k.replace("__", "."): v for k, v in knobs.items()})


FIRST_PRESETS = ("1-6", "2-4", "capsa-susun", "hawaiian-gardens", "mau-binh", "pagat")
"""The presets the suites were first written with. Their random cases are
drawn first, so that a preset added later adds vectors after theirs and
leaves theirs as shipped (see :func:`presets_in_order`)."""


def presets_in_order() -> tuple[list[str], list[str]]:
    """The presets of :data:`FIRST_PRESETS` that exist, and every later one
    (each in name order): the presets of the 52-card deck, which the
    protocol deals."""
    every = [name for name in presets() if Rules.preset(name).deals_52_cards]
    return [p for p in FIRST_PRESETS if p in every], [p for p in every if p not in FIRST_PRESETS]


RANKING_SPECS = (
    rules_spec("pagat"),
    rules_spec("mau-binh"),
    rules_spec("capsa-susun"),
    rules_spec("pagat", flush_compare="suit-first"),
    rules_spec("capsa-susun", wheel="second", flush_compare="suit-first"),
    rules_spec("capsa-susun", suit_order="dchs"),
)

COMPARE_SEEDS: list[tuple[str, str, RulesSpec, set[str], str]] = [
    (
        "As 2d 3c 4h 5s",
        "2c 3d 4s 5h 6d",
        rules_spec("pagat"),
        {"wheel"},
        "wheel = low: A-2-3-4-5 is the lowest straight, below 2-3-4-5-6",
    ),
    (
        "As 2d 3c 4h 5s",
        "9c Td Js Qh Kd",
        rules_spec("mau-binh"),
        {"wheel"},
        "wheel = second: A-2-3-4-5 ranks above 9-T-J-Q-K",
    ),
    (
        "As 2d 3c 4h 5s",
        "Tc Jd Qs Kh Ad",
        rules_spec("mau-binh"),
        {"wheel"},
        "wheel = second: A-2-3-4-5 stays below T-J-Q-K-A",
    ),
    (
        "Ah 2h 3h 4h 5h",
        "9s Ts Js Qs Ks",
        rules_spec("mau-binh"),
        {"wheel", "straight-flush"},
        "wheel = second: the A-5 straight flush is above the K-high straight flush",
    ),
    (
        "Ah 2h 3h 4h 5h",
        "9s Ts Js Qs Ks",
        rules_spec("pagat"),
        {"wheel", "straight-flush"},
        "wheel = low: the A-5 straight flush is the lowest straight flush",
    ),
    (
        "Ah 2h 3h 4h 5h",
        "Ts Js Qs Ks As",
        rules_spec("mau-binh"),
        {"wheel", "royal-flush"},
        "the royal flush stays above the A-5 straight flush under wheel = second",
    ),
    (
        "Jd Qc Kh As 2d",
        "Ac Kd Qs Jh 9d",
        rules_spec("pagat"),
        {"no-wrap"},
        "J-Q-K-A-2 is no straight: ace-high, it loses to A-K-Q-J-9 on the second kicker",
    ),
    (
        "Qd Kc As 2h 3d",
        "4c 5d 6h 7s 8c",
        rules_spec("pagat"),
        {"no-wrap"},
        "Q-K-A-2-3 does not wrap round: high card against a straight",
    ),
    (
        "As Kh Qd Jc 9s",
        "Ah Ks Qc Jd 9h",
        rules_spec("capsa-susun"),
        {"suit-tie-break"},
        "equal ranks: the suit tie-break compares the aces first, spades over hearts",
    ),
    (
        "As Kh Qd Jc 9s",
        "Ah Ks Qc Jd 9h",
        rules_spec("pagat"),
        {"tie"},
        "equal ranks tie under tie_break = none",
    ),
    (
        "Kd Kc Ad 7c 3d",
        "Ks Kh As",
        rules_spec("pagat"),
        {"three-vs-five"},
        "a middle K-K-A-7-3 is above a top K-K-A: the longer hand wins the common prefix",
    ),
    (
        "Kd Kc Ad",
        "Ks Kh As 7c 3d",
        rules_spec("pagat"),
        {"three-vs-five"},
        "a top K-K-A is below K-K-A-7-3",
    ),
    (
        "Kd Kc Qd",
        "Ks Kh As 7c 3d",
        rules_spec("pagat"),
        {"three-vs-five"},
        "a top K-K-Q is below K-K-A-7-3: the kicker decides first",
    ),
    (
        "2d 3c 4h",
        "Ac Kd 9s",
        rules_spec("pagat"),
        {"top-no-straights"},
        "three consecutive cards are no straight in the top row: 4-high loses to ace-high",
    ),
    (
        "2s 7s 9s",
        "2d 2c 3h",
        rules_spec("pagat"),
        {"top-no-flushes"},
        "three cards of one suit are no flush: 9-high loses to a pair of twos",
    ),
    (
        "Qd Kc Ah",
        "2s 2h 3d",
        rules_spec("pagat"),
        {"top-no-straights"},
        "Q-K-A is no straight in the top row: ace-high below a pair",
    ),
    (
        "2s 4s 6s 8s Ts",
        "3h 5h 7h 9h Jh",
        rules_spec("pagat", flush_compare="suit-first"),
        {"flush-suit-first"},
        "flush_compare = suit-first: a spade flush beats a higher heart flush",
    ),
    (
        "2s 4s 6s 8s Ts",
        "3h 5h 7h 9h Jh",
        rules_spec("pagat"),
        set(),
        "flush_compare = ranks: the J-high flush beats the T-high one",
    ),
    (
        "2s 4s 6s 8s Ts",
        "3s 5s 7s 9s Js",
        rules_spec("pagat", flush_compare="suit-first"),
        {"flush-suit-first"},
        "flushes of one suit compare by ranks even under suit-first",
    ),
    (
        "Ts 9s 8s 7s 6s",
        "Td 9d 8d 7d 6d",
        rules_spec("capsa-susun"),
        {"suit-tie-break"},
        "two T-high straight flushes: the suits decide, spades first",
    ),
    (
        "Td 9d 8d 7d 6d",
        "Ts 9s 8s 7s 6s",
        rules_spec("capsa-susun", suit_order="dchs"),
        {"suit-tie-break", "suit-order"},
        "suit_order = dchs: diamonds are the strongest suit",
    ),
    (
        "3s 3h 3d Kc Kd",
        "2s 2h 2d Ac Ad",
        rules_spec("pagat"),
        {"kicker"},
        "a full house ranks by its trips first: threes full beat twos full of aces",
    ),
    (
        "Ks Kh 5d 5c 2s",
        "Kd Kc 5s 5h 3d",
        rules_spec("pagat"),
        {"kicker"},
        "two pair: equal pairs, the kicker decides",
    ),
    (
        "9s 9h 9d 9c 2s",
        "8s 8h 8d 8c As",
        rules_spec("pagat"),
        {"kicker"},
        "quads rank by the quad before the kicker",
    ),
    (
        "As Ks Qs Js Ts",
        "Ad Kd Qd Jd Td",
        rules_spec("pagat"),
        {"tie", "royal-flush"},
        "two royal flushes tie without the suit tie-break",
    ),
    (
        "Ks Kh Qd",
        "Kd Kc Qh",
        rules_spec("capsa-susun"),
        {"suit-tie-break", "top-row"},
        "top pairs of kings with the same kicker: suits decide, the king of spades first",
    ),
    (
        "Ac Ad 2c 3d 4c",
        "As Ah 2s 3h 4s",
        rules_spec("capsa-susun"),
        {"suit-tie-break"},
        "pairs of aces with equal kickers: the suits of the pair decide first",
    ),
    (
        "As 2d 3c 4h 5s",
        "Ac 2h 3d 4s 5c",
        rules_spec("capsa-susun"),
        {"suit-tie-break", "wheel"},
        "two wheels under wheel = low: the ace is listed last, so the fives' suits decide",
    ),
    (
        "As 2d 3c 4h 5s",
        "Ac 2h 3d 4s 5c",
        rules_spec("capsa-susun", wheel="second"),
        {"suit-tie-break", "wheel"},
        "two wheels under wheel = second: the ace is listed first and decides",
    ),
]

# ------------------------------------------------------------------ category

CATEGORY_SEEDS = [
    ("As 2d 3c 4h 5s", "A-2-3-4-5 is a straight"),
    ("Ah 2h 3h 4h 5h", "A-2-3-4-5 of one suit is a straight flush, not a royal flush"),
    ("Ts Js Qs Ks As", "T-J-Q-K-A of one suit is a royal flush"),
    ("9s Ts Js Qs Ks", "9-T-J-Q-K of one suit is a straight flush"),
    ("Jd Qc Kh As 2d", "J-Q-K-A-2 does not wrap round: high card"),
    ("Ks Ad 2c 3h 4s", "K-A-2-3-4 does not wrap round: high card"),
    ("Qh Kh Ah 2h 3h", "Q-K-A-2-3 of one suit: a flush, not a straight flush"),
    ("2d 3c 4h", "three consecutive cards: high card (no straights in three cards)"),
    ("Qs Ks As", "Q-K-A of one suit: high card (no straights or flushes in three cards)"),
    ("2s 7s 9s", "three cards of one suit: high card"),
    ("7s 7h 7d", "three of a kind in three cards: trips"),
    ("7s 7h 2d", "a pair in three cards"),
    ("7s 7h 7d 7c Ks", "four of a kind: quads"),
    ("7s 7h 7d Kc Ks", "trips and a pair: full house"),
    ("7s 7h Kd Kc 2s", "two pair"),
]

# ------------------------------------------------------------------ foul

FOUL_SEEDS: list[tuple[str, RulesSpec, str]] = [
    (
        "2c 3h 4s / Ah Kh 9d 7d 5c / As Ks 9c 7c 5d",
        rules_spec("pagat"),
        "middle and bottom of equal ranks: allowed under foul_check = allow-equal",
    ),
    (
        "2c 3h 4s / Ah Kh 9d 7d 5c / As Ks 9c 7c 5d",
        rules_spec("pagat", foul_check="strict"),
        "middle and bottom of equal ranks: a foul under foul_check = strict",
    ),
    (
        "2c 3h 4s / Ah Kh 9d 7d 5c / As Ks 9c 7c 5d",
        rules_spec("capsa-susun"),
        "equal ranks, suit tie-break: the bottom's ace of spades is higher, no foul",
    ),
    (
        "2c 3h 4s / As Ks 9c 7c 5d / Ah Kh 9d 7d 5c",
        rules_spec("capsa-susun"),
        "equal ranks, suit tie-break: the middle's ace of spades is higher, a foul",
    ),
    (
        "Ks Kh As / Kd Kc Ad 7c 3d / 2s 2h 2d 5c 5d",
        rules_spec("pagat"),
        "top K-K-A under middle K-K-A-7-3: the longer hand is higher, no foul",
    ),
    (
        "As Ah 2c / Ks Kh 9d 7c 3d / 2s 2h 2d 5c 5h",
        rules_spec("pagat"),
        "a top pair of aces over a middle pair of kings: a foul",
    ),
    (
        "2d 3c 4h / As Ks 9c 7c 5d / Qh Jh 8d 6s 4s",
        rules_spec("pagat"),
        "top 2-3-4 is no straight: high card below the middle, no foul",
    ),
    (
        "9d 8c 7h / As 2d 3c 4h 5s / 2c 3d 4s 5h 6d",
        rules_spec("pagat"),
        "wheel = low: middle A-5 straight below the bottom 6-high straight, no foul",
    ),
    (
        "9d 8c 7h / As 2d 3c 4h 5s / 2c 3d 4s 5h 6d",
        rules_spec("mau-binh"),
        "wheel = second: middle A-5 straight above the bottom 6-high straight, a foul",
    ),
    (
        "2d 3c 4h / 2s 4s 6s 8s Ts / 3h 5h 7h 9h Jh",
        rules_spec("pagat"),
        "flush_compare = ranks: J-high flush over T-high flush, no foul",
    ),
    (
        "2d 3c 4h / 3h 5h 7h 9h Jh / 2s 4s 6s 8s Ts",
        rules_spec("pagat", flush_compare="suit-first"),
        "flush_compare = suit-first: a spade bottom flush over a heart middle flush, no foul",
    ),
    (
        "2d 3c 4h / 2s 4s 6s 8s Ts / 3h 5h 7h 9h Jh",
        rules_spec("pagat", flush_compare="suit-first"),
        "flush_compare = suit-first: a spade middle flush over a heart bottom flush, a foul",
    ),
    (
        "Qs Qh 2d / Qd Qc 3h 4s 5c / As Ks Th Js 9h",
        rules_spec("pagat"),
        "a top pair of queens under a middle pair of queens with kickers, no foul",
    ),
]

# ------------------------------------------------------------------ naturals

# Each natural: a hand that has it, and a hand one card away that does not.
NATURAL_HANDS: dict[str, tuple[str, str]] = {
    "clean-dragon": (
        "2s 3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks As",
        "2s 3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks Ah",
    ),
    "dragon": ("2d 3c 4h 5s 6d 7c 8h 9s Td Jc Qh Ks Ad", "2d 2c 4h 5s 6d 7c 8h 9s Td Jc Qh Ks Ad"),
    "twelve-royals": (
        "Jd Jc Jh Js Qd Qc Qh Kd Kc Ad Ac Ah 2s",
        "Jd Jc Jh Js Qd Qc Qh Kd Kc Ad Ac 3h 2s",
    ),
    "three-straight-flushes": (
        "Ad 2d 3d 3c 4c 5c 6c 7c 9s Ts Js Qs Ks",
        "Ad 2d 3d 3c 4c 5c 6c 7c 9s Ts Js Qs Kh",
    ),
    "three-quads": (
        "2d 2c 2h 2s 5d 5c 5h 5s 9d 9c 9h 9s Ad",
        "2d 2c 2h 2s 5d 5c 5h 5s 9d 9c 9h Kc Ad",
    ),
    "all-high": (
        "8d 9c Th Js Qd Kc Ah 8s 9d Tc Jh Qs Kd",
        "8d 9c Th Js Qd Kc Ah 8s 9d Tc Jh Qs 7d",
    ),
    "all-low": ("2d 3c 4h 5s 6d 7c 8h 2s 3d 4c 5h 6s 7d", "2d 3c 4h 5s 6d 7c 8h 2s 3d 4c 5h 6s 9d"),
    "full-colored": (
        "2d 4d 6d 8d Td Qd Ad 3h 5h 7h 9h Jh 2h",
        "2d 4d 6d 8d Td Qd Ad 3h 5h 7h 9h Jh 2c",
    ),
    "twelve-same-color": (
        "2d 4d 6d 8d Td Qd Ad 3h 5h 7h 9h Jh 2c",
        "2d 4d 6d 8d Td Qd Ad 3h 5h 7h 9h 2s 2c",
    ),
    "four-triples": (
        "2d 2c 2h 5d 5c 5h 9d 9c 9h Kd Kc Kh As",
        "2d 2c 2h 5d 5c 5h 9d 9c 9h Kd Kc Qh As",
    ),
    "five-pairs-trips": (
        "2d 2c 4d 4c 6d 6c 8d 8c Td Tc Qd Qc Qh",
        "2d 2c 4d 4c 6d 6c 8d 8c Td Tc Qd Kc Qh",
    ),
    "six-pairs": (
        "2d 2c 4d 4c 6d 6c 8d 8c Td Tc Qd Qc As",
        "2d 2c 4d 4c 6d 6c 8d 8c Td Tc Qd Kc As",
    ),
    "three-straights": (
        "2d 3c 4h 3s 4d 5c 6h 7s 8d 9c Th Js Qd",
        "2d 3c 4h 3s 4d 5c 6h 7s 8d 9c Th Js Kd",
    ),
    "three-flushes": (
        "2d 5d 9d 3c 6c 8c Jc Kc 4s 7s Ts Qs As",
        "2d 5d 9d 3c 6c 8c Jc Kc 4s 7s Ts Qs Ah",
    ),
    "no-picture-cards": (
        "2d 3c 4h 5s 6d 7c 8h 9s Td Ac 2h 5c 9d",
        "2d 3c 4h 5s 6d 7c 8h 9s Td Ac 2h 5c Jd",
    ),
    "two-full-houses": (
        "2d 2c 2h 9d 9c 9s 4d 4c 7h 7s Kd Kc 5s",
        "2d 2c 2h 9d 9c 9s 4d 4c 7h 7s Kd Kc 4s",
    ),
}

# ------------------------------------------------------------------ settle

WINNER = "As Ah 2c / Ks Kh Kd 7c 3d / 9s 9h 9d 9c 5h"
LOSERS = (
    "Tc 7s 3s / Qs Js 8c 5d 4c / 2h 6h 7h Jh Qh",
    "2d 3c 4d / Ac Ad 5c 6c 7d / 8d 8h 8s Td Th",
    "2s 3h 5s / 4h 4s 6d 6s Kc / Jc Jd Qc Qd Ts",
)
FOULED = "As Ah 3c / Ks Kh 9d 7c 3d / 2s 2c 2d 5c 5h"
# The cards LOSERS leave, arranged to lose to each of them: with stakes only
# against this seat, the three others all win.
LOSES_TO_ALL = "3d 9h 7c / 2c Ks 9c As 9d / 9s Kd Kh 5h Ah"


def _against_last(*stakes: int) -> list[list[int]]:
    """A stakes matrix where each seat plays only the last seat, at its stake."""
    count = len(stakes) + 1
    matrix = [[0] * count for _ in range(count)]
    for seat, stake in enumerate(stakes):
        matrix[seat][-1] = matrix[-1][seat] = stake
    return matrix


def _rake_spec(**knobs: int) -> RulesSpec:
    """pagat without royalties (each seat of _RAKED_TABLE wins a point) and rake knobs."""
    rake = {f"money__rake_{k}": v for k, v in knobs.items()}
    return rules_spec("pagat", royalty_mode="none", **rake)


_RAKED_TABLE = [*(seat_of_text(t) for t in LOSERS), seat_of_text(LOSES_TO_ALL)]
SETTLE_SEEDS: list[tuple[RulesSpec, list[dict[str, Any]], Any, str]] = [
    (
        rules_spec("capsa-susun"),
        [
            seat_of_text("Ah Kh 8s / As Ks 9d 7d 5h / Jc Jd Jh 3c 3d"),
            seat_of_text("Qs Js 7s / 2c 3s 4c 5c 6c / 2h 4h 6h 9h Qh"),
        ],
        1,
        "rows: seat 0 wins top and bottom, loses the middle, +1",
    ),
    (
        rules_spec("capsa-susun"),
        [
            seat_of_text(FOULED),
            seat_of_text("Qs Js 7s / 3s 4c 5d 6c 7h / 8h 9h Th Jh Qh"),
        ],
        1,
        "capsa-susun: a foul pays 3 x 1 x 4 = 12 plus the opponent's royalties (9 for the "
        "straight flush)",
    ),
    (
        rules_spec("capsa-susun"),
        [seat_of_text(WINNER), seat_of_text(LOSERS[0])],
        1,
        "capsa-susun: a scoop doubles, 3 x 2 = 6, plus 7 for the bottom quads",
    ),
    (
        rules_spec("capsa-susun"),
        [seat_of_text(WINNER), *(seat_of_text(t) for t in LOSERS)],
        1,
        "capsa-susun at four: winning all three rows against everyone sweeps all, 3 x 4 = 12 "
        "from each, plus royalties",
    ),
    (
        rules_spec("capsa-susun"),
        [seat_of_text(WINNER), *(seat_of_text(t) for t in LOSERS[:2])],
        1,
        "capsa-susun at three: winning every row against both is only a scoop of each",
    ),
    (
        rules_spec("capsa-susun"),
        [seat_of_text(WINNER), *(seat_of_text(t) for t in LOSERS)],
        [[0, 100, 10, 10], [100, 0, 10, 10], [10, 10, 0, 10], [10, 10, 10, 0]],
        "per-pair stakes: seats 0 and 1 play at 100 a point, every other pair at 10",
    ),
    (
        rules_spec("2-4"),
        [seat_of_text(LOSERS[0]), seat_of_text(FOULED, surrender=True)],
        1,
        "2-4: a surrender pays the cost of 3 whatever its rows",
    ),
    (
        rules_spec("2-4"),
        [seat_of_text(FOULED), seat_of_text(LOSERS[0], surrender=True)],
        1,
        "2-4: a surrender against a fouled hand: nothing changes hands",
    ),
    (
        rules_spec("capsa-susun", money__rake_basis_points=250),
        [seat_of_text(WINNER), seat_of_text(LOSERS[0])],
        100,
        "a rake of 250 basis points on 1,300 won: 32.5, rounded down to 32",
    ),
    (
        _rake_spec(basis_points=1000, minimum_pot=20),
        _RAKED_TABLE,
        _against_last(10, 20, 50),
        "a minimum pot of 20: the winner of 10 pays nothing, the winner of exactly 20 pays 2",
    ),
    (
        _rake_spec(basis_points=1000, cap_per_pot=3),
        _RAKED_TABLE,
        _against_last(10, 20, 50),
        "a cap of 3 per pot: the rakes 1, 2 and 5 become 1, 2 and 3",
    ),
    (
        _rake_spec(basis_points=1000, cap_per_round=20),
        _RAKED_TABLE,
        _against_last(100, 100, 100),
        "a cap of 20 per round on rakes of 10, 10 and 10: 6 each and the 2 units left "
        "to the lower seats of the tie, 7, 7, 6",
    ),
    (
        _rake_spec(basis_points=1000, cap_per_round=7),
        _RAKED_TABLE,
        _against_last(300, 200, 0),
        "a cap of 7 per round on rakes of 30 and 20: 4.2 and 2.8, so 4 and 2 and the unit "
        "left to the larger remainder, 4 and 3",
    ),
    (
        _rake_spec(basis_points=250, minimum_pot=50, cap_per_pot=10, cap_per_round=13),
        _RAKED_TABLE,
        _against_last(40, 800, 2000),
        "every rake form: 40 is below the minimum pot, 20 and 50 are held to the cap of 10 "
        "per pot, and the cap of 13 per round shares them 7 and 6 (a tie: the unit to the "
        "lower seat)",
    ),
]

SETTLE_SPECS: list[RulesSpec] = [
    *(rules_spec(p) for p in presets_in_order()[0]),
    rules_spec("pagat", royalty_mode="always"),
    rules_spec("pagat", royalty_mode="none"),
    rules_spec("pagat", royalty_adds=False, row_points=2),
    rules_spec("capsa-susun", scoop__multiply_royalties=True),
    rules_spec("capsa-susun", foul__mode="scoop"),
    rules_spec("capsa-susun", foul__mode="fixed", foul__points=5),
    rules_spec("pagat", foul__mode="sweep-all", sweep_all__multiplier=2),
    rules_spec("pagat", foul__pays_royalties=False),
    rules_spec("pagat", surrender__enabled=True, surrender__cost=2),
    rules_spec("2-4", naturals__resolve="difference"),
    rules_spec("hawaiian-gardens", naturals__ties="compare"),
    rules_spec("capsa-susun", sweep_all__min_players=2),
    rules_spec("capsa-susun", sweep_all__min_players=3),
    rules_spec("mau-binh", sweep_all__min_players=5),
    rules_spec(
        "pagat", overall_point=1, scoop__bonus=3, sweep_all__bonus=2, sweep_all__min_players=3
    ),
    rules_spec("capsa-susun", money__rake_basis_points=500, money__stake=7),
    rules_spec("pagat", money__rake_basis_points=1000, money__stake=3),
    rules_spec("capsa-susun", tie_break="none", foul_check="strict", wheel="second"),
    rules_spec("pagat", row_points=0, overall_point=2, scoop__multiplier=3),
    rules_spec(
        "capsa-susun",
        money__stake=10,
        money__rake_basis_points=250,
        money__rake_minimum_pot=40,
        money__rake_cap_per_pot=30,
        money__rake_cap_per_round=45,
    ),
]
