"""Full rounds and their replay, from Python, on one core.

Run on demand, not a test::

    python benches/rounds.py            # 20,000 rounds, best of 5
    python benches/rounds.py --quick    # 2,000 rounds, best of 3

A full round is what a server does for one table: `capsa.Round` (the
commitment), `deal` with four client seeds, four submissions as
"top / middle / bottom" text, each checked against the seat's cards,
`close`, `settle`, and the record: `record_json()` (the canonical line a log
stores) or `record()` (the same as a dict). A round closed with seats left
is the same with seat 0's submission alone: the close arranges seats 1 to 3
by the round's auto-arrange policy (`solver`, `greedy` or `foul`; a tenth
as many rounds, since the solver's costs a solve a seat). The players'
arrangements are made before timing (the last valid split of each hand),
from server seeds fixed in advance so that they match the deal; drawing a
seed from the operating system is timed apart. Replay is `capsa.replay` of each record
line, chained, and `capsa replay` on the file.

Checked while timing: every record replays with the chain, every
settlement sums to zero (points, and net plus rake), and the records of two
runs are byte for byte the same; a round closed with seats left replays
and names its policy.
"""

from __future__ import annotations

import argparse
import gc
import hashlib
import json
import os
import secrets
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench_common import Timing, best_time, fmt_rate, machine

import capsa
from capsa.records.read import read_record, replay_view

RULES = capsa.Rules()
CLIENT_SEEDS = ["alice", "bob", "carol", "dave"]
POLICIES = ("solver", "greedy", "foul")


def prepare(n: int) -> list[tuple[bytes, list[str]]]:
    """Server seeds and each seat's submission as text."""
    out = []
    for k in range(n):
        seed = hashlib.sha256(k.to_bytes(8, "little")).digest()
        hands = capsa.Round(RULES, 4, round_id="prepare", nonce=k, server_seed=seed).deal(
            CLIENT_SEEDS
        )
        texts = [str(capsa.Arrangement.from_ids(capsa.splits(h, RULES)[-1])) for h in hands]
        out.append((seed, texts))
    return out


def play(rounds: list[tuple[bytes, list[str]]], as_dict: bool) -> list[object]:
    records: list[object] = []
    previous: str | None = None
    for k, (seed, texts) in enumerate(rounds):
        rnd = capsa.Round(
            RULES,
            4,
            100,
            round_id=f"table-1/{k}",
            nonce=k,
            previous_digest=previous,
            server_seed=seed,
        )
        rnd.deal(CLIENT_SEEDS)
        for seat, text in enumerate(texts):
            rnd.submit(seat, text)
        rnd.close()
        rnd.settle()
        if as_dict:
            # a server hands the dict on and drops it: keeping thousands
            # alive would time Python's garbage collector instead
            s = rnd.record()["settlement"]
            assert sum(s["points"]) == 0 and sum(s["net"]) + sum(s["rake"]) == 0
            records.append(rnd.digest)
        else:
            records.append(rnd.record_json())
        previous = rnd.digest
    return records


def play_left(rounds: list[tuple[bytes, list[str]]], policy: str) -> list[str]:
    """Rounds in which seat 0 alone submits: the close arranges the others
    by ``policy``."""
    lines = []
    for k, (seed, texts) in enumerate(rounds):
        rnd = capsa.Round(
            RULES, 4, 100, round_id=f"table-2/{k}", nonce=k, server_seed=seed, auto_arrange=policy
        )
        rnd.deal(CLIENT_SEEDS)
        rnd.submit(0, texts[0])
        rnd.close()
        rnd.settle()
        lines.append(rnd.record_json())
    return lines


def replay_all(lines: list[str]) -> list[str]:
    previous: str | None = None
    digests = []
    for line in lines:
        previous = capsa.replay(line, previous_digest=previous)
        digests.append(previous)
    return digests


def replay_dicts(records: list[dict[str, object]]) -> list[str]:
    return [replay_view(read_record(record)) for record in records]


