"""Writes the golden round records of tests/records/test_records.py to standard output,
in the format version given (5 when none is):

    python tests/golden/make_records.py --format 1 > tests/golden/records-1.jsonl
    python tests/golden/make_records.py --format 2 > tests/golden/records-2.jsonl
    python tests/golden/make_records.py --format 3 > tests/golden/records-3.jsonl
    python tests/golden/make_records.py --format 4 > tests/golden/records-4.jsonl
    python tests/golden/make_records.py --format 5 > tests/golden/records-5.jsonl
    python tests/golden/make_records.py --void > tests/golden/void-1.jsonl

The rounds are fixed (server seeds from a counter, arrangements by the
documented split order, one seat arranged by the solver at the close) and
chained, and between them they hold every kind of field the format has: 2, 3
and 4 seats, several presets, client seeds (empty and non-ASCII too), a
stakes matrix, notes, a surrender, a declined natural; from format 2 on a
table id, players with and without names (non-ASCII too) and players left
out; in format 3 rounds raked in basis points that round down, with a
minimum pot a winner stays below, a cap per pot and a cap per round that
bind; in format 4 a seat arranged at the close by the greedy policy and
one by the foul policy (which declines the natural its hand holds). The test
regenerates every file and compares byte for byte, so a change to the record
format shows as a change to a file, which must then be a new format version.

``--void`` writes the golden void records instead (format 1 of
``capsa-void-record``): two rounds of table-7 never played, the first
following the last format 4 record, with notes and a reason in non-ASCII
text, and one of a server of one table (no table id) starting its chain.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys

import capsa
from capsa import _core, records
from capsa.records.read import RECORD_FORMAT_VERSION, rules_for_record

TABLE_ID = "table-7"
PLAYERS: list[str | dict[str, str | None]] = [
    {"id": "p-1001", "name": "Alice"},
    {"id": "p-1002", "name": "Bảo ☃"},
    {"id": "p-1003", "name": None},
    "p-1004",
]


def _seed(k: int) -> bytes:
    return hashlib.sha256(f"capsa golden record {k}".encode()).digest()


def _arrange(rnd: capsa.Round, skip: int | None = None) -> None:
    for seat, hand in enumerate(rnd.hands):
        if seat != skip:
            rnd.submit(seat, capsa.splits(hand, rnd.rules)[-1].tolist())


def _with_natural(rules: capsa.Rules, seats: int, k: int) -> tuple[int, int]:
    """The first nonce whose deal gives a seat a natural, and that seat."""
    for nonce in range(10_000):
        rnd = capsa.Round(rules, seats, round_id="search", nonce=nonce, server_seed=_seed(k))
        for seat, hand in enumerate(rnd.deal()):
            if capsa.natural(hand, rules):
                return nonce, seat
    raise AssertionError("no natural in 10,000 deals")


def _older_record(rnd: capsa.Round, format_version: int) -> tuple[str, str]:
    """The round's record in an older format (text, digest)."""
    state = rnd.to_dict(key=bytes(32))  # the state is read here, never stored
    seats = [
        (capsa.Arrangement.parse(p["arrangement"]).ids, p["auto"], p["surrender"],
         p["declare_natural"])
        for p in state["play"]
    ]  # fmt: skip
    table = {"table_id": rnd.table_id, "players": rnd.players} if format_version >= 2 else {}
    return _core.write_round_record(
        rules_for_record(rnd.rules, format_version),
        rnd.round_id,
        rnd.stakes,
        bytes.fromhex(state["server_seed"]),
        rnd.client_seeds,
        rnd.nonce,
        seats,
        rnd.previous_digest,
        state["meta"] or None,
        **table,
        format_version=format_version,
    )


def _record(rnd: capsa.Round, format_version: int) -> tuple[str, str]:
    """The settled round's record in ``format_version`` (text, digest)."""
    if format_version == RECORD_FORMAT_VERSION:
        return rnd.record_json(), rnd.digest
    return _older_record(rnd, format_version)


