"""Rules as a preset and the knobs changed from it: how a conformance
vector, a fuzzed case and ``capsa.strategies`` name the rules they use.

:class:`RulesSpec` is hashable and cheap to build; :func:`wire_rules` is the
full rules data of one as compact JSON text, as the engine protocol sends it.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from capsa.rules import Rules

__all__ = ["RulesSpec", "wire_rules"]


@dataclass(frozen=True)
class RulesSpec:
    """Rules as a preset and the knobs changed from it (dotted keys).

    This is how a vector states its rules: ``{"preset": "pagat", "knobs":
    {"wheel": "second"}}``. On the wire the engine gets the full rules data
    (:meth:`data`) and the preset's name only when no knob is changed.
    ``preset`` is the preset's name and ``knobs`` the changed knobs as sorted
    (name, value) pairs, frozen so that a spec is hashable (build one with
    :meth:`of`). Building one checks nothing and raises nothing:
    :meth:`rules` checks the preset and the knobs.
    """

    preset: str
    knobs: tuple[tuple[str, Any], ...] = ()

    @staticmethod
    def of(preset: str, knobs: Mapping[str, Any] | None = None) -> RulesSpec:
        """The spec of ``preset`` with ``knobs`` (dotted names to values as in the
        rules data) changed. Checks nothing (:meth:`rules` does); raises
        ``TypeError`` only when the knob names cannot be sorted."""
        items = sorted((knobs or {}).items())
        return RulesSpec(preset, tuple((k, _freeze(v)) for k, v in items))

    @property
    def knob_dict(self) -> dict[str, Any]:
        """The changed knobs as a dict of dotted names to plain values."""
        return {k: _thaw(v) for k, v in self.knobs}

    def rules(self) -> Rules:
        """The capsa rules this names (cached). Raises :class:`capsa.RulesError`
        for an unknown preset or a knob that is unknown or out of range,
        naming it."""
        return _rules_of(self)

    def data(self) -> dict[str, Any]:
        """The full rules data sent to engines (every knob, as ``Rules.to_dict()``).

        Raises :class:`capsa.RulesError` as :meth:`rules` does."""
        data: dict[str, Any] = json.loads(wire_rules(self))
        return data

    @property
    def wire_preset(self) -> str | None:
        """The preset name sent with the rules: only when no knob is changed."""
        return None if self.knobs else self.preset

    def without(self, key: str) -> RulesSpec:
        """This spec with knob ``key`` put back to the preset's value (raises
        nothing; a knob not changed is no change)."""
        return RulesSpec(self.preset, tuple(kv for kv in self.knobs if kv[0] != key))

    def with_knob(self, key: str, value: Any) -> RulesSpec:
        """This spec with knob ``key`` set to ``value``. Checks nothing
        (:meth:`rules` does); raises ``TypeError`` as :meth:`of` does."""
        knobs = dict(self.knob_dict)
        knobs[key] = value
        return RulesSpec.of(self.preset, knobs)

    def to_json(self) -> dict[str, Any]:
        """The spec as a vector's ``rules`` member: ``{"preset": ..., "knobs": {...}}``."""
        return {"preset": self.preset, "knobs": self.knob_dict}

    def describe(self) -> str:
        """The spec in words: ``pagat with wheel = "second"``. Raises
        ``TypeError`` when a knob value is not JSON data."""
        if not self.knobs:
            return self.preset
        changes = ", ".join(f"{k} = {json.dumps(_thaw(v))}" for k, v in self.knobs)
        return f"{self.preset} with {changes}"


def _freeze(value: Any) -> Any:
    if isinstance(value, Mapping):
        return ("__map__", tuple(sorted((k, _freeze(v)) for k, v in value.items())))
    if isinstance(value, list | tuple):
        return ("__list__", tuple(_freeze(v) for v in value))
    return value


def _thaw(value: Any) -> Any:
    if isinstance(value, tuple) and len(value) == 2 and value[0] == "__map__":
        return {k: _thaw(v) for k, v in value[1]}
    if isinstance(value, tuple) and len(value) == 2 and value[0] == "__list__":
        return [_thaw(v) for v in value[1]]
    return value


@lru_cache(maxsize=4096)
def _rules_of(spec: RulesSpec) -> Rules:
    base = Rules.preset(spec.preset)
    if not spec.knobs:
        return base
    knobs = spec.knob_dict
    if "name" in knobs:
        return base.derive(knobs)
    return base.derive(knobs, name=f"{spec.preset}+" + ",".join(k for k, _ in spec.knobs))


@lru_cache(maxsize=4096)
def wire_rules(spec: RulesSpec) -> str:
    """The rules data as compact JSON text (cached: most requests share rules)."""
    return json.dumps(_rules_of(spec).to_dict(), separators=(",", ":"))
