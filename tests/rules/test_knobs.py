"""The knob table: its defaults are the capsa-susun preset, every preset
reads through it, one fault gives one message through every channel, and
the documents written from it are current."""

from __future__ import annotations

import json
import re
import sys
from typing import Any

import pytest

import capsa
from capsa import _core
from capsa.conformance.serve import CapsaEngine
from capsa.rules import INT_MAX, KNOB_NAMES, KNOBS, reference
from capsa.rules.loading import preset_text
from capsa.rules.writer import dump_toml
from capsa.strategies import KNOB_VALUES, RANKING_KNOBS

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python 3.10 only
    import tomli as tomllib


def _leaves(data: dict[str, Any]) -> dict[str, Any]:
    """A rules dict's knobs by dotted name."""
    return {name: capsa.Rules.from_dict(data)[name] for name in KNOB_NAMES if _has(data, name)}


def _has(data: dict[str, Any], dotted: str) -> bool:
    cur: Any = data
    for part in dotted.split("."):
        if not isinstance(cur, dict) or part not in cur:
            return False
        cur = cur[part]
    return True


def _nested(knob: str, value: Any) -> dict[str, Any]:
    *tables, leaf = knob.split(".")
    config: dict[str, Any] = {leaf: value}
    for table in reversed(tables):
        config = {table: config}
    return config


def test_the_table_is_the_engines_and_the_packages() -> None:
    assert KNOBS is _core.KNOBS
    assert tuple(k.name for k in KNOBS) == KNOB_NAMES
    assert len(set(KNOB_NAMES)) == len(KNOB_NAMES)
    assert all(k.doc and k.type for k in KNOBS)
    assert {k.name: k.choices for k in KNOBS if k.type == "choice"} == _core.RULE_CHOICES


def test_the_defaults_are_the_capsa_susun_preset_file() -> None:
    text = preset_text("capsa-susun")
    data = tomllib.loads(text)
    file_knobs = {name: _get(data, name) for name in KNOB_NAMES if _has(data, name)}
    defaults = {k.name: k.default for k in KNOBS if k.required}
    assert defaults == file_knobs
    assert [k.name for k in KNOBS if k.default is None] == ["description", "horse.card"]
    # a knob rules data may leave out is one with no default or one added
    # after rules data was first written, whose default plays as before
    assert all(not k.required for k in KNOBS if k.default is None)


def _get(data: dict[str, Any], dotted: str) -> Any:
    for part in dotted.split("."):
        data = data[part]
    return data


def test_a_default_is_a_new_copy() -> None:
    row = next(k for k in KNOBS if k.name == "royalties.top")
    row.default["pair"] = 1
    assert row.default == {"trips": 5}


def test_the_engines_default_rules_are_the_table() -> None:
    # rules=None compiles nothing: it is the engine's Rules::default(), built
    # from the table; the preset file compiled must act the same.
    preset = capsa.Rules()
    compiled = _core.RuleSet(preset.to_dict())
    hand = "As Ks Qs Js Ts 9s 8s 7s 6s 5s 4s 3s 2s"
    assert _core.natural(hand, None) == _core.natural(hand, compiled) == "dragon"


@pytest.mark.parametrize("name", capsa.presets())
def test_every_preset_reads_through_the_table(name: str) -> None:
    rules = capsa.Rules.preset(name)
    data = tomllib.loads(preset_text(name))
    for knob in KNOBS:
        if _has(data, knob.name):
            assert rules[knob.name] == _get(data, knob.name), knob.name
        else:
            assert not knob.required, f"{name} lacks {knob.name}"
            if knob.default is not None:
                assert rules[knob.name] == knob.default, knob.name


def test_the_fuzzed_knobs_come_from_the_table() -> None:
    assert RANKING_KNOBS == ("tie_break", "suit_order", "flush_compare", "wheel")
    assert list(KNOB_VALUES) == [k for k in KNOB_NAMES if k in KNOB_VALUES]
    for knob in KNOBS:
        if not knob.required:
            # the knobs rules data may leave out stay at their defaults
            assert knob.name not in KNOB_VALUES
            continue
        if knob.type == "choice":
            assert set(KNOB_VALUES[knob.name]) <= set(knob.choices)
            assert KNOB_VALUES[knob.name] == knob.choices or knob.name == "foul.mode"
        if knob.type == "bool":
            assert set(KNOB_VALUES[knob.name]) == {True, False}
        if knob.type == "int":
            assert all(knob.low <= v <= (knob.high or INT_MAX) for v in KNOB_VALUES[knob.name])


