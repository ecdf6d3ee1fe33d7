"""Rules: presets as data, validation, TOML round trips, and the oracle's reading."""

from __future__ import annotations

import enum
import os
import re
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import capsa
import capsa.rules
from capsa import RulesError, _core, oracle
from capsa.rules.loading import preset_text

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python 3.10 only
    import tomli as tomllib

# The first six presets, whose values the table below gives.
PRESETS = ["capsa-susun", "pagat", "2-4", "1-6", "mau-binh", "hawaiian-gardens"]
# tests/rules/test_presets_houses.py checks these
HOUSES = [
    "shisanshui",
    "shisanshui-horse",
    "shisanshui-banker",
    "taiwanese",
    "thai",
    "malayan-bank",
]


def test_presets_are_the_files_of_the_presets_folder() -> None:
    # the game core's folder, embedded by its build: a file added without a
    # rebuild, or a stale build, shows here
    folder = Path(capsa.__file__).parents[2] / "crates" / "capsa-core" / "presets"
    files = {p.stem: p.read_text(encoding="utf-8") for p in folder.glob("*.toml")}
    assert capsa.presets() == sorted(files)
    assert all(preset_text(name) == text for name, text in files.items())
    assert set(PRESETS + HOUSES) <= set(capsa.presets())
    with pytest.raises(RulesError, match="unknown preset 'no-such'; the presets are: 1-6, "):
        preset_text("no-such")


def test_default_is_capsa_susun() -> None:
    assert capsa.Rules() == capsa.Rules.preset("capsa-susun")
    assert capsa.Rules().name == "capsa-susun"


@pytest.mark.parametrize("name", capsa.presets())
def test_presets_round_trip(name: str) -> None:
    r = capsa.Rules.preset(name)
    assert capsa.Rules.from_toml(r.to_toml()) == r
    assert capsa.Rules.from_dict(r.to_dict()) == r
    assert hash(capsa.Rules.from_toml(r.to_toml())) == hash(r)


@pytest.mark.parametrize("name", capsa.presets())
def test_presets_read_the_same_by_oracle(name: str) -> None:
    text = preset_text(name)
    assert oracle.load_rules(text) == capsa.Rules.preset(name).to_dict()


# docs/rules.md, "Presets", knob by knob
TABLE: dict[str, dict[str, Any]] = {
    "tie_break": dict(zip(PRESETS, ["suit", "none", "none", "none", "none", "none"], strict=True)),
    "wheel": dict(zip(PRESETS, ["low", "low", "low", "low", "second", "low"], strict=True)),
    "overall_point": dict(zip(PRESETS, [0, 0, 1, 0, 0, 0], strict=True)),
    "scoop.multiplier": dict(zip(PRESETS, [2, 1, 1, 1, 2, 1], strict=True)),
    "scoop.bonus": dict(zip(PRESETS, [0, 0, 0, 3, 0, 3], strict=True)),
    "sweep_all.multiplier": dict(zip(PRESETS, [4, 1, 1, 1, 3, 1], strict=True)),
    "sweep_all.bonus": dict(zip(PRESETS, [0, 0, 0, 3, 0, 6], strict=True)),
    "sweep_all.min_players": dict(zip(PRESETS, [4, 4, 4, 4, 3, 3], strict=True)),
    "foul.mode": dict(
        zip(PRESETS, ["sweep-all", "scoop", "scoop", "scoop", "fixed", "scoop"], strict=True)
    ),
    "foul.points": dict(zip(PRESETS, [0, 0, 0, 0, 6, 0], strict=True)),
    "foul.pays_royalties": dict(zip(PRESETS, [True] * 4 + [False, True], strict=True)),
    "royalty_adds": dict(zip(PRESETS, [True] * 4 + [False, True], strict=True)),
    "scoop.multiply_royalties": dict(zip(PRESETS, [False] * 4 + [True, False], strict=True)),
    "surrender.enabled": dict(zip(PRESETS, [False, False, True, True, False, True], strict=True)),
    "naturals.resolve": dict(zip(PRESETS, ["higher-wins"] * 5 + ["difference"], strict=True)),
    "naturals.ties": dict(
        zip(PRESETS, ["push", "push", "compare", "compare", "compare", "push"], strict=True)
    ),
    "money.rake_basis_points": dict(zip(PRESETS, [300, 0, 0, 0, 0, 0], strict=True)),
    "money.rake_minimum_pot": dict.fromkeys(PRESETS, 0),
    "money.rake_cap_per_pot": dict.fromkeys(PRESETS, 0),
    "money.rake_cap_per_round": dict.fromkeys(PRESETS, 0),
}


