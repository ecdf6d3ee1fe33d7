"""Property tests of the rules input path: round trips, and no input escapes as
anything but a Rules value, a RulesError or a TypeError.

The schema below is written out from docs/rules.md, apart from the rules
module, so that "whatever is accepted is valid" checks the module against
the document.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import capsa
from capsa._core import CATEGORIES, NATURAL_NAMES
from capsa.rules.known import presets_of_52_cards

INT64_MAX = 2**63 - 1

# docs/rules.md: every knob and its range.
CHOICES: dict[str, tuple[str, ...]] = {
    "tie_break": ("none", "suit"),
    "flush_compare": ("ranks", "suit-first"),
    "wheel": ("low", "second"),
    "foul_check": ("allow-equal", "strict"),
    "royalty_mode": ("winner", "always", "none"),
    "foul.mode": ("sweep-all", "scoop", "fixed", "none", "refuse"),
    "sweep_all.natural_opponents": ("block", "exempt"),
    "cap.stage": ("pair", "final"),
    "naturals.resolve": ("higher-wins", "difference"),
    "naturals.ties": ("push", "compare"),
}
INTS: dict[str, tuple[int, int]] = {
    "row_points": (0, INT64_MAX),
    "overall_point": (0, INT64_MAX),
    "scoop.multiplier": (1, INT64_MAX),
    "scoop.bonus": (0, INT64_MAX),
    "sweep_all.multiplier": (1, INT64_MAX),
    "sweep_all.bonus": (0, INT64_MAX),
    "sweep_all.min_players": (2, 9),
    "foul.points": (0, INT64_MAX),
    "surrender.cost": (0, INT64_MAX),
    "horse.multiplier": (1, INT64_MAX),
    "cap.pair": (0, INT64_MAX),
    "cap.scoop": (0, INT64_MAX),
    "cap.sweep_all": (0, INT64_MAX),
    "banker.max_multiplier": (1, 100),
    "money.stake": (0, INT64_MAX),
    "money.rake_basis_points": (0, 10_000),
    "money.rake_minimum_pot": (0, INT64_MAX),
    "money.rake_cap_per_pot": (0, INT64_MAX),
    "money.rake_cap_per_round": (0, INT64_MAX),
}
BOOLS = (
    "royalty_adds",
    "scoop.multiply_royalties",
    "scoop.by_seats",
    "foul.pays_royalties",
    "surrender.enabled",
    "horse.naturals",
    "banker.enabled",
    "banker.wins_ties",
)
TOP_CATEGORIES = ("high-card", "pair", "trips")
# a royalty row pays the categories of the 52-card deck, five of a kind none
FIVE_CARD_CATEGORIES = tuple(c for c in CATEGORIES if c != "five-of-a-kind")
ROW_CATEGORIES = {
    "top": TOP_CATEGORIES,
    "middle": FIVE_CARD_CATEGORIES,
    "bottom": FIVE_CARD_CATEGORIES,
}
LEAVES = (
    "name",
    "description",
    "suit_order",
    *CHOICES,
    *INTS,
    *BOOLS,
    "naturals.enabled",
    "royalties.top",
    "royalties.middle",
    "royalties.bottom",
    "royalties.top_by_rank",
    "royalties.middle_by_rank",
    "royalties.bottom_by_rank",
    "horse.card",
)
# the knobs a rules' dict leaves out at their defaults (docs/rules.md)
OPTIONAL = {
    "scoop.by_seats",
    "sweep_all.natural_opponents",
    "royalties.top_by_rank",
    "royalties.middle_by_rank",
    "royalties.bottom_by_rank",
    *(k for k in LEAVES if k.split(".")[0] in ("horse", "cap", "banker")),
}
RANKS = "23456789TJQKA"
CARD_TEXTS = [str(capsa.Card(i)) for i in range(52)]
# the fields an entry of naturals.enabled may give besides name and points
ENTRY_FIELDS = {
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
PRESETS = presets_of_52_cards()

# name and description: any text but lone surrogates (refused, not characters).
TEXT = st.text(st.characters(exclude_categories=["Cs"]), max_size=40)
POINTS = st.one_of(st.integers(0, 10), st.integers(0, INT64_MAX))


def _set(config: dict[str, Any], dotted: str, value: Any) -> None:
    *tables, leaf = dotted.split(".")
    for table in tables:
        config = config.setdefault(table, {})
    config[leaf] = value


@st.composite
def suit_orders(draw: st.DrawFn) -> str:
    order = draw(st.permutations("shcd"))
    return "".join(c.upper() if draw(st.booleans()) else c for c in order)


def naturals() -> st.SearchStrategy[list[dict[str, Any]]]:
    return st.lists(st.sampled_from(NATURAL_NAMES), unique=True, max_size=6).flatmap(
        lambda names: st.tuples(*(POINTS for _ in names)).map(
            lambda points: [{"name": n, "points": p} for n, p in zip(names, points, strict=True)]
        )
    )


def royalty_rows(row: str) -> st.SearchStrategy[dict[str, int]]:
    return st.dictionaries(st.sampled_from(ROW_CATEGORIES[row]), POINTS, max_size=4)


def ranked_royalty_rows(row: str) -> st.SearchStrategy[dict[str, dict[str, int]]]:
    ranks = st.dictionaries(st.sampled_from(RANKS), POINTS, min_size=1, max_size=3)
    return st.dictionaries(st.sampled_from(ROW_CATEGORIES[row]), ranks, max_size=2)


def leaf_values(key: str) -> st.SearchStrategy[Any]:
    """A valid value of one knob, edges of its range included."""
    if key in ("name", "description"):
        return TEXT
    if key == "suit_order":
        return suit_orders()
    if key in CHOICES:
        return st.sampled_from(CHOICES[key])
    if key in INTS:
        low, high = INTS[key]
        return st.one_of(st.sampled_from([low, high]), st.integers(low, high))
    if key in BOOLS:
        return st.booleans()
    if key == "naturals.enabled":
        return naturals()
    if key == "horse.card":
        return st.sampled_from(CARD_TEXTS)
    if key.endswith("_by_rank"):
        return ranked_royalty_rows(key.split(".")[1].removesuffix("_by_rank"))
    return royalty_rows(key.split(".")[1])


@st.composite
def valid_configs(draw: st.DrawFn) -> dict[str, Any]:
    """A partial config over any knobs, nested, on a random base preset."""
    config: dict[str, Any] = {"base": draw(st.sampled_from(PRESETS))}
    for key in draw(st.lists(st.sampled_from(LEAVES), unique=True)):
        _set(config, key, draw(leaf_values(key)))
    return config


def assert_valid(rules: capsa.Rules) -> None:
    """Every knob of the rules is in its documented range."""
    data = rules.to_dict()
    assert set(data) <= {"name", "description", "suit_order", *(k.split(".")[0] for k in LEAVES)}
    tables = ("scoop", "sweep_all", "foul", "surrender", "naturals", "royalties", "money")
    for table in (*tables, "horse", "cap", "banker"):
        knobs = [k for k in LEAVES if k.startswith(table + ".")]
        always = {k.split(".")[1] for k in knobs if k not in OPTIONAL}
        assert always <= set(data.get(table, {})) <= {k.split(".")[1] for k in knobs}, table
    assert type(data["name"]) is str
    assert type(data.get("description", "")) is str
    assert sorted(data["suit_order"]) == sorted("shcd")
    for key, options in CHOICES.items():
        assert rules[key] in options, key
    assert data.get("horse", {}).get("card", "Ah") in CARD_TEXTS
    for key, (low, high) in INTS.items():
        value = rules[key]
        assert type(value) is int and low <= value <= high, key
    for key in BOOLS:
        assert type(rules[key]) is bool, key
    names = [item["name"] for item in rules["naturals.enabled"]]
    assert len(names) == len(set(names)) and set(names) <= set(NATURAL_NAMES)
    for item in rules["naturals.enabled"]:
        assert {"name", "points"} <= set(item) <= {"name", "points", *ENTRY_FIELDS}
        assert type(item["points"]) is int and 0 <= item["points"] <= INT64_MAX
    for row, allowed in ROW_CATEGORIES.items():
        for category, points in rules[f"royalties.{row}"].items():
            assert category in allowed, (row, category)
            assert type(points) is int and 0 <= points <= INT64_MAX
        for category, ranks in rules[f"royalties.{row}_by_rank"].items():
            assert category in allowed, (row, category)
            assert set(ranks) <= set(RANKS), (row, category)
            assert all(type(p) is int and 0 <= p <= INT64_MAX for p in ranks.values())


# ------------------------------------------------------------ (a) round trips


@given(config=valid_configs())
def test_valid_rules_round_trip(config: dict[str, Any]) -> None:
    rules = capsa.Rules(config)
    assert capsa.Rules.from_toml(rules.to_toml()) == rules
    assert capsa.Rules.from_dict(rules.to_dict()) == rules
    assert capsa.Rules.from_toml(rules.to_toml()).to_dict() == rules.to_dict()
    assert hash(capsa.Rules.from_toml(rules.to_toml())) == hash(rules)
    assert_valid(rules)


@given(config=valid_configs())
def test_valid_rules_keep_the_knobs_given(config: dict[str, Any]) -> None:
    rules = capsa.Rules(config)
    for table, value in config.items():
        if table == "base":
            continue
        given_leaves = value.items() if isinstance(value, dict) else [(None, value)]
        for sub, leaf in given_leaves:
            key = table if sub is None else f"{table}.{sub}"
            if key == "suit_order":
                leaf = leaf.lower()
            assert rules[key] == leaf, key


@given(text=TEXT, description=TEXT)
def test_names_with_any_characters_round_trip(text: str, description: str) -> None:
    rules = capsa.Rules(name=text, description=description)
    back = capsa.Rules.from_toml(rules.to_toml())
    assert back.name == text and back["description"] == description


# ------------------------------------------------------------ (b) text and files

KEY_WORDS = sorted({part for key in LEAVES for part in key.split(".")} | {"base", "x"})
TOML_FRAGMENTS = st.one_of(
    st.sampled_from(KEY_WORDS),
    st.sampled_from(
        [" = ", "\n", ".", "[", "]", "[[", "]]", "{", "}", ", ", '"', "'", '"""', "'''"]
        + ["#", "\\", "\\u", "true", "false", "-", "+", "1", "0x1f", "1.5", "1e400", "inf"]
        + ["1979-05-27", "07:32:00", '"scoop.multiplier"', "\r\n", "\t", "\x00", "\x7f"]
        + [f'"{c}"' for c in CHOICES["wheel"] + CHOICES["foul.mode"]]
        + PRESETS
    ),
    st.integers(-(2**70), 2**70).map(str),
    st.text(max_size=6),
)
TOML_TEXT = st.lists(TOML_FRAGMENTS, max_size=40).map("".join)


