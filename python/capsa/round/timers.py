"""A round's two timers and its auto-arrange policy, read and checked: the
seed deadline (when a deal that waits for client seeds goes ahead without
the missing ones), the arranging deadline, fixed or set at the deal from
the arranging window, and what arranges a seat that did not submit by the
close (docs/records.md, "Deadlines and client seeds")."""

from __future__ import annotations

from typing import Any

from capsa._core import ArgumentError
from capsa.records.read import AUTO_ARRANGE_POLICIES
from capsa.round.args import is_int, now_ms, read_time
from capsa.round.state import round_error
from capsa.rules import Rules

__all__ = ["Timers", "read_now", "read_policy"]

_LAST_MS = 2**63 - 1
"""The last time a round takes (milliseconds since the Unix epoch)."""


def read_now(now: object) -> int:
    """``now`` as an action takes it: milliseconds since the Unix epoch, the
    system clock for None (``TypeError``/``ArgumentError`` naming ``now``)."""
    return now_ms() if now is None else read_time(now, "now")


def read_policy(value: object, rules: Rules) -> str:
    """An auto-arrange policy of a round under ``rules``: one of
    :data:`capsa.records.AUTO_ARRANGE_POLICIES`, ``None`` meaning
    ``"solver"`` (``TypeError`` for a value that is not a str or None,
    ``ArgumentError`` naming the policies for another and for ``"foul"``
    under rules that refuse fouled arrangements)."""
    if value is None:
        return "solver"
    if not isinstance(value, str):
        raise TypeError(f"auto_arrange must be a str or None, not {type(value).__name__}")
    if value not in AUTO_ARRANGE_POLICIES:
        raise ArgumentError(
            f"auto_arrange must be one of {', '.join(AUTO_ARRANGE_POLICIES)}, got {value[:40]!r}"
        )
    if value == "foul" and rules["foul.mode"] == "refuse":
        # the round could not settle a seat the foul policy arranged
        raise ArgumentError(
            'auto_arrange="foul" cannot be used under foul.mode = "refuse": '
            "the rules refuse fouled arrangements"
        )
    return value


def _read_window(value: object) -> int:
    if not is_int(value):
        raise TypeError(f"arrangement_ms must be an int (milliseconds), not {type(value).__name__}")
    assert isinstance(value, int)
    if not 1 <= value <= _LAST_MS:
        raise ArgumentError(f"arrangement_ms must be 1 to 2**63-1 milliseconds, got {value}")
    return value


class Timers:
    """When a round's deal goes ahead without the missing client seeds
    (``seed_deadline``, None: it waits for every one, or the deal waits for
    none) and when its arranging ends (``deadline``, None: never, or not
    yet set). ``arrangement_ms``, when given, sets the deadline at the deal.

    Made from ``Round``'s arguments: ``deadline`` and ``seed_deadline``
    times (ints, milliseconds since the Unix epoch), ``arrangement_ms`` an
    int >= 1, ``require_seeds`` whether the deal waits for client seeds.
    The seed deadline is ``deadline`` when not given. Raises ``TypeError``
    for a wrong type, ``ArgumentError`` naming the argument for both
    ``deadline`` and ``arrangement_ms``, a ``seed_deadline`` without
    ``require_seeds`` or after ``deadline``."""

    __slots__ = ("arrangement_ms", "deadline", "seed_deadline")

    def __init__(
        self, deadline: object, seed_deadline: object, arrangement_ms: object, require_seeds: bool
    ) -> None:
        self.deadline = None if deadline is None else read_time(deadline, "deadline")
        seed = None if seed_deadline is None else read_time(seed_deadline, "seed_deadline")
        self.arrangement_ms = None if arrangement_ms is None else _read_window(arrangement_ms)
        if self.deadline is not None and self.arrangement_ms is not None:
            raise ArgumentError(
                "deadline and arrangement_ms: give one, the end of the arranging time "
                "(deadline) or its length from the deal (arrangement_ms)"
            )
        if seed is not None and not require_seeds:
            raise ArgumentError(
                "seed_deadline is when a deal that waits for client seeds goes ahead: "
                "give it with require_client_seeds=True"
            )
        if seed is not None and self.deadline is not None and seed > self.deadline:
            raise ArgumentError(
                f"seed_deadline {seed} is after deadline {self.deadline}: the deal would "
                "leave no time to arrange"
            )
        self.seed_deadline = seed if seed is not None or not require_seeds else self.deadline

    def seeds_due(self, now: int) -> bool:
        """Whether a deal at ``now`` goes ahead without the missing seeds."""
        return self.seed_deadline is not None and now >= self.seed_deadline

    def before_deadline(self, now: object) -> bool:
        """Whether ``now`` (as :func:`read_now` reads it, the clock read only
        when there is a deadline) is before the deadline."""
        at = None if now is None else read_time(now, "now")
        if self.deadline is None:
            return False
        return (now_ms() if at is None else at) < self.deadline

    def dealt_at(self, now: int) -> None:
        """Sets the deadline of a round whose arranging window starts with
        its deal at ``now`` (the last time a round takes, when the window
        reaches beyond it)."""
        if self.arrangement_ms is not None:
            self.deadline = min(now + self.arrangement_ms, _LAST_MS)

    def restore_deadline(self, value: Any, dealt: bool) -> None:
        """Sets the deadline a saved state of a round with an arranging
        window holds: none before the deal, a time at least the window after
        it (``RoundError``, or the ``TypeError``/``ArgumentError`` of a time
        naming ``round state: deadline``)."""
        if self.arrangement_ms is None:
            return
        if not dealt:
            if value is not None:
                raise round_error(
                    "round state: deadline: an open round with arrangement_ms has none "
                    "until the deal"
                )
            return
        if value is None:
            raise round_error("round state: deadline: a dealt round with arrangement_ms has one")
        deadline = read_time(value, "round state: deadline")
        if deadline < self.arrangement_ms:
            raise round_error(
                "round state: deadline is before arrangement_ms after any deal "
                "(the deal's time + arrangement_ms)"
            )
        self.deadline = deadline
