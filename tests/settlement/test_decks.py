"""Settling tables of the larger decks: the engine against the oracle.

The rules of docs/rules.md, "Tables of larger decks": under a deck with
added suits, two decks or jokers a table has 2 seats up to as many as the
deck deals 13 cards to, at most 8; each card is one of the deck's, dealt
once; every pair is settled, sweep-all and ``scoop.by_seats`` count the
table's real players; rows rank as docs/rules.md, "Copies, five of a kind and jokers"
ranks them, royalties pay the rows' categories and five of a kind
``royalties.middle_five_of_a_kind`` in the middle and
``royalties.bottom_five_of_a_kind`` at the bottom (0 unless set); the
horse card is its face (either copy, never a joker); and naturals are
declared as docs/rules.md, "Naturals of larger decks" says. Under the 52-card deck nothing
changes (2 to 4 seats, the same messages).

The oracle is loaded by its path, as in ``tests/oracle/test_self.py``. The
random tables draw the rules as ``tests/oracle/test_agreement.py`` does
(every knob but the naturals, which are none) with the royalties of five of
a kind (0 to 30, or left out), a random larger deck, a
random table size and hands dealt from the deck, laid out as dealt (often
fouled) or by a legal split; the others check what the rule text says of
chosen tables, on both sides.
"""

from __future__ import annotations

import random
from itertools import combinations
from typing import Any

import numpy as np
import pytest
from deck_cards import (
    ADDED_SUITS,
    BLACK_JOKER,
    RED_JOKER,
    card,
    cs,
    deck_ids,
    most_seats,
)
from hypothesis import given, settings
from hypothesis import strategies as st
from oracle_module import load_oracle
from oracle_tables import disagreements, engine_settle, knob_sets, oracle_settle, with_terms

import capsa

o = load_oracle()

NO_NATURALS: dict[str, Any] = {"enabled": []}


def both_rules(
    deck: dict[str, Any], preset: str = "capsa-susun", **knobs: Any
) -> tuple[capsa.Rules, dict[str, Any]]:
    """The engine's rules (a preset, knobs and the deck) and the oracle's
    reading of their ``to_dict()``."""
    data: dict[str, Any] = {"base": preset, **knobs}
    if deck:
        data["deck"] = deck
    rules = capsa.Rules(data)
    config: dict[str, Any] = o.load_rules(rules.to_dict())
    return rules, config


def table(seats: list[list[int]], **flags: Any) -> dict[str, Any]:
    """A table of 13-id seats in row order, in the form of ``tests/oracle_tables.py``."""
    return {
        "seats": [{"cards": list(c), "surrender": False, "declare_natural": True} for c in seats],
        "stakes": flags.get("stakes", 1),
        "banker": flags.get("banker"),
        "multipliers": flags.get("multipliers"),
    }


def agreed(t: dict[str, Any], rules: capsa.Rules, config: dict[str, Any]) -> dict[str, Any]:
    """The table settled alike by both (every seat and pair figure), and
    zero-sum; the engine's settlement."""
    engine, want = engine_settle(t, rules), oracle_settle(t, config)
    assert disagreements(engine, want) == [], (t, engine if isinstance(engine, str) else want)
    assert isinstance(engine, dict), engine
    zero_sum(engine)
    return engine


def zero_sum(result: dict[str, Any]) -> None:
    assert sum(result["points"]) == 0
    assert sum(result["money"]) == 0
    assert sum(result["net"]) + sum(result["rake"]) == 0


def legal(hand: list[int], rules: capsa.Rules, k: int = 0) -> list[int]:
    """The hand laid out by its k-th legal split (of the engine's order)."""
    splits = capsa.splits(hand, rules)
    return [int(x) for x in splits[k % len(splits)]]


def strong_middle(hand: list[int], rules: capsa.Rules) -> list[int]:
    """The hand laid out by a legal split with the strongest middle row (so
    that rows of royalties and five of a kind come up)."""
    splits = capsa.splits(hand, rules)
    middles = capsa.evaluate_batch(np.ascontiguousarray(splits[:, 3:8]), rules)
    return [int(x) for x in splits[int(np.argmax(middles))]]


# ---------------------------------------------------------------- random tables


@st.composite
def larger_decks(draw: st.DrawFn) -> dict[str, Any]:
    """A larger deck: one or two added suits, or two decks, with 0 to 2
    jokers; now and then the 52 cards with jokers only."""
    kind = draw(st.sampled_from(["added", "added", "two", "two", "jokers"]))
    if kind == "jokers":
        return {"jokers": draw(st.integers(1, 2))}
    deck: dict[str, Any] = {"jokers": draw(st.integers(0, 2))}
    if kind == "two":
        deck["decks"] = 2
    else:
        deck["added_suits"] = draw(st.sampled_from(ADDED_SUITS))
    return deck


