"""The engine against the oracle over the whole knob space, and what the
oracle's settlement guarantees on its own there.

Rules are drawn from every knob (the newer ones once the engine
has them: ``oracle_tables.ENGINE_HAS_NEW_RULES``), tables of 2 to 4 seats
with valid, fouled and surrendered arrangements, declared and declined
naturals, hands built for the rare naturals and the horse card, and banker
games with multipliers.
"""

from __future__ import annotations

import copy
import random
from itertools import combinations
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from oracle_tables import (
    ENGINE_HAS_NEW_RULES,
    ENGINE_PARTS,
    NEW_TERMS,
    PRESETS,
    REQUIRE_NEW_RULES,
    deal_table,
    disagreements,
    knob_sets,
    merged,
    settle_both,
)

import capsa
from capsa import oracle
from capsa.rules.loading import preset_text

# A wide space: twice the profile's examples (dev 120, ci 800).
WIDE = settings(max_examples=2 * (settings().max_examples or 100))


def test_engine_has_the_new_rules() -> None:
    """The engine's side of the newer rules is there whole or not at all (a
    part alone would leave the tables below drawing today's knobs only), and
    whole once ``REQUIRE_NEW_RULES`` is set."""
    missing = [name for name, has in ENGINE_PARTS.items() if not has]
    if REQUIRE_NEW_RULES or len(missing) < len(ENGINE_PARTS):
        assert not missing, f"the engine lacks {missing} of the newer rules"


@WIDE
@given(
    drawn=knob_sets(new=ENGINE_HAS_NEW_RULES),
    seed=st.integers(0, 2**32 - 1),
    players=st.integers(2, 4),
)
def test_engine_agrees_with_the_oracle(
    drawn: tuple[str, dict[str, Any]], seed: int, players: int
) -> None:
    """Every seat and pair figure of ``capsa.settle`` (with the rules'
    banker and multipliers) equals the oracle's: points, money, rake, net,
    each pair's outcome, rows, row points, overall, royalties, scoop,
    sweep-all, multiplier, bonus, the pair terms, stake and money, and each
    seat's natural, foul, surrender, sweep-all and royalties; a table one
    refuses the other refuses; ``settle_batch`` agrees with ``settle``."""
    preset, knobs = drawn
    rules = capsa.Rules({"base": preset, **knobs})
    config = oracle.load_rules(rules.to_dict())
    table = deal_table(random.Random(seed), config, players)
    engine, want = settle_both(table, rules, config)
    assert disagreements(engine, want) == []
    _batch_agrees(table, rules, engine)


def _batch_agrees(table: dict[str, Any], rules: capsa.Rules, engine: dict[str, Any] | str) -> None:
    """``settle_batch`` of the one table (banker and multipliers as arrays)
    settles its points and money, or refuses it, as ``settle`` does."""
    seats = table["seats"]
    keywords: dict[str, Any] = {}
    if table["banker"] is not None:
        keywords["banker"] = np.array([table["banker"]], dtype=np.int64)
    if table["multipliers"] is not None:
        keywords["multipliers"] = np.array([table["multipliers"]], dtype=np.int64)
    stakes = table["stakes"]
    batch = capsa.settle_batch(
        np.array([[s["cards"] for s in seats]], dtype=np.uint8),
        rules,
        np.array(stakes, dtype=np.int64) if isinstance(stakes, list) else stakes,
        np.array([[s["surrender"] for s in seats]]),
        np.array([[s["declare_natural"] for s in seats]]),
        **keywords,
    )
    if isinstance(engine, str):
        assert [row for row, _ in batch.errors] == [0]
    else:
        assert batch.errors == []
        assert batch.points[0].tolist() == engine["points"]
        assert batch.money[0].tolist() == engine["money"]


