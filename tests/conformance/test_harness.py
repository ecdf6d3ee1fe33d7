"""The harness against real engines: capsa serve and the oracle as external
processes (no disagreement), engines that crash, hang, refuse ops or claim
only some rules, and the command line with its report and reproducers.

The harness runs few fuzz examples here (20 to 40 per engine) so that the
conformance tests stay around a minute; ``--fuzz`` is 200 by default.
"""

from __future__ import annotations

import json
import shlex
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

import capsa.cli
from capsa.conformance import CapsaEngine, HandshakeError, ProcessEngine, load_vectors, run
from capsa.conformance.protocol import Case, RulesSpec

HERE = Path(__file__).resolve().parent
SERVE = [sys.executable, "-m", "capsa", "conformance", "serve"]
ORACLE = [sys.executable, str(HERE / "engines.py"), "oracle"]
VECTORS = load_vectors()


def _fast_vectors(step: int) -> list[dict[str, Any]]:
    """Every ``step``-th vector, no digests and few splits (the oracle's slow ops)."""
    chosen = [v for v in VECTORS if v["op"] not in ("digest", "count_splits")][::step]
    return chosen + [v for v in VECTORS if v["op"] == "count_splits"][:2]


def test_capsa_serve_as_a_process_agrees_on_every_vector_and_fuzz_case(tmp_path: Path) -> None:
    report = run(SERVE, fuzz=40, seed=3, out=tmp_path)
    assert report.failures == [], report.summary()
    assert report.vectors_asked > 1300 and report.fuzz_cases > 20
    data = json.loads((tmp_path / "report.json").read_text())
    assert data["passed"] is True and data["engine"]["hello"]["engine"] == "capsa"
    assert data["matrix"]["settle"]["*"]["pass"] > 300
    assert data["matrix"]["digest"]["*"]["skipped"] > 100  # only the presets' by default


def test_the_oracle_behind_the_protocol_agrees_with_capsa() -> None:
    report = run(ORACLE, vectors=_fast_vectors(4), fuzz=20, seed=1, timeout=60)
    assert report.failures == [], [f.to_json() for f in report.failures[:3]]
    assert report.vectors_asked > 250


def _script(tmp_path: Path, body: str) -> list[str]:
    """An engine: capsa's answers, with ``body`` run first on each request."""
    path = tmp_path / "engine.py"
    path.write_text(
        textwrap.dedent(
            """
            import json, os, sys, time
            from capsa.conformance.serve import CapsaEngine
            engine = CapsaEngine()
            for line in sys.stdin:
                request = json.loads(line)
            {body}
                sys.stdout.write(json.dumps(engine.handle(request)) + "\\n")
                sys.stdout.flush()
            """
        ).format(body=textwrap.indent(textwrap.dedent(body), "    ")),
        encoding="utf-8",
    )
    return [sys.executable, str(path)]


def _category_vectors() -> list[dict[str, Any]]:
    return [v for v in VECTORS if v["op"] == "category"]


def test_a_crashing_engine_is_restarted_and_every_crash_recorded(tmp_path: Path) -> None:
    engine = _script(
        tmp_path,
        """
        if request.get("op") == "category" and request["hand"].startswith("As"):
            os._exit(3)
        """,
    )
    vectors = _category_vectors()
    crashing = [v for v in vectors if v["input"]["hand"].startswith("As")]
    assert crashing
    report = run(engine, vectors=vectors, fuzz=0)
    crashes = [f for f in report.failures if f.kind == "crash"]
    assert len(crashes) == len(crashing) == report.restarts
    assert all("code 3" in str(f.got) for f in crashes)
    assert report.matrix["category"]["*"]["pass"] == len(vectors) - len(crashing)
    assert report.exit_code == 1


def test_a_hanging_engine_times_out_and_the_run_goes_on(tmp_path: Path) -> None:
    engine = _script(
        tmp_path,
        """
        if request.get("op") == "category" and request["hand"] == "Ts Js Qs Ks As":
            time.sleep(60)
        """,
    )
    report = run(engine, vectors=_category_vectors(), fuzz=0, timeout=1.0)
    (timeout,) = [f for f in report.failures if f.kind == "timeout"]
    assert timeout.case.input["hand"] == "Ts Js Qs Ks As" and "1 s" in timeout.got
    assert report.matrix["category"]["*"]["pass"] == len(_category_vectors()) - 1


def test_a_garbled_answer_is_a_protocol_failure_and_the_engine_restarts(tmp_path: Path) -> None:
    engine = _script(
        tmp_path,
        """
        if request.get("op") == "category" and request["hand"] == "Ts Js Qs Ks As":
            sys.stdout.write("royal flush!\\n")
            sys.stdout.flush()
            continue
        """,
    )
    report = run(engine, vectors=_category_vectors(), fuzz=0)
    (broken,) = report.failures
    assert broken.kind == "protocol" and "not JSON" in broken.got and report.restarts == 1


def test_unsupported_ops_and_rules_are_counted_not_failed() -> None:
    reference = CapsaEngine()

    def engine(request: dict[str, Any]) -> dict[str, Any]:
        if request["op"] == "hello":
            hello = reference.hello()
            hello["knobs"] = {"wheel": ["low"], "tie_break": ["none"]}
            return {"id": request["id"], "result": hello}
        if request["rules"]["flush_compare"] == "suit-first":
            return {"id": request["id"], "error": {"kind": "unsupported", "message": "suit-first"}}
        return reference.handle(request)

    compare = [v for v in VECTORS if v["op"] == "compare"]
    report = run(engine, vectors=compare, fuzz=20)
    assert report.failures == []
    counts = report.matrix["compare"]["*"]
    assert counts["unsupported"] > 0 and counts["skipped"] > 0
    wheel_second = [
        v
        for v in compare
        if RulesSpec.of(v["rules"]["preset"], v["rules"]["knobs"]).rules()["wheel"] == "second"
    ]
    assert counts["skipped"] >= len(wheel_second)


