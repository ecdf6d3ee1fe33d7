"""Stream soak: ``capsa settle`` on a million JSON Lines rounds with bad lines
of every kind mixed in at random. Run on demand, not a test::

    python benches/soak.py                     # 1,000,000 lines, 2% bad
    python benches/soak.py --lines 100000      # a shorter run

The input mixes good rounds (2 to 4 seats, random flags and stakes, every
seat form, some with a byte-order mark, carriage returns as whitespace, ids
of every JSON form including integers past 64 bits, ``-0`` and ``1e400``)
with bad lines: malformed JSON, invalid UTF-8, bad cards, wrong seat counts,
repeated cards, keys given twice, lines longer than a round may be, and
blank lines (which give no record).

Checked while it runs, streaming (nothing is held whole): every good round
comes out exactly once, in order, with its id echoed byte for byte and the
same points, money, rake and net as ``capsa.settle`` on the same seats; every
bad line yields one error record naming its line number; nothing else comes
out. Memory is sampled from ``/proc`` while the command runs: the resident
size late in the run must not have grown past its size early on (allowing
for noise), and the peak is reported with the rate.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from bench_common import fmt_rate, machine

import capsa
from capsa import _core

CARD = [str(capsa.Card(i)) for i in range(52)]
IDS = [
    '"table-{n}"',
    "{n}",
    "-{n}",
    "1{n}000000000000000000000000",
    "-0",
    "1e400",
    '"caf\\u00e9 {n}"',
]


@dataclass
class Expected:
    """What one input line must come out as."""

    line: int
    id_text: bytes | None  # the id as written, for a good round
    seats: list[list[int]] | None  # each seat's 13 ids, for a good round
    surrender: list[bool] | None
    declare: list[bool] | None
    stakes: int | None
    error: bool  # an error record is expected


def arrangement(rng: random.Random, cards: list[int]) -> list[int]:
    """A seat's 13 cards in row order: mostly sorted rows (legal more often
    than not), some shuffled (fouls)."""
    if rng.random() < 0.3:
        return cards
    ranked = sorted(cards, key=lambda c: (c >> 2, c & 3))
    return ranked[:3] + ranked[3:8] + ranked[8:]


def seat_json(rng: random.Random, ids: list[int], surrender: bool, declare: bool) -> str:
    form = rng.randrange(4)
    rows = [ids[:3], ids[3:8], ids[8:]]
    if form == 0 and not surrender and declare:
        return json.dumps(" / ".join(" ".join(CARD[c] for c in r) for r in rows))
    if form == 1 and not surrender and declare:
        return json.dumps(ids)
    seat: dict[str, object] = {
        "top": " ".join(CARD[c] for c in rows[0]),
        "middle": rows[1],
        "bottom": [CARD[c] for c in rows[2]],
    }
    if surrender or rng.random() < 0.3:
        seat["surrender"] = surrender
    if not declare or rng.random() < 0.3:
        seat["declare_natural"] = declare
    return json.dumps(seat)


def good_round(rng: random.Random, n: int, line: int) -> tuple[bytes, Expected]:
    players = rng.choice((2, 3, 4))
    deck = list(range(52))
    rng.shuffle(deck)
    seats = [arrangement(rng, deck[13 * s : 13 * s + 13]) for s in range(players)]
    surrender = [rng.random() < 0.05 for _ in seats]
    declare = [rng.random() < 0.9 for _ in seats]
    stakes = rng.choice((None, 1, 100, 2500))
    id_text = rng.choice(IDS).format(n=n)
    parts = [f'"id": {id_text}', f'"rules": "{RULES}"']
    if stakes is not None:
        parts.append(f'"stakes": {stakes}')
    body = ", ".join(
        seat_json(rng, s, u, d) for s, u, d in zip(seats, surrender, declare, strict=True)
    )
    parts.append(f'"seats": [{body}]')
    rng.shuffle(parts)
    text = "{" + ", ".join(parts) + "}"
    data = text.encode()
    style = rng.random()
    if style < 0.01:
        data = b"\xef\xbb\xbf" + data
    elif style < 0.02:
        data = data.replace(b", ", b",\r")
    expected = Expected(line, id_text.encode(), seats, surrender, declare, stakes, False)
    return data, expected


def bad_line(rng: random.Random, n: int, line: int) -> tuple[bytes, Expected | None]:
    """A bad line and what it must give (None for a blank line: nothing)."""
    good, _ = good_round(rng, n, line)
    kind = rng.randrange(9)
    if kind == 0:
        data = good[: rng.randrange(1, len(good) - 1)]  # malformed JSON
    elif kind == 1:
        cut = rng.randrange(len(good))
        data = good[:cut] + rng.choice((b"\xff", b"\xc3", b"\xed\xa0\x80")) + good[cut:]
    elif kind == 2:
        data = good.replace(b'"top": "', b'"top": "Zz ', 1) if b'"top": "' in good else b"{x"
    elif kind == 3:
        data = b'{"id": %d, "seats": ["As Ks Qs / Js Ts 9s 8s 7s / 6s 5s 4s 3s 2s"]}' % n
    elif kind == 4:
        data = b'{"id": %d, "seats": ["%s", "%s"]}' % (n, A.encode(), A.encode())
    elif kind == 5:
        data = b'{"id": %d, "id": %d, "seats": []}' % (n, n)
    elif kind == 6 and rng.random() < 0.05:
        data = b'{"id": "' + b"x" * (_core.MAX_LINE_BYTES + 1) + b'"}'
    elif kind == 7:
        data = rng.choice(
            (
                b"[1, 2, 3]",
                b'{"rules": "pagat", "seats": [{"top": [0, 1, 2], '
                b'"middle": [3, 4, 5, 6, 7], "bottom": [8, 9, 10, 11, 12], '
                b'"surrender": true}, "%s"]}' % A.encode(),
            )
        )
    else:
        return rng.choice((b"", b"   ", b"\t\r")), None
    return data, Expected(line, None, None, None, None, None, True)


A = "Ah Kh 8s / As Ks 9d 7d 5h / Jc Jd Jh 3c 3d"
# rules with surrender enabled, so that good rounds may surrender
RULES = "2-4"


def write_input(path: Path, lines: int, bad_share: float, seed: int) -> Iterator[Expected]:
    """Writes the input file and yields what each line must give, in order."""
    rng = random.Random(seed)
    with open(path, "wb") as f:
        for line in range(1, lines + 1):
            if rng.random() < bad_share:
                data, expected = bad_line(rng, line, line)
            else:
                data, expected = good_round(rng, line, line)
            f.write(data + b"\n")
            if expected is not None:
                yield expected


class MemorySampler(threading.Thread):
    """Samples a process's resident size (kB) from /proc every 50 ms."""

    def __init__(self, pid: int) -> None:
        super().__init__(daemon=True)
        self.pid = pid
        self.samples: list[int] = []

    def run(self) -> None:
        status = Path(f"/proc/{self.pid}/status")
        while True:
            try:
                text = status.read_text()
            except OSError:
                return
            for row in text.splitlines():
                if row.startswith("VmRSS:"):
                    self.samples.append(int(row.split()[1]))
            time.sleep(0.05)


