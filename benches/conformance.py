"""Conformance kit throughput: vectors/s against ``capsa conformance serve``
(pipelined over its pipes) and through the in-process callable API, the
whole shipped suite, and fuzzing.

Every timed answer is checked: each must equal the vector's expected result
(a wrong answer or a failure stops the bench).

    python benches/conformance.py [--requests 60000] [--fuzz 400]
"""

from __future__ import annotations

import argparse
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


def _timed(engine: Engine, requests: int, rounds: int) -> float:
    work, expected = _workload(requests)
    engine.start()
    best = float("inf")
    try:
        for _ in range(rounds):
            start = time.perf_counter()
            outcomes = engine.exchange(work)
            best = min(best, time.perf_counter() - start)
            for (_, case), outcome, want in zip(work, outcomes, expected, strict=True):
                verdict = judge(case.op, want, outcome, money=True)
                if verdict.status != "pass":
                    raise SystemExit(f"wrong answer for {case}: {verdict}")
    finally:
        engine.close()
    return requests / best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=60_000)
    parser.add_argument("--fuzz", type=int, default=400)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()

    serve_rate = _timed(ProcessEngine(SERVE), args.requests, args.rounds)
    print(f"vectors against capsa conformance serve, pipelined: {serve_rate:,.0f} vectors/s")
    call_rate = _timed(CallableEngine(CapsaEngine().handle), args.requests // 3, args.rounds)
    print(f"vectors through the callable API: {call_rate:,.0f} vectors/s")

    report = run(SERVE, fuzz=0, digests="none")
    assert report.exit_code == 0, report.summary()
    print(
        f"the shipped suite (no digests) against serve: {report.vectors_asked} vectors in "
        f"{report.elapsed:.2f} s ({report.vectors_asked / report.vectors_seconds:,.0f}/s asked)"
    )
    report = run(SERVE, vectors=[], fuzz=args.fuzz, seed=1)
    assert report.exit_code == 0, report.summary()
    print(
        f"fuzzing against serve: {report.fuzz_cases} cases ({report.fuzz_requests} requests "
        f"with companions) in {report.fuzz_seconds:.2f} s, "
        f"{report.fuzz_cases / report.fuzz_seconds:,.0f} cases/s"
    )


if __name__ == "__main__":
    main()
