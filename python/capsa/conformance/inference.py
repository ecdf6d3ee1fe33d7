"""Infer the rules an engine plays (``capsa conformance infer``).

The engine is asked targeted cases, always under one set of rules (the
*base*: the preset its ``hello`` names, or the one given, else
``capsa-susun``), and capsa's own :class:`~capsa.Rules` and settlement are
the model of its answers: for each knob the probes are cases whose answers
differ between the knob's values (capsa computes the answer under every
candidate value, so no expected answer is written here), and the values
kept are those consistent with every answer. Numeric knobs (row points,
royalties, multipliers, bonuses, natural points, surrender cost, rake) are
solved from settle answers: capsa's answer as a function of the one knob,
others held at their current estimates, is solved for the engine's answer.
The knobs depend on one another (a royalty probe involves the row point),
so the steps run in passes until none changes a value.

The result is a :class:`Inference`: the rules that explain the engine's
answers (a rules file ``capsa.Rules.load`` reads), which knobs were
probed and which not (an op the engine does not support, or a knob no case
can show under the base rules), and the *observations*: probes whose
answer no value of the knobs explains, each named with its probe.
"""

from __future__ import annotations

import itertools
import json
import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from capsa import _core
from capsa.conformance.engines import CallableEngine, Engine, ProcessEngine
from capsa.conformance.protocol import Case, RulesSpec, request_of, text_of
from capsa.conformance.serve import CapsaEngine
from capsa.conformance.vectors import _NATURAL_HANDS as _VECTOR_NATURALS
from capsa.rules import _INT_MAX, _INTS, DEFAULT_PRESET, Rules, presets

__all__ = ["Inference", "Observation", "infer"]

_ROWS = ("top", "middle", "bottom")
_FIVE_CATEGORIES = (
    "pair",
    "two-pair",
    "trips",
    "straight",
    "flush",
    "full-house",
    "quads",
    "straight-flush",
    "royal-flush",
)
_RANKING_KNOBS = ("tie_break", "suit_order", "flush_compare", "wheel")
_MAX_PASSES = 5

# ------------------------------------------------------------------ probes


@dataclass(frozen=True)
class Probe:
    """One question to the engine: a case under the base rules, the knobs
    whose value it shows, and what it shows in words (for an observation)."""

    name: str
    op: str
    input: Mapping[str, Any]
    knobs: tuple[str, ...]
    why: str
    money: bool = False  # compare the rake too, not only the points

    def case(self, spec: RulesSpec) -> Case:
        return Case(self.op, spec, self.input)


def _seat(
    rows: str | Sequence[int], surrender: bool = False, declare: bool = False
) -> dict[str, Any]:
    if isinstance(rows, str):
        parts = [" ".join(p.split()) for p in rows.split("/")]
        ids = [c for part in parts for c in _core.card_ids(part)]
    else:
        ids = list(rows)
    return {
        "top": text_of(ids[:3]),
        "middle": text_of(ids[3:8]),
        "bottom": text_of(ids[8:]),
        "surrender": surrender,
        "declare_natural": declare,
    }


def _round(*seats: dict[str, Any], stakes: int = 1) -> dict[str, Any]:
    return {"round": {"seats": list(seats), "stakes": stakes}}


def _settle(
    name: str,
    knobs: Iterable[str],
    why: str,
    *seats: dict[str, Any],
    stakes: int = 1,
    money: bool = False,
) -> Probe:
    return Probe(name, "settle", _round(*seats, stakes=stakes), tuple(knobs), why, money)


# Seat 0 wins the top and the middle and loses the bottom; no row holds more
# than two pair, so no royalty of any preset applies.
_WIN2 = "Ah Qd 3c / Ks Kh 8d 6c 2s / Jd Jc 9h 9s 4d"
_LOSE1 = "Kd Jh 5c / Qs Qh 7d 5d 3h / As Ac 7s 7c 2h"
_TIE_BOTTOM = "Kd Th 5c / Qs Qh 7d 5d 3h / Jh Js 9d 9c 4h"  # the bottom ties without a suit rule
_SCOOPED = "Kd Jh 5c / Qs Qh 7d 5d 3h / Ts Tc 8h 8c 2h"
_FOULED = "As Ac 2h / Qs Qh 7d 5d 3h / Kd Jh 5c 7s 7c"  # a top pair of aces over the middle
_QUADS = "Ah Qd 3c / Ks Kh 8d 6c 2s / 9h 9s 9d 9c 4d"  # _WIN2 with bottom quads
_STRAIGHT_FLUSH_BOTTOM = "Kd Jh 5c / Qs Qh 7d 5d 3h / 8s 7s 6s 5s 4s"
_TOP_PAIR_WINS = "Ts Tc 2h / Qs Qh 7d 5d 3h / 8h 8c 7s 7c 2d"
# A seat that wins every row against each of the three others, no royalty.
_SWEEPER = "As Ah 2c / Ks Kh Qs Qh 3d / Ac Ad 4d 4c 5h"
_SWEPT = (
    "Kd 7d 2d / Jd Jc 6d 4h 3c / Td Tc 9d 9c 8d",
    "Qd 7c 2h / Jh Js 6c 5d 3h / Th Ts 9h 9s 8c",
    "Qc 7h 2s / Kc 7s 6s 5s 4s / 8h 8s 6h 5c 3s",
)


def _compare(name: str, a: str, b: str, knobs: Iterable[str], why: str) -> Probe:
    return Probe(name, "compare", {"a": a, "b": b}, tuple(knobs), why)


def _ranking_probes() -> list[Probe]:
    probes = [
        _compare(
            "wheel-vs-six",
            "As 2d 3c 4h 5s",
            "2c 3d 4s 5h 6d",
            ["wheel"],
            "A-2-3-4-5 against 2-3-4-5-6",
        ),
        _compare(
            "wheel-vs-king",
            "As 2d 3c 4h 5s",
            "9c Td Js Qh Kd",
            ["wheel"],
            "A-2-3-4-5 against 9-T-J-Q-K",
        ),
        _compare(
            "wheel-flush",
            "Ah 2h 3h 4h 5h",
            "9s Ts Js Qs Ks",
            ["wheel"],
            "the A-5 straight flush against the K-high one",
        ),
    ]
    suits = "shcd"
    for x, y in itertools.combinations(suits, 2):
        z, w = (s for s in suits if s not in (x, y))
        probes.append(
            _compare(
                f"suit-{x}{y}",
                f"A{x} K{z} Q{z} J{w} 9{w}",
                f"A{y} K{w} Q{w} J{z} 9{z}",
                ["tie_break", "suit_order"],
                f"equal ranks, the aces of {x} and {y}",
            )
        )
        probes.append(
            _compare(
                f"flush-{x}{y}",
                f"2{x} 4{x} 6{x} 8{x} T{x}",
                f"3{y} 5{y} 7{y} 9{y} J{y}",
                ["flush_compare", "suit_order"],
                f"a T-high flush of {x} against a J-high flush of {y}",
            )
        )
    return probes


