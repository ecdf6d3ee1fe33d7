"""Flags: the names of what a case exercises, and how capsa finds them.

Every vector carries flags (hand-written ones and the ones :func:`flags_of`
finds by looking at the case with capsa); the harness counts passes and
failures per op and flag, so a report says *which rule corner* an engine
gets wrong. :data:`FLAGS` is the vocabulary, documented in
``docs/conformance.md``, "Flags".
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import capsa
from capsa.arrangement import Arrangement
from capsa.conformance.protocol import Case, ids_of
from capsa.rules import Rules

__all__ = ["DECK52_NATURALS", "FLAGS", "flags_of"]

FLAGS: dict[str, str] = {
    # ranking
    "category-order": "the hands are of different categories",
    "category-boundary": "the hands are of adjacent categories on the shared scale",
    "kicker": "the hands are of one category and their ranks decide",
    "tie": "the hands compare equal",
    "three-vs-five": "a three-card hand against a five-card one",
    "top-row": "a three-card hand",
    "top-no-straights": "a three-card hand of consecutive ranks, which is no straight",
    "top-no-flushes": "a three-card hand of one suit, which is no flush",
    "wheel": "an A-2-3-4-5 straight or straight flush, whose place is the wheel knob",
    "no-wrap": "ranks running round the ace (J-Q-K-A-2 and the like), which make no straight",
    "suit-tie-break": "equal ranks, decided by the suit tie-break",
    "suit-order": "the suit tie-break or suit-first flushes under a suit order other than shcd",
    "flush-suit-first": "flushes of different suits under flush_compare = suit-first",
    # arrangements
    "fouled": "the arrangement fouls",
    "foul-allow-equal": "two rows compare equal and foul_check = allow-equal lets it stand",
    "foul-strict": "two rows compare equal and foul_check = strict makes it a foul",
    # naturals
    "no-natural": "13 cards that get no natural under the rules",
    "near-miss": "13 cards one card away from a natural",
    "natural-precedence": "13 cards that qualify for several enabled naturals",
    "natural-disabled": "13 cards that qualify for a natural the rules do not enable",
    # splits
    "count-splits": "the number of valid splits of 13 cards",
    # settlement
    "two-seats": "a table of two",
    "three-seats": "a table of three",
    "four-seats": "a table of four",
    "rows": "a pair settled on its rows",
    "row-tie": "a row tied, which blocks a scoop",
    "scoop": "a player won all three rows against one opponent",
    "scoop-bonus": "a scoop with a bonus",
    "sweep-all": "a player swept all (won all three rows against every opponent)",
    "sweep-all-bonus": "a sweep-all with a bonus",
    "sweep-all-min-players": "every row won against everyone, at a table too small to sweep all",
    "overall-point": "a pair's overall point for winning more rows",
    "royalties": "royalties collected on rows",
    "royalty-always": "royalty_mode = always: royalties paid whoever wins the row",
    "royalty-in-place": "royalty_adds = false: a royalty paid in place of the row point",
    "multiply-royalties": "a scoop or sweep multiplier applied to royalties",
    "foul": "one player of a pair fouled",
    "both-fouled": "both players of a pair fouled",
    "foul-sweep-all": "a foul paid under foul.mode = sweep-all",
    "foul-scoop": "a foul paid under foul.mode = scoop",
    "foul-fixed": "a foul paid under foul.mode = fixed",
    "foul-pays-royalties": "a fouled hand paying the opponent's royalties",
    "surrender": "one player of a pair surrendered",
    "both-surrendered": "both players of a pair surrendered",
    "foul-vs-surrender": "a surrender against a fouled hand (nothing changes hands)",
    "natural-vs-rows": "a declared natural against rows that stand",
    "natural-vs-foul": "a declared natural against a fouled hand",
    "natural-vs-surrender": "a declared natural against a surrender",
    "natural-vs-natural": "two declared naturals",
    "natural-difference": "naturals.resolve = difference between two different naturals",
    "natural-tie-push": "the same natural twice, which pushes",
    "natural-tie-compare": "the same natural twice under naturals.ties = compare",
    "natural-foul-rows": "a declared natural whose submitted rows foul",
    "declined-natural": "a seat that holds a natural and does not declare it",
    "per-pair-stakes": "a stakes matrix with different stakes between pairs",
    "money": "money at a stake other than one point",
    "rake": "a rake taken from a winner",
    "rake-rounding": "a rake that is rounded down (not a whole number of minor units)",
    "rake-minimum-pot": "a winner below money.rake_minimum_pot, who pays no rake",
    "rake-cap-per-pot": "a winner's rake held to money.rake_cap_per_pot",
    "rake-cap-per-round": "a round's rake held to money.rake_cap_per_round",
    "rake-cap-shares": "a round cap shared with units left to the largest remainders",
    "zero-stake": "a stake of zero",
    # whole-order digests
    "digest": "the order of every hand of a size, as a pinned digest",
    # larger decks (docs/rules.md, "Decks: added suits, two decks and jokers")
    "second-copy": "a second copy of a card (an added suit or a second deck)",
    "joker": "a wild joker",
    "five-seats": "a table of five",
    "six-seats": "a table of six",
    "seven-seats": "a table of seven",
    "eight-seats": "a table of eight",
}
# the flag of each table size, from two seats
_SEAT_FLAGS = tuple(f"{n}-seats" for n in ("two", "three", "four", "five", "six", "seven", "eight"))
FLAGS.update({name: f"a hand whose category is {name}" for name in capsa.CATEGORIES})
# and every natural but the four that need copies, six of a kind onwards
DECK52_NATURALS: tuple[str, ...] = capsa.NATURAL_NAMES[: capsa.NATURAL_NAMES.index("six-of-a-kind")]
"""The naturals a hand of the 52-card deck can hold, in bit order."""
FLAGS.update({name: f"13 cards whose natural is {name}" for name in capsa.NATURAL_NAMES})

_CATEGORY_INDEX = {name: k for k, name in enumerate(capsa.CATEGORIES)}


def _faces(ids: list[int]) -> list[int] | None:
    """The faces of a hand (a second copy's is its first copy's), or None
    when a joker is among them: its rank and suit are what it is played as."""
    return None if any(c >= 104 for c in ids) else [c % 52 for c in ids]


def _deck_flags(ids: list[int]) -> set[str]:
    """The flags of a larger deck's cards among ``ids``."""
    out = {"second-copy"} if any(52 <= c < 104 for c in ids) else set()
    return out | ({"joker"} if any(c >= 104 for c in ids) else set())


