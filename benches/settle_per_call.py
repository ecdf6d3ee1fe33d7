"""``capsa.settle`` per call: six seats of ``shisanshui-6`` (its naturals on,
and off) and four of ``capsa-susun``, this build against another build's
``python`` folder.

Run on demand, not a test::

    python benches/settle_per_call.py --before /path/to/other/checkout/python
    python benches/settle_per_call.py            # this build alone

The tables are seeded deals arranged by the greedy policy, built once as
``capsa.Seat`` objects; each timing is the best of seven passes over 2,000
calls, each build in its own process, the builds in turn ``--runs`` times.
Checked: every table's points sum to zero, and both builds give the same
points (their sums by table, hashed).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

_TIMED = """
import hashlib, json, sys, time
sys.path.insert(0, sys.argv[1])
import capsa
out = {}
off = {"enabled": []}
for name, data, seats_n in (
    ("shisanshui-6, 6 seats", {"base": "shisanshui-6"}, 6),
    ("shisanshui-6, 6 seats, naturals off", {"base": "shisanshui-6", "naturals": off}, 6),
    ("capsa-susun, 4 seats", {"base": "capsa-susun"}, 4),
):
    rules = capsa.Rules(data)
    tables = []
    for s in range(200):
        hands = capsa.deal(seats_n, seed=s, rules=rules)
        laid = [capsa._core.auto_arrangement(h, rules, seats_n, "greedy")[0] for h in hands]
        tables.append([capsa.Seat(capsa.Arrangement.from_ids(ids)) for ids in laid])
    points = [capsa.settle(seats, rules).points for seats in tables]
    assert all(sum(p) == 0 for p in points)
    best = float("inf")
    for _ in range(7):
        start = time.perf_counter()
        for seats in tables * 10:
            capsa.settle(seats, rules)
        best = min(best, time.perf_counter() - start)
    digest = hashlib.sha256(json.dumps(points).encode()).hexdigest()[:16]
    out[name] = (len(tables) * 10 / best, digest)
print(json.dumps(out))
"""


def _run(python_dir: Path) -> dict[str, list[object]]:
    text = subprocess.run(
        [sys.executable, "-c", _TIMED, str(python_dir)], check=True, capture_output=True, text=True
    ).stdout
    result: dict[str, list[object]] = json.loads(text)
    return result


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--before", type=Path, help="the other build's python folder")
    p.add_argument("--runs", type=int, default=3)
    args = p.parse_args()
    builds = {"this": Path(__file__).resolve().parent.parent / "python"}
    if args.before is not None:
        builds["before"] = args.before
    rates: dict[tuple[str, str], list[float]] = {}
    digests: dict[str, set[object]] = {}
    for _ in range(args.runs):
        for build, where in builds.items():
            for table, (rate, digest) in _run(where).items():
                rates.setdefault((build, table), []).append(float(str(rate)))
                digests.setdefault(table, set()).add(digest)
    for table, seen in digests.items():
        assert len(seen) == 1, f"{table}: the builds settle differently"
        line = [f"{table:38s}"]
        for build in builds:
            values = rates[(build, table)]
            line.append(f"{build} {min(values):,.0f}-{max(values):,.0f}/s")
        print("  ".join(line))


if __name__ == "__main__":
    main()
