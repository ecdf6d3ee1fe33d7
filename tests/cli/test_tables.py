"""capsa replay and capsa verify on a log of many tables: chains by table id,
a repeated round id or nonce refused within a table, a file of commitments."""

from __future__ import annotations

import hashlib
import io
import json
import sys
from pathlib import Path

import pytest

import capsa
from capsa.cli import main


def table(name: str, seats: int, rounds: int = 3) -> list[str]:
    """The records of a table, chained."""
    lines: list[str] = []
    previous: str | None = None
    for k in range(rounds):
        rnd = capsa.Round(
            capsa.Rules(),
            seats,
            round_id=f"round-{k}",
            nonce=k,
            table_id=name,
            previous_digest=previous,
            server_seed=hashlib.sha256(f"{name}/{k}".encode()).digest(),
        )
        rnd.deal()
        rnd.close()
        rnd.settle()
        lines.append(rnd.record_json())
        previous = rnd.digest
    return lines


T0, T1 = table("t0", 4), table("t1", 2)


def run(
    argv: list[str], capsys: pytest.CaptureFixture[str], stdin: str
) -> tuple[int, list[dict[str, object]]]:
    old = sys.stdin
    sys.stdin = io.TextIOWrapper(io.BytesIO(stdin.encode()), encoding="utf-8")
    try:
        code = main(argv)
    finally:
        sys.stdin = old
    out, _ = capsys.readouterr()
    return code, [json.loads(line) for line in out.splitlines()]


@pytest.mark.parametrize(
    "order",
    [T0 + T1, [T0[0], T1[0], T1[1], T0[1], T0[2], T1[2]]],
    ids=["one table after the other", "interleaved"],
)
def test_a_log_of_many_tables_replays(order: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run(["replay", "--first"], capsys, "\n".join(order) + "\n")
    assert code == 0
    assert all(r["ok"] for r in out) and len(out) == 6
    code, out = run(["verify"], capsys, "\n".join(order) + "\n")
    assert code == 0


def test_a_record_out_of_its_tables_chain_is_named(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run(["replay", "--first"], capsys, "\n".join([T0[0], T1[0], T0[2]]) + "\n")
    assert code == 1
    assert out[2]["fields"] == ["previous_digest"]


def test_a_repeated_round_or_nonce_within_a_table_is_refused(
    capsys: pytest.CaptureFixture[str],
) -> None:
    for verb in ("replay", "verify"):
        code, out = run([verb], capsys, "\n".join([*T0, T0[1]]) + "\n")
        assert code == 1
        assert out[3]["error"] == "ReplayError"
        assert out[3]["fields"] == ["round_id", "deal.nonce"]
        assert "'round-1' is already used in table 't0'" in str(out[3]["message"])
    # the same round id at two tables is two rounds
    code, _ = run(["replay", "--first"], capsys, "\n".join(T0 + T1) + "\n")
    assert code == 0


def test_verify_checks_each_commitment_against_a_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = T0 + T1
    entries = [
        {
            "round_id": json.loads(line)["round_id"],
            "table_id": json.loads(line)["table_id"],
            "commitment": json.loads(line)["deal"]["commitment"],
        }
        for line in lines
    ]
    path = tmp_path / "commitments.jsonl"
    path.write_text("".join(json.dumps(e) + "\n" for e in entries))
    code, out = run(["verify", "--commitments", str(path)], capsys, "\n".join(lines) + "\n")
    assert code == 0 and len(out) == 6
    entries[4]["commitment"] = "0" * 64
    del entries[5]
    path.write_text("".join(json.dumps(e) + "\n" for e in entries))
    code, out = run(["verify", "--commitments", str(path)], capsys, "\n".join(lines) + "\n")
    assert code == 1
    assert [r.get("fields") for r in out[4:]] == [["deal.commitment"], ["deal.commitment"]]
    assert "lists no commitment" in str(out[5]["message"])
    path.write_text('{"round_id": 1}\n')
    assert run(["verify", "--commitments", str(path)], capsys, T0[0])[0] == 2


def test_after_an_unreadable_record_no_next_link_is_checked(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # the unreadable line stands where T0[1] was: T0[2] cannot be checked
    log = [T0[0], "not a record", T1[0], T0[2], T1[1]]
    code, out = run(["replay", "--first"], capsys, "\n".join(log) + "\n")
    assert code == 1
    assert [r.get("ok", False) for r in out] == [True, False, True, True, True]