def _with_knob(knob: str, value: Any) -> dict[str, Any]:
    """The default preset's full config with one dotted knob set to ``value``."""
    config = capsa.Rules().to_dict()
    *tables, leaf = knob.split(".")
    inner = config
    for table in tables:
        inner = inner.setdefault(table, {})
    inner[leaf] = value
    return config


def test_choices_are_the_engines() -> None:
    table = {k.name: k.choices for k in capsa.rules.KNOBS if k.type == "choice"}
    assert table == _core.RULE_CHOICES
    assert all(type(names) is tuple for names in _core.RULE_CHOICES.values())


@pytest.mark.parametrize("knob", sorted(_core.RULE_CHOICES))
def test_every_choice_name_is_read_by_both_layers(knob: str) -> None:
    names = _core.RULE_CHOICES[knob]
    for name in names:
        assert capsa.Rules(_with_knob(knob, name))[knob] == name
    options = re.escape(", ".join(names))
    with pytest.raises(
        capsa.RulesError, match=rf"rules: {re.escape(knob)} must be one of {options}, got \"bogus\""
    ):
        _core.RuleSet(_with_knob(knob, "bogus"))


@pytest.mark.parametrize("knob", sorted(TABLE))
def test_preset_values_match_the_rules_reference(knob: str) -> None:
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


# ---------------------------------------------------------------- hardening


def _nested_list(depth: int) -> list[Any]:
    outer: list[Any] = []
    cur = outer
    for _ in range(depth):
        inner: list[Any] = []
        cur.append(inner)
        cur = inner
    return outer


@pytest.mark.parametrize(
    "text",
    [
        "a = " + "[" * 100_000 + "]" * 100_000,
        "name = " + "[" * 100_000 + "]" * 100_000,
        "a = " + "{b = " * 5_000 + "1" + "}" * 5_000,
    ],
)
def test_deeply_nested_toml_is_a_rules_error(text: str) -> None:
    with pytest.raises(capsa.RulesError, match="nested too deeply"):
        capsa.Rules.from_toml(text)


@pytest.mark.parametrize(
    ("config", "needle"),
    [
        ({"name": _nested_list(100_000)}, "name"),
        ({"naturals": {"enabled": _nested_list(100_000)}}, r"naturals\.enabled\[0\]"),
        ({"royalties": {"top": _nested_list(100_000)}}, r"royalties\.top"),
        ({"wheel": _nested_list(100_000)}, "wheel"),
    ],
)
def test_deeply_nested_config_is_a_rules_error(config: dict[str, Any], needle: str) -> None:
    with pytest.raises(capsa.RulesError, match=needle):
        capsa.Rules(config)


def test_dotted_key_with_many_parts_is_refused_before_parsing() -> None:
    # tomllib takes minutes and gigabytes on a 100,000-part key.
    with pytest.raises(capsa.RulesError, match="100001 parts"):
        capsa.Rules.from_toml("a" + ".a" * 100_000 + " = 1")
    with pytest.raises(capsa.RulesError, match="9 parts"):
        capsa.Rules.from_toml("[" + ".".join("abcdefghi") + "]")
    # dots inside strings and comments are not key parts
    r = capsa.Rules.from_toml('name = "a.b.c.d.e.f.g.h.i.j"  # k.l.m.n.o.p.q.r.s\n')
    assert r.name == "a.b.c.d.e.f.g.h.i.j"


def test_long_integer_literal_is_a_rules_error() -> None:
    with pytest.raises(capsa.RulesError, match="integer literal too long"):
        capsa.Rules.from_toml("row_points = 1" + "0" * 5000)


@pytest.mark.parametrize(
    ("config", "needle"),
    [
        ({"row_points": 2**63}, "row_points"),
        ({"money": {"stake": 10**30}}, r"money\.stake"),
        ({"money": {"rake_percent": 10**5000}}, r"money\.rake_percent.*16610 bits"),
        ({"wheel": 10**5000}, "wheel"),
        ({"royalties": {"top": {"pair": 2**64}}}, r"royalties\.top\.pair"),
        ({"naturals": {"enabled": [{"name": "dragon", "points": 2**63}]}}, r"\[0\]\.points"),
    ],
)
def test_integers_past_64_bits_name_the_key(config: dict[str, Any], needle: str) -> None:
    with pytest.raises(capsa.RulesError, match=needle):
        capsa.Rules(config)


