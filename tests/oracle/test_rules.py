"""The oracle alone on ranked royalties, scoop by seats, exempt sweeps, the
horse card, caps, banker games, bonus, tiered, must-declare, raised and
parameterised naturals, two-full-houses and the foul modes none and refuse:
a small table per rule, its points worked out by hand from docs/rules.md in
a comment.

The oracle is loaded by file path, as in ``tests/oracle/test_self.py``, so
these tests need no compiled engine.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

ORACLE_PATH = Path(__file__).resolve().parents[2] / "python" / "capsa" / "oracle.py"


def _load_oracle() -> ModuleType:
    name = "capsa_oracle_standalone"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, ORACLE_PATH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


o = _load_oracle()


def cs(text: str) -> list[int]:
    """Card ids from text such as "As Kh Td"."""
    return [4 * "23456789TJQKA".index(t[0]) + "dchs".index(t[1]) for t in text.split()]


def seat(rows: str, **flags: Any) -> dict[str, Any]:
    top, middle, bottom = (cs(part) for part in rows.split("/"))
    return {"top": top, "middle": middle, "bottom": bottom, **flags}


# A plain base: one point a row, no overall point, no royalties, no
# naturals, a scoop doubles, no sweep-all (it needs 5 players), a foul pays
# 3 * 1 * 4 = 12, no suit tie-break, no rake.
PLAIN: dict[str, Any] = {
    "tie_break": "none",
    "royalties": {"top": {}, "middle": {}, "bottom": {}},
    "naturals": {"enabled": []},
    "sweep_all": {"min_players": 5},
    "money": {"rake_basis_points": 0},
}


def rules(**changes: Any) -> dict[str, Any]:
    """PLAIN with tables changed key by key."""
    data: dict[str, Any] = {k: (dict(v) if isinstance(v, dict) else v) for k, v in PLAIN.items()}
    for key, value in changes.items():
        data[key] = {**data.get(key, {}), **value} if isinstance(value, dict) else value
    result: dict[str, Any] = o.load_rules(data)
    return result


# A: top pair of aces, middle four kings, bottom Q-high straight flush.
A = "As Ad 2c / Ks Kh Kd Kc 3c / Qs Js Ts 9s 8s"
# B: top 7-5-3, middle nines and sixes, bottom tens full of eights.
B = "7c 5d 3h / 9h 9d 6c 6d 4s / Th Td Tc 8h 8d"
# C: top 6-4-2, middle jacks and fives, bottom queens full of sevens.
C = "6h 4h 2d / Jh Jd 5c 5h 3d / Qh Qd Qc 7h 7d"
# C with its middle and bottom swapped: a full house over two pair, a foul.
C_FOUL = "6h 4h 2d / Qh Qd Qc 7h 7d / Jh Jd 5c 5h 3d"
# D: six pairs (queens, jacks, sevens, fives, fours, deuces) and the 9c,
# arranged: top pair of queens, middle fives and fours, bottom jacks and sevens.
D = "Qh Qd 9c / 5c 5h 4h 4d 2h / Jh Jd 7h 7d 2d"
# E: the 13 cards A, B and C leave; its top 7-5-3 ties B's top (no suit
# tie-break) and it loses its middle (J-high) and bottom (aces) to B.
E = "7s 5s 3s / Jc 9c 4c 2s 6s / Ah Ac 8c 4d 2h"
# T: three flushes (clubs, diamonds, spades), no straight flush.
T = "7c 6c 3c / Ad Kd Td 9d 8d / As Ks Qs Js 8s"
# T2: three flushes with a straight flush (T-high in spades) in the bottom.
T2 = "7c 6c 3c / Ad Kd Td 9d 8d / Ts 9s 8s 7s 6s"
# Q: six pairs holding four deuces (and fours, fives, sevens, jacks).
Q = "2d 2h 2s / 2c 4h 4d 5c 5h / 7h 7d Jh Jd 9c"
# H: two full houses (queens and sevens), pairs of fives, fours and deuces, the 9c.
H = "Qh Qd Qc / 7h 7d 7s 5c 5h / 4h 4d 2d 2h 9c"


def settle(rows: list[str], config: dict[str, Any], **keywords: Any) -> dict[str, Any]:
    flags = keywords.pop("flags", [{}] * len(rows))
    seats = [seat(r, **f) for r, f in zip(rows, flags, strict=True)]
    result: dict[str, Any] = o.settle(seats, config, **keywords)
    return result


def pair(result: dict[str, Any], i: int, j: int) -> dict[str, Any]:
    found: dict[str, Any] = next(p for p in result["pairs"] if p["seats"] == [i, j])
    return found


def test_plain_table_as_today() -> None:
    # A wins every row against B and against C: a scoop, (3 * 1) * 2 = 6
    # each. B-C: B's 7-high top beats C's 6-high; C's jacks-up middle and
    # queens-full bottom beat B's: C wins 2 rows, B collects 1 - 2 = -1.
    # A +12, B -6 - 1 = -7, C -6 + 1 = -5. Every term at its neutral value.
    result = settle([A, B, C], rules())
    assert result["points"] == [12, -7, -5]
    for p in result["pairs"]:
        assert (p["natural_bonus"], p["cap"], p["horse"], p["seat_multiplier"]) == (0, 0, 1, 1)
        assert p["base"] == p["points"]


# ---------------------------------------------------------------- ranked royalties


def test_ranked_royalties() -> None:
    # top: pair 1, but a pair of aces 9; middle: quads 14, but four kings
    # 20 (four aces 99, not held); bottom: straight flush 9, none by rank.
    # A's royalties against anyone: top aces 9 (ranked), middle kings 20
    # (ranked), bottom Q-high straight flush 9 (by category) = 38. A scoops
    # B: 3 * 2 + 38 (royalties not multiplied) = 44; C likewise 44. B-C:
    # the rows B and C win hold no royalty: -1. A 88, B -45, C -43.
    config = rules(
        royalties={
            "top": {"pair": 1},
            "top_by_rank": {"pair": {"A": 9}},
            "middle": {"quads": 14},
            "middle_by_rank": {"quads": {"k": 20, "A": 99}},
            "bottom": {"straight-flush": 9},
        }
    )
    assert config["royalties"]["middle_by_rank"] == {"quads": {"K": 20, "A": 99}}
    result = settle([A, B, C], config)
    assert pair(result, 0, 1)["royalties"] == 38
    assert result["points"] == [88, -45, -43]
    assert result["seats"][0]["royalties"] == {"top": 9, "middle": 20, "bottom": 9}
    # a pair of queens is not listed by rank: the category's 1
    assert o.royalty("top", cs("Qh Qd 9c"), config) == 1


def test_ranked_royalties_pay_a_foul_and_the_always_mode() -> None:
    # Mode "always": each collects its own rows' royalties whoever wins
    # them. Top pair royalty 1, but a pair of queens (the key rank of
    # D's top) 5 and a pair of tens (written "10") 4. A (top aces: 1) scoops
    # D (top queens: 5): 3 * 2 + (1 - 5) = 2.
    config = rules(
        royalty_mode="always",
        royalties={"top": {"pair": 1}, "top_by_rank": {"pair": {"Q": 5, "10": 4}}},
    )
    assert config["royalties"]["top_by_rank"] == {"pair": {"Q": 5, "T": 4}}
    assert settle([A, D], config)["points"] == [2, -2]
    # A foul pays the other's royalties, ranked ones too: with a pair of
    # aces worth 7, C_FOUL pays A 3 * 1 * 4 = 12 plus A's top royalty 7 = 19.
    config = rules(royalties={"top": {"pair": 1}, "top_by_rank": {"pair": {"A": 7}}})
    assert settle([A, C_FOUL], config)["points"] == [19, -19]


def test_key_rank() -> None:
    # The first card in significance order: the quads', trips', the higher
    # pair's rank; the top of a straight (A-2-3-4-5: the 5 under wheel low,
    # the ace under "second"); the highest card of a flush.
    low, second = rules(), rules(wheel="second")
    assert o.key_rank(cs("Ah 2d 3c 4s 5h"), low) == 5
    assert o.key_rank(cs("Ah 2d 3c 4s 5h"), second) == 14
    assert o.key_rank(cs("9h 9d 6c 6d Ks"), low) == 9
    assert o.key_rank(cs("4h 4d 4c Kd Ks"), low) == 4
    assert o.key_rank(cs("2h 7h 9h Jh 3h"), low) == 11
    assert o.key_rank(cs("Ts Js Qs Ks As"), low) == 14
    assert o.key_rank(cs("5h 5d Ac"), low) == 5


# ---------------------------------------------------------------- scoop by seats


def test_scoop_by_seats() -> None:
    # scoop.by_seats: a scoop multiplies by P = 3, not scoop.multiplier 2.
    # A-B 3 * 3 = 9, A-C 9, B-C -1 (no scoop). A 18, B -10, C -8.
    config = rules(scoop={"by_seats": True, "multiplier": 2})
    assert settle([A, B, C], config)["points"] == [18, -10, -8]
    # two players: 3 * 2 = 6
    assert settle([A, B], config)["points"] == [6, -6]
    # foul.mode scoop: C_FOUL pays each (3 * 1 + 0) * P + 0 = 9; A-B 9.
    # A 18, B -9 + 9 = 0, C -18.
    config = rules(scoop={"by_seats": True}, foul={"mode": "scoop"})
    result = settle([A, B, C_FOUL], config)
    assert result["points"] == [18, 0, -18]
    assert pair(result, 1, 2)["multiplier"] == 3


# ---------------------------------------------------------------- sweep-all, natural opponents


def test_sweep_all_natural_opponents() -> None:
    # Three players (min_players 3, sweep-all x4), six pairs pays 3. D
    # declares six pairs and collects 3 from A and from B.
    # block: D's natural prevents A's sweep; A scoops B: 6. A 6 - 3 = 3,
    # B -6 - 3 = -9, D 6.
    # exempt: D is left out; A beat B, the one opponent left: a sweep-all,
    # 3 * 4 = 12. A 12 - 3 = 9, B -15, D 6.
    naturals = {"enabled": [{"name": "six-pairs", "points": 3}]}
    block = rules(naturals=naturals, sweep_all={"min_players": 3})
    result = settle([A, B, D], block)
    assert result["points"] == [3, -9, 6]
    assert not result["seats"][0]["swept_all"]
    exempt = rules(naturals=naturals, sweep_all={"min_players": 3, "natural_opponents": "exempt"})
    result = settle([A, B, D], exempt)
    assert result["points"] == [9, -15, 6]
    assert result["seats"][0]["swept_all"] and pair(result, 0, 1)["sweep_all"]
    # with every opponent a natural, no opponent is left: no sweep
    two = rules(naturals=naturals, sweep_all={"min_players": 2, "natural_opponents": "exempt"})
    assert not settle([A, D], two)["seats"][0]["swept_all"]


# ---------------------------------------------------------------- horse card


def test_horse_card() -> None:
    # The horse card Ks is A's: A-B and A-C (exactly one of the two holds
    # it) are doubled, 6 * 2 = 12 each; B-C (neither) stays -1.
    # A 24, B -13, C -11.
    result = settle([A, B, C], rules(horse={"card": "Ks"}))
    assert result["points"] == [24, -13, -11]
    assert [p["horse"] for p in result["pairs"]] == [2, 2, 1]
    assert pair(result, 0, 1)["base"] == 6


def test_horse_card_and_naturals() -> None:
    # D's six pairs (3) against A, who holds the horse card (written
    # "ks"), multiplier 3: -3 * 3 = -9 for A; with horse.naturals false the
    # natural pair is not multiplied: -3.
    naturals = {"enabled": [{"name": "six-pairs", "points": 3}]}
    on = rules(naturals=naturals, horse={"card": "ks", "multiplier": 3})
    assert on["horse"]["card"] == "Ks"
    assert settle([A, D], on)["points"] == [-9, 9]
    off = rules(naturals=naturals, horse={"card": "Ks", "multiplier": 3, "naturals": False})
    result = settle([A, D], off)
    assert result["points"] == [-3, 3]
    assert pair(result, 0, 1)["horse"] == 1
    # D declining plays its rows: A scoops, 6 * 3 = 18 (not a natural pair)
    assert settle([A, D], off, flags=[{}, {"declare_natural": False}])["points"] == [18, -18]


# ---------------------------------------------------------------- caps


def test_caps_and_their_fallbacks() -> None:
    # cap.pair 4: A's scoops of 6 are clamped to 4 (cap 4 reported); B-C,
    # -1, is not bound (cap 0). A 8, B -4 - 1 = -5, C -4 + 1 = -3.
    result = settle([A, B, C], rules(cap={"pair": 4}))
    assert result["points"] == [8, -5, -3]
    assert [p["cap"] for p in result["pairs"]] == [4, 4, 0]
    # a scoop takes cap.scoop 5 when it is set: 5 each; A 10, B -6, C -4
    assert settle([A, B, C], rules(cap={"pair": 4, "scoop": 5}))["points"] == [10, -6, -4]
    # A sweeps all at three players (sweep-all x4): 12 from each. cap.sweep_all
    # 0 falls back to cap.scoop 5; set, it is 10.
    sweep = {"min_players": 3}
    result = settle([A, B, C], rules(sweep_all=sweep, cap={"pair": 4, "scoop": 5}))
    assert result["points"][0] == 10
    result = settle([A, B, C], rules(sweep_all=sweep, cap={"pair": 4, "scoop": 5, "sweep_all": 10}))
    assert result["points"][0] == 20
    # a foul pair under foul.mode sweep-all reports a sweep-all: C_FOUL pays
    # 12 to A, capped by cap.sweep_all 7 (cap.pair 4 does not apply)
    result = settle([A, C_FOUL], rules(cap={"pair": 4, "sweep_all": 7}))
    assert result["points"] == [7, -7]


def test_cap_stage() -> None:
    # cap.pair 10 and the horse card Ks (A's), x2. Stage pair: the base 6 is
    # clamped first (not bound) then doubled: 12, cap 0. Stage final: 6 * 2 =
    # 12 then clamped: 10, cap 10.
    horse = {"card": "Ks"}
    result = settle([A, B], rules(horse=horse, cap={"pair": 10}))
    assert result["points"] == [12, -12] and pair(result, 0, 1)["cap"] == 0
    result = settle([A, B], rules(horse=horse, cap={"pair": 10, "stage": "final"}))
    assert result["points"] == [10, -10] and pair(result, 0, 1)["cap"] == 10


# ---------------------------------------------------------------- banker games


def test_banker_game_with_multipliers() -> None:
    # B (seat 1) banks; A plays at x3, C at x2. A-B: A scoops the banker,
    # 6 * 3 = 18. B-C: -1 from B's view, times C's 2 = -2. A-C: unplayed, 0.
    # A 18, B -18 - 2 = -20, C 2.
    config = rules(banker={"enabled": True, "max_multiplier": 3})
    result = settle([A, B, C], config, banker=1, multipliers=[3, 1, 2])
    assert result["points"] == [18, -20, 2]
    assert pair(result, 0, 2)["outcome"] == "unplayed" and pair(result, 0, 2)["points"] == 0
    assert [p["seat_multiplier"] for p in result["pairs"]] == [3, 1, 2]
    # no multipliers: all 1. A 6, B -6 - 1 = -7, C 1.
    assert settle([A, B, C], config, banker=1)["points"] == [6, -7, 1]


def test_only_the_banker_sweeps_all() -> None:
    # Three players, sweep-all x4. A banks and beats B and C in every row:
    # a sweep-all, 12 from each, times each player's multiplier (2 for B).
    # A 24 + 12 = 36. With B banking, A beats the banker only: a scoop, 6.
    config = rules(banker={"enabled": True, "max_multiplier": 2}, sweep_all={"min_players": 3})
    result = settle([A, B, C], config, banker=0, multipliers=[1, 2, 1])
    assert result["points"] == [36, -24, -12]
    assert result["seats"][0]["swept_all"]
    result = settle([A, B, C], config, banker=1)
    assert pair(result, 0, 1)["points"] == 6 and not result["seats"][0]["swept_all"]


def test_banker_wins_ties() -> None:
    # B and E tie their tops (7-5-3, no suit tie-break); B wins the middle
    # and the bottom. B banks: without wins_ties B wins 2 rows, 2; with it
    # the tied top is B's too: a scoop, 3 * 2 = 6. With E banking the tie is
    # E's: E wins one row, B two, B collects 1.
    plain = rules(banker={"enabled": True})
    ties = rules(banker={"enabled": True, "wins_ties": True})
    assert settle([B, E], plain, banker=0)["points"] == [2, -2]
    result = settle([B, E], ties, banker=0)
    assert result["points"] == [6, -6]
    assert pair(result, 0, 1)["rows"] == {"top": 1, "middle": 1, "bottom": 1}
    assert settle([B, E], ties, banker=1)["points"] == [1, -1]


@pytest.mark.parametrize(
    ("config", "keywords", "needle"),
    [
        ({}, {"banker": 0}, "do not play a banker game"),
        ({"banker": {"enabled": True}}, {}, "no banker seat"),
        ({"banker": {"enabled": True}}, {"banker": 2}, "not one of the 2 seats"),
        (
            {"banker": {"enabled": True, "max_multiplier": 3}},
            {"banker": 0, "multipliers": [2, 1]},
            "banker's",
        ),
        (
            {"banker": {"enabled": True, "max_multiplier": 3}},
            {"banker": 0, "multipliers": [1, 4]},
            "1..3",
        ),
        ({}, {"multipliers": [1, 2]}, "outside a banker game"),
        ({}, {"multipliers": [1]}, "one integer per seat"),
    ],
)
def test_banker_inputs_are_checked(
    config: dict[str, Any], keywords: dict[str, Any], needle: str
) -> None:
    with pytest.raises(ValueError, match=needle):
        settle([A, B], rules(**config), **keywords)


# ---------------------------------------------------------------- naturals


SIX_PAIRS_BONUS = {"enabled": [{"name": "six-pairs", "points": 3, "bonus": True}]}


def test_bonus_natural() -> None:
    # D's six pairs are a bonus natural (3): D plays its rows and collects 3
    # on top. A scoops D: base 6, natural_bonus -3, A collects 3.
    result = settle([A, D], rules(naturals=SIX_PAIRS_BONUS))
    assert result["points"] == [3, -3]
    assert (pair(result, 0, 1)["outcome"], pair(result, 0, 1)["base"]) == ("rows", 6)
    assert pair(result, 0, 1)["natural_bonus"] == -3
    # three seats: B-D on rows: D's queens take the top, B's two pair and
    # full house the middle and bottom: B +1, then -3: -2. A-B 6.
    # A 6 + 3 = 9, B -6 - 2 = -8, D -3 + 2 = -1.
    assert settle([A, B, D], rules(naturals=SIX_PAIRS_BONUS))["points"] == [9, -8, -1]


def test_bonus_natural_does_not_block_a_sweep() -> None:
    # Three players, sweep-all x4: A beats B and D in every row and D's bonus
    # natural is no declared natural: A sweeps all, 12 from B and 12 - 3 = 9
    # from D. A 21, B -12 - 2 = -14 (B-D as above), D -9 + 2 = -7.
    config = rules(naturals=SIX_PAIRS_BONUS, sweep_all={"min_players": 3})
    result = settle([A, B, D], config)
    assert result["seats"][0]["swept_all"]
    assert result["points"] == [21, -14, -7]


def test_tiers() -> None:
    # three-flushes 5 then six-pairs 4. T (three flushes) against D (six
    # pairs): higher-wins, T collects 5; difference, 5 - 4 = 1. With
    # six-pairs in the tier of three-flushes (same_tier), they push: 0.
    entries = [{"name": "three-flushes", "points": 5}, {"name": "six-pairs", "points": 4}]
    assert settle([T, D], rules(naturals={"enabled": entries}))["points"] == [5, -5]
    difference = {"enabled": entries, "resolve": "difference"}
    assert settle([T, D], rules(naturals=difference))["points"] == [1, -1]
    tiered = [entries[0], {**entries[1], "same_tier": True}]
    result = settle([T, D], rules(naturals={"enabled": tiered}))
    assert result["points"] == [0, 0] and pair(result, 0, 1)["outcome"] == "natural"
    # a dragon entry before them changes nothing: the two still share a tier
    with_dragon = [{"name": "dragon", "points": 20}, *tiered]
    assert settle([T, D], rules(naturals={"enabled": with_dragon}))["points"] == [0, 0]


def test_must_declare() -> None:
    # D asks not to declare; six pairs must be declared: D collects 3 from
    # A. Without must_declare D plays its rows and A scoops it: 6.
    flags = [{}, {"declare_natural": False}]
    must = {"enabled": [{"name": "six-pairs", "points": 3, "must_declare": True}]}
    assert settle([A, D], rules(naturals=must), flags=flags)["points"] == [-3, 3]
    free = {"enabled": [{"name": "six-pairs", "points": 3}]}
    assert settle([A, D], rules(naturals=free), flags=flags)["points"] == [6, -6]


def test_raised_points() -> None:
    # six pairs 3, raised to 10 by quads: Q holds four deuces, collects 10
    # from B; D has no quads, 3 from A.
    raised = {
        "enabled": [{"name": "six-pairs", "points": 3, "raised_points": 10, "raised_by": "quads"}]
    }
    result = settle([Q, B], rules(naturals=raised))
    assert result["points"] == [10, -10]
    assert result["seats"][0]["natural_points"] == 10
    assert settle([A, D], rules(naturals=raised))["points"] == [-3, 3]
    # three flushes 5, raised to 15 by a straight flush row: T2's bottom is
    # one, T's is not. Against D's six pairs (4), difference: 15 - 4 = 11
    # and 5 - 4 = 1.
    flushes = {
        "resolve": "difference",
        "enabled": [
            {
                "name": "three-flushes",
                "points": 5,
                "raised_points": 15,
                "raised_by": "straight-flush",
            },
            {"name": "six-pairs", "points": 4},
        ],
    }
    assert settle([T2, D], rules(naturals=flushes))["points"] == [11, -11]
    assert settle([T, D], rules(naturals=flushes))["points"] == [1, -1]


def test_two_full_houses() -> None:
    # H's rank counts are 3, 3, 2, 2, 2, 1: two full houses. Enabled at 6,
    # H collects 6 from B; it is not six pairs (5 pairs) nor five pairs
    # and trips (two odd counts).
    hand = [c for part in H.split("/") for c in cs(part)]
    assert "two-full-houses" in o.naturals(hand)
    assert not {"six-pairs", "five-pairs-trips"} & o.naturals(hand)
    config = rules(naturals={"enabled": [{"name": "two-full-houses", "points": 6}]})
    assert settle([H, B], config)["points"] == [6, -6]
    assert o.NATURAL_NAMES.index("two-full-houses") == 15


@pytest.mark.parametrize(
    ("entry", "hand", "qualifies"),
    [
        ({"name": "all-high"}, "Th Td Tc Jh Jd Jc Qh Qd Qc Kh Kd Kc Ah", True),
        ({"name": "all-high", "lowest": "10"}, "Th Td Tc Jh Jd Jc Qh Qd Qc Kh Kd Kc Ah", True),
        ({"name": "all-high", "lowest": "J"}, "Th Td Tc Jh Jd Jc Qh Qd Qc Kh Kd Kc Ah", False),
        ({"name": "all-low", "highest": "6"}, "2d 2c 2h 3d 3c 3h 4d 4c 4h 5d 5c 5h 6d", True),
        ({"name": "all-low", "highest": "5"}, "2d 2c 2h 3d 3c 3h 4d 4c 4h 5d 5c 5h 6d", False),
        ({"name": "twelve-royals", "count": 13}, "Jh Jd Jc Js Qh Qd Qc Qs Kh Kd Kc Ks Ah", True),
        ({"name": "twelve-royals", "count": 13}, "Jh Jd Jc Js Qh Qd Qc Qs Kh Kd Kc Ks Th", False),
        ({"name": "twelve-royals"}, "Jh Jd Jc Js Qh Qd Qc Qs Kh Kd Kc Ks Th", True),
        (
            {"name": "twelve-same-color", "exactly": True},
            "2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kd As",
            True,
        ),
        (
            {"name": "twelve-same-color", "exactly": True},
            "2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kd Ad",
            False,
        ),
        ({"name": "twelve-same-color"}, "2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kd Ad", True),
    ],
)
def test_parameterised_definitions(entry: dict[str, Any], hand: str, qualifies: bool) -> None:
    config = rules(naturals={"enabled": [{**entry, "points": 1}]})
    assert (o.natural(cs(hand), config) == entry["name"]) is qualifies


# ---------------------------------------------------------------- fouls


def test_foul_mode_none() -> None:
    # No foul: C_FOUL's rows are compared as they stand. A beats it in
    # every row (6); against B, C_FOUL's full-house middle beats B's two
    # pair, B's top and full-house bottom beat C_FOUL's: B +1. A-B 6.
    # A 12, B -6 + 1 = -5, C -7; C reports no foul.
    result = settle([A, B, C_FOUL], rules(foul={"mode": "none"}))
    assert result["points"] == [12, -5, -7]
    assert not result["seats"][2]["foul"]
    # as today (sweep-all mode): C pays 3 * 1 * 4 = 12 to each: A 18, B 6, C -24
    result = settle([A, B, C_FOUL], rules())
    assert result["points"] == [18, 6, -24] and result["seats"][2]["foul"]


def test_foul_mode_refuse() -> None:
    config = rules(foul={"mode": "refuse"}, surrender={"enabled": True, "cost": 2})
    with pytest.raises(ValueError, match="seat 2's arrangement fouls and the rules refuse"):
        settle([A, B, C_FOUL], config)
    # a surrendered seat's arrangement is not refused: it pays 2 to each
    flags = [{}, {}, {"surrender": True}]
    assert settle([A, B, C_FOUL], config, flags=flags)["points"] == [8, -4, -4]


# ---------------------------------------------------------------- reading the knobs


@pytest.mark.parametrize(
    ("config", "needle"),
    [
        (
            {"naturals": {"enabled": [{"name": "dragon", "points": 1, "lowest": "9"}]}},
            r"\(dragon\)\.lowest",
        ),
        (
            {"naturals": {"enabled": [{"name": "dragon", "points": 1, "same_tier": True}]}},
            "first entry",
        ),
        (
            {"naturals": {"enabled": [{"name": "dragon", "points": 1, "raised_points": 3}]}},
            "both or neither",
        ),
        (
            {
                "naturals": {
                    "enabled": [
                        {
                            "name": "six-pairs",
                            "points": 1,
                            "raised_points": 3,
                            "raised_by": "straight-flush",
                        }
                    ]
                }
            },
            "three-straights and three-flushes only",
        ),
        ({"naturals": {"enabled": [{"name": "twelve-royals", "points": 1, "count": 11}]}}, "count"),
        ({"naturals": {"enabled": [{"name": "all-low", "points": 1, "highest": "1"}]}}, "highest"),
        ({"naturals": {"enabled": [{"name": "dragon", "points": 1, "colour": 1}]}}, "unknown key"),
        ({"royalties": {"top_by_rank": {"flush": {"A": 1}}}}, r"royalties\.top_by_rank\.flush"),
        ({"royalties": {"middle_by_rank": {"quads": {"Z": 1}}}}, "rank letter"),
        ({"royalties": {"middle_by_rank": {"quads": {"T": 1, "10": 2}}}}, "given twice"),
        ({"royalties": {"bottom_by_rank": {"quads": {"A": -1}}}}, "out of range"),
        ({"horse": {"card": "Ax"}}, r"horse\.card"),
        ({"horse": {"multiplier": 0}}, r"horse\.multiplier"),
        ({"cap": {"pair": -1}}, r"cap\.pair"),
        ({"cap": {"stage": "round"}}, r"cap\.stage"),
        ({"banker": {"max_multiplier": 101}}, r"banker\.max_multiplier"),
        ({"foul": {"mode": "forgive"}}, r"foul\.mode"),
        ({"sweep_all": {"natural_opponents": "ignore"}}, r"sweep_all\.natural_opponents"),
        ({"scoop": {"by_seats": 1}}, r"scoop\.by_seats"),
    ],
)
def test_bad_new_knobs_name_the_key(config: dict[str, Any], needle: str) -> None:
    with pytest.raises(ValueError, match=needle):
        o.load_rules(config)


def test_new_knobs_read_from_toml() -> None:
    text = """
[royalties]
top = { pair = 0, trips = 5 }
top_by_rank = { pair = { 6 = 1, T = 5, 10 = 5, A = 9 }, trips = { A = 10 } }

[horse]
card = "10h"

[cap]
pair = 30
stage = "final"

[[naturals.enabled]]
name = "all-high"
points = 12
lowest = "t"
must_declare = true

[[naturals.enabled]]
name = "two-full-houses"
points = 6
same_tier = true
bonus = true
"""
    with pytest.raises(ValueError, match="given twice"):
        o.load_rules(text)
    config = o.load_rules(text.replace("10 = 5, ", ""))
    assert config["royalties"]["top_by_rank"] == {
        "pair": {"6": 1, "T": 5, "A": 9},
        "trips": {"A": 10},
    }
    assert config["horse"] == {"card": "Th"}
    assert config["cap"] == {"pair": 30, "stage": "final"}
    assert config["naturals"]["enabled"] == [
        {"name": "all-high", "points": 12, "lowest": "T", "must_declare": True},
        {"name": "two-full-houses", "points": 6, "same_tier": True, "bonus": True},
    ]
    assert o.load_rules(config) == config
