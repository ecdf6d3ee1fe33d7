"""Knobs by dotted name: read one, change some, list them all, and the base as a spec.

A royalty is a knob of its own (``royalties.bottom.quads``), as is a
natural's points (``naturals.points.dragon``).
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from capsa.conformance.protocol import RulesSpec
from capsa.rules import DEFAULT_PRESET, INT_MAX, KNOBS, RANKING_KNOBS, Rules, presets

__all__ = [
    "FIVE_CATEGORIES",
    "MAX_PASSES",
    "RANKING_KNOBS",
    "ROWS",
    "all_knobs",
    "candidates",
    "get",
    "int_range",
    "integers",
    "spec_of",
    "with_knobs",
]

ROWS = ("top", "middle", "bottom")
# The rules' knob table by name (capsa.rules.KNOBS): types, choices and ranges.
_TABLE = {k.name: k for k in KNOBS}
# The five-card categories a royalty can pay, weakest first (the knob table's).
FIVE_CATEGORIES = tuple(c for c in _TABLE["royalties.middle"].choices if c != "high-card")
MAX_PASSES = 5
_NEAR = 3  # integers tried either side of the current value
_FAR = 17

# ------------------------------------------------------------------ knobs


def get(rules: Rules, knob: str) -> Any:
    """The value of a knob, a single royalty (0 when the table has none) and a
    natural's points (None when it is not paid) included. Raises
    ``KeyError`` for a name that is no knob."""
    if knob.startswith("royalties.") and knob.count(".") == 2:
        _, row, category = knob.split(".")
        return rules["royalties"][row].get(category, 0)
    if knob.startswith("naturals.points."):
        name = knob.rsplit(".", 1)[1]
        for item in rules["naturals.enabled"]:
            if item["name"] == name:
                return item["points"]
        return None
    if knob in _TABLE:  # a knob of the houses left out where it holds its default
        try:
            return rules[knob]
        except KeyError:
            return _TABLE[knob].default
    return rules[knob]


def with_knobs(rules: Rules, changes: Mapping[str, Any]) -> Rules:
    """``rules`` with knobs changed, a royalty (``royalties.bottom.quads``) and a
    natural's points (``naturals.points.dragon``) included."""
    key = json.dumps(changes, sort_keys=True)
    return _with_knobs(rules, key)


@lru_cache(maxsize=8192)
def _with_knobs(rules: Rules, key: str) -> Rules:
    changes: dict[str, Any] = json.loads(key)
    plain: dict[str, Any] = {}
    removed: list[str] = []
    for knob, value in changes.items():
        if knob.startswith("royalties.") and knob.count(".") == 2:
            _, row, category = knob.split(".")
            table = plain.setdefault(f"royalties.{row}", rules[f"royalties.{row}"])
            if value:
                table[category] = value
            else:
                table.pop(category, None)
        elif knob.startswith("naturals.points."):
            name = knob.rsplit(".", 1)[1]
            enabled = plain.setdefault("naturals.enabled", rules["naturals.enabled"])
            for item in enabled:
                if item["name"] == name:
                    item["points"] = value
        elif value is None and knob in _TABLE and _TABLE[knob].default is None:
            removed.append(knob)  # no horse card: the knob left out
        else:
            plain[knob] = value
    rules = rules.derive(plain) if plain else rules
    return _without(rules, removed) if removed else rules


def _without(rules: Rules, knobs: list[str]) -> Rules:
    """``rules`` with knobs that have no value left out (a table left empty too)."""
    data = rules.to_dict()
    for knob in knobs:
        table, leaf = knob.split(".")
        data.get(table, {}).pop(leaf, None)
        if table in data and not data[table]:
            del data[table]
    return Rules.from_dict({**data, "base": DEFAULT_PRESET})


def all_knobs(rules: Rules) -> set[str]:
    """Every knob of ``rules`` by dotted name, a royalty and a paid natural each one."""
    out: set[str] = set()
    for key, value in rules.to_dict().items():
        if key == "royalties":
            for row, table in value.items():
                if row in ROWS:
                    out.update(f"royalties.{row}.{c}" for c in table)
                else:  # a royalty of larger decks, or a table by rank: one knob
                    out.add(f"royalties.{row}")
        elif key == "naturals":
            out.update(f"naturals.{k}" for k in value if k != "enabled")
            out.update(f"naturals.points.{i['name']}" for i in value["enabled"])
            out.add("naturals.enabled")
        elif isinstance(value, dict):
            out.update(f"{key}.{k}" for k in value)
        else:
            out.add(key)
    return out


def integers(value: Any) -> tuple[int, ...] | None:
    """A list of integers as a tuple; None for anything else."""
    if not isinstance(value, list):
        return None
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in value):
        return None
    return tuple(value)


def spec_of(rules: Rules) -> RulesSpec:
    """The base rules as a preset and the knobs changed from it."""
    data = rules.to_dict()
    for name in presets():
        if Rules.preset(name) == rules:
            return RulesSpec.of(name)
    preset = Rules.preset(DEFAULT_PRESET).to_dict()
    knobs: dict[str, Any] = {}
    for key, value in data.items():
        if isinstance(value, dict):  # a table the preset may leave out (the horse card)
            for sub, inner in value.items():
                if preset.get(key, {}).get(sub) != inner:
                    knobs[f"{key}.{sub}"] = inner
        elif preset.get(key) != value:
            knobs[key] = value
    return RulesSpec.of(DEFAULT_PRESET, knobs)


def int_range(knob: str) -> tuple[int, int]:
    """The range of an integer knob from the rules' knob table (a royalty and a
    natural's points: 0 up). Raises nothing."""
    row = _TABLE.get(knob)
    if row is None or row.low is None or row.high is None:
        return 0, INT_MAX
    return row.low, row.high


def candidates(knob: str, rules: Rules) -> list[Any]:
    """The values of ``knob`` worth trying: its choices, or for an integer (a
    royalty and a natural's points included) the least values, the ones
    around the current one and a few far from it (the answers are monotone
    in an integer knob, so these tell one fitting value from several)."""
    row = _TABLE.get(knob)
    kind = row.type if row is not None else "int"  # a royalty or a natural's points
    if kind == "choice" and row is not None:
        return list(row.choices)
    if kind == "suit-order":
        return ["".join(p) for p in itertools.permutations("shcd")]
    if kind == "bool":
        return [False, True]
    if kind == "card":  # the horse cards houses name: none, A, 5 and 10 of hearts, A of spades
        return [None, "Ah", "5h", "Th", "As"]
    value = get(rules, knob)
    if kind == "royalties-by-rank":
        return [{}, value] if value else [{}]
    if value is not None and (not isinstance(value, int) or isinstance(value, bool)):
        return [value]  # a table of a house's rule (royalties by rank): not searched
    low, high = int_range(knob)
    current = int(value or 0)
    near = range(current - _NEAR, current + _NEAR + 1)
    values = {low, low + 1, low + 2, *near, 2 * current + 1, current + _FAR}
    return sorted(v for v in values if low <= v <= high)
