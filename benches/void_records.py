"""Void records and the auto-arrange policies, from Python, on one core.

Run on demand, not a test::

    python benches/void_records.py            # 2,000 hands and 20,000 void records, best of 5
    python benches/void_records.py --quick    # a tenth of each, best of 3

Timed: how each auto-arrange policy arranges a four-seat hand of
capsa-susun (``_core.auto_arrangement``: what a round's close pays per seat
left to it); writing a void record (``capsa.records.void_record``),
replaying a chain of them (``capsa.replay``, the digest and the link), and
``Store.void_pending`` on SQLite (the pending round read, its void record
appended, which clears it, committed), a table at a time.

Checked while timing: every foul arrangement fouls, every greedy and solver
one does not, and every void record replays in its chain.
"""

from __future__ import annotations

import argparse
import hashlib
import tempfile

from bench_common import best_time, fmt_rate, machine

import capsa
import capsa.store
from capsa import _core, oracle
from capsa.records import read_record, replay, void_record
from capsa.store import Opening


def _commitment(k: int) -> str:
    return hashlib.sha256(k.to_bytes(8, "little")).hexdigest()


def policies(hands: list[list[int]], repeat: int) -> None:
    rules = capsa.Rules()
    witness = oracle.load_rules(rules.to_dict())
    for policy in _core.AUTO_ARRANGE_POLICIES:
        timing, arranged = best_time(
            lambda p=policy: [_core.auto_arrangement(h, rules, 4, p)[0] for h in hands], repeat
        )
        for ids in arranged:
            assert oracle.is_foul(ids[:3], ids[3:8], ids[8:], witness) == (policy == "foul")
        rate = len(hands) / timing.cpu
        print(f"auto_arrangement {policy:>6}: {fmt_rate(rate)} hands per CPU second")


def void_chain(n: int) -> list[str]:
    texts: list[str] = []
    previous: str | None = None
    for k in range(n):
        text = void_record(f"t/{k}", _commitment(k), k, "crash", previous_digest=previous)
        texts.append(text)
        previous = read_record(text).digest
    return texts


def records(n: int, repeat: int) -> None:
    timing, texts = best_time(lambda: void_chain(n), repeat)
    print(f"void_record + read_record: {fmt_rate(n / timing.cpu)} records per CPU second")

    def replayed() -> None:
        previous: str | None = None
        for text in texts:
            previous = replay(text, previous_digest=previous)

    timing, _ = best_time(replayed, repeat)
    print(f"capsa.replay of a void record, in its chain: {fmt_rate(n / timing.cpu)} per CPU second")


def store(n: int) -> None:
    with (
        tempfile.TemporaryDirectory() as folder,
        capsa.store.open(f"sqlite:///{folder}/r.db") as opened,
    ):
        for k in range(n):
            opened.open_round(Opening(f"t{k}", f"t{k}/r0", 0, _commitment(k), None))
        timing, _ = best_time(lambda: [opened.void_pending(f"t{k}", "crash") for k in range(n)], 1)
        assert opened.verify().ok
    print(
        f"Store.void_pending on SQLite ({n} tables, one each): "
        f"{fmt_rate(n / timing.wall)} per wall second, {1000 * timing.wall / n:.2f} ms each"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    scale, repeat = (10, 3) if args.quick else (1, 5)
    print(machine())
    hands = [[int(c) for c in h] for s in range(500 // scale) for h in capsa.deal(4, s)]
    policies(hands, repeat)
    records(20_000 // scale, repeat)
    store(2_000 // scale)


if __name__ == "__main__":
    main()
