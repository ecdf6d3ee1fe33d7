"""What a round keeps of each seat's play, and what it hands the engine of
its rules and arrangements: the pieces of :class:`capsa.Round` that its
state and its record share."""

from __future__ import annotations

from collections.abc import Sequence

from capsa import _core
from capsa.arrangement import Arrangement
from capsa.records import rules_for_record
from capsa.rules import Rules

__all__ = ["SeatPlay", "checked_arrangement", "record_rules"]

# Rules as records hold them, by the identity of the Rules object (kept
# alive here, so that its id is not reused): hashing a Rules hashes every
# knob, and a server's rounds share a few Rules objects.
_RECORD_RULES: dict[int, tuple[Rules, _core.RecordRules]] = {}


def record_rules(rules: Rules) -> _core.RecordRules:
    """The rules as the record writer takes them, compiled once per Rules
    object. Raises what :func:`capsa.records.rules_for_record` raises."""
    known = _RECORD_RULES.get(id(rules))
    if known is not None and known[0] is rules:
        return known[1]
    if len(_RECORD_RULES) >= 64:
        _RECORD_RULES.clear()
    compiled = rules_for_record(rules)
    _RECORD_RULES[id(rules)] = (rules, compiled)
    return compiled


def checked_arrangement(ids: Sequence[int]) -> Arrangement:
    """An Arrangement of 13 ids the engine has already checked (not checked
    again). Raises nothing."""
    arrangement = Arrangement.__new__(Arrangement)
    object.__setattr__(arrangement, "_ids", tuple(ids))
    return arrangement


class SeatPlay:
    """What one seat has done so far: its arrangement (13 ids, or None) and
    its text once written, whether the close arranged it (``auto``), its
    surrender and its decision on a natural (None: not decided). Raises
    nothing."""

    __slots__ = ("arrangement", "auto", "declare_natural", "surrender", "text")

    def __init__(self) -> None:
        self.arrangement: tuple[int, ...] | None = None
        self.text: str | None = None  # the arrangement's text, once written
        self.auto = False
        self.surrender = False
        self.declare_natural: bool | None = None  # None: not decided

    def arrangement_text(self) -> str | None:
        """The arrangement as ``"top / middle / bottom"`` text (written once),
        or None before there is one."""
        if self.arrangement is not None and self.text is None:
            self.text = str(checked_arrangement(self.arrangement))
        return self.text
