"""The knobs of the house variants (ranked royalties, scoop by seats, natural
opponents of a sweep-all, the horse card, caps, banker games, the foul modes
"none" and "refuse", the fields of a natural's entry): each read from TOML
and from a dict, written back by ``to_dict`` and ``to_toml``, and each fault
a ``RulesError`` naming the key."""

from __future__ import annotations

import json
import pickle
from typing import Any

import pytest

import capsa
from capsa import Rules, RulesError, _core
from capsa.rules import KNOBS

# Each new knob, a value other than its default, and the TOML that sets it.
SET = [
    ("scoop.by_seats", True, "[scoop]\nby_seats = true"),
    ("sweep_all.natural_opponents", "exempt", '[sweep_all]\nnatural_opponents = "exempt"'),
    ("horse.card", "Ah", '[horse]\ncard = "Ah"'),
    ("horse.multiplier", 3, "[horse]\nmultiplier = 3"),
    ("horse.naturals", False, "[horse]\nnaturals = false"),
    ("cap.pair", 10, "[cap]\npair = 10"),
    ("cap.scoop", 20, "[cap]\nscoop = 20"),
    ("cap.sweep_all", 40, "[cap]\nsweep_all = 40"),
    ("cap.stage", "final", '[cap]\nstage = "final"'),
    ("banker.enabled", True, "[banker]\nenabled = true"),
    ("banker.wins_ties", True, "[banker]\nwins_ties = true"),
    ("banker.max_multiplier", 5, "[banker]\nmax_multiplier = 5"),
    ("foul.mode", "none", '[foul]\nmode = "none"'),
    ("foul.mode", "refuse", '[foul]\nmode = "refuse"'),
    (
        "royalties.top_by_rank",
        {"pair": {"6": 1, "T": 5, "A": 9}, "trips": {"A": 10}},
        "[royalties]\ntop_by_rank = { pair = { 6 = 1, T = 5, A = 9 }, trips = { A = 10 } }",
    ),
    (
        "royalties.middle_by_rank",
        {"quads": {"A": 14}},
        "[royalties]\nmiddle_by_rank = { quads = { A = 14 } }",
    ),
    (
        "royalties.bottom_by_rank",
        {"straight": {"5": 2}},
        "[royalties]\nbottom_by_rank = { straight = { 5 = 2 } }",
    ),
]
NEW_KNOBS = sorted({name for name, _, _ in SET} - {"foul.mode"})


def _nested(dotted: str, value: Any) -> dict[str, Any]:
    *tables, leaf = dotted.split(".")
    out: dict[str, Any] = {leaf: value}
    for table in reversed(tables):
        out = {table: out}
    return out


def test_the_new_knobs_are_in_the_table_and_need_not_be_given() -> None:
    by_name = {k.name: k for k in KNOBS}
    for name in NEW_KNOBS:
        assert not by_name[name].required, name
    assert by_name["horse.card"].type == "card"
    assert by_name["royalties.top_by_rank"].type == "royalties-by-rank"
    assert by_name["royalties.top_by_rank"].choices == ("high-card", "pair", "trips")
    assert by_name["banker.max_multiplier"].low == 1
    assert by_name["banker.max_multiplier"].high == 100
    assert {"none", "refuse"} <= set(by_name["foul.mode"].choices)


def test_rules_without_the_new_knobs_read_as_their_defaults() -> None:
    rules = Rules()
    assert rules["scoop.by_seats"] is False
    assert rules["sweep_all.natural_opponents"] == "block"
    assert rules["horse"] == {"multiplier": 2, "naturals": True}
    assert rules["cap"] == {"pair": 0, "scoop": 0, "sweep_all": 0, "stage": "pair"}
    assert rules["banker"] == {"enabled": False, "wins_ties": False, "max_multiplier": 1}
    assert rules["royalties.top_by_rank"] == {}
    with pytest.raises(KeyError):
        rules["horse.card"]  # optional, and left out
    # data written before the knobs existed reads as the defaults, in full
    old = rules.to_dict()
    assert "cap" not in old and "horse" not in old and "banker" not in old
    assert Rules.from_dict(old, full=True) == rules
    # and an engine reading it settles as the defaults do
    _core.RuleSet(old)