def _read_or_refuse(read: Any) -> None:
    try:
        rules = read()
    except capsa.RulesError:
        return
    assert isinstance(rules, capsa.Rules)
    assert_valid(rules)
    assert capsa.Rules.from_toml(rules.to_toml()) == rules


@given(text=TOML_TEXT)
def test_toml_text_reads_or_raises_rules_error(text: str) -> None:
    _read_or_refuse(lambda: capsa.Rules.from_toml(text))


@given(config=valid_configs())
def test_valid_toml_with_noise_reads_or_raises_rules_error(config: dict[str, Any]) -> None:
    text = capsa.Rules(config).to_toml()
    # a cut or a dropped character anywhere: the engine's own text, made malformed
    for cut in range(0, len(text), max(1, len(text) // 5)):
        _read_or_refuse(lambda cut=cut: capsa.Rules.from_toml(text[:cut]))
        _read_or_refuse(lambda cut=cut: capsa.Rules.from_toml(text[:cut] + text[cut + 1 :]))


@settings(suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(
    data=st.one_of(st.binary(max_size=200), TOML_TEXT.map(lambda t: t.encode("utf-8", "replace")))
)
def test_rules_file_reads_or_raises_rules_error(tmp_path: Path, data: bytes) -> None:
    path = tmp_path / "rules.toml"
    path.write_bytes(data)
    _read_or_refuse(lambda: capsa.Rules.load(path))


# ------------------------------------------------------------ (c), (d) configs

CONFIG_KEYS = st.one_of(
    st.sampled_from(KEY_WORDS),
    st.sampled_from(LEAVES),
    st.sampled_from(CATEGORIES),
    st.text(max_size=5),
    st.integers(),
    st.tuples(st.integers()),
    st.none(),
    st.booleans(),
)
SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 7),
    st.integers(),
    st.sampled_from([2**63 - 1, 2**63, -(2**63) - 1]),
    # too long for repr() and str(): error messages must still be made
    st.integers(4_400, 4_500).map(lambda digits: 10**digits),
    st.floats(),
    st.text(max_size=5),
    st.sampled_from(NATURAL_NAMES + CATEGORIES + tuple(PRESETS) + ("shcd", "SHCD", "low")),
    st.sampled_from([c for options in CHOICES.values() for c in options]),
    st.binary(max_size=3),
    st.just("\ud800"),
)
NESTED = st.recursive(
    SCALARS,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.lists(inner, max_size=4).map(tuple),
        st.dictionaries(CONFIG_KEYS, inner, max_size=4),
        st.fixed_dictionaries({"name": inner, "points": inner}),
    ),
    max_leaves=12,
)
CONFIGS = st.dictionaries(CONFIG_KEYS, NESTED, max_size=5)


