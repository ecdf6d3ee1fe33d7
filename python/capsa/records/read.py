"""Round records: reading, replay and verification of the provably fair deal.

A round record (format 5, ``docs/records.md``, JSON Schema
``capsa/schema/record-5.json``; formats 1 to 4 are still read) holds
everything needed to recreate one round of one table: the table's id, the
rules in full, the stakes, the commitment and the revealed seeds, each
seat's player, hand, what it played and its decisions, the auto-arrange
policy that arranged the seats left at the close (``solver``, ``greedy`` or
``foul``), and the settlement with its full breakdown, as canonical JSON
with a SHA-256 digest. :meth:`capsa.Round.record` writes one.

A **void record** (format ``capsa-void-record``, JSON Schema
``capsa/schema/void-1.json``) closes a round whose commitment was published
but whose record never will be (the server died): its table, round id,
nonce, commitment, the digest it follows and the reason, in the table's
chain. :func:`void_record` writes one; every reader here takes it
(:func:`read_record` gives a view whose ``kind`` is ``"void"``, a round
record's is ``"round"``; :func:`replay` checks its digest and link,
:func:`verify_deal` its commitment).

* :func:`replay` recomputes every derived field from the inputs in the record
  and raises :class:`ReplayError` naming every field that differs
  (:class:`SolverMismatchError` when the one thing it cannot check is a
  seat arranged at the close by a solver other than the installed one);
* :func:`verify_deal` checks only the deal, from the record alone: the
  revealed server seed hashes to the commitment, and the seeds deal the
  recorded hands;
* a record that cannot be read (not JSON, not a round record, a field
  missing or malformed, a newer format version) raises :class:`RecordError`
  naming the field.

A record is given as its JSON text (``str`` or ``bytes``, as one line of a
JSON Lines file holds it) or as the dict :meth:`capsa.Round.record` returns.
"""

from __future__ import annotations

import functools
import hashlib
import json
from collections.abc import Mapping, Sequence
from types import EllipsisType
from typing import Any

from capsa import _core
from capsa._core import ArgumentError, CapsaError, RulesError
from capsa.json_faults import json_fault
from capsa.rules import Rules

__all__ = [
    "AUTO_ARRANGE_POLICIES",
    "FAIR_ALGORITHM",
    "RECORD_FORMAT",
    "RECORD_FORMAT_VERSION",
    "SETTLEMENT_VERSION",
    "VOID_FORMAT",
    "VOID_FORMAT_VERSION",
    "RecordError",
    "ReplayError",
    "SettlementVersionError",
    "SolverMismatchError",
    "View",
    "canonical_json",
    "read_record",
    "read_records",
    "record_digest",
    "replay",
    "rules_dict_of_format",
    "verify_deal",
    "void_record",
]

FAIR_ALGORITHM: str = _core.FAIR_ALGORITHM
RECORD_FORMAT: str = _core.RECORD_FORMAT
RECORD_FORMAT_VERSION: int = _core.RECORD_FORMAT_VERSION
VOID_FORMAT: str = _core.VOID_FORMAT
#: The settlement version this capsa writes (``settlement.version`` of a
#: format 5 record); it replays versions 1 (every older format) to this one.
SETTLEMENT_VERSION: int = _core.SETTLEMENT_VERSION
#: The field a record naming a settlement version this capsa does not settle
#: is refused at.
_SETTLEMENT_VERSION_FIELD = "settlement.version"
VOID_FORMAT_VERSION: int = _core.VOID_FORMAT_VERSION
#: The auto-arrange policies a round record of format 4 names in
#: ``solver.strategy`` (docs/records.md, "The auto-arrange policies").
AUTO_ARRANGE_POLICIES: tuple[str, ...] = tuple(_core.AUTO_ARRANGE_POLICIES)

View = _core.RecordView | _core.VoidView
"""A record as read: a round record's view (``kind == "round"``) or a void
record's (``kind == "void"``)."""

RecordLike = str | bytes | bytearray | memoryview | Mapping[str, Any]
"""A record: its JSON text, or the dict :meth:`capsa.Round.record` returns."""


class RecordError(CapsaError):
    """A round record that cannot be read: not JSON, not a capsa round record,
    a field missing, unknown or malformed, or a newer format version.

    ``field`` is the path of the field (``"seats[2].hand"``; ``""`` for the
    record as a whole).
    """

    field: str

    def __init__(self, message: str, field: str = "") -> None:
        super().__init__(message)
        self.field = field