def check_record(record_line: bytes, exp: Expected) -> None:
    record = json.loads(record_line)
    if exp.error:
        assert "error" in record, (exp.line, record_line[:200])
        assert record["line"] == exp.line, (exp.line, record)
        return
    assert "error" not in record, (exp.line, record)
    assert exp.id_text is not None and exp.seats is not None
    assert record_line.startswith(b'{"id":' + exp.id_text + b',"money":'), (
        exp.line,
        record_line[:80],
    )
    seats = [
        capsa.Seat(capsa.Arrangement.from_ids(s), surrender=u, declare_natural=d)
        for s, u, d in zip(exp.seats, exp.surrender or [], exp.declare or [], strict=True)
    ]
    api = capsa.settle(seats, capsa.Rules.preset(RULES), exp.stakes)
    assert record["points"] == api.points, exp.line
    assert record["money"] == api.money, exp.line
    assert record["rake"] == api.rake and record["net"] == api.net, exp.line
    assert sum(record["points"]) == 0 and sum(record["money"]) == 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lines", type=int, default=1_000_000)
    parser.add_argument("--bad-share", type=float, default=0.02)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"machine: {machine()}")
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "rounds.jsonl"
        start = time.perf_counter()
        expected = list(write_input(path, args.lines, args.bad_share, args.seed))
        size = path.stat().st_size
        print(
            f"input: {args.lines:,} lines, {size / 1e6:,.0f} MB, "
            f"{sum(e.error for e in expected):,} bad lines with a record, "
            f"{args.lines - len(expected):,} blank; written in {time.perf_counter() - start:.1f} s"
        )
        cmd = [sys.executable, "-m", "capsa", "settle", str(path)]
        # run 1, timed alone: output discarded, memory sampled
        start = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        sampler = MemorySampler(proc.pid)
        sampler.start()
        proc.wait()
        wall = time.perf_counter() - start
        sampler.join()
        # run 2, checked record by record as it streams
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        assert proc.stdout is not None and proc.stderr is not None
        count = 0
        pending = iter(expected)
        for record_line in proc.stdout:
            exp = next(pending, None)
            assert exp is not None, f"more records than expected: {record_line[:100]!r}"
            check_record(record_line.rstrip(b"\n"), exp)
            count += 1
        proc.wait()
        leftover = next(pending, None)
        assert leftover is None, f"no record for line {leftover.line}"
        stderr = proc.stderr.read().decode()
        bad = sum(e.error for e in expected)
        assert f"{bad} round(s) could not be settled" in stderr, stderr
    samples = sampler.samples
    if len(samples) >= 10:
        # past start-up (imports, the first chunks): the middle and the end
        tenth = len(samples) // 10
        early = max(samples[2 * tenth : 4 * tenth])
        late = max(samples[7 * tenth : 9 * tenth])
        print(
            f"memory: peak {max(samples) / 1024:,.0f} MiB; "
            f"early {early / 1024:,.0f} MiB, late {late / 1024:,.0f} MiB"
        )
        assert late <= early * 1.25 + 16 * 1024, "resident memory grew during the run"
    print(
        f"capsa settle: {args.lines:,} lines ({count:,} records) in {wall:,.1f} s: "
        f"{fmt_rate(args.lines / wall)} lines/s, output discarded"
    )
    print("soak passed: every good round once, in order, same figures; every bad line reported")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
