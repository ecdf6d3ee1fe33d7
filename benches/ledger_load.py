"""A saved ledger: `Ledger.to_dict(key=...)` and `Ledger.from_dict(data,
key=...)`, what a server runs to start from its saved balances rather than
replay its whole log, on one core.

Run on demand, not a test::

    python benches/ledger_load.py                  # 32,000 rounds of one table, best of 3
    python benches/ledger_load.py --tables 4       # of four tables, dealt in turn

The ledger books the records of four-seat tables of eight players (each
seat submits its hand as dealt, so the solver never runs), then is
saved (sealed under a 32-byte key) and loaded: the MAC checked, every
entry's fields, balances, house and chain link checked again, each table's
nonces taken once. The data stays a Python dict (a server's own JSON
encoding is not timed). Checked: the loaded ledger's entries, balances and
house are the original's, and it saves to the same data.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import sys

from bench_common import best_time, machine

import capsa

KEY = hashlib.sha256(b"benches/ledger_load.py key").digest()


def book(rounds: int, tables: int) -> capsa.Ledger:
    """A ledger of ``rounds`` rounds, dealt in turn at ``tables`` tables."""
    ledger = capsa.Ledger(4, previous_digest=None)
    rules = capsa.Rules()
    for k in range(rounds):
        table = k % tables
        table_id = f"table-{table}"
        rnd = capsa.Round(
            rules,
            4,
            100,
            round_id=f"{table_id}/{k // tables}",
            nonce=k // tables,
            previous_digest=ledger.last_digest_of(table_id),
            table_id=table_id,
            players=[f"p{(table + seat) % 8}" for seat in range(4)],
            server_seed=hashlib.sha256(k.to_bytes(8, "little")).digest(),
        )
        hands = rnd.deal()
        for seat, hand in enumerate(hands):
            rnd.submit(seat, hand)
        rnd.close()
        rnd.settle()
        ledger.add(rnd.record_json())
    return ledger


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=32_000, help="rounds booked (32,000)")
    parser.add_argument("--tables", type=int, default=1, help="tables (1)")
    parser.add_argument("--repeat", type=int, default=3, help="best of (3)")
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})  # one core
    print(f"machine: {machine()}")
    ledger = book(args.rounds, args.tables)
    data = ledger.to_dict(key=KEY)
    saved, _ = best_time(lambda: ledger.to_dict(key=KEY), args.repeat)
    loaded_time, loaded = best_time(lambda: capsa.Ledger.from_dict(data, key=KEY), args.repeat)
    if (loaded.entries, loaded.balances, loaded.house) != (
        ledger.entries,
        ledger.balances,
        ledger.house,
    ) or loaded.to_dict(key=KEY) != data:
        print("the loaded ledger differs from the saved one", file=sys.stderr)
        return 1
    print(f"{args.rounds:,} rounds of {args.tables} table(s), best of {args.repeat}")
    print()
    print("| step | wall | CPU | µs an entry (CPU) |")
    print("|---|---:|---:|---:|")
    for step, t in (("to_dict(key=...)", saved), ("from_dict(data, key=...)", loaded_time)):
        print(f"| {step} | {t.wall:.3f} s | {t.cpu:.3f} s | {t.cpu / args.rounds * 1e6:.1f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