def _fixed_rule_probes(ops: set[str]) -> list[Probe]:
    """Cases no knob changes: an engine that differs has a rule capsa does not."""
    out = []
    if "compare" in ops:
        out += [
            _compare(
                "top-no-straight",
                "2d 3c 4h",
                "Ac Kd 9s",
                [],
                "three consecutive cards make no straight (4-high loses to ace-high)",
            ),
            _compare(
                "top-no-straight-ace",
                "Qd Kc Ah",
                "2s 2h 3d",
                [],
                "Q-K-A is no straight in three cards (it loses to a pair)",
            ),
            _compare(
                "top-no-flush",
                "2s 7s 9s",
                "2d 2c 3h",
                [],
                "three cards of one suit make no flush (they lose to a pair)",
            ),
            _compare("no-wrap", "Qd Kc As 2h 3d", "4c 5d 6h 7s 8c", [], "Q-K-A-2-3 is no straight"),
            _compare(
                "three-vs-five",
                "Kd Kc Ad 7c 3d",
                "Ks Kh As",
                [],
                "a middle K-K-A-7-3 against a top K-K-A (the longer hand wins the prefix)",
            ),
        ]
    if "category" in ops:
        out += [
            Probe(
                "category-top-run",
                "category",
                {"hand": "2d 3c 4h"},
                (),
                "the category of three consecutive cards (no straight in three cards)",
            ),
            Probe(
                "category-top-suited",
                "category",
                {"hand": "2s 7s 9s"},
                (),
                "the category of three cards of one suit (no flush in three cards)",
            ),
        ]
    return out


def _foul_probes() -> list[Probe]:
    """Arrangements with two rows of equal strength, as equal as ranks make them."""
    return [
        Probe(
            "foul-equal-middle-bottom",
            "foul",
            {"top": "2d 3c 5h", "middle": "Ks Kh 8d 6c 4s", "bottom": "Kd Kc 8h 6s 4d"},
            ("foul_check",),
            "a middle and a bottom of the same ranks",
        ),
        Probe(
            "foul-equal-top-middle",
            "foul",
            {"top": "Ks Kh Ad", "middle": "Kd Kc As 7c 3d", "bottom": "9s 9h 9d 2c 2s"},
            ("foul_check",),
            "a top K-K-A below a middle K-K-A-7-3",
        ),
        Probe(
            "foul-equal-straights",
            "foul",
            {"top": "2s 3s 5d", "middle": "9s Td Jc Qh Kd", "bottom": "9h Tc Js Qd Kc"},
            ("foul_check",),
            "a middle and a bottom straight of the same ranks",
        ),
    ]


# ------------------------------------------------------------------ settle probes


def _settle_probes(ties: bool) -> list[Probe]:
    rows = ("row_points", "overall_point")
    scoop = ("scoop.multiplier", "scoop.bonus")
    sweep = ("sweep_all.multiplier", "sweep_all.bonus")
    probes = [
        _settle(
            "rows-2-1",
            rows,
            "seat 0 wins two rows and loses one, no royalty",
            _seat(_WIN2),
            _seat(_LOSE1),
        ),
        _settle(
            "scoop", scoop, "seat 0 wins all three rows, no royalty", _seat(_WIN2), _seat(_SCOOPED)
        ),
        _settle(
            "royalty-lost",
            ("royalty_mode", "royalty_adds"),
            "seat 0's bottom quads lose to a straight flush (who collects royalties)",
            _seat(_QUADS),
            _seat(_STRAIGHT_FLUSH_BOTTOM),
        ),
        _settle(
            "royalty-won",
            ("royalty_adds",),
            "seat 0 wins its bottom quads and the middle, loses the top",
            _seat(_QUADS),
            _seat(_TOP_PAIR_WINS),
        ),
        _settle(
            "scoop-royalty",
            ("scoop.multiply_royalties",),
            "seat 0 scoops with bottom quads (is the royalty multiplied)",
            _seat(_QUADS),
            _seat(_SCOOPED),
        ),
        _settle(
            "sweep-4",
            (*sweep, "sweep_all.min_players"),
            "seat 0 wins every row against three others",
            _seat(_SWEEPER),
            *(_seat(s) for s in _SWEPT),
        ),
        _settle(
            "sweep-3",
            ("sweep_all.min_players",),
            "seat 0 wins every row against two others",
            _seat(_SWEEPER),
            *(_seat(s) for s in _SWEPT[:2]),
        ),
        _settle(
            "sweep-2",
            ("sweep_all.min_players",),
            "seat 0 wins every row against one other",
            _seat(_SWEEPER),
            _seat(_SWEPT[0]),
        ),
        _settle(
            "foul",
            ("foul.mode", "foul.points"),
            "seat 1 fouls, seat 0 has no royalty",
            _seat(_WIN2),
            _seat(_FOULED),
        ),
        _settle(
            "foul-royalty",
            ("foul.pays_royalties",),
            "seat 1 fouls against seat 0's bottom quads",
            _seat(_QUADS),
            _seat(_FOULED),
        ),
        _settle(
            "surrender",
            ("surrender.enabled", "surrender.cost"),
            "seat 1 surrenders against plain rows",
            _seat(_WIN2),
            _seat(_LOSE1, surrender=True),
        ),
        _settle(
            "surrender-vs-foul",
            (),
            "seat 1 surrenders against a fouled hand (nothing changes hands)",
            _seat(_FOULED),
            _seat(_WIN2, surrender=True),
        ),
    ]
    if ties:
        probes.append(
            _settle(
                "rows-2-tie",
                rows,
                "seat 0 wins two rows and ties the bottom",
                _seat(_WIN2),
                _seat(_TIE_BOTTOM),
            )
        )
    return probes


def _rake_probes() -> list[Probe]:
    return [
        _settle(
            f"rake-stake-{s}",
            ("money.rake_percent",),
            f"seat 0 wins {s} a point: the rake on its money",
            _seat(_WIN2),
            _seat(_LOSE1),
            stakes=s,
            money=True,
        )
        for s in (100, 33, 7)
    ]


# Royalty cases: seat 0 holds the category in the row and wins it.
_BOTTOM_HANDS = {
    "pair": "Ad Ac Kh Qd Js",
    "two-pair": "Ad Ac Kh Kd Qs",
    "trips": "Ad Ac Ah Kd Qs",
    "straight": "Ts Jd Qc Kh Ad",
    "flush": "Ah Kh Qh Jh 9h",
    "full-house": "Ad Ac Ah Kd Ks",
    "quads": "Ad Ac Ah As Kd",
    "straight-flush": "9h Th Jh Qh Kh",
    "royal-flush": "Ts Js Qs Ks As",
}
# (middle, the bottom above it)
_MIDDLE_HANDS = {
    "pair": ("2d 2c 5h 7d 9s", "Ad Ac Kh Qd Js"),
    "two-pair": ("3d 3c 2h 2d 9s", "Ad Ac Kh Kd Qs"),
    "trips": ("2d 2c 2h 5d 7s", "Ad Ac Ah Kd Qs"),
    "straight": ("2d 3c 4h 5s 6d", "Ts Jd Qc Kh Ad"),
    "flush": ("2c 4c 6c 8c Tc", "Ah Kh Qh Jh 9h"),
    "full-house": ("2d 2c 2h 3d 3s", "Ad Ac Ah Kd Ks"),
    "quads": ("2d 2c 2h 2s 3d", "Ad Ac Ah As Kd"),
    "straight-flush": ("2c 3c 4c 5c 6c", "9h Th Jh Qh Kh"),
    "royal-flush": ("Td Jd Qd Kd Ad", "Ts Js Qs Ks As"),
}
# (top, middle, bottom)
_TOP_HANDS = {
    "pair": ("Qd Qc 4h", "5d 5c 3h 3d 9s", "Kd Kc 7h 7d 8s"),
    "trips": ("Qd Qc Qh", "Kd Kc Kh 2d 3c", "Ad Ac Ah 4d 5c"),
}


