"""Conformance kit throughput: vectors/s against ``capsa conformance serve``
(pipelined over its pipes) and through the in-process callable API, the
whole shipped suite, and fuzzing.

Every timed answer is checked: each must equal the vector's expected result
(a wrong answer or a failure stops the bench).

    python benches/conformance.py [--requests 60000] [--fuzz 400]
"""

from __future__ import annotations

import argparse
import resource
import sys
import time
from typing import Any

from capsa.conformance import CapsaEngine, ProcessEngine, load_vectors, run
from capsa.conformance.engines import CallableEngine, Engine
from capsa.conformance.harness import judge
from capsa.conformance.protocol import Case, case_from_vector

SERVE = [sys.executable, "-m", "capsa", "conformance", "serve"]


def _workload(requests: int) -> tuple[list[tuple[int, Case]], list[Any]]:
    vectors = [v for v in load_vectors() if v["op"] != "digest"]
    pairs = [(case_from_vector(v), v["expected"]) for v in vectors]
    chosen = [pairs[k % len(pairs)] for k in range(requests)]
    return [(k, case) for k, (case, _) in enumerate(chosen)], [e for _, e in chosen]


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _timed(engine: Engine, requests: int, rounds: int) -> tuple[float, float, float]:
    """Best vectors/s, and the CPU seconds per request of this process (writing,
    reading, judging; the engine too when it is in-process) and of the
    engine's process (0 in-process)."""
    work, expected = _workload(requests)
    children = _children_cpu()
    engine.start()
    best = float("inf")
    own = 0.0
    try:
        for _ in range(rounds):
            start, cpu = time.perf_counter(), time.process_time()
            outcomes = engine.exchange(work)
            for (_, case), outcome, want in zip(work, outcomes, expected, strict=True):
                verdict = judge(case.op, want, outcome, money=True)
                if verdict.status != "pass":
                    raise SystemExit(f"wrong answer for {case}: {verdict}")
            best = min(best, time.perf_counter() - start)
            own += time.process_time() - cpu
    finally:
        engine.close()
    asked = requests * rounds
    return requests / best, own / asked, (_children_cpu() - children) / asked


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=60_000)
    parser.add_argument("--fuzz", type=int, default=400)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()

    rate, own, child = _timed(ProcessEngine(SERVE), args.requests, args.rounds)
    print(
        f"vectors against capsa conformance serve, pipelined: {rate:,.0f} vectors/s "
        f"(CPU per request: harness {own * 1e6:.1f} us, serve {child * 1e6:.1f} us "
        f"with its start-up)"
    )
    rate, own, _ = _timed(CallableEngine(CapsaEngine().handle), args.requests // 3, args.rounds)
    print(f"vectors through the callable API: {rate:,.0f} vectors/s ({own * 1e6:.1f} us CPU each)")

    report = run(SERVE, fuzz=0, digests="none")
    assert report.exit_code == 0, report.summary()
    print(
        f"the shipped suite (no digests) against serve: {report.vectors_asked} vectors in "
        f"{report.elapsed:.2f} s ({report.vectors_asked / report.vectors_seconds:,.0f}/s asked)"
    )
    cpu = time.process_time()
    report = run(SERVE, vectors=[], fuzz=args.fuzz, seed=1)
    cpu = time.process_time() - cpu
    assert report.exit_code == 0, report.summary()
    print(
        f"fuzzing against serve: {report.fuzz_cases} cases ({report.fuzz_requests} requests "
        f"with companions) in {report.fuzz_seconds:.2f} s, "
        f"{report.fuzz_cases / report.fuzz_seconds:,.0f} cases/s "
        f"({report.fuzz_cases / cpu:,.0f} per CPU second of the harness)"
    )


if __name__ == "__main__":
    main()
