"""A saved round state sealed under the server's key: each top-level field
of :meth:`capsa.Round.to_dict` and the whole carry an HMAC-SHA256, so a
state changed outside the server is refused naming the field.

A field's MAC is over its name, one zero byte and its canonical JSON
(sorted keys, no spaces, UTF-8); the whole's over every field's name and
MAC in sorted order (``capsa._core.state_macs``). A value moved to another
field, a field added, removed or renamed, and a MAC copied from another
state under another key all fail. MACs are compared in constant time.
"""

from __future__ import annotations

import functools
import hmac
import json
from collections.abc import Callable, Mapping
from typing import Any, TypeGuard

from capsa import _core
from capsa._core import ArgumentError, CapsaError, RulesError
from capsa.rules import Rules

__all__ = [
    "MAC_FIELD",
    "PHASES",
    "STATE_FORMAT",
    "STATE_VERSION",
    "RoundError",
    "check_header",
    "is_mapping",
    "play_flag",
    "round_error",
    "rules_of_state",
    "rules_text",
    "seal",
    "server_seed_of",
    "settled_digest",
    "state_getter",
    "state_key",
    "unseal",
]

PHASES = ("open", "dealt", "closed", "settled")
"""The phases of a round, in order."""

STATE_FORMAT = "capsa-round-state"
"""The ``format`` of a saved round state."""
STATE_VERSION = 2
"""The ``format_version`` of a saved round state."""

MAC_FIELD = "mac"
"""The state's field holding the MACs: ``{"fields": {name: hex}, "whole": hex}``."""

_CACHE_SIZE = 256
# Rules by their canonical JSON text and back: compiling rules is the costly
# part of restoring a state, and a server's rounds share a few rule sets.
_RULES_BY_TEXT: dict[str, Rules] = {}
_TEXT_BY_RULES: dict[Rules, str] = {}


class RoundError(CapsaError):
    """An action a round does not allow now: out of its order (a submission
    before the deal or after the close, a settlement before the close, a
    close before the deadline), or a decision the seat cannot make
    (declining a natural it does not hold); or a round state
    (``Round.from_dict``) that is not one or was changed. ``seat`` names the
    seat when the action was on one."""


def is_mapping(value: object) -> TypeGuard[Mapping[Any, Any]]:
    """A dict (checked first: the ABC check is slow) or another mapping."""
    return type(value) is dict or isinstance(value, Mapping)


def play_flag(value: Any, k: int, name: str) -> bool:
    """A state's ``play[k].name``: a bool (the field named only when it is
    not one)."""
    if type(value) is bool:
        return value
    return _core.read_flag(value, f"round state: play[{k}].{name}")


def round_error(message: str, seat: int | None = None) -> RoundError:
    """A ``RoundError`` with its ``seat`` set."""
    error = RoundError(message)
    error.seat = seat
    return error


def _macs(fields: dict[str, Any], key: bytes) -> tuple[dict[str, str], str]:
    try:
        return _core.state_macs(key, fields)
    except ValueError as exc:
        if isinstance(exc, CapsaError):  # the key
            raise
        raise round_error(f"round state: {exc}") from None


def _same(given: str, mac: str) -> bool:
    """In constant time (for MACs of the same length)."""
    return hmac.compare_digest(given.encode("utf-8", "replace"), mac.encode("ascii"))


def _name_the_change(
    macs: Mapping[str, str], expected: Mapping[str, Any], fields: Mapping[str, Any]
) -> None:
    """Raises ``RoundError`` naming the first field whose MAC does not match."""
    for name, mac in macs.items():
        given = expected.get(name)
        if not isinstance(given, str):
            raise round_error(
                f"round state: {name[:40]!r} is not covered by the MAC (added or renamed)"
            )
        if not _same(given, mac):
            raise round_error(f"round state: {name[:40]} was changed (its MAC does not match)")
    for name in expected:
        if name not in fields:
            raise round_error(f"round state: {str(name)[:40]} is missing")


def seal(fields: dict[str, Any], key: bytes) -> dict[str, Any]:
    """``fields`` with their MACs under ``key`` added."""
    macs, whole = _macs(fields, key)
    fields[MAC_FIELD] = {"fields": macs, "whole": whole}
    return fields


def unseal(state: Mapping[str, Any], key: bytes) -> None:
    """Checks the state's MACs under ``key``: ``RoundError`` names a field
    that was changed, added, renamed or removed."""
    if not is_mapping(state):
        raise TypeError(f"a round state is a mapping, not {type(state).__name__}")
    sealed_by = state.get(MAC_FIELD)
    if _unchanged(state, sealed_by, key):
        return
    fields = {name: value for name, value in state.items() if name != MAC_FIELD}
    macs, whole = _macs(fields, key)
    expected = sealed_by.get("fields") if is_mapping(sealed_by) else None
    expected_whole = sealed_by.get("whole") if is_mapping(sealed_by) else None
    if not is_mapping(expected) or not isinstance(expected_whole, str):
        raise round_error(
            f"round state: {MAC_FIELD} is missing or malformed: a state is sealed under "
            "the server's key by Round.to_dict(key=...)"
        )
    if not _same(expected_whole, whole):
        # the whole's MAC is over every field's: find the field to name
        _name_the_change(macs, expected, fields)
        raise round_error("round state: the MAC of the whole state does not match")


