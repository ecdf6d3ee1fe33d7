"""capsa speaking the engine protocol (``capsa conformance serve``).

:class:`CapsaEngine` answers one request (a dict) with one response (a
dict); :func:`serve` runs it over JSON Lines on a byte stream pair. It is the
reference side of the harness (its answers are the expected ones) and a
template for an engine in another language: read a line, answer a line,
flush when the input has nothing more waiting.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Callable, Mapping
from typing import IO, Any

import capsa
from capsa.arrangement import Arrangement
from capsa.cards import card_ids
from capsa.conformance.protocol import OPS, PROTOCOL_VERSION
from capsa.rules import KNOBS, Rules
from capsa.settlement import Seat

__all__ = [
    "MAX_REQUEST_BYTES",
    "CapsaEngine",
    "DuplicateKeyError",
    "RequestError",
    "loads",
    "serve",
]

# A request is a few kilobytes; a line past this is refused unread.
MAX_REQUEST_BYTES = 1 << 20
_READ_CHUNK = 1 << 16
_ROWS = ("top", "middle", "bottom")
_SEAT_KEYS = frozenset({*_ROWS, "surrender", "declare_natural"})
_FIGURES = re.compile(rb'"(points|money|rake|net)":(\[[-0-9,]*\])')
# The members each op reads, checked before it runs so that a missing one is named.
_FIELDS: dict[str, tuple[str, ...]] = {
    "compare": ("a", "b"),
    "category": ("hand",),
    "foul": _ROWS,
    "natural": ("hand",),
    "count_splits": ("hand",),
    "settle": ("round",),
    "digest": ("size",),
}


class DuplicateKeyError(ValueError):
    """A JSON object with the same key twice (refused, never last-wins)."""


def _unique_pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object's members as a dict; raises :class:`DuplicateKeyError`
    naming a key given twice (a set: linear in the members)."""
    seen: set[str] = set()
    for key, _ in pairs:
        if key in seen:
            raise DuplicateKeyError(f"duplicate key {json.dumps(key)}")
        seen.add(key)
    return dict(pairs)


def loads(text: bytes | str) -> Any:
    """JSON text decoded as the protocol reads it: an object with a key given
    twice is refused. Raises :class:`DuplicateKeyError` for that, ``ValueError``
    for text that is not JSON and ``RecursionError`` for text nested past
    Python's limit."""
    return json.loads(text, object_pairs_hook=_unique_pairs)


class RequestError(Exception):
    """A request that cannot be answered: ``kind`` is ``invalid`` or ``unsupported``."""

    def __init__(self, kind: str, message: str, error_type: str | None = None) -> None:
        super().__init__(message)
        self.kind = kind
        self.error_type = error_type


def _required_knobs() -> frozenset[str]:
    data = Rules().to_dict()
    keys: set[str] = set()
    for key, value in data.items():
        if isinstance(value, dict) and key != "royalties":
            keys.update(f"{key}.{sub}" for sub in value)
        else:
            keys.add(key)
    return frozenset(keys)


_REQUIRED = _required_knobs()


def _check_complete(data: Mapping[str, Any]) -> None:
    """Refuses partial rules data: the protocol sends every knob."""
    present: set[str] = set()
    for key, value in data.items():
        if isinstance(value, Mapping) and key != "royalties":
            present.update(f"{key}.{sub}" for sub in value)
        else:
            present.add(key)
    missing = sorted(_REQUIRED - present)
    if missing:
        raise RequestError("invalid", f"rules: missing knobs {', '.join(missing)}", "RulesError")