def _policy_record(
    rnd: capsa.Round, late: int, policy: str, format_version: int
) -> tuple[str, str]:
    """The dealt round's record (format 4 on: text, digest) with every seat but
    ``late`` submitted and ``late`` arranged at the close by ``policy``, its
    natural as the policy decides it."""
    _arrange(rnd, skip=late)
    state = rnd.to_dict(key=bytes(32))  # the state is read here, never stored
    ids, declare = _core.auto_arrangement(rnd.hands[late], rnd.rules, rnd.seats, policy)
    seats = [
        (capsa.Arrangement.parse(p["arrangement"]).ids, False, False, True)
        if k != late
        else (ids, True, False, declare or not capsa.natural(rnd.hands[k], rnd.rules))
        for k, p in enumerate(state["play"])
    ]
    return _core.write_round_record(
        rules_for_record(rnd.rules, format_version),
        rnd.round_id,
        rnd.stakes,
        bytes.fromhex(state["server_seed"]),
        rnd.client_seeds,
        rnd.nonce,
        seats,
        rnd.previous_digest,
        state["meta"] or None,
        table_id=rnd.table_id,
        players=rnd.players,
        auto_arrange=policy,
        format_version=format_version,
    )


def _policy_rounds(previous: str | None, format_version: int) -> list[tuple[str, str]]:
    """Format 4's rounds 7 and 8: a seat arranged at the close by the greedy
    policy, then one arranged by the foul policy whose hand holds a natural
    (the first deal from nonce 100 on that gives one)."""
    rnd = capsa.Round(
        capsa.Rules(),
        4,
        100,
        round_id="table-7/round-7",
        nonce=7,
        previous_digest=previous,
        server_seed=_seed(50),
        table_id=TABLE_ID,
        players=PLAYERS,
    )
    rnd.deal()
    greedy = _policy_record(rnd, 1, "greedy", format_version)
    rules = capsa.Rules().derive({"naturals.enabled": [{"name": "six-pairs", "points": 3}]})
    for nonce in range(100, 10_100):
        rnd = capsa.Round(
            rules,
            3,
            100,
            round_id="table-7/round-8",
            nonce=nonce,
            previous_digest=greedy[1],
            server_seed=_seed(51),
            table_id=TABLE_ID,
            players=PLAYERS[:3],
        )
        hands = rnd.deal()
        late = next((k for k, hand in enumerate(hands) if capsa.natural(hand, rules)), None)
        if late is not None:
            return [greedy, _policy_record(rnd, late, "foul", format_version)]
    raise AssertionError("no natural in 10,000 deals")


def golden_records(format_version: int = RECORD_FORMAT_VERSION) -> list[str]:
    """The golden records of ``format_version`` (1 to 5), each a line of
    canonical JSON."""
    lines: list[str] = []
    previous: str | None = None
    second = format_version >= 2
    table = {"table_id": TABLE_ID} if second else {}

    def finish(rnd: capsa.Round) -> None:
        nonlocal previous
        rnd.close()
        rnd.settle()
        text, digest = _record(rnd, format_version)
        lines.append(text)
        previous = digest

    rnd = capsa.Round(
        capsa.Rules(),
        4,
        100,
        round_id="table-7/round-1",
        nonce=1,
        server_seed=_seed(1),
        **table,
        players=PLAYERS if second else None,
    )
    rnd.deal(["alice", "bob", "", "čau ☃ 🂡"])
    _arrange(rnd, skip=2)  # seat 2 is arranged at the close
    finish(rnd)

    pagat = capsa.Rules.preset("pagat")
    stakes = [[0, 10, 100], [10, 0, 5], [100, 5, 0]]
    rnd = capsa.Round(
        pagat,
        3,
        stakes,
        round_id="table-7/round-2",
        nonce=2,
        previous_digest=previous,
        meta={"started": "2026-01-02T03:04:05Z", "table": 7, "tournament": False, "note": None},
        server_seed=_seed(2),
        **table,
    )
    rnd.deal()
    _arrange(rnd)
    finish(rnd)

    two_four = capsa.Rules.preset("2-4")
    rnd = capsa.Round(
        two_four,
        2,
        round_id="table-7/round-3",
        previous_digest=previous,
        server_seed=_seed(3),
        **table,
        players=PLAYERS[2:] if second else None,
    )
    rnd.deal(["x", "y"])
    _arrange(rnd)
    rnd.surrender(1)
    finish(rnd)

    house = capsa.Rules().derive({"naturals.enabled": [{"name": "six-pairs", "points": 3}]})
    rules = house.derive({"money.rake_percent": 5, "name": "house"})
    nonce, seat = _with_natural(rules, 4, 4)
    rnd = capsa.Round(
        rules,
        4,
        25,
        round_id="table-7/round-4",
        nonce=nonce,
        previous_digest=previous,
        server_seed=_seed(4),
        **table,
        players=PLAYERS[::-1] if second else None,
    )
    rnd.deal()
    _arrange(rnd)
    rnd.declare_natural(seat, False)
    finish(rnd)
    if format_version >= 3:
        for number, knobs, k in HOUSE_RAKE_ROUNDS:
            finish(_house_rake_round(number, knobs, k, previous))
    if format_version >= 4:
        policy_rounds = _policy_rounds(previous, format_version)
        lines += [text for text, _ in policy_rounds]
        previous = policy_rounds[-1][1]
    if format_version >= 5:
        finish(_horse_round(previous))
        finish(_banker_round(previous))
    return lines