@st.composite
def near_valid_configs(draw: st.DrawFn) -> dict[str, Any]:
    """Valid configs with some knobs replaced by random or off-by-one values."""
    config = draw(valid_configs())
    for key in draw(st.lists(st.sampled_from(LEAVES), max_size=3, unique=True)):
        if key in INTS:
            low, high = INTS[key]
            bad = st.sampled_from([low - 1, high + 1, True, False, float(low), str(low)])
        else:
            bad = NESTED
        _set(config, key, draw(bad))
    return config


def _build_or_refuse(build: Any) -> None:
    try:
        rules = build()
    except capsa.RulesError:
        return
    assert isinstance(rules, capsa.Rules)
    assert_valid(rules)
    assert capsa.Rules.from_toml(rules.to_toml()) == rules


@given(config=st.one_of(CONFIGS, near_valid_configs()))
def test_any_config_builds_or_raises_rules_error(config: dict[Any, Any]) -> None:
    _build_or_refuse(lambda: capsa.Rules(config))
    _build_or_refuse(lambda: capsa.Rules.preset("pagat").derive(config))


@given(knobs=st.dictionaries(st.sampled_from(KEY_WORDS), NESTED, max_size=4))
def test_any_keywords_build_or_raise_rules_error(knobs: dict[str, Any]) -> None:
    _build_or_refuse(lambda: capsa.Rules(**knobs))
    _build_or_refuse(lambda: capsa.Rules().derive(**knobs))