def _seat(value: Any, k: int) -> Seat:
    """One seat of a round in any form ``capsa settle`` reads, as a
    :class:`Seat`, for the tools that look into a case's seats (its flags,
    its explanation, inference). A request is answered by the core's reader
    (:meth:`CapsaEngine._settle`); a seat it refuses may be refused here in
    other words."""
    try:
        if isinstance(value, str):
            if "/" in value or "|" in value:
                return Seat(Arrangement.parse(value))
            return Seat(Arrangement.from_ids(card_ids(value, 13)))
        if isinstance(value, list):
            return Seat(Arrangement.from_ids(card_ids(value, 13)))
        if isinstance(value, dict):
            unknown = set(value) - _SEAT_KEYS
            if unknown:
                raise RequestError("invalid", f"seat {k}: unknown key {sorted(unknown)[0]!r}")
            missing = [row for row in _ROWS if row not in value]
            if missing:
                raise RequestError("invalid", f"seat {k}: missing row {missing[0]!r}", "HandError")
            surrender = value.get("surrender", False)
            declare = value.get("declare_natural", True)
            rows = (value["top"], value["middle"], value["bottom"])
            return Seat(Arrangement(*rows), surrender=surrender, declare_natural=declare)
    except capsa.CapsaError as exc:
        raise RequestError("invalid", f"seat {k}: {exc}", type(exc).__name__) from None
    except TypeError as exc:
        raise RequestError("invalid", f"seat {k}: {exc}") from None
    raise RequestError("invalid", f"seat {k}: a seat is text, a list of 13 cards or an object")


def _deck_claims() -> dict[str, list[Any]]:
    """Every value of the deck knobs: capsa plays every deck, and an engine
    that claims none plays the 52-card deck alone."""
    claims: dict[str, list[Any]] = {}
    for knob in KNOBS:
        if knob.name.startswith("deck."):
            low, high = knob.low or 0, knob.high or 0
            claims[knob.name] = list(knob.choices) if knob.choices else list(range(low, high + 1))
    return claims


