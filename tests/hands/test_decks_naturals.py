"""Naturals of the larger decks: the oracle from the rule text, and the engine against it.

The rules of docs/rules.md, "Naturals of larger decks": under a deck with
copies or jokers every natural of "The naturals" keeps its definition, read
on the cards' ranks and suits (a second copy counts as its rank and suit
again; a straight holds a rank once, a flush may hold both copies of a
card); the four naturals of larger decks (six, seven and eight of a kind,
two five of a kinds) join the table; a joker plays as any card, one the
hand holds included, and the cards qualify for an entry when some way of
playing them does; the natural is played the way that raises it when one
does, else the way with the highest rank groups, and its points and
``naturals.ties = "compare"`` use the cards as played. "Tables of larger
decks": such tables declare naturals.

The tests whose names hold ``engine`` check the engine against the oracle
(``-k "not engine"`` leaves them out); the others check the oracle alone
against hands worked out from the rule text, and the hand builder the
engine tests deal from. The oracle is loaded by its path, as in
``tests/settlement/test_decks.py``.
"""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Callable
from itertools import combinations
from typing import Any

import pytest
from deck_cards import (
    ADDED_SUITS,
    BLACK_JOKER,
    RANKS,
    cs,
    deck_ids,
    most_seats,
)
from hypothesis import given, settings
from hypothesis import strategies as st
from oracle_module import load_oracle
from oracle_tables import disagreements, engine_settle, knob_sets, oracle_settle

import capsa

o = load_oracle()

# docs/rules.md, "The naturals": the table's twenty names, in order.
NAMES = (
    "clean-dragon",
    "dragon",
    "twelve-royals",
    "three-straight-flushes",
    "three-quads",
    "all-high",
    "all-low",
    "full-colored",
    "twelve-same-color",
    "four-triples",
    "five-pairs-trips",
    "six-pairs",
    "three-straights",
    "three-flushes",
    "no-picture-cards",
    "two-full-houses",
    "six-of-a-kind",
    "seven-of-a-kind",
    "eight-of-a-kind",
    "two-five-of-a-kinds",
)
NEW = NAMES[16:]
STRAIGHT_FLUSH_RAISED = ("three-straights", "three-flushes")

TWO = {"decks": 2}
TWO_JOKERS = {"decks": 2, "jokers": 2}
JOKER = {"jokers": 1}
JOKERS = {"jokers": 2}


def config(
    deck: dict[str, Any], enabled: list[dict[str, Any]] | None = None, **naturals: Any
) -> dict[str, Any]:
    """The oracle's rules: capsa-susun with the deck and, when given, these
    naturals entries and ``naturals`` knobs."""
    data: dict[str, Any] = {"deck": deck}
    if enabled is not None:
        data["naturals"] = {**naturals, "enabled": enabled}
    rules: dict[str, Any] = o.load_rules(data)
    return rules


def both_rules(
    deck: dict[str, Any], preset: str = "capsa-susun", **knobs: Any
) -> tuple[capsa.Rules, dict[str, Any]]:
    """The engine's rules (a preset, knobs and the deck) and the oracle's
    reading of their ``to_dict()``, as ``tests/settlement/test_decks.py`` builds them."""
    data: dict[str, Any] = {"base": preset, **knobs}
    if deck:
        data["deck"] = deck
    rules = capsa.Rules(data)
    oracle_config: dict[str, Any] = o.load_rules(rules.to_dict())
    return rules, oracle_config


def held(text: str, deck: dict[str, Any]) -> frozenset[str]:
    """Every natural the hand qualifies for under the deck, jokers played any way."""
    found: frozenset[str] = o.naturals(cs(text), config(deck))
    return found


def only(name: str, points: int = 1, **fields: Any) -> list[dict[str, Any]]:
    """A naturals list of one entry."""
    return [{"name": name, "points": points, **fields}]


