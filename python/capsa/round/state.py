"""A saved round state sealed under the server's key (:mod:`capsa.sealing`):
each top-level field of :meth:`capsa.Round.to_dict` and the whole carry an
HMAC-SHA256, so a state changed outside the server is refused naming the
field; and its header, fields and freshness read."""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Mapping
from typing import Any, TypeGuard

from capsa import _core, ids, sealing
from capsa._core import ArgumentError, CapsaError, RulesError
from capsa.rules import Rules
from capsa.sealing import MAC_FIELD

__all__ = [
    "MAC_FIELD",
    "PHASES",
    "READ_VERSIONS",
    "STATE_FORMAT",
    "STATE_VERSION",
    "RoundError",
    "StaleStateError",
    "check_fresh",
    "check_header",
    "checked_state",
    "is_mapping",
    "play_flag",
    "round_arguments",
    "round_error",
    "rules_of_state",
    "rules_text",
    "seal",
    "server_seed_of",
    "settled_digest",
    "state_getter",
    "state_key",
    "state_sequence",
    "unseal",
]

PHASES = ("open", "dealt", "closed", "settled")
"""The phases of a round, in order."""

STATE_FORMAT = "capsa-round-state"
"""The ``format`` of a saved round state."""
STATE_VERSION = 4
"""The ``format_version`` of a saved round state this capsa writes."""
READ_VERSIONS = (2, 3, 4)
"""The ``format_version`` of the saved round states this capsa reads (a
state of version 2 holds no ``sequence``, read as 0, nor the timers and
policy fields, read as :func:`round_arguments` says; one of version 3 no
banker or multipliers: no banker)."""

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


class StaleStateError(RoundError):
    """A round state that is not the one the server expects
    (:meth:`capsa.Round.from_dict` given ``table_id``, ``round_id`` or
    ``sequence``): another table's or round's state, or an older (or newer)
    state of the same round. ``field`` names the first that differs
    (``"table_id"``, ``"round_id"`` or ``"sequence"``)."""

    field: str

    def __init__(self, message: str, field: str) -> None:
        super().__init__(message)
        self.field = field
        self.seat = None


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


def seal(fields: dict[str, Any], key: bytes) -> dict[str, Any]:
    """``fields`` with their MACs under ``key`` added (:func:`capsa.sealing.seal`)."""
    return sealing.seal(fields, key, "round state", round_error)


def unseal(state: Mapping[str, Any], key: bytes) -> None:
    """Checks the state's MACs under ``key``: ``RoundError`` names a field
    that was changed, added, renamed or removed."""
    sealing.check_seal(state, key, "round state", round_error)


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
        "sequence",
        "seed_deadline",
        "arrangement_ms",
        "auto_arrange",
        "banker",
        "multipliers",
    }
)
#: The keys first held by a state of each version after 2.
_NEW_IN = {
    3: ("sequence", "seed_deadline", "arrangement_ms", "auto_arrange"),
    4: ("banker", "multipliers"),
}


def state_key(state: Mapping[str, Any], key: str) -> Any:
    """The state's ``key``: ``RoundError`` when it is missing."""
    if key not in state:
        raise round_error(f"round state: {key} is missing")
    return state[key]


#: Every key a state may hold.
_KNOWN_KEYS = _STATE_KEYS | {MAC_FIELD}
#: The keys every state of this version holds (``digest`` only a settled
#: one; a state of version 2 has no ``sequence``).
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
    if version not in READ_VERSIONS or isinstance(version, bool) or not isinstance(version, int):
        raise round_error(
            f"round state: format_version must be {' or '.join(map(str, READ_VERSIONS))}, "
            f"got {str(version)[:20]}"
        )
    for since, names in _NEW_IN.items():
        for name in names if version < since else ():
            if name in state:
                raise round_error(f"round state: a state of version {version} has no {name}")
    phase = state_key(state, "phase")
    if phase not in PHASES:
        raise round_error(f"round state: phase must be one of {', '.join(PHASES)}")
    return str(phase)


