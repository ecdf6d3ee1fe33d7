"""Round records (``capsa.Round.record()``) as showdown pages: the one
adapter from a record to what a page draws.

A record is a JSON object holding the round's ``settlement``; a round as
``capsa settle`` reads it never has that key. The adapter reads:

* ``settlement`` (required): the settlement's breakdown, the shape of
  ``Settlement.to_dict()``;
* ``round_id`` (or ``id``): shown as the round's id;
* ``rules``: a preset name, or the rules in full as a dict (as the record's
  format writes them: ``Rules.to_dict()`` from format 3 on) or as TOML
  text (partial rules are refused); when given, payments name the rules'
  own figures;
* each seat's ``player`` (format 2 records): the seat is shown by the
  player's name, or by its id when it has none (a seat's default player,
  ``seat-k``, is shown as the page's own seat label);
* ``seat_names`` (optional, before the players): one name per seat;
* ``table_id``, ``meta`` (its ``played_at`` is when the round was played,
  :mod:`capsa.records.times`), ``digest`` and ``previous_digest`` (the
  chain), and each seat's ``auto`` (arranged by the server at the close)
  and player id, when the record has them;

and shows the verification of the record: ``capsa.verify_deal(record)``
(the commitment and the deal) and ``capsa.replay(record)`` (the settlement
recomputed exactly), each passed, failed with the reason, or not checked
when :mod:`capsa.records` has no such check.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable, Mapping
from typing import Any

from capsa import _core, records
from capsa._core import CapsaError, RulesError, TableError
from capsa.records.times import played_at_text
from capsa.render._model import Check, Table, display_id, table_from_settlement
from capsa.rules import Rules
from capsa.rules.loading import parse_toml

__all__ = [
    "is_round_record",
    "record_check",
    "record_checks",
    "record_meta",
    "record_text",
    "table_from_record",
]

RECORD_KEY = "settlement"


def is_round_record(value: object) -> bool:
    """True for a round record: a JSON object with a ``settlement``."""
    return isinstance(value, Mapping) and RECORD_KEY in value


def _rules(value: object, format_version: object) -> Rules | None:
    """A record's rules: a preset by name, or the rules in full (as a table,
    as the record's format writes them, or as TOML text). Rules that leave
    knobs out are refused: they would take them from a preset the record
    never named."""
    if value is None:
        return None
    if isinstance(value, str):
        if "=" not in value:
            return Rules.preset(value)
        return Rules.from_dict(parse_toml(value, "record.rules"), full=True)
    if not isinstance(value, Mapping):
        kind = type(value).__name__
        raise RulesError(
            f"record.rules must be a preset name, rules as a table or TOML text, not {kind}"
        )
    older = format_version in (1, 2) and not isinstance(format_version, bool)
    if not older:
        return Rules.from_dict(value, full=True)
    assert isinstance(format_version, int)
    rules = Rules.from_dict(value)
    if records.rules_dict_of_format(rules, format_version) != value:
        raise RulesError(
            f"record.rules: not the rules in full as a format {format_version} record holds them"
        )
    return rules


def record_check(
    name: str, run: Callable[[Any], object] | None, record: Mapping[str, Any]
) -> Check:
    """The check ``name``: ``run(record)`` passed, failed (the error's
    reason), or not checked (no ``run``)."""
    if run is None:
        return Check(name, None)
    try:
        result = run(record)
    except CapsaError as exc:
        return Check(name, False, f"{type(exc).__name__}: {exc}")
    return Check(name, result is not False)


def record_checks(record: Mapping[str, Any]) -> tuple[Check, ...]:
    """The record's verification: its commitment and deal, and its replay."""
    return (
        record_check("commitment", getattr(records, "verify_deal", None), record),
        record_check("replay", getattr(records, "replay", None), record),
    )


def _player_name(seat: object, k: int) -> str | None:
    """A seat's player as a page shows it: its name, else its id (None for
    the seat's default player or a seat without one)."""
    player = seat.get("player") if isinstance(seat, Mapping) else None
    if not isinstance(player, Mapping):
        return None
    name, player_id = player.get("name"), player.get("id")
    if isinstance(name, str) and name:
        return name
    if isinstance(player_id, str) and player_id and player_id != f"seat-{k}":
        return player_id
    return None


def _player_names(seats: object) -> list[str | None] | None:
    """The seats' players' names, or None when no seat names a player (a
    seat without one, None, is shown by the page's own label)."""
    if not isinstance(seats, list):
        return None
    names = [_player_name(seat, k) for k, seat in enumerate(seats)]
    return None if all(name is None for name in names) else names


def record_meta(record: Mapping[str, Any]) -> tuple[tuple[str, str], ...]:
    """A record's ``meta``, each value as text (JSON for non-text)."""
    meta = record.get("meta")
    if meta is None:
        return ()
    if not isinstance(meta, Mapping):
        raise TableError(f"record.meta must be an object, not {type(meta).__name__}")
    return tuple(
        (str(key), value if isinstance(value, str) else json.dumps(value, ensure_ascii=False))
        for key, value in meta.items()
    )


def record_text(record: Mapping[str, Any], key: str) -> str | None:
    """A record's member ``key`` when it is text (a digest), else None."""
    value = record.get(key)
    return value if isinstance(value, str) else None


def _with_story(table: Table, record: Mapping[str, Any]) -> Table:
    """The table with what the record tells beyond its settlement."""
    seats_data = record.get("seats")
    seats = table.seats
    if isinstance(seats_data, list) and len(seats_data) == len(seats):
        seats = tuple(
            dataclasses.replace(
                seat,
                auto=isinstance(data, Mapping) and data.get("auto") is True,
                player_id=_player_id(data),
            )
            for seat, data in zip(seats, seats_data, strict=True)
        )
    meta = record.get("meta")
    return dataclasses.replace(
        table,
        seats=seats,
        table_id=display_id(record.get("table_id"), "table_id"),
        played_at=played_at_text(meta) if isinstance(meta, Mapping) else None,
        meta=record_meta(record),
        digest=record_text(record, "digest"),
        previous_digest=record_text(record, "previous_digest"),
    )


def _player_id(seat: object) -> str | None:
    player = seat.get("player") if isinstance(seat, Mapping) else None
    value = player.get("id") if isinstance(player, Mapping) else None
    return display_id(value, "player id") if isinstance(value, str) else None


def table_from_record(record: Mapping[str, Any], *, verify: bool = True) -> Table:
    """What a page draws for a round record (see the module docs); ``verify``
    runs the record's checks. A record without a settlement, or whose
    settlement is not a breakdown, raises ``TableError`` naming the key;
    ``TypeError`` for a ``verify`` that is not a bool."""
    verify = _core.read_flag(verify, "verify")
    if not isinstance(record, Mapping):
        raise TypeError(f"a round record is a dict, not {type(record).__name__}")
    if not is_round_record(record):
        raise TableError("a round record holds its settlement ('settlement' is missing)")
    settlement = record[RECORD_KEY]
    if not isinstance(settlement, Mapping):
        raise TableError(f"record.settlement must be an object, not {type(settlement).__name__}")
    names: list[str | None] | None = record.get("seat_names")
    if names is not None and not (
        isinstance(names, list) and all(isinstance(name, str) for name in names)
    ):
        raise TableError("record.seat_names must be a list of one name (text) per seat")
    if names is None:
        names = _player_names(record.get("seats"))
    table = table_from_settlement(
        settlement,
        rules=_rules(record.get("rules"), record.get("format_version")),
        round_id=record.get("round_id", record.get("id")),
        seat_names=names,
        checks=record_checks(record) if verify else (),
    )
    return _with_story(table, record)
