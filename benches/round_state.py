"""A round's saved state: `Round.to_dict(key=...)` then `Round.from_dict(state,
key=...)`, the pair a stateless server runs on every request, per phase,
on one core.

Run on demand, not a test::

    python benches/round_state.py            # 5,000 round trips a phase, best of 5
    python benches/round_state.py --quick    # 1,000, best of 3

Each phase's round is a four-seat capsa-susun round: ``open`` (the
commitment only), ``dealt`` (four client seeds, one seat submitted),
``closed`` (the other three arranged by the solver) and ``settled`` (the
settlement and record written). A round trip seals the state with
HMAC-SHA256 under a 32-byte key and restores it: the MAC checked, the
rules found by their canonical text, the hands dealt again, every
submission and decision checked again (the deal and every seat's cards
in one engine call), a settled round's digest read from the state (its
record is written again only when asked for). The states stay Python
dicts (a server's own JSON encoding is not timed).

For scale, the settled round is also restored the previous way, from a
state without the digest, so that its record is written again on every
trip; the ratio of the two is printed.

Checked while timing: the trips are chained (each restored round is the
one saved next) and the last round's state equals the first's, so every
trip restored the round it was given; the settled round's record is byte
for byte the original's.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import sys

from bench_common import best_time, fmt_rate, machine

import capsa
from capsa.round.state import MAC_FIELD, seal

RULES = capsa.Rules()
KEY = hashlib.sha256(b"benches/round_state.py key").digest()
PHASES = ("open", "dealt", "closed", "settled")


def at_phase(phase: str) -> capsa.Round:
    seed = hashlib.sha256(phase.encode()).digest()
    rnd = capsa.Round(RULES, 4, 100, round_id=f"bench/{phase}", nonce=7, server_seed=seed)
    if phase == "open":
        return rnd
    hands = rnd.deal(["alice", "bob", "carol", "dave"])
    rnd.submit(0, str(capsa.Arrangement.from_ids(capsa.splits(hands[0], RULES)[-1])))
    if phase == "dealt":
        return rnd
    rnd.close()
    if phase == "settled":
        rnd.settle()
    return rnd


def round_trips(rnd: capsa.Round, n: int) -> capsa.Round:
    for _ in range(n):
        rnd = capsa.Round.from_dict(rnd.to_dict(key=KEY), key=KEY)
    return rnd


def without_digest(rnd: capsa.Round) -> dict[str, object]:
    """The round's state as a capsa that did not keep the digest sealed it."""
    fields = {k: v for k, v in rnd.to_dict(key=KEY).items() if k not in (MAC_FIELD, "digest")}
    return seal(fields, KEY)


def restores_written_again(state: dict[str, object], n: int) -> capsa.Round:
    """The previous way: each trip writes the settled round's record again."""
    rnd = capsa.Round.from_dict(state, key=KEY)
    for _ in range(n):
        rnd.to_dict(key=KEY)
        rnd = capsa.Round.from_dict(state, key=KEY)
    return rnd


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="1,000 trips a phase, best of 3")
    args = parser.parse_args()
    n, repeat = (1_000, 3) if args.quick else (5_000, 5)
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})  # one core
    print(f"machine: {machine()}")
    print(f"{n:,} round trips a phase (to_dict + from_dict with the MAC), best of {repeat}")
    print()
    print("| phase | round trips/s | per CPU second | µs a trip (CPU) |")
    print("|---|---:|---:|---:|")
    for phase in PHASES:
        original = at_phase(phase)
        timing, last = best_time(lambda o=original: round_trips(o, n), repeat)
        if last.to_dict(key=KEY) != original.to_dict(key=KEY):
            print(f"{phase}: the restored round differs from the original", file=sys.stderr)
            return 1
        if phase == "settled" and last.record_json() != original.record_json():
            print("settled: the restored record differs", file=sys.stderr)
            return 1
        print(
            f"| {phase} | {fmt_rate(n / timing.wall)} | {fmt_rate(n / timing.cpu)} "
            f"| {timing.cpu / n * 1e6:.1f} |"
        )
    settled = at_phase("settled")
    old_way, last = best_time(lambda: restores_written_again(without_digest(settled), n), repeat)
    if last.record_json() != settled.record_json():
        print("settled, written again: the record differs", file=sys.stderr)
        return 1
    print(
        f"| settled, the record written again (as before) | {fmt_rate(n / old_way.wall)} "
        f"| {fmt_rate(n / old_way.cpu)} | {old_way.cpu / n * 1e6:.1f} |"
    )
    print()
    print(f"settled: {old_way.cpu / timing.cpu:.2f} times the trips per CPU second of before")
    return 0


if __name__ == "__main__":
    sys.exit(main())