#: Format 5's round 9: the horse card, the ace of hearts, doubles a pair
#: one of whose seats holds it.
HORSE = {"name": "horse", "horse.card": "Ah", "horse.multiplier": 2}


def _horse_round(previous: str | None) -> capsa.Round:
    """Format 5's round 9: four seats at stakes 100 under the horse card,
    seat 0 left to the close."""
    rnd = capsa.Round(
        capsa.Rules().derive(HORSE),
        4,
        100,
        round_id="table-7/round-9",
        nonce=9,
        previous_digest=previous,
        server_seed=_seed(52),
        table_id=TABLE_ID,
        players=PLAYERS,
    )
    rnd.deal()
    _arrange(rnd, skip=0)
    return rnd


def _banker_round(previous: str | None) -> capsa.Round:
    """Format 5's round 10: a banker game of four seats at stakes 10, seat 3
    the banker, the others at multipliers 2, 1 and 5, seat 1 left to the
    close."""
    rnd = capsa.Round(
        capsa.Rules.preset("shisanshui-banker"),
        4,
        10,
        round_id="table-7/round-10",
        nonce=10,
        previous_digest=previous,
        server_seed=_seed(53),
        table_id=TABLE_ID,
        players=PLAYERS,
        banker=3,
        multipliers=[2, 1, 5, 1],
    )
    rnd.deal()
    _arrange(rnd, skip=1)
    return rnd


#: A rake in basis points that rounds down (2.9%), a minimum pot, a cap per
#: pot: seat 1 of round 5 wins below the minimum, seat 0's rake is capped.
HOUSE_POT = {
    "name": "house-pot",
    "money.rake_basis_points": 290,
    "money.rake_minimum_pot": 150,
    "money.rake_cap_per_pot": 20,
}
#: The same with a cap per round that binds in round 6: three winners'
#: rakes (11, 17, 20) share 25 by largest remainders, two units left over.
HOUSE_ROUND = {**HOUSE_POT, "name": "house-round", "money.rake_cap_per_round": 25}


#: Format 3's rounds 5 and 6: their number (and nonce), rules and server
#: seed's counter.
HOUSE_RAKE_ROUNDS = ((5, HOUSE_POT, 40), (6, HOUSE_ROUND, 41))


def _house_rake_round(
    number: int, knobs: dict[str, str | int], k: int, previous: str | None
) -> capsa.Round:
    """A round of four seats at stakes 100 under ``knobs``, dealt, seat 3
    left to the close."""
    rnd = capsa.Round(
        capsa.Rules().derive(knobs),
        4,
        100,
        round_id=f"table-7/round-{number}",
        nonce=number,
        previous_digest=previous,
        server_seed=_seed(k),
        table_id=TABLE_ID,
        players=PLAYERS,
    )
    rnd.deal()
    _arrange(rnd, skip=3)
    return rnd


def golden_void_records() -> list[str]:
    """The golden void records, each a line of canonical JSON."""
    after = json.loads(golden_records(4)[-1])["digest"]
    first = records.void_record(
        "table-7/round-9",
        hashlib.sha256(_seed(60)).hexdigest(),
        9,
        "the server stopped before the round was recorded",
        table_id=TABLE_ID,
        previous_digest=after,
        meta={"opened_ms": 1_800_000_000_000, "server": "east-1"},
    )
    second = records.void_record(
        "table-7/round-10",
        hashlib.sha256(_seed(61)).hexdigest(),
        10,
        "kill -9 ☃ während des Gebens",
        table_id=TABLE_ID,
        previous_digest=json.loads(first)["digest"],
        meta={"played_at": "2026-01-02T03:04:05Z"},
    )
    alone = records.void_record("round-1", hashlib.sha256(_seed(62)).hexdigest(), 0, "power lost")
    return [first, second, alone]


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description="Write the golden round records.")
    kind = parser.add_mutually_exclusive_group()
    kind.add_argument(
        "--format", type=int, choices=[1, 2, 3, 4, 5], default=RECORD_FORMAT_VERSION, dest="version"
    )
    kind.add_argument("--void", action="store_true", help="the golden void records")
    args = parser.parse_args()
    lines = golden_void_records() if args.void else golden_records(args.version)
    sys.stdout.write("".join(line + "\n" for line in lines))
