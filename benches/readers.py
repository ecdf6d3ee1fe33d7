"""The input readers on hostile and large inputs: their time grows with the
input's size, never with its square.

Run on demand, not a test::

    python benches/readers.py            # best of 5
    python benches/readers.py --quick    # best of 2, a 16 MiB document

Keys: one JSON object of 100,000 keys in 1 MiB (the most a record or a
stream line may hold), refused by the record reader (``capsa replay``,
``capsa.read_record``) and by the stream's line reader (``capsa settle``),
with its keys in order, in reverse order, and with the last key repeating
an earlier one. The target is under 50 ms per refusal.

Documents: the same rounds (a quarter of them with an error, so that each
error record names its line) settled as one 64 MiB JSON document and as
JSON Lines, through the core calls ``capsa settle`` makes and through the
command itself. The target is the document at the JSON Lines rate within
20%.

Checked while timing: each object is refused with the message of its first
fault; the document's records are the JSON Lines records (in a list), each
error naming the line its round starts on in each form.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from bench_common import best_time, fmt_rate, machine

from capsa import _core
from capsa.records import RecordError, read_record
from capsa.rules import Rules, presets

KEYS = 100_000
MIB = 1 << 20
SEATS = [
    "Ah Kh 8s / As Ks 9d 7d 5h / Jc Jd Jh 3c 3d",
    {"top": "Qs Js 7s", "middle": [33, 32, 3, 11, 19], "bottom": "2h 4h 6h 9h Qh"},
]


def keyed_object(order: str) -> bytes:
    """100,000 distinct keys padded to just under 1 MiB; ``repeat`` ends
    with a key given before."""
    keys = [f"{k:05d}" for k in range(KEYS)]
    if order == "reverse":
        keys.reverse()
    members = [f'"{k}":0' for k in keys]
    if order == "repeat":
        members[-1] = '"00017":0'
    body = ",".join(members)
    pad = MIB - 1 - len(body) - len(',"~":""') - 2
    return ("{" + body + ',"~":"' + "x" * pad + '"}').encode()


def refusals(repeat: int) -> list[str]:
    rows = []
    known = {name: Rules.preset(name) for name in presets()}
    for order in ("ascending", "reverse", "repeat"):
        data = keyed_object(order)
        assert len(data) < MIB, len(data)
        twice = order == "repeat"

        def record(data: bytes = data) -> str:
            try:
                read_record(data)
            except RecordError as exc:
                return str(exc)
            raise AssertionError("a record of 100,000 keys was read")

        def line(data: bytes = data) -> str:
            out, failed = _core.settle_json_lines([data], known, "capsa-susun")
            assert failed == 1
            return str(json.loads(out)["message"])

        for reader, run, want in (
            ("record (capsa replay)", record, "given twice" if twice else "format"),
            ("stream line (capsa settle)", line, "given twice" if twice else "unknown key"),
        ):
            timing, message = best_time(run, repeat)
            assert want in message, (order, reader, message)
            verdict = "ok" if timing.wall < 0.050 else "OVER 50 ms"
            rows.append(
                f"| {reader} | {order} | {len(data):,} | {timing.wall * 1e3:.1f} | {verdict} |"
            )
    return rows


def rounds_of(size: int) -> tuple[bytes, bytes, list[int]]:
    """JSON Lines and a JSON document of the same rounds, the document just
    under ``size`` bytes; the ids of the failing rounds."""
    items: list[str] = []
    total = 2
    failing = []
    k = 0
    while True:
        if k % 4 == 3:
            round_ = {"id": k, "stakes": 5, "seats": [SEATS[0]]}
        else:
            round_ = {"id": k, "stakes": 5, "seats": SEATS}
        text = json.dumps(round_, indent=1)
        if total + len(text) + 2 > size:
            break
        if k % 4 == 3:
            failing.append(k)
        items.append(text)
        total += len(text) + 2
        k += 1
    lines = "\n".join(json.dumps(json.loads(t)) for t in items).encode() + b"\n"
    document = ("[\n" + ",\n".join(items) + "\n]").encode()
    assert len(document) <= size
    return lines, document, failing


def documents(size: int, repeat: int) -> list[str]:
    lines, document, failing = rounds_of(size)
    known = {name: Rules.preset(name) for name in presets()}
    split = lines.splitlines()
    rounds = len(split)

    def as_lines() -> bytes:
        out = []
        for start in range(0, rounds, 4096):
            data, _ = _core.settle_json_lines(
                split[start : start + 4096], known, "capsa-susun", start + 1
            )
            out.append(data)
        return b"".join(out)

    def as_document() -> bytes:
        data, failed = _core.settle_json_document(document, known, "capsa-susun")
        assert failed == len(failing)
        return data

    t_lines, out_lines = best_time(as_lines, repeat)
    t_doc, out_doc = best_time(as_document, repeat)
    from_lines = [json.loads(x) for x in out_lines.splitlines()]
    from_doc = json.loads(out_doc)
    assert len(from_doc) == len(from_lines) == rounds
    # a round starts on the line of its "{", the one before its id
    starts = [document[: document.index(b'"id": %d,' % k)].count(b"\n") for k in failing[:50]]
    for k, start in zip(failing[:50], starts, strict=True):
        assert from_lines[k]["line"] == k + 1 and from_doc[k]["line"] == start, (k, start)
        from_lines[k]["line"] = from_doc[k]["line"]
    assert from_lines[: len(failing[:50]) * 4] == from_doc[: len(failing[:50]) * 4]
    ok = [k for k in range(rounds) if k % 4 != 3]
    assert all(from_lines[k] == from_doc[k] for k in ok)

    rows = [
        f"| core: `settle_json_lines` (chunks of 4,096) | {len(lines):,} | {rounds:,} "
        f"| {t_lines.wall:.2f} | {fmt_rate(rounds / t_lines.wall)} | 1.00 |",
        f"| core: `settle_json_document` | {len(document):,} | {rounds:,} "
        f"| {t_doc.wall:.2f} | {fmt_rate(rounds / t_doc.wall)} | {t_doc.wall / t_lines.wall:.2f} |",
    ]
    with tempfile.TemporaryDirectory() as tmp:
        paths = {"jsonl": Path(tmp) / "r.jsonl", "json": Path(tmp) / "r.json"}
        paths["jsonl"].write_bytes(lines)
        paths["json"].write_bytes(document)
        times = {}
        for fmt, path in paths.items():

            def command(fmt: str = fmt, path: Path = path) -> None:
                with open(os.devnull, "wb") as sink:
                    subprocess.run(
                        [sys.executable, "-m", "capsa", "settle", "--format", fmt, str(path)],
                        stdout=sink,
                        check=True,
                    )

            times[fmt], _ = best_time(command, max(1, repeat // 2))
        for fmt, size_ in (("jsonl", len(lines)), ("json", len(document))):
            t = times[fmt].wall
            rows.append(
                f"| `capsa settle --format {fmt}` | {size_:,} | {rounds:,} | {t:.2f} "
                f"| {fmt_rate(rounds / t)} | {t / times['jsonl'].wall:.2f} |"
            )
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="best of 2, a 16 MiB document")
    args = parser.parse_args()
    repeat = 2 if args.quick else 5
    size = (16 if args.quick else 64) * MIB
    print(f"machine: {machine()}")
    print(f"command: python benches/readers.py{' --quick' if args.quick else ''}")
    print()
    print(f"Refusing one object of {KEYS:,} keys, best of {repeat} (target: under 50 ms)")
    print()
    print("| reader | keys | bytes | ms | target |")
    print("|---|---|---:|---:|---|")
    for row in refusals(repeat):
        print(row)
    print()
    print(
        f"A JSON document and JSON Lines of the same rounds, best of {repeat} "
        f"(the commands: of {max(1, repeat // 2)})"
    )
    print("(target: the document within 20% of the JSON Lines time)")
    print()
    print("| path | bytes | rounds | s | rounds/s | time / JSON Lines |")
    print("|---|---:|---:|---:|---:|---:|")
    for row in documents(size, repeat):
        print(row)
    print()
    print("Checked while timing:")
    print(
        "- every object refused with its first fault: a missing or unknown key, "
        "or the key given twice"
    )
    print(
        "- the document's records equal the JSON Lines records, each error naming its round's line"
    )


if __name__ == "__main__":
    main()
