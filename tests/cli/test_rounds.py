"""capsa verify, capsa replay and capsa rng dump: one JSON line a record, bad
records reported and the rest checked, the chain checked, exit codes, and
the raw generator output against the oracle."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest

from capsa import _core, oracle
from capsa.cli import main

GOLDEN = Path(__file__).parents[1] / "golden" / "records-1.jsonl"


def run(
    argv: list[str], capsys: pytest.CaptureFixture[str], stdin: bytes | None = None
) -> tuple[int, list[dict[str, object]], str]:
    old = sys.stdin
    if stdin is not None:
        sys.stdin = io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8")
    try:
        code = main(argv)
    finally:
        sys.stdin = old
    out, err = capsys.readouterr()
    return code, [json.loads(line) for line in out.splitlines()], err


def lines() -> list[str]:
    return GOLDEN.read_text(encoding="utf-8").splitlines()


def test_replay_checks_every_record_and_the_chain(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["replay", str(GOLDEN), "--first"], capsys)
    assert code == 0 and err == ""
    assert [r["ok"] for r in out] == [True] * len(lines())
    assert [r["digest"] for r in out] == [json.loads(line)["digest"] for line in lines()]
    assert list(out[0]) == ["digest", "line", "ok", "round_id"]


def test_a_line_of_a_byte_order_mark_is_blank_as_in_settle(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bom = "\ufeff"
    text = "\n".join([bom, lines()[0], f"{bom}  \r", bom + lines()[1]])
    path = tmp_path / "records.jsonl"
    # the last line: a byte of a byte-order mark alone is not one
    path.write_bytes(text.encode() + b"\n\xbb\n")
    code, out, _ = run(["replay", str(path), "--first"], capsys)
    assert code == 1  # the last line is no record
    assert [(r["line"], r.get("ok")) for r in out] == [(2, True), (4, True), (5, None)]
    code, settled, _ = run(["settle"], capsys, stdin=f"{bom}\n{bom} \n".encode())
    assert (code, settled) == (0, [])


def test_bad_records_are_reported_and_the_rest_go_on(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = lines()
    tampered = json.loads(good[1])
    tampered["settlement"]["seats"][0]["points"] += 1
    text = "\n".join(
        [good[0], json.dumps(tampered), good[3], "", "not json", "x" * (_core.MAX_LINE_BYTES + 5)]
    )
    path = tmp_path / "records.jsonl"
    path.write_text(text + "\n", encoding="utf-8")
    code, out, err = run(["replay", str(path)], capsys)
    assert code == 1
    assert "4 of 5 record(s) failed" in err
    assert [r.get("line") for r in out] == [1, 2, 3, 5, 6]
    assert out[0]["ok"] is True
    assert out[1]["error"] == "ReplayError" and out[1]["round_id"] == "table-7/round-2"
    assert out[1]["fields"] == ["digest", "settlement.seats[0].points"]
    # round 4 does not follow round 2: round 3 is missing
    assert out[2]["error"] == "ReplayError" and out[2]["fields"] == ["previous_digest"]
    assert out[3]["error"] == "RecordError" and out[3]["round_id"] is None
    assert out[4]["error"] == "RecordError" and "bytes long" in str(out[4]["message"])
    for record in out[1:]:
        assert sorted(record) == ["error", "fields", "line", "message", "round_id"]


def test_the_chain_link_after_a_changed_record(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = lines()
    changed = json.loads(good[0])
    changed["digest"] = "0" * 64
    path = tmp_path / "records.jsonl"
    path.write_text("\n".join([json.dumps(changed), good[1]]) + "\n", encoding="utf-8")
    code, out, _ = run(["replay", str(path)], capsys)
    assert code == 1
    assert out[0]["fields"] == ["digest"]
    assert out[1]["fields"] == ["previous_digest"]  # it follows the true digest
    code, out, _ = run(["replay", "--previous", "1" * 64], capsys, stdin=(good[0] + "\n").encode())
    assert code == 1 and out[0]["fields"] == ["previous_digest"]


def test_verify_checks_the_deals(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["verify"], capsys, stdin=GOLDEN.read_bytes())
    assert code == 0 and all(r["ok"] for r in out)
    first = json.loads(lines()[0])
    commitment = first["deal"]["commitment"]
    code, out, _ = run(["verify", "--commitment", commitment], capsys, stdin=lines()[0].encode())
    assert code == 0
    first["deal"]["client_seeds"][0] = "eve"
    code, out, err = run(
        ["verify", "--commitment", commitment], capsys, stdin=json.dumps(first).encode()
    )
    assert code == 1 and "1 of 1" in err
    assert out[0]["fields"] == ["seats[0].hand", "seats[1].hand", "seats[2].hand", "seats[3].hand"]


def test_usage_errors_are_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for argv in (
        ["replay", str(tmp_path / "missing.jsonl")],
        ["replay", str(tmp_path)],
        ["verify", "--commitment", "xyz"],
        ["replay", "--first", "--previous", "0" * 64],
        ["rng", "dump", "--count", "0", "--out", "-"],
        ["rng", "dump", "--count", "5", "--out", str(tmp_path)],
        ["rng", "dump", "--count", "5", "--out", "-", "--seed", "3"],
        [
            "rng",
            "dump",
            "--count",
            "5",
            "--out",
            "-",
            "--generator",
            "chacha20",
            "--server-seed",
            "0" * 64,
        ],
        [
            "rng",
            "dump",
            "--count",
            "5",
            "--out",
            "-",
            "--what",
            "shuffles",
            "--nonce",
            str(2**64 - 2),
        ],
    ):
        code, out, err = run(argv, capsys)
        assert code == 2, argv
        assert err.count("\n") == 1 and err.startswith("capsa"), (argv, err)
        assert out == []


def test_rng_dump_words_and_shuffles(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    seed = bytes(range(32))
    out = tmp_path / "words.bin"
    assert (
        main(["rng", "dump", "--count", "300000", "--out", str(out), "--server-seed", seed.hex()])
        == 0
    )
    raw = out.read_bytes()
    assert len(raw) == 1_200_000  # more than one chunk
    assert raw == b"".join(
        _core.rng_words_fair(seed, 0, start, n) for start, n in ((0, 262_144), (262_144, 37_856))
    )
    words = oracle._fair_words(seed, [], 0)
    assert [int.from_bytes(raw[k : k + 4], "big") for k in range(0, 400, 4)] == [
        next(words) for _ in range(100)
    ]
    text = tmp_path / "words.txt"
    main(
        [
            "rng",
            "dump",
            "--count",
            "10",
            "--out",
            str(text),
            "--format",
            "text",
            "--server-seed",
            seed.hex(),
        ]
    )
    assert [int(w) for w in text.read_text().split()] == [
        int.from_bytes(raw[k : k + 4], "big") for k in range(0, 40, 4)
    ]
    shuffles = tmp_path / "shuffles.txt"
    main(["rng", "dump", "--what", "shuffles", "--count", "3", "--nonce", "7", "--format", "text",
          "--server-seed", seed.hex(), "--out", str(shuffles)])  # fmt: skip
    for k, line in enumerate(shuffles.read_text().splitlines()):
        deck = [int(c) for c in line.split()]
        assert [sorted(deck[13 * s : 13 * s + 13]) for s in range(4)] == oracle.fair_deal(
            4, seed, [], 7 + k
        )
    seeded = tmp_path / "seeded.bin"
    main(["rng", "dump", "--what", "shuffles", "--generator", "chacha20", "--seed", "11",
          "--count", "2", "--out", str(seeded)])  # fmt: skip
    decks = seeded.read_bytes()
    assert [sorted(decks[13 * s : 13 * s + 13]) for s in range(4)] == oracle.deal(4, 11)
    chacha = tmp_path / "chacha.bin"
    main(
        [
            "rng",
            "dump",
            "--generator",
            "chacha20",
            "--seed",
            "11",
            "--count",
            "16",
            "--out",
            str(chacha),
        ]
    )
    data = chacha.read_bytes()
    block = oracle.chacha20_block([11, 0, 0, 0, 0, 0, 0, 0], 0, [0, 0, 0])
    assert [int.from_bytes(data[k : k + 4], "little") for k in range(0, 64, 4)] == block
    _, _, err = run(["rng", "dump", "--count", "4", "--out", str(out)], capsys)
    assert "server seed" in err  # a random seed is shown, so the sample can be made again
