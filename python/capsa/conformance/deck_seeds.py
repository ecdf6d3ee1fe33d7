"""The cases of the ``decks`` suite: every op but ``digest`` under larger
decks (docs/rules.md, "Decks: added suits, two decks and jokers"), asked
only of an engine that claims the deck knobs.

Four decks: the presets ``shisanshui-5`` (clubs added), ``shisanshui-6``
(clubs and hearts added) and ``shisanshui-jokers`` (two jokers), and two
decks with both jokers (``shisanshui-jokers`` with ``deck.decks = 2``). Each gets hand-written cases
(five of a kind, identical rows, jokers in straights and flushes, the
naturals of copies) and cases from the seeded deal of its deck
(``capsa.deal(seats, seed, rules)``), so that the deck is defined once.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import capsa
from capsa.conformance.drafts import Draft
from capsa.conformance.protocol import Case, RulesSpec, text_of
from capsa.conformance.vector_seeds import card_text, rules_spec, seat_of_text
from capsa.solver import best_arrangement

__all__ = ["DECKS_SUITE", "DECK_SPECS", "deck_drafts"]

DECKS_SUITE = "decks"
"""The suite's name: ``decks.jsonl``."""

_ROWS = ("top", "middle", "bottom")

DECK_SPECS: dict[str, RulesSpec] = {
    "clubs-added": rules_spec("shisanshui-5"),
    "clubs-hearts-added": rules_spec("shisanshui-6"),
    "jokers": rules_spec("shisanshui-jokers"),
    "two-decks": rules_spec("shisanshui-jokers", deck__decks=2),
}
"""The decks of the suite, by the name their vectors' families carry."""

# (deck, hand, why): hands the categories of larger decks turn on
_CATEGORY_SEEDS = [
    ("clubs-added", "As Ah Ad Ac Ac'", "five aces, one of them a second copy"),
    ("clubs-added", "2c 5c 9c Jc 2c'", "a flush holding a pair of copies"),
    ("clubs-added", "9c 9c' 9d", "three nines, two of them copies"),
    ("jokers", "As Ah BJ", "a pair and a joker: trips"),
    ("jokers", "2s 3s 4s 5s BJ", "a joker completing a straight flush"),
    ("jokers", "Kh Kd Kc BJ RJ", "three kings and two jokers: five of a kind"),
    ("jokers", "BJ RJ 2c", "two jokers beside a deuce"),
    ("two-decks", "7c 7c' 7d 7d' BJ", "four sevens of two decks and a joker"),
    ("two-decks", "As Ks Qs Js RJ", "a joker completing a royal flush"),
]

# (deck, a, b, why)
_COMPARE_SEEDS = [
    ("clubs-added", "As Ah Ad Ac Ac'", "Ks Qs Js Ts 9s", "five of a kind against a straight flush"),
    ("clubs-added", "Kc Kc' Kd 2s 3h", "Kc Kd Kh 2s 3h", "identical ranks, one holding a copy"),
    ("clubs-hearts-added", "Ah Ah' 7c", "Ah Ad 7c'", "pairs of aces, copies on both sides"),
    ("jokers", "As Ah BJ", "Ks Kh Kd", "a joker's trips against natural trips"),
    ("jokers", "2s 3s 4s 5s BJ", "As Ks Qs Js Ts", "a joker's straight flush against a royal"),
    ("two-decks", "Qs Qs' Qh Qh' RJ", "Ks Kd Kc Kh BJ", "five queens, four kings and a joker"),
]

# (deck, 13 cards, why)
_NATURAL_SEEDS = [
    ("jokers", "As Ah Ad Ac BJ RJ 2c 3d 4h 5s 6c 7d 8h", "four aces and two jokers: six of a kind"),
    ("two-decks", "Kc Kd Kh Ks Kc' Kd' Kh' 2c 3d 4h 5s 6c 7d", "seven kings"),
    ("two-decks", "Kc Kd Kh Ks Kc' Kd' Kh' Ks' 2c 3d 4h 5s 6c", "eight kings"),
    ("two-decks", "Ac Ad Ah As Ac' Kc Kd Kh Ks Kc' 2c 2d 2h", "five aces, five kings, deuces"),
    ("clubs-added", "2c 3c 4c 5c 6c 7c 8c 9c Tc Jc Qc Kc Ac'", "a club dragon of copies"),
    ("clubs-hearts-added", "2c 2c' 5h 5h' 8d 8s 9c 9c' Jh Jh' Kd Ks 3c", "six pairs of copies"),
]

# (deck, "top / middle / bottom", why)
_FOUL_SEEDS = [
    ("clubs-added", "2d 3c 4h / 9s 9h 9d 9c 9c' / As Ah Ad Ac Ac'", "five of a kind on both"),
    ("clubs-added", "Kc Kc' Kd / Ks Kh Qs Qh 2d / As Ah Ad 3c 4c", "top trips of copies over full"),
    ("jokers", "As Ah BJ / Kd Kh Ks 2c 3d / Qd Qh Qs Qc RJ", "a joker on the top and the bottom"),
    ("two-decks", "2c 2c' 3d / 5s 5s' 5h 5h' BJ / 6d 6d' 6c 6c' RJ", "two rows of five of a kind"),
]


