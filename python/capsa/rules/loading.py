"""Reading rules text: the shipped presets, rules files and TOML text, with
the guards that keep a hostile file cheap to refuse (its size, the length of
its dotted keys, quoted keys holding a dot)."""

from __future__ import annotations

import os
import re
import stat
import sys
from collections.abc import Mapping
from typing import Any

from capsa import _core
from capsa._core import RulesError
from capsa.rules.messages import show

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python 3.10 only
    import tomli as tomllib

__all__ = [
    "DEFAULT_PRESET",
    "MAX_KEY_PARTS",
    "MAX_RULES_BYTES",
    "parse_toml",
    "preset_text",
    "presets",
    "read_rules_file",
]

DEFAULT_PRESET: str = _core.DEFAULT_PRESET

# A rules file is about 2 KB; a file past this bound is not a rules file, and
# TOML text past it (in characters) is refused the same way.
MAX_RULES_BYTES = 1 << 20
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


def presets() -> list[str]:
    """Names of the presets shipped with capsa, sorted: each one a valid
    argument of :meth:`Rules.preset` and a ``base`` of a rules file. Takes
    nothing and raises nothing."""
    return list(_core.PRESETS)


def preset_text(name: str) -> str:
    """The TOML text of a shipped preset.

    Raises ``RulesError`` for a name that is not a preset (listing them)."""
    # asked by name first: a name the engine cannot take (a lone surrogate)
    # is no preset either
    text = _core.preset_text(name) if name in _core.PRESETS else None
    if text is None:
        known = ", ".join(presets())
        raise RulesError(f"unknown preset {show(name)}; the presets are: {known}")
    return text


def parse_toml(text: str, origin: str) -> dict[str, Any]:
    """TOML text parsed, behind the guards: its length, its longest dotted
    key and quoted keys holding a dot. ``origin`` starts each message.

    Raises ``RulesError`` for text that fails a guard or is not TOML."""
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
                        f"{origin}: the quoted key {show(key)} has a dot in it, which TOML "
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


def read_rules_file(path: str | os.PathLike[str], shown: str) -> str:
    """The text of a rules file, reading at most one byte past the bound.

    Raises ``RulesError`` for a file that cannot be read, is too large or is
    not UTF-8 (``shown`` names it)."""
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