# A bad value of each type, and the message every channel gives for it.
BAD = [
    ("scoop.multiplier", 0, "rules: scoop.multiplier must be >= 1, got 0"),
    (
        "money.rake_basis_points",
        10_001,
        "rules: money.rake_basis_points must be in 0..10000, got 10001",
    ),
    # the older spelling of the rate, read as basis points
    ("money.rake_percent", 101, "rules: money.rake_percent must be in 0..100, got 101"),
    ("row_points", True, "rules: row_points must be an integer, got True"),
    ("wheel", "high", "rules: wheel must be one of 'low', 'second', got 'high'"),
    ("surrender.enabled", "yes", "rules: surrender.enabled must be true or false, got 'yes'"),
    ("royalties.top", {"quads": 1}, "rules: royalties.top: 'quads' is not a category"),
    ("suit_order", "shcx", "rules: suit_order must name the suits s, h, c, d once each"),
]


def _toml_value(value: Any) -> str:
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{k} = {v}" for k, v in value.items()) + " }"
    if isinstance(value, bool):
        return "true" if value else "false"
    return json.dumps(value)


@pytest.mark.parametrize(("knob", "value", "message"), BAD, ids=[b[0] for b in BAD])
def test_one_fault_gives_one_message_through_every_channel(
    knob: str, value: Any, message: str
) -> None:
    messages: dict[str, str] = {}

    def caught(channel: str, build: Any) -> None:
        with pytest.raises(capsa.RulesError) as info:
            build()
        messages[channel] = str(info.value)

    *tables, leaf = knob.split(".")
    toml = (f"[{'.'.join(tables)}]\n" if tables else "") + f"{leaf} = {_toml_value(value)}\n"
    caught("toml", lambda: capsa.Rules.from_toml(toml))
    caught("nested dict", lambda: capsa.Rules(_nested(knob, value)))
    caught("dotted dict", lambda: capsa.Rules({knob: value}))
    caught("derive", lambda: capsa.Rules.preset("pagat").derive({knob: value}))
    full = capsa.Rules().to_dict()
    cur = full
    for table in tables:
        cur = cur[table]
    cur[leaf] = value
    if isinstance(value, int) and not isinstance(value, bool) and knob in KNOB_NAMES:
        # the engine's own range check, for rules data compiled as it is
        # (as ``to_dict`` writes it: the older spellings are the readers')
        caught("compiled", lambda: _core.RuleSet(full))
    answer = CapsaEngine().handle({"id": 1, "op": "category", "hand": "As Ks Qs", "rules": full})
    assert answer["error"]["type"] == "RulesError"
    messages["protocol request"] = answer["error"]["message"]
    assert len(set(messages.values())) == 1, messages
    assert next(iter(messages.values())).startswith(message)


def test_an_unknown_knob_is_named_through_every_channel() -> None:
    for build in (
        lambda: capsa.Rules.from_toml("[scoop]\nmultipler = 2\n"),
        lambda: capsa.Rules({"scoop": {"multipler": 2}}),
        lambda: capsa.Rules().derive({"scoop.multipler": 2}),
    ):
        with pytest.raises(capsa.RulesError, match=re.escape("unknown key 'scoop.multipler'")):
            build()


def test_the_knob_reference_and_the_schema_are_current() -> None:
    assert reference.main(["--check"]) == 0, "run python -m capsa.rules.reference --write"
    docs = reference.DOCS.read_text(encoding="utf-8")
    assert reference.knob_reference() in docs
    schema = json.loads(reference.SCHEMA.read_text(encoding="utf-8"))
    assert schema["$defs"]["rules"] == reference.rules_schema()


def test_the_schema_takes_every_preset_and_refuses_a_bad_knob() -> None:
    jsonschema = pytest.importorskip("jsonschema")
    validator = jsonschema.Draft202012Validator(reference.rules_schema())
    for name in capsa.presets():
        validator.validate(capsa.Rules.preset(name).to_dict())
    for knob, value, _ in BAD:
        data = capsa.Rules().to_dict()
        *tables, leaf = knob.split(".")
        cur = data
        for table in tables:
            cur = cur[table]
        cur[leaf] = value
        assert not validator.is_valid(data), knob


def test_the_default_preset_file_is_written_from_the_table() -> None:
    text = reference.PRESET.read_text(encoding="utf-8")
    values = "".join(line for line in text.splitlines(keepends=True) if not line.startswith("#"))
    assert values == dump_toml(reference.default_rules())
    assert capsa.Rules(reference.default_rules()) == capsa.Rules()
    # the rule reference shows the values through the table, not a copy
    docs = reference.DOCS.read_text(encoding="utf-8")
    assert 'name = "capsa-susun"' not in docs
