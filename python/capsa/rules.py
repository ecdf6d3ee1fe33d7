"""Rules: every knob of the game as one immutable, hashable value.

Rules are data. A preset is a TOML file in ``capsa/presets``; a house variant
is a TOML file with the same keys (see ``docs/rules.md``). Keys a file leaves
out take the values of its ``base`` preset (``capsa-susun`` unless it says
otherwise); unknown keys, keys given twice, wrong types and out-of-range
values raise :class:`RulesError` naming the key. A wrong Python type of an
argument (TOML text that is not a ``str``, a config that is not a mapping)
raises :class:`TypeError`.

``DEFAULT_PRESET`` is the preset ``Rules()`` is (``"capsa-susun"``);
``MAX_RULES_BYTES`` the largest rules file (in bytes) or TOML text (in
characters) read, 1 MiB.
"""

from __future__ import annotations

import copy
import os
import re
import reprlib
import stat
import sys
from collections.abc import Iterable, Iterator, Mapping
from importlib import resources
from typing import Any

from capsa._core import CATEGORIES, NATURAL_NAMES, RULE_CHOICES, RulesError, RuleSet

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python 3.10 only
    import tomli as tomllib

__all__ = ["DEFAULT_PRESET", "MAX_RULES_BYTES", "Rules", "RulesError", "presets"]

DEFAULT_PRESET = "capsa-susun"

# A rules file is about 2 KB; a file past this bound is not a rules file, and
# TOML text past it (in characters) is refused the same way.
MAX_RULES_BYTES = 1 << 20
# Points and money are 64-bit integers in the engine.
_INT_MAX = 2**63 - 1
_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")
# The deepest knob is royalties.top.pair. tomllib takes time and memory
# quadratic in the parts of a dotted key (20,000 parts take seconds and
# gigabytes), so longer keys are refused before parsing.
MAX_KEY_PARTS = 8
# TOML text cut into the tokens that matter for dotted keys. Every pattern
# matches wherever it starts (an unterminated string runs to the end of its
# line or of the text), so the scan is linear whatever the text.
_TOML_TOKEN = re.compile(
    r"""
    (?P<text>
        \"\"\" (?: [^"\\] | \\[\s\S]? | "(?!"") )* (?: \"\"\" | \Z )
      | ''' [\s\S]*? (?: ''' | \Z )
      | \# [^\n]*
    )
  | (?P<part> [A-Za-z0-9_-]+ | " (?: [^"\\\n] | \\. )* "? | ' [^'\n]* '? )
  | (?P<dot> \. )
  | (?P<blank> [ \t]+ )
  | (?P<other> [\s\S] )
    """,
    re.VERBOSE,
)

