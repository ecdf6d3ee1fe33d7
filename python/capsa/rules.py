"""Rules: every knob of the game as one immutable, hashable value.

Rules are data. A preset is a TOML file in ``capsa/presets``; a house variant
is a TOML file with the same keys (see ``docs/rules.md``). Keys a file leaves
out take the values of its ``base`` preset (``capsa-susun`` unless it says
otherwise); unknown keys, wrong types and out-of-range values raise
:class:`RulesError` naming the key.
"""

from __future__ import annotations

import copy
import sys
from collections.abc import Iterator, Mapping
from importlib import resources
from pathlib import Path
from typing import Any

from capsa._core import CATEGORIES, NATURAL_NAMES, RulesError, RuleSet

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python 3.10 only
    import tomli as tomllib

__all__ = ["DEFAULT_PRESET", "Rules", "RulesError", "presets"]

DEFAULT_PRESET = "capsa-susun"

_CHOICES: dict[str, tuple[str, ...]] = {
    "tie_break": ("none", "suit"),
    "flush_compare": ("ranks", "suit-first"),
    "wheel": ("low", "second"),
    "foul_check": ("allow-equal", "strict"),
    "royalty_mode": ("winner", "always", "none"),
    "foul.mode": ("sweep-all", "scoop", "fixed"),
    "naturals.resolve": ("higher-wins", "difference"),
    "naturals.ties": ("push", "compare"),
}
_INTS: dict[str, tuple[int, int | None]] = {
    "row_points": (0, None),
    "overall_point": (0, None),
    "scoop.multiplier": (1, None),
    "scoop.bonus": (0, None),
    "sweep_all.multiplier": (1, None),
    "sweep_all.bonus": (0, None),
    "sweep_all.min_players": (2, 5),
    "foul.points": (0, None),
    "surrender.cost": (0, None),
    "money.stake": (0, None),
    "money.rake_percent": (0, 100),
}
_BOOLS = ("royalty_adds", "scoop.multiply_royalties", "foul.pays_royalties", "surrender.enabled")
_STRINGS = ("name", "description", "suit_order")
_TABLES = ("scoop", "sweep_all", "foul", "surrender", "naturals", "royalties", "money")
_ROWS = ("top", "middle", "bottom")
_TOP_CATEGORIES = ("high-card", "pair", "trips")
# Keys whose value replaces the base's value whole rather than key by key.
_WHOLE = ("naturals.enabled", "royalties.top", "royalties.middle", "royalties.bottom")
_LEAVES = (*_STRINGS, *_CHOICES, *_INTS, *_BOOLS, *_WHOLE)

_PRESET_CACHE: dict[str, Rules] = {}


def presets() -> list[str]:
    """Names of the presets shipped with capsa."""
    folder = resources.files("capsa") / "presets"
    return sorted(p.name[: -len(".toml")] for p in folder.iterdir() if p.name.endswith(".toml"))


def _read_preset_text(name: str) -> str:
    if not isinstance(name, str):
        raise RulesError(f"a preset name is a str, not {type(name).__name__}")
    path = resources.files("capsa") / "presets" / f"{name}.toml"
    if "/" in name or "\\" in name or not path.is_file():
        raise RulesError(f"unknown preset {name!r}; the presets are: {', '.join(presets())}")
    return path.read_text(encoding="utf-8")


def _parse_toml(text: str, origin: str) -> dict[str, Any]:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise RulesError(f"{origin}: malformed TOML: {exc}") from None


def _get(data: Mapping[str, Any], dotted: str) -> Any:
    cur: Any = data
    for part in dotted.split("."):
        cur = cur[part]
    return cur


def _flatten(config: Mapping[str, Any], prefix: str = "") -> Iterator[tuple[str, Any]]:
    """Yields (dotted key, value) pairs down to the leaves of the schema."""
    for key, value in config.items():
        if not isinstance(key, str):
            raise RulesError(f"rules keys are strings, got {key!r}")
        dotted = f"{prefix}{key}"
        if dotted in _LEAVES:
            yield dotted, value
        elif dotted in _TABLES:
            if not isinstance(value, Mapping):
                raise RulesError(f"rules: {dotted} must be a table, got {value!r}")
            yield from _flatten(value, dotted + ".")
        else:
            raise RulesError(f"rules: unknown key {dotted!r}")


