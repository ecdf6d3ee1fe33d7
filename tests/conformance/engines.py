"""Engines for the conformance tests: mutants of capsa with one rule changed,
and ``capsa.oracle`` behind the protocol.

Run as a program (``python tests/conformance/engines.py NAME``) it speaks the
protocol on stdin/stdout as that engine, so the harness can test it as an
external process; ``oracle`` is the oracle, anything else a mutant.
"""

from __future__ import annotations

import json
import math
import sys
from collections.abc import Callable
from typing import Any

from capsa.conformance.serve import CapsaEngine

Request = dict[str, Any]


def _knob(
    op_filter: tuple[str, ...] | None, key: str, old: Any, new: Any
) -> Callable[[Request], Request]:
    """A request transform: the engine plays ``new`` where the rules say ``old``."""

    def change(request: Request) -> Request:
        rules = request.get("rules")
        if not isinstance(rules, dict) or (op_filter and request.get("op") not in op_filter):
            return request
        table, _, leaf = key.rpartition(".")
        holder = rules[table] if table else rules
        if holder[leaf] == old:
            holder = dict(holder)
            holder[leaf] = new
            rules = {**rules, table: holder} if table else holder
            return {**request, "rules": rules}
        return request

    return change


class Mutant:
    """capsa with one rule changed: requests rewritten before, results after."""

    def __init__(
        self,
        name: str,
        before: Callable[[Request], Request] | None = None,
        after: Callable[[Request, Any], Any] | None = None,
        ops: tuple[str, ...] | None = None,
    ) -> None:
        self.name = name
        self.engine = CapsaEngine()
        self.before = before
        self.after = after
        self.ops = ops

    def __call__(self, request: Request) -> dict[str, Any]:
        if request.get("op") == "hello":
            hello = self.engine.hello()
            hello["engine"] = f"mutant {self.name}"
            if self.ops:
                hello["ops"] = list(self.ops)
            return {"id": request.get("id"), "result": hello}
        changed = self.before(request) if self.before else request
        response = self.engine.handle(changed)
        if self.after and "result" in response:
            response["result"] = self.after(changed, response["result"])
        return response


# ---------------------------------------------------------------- mutants


