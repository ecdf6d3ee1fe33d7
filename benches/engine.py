"""capsa's own hot paths, each against the pure-Python oracle in the same run.

Run on demand, not a test::

    python benches/engine.py            # full run
    python benches/engine.py --quick    # a short run

Measured: ``count_splits`` (per hand, batched on all cores and on one
thread via ``RAYON_NUM_THREADS=1`` in a subprocess), ``naturals`` (per hand and
batched), ``settle`` (per call, four seats of legal arrangements, capsa-susun
rules with naturals on), ``settle_batch`` (all cores, and one core via
``RAYON_NUM_THREADS=1`` in a subprocess) and the ``capsa settle`` command on a
JSON Lines file. The oracle (``capsa.oracle``) runs on a small sample and is
scaled to a per-item rate.

Correctness is checked on the timed results: counts, natural bit sets and
points must equal the oracle's on its sample and the per-call results on the
whole batch; every settled round must be zero-sum; the command's output must
hold every round, without errors, with the per-call points.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
from bench_common import Timing, best_time, best_times_interleaved, fmt_rate, machine

import capsa
from capsa import oracle

U8 = npt.NDArray[np.uint8]


def best_command_time(cmd: list[str], repeat: int, env: dict[str, str] | None = None) -> Timing:
    """The timing of the fastest of ``repeat`` runs of a command, its output discarded."""
    best = Timing(float("inf"), 0.0)
    for _ in range(repeat):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, env=env)
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
        if wall < best.wall:
            best = Timing(wall, cpu)
    return best


def deal_hands(rng: np.random.Generator, n: int) -> U8:
    """``n`` random 13-card hands, uint8 (n, 13)."""
    return np.argsort(rng.random((n, 52)), axis=1)[:, :13].astype(np.uint8)


def deal_tables(rng: np.random.Generator, n: int) -> U8:
    """``n`` random four-seat deals, uint8 (n, 4, 13)."""
    return np.argsort(rng.random((n, 52)), axis=1).astype(np.uint8).reshape(n, 4, 13)


@dataclass
class Row:
    what: str
    call: str
    items: int
    timing: Timing
    oracle_rate: float | None = None  # items/s of the oracle, when compared

    @property
    def per_s(self) -> float:
        return self.items / self.timing.wall


def seat_dicts(table: U8) -> list[dict[str, list[int]]]:
    return [
        {"top": s[:3].tolist(), "middle": s[3:8].tolist(), "bottom": s[8:].tolist()} for s in table
    ]


def points_digest(points: npt.NDArray[np.int64]) -> str:
    return hashlib.sha256(np.ascontiguousarray(points, dtype=np.int64).tobytes()).hexdigest()


def batch_child(path: str, repeat: int) -> int:
    """Child mode: time settle_batch on a saved array; print rate and a digest."""
    cards = np.load(path)
    timing, (points, _money, errors) = best_time(lambda: capsa.settle_batch(cards), repeat)
    assert not errors, errors[:3]
    print(json.dumps({"timing": timing, "digest": points_digest(points)}))
    return 0


def count_child(path: str, repeat: int) -> int:
    """Child mode: time count_splits_batch on a saved array; print rate and a digest."""
    hands = np.load(path)
    timing, counts = best_time(lambda: capsa.count_splits_batch(hands), repeat)
    print(json.dumps({"timing": timing, "digest": points_digest(counts.astype(np.int64))}))
    return 0


def one_thread_child(flag: str, array: U8, repeat: int) -> dict[str, Any]:
    """Runs this script's child mode ``flag`` on ``array`` with RAYON_NUM_THREADS=1."""
    with tempfile.TemporaryDirectory() as tmp:
        npy = Path(tmp) / "input.npy"
        np.save(npy, array)
        env = {**os.environ, "RAYON_NUM_THREADS": "1"}
        child = [sys.executable, __file__, flag, str(npy), "--repeat", str(repeat)]
        out = subprocess.run(child, env=env, check=True, capture_output=True, text=True)
    result: dict[str, Any] = json.loads(out.stdout)
    return result


def settle_rounds(repeat: int) -> int:
    """Rounds of the per-call settle forms, each round timing every form once."""
    return max(5 * repeat, 15)