# The presets written before the new knobs.
OLDER_PRESETS = ["capsa-susun", "pagat", "2-4", "1-6", "mau-binh", "hawaiian-gardens"]


@pytest.mark.parametrize("name", OLDER_PRESETS)
def test_a_preset_is_written_as_before_the_new_knobs(name: str) -> None:
    data = Rules.preset(name).to_dict()
    for knob in NEW_KNOBS:
        table = knob.split(".")[0]
        assert table not in ("horse", "cap", "banker") or table not in data
    assert "by_seats" not in data["scoop"]
    assert "natural_opponents" not in data["sweep_all"]
    assert not any(k.endswith("_by_rank") for k in data["royalties"])
    text = Rules.preset(name).to_toml()
    assert "[cap]" not in text and "[horse]" not in text and "[banker]" not in text


@pytest.mark.parametrize(("name", "value", "toml"), SET, ids=[f"{n}={v}" for n, v, _ in SET])
def test_each_new_knob_reads_from_toml_and_dict_and_round_trips(
    name: str, value: Any, toml: str
) -> None:
    from_toml = Rules.from_toml(toml)
    from_dict = Rules(_nested(name, value))
    dotted = Rules({name: value})
    derived = Rules().derive({name: value})
    assert from_toml == from_dict == dotted == derived
    assert from_toml[name] == value
    assert from_toml != Rules()
    data = from_toml.to_dict()
    assert json.loads(json.dumps(data)) == data
    assert Rules.from_dict(data, full=True) == from_toml
    assert Rules.from_toml(from_toml.to_toml()) == from_toml
    assert pickle.loads(pickle.dumps(from_toml)) == from_toml
    # the engine compiles what to_dict writes
    _core.RuleSet(data)


def test_a_knob_set_to_its_default_is_the_rules_without_it() -> None:
    same = Rules({"cap": {"pair": 0, "stage": "pair"}, "horse": {"multiplier": 2}})
    assert same == Rules()
    assert same.to_dict() == Rules().to_dict()
    assert hash(same) == hash(Rules())


@pytest.mark.parametrize(
    ("text", "card"),
    [("Ah", "Ah"), ("ah", "Ah"), ("10h", "Th"), ("tH", "Th"), ("5♥", "5h"), ("A♠", "As")],
)
def test_the_horse_card_is_read_as_card_text(text: str, card: str) -> None:
    assert Rules({"horse": {"card": text}})["horse.card"] == card


def test_ranked_royalties_read_rank_letters_either_case_and_ten() -> None:
    rules = Rules({"royalties": {"top_by_rank": {"pair": {"a": 9, "10": 5}, "trips": {}}}})
    assert rules["royalties.top_by_rank"] == {"pair": {"T": 5, "A": 9}}
    # the ranks and categories are written in order, whatever order given
    rules = Rules({"royalties": {"middle_by_rank": {"quads": {"A": 1, "2": 2}, "pair": {"K": 3}}}})
    assert json.dumps(rules["royalties.middle_by_rank"]) == json.dumps(
        {"pair": {"K": 3}, "quads": {"2": 2, "A": 1}}
    )


