"""The presets of the houses (十三水, its horse-card and banker games, Taiwanese,
Thai, the Malayan bank, Mau Binh): each file is well formed and names its
sources, each loads, and a hand-worked table per house settles as that
house's rules say (docs/rules.md, "Presets")."""

from __future__ import annotations

import inspect
import re
import sys
from pathlib import Path
from typing import Any

import pytest

import capsa
import capsa.rules
from capsa.rules.loading import preset_text

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python 3.10 only
    import tomli as tomllib

HOUSES = [
    "shisanshui",
    "shisanshui-horse",
    "shisanshui-banker",
    "taiwanese",
    "thai",
    "malayan-bank",
]
RULES_MD = Path(__file__).resolve().parents[2] / "docs" / "rules.md"

# The knobs of the houses' rules (/docs/rules.md; the rule text of issue 41).
HOUSE_KNOBS = {
    "royalties.top_by_rank",
    "royalties.middle_by_rank",
    "royalties.bottom_by_rank",
    "scoop.by_seats",
    "sweep_all.natural_opponents",
    "horse.card",
    "horse.multiplier",
    "horse.naturals",
    "cap.pair",
    "cap.scoop",
    "cap.sweep_all",
    "cap.stage",
    "banker.enabled",
    "banker.wins_ties",
    "banker.max_multiplier",
}
ENTRY_FIELDS = {
    "name",
    "points",
    "lowest",
    "highest",
    "count",
    "exactly",
    "same_tier",
    "raised_points",
    "raised_by",
    "must_declare",
    "bonus",
}
KNOWN = {k.name for k in capsa.rules.KNOBS}
# Until the engine reads the houses' knobs these files cannot load; the
# checks of the text below run either way.
needs_knobs = pytest.mark.skipif(
    not HOUSE_KNOBS & KNOWN, reason="this capsa does not read the houses' knobs yet"
)
needs_naturals = pytest.mark.skipif(
    "two-full-houses" not in capsa.NATURAL_NAMES,
    reason="this capsa does not know two full houses yet",
)
needs_settle = pytest.mark.skipif(
    "banker" not in inspect.signature(capsa.settle).parameters,
    reason="this capsa does not settle banker games yet",
)


def _file(name: str) -> dict[str, Any]:
    return tomllib.loads(preset_text(name))


def _keys(table: dict[str, Any], prefix: str = "") -> set[str]:
    """The dotted knobs a rules file sets (a royalty row or by-rank table is
    one knob, not a table of knobs)."""
    out: set[str] = set()
    for key, value in table.items():
        dotted = prefix + key
        if isinstance(value, dict) and dotted not in KNOWN | HOUSE_KNOBS:
            out |= _keys(value, dotted + ".")
        else:
            out.add(dotted)
    return out


# ------------------------------------------------------------------ the files


@pytest.mark.parametrize("name", [*HOUSES, "mau-binh"])
def test_file_sets_every_knob_by_its_name(name: str) -> None:
    data = _file(name)
    assert data["name"] == name
    keys = _keys(data)
    assert keys <= KNOWN | HOUSE_KNOBS, keys - KNOWN - HOUSE_KNOBS
    # a preset is complete: every knob with a default (horse.card has none)
    # (a file written before the houses' knobs leaves them out at their defaults)
    # (and every file leaves the knobs of larger decks out: the deck's, five
    # of a kind's and two jokers' royalties, optional knobs that only larger
    # decks use)
    larger = {
        "royalties.middle_five_of_a_kind",
        "royalties.bottom_five_of_a_kind",
        "royalties.top_two_jokers",
    }
    deck = {k.name for k in capsa.rules.KNOBS if k.name.startswith("deck.")} | larger
    assert all(not k.required for k in capsa.rules.KNOBS if k.name in deck)
    expected = {k.name for k in capsa.rules.KNOBS if k.default is not None} - HOUSE_KNOBS - deck
    if name in HOUSES:
        expected |= HOUSE_KNOBS - {"horse.card"}
    assert expected <= keys, expected - keys
    for entry in data["naturals"]["enabled"]:
        assert set(entry) <= ENTRY_FIELDS, entry
        assert entry["name"] in (*capsa.NATURAL_NAMES, "two-full-houses"), entry


@pytest.mark.parametrize("name", [*HOUSES, "mau-binh"])
def test_file_names_its_sources(name: str) -> None:
    text = preset_text(name)
    head = text[: text.index(f'name = "{name}"')]
    assert "Sources:" in head and "Decided" in head
    assert re.search(r"https?://", head)


def test_docs_list_every_preset_and_its_sources() -> None:
    text = RULES_MD.read_text(encoding="utf-8")
    section = text[text.index("\n## Presets") : text.index("\n## Worked examples")]
    for name in capsa.presets():
        assert f"**{name}**" in section, name  # its sources
        assert re.search(rf"\| {re.escape(name)} \|", section), name  # its table rows


# ----------------------------------------------------------------- loading