def _check_leaf(key: str, value: Any) -> Any:
    if key in _CHOICES:
        if value not in _CHOICES[key]:
            options = ", ".join(repr(o) for o in _CHOICES[key])
            raise RulesError(f"rules: {key} must be one of {options}, got {value!r}")
        return value
    if key in _INTS:
        low, high = _INTS[key]
        if isinstance(value, bool) or not isinstance(value, int):
            raise RulesError(f"rules: {key} must be an integer, got {value!r}")
        if value < low or (high is not None and value > high):
            span = f">= {low}" if high is None else f"in {low}..{high}"
            raise RulesError(f"rules: {key} must be {span}, got {value}")
        return value
    if key in _BOOLS:
        if not isinstance(value, bool):
            raise RulesError(f"rules: {key} must be true or false, got {value!r}")
        return value
    if key in _STRINGS:
        if not isinstance(value, str):
            raise RulesError(f"rules: {key} must be a string, got {value!r}")
        if key == "suit_order":
            order = value.lower()
            if len(order) != 4 or sorted(order) != sorted("shcd"):
                raise RulesError(
                    f"rules: suit_order must name the suits s, h, c, d once each, "
                    f"strongest first, got {value!r}"
                )
            return order
        return value
    if key == "naturals.enabled":
        return _check_naturals(value)
    return _check_royalties(key, value)


def _check_naturals(value: Any) -> list[dict[str, Any]]:
    if not isinstance(value, list | tuple):
        raise RulesError("rules: naturals.enabled must be a list of {name, points} tables")
    out: list[dict[str, Any]] = []
    seen: set[str] = set()
    for pos, item in enumerate(value):
        where = f"naturals.enabled[{pos}]"
        if not isinstance(item, Mapping) or set(item) != {"name", "points"}:
            raise RulesError(f"rules: {where} must be a table with exactly name and points")
        name, points = item["name"], item["points"]
        if name not in NATURAL_NAMES:
            raise RulesError(
                f"rules: {where}.name {name!r} is not a natural; "
                f"the naturals are: {', '.join(NATURAL_NAMES)}"
            )
        if name in seen:
            raise RulesError(f"rules: {where}: natural {name!r} is listed twice")
        seen.add(name)
        if isinstance(points, bool) or not isinstance(points, int) or points < 0:
            raise RulesError(f"rules: {where}.points must be an integer >= 0, got {points!r}")
        out.append({"name": name, "points": points})
    return out


def _check_royalties(key: str, value: Any) -> dict[str, int]:
    if not isinstance(value, Mapping):
        raise RulesError(f"rules: {key} must be a table of category = points")
    allowed = _TOP_CATEGORIES if key == "royalties.top" else CATEGORIES
    out: dict[str, int] = {}
    for category, points in value.items():
        if category not in allowed:
            raise RulesError(
                f"rules: {key}.{category} is not a category of that row; "
                f"the categories are: {', '.join(allowed)}"
            )
        if isinstance(points, bool) or not isinstance(points, int) or points < 0:
            raise RulesError(f"rules: {key}.{category} must be an integer >= 0, got {points!r}")
        out[category] = points
    return out


def _set(data: dict[str, Any], dotted: str, value: Any) -> None:
    parts = dotted.split(".")
    cur = data
    for part in parts[:-1]:
        cur = cur.setdefault(part, {})
    cur[parts[-1]] = value


def _freeze(value: Any) -> Any:
    if isinstance(value, Mapping):
        return tuple(sorted((k, _freeze(v)) for k, v in value.items()))
    if isinstance(value, list | tuple):
        return tuple(_freeze(v) for v in value)
    return value


