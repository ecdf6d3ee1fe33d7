"""What a server hands a :class:`capsa.Round`, read and checked: its rules,
times in milliseconds since the Unix epoch, client seeds and ints."""

from __future__ import annotations

import time

from capsa import _core
from capsa._core import ArgumentError
from capsa.rules import Rules

__all__ = ["check_rules", "is_int", "now_ms", "read_client_seed", "read_time"]

_DEFAULT_RULES: list[Rules] = []


def now_ms() -> int:
    """The time now in milliseconds since the Unix epoch."""
    return time.time_ns() // 1_000_000


def read_time(value: object, name: str) -> int:
    """A time in milliseconds since the Unix epoch: an int 0..2**63-1."""
    if not is_int(value):
        raise TypeError(
            f"{name} must be an int (milliseconds since the Unix epoch), not {type(value).__name__}"
        )
    assert isinstance(value, int)
    if not 0 <= value < 2**63:
        raise ArgumentError(f"{name} must be 0 to 2**63-1 milliseconds, got {value}")
    return value


def read_client_seed(seat: int, seed: object) -> str:
    """Seat ``seat``'s client seed: text of at most the engine's limit of
    UTF-8 bytes (``TypeError``, ``ArgumentError`` naming the seat)."""
    if not isinstance(seed, str):
        raise TypeError(f"client_seeds[{seat}] must be a str, not {type(seed).__name__}")
    try:
        size = len(seed.encode("utf-8"))
    except UnicodeEncodeError:
        raise ArgumentError(f"client_seeds[{seat}] is not valid UTF-8 text") from None
    if size > _core.MAX_CLIENT_SEED_BYTES:
        error = ArgumentError(
            f"client_seeds[{seat}]: a client seed is at most {_core.MAX_CLIENT_SEED_BYTES} "
            f"bytes of UTF-8, got {size}"
        )
        error.seat = seat
        raise error
    return seed


def is_int(value: object) -> bool:
    """An int that is not a bool."""
    return isinstance(value, int) and not isinstance(value, bool)


def check_rules(rules: Rules | None) -> Rules:
    """The rules of a round: a :class:`capsa.Rules`, or ``capsa-susun`` for
    None (one shared object)."""
    if rules is None:
        if not _DEFAULT_RULES:
            _DEFAULT_RULES.append(Rules())
        return _DEFAULT_RULES[0]
    if not isinstance(rules, Rules):
        raise TypeError(
            f"argument 'rules': must be a capsa.Rules or None, not {type(rules).__name__}"
        )
    return rules
