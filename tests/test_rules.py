"""Rules: presets as data, validation, TOML round trips, and the oracle's reading."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import capsa
from capsa import oracle

PRESETS = ["capsa-susun", "pagat", "2-4", "1-6", "mau-binh", "hawaiian-gardens"]


def test_presets_listed() -> None:
    assert sorted(capsa.presets()) == sorted(PRESETS)


def test_default_is_capsa_susun() -> None:
    assert capsa.Rules() == capsa.Rules.preset("capsa-susun")
    assert capsa.Rules().name == "capsa-susun"


@pytest.mark.parametrize("name", PRESETS)
def test_presets_round_trip(name: str) -> None:
    r = capsa.Rules.preset(name)
    assert capsa.Rules.from_toml(r.to_toml()) == r
    assert capsa.Rules.from_dict(r.to_dict()) == r
    assert hash(capsa.Rules.from_toml(r.to_toml())) == hash(r)


@pytest.mark.parametrize("name", PRESETS)
def test_presets_read_the_same_by_oracle(name: str) -> None:
    text = (Path(capsa.__file__).parent / "presets" / f"{name}.toml").read_text()
    assert oracle.load_rules(text) == capsa.Rules.preset(name).to_dict()


# RULES.md section 7, knob by knob
TABLE: dict[str, dict[str, Any]] = {
    "tie_break": dict(zip(PRESETS, ["suit", "none", "none", "none", "none", "none"], strict=True)),
    "wheel": dict(zip(PRESETS, ["low", "low", "low", "low", "second", "low"], strict=True)),
    "overall_point": dict(zip(PRESETS, [0, 0, 1, 0, 0, 0], strict=True)),
    "scoop.multiplier": dict(zip(PRESETS, [2, 1, 1, 1, 2, 1], strict=True)),
    "scoop.bonus": dict(zip(PRESETS, [0, 0, 0, 3, 0, 3], strict=True)),
    "sweep_all.multiplier": dict(zip(PRESETS, [4, 1, 1, 1, 3, 1], strict=True)),
    "sweep_all.bonus": dict(zip(PRESETS, [0, 0, 0, 3, 0, 6], strict=True)),
    "sweep_all.min_players": dict(zip(PRESETS, [4, 4, 4, 4, 3, 3], strict=True)),
    "foul.mode": dict(zip(PRESETS, ["sweep-all"] + ["scoop"] * 5, strict=True)),
    "surrender.enabled": dict(zip(PRESETS, [False, False, True, True, False, True], strict=True)),
    "naturals.resolve": dict(zip(PRESETS, ["higher-wins"] * 5 + ["difference"], strict=True)),
    "naturals.ties": dict(
        zip(PRESETS, ["push", "push", "compare", "compare", "compare", "push"], strict=True)
    ),
    "money.rake_percent": dict(zip(PRESETS, [3, 0, 0, 0, 0, 0], strict=True)),
}


@pytest.mark.parametrize("knob", sorted(TABLE))
def test_preset_values_match_contract(knob: str) -> None:
    for name, value in TABLE[knob].items():
        assert capsa.Rules.preset(name)[knob] == value, (name, knob)


def test_preset_points_tables() -> None:
    cs = capsa.Rules.preset("capsa-susun")
    assert cs["royalties.middle"] == {
        "full-house": 3,
        "quads": 14,
        "straight-flush": 18,
        "royal-flush": 22,
    }
    assert next(n["name"] for n in cs["naturals.enabled"]) == "dragon"
    assert cs["naturals.enabled"][0]["points"] == 208
    wiki = capsa.Rules.preset("2-4")["naturals.enabled"]
    assert [n["points"] for n in wiki] == [108, 36, 32, 24, 20, 12, 12, 10, 8, 6, 4, 3, 3]
    assert capsa.Rules.preset("mau-binh")["royalties.middle"]["quads"] == 8
    assert capsa.Rules.preset("hawaiian-gardens")["naturals.enabled"][2] == {
        "name": "full-colored",
        "points": 6,
    }


def test_derive_and_partial_files() -> None:
    base = capsa.Rules.preset("pagat")
    d = base.derive({"scoop.multiplier": 3}, wheel="second")
    assert d["scoop.multiplier"] == 3 and d.wheel == "second"
    assert d["sweep_all.multiplier"] == base["sweep_all.multiplier"]
    assert base["scoop.multiplier"] == 1  # unchanged
    partial = capsa.Rules.from_toml('base = "pagat"\nname = "house"\n[scoop]\nbonus = 2\n')
    assert partial.name == "house" and partial["scoop.bonus"] == 2
    assert partial["scoop.multiplier"] == 1
    nested = capsa.Rules({"royalties": {"top": {"pair": 1}}})
    assert nested["royalties.top"] == {"pair": 1}  # a row table replaces the row


def test_rules_are_immutable() -> None:
    r = capsa.Rules()
    with pytest.raises(AttributeError):
        r.wheel = "second"  # type: ignore[misc]
    d = r.to_dict()
    d["wheel"] = "second"
    assert r.wheel == "low"


def test_load_file(tmp_path: Path) -> None:
    path = tmp_path / "house.toml"
    path.write_text('base = "mau-binh"\nname = "house"\n[money]\nstake = 100\n')
    r = capsa.Rules.load(path)
    assert r["money.stake"] == 100 and r.wheel == "second"
    with pytest.raises(capsa.RulesError, match="cannot read"):
        capsa.Rules.load(tmp_path / "missing.toml")


@pytest.mark.parametrize(
    ("config", "needle"),
    [
        ({"wheel": "high"}, "wheel"),
        ({"scoop": {"multiplier": 0}}, "scoop.multiplier"),
        ({"scoop": {"multiplier": "2"}}, "scoop.multiplier"),
        ({"scoop": {"multiplier": True}}, "scoop.multiplier"),
        ({"scoop": {"colour": 1}}, "scoop.colour"),
        ({"color": 1}, "color"),
        ({"suit_order": "shc"}, "suit_order"),
        ({"royalty_adds": 1}, "royalty_adds"),
        ({"money": {"rake_percent": 101}}, "money.rake_percent"),
        ({"sweep_all": {"min_players": 1}}, "sweep_all.min_players"),
        ({"royalties": {"top": {"flush": 3}}}, "royalties.top"),
        ({"naturals": {"enabled": [{"name": "big-dragon", "points": 1}]}}, "naturals.enabled"),
        ({"naturals": {"enabled": [{"name": "dragon"}]}}, "naturals.enabled"),
        ({"scoop": 3}, "scoop"),
        ({"base": "no-such-preset"}, "no-such-preset"),
    ],
)
def test_bad_rules_name_the_key(config: dict[str, Any], needle: str) -> None:
    with pytest.raises(capsa.RulesError, match=needle.replace(".", r"\.")):
        capsa.Rules(config)
    if "base" not in config:
        with pytest.raises(ValueError, match=needle.replace(".", r"\.")):
            oracle.load_rules(config)


def test_malformed_toml() -> None:
    with pytest.raises(capsa.RulesError, match="malformed TOML"):
        capsa.Rules.from_toml("wheel = [")


def test_unknown_preset() -> None:
    with pytest.raises(capsa.RulesError, match="unknown preset 'texas'"):
        capsa.Rules.preset("texas")


def test_rules_type_checked_at_the_boundary() -> None:
    with pytest.raises(TypeError):
        capsa.evaluate("As Ks Qs", rules="pagat")  # type: ignore[arg-type]


KNOBS = st.fixed_dictionaries(
    {},
    optional={
        "tie_break": st.sampled_from(["none", "suit"]),
        "wheel": st.sampled_from(["low", "second"]),
        "row_points": st.integers(0, 5),
        "scoop": st.fixed_dictionaries(
            {}, optional={"multiplier": st.integers(1, 5), "bonus": st.integers(0, 6)}
        ),
        "royalties": st.fixed_dictionaries(
            {},
            optional={
                "top": st.dictionaries(st.sampled_from(["pair", "trips"]), st.integers(0, 9))
            },
        ),
        "money": st.fixed_dictionaries({}, optional={"stake": st.integers(0, 10**6)}),
    },
)


@given(base=st.sampled_from(PRESETS), knobs=KNOBS)
def test_partial_rules_read_alike(base: str, knobs: dict[str, Any]) -> None:
    engine = capsa.Rules({"base": base, **knobs})
    assert capsa.Rules.from_toml(engine.to_toml()) == engine
    full_base = capsa.Rules.preset(base).to_dict()
    merged = dict(full_base)
    for key, value in knobs.items():
        merged[key] = {**full_base[key], **value} if isinstance(value, dict) else value
    assert oracle.load_rules(merged) == engine.to_dict()
