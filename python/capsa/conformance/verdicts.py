"""What an engine's answer is worth: judged against capsa's (:func:`judge`),
and, when it fails, a :class:`Failure` the report keeps."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from capsa.conformance.bounds import kept
from capsa.conformance.engines import Outcome
from capsa.conformance.protocol import Case
from capsa.conformance.vectors import Vector

__all__ = ["FAILING", "Failure", "Verdict", "judge", "same"]

_MONEY = ("points", "money", "rake", "net")
# The verdicts that are failures (a pass, an unsupported answer and a skip are not).
FAILING = ("fail", "error", "crash", "timeout", "protocol", "abandoned")


def same(a: Any, b: Any) -> bool:
    """JSON equality that tells ``true`` from ``1``."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    return type(a) is type(b) and bool(a == b)


@dataclass
class Verdict:
    """How one answer compares with capsa's."""

    status: str  # pass, fail, error, unsupported, crash, timeout, protocol
    fields: frozenset[str]
    got: Any


def judge(op: str, expected: Any, outcome: Outcome, money: bool) -> Verdict:
    """Compares an engine's outcome with capsa's expected result."""
    if outcome.status != "ok" or outcome.response is None:
        return Verdict(outcome.status, frozenset({outcome.status}), outcome.detail)
    response = outcome.response
    if "error" in response:
        error = response["error"]
        kind = error.get("kind") if isinstance(error, dict) else None
        if kind == "unsupported":
            return Verdict("unsupported", frozenset(), error)
        return Verdict("error", frozenset({"error"}), error)
    got = response["result"]
    if op == "settle":
        if not isinstance(got, dict) or not isinstance(got.get("points"), list):
            return Verdict("fail", frozenset({"points"}), got)
        keys = [k for k in _MONEY if k == "points" or money or k in got]
        fields = frozenset(k for k in keys if not same(got.get(k), expected[k]))
    else:
        fields = frozenset() if same(got, expected) else frozenset({"result"})
    return Verdict("fail" if fields else "pass", fields, got)


@dataclass
class Failure:
    """A disagreement, an engine error, crash or timeout, or a broken invariant.

    ``kind`` is ``"disagreement"``, ``"error"``, ``"crash"``, ``"timeout"``,
    ``"protocol"``, ``"abandoned"`` (not asked: the engine was restarted too
    often) or ``"invariant"``; ``source`` is ``"vector"`` or ``"fuzz"``;
    ``id`` the vector's id (``fuzz/<op>/<n>`` for a fuzz case); ``op``, ``case``
    and ``flags`` the question asked; ``expected`` capsa's answer and ``got``
    the engine's (its result, its ``error`` object, or what happened to it:
    a crash, a timeout); ``fields`` the answer fields that differ
    (``points``, ``money``, ... or ``result``, ``error``); ``invariant`` the
    invariant broken, if that is the failure. After shrinking, ``shrunk`` is
    the minimal case as a vector (capsa's answer expected), ``shrunk_got`` the
    engine's answer to it and ``shrink_steps`` the candidates asked;
    ``explanation`` is capsa's answer in words, ``reproducer`` the path of the
    reproducer file and ``replay`` the command that replays it;
    ``shrink_note`` says why a failure is not shrunk (its cause's smallest
    failure is, or the shrink budget was spent). ``got`` and ``shrunk_got``
    are kept as :func:`capsa.conformance.bounds.kept` keeps them (an answer
    over 2 KiB of JSON is replaced by its head and size). Built by
    :func:`run`; building one checks nothing and raises nothing.
    """

    kind: str
    source: str
    id: str
    op: str
    case: Case
    flags: list[str]
    expected: Any
    got: Any
    fields: list[str] = field(default_factory=list)
    invariant: str | None = None
    shrunk: Vector | None = None
    shrunk_got: Any = None
    shrink_steps: int = 0
    explanation: str = ""
    reproducer: str | None = None
    replay: str | None = None
    shrink_note: str = ""

    def __post_init__(self) -> None:
        self.got = kept(self.got)

    def to_json(self) -> dict[str, Any]:
        """The failure as an entry of ``report.json`` (``docs/conformance.md``)."""
        out: dict[str, Any] = {
            "kind": self.kind,
            "source": self.source,
            "id": self.id,
            "op": self.op,
            "rules": self.case.rules.to_json(),
            "input": dict(self.case.input),
            "flags": self.flags,
            "expected": self.expected,
            "got": self.got,
            "fields": self.fields,
        }
        if self.invariant:
            out["invariant"] = self.invariant
        if self.shrunk is not None:
            out["shrunk"] = self.shrunk.to_json()
            out["shrunk_got"] = self.shrunk_got
            out["shrink_candidates"] = self.shrink_steps
        elif self.shrink_note:
            out["shrink_note"] = self.shrink_note
        out["explanation"] = self.explanation
        out["reproducer"] = self.reproducer
        out["replay"] = self.replay
        return out