def replay_dicts_dumped(records: list[dict[str, object]]) -> list[str]:
    """The previous way: each dict dumped to JSON text, then read."""
    return [
        replay_view(read_record(json.dumps(record, ensure_ascii=False, allow_nan=False)))
        for record in records
    ]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=20_000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    if args.quick:
        args.rounds, args.repeat = 2_000, 3
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})  # one core
    print(f"machine: {machine()}")
    print(f"command: python benches/rounds.py --rounds {args.rounds} --repeat {args.repeat}")
    print(
        "one core (the process is pinned to one CPU); CPU time is the process's own, "
        "which a loaded machine inflates less than wall time"
    )
    rounds = prepare(args.rounds)
    n = len(rounds)

    t_text, lines = best_time(lambda: play(rounds, as_dict=False), args.repeat)
    t_dict, dict_digests = best_time(lambda: play(rounds, as_dict=True), args.repeat)
    t_replay, digests = best_time(lambda: replay_all(lines), args.repeat)  # type: ignore[arg-type]
    dicts = [json.loads(line) for line in lines]  # type: ignore[arg-type]
    gc.collect()
    gc.freeze()  # the dicts made once are not the collector's work while timing
    t_replay_dict, replayed = best_time(lambda: replay_dicts(dicts), args.repeat)
    t_replay_dumped, replayed_dumped = best_time(lambda: replay_dicts_dumped(dicts), args.repeat)
    gc.unfreeze()
    t_seed, _ = best_time(lambda: [secrets.token_bytes(32) for _ in range(n)], args.repeat)
    left = rounds[: max(1, n // 10)]
    t_left = {}
    for policy in POLICIES:
        t_left[policy], policy_lines = best_time(lambda p=policy: play_left(left, p), args.repeat)
        for line in policy_lines[:50]:
            capsa.replay(line)
            assert json.loads(line)["solver"]["strategy"] == policy

    # checks on what was timed
    assert play(rounds[:50], as_dict=False) == lines[:50], "records differ between runs"
    assert digests == dict_digests == [r["digest"] for r in dicts] == replayed == replayed_dumped
    for record in dicts:
        s = record["settlement"]
        assert sum(s["points"]) == 0 and sum(s["net"]) + sum(s["rake"]) == 0

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "records.jsonl"
        path.write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")  # type: ignore[str-bytes-safe]
        best = Timing(float("inf"), 0.0)
        for _ in range(max(1, args.repeat // 2)):
            start = time.perf_counter()
            done = subprocess.run(
                [sys.executable, "-m", "capsa", "replay", str(path), "--first"],
                check=True,
                capture_output=True,
            )
            wall = time.perf_counter() - start
            best = min(best, Timing(wall, 0.0))
        assert done.stdout.count(b'"ok":true') == n
        size = path.stat().st_size

    print()
    print(f"{n:,} four-seat rounds, capsa-susun, best of {args.repeat}")
    print()
    print("| path | per second (wall) | per CPU second | CPU per item |")
    print("|---|---:|---:|---:|")
    rows = (
        ("full round, record as canonical JSON text (`record_json`)", t_text),
        ("full round, record as a dict (`record`)", t_dict),
        ("replay of a record line, chained (`capsa.replay`)", t_replay),
        ("replay of a record dict", t_replay_dict),
        ("replay of a record dict dumped to text first (as before)", t_replay_dumped),
        ("a server seed from the OS (`secrets.token_bytes(32)`), for scale", t_seed),
    )
    for name, timing in rows:
        print(
            f"| {name} | {fmt_rate(n / timing.wall)} | {fmt_rate(n / timing.cpu)} | "
            f"{1e6 * timing.cpu / n:,.1f} µs |"
        )
    for policy in POLICIES:
        timing = t_left[policy]
        print(
            f"| full round, seats 1 to 3 left to the `{policy}` policy ({len(left):,} rounds) "
            f"| {fmt_rate(len(left) / timing.wall)} | {fmt_rate(len(left) / timing.cpu)} "
            f"| {1e6 * timing.cpu / len(left):,.1f} µs |"
        )
    print(
        f"| `capsa replay` on the file ({size / n:,.0f} bytes a record), start-up included | "
        f"{fmt_rate(n / best.wall)} | | |"
    )
    print()
    print(
        f"replay of a record dict: {t_replay_dumped.cpu / t_replay_dict.cpu:.2f} times "
        "the records per CPU second of before"
    )
    print()
    print("checked: every record replays in its chain; settlements sum to zero; "
          "two runs write the same records")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