def _spelled_out(config: dict[str, Any]) -> dict[str, Any]:
    """Rules with every newer knob written at its value, the
    defaults included, and each naturals entry's fields likewise."""
    full = merged(config, {})
    for dotted, default in oracle.NEW_KNOB_DEFAULTS.items():
        table, key = dotted.split(".")
        full.setdefault(table, {})
        full[table].setdefault(key, default)
    for row in oracle.ROWS:
        full["royalties"].setdefault(f"{row}_by_rank", {})
    defaults = {"same_tier": False, "must_declare": False, "bonus": False}
    fields = {"all-high": {"lowest": "8"}, "all-low": {"highest": "8"}}
    fields |= {"twelve-royals": {"count": 12}, "twelve-same-color": {"exactly": False}}
    for index, entry in enumerate(full["naturals"]["enabled"]):
        spelled = {**defaults, **fields.get(entry["name"], {}), **entry}
        if index == 0:
            del spelled["same_tier"]
        full["naturals"]["enabled"][index] = spelled
    return full


# six pairs, three flushes, and a hand without a natural
BONUS_TABLE = [
    "2h 2s 5h / 5s 8h 8s Jh Js / Kh Ks Ah As 9h",
    "2d 3d 5d / 7c 9c Tc Jc Kc / 4d 6d 8d Qd Ad",
    "3h 4h 6h / 7h Th Qh 3c 3s / 4c 5c 6c 8c Qc",
]


@pytest.mark.parametrize("bonus", ["six-pairs", "three-flushes"])
def test_a_bonus_natural_against_a_real_one_agrees(bonus: str) -> None:
    """A bonus natural, listed first, is no natural for the naturals step:
    the real natural collects its points from it as from a plain seat, and
    the bonus is paid on top (docs/rules.md, "Settlement")."""
    real = "three-flushes" if bonus == "six-pairs" else "six-pairs"
    enabled = [{"name": bonus, "points": 3, "bonus": True}, {"name": real, "points": 4}]
    rules = capsa.Rules().derive(naturals={"enabled": enabled})
    config = oracle.load_rules(rules.to_dict())
    seats = [capsa.Arrangement.parse(t).ids for t in BONUS_TABLE]
    table = {
        "seats": [{"cards": list(c), "surrender": False, "declare_natural": True} for c in seats],
        "stakes": 1,
        "banker": None,
        "multipliers": None,
    }
    engine, want = settle_both(table, rules, config)
    assert disagreements(engine, want) == []
    assert not isinstance(engine, str)
    # the pair of the two naturals: the real one's 4, less the bonus's 3
    bonus_seat = 0 if bonus == "six-pairs" else 1
    assert engine["pairs"][0]["points"] == (-1 if bonus_seat == 0 else 1)


@given(drawn=knob_sets(new=True))
def test_oracle_reads_the_rules_alike_in_every_form(drawn: tuple[str, dict[str, Any]]) -> None:
    """The oracle reads a knob given at its default as the knob left out,
    and reads back what it wrote; when the engine knows the knobs, the
    engine's ``to_dict()`` reads as the rules file does."""
    preset, knobs = drawn
    base = capsa.Rules.preset(preset).to_dict()
    config = oracle.load_rules(merged(base, knobs))
    spelled = oracle.load_rules(_spelled_out(config))
    assert oracle.load_rules(config) == config
    assert _spelled_out(spelled) == _spelled_out(config)
    if ENGINE_PARTS["knobs"]:
        engine = capsa.Rules({"base": preset, **knobs}).to_dict()
        assert oracle.load_rules(engine) == engine
        assert _spelled_out(oracle.load_rules(engine)) == _spelled_out(config)


@pytest.mark.parametrize("name", PRESETS)
def test_every_preset_file_reads_in_the_oracle_as_in_the_engine(name: str) -> None:
    """The oracle reads each shipped preset's file into the dict the
    engine's ``Rules.preset(name).to_dict()`` gives, knob for knob."""
    text = preset_text(name)
    assert oracle.load_rules(text) == capsa.Rules.preset(name).to_dict()


def _clamp(x: int, cap: int) -> int:
    return max(-cap, min(cap, x)) if cap else x