@given(config=CONFIGS, knobs=st.dictionaries(st.sampled_from(LEAVES), NESTED, max_size=3))
def test_config_and_keywords_build_or_raise_rules_error(
    config: dict[Any, Any], knobs: dict[str, Any]
) -> None:
    _build_or_refuse(lambda: capsa.Rules(config, **knobs))


@given(argument=NESTED.filter(lambda a: not isinstance(a, dict)))
def test_wrong_argument_types_raise_type_error(argument: Any) -> None:
    for call in (capsa.Rules, capsa.Rules.from_dict, capsa.Rules().derive):
        if argument is None and call is not capsa.Rules.from_dict:
            continue
        with pytest.raises(TypeError, match="mapping"):
            call(argument)
    if not isinstance(argument, str):
        with pytest.raises(TypeError, match="str"):
            capsa.Rules.from_toml(argument)
        with pytest.raises(TypeError, match="str"):
            capsa.Rules.preset(argument)


@given(key=st.one_of(st.text(max_size=20), st.sampled_from(LEAVES), NESTED))
def test_reading_a_knob_returns_or_raises_key_or_type_error(key: Any) -> None:
    try:
        capsa.Rules()[key]
    except KeyError:
        assert isinstance(key, str)
    except TypeError:
        assert not isinstance(key, str)
