"""Instructions a round costs, step by step, counted by callgrind.

Runs the four-seat round of ``benches/rounds.py`` (``Round``, ``deal`` with
four client seeds, four text submissions, ``close``, ``settle``,
``record()`` as a dict) under ``valgrind --tool=callgrind``, stopped after
each step in turn, and prints the instructions per round each step adds.
Counts do not move with the machine's load as times do, so two builds can
be compared on a noisy host. SHA-256 is left out of the counts: under
valgrind the engine runs its portable SHA-256 rather than the processor's
SHA instructions, so its count says nothing of its time.

    python benches/round_steps.py [--rounds 400]

Needs ``valgrind`` and ``callgrind_annotate`` on the PATH.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import capsa

sys.path.insert(0, str(Path(__file__).resolve().parent))
from rounds import CLIENT_SEEDS, RULES, prepare

STEPS = ["Round()", "deal", "4 submissions", "close", "settle", "record() as a dict"]
WARM_UP = 20


def play(rounds: list[tuple[bytes, list[str]]], steps: int, first: int = 0) -> None:
    """Plays each round through its first ``steps`` steps (0: none); round
    ``k`` of the list is round ``first + k`` as :func:`rounds.prepare` dealt it."""
    if steps < 1:
        return
    previous: str | None = None
    for k, (seed, texts) in enumerate(rounds, start=first):
        rnd = capsa.Round(
            RULES, 4, 100, round_id=f"table-1/{k}", nonce=k, previous_digest=previous,
            server_seed=seed,
        )  # fmt: skip
        if steps >= 2:
            rnd.deal(CLIENT_SEEDS)
        if steps >= 3:
            for seat, text in enumerate(texts):
                rnd.submit(seat, text)
        if steps >= 4:
            rnd.close()
        if steps >= 5:
            rnd.settle()
            previous = rnd.digest
        if steps >= 6:
            record = rnd.record()
            assert sum(record["settlement"]["points"]) == 0


def count(prepared: Path, rounds: int, steps: int) -> int:
    """Instructions (SHA-256 left out) of a process that warms up, then
    plays ``rounds`` rounds through ``steps`` steps."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "callgrind.out"
        env = dict(os.environ, OPENBLAS_NUM_THREADS="1", PYTHONHASHSEED="0")
        subprocess.run(
            ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", sys.executable,
             __file__, "--play", str(prepared), "--rounds", str(rounds), "--steps", str(steps)],
            check=True, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        report = subprocess.run(
            ["callgrind_annotate", "--threshold=100", str(out)],
            check=True, capture_output=True, text=True,
        ).stdout  # fmt: skip
    total = sha = 0
    for line in report.splitlines():
        m = re.match(r"\s*([\d,]+) ", line)
        if not m:
            continue
        n = int(m.group(1).replace(",", ""))
        if "PROGRAM TOTALS" in line:
            total = n
        elif "sha2::" in line:
            sha += n
    return total - sha


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=400)
    parser.add_argument("--play", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--steps", type=int, default=0, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.play is not None:
        rounds = [(bytes.fromhex(s), t) for s, t in json.loads(args.play.read_text())]
        play(rounds[:WARM_UP], len(STEPS))
        play(rounds[WARM_UP:], args.steps, first=WARM_UP)
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        prepared = Path(tmp) / "rounds.json"
        rounds = prepare(WARM_UP + args.rounds)
        prepared.write_text(json.dumps([(s.hex(), t) for s, t in rounds]))
        counts = [count(prepared, args.rounds, steps) for steps in range(len(STEPS) + 1)]
    print(f"capsa {capsa.__version__}; instructions per round, SHA-256 left out, "
          f"{args.rounds} rounds after {WARM_UP} warm-up rounds\n")  # fmt: skip
    print("| step | instructions | running total |\n|---|---:|---:|")
    for k, step in enumerate(STEPS, start=1):
        step_count = (counts[k] - counts[k - 1]) // args.rounds
        print(f"| {step} | {step_count:,} | {(counts[k] - counts[0]) // args.rounds:,} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
