"""The ``Rules`` value: every knob of the game as one immutable, hashable
value, the engine's compiled rules beside it."""

from __future__ import annotations

import copy
import os
from collections.abc import Mapping
from typing import Any

from capsa._core import KNOBS, RulesError, RuleSet
from capsa.rules.checks import REQUIRED, check_changes
from capsa.rules.loading import (
    DEFAULT_PRESET,
    parse_toml,
    preset_text,
    read_rules_file,
)
from capsa.rules.messages import show
from capsa.rules.writer import dump_toml

# the deck knobs at their defaults, the 52-card deck, from the knob table
_STANDARD_DECK: dict[str, Any] = {
    knob.name.removeprefix("deck."): knob.default for knob in KNOBS if knob.name.startswith("deck.")
}

__all__ = ["Rules"]

_PRESET_CACHE: dict[str, Rules] = {}
# The knobs rules data may leave out, with the default they then read as
# (the optional knobs without one, such as horse.card, stay out).
_LEFT_OUT_AS: tuple[tuple[str, Any], ...] = tuple(
    (k.name, k.default) for k in KNOBS if not k.required and k.default is not None
)


def _get(data: Mapping[str, Any], dotted: str) -> Any:
    cur: Any = data
    for part in dotted.split("."):
        cur = cur[part]
    return cur


def _set_copying(data: dict[str, Any], dotted: str, value: Any) -> None:
    """Sets the dotted key in ``data``, copying each table on the way instead
    of changing it (the tables may be shared with other rules)."""
    parts = dotted.split(".")
    cur = data
    for part in parts[:-1]:
        table = cur.get(part)
        cur[part] = dict(table) if isinstance(table, Mapping) else {}
        cur = cur[part]
    cur[parts[-1]] = value


def _has(data: Mapping[str, Any], dotted: str) -> bool:
    try:
        _get(data, dotted)
    except (KeyError, TypeError):
        return False
    return True


