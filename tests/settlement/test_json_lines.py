"""``capsa.settle_json_lines``: rounds written as JSON, settled by the
reader of ``capsa settle``, with the records it writes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import capsa
from capsa.cli import main

ROUND = {
    "seats": [
        "Ah Kh 8s / As Ks 9d 7d 5h / Jc Jd Jh 3c 3d",
        "Qs Js 7s / 2c 3s 4c 5c 6c / 2h 4h 6h 9h Qh",
    ],
    "stakes": 3,
}


def test_a_round_settles_as_capsa_settle_settles_it() -> None:
    pagat = capsa.Rules.preset("pagat")
    out, failed = capsa.settle_json_lines([json.dumps(ROUND), json.dumps(ROUND).encode()], pagat)
    assert failed == 0
    first, second = (json.loads(line) for line in out.splitlines())
    assert first == second
    expected = capsa.settle(ROUND["seats"], pagat, stakes=3)
    assert first["points"] == list(expected.points)
    assert first["money"] == list(expected.money)


def test_the_default_rules_are_capsa_susun() -> None:
    out, _ = capsa.settle_json_lines([json.dumps(ROUND)])
    assert json.loads(out)["points"] == list(capsa.settle(ROUND["seats"], stakes=3).points)


def test_a_round_that_cannot_be_settled_gives_its_error_record() -> None:
    bad = {"seats": ["Ah Kh 8s / As Ks 9d 7d 5h / Jc Jd Jh 3c 3d", "Zz"], "stakes": 1}
    named = {**ROUND, "rules": "pagat"}
    out, failed = capsa.settle_json_lines([json.dumps(bad), "", "{", json.dumps(named)])
    assert failed == 3
    records = [json.loads(line) for line in out.splitlines()]
    assert [r["error"] for r in records] == ["CardError", "TableError", "RulesError"]
    assert [r["line"] for r in records] == [1, 3, 4]
    assert records[0]["seat"] == 1 and "Zz" in records[0]["message"]


def test_the_cli_writes_the_same_records(
    tmp_path: Path, capsysbinary: pytest.CaptureFixture[bytes]
) -> None:
    source = tmp_path / "rounds.jsonl"
    source.write_text(json.dumps(ROUND) + "\n", encoding="utf-8")
    assert main(["settle", str(source)]) == 0
    written = capsysbinary.readouterr().out
    out, _ = capsa.settle_json_lines([json.dumps(ROUND)])
    assert json.loads(written) == json.loads(out)


@pytest.mark.parametrize("lines", [[1], [bytearray(b"{}")], [None]])
def test_a_line_that_is_not_text_is_a_type_error(lines: list[object]) -> None:
    with pytest.raises(TypeError, match="JSON text"):
        capsa.settle_json_lines(lines)  # type: ignore[arg-type]


def test_rules_that_are_not_rules_are_a_type_error() -> None:
    with pytest.raises(TypeError):
        capsa.settle_json_lines([json.dumps(ROUND)], "pagat")  # type: ignore[arg-type]
