"""The rules a round may name: every preset, the caller's own rules, and
rules that data (a Parquet footer, a record) carries in full, each name
meaning one set of rules; and the names rounds tables give rules
(:func:`rules_name`, :func:`rules_key`)."""

from __future__ import annotations

import functools
import hashlib
import json
from collections.abc import Mapping
from typing import Any

from capsa import _core
from capsa._core import RulesError
from capsa.rules.checks import KNOB_NAMES
from capsa.rules.loading import presets
from capsa.rules.value import Rules

__all__ = [
    "default_known_rules",
    "differing_knobs",
    "presets_of_52_cards",
    "rules_key",
    "rules_name",
    "with_known",
]


def presets_of_52_cards() -> list[str]:
    """The presets that deal the one 52-card deck
    (:attr:`Rules.deals_52_cards`), sorted: those the layers that play only
    that deck (the solver and its tables, rounds and records, bulk
    settlement, the conformance suites) take. Raises nothing."""
    return [name for name in presets() if Rules.preset(name).deals_52_cards]


def default_known_rules(rules: Rules | None = None) -> dict[str, Rules]:
    """The rules a ``rules`` column may name: every preset, and ``rules``
    under its own name (it wins over a preset of that name: the caller
    named it). Raises nothing."""
    known = {name: Rules.preset(name) for name in presets()}
    if rules is not None:
        known[rules.name] = rules
    return known


@functools.lru_cache(maxsize=128)
def rules_name(rules: Rules) -> str:
    """The name a rounds table (and its footer) gives rules: the preset's name
    when they are that preset (readable without the file's footer), else
    :func:`rules_key`."""
    if rules.name in presets() and Rules.preset(rules.name) == rules:
        return rules.name
    return rules_key(rules)


@functools.lru_cache(maxsize=128)
def rules_key(rules: Rules) -> str:
    """A name only these rules have: their name and the start of their
    SHA-256 (``"house@1a2b3c4d5e6f7a8b"``), so that two variants, or a
    preset and a ``--rules`` file of its name, never share one."""
    text = _core.canonical_json(json.dumps(rules.to_dict(), ensure_ascii=False))
    return f"{rules.name}@{hashlib.sha256(text.encode()).hexdigest()[:16]}"


def _leaves(data: Mapping[str, Any], prefix: str = "") -> dict[str, Any]:
    """Each knob of rules data by its dotted name (a table that is a knob,
    such as ``royalties.top``, whole)."""
    out: dict[str, Any] = {}
    for key, value in data.items():
        dotted = f"{prefix}{key}"
        if isinstance(value, Mapping) and dotted not in KNOB_NAMES:
            out.update(_leaves(value, f"{dotted}."))
        else:
            out[dotted] = value
    return out


def differing_knobs(these: Rules, those: Rules, *, most: int = 3) -> str:
    """The knobs ``these`` and ``those`` differ in, in words, at most
    ``most`` of them (``"money.stake is 100, not 1"``); empty for equal
    rules. Raises nothing."""
    mine, theirs = _leaves(these.to_dict()), _leaves(those.to_dict())
    names = [*mine, *(k for k in theirs if k not in mine)]
    keys = [k for k in names if mine.get(k) != theirs.get(k)]

    def shown(value: Any) -> str:
        return "not set" if value is None else json.dumps(value, ensure_ascii=False)[:60]

    words = [f"{k} is {shown(mine.get(k))}, not {shown(theirs.get(k))}" for k in keys[:most]]
    if len(keys) > most:
        words.append(f"and {len(keys) - most} more")
    return "; ".join(words)


def with_known(known: Mapping[str, Any], found: Mapping[str, Rules], where: str) -> dict[str, Any]:
    """``known`` (the rules the caller names) with the rules ``found`` in
    data added by name. A name the caller gives means the caller's rules:
    data naming other rules by it is refused, never used, so that money
    never changes without the caller seeing it.

    Raises ``RulesError`` naming the name, ``where`` the data was found and
    the knobs that differ."""
    out = dict(known)
    for name, rules in found.items():
        given = out.get(name)
        if given is None:
            out[name] = rules
        elif given != rules:
            detail = differing_knobs(rules, given) if isinstance(given, Rules) else ""
            raise RulesError(
                f"{where} names rules {name!r} other than the rules given under that name"
                f"{f' ({detail} there)' if detail else ''}; a name means one set of rules: "
                "give the rules another name"
            )
    return out
