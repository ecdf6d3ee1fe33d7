"""A seat at the showdown: its arrangement and what it chose to do, as
:func:`capsa.settle` takes it."""

from __future__ import annotations

from typing import Any

from capsa import _core
from capsa.arrangement import Arrangement

__all__ = ["Seat"]


class Seat:
    """A seat at the showdown: its arrangement and what it chose to do, for
    :func:`settle`.

    ``arrangement`` is an :class:`Arrangement`; ``surrender`` (default
    False) asks to surrender, which only rules with ``surrender.enabled``
    allow; ``declare_natural`` (default True) declares the hand's natural
    when the rules pay one (False plays the rows instead). The three are
    read-only attributes of the same names. Seats are immutable, hashable
    and equal when all three are.

    Raises ``TypeError`` when ``arrangement`` is not an ``Arrangement`` (a
    ``Seat``, text, ids) or a flag is not a bool (numpy bools and ints are
    refused).
    """

    __slots__ = ("arrangement", "declare_natural", "surrender")

    arrangement: Arrangement
    surrender: bool
    declare_natural: bool

    def __init__(
        self, arrangement: Arrangement, surrender: bool = False, declare_natural: bool = True
    ) -> None:
        if isinstance(arrangement, Seat):
            raise TypeError("a Seat holds an Arrangement, not a Seat (pass seat.arrangement)")
        if not isinstance(arrangement, Arrangement):
            raise TypeError(f"a Seat holds an Arrangement, not {type(arrangement).__name__}")
        object.__setattr__(self, "arrangement", arrangement)
        object.__setattr__(self, "surrender", _core.read_flag(surrender, "surrender"))
        object.__setattr__(
            self, "declare_natural", _core.read_flag(declare_natural, "declare_natural")
        )

    def __setattr__(self, key: str, value: Any) -> None:
        raise AttributeError("Seat is immutable")

    def __repr__(self) -> str:
        return (
            f"Seat({self.arrangement!r}, surrender={self.surrender}, "
            f"declare_natural={self.declare_natural})"
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Seat):
            return NotImplemented
        return (self.arrangement, self.surrender, self.declare_natural) == (
            other.arrangement,
            other.surrender,
            other.declare_natural,
        )

    def __hash__(self) -> int:
        return hash((self.arrangement, self.surrender, self.declare_natural))