def _is_wheel(ids: list[int]) -> bool:
    return len(ids) == 5 and sorted(c // 4 for c in ids) == [0, 1, 2, 3, 12]


def _wraps(ids: list[int]) -> bool:
    """Five ranks that run round the ace (consecutive modulo 13, holding A and 2), not A-5."""
    ranks = {c // 4 for c in ids}
    if len(ids) != 5 or len(ranks) != 5 or not {0, 12} <= ranks or ranks == {0, 1, 2, 3, 12}:
        return False
    return any({(r + k) % 13 for r in ranks} == set(range(5)) for k in range(13))


def _three_card_flags(ids: list[int]) -> set[str]:
    if len(ids) != 3:
        return set()
    out = {"top-row"}
    ranks = sorted(c // 4 for c in ids)
    if ranks in ([0, 1, 12],) or (ranks[1] == ranks[0] + 1 and ranks[2] == ranks[1] + 1):
        out.add("top-no-straights")
    if len({c % 4 for c in ids}) == 1:
        out.add("top-no-flushes")
    return out


def _hand_flags(ids: list[int], rules: Rules) -> set[str]:
    faces = _faces(ids)
    category = capsa.evaluate(ids, rules).category
    out = _deck_flags(ids) | {"top-row"} if len(ids) == 3 else _deck_flags(ids)
    if faces is None:
        return out | ({category} if category in ("royal-flush", "straight-flush") else set())
    out |= _three_card_flags(faces)
    if _is_wheel(faces) and category in ("straight", "straight-flush"):
        out.add("wheel")
    if _wraps(faces) and category in ("high-card", "flush"):
        out.add("no-wrap")
    if category in ("royal-flush", "straight-flush"):
        out.add(category)
    return out


def _compare_flags(a: list[int], b: list[int], rules: Rules) -> set[str]:
    out = _hand_flags(a, rules) | _hand_flags(b, rules)
    va, vb = capsa.evaluate(a, rules), capsa.evaluate(b, rules)
    result = (va.strength > vb.strength) - (va.strength < vb.strength)
    if len(a) != len(b):
        out.add("three-vs-five")
    ca, cb = _CATEGORY_INDEX[va.category], _CATEGORY_INDEX[vb.category]
    if result == 0:
        out.add("tie")
    elif ca != cb:
        out.add("category-order")
        if abs(ca - cb) == 1:
            out.add("category-boundary")
    else:
        out.add("kicker")
    plain = rules.derive(tie_break="none", flush_compare="ranks")
    if result != capsa.compare(a, b, plain):
        both_flushes = va.category == vb.category == "flush"
        suit_first = rules["flush_compare"] == "suit-first" and both_flushes
        if suit_first and _faces(a) and _faces(b) and a[0] % 4 != b[0] % 4:
            out.add("flush-suit-first")
        if capsa.compare(a, b, rules.derive(tie_break="none")) != result:
            out.add("suit-tie-break")
        if rules["suit_order"] != "shcd":
            out.add("suit-order")
    return out


def _foul_flags(rows: list[list[int]], rules: Rules) -> set[str]:
    top, middle, bottom = rows
    arrangement = Arrangement(top, middle, bottom)
    out = _hand_flags(top, rules) | _hand_flags(middle, rules) | _hand_flags(bottom, rules)
    fouled = arrangement.is_foul(rules)
    if fouled:
        out.add("fouled")
    values = arrangement.values(rules)
    if values[0].category == values[1].category:
        out.add("three-vs-five")
    if values[0].strength == values[1].strength or values[1].strength == values[2].strength:
        out.add("foul-strict" if rules["foul_check"] == "strict" else "foul-allow-equal")
    if arrangement.is_foul(rules.derive(tie_break="none")) != fouled:
        out.add("suit-tie-break")
    if arrangement.is_foul(rules.derive(flush_compare="ranks")) != fouled:
        out.add("flush-suit-first")
    if arrangement.is_foul(rules.derive(wheel="low")) != arrangement.is_foul(
        rules.derive(wheel="second")
    ):
        out.add("wheel")
    return out


def _natural_flags(ids: list[int], rules: Rules) -> set[str]:
    held = set(capsa.naturals(ids, rules))
    enabled = [entry["name"] for entry in rules["naturals.enabled"]]
    qualifying = [name for name in enabled if name in held]
    out = {qualifying[0]} if qualifying else {"no-natural"}
    if len(qualifying) > 1:
        out.add("natural-precedence")
    if held - set(enabled):
        out.add("natural-disabled")
    return out


def _knob_flags(rules: Rules) -> set[str]:
    out = {"count-splits"}
    if rules["foul_check"] == "strict":
        out.add("foul-strict")
    if rules["tie_break"] == "suit":
        out.add("suit-tie-break")
    if rules["flush_compare"] == "suit-first":
        out.add("flush-suit-first")
    if rules["wheel"] == "second":
        out.add("wheel")
    return out


def _settle_flags(round_: Mapping[str, Any], rules: Rules) -> set[str]:
    from capsa.conformance.serve import _seat

    seats = [_seat(s, k) for k, s in enumerate(round_["seats"])]
    stakes = round_.get("stakes")
    result = capsa.settle(
        seats,
        rules,
        stakes,
        banker=round_.get("banker"),
        multipliers=round_.get("multipliers"),
    ).to_dict()
    count = len(seats)
    out = {_SEAT_FLAGS[count - 2]}
    for seat in seats:
        out |= _deck_flags(list(seat.arrangement.ids))
    facts = result["seats"]
    for k, seat in enumerate(seats):
        held = capsa.natural(seat.arrangement.ids, rules)
        if held and not seat.declare_natural:
            out.add("declined-natural")
        if facts[k]["natural"] and seat.arrangement.is_foul(rules):
            out.add("natural-foul-rows")
        if facts[k]["swept_all"]:
            out.add("sweep-all")
    for pair in result["pairs"]:
        out |= _pair_flags(pair, facts, rules)
    out |= _sweep_below_flags(result, rules)
    out |= _money_flags(result, stakes, count, rules)
    return out


def _pair_flags(pair: Mapping[str, Any], facts: list[Any], rules: Rules) -> set[str]:
    i, j = pair["seats"]
    a, b = facts[i], facts[j]
    outcome = pair["outcome"]
    out: set[str] = set()
    if outcome == "unplayed":  # two players of a banker game: nothing to exercise
        return out
    if outcome == "natural":
        if a["natural"] and b["natural"]:
            out.add("natural-vs-natural")
            if a["natural"] == b["natural"]:
                comparable = a["natural"] in ("six-pairs", "five-pairs-trips", "four-triples")
                comparable = comparable or a["natural"] == "three-quads"
                tie = "compare" if rules["naturals.ties"] == "compare" and comparable else "push"
                out.add(f"natural-tie-{tie}")
            elif rules["naturals.resolve"] == "difference":
                out.add("natural-difference")
        else:
            other = b if a["natural"] else a
            if other["surrender"]:
                out.add("natural-vs-surrender")
            elif other["foul"]:
                out.add("natural-vs-foul")
            else:
                out.add("natural-vs-rows")
    elif outcome == "surrender":
        both = a["surrender"] and b["surrender"]
        out.add("both-surrendered" if both else "surrender")
        if a["foul"] != b["foul"] and not both:
            out.add("foul-vs-surrender")
    elif outcome == "foul":
        if a["foul"] and b["foul"]:
            out.add("both-fouled")
        else:
            out.add("foul")
            out.add(f"foul-{rules['foul.mode']}")
            if pair["royalties"]:
                out.add("foul-pays-royalties")
    else:
        out |= _rows_flags(pair, facts, rules)
    return out


def _rows_flags(pair: Mapping[str, Any], facts: list[Any], rules: Rules) -> set[str]:
    out = {"rows"}
    if 0 in pair["rows"].values():
        out.add("row-tie")
    if pair["overall"]:
        out.add("overall-point")
    if pair["royalties"]:
        out.add("royalties")
        if rules["royalty_mode"] == "always":
            out.add("royalty-always")
    if pair["scoop"]:
        out.add("sweep-all" if pair["sweep_all"] else "scoop")
        if pair["bonus"]:
            out.add("sweep-all-bonus" if pair["sweep_all"] else "scoop-bonus")
        if pair["royalties"] and rules["scoop.multiply_royalties"] and pair["multiplier"] > 1:
            out.add("multiply-royalties")
    if not rules["royalty_adds"] and rules["royalty_mode"] == "winner":
        i, j = pair["seats"]
        for row, won in pair["rows"].items():
            winner = facts[i] if won > 0 else facts[j]
            if won and winner["rows"][row]["royalty"] > rules["row_points"]:
                out.add("royalty-in-place")
    return out


def _sweep_below_flags(result: Mapping[str, Any], rules: Rules) -> set[str]:
    count = len(result["seats"])
    if count >= rules["sweep_all.min_players"]:
        return set()
    for k in range(count):
        mine = [p for p in result["pairs"] if k in p["seats"]]
        wins = [
            p["outcome"] == "rows" and p["scoop"] == (1 if p["seats"][0] == k else -1) for p in mine
        ]
        if all(wins):
            return {"sweep-all-min-players"}
    return set()


def _money_flags(result: Mapping[str, Any], stakes: Any, count: int, rules: Rules) -> set[str]:
    out: set[str] = set()
    if isinstance(stakes, list):
        values = {stakes[i][j] for i in range(count) for j in range(count) if i != j}
        if len(values) > 1:
            out.add("per-pair-stakes")
        stake_values = values
    else:
        stake_values = {rules["money.stake"] if stakes is None else stakes}
    if 0 in stake_values:
        out.add("zero-stake")
    if stake_values - {0, 1}:
        out.add("money")
    return out | _rake_flags(result["money"], result["rake"], rules)


def _rake_flags(money: list[int], rake: list[int], rules: Rules) -> set[str]:
    """Which forms of the rake (docs/rules.md, "Money, rake and exactness") bound
    on the round's money."""
    out = {"rake"} if any(rake) else set()
    basis = rules["money.rake_basis_points"]
    minimum = rules["money.rake_minimum_pot"]
    per_pot = rules["money.rake_cap_per_pot"]
    per_round = rules["money.rake_cap_per_round"]
    shares = []
    for m in money:
        share = m * basis // 10000 if m > 0 else 0
        if m > 0 and m < minimum:
            if share:
                out.add("rake-minimum-pot")
            share = 0
        elif m > 0 and (m * basis) % 10000:
            out.add("rake-rounding")
        if per_pot and share > per_pot:
            out.add("rake-cap-per-pot")
            share = per_pot
        shares.append(share)
    total = sum(shares)
    if per_round and total > per_round:
        out.add("rake-cap-per-round")
        if any((per_round * s) % total for s in shares):
            out.add("rake-cap-shares")
    return out


def flags_of(case: Case) -> set[str]:
    """The flags capsa finds in a case (``set()`` for a case capsa refuses)."""
    rules = case.rules.rules()
    data = case.input
    try:
        if case.op == "compare":
            return _compare_flags(ids_of(data["a"]), ids_of(data["b"]), rules)
        if case.op == "category":
            ids = ids_of(data["hand"])
            return _hand_flags(ids, rules) | {capsa.evaluate(ids, rules).category}
        if case.op == "foul":
            return _foul_flags([ids_of(data[r]) for r in ("top", "middle", "bottom")], rules)
        if case.op == "natural":
            return _natural_flags(ids_of(data["hand"]), rules)
        if case.op == "count_splits":
            return _knob_flags(rules)
        if case.op == "settle":
            return _settle_flags(data["round"], rules)
        if case.op == "digest":
            return {"digest"}
    except capsa.CapsaError:
        return set()
    return set()