class SettlementVersionError(RecordError):
    """A round record written under a settlement version this capsa does not
    settle (``settlement.version``, say 7: "written under settlement version
    7; this capsa settles versions 1 and 2"), or one that names none where
    its format does. Not a sign of tampering: replay it with a capsa that
    settles that version. ``field`` is ``"settlement.version"``."""


def _read_error(message: str, field: str) -> RecordError:
    """The error of a record the reader refused at ``field``."""
    if field == _SETTLEMENT_VERSION_FIELD:
        return SettlementVersionError(message, field)
    return RecordError(message, field)


class ReplayError(CapsaError):
    """A round record whose recorded fields are not what its inputs give.

    ``fields`` names every field that differs (``"digest"``,
    ``"settlement.seats[0].money"``, ``"seats[1].hand"``, ...) in the order
    found; ``differences`` pairs each with its message; ``round_id`` is the
    record's round id.
    """

    fields: tuple[str, ...]
    differences: tuple[tuple[str, str], ...]
    round_id: str

    def __init__(self, round_id: str, differences: Sequence[tuple[str, str]], what: str) -> None:
        self.round_id = round_id
        self.differences = tuple((str(f), str(m)) for f, m in differences)
        self.fields = tuple(f for f, _ in self.differences)
        details = "; ".join(m for _, m in self.differences)
        super().__init__(f"record {round_id!r} {what}: {details}")


class SolverMismatchError(ReplayError):
    """A record that replays in every field but one: a seat arranged at the
    close by a solver (its strategy, effort or tables, the record's
    ``solver``) other than the one this capsa installs, so that the
    arrangement cannot be checked against the solver's choice. ``fields`` is
    ``("solver",)``; replay it with the capsa version that wrote it
    (``capsa_version``)."""


def _record_text(record: RecordLike) -> str | bytes:
    """The JSON text of a record given as text, bytes or a dict."""
    if isinstance(record, str | bytes):
        return record
    if isinstance(record, bytearray | memoryview):
        return bytes(record)
    if isinstance(record, Mapping):
        try:
            # plain JSON data (what Round.record() gives) is written by the
            # engine; anything else, and every fault, is json's to name
            return _core.canonical_json_of(record)
        except ValueError:
            pass
        try:
            return json.dumps(record, ensure_ascii=False, allow_nan=False)
        except (ValueError, RecursionError) as exc:
            # NaN or infinity, a circular reference, nesting too deep
            raise RecordError(f"the record is not JSON data: {json_fault(exc)}") from None
    raise TypeError(f"a record is JSON text (str or bytes) or a dict, not {type(record).__name__}")


def read_record(record: RecordLike) -> View:
    """The record, read and checked for its form: a round record's view
    (``kind == "round"``) or a void record's (``kind == "void"``), by its
    ``format``. Raises ``RecordError`` naming the first field that is not as
    its format version writes it, ``TypeError`` for a record that is neither
    text nor a dict."""
    if isinstance(record, dict):
        try:
            view, field, message = _core.read_record_value(record)
        except ValueError:  # not plain JSON data: json names the fault
            view, field, message = _core.read_record(_record_text(record))
    else:
        view, field, message = _core.read_record(_record_text(record))
    if view is None:
        raise _read_error(message, field)
    return view


def read_records(texts: Sequence[str | bytes]) -> list[View | RecordError]:
    """Many records' texts read at once, on every core without the GIL, as
    :func:`read_record` reads each: in the order given, each record or the
    ``RecordError`` reading it raises."""
    return [
        view if view is not None else _read_error(message, field)
        for view, field, message in _core.read_records(list(texts))
    ]


#: The first format version whose rules are ``Rules.to_dict()`` as it is
#: (the rake in basis points, with a minimum pot and caps).
_BASIS_POINTS_FORMAT = 3
#: The money knobs of the older formats' rules: the rake a whole percent.
_OLDER_MONEY_KEYS = ("rake_percent", "stake")