def _deals(spec: RulesSpec, seats: int, first_seed: int, count: int) -> Iterator[list[list[int]]]:
    """``count`` seeded deals of the spec's deck at ``seats`` seats."""
    rules = spec.rules()
    for seed in range(first_seed, first_seed + count):
        yield [[card.id for card in hand] for hand in capsa.deal(seats, seed, rules)]


def _biased_hands(spec: RulesSpec, seed: int, count: int) -> list[list[int]]:
    """``count`` dealt hands of 13, those holding a copy or a joker first."""
    hands = [hand for deal in _deals(spec, 2, seed, count) for hand in deal]
    hands.sort(key=lambda hand: -sum(card >= 52 for card in hand))
    return hands[:count]


def _row_cases(deck: str, spec: RulesSpec) -> Iterator[tuple[str, Case, str]]:
    rules = spec.rules()
    rng = random.Random(f"rows {deck}")
    for hand in _biased_hands(spec, 100, 12):
        cards = sorted(hand, key=lambda c: (c < 52, rng.random()))
        five, three, other = sorted(cards[:5]), sorted(cards[5:8]), sorted(cards[8:13])
        for row in (five, three):
            category = capsa.evaluate(row, rules).category
            yield "category", Case("category", spec, {"hand": text_of(row)}), f"dealt: {category}"
        yield (
            "compare",
            Case("compare", spec, {"a": text_of(five), "b": text_of(other)}),
            "two dealt five-card rows, the first holding the copies and jokers",
        )
        rows = {"top": text_of(three), "middle": text_of(five), "bottom": text_of(other)}
        yield "foul", Case("foul", spec, rows), "dealt rows in the order dealt, fouled or not"


def _seed_cases(deck: str, spec: RulesSpec) -> Iterator[tuple[str, Case, str]]:
    for name, hand, why in _CATEGORY_SEEDS:
        if name == deck:
            yield "category", Case("category", spec, {"hand": card_text(hand)}), why
    for name, a, b, why in _COMPARE_SEEDS:
        if name == deck:
            yield "compare", Case("compare", spec, {"a": card_text(a), "b": card_text(b)}), why
    for name, rows, why in _FOUL_SEEDS:
        if name == deck:
            seat = seat_of_text(rows)
            yield "foul", Case("foul", spec, {row: seat[row] for row in _ROWS}), why
    for name, hand, why in _NATURAL_SEEDS:
        if name == deck:
            yield "natural", Case("natural", spec, {"hand": card_text(hand)}), why


def _round(spec: RulesSpec, hands: list[list[int]], rng: random.Random) -> dict[str, Any]:
    """A round of dealt hands: each seat's greedy rows, or now and then a
    random split (which may foul)."""
    rules, seats = spec.rules(), len(hands)
    out = []
    for hand in hands:
        if rng.random() < 0.8:
            choice = best_arrangement(hand, rules, seats=seats, strategy="greedy")
            laid = list(choice.arrangement.ids)
        else:
            laid = hand[:]
            rng.shuffle(laid)
        cuts = ((0, 3), (3, 8), (8, 13))
        seat = {row: text_of(sorted(laid[a:b])) for row, (a, b) in zip(_ROWS, cuts, strict=True)}
        out.append({**seat, "surrender": False, "declare_natural": rng.random() < 0.9})
    return {"round": {"seats": out, "stakes": rng.choice([1, 10, 100])}}


def _hand_cases(deck: str, spec: RulesSpec) -> Iterator[tuple[str, Case, str]]:
    rules = spec.rules()
    for hand in _biased_hands(spec, 200, 8):
        natural = capsa.natural(hand, rules) or "none"
        yield "natural", Case("natural", spec, {"hand": text_of(hand)}), f"dealt: {natural}"
    if not rules["deck.jokers"]:
        for hand in _biased_hands(spec, 300, 2):
            yield (
                "count_splits",
                Case("count_splits", spec, {"hand": text_of(hand)}),
                "the valid splits of 72,072 of a dealt hand",
            )
    most = _most_seats(rules)
    rng = random.Random(f"rounds {deck}")
    for seats in range(2, most + 1):
        for hands in _deals(spec, seats, 400 + 10 * seats, 2):
            case = Case("settle", spec, _round(spec, hands, rng))
            yield "settle", case, f"{seats} seats of dealt hands, greedy rows mostly"


def _most_seats(rules: capsa.Rules) -> int:
    """The most seats the rules' deck deals to: the largest table the seeded
    deal accepts."""
    most = 2
    for seats in range(3, 9):
        try:
            capsa.deal(seats, 0, rules)
        except capsa.TableError:
            break
        most = seats
    return most


def deck_drafts(op: str) -> Iterator[Draft]:
    """The suite's cases of ``op``, deck by deck: the hand-written ones,
    then those of dealt rows, hands and rounds; each deck's family is
    ``deck-<deck>``."""
    for deck, spec in DECK_SPECS.items():
        for cases in (_seed_cases, _row_cases, _hand_cases):
            for case_op, case, reason in cases(deck, spec):
                if case_op == op:
                    yield Draft(f"deck-{deck}", case, reason)