class Rules:
    """The rules of one variant: ranking, fouls, scoring, naturals, money.

    ``Rules()`` is the ``capsa-susun`` preset; ``Rules(config, **knobs)``
    changes the keys given (a partial dict shaped like the TOML files, nested
    tables or dotted keys, and keyword knobs for top-level keys).
    """

    __slots__ = ("_data", "_engine", "_frozen")

    _data: dict[str, Any]
    _engine: RuleSet
    _frozen: Any

    def __init__(self, config: Mapping[str, Any] | None = None, /, **knobs: Any) -> None:
        changes = {**(config or {}), **knobs}
        base_name = changes.pop("base", DEFAULT_PRESET)
        self._init_checked(Rules.preset(base_name)._data, changes, complete=False)

    def _init_checked(
        self, base: Mapping[str, Any], changes: Mapping[str, Any], complete: bool
    ) -> None:
        data = copy.deepcopy(dict(base))
        data.pop("base", None)
        source = data if complete else changes
        updates: dict[str, Any] = {}
        for key, value in self._dotted(source):
            updates[key] = _check_leaf(key, value)
        for key, value in updates.items():
            _set(data, key, value)
        if complete:
            missing = [k for k in _LEAVES if k != "description" and not self._has(data, k)]
            if missing:
                raise RulesError(f"rules: missing keys {', '.join(missing)}")
        self._data = data
        self._frozen = _freeze(data)
        self._engine = RuleSet(data)

    @staticmethod
    def _has(data: Mapping[str, Any], dotted: str) -> bool:
        try:
            _get(data, dotted)
        except (KeyError, TypeError):
            return False
        return True

    @staticmethod
    def _dotted(config: Mapping[str, Any]) -> Iterator[tuple[str, Any]]:
        for key, value in config.items():
            if isinstance(key, str) and "." in key:
                if key not in _LEAVES:
                    raise RulesError(f"rules: unknown key {key!r}")
                yield key, value
            else:
                yield from _flatten({key: value})

    # ------------------------------------------------------------ building

    @classmethod
    def preset(cls, name: str) -> Rules:
        """One of the shipped presets (see :func:`presets`)."""
        cached = _PRESET_CACHE.get(name)
        if cached is not None:
            return cached
        data = _parse_toml(_read_preset_text(name), f"preset {name}")
        rules = cls.__new__(cls)
        rules._init_checked(data, {}, complete=True)
        _PRESET_CACHE[name] = rules
        return rules

    @classmethod
    def from_dict(cls, config: Mapping[str, Any]) -> Rules:
        """Rules from a (possibly partial) dict shaped like the TOML files."""
        if not isinstance(config, Mapping):
            raise RulesError(f"rules must be a mapping, got {type(config).__name__}")
        return cls(config)

    @classmethod
    def from_toml(cls, text: str) -> Rules:
        """Rules from TOML text (a partial file takes its base preset's values)."""
        return cls(_parse_toml(text, "rules"))

    @classmethod
    def load(cls, path: str | Path) -> Rules:
        """Rules from a TOML file."""
        try:
            text = Path(path).read_text(encoding="utf-8")
        except OSError as exc:
            raise RulesError(f"cannot read rules file {path}: {exc.strerror}") from None
        return cls(_parse_toml(text, str(path)))

    def derive(self, changes: Mapping[str, Any] | None = None, /, **knobs: Any) -> Rules:
        """A copy with some knobs changed: ``rules.derive({"scoop.multiplier": 3})``."""
        out = Rules.__new__(Rules)
        out._init_checked(self._data, {**(changes or {}), **knobs}, complete=False)
        return out

    # ------------------------------------------------------------ reading

    @property
    def name(self) -> str:
        return str(self._data["name"])

    def __getitem__(self, dotted: str) -> Any:
        """A knob by its dotted name: ``rules["scoop.multiplier"]``."""
        try:
            return copy.deepcopy(_get(self._data, dotted))
        except (KeyError, TypeError):
            raise KeyError(dotted) from None

    def __getattr__(self, key: str) -> Any:
        if key.startswith("_"):
            raise AttributeError(key)
        try:
            return copy.deepcopy(self._data[key])
        except KeyError:
            raise AttributeError(f"Rules has no knob {key!r}") from None

    def __setattr__(self, key: str, value: Any) -> None:
        if key in Rules.__slots__ and not hasattr(self, "_engine"):
            object.__setattr__(self, key, value)
            return
        raise AttributeError("Rules are immutable; use derive() to change a knob")

    def to_dict(self) -> dict[str, Any]:
        """Every knob as a nested dict (JSON- and TOML-ready)."""
        return copy.deepcopy(self._data)

    def to_toml(self) -> str:
        """Every knob as TOML text; ``Rules.from_toml(r.to_toml()) == r``."""
        return _dump_toml(self._data)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Rules):
            return NotImplemented
        return bool(self._frozen == other._frozen)

    def __hash__(self) -> int:
        return hash(self._frozen)

    def __repr__(self) -> str:
        return f"Rules(name={self.name!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (Rules.from_dict, ({**self._data, "base": DEFAULT_PRESET},))


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        escaped = value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
        return f'"{escaped}"'
    if isinstance(value, Mapping):
        inner = ", ".join(f"{_toml_key(k)} = {_toml_value(v)}" for k, v in value.items())
        return "{ " + inner + " }" if inner else "{}"
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    raise RulesError(f"cannot write {value!r} as TOML")


def _toml_key(key: str) -> str:
    bare = key.replace("-", "").replace("_", "").isalnum()
    return key if bare else _toml_value(key)


def _dump_toml(data: Mapping[str, Any]) -> str:
    lines: list[str] = []
    for key, value in data.items():
        if not isinstance(value, Mapping):
            lines.append(f"{_toml_key(key)} = {_toml_value(value)}")
    for key, value in data.items():
        if isinstance(value, Mapping):
            lines.append("")
            lines.append(f"[{key}]")
            for sub, inner in value.items():
                if isinstance(inner, list) and inner and isinstance(inner[0], Mapping):
                    lines.append(f"{_toml_key(sub)} = [")
                    lines.extend(f"    {_toml_value(item)}," for item in inner)
                    lines.append("]")
                else:
                    lines.append(f"{_toml_key(sub)} = {_toml_value(inner)}")
    return "\n".join(lines) + "\n"