def rules_dict_of_format(
    rules: Rules, format_version: int = RECORD_FORMAT_VERSION
) -> dict[str, Any]:
    """The rules as a record of ``format_version`` holds them: ``to_dict()``
    from format 3 on; in formats 1 and 2 the same with the money table
    written ``{"stake": ..., "rake_percent": ...}``, the rake a whole
    percent with no minimum pot or caps.

    Raises ``ArgumentError`` naming the knob for rules whose rake such a
    record cannot hold (basis points not a multiple of 100, a minimum pot or
    a cap).
    """
    data = rules.to_dict()
    if format_version >= _BASIS_POINTS_FORMAT:
        return data
    money = data["money"]
    points = money.pop("rake_basis_points")
    faults = [f"money.rake_basis_points is {points}, not a whole percent"] if points % 100 else []
    faults += [
        f"money.{knob} is {value}" for knob, value in money.items() if knob != "stake" and value
    ]
    if faults:
        raise ArgumentError(
            f"rules {rules.name!r} cannot be written in a format {format_version} record, "
            f"which holds the rake as a whole percent with no minimum pot or caps: "
            + ", ".join(faults)
        )
    data["money"] = {"stake": money["stake"], "rake_percent": points // 100}
    return data


def rules_for_record(
    rules: Rules, format_version: int = RECORD_FORMAT_VERSION
) -> _core.RecordRules:
    """The rules as records of ``format_version`` hold them (compiled, with
    their canonical JSON, :func:`rules_dict_of_format`)."""
    return _rules_for_record(rules, min(format_version, _BASIS_POINTS_FORMAT))


@functools.lru_cache(maxsize=128)
def _rules_for_record(rules: Rules, format_version: int) -> _core.RecordRules:
    data = rules_dict_of_format(rules, format_version)
    return _core.RecordRules(rules, json.dumps(data, ensure_ascii=False))


@functools.lru_cache(maxsize=128)
def _rules_of_record(text: str, format_version: int) -> _core.RecordRules | str:
    """The record's rules compiled, or why they cannot be: they must be valid
    rules written in full, as the record's format writes them
    (:func:`rules_dict_of_format`)."""
    data = json.loads(text)
    if format_version < _BASIS_POINTS_FORMAT:
        money = data.get("money")
        extra = sorted(set(money) - set(_OLDER_MONEY_KEYS)) if isinstance(money, dict) else []
        if extra:
            return (
                f"rules: money.{extra[0]} is not in a format {format_version} record, "
                "whose money table holds only money.stake and money.rake_percent"
            )
    try:
        rules = Rules.from_dict(data)
    except RulesError as exc:
        return f"rules: {exc}"
    try:
        compiled = _rules_for_record(rules, min(format_version, _BASIS_POINTS_FORMAT))
    except ArgumentError as exc:
        return f"rules: {exc}"
    if compiled.text != text:
        return _not_in_full(data, rules_dict_of_format(rules, format_version), format_version)
    return compiled


def _not_in_full(given: Mapping[str, Any], full: Mapping[str, Any], format_version: int) -> str:
    """Why rules ``given`` are not ``full``, as the record's format writes
    them: each knob missing or not as written."""
    given_leaves, full_leaves = _leaves(given), _leaves(full)
    detail = ", ".join(
        [
            *(f"{k} is missing" for k in sorted(full_leaves.keys() - given_leaves.keys())),
            *(
                f"{k} is not as written"
                for k in sorted(given_leaves)
                if given_leaves[k] != full_leaves.get(k)
            ),
        ]
    )
    newest = format_version >= _BASIS_POINTS_FORMAT
    written = "Rules.to_dict()" if newest else f"format {format_version}"
    return f"rules: not the rules in full as {written} writes them{': ' + detail if detail else ''}"


def _leaves(data: Mapping[str, Any], prefix: str = "") -> dict[str, str]:
    """Every leaf of a rules dict by its dotted key, with its value as JSON."""
    out: dict[str, str] = {}
    for key, value in data.items():
        if isinstance(value, Mapping):
            out.update(_leaves(value, f"{prefix}{key}."))
        else:
            out[f"{prefix}{key}"] = json.dumps(value, sort_keys=True)
    return out


def _compiled_rules(view: _core.RecordView) -> _core.RecordRules:
    rules = _rules_of_record(view.rules_json, view.format_version)
    if isinstance(rules, str):
        raise RecordError(rules, "rules")
    return rules


def replay(record: RecordLike, *, previous_digest: str | EllipsisType | None = ...) -> str:
    """Replays a round record: recomputes every derived field from the inputs
    in the record (the digest, the rules digest, the deal from the seeds,
    each seat's arrangement against its hand and the rules, from format 2 on
    each seat arranged at the close against what the record's auto-arrange
    policy arranges, every figure of the settlement) and returns the
    record's digest. A void record holds nothing derived but its digest,
    which is checked, with its link.

    ``previous_digest``, when given, is the digest of the record before it in
    the table's chain (``None``: the record must be the first of a chain),
    and the record's ``previous_digest`` must be it.

    Raises ``RecordError`` for a record that cannot be read (the field named)
    and ``ReplayError`` naming every field that differs;
    ``SolverMismatchError`` (a ``ReplayError`` whose one field is
    ``"solver"``) for a record whose seats arranged at the close were
    arranged by another solver than this capsa's, everything else
    replaying; ``TypeError`` for a record that is neither text nor a dict.
    """
    return replay_view(read_record(record), previous_digest)


def replay_view(view: View, previous_digest: str | EllipsisType | None = ...) -> str:
    """:func:`replay` of a record already read."""
    if isinstance(view, _core.VoidView):
        problems = view.replay() if previous_digest is ... else view.replay(True, previous_digest)
        if problems:
            raise ReplayError(view.round_id, problems, "does not replay")
        return view.digest
    rules = _compiled_rules(view)
    if previous_digest is ...:
        problems = view.replay(rules)
    else:
        problems = view.replay(rules, True, previous_digest)
    if problems:
        if [field for field, _ in problems] == ["solver"]:
            raise SolverMismatchError(view.round_id, problems, "cannot be checked here")
        raise ReplayError(view.round_id, problems, "does not replay")
    return view.digest


def verify_deal(record: RecordLike, commitment: str | None = None) -> None:
    """Checks the provably fair deal of a round record from the record alone:
    the revealed server seed's SHA-256 is the commitment (and the commitment
    is ``commitment``, the one published before the deal, when given), and
    the server seed, client seeds and nonce deal exactly the recorded hands.
    A void round was never dealt: only its commitment is checked against
    ``commitment``, when given.

    Raises ``ReplayError`` naming each field that fails and why,
    ``RecordError`` for a record that cannot be read.
    """
    view = read_record(record)
    problems = view.verify_deal(commitment)
    if problems:
        raise ReplayError(view.round_id, problems, "fails verification of its deal")


def void_record(
    round_id: str,
    commitment: str,
    nonce: int,
    reason: str,
    *,
    table_id: str | None = None,
    previous_digest: str | None = None,
    meta: Mapping[str, str | int | bool | None] | None = None,
) -> str:
    """The void record of a pending round, as one line of canonical JSON
    (``docs/records.md``, "Void records"): its ``round_id``, its
    ``commitment`` (64 hex digits, as published before the deal) and
    ``nonce``, the ``table_id`` (None for a server of one table), the digest
    of the table's record before it (``previous_digest``, None for the
    first) and why it is void (``reason``, 1 to 1024 bytes of text, no
    U+0000); ``meta`` as a round's notes.

    Raises ``ArgumentError`` for an id, reason, digest, nonce or notes out of
    range, ``TypeError`` for an argument of the wrong type.
    """
    text, _ = _core.write_void_record(
        round_id, commitment, nonce, reason, previous_digest, meta, table_id=table_id
    )
    return text


def record_digest(record: RecordLike) -> str:
    """The digest a record's contents give: the SHA-256 (hex) of the
    canonical JSON of the record without its ``digest``."""
    data = json.loads(canonical_json(record))
    if not isinstance(data, dict):
        raise RecordError(f"a record is a JSON object, not {type(data).__name__}")
    data.pop("digest", None)
    return hashlib.sha256(canonical_json(data).encode("utf-8")).hexdigest()


def canonical_json(value: RecordLike) -> str:
    """The canonical JSON text of a JSON value given as text or a dict: keys
    sorted, no whitespace, integers only (``docs/records.md``). Raises
    ``RecordError`` for text that is not such JSON."""
    text = _record_text(value)
    try:
        return _core.canonical_json(text)
    except CapsaError as exc:
        raise RecordError(str(exc)) from None
