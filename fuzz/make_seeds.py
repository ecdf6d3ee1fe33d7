"""Writes the seed corpora of the fuzz targets into fuzz/corpus/<target>/.

Run from anywhere: ``python3 fuzz/make_seeds.py``. It is deterministic and
needs only the standard library, the shipped solver tables and the golden
round records; it replaces the
seed files it writes and leaves every other file alone. Seeds are named with
an extension, which keeps them apart from what libFuzzer adds to a corpus
(files named by a hash, no extension; ignored by git). See docs/fuzzing.md.
"""

from __future__ import annotations

import json
import random
import struct
from pathlib import Path

FUZZ = Path(__file__).resolve().parent
CORPUS = FUZZ / "corpus"
SHIPPED_TABLES = FUZZ.parent / "crates" / "capsa-core" / "tables"
GOLDEN = FUZZ.parent / "tests" / "golden"

CARD_TEXTS = {
    "hand.txt": "As, 10h  7\u2663 td Q\u2664",
    "arrangement.txt": "Ah Kh 8s As Ks 9d 7d 5h Jc Jd Jh 3c 3d",
    "symbols.txt": "K\u2660\u00a0Q\u2665 J\u2666,T\u2663 9\u2661 8\u2662 7\u2667",
    "lower.txt": "2d 3c 4h 5s 6D 7C 8H 9S",
    "bad-token.txt": "As Zz",
    "eleven.txt": "11h 10 A",
    "empty.txt": " ,, \t\n",
    "joined.txt": "A\u00a0s\u00a0K\u2660",
}

ROUNDS = [
    {
        "id": "table-7/round-12",
        "stakes": 100,
        "seats": [
            "Ah Kh 8s / As Ks 9d 7d 5h / Jc Jd Jh 3c 3d",
            {
                "top": "Qs Js 7s",
                "middle": [33, 32, 3, 11, 19],
                "bottom": "2h 4h 6h 9h Qh",
                "surrender": False,
                "declare_natural": True,
            },
        ],
    },
    {
        "id": 3,
        "rules": "capsa-susun",
        "stakes": [[0, 2, 1], [2, 0, 5], [1, 5, 0]],
        "seats": [
            "2c 3d 4h / 5s 6c 7d 8h 9s / Tc Jd Qh Ks Ac",
            "2d 3h 4s | 5c 6d 7h 8s 9c | Td Jh Qs Kc Ad",
            {"top": ["2h", "3s", "4c"], "middle": "5d 6h 7s 8c 9d", "bottom": "Th Js Qc Kd Ah"},
        ],
    },
    {"seats": ["As Ks / 2c 3c 4c 5c 7d / 8h 9h Th Jh Qh", "x"]},
    {"rules": "texas", "seats": []},
]

#: Structured-mode seeds of round_json: mode byte 1, then these bytes.
ROUND_BYTES = 4


def write(target: str, name: str, data: bytes) -> None:
    folder = CORPUS / target
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_bytes(data)


def varint(v: int) -> bytes:
    out = bytearray()
    while True:
        b = v & 0x7F
        v >>= 7
        if v == 0:
            out.append(b)
            return bytes(out)
        out.append(b | 0x80)


def small_tables(rows: list[list[tuple[int, int]]], meta: str) -> bytes:
    """A tables file in the format of `Tables::to_bytes`
    (see crates/capsa-core/src/solver/tables.rs)."""
    header = meta.encode()
    out = bytearray(b"CAPSATB1" + struct.pack("<I", len(header)) + header)
    for row in rows:
        out += varint(len(row))
        prev = 0
        for cls, weight in row:
            out += varint(cls - prev) + varint(weight)
            prev = cls
    return bytes(out)


def main() -> None:
    rng = random.Random(2026)
    for name, text in CARD_TEXTS.items():
        write("card_text", name, text.encode())

    for k, round_ in enumerate(ROUNDS):
        write("round_json", f"raw-{k}.json", b"\0" + json.dumps(round_).encode())
    for k in range(ROUND_BYTES):
        write("round_json", f"structured-{k}.bin", b"\1" + rng.randbytes(256))

    # control byte 0 (the preset, four seats, the solver), 13 hand picks
    hand = bytes(rng.randrange(256) for _ in range(13))
    shipped = (SHIPPED_TABLES / "capsa-susun.bin").read_bytes()
    write("solver_tables", "capsa-susun.bin", b"\0" + hand + shipped)
    classes = [(1 << 18) * c for c in range(1, 10)]
    tiny = small_tables(
        [[(classes[0], 5), (classes[1], 3)], [(c, 2) for c in classes[3:7]], [(classes[8], 1)]],
        "preset=tiny\nscoop_rate=0.1\n",
    )
    write("solver_tables", "tiny.bin", b"\x35" + hand + tiny)
    write("solver_tables", "magic-only.bin", b"CAPSATB1\0\0\0\0")

    for k in range(6):
        write("settle_table", f"table-{k}.bin", rng.randbytes(64 + 64 * k))

    # the golden round records of each format, as a JSON Lines file holds them
    for k, line in enumerate((GOLDEN / "records-1.jsonl").read_bytes().splitlines()):
        write("round_record", f"golden-{k}.json", line)
    for version in (2, 3, 4):
        lines = (GOLDEN / f"records-{version}.jsonl").read_bytes().splitlines()
        for k, line in enumerate(lines):
            write("round_record", f"golden-{version}-{k}.json", line)
    for k, line in enumerate((GOLDEN / "void-1.jsonl").read_bytes().splitlines()):
        write("round_record", f"void-{k}.json", line)


if __name__ == "__main__":
    main()