def _royalty_probe(row: str, category: str, rules: Rules) -> Probe | None:
    """A two-seat round where seat 0 wins ``row`` with ``category`` and, when it
    can, loses another row; the other rows are high cards where they can be."""
    rng = random.Random(f"{row}/{category}")
    if row == "bottom":
        fixed = {"bottom": _core.card_ids(_BOTTOM_HANDS[category])}
    elif row == "middle":
        middle, bottom = _MIDDLE_HANDS[category]
        fixed = {"middle": _core.card_ids(middle), "bottom": _core.card_ids(bottom)}
    else:
        top, middle, bottom = _TOP_HANDS[category]
        fixed = {r: _core.card_ids(t) for r, t in zip(_ROWS, (top, middle, bottom), strict=True)}
    used = {c for ids in fixed.values() for c in ids}
    rest = [c for c in range(52) if c not in used]
    size = {"top": 3, "middle": 5, "bottom": 5}
    for attempt in range(4000):
        strict = attempt < 2500
        rng.shuffle(rest)
        deck = iter(rest)
        seat0 = {r: fixed.get(r) or [next(deck) for _ in range(size[r])] for r in _ROWS}
        seat1_cards = [next(deck) for _ in range(13)]
        seat1 = {"top": seat1_cards[:3], "middle": seat1_cards[3:8], "bottom": seat1_cards[8:]}
        if _core.compare(seat1["middle"], seat1["bottom"], rules) > 0:
            seat1["middle"], seat1["bottom"] = seat1["bottom"], seat1["middle"]
        flat0 = [c for r in _ROWS for c in seat0[r]]
        flat1 = [c for r in _ROWS for c in seat1[r]]
        if _core.is_foul(flat0, rules) or _core.is_foul(flat1, rules):
            continue
        results = {r: _core.compare(seat0[r], seat1[r], rules) for r in _ROWS}
        if results[row] <= 0 or 0 in results.values():
            continue
        if strict and all(v > 0 for v in results.values()):
            continue  # a scoop only once no round with a lost row turned up
        plain = all(_core.evaluate(seat1[r], rules).category == "high-card" for r in _ROWS) and all(
            _core.evaluate(seat0[r], rules).category == "high-card" for r in _ROWS if r not in fixed
        )
        if strict and not plain:
            continue
        knob = f"royalties.{row}.{category}"
        return _settle(
            f"royalty-{row}-{category}",
            (knob,),
            f"seat 0 wins the {row} with {category}",
            _seat(flat0),
            _seat(flat1),
        )
    return None


# Natural hands: one 13-card hand qualifying for each natural, and twins of
# equal naturals with different ranks (for naturals.ties).
_NATURAL_HANDS = {name: has for name, (has, _) in _VECTOR_NATURALS.items()}
_TWINS = {
    "six-pairs": (
        "2d 2c 4d 4c 6d 6c 8d 8c Td Tc Qd Qc As",
        "3d 3c 5d 5c 7d 7c 9d 9c Jd Jc Kd Kc Ah",
    ),
    "four-triples": (
        "2d 2c 2h 5d 5c 5h 9d 9c 9h Kd Kc Kh As",
        "3d 3c 3h 6d 6c 6h Td Tc Th Qd Qc Qh Ah",
    ),
    "five-pairs-trips": (
        "2d 2c 4d 4c 6d 6c 8d 8c Td Tc Qd Qc Qh",
        "3d 3c 5d 5c 7d 7c 9d 9c Jd Jc Kd Kc Ks",
    ),
}
_SUIT_PERMUTATIONS = list(itertools.permutations(range(4)))