def test_largest_64_bit_integer_is_accepted() -> None:
    r = capsa.Rules({"money": {"stake": 2**63 - 1}})
    assert capsa.Rules.from_toml(r.to_toml()) == r


def test_non_utf8_rules_file_is_a_rules_error(tmp_path: Path) -> None:
    path = tmp_path / "latin1.toml"
    path.write_bytes('name = "café"\n'.encode("latin-1"))
    with pytest.raises(capsa.RulesError, match=r"latin1\.toml.*not UTF-8.*offset 11"):
        capsa.Rules.load(path)


@pytest.mark.parametrize("key", ["name", "description"])
def test_lone_surrogate_is_refused(key: str) -> None:
    with pytest.raises(capsa.RulesError, match=rf"{key} holds the lone surrogate '\\ud800'"):
        capsa.Rules({key: "ab\ud800"})
    with pytest.raises(capsa.RulesError, match=key):
        capsa.Rules.from_toml(f'{key} = "\ud800"')


@pytest.mark.parametrize(
    ("call", "needle"),
    [
        (lambda: capsa.Rules.from_toml(None), "str, not NoneType"),
        (lambda: capsa.Rules.from_toml(b"wheel = 'low'"), "str, not bytes; decode"),
        (lambda: capsa.Rules.load(None), "path.*not NoneType"),
        (lambda: capsa.Rules.load(3), "path.*not int"),
        (lambda: capsa.Rules.preset(123), "preset name is a str, not int"),
        (lambda: capsa.Rules.preset(None), "preset name is a str, not NoneType"),
        (lambda: capsa.Rules([("wheel", "low")]), "mapping.*not list"),
        (lambda: capsa.Rules.from_dict("wheel"), "mapping.*not str"),
        (lambda: capsa.Rules.from_dict(None), "mapping.*not NoneType"),
        (lambda: capsa.Rules().derive(["wheel"]), "mapping.*not list"),
        (lambda: capsa.Rules()[1], "knob name.*not int"),
        (lambda: capsa.Rules()[["wheel"]], "knob name.*not list"),
    ],
)
def test_wrong_argument_types_are_type_errors(call: Any, needle: str) -> None:
    with pytest.raises(TypeError, match=needle):
        call()


def test_unknown_knob_is_a_key_error() -> None:
    with pytest.raises(KeyError, match="'x'"):
        capsa.Rules()["x"]
    with pytest.raises(KeyError, match=r"name\.x"):
        capsa.Rules()["name.x"]


@pytest.mark.parametrize("base", [[1], {}, 3, None])
def test_base_must_be_a_preset_name(base: Any) -> None:
    with pytest.raises(capsa.RulesError, match="base must be a preset name"):
        capsa.Rules({"base": base})


def test_base_in_toml_must_be_a_preset_name() -> None:
    with pytest.raises(capsa.RulesError, match=r"base must be a preset name.*\[1\]"):
        capsa.Rules.from_toml("base = [1]")


def test_preset_name_that_is_no_file_name() -> None:
    for name in ["x" * 5000, "a\x00b", "\ud800", "../capsa-susun"]:
        with pytest.raises(capsa.RulesError, match="unknown preset"):
            capsa.Rules.preset(name)


@pytest.mark.parametrize(
    ("config", "needle"),
    [
        ({1: 2}, "keys are strings, got 1"),
        ({"scoop": {(1, 2): 2}}, r"scoop: keys are strings, got \(1, 2\)"),
        ({"royalties": {"top": {3: 1}}}, r"royalties\.top: 3 is not a category"),
    ],
)
def test_non_str_keys_are_rules_errors(config: dict[Any, Any], needle: str) -> None:
    with pytest.raises(capsa.RulesError, match=needle):
        capsa.Rules(config)


@pytest.mark.parametrize("char", ["\x00", "\x01", "\x1f", "\x7f", "\r", "\t", "\n", "\b", "\f"])
def test_to_toml_escapes_control_characters(char: str) -> None:
    r = capsa.Rules(name=f"a{char}b", description=f'"{char}\\')
    assert capsa.Rules.from_toml(r.to_toml()) == r