def _written(data: Mapping[str, Any]) -> dict[str, Any]:
    """Rules data as ``to_dict`` writes it: a copy without the knobs that may
    be left out where they hold their default (and without a table left
    empty by that), so that rules data written before those knobs existed
    is written as it was."""
    out = copy.deepcopy(dict(data))
    for dotted, default in _LEFT_OUT_AS:
        *tables, leaf = dotted.split(".")
        path: list[dict[str, Any]] = [out]
        for table in tables:
            inner = path[-1].get(table)
            if not isinstance(inner, dict):
                break
            path.append(inner)
        else:
            if leaf in path[-1] and path[-1][leaf] == default:
                del path[-1][leaf]
                for depth in range(len(tables), 0, -1):
                    if path[depth]:
                        break
                    del path[depth - 1][tables[depth - 1]]
    return out


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
        raise RulesError(f"rules: base must be a preset name (a string), got {show(value)}")
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

    # Its public home: the name pickles, reprs and docs give it.
    __module__ = "capsa.rules"
    __slots__ = ("_data", "_frozen", "_hash", "_parts")

    _data: dict[str, Any]
    _frozen: Any
    _hash: int
    _parts: dict[str, Any]  # each top-level key's frozen value

    def __new__(cls, config: Mapping[str, Any] | None = None, /, **knobs: Any) -> Rules:
        changes = dict(_as_mapping(config, "Rules()"))
        if "base" in changes and "base" in knobs:
            raise RulesError("rules: base is given twice")
        base_name = _preset_name(changes.pop("base", knobs.pop("base", DEFAULT_PRESET)))
        base = Rules.preset(base_name)
        return cls._build(base, check_changes((changes, knobs)))

    @classmethod
    def _build(cls, base: Rules | Mapping[str, Any], updates: Mapping[str, Any]) -> Rules:
        """The rules of ``base`` (rules, or rules data) with the checked
        ``updates``, compiled."""
        source = base._data if isinstance(base, Rules) else base
        known = base._parts if isinstance(base, Rules) else {}
        # the tables an update leaves alone are shared with base, frozen once:
        # rules data is never changed once built (reads hand out copies)
        data = dict(source)
        for key, value in updates.items():
            _set_copying(data, key, value)
        for key, default in _LEFT_OUT_AS:
            if not _has(data, key):
                _set_copying(data, key, copy.deepcopy(default))
        parts = {
            k: known[k] if k in known and v is source.get(k) else _freeze(v)
            for k, v in data.items()
        }
        rules = super().__new__(cls, data)
        object.__setattr__(rules, "_data", data)
        object.__setattr__(rules, "_parts", parts)
        object.__setattr__(rules, "_frozen", tuple(sorted(parts.items())))
        object.__setattr__(rules, "_hash", hash(rules._frozen))
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
        data = parse_toml(preset_text(name), f"preset {name}")
        data.pop("base", None)
        updates = check_changes((data,))
        missing = [k for k in REQUIRED if k not in updates]
        if missing:
            raise RulesError(f"preset {name}: missing keys {', '.join(missing)}")
        rules = cls._build({}, updates)
        _PRESET_CACHE[name] = rules
        return rules

    @classmethod
    def from_dict(cls, config: Mapping[str, Any], *, full: bool = False) -> Rules:
        """Rules from a mapping shaped like the TOML files (nested tables or
        dotted keys).

        Without ``full`` the mapping may be partial: the same as
        ``Rules(config)`` (a ``base`` key picks the preset the rest changes).
        With ``full=True`` it must be rules data in full, as a file's
        footer, a record or a message carries them: every knob given (as
        ``to_dict()`` writes them) and no ``base``, so that no knob is taken
        from a preset the data never named.

        Raises ``RulesError`` for an unknown key, a bad value or a knob given
        twice (naming the key), and under ``full`` for a ``base`` key or a
        knob left out (naming every one); ``TypeError`` when ``config`` is
        not a mapping or ``full`` not a bool.
        """
        if not isinstance(config, Mapping):
            raise TypeError(f"Rules.from_dict() takes a mapping, not {type(config).__name__}")
        if not isinstance(full, bool):
            raise TypeError(f"Rules.from_dict(): full must be a bool, not {type(full).__name__}")
        if not full:
            return cls(config)
        if "base" in config:
            raise RulesError(
                "rules: base names a preset to take the knobs left out from; "
                "rules in full leave none out and name none"
            )
        updates = check_changes((config,))
        missing = [k for k in REQUIRED if k not in updates]
        if missing:
            shown = ", ".join(missing[:5])
            more = f" and {len(missing) - 5} more" if len(missing) > 5 else ""
            raise RulesError(
                f"rules: not the rules in full: {shown}{more} "
                f"{'is' if len(missing) == 1 else 'are'} missing"
            )
        return cls._build({}, updates)

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
        return cls(parse_toml(text, "rules"))

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
        shown = show(os.fspath(path))
        return cls(parse_toml(read_rules_file(path, shown), f"rules file {shown}"))

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
        updates = check_changes((_as_mapping(changes, "Rules.derive()"), knobs))
        return Rules._build(self, updates)

    # ------------------------------------------------------------ reading

    @property
    def name(self) -> str:
        """The variant's name (the ``name`` knob), a str."""
        return str(self._data["name"])

    @property
    def deck(self) -> dict[str, Any]:
        """The deck the rules deal, as a new dict of its knobs:
        ``{"added_suits": str, "decks": int, "jokers": int}``
        (docs/rules.md, "Decks: added suits, two decks and jokers").
        Raises nothing."""
        return {key: self[f"deck.{key}"] for key in _STANDARD_DECK}

    @property
    def deals_52_cards(self) -> bool:
        """Whether the rules deal the one 52-card deck: no added suit, one
        deck, no joker
        (docs/rules.md, "Decks: added suits, two decks and jokers").
        Raises nothing."""
        return self.deck == _STANDARD_DECK

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
        TOML-ready, a copy), but the knobs rules data may leave out
        (``Knob.required`` false) where they hold their default;
        ``Rules.from_dict(r.to_dict(), full=True) == r``."""
        return _written(self._data)

    def to_toml(self) -> str:
        """Every knob as TOML text, a complete rules file, leaving out what
        :meth:`to_dict` leaves out; ``Rules.from_toml(r.to_toml()) == r``."""
        return dump_toml(_written(self._data))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Rules):
            return NotImplemented
        return self._hash == other._hash and bool(self._frozen == other._frozen)

    def __hash__(self) -> int:
        return self._hash

    def __repr__(self) -> str:
        return f"Rules(name={self.name!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (Rules.from_dict, ({**self.to_dict(), "base": DEFAULT_PRESET},))
