"""The harness against hostile engines: every bad answer is a protocol failure
naming its request, memory and the report stay bounded, and the files and
requests the kit reads are bounded too."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from capsa.conformance import CapsaEngine, HandshakeError, ProcessEngine, load_vectors, run
from capsa.conformance.bounds import KEPT_BYTES, MAX_DEPTH, MAX_ITEMS, scan, value_line
from capsa.conformance.serve import answer_line

HERE = Path(__file__).parent
HOSTILE = [sys.executable, str(HERE / "hostile_engine.py")]
CATEGORY = [v for v in load_vectors() if v["op"] == "category"][:40]


def _nested(depth: int) -> list[Any]:
    value: list[Any] = []
    for _ in range(depth):
        value = [value]
    return value


def test_scan_refuses_deep_wide_and_long_answers_without_decoding_them() -> None:
    keys = json.dumps({f"k{k}": k for k in range(60_000)}).encode()
    start = time.perf_counter()
    assert "nested 100,000 deep" in str(scan(b"[" * 100_000, 1 << 20))
    assert "119,999 members and items" in str(scan(keys, 1 << 20))
    assert "over the 16,384" in str(scan(b'"' + b"x" * 20_000 + b'"'))
    assert time.perf_counter() - start < 1.0
    # brackets and separators inside strings are text, not structure
    quoted = json.dumps({"points": [1, -1], "note": "[[[{,:" * 200 + '\\"['}).encode()
    assert scan(quoted) is None
    assert scan(b"[" * MAX_DEPTH + b"]" * MAX_DEPTH) is None
    assert scan(b"[" * (MAX_DEPTH + 1) + b"]" * (MAX_DEPTH + 1)) is not None
    assert scan(json.dumps(list(range(MAX_ITEMS + 1))).encode()) is None
    assert scan(json.dumps(list(range(MAX_ITEMS + 2))).encode()) is not None
    assert value_line(_nested(100_000))[0] is None
    assert value_line({1, 2})[1].startswith("not JSON")


@pytest.mark.parametrize(
    ("answer", "why"),
    [
        ({f"k{k}": k for k in range(60_000)}, "members and items"),
        (_nested(100_000), "nested deeper"),
        ("x" * 900_000, "bytes"),
        ({"a set"}, "not JSON"),
        (float("nan"), "not JSON"),
    ],
    ids=["60000-keys", "100000-deep", "huge-string", "set", "nan"],
)
def test_a_hostile_callable_answer_is_a_protocol_failure_naming_the_request(
    answer: Any, why: str, tmp_path: Path
) -> None:
    reference = CapsaEngine()

    def engine(request: dict[str, Any]) -> Any:
        if request["op"] == "hello":
            return reference.handle(request)
        return {"id": request["id"], "result": answer}

    report = run(engine, vectors=CATEGORY, fuzz=0, out=tmp_path)
    assert report.exit_code == 1 and len(report.failures) == len(CATEGORY)
    assert {f.kind for f in report.failures} == {"protocol"}
    assert all(why in f.got for f in report.failures)
    # the failure names its request: ids are given in order from 1
    assert sorted(int(f.got.split(":")[0].split()[1]) for f in report.failures) == list(
        range(1, len(CATEGORY) + 1)
    )
    assert (tmp_path / "report.json").stat().st_size < 200_000


def test_a_long_answer_within_the_limits_is_judged_and_kept_truncated(tmp_path: Path) -> None:
    reference = CapsaEngine()

    def engine(request: dict[str, Any]) -> Any:
        if request["op"] == "hello":
            return reference.handle(request)
        return {"id": request["id"], "result": "x" * 10_000}

    report = run(engine, vectors=CATEGORY[:5], fuzz=0, out=tmp_path)
    assert {f.kind for f in report.failures} == {"disagreement"}
    got = report.failures[0].got
    assert got["bytes"] == 10_002 and len(got["truncated"]) <= KEPT_BYTES
    saved = json.loads((tmp_path / "report.json").read_text())
    assert saved["failures"][0]["got"] == got


_HARNESS = """
import json, os, sys
from capsa.conformance import run
report = run(sys.argv[2:], fuzz=0, out=sys.argv[1])
print(json.dumps({
    "exit": report.exit_code,
    "kinds": sorted({f.kind for f in report.failures}),
    "report_bytes": os.path.getsize(os.path.join(sys.argv[1], "report.json")),
}))
"""
# ru_maxrss survives fork and exec: the harness runs as the child of a small
# launcher, whose children's peak is then the harness's own.
_LAUNCH = """
import json, resource, subprocess, sys
done = subprocess.run([sys.executable, "-c", *sys.argv[1:]], capture_output=True, check=True)
measured = json.loads(done.stdout)
measured["rss_mb"] = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
print(json.dumps(measured))
"""


@pytest.mark.parametrize(
    ("mode", "kinds"),
    [("keys", ["abandoned", "protocol"]), ("wide", ["disagreement"])],
)
def test_a_hostile_process_leaves_the_harness_bounded(
    mode: str, kinds: list[str], tmp_path: Path
) -> None:
    # every shipped vector: 1,024 answers are in flight at once
    done = subprocess.run(
        [sys.executable, "-c", _LAUNCH, _HARNESS, str(tmp_path), *HOSTILE, mode],
        capture_output=True,
        timeout=120,
        check=True,
    )
    measured = json.loads(done.stdout)
    assert measured["exit"] == 1 and measured["kinds"] == kinds
    assert measured["rss_mb"] < 200, measured
    assert measured["report_bytes"] < 5 * 2**20, measured


@pytest.mark.parametrize(
    ("mode", "detail"),
    [
        ("deep", "an answer line over 16,384 bytes"),
        ("endless", "an answer line over 16,384 bytes"),
        ("garbage", "not JSON"),
        ("string", "an answer line over 16,384 bytes"),
        ("keys", "an answer line over 16,384 bytes"),
        ("deep-short", "nested 10,001 deep"),
        ("keys-short", "2,402 members and items"),
    ],
)
def test_a_hostile_process_answer_is_a_protocol_failure(mode: str, detail: str) -> None:
    engine = ProcessEngine([*HOSTILE, mode], max_restarts=2)
    report = run(engine, vectors=CATEGORY[:10], fuzz=0)
    protocol = [f for f in report.failures if f.kind == "protocol"]
    assert len(protocol) == 3 and report.restarts == 2
    assert all(detail in f.got and "request " in f.got for f in protocol), protocol[0].got
    assert {f.kind for f in report.failures} == {"protocol", "abandoned"}


def test_endless_blank_lines_are_no_answer_and_time_out() -> None:
    engine = ProcessEngine([*HOSTILE, "blank"], timeout=0.5, max_restarts=1)
    started = time.perf_counter()
    report = run(engine, vectors=CATEGORY[:3], fuzz=0)
    assert time.perf_counter() - started < 15
    assert [f.kind for f in report.failures] == ["timeout", "timeout", "abandoned"]


def test_a_hostile_hello_is_a_handshake_error_not_a_crash() -> None:
    with pytest.raises(HandshakeError, match="nested 100,001 deep"):
        ProcessEngine([*HOSTILE, "deep-hello"]).start()


def test_vectors_from_dev_zero_fail_at_once_naming_the_line(tmp_path: Path) -> None:
    start = time.perf_counter()
    serve = f"{sys.executable} -m capsa conformance serve"
    argv = ["capsa", "conformance", "run", "--engine", serve, "--vectors", "/dev/zero"]
    done = subprocess.run(
        [sys.executable, "-m", *argv, "--out", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2, done.stderr
    assert time.perf_counter() - start < 30
    assert done.stderr.strip().splitlines() == [
        "capsa conformance: --vectors: /dev/zero:1: a line over 1,048,576 bytes"
    ]


def test_a_deep_vector_line_is_refused_naming_it(tmp_path: Path) -> None:
    path = tmp_path / "deep.jsonl"
    good = json.dumps(CATEGORY[0])
    path.write_text(good + "\n" + "[" * 100_000 + "\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"deep\.jsonl:2: nested 100,000 deep"):
        load_vectors(path)


def test_vectors_past_the_total_cap_are_refused_naming_the_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from capsa.conformance import vectors

    line = json.dumps(CATEGORY[0]) + "\n"
    path = tmp_path / "many.jsonl"
    path.write_text(line * 10, encoding="utf-8")
    assert len(load_vectors(path)) == 10
    monkeypatch.setattr(vectors, "MAX_VECTOR_FILE_BYTES", len(line) * 3 + 1)
    with pytest.raises(ValueError, match=r"many\.jsonl:4: the vectors pass"):
        load_vectors(path)


def _serve_line(line: bytes) -> dict[str, Any]:
    answer: dict[str, Any] = json.loads(answer_line(CapsaEngine(), line))
    return answer


def test_serve_refuses_duplicate_keys_at_any_depth() -> None:
    request = json.dumps(
        {"id": 1, "op": "compare", "a": "As Ks Qs Js Ts", "b": "2d 3c 4d 5d 7d", "rules": "R"}
    )
    rules = json.dumps(_pagat())
    twice = request.replace('"R"', rules[:-1] + ', "wheel": "low"}')
    assert _serve_line(twice.encode())["error"] == {
        "kind": "invalid",
        "message": 'duplicate key "wheel"',
    }
    top = request.replace('"id": 1,', '"id": 1, "op": "foul",').replace('"R"', rules)
    assert _serve_line(top.encode())["error"]["message"] == 'duplicate key "op"'
    assert _serve_line(request.replace('"R"', rules).encode())["result"] == 1


def _pagat() -> dict[str, Any]:
    from capsa.conformance.protocol import RulesSpec

    return RulesSpec.of("pagat").data()


@pytest.mark.parametrize(
    ("request_", "missing"),
    [
        ({"op": "settle"}, "round"),
        ({"op": "compare", "a": "As Ks Qs Js Ts"}, "b"),
        ({"op": "natural"}, "hand"),
        ({"op": "foul", "top": "As Ks Qs", "middle": "2d 3c 4d 5d 7d"}, "bottom"),
        ({"op": "digest"}, "size"),
    ],
)
def test_serve_names_a_missing_member(request_: dict[str, Any], missing: str) -> None:
    answer = _serve_line(json.dumps({"id": 7, **request_, "rules": _pagat()}).encode())
    assert answer == {"id": 7, "error": {"kind": "invalid", "message": f'"{missing}" is missing'}}
    no_rules = _serve_line(json.dumps({"id": 8, "op": "category", "hand": "As"}).encode())
    assert no_rules["error"]["message"] == '"rules" is missing'