@WIDE
@given(drawn=knob_sets(new=True), seed=st.integers(0, 2**32 - 1), players=st.integers(2, 4))
def test_oracle_settlement_holds_together(
    drawn: tuple[str, dict[str, Any]], seed: int, players: int
) -> None:
    """Without the engine: points and money sum to zero; each pair's points
    are its terms put together (the cap clamping ``base + natural_bonus``
    before the horse and seat multipliers under stage ``pair``, after them
    under ``final``, and reported only when it bound); a pair of two
    non-banker seats is unplayed and 0; the same table under the knobs
    spelled out at their defaults settles the same."""
    preset, knobs = drawn
    config = oracle.load_rules(merged(capsa.Rules.preset(preset).to_dict(), knobs))
    table = deal_table(random.Random(seed), config, players)
    seats = [
        {"top": s["cards"][:3], "middle": s["cards"][3:8], "bottom": s["cards"][8:],
         "surrender": s["surrender"], "declare_natural": s["declare_natural"]}
        for s in table["seats"]
    ]  # fmt: skip
    keywords = {"banker": table["banker"], "multipliers": table["multipliers"]}
    try:
        got = oracle.settle(seats, config, table["stakes"], **keywords)
    except ValueError as exc:
        assert config["foul"]["mode"] == "refuse" and "rules refuse fouled" in str(exc)
        return
    assert got == oracle.settle(seats, _spelled_out(config), table["stakes"], **keywords)
    assert sum(got["points"]) == 0 and sum(got["money"]) == 0
    stage = config.get("cap", {}).get("stage", "pair")
    for pair in got["pairs"]:
        i, j = pair["seats"]
        assert set(NEW_TERMS) <= set(pair)
        if table["banker"] is not None and table["banker"] not in (i, j):
            assert pair["outcome"] == "unplayed" and pair["points"] == pair["base"] == 0
            continue
        x = pair["base"] + pair["natural_bonus"]
        factor = pair["horse"] * pair["seat_multiplier"]
        cap = pair["cap"]
        points = _clamp(x, cap) * factor if stage == "pair" else _clamp(x * factor, cap)
        assert pair["points"] == points
        if cap:
            bound = abs(x) if stage == "pair" else abs(x * factor)
            assert bound > cap
        assert got["pair_points"][i][j] == pair["points"] == -got["pair_points"][j][i]
    for i, j in combinations(range(players), 2):
        if table["banker"] is None:
            assert any(p["seats"] == [i, j] and p["outcome"] != "unplayed" for p in got["pairs"])


def test_the_comparison_sees_every_figure() -> None:
    """``disagreements`` finds a change of any seat or pair figure it
    compares, and a refusal on one side only, so that agreement means
    something."""
    rules = capsa.Rules.preset("capsa-susun")
    config = oracle.load_rules(rules.to_dict())
    table = deal_table(random.Random(3), config, 3)
    engine, want = settle_both(table, rules, config)
    assert isinstance(engine, dict) and isinstance(want, dict)
    assert disagreements(engine, want) == []
    changes: list[tuple[str, Any]] = [
        *(
            (key, lambda d, k=key: d[k].__setitem__(0, d[k][0] + 1))
            for key in ("points", "money", "rake", "net")
        ),
        *(
            (f"pairs.{key}", lambda d, k=key: d["pairs"][1].__setitem__(k, 7))
            for key in (
                "outcome",
                "row_points",
                "overall",
                "royalties",
                "scoop",
                "multiplier",
                "bonus",
                "points",
                "stake",
                "money",
            )
        ),
        ("pairs.rows", lambda d: d["pairs"][0]["rows"].__setitem__("top", 9)),
        *(
            (f"seats.{key}", lambda d, k=key: d["seats"][2].__setitem__(k, 5))
            for key in ("natural", "natural_points", "foul", "surrender", "swept_all")
        ),
        ("seats.royalty", lambda d: d["seats"][1]["rows"]["middle"].__setitem__("royalty", 99)),
    ]
    for name, change in changes:
        changed = copy.deepcopy(engine)
        change(changed)
        assert disagreements(changed, want), name
    assert disagreements("refused: seat 1's arrangement fouls", want)
    assert disagreements(engine, "refused: seat 1's arrangement fouls")
    assert disagreements("refused: a", "refused: b") == []