def state_sequence(state: Mapping[str, Any]) -> int:
    """The state's ``sequence`` (0 in a state of version 2, which has none):
    ``RoundError`` unless an int >= 0. Its header is checked first."""
    if state["format_version"] < 3:
        return 0
    sequence = state_key(state, "sequence")
    if type(sequence) is not int or sequence < 0:
        raise round_error("round state: sequence must be an integer >= 0")
    return sequence


def round_arguments(state: Mapping[str, Any], field: Callable[[str], Any]) -> dict[str, Any]:
    """The arguments of :class:`capsa.Round` but the rules that a state
    holds, by name, as ``field`` reads them (the constructor checks them).
    The server seed is read here (``RoundError`` unless 64 lowercase hex
    digits). A state of version 2 holds no seed deadline of its own (its
    ``deadline`` is), no arranging window and the solver's policy; one of
    version 3 no banker (and each multiplier 1). The
    deadline of a round with an arranging window is none here: the deal
    set the one the state holds."""
    timers: dict[str, Any] = {}
    if state["format_version"] >= 3:
        timers = {
            "seed_deadline": field("seed_deadline"),
            "arrangement_ms": field("arrangement_ms"),
            "auto_arrange": field("auto_arrange"),
        }
    if state["format_version"] >= 4:
        timers |= {"banker": field("banker"), "multipliers": field("multipliers")}
    return {
        "seats": field("seats"),
        "stakes": field("stakes"),
        "round_id": field("round_id"),
        "nonce": field("nonce"),
        "previous_digest": field("previous_digest"),
        "meta": field("meta"),
        "table_id": field("table_id"),
        "players": field("players"),
        "require_client_seeds": field("require_client_seeds"),
        "deadline": field("deadline") if timers.get("arrangement_ms") is None else None,
        "server_seed": server_seed_of(state),
        **timers,
    }


def _expect_id(state: Mapping[str, Any], key: str, expected: str | None, other: str) -> None:
    """Raises ``StaleStateError`` at ``key`` when the state's id there is
    not ``expected`` (``other`` says whose state it then is)."""
    found = state_key(state, key)
    if found != expected:
        raise StaleStateError(
            f"round state: {key} is {_shown(found)}, the server expects "
            f"{_shown(expected)} ({other})",
            key,
        )


def check_fresh(state: Mapping[str, Any], table_id: Any, round_id: Any, sequence: Any) -> None:
    """Checks that the state is the one the server expects: each of
    ``table_id``, ``round_id`` and ``sequence`` given (not ``...``) equals
    the state's, else ``StaleStateError`` naming it. Its MAC and header are
    checked first. Raises ``TypeError``/``ArgumentError`` for a value given
    that is not a table id (or None), a round id or an int >= 0."""
    if table_id is not ...:
        if table_id is not None:
            table_id = ids.check_table_id(table_id)
        _expect_id(state, "table_id", table_id, "another table's state")
    if round_id is not ...:
        _expect_id(state, "round_id", ids.check_round_id(round_id), "another round's state")
    if sequence is not ...:
        if type(sequence) is not int:
            if not isinstance(sequence, int) or isinstance(sequence, bool):
                raise TypeError(f"sequence must be an int, not {type(sequence).__name__}")
            sequence = int(sequence)
        if sequence < 0:
            raise ArgumentError(f"sequence must be >= 0, got {sequence}")
        found = state_sequence(state)
        if found != sequence:
            age = "an older" if found < sequence else "a newer"
            raise StaleStateError(
                f"round state: sequence is {found}, the server expects {sequence} "
                f"({age} state of the round)",
                "sequence",
            )


def checked_state(
    state: Mapping[str, Any], key: bytes, table_id: Any, round_id: Any, sequence: Any
) -> tuple[str, int]:
    """The phase and sequence of a state whose MAC under ``key``
    (:func:`unseal`), header (:func:`check_header`) and binding to what the
    server expects (:func:`check_fresh`) are checked, raising as they do."""
    unseal(state, key)
    phase = check_header(state)
    if (table_id, round_id, sequence) != (..., ..., ...):
        check_fresh(state, table_id, round_id, sequence)
    return phase, state_sequence(state)


def _shown(value: Any) -> str:
    """A table or round id for a message (its first 40 characters)."""
    return "null" if value is None else repr(str(value)[:40])


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