@needs_knobs
@pytest.mark.parametrize("name", HOUSES)
def test_house_loads_and_round_trips(name: str) -> None:
    rules = capsa.Rules.preset(name)
    assert rules.name == name
    assert capsa.Rules.from_toml(rules.to_toml()) == rules
    assert capsa.Rules.from_dict(rules.to_dict()) == rules


@needs_knobs
def test_house_knob_values() -> None:
    get = capsa.Rules.preset
    assert get("shisanshui-horse")["horse.card"] == "Ah"
    assert get("shisanshui")["sweep_all.min_players"] == 3
    assert get("shisanshui-banker")["cap.pair"] == 8
    assert get("shisanshui-banker")["banker.max_multiplier"] == 5
    assert not get("shisanshui-banker")["banker.wins_ties"]
    assert get("malayan-bank")["banker.wins_ties"]
    assert get("thai")["scoop.by_seats"]
    assert get("thai")["royalties.top_by_rank"] == {"pair": {"A": 2}, "trips": {"A": 10}}
    assert get("thai")["naturals.enabled"][0]["bonus"]
    assert get("taiwanese")["sweep_all.bonus"] == 6


# ---------------------------------------------------------- hand-worked tables

# Three seats under 十三水. Seat 0: a pair of kings on top, queens full in the
# middle (葫芦, 2), four nines on the bottom (铁支, 4). Seat 1: jacks, tens and
# sixes, a 2-6 straight. Seat 2: ace high, jacks, kings and sevens.
# Seat 0 wins every row against both others; seat 1 wins every row against
# seat 2.
THREE = [
    "Ks Kh 2c / Qs Qh Qd 3s 3h / 9s 9h 9d 9c 4d",
    "Js Jh 5c / Ts Th 6c 6d 8c / 2s 3c 4c 5d 6s",
    "Ad 7c 8d / Jd Jc Tc 2d 4s / Kc Kd 7s 7d 5s",
]


@needs_knobs
def test_shisanshui_home_run() -> None:
    s = capsa.settle(THREE, capsa.Rules.preset("shisanshui"))
    # 0 v 1 and 0 v 2: top 1, middle 葫芦 2 and bottom 铁支 4 in place of
    # their 1; seat 0 shot both others at a table of three: 全垒打, x4 in all,
    # row scores included: (1 + 2 + 4) * 4 = 28 each.
    # 1 v 2: three rows of 1, 打枪 x2 = 6.
    assert s.points == [56, -28 + 6, -28 - 6]


@needs_knobs
@needs_naturals
def test_shisanshui_two_full_houses_natural() -> None:
    two = "4c 4d Ac / 7s 7h 7d Jc Jd / 9s 9h 9d Qc Qd"  # 双怪冲三
    plain = "2s 3s 5h / 6s 6h 8s 8h Tc / Ks Kh Kd 2h 2d"
    s = capsa.settle([two, plain], capsa.Rules.preset("shisanshui"))
    # two full houses, a pair and one card: 8 from the other seat, rows unseen
    assert s.points == [8, -8]


@needs_knobs
@needs_settle
def test_shisanshui_horse_card_doubles_the_holders_pairs() -> None:
    table = [*THREE[:2], THREE[2].replace("Ad", "Ah")]  # seat 2 holds the horse card
    s = capsa.settle(table, capsa.Rules.preset("shisanshui-horse"))
    # as test_shisanshui_home_run, and the pairs of seat 2 double:
    # 0 v 1 28; 0 v 2 28 * 2 = 56; 1 v 2 6 * 2 = 12
    assert s.points == [28 + 56, -28 + 12, -56 - 12]


@needs_knobs
@needs_settle
def test_shisanshui_horse_card_term_of_each_pair() -> None:
    table = [*THREE[:2], THREE[2].replace("Ad", "Ah")]
    s = capsa.settle(table, capsa.Rules.preset("shisanshui-horse"))
    # a pair carries its terms only when one is not neutral (horse 1)
    horse = {tuple(p["seats"]): p.get("horse", 1) for p in s.pairs}
    assert horse == {(0, 1): 1, (0, 2): 2, (1, 2): 2}


@needs_knobs
@needs_settle
def test_shisanshui_banker_cap_and_multipliers() -> None:
    table = [
        "Ks Kh Kd / Qs Qh Qd 3s 3h / 9s 9h 9d 9c 4d",  # trips on top: 冲三 3
        THREE[1],
        "Ad 7c 8d / Jd Jc Tc 2d 4s / Kc 8s 8h 7s 7d",  # the banker
    ]
    s = capsa.settle(
        table, capsa.Rules.preset("shisanshui-banker"), banker=2, multipliers=[2, 3, 1]
    )
    # 0 v banker: 冲三 3 + 葫芦 2 + 铁支 4, 打枪 +1 = 10, held to 8, x2 = 16.
    # 1 v banker: three rows of 1, 打枪 +1 = 4, x3 = 12.
    # 0 v 1: not played.
    assert s.points == [16, 12, -28]