def _unchanged(state: Mapping[str, Any], sealed_by: Any, key: bytes) -> bool:
    """True when the whole's MAC matches, checked in one call; a state that
    fails is checked again field by field to name what is wrong."""
    if type(state) is not dict or type(sealed_by) is not dict:
        return False
    whole = sealed_by.get("whole")
    if not isinstance(whole, str) or not is_mapping(sealed_by.get("fields")):
        return False
    try:
        return _core.state_mac_matches(key, state, whole, MAC_FIELD)
    except (ValueError, TypeError):
        return False


def rules_text(rules: Rules) -> str:
    """The rules as a state holds them: their canonical JSON text."""
    text = _TEXT_BY_RULES.get(rules)
    if text is None:
        text = _core.canonical_json(json.dumps(rules.to_dict()))
        _remember(_TEXT_BY_RULES, rules, text)
        _remember(_RULES_BY_TEXT, text, rules)
    return text


def rules_of_state(text: Any) -> Rules:
    """The rules of a state's ``rules`` field, their canonical JSON text
    (compiled once per text)."""
    cached = _RULES_BY_TEXT.get(text) if isinstance(text, str) else None
    if cached is not None:
        return cached
    if not isinstance(text, str):
        raise TypeError(f"round state: rules must be JSON text, not {type(text).__name__}")
    try:
        data = json.loads(text)
        canonical = _core.canonical_json(text)
    except (ValueError, CapsaError):
        raise round_error("round state: rules must be canonical JSON text") from None
    if not isinstance(data, dict) or canonical != text:
        raise round_error("round state: rules must be canonical JSON text of an object")
    try:
        rules = Rules.from_dict(data, full=True)
    except RulesError as exc:
        raise round_error(f"round state: rules: {exc}") from None
    _remember(_RULES_BY_TEXT, text, rules)
    return rules


_STATE_KEYS = frozenset(
    {
        "format",
        "format_version",
        "phase",
        "commitment",
        "rules",
        "seats",
        "stakes",
        "round_id",
        "nonce",
        "previous_digest",
        "meta",
        "table_id",
        "players",
        "server_seed",
        "deadline",
        "require_client_seeds",
        "client_seeds",
        "play",
        "digest",
    }
)


def state_key(state: Mapping[str, Any], key: str) -> Any:
    """The state's ``key``: ``RoundError`` when it is missing."""
    if key not in state:
        raise round_error(f"round state: {key} is missing")
    return state[key]


#: Every key a state may hold.
_KNOWN_KEYS = _STATE_KEYS | {MAC_FIELD}
#: The keys every state holds (``digest`` only a settled one).
_REQUIRED_KEYS = _STATE_KEYS - {"digest"}


def state_getter(state: Mapping[str, Any]) -> Callable[[str], Any]:
    """Reads the state's fields by name: :func:`state_key`, or plain
    indexing when every key a state holds is there (no field is then
    missing)."""
    if type(state) is dict and state.keys() >= _REQUIRED_KEYS:
        return state.__getitem__
    return functools.partial(state_key, state)


def check_header(state: Mapping[str, Any]) -> str:
    """The state's phase, once its keys, format and version are checked."""
    if not state.keys() <= _KNOWN_KEYS:
        unknown = sorted(str(k) for k in state.keys() - _KNOWN_KEYS)
        raise round_error(f"round state: unknown key {unknown[0][:40]!r}")
    if state_key(state, "format") != STATE_FORMAT:
        raise round_error(f"round state: format must be {STATE_FORMAT!r}")
    version = state_key(state, "format_version")
    if version != STATE_VERSION or isinstance(version, bool) or not isinstance(version, int):
        raise round_error(
            f"round state: format_version must be {STATE_VERSION}, got {str(version)[:20]}"
        )
    phase = state_key(state, "phase")
    if phase not in PHASES:
        raise round_error(f"round state: phase must be one of {', '.join(PHASES)}")
    return str(phase)


def _hex_digest(value: Any, name: str) -> str:
    try:
        text: str | None = _core.read_digest(value, name)
    except (ArgumentError, TypeError):
        text = None
    if text is None:
        raise round_error(f"round state: {name} must be 64 lowercase hexadecimal digits")
    return text


def server_seed_of(state: Mapping[str, Any]) -> bytes:
    """The state's server seed (``RoundError`` unless 64 lowercase hex digits)."""
    return bytes.fromhex(_hex_digest(state_key(state, "server_seed"), "server_seed"))


def settled_digest(state: Mapping[str, Any]) -> str | None:
    """The digest of a settled state's record (``None`` in a state written
    without it: the record is then written again to find it)."""
    if "digest" not in state:
        return None
    return _hex_digest(state["digest"], "digest")


def _remember(cache: dict[Any, Any], key: Any, value: Any) -> None:
    if len(cache) >= _CACHE_SIZE:
        cache.clear()
    cache[key] = value