def played_ranks(declared: dict[str, Any]) -> Counter[int]:
    """The rank counts (2..14) of a declared natural's cards as played."""
    return Counter(face // 4 + 2 for face in declared["played"])


# ---------------------------------------------------------------- names


def test_oracle_has_the_twenty_naturals() -> None:
    """The four naturals of larger decks follow the sixteen, in table
    order, and all four compare under ``ties = "compare"``."""
    assert o.NATURAL_NAMES == NAMES
    assert set(NEW) <= o.COMPARABLE_NATURALS
    older = {"six-pairs", "five-pairs-trips", "four-triples", "three-quads"}
    comparable = set(o.COMPARABLE_NATURALS)
    assert comparable == {*older, *NEW}
    rules = config(TWO, [{"name": name, "points": 1} for name in NAMES])
    assert [e["name"] for e in rules["naturals"]["enabled"]] == list(NAMES)


# ---------------------------------------------------------------- the four new naturals


@pytest.mark.parametrize(
    ("text", "want"),
    [
        # six aces from two decks (and no J, Q or K)
        ("As As' Ah Ah' Ad Ad' 2c 3c 4d 5h 7d 8h 9s", {"six-of-a-kind", "no-picture-cards"}),
        # seven aces: six of a kind as well; one odd count of 7, but four singles
        (
            "As As' Ah Ah' Ad Ad' Ac Kc Kd Qh Js 9s 2d",
            {"six-of-a-kind", "seven-of-a-kind"},
        ),
        # eight aces and four kings: two quads and one, 4 + 2 pairs, 12 royals
        (
            "As As' Ah Ah' Ad Ad' Ac Ac' Ks Ks' Kh Kh' 2d",
            {
                "six-of-a-kind",
                "seven-of-a-kind",
                "eight-of-a-kind",
                "three-quads",
                "six-pairs",
                "twelve-royals",
            },
        ),
        # five aces, five kings, three queens: 13 royals, all 8 or higher,
        # five spades, five hearts and three diamonds; three odd counts, 5
        # pairs, 3 trips: none of the pair naturals
        (
            "As As' Ah Ah' Ad Ks Ks' Kh Kh' Kd Qs Qh Qd",
            {"two-five-of-a-kinds", "twelve-royals", "all-high", "three-flushes"},
        ),
        # counts 5, 4, 4: not 5, 5, 3, but three quads (a five holds one), six
        # pairs and one odd count, 5: five-pairs-trips
        (
            "As As' Ah Ah' Ad Ks Ks' Kh Kh' Qs Qh Qd Qc",
            {"twelve-royals", "all-high", "three-quads", "six-pairs", "five-pairs-trips"},
        ),
    ],
)
def test_oracle_naturals_of_two_decks(text: str, want: set[str]) -> None:
    assert held(text, TWO) == want
    assert held(text, TWO_JOKERS) == want  # a deck with jokers, none held


def test_oracle_one_deck_holds_none_of_the_four() -> None:
    """One deck holds at most four of a rank: no 52-card hand holds the
    naturals of larger decks; two jokers with four aces make six of a kind,
    never seven."""
    rng = random.Random(52)
    for _ in range(300):
        assert not set(NEW) & o.naturals(rng.sample(range(52), 13))
    assert not set(NEW) & o.naturals(cs("As Ah Ac Ad Ks Kh Kc Kd Qs Qh Qc Qd 2c"))
    jokers = held("As Ah Ac Ad Ks Kh Kc Kd Qs Qh Qc BJ RJ", JOKERS)
    assert "six-of-a-kind" in jokers and "seven-of-a-kind" not in jokers


# ---------------------------------------------------------------- generalised definitions


@pytest.mark.parametrize(
    ("text", "name", "holds"),
    [
        # eight of a rank counts as two quads
        ("2d 2d' 2c 2c' 2h 2h' 2s 2s' 3d 3c 3h 3s 9h", "three-quads", True),
        ("2d 2d' 2c 2c' 2h 2h' 2s 3d 3c 3h 3s 9h 9d", "three-quads", False),  # seven: one quad
        # six of a rank counts as two trips
        ("5d 5d' 5c 5c' 5h 5h' 7d 7c 7h 9d 9c 9h Ks", "four-triples", True),
        ("5d 5d' 5c 5c' 5h 7d 7c 7h 9d 9c 9h Ks Kd", "four-triples", False),  # five: one trips
        ("5d 5d' 5c 5c' 5h 5h' 7d 7c 7h 7s 7d' 7c' Ks", "four-triples", True),  # 6 + 6
        # five of a rank is trips and a pair: with four pairs, five-pairs-trips
        ("5d 5d' 5c 5c' 5h 7d 7c 9d 9c Jh Js Kd Kc", "five-pairs-trips", True),
        ("5d 5d' 5c 5c' 5h 7d 7c 9d 9c Jh Js Kd Kc", "six-pairs", True),  # 2 + 4 pairs
        # seven of a rank and three pairs: one odd count, 7
        ("5d 5d' 5c 5c' 5h 5h' 5s 7d 7c 9d 9c Jh Js", "five-pairs-trips", True),
        # five and three of a rank: two odd counts
        ("5d 5d' 5c 5c' 5h 7d 7c 7h 9d 9c Jh Js Kd", "five-pairs-trips", False),
        # one odd count and it is 1: six pairs and a single
        ("5d 5d' 5c 5c' 7d 7c 9d 9c Jh Js Kd Kc 2s", "five-pairs-trips", False),
        # a quad of one face (both copies of two cards) is two pairs
        ("5d 5d' 5c 5c' 7d 7d' 9d 9c Jh Js Kd Kc 2s", "six-pairs", True),
        # two-full-houses stays the counts 3, 3, 2, 2, 2, 1 (copies or not)
        ("5d 5d' 5c 7d 7d' 7c 9d 9d' Jh Jh' Kd Kd' 2s", "two-full-houses", True),
        ("5d 5d' 5c 5h 7d 7d' 7c 9d 9d' Jh Jh' Kd 2s", "two-full-houses", False),
    ],
)
def test_oracle_counts_read_on_copies(text: str, name: str, holds: bool) -> None:
    assert (name in held(text, TWO)) is holds


def test_oracle_a_flush_may_hold_both_copies() -> None:
    """A flush of three-flushes may hold a card and its copy; a straight
    holds a rank once, and the two copies of a straight flush are two rows."""
    spades = {"added_suits": "s"}
    assert "three-flushes" in held("2s 2s' 5s / 3h 6h 8h Th Qh / 4d 7d Jd Kd Ad", spades)
    assert "three-flushes" in held("2h 5h 8h / Ks Ks' 9s 7s 3s / Jd Qd Ad 4d 6d", spades)
    # thirteen clubs, the two twos among them: three flushes, not three
    # straights (the second two starts no straight), no dragon (no ace)
    assert held("2c 2c' 3c 4c 5c 6c 7c 8c 9c Tc Jc Qc Kc", TWO) == {
        "three-flushes",
        "full-colored",
        "twelve-same-color",
    }
    hearts = {"added_suits": "h"}
    both = "As 2s 3s / 2h 3h 4h 5h 6h / 2h' 3h' 4h' 5h' 6h'"
    # (its rank counts 1, 2, 2, 2, 3, 3 are two full houses' too)
    assert held(both, hearts) == {
        "three-straight-flushes",
        "three-straights",
        "three-flushes",
        "no-picture-cards",
        "two-full-houses",
    }
    # one heart of a straight flush in spades: still three straights, no
    # longer three straight flushes nor three flushes
    assert held(both.replace("6h'", "6s"), {"added_suits": "sh"}) == {
        "three-straights",
        "no-picture-cards",
        "two-full-houses",
    }


def test_oracle_raised_by_a_straight_flush_of_copies() -> None:
    """A second copy's five-card straight flush raises three-flushes."""
    hearts = {"added_suits": "h"}
    entry = only("three-flushes", 3, raised_by="straight-flush", raised_points=9)
    got = o.declared_natural(
        cs("2s 5s 9s / 2h 3h 4h 5h 6h / 2h' 7h' 9h' Jh' Kh'"), config(hearts, entry)
    )
    assert got is not None and got["points"] == 9
    got = o.declared_natural(
        cs("2s 5s 9s / 2h 3h 4h 5h 7h / 2h' 7h' 9h' Jh' Kh'"), config(hearts, entry)
    )
    assert got is not None and got["points"] == 3


# ---------------------------------------------------------------- jokers


@pytest.mark.parametrize(
    ("deck", "text", "name", "filler"),
    [
        # a joker as the missing ace: a dragon, and in one suit a clean dragon
        (JOKER, "2c 3d 4h 5s 6c 7d 8h 9s Tc Jd Qh Ks BJ", "dragon", "2c' 3c'"),
        (JOKER, "2s 3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks BJ", "clean-dragon", "2c' 3c'"),
        (JOKERS, "2s 3s 4s 5s 6s 7s 8s 9s Ts Js Qs BJ RJ", "clean-dragon", "2c' 3c'"),
        # 2-3-4, 5-9 and 5-8 and a joker as a 4 or a 9
        (JOKER, "2c 3d 4h / 5s 6c 7d 8h 9s / 5c 6d 7h 8s BJ", "three-straights", "2c' 3c'"),
        # the jokers as two straight flushes' missing cards
        (JOKERS, "Ad 2d 3d / 4s 5s 6s 7s BJ / 9h Th Jh Qh RJ", "three-straight-flushes", "2c' 3c'"),
        # five aces of two decks and a joker
        (TWO_JOKERS, "As As' Ah Ah' Ad BJ 2c 3c 4d 5h 7d 8h 9s", "six-of-a-kind", "2c' 3c'"),
        # one deck: the four aces and two jokers each playing an ace it holds
        (JOKERS, "As Ah Ac Ad BJ RJ 2c 3d 4h 5s 7c 8d 9h", "six-of-a-kind", "2c' 3c'"),
        (TWO_JOKERS, "Ks Ks' Kh Kh' Kd Kd' BJ RJ 2c 3c 4d 5h 7d", "eight-of-a-kind", "2c' 3c'"),
        (
            TWO_JOKERS,
            "As As' Ah Ah' Ks Ks' Kh Kh' Qs Qh Qd BJ RJ",
            "two-five-of-a-kinds",
            "2c' 3c'",
        ),
        # a joker pairs the single: six pairs
        (JOKER, "2c 2d 3c 3d 4c 4d 5c 5d 6c 6d 7c 9s BJ", "six-pairs", "2c' 3c'"),
        # twelve black cards and a joker playing a black one: full colored
        (JOKER, "2s 3c 4s 5c 6s 7c 8s 9c Ts Jc Qs Kc BJ", "full-colored", "2h'"),
    ],
)
def test_oracle_jokers_complete_naturals(
    deck: dict[str, Any], text: str, name: str, filler: str
) -> None:
    """The hand qualifies with its jokers, and not with the filler cards (a
    second copy of cards it does not help) in their place, and the natural
    declared holds the joker played."""
    assert name in held(text, deck)
    plain = text
    for joker, stand_in in zip(("BJ", "RJ"), filler.split(), strict=False):
        plain = plain.replace(joker, stand_in)
    assert name not in held(plain, {**deck, "decks": 2})
    declared = o.declared_natural(cs(text), config(deck, only(name)))
    assert declared is not None and declared["name"] == name
    assert len(declared["played"]) == 13 and all(0 <= f < 52 for f in declared["played"])


def test_oracle_a_joker_plays_with_the_parameters() -> None:
    """``lowest`` and ``count`` apply to the cards as played: a joker plays
    a queen, king or ace for all-high from Q, and a royal for thirteen."""
    hand = cs("Qs Qh Kd Kc As Ad Ah Ac Qc Qd Ks Kh BJ")
    assert o.natural(hand, config(JOKER, only("all-high", lowest="Q"))) == "all-high"
    assert o.natural(hand, config(JOKER, only("twelve-royals", count=13))) == "twelve-royals"
    low = cs("Qs Qh Kd Kc As Ad Ah Ac Qc Qd Ks 2h BJ")
    assert o.natural(low, config(JOKER, only("all-high", lowest="Q"))) is None
    assert o.natural(low, config(JOKER, only("twelve-royals", count=13))) is None
    # exactly twelve of a colour: the joker plays the other colour or the same
    mixed = cs("2s 3c 4s 5c 6s 7c 8s 9c Ts Jc Qs 4h BJ")
    assert o.natural(mixed, config(JOKER, only("twelve-same-color", exactly=True))) is not None


def test_oracle_the_earliest_entry_some_play_qualifies_for() -> None:
    """Each entry tries every way of playing the joker: a dragon (the joker
    as the ace) listed after six pairs the hand cannot make is declared."""
    hand = cs("2c 3d 4h 5s 6c 7d 8h 9s Tc Jd Qh Ks BJ")
    rules = config(JOKER, [{"name": "six-pairs", "points": 3}, {"name": "dragon", "points": 13}])
    got = o.declared_natural(hand, rules)
    assert got is not None and got["name"] == "dragon" and got["points"] == 13
    assert played_ranks(got) == Counter(range(2, 15))


def test_oracle_the_highest_rank_groups_are_compared_as_ranks() -> None:
    """The rank groups are compared rank by rank, as
    docs/rules.md, "Natural against natural" says: six kings, five queens, a
    two and a joker are played with the joker as an ace (groups K, Q, A, 2),
    above a seventh king or a sixth queen (K, Q, 2)."""
    hand = cs("Ks Ks' Kh Kh' Kd Kd' Qc Qc' Qd Qd' Qh 2c BJ")
    got = o.declared_natural(hand, config(TWO_JOKERS, only("six-of-a-kind")))
    assert got is not None
    assert played_ranks(got) == Counter({13: 6, 12: 5, 14: 1, 2: 1})


# Five pairs, the twos three times, a nine and a joker: the joker makes six
# pairs as a nine (groups 2, 9, 6, 5, 4, 3) or as a two (quads: 2, 6, 5,
# 4, 3, 9).
SIX_PAIRS_JOKER = "2c 2d 2h / 3c 3d 4c 4d 5c / 5d 6c 6d 9s BJ"


def test_oracle_a_joker_plays_the_raised_way() -> None:
    """Of the ways the joker makes six pairs, the natural is played in one
    that raises it (four twos) when the entry is raised by quads, and
    otherwise in the one whose rank groups are highest (a pair of nines)."""
    hand = cs(SIX_PAIRS_JOKER)
    raised = o.declared_natural(
        hand, config(JOKER, only("six-pairs", 3, raised_by="quads", raised_points=7))
    )
    assert raised is not None and raised["points"] == 7
    assert played_ranks(raised)[2] == 4 and played_ranks(raised)[9] == 1
    plain = o.declared_natural(hand, config(JOKER, only("six-pairs", 3)))
    assert plain is not None and plain["points"] == 3
    assert played_ranks(plain)[2] == 3 and played_ranks(plain)[9] == 2


def test_oracle_a_joker_raises_by_a_straight_flush() -> None:
    """A joker that can make the middle a straight flush plays so: three
    straights raised by a straight flush collect the raised points."""
    hand = cs("2c 3d 4h / 5s 6s 7s 8s BJ / 9c Td Jh Qs Kc")
    entry = only("three-straights", 3, raised_by="straight-flush", raised_points=8)
    got = o.declared_natural(hand, config(JOKER, entry))
    assert got is not None and got["points"] == 8
    # a heart among the spades: no straight flush whatever the joker plays
    hand = cs("2c 3d 4h / 5s 6s 7h 8s BJ / 9c Td Jh Qs Kc")
    got = o.declared_natural(hand, config(JOKER, entry))
    assert got is not None and got["points"] == 3


# B holds six pairs as the twos three times and pairs of 8, 6, 5, 4, 3.
SIX_PAIRS_B = "2s 2c' 2d' / 8c 8d 6h 6s 5h / 5s 4h 4s 3h 3s"


def _compare_table(raised: bool) -> tuple[list[list[int]], dict[str, Any]]:
    """The joker's six pairs against B's, under ``ties = "compare"``."""
    fields = {"raised_by": "quads", "raised_points": 5} if raised else {}
    rules = config({"decks": 2, "jokers": 1}, only("six-pairs", 3, **fields), ties="compare")
    return [cs(SIX_PAIRS_JOKER), cs(SIX_PAIRS_B)], rules


def _oracle_seats(hands: list[list[int]]) -> list[dict[str, Any]]:
    return [{"top": h[:3], "middle": h[3:8], "bottom": h[8:]} for h in hands]


@pytest.mark.parametrize("raised", [False, True])
def test_oracle_compare_uses_the_cards_as_played(raised: bool) -> None:
    """Played as a nine the joker's groups (2, 9, ...) beat B's (2, 8,
    ...): A collects its 3. Raised by quads it is played as a two (2, 6,
    ...) and B, unraised, collects its 3; A's natural is worth 5."""
    hands, rules = _compare_table(raised)
    result = o.settle(_oracle_seats(hands), rules)
    assert result["pairs"][0]["outcome"] == "natural"
    assert result["points"] == ([-3, 3] if raised else [3, -3])
    assert [s["natural"] for s in result["seats"]] == ["six-pairs", "six-pairs"]
    assert [s["natural_points"] for s in result["seats"]] == [5 if raised else 3, 3]


def test_oracle_compare_of_the_naturals_of_larger_decks() -> None:
    """Two six of a kinds compare by their ranks as played; six pairs of
    copies push (their groups are the same)."""
    rules = config(TWO_JOKERS, only("six-of-a-kind", 4), ties="compare")
    aces = cs("As As' Ah Ah' Ad BJ / 2c 3c 4d 5h 7d 8h 9s")
    kings = cs("Ks Ks' Kh Kh' Kd Kd' / 2d 3d 4c 5c 7c 8c 9c")
    assert o.settle(_oracle_seats([aces, kings]), rules)["points"] == [4, -4]
    assert o.settle(_oracle_seats([kings, aces]), rules)["points"] == [-4, 4]
    # the same rank groups: a push
    pairs = config(TWO, only("six-pairs", 3), ties="compare")
    first = cs("2c 2d 3c / 3d 4c 4d 5c 5d / 6c 6d 7c 7d 9s")
    copies = [c + 52 for c in first]
    assert o.settle(_oracle_seats([first, copies]), pairs)["points"] == [0, 0]


# ---------------------------------------------------------------- decks and settlement


@pytest.mark.parametrize(
    ("deck", "ace"),
    [(TWO, "As'"), ({"added_suits": "s"}, "As'"), (JOKER, "BJ"), (TWO_JOKERS, "RJ")],
)
def test_oracle_settles_naturals_under_a_larger_deck(deck: dict[str, Any], ace: str) -> None:
    """Rules of a larger deck that enable naturals settle, as
    docs/rules.md, "Tables of larger decks" says: capsa-susun's dragon, its
    ace a second copy or a joker, collects its 208."""
    rules = o.load_rules({"deck": deck})
    dragon = cs(f"2d 3c 4h / 5s 6d 7c 8h 9s / Td Jc Qh Ks {ace}")
    other = [c for c in deck_ids(deck) if c not in dragon and c % 52 // 4 < 11 and c < 104]
    result = o.settle(_oracle_seats([dragon, other[:13]]), rules)
    assert result["pairs"][0]["outcome"] == "natural"
    assert result["points"] == [208, -208]
    assert result["seats"][0]["natural"] == "dragon"


def test_oracle_settles_a_joker_natural_at_eight_seats() -> None:
    """Eight seats of two decks with jokers: a joker's six of a kind and
    a copies' three quads collect from every other seat, zero-sum."""
    rules = config(TWO_JOKERS, [{"name": "six-of-a-kind", "points": 20},
                                {"name": "three-quads", "points": 10}])  # fmt: skip
    six = cs("As As' Ah Ah' Ad BJ 2c 3c 4d 5h 7d 8h 9s")
    quads = cs("Ks Ks' Kh Kh' Qs Qs' Qh Qh' Js Js' Jh Jh' 2d")
    used = set(six + quads)
    pool = [c for c in deck_ids(TWO_JOKERS) if c not in used and c < 104]
    rest = [pool[13 * s : 13 * s + 13] for s in range(6)]
    result = o.settle(_oracle_seats([six, quads, *rest]), rules)
    assert result["points"][0] == 20 * 7
    assert sum(result["points"]) == 0


def test_oracle_reads_the_rules_deck() -> None:
    """``natural`` and ``declared_natural`` take ids of the rules' deck:
    copies there, a card outside it refused as the ranking refuses it;
    ``naturals`` without rules reads the 52-card deck."""
    copies = cs("2d 3c 4h 5s 6d 7c 8h 9s Td Jc Qh Ks As'")
    assert o.natural(copies, config(TWO)) == "dragon"
    with pytest.raises(ValueError, match=r"^hand: card id 103 is not an integer 0\.\.51$"):
        o.natural(copies, config({}))
    with pytest.raises(ValueError, match=r"card id 103 is not an integer 0\.\.51"):
        o.naturals(copies)
    with pytest.raises(ValueError, match=r"card id 104 is not a card of the deck of 104 cards"):
        o.declared_natural([*copies[:12], BLACK_JOKER], config(TWO))
    with pytest.raises(ValueError, match="duplicate"):
        o.natural([*copies[:12], copies[0]], config(TWO))
    with pytest.raises(ValueError, match="expected 13 cards"):
        o.natural(copies[:12], config(TWO))
    assert o.naturals(cs("2d 3c 4h 5s 6d 7c 8h 9s Td Jc Qh Ks As")) == {"dragon", "three-straights"}


def test_oracle_a_two_joker_hand_is_quick() -> None:
    """Every entry over every way of playing two jokers stays well under
    the two seconds the oracle allows itself."""
    rules = config(TWO_JOKERS, [{"name": name, "points": 1} for name in reversed(NAMES)])
    hand = cs("2c 7d 9h Jc Qd' Kh 3s 5s' 8c Td Ah BJ RJ")
    start = time.perf_counter()
    o.declared_natural(hand, rules)
    o.naturals(hand, rules)
    assert time.perf_counter() - start < 2


# ---------------------------------------------------------------- the hand builder

# Rank counts of the hands built for the naturals the counts decide.
COUNT_SHAPES: dict[str, list[list[int]]] = {
    "three-quads": [[4, 4, 4, 1], [8, 4, 1]],
    "four-triples": [[3, 3, 3, 3, 1], [6, 3, 3, 1]],
    "five-pairs-trips": [[3, 2, 2, 2, 2, 2], [5, 2, 2, 2, 2], [7, 2, 2, 2]],
    "six-pairs": [[2, 2, 2, 2, 2, 2, 1], [4, 2, 2, 2, 2, 1]],
    "two-full-houses": [[3, 3, 2, 2, 2, 1]],
    "six-of-a-kind": [[6, 2, 2, 2, 1], [6, 4, 3]],
    "seven-of-a-kind": [[7, 3, 2, 1], [7, 6]],
    "eight-of-a-kind": [[8, 4, 1], [8, 2, 2, 1]],
    "two-five-of-a-kinds": [[5, 5, 3]],
}


def _rank(c: int) -> int:
    """A card's rank index 0..12 (0 the two, 12 the ace)."""
    return c % 52 // 4


def _sample(rng: random.Random, cards: list[int], n: int) -> list[int] | None:
    return rng.sample(cards, n) if len(cards) >= n else None


def _take_counts(rng: random.Random, pool: list[int], counts: list[int]) -> list[int] | None:
    """Cards of distinct random ranks, ``counts[k]`` of the k-th, from the
    pool; jokers fill a rank the pool holds too few of."""
    jokers = [c for c in pool if c >= BLACK_JOKER]
    by_rank: dict[int, list[int]] = {}
    for c in pool:
        if c < BLACK_JOKER:
            by_rank.setdefault(_rank(c), []).append(c)
    hand: list[int] = []
    for need in sorted(counts, reverse=True):
        ranks = [r for r, cards in by_rank.items() if len(cards) + len(jokers) >= need]
        if not ranks:
            return None
        cards = by_rank.pop(rng.choice(ranks))
        real = rng.sample(cards, min(need, len(cards)))
        hand += real + [jokers.pop() for _ in range(need - len(real))]
    return hand


def _take_faces(
    rng: random.Random, pool: list[int], wanted: list[tuple[int, int | None]]
) -> list[int] | None:
    """One card of each (rank index, suit or None for any) from the pool,
    a joker where the pool has none left."""
    left = list(pool)
    hand: list[int] = []
    for rank, suit in wanted:
        options = [
            c for c in left if c < BLACK_JOKER and _rank(c) == rank and suit in (None, c % 4)
        ]
        jokers = [c for c in left if c >= BLACK_JOKER]
        if not options and not jokers:
            return None
        chosen = rng.choice(options) if options else jokers[0]
        left.remove(chosen)
        hand.append(chosen)
    return hand


def _straight_rows(rng: random.Random, flush: bool) -> list[tuple[int, int | None]]:
    """A 3-card straight and two 5-card straights (ace low or high), each
    of one suit when ``flush``."""
    wanted: list[tuple[int, int | None]] = []
    for size in (3, 5, 5):
        start = rng.randrange(-1, 14 - size)
        suit = rng.randrange(4) if flush else None
        wanted += [(12 if r == -1 else r, suit) for r in range(start, start + size)]
    return wanted


def _take_suits(
    rng: random.Random, pool: list[int], sizes: list[tuple[int, tuple[int, ...]]]
) -> list[int] | None:
    """For each (size, suits): that many cards of those suits from the pool."""
    left = [c for c in pool if c < BLACK_JOKER]
    hand: list[int] = []
    for size, suits in sizes:
        chosen = _sample(rng, [c for c in left if c % 4 in suits], size)
        if chosen is None:
            return None
        hand += chosen
        left = [c for c in left if c not in chosen]
    return hand


def _of_ranks(rng: random.Random, pool: list[int], keep: Callable[[int], bool]) -> list[int] | None:
    return _sample(rng, [c for c in pool if c < BLACK_JOKER and keep(_rank(c))], 13)


def _build(rng: random.Random, pool: list[int], target: str) -> list[int] | None:
    """13 cards of the pool built for the target natural (or near it)."""
    colour = rng.choice([(0, 2), (1, 3)])
    other = tuple(s for s in range(4) if s not in colour)
    if target in COUNT_SHAPES:
        return _take_counts(rng, pool, rng.choice(COUNT_SHAPES[target]))
    if target in ("dragon", "clean-dragon"):
        suit = rng.randrange(4) if target == "clean-dragon" else None
        return _take_faces(rng, pool, [(r, suit) for r in range(13)])
    if target in ("three-straights", "three-straight-flushes"):
        return _take_faces(rng, pool, _straight_rows(rng, target == "three-straight-flushes"))
    if target == "three-flushes":
        return _take_suits(rng, pool, [(n, (rng.randrange(4),)) for n in (3, 5, 5)])
    if target == "full-colored":
        return _take_suits(rng, pool, [(13, colour)])
    if target == "twelve-same-color":
        return _take_suits(rng, pool, [(12, colour), (1, other)])
    if target == "twelve-royals":
        return _take_suits(rng, [c for c in pool if _rank(c) >= 9], [(13, (0, 1, 2, 3))])
    if target == "all-high":
        lowest = rng.randrange(3, 9)
        return _of_ranks(rng, pool, lambda r: r >= lowest)
    if target == "all-low":
        highest = rng.randrange(5, 12)
        return _of_ranks(rng, pool, lambda r: r <= highest)
    if target == "no-picture-cards":
        return _of_ranks(rng, pool, lambda r: r not in (9, 10, 11))
    return None


def natural_hand(rng: random.Random, pool: list[int]) -> list[int]:
    """13 ids dealt from the pool (removed from it): mostly built for a
    random natural of the twenty, else as the pool lies; then now and then
    a card or two swapped for the pool's jokers (a joker can play the card
    it replaces, so no natural is lost)."""
    target = rng.choice([*NAMES, "as dealt", "as dealt"])
    hand = _build(rng, pool, target) if target in NAMES else None
    if hand is None:
        hand = [c for c in pool if c < BLACK_JOKER][:13] if rng.random() < 0.5 else pool[:13]
    spare = [c for c in pool if c >= BLACK_JOKER and c not in hand]
    if spare and rng.random() < 0.4:
        for joker in spare[: rng.randint(1, len(spare))]:
            at = rng.choice([k for k, c in enumerate(hand) if c < BLACK_JOKER])
            hand[at] = joker
    for c in hand:
        pool.remove(c)
    assert len(hand) == 13 == len(set(hand))
    return hand


BUILDER_DECKS = [TWO, TWO_JOKERS, {"added_suits": "sh", "jokers": 2}, {"added_suits": "d"},
                 JOKER, JOKERS, {"added_suits": "c", "jokers": 1}]  # fmt: skip


def test_the_hand_builder_makes_every_natural() -> None:
    """Over a fixed seed the builder the engine tests deal from makes each
    of the twenty naturals (jokers played any way), most more than once."""
    rng = random.Random(20_240_605)
    seen: Counter[str] = Counter()
    for k in range(240):
        deck = BUILDER_DECKS[k % len(BUILDER_DECKS)]
        pool = deck_ids(deck)
        rng.shuffle(pool)
        hand = natural_hand(rng, pool)
        seen.update(o.naturals(hand, config(deck)))
    assert set(seen) == set(NAMES), set(NAMES) - set(seen)
    assert sum(seen.values()) > 240


# ---------------------------------------------------------------- the engine against the oracle


@st.composite
def larger_decks(draw: st.DrawFn) -> dict[str, Any]:
    """A larger deck, two decks and jokers more often than not."""
    kind = draw(st.sampled_from(["added", "two", "two", "jokers"]))
    if kind == "jokers":
        return {"jokers": draw(st.integers(1, 2))}
    deck: dict[str, Any] = {"jokers": draw(st.sampled_from([0, 1, 2, 2]))}
    if kind == "two":
        deck["decks"] = 2
    else:
        deck["added_suits"] = draw(st.sampled_from(ADDED_SUITS))
    return deck


@st.composite
def naturals_entries(draw: st.DrawFn) -> list[dict[str, Any]]:
    """Some of the twenty naturals in a random order (most of them, most of
    the time), random points and the optional fields where allowed."""
    names = draw(st.permutations(NAMES))[: draw(st.sampled_from([1, 4, 10, 16, 20, 20]))]
    entries: list[dict[str, Any]] = []
    for index, name in enumerate(names):
        entry: dict[str, Any] = {"name": name, "points": draw(st.integers(0, 40))}
        if name == "all-high" and draw(st.booleans()):
            entry["lowest"] = draw(st.sampled_from(RANKS[3:10]))
        if name == "all-low" and draw(st.booleans()):
            entry["highest"] = draw(st.sampled_from(RANKS[4:]))
        if name == "twelve-royals" and draw(st.booleans()):
            entry["count"] = draw(st.sampled_from([12, 13]))
        if name == "twelve-same-color" and draw(st.booleans()):
            entry["exactly"] = draw(st.booleans())
        if index > 0 and draw(st.integers(0, 3)) == 0:
            entry["same_tier"] = True
        if draw(st.integers(0, 2)) == 0:
            raisers = ["quads", "straight-flush"] if name in STRAIGHT_FLUSH_RAISED else ["quads"]
            entry["raised_by"] = draw(st.sampled_from(raisers))
            entry["raised_points"] = draw(st.integers(0, 60))
        if draw(st.integers(0, 5)) == 0:
            entry["must_declare"] = True
        if draw(st.integers(0, 5)) == 0:
            entry["bonus"] = True
        entries.append(entry)
    return entries


@settings(max_examples=300, deadline=None)
@given(deck=larger_decks(), enabled=naturals_entries(), seed=st.integers(0, 2**32 - 1))
def test_engine_natural_of_larger_decks_matches_the_oracle(
    deck: dict[str, Any], enabled: list[dict[str, Any]], seed: int
) -> None:
    """``capsa.natural`` of a hand of a larger deck (built for a natural,
    jokers often) equals the oracle's under rules enabling random entries."""
    rules, oracle_config = both_rules(deck, naturals={"enabled": enabled})
    rng = random.Random(seed)
    pool = deck_ids(deck)
    rng.shuffle(pool)
    hand = natural_hand(rng, pool)
    assert capsa.natural(hand, rules) == o.natural(hand, oracle_config), (deck, hand)


def _seat(rng: random.Random, hand: list[int], rules: capsa.Rules, fouls: float) -> list[int]:
    """The hand as dealt (often fouled) or laid out by a random legal split."""
    if rng.random() < fouls:
        return hand
    splits = capsa.splits(hand, rules)
    return [int(x) for x in splits[rng.randrange(len(splits))]]


def _natural_table(
    rng: random.Random, rules: capsa.Rules, oracle_config: dict[str, Any], deck: dict[str, Any]
) -> dict[str, Any]:
    """A table of 2 to the deck's most seats dealt by the hand builder, in
    the form of ``tests/oracle_tables.py``: surrender and declining now and
    then, the banker and multipliers of a banker game, random stakes."""
    most = most_seats(deck)
    players = most if rng.random() < 0.3 else rng.randint(2, most)
    pool = deck_ids(deck)
    rng.shuffle(pool)
    fouls = 0.05 if oracle_config["foul"]["mode"] == "refuse" else 0.3
    seats = [
        {
            "cards": _seat(rng, natural_hand(rng, pool), rules, fouls),
            "surrender": oracle_config["surrender"]["enabled"] and rng.random() < 0.2,
            "declare_natural": rng.random() < 0.85,
        }
        for _ in range(players)
    ]
    banker = multipliers = None
    if oracle_config.get("banker", {}).get("enabled", False):
        banker = rng.randrange(players)
        most_multiplier = oracle_config["banker"].get("max_multiplier", 1)
        multipliers = [
            1 if s == banker else rng.randint(1, most_multiplier) for s in range(players)
        ]
    stakes: Any = rng.choice([None, rng.randrange(0, 1000)])
    return {"seats": seats, "banker": banker, "multipliers": multipliers, "stakes": stakes}


@settings(max_examples=100, deadline=None)
@given(
    drawn=knob_sets(new=True),
    deck=larger_decks(),
    enabled=naturals_entries(),
    resolve=st.sampled_from(["higher-wins", "difference"]),
    ties=st.sampled_from(["push", "compare"]),
    seed=st.integers(0, 2**32 - 1),
)
def test_engine_settles_naturals_of_larger_decks_as_the_oracle(
    drawn: tuple[str, dict[str, Any]],
    deck: dict[str, Any],
    enabled: list[dict[str, Any]],
    resolve: str,
    ties: str,
    seed: int,
) -> None:
    """Random rules (every knob) with random naturals of the twenty, a
    table of a random larger deck dealt by the hand builder: every seat
    and pair figure of the engine's settlement equals the oracle's, and a
    table one refuses the other refuses."""
    preset, knobs = drawn
    knobs = {**knobs, "naturals": {"resolve": resolve, "ties": ties, "enabled": enabled}}
    rules, oracle_config = both_rules(deck, preset, **knobs)
    t = _natural_table(random.Random(seed), rules, oracle_config, deck)
    engine, want = engine_settle(t, rules), oracle_settle(t, oracle_config)
    assert disagreements(engine, want) == [], (deck, t)
    if isinstance(want, dict):
        assert sum(want["points"]) == 0


BUILT = [
    (TWO, "As As' Ah Ah' Ad Ad' 2c 3c 4d 5h 7d 8h 9s"),
    (TWO, "As As' Ah Ah' Ad Ad' Ac Ac' Ks Ks' Kh Kh' 2d"),
    (TWO, "As As' Ah Ah' Ad Ks Ks' Kh Kh' Kd Qs Qh Qd"),
    (TWO, "2d 2d' 2c 2c' 2h 2h' 2s 2s' 3d 3c 3h 3s 9h"),
    (TWO, "5d 5d' 5c 5c' 5h 5h' 7d 7c 7h 9d 9c 9h Ks"),
    (TWO, "5d 5d' 5c 5c' 5h 7d 7c 9d 9c Jh Js Kd Kc"),
    (TWO, "2c 2c' 3c 4c 5c 6c 7c 8c 9c Tc Jc Qc Kc"),
    ({"added_suits": "h"}, "As 2s 3s 2h 3h 4h 5h 6h 2h' 3h' 4h' 5h' 6h'"),
    (JOKER, "2c 3d 4h 5s 6c 7d 8h 9s Tc Jd Qh Ks BJ"),
    (JOKER, "2s 3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks BJ"),
    (JOKERS, "Ad 2d 3d 4s 5s 6s 7s BJ 9h Th Jh Qh RJ"),
    (JOKERS, "As Ah Ac Ad BJ RJ 2c 3d 4h 5s 7c 8d 9h"),
    (TWO_JOKERS, "Ks Ks' Kh Kh' Kd Kd' BJ RJ 2c 3c 4d 5h 7d"),
    (TWO_JOKERS, "As As' Ah Ah' Ks Ks' Kh Kh' Qs Qh Qd BJ RJ"),
    (JOKER, SIX_PAIRS_JOKER),
]


@pytest.mark.parametrize(("deck", "text"), BUILT)
@pytest.mark.parametrize("order", ["table", "reversed"])
def test_engine_natural_of_the_built_hands(deck: dict[str, Any], text: str, order: str) -> None:
    """The hands above, every natural enabled (in table order and reversed):
    the engine's natural is the oracle's."""
    names = NAMES if order == "table" else NAMES[::-1]
    rules, oracle_config = both_rules(
        deck, naturals={"enabled": [{"name": n, "points": 1} for n in names]}
    )
    assert capsa.natural(cs(text), rules) == o.natural(cs(text), oracle_config)


@pytest.mark.parametrize("raised", [False, True])
def test_engine_compares_the_cards_as_played(raised: bool) -> None:
    """The joker's six pairs against B's under ``ties = "compare"``: the
    engine settles the pair as the oracle does (A collects 3 unraised, B
    collects 3 when the joker plays the raised way)."""
    fields = {"raised_by": "quads", "raised_points": 5} if raised else {}
    naturals = {"ties": "compare", "enabled": only("six-pairs", 3, **fields)}
    rules, oracle_config = both_rules({"decks": 2, "jokers": 1}, naturals=naturals)
    hands = [cs(SIX_PAIRS_JOKER), cs(SIX_PAIRS_B)]
    t = {
        "seats": [{"cards": h, "surrender": False, "declare_natural": True} for h in hands],
        "stakes": 1,
        "banker": None,
        "multipliers": None,
    }
    engine, want = engine_settle(t, rules), oracle_settle(t, oracle_config)
    assert disagreements(engine, want) == []
    assert isinstance(engine, dict) and engine["points"] == ([-3, 3] if raised else [3, -3])


@settings(max_examples=100, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_engine_naturals_of_52_card_hands_unchanged(seed: int) -> None:
    """52-card hands dealt by the builder: ``capsa.naturals`` equals the
    oracle's (none of the four naturals of larger decks among them)."""
    rng = random.Random(seed)
    pool = list(range(52))
    rng.shuffle(pool)
    hand = natural_hand(rng, pool)
    want = o.naturals(hand)
    assert not set(NEW) & want
    assert set(capsa.naturals(hand)) == want


@settings(max_examples=100, deadline=None)
@given(enabled=naturals_entries(), seed=st.integers(0, 2**32 - 1))
def test_engine_natural_of_52_card_hands_with_the_twenty(
    enabled: list[dict[str, Any]], seed: int
) -> None:
    """Under the 52-card deck with entries of all twenty naturals the
    engine's natural is the oracle's."""
    rules, oracle_config = both_rules({}, naturals={"enabled": enabled})
    rng = random.Random(seed)
    pool = list(range(52))
    rng.shuffle(pool)
    hand = natural_hand(rng, pool)
    assert capsa.natural(hand, rules) == o.natural(hand, oracle_config)


def test_engine_table_sizes_with_naturals() -> None:
    """Every pair of an eight-seat table of two decks with naturals enabled
    is settled alike (the old refusal is gone on both sides)."""
    deck = TWO_JOKERS
    rules, oracle_config = both_rules(deck, "shisanshui")
    rng = random.Random(8)
    for _ in range(3):
        pool = deck_ids(deck)
        rng.shuffle(pool)
        hands = [natural_hand(rng, pool) for _ in range(8)]
        t = {
            "seats": [{"cards": _seat(rng, h, rules, 0.2), "surrender": False,
                       "declare_natural": True} for h in hands],
            "stakes": 1,
            "banker": None,
            "multipliers": None,
        }  # fmt: skip
        engine, want = engine_settle(t, rules), oracle_settle(t, oracle_config)
        assert disagreements(engine, want) == []
        assert isinstance(want, dict)
        assert len(want["pairs"]) == len(list(combinations(range(8), 2)))