@pytest.mark.parametrize("text", ["\u2028", "\u0085", "\ufeff", "é", "\U0001f0a1", '"""', "'''"])
def test_to_toml_keeps_other_characters(text: str) -> None:
    r = capsa.Rules(name=text)
    assert capsa.Rules.from_toml(r.to_toml()).name == text


@pytest.mark.parametrize(
    ("key", "written"),
    [
        ("full-house", "full-house"),
        ("a_B-9", "a_B-9"),
        ("é", '"é"'),
        ("٣", '"٣"'),
        ("", '""'),
        ("a b", '"a b"'),
        ("a.b", '"a.b"'),
        ("a\x00", '"a\\u0000"'),
    ],
)
def test_toml_key_is_bare_only_for_bare_key_characters(key: str, written: str) -> None:
    from capsa.rules import _toml_key

    assert _toml_key(key) == written
    assert tomllib.loads(f"{written} = 1") == {key: 1}


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ('"scoop.multiplier" = 3', r"\[scoop\] then multiplier = \.\.\..*scoop\.multiplier = "),
        ("'wheel.x' = 1", "'wheel.x' has a dot in it"),
        ('[royalties]\n"top.pair" = 1', r"\[royalties\.top\] then pair"),
        ('[scoop]\n"multiplier." = 3', "'multiplier.' has a dot in it"),
        ('royalties = { "top.pair" = 1 }', "'top.pair' has a dot in it"),
    ],
)
def test_quoted_toml_key_with_a_dot_is_refused(text: str, needle: str) -> None:
    with pytest.raises(capsa.RulesError, match=needle):
        capsa.Rules.from_toml(text)


def test_dotted_keys_are_read_in_dicts_and_bare_in_toml() -> None:
    assert capsa.Rules({"scoop.multiplier": 3})["scoop.multiplier"] == 3
    assert capsa.Rules().derive({"scoop.multiplier": 3})["scoop.multiplier"] == 3
    assert capsa.Rules.from_toml("scoop.multiplier = 3")["scoop.multiplier"] == 3
    assert capsa.Rules.from_toml("royalties.top.pair = 1")["royalties.top"] == {"pair": 1}


@pytest.mark.parametrize(
    ("build", "needle"),
    [
        (lambda: capsa.Rules({"scoop.multiplier": 2, "scoop": {"multiplier": 3}}), "scoop.mult"),
        (lambda: capsa.Rules({"scoop.multiplier": 2, "scoop": {"multiplier": 2}}), "scoop.mult"),
        (lambda: capsa.Rules({"row_points": 2}, row_points=3), "row_points"),
        (lambda: capsa.Rules({"scoop": {"bonus": 1}}, scoop={"bonus": 1}), "scoop.bonus"),
        (lambda: capsa.Rules().derive({"wheel": "low"}, wheel="second"), "wheel"),
        (lambda: capsa.Rules().derive({"scoop.bonus": 1}, **{"scoop.bonus": 1}), "scoop.bonus"),
        (
            lambda: capsa.Rules({"royalties.top": {}, "royalties": {"top": {"pair": 1}}}),
            "royalties.top",
        ),
        (lambda: capsa.Rules({"base": "pagat"}, base="pagat"), "base"),
    ],
)
def test_knob_given_twice_is_refused(build: Any, needle: str) -> None:
    with pytest.raises(capsa.RulesError, match=rf"{re.escape(needle)}\S* is given twice"):
        build()


def test_config_and_keywords_set_different_knobs_of_one_table() -> None:
    r = capsa.Rules({"scoop": {"bonus": 1}}, scoop={"multiplier": 3})
    assert r["scoop.bonus"] == 1 and r["scoop.multiplier"] == 3


