"""How the report's variants differ: each variant's rules as knobs named in
words with their values in words, the stake and rake taken from what was
simulated (``capsa simulate --stake`` replaces the rules' stake), and the
knobs whose values are not the same in every variant.

A summary carries its rules' name and digest, not the rules: a variant's
rules are those the caller gives, else the preset of its label or name
whose digest is the summary's, else unknown.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Any

from capsa.odds import natural_probabilities
from capsa.report.variants import Variant
from capsa.report.words import ReportWords
from capsa.rules import KNOB_NAMES, Rules, presets
from capsa.summary import RAKE_KNOBS

__all__ = ["Difference", "differences", "knob_values", "rake_words", "variant_rules"]

#: One row of the comparison: (knob key, the knob in words, each variant's value).
Difference = tuple[str, str, list[str]]

# knobs that say which variant it is, not how it plays
_NOT_COMPARED = ("name", "description")
_SUIT_SIGNS = {"s": "♠", "h": "♥", "c": "♣", "d": "♦"}
_CAPS = ("cap.pair", "cap.scoop", "cap.sweep_all")


def _digest(rules: Rules) -> str:
    # the digest a summary records of the rules it was simulated under
    return hashlib.sha256(rules.to_toml().encode()).hexdigest()[:16]


def _simulated(rules: Rules, v: Variant) -> bool:
    """Whether ``v`` was simulated under ``rules``, at its rules' stake or
    another (``stake=`` replaces it)."""
    stakes = {rules["money.stake"], v.summary.stake}
    return any(
        _digest(rules.derive({"money.stake": stake})) == v.summary.rules_digest for stake in stakes
    )


def variant_rules(
    variants: Sequence[Variant], given: Sequence[Rules | None] | None = None
) -> list[Rules | None]:
    """Each variant's rules: ``given`` (one per variant) where there, else
    the preset named by the variant's label or rules name whose digest
    (at the simulated stake) is the summary's, else None. Raises
    ``ValueError`` when ``given`` is not one per variant, ``TypeError`` for
    an entry that is not ``Rules``."""
    if given is not None:
        if len(given) != len(variants):
            raise ValueError(f"rules: {len(given)} given for {len(variants)} variants")
        for r in given:
            if r is not None and not isinstance(r, Rules):
                raise TypeError(f"rules are capsa.Rules or None, not {type(r).__name__}")
    known = set(presets())
    out: list[Rules | None] = []
    for k, v in enumerate(variants):
        found = given[k] if given is not None else None
        if found is None:
            for name in dict.fromkeys((v.source, v.summary.rules)):
                if name in known and _simulated(Rules.preset(name), v):
                    found = Rules.preset(name)
                    break
        out.append(found)
    return out


def rake_words(rake: dict[str, int], words: ReportWords) -> str:
    """A rake (the ``money.rake_*`` knobs by their last words) in words:
    "3%", "2.5%, from pots of 100, at most 50 a pot", "none"."""
    if rake["basis_points"] == 0:
        return words["rake.none"]
    whole, hundredths = divmod(rake["basis_points"], 100)
    parts = [words.digits(f"{whole}.{hundredths:02d}".rstrip("0").rstrip(".") + "%")]
    for key, template in (
        ("minimum_pot", "rake.from_pots"),
        ("cap_per_pot", "rake.cap_pot"),
        ("cap_per_round", "rake.cap_round"),
    ):
        if rake[key]:
            parts.append(words.fill(template, v=words.digits(f"{rake[key]:,}")))
    return ", ".join(parts)


def _points(value: int, words: ReportWords) -> str:
    if value == 1:
        return words["differ.point"]
    return words.fill("differ.points", v=words.digits(f"{value:,}"))


def _natural_value(entry: dict[str, Any] | None, words: ReportWords) -> str:
    if entry is None:
        return words["differ.not_paid"]
    parts = [_points(entry["points"], words)]
    if entry.get("same_tier"):
        parts.append(words["differ.same_tier"])
    if entry.get("bonus"):
        parts.append(words["differ.bonus"])
    if "count" in entry:
        parts.append(words.fill("differ.count", v=entry["count"]))
    return ", ".join(parts)


def _card(card: str) -> str:
    rank, suit = card[:-1], card[-1]
    return ("10" if rank == "T" else rank) + _SUIT_SIGNS.get(suit, suit)


def _value(key: str, value: Any, words: ReportWords) -> str:
    """One knob's value in words."""
    if isinstance(value, bool):
        return words["differ.yes"] if value else words["differ.no"]
    if key == "horse.card":
        return words["differ.no_horse"] if value is None else _card(value)
    if key == "suit_order":
        return " ".join(_SUIT_SIGNS.get(c, c) for c in value)
    if key == "deck.added_suits":
        if value == "none":
            return words["differ.no_added_suits"]
        return words.listed([words[f"suit.{c}"] for c in value])
    if key in _CAPS and value == 0:
        return words["differ.no_cap"]
    if key == "money.rake_basis_points":
        if value == 0:
            return words["rake.none"]
        return words.digits(words.fill("differ.percent", v=f"{value / 100:g}"))
    if isinstance(value, int):
        return words.digits(f"{value:,}")
    return words.get(f"value.{key}.{value}", str(value))