def capsa_command() -> list[str]:
    exe = shutil.which("capsa")
    return [exe] if exe else [sys.executable, "-m", "capsa"]


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--quick", action="store_true", help="a short run (smaller sizes, 1 repeat)")
    p.add_argument("--repeat", type=int, default=None, help="best of N runs (default 3)")
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--batch-child", metavar="NPY", help=argparse.SUPPRESS)
    p.add_argument("--count-child", metavar="NPY", help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    repeat = args.repeat or (1 if args.quick else 3)
    if args.batch_child:
        return batch_child(args.batch_child, repeat)
    if args.count_child:
        return count_child(args.count_child, repeat)

    q = args.quick
    n_count_call = 300 if q else 2_000
    n_count_batch = 4_000 if q else 20_000
    n_count_oracle = 2 if q else 8
    n_nat_batch = 100_000 if q else 1_000_000
    n_nat_call = 20_000 if q else 200_000
    n_nat_oracle = 200 if q else 1_000
    n_tables = 300 if q else 2_000
    n_settle_oracle = 40 if q else 200
    n_settle_batch = 100_000 if q else 1_000_000
    n_cli = 20_000 if q else 200_000

    print(f"machine: {machine()}")
    print(f"command: python {' '.join(sys.argv)}")
    print()

    rng = np.random.default_rng(args.seed)
    rules = capsa.Rules()  # capsa-susun, naturals on
    assert rules.name == "capsa-susun" and rules["naturals.enabled"]
    orules = oracle.load_rules(rules.to_dict())
    rows: list[Row] = []
    checks: list[str] = []

    # ---- count_splits -----------------------------------------------------
    hands = deal_hands(rng, n_count_batch)
    call_hands = hands[:n_count_call].tolist()
    count = capsa.count_splits
    t, per_call = best_time(lambda: [count(h) for h in call_hands], repeat)
    t_or, or_counts = best_time(
        lambda: [oracle.count_splits(h, orules) for h in call_hands[:n_count_oracle]], 1
    )
    assert or_counts == per_call[:n_count_oracle], (or_counts, per_call[:n_count_oracle])
    or_rate = n_count_oracle / t_or.wall
    rows.append(Row("count_splits, per hand", "count_splits(13 ids)", n_count_call, t, or_rate))
    t, batch = best_time(lambda: capsa.count_splits_batch(hands), repeat)
    assert batch[:n_count_call].tolist() == per_call
    rows.append(
        Row("count_splits_batch", "count_splits_batch(uint8 (N, 13))", n_count_batch, t, or_rate)
    )
    one = one_thread_child("--count-child", hands, repeat)
    assert one["digest"] == points_digest(batch.astype(np.int64)), "one-thread counts differ"
    one_core = Timing(*one["timing"])
    rows.append(
        Row(
            "count_splits_batch, 1 thread",
            "RAYON_NUM_THREADS=1, subprocess",
            n_count_batch,
            one_core,
            or_rate,
        )
    )
    checks.append(
        f"count_splits: {n_count_oracle} hands equal the oracle; the batch equals "
        f"the {n_count_call:,} per-call counts (mean {np.mean(batch):,.0f} valid splits) and "
        f"its one-thread run; one thread {one_core.cpu / n_count_batch * 1e6:.1f} us a hand "
        "(CPU)"
    )

    # ---- naturals ---------------------------------------------------------
    nat_hands = deal_hands(rng, n_nat_batch)
    t, bits = best_time(lambda: capsa.naturals_batch(nat_hands), repeat)
    sample = nat_hands[:n_nat_oracle].tolist()
    t_or, or_sets = best_time(lambda: [oracle.naturals(h) for h in sample], 1)
    or_rate = n_nat_oracle / t_or.wall
    names = capsa.NATURAL_NAMES
    for h, b, s in zip(sample, bits[:n_nat_oracle].tolist(), or_sets, strict=True):
        got = {names[i] for i in range(len(names)) if b >> i & 1}
        assert got == set(s), (h, got, s)
    call_nat = nat_hands[:n_nat_call].tolist()
    naturals = capsa.naturals
    t_call, call_sets = best_time(lambda: [naturals(h) for h in call_nat], repeat)
    for b, s in zip(bits[:n_nat_call].tolist(), call_sets, strict=True):
        assert {names[i] for i in range(len(names)) if b >> i & 1} == set(s)
    rows.append(Row("naturals, per hand", "naturals(13 ids)", n_nat_call, t_call, or_rate))
    rows.append(Row("naturals_batch", "naturals_batch(uint8 (N, 13))", n_nat_batch, t, or_rate))
    with_any = int(np.count_nonzero(bits))
    checks.append(
        f"naturals: {n_nat_oracle:,} hands equal the oracle; the batch equals the "
        f"{n_nat_call:,} per-call sets; {with_any / n_nat_batch:.1%} of hands qualify for one"
    )

    # ---- settle, per call -------------------------------------------------
    deals = deal_tables(rng, n_tables)
    build = time.perf_counter()
    laid = np.array([[capsa.splits(h)[-1] for h in d] for d in deals], dtype=np.uint8)
    build = time.perf_counter() - build
    tables = [[capsa.Arrangement.from_ids(s.tolist()) for s in d] for d in laid]
    assert not any(a.is_foul() for tab in tables for a in tab)
    settle = capsa.settle
    seat_tables = [[capsa.Seat(a) for a in tab] for tab in tables]
    id_tables = [[tuple(s) for s in d] for d in laid.tolist()]
    pairs = [tab[:2] for tab in tables]
    # the forms differ by less than the machine drifts: timed in turn
    timed = best_times_interleaved(
        {
            "settle([4 Arrangement])": lambda: [settle(tab) for tab in tables],
            "settle([4 Arrangement], Rules())": lambda: [settle(tab, rules) for tab in tables],
            "settle([4 Seat])": lambda: [settle(tab) for tab in seat_tables],
            "settle([4 tuples of 13 ids])": lambda: [settle(tab) for tab in id_tables],
            "settle([2 Arrangement], Rules())": lambda: [settle(tab, rules) for tab in pairs],
        },
        settle_rounds(repeat),
    )
    results = timed["settle([4 Arrangement])"][1]
    expected = np.array([r.points for r in results], dtype=np.int64)
    o_seats = [seat_dicts(d) for d in laid[:n_settle_oracle]]
    t_or, or_results = best_time(lambda: [oracle.settle(s, orules) for s in o_seats], 1)
    or_rate = n_settle_oracle / t_or.wall
    for k, o in enumerate(or_results):
        assert o["points"] == expected[k].tolist(), (k, o["points"], expected[k])
        assert o["money"] == results[k].money, k
    assert not expected.sum(axis=1).any()
    for form, (timing, again) in timed.items():
        four = form.startswith("settle([4")
        if four:
            assert [r.points for r in again] == expected.tolist(), form
        rows.append(Row("settle, per call", form, n_tables, timing, or_rate if four else None))
    t5, two = timed["settle([2 Arrangement], Rules())"]
    t2 = timed["settle([4 Arrangement], Rules())"][0]
    two_batch = capsa.settle_batch(np.ascontiguousarray(laid[:, :2])).points
    assert [r.points for r in two] == two_batch.tolist(), "2 seats: settle != settle_batch"
    checks.append(
        f"settle, 2 seats: {n_tables:,} pairs equal settle_batch; "
        f"{t5.cpu / n_tables * 1e6:.2f} us a call (CPU), 4 seats {n_tables / t2.cpu / 1e3:,.0f} k "
        "calls per CPU second (rules given)"
    )
    nat_seats = sum(r.seats[i]["natural"] is not None for r in results for i in range(4))
    checks.append(
        f"settle: {n_settle_oracle} tables equal the oracle (points and money); all "
        f"{n_tables:,} tables zero-sum, same points for every input form; "
        f"{nat_seats} of {4 * n_tables:,} seats hold a natural (tables built in {build:.1f} s "
        f"with splits(hand)[-1], not timed)"
    )

    # ---- Settlement.to_dict ------------------------------------------------
    # its anchor: json.loads of the record capsa settle writes for the same
    # table, timed alternately with it
    round_lines = [json.dumps({"seats": seat_dicts(d)}).encode() for d in laid]
    written, failed = capsa._core.settle_json_lines(round_lines, {rules.name: rules}, rules.name)
    assert failed == 0
    texts = written.decode().splitlines()
    t_dict = t_loads = Timing(float("inf"), 0.0)
    for _ in range(max(repeat, 3)):
        t, dicts = best_time(lambda: [r.to_dict() for r in results], 1)
        t_dict = min(t_dict, t)
        t, loaded = best_time(lambda: [json.loads(x) for x in texts], 1)
        t_loads = min(t_loads, t)
    assert dicts == loaded, "to_dict() != json.loads of the written record"
    assert all(list(d) == list(x) for d, x in zip(dicts, loaded, strict=True))
    del dicts, loaded
    # as a server uses them: each dict made, handed on and dropped, so that
    # Python's collector does not walk thousands of dicts kept alive
    t_drop = t_loads_drop = Timing(float("inf"), 0.0)
    for _ in range(max(repeat, 3)):
        t, _ = best_time(lambda: [len(r.to_dict()) for r in results], 1)
        t_drop = min(t_drop, t)
        t, _ = best_time(lambda: [len(json.loads(x)) for x in texts], 1)
        t_loads_drop = min(t_loads_drop, t)
    rows.append(Row("Settlement.to_dict()", "4 seats, all kept", n_tables, t_dict, None))
    rows.append(Row("json.loads (anchor)", "the same text, all kept", n_tables, t_loads, None))
    rows.append(Row("Settlement.to_dict()", "4 seats, each dropped", n_tables, t_drop, None))
    rows.append(
        Row("json.loads (anchor)", "the same text, each dropped", n_tables, t_loads_drop, None)
    )
    checks.append(
        f"Settlement.to_dict(): {n_tables:,} dicts equal json.loads of the records capsa settle "
        f"writes (keys in order); {t_dict.wall / n_tables * 1e6:.1f} us a call, "
        f"{t_dict.wall / t_loads.wall:.2f}x json.loads of the same {len(texts[0]):,}-byte text, "
        f"all kept; each dropped {t_drop.cpu / n_tables * 1e6:.1f} us a call (CPU), "
        f"{t_drop.cpu / t_loads_drop.cpu:.2f}x json.loads"
    )

    # ---- settle_batch -----------------------------------------------------
    reps = -(-n_settle_batch // n_tables)
    big = np.ascontiguousarray(np.tile(laid, (reps, 1, 1))[:n_settle_batch])
    want = np.tile(expected, (reps, 1))[:n_settle_batch]
    t, (points, _money, errors) = best_time(lambda: capsa.settle_batch(big), repeat)
    assert not errors, errors[:3]
    assert not points.sum(axis=1).any(), "not zero-sum"
    assert np.array_equal(points, want), "settle_batch != settle"
    rows.append(
        Row("settle_batch, all cores", "settle_batch(uint8 (N, 4, 13))", n_settle_batch, t, or_rate)
    )
    one = one_thread_child("--batch-child", big, repeat)
    assert one["digest"] == points_digest(points), "one-thread result differs"
    rows.append(
        Row(
            "settle_batch, 1 thread",
            "RAYON_NUM_THREADS=1, subprocess",
            n_settle_batch,
            Timing(*one["timing"]),
            or_rate,
        )
    )
    speedup = one["timing"][0] / t.wall
    checks.append(
        f"settle_batch: {n_settle_batch:,} rounds ({n_tables:,} distinct tables tiled) "
        f"zero-sum, equal to per-call settle row by row, same digest on one thread; "
        f"all-core speedup {speedup:.2f}x on {len(os.sched_getaffinity(0))} cores"
    )

    # ---- capsa settle CLI -------------------------------------------------
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "rounds.jsonl"
        seats_json = [json.dumps(seat_dicts(d), separators=(",", ":")) for d in laid]
        with path.open("w", encoding="utf-8") as f:
            for k in range(n_cli):
                f.write(f'{{"id":{k},"seats":{seats_json[k % n_tables]}}}\n')
        size_mb = path.stat().st_size / 1e6
        cmd = [*capsa_command(), "settle", str(path)]
        best = best_command_time(cmd, repeat)
        # the same command once more, its output read back and checked
        seen = 0
        out_bytes = 0
        with subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True) as proc:
            assert proc.stdout is not None
            for line in proc.stdout:
                record = json.loads(line)
                assert "error" not in record, record
                k = record["id"]
                assert record["points"] == expected[k % n_tables].tolist(), k
                assert k == seen
                seen += 1
                out_bytes += len(line)
        assert proc.returncode == 0 and seen == n_cli, (proc.returncode, seen)
    rows.append(Row("capsa settle (CLI)", "capsa settle FILE > /dev/null", n_cli, best, or_rate))
    checks.append(
        f"capsa settle: input {size_mb:.0f} MB, output {out_bytes / 1e6:,.0f} MB; all "
        f"{n_cli:,} records read back, no errors, ids in order, per-call points"
    )

    # ---- report -----------------------------------------------------------
    print(
        f"best of {repeat} (the per-call settle forms best of {settle_rounds(repeat)}, taken in "
        "turn); the oracle runs once on a small sample (rate scaled per item)"
    )
    print()
    print("| path | call | items | capsa items/s | CPU/wall | oracle items/s | capsa/oracle |")
    print("|---|---|---:|---:|---:|---:|---:|")
    for r in rows:
        o = "" if r.oracle_rate is None else fmt_rate(r.oracle_rate)
        ratio = "" if r.oracle_rate is None else f"{r.per_s / r.oracle_rate:,.0f}"
        cores = r.timing.cpu / r.timing.wall
        print(
            f"| {r.what} | `{r.call}` | {r.items:,} | {fmt_rate(r.per_s)} | {cores:.2f} "
            f"| {o} | {ratio} |"
        )
    print()
    print(
        f"settle_batch all cores / 1 thread: {speedup:.2f}x. CPU/wall is the CPU time "
        "of the process (all threads) over the wall time: the cores it actually got."
    )
    print()
    print("Checked while timing:")
    for c in checks:
        print(f"- {c}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