@needs_knobs
@needs_settle
def test_shisanshui_banker_terms_of_each_pair() -> None:
    table = [
        "Ks Kh Kd / Qs Qh Qd 3s 3h / 9s 9h 9d 9c 4d",
        THREE[1],
        "Ad 7c 8d / Jd Jc Tc 2d 4s / Kc 8s 8h 7s 7d",
    ]
    rules = capsa.Rules.preset("shisanshui-banker")
    s = capsa.settle(table, rules, banker=2, multipliers=[2, 3, 1])
    pairs = {tuple(p["seats"]): p for p in s.pairs}
    assert pairs[(0, 1)]["outcome"] == "unplayed" and pairs[(0, 1)]["points"] == 0
    assert pairs[(0, 2)]["cap"] == 8 and pairs[(0, 2)]["seat_multiplier"] == 2
    assert pairs[(1, 2)]["cap"] == 0 and pairs[(1, 2)]["seat_multiplier"] == 3


@needs_knobs
def test_taiwanese_home_run_bonus() -> None:
    s = capsa.settle(THREE, capsa.Rules.preset("taiwanese"))
    # 0 v 1 and 0 v 2: rows 1 + row scores 2 + 4, +6 for the home run = 13.
    # 1 v 2: three rows of 1, +3 for the scoop = 6.
    assert s.points == [26, -13 + 6, -13 - 6]


@needs_knobs
@needs_settle
def test_thai_dragon_is_a_bonus_and_the_scoop_is_the_seat_count() -> None:
    table = [
        "2c 3d 5h / 4s 6d 7c 8s Jd / 9h Tc Qd Ks Ah",  # a dragon: 2 through A
        "Kh Kd 4c / Ts Td 9c 9d 3s / 6s 6h 6c 2d 2h",
        "Qs Qh 7h / 8h 8d 5c 5d 4d / Js Jh Jc 3h 3c",
    ]
    s = capsa.settle(table, capsa.Rules.preset("thai"))
    # No royalties on the table. Seats 1 and 2 each win all three rows from
    # seat 0: 3 rows x 3 players = 9 each; seat 0's dragon collects 40 from
    # each on top: 0 v 1 = -9 + 40 = 31, 0 v 2 = 31.
    # 1 v 2: seat 1 wins top and middle, seat 2 the bottom: 1.
    assert s.points == [62, -31 + 1, -31 - 1]


@needs_knobs
@needs_settle
def test_thai_ranked_royalties() -> None:
    table = [
        "As Ad Ac / 4h 5h 6s 7d 8c / Th Jh Qh 2h 9h",
        "Ks Kd Kc / 9c Tc Jd Qs Kh / 2d 4d 6d 8d Td",
    ]
    s = capsa.settle(table, capsa.Rules.preset("thai"))
    # Seat 0 wins top and bottom, seat 1 the middle: 1. Royalties, paid
    # whoever wins the row: three aces on top 10 against three kings 5.
    assert s.points == [1 + 10 - 5, -6]


# Two seats for the Malayan bank: equal tops (K-Q-3), the banker's eights
# full in the middle (葫芦, 2) and aces full on the bottom.
MALAYAN = [
    "Ks Qh 3c / 8s 8h 8d 2c 2d / Ah Ad Ac 4s 4h",
    "Kh Qs 3d / Ts Th 5c 5d 9s / Js Jh Jd 6c 6d",
]


@needs_knobs
@needs_settle
def test_malayan_bank_banker_wins_the_tie() -> None:
    rules = capsa.Rules.preset("malayan-bank")
    s = capsa.settle(MALAYAN, rules, banker=0, multipliers=[1, 5])
    # The tied top goes to the banker, who so wins all three rows: top 1,
    # middle 葫芦 2 in place of 1, bottom 1, +1 for the scoop = 5; the cap of
    # 8 does not bind; x5, the player's multiple, after the cap = 25.
    assert s.points == [25, -25]
    # with ties pushing: two rows and no scoop, 1 + 2 = 3, x5
    push = rules.derive({"banker.wins_ties": False})
    assert capsa.settle(MALAYAN, push, banker=0, multipliers=[1, 5]).points == [15, -15]


def test_mau_binh_scoop_and_foul() -> None:
    rules = capsa.Rules.preset("mau-binh")
    a = "Qs Qh 5c / 8s 8h 8d 2c 2d / Ks Kh Kd Kc 3s"
    b = "Js Jh 4c / Ts Th 6c 6d 9c / 5h 6h 7h 9h Ah"
    # Seat 0 wins every row: top 1, middle cù lũ 2 and bottom tứ quý 4 in
    # place of the row's chi; sập 3 chi doubles the whole: (1 + 2 + 4) x 2.
    assert capsa.settle([a, b], rules).points == [14, -14]
    fouled = b.replace("4c", "Jc")  # trips on top over two pair: binh lủng
    s = capsa.settle([a, fouled], rules)
    # binh lủng pays the fixed 6 chi, without the opponent's bonus chi
    assert s.points == [6, -6] and s.pairs[0]["outcome"] == "foul"
