"""What one player may see of a round (:meth:`capsa.Round.view`): the
public facts of the round, the player's own cards and decisions, and who
has acted; never another seat's cards, arrangement or client seed, nor the
server seed, before the settlement, and the whole record after it."""

from __future__ import annotations

from typing import Any

from capsa.round.timers import Timers

__all__ = ["player_view"]


def player_view(
    *,
    round_id: str,
    table_id: str | None,
    players: list[dict[str, str | None]],
    phase: str,
    commitment: str,
    seats: int,
    stakes: int | list[list[int]],
    rules: str,
    deck: dict[str, Any],
    timers: Timers,
    auto_arrange: str,
    roles: tuple[int | None, list[int]],
    seat: int,
    client_seed: str | None,
    seeds_in: list[bool],
    hand: list[str] | None,
    submitted: list[bool],
    own: tuple[str | None, bool, bool, bool | None],
    record: dict[str, Any] | None,
) -> dict[str, Any]:
    """The view as a JSON-ready dict (``docs/records.md``, "What a player
    sees"); ``deck`` the deck the commitment deals (its ``deck`` knobs),
    ``timers`` the round's deadlines and arranging window, ``roles``
    the banker seat (or None) and each seat's multiplier, ``own``
    the seat's arrangement text, auto flag, surrender and natural decision.
    Raises nothing."""
    arrangement, auto, surrender, declare = own
    return {
        "round_id": round_id,
        "table_id": table_id,
        "players": players,
        "phase": phase,
        "commitment": commitment,
        "seats": seats,
        "stakes": stakes,
        "rules": rules,
        "deck": deck,
        "seed_deadline": timers.seed_deadline,
        "arrangement_ms": timers.arrangement_ms,
        "deadline": timers.deadline,
        "auto_arrange": auto_arrange,
        "banker": roles[0],
        "multipliers": roles[1],
        "seat": seat,
        "client_seed": client_seed,
        "client_seeds_in": seeds_in,
        "hand": hand,
        "submitted": submitted,
        "arrangement": arrangement,
        "auto": auto,
        "surrender": surrender,
        "declare_natural": declare,
        "record": record,
    }
