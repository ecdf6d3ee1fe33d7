"""The capsa command line: play, settle (JSON and JSON Lines), rank, presets, rules."""

from __future__ import annotations

import argparse
import io
import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import capsa
import capsa.cli
from capsa.cli import main

A = "Ah Kh 8s / As Ks 9d 7d 5h / Jc Jd Jh 3c 3d"
B = "Qs Js 7s / Tc Td 2s 4s 6s / 2h 4h 6h 9h Qh"


def run(
    argv: list[str], capsys: pytest.CaptureFixture[str], stdin: str | bytes | None = None
) -> tuple[int, str, str]:
    old = sys.stdin
    if stdin is not None:
        data = stdin.encode() if isinstance(stdin, str) else stdin
        sys.stdin = io.TextIOWrapper(io.BytesIO(data), encoding="utf-8")
    try:
        code = main(argv)
    finally:
        sys.stdin = old
    out, err = capsys.readouterr()
    return code, out, err


def test_help_lists_commands(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run([], capsys)
    assert code == 0
    for command in ("play", "settle", "arrange", "rank", "presets", "rules"):
        assert command in out


def test_play_prints_a_settled_table(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["play", "--seed", "3", "--seats", "3", "--rules", "pagat"], capsys)
    assert code == 0
    assert out.count("arranged") == 3
    assert "seat 0 vs seat 1" in out and "seat 1 vs seat 2" in out


def test_settle_json_lines_reports_bad_lines_and_goes_on(
    capsys: pytest.CaptureFixture[str],
) -> None:
    lines = [
        json.dumps({"id": 1, "stakes": 10, "seats": [A, B]}),
        "not json at all",
        "",
        json.dumps({"id": 3, "seats": [A, A]}),
        json.dumps(
            {
                "id": 4,
                "rules": "pagat",
                "seats": [
                    {"top": "Ah Kh 8s", "middle": "As Ks 9d 7d 5h", "bottom": "Jc Jd Jh 3c 3d"},
                    B,
                ],
            }
        ),
        json.dumps({"id": 5, "rules": "texas", "seats": [A, B]}),
    ]
    code, out, err = run(["settle"], capsys, "\n".join(lines) + "\n")
    assert code == 0
    records = [json.loads(line) for line in out.splitlines()]
    assert [r.get("id") for r in records] == [1, None, 3, 4, 5]
    good, bad_json, dup, good2, bad_rules = records
    assert sum(good["points"]) == 0 and good["money"] == [10 * p for p in good["points"]]
    assert bad_json["line"] == 2 and bad_json["error"] == "TableError"
    assert dup["line"] == 4 and dup["error"] == "HandError" and "held by seat 0" in dup["message"]
    assert good2["rake"] == [0, 0]  # pagat has no rake
    assert bad_rules["line"] == 6 and bad_rules["error"] == "RulesError"
    assert "3 round(s) could not be settled" in err
    code, _, _ = run(["settle", "--strict"], capsys, "\n".join(lines) + "\n")
    assert code == 1


def test_settle_matches_the_api(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(["settle"], capsys, json.dumps({"seats": [A, B], "stakes": 100}) + "\n")
    record = json.loads(out)
    api = capsa.settle([capsa.Arrangement.parse(A), capsa.Arrangement.parse(B)], stakes=100)
    assert record == api.to_dict()


def test_settle_json_document(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    doc = [{"id": "x", "seats": [A, B]}, {"id": "y", "seats": [A]}]
    path = tmp_path / "rounds.json"
    text = json.dumps(doc, indent=2)
    path.write_text(text)
    code, out, _ = run(["settle", str(path)], capsys)
    assert code == 0
    results = json.loads(out)
    assert results[0]["id"] == "x" and "points" in results[0]
    # an error record names the line the round starts on in the document
    second = text[: text.index('"id": "y"')].count("\n")
    assert results[1]["error"] == "TableError" and results[1]["line"] == second


def test_settle_with_rules_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "house.toml"
    path.write_text('base = "pagat"\nname = "house"\n[money]\nstake = 7\n')
    _, out, _ = run(["settle", "--rules", str(path)], capsys, json.dumps({"seats": [A, B]}))
    record = json.loads(out)
    assert record["money"] == [7 * p for p in record["points"]]


def test_bad_rules_option(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(["settle", "--rules", "no-such"], capsys, "")
    assert code == 2 and "RulesError" in err


def test_rank_presets_rules(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(["rank", "As Ks Qs Js Ts"], capsys)
    assert "royal-flush" in out
    _, out, _ = run(["presets"], capsys)
    assert out.split() == sorted(capsa.presets())
    _, out, _ = run(["rules", "mau-binh"], capsys)
    assert capsa.Rules.from_toml(out) == capsa.Rules.preset("mau-binh")
    code, _, err = run(["rank", "As Ks"], capsys)
    assert code == 2 and "HandError" in err


def test_module_entry_point() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "capsa", "presets"], capture_output=True, text=True, check=True
    )
    assert "capsa-susun" in done.stdout


def _options(parser: argparse.ArgumentParser, path: str) -> Iterator[tuple[str, argparse.Action]]:
    """Every argument of every subcommand, with the command it belongs to."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from _options(sub, f"{path} {name}")
        elif not isinstance(action, argparse._HelpAction | argparse._VersionAction):
            yield path, action


def test_every_option_has_help_and_names_its_default() -> None:
    options = list(_options(capsa.cli._parser(), "capsa"))
    assert len(options) > 100
    silent = [(cmd, a.dest) for cmd, a in options if not a.help or a.help == argparse.SUPPRESS]
    assert silent == []
    unsaid = [
        (cmd, a.option_strings[0])
        for cmd, a in options
        if a.option_strings
        and a.default not in (None, False, argparse.SUPPRESS)
        and "default" not in a.help
    ]
    assert unsaid == []