def test_an_engine_asking_for_ids_gets_ids() -> None:
    reference = CapsaEngine()
    seen: list[Any] = []

    def engine(request: dict[str, Any]) -> dict[str, Any]:
        if request["op"] == "hello":
            return {"id": 0, "result": {**reference.hello(), "cards": "ids"}}
        seen.append(request.get("hand", request.get("a")))
        return reference.handle(request)

    report = run(engine, vectors=_category_vectors(), fuzz=0)
    assert report.failures == [] and all(isinstance(x, list) for x in seen)


def test_a_bad_handshake_is_refused() -> None:
    with pytest.raises(HandshakeError, match="protocol 2"):
        run(lambda r: {"id": 0, "result": {"protocol": 2, "engine": "x", "ops": []}}, fuzz=0)
    with pytest.raises(HandshakeError, match="cannot start"):
        ProcessEngine(["/nonexistent/engine"]).start()


def test_the_command_line_writes_a_report_and_replayable_reproducers(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    mutant = shlex.join([sys.executable, str(HERE / "engines.py"), "wheel-high"])
    suite = tmp_path / "compare.jsonl"
    suite.write_text("".join(json.dumps(v) + "\n" for v in VECTORS if v["op"] == "compare"))
    out = tmp_path / "out"
    code = capsa.cli.main(
        [
            "conformance",
            "run",
            "--engine",
            mutant,
            "--vectors",
            str(suite),
            "--fuzz",
            "0",
            "--out",
            str(out),
        ]
    )
    printed = capsys.readouterr().out
    assert code == 1
    assert "compare       wheel" in printed and "replay: capsa conformance run" in printed
    report = json.loads((out / "report.json").read_text())
    first = report["failures"][0]
    assert "wheel" in first["flags"] and first["shrunk"]["rules"]["knobs"] == {}
    reproducer = Path(first["reproducer"])
    replay = shlex.split(first["replay"])
    assert replay[:3] == ["capsa", "conformance", "run"]
    assert capsa.cli.main([*replay[1:], "--out", str(tmp_path / "again")]) == 1
    capsys.readouterr()
    assert reproducer.exists()
    # capsa itself passes the reproducer
    serve = shlex.join(SERVE)
    assert (
        capsa.cli.main(
            [
                "conformance",
                "run",
                "--engine",
                serve,
                "--vectors",
                str(reproducer),
                "--fuzz",
                "0",
                "--min-requests",
                "0",
                "--out",
                str(tmp_path / "ok"),
            ]
        )
        == 0
    )


def test_a_missing_engine_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    code = capsa.cli.main(["conformance", "run", "--engine", "/nonexistent/engine", "--fuzz", "0"])
    assert code == 2
    assert "cannot start" in capsys.readouterr().err


def test_invariants_name_what_an_engine_breaks() -> None:
    reference = CapsaEngine()

    def antisymmetry_broken(request: dict[str, Any]) -> dict[str, Any]:
        response = reference.handle(request)
        if request["op"] == "compare" and response.get("result") == -1:
            response["result"] = 0  # never says "below"
        return response

    report = run(antisymmetry_broken, vectors=[], fuzz=40, seed=2)
    broken = {f.invariant for f in report.failures if f.kind == "invariant"}
    assert "antisymmetry" in broken


def test_case_equality_is_by_content() -> None:
    a = Case("category", RulesSpec.of("pagat", {"wheel": "second"}), {"hand": "As Ks Qs"})
    b = Case("category", RulesSpec.of("pagat", {"wheel": "second"}), {"hand": "As Ks Qs"})
    assert a == b and hash(a) == hash(b) and len({a, b}) == 1


@pytest.mark.parametrize(
    ("argv", "named"),
    [
        (["--vectors", "/nonexistent/suite.jsonl"], "/nonexistent/suite.jsonl"),
        (["--timeout", "0"], "--timeout"),
        (["--timeout", "nan"], "--timeout"),
        (["--fuzz", "-1"], "--fuzz"),
    ],
)
def test_bad_run_arguments_are_usage_errors_naming_the_argument(
    argv: list[str], named: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code = capsa.cli.main(["conformance", "run", "--engine", shlex.join(SERVE), *argv])
    assert code == 2
    assert named in capsys.readouterr().err


def test_a_malformed_vector_file_is_a_usage_error_naming_its_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    suite = tmp_path / "bad.jsonl"
    suite.write_text(json.dumps(VECTORS[0]) + "\n{oops\n")
    code = capsa.cli.main(
        [
            "conformance",
            "run",
            "--engine",
            shlex.join(SERVE),
            "--vectors",
            str(suite),
            "--fuzz",
            "0",
        ]
    )
    assert code == 2
    assert "bad.jsonl:2: malformed JSON" in capsys.readouterr().err


def test_an_engine_that_always_crashes_is_given_up_and_nothing_is_shrunk_on_it(
    tmp_path: Path,
) -> None:
    engine = _script(tmp_path, 'if request.get("op") != "hello":\n    os._exit(1)\n')
    process = ProcessEngine(engine, max_restarts=3)
    report = run(process, vectors=_category_vectors()[:10], fuzz=0)
    kinds = [f.kind for f in report.failures]
    assert kinds.count("crash") == 4 and kinds.count("abandoned") == 6
    assert all(f.shrunk is None or f.kind == "crash" for f in report.failures)
    assert report.exit_code == 1