@pytest.mark.parametrize(
    ("config", "needle"),
    [
        ({"row_points": True}, "row_points must be an integer, got True"),
        ({"overall_point": -1}, "overall_point must be >= 0"),
        ({"foul": {"points": 1.5}}, r"foul\.points must be an integer"),
        ({"surrender": {"cost": "1"}}, r"surrender\.cost must be an integer"),
        ({"sweep_all": {"min_players": 10}}, r"sweep_all\.min_players must be in 2\.\.9"),
        ({"sweep_all": {"multiplier": 0}}, r"sweep_all\.multiplier must be >= 1"),
        ({"money": {"rake_percent": -1}}, r"money\.rake_percent must be in 0\.\.100"),
        ({"scoop": {"multiply_royalties": 1}}, r"scoop\.multiply_royalties must be true"),
        ({"foul": {"mode": ["scoop"]}}, r"foul\.mode must be one of"),
        ({"naturals": {"ties": None}}, r"naturals\.ties must be one of"),
        ({"naturals": {"enabled": "dragon"}}, r"naturals\.enabled must be a list.*'dragon'"),
        ({"naturals": {"enabled": [1]}}, r"naturals\.enabled\[0\] must be a table.*got 1"),
        (
            {"naturals": {"enabled": [{"name": "dragon", "points": True}]}},
            r"naturals\.enabled\[0\]\.points must be an integer, got True",
        ),
        (
            {"naturals": {"enabled": [{"name": "dragon", "points": -3}]}},
            r"naturals\.enabled\[0\]\.points must be >= 0",
        ),
        (
            {"naturals": {"enabled": [{"name": ["dragon"], "points": 1}]}},
            r"naturals\.enabled\[0\]\.name \['dragon'\] is not a natural",
        ),
        (
            {"naturals": {"enabled": [{"name": "dragon", "points": 1}] * 2}},
            r"naturals\.enabled\[1\]: natural 'dragon' is listed twice",
        ),
        ({"royalties": {"middle": {"quads": False}}}, r"royalties\.middle\.quads must be an int"),
        ({"royalties": {"bottom": {"quads": -1}}}, r"royalties\.bottom\.quads must be >= 0"),
        ({"royalties": {"bottom": 7}}, r"royalties\.bottom must be a table.*got 7"),
        ({"royalties": {"top": {"straight": 1}}}, r"royalties\.top: 'straight' is not a cat"),
        ({"suit_order": 1234}, "suit_order must name the suits.*got 1234"),
        ({"suit_order": "ſhcd"}, "suit_order must name the suits"),
        ({"suit_order": "shcdd"}, "suit_order must name the suits"),
        ({"name": b"house"}, "name must be a string, got b'house'"),
        ({"description": 3}, "description must be a string, got 3"),
    ],
)
def test_every_knob_checks_its_value(config: dict[str, Any], needle: str) -> None:
    with pytest.raises(capsa.RulesError, match=needle):
        capsa.Rules(config)


def test_values_are_stored_as_plain_types() -> None:
    class Points(enum.IntEnum):
        THREE = 3

    class Name(str):
        pass

    r = capsa.Rules({"name": Name("house"), "row_points": Points.THREE})
    assert type(r.to_dict()["name"]) is str and type(r.to_dict()["row_points"]) is int
    assert "row_points = 3\n" in r.to_toml()
    assert capsa.Rules.from_toml(r.to_toml()) == r


def test_rules_file_over_the_bound_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "huge.toml"
    path.write_bytes(b"# padding\n" * (capsa.rules.MAX_RULES_BYTES // 10 + 1))
    with pytest.raises(capsa.RulesError, match=r"huge\.toml.*larger than 1048576 bytes"):
        capsa.Rules.load(path)
    with pytest.raises(capsa.RulesError, match="characters of TOML is over the 1048576"):
        capsa.Rules.from_toml(path.read_text())


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="no /dev/zero")
def test_endless_rules_file_is_read_only_to_the_bound() -> None:
    with pytest.raises(capsa.RulesError, match=r"/dev/zero.*larger than"):
        capsa.Rules.load("/dev/zero")


def test_rules_file_that_cannot_be_read_names_path_and_reason(tmp_path: Path) -> None:
    with pytest.raises(capsa.RulesError, match=r"cannot read rules file .*missing\.toml.*No such"):
        capsa.Rules.load(tmp_path / "missing.toml")
    with pytest.raises(capsa.RulesError, match=r"cannot read rules file .*'.*directory"):
        capsa.Rules.load(tmp_path)
    with pytest.raises(capsa.RulesError, match=r"cannot read rules file 'a\\x00b'.*null"):
        capsa.Rules.load("a\x00b")
    with pytest.raises(capsa.RulesError, match=r"cannot read rules file '\\ud800'"):
        capsa.Rules.load("\ud800")


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0, reason="root reads any file")
def test_unreadable_rules_file_names_path_and_reason(tmp_path: Path) -> None:
    path = tmp_path / "secret.toml"
    path.write_text("wheel = 'low'\n")
    path.chmod(0)
    with pytest.raises(capsa.RulesError, match=r"secret\.toml.*Permission denied"):
        capsa.Rules.load(path)