class CapsaEngine:
    """capsa's answers to protocol requests (every op, money included).

    ``name`` (``"capsa"``) is the engine name its ``hello`` gives;
    ``rules_texts`` maps rules texts already seen on the wire to their rules
    (see :func:`answer_line`). Building one raises nothing; :meth:`handle`
    answers any request, :meth:`answer` raises :class:`RequestError` where
    there is no answer.
    """

    name = "capsa"

    def __init__(self) -> None:
        self._last_data: Any = None
        self._last_rules: Rules | None = None
        self._known: dict[str, tuple[Any, Rules]] = {}
        self.rules_texts: dict[bytes, Rules] = {}
        self._ops: dict[str, Callable[[Mapping[str, Any], Rules], Any]] = {
            "compare": self._compare,
            "category": self._category,
            "foul": self._foul,
            "natural": self._natural,
            "count_splits": self._count_splits,
            "settle": self._settle,
            "digest": self._digest,
        }

    def hello(self) -> dict[str, Any]:
        """The ``hello`` result: protocol, name, version and what is supported
        (every op, with money, cards as text). Raises nothing."""
        return {
            "protocol": PROTOCOL_VERSION,
            "engine": self.name,
            "version": capsa.__version__,
            "ops": list(OPS),
            "money": True,
            "cards": "text",
            "knobs": _deck_claims(),
        }

    def handle(self, request: Any, rules: Rules | None = None) -> dict[str, Any]:
        """The response to one decoded request (never raises for a bad request).

        ``rules``, when given, are the request's rules already read (the
        request then need not hold them)."""
        request_id = request.get("id") if isinstance(request, dict) else None
        try:
            return {"id": request_id, "result": self.answer(request, rules)}
        except RequestError as exc:
            error: dict[str, Any] = {"kind": exc.kind, "message": str(exc)}
            if exc.error_type:
                error["type"] = exc.error_type
            return {"id": request_id, "error": error}
        except Exception as exc:  # a bug in capsa: reported, never a dead server
            message = f"{type(exc).__name__}: {exc}"
            return {"id": request_id, "error": {"kind": "internal", "message": message}}

    def answer(self, request: Any, rules: Rules | None = None) -> Any:
        """The result of one request; raises :class:`RequestError` when there is none."""
        if not isinstance(request, dict):
            raise RequestError("invalid", "a request is a JSON object")
        op = request.get("op")
        if op == "hello":
            return self.hello()
        run = self._ops.get(op) if isinstance(op, str) else None
        if run is None:
            raise RequestError("unsupported", f"op {op!r} is not supported")
        for name in (*_FIELDS[str(op)], *(() if rules else ("rules",))):
            if name not in request:
                raise RequestError("invalid", f"{json.dumps(name)} is missing")
        try:
            return run(request, rules or self._rules(request.get("rules")))
        except capsa.CapsaError as exc:
            raise RequestError("invalid", str(exc), type(exc).__name__) from None
        except (TypeError, KeyError) as exc:
            raise RequestError("invalid", f"{type(exc).__name__}: {exc}") from None

    def remember_rules_text(self, tail: bytes, data: Any) -> None:
        """Keeps the rules of ``data`` under the text ``tail`` (the rules JSON and the
        request's closing brace) when that text is exactly those rules.

        Raises :class:`RequestError` when ``data`` is not complete, valid
        rules data (the caller passes rules it has just answered with)."""
        if not isinstance(data, dict) or len(self.rules_texts) >= 256:
            return
        try:
            same = json.loads(tail[:-1]) == data
        except (ValueError, RecursionError):
            return
        if same:
            self.rules_texts[tail] = self._rules(data)

    def _rules(self, data: Any) -> Rules:
        # Consecutive requests nearly always share their rules: one dict
        # comparison finds them, and a rules value is built once per variant.
        if data == self._last_data and self._last_rules is not None:
            return self._last_rules
        if not isinstance(data, dict):
            raise RequestError("invalid", "rules must be the full rules data (an object)")
        key = repr(data)
        known = self._known.get(key)
        if known is None or known[0] != data:
            _check_complete(data)
            try:
                rules = Rules(data)
            except capsa.RulesError as exc:
                raise RequestError("invalid", str(exc), "RulesError") from None
            if len(self._known) > 1024:
                self._known.clear()
            known = self._known[key] = (data, rules)
        self._last_data, self._last_rules = data, known[1]
        return known[1]

    @staticmethod
    def _compare(request: Mapping[str, Any], rules: Rules) -> int:
        return int(capsa.compare(request["a"], request["b"], rules))

    @staticmethod
    def _category(request: Mapping[str, Any], rules: Rules) -> str:
        return str(capsa.evaluate(request["hand"], rules).category)

    @staticmethod
    def _foul(request: Mapping[str, Any], rules: Rules) -> bool:
        rows = Arrangement(request["top"], request["middle"], request["bottom"])
        return bool(rows.is_foul(rules))

    @staticmethod
    def _natural(request: Mapping[str, Any], rules: Rules) -> str | None:
        hand = card_ids(request["hand"], 13)
        return capsa.natural(hand, rules)

    @staticmethod
    def _count_splits(request: Mapping[str, Any], rules: Rules) -> int:
        return int(capsa.count_splits(card_ids(request["hand"], 13), rules))

    @staticmethod
    def _settle(request: Mapping[str, Any], rules: Rules) -> dict[str, list[int]]:
        round_ = request["round"]
        if not isinstance(round_, dict):
            raise RequestError("invalid", 'round must be an object with a "seats" list')
        # The round is read by the reader of `capsa settle`'s lines, so that a
        # fault has the same message here as there; its rules are the request's.
        line = json.dumps({k: v for k, v in round_.items() if k != "rules"}).encode("utf-8")
        out, failed = capsa.settle_json_lines([line], rules)
        if failed:
            error = json.loads(out)
            raise RequestError("invalid", error["message"], error["error"])
        # Only the four figure lists are read: the whole record (its pairs and
        # seats) would cost more than settling. Per-pair and per-seat figures
        # are numbers, so a list under one of these names is a figure list.
        figures = {key.decode(): json.loads(value) for key, value in _FIGURES.findall(out)}
        return {key: figures[key] for key in ("points", "money", "rake", "net")}

    @staticmethod
    def _digest(request: Mapping[str, Any], rules: Rules) -> str:
        from capsa.conformance.digests import order_digest

        size = request.get("size")
        if size not in (3, 5):
            raise RequestError("invalid", f"size must be 3 or 5, got {size!r}")
        return order_digest(rules, int(size))[0]