FAULTS = [
    ({"scoop": {"by_seats": 1}}, "scoop.by_seats must be true or false"),
    ({"sweep_all": {"natural_opponents": "skip"}}, "sweep_all.natural_opponents must be one of"),
    ({"horse": {"card": "Ahh"}}, "horse.card must be one card"),
    ({"horse": {"card": 51}}, "horse.card must be one card"),
    ({"horse": {"card": "Ah Kh"}}, "horse.card must be one card"),
    ({"horse": {"multiplier": 0}}, "horse.multiplier must be >= 1, got 0"),
    ({"horse": {"naturals": "yes"}}, "horse.naturals must be true or false"),
    ({"horse": {"colour": "red"}}, "unknown key 'horse.colour'"),
    ({"cap": {"pair": -1}}, "cap.pair must be >= 0, got -1"),
    ({"cap": {"scoop": True}}, "cap.scoop must be an integer"),
    ({"cap": {"sweep_all": -5}}, "cap.sweep_all must be >= 0, got -5"),
    ({"cap": {"stage": "row"}}, "cap.stage must be one of 'pair', 'final'"),
    ({"banker": {"enabled": None}}, "banker.enabled must be true or false"),
    ({"banker": {"wins_ties": 0}}, "banker.wins_ties must be true or false"),
    ({"banker": {"max_multiplier": 101}}, "banker.max_multiplier must be in 1..100, got 101"),
    ({"banker": {"max_multiplier": 0}}, "banker.max_multiplier must be in 1..100, got 0"),
    ({"foul": {"mode": "nothing"}}, "foul.mode must be one of"),
    (
        {"royalties": {"top_by_rank": {"quads": {"A": 1}}}},
        "royalties.top_by_rank: 'quads' is not a category of that row",
    ),
    (
        {"royalties": {"middle_by_rank": {"pair": {"1": 1}}}},
        "royalties.middle_by_rank.pair key must be a rank letter",
    ),
    (
        {"royalties": {"middle_by_rank": {"pair": {"A": -1}}}},
        "royalties.middle_by_rank.pair.A must be >= 0, got -1",
    ),
    (
        {"royalties": {"bottom_by_rank": {"pair": {"10": 1, "T": 2}}}},
        "royalties.bottom_by_rank.pair.T is given twice",
    ),
    (
        {"royalties": {"bottom_by_rank": {"pair": 3}}},
        "royalties.bottom_by_rank.pair must be a table of rank = points",
    ),
    ({"royalties": {"bottom_by_rank": []}}, "royalties.bottom_by_rank must be a table"),
]


@pytest.mark.parametrize(("config", "message"), FAULTS, ids=[m for _, m in FAULTS])
def test_each_fault_of_a_new_knob_is_a_rules_error_naming_it(
    config: dict[str, Any], message: str
) -> None:
    with pytest.raises(RulesError, match=f"^rules: {_escape(message)}"):
        Rules(config)


def _escape(text: str) -> str:
    import re

    return re.escape(text)


def _naturals(*entries: dict[str, Any]) -> dict[str, Any]:
    return {"naturals": {"enabled": list(entries)}}


def test_a_naturals_entry_carries_its_optional_fields() -> None:
    rules = Rules(
        _naturals(
            {"name": "dragon", "points": 36, "must_declare": True},
            {"name": "twelve-royals", "points": 24, "count": 13, "same_tier": True},
            {"name": "all-high", "points": 10, "lowest": "10"},
            {"name": "all-low", "points": 10, "highest": "7", "same_tier": True},
            {"name": "twelve-same-color", "points": 8, "exactly": True},
            {
                "name": "three-flushes",
                "points": 3,
                "raised_points": 6,
                "raised_by": "straight-flush",
            },
            {
                "name": "six-pairs",
                "points": 3,
                "raised_points": 5,
                "raised_by": "quads",
                "bonus": True,
            },
        )
    )
    entries = rules["naturals.enabled"]
    assert entries[0] == {"name": "dragon", "points": 36, "must_declare": True}
    assert entries[2] == {"name": "all-high", "points": 10, "lowest": "T"}
    assert entries[5]["raised_by"] == "straight-flush"
    assert Rules.from_toml(rules.to_toml()) == rules
    assert Rules.from_dict(rules.to_dict(), full=True) == rules
    _core.RuleSet(rules.to_dict())
    # a field at its default is the entry without it
    plain = Rules(_naturals({"name": "all-high", "points": 10, "lowest": "8", "bonus": False}))
    assert plain["naturals.enabled"] == [{"name": "all-high", "points": 10}]