def _relabel(ids: Sequence[int], perm: Sequence[int]) -> list[int]:
    return [4 * (c // 4) + perm[c % 4] for c in ids]


def _rows_of(hand: Sequence[int], rules: Rules, foul: bool = False) -> list[int]:
    """13 ids laid out top, middle, bottom: a legal split, or a fouled one."""
    if not foul:
        from capsa.solver import best_arrangement

        cards = best_arrangement(list(hand), rules, strategy="greedy").arrangement.cards
        return [c.id for c in cards]
    ranked = sorted(hand, reverse=True)  # the strongest cards on top: a foul, nearly always
    for perm in itertools.islice(itertools.permutations(ranked), 0, 2000, 97):
        if _core.is_foul(list(perm), rules):
            return list(perm)
    return ranked


def _plain_seat(used: set[int], rules: Rules, seed: str) -> dict[str, Any]:
    """A seat of 13 cards not in ``used``, legal rows, not declaring a natural."""
    rng = random.Random(seed)
    rest = [c for c in range(52) if c not in used]
    rng.shuffle(rest)
    return _seat(_rows_of(sorted(rest[:13]), rules))


def _natural_hand(name: str, rules: Rules, used: set[int]) -> list[int] | None:
    """13 cards not in ``used`` whose natural under ``rules`` is ``name``: a
    catalogue hand, relabelled by suits when needed."""
    own = _core.card_ids(_NATURAL_HANDS[name])
    others = [_core.card_ids(h) for n, h in _NATURAL_HANDS.items() if n != name]
    for base in (own, *others):
        if name not in _core.naturals(base):
            continue
        for perm in _SUIT_PERMUTATIONS:
            ids = _relabel(base, perm)
            if not used.intersection(ids) and _core.natural(ids, rules) == name:
                return ids
    return None


# ------------------------------------------------------------------ knobs


def _get(rules: Rules, knob: str) -> Any:
    if knob.startswith("royalties."):
        _, row, category = knob.split(".")
        return rules["royalties"][row].get(category, 0)
    if knob.startswith("naturals.points."):
        name = knob.rsplit(".", 1)[1]
        for item in rules["naturals.enabled"]:
            if item["name"] == name:
                return item["points"]
        return None
    return rules[knob]


def _with(rules: Rules, changes: Mapping[str, Any]) -> Rules:
    """``rules`` with knobs changed, a royalty (``royalties.bottom.quads``) and a
    natural's points (``naturals.points.dragon``) included."""
    plain: dict[str, Any] = {}
    data = rules.to_dict()
    for knob, value in changes.items():
        if knob.startswith("royalties."):
            _, row, category = knob.split(".")
            table = plain.setdefault(f"royalties.{row}", dict(data["royalties"][row]))
            if value:
                table[category] = value
            else:
                table.pop(category, None)
        elif knob.startswith("naturals.points."):
            name = knob.rsplit(".", 1)[1]
            enabled = plain.setdefault("naturals.enabled", data["naturals"]["enabled"])
            for item in enabled:
                if item["name"] == name:
                    item["points"] = value
        else:
            plain[knob] = value
    return rules.derive(plain) if plain else rules


# ------------------------------------------------------------------ results


@dataclass
class Observation:
    """An answer no value of the knobs explains: ``probe`` (the name of the
    probe that showed it), ``knobs`` (the knobs it bears on), ``message`` (in
    words) and ``request`` (what was asked, to replay it). Built by
    :func:`infer`; raises nothing."""

    probe: str
    knobs: tuple[str, ...]
    message: str
    request: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """The observation as a JSON-ready dict."""
        return {
            "probe": self.probe,
            "knobs": list(self.knobs),
            "message": self.message,
            "request": self.request,
        }


@dataclass
class Inference:
    """What ``infer`` found: ``rules`` (the rules the engine plays, as far as
    the probes show), ``base`` (the rules the probes were sent under),
    ``engine`` (its ``hello`` answer), ``probed`` (knob -> the probes that
    decided it), ``not_probed`` and ``undetermined`` (knob -> why),
    ``observations`` (answers no knob explains), ``asked`` (requests sent)
    and ``notes``. Built by :func:`infer`; raises nothing."""

    rules: Rules
    base: Rules
    engine: dict[str, Any]
    probed: dict[str, list[str]]
    not_probed: dict[str, str]
    undetermined: dict[str, str]
    observations: list[Observation]
    asked: int
    notes: list[str] = field(default_factory=list)

    def changed(self) -> dict[str, tuple[Any, Any]]:
        """Knob -> (the base's value, the inferred one), for every knob that differs."""
        out = {}
        for knob in _all_knobs(self.base) | _all_knobs(self.rules):
            before, after = _get(self.base, knob), _get(self.rules, knob)
            if before != after and knob != "name":
                out[knob] = (before, after)
        return dict(sorted(out.items()))

    def to_toml(self) -> str:
        """The inferred rules as a rules file, the findings as comments."""
        lines = [
            f"# Rules inferred by capsa conformance infer from {self.engine.get('engine')!r},",
            f"# probed under {self.base.name!r} ({self.asked} requests).",
        ]
        lines += [f"# note: {note}" for note in self.notes]
        for knob, (before, after) in self.changed().items():
            shown = f"{json.dumps(after)} (the base has {json.dumps(before)})"
            lines.append(f"# changed: {knob} = {shown}")
        for knob, reason in sorted(self.undetermined.items()):
            lines.append(f"# not determined: {knob}: {reason}")
        for knob, reason in sorted(self.not_probed.items()):
            lines.append(f"# not probed: {knob}: {reason}")
        for obs in self.observations:
            lines.append(f"# observation [{obs.probe}]: {obs.message}")
        # an engine's text in a comment must not end the comment
        comments = "\n".join(_printable(line) for line in lines)
        return comments + "\n" + self.rules.to_toml()

    def to_json(self) -> dict[str, Any]:
        """The findings as a JSON-ready dict (the rules as ``Rules.to_dict()``)."""
        return {
            "engine": self.engine,
            "base": self.base.name,
            "asked": self.asked,
            "rules": self.rules.to_dict(),
            "changed": {k: list(v) for k, v in self.changed().items()},
            "probed": self.probed,
            "not_probed": self.not_probed,
            "undetermined": self.undetermined,
            "observations": [o.to_json() for o in self.observations],
            "notes": self.notes,
        }

    def summary(self) -> str:
        """One line: how many knobs differ, observations, probed and not."""
        changed = self.changed()
        parts = [f"{len(changed)} knob(s) differ from {self.base.name}"]
        parts.append(f"{len(self.observations)} observation(s)")
        parts.append(
            f"{len(self.probed)} probed, {len(self.undetermined)} not determined, "
            f"{len(self.not_probed)} not probed"
        )
        return ", ".join(parts) + f" ({self.asked} requests)"


def _printable(text: str) -> str:
    """``text`` with every character that is not printable escaped."""
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


def _all_knobs(rules: Rules) -> set[str]:
    out: set[str] = set()
    for key, value in rules.to_dict().items():
        if key == "royalties":
            for row, table in value.items():
                out.update(f"royalties.{row}.{c}" for c in table)
        elif key == "naturals":
            out.update(f"naturals.{k}" for k in value if k != "enabled")
            out.update(f"naturals.points.{i['name']}" for i in value["enabled"])
            out.add("naturals.enabled")
        elif isinstance(value, dict):
            out.update(f"{key}.{k}" for k in value)
        else:
            out.add(key)
    return out


# ------------------------------------------------------------------ the inference


Answer = tuple[str, Any]  # ("ok", result) or ("error", kind)


class _Inferrer:
    def __init__(self, engine: Engine, base: Rules, hello: dict[str, Any]) -> None:
        self.engine = engine
        self.base = base
        self.spec = _spec_of(base)
        self.hello = hello
        self.ops = set(hello.get("ops", []))
        self.money = bool(hello.get("money"))
        self.rules = base
        self.answers: dict[str, Answer] = {}
        self.probes: dict[str, Probe] = {}
        self.probed: dict[str, list[str]] = {}
        self.not_probed: dict[str, str] = {}
        self.undetermined: dict[str, str] = {}
        self.fitting: dict[str, list[Any]] = {}  # knob -> the values the last choice kept
        self.natural_after: dict[str, set[str]] = {}
        self.observations: list[Observation] = []
        self.capsa = CapsaEngine()
        self.asked = 0
        self._next_id = 1

    # ---------------------------------------------------------- asking

    def ask(self, probes: Iterable[Probe]) -> None:
        fresh = [p for p in probes if p.name not in self.answers and p.op in self.ops]
        if not fresh:
            return
        requests = []
        for probe in fresh:
            self.probes[probe.name] = probe
            requests.append((self._next_id, probe.case(self.spec)))
            self._next_id += 1
        outcomes = self.engine.exchange(requests)
        self.asked += len(requests)
        for probe, outcome in zip(fresh, outcomes, strict=True):
            response = outcome.response or {}
            if outcome.status != "ok":
                self.answers[probe.name] = ("failed", outcome.detail)
            elif "error" in response:
                error = response["error"]
                kind = error.get("kind") if isinstance(error, dict) else None
                self.answers[probe.name] = ("error", kind)
            else:
                self.answers[probe.name] = ("ok", response["result"])

    def got(self, probe: Probe) -> Any:
        """The engine's answer in comparable form, or None when it gave none."""
        answer = self.answers.get(probe.name)
        if answer is None or answer[0] == "failed" or answer == ("error", "unsupported"):
            return None
        return self._view(probe, answer)

    def expect(self, probe: Probe, rules: Rules) -> Any:
        request = request_of(0, probe.case(self.spec))
        response = self.capsa.handle(request, rules)
        answer: Answer = ("ok", response["result"]) if "result" in response else ("error", None)
        return self._view(probe, answer)

    def _view(self, probe: Probe, answer: Answer) -> Any:
        if answer[0] != "ok":
            return ("error",)
        result = answer[1]
        if probe.op != "settle":
            return result
        points = _integers(result.get("points")) if isinstance(result, dict) else None
        if points is None:
            return ("malformed", _show(result))
        if probe.money and self.money:
            rake = _integers(result.get("rake"))
            return (points, rake) if rake is not None else ("malformed", _show(result))
        return points

    def answered(self, probes: Iterable[Probe]) -> list[Probe]:
        return [p for p in probes if self.got(p) is not None]

    # ---------------------------------------------------------- bookkeeping

    def note(self, knobs: Iterable[str], probes: Iterable[Probe]) -> None:
        names = [p.name for p in probes]
        for knob in knobs:
            self.probed.setdefault(knob, [])
            self.probed[knob] += [n for n in names if n not in self.probed[knob]]

    def skip(self, knobs: Iterable[str], reason: str) -> None:
        for knob in knobs:
            if knob not in self.probed:
                self.not_probed.setdefault(knob, reason)

    # ---------------------------------------------------------- solving

    def choose(self, candidates: Sequence[Mapping[str, Any]], probes: Sequence[Probe]) -> bool:
        """Keeps the first candidate (knob changes) consistent with every answer,
        the current values when they are; True when the rules changed."""
        answered = self.answered(probes)
        if not answered:
            return False
        knobs = sorted({k for c in candidates for k in c})
        current = {k: _get(self.rules, k) for k in knobs}
        predictions = []
        for candidate in candidates:
            rules = _with(self.rules, candidate)
            predictions.append([self.expect(p, rules) for p in answered])
        if all(pred == predictions[0] for pred in predictions):
            return False  # no probe tells these values apart
        showing = [
            p
            for k, p in enumerate(answered)
            if len({json.dumps(pred[k], sort_keys=True) for pred in predictions}) > 1
        ]
        self.note(knobs, showing)
        got = [self.got(p) for p in answered]
        consistent = [c for c, pred in zip(candidates, predictions, strict=True) if pred == got]
        if len(knobs) == 1:
            self.fitting[knobs[0]] = [c[knobs[0]] for c in consistent]
        if not consistent or any(
            all(_get(self.rules, k) == v for k, v in c.items()) for c in consistent
        ):
            return False
        chosen = consistent[0]
        if all(current[k] == v for k, v in chosen.items()):
            return False
        self.rules = _with(self.rules, chosen)
        return True

    def consistent(self, probes: Iterable[Probe], rules: Rules | None = None) -> bool:
        """Whether capsa under ``rules`` (the current ones) gives every answer."""
        rules = rules or self.rules
        return all(self.expect(p, rules) == self.got(p) for p in self.answered(probes))

    def solve(self, knob: str, probes: Sequence[Probe]) -> bool:
        """Solves an integer knob from seat 0's points in each answered probe (the
        others held); True when the value changed."""
        low, high = _INTS.get(knob, (0, _INT_MAX))
        answered = self.answered(probes)
        current = _get(self.rules, knob)
        if not answered or current is None:
            return False

        def points(value: int, probe: Probe) -> int | None:
            seen = self.expect(probe, _with(self.rules, {knob: value}))
            if isinstance(seen, tuple) and seen and isinstance(seen[0], int):
                return int(seen[0])
            return None

        shown = [
            p
            for p in answered
            if points(low, p) != points(low + 1, p) or points(current, p) != points(current + 1, p)
        ]
        if not shown:
            return False
        self.note([knob], shown)
        if all(self.expect(p, self.rules) == self.got(p) for p in answered):
            return False
        for probe in shown:
            got = self.got(probe)
            target = got[0] if isinstance(got, tuple) and got and isinstance(got[0], int) else None
            if target is None:
                continue
            for a in (low, max(low, current), max(low, current) + 64):
                fa, fb = points(a, probe), points(a + 1, probe)
                if fa is None or fb is None or fa == fb or (target - fa) % (fb - fa):
                    continue
                value = a + (target - fa) // (fb - fa)
                if not low <= value <= high:
                    continue
                trial = _with(self.rules, {knob: value})
                if all(self.expect(p, trial) == self.got(p) for p in answered):
                    if value != current:
                        self.rules = trial
                        return True
                    return False
        return False

    # ---------------------------------------------------------- the parts

    def ranking(self) -> None:
        probes = _ranking_probes()
        if "compare" not in self.ops:
            self.skip(_RANKING_KNOBS, "the engine does not support compare")
            return
        self.ask(probes)
        answered = self.answered(probes)
        if not answered:
            self.skip(_RANKING_KNOBS, "the engine answered no compare probe")
            return
        combos = []
        for tie_break, order, flush, wheel in itertools.product(
            ("suit", "none"),
            ["".join(p) for p in itertools.permutations("shcd")],
            ("ranks", "suit-first"),
            ("low", "second"),
        ):
            combos.append(
                {
                    "tie_break": tie_break,
                    "suit_order": order,
                    "flush_compare": flush,
                    "wheel": wheel,
                }
            )
        got = [self.got(p) for p in answered]
        scored = []
        for combo in combos:
            rules = self.rules.derive(combo)
            misses = sum(
                _core.compare(p.input["a"], p.input["b"], rules) != g
                for p, g in zip(answered, got, strict=True)
            )
            changes = sum(self.rules[k] != v for k, v in combo.items())
            scored.append((misses, changes, combo))
        best = min(scored, key=lambda s: (s[0], s[1]))
        fits = [c for m, _, c in scored if m == best[0]]
        self.rules = self.rules.derive(best[2])
        for knob in _RANKING_KNOBS:
            if len({c[knob] for c in combos}) > 1 and len({c[knob] for c in fits}) == 1:
                self.note([knob], [p for p in answered if knob in p.knobs])
            else:
                self.not_probed.setdefault(
                    knob, "no answer depends on it given the other ranking knobs (kept)"
                )

    def fixed_rules(self) -> None:
        self.ask(_fixed_rule_probes(self.ops))

    def fouls(self) -> None:
        if "foul" not in self.ops:
            self.skip(["foul_check"], "the engine does not support foul")
            return
        probes = _foul_probes()
        self.ask(probes)
        self.choose([{"foul_check": v} for v in ("allow-equal", "strict")], probes)
        if "foul_check" not in self.probed:
            self.skip(["foul_check"], "no two rows can be equal under these ranking rules")

    def naturals(self) -> None:
        if "natural" not in self.ops:
            self.skip(["naturals.enabled"], "the engine does not support natural")
            return
        probes = [
            Probe(
                f"natural-{name}",
                "natural",
                {"hand": text},
                ("naturals.enabled",),
                f"13 cards that qualify for {name}",
            )
            for name, text in _NATURAL_HANDS.items()
        ]
        self.ask(probes)
        answered = self.answered(probes)
        if not answered:
            self.skip(["naturals.enabled"], "the engine answered no natural probe")
            return
        self.note(["naturals.enabled"], answered)
        current_order = [i["name"] for i in self.rules["naturals.enabled"]]
        paid: list[str] = []
        against: set[str] = set()  # naturals some answer shows are not paid
        before: dict[str, set[str]] = {}  # name -> names it must come after
        for probe in answered:
            name = self.got(probe)
            qualifies = set(_core.naturals(probe.input["hand"]))
            if name is None:
                against |= qualifies
                continue
            if not isinstance(name, str) or name not in qualifies:
                continue  # an answer capsa cannot model: the verification reports it
            if name not in paid:
                paid.append(name)
            for other in qualifies - {name}:
                before.setdefault(other, set()).add(name)
                listed = other in current_order and name in current_order
                if listed and current_order.index(other) < current_order.index(name):
                    against.add(other)  # it would have been answered, were it paid first
        # A natural never answered but shadowed each time by one paid before it
        # stays as it is: no answer says otherwise.
        paid += [n for n in current_order if n not in paid and n not in against]
        self.natural_after = before
        current = {i["name"]: i["points"] for i in self.rules["naturals.enabled"]}
        self.reorder_naturals([{"name": n, "points": current.get(n, 0)} for n in paid])

    def reorder_naturals(self, enabled: Sequence[Mapping[str, Any]]) -> None:
        """Orders the paid naturals as the answers require (``natural_after``),
        the rest by points (strongest first), then as the rules list them."""
        order = [i["name"] for i in self.rules["naturals.enabled"]]
        points = {i["name"]: i["points"] for i in enabled}

        def rank(name: str) -> tuple[int, int]:
            listed = (
                order.index(name) if name in order else len(order) + _core.NATURAL_NAMES.index(name)
            )
            return (-points[name], listed)

        ordered: list[str] = []
        left = set(points)
        while left:
            ready = [n for n in left if not (self.natural_after.get(n, set()) & left)] or list(left)
            pick = min(ready, key=rank)
            ordered.append(pick)
            left.remove(pick)
        new = [{"name": n, "points": points[n]} for n in ordered]
        if new != self.rules["naturals.enabled"]:
            self.rules = self.rules.derive({"naturals.enabled": new})

    def natural_precedence(self) -> None:
        """Which of two paid naturals is the stronger, from a round of one against
        the other, for every pair no ``natural`` answer has ordered."""
        enabled = [i["name"] for i in self.rules["naturals.enabled"]]
        probes = []
        for first, second in itertools.combinations(enabled, 2):
            if first in self.natural_after.get(second, set()) or second in self.natural_after.get(
                first, set()
            ):
                continue
            a = _natural_hand(first, self.rules, set())
            b = _natural_hand(second, self.rules, set(a or ()))
            if a is None or b is None:
                continue
            probes.append(
                _settle(
                    f"natural-order-{first}-{second}",
                    ("naturals.enabled",),
                    f"{first} against {second} (which is stronger)",
                    _seat(_rows_of(a, self.rules), declare=True),
                    _seat(_rows_of(b, self.rules), declare=True),
                )
            )
        self.ask(probes)
        for probe in self.answered(probes):
            pair = next(
                (x, y)
                for x, y in itertools.combinations(enabled, 2)
                if probe.name == f"natural-order-{x}-{y}"
            )
            got = self.got(probe)
            seen = []
            for strong, weak in (pair, pair[::-1]):
                listed = [n for n in enabled if n != weak]
                listed.insert(listed.index(strong) + 1, weak)
                items = {i["name"]: i for i in self.rules["naturals.enabled"]}
                trial = self.rules.derive({"naturals.enabled": [items[n] for n in listed]})
                seen.append(self.expect(probe, trial))
            if seen[0] == seen[1]:
                continue
            self.note(["naturals.enabled"], [probe])
            if got == seen[0]:
                self.natural_after.setdefault(pair[1], set()).add(pair[0])
            elif got == seen[1]:
                self.natural_after.setdefault(pair[0], set()).add(pair[1])
        self.reorder_naturals(self.rules["naturals.enabled"])
        loose = self.unordered_naturals()
        if loose:
            self.probed.pop("naturals.enabled", None)
            self.undetermined["naturals.enabled"] = (
                f"no answer shows whether {loose[0]} or {loose[1]} is the stronger "
                "(listed by points, then as the base lists them)"
            )

    def unordered_naturals(self) -> tuple[str, str] | None:
        """Two neighbours in the inferred list that no answer orders, if any."""
        names = [i["name"] for i in self.rules["naturals.enabled"]]

        def above(name: str) -> set[str]:
            seen: set[str] = set()
            todo = list(self.natural_after.get(name, ()))
            while todo:
                n = todo.pop()
                if n not in seen:
                    seen.add(n)
                    todo.extend(self.natural_after.get(n, ()))
            return seen

        for first, second in itertools.pairwise(names):
            if first not in above(second):
                return first, second
        return None

    def settle_probes(self) -> list[Probe]:
        probes = _settle_probes(self.rules["tie_break"] == "none")
        for row, categories in (
            ("bottom", _FIVE_CATEGORIES),
            ("middle", _FIVE_CATEGORIES),
            ("top", tuple(_TOP_HANDS)),
        ):
            for category in categories:
                probe = _royalty_probe(row, category, self.rules)
                if probe is None:
                    self.skip(
                        [f"royalties.{row}.{category}"],
                        "no legal round shows it under the inferred ranking",
                    )
                else:
                    probes.append(probe)
        return probes

    def natural_settle_probes(self) -> list[Probe]:
        rules = self.rules
        out = []
        enabled = [i["name"] for i in rules["naturals.enabled"]]
        for name in enabled:
            hand = _natural_hand(name, rules, set())
            if hand is None:
                self.skip([f"naturals.points.{name}"], "no catalogue hand pays it first")
                continue
            seat0 = _seat(_rows_of(hand, rules), declare=True)
            seat1 = _plain_seat(set(hand), rules, name)
            out.append(
                _settle(
                    f"natural-points-{name}",
                    (f"naturals.points.{name}",),
                    f"seat 0 declares {name} against plain rows",
                    seat0,
                    seat1,
                )
            )
            if len(out) == 1:
                fouled = _rows_of(hand, rules, foul=True)
                if _core.is_foul(fouled, rules):
                    out.append(
                        _settle(
                            "natural-over-foul",
                            (),
                            f"seat 0 declares {name} with fouled rows (the natural "
                            "decides, not the rows)",
                            _seat(fouled, declare=True),
                            _plain_seat(set(hand), rules, "foul"),
                        )
                    )
        for strong, weak in itertools.combinations(enabled, 2):
            a = _natural_hand(strong, rules, set())
            b = _natural_hand(weak, rules, set(a or ()))
            if a is None or b is None:
                continue
            out.append(
                _settle(
                    f"natural-vs-natural-{strong}-{weak}",
                    ("naturals.resolve",),
                    f"{strong} against {weak}",
                    _seat(_rows_of(a, rules), declare=True),
                    _seat(_rows_of(b, rules), declare=True),
                )
            )
            break
        for name, (one, two) in _TWINS.items():
            a, b = _core.card_ids(one), _core.card_ids(two)
            if _core.natural(a, rules) == name == _core.natural(b, rules):
                out.append(
                    _settle(
                        f"natural-twins-{name}",
                        ("naturals.ties",),
                        f"{name} on both sides, of different ranks",
                        _seat(_rows_of(a, rules), declare=True),
                        _seat(_rows_of(b, rules), declare=True),
                    )
                )
                break
        return out

    def settlement(self) -> None:
        settle_knobs = sorted(
            k
            for k in _all_knobs(self.base)
            if k.split(".")[0]
            in (
                "row_points",
                "overall_point",
                "royalty_mode",
                "royalty_adds",
                "scoop",
                "sweep_all",
                "foul",
                "surrender",
                "royalties",
                "money",
            )
            or k.startswith(("naturals.points.", "naturals.resolve", "naturals.ties"))
        )
        if "settle" not in self.ops:
            self.skip(settle_knobs, "the engine does not support settle")
            return
        probes = {p.name: p for p in self.settle_probes()}
        self.ask(probes.values())
        if self.money:
            rake = _rake_probes()
            self.ask(rake)
        natural = {p.name: p for p in self.natural_settle_probes()}
        self.ask(natural.values())
        by_knob: dict[str, list[Probe]] = {}
        for probe in [*probes.values(), *natural.values()]:
            for knob in probe.knobs:
                by_knob.setdefault(knob, []).append(probe)
        steps = self._settle_steps(by_knob)
        for _ in range(_MAX_PASSES):
            changed = False
            for step in steps:
                changed = step() or changed
            if not changed:
                break
        every = [*probes.values(), *natural.values()]
        for group in (
            ("row_points", "overall_point"),
            ("scoop.multiplier", "scoop.bonus"),
            ("sweep_all.multiplier", "sweep_all.bonus"),
        ):
            self.confounded(group, by_knob.get(group[0], []), every)
        self.natural_precedence()
        if self.money:
            self.rake(_rake_probes())
        else:
            self.skip(["money.rake_percent"], "the engine does not answer money")
        self.skip(["money.stake"], "the protocol sends the stakes with every round")
        self.skip(settle_knobs, "no probe shows it under the base rules")

    def _settle_steps(self, by_knob: Mapping[str, list[Probe]]) -> list[Callable[[], bool]]:
        def probes(*knobs: str) -> list[Probe]:
            return [p for k in knobs for p in by_knob.get(k, [])]

        def solve_first(knobs: Sequence[str], shown_by: str) -> Callable[[], bool]:
            # Knobs one answer cannot tell apart (a multiplier and a bonus, the
            # row point and the overall point): the first is solved, the next
            # only when no value of the first fits.
            def step() -> bool:
                for knob in knobs:
                    if self.solve(knob, probes(shown_by)):
                        return True
                    if self.consistent(probes(shown_by)):
                        return False
                return False

            return step

        def choose(knob: str, values: Sequence[Any]) -> Callable[[], bool]:
            return lambda: self.choose([{knob: v} for v in values], probes(knob))

        def royalty(knob: str) -> Callable[[], bool]:
            return lambda: self.solve(knob, probes(knob))

        # Who sweeps decides which figures the scoop probes show: the sweep's
        # figures are found at four seats first, then the table size it needs.
        steps: list[Callable[[], bool]] = [
            solve_first(["row_points", "overall_point"], "row_points"),
            solve_first(["sweep_all.multiplier", "sweep_all.bonus"], "sweep_all.multiplier"),
            choose("sweep_all.min_players", (2, 3, 4, 5)),
            solve_first(["scoop.multiplier", "scoop.bonus"], "scoop.multiplier"),
            choose("royalty_mode", ("winner", "always", "none")),
            choose("royalty_adds", (True, False)),
        ]
        for row, categories in (
            ("bottom", _FIVE_CATEGORIES),
            ("middle", _FIVE_CATEGORIES),
            ("top", tuple(_TOP_HANDS)),
        ):
            steps += [royalty(f"royalties.{row}.{c}") for c in categories]
        steps += [
            choose("scoop.multiply_royalties", (False, True)),
            self._foul_step(probes("foul.mode")),
            choose("foul.pays_royalties", (True, False)),
            self._surrender_step(probes("surrender.enabled")),
        ]
        steps += [royalty(k) for k in by_knob if k.startswith("naturals.points.")]
        steps += [
            choose("naturals.resolve", ("higher-wins", "difference")),
            choose("naturals.ties", ("push", "compare")),
        ]
        return steps

    def ambiguous(self) -> None:
        """Moves a knob several of whose values fit every answer to not determined."""
        for knob, values in self.fitting.items():
            if len(values) > 1 and knob in self.probed:
                shown = ", ".join(json.dumps(v) for v in values)
                self.probed.pop(knob)
                self.undetermined[knob] = (
                    f"the answers fit {shown}; kept {json.dumps(_get(self.rules, knob))}"
                )

    def confounded(
        self, group: tuple[str, str], probes: Sequence[Probe], every: Sequence[Probe]
    ) -> None:
        """Marks two knobs as not determined when another value of the first, with
        the second solved again, explains the answers as well (only a
        combination of them shows, as ``3 * multiplier + bonus`` does)."""
        first, second = group
        if first not in self.probed or not self.consistent(every):
            return
        kept = self.rules
        low, high = _INTS.get(first, (0, _INT_MAX))
        value = kept[first]
        for other in (value - 1, value + 1):
            if not low <= other <= high:
                continue
            self.rules = kept.derive({first: other})
            self.solve(second, probes)
            fits = self.consistent(every)
            self.rules = kept
            if fits:
                combined = f"{first} = {value}, {second} = {kept[second]}"
                reason = (
                    f"the answers show only a combination of {first} and {second}; "
                    f"kept {combined} (the base's where it fits)"
                )
                for knob in group:
                    self.probed.pop(knob, None)
                    self.undetermined[knob] = reason
                return

    def _foul_step(self, probes: Sequence[Probe]) -> Callable[[], bool]:
        def step() -> bool:
            if self.choose([{"foul.mode": m} for m in ("sweep-all", "scoop")], probes):
                return True
            if all(self.expect(p, self.rules) == self.got(p) for p in self.answered(probes)):
                if self.rules["foul.mode"] == "fixed":
                    return self.solve("foul.points", probes)
                return False
            before = self.rules
            self.rules = _with(self.rules, {"foul.mode": "fixed"})
            self.solve("foul.points", probes)
            if all(self.expect(p, self.rules) == self.got(p) for p in self.answered(probes)):
                return True
            self.rules = before
            return False

        return step

    def _surrender_step(self, probes: Sequence[Probe]) -> Callable[[], bool]:
        def step() -> bool:
            answered = self.answered(probes)
            if not answered:
                return False
            refused = all(self.got(p) == ("error",) for p in answered)
            settled = all(_integers(list(self.got(p))) is not None for p in answered)
            if not refused and not settled:
                return False  # a malformed answer says neither: the verification reports it
            changed = False
            self.note(["surrender.enabled"], answered)
            if refused == bool(self.rules["surrender.enabled"]):
                self.rules = _with(self.rules, {"surrender.enabled": not refused})
                changed = True
            if refused:
                self.skip(["surrender.cost"], "the engine refuses a surrender under the base rules")
            else:
                changed = self.solve("surrender.cost", probes) or changed
            return changed

        return step

    def rake(self, probes: Sequence[Probe]) -> None:
        answered = [
            p for p in self.answered(probes) if self.expect(p, self.rules)[0] == self.got(p)[0]
        ]
        if not answered:
            self.skip(["money.rake_percent"], "no rake probe's points matched the inferred rules")
            return
        self.note(["money.rake_percent"], answered)
        current = self.rules["money.rake_percent"]
        fits = []
        for percent in [current, *range(101)]:
            trial = self.rules.derive({"money.rake_percent": percent})
            if all(self.expect(p, trial) == self.got(p) for p in answered):
                fits.append(percent)
                break
        if fits and fits[0] != current:
            self.rules = self.rules.derive({"money.rake_percent": fits[0]})

    # ---------------------------------------------------------- verifying

    def verify(self) -> None:
        for name, probe in self.probes.items():
            got = self.got(probe)
            answer = self.answers[name]
            if answer[0] == "failed":
                self.observations.append(
                    Observation(
                        name,
                        probe.knobs,
                        f"{probe.why}: the engine failed: {answer[1]}",
                        self._request(probe),
                    )
                )
                continue
            if got is None:
                continue
            expected = self.expect(probe, self.rules)
            if probe.op == "settle" and answer[0] == "ok":
                points = got[0] if probe.money and self.money else got
                numbers = isinstance(points, tuple) and all(isinstance(v, int) for v in points)
                if numbers and sum(points) != 0:
                    self.observations.append(
                        Observation(
                            name,
                            probe.knobs,
                            f"{probe.why}: the points {list(points)} do not sum "
                            "to zero (no rules do that)",
                            self._request(probe),
                        )
                    )
                    continue
            if got == expected:
                continue
            knobs = f"no value of {', '.join(probe.knobs)}" if probe.knobs else "no knob"
            hint = _hint(probe, got, expected, self.rules)
            self.observations.append(
                Observation(
                    name,
                    probe.knobs,
                    f"{probe.why}: the engine answered {_show(got)}, the inferred rules give "
                    f"{_show(expected)}; {knobs} explains it{hint}",
                    self._request(probe),
                )
            )

    def _request(self, probe: Probe) -> dict[str, Any]:
        request = request_of(0, probe.case(self.spec))
        request.pop("id", None)
        request.pop("rules", None)
        return request


def _integers(value: Any) -> tuple[int, ...] | None:
    """A list of integers as a tuple; None for anything else."""
    if not isinstance(value, list):
        return None
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in value):
        return None
    return tuple(value)


def _show(value: Any) -> str:
    """An answer in words, cut to a readable length."""
    text = _words(value)
    return text if len(text) <= 200 else text[:197] + "..."


def _words(value: Any) -> str:
    if isinstance(value, tuple) and value and value[0] == "malformed":
        return f"a malformed settle result {value[1]}"
    if isinstance(value, tuple) and len(value) == 2 and all(isinstance(v, tuple) for v in value):
        return f"points {list(value[0])} rake {list(value[1])}"
    if isinstance(value, tuple) and value == ("error",):
        return "an error"
    if isinstance(value, tuple):
        return f"points {list(value)}"
    try:
        return json.dumps(value)
    except (TypeError, ValueError, RecursionError):
        return repr(value)


def _hint(probe: Probe, got: Any, expected: Any, rules: Rules) -> str:
    """A few words on a known rule that explains an observation, when one does."""
    rake_only = isinstance(got, tuple) and isinstance(expected, tuple) and len(got) == 2
    if probe.money and rake_only and got[0] == expected[0]:
        stake = probe.input["round"]["stakes"]
        percent = rules["money.rake_percent"]
        money = [p * stake for p in got[0]]
        ceiled = tuple(-(-percent * m // 100) if m > 0 else 0 for m in money)
        if ceiled == got[1]:
            return f" (the engine rounds the rake of {percent}% up, not down)"
    if probe.name.startswith("top-no-") or probe.name.startswith("category-top-"):
        return " (the engine gives three-card hands straights or flushes)"
    if probe.name == "natural-over-foul":
        return " (the engine lets the fouled rows decide, not the declared natural)"
    return ""


def _spec_of(rules: Rules) -> RulesSpec:
    """The base rules as a preset and the knobs changed from it."""
    data = rules.to_dict()
    for name in presets():
        if Rules.preset(name) == rules:
            return RulesSpec.of(name)
    preset = Rules.preset(DEFAULT_PRESET).to_dict()
    knobs: dict[str, Any] = {}
    for key, value in data.items():
        if isinstance(value, dict) and key not in ("royalties",):
            for sub, inner in value.items():
                if preset[key].get(sub) != inner:
                    knobs[f"{key}.{sub}"] = inner
        elif key == "royalties":
            for row, table in value.items():
                if preset[key][row] != table:
                    knobs[f"royalties.{row}"] = table
        elif preset.get(key) != value:
            knobs[key] = value
    return RulesSpec.of(DEFAULT_PRESET, knobs)


def _inferred_name(engine: Any) -> str:
    """The name of the inferred rules: the engine's, when it is printable text."""
    shown = engine if isinstance(engine, str) and engine.isprintable() else "engine"
    try:
        shown.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate from the engine's JSON
        shown = "engine"
    return f"{shown[:80]} (inferred)"


def _base_rules(base: str | Rules | None, hello: Mapping[str, Any]) -> tuple[Rules, str]:
    """The rules to probe under, and a note when the engine's ``hello`` named a
    preset that is not one (it is not used)."""
    if isinstance(base, Rules):
        return base, ""
    if base is not None:
        return Rules.preset(base), ""
    named = hello.get("preset")
    if named is None:
        return Rules.preset(DEFAULT_PRESET), ""
    if isinstance(named, str) and named in presets():
        return Rules.preset(named), ""
    note = (
        f"the engine's hello names the preset {_show(named)}, which is not one of capsa's "
        f"({', '.join(presets())}): probed under {DEFAULT_PRESET}"
    )
    return Rules.preset(DEFAULT_PRESET), note


def infer(
    engine: str | Sequence[str] | Callable[[dict[str, Any]], Any] | Engine,
    base: str | Rules | None = None,
    timeout: float = 10.0,
) -> Inference:
    """Probes an engine and returns the rules it plays (:class:`Inference`).

    ``engine`` is a command line (a str or argv list, started once), a
    callable from a request dict to a response dict, or an :class:`Engine`.
    ``base`` is the rules every probe is sent under: a preset name or
    ``Rules``; by default the preset the engine's ``hello`` names in
    ``"preset"``, else ``capsa-susun``. Only ops the engine lists are asked.

    Raises :class:`~capsa.conformance.HandshakeError` when the engine cannot
    be started or its ``hello`` is unusable, ``RulesError`` for an unknown
    preset.
    """
    if isinstance(engine, Engine):
        runner = engine
    elif callable(engine):
        runner = CallableEngine(engine)
    else:
        runner = ProcessEngine(engine, timeout=timeout)
    hello = runner.start()
    try:
        rules, note = _base_rules(base, hello)
        work = _Inferrer(runner, rules, hello)
        work.ranking()
        work.fixed_rules()
        work.fouls()
        work.naturals()
        work.settlement()
        work.ambiguous()
        work.verify()
    finally:
        runner.close()
    for knob in [*work.probed, *work.undetermined]:
        work.not_probed.pop(knob, None)
    rules = work.rules.derive(name=_inferred_name(hello.get("engine")))
    return Inference(
        rules=rules,
        base=work.base,
        engine=hello,
        probed=work.probed,
        not_probed=work.not_probed,
        undetermined=work.undetermined,
        observations=work.observations,
        asked=work.asked,
        notes=[note] if note else [],
    )