def _json_fault(exc: ValueError | RecursionError) -> str:
    """Why a request is not JSON, in the words capsa's other readers use
    for an integer too long or nesting too deep."""
    if isinstance(exc, RecursionError):
        return "nested too deeply"
    if not isinstance(exc, json.JSONDecodeError) and "int_max_str_digits" in str(exc):
        return f"an integer of more than {sys.get_int_max_str_digits()} digits"
    return str(exc)


def _error_line(message: str) -> bytes:
    return _dumps({"id": None, "error": {"kind": "invalid", "message": message}})


def _overlong() -> bytes:
    return _error_line(f"a request line is longer than {MAX_REQUEST_BYTES} bytes")


def _dumps(response: Mapping[str, Any]) -> bytes:
    return (json.dumps(response, separators=(",", ":")) + "\n").encode("utf-8")


_RULES_KEY = b',"rules":'


def answer_line(engine: CapsaEngine, line: bytes) -> bytes:
    """The response line to one request line (an error line for bad JSON).

    A request that ends with its rules (as the harness writes them) and whose
    rules text was seen before is read without its rules: the text is looked
    up, not parsed again. That is exact: the line is then the object before
    the rules with one more member, whose text was checked to be those rules.
    """
    cut = line.rfind(_RULES_KEY)
    tail = line[cut + len(_RULES_KEY) :].rstrip() if cut > 0 else b""
    known = engine.rules_texts.get(tail) if tail else None
    if known is not None:
        try:
            head = loads(line[:cut] + b"}")
        except (ValueError, RecursionError):
            head = None
        if isinstance(head, dict) and "rules" not in head:
            return _dumps(engine.handle(head, known))
    try:
        request = loads(line)
    except DuplicateKeyError as exc:
        return _error_line(str(exc))
    except (ValueError, RecursionError) as exc:
        return _error_line(f"malformed JSON: {_json_fault(exc)}")
    response = engine.handle(request)
    if tail.endswith(b"}") and "result" in response and isinstance(request, dict):
        engine.remember_rules_text(tail, request.get("rules"))
    return _dumps(response)


def serve(inp: IO[bytes], out: IO[bytes], engine: CapsaEngine | None = None) -> int:
    """Answers request lines from ``inp`` on ``out`` until ``inp`` ends.

    Reads what is available, answers every complete line in it and writes
    the answers in one write, so a client that writes many requests before
    reading gets them back in few system calls. A line longer than
    :data:`MAX_REQUEST_BYTES` is answered with one error and skipped unread.
    Returns the number of requests answered. A bad request is answered
    with an error line, never raised; raises ``OSError`` only when a stream
    fails (a closed pipe).
    """
    engine = engine or CapsaEngine()
    read = getattr(inp, "read1", inp.read)
    pending = b""
    skipping = False
    answered = 0
    while True:
        chunk = read(_READ_CHUNK)
        lines = (pending + chunk).split(b"\n") if chunk else [pending, b""]
        pending = lines.pop()
        replies = []
        for line in lines:
            if skipping:
                skipping = False
                continue
            if len(line) > MAX_REQUEST_BYTES:
                replies.append(_overlong())
            elif line.strip():
                replies.append(answer_line(engine, line))
        if len(pending) > MAX_REQUEST_BYTES and not skipping:
            replies.append(_overlong())
            skipping, pending = True, b""
        elif skipping:
            pending = b""
        if replies:
            out.write(b"".join(replies))
            out.flush()
            answered += len(replies)
        if not chunk:
            return answered
