"""The example engine in Node (``examples/node-engine``) against the harness.

The engine was written from ``docs/conformance.md`` and ``docs/rules.md``
alone; the harness must find no disagreement on any op it supports. Without
``node`` the tests are skipped, except in CI (``CI`` set), where ``.ci/run``
installs it and a missing ``node`` is a failure.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import capsa
from capsa.conformance import load_vectors
from capsa.conformance.protocol import RulesSpec

ENGINE = Path(__file__).resolve().parents[2] / "examples" / "node-engine" / "engine.js"
HOUSE = Path(__file__).resolve().parents[2] / "examples" / "go-engine" / "house.toml"
OPS = ["compare", "category", "foul", "natural", "count_splits", "settle"]


@pytest.fixture(scope="module")
def node() -> str:
    found = shutil.which("node")
    if found is None:
        if os.environ.get("CI"):
            pytest.fail(
                "node is not installed, and CI must run the Node engine (.ci/run installs it)"
            )
        pytest.skip("node is not installed (CI installs it)")
    return found


def test_the_node_engine_agrees_with_capsa_on_every_vector_and_fuzz_case(
    node: str, tmp_path: Path
) -> None:
    engine = shlex.join([node, str(ENGINE)])
    command = [sys.executable, "-m", "capsa", "conformance", "run", "--engine", engine]
    done = subprocess.run(
        [*command, "--fuzz", "40", "--seed", "7", "--out", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    report = json.loads((tmp_path / "report.json").read_text(encoding="utf-8"))
    assert report["passed"] is True and report["failures"] == []
    assert report["engine"]["hello"]["ops"] == OPS
    # every vector but those of the rules of every house it does not claim
    outside = sum(n for why, n in report["skipped"].items() if why.startswith("outside the claims"))
    assert outside >= 30
    assert report["vectors"]["asked"] == sum(v["op"] != "digest" for v in load_vectors()) - outside
    assert report["fuzz"]["cases"] > 20
    for op in OPS:
        everything = report["matrix"][op]["*"]
        assert everything["pass"] > 0 and everything["fail"] == everything["unsupported"] == 0, op
    assert report["matrix"]["digest"]["*"]["pass"] == 0  # not supported, so not asked
    assert "failures: none" in done.stdout


def test_the_node_engine_passes_under_a_house_variant_none_of_the_presets(
    node: str, tmp_path: Path
) -> None:
    # it reads the rules of every request, so it plays whatever variant it is
    # tested under: here the Go example's house rules, with surrender and
    # naturals added so that their vectors are asked too
    house = capsa.Rules.load(HOUSE).derive(
        {"name": "node-house", "surrender.enabled": True, "surrender.cost": 2},
        naturals=capsa.Rules.preset("capsa-susun").to_dict()["naturals"],
    )
    rules = tmp_path / "house.toml"
    rules.write_text(house.to_toml(), encoding="utf-8")
    engine = shlex.join([node, str(ENGINE)])
    command = [sys.executable, "-m", "capsa", "conformance", "run", "--engine", engine]
    done = subprocess.run(
        [*command, "--rules", str(rules), "--fuzz", "20", "--seed", "3", "--out", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    report = json.loads((tmp_path / "report.json").read_text(encoding="utf-8"))
    assert report["rules"]["name"] == "node-house" and report["passed"] is True
    for op in OPS:
        assert report["matrix"][op]["*"]["pass"] > 0, op


def _ask(node: str, lines: list[str]) -> list[dict[str, Any]]:
    done = subprocess.run(
        [node, str(ENGINE)],
        input="".join(line + "\n" for line in lines),
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert done.returncode == 0, done.stderr
    return [json.loads(line) for line in done.stdout.splitlines()]


def test_the_node_engine_answers_bad_requests_with_typed_errors_and_goes_on(node: str) -> None:
    rules = RulesSpec.of("pagat").data()
    partial = {k: v for k, v in rules.items() if k != "wheel"}
    huge = {**rules, "row_points": 2**60}
    sideways = {**rules, "wheel": "sideways"}
    compare = {"op": "compare", "a": "As Ks Qs", "b": "2d 3d 4d", "preset": None}
    answers = _ask(
        node,
        [
            "not json",
            json.dumps({"id": 1, "op": "digest", "size": 5, "rules": rules, "preset": "pagat"}),
            json.dumps({**compare, "id": 2, "a": "As Ks Zz", "rules": rules}),
            json.dumps({**compare, "id": 3, "a": "As As Ks", "rules": rules}),
            json.dumps({**compare, "id": 4, "rules": partial}),
            json.dumps({**compare, "id": 5, "rules": huge}),
            json.dumps({**compare, "id": 6, "rules": sideways}),
            json.dumps({**compare, "id": 7, "rules": rules}),
        ],
    )
    assert answers[0] == {"id": None, "error": answers[0]["error"]}
    assert answers[0]["error"]["kind"] == "invalid" and "not JSON" in answers[0]["error"]["message"]
    kinds = {a["id"]: (a["error"]["kind"], a["error"]["message"]) for a in answers[1:7]}
    assert kinds[1][0] == "unsupported" and "digest" in kinds[1][1]
    assert kinds[2][0] == "invalid" and "Zz" in kinds[2][1]
    assert kinds[3][0] == "invalid" and "repeated" in kinds[3][1]
    assert kinds[4][0] == "invalid" and "wheel" in kinds[4][1]
    assert kinds[5][0] == "unsupported" and "row_points" in kinds[5][1]
    assert kinds[6][0] == "invalid" and "wheel" in kinds[6][1] and "sideways" in kinds[6][1]
    assert answers[7] == {"id": 7, "result": 1}