def _deal(rng: random.Random, ids: list[int], players: int) -> list[list[int]]:
    """``players`` hands of 13 from a random permutation of the deck; now
    and then a hand gathered from few ranks or one suit of what is left
    (five of a kind, quads, flushes holding pairs)."""
    left = ids[:]
    rng.shuffle(left)
    hands: list[list[int]] = []
    for _ in range(players):
        roll = rng.random()
        if roll < 0.15:
            ranks = rng.sample(range(13), rng.randint(2, 4))
            left.sort(key=lambda c: c >= BLACK_JOKER or c % 52 // 4 not in ranks)
        elif roll < 0.25:
            suit = rng.randrange(4)
            left.sort(key=lambda c: c >= BLACK_JOKER or c % 4 != suit)
        hands.append(left[:13])
        del left[:13]
        rng.shuffle(left)
    return hands


def _random_table(
    rng: random.Random, rules: capsa.Rules, config: dict[str, Any], ids: list[int], players: int
) -> dict[str, Any]:
    """A table as ``tests/oracle_tables.py`` deals one: laid out as dealt
    three times in ten (one in twenty under ``foul.mode = "refuse"``), else
    by a random legal split or one with the strongest middle; surrender one
    time in five where the rules allow it; the banker and multipliers of a
    banker game; stakes one integer, a matrix or the rules'."""
    fouls = 0.05 if config["foul"]["mode"] == "refuse" else 0.3
    seats = []
    for hand in _deal(rng, ids, players):
        roll = rng.random()
        if roll < fouls:
            cards = hand
        elif roll < 0.6:
            cards = legal(hand, rules, rng.randrange(1 << 30))
        else:
            cards = strong_middle(hand, rules)
        seats.append(
            {
                "cards": cards,
                "surrender": config["surrender"]["enabled"] and rng.random() < 0.2,
                "declare_natural": rng.random() < 0.85,
            }
        )
    banker = multipliers = None
    if config.get("banker", {}).get("enabled", False):
        banker = rng.randrange(players)
        most = config["banker"].get("max_multiplier", 1)
        if rng.random() < 0.8:
            multipliers = [1 if s == banker else rng.randint(1, most) for s in range(players)]
    stakes: Any
    if rng.random() < 0.4:
        stakes = rng.randrange(0, 1000)
    elif rng.random() < 0.5:
        stakes = [[0] * players for _ in range(players)]
        for i, j in combinations(range(players), 2):
            stakes[i][j] = stakes[j][i] = rng.randrange(0, 500)
    else:
        stakes = None
    return {"seats": seats, "banker": banker, "multipliers": multipliers, "stakes": stakes}


# The royalty of five of a kind in a random table's rules: left out (0), or
# 0 to 30 written.
FIVE_ROYALTY = st.one_of(st.none(), st.integers(0, 30))


@settings(max_examples=4 * (settings().max_examples or 100))
@given(
    drawn=knob_sets(new=True),
    deck=larger_decks(),
    seed=st.integers(0, 2**32 - 1),
    fives=st.tuples(FIVE_ROYALTY, FIVE_ROYALTY),
)
def test_larger_deck_tables_settle_as_the_oracle(
    drawn: tuple[str, dict[str, Any]],
    deck: dict[str, Any],
    seed: int,
    fives: tuple[int | None, int | None],
) -> None:
    """Random rules (every knob, no natural, the royalties of five of a
    kind in the middle and at the bottom) of a random larger deck, a table
    of 2 to the deck's most seats: every seat and pair figure of the
    engine's settlement equals the oracle's, a table one refuses the other
    refuses, and a settled table is zero-sum."""
    preset, knobs = drawn
    knobs = {**knobs, "naturals": {**knobs.get("naturals", {}), **NO_NATURALS}}
    royalties = dict(knobs.get("royalties", {}))
    for row, points in zip(("middle", "bottom"), fives, strict=True):
        if points is not None:
            royalties[f"{row}_five_of_a_kind"] = points
    if royalties:
        knobs["royalties"] = royalties
    rules, config = both_rules(deck, preset, **knobs)
    ids = deck_ids(deck)
    assert sorted(o._deck_ids(config)) == ids
    rng = random.Random(seed)
    most = most_seats(deck)
    players = most if rng.random() < 0.3 else rng.randint(2, most)
    t = _random_table(rng, rules, config, ids, players)
    engine, want = engine_settle(t, rules), oracle_settle(t, config)
    assert disagreements(engine, want) == [], (deck, t)
    if isinstance(engine, dict):
        zero_sum(engine)
        assert len(engine["pairs"]) == players * (players - 1) // 2
    else:
        assert config["foul"]["mode"] == "refuse" and "fouls" in engine


# ---------------------------------------------------------------- table sizes


def _dealt(deck: dict[str, Any], players: int, seed: int = 0) -> list[list[int]]:
    """``players`` hands of 13 dealt in order from a shuffled deck, reusing
    cards once it runs out (for the tables refused by their size)."""
    ids = deck_ids(deck)
    random.Random(seed).shuffle(ids)
    ids = ids * 2
    return [ids[13 * s : 13 * s + 13] for s in range(players)]


@pytest.mark.parametrize(
    ("deck", "most"),
    [
        ({"added_suits": "s"}, 5),
        ({"added_suits": "sd", "jokers": 1}, 6),
        ({"added_suits": "hc", "jokers": 2}, 6),
        ({"decks": 2}, 8),
        ({"decks": 2, "jokers": 2}, 8),
        ({"added_suits": "c", "jokers": 2}, 5),
        ({"jokers": 1}, 4),
        ({"jokers": 2}, 4),
    ],
)
def test_a_larger_deck_seats_as_many_as_it_deals_to(deck: dict[str, Any], most: int) -> None:
    """2 to ``most`` seats settle alike, zero-sum, every pair played; one
    seat and ``most + 1`` seats are a ``TableError`` naming the deck, and the
    oracle refuses them naming the deck and the seats."""
    assert most_seats(deck) == most
    rules, config = both_rules(deck, "shisanshui", naturals=NO_NATURALS)
    assert list(o.table_sizes(config)) == list(range(2, most + 1))
    for players in range(2, most + 1):
        hands = [legal(h, rules) for h in _dealt(deck, players, seed=players)]
        result = agreed(table(hands), rules, config)
        assert [p["seats"] for p in result["pairs"]] == [
            list(p) for p in combinations(range(players), 2)
        ]
        assert all(p["outcome"] != "unplayed" for p in result["pairs"])
    for players in (1, most + 1):
        hands = _dealt(deck, players)
        size = len(deck_ids(deck))
        with pytest.raises(capsa.TableError, match=f"{size}-card deck .*2 to {most} seats"):
            capsa.settle(hands, rules)
        with pytest.raises(ValueError, match=f"seats: a table of the deck of .* has 2 to {most} "):
            o.settle([{"top": h[:3], "middle": h[3:8], "bottom": h[8:]} for h in hands], config)


def test_eight_seats_of_two_decks_with_jokers_are_zero_sum() -> None:
    """The whole 106-card deck but two cards dealt to 8 seats, under rules
    with royalties, scoops, sweeps, the horse card and a stake matrix: 28
    pairs, each settled alike, zero-sum in points, money and net."""
    deck = {"decks": 2, "jokers": 2}
    rules, config = both_rules(
        deck,
        "capsa-susun",
        naturals=NO_NATURALS,
        horse={"card": "7h", "multiplier": 3},
        sweep_all={"min_players": 2},
        money={"rake_basis_points": 500},
    )
    stakes = [[(i + 1) * (j + 1) * (i != j) for j in range(8)] for i in range(8)]
    for seed in range(6):
        hands = _dealt(deck, 8, seed)
        # every other seat as dealt (mostly fouled) at every third deal
        raw = seed % 3 == 0
        seats = [h if raw and s % 2 else legal(h, rules, seed) for s, h in enumerate(hands)]
        result = agreed(table(seats, stakes=stakes), rules, config)
        assert len(result["pairs"]) == 28
        assert any(m != 0 for m in result["money"])


def test_five_seats_with_an_added_suit() -> None:
    """The 65-card deck (spades added) seats five, every card dealt: ten
    pairs settled alike, the spades' copies ranking as their first copies."""
    deck = {"added_suits": "s"}
    rules, config = both_rules(deck, "taiwanese", naturals=NO_NATURALS)
    for seed in range(6):
        hands = [legal(h, rules, seed) for h in _dealt(deck, 5, seed)]
        assert sorted(c for h in hands for c in h) == deck_ids(deck)
        result = agreed(table(hands), rules, config)
        assert len(result["pairs"]) == 10


def test_six_seats_are_refused_on_a_65_card_deck() -> None:
    """Six seats of the 65-card deck (hearts added) are a ``TableError``,
    and the oracle refuses them naming the deck and its 2 to 5 seats."""
    deck = {"added_suits": "h", "jokers": 0}
    rules, config = both_rules(deck, "shisanshui", naturals=NO_NATURALS)
    t = table(_dealt(deck, 6))
    engine, want = engine_settle(t, rules), oracle_settle(t, config)
    assert isinstance(engine, str) and engine.startswith("refused: TableError:")
    assert "65-card deck" in engine and "2 to 5 seats" in engine
    deck_text = "the deck of 65 cards (one deck, added suits 'h', 0 jokers)"
    assert want == f"refused: seats: a table of {deck_text} has 2 to 5 players, got 6"


def test_the_52_card_deck_keeps_its_tables_and_messages() -> None:
    """Under the 52-card deck a table is 2 to 4 seats and the messages are
    those before the larger decks; a second copy or a joker is no card of it."""
    rules, config = both_rules({}, "capsa-susun")
    hands = _dealt({}, 5)
    with pytest.raises(capsa.TableError, match="2 to 4 seats"):
        capsa.settle(hands, rules)
    with pytest.raises(ValueError, match=r"^seats: expected 2 to 4 players, got 5$"):
        o.settle([{"top": h[:3], "middle": h[3:8], "bottom": h[8:]} for h in hands], config)
    for outside in (card("As'"), BLACK_JOKER):
        hands = _dealt({}, 2)
        hands[1][4] = outside
        with pytest.raises(capsa.CardError):
            capsa.settle(hands, rules)
        message = rf"^seats\[1\]\.middle: card id {outside} is not an integer 0\.\.51$"
        with pytest.raises(ValueError, match=message):
            o.settle([{"top": h[:3], "middle": h[3:8], "bottom": h[8:]} for h in hands], config)


# ---------------------------------------------------------------- naturals


@pytest.mark.parametrize(
    "deck", [{"added_suits": "s"}, {"decks": 2, "jokers": 2}, {"jokers": 1}, {"added_suits": "sh"}]
)
@pytest.mark.parametrize(
    "enabled",
    [
        None,  # the preset's naturals
        [{"name": "six-pairs", "points": 3}],
        [{"name": "dragon", "points": 13, "bonus": True}],
    ],
    ids=["preset", "one", "bonus"],
)
def test_naturals_enabled_under_a_larger_deck_settle(
    deck: dict[str, Any], enabled: list[dict[str, Any]] | None
) -> None:
    """Rules of a larger deck that enable naturals (a bonus one too) settle
    its tables as the oracle does (docs/rules.md, "Naturals of larger decks")."""
    knobs = {} if enabled is None else {"naturals": {"enabled": enabled}}
    rules, config = both_rules(deck, "capsa-susun", **knobs)
    assert config["naturals"]["enabled"]
    agreed(table(_dealt(deck, 2)), rules, config)


def test_naturals_stay_under_the_52_card_deck() -> None:
    """The same naturals under the 52-card deck still settle: a dragon collects."""
    rules, config = both_rules({}, "capsa-susun")
    dragon = cs("2d 3c 4h / 5s 6d 7c 8h 9s / Td Jc Qh Ks Ad")
    other = [c for c in range(52) if c not in dragon][:13]
    result = agreed(table([dragon, legal(other, rules)]), rules, config)
    assert result["pairs"][0]["outcome"] == "natural"
    assert result["points"][0] == 208


# ---------------------------------------------------------------- the horse card

# Seat A wins every row against seat B (B keeps the horse card out of it).
HORSE_A = "As' Kd Qc / 8c 8d 8h 3c 3d / 4s 4h 4c 4d 2h"
HORSE_B = "2c 5d 7h / Jh 9c 6s 5c 3s / Kh Kc Qh 7d 6d"


def _horse_pair(deck: dict[str, Any], a: str, b: str, multiplier: int = 3) -> dict[str, Any]:
    rules, config = both_rules(
        deck,
        "shisanshui",
        naturals=NO_NATURALS,
        horse={"card": "As", "multiplier": multiplier},
    )
    result = agreed(table([cs(a), cs(b)]), rules, config)
    return with_terms(result["pairs"][0])


def test_the_horse_card_held_as_a_second_copy_multiplies() -> None:
    """A seat holding the second copy As' holds the horse card As: its pair
    with a seat holding neither copy is multiplied."""
    pair = _horse_pair({"added_suits": "s"}, HORSE_A, HORSE_B)
    assert pair["horse"] == 3
    assert pair["points"] == 3 * pair["base"] > 0
    plain = _horse_pair({"added_suits": "s"}, HORSE_A, HORSE_B, multiplier=1)
    assert pair["points"] == 3 * plain["points"]


def test_either_copy_held_by_each_seat_is_the_horse_card_held_by_both() -> None:
    """One seat with As', the other with As: both hold it, no multiplier."""
    pair = _horse_pair({"decks": 2}, HORSE_A, HORSE_B.replace("2c", "As"))
    assert pair["horse"] == 1
    assert pair["points"] == pair["base"] > 0


def test_a_joker_is_never_the_horse_card() -> None:
    """A joker taking the face As (trips of aces on top) is not the horse
    card: no multiplier; the first copy As in its place is."""
    joker = HORSE_A.replace("As'", "BJ").replace("Kd Qc", "Ad Ac")
    pair = _horse_pair({"added_suits": "s", "jokers": 1}, joker, HORSE_B)
    assert pair["horse"] == 1
    assert pair["points"] == pair["base"] > 0
    pair = _horse_pair({"added_suits": "s", "jokers": 1}, joker.replace("BJ", "As"), HORSE_B)
    assert pair["horse"] == 3


# ---------------------------------------------------------------- royalties


def _royalties(deck: dict[str, Any], hand: str, preset: str = "capsa-susun") -> dict[str, int]:
    """Seat 0's row royalties, the hand settled alike against a hand of the
    cards it leaves (no joker), by a legal split."""
    rules, config = both_rules(deck, preset, naturals=NO_NATURALS)
    cards = cs(hand)
    rest = [c for c in deck_ids(deck) if c not in cards and c < BLACK_JOKER]
    random.Random(7).shuffle(rest)
    result = agreed(table([cards, legal(rest[:13], rules)]), rules, config)
    seat = result["seats"][0]
    assert not seat["foul"]
    return {row: seat["rows"][row]["royalty"] for row in ("top", "middle", "bottom")}


def test_five_of_a_kind_in_the_middle_pays_no_royalty() -> None:
    """Five sevens in the middle and five nines at the bottom pay nothing
    while the royalties of five of a kind are unset, though capsa-susun pays
    quads 14 in the middle and 7 at the bottom."""
    two = {"decks": 2}
    got = _royalties(two, "Ad Ac 4d / 7d 7d' 7c 7h 7s / 9d 9d' 9c 9h 9s")
    assert got == {"top": 0, "middle": 0, "bottom": 0}
    # four of them and a kicker are quads, which pay
    got = _royalties(two, "Ad Ac 4d / 7d 7d' 7c 7h 8s / 9d 9d' 9c 9h 8h")
    assert got == {"top": 0, "middle": 14, "bottom": 7}
    # five of a kind made with a joker pays nothing either
    jokers = {"decks": 2, "jokers": 2}
    got = _royalties(jokers, "Ad Ac 4d / Td Td' Tc Tc' BJ / Jd Jd' Jc Jh RJ")
    assert got == {"top": 0, "middle": 0, "bottom": 0}


def test_royalties_pay_the_category_a_joker_makes() -> None:
    """A joker row pays its category as it ranks: trips on top (5), quads
    in the middle (14), a straight flush at the bottom (9)."""
    deck = {"added_suits": "d", "jokers": 2}
    got = _royalties(deck, "Qd Qc BJ / 3c 3h 3s RJ 4d / 9s Ts Js Qs Ks")
    assert got == {"top": 5, "middle": 14, "bottom": 9}
    got = _royalties(deck, "Qd Qc 2d / 3c 3h 3s 3d' 4d / 9s Ts Js Qs BJ")
    assert got == {"top": 0, "middle": 14, "bottom": 9}


# The royalties of five of a kind set
# (docs/rules.md, "Tables of larger decks"):
# 20 in the middle, 10 at the bottom, under two decks with jokers.
FIVES = {"middle_five_of_a_kind": 20, "bottom_five_of_a_kind": 10}
FIVES_DECK = {"decks": 2, "jokers": 2}
# A: a pair of aces on top (no royalty), five sevens, five nines.
FIVE_A = "Ad Ac 4d / 7d 7d' 7c 7h 7s / 9d 9d' 9c 9h 9s"
# The same with a joker in each five-card row (a joker plays a seven, a nine).
FIVE_A_JOKERS = "Ad Ac 4d / 7d 7d' 7c 7h BJ / 9d 9d' 9c 9h RJ"
# B: trips of kings on top (5), a full house in the middle (3) and one at
# the bottom (0): it wins the top, loses the middle and the bottom to A.
FIVE_B = "Kd Kc Kh / Jd Jc Jh 2d 2c / Qd Qc Qh 3d 3c"
# C: a pair of kings on top, full houses (3 in the middle): it loses all
# three rows to A.
FIVE_C = "Kd Kc 2h / Jd Jc Jh 3d 3c / Qd Qc Qh 4c 4h"
# D: a pair of kings on top, five eights (a joker one) and five tens (a
# joker one): it loses the top to A and wins the middle and the bottom.
FIVE_D = "Kd Kc 2h / 8d 8d' 8c 8h BJ / Td Td' Tc Th RJ"
# B with its middle and bottom swapped: a foul.
FIVE_B_FOULED = "Kd Kc Kh / Qd Qc Qh 3d 3c / Jd Jc Jh 2d 2c"


def _five_pair(
    a: str, b: str, royalties: dict[str, int] | None = None, **knobs: Any
) -> tuple[dict[str, Any], dict[str, Any]]:
    """Seats a and b settled alike under capsa-susun (row_points 1, no
    overall point, scoop 2, sweep-all 4 at four players, fouls at the
    sweep-all rate paying royalties) with ``FIVES`` (or ``royalties``) and
    ``knobs``, no natural: the pair and the seats' row royalties, on the
    engine's side (the oracle's agreed)."""
    given = FIVES if royalties is None else royalties
    rules, config = both_rules(
        FIVES_DECK, "capsa-susun", naturals=NO_NATURALS, royalties=given, **knobs
    )
    result = agreed(table([cs(a), cs(b)]), rules, config)
    seats = [
        {row: seat["rows"][row]["royalty"] for row in ("top", "middle", "bottom")}
        for seat in result["seats"]
    ]
    return with_terms(result["pairs"][0]), {"a": seats[0], "b": seats[1]}


@pytest.mark.parametrize("a", [FIVE_A, FIVE_A_JOKERS], ids=["copies", "jokers"])
@pytest.mark.parametrize(
    ("b", "knobs", "rows", "roy", "points"),
    [
        # winner: A wins the middle (20) and the bottom (10), B the top (5):
        # rows 2 - 1, royalties 30 - 5
        (FIVE_B, {}, 1, 25, 26),
        # always: B collects its middle full house (3) too: 30 - 8
        (FIVE_B, {"royalty_mode": "always"}, 1, 22, 23),
        # royalties in place of row points: each won row's royalty is larger
        (FIVE_B, {"royalty_adds": False}, 0, 25, 25),
        # A scoops C: (3 rows) * 2 + 30
        (FIVE_C, {}, 3, 30, 36),
        # and the scoop's multiplier multiplies the royalties: 3 * 2 + 30 * 2
        (FIVE_C, {"scoop": {"multiply_royalties": True}}, 3, 30, 66),
        # always: 3 * 2 + (30 - 3)
        (FIVE_C, {"royalty_mode": "always"}, 3, 27, 33),
        (FIVE_C, {"royalty_mode": "always", "scoop": {"multiply_royalties": True}}, 3, 27, 60),
        # D's five of a kinds win the middle and bottom, each paying D: 1 - 2, 0 - 30
        (FIVE_D, {}, -1, -30, -31),
        # always: A collects its own 30 though it lost both rows, D its 30
        (FIVE_D, {"royalty_mode": "always"}, -1, 0, -1),
        # no royalties
        (FIVE_D, {"royalty_mode": "none"}, -1, 0, -1),
        (FIVE_B, {"royalty_mode": "none"}, 1, 0, 1),
    ],
)
def test_five_of_a_kind_pays_its_set_royalties_in_the_rows(
    a: str, b: str, knobs: dict[str, Any], rows: int, roy: int, points: int
) -> None:
    """With ``royalties.middle_five_of_a_kind = 20`` and
    ``royalties.bottom_five_of_a_kind = 10``, five of a kind (of copies, or
    with a joker) pays 20 in the middle and 10 at the bottom, in every step
    of the rows: ``royalty_mode`` "winner" and "always", ``royalty_adds``
    and ``scoop.multiply_royalties``; figures worked by hand from
    docs/rules.md, "Step 4: rows"."""
    if b == FIVE_D and a == FIVE_A_JOKERS:
        a = FIVE_A  # D holds both jokers
    pair, royalties = _five_pair(a, b, **knobs)
    assert (pair["row_points"], pair["royalties"], pair["points"]) == (rows, roy, points)
    if knobs.get("royalty_mode") != "none":
        assert royalties["a"] == {"top": 0, "middle": 20, "bottom": 10}
    if b == FIVE_D and knobs.get("royalty_mode") != "none":
        assert royalties["b"] == {"top": 0, "middle": 20, "bottom": 10}


@pytest.mark.parametrize("a", [FIVE_A, FIVE_A_JOKERS], ids=["copies", "jokers"])
@pytest.mark.parametrize(
    ("knobs", "points"),
    [
        # the sweep-all rate 3 * 1 * 4, plus A's royalties 20 + 10
        ({}, 42),
        ({"royalty_mode": "always"}, 42),
        # times the sweep-all multiplier 4 when it multiplies royalties
        ({"scoop": {"multiply_royalties": True}}, 12 + 4 * 30),
        # a fixed foul of 5 plus the royalties
        ({"foul": {"mode": "fixed", "points": 5}}, 35),
        # no royalties paid by the foul, or none at all
        ({"foul": {"pays_royalties": False}}, 12),
        ({"royalty_mode": "none"}, 12),
    ],
)
def test_a_foul_pays_the_set_royalties_of_five_of_a_kind(
    a: str, knobs: dict[str, Any], points: int
) -> None:
    """A fouled opponent pays, with ``foul.pays_royalties``, A's royalties
    for its three rows: five of a kind 20 in the middle and 10 at the
    bottom (docs/rules.md, "Step 3: fouls")."""
    pair, _ = _five_pair(a, FIVE_B_FOULED, **knobs)
    assert pair["outcome"] == "foul"
    assert pair["points"] == points


def test_five_of_a_kind_royalties_unset_pay_nothing() -> None:
    """Left out or written 0 the knobs pay nothing, and the rules read the
    same either way (the oracle's dict and the engine's ``to_dict()``); A
    against B is then rows 1, royalties 0 - 5."""
    unset, _ = _five_pair(FIVE_A, FIVE_B, royalties={})
    zero, royalties = _five_pair(
        FIVE_A, FIVE_B, royalties={"middle_five_of_a_kind": 0, "bottom_five_of_a_kind": 0}
    )
    assert unset == zero and zero["points"] == -4
    assert royalties["a"] == {"top": 0, "middle": 0, "bottom": 0}
    plain = capsa.Rules({"base": "capsa-susun"})
    written = capsa.Rules({"base": "capsa-susun", "royalties": dict.fromkeys(FIVES, 0)})
    assert written.to_dict() == plain.to_dict()
    assert o.load_rules(written.to_dict()) == o.load_rules({}) == o.default_rules()
    assert "middle_five_of_a_kind" not in o.load_rules(written.to_dict())["royalties"]


def test_the_oracle_reads_and_pays_the_five_of_a_kind_royalties() -> None:
    """The oracle's ``load_rules`` keeps set knobs (as the engine writes
    them), refuses a bool, a negative or a top row's knob naming the knob,
    and ``royalty`` pays five of a kind only, a joker playing its face; a
    top row with two jokers is trips."""
    rules, config = both_rules(FIVES_DECK, "capsa-susun", royalties=FIVES)
    assert rules.to_dict()["royalties"]["middle_five_of_a_kind"] == 20
    assert {k: config["royalties"][k] for k in FIVES} == FIVES
    assert o.load_rules({"royalties": {"bottom_five_of_a_kind": 30}})["royalties"] == {
        **o.default_rules()["royalties"],
        "bottom_five_of_a_kind": 30,
    }
    for bad, message in ((True, "expected an integer"), (-1, "out of range"), ("3", "integer")):
        with pytest.raises(ValueError, match=rf"^royalties\.middle_five_of_a_kind: .*{message}"):
            o.load_rules({"royalties": {"middle_five_of_a_kind": bad}})
        with pytest.raises(capsa.RulesError, match=r"royalties\.middle_five_of_a_kind"):
            capsa.Rules({"royalties": {"middle_five_of_a_kind": bad}})
    with pytest.raises(ValueError, match=r"^royalties\.top_five_of_a_kind: unknown key$"):
        o.load_rules({"royalties": {"top_five_of_a_kind": 1}})
    assert o.royalty("middle", cs("7d 7d' 7c 7h 7s"), config) == 20
    assert o.royalty("bottom", cs("7d 7d' 7c 7h 7s"), config) == 10
    assert o.royalty("middle", cs("7d 7c 7h BJ RJ"), config) == 20
    assert o.royalty("bottom", cs("7d 7d' 7c 7h BJ"), config) == 10
    # quads and a kicker pay the quads of capsa-susun
    assert o.royalty("middle", cs("7d 7d' 7c 7h 8s"), config) == 14
    assert o.royalty("top", cs("7d BJ RJ"), config) == 5
    # a ranked royalty table lists no five of a kind: the knob pays it
    ranked = o.load_rules(
        {"deck": FIVES_DECK, "royalties": {**FIVES, "middle_by_rank": {"quads": {"7": 50}}}}
    )
    assert o.royalty("middle", cs("7d 7d' 7c 7h 7s"), ranked) == 20
    assert o.royalty("middle", cs("7d 7d' 7c 7h 8s"), ranked) == 50


# ---------------------------------------------------------------- real players


def _weak_hands(deck: dict[str, Any], used: list[int], players: int) -> list[list[int]]:
    """Hands of ranks 2 to Q from what ``used`` leaves, no jokers."""
    pool = [c for c in deck_ids(deck) if c not in used and c < BLACK_JOKER and c % 52 // 4 < 11]
    random.Random(players).shuffle(pool)
    return [pool[13 * s : 13 * s + 13] for s in range(players)]


def test_sweep_all_counts_the_real_players() -> None:
    """At five seats with ``sweep_all.min_players = 5`` a seat that beats
    every other seat in every row sweeps all: the table has five players."""
    deck = {"decks": 2}
    strong = cs("Ad Ac Ah / Kd Kc Kh Ks Kd' / As Ad' Ac' Ah' As'")
    for players, swept in ((5, True), (4, False)):
        rules, config = both_rules(
            deck, "capsa-susun", naturals=NO_NATURALS, sweep_all={"min_players": 5}
        )
        hands = [strong] + [legal(h, rules) for h in _weak_hands(deck, strong, players - 1)]
        result = agreed(table(hands), rules, config)
        assert result["seats"][0]["swept_all"] is swept
        for pair in result["pairs"][: players - 1]:
            assert pair["scoop"] == 1 and pair["sweep_all"] is swept
            assert pair["multiplier"] == (4 if swept else 2)


def test_scoop_by_seats_counts_the_real_players() -> None:
    """With ``scoop.by_seats`` at six seats a scoop's multiplier is 6: seat
    0 scoops the four weak seats and loses its top to seat 5."""
    deck = {"decks": 2, "jokers": 1}
    strong = cs("Kd Kc Kh / Ks Kd' Kc' Kh' Ks' / As Ad' Ac' Ah' As'")
    fifth = cs("Ad Ac Ah / 2c' 3c' 4d' 5h' 6s' / 7h' 8h' 9h' Th' Jh'")
    rules, config = both_rules(deck, "capsa-susun", naturals=NO_NATURALS, scoop={"by_seats": True})
    weak = [legal(h, rules) for h in _weak_hands(deck, strong + fifth, 4)]
    result = agreed(table([strong, *weak, fifth]), rules, config)
    assert not result["seats"][0]["swept_all"]
    for pair in result["pairs"][:4]:
        assert pair["scoop"] == 1 and not pair["sweep_all"] and pair["multiplier"] == 6
    assert result["pairs"][4]["rows"] == {"top": -1, "middle": 1, "bottom": 1}


# ---------------------------------------------------------------- cards


def _refused_alike(
    deck: dict[str, Any], hands: list[list[int]], error: type[capsa.CapsaError]
) -> str:
    """Both refuse the table: the engine with ``error``; the oracle's message."""
    rules, config = both_rules(deck, "shisanshui", naturals=NO_NATURALS)
    with pytest.raises(error):
        capsa.settle(hands, rules)
    with pytest.raises(ValueError) as refused:
        o.settle([{"top": h[:3], "middle": h[3:8], "bottom": h[8:]} for h in hands], config)
    return str(refused.value)


@pytest.mark.parametrize(
    ("deck", "outside"),
    [
        ({"added_suits": "s"}, "Ah'"),  # a copy of a suit not added
        ({"added_suits": "sh"}, "2d'"),
        ({"added_suits": "s"}, "BJ"),  # a joker the deck lacks
        ({"added_suits": "s", "jokers": 1}, "RJ"),
        ({"decks": 2}, "BJ"),
        ({"jokers": 2}, "2s'"),
    ],
)
def test_a_card_outside_the_deck_is_refused(deck: dict[str, Any], outside: str) -> None:
    hands = [legal(h, both_rules(deck, naturals=NO_NATURALS)[0]) for h in _dealt(deck, 2)]
    hands[1][6] = card(outside)
    message = _refused_alike(deck, hands, capsa.CardError)
    assert message.startswith(f"seats[1].middle: card id {card(outside)} is not a card of the deck")


@pytest.mark.parametrize("deck", [{"added_suits": "s"}, {"decks": 2, "jokers": 2}])
@pytest.mark.parametrize(("seat", "place"), [(0, 12), (1, 0)])
def test_a_card_twice_is_refused_and_two_copies_are_not(
    deck: dict[str, Any], seat: int, place: int
) -> None:
    """The same id twice (within a seat or across seats) is refused; the
    two copies As and As' are two cards, and settle."""
    hands = _dealt(deck, 3)
    hands[seat][place] = hands[0][5]
    message = _refused_alike(deck, hands, capsa.HandError)
    assert "duplicate" in message or "dealt twice" in message
    a = card("As")
    copies = [[c for c in h if c not in (a, a + 52)] for h in _dealt(deck, 2)]
    copies = [[a, *copies[0][:12]], [a + 52, *copies[1][:12]]]
    rules, config = both_rules(deck, "shisanshui", naturals=NO_NATURALS)
    agreed(table([legal(h, rules) for h in copies]), rules, config)


@pytest.mark.parametrize("joker", [BLACK_JOKER, RED_JOKER])
def test_a_joker_twice_is_refused(joker: int) -> None:
    deck = {"decks": 2, "jokers": 2}
    hands = _dealt(deck, 2)
    for h in hands:
        if joker in h:
            h.remove(joker)
        h[:0] = [joker]
        del h[13:]
    _refused_alike(deck, hands, capsa.HandError)
