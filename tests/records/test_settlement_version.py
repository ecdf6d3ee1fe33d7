"""Round records of format 5: the settlement version they were settled under,
read back; a record naming a version this capsa does not settle refused with
SettlementVersionError (not as tampering) by replay, verify, the reader of
many records, the store's check and the CLI."""

from __future__ import annotations

import copy
import io
import json
import sys
from pathlib import Path
from typing import Any

import pytest

import capsa
from capsa.cli import main
from capsa.records import (
    RECORD_FORMAT_VERSION,
    SETTLEMENT_VERSION,
    RecordError,
    ReplayError,
    SettlementVersionError,
    read_record,
    read_records,
    record_digest,
)

GOLDEN = Path(__file__).parents[1] / "golden"


def golden(version: int) -> list[str]:
    return (GOLDEN / f"records-{version}.jsonl").read_text(encoding="utf-8").splitlines()


def resealed(line: str, version: Any) -> dict[str, Any]:
    """The record with its settlement version changed and its digest
    recomputed: what a newer capsa writes, not a tampered record."""
    record = json.loads(line)
    record = copy.deepcopy(record)
    if version is None:
        del record["settlement"]["version"]
    else:
        record["settlement"]["version"] = version
    record["digest"] = record_digest(record)
    return record


def test_this_capsa_writes_format_5_settlement_version_2() -> None:
    assert (RECORD_FORMAT_VERSION, SETTLEMENT_VERSION) == (5, 2)
    rnd = capsa.Round(None, 2, 10, round_id="r-1", server_seed=bytes(32))
    rnd.deal()
    rnd.close()
    rnd.settle()
    record = rnd.record()
    assert record["format_version"] == 5 and record["settlement"]["version"] == 2
    assert json.loads(rnd.record_json()) == record
    assert read_record(rnd.record_json()).settlement_version == 2
    assert capsa.replay(record) == rnd.digest


@pytest.mark.parametrize("version", [1, 2, 3, 4])
def test_older_formats_are_settlement_version_1(version: int) -> None:
    for line in golden(version):
        view = read_record(line)
        assert view.settlement_version == 1
        assert "version" not in json.loads(line)["settlement"]


def test_the_golden_format_5_records_hold_a_horse_card_and_a_banker_round() -> None:
    records = [json.loads(line) for line in golden(5)]
    assert all(r["settlement"]["version"] == 2 for r in records)
    horse = [p["horse"] for p in records[-2]["settlement"]["pairs"] if "horse" in p]
    assert records[-2]["rules"]["horse"] == {"card": "Ah"} and 2 in horse
    banker = records[-1]
    assert [s.get("banker") for s in banker["seats"]] == [None, None, None, True]
    assert [s.get("multiplier", 1) for s in banker["seats"]] == [2, 1, 5, 1]
    outcomes = [p["outcome"] for p in banker["settlement"]["pairs"]]
    assert outcomes.count("unplayed") == 3
    assert read_record(golden(5)[-1]).multipliers == [2, 1, 5, 1]


def test_a_record_of_settlement_version_1_in_format_5_replays() -> None:
    # version 2 with today's knobs at their defaults settles as version 1
    line = golden(5)[0]
    record = resealed(line, 1)
    assert capsa.replay(record) == record["digest"]
    assert read_record(record).settlement_version == 1


@pytest.mark.parametrize("check", [capsa.replay, capsa.verify_deal])
def test_an_unknown_settlement_version_is_refused_and_not_tampering(check: Any) -> None:
    record = resealed(golden(5)[0], 7)
    with pytest.raises(SettlementVersionError) as info:
        check(record)
    assert isinstance(info.value, RecordError) and not isinstance(info.value, ReplayError)
    assert info.value.field == "settlement.version"
    assert str(info.value) == (
        "written under settlement version 7; this capsa settles versions 1 and 2"
    )


@pytest.mark.parametrize("value", [None, "2", 0, -1, True])
def test_a_missing_or_malformed_settlement_version_is_named(value: Any) -> None:
    record = resealed(golden(5)[0], value)
    with pytest.raises(SettlementVersionError, match=r"settlement\.version") as info:
        read_record(record)
    assert info.value.field == "settlement.version"


def test_the_reader_of_many_records_names_the_version() -> None:
    good = golden(5)[0]
    unknown = json.dumps(resealed(good, 7))
    views = read_records([good, unknown])
    assert not isinstance(views[0], RecordError)
    assert isinstance(views[1], SettlementVersionError)


def test_a_changed_version_without_a_new_digest_is_tampering() -> None:
    record = json.loads(golden(5)[0])
    record["settlement"]["version"] = 1
    with pytest.raises(ReplayError) as info:
        capsa.replay(record)
    assert not isinstance(info.value, SettlementVersionError)
    assert "digest" in info.value.fields


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, list[Any], str]:
    old = sys.stdin
    sys.stdin = io.TextIOWrapper(io.BytesIO(b""), encoding="utf-8")
    try:
        code = main(argv)
    finally:
        sys.stdin = old
    out, err = capsys.readouterr()
    return code, [json.loads(line) for line in out.splitlines()], err


@pytest.mark.parametrize("verb", ["replay", "verify"])
def test_the_cli_says_it_in_one_line_with_exit_2(
    verb: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "records.jsonl"
    path.write_text(json.dumps(resealed(golden(5)[0], 7)) + "\n", encoding="utf-8")
    code, out, err = run([verb, str(path)], capsys)
    assert code == 2
    assert [r["error"] for r in out] == ["SettlementVersionError"]
    assert out[0]["fields"] == ["settlement.version"]
    assert "settlement version 7" in out[0]["message"]
    assert len(err.splitlines()) == 1 and "settlement version" in err


def test_the_foul_policy_is_refused_where_the_rules_refuse_fouls() -> None:
    rules = capsa.Rules().derive({"foul.mode": "refuse"})
    with pytest.raises(capsa.ArgumentError, match="refuse"):
        capsa.Round(rules, 2, round_id="r", auto_arrange="foul")
    # the other policies never foul: such a round is made
    capsa.Round(rules, 2, round_id="r", auto_arrange="greedy")