# The named-choice knobs and their names, as the engine parses them.
_CHOICES: dict[str, tuple[str, ...]] = dict(RULE_CHOICES)
_INTS: dict[str, tuple[int, int]] = {
    "row_points": (0, _INT_MAX),
    "overall_point": (0, _INT_MAX),
    "scoop.multiplier": (1, _INT_MAX),
    "scoop.bonus": (0, _INT_MAX),
    "sweep_all.multiplier": (1, _INT_MAX),
    "sweep_all.bonus": (0, _INT_MAX),
    "sweep_all.min_players": (2, 5),
    "foul.points": (0, _INT_MAX),
    "surrender.cost": (0, _INT_MAX),
    "money.stake": (0, _INT_MAX),
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


class _ShortRepr(reprlib.Repr):
    """reprlib with integers too long for ``repr`` shown by their size."""

    def repr_int(self, x: int, level: int) -> str:
        if x.bit_length() > 256:
            return f"<integer of {x.bit_length()} bits>"
        return super().repr_int(x, level)


_SHORT_REPR = _ShortRepr()
_SHORT_REPR.maxlevel = 3
_SHORT_REPR.maxstring = 60
_SHORT_REPR.maxother = 60


def _show(value: Any) -> str:
    """A short repr of any value for an error message (bounded in depth and length)."""
    try:
        return _SHORT_REPR.repr(value)
    except Exception:  # a value whose repr fails still gets a message
        return f"<{type(value).__name__}>"


def presets() -> list[str]:
    """Names of the presets shipped with capsa, sorted: each one a valid
    argument of :meth:`Rules.preset` and a ``base`` of a rules file. Takes
    nothing and raises nothing."""
    folder = resources.files("capsa") / "presets"
    return sorted(p.name[: -len(".toml")] for p in folder.iterdir() if p.name.endswith(".toml"))


def _read_preset_text(name: str) -> str:
    known = presets()
    if name not in known:
        raise RulesError(f"unknown preset {_show(name)}; the presets are: {', '.join(known)}")
    return (resources.files("capsa") / "presets" / f"{name}.toml").read_text(encoding="utf-8")


def _parse_toml(text: str, origin: str) -> dict[str, Any]:
    if len(text) > MAX_RULES_BYTES:
        raise RulesError(
            f"{origin}: {len(text)} characters of TOML is over the {MAX_RULES_BYTES} "
            "a rules file may have"
        )
    parts = _longest_dotted_key(text)
    if parts > MAX_KEY_PARTS:
        raise RulesError(
            f"{origin}: a dotted key has {parts} parts; rules keys have at most 3 "
            f"(royalties.top.pair) and more than {MAX_KEY_PARTS} are refused"
        )
    try:
        data = tomllib.loads(text)
    except RecursionError:
        raise RulesError(f"{origin}: malformed TOML: arrays or tables nested too deeply") from None
    except tomllib.TOMLDecodeError as exc:
        raise RulesError(f"{origin}: malformed TOML: {exc}") from None
    except ValueError as exc:  # an integer literal past int()'s digit limit
        reason = str(exc).split(";")[0]  # drop the advice to raise the limit
        raise RulesError(f"{origin}: malformed TOML: integer literal too long: {reason}") from None
    _refuse_quoted_dots(data, origin)
    return data


def _longest_dotted_key(text: str) -> int:
    """The most parts joined by dots outside strings and comments in TOML text.

    Counts bare or quoted parts joined by dots (a float such as ``1.5`` counts
    as two parts); a string spanning lines and a comment count as no part.
    """
    longest = dots = 0
    for token in _TOML_TOKEN.finditer(text):
        kind = token.lastgroup
        if kind == "dot":
            dots += 1
            longest = max(longest, dots)
        elif kind not in ("part", "blank"):
            dots = 0
    return longest + 1


def _refuse_quoted_dots(data: Mapping[str, Any], origin: str) -> None:
    """Refuses a TOML key with a dot in it (only a quoted key can have one).

    ``"scoop.multiplier" = 3`` is one key named ``scoop.multiplier`` in TOML,
    not the knob ``multiplier`` of ``[scoop]``; reading it as the knob would
    guess. Walks without recursion, as deep as the parsed data goes.
    """
    # The dotted path so far, or None inside an array, where no hint applies.
    pending: list[tuple[str | None, Any]] = [("", data)]
    while pending:
        prefix, value = pending.pop()
        if isinstance(value, Mapping):
            for key, inner in value.items():
                if "." in key:
                    raise RulesError(
                        f"{origin}: the quoted key {_show(key)} has a dot in it, which TOML "
                        f"reads as one key, not as a table and a knob{_dotted_hint(prefix, key)}"
                    )
                pending.append((None if prefix is None else f"{prefix}{key}.", inner))
        elif isinstance(value, list):
            pending.extend((None, item) for item in value)


def _dotted_hint(prefix: str | None, key: str) -> str:
    if prefix is None:
        return ""
    full = prefix + key
    parts = full.split(".")
    if not all(_BARE_KEY.fullmatch(part) for part in parts):
        return ""
    table, knob = ".".join(parts[:-1]), parts[-1]
    return f"; write it as [{table}] then {knob} = ..., or unquoted as {full} = ..."


def _get(data: Mapping[str, Any], dotted: str) -> Any:
    cur: Any = data
    for part in dotted.split("."):
        cur = cur[part]
    return cur


def _flatten(config: Mapping[str, Any], prefix: str = "") -> Iterator[tuple[str, Any]]:
    """Yields (dotted key, value) pairs down to the leaves of the schema."""
    for key, value in config.items():
        if not isinstance(key, str):
            where = f"{prefix[:-1]}: " if prefix else ""
            raise RulesError(f"rules: {where}keys are strings, got {_show(key)}")
        dotted = f"{prefix}{key}"
        if dotted in _LEAVES:
            yield dotted, value
        elif dotted in _TABLES:
            if not isinstance(value, Mapping):
                raise RulesError(f"rules: {dotted} must be a table, got {_show(value)}")
            yield from _flatten(value, dotted + ".")
        else:
            raise RulesError(f"rules: unknown key {_show(dotted)}")


def _dotted(config: Mapping[str, Any]) -> Iterator[tuple[str, Any]]:
    """Like :func:`_flatten`, and a top-level key may be a dotted leaf name."""
    for key, value in config.items():
        if isinstance(key, str) and "." in key:
            if key not in _LEAVES:
                raise RulesError(f"rules: unknown key {_show(key)}")
            yield key, value
        else:
            yield from _flatten({key: value})


def _leaf_changes(sources: Iterable[Mapping[str, Any]]) -> dict[str, Any]:
    """Every leaf the sources set, each checked; a leaf set twice is an error.

    ``{"scoop.multiplier": 2, "scoop": {"multiplier": 3}}`` or a config and a
    keyword naming the same knob would otherwise depend on their order.
    """
    updates: dict[str, Any] = {}
    for source in sources:
        for key, value in _dotted(source):
            if key in updates:
                raise RulesError(f"rules: {key} is given twice")
            updates[key] = _check_leaf(key, value)
    return updates


def _check_leaf(key: str, value: Any) -> Any:
    if key in _CHOICES:
        if not isinstance(value, str) or value not in _CHOICES[key]:
            options = ", ".join(repr(o) for o in _CHOICES[key])
            raise RulesError(f"rules: {key} must be one of {options}, got {_show(value)}")
        return str.__str__(value)
    if key in _INTS:
        return _check_int(key, value, *_INTS[key])
    if key in _BOOLS:
        if not isinstance(value, bool):
            raise RulesError(f"rules: {key} must be true or false, got {_show(value)}")
        return value
    if key == "suit_order":
        return _check_suit_order(value)
    if key in _STRINGS:
        return _check_text(key, value)
    if key == "naturals.enabled":
        return _check_naturals(value)
    return _check_royalties(key, value)


def _check_int(key: str, value: Any, low: int, high: int = _INT_MAX) -> int:
    # bool is an int subclass, but true is not a number of points.
    if isinstance(value, bool) or not isinstance(value, int):
        raise RulesError(f"rules: {key} must be an integer, got {_show(value)}")
    if value < low or value > high:
        span = f">= {low}" if value < low and high == _INT_MAX else f"in {low}..{high}"
        raise RulesError(f"rules: {key} must be {span}, got {_show(value)}")
    return int(value)


def _check_text(key: str, value: Any) -> str:
    if not isinstance(value, str):
        raise RulesError(f"rules: {key} must be a string, got {_show(value)}")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise RulesError(
            f"rules: {key} holds the lone surrogate {value[exc.start]!r} at index {exc.start}, "
            "which is not a character and cannot be written as UTF-8 or TOML"
        ) from None
    return str.__str__(value)


def _check_suit_order(value: Any) -> str:
    order = value.lower() if isinstance(value, str) and value.isascii() else None
    if order is None or len(order) != 4 or sorted(order) != sorted("shcd"):
        raise RulesError(
            "rules: suit_order must name the suits s, h, c, d once each, "
            f"strongest first, got {_show(value)}"
        )
    return str.__str__(order)


def _check_naturals(value: Any) -> list[dict[str, Any]]:
    if not isinstance(value, list | tuple):
        raise RulesError(
            f"rules: naturals.enabled must be a list of {{name, points}} tables, got {_show(value)}"
        )
    out: list[dict[str, Any]] = []
    seen: set[str] = set()
    for pos, item in enumerate(value):
        where = f"naturals.enabled[{pos}]"
        if not isinstance(item, Mapping) or set(item) != {"name", "points"}:
            raise RulesError(
                f"rules: {where} must be a table with exactly name and points, got {_show(item)}"
            )
        name = item["name"]
        if not isinstance(name, str) or name not in NATURAL_NAMES:
            raise RulesError(
                f"rules: {where}.name {_show(name)} is not a natural; "
                f"the naturals are: {', '.join(NATURAL_NAMES)}"
            )
        if name in seen:
            raise RulesError(f"rules: {where}: natural {name!r} is listed twice")
        seen.add(name)
        points = _check_int(f"{where}.points", item["points"], 0)
        out.append({"name": str.__str__(name), "points": points})
    return out


def _check_royalties(key: str, value: Any) -> dict[str, int]:
    if not isinstance(value, Mapping):
        raise RulesError(f"rules: {key} must be a table of category = points, got {_show(value)}")
    allowed = _TOP_CATEGORIES if key == "royalties.top" else CATEGORIES
    out: dict[str, int] = {}
    for category, points in value.items():
        if not isinstance(category, str) or category not in allowed:
            raise RulesError(
                f"rules: {key}: {_show(category)} is not a category of that row; "
                f"the categories are: {', '.join(allowed)}"
            )
        out[str.__str__(category)] = _check_int(f"{key}.{category}", points, 0)
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


def _as_mapping(config: Any, caller: str) -> Mapping[str, Any]:
    if config is None:
        return {}
    if not isinstance(config, Mapping):
        raise TypeError(f"{caller} takes a mapping of knobs, not {type(config).__name__}")
    return config


def _preset_name(value: Any) -> str:
    if not isinstance(value, str):
        raise RulesError(f"rules: base must be a preset name (a string), got {_show(value)}")
    return value


class Rules(RuleSet):
    """The rules of one variant: ranking, fouls, scoring, naturals, money.

    ``Rules()`` is the ``capsa-susun`` preset. ``Rules(config, **knobs)``
    starts from the preset named by ``base`` (in the config or as a keyword;
    default ``capsa-susun``) and changes the knobs given: ``config`` is None
    or a mapping shaped like the TOML files (nested tables such as
    ``{"scoop": {"multiplier": 3}}`` or dotted keys such as
    ``{"scoop.multiplier": 3}``), ``knobs`` are keywords for top-level keys
    (``wheel="second"``, ``scoop={"multiplier": 3}``). A knob may be given
    only once across the config and the keywords. Every knob is in
    docs/rules.md, "Rules data (TOML)".

    Rules are immutable and hashable, compare equal when every knob is
    equal, and pickle. Read a knob as ``rules["scoop.multiplier"]`` or
    ``rules.wheel`` (a copy: changing it changes nothing); change knobs with
    :meth:`derive`.

    Raises ``RulesError`` for an unknown key, a value of the wrong type or
    out of range, a knob given twice or an unknown ``base`` preset (each
    naming the key); ``TypeError`` when ``config`` is not a mapping.

    A ``Rules`` is the engine's compiled :class:`capsa._core.RuleSet` of its
    knobs (a subclass of it), so every engine call takes it as it is.
    """

    __slots__ = ("_data", "_frozen")

    _data: dict[str, Any]
    _frozen: Any

    def __new__(cls, config: Mapping[str, Any] | None = None, /, **knobs: Any) -> Rules:
        changes = dict(_as_mapping(config, "Rules()"))
        if "base" in changes and "base" in knobs:
            raise RulesError("rules: base is given twice")
        base_name = _preset_name(changes.pop("base", knobs.pop("base", DEFAULT_PRESET)))
        base = Rules.preset(base_name)
        return cls._build(base._data, _leaf_changes((changes, knobs)))

    @classmethod
    def _build(cls, base: Mapping[str, Any], updates: Mapping[str, Any]) -> Rules:
        """The rules of ``base`` with the checked ``updates``, compiled."""
        data = copy.deepcopy(dict(base))
        for key, value in updates.items():
            _set(data, key, value)
        rules = super().__new__(cls, data)
        object.__setattr__(rules, "_data", data)
        object.__setattr__(rules, "_frozen", _freeze(data))
        return rules

    # ------------------------------------------------------------ building

    @classmethod
    def preset(cls, name: str) -> Rules:
        """One of the shipped presets, by name (see :func:`presets`):
        ``Rules.preset("pagat")``.

        Returns the preset's ``Rules`` (the same object on every call).

        Raises ``RulesError`` for a name that is not a preset (listing the
        presets), ``TypeError`` when ``name`` is not a str.
        """
        if not isinstance(name, str):
            raise TypeError(f"a preset name is a str, not {type(name).__name__}")
        cached = _PRESET_CACHE.get(name)
        if cached is not None:
            return cached
        data = _parse_toml(_read_preset_text(name), f"preset {name}")
        data.pop("base", None)
        updates = _leaf_changes((data,))
        missing = [k for k in _LEAVES if k != "description" and k not in updates]
        if missing:
            raise RulesError(f"preset {name}: missing keys {', '.join(missing)}")
        rules = cls._build({}, updates)
        _PRESET_CACHE[name] = rules
        return rules

    @classmethod
    def from_dict(cls, config: Mapping[str, Any]) -> Rules:
        """Rules from a (possibly partial) mapping shaped like the TOML files:
        the same as ``Rules(config)`` (a ``base`` key picks the preset the
        rest changes; nested tables or dotted keys).

        Raises ``RulesError`` for an unknown key, a bad value or a knob given
        twice (naming the key), ``TypeError`` when ``config`` is not a mapping.
        """
        if not isinstance(config, Mapping):
            raise TypeError(f"Rules.from_dict() takes a mapping, not {type(config).__name__}")
        return cls(config)

    @classmethod
    def from_toml(cls, text: str) -> Rules:
        """Rules from TOML text, as a rules file holds it: keys left out take the
        values of the ``base`` preset (``capsa-susun`` without one).

        Raises ``RulesError`` for malformed TOML, text longer than
        :data:`MAX_RULES_BYTES` characters, a dotted key of more than 8
        parts, a quoted key holding a dot, and every error ``Rules()``
        raises (naming the key); ``TypeError`` when ``text`` is not a str
        (decode bytes first).
        """
        if not isinstance(text, str):
            hint = "; decode bytes first" if isinstance(text, bytes | bytearray) else ""
            raise TypeError(
                f"Rules.from_toml() takes TOML text as a str, not {type(text).__name__}{hint}"
            )
        return cls(_parse_toml(text, "rules"))

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> Rules:
        """Rules from a TOML rules file (UTF-8, at most :data:`MAX_RULES_BYTES`
        bytes), read as :meth:`from_toml` reads text.

        ``path`` is a str or an ``os.PathLike`` (a ``pathlib.Path``).

        Raises ``RulesError`` for a file that is missing, unreadable, a
        directory, too large or not UTF-8, and for every error of its
        contents (as :meth:`from_toml`); ``TypeError`` when ``path`` is not a
        str or ``os.PathLike`` (bytes included).
        """
        if not isinstance(path, str | os.PathLike):
            raise TypeError(
                f"Rules.load() takes a path (str or os.PathLike), not {type(path).__name__}"
            )
        shown = _show(os.fspath(path))
        return cls(_parse_toml(_read_rules_file(path, shown), f"rules file {shown}"))

    def derive(self, changes: Mapping[str, Any] | None = None, /, **knobs: Any) -> Rules:
        """A copy with some knobs changed: ``rules.derive({"scoop.multiplier": 3})``.

        ``changes`` is None or a mapping of knobs, nested or dotted as
        ``Rules()`` takes them; ``knobs`` are keywords for top-level keys
        (``wheel="second"``). ``base`` is not a knob here: the copy starts
        from these rules.

        Returns new ``Rules``; these are unchanged.

        Raises ``RulesError`` for an unknown key (``base`` included), a bad
        value or a knob given twice (naming the key); ``TypeError`` when
        ``changes`` is not a mapping.
        """
        updates = _leaf_changes((_as_mapping(changes, "Rules.derive()"), knobs))
        return Rules._build(self._data, updates)

    # ------------------------------------------------------------ reading

    @property
    def name(self) -> str:
        """The variant's name (the ``name`` knob), a str."""
        return str(self._data["name"])

    def __getitem__(self, dotted: str) -> Any:
        """A knob by its dotted name: ``rules["scoop.multiplier"]``, or a whole
        table: ``rules["scoop"]`` (a dict).

        Returns a copy of the value (changing it changes nothing).

        Raises ``KeyError`` for a name that is not a knob, ``TypeError`` for a
        name that is not a str.
        """
        if not isinstance(dotted, str):
            raise TypeError(f"a knob name is a dotted str, not {type(dotted).__name__}")
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
        raise AttributeError("Rules are immutable; use derive() to change a knob")

    def to_dict(self) -> dict[str, Any]:
        """Every knob as a nested dict shaped like the TOML files (JSON- and
        TOML-ready, a copy); ``Rules.from_dict(r.to_dict()) == r``."""
        return copy.deepcopy(self._data)

    def to_toml(self) -> str:
        """Every knob as TOML text, a complete rules file;
        ``Rules.from_toml(r.to_toml()) == r``."""
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


def _read_rules_file(path: str | os.PathLike[str], shown: str) -> str:
    """The text of a rules file, reading at most one byte past the bound."""
    try:
        with open(path, "rb") as file:
            if stat.S_ISDIR(os.fstat(file.fileno()).st_mode):
                raise RulesError(f"cannot read rules file {shown}: it is a directory")
            raw = file.read(MAX_RULES_BYTES + 1)
    except OSError as exc:
        raise RulesError(f"cannot read rules file {shown}: {exc.strerror or exc}") from None
    except ValueError as exc:  # a NUL in the path, or a lone surrogate the OS cannot encode
        raise RulesError(f"cannot read rules file {shown}: {exc}") from None
    if len(raw) > MAX_RULES_BYTES:
        raise RulesError(
            f"rules file {shown} is larger than {MAX_RULES_BYTES} bytes; "
            "a rules file is a few kilobytes"
        )
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise RulesError(
            f"rules file {shown} is not UTF-8 text: byte {raw[exc.start]:#04x} "
            f"at offset {exc.start} ({exc.reason})"
        ) from None


# TOML 1.0 basic strings: the short escapes where TOML has one, \uXXXX for
# the other control characters (U+0000-U+001F and U+007F).
_TOML_ESCAPES: dict[int, str] = {
    **{code: f"\\u{code:04X}" for code in (*range(0x20), 0x7F)},
    **{
        ord(c): e
        for c, e in zip(
            '"\\\b\t\n\f\r', ('\\"', "\\\\", "\\b", "\\t", "\\n", "\\f", "\\r"), strict=True
        )
    },
}


def _toml_string(text: str) -> str:
    return '"' + text.translate(_TOML_ESCAPES) + '"'


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return _toml_string(value)
    if isinstance(value, Mapping):
        inner = ", ".join(f"{_toml_key(k)} = {_toml_value(v)}" for k, v in value.items())
        return "{ " + inner + " }" if inner else "{}"
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    raise RulesError(f"cannot write {_show(value)} as TOML")


def _toml_key(key: str) -> str:
    return key if _BARE_KEY.fullmatch(key) else _toml_string(key)


def _dump_toml(data: Mapping[str, Any]) -> str:
    lines: list[str] = []
    for key, value in data.items():
        if not isinstance(value, Mapping):
            lines.append(f"{_toml_key(key)} = {_toml_value(value)}")
    for key, value in data.items():
        if isinstance(value, Mapping):
            lines.append("")
            lines.append(f"[{_toml_key(key)}]")
            for sub, inner in value.items():
                if isinstance(inner, list) and inner and isinstance(inner[0], Mapping):
                    lines.append(f"{_toml_key(sub)} = [")
                    lines.extend(f"    {_toml_value(item)}," for item in inner)
                    lines.append("]")
                else:
                    lines.append(f"{_toml_key(sub)} = {_toml_value(inner)}")
    return "\n".join(lines) + "\n"