def _royalty_name(row: str, combination: str, rank: str | None, words: ReportWords) -> str:
    combo = words.get(f"combination.{combination}", combination)
    if rank is None:
        return words.fill("knob.royalty", combination=combo, row=words[f"row.{row}"])
    shown = "10" if rank == "T" else rank
    return words.fill("knob.royalty_rank", combination=combo, rank=shown, row=words[f"row.{row}"])


def _expanded(key: str, value: Any, words: ReportWords) -> list[tuple[str, str, Any]]:
    """A knob as (key, name in words, value): a table of values (the
    naturals paid, a row's royalties) as one entry per item in it."""
    if key == "naturals.enabled":
        return [
            (
                f"{key}.{e['name']}",
                words.fill("knob.natural", natural=words.get(f"natural.{e['name']}", e["name"])),
                e,
            )
            for e in value
        ]
    row = key.removeprefix("royalties.").removesuffix("_by_rank")
    if key.startswith("royalties.") and key.endswith("_by_rank"):
        return [
            (f"{key}.{combo}.{rank}", _royalty_name(row, combo, rank, words), points)
            for combo, ranks in value.items()
            for rank, points in ranks.items()
        ]
    if key in ("royalties.top", "royalties.middle", "royalties.bottom"):
        return [
            (f"{key}.{combo}", _royalty_name(row, combo, None, words), points)
            for combo, points in value.items()
        ]
    return [(key, words.get(f"knob.{key}", key), value)]


def knob_values(rules: Rules, v: Variant, words: ReportWords) -> dict[str, tuple[str, str]]:
    """Every knob of ``rules`` as {key: (name in words, value in words)},
    in the order of the knob table; the stake and rake those ``v`` was
    simulated at."""
    simulated: dict[str, Any] = {"money.stake": v.summary.stake}
    for name in RAKE_KNOBS:
        simulated[f"money.rake_{name}"] = v.summary.rake[name]
    out: dict[str, tuple[str, str]] = {}
    for key in KNOB_NAMES:
        if key in _NOT_COMPARED:
            continue
        try:
            value = simulated[key] if key in simulated else rules[key]
        except KeyError:
            value = None  # an optional knob the rules leave out
        for sub, name, item in _expanded(key, value, words):
            if sub.startswith("naturals.enabled."):
                out[sub] = (name, _natural_value(item, words))
            elif sub.startswith("royalties.") and sub.count(".") >= 2:
                out[sub] = (name, _points(item, words) if item else words["differ.no_royalty"])
            else:
                out[sub] = (name, _value(sub, item, words))
    return out


_NATURALS = list(natural_probabilities())


def _order(key: str) -> tuple[int, int]:
    """Where a knob's row goes: in the knob table's order, naturals in
    the order of their ranking."""
    base = max((k for k in KNOB_NAMES if key == k or key.startswith(k + ".")), key=len)
    name = key.removeprefix("naturals.enabled.")
    return KNOB_NAMES.index(base), _NATURALS.index(name) if name in _NATURALS else 0


def differences(
    variants: Sequence[Variant], rules: Sequence[Rules | None], words: ReportWords
) -> tuple[list[Difference], int]:
    """The knobs whose values differ between the variants whose rules are
    known, each with every such variant's value, and how many knobs are the
    same in all of them. An item one variant has and another lacks (a
    natural only one pays, a royalty only one has) differs: the other's
    value is "not paid" or "none"."""
    known = [(v, r) for v, r in zip(variants, rules, strict=True) if r is not None]
    tables = [knob_values(r, v, words) for v, r in known]
    keys = sorted(dict.fromkeys(k for t in tables for k in t), key=_order)
    missing = {
        "naturals.enabled.": words["differ.not_paid"],
        "royalties.": words["differ.no_royalty"],
    }
    rows: list[Difference] = []
    same = 0
    for key in keys:
        name = next(t[key][0] for t in tables if key in t)
        absent = next((text for prefix, text in missing.items() if key.startswith(prefix)), "-")
        values = [t[key][1] if key in t else absent for t in tables]
        if len(set(values)) > 1:
            rows.append((key, name, values))
        else:
            same += 1
    return rows, same