ENTRY_FAULTS = [
    (
        [{"name": "dragon", "points": 1, "lowest": "9"}],
        "naturals.enabled[0].lowest: only all-high takes lowest, not dragon",
    ),
    (
        [{"name": "dragon", "points": 1, "highest": "9"}],
        "naturals.enabled[0].highest: only all-low takes highest, not dragon",
    ),
    (
        [{"name": "dragon", "points": 1}, {"name": "six-pairs", "points": 1, "count": 13}],
        "naturals.enabled[1].count: only twelve-royals takes count, not six-pairs",
    ),
    (
        [{"name": "all-low", "points": 1, "exactly": True}],
        "naturals.enabled[0].exactly: only twelve-same-color takes exactly, not all-low",
    ),
    (
        [{"name": "dragon", "points": 1, "same_tier": True}],
        "naturals.enabled[0].same_tier: the first entry has no entry before it",
    ),
    (
        [{"name": "dragon", "points": 1, "raised_points": 3}],
        "naturals.enabled[0].raised_points is given without raised_by",
    ),
    (
        [{"name": "dragon", "points": 1, "raised_by": "quads"}],
        "naturals.enabled[0].raised_by is given without raised_points",
    ),
    (
        [{"name": "six-pairs", "points": 1, "raised_points": 3, "raised_by": "straight-flush"}],
        'naturals.enabled[0].raised_by: "straight-flush" raises only three-straights',
    ),
    (
        [{"name": "six-pairs", "points": 1, "raised_points": 3, "raised_by": "trips"}],
        "naturals.enabled[0].raised_by must be one of 'quads', 'straight-flush'",
    ),
    (
        [{"name": "six-pairs", "points": 1, "raised_points": -3, "raised_by": "quads"}],
        "naturals.enabled[0].raised_points must be >= 0, got -3",
    ),
    (
        [{"name": "twelve-royals", "points": 1, "count": 11}],
        "naturals.enabled[0].count must be in 12..13, got 11",
    ),
    (
        [{"name": "all-high", "points": 1, "lowest": 8}],
        "naturals.enabled[0].lowest must be a rank letter",
    ),
    (
        [{"name": "dragon", "points": 1, "bonus": "yes"}],
        "naturals.enabled[0].bonus must be true or false",
    ),
    (
        [{"name": "dragon", "points": 1, "must_declare": 1}],
        "naturals.enabled[0].must_declare must be true or false",
    ),
    (
        [{"name": "dragon", "points": 1, "colour": "red"}],
        "naturals.enabled[0] (dragon): 'colour' is not a field of an entry",
    ),
]


@pytest.mark.parametrize(("entries", "message"), ENTRY_FAULTS, ids=[m for _, m in ENTRY_FAULTS])
def test_each_fault_of_an_entry_names_the_entry_and_the_field(
    entries: list[dict[str, Any]], message: str
) -> None:
    with pytest.raises(RulesError, match=f"^rules: {_escape(message)}"):
        Rules(_naturals(*entries))


def test_the_engine_refuses_what_the_rules_layer_refuses() -> None:
    # a rules dict handed to the engine directly is checked there too
    data = Rules().to_dict()
    data["naturals"]["enabled"] = [{"name": "dragon", "points": 1, "lowest": "9"}]
    with pytest.raises(RulesError, match=r"naturals\.enabled\[0\]\.lowest"):
        _core.RuleSet(data)
    data["naturals"]["enabled"] = [{"name": "dragon", "points": 1, "raised_points": 2}]
    with pytest.raises(RulesError, match=r"raised_points is given without raised_by"):
        _core.RuleSet(data)
    data = Rules().to_dict()
    data["horse"] = {"card": "Zz"}
    with pytest.raises(RulesError, match=r"horse\.card"):
        _core.RuleSet(data)


@pytest.mark.parametrize("field", ["lowest", "count", "exactly"])
def test_a_field_of_another_natural_is_refused_even_at_its_default(field: str) -> None:
    # one rule, the engine's, whichever way the rules come
    default = {"lowest": "8", "count": 12, "exactly": False}[field]
    entries = [{"name": "dragon", "points": 1, field: default}]
    message = rf"^rules: naturals\.enabled\[0\]\.{field}: only [a-z-]+ takes {field}, not dragon$"
    with pytest.raises(RulesError, match=message):
        Rules(_naturals(*entries))
    data = Rules().to_dict()
    data["naturals"]["enabled"] = entries
    with pytest.raises(RulesError, match=message):
        _core.RuleSet(data)
    with pytest.raises(RulesError, match=message):
        Rules.from_dict(data, full=True)


def test_a_preset_without_tables_of_its_own_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    from capsa import solver

    monkeypatch.setattr(solver, "presets", lambda: [*capsa.presets(), "house"])
    with pytest.raises(RulesError, match="preset 'house' ships no tables of its own"):
        solver.load_tables("house")
    assert solver.load_tables("pagat") is not None
