"""The second witness: ``capsa.oracle``'s answer to a case.

Vector generation asks capsa (the engine) and the oracle (a pure-Python
implementation written from docs/rules.md, sharing no code with the
engine) and refuses to write a vector they disagree on. This module only
converts a case into the oracle's arguments (card ids, the rules mapping).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from capsa import oracle
from capsa.conformance.protocol import Case, RulesSpec, ids_of

__all__ = ["oracle_answer"]

_ROWS = ("top", "middle", "bottom")


@lru_cache(maxsize=1024)
def _oracle_rules(spec: RulesSpec) -> dict[str, Any]:
    data = spec.data()
    data.pop("description", None)
    return oracle.load_rules(data)


def _seat(seat: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {row: ids_of(seat[row]) for row in _ROWS}
    out["surrender"] = seat.get("surrender", False)
    out["declare_natural"] = seat.get("declare_natural", True)
    return out


def oracle_answer(case: Case) -> Any:
    """The oracle's result for a case, in the protocol's result form."""
    rules = _oracle_rules(case.rules)
    data = case.input
    if case.op == "compare":
        return oracle.compare(ids_of(data["a"]), ids_of(data["b"]), rules)
    if case.op == "category":
        return oracle.category(ids_of(data["hand"]), rules)
    if case.op == "foul":
        top, middle, bottom = (ids_of(data[row]) for row in _ROWS)
        return oracle.is_foul(top, middle, bottom, rules)
    if case.op == "natural":
        return oracle.natural(ids_of(data["hand"]), rules)
    if case.op == "count_splits":
        return oracle.count_splits(ids_of(data["hand"]), rules)
    if case.op == "settle":
        round_ = data["round"]
        roles = {key: round_[key] for key in ("banker", "multipliers") if key in round_}
        seats = [_seat(s) for s in round_["seats"]]
        result = oracle.settle(seats, rules, round_.get("stakes"), **roles)
        return {key: result[key] for key in ("points", "money", "rake", "net")}
    raise ValueError(f"the oracle has no answer for op {case.op!r}")