def _top_straights(request: Request, result: Any) -> Any:
    """A three-card run ranks above trips (as if the top row counted straights)."""
    from capsa.conformance.protocol import ids_of

    def is_run(text: Any) -> bool:
        if not isinstance(text, str):
            return False
        ranks = sorted(c // 4 for c in ids_of(text))
        return len(ranks) == 3 and ranks[1] == ranks[0] + 1 and ranks[2] == ranks[1] + 1

    op = request["op"]
    if op == "category" and is_run(request["hand"]):
        return "straight"
    if op == "compare":
        a, b = is_run(request["a"]), is_run(request["b"])
        if a != b:
            other = request["b"] if a else request["a"]
            beaten = len(ids_of(other)) == 3 or result == 0
            if beaten:
                return 1 if a else -1
    return result


def _zero_sum_broken(request: Request, result: Any) -> Any:
    """A scoop bonus paid to the scooper but not taken from the loser."""
    if request["op"] != "settle":
        return result
    import capsa
    from capsa.conformance.serve import _seat

    round_ = request["round"]
    seats = [_seat(s, k) for k, s in enumerate(round_["seats"])]
    rules = capsa.Rules(request["rules"])
    detail = capsa.settle(seats, rules, round_.get("stakes"))
    points = list(result["points"])
    for pair in detail.pairs:
        if pair["outcome"] == "rows" and pair["scoop"] and pair["bonus"]:
            loser = pair["seats"][1] if pair["scoop"] > 0 else pair["seats"][0]
            points[loser] += abs(pair["bonus"])
    return {**result, "points": points}


def _rake_up(request: Request, result: Any) -> Any:
    """The rate's rake rounded up, not down (a winner's money only, no caps)."""
    if request["op"] != "settle":
        return result
    rate = request["rules"]["money"]["rake_basis_points"]
    rake = [math.ceil(rate * m / 10000) if m > 0 else 0 for m in result["money"]]
    net = [m - r for m, r in zip(result["money"], rake, strict=True)]
    return {**result, "rake": rake, "net": net}


def _round_cap_rounded_down(request: Request, result: Any) -> Any:
    """A round cap shared in proportion rounded down, the units left over not
    taken (docs/rules.md shares them by largest remainders)."""
    if request["op"] != "settle":
        return result
    money = request["rules"]["money"]
    cap = money["rake_cap_per_round"]
    shares = []
    for m in result["money"]:
        share = (
            m * money["rake_basis_points"] // 10000 if m >= max(money["rake_minimum_pot"], 1) else 0
        )
        shares.append(min(share, money["rake_cap_per_pot"]) if money["rake_cap_per_pot"] else share)
    total = sum(shares)
    if not cap or total <= cap:
        return result
    rake = [cap * s // total for s in shares]
    net = [m - r for m, r in zip(result["money"], rake, strict=True)]
    return {**result, "rake": rake, "net": net}


def _natural_fouls(request: Request) -> Request:
    """A natural with fouled rows is settled as a foul (the natural does not override)."""
    if request.get("op") != "settle":
        return request
    import capsa
    from capsa.conformance.serve import _seat

    rules = capsa.Rules(request["rules"])
    seats = []
    for k, seat in enumerate(request["round"]["seats"]):
        if _seat(seat, k).arrangement.is_foul(rules):
            seat = {**seat, "declare_natural": False}
        seats.append(seat)
    return {**request, "round": {**request["round"], "seats": seats}}


MUTANTS: dict[str, Callable[[], Mutant]] = {
    "wheel-high": lambda: Mutant("wheel-high", _knob(None, "wheel", "low", "second")),
    "no-suit-tie-break": lambda: Mutant(
        "no-suit-tie-break", _knob(None, "tie_break", "suit", "none")
    ),
    "flush-suit-first": lambda: Mutant(
        "flush-suit-first", _knob(None, "flush_compare", "ranks", "suit-first")
    ),
    "top-straights": lambda: Mutant(
        "top-straights", after=_top_straights, ops=("compare", "category")
    ),
    "strict-fouls": lambda: Mutant(
        "strict-fouls", _knob(None, "foul_check", "allow-equal", "strict")
    ),
    "royalties-to-loser": lambda: Mutant(
        "royalties-to-loser", _knob(None, "royalty_mode", "winner", "always")
    ),
    "no-scoop-multiplier": lambda: Mutant(
        "no-scoop-multiplier", _knob(None, "scoop.multiplier", 2, 1)
    ),
    "sweep-all-too-early": lambda: Mutant(
        "sweep-all-too-early", _knob(None, "sweep_all.min_players", 4, 2)
    ),
    "natural-not-over-foul": lambda: Mutant("natural-not-over-foul", _natural_fouls),
    "rake-rounded-up": lambda: Mutant("rake-rounded-up", after=_rake_up),
    "round-cap-rounded-down": lambda: Mutant(
        "round-cap-rounded-down", after=_round_cap_rounded_down
    ),
    "bonus-not-zero-sum": lambda: Mutant("bonus-not-zero-sum", after=_zero_sum_broken),
}


# ---------------------------------------------------------------- the oracle


def oracle_handler(request: Request) -> dict[str, Any]:
    """capsa.oracle behind the protocol, reading cards as the doc describes (no
    capsa code but the oracle's)."""
    from capsa import oracle

    ranks, suits = "23456789TJQKA", "dchs"

    def ids(text: Any) -> list[int]:
        if isinstance(text, list):
            return [int(c) for c in text]
        return [4 * ranks.index(t[0]) + suits.index(t[1]) for t in text.split()]

    rid = request.get("id")
    op = request.get("op")
    if op == "hello":
        ops = ["compare", "category", "foul", "natural", "count_splits", "settle"]
        result: dict[str, Any] = {
            "protocol": 1,
            "engine": "capsa.oracle",
            "ops": ops,
            "money": True,
            "cards": "text",
        }
        return {"id": rid, "result": result}
    try:
        data = dict(request["rules"])
        data.pop("description", None)
        rules = oracle.load_rules(data)
        if op == "compare":
            answer: Any = oracle.compare(ids(request["a"]), ids(request["b"]), rules)
        elif op == "category":
            answer = oracle.category(ids(request["hand"]), rules)
        elif op == "foul":
            answer = oracle.is_foul(
                ids(request["top"]), ids(request["middle"]), ids(request["bottom"]), rules
            )
        elif op == "natural":
            answer = oracle.natural(ids(request["hand"]), rules)
        elif op == "count_splits":
            answer = oracle.count_splits(ids(request["hand"]), rules)
        elif op == "settle":
            seats = [
                {
                    "top": ids(s["top"]),
                    "middle": ids(s["middle"]),
                    "bottom": ids(s["bottom"]),
                    "surrender": s.get("surrender", False),
                    "declare_natural": s.get("declare_natural", True),
                }
                for s in request["round"]["seats"]
            ]
            full = oracle.settle(seats, rules, request["round"].get("stakes"))
            answer = {k: full[k] for k in ("points", "money", "rake", "net")}
        else:
            return {"id": rid, "error": {"kind": "unsupported", "message": f"op {op!r}"}}
    except ValueError as exc:
        return {"id": rid, "error": {"kind": "invalid", "message": str(exc)}}
    return {"id": rid, "result": answer}


def main(name: str) -> None:
    handler: Callable[[Request], dict[str, Any]] = (
        oracle_handler if name == "oracle" else MUTANTS[name]()
    )
    for line in sys.stdin:
        if line.strip():
            sys.stdout.write(json.dumps(handler(json.loads(line))) + "\n")
            sys.stdout.flush()


if __name__ == "__main__":
    main(sys.argv[1])
