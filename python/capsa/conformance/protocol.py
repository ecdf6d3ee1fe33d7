"""The engine protocol's data: ops, cards on the wire, rules on the wire, cases.

A *case* is one question to an engine: an op, the rules (a preset and the
knobs changed from it) and the op's input, with cards written as text. The
harness turns a case into a request line (:func:`request_line`), and a
vector is a case with capsa's expected answer, flags and a reason. The
protocol itself is specified in ``docs/conformance.md``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from capsa import RulesSpec
from capsa.rules import presets

__all__ = [
    "OPS",
    "PROTOCOL_VERSION",
    "RANKS",
    "SUITS",
    "Case",
    "RulesSpec",
    "card_text",
    "case_from_vector",
    "ids_of",
    "request_line",
    "text_of",
]

PROTOCOL_VERSION = 1
# The ops an engine may support, in the order the harness runs them.
OPS = ("compare", "category", "foul", "natural", "count_splits", "settle", "digest")
RANKS = "23456789TJQKA"
SUITS = "dchs"  # index = suit number of the card id
_ROWS = ("top", "middle", "bottom")


# the jokers' ids and texts (docs/rules.md, "Decks: added suits, two decks and jokers")
_JOKERS = {104: "BJ", 105: "RJ"}


def card_text(card: int) -> str:
    """The canonical text of card id ``card`` (0 to 105): rank letter then
    suit letter, a ``'`` after a second copy (ids 52 to 103), ``BJ`` and
    ``RJ`` for the jokers."""
    if card in _JOKERS:
        return _JOKERS[card]
    return RANKS[card % 52 // 4] + SUITS[card % 4] + ("'" if card >= 52 else "")


def text_of(cards: Any) -> str:
    """Card ids as canonical text (``"As Kd Th"``)."""
    return " ".join(card_text(int(c)) for c in cards)


_CARD_IDS = {card_text(c): c for c in range(106)}


def ids_of(text: str) -> list[int]:
    """Canonical card text (as :func:`text_of` writes it) back to ids."""
    return [_CARD_IDS[token] for token in text.split()]


def rules_spec_from_json(value: Any) -> RulesSpec:
    """A vector's ``rules`` member as a :class:`RulesSpec` (checked)."""
    if not isinstance(value, Mapping) or set(value) - {"preset", "knobs"}:
        raise ValueError(f'rules must be {{"preset": ..., "knobs": {{...}}}}, got {value!r}')
    preset = value.get("preset")
    if preset not in presets():
        raise ValueError(f"rules: unknown preset {preset!r}")
    knobs = value.get("knobs", {})
    if not isinstance(knobs, Mapping):
        raise ValueError(f"rules.knobs must be an object of dotted knob names, got {knobs!r}")
    spec = RulesSpec.of(str(preset), knobs)
    spec.rules()  # a bad knob raises RulesError naming it
    return spec


@dataclass(frozen=True)
class Case:
    """One question to an engine: op, rules and the op's input (cards as text).

    ``op`` is one of :data:`OPS`, ``rules`` a :class:`RulesSpec` and ``input``
    the op's input as the request carries it (``{"a": ..., "b": ...}`` for
    ``compare``, ``{"round": ...}`` for ``settle``, ...). Cases are equal and
    hash alike when their op, rules and input are. Building one checks
    nothing and raises nothing (:func:`case_from_vector` checks a vector's).
    """

    op: str
    rules: RulesSpec
    input: Mapping[str, Any] = field(default_factory=dict)

    def input_json(self) -> str:
        """The input as compact JSON with sorted keys. Raises ``TypeError`` when
        the input holds what JSON cannot write."""
        return json.dumps(self.input, separators=(",", ":"), sort_keys=True)

    def key(self) -> tuple[str, RulesSpec, str]:
        """What equality and hashing compare: (op, rules, input JSON). Raises
        ``TypeError`` as :meth:`input_json` does."""
        return (self.op, self.rules, self.input_json())

    def __hash__(self) -> int:
        return hash(self.key())

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Case) and self.key() == other.key()


def case_from_vector(vector: Mapping[str, Any]) -> Case:
    """The case of a vector line (its op, rules and input)."""
    op = vector.get("op")
    if op not in OPS:
        raise ValueError(f"vector {vector.get('id')!r}: unknown op {op!r}")
    data = vector.get("input")
    if not isinstance(data, Mapping):
        raise ValueError(f"vector {vector.get('id')!r}: input must be an object")
    return Case(str(op), rules_spec_from_json(vector.get("rules")), dict(data))


def _as_ids(value: Any) -> Any:
    return ids_of(value) if isinstance(value, str) else value


def input_with_ids(op: str, data: Mapping[str, Any]) -> dict[str, Any]:
    """The input with every card text replaced by a list of ids (``"cards": "ids"``)."""
    out = dict(data)
    for key in ("a", "b", "hand", *_ROWS):
        if key in out:
            out[key] = _as_ids(out[key])
    if op == "settle":
        round_ = dict(out["round"])
        round_["seats"] = [
            {k: (_as_ids(v) if k in _ROWS else v) for k, v in seat.items()}
            for seat in round_["seats"]
        ]
        out["round"] = round_
    return out


def request_line(request_id: int, case: Case, ids: bool = False) -> bytes:
    """The request of a case as one JSON line (with its line feed).

    The rules data is written last, from a cached text, so that building a
    request costs little more than writing its input.
    """
    data = input_with_ids(case.op, case.input) if ids else case.input
    head = json.dumps({"id": request_id, "op": case.op, **data}, separators=(",", ":"))
    preset = case.rules.wire_preset
    tail = f',"preset":{json.dumps(preset)},"rules":{_wire_rules(case.rules)}}}\n'
    return (head[:-1] + tail).encode("utf-8")


@lru_cache(maxsize=4096)
def _wire_rules(spec: RulesSpec) -> str:
    """The full rules data of ``spec`` as compact JSON text (cached: most
    requests share their rules)."""
    return json.dumps(spec.rules().to_dict(), separators=(",", ":"))


def request_of(request_id: int, case: Case, ids: bool = False) -> dict[str, Any]:
    """The request of a case as a dict (what :func:`request_line` writes)."""
    parsed: dict[str, Any] = json.loads(request_line(request_id, case, ids))
    return parsed
