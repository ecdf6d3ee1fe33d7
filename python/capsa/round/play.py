"""What a round keeps of each seat's play, how the close arranges the seats
that did not submit, and what it hands the engine of its rules and
arrangements: the pieces of :class:`capsa.Round` that its state and its
record share."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from capsa import _core
from capsa.arrangement import Arrangement
from capsa.records.read import rules_for_record
from capsa.round.state import round_error
from capsa.rules import Rules
from capsa.settlement import Seat, Settlement, settle

__all__ = [
    "SeatPlay",
    "check_auto_seat",
    "checked_arrangement",
    "close_seats",
    "record_rules",
    "refused_foul",
    "seat_roles",
    "settle_play",
]

# Rules as records hold them, by the identity of the Rules object (kept
# alive here, so that its id is not reused): hashing a Rules hashes every
# knob, and a server's rounds share a few Rules objects.
_RECORD_RULES: dict[int, tuple[Rules, _core.RecordRules]] = {}


def record_rules(rules: Rules) -> _core.RecordRules:
    """The rules as the record writer takes them, compiled once per Rules
    object. Raises what :func:`capsa.records.read.rules_for_record` raises."""
    known = _RECORD_RULES.get(id(rules))
    if known is not None and known[0] is rules:
        return known[1]
    if len(_RECORD_RULES) >= 64:
        _RECORD_RULES.clear()
    compiled = rules_for_record(rules)
    _RECORD_RULES[id(rules)] = (rules, compiled)
    return compiled


def refused_foul(ids: Sequence[int], rules: Rules, seat: int) -> _core.TableError | None:
    """The error for a seat's arrangement that fouls under rules that refuse
    fouled arrangements (``foul.mode = "refuse"``), or None. Raises nothing."""
    if rules["foul.mode"] != "refuse" or not _core.is_foul(list(ids), rules):
        return None
    error = _core.TableError(
        f"seat {seat}'s arrangement fouls and the rules refuse fouled arrangements "
        '(foul.mode = "refuse"): arrange the rows bottom >= middle >= top'
    )
    error.seat = seat
    return error


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

    def played(self) -> tuple[Sequence[int], bool, bool, bool]:
        """The seat as the record writer takes it: (13 ids, auto,
        surrender, declare_natural). Raises nothing."""
        return (self.arrangement or (), self.auto, self.surrender, bool(self.declare_natural))

    def arrangement_text(self) -> str | None:
        """The arrangement as ``"top / middle / bottom"`` text (written once),
        or None before there is one."""
        if self.arrangement is not None and self.text is None:
            self.text = str(checked_arrangement(self.arrangement))
        return self.text


def close_seats(
    play: list[SeatPlay],
    hands: Sequence[Sequence[int]],
    rules: Rules,
    policy: str,
    natural: Callable[[int], bool],
) -> None:
    """Closes the play of a round: every seat that did not submit is
    arranged by the auto-arrange ``policy`` (marked ``auto``) and, when its
    hand holds a natural (``natural(seat)``) and it decided nothing, decides
    as the policy does; every seat still undecided then declares (a seat
    without a natural holds True). A decision the seat made stands. Raises
    what :func:`capsa._core.auto_arrangement` raises, changing nothing."""
    seats = len(play)
    late = [k for k, p in enumerate(play) if p.arrangement is None]
    choices = {k: _core.auto_arrangement(hands[k], rules, seats, policy) for k in late}
    naturals = {k: natural(k) for k in late}
    for k, (ids, declare) in choices.items():
        seat = play[k]
        seat.arrangement, seat.text, seat.auto = tuple(ids), None, True
        if seat.declare_natural is None and naturals[k]:
            seat.declare_natural = declare
    for seat in play:
        if seat.declare_natural is None:
            seat.declare_natural = True


def check_auto_seat(k: int, policy: str, fouls: bool) -> None:
    """Checks a saved state's seat ``k`` arranged at the close, whose
    arrangement ``fouls`` or not, against the round's auto-arrange
    ``policy``: the solver's and the greedy policy's never foul, the foul
    policy's always does (each policy's own choice is left to replay: the
    solver's would cost a solve a seat). Raises ``RoundError`` naming the
    seat."""
    if fouls == (policy == "foul"):
        return
    who = "the solver" if policy == "solver" else f"the {policy} policy"
    raise round_error(
        f"round state: play[{k}].auto: the arrangement "
        + ("fouls, and " if fouls else "does not foul, and ")
        + f"{who} that arranges at the close "
        + ("never fouls" if fouls else "always fouls"),
        k,
    )


def seat_roles(banker: int | None, multipliers: Sequence[int]) -> dict[str, Any]:
    """A round's banker and multipliers as keywords of ``settle`` and the
    record writer: none outside a banker game. Raises nothing."""
    if banker is None:
        return {}
    return {"banker": banker, "multipliers": list(multipliers)}


def settle_play(
    play: Sequence[SeatPlay], rules: Rules, stakes: Any, roles: dict[str, Any]
) -> Settlement:
    """The settlement of the seats' play (each arranged). Raises what
    :func:`capsa.settle` raises."""
    seats: list[Seat | tuple[int, ...]] = [
        # 13 ids are a seat that declares and does not surrender
        p.arrangement or ()
        if p.declare_natural and not p.surrender
        else Seat(checked_arrangement(p.arrangement or ()), p.surrender, bool(p.declare_natural))
        for p in play
    ]
    return settle(seats, rules, stakes, **roles)
