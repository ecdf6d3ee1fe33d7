"""Diagnosis, budgets and timings: failures grouped by root cause with the knob
values that explain them, digests named, shrinking within its budget, and the
report's phases, wall time and fuzz count."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from capsa import ArgumentError
from capsa.conformance import CapsaEngine, load_vectors, run
from capsa.conformance.timing import ShrinkBudget
from capsa.conformance.vectors import shipped_dir
from capsa.rules.known import presets_of_52_cards

VECTORS = load_vectors()
# the settle suite written before the rules of every house: an engine that
# says nothing of its claims is not asked the house suite's cases
SETTLE = load_vectors(shipped_dir() / "settle.jsonl")[::3]
COMPARE = [v for v in VECTORS if v["op"] == "compare"][::2]
NATURAL = [v for v in VECTORS if v["op"] == "natural"]

Request = dict[str, Any]


def _engine(*changes: Callable[[Request], Request]) -> Callable[[Request], Any]:
    """capsa's answers to the requests as each change rewrites them."""
    reference = CapsaEngine()

    def engine(request: Request) -> Any:
        for change in changes:
            request = change(request)
        return reference.handle(request)

    return engine


def _plays(op: str, table: str | None, key: str, value: Any) -> Callable[[Request], Request]:
    """The engine plays ``key = value`` on ``op`` whatever the rules say."""

    def change(request: Request) -> Request:
        if request.get("op") != op:
            return request
        rules = dict(request["rules"])
        if table:
            rules[table] = {**rules[table], key: value}
        else:
            rules[key] = value
        return {**request, "rules": rules}

    return change


def test_one_wrong_knob_is_one_cause_with_that_knob_fitted() -> None:
    report = run(_engine(_plays("settle", "scoop", "bonus", 3)), vectors=SETTLE, fuzz=0)
    assert report.failures
    (cause,) = report.causes
    assert cause.ops == ["settle"] and len(cause.failures) == len(report.failures)
    assert ("scoop.bonus", 3) in cause.fits
    assert "your answers fit `scoop.bonus = 3`" in report.causes_text()
    assert cause.smallest.shrunk is not None
    assert all(f.shrink_note for f in cause.failures[1:])


def test_a_rake_of_another_rate_or_cap_is_fitted_in_basis_points() -> None:
    raked = [v for v in VECTORS if v["op"] == "settle" and "rake" in v["flags"]]
    report = run(
        _engine(_plays("settle", "money", "rake_basis_points", 250)), vectors=raked, fuzz=0
    )
    assert any(("money.rake_basis_points", 250) in c.fits for c in report.causes), (
        report.causes_text()
    )
    capped = [v for v in VECTORS if "rake-cap-per-round" in v["flags"]]
    report = run(
        _engine(_plays("settle", "money", "rake_cap_per_round", 0)), vectors=capped, fuzz=0
    )
    assert any(("money.rake_cap_per_round", 0) in c.fits for c in report.causes), (
        report.causes_text()
    )


def test_two_independent_bugs_are_two_causes() -> None:
    engine = _engine(
        _plays("settle", "scoop", "bonus", 3), _plays("compare", None, "wheel", "second")
    )
    report = run(engine, vectors=SETTLE + COMPARE, fuzz=0)
    fits = {cause.ops[0]: cause.fits for cause in report.causes}
    assert len(report.causes) == 2, report.causes_text()
    assert ("scoop.bonus", 3) in fits["settle"] and ("wheel", "second") in fits["compare"]
    assert sum(len(c.failures) for c in report.causes) == len(report.failures)
    saved = report.to_json()["causes"]
    assert sorted(c["count"] for c in saved) == sorted(len(c.failures) for c in report.causes)
    assert {"knob": "wheel", "value": "second"} in [f for c in saved for f in c["fits"]]


def test_a_mis_answer_no_knob_explains_is_one_cause_saying_so() -> None:
    reference = CapsaEngine()

    def engine(request: Request) -> Any:
        answer = reference.handle(request)
        if request["op"] == "natural" and answer.get("result") not in (None, "dragon"):
            return {"id": request["id"], "result": "dragon"}
        return answer

    report = run(engine, vectors=NATURAL, fuzz=0)
    wrong = [f for f in report.failures if f.got == "dragon"]
    assert wrong and len(report.causes) == 1
    (cause,) = report.causes
    assert cause.fits == [] and len(cause.failures) == len(report.failures)
    assert "no single knob value explains these answers" in cause.line()


def test_an_engine_without_naturals_is_fitted_with_no_naturals() -> None:
    report = run(_engine(_plays("natural", "naturals", "enabled", [])), vectors=NATURAL, fuzz=0)
    (cause,) = report.causes
    assert ("naturals.enabled", []) in cause.fits
    assert len(cause.failures) == len(report.failures) > 10


def test_a_bug_no_knob_explains_does_not_hide_one_that_does() -> None:
    reference = CapsaEngine()
    bonus = _plays("settle", "scoop", "bonus", 3)

    def engine(request: Request) -> Any:
        answer = reference.handle(bonus(request))
        if request["op"] == "natural" and answer.get("result") not in (None, "dragon"):
            return {"id": request["id"], "result": "dragon"}
        return answer

    report = run(engine, vectors=NATURAL + SETTLE, fuzz=0)
    fits = {cause.ops[0]: cause.fits for cause in report.causes}
    assert fits["natural"] == [] and ("scoop.bonus", 3) in fits["settle"]
    assert len(report.causes) == 2


def test_a_digest_is_named_by_the_pinned_order_it_matches() -> None:
    digest = [v for v in VECTORS if v["op"] == "digest" and v["id"] == "digest/preset-5/4"]
    assert digest[0]["rules"]["preset"] == "hawaiian-gardens"
    report = run(_engine(_plays("digest", None, "wheel", "second")), vectors=digest, fuzz=0)
    assert len(report.failures) == 1
    (named,) = report.digest_matches
    assert named.startswith("digest/preset-5/4 (hawaiian-gardens): your five-card order is")
    assert '`wheel = "second"`' in named
    assert ("wheel", "second") in report.causes[0].fits


def test_a_digest_matching_nothing_pinned_says_so() -> None:
    digest = [v for v in VECTORS if v["id"] == "digest/preset-3/1"]

    def engine(request: Request) -> Any:
        answer = CapsaEngine().handle(request)
        return {"id": request["id"], "result": "0" * 64} if request["op"] == "digest" else answer

    report = run(engine, vectors=digest, fuzz=0)
    assert report.digest_matches == [
        "digest/preset-3/1 (1-6): your three-card order matches no pinned configuration"
    ]


def _slow_many_bugs(delay: float) -> Callable[[Request], Any]:
    engine = _engine(
        _plays("settle", "scoop", "bonus", 3),
        _plays("compare", None, "wheel", "second"),
        _plays("foul", None, "foul_check", "strict"),
        _plays("natural", "naturals", "enabled", []),
    )

    def slow(request: Request) -> Any:
        if request["op"] != "hello":
            time.sleep(delay)
        return engine(request)

    return slow


MANY = [v for v in VECTORS if v["op"] in ("compare", "foul", "natural", "settle")][::4]


def test_shrinking_stops_at_its_request_budget_and_says_so() -> None:
    report = run(_slow_many_bugs(0.0), vectors=MANY, fuzz=0, shrink_budget=4)
    shrink = report.to_json()["shrink"]
    assert shrink["requests"] <= 4 + shrink["causes_shrunk"]  # + one answer per shrunk case
    assert len(report.causes) >= 3 and shrink["causes_not_shrunk"] >= 1
    unshrunk = [c.smallest for c in report.causes if c.smallest.shrunk is None]
    assert unshrunk and all("budget (4:60s) was spent" in f.shrink_note for f in unshrunk)
    assert "not shrunk: the budget (4:60s) was spent" in report.summary()


def test_shrinking_a_slow_engine_stops_at_its_time_budget() -> None:
    started = time.perf_counter()
    report = run(_slow_many_bugs(0.004), vectors=MANY, fuzz=0, shrink_seconds=0.6)
    shrink = report.shrink
    # about one 4 ms answer past the deadline (more on a loaded machine);
    # without a time budget these causes shrink for about 6 s
    assert shrink["seconds"] < 0.6 + 0.5, shrink
    assert report.phases["shrink"]["seconds"] < 1.5
    assert time.perf_counter() - started < 20
    assert shrink["causes_shrunk"] >= 1


def test_the_report_measures_wall_time_phases_and_the_fuzz_count(tmp_path: Path) -> None:
    started = time.perf_counter()
    report = run(_engine(), vectors=SETTLE[:50], fuzz=40, out=tmp_path)
    wall = time.perf_counter() - started
    saved = json.loads((tmp_path / "report.json").read_text())
    assert 0 < saved["elapsed_seconds"] <= wall
    phases = saved["phases"]
    assert list(phases) == ["handshake", "vectors", "digests", "fuzz", "diagnosis", "shrink"]
    assert phases["vectors"]["requests"] == 50
    assert phases["fuzz"]["requests"] == saved["fuzz"]["requests"]
    assert sum(p["seconds"] for p in phases.values()) <= saved["elapsed_seconds"] + 0.01
    fuzz = saved["fuzz"]
    assert fuzz["examples"] == 40
    assert fuzz["cases"] == fuzz["drawn"] - fuzz["duplicates"] - fuzz["refused"]
    assert f"{fuzz['cases']} distinct fuzz cases asked" in fuzz["explained"]
    if fuzz["duplicates"]:
        assert f"{fuzz['duplicates']} duplicates" in report.summary()


@pytest.mark.parametrize(
    ("text", "budget"),
    [
        ("2000:60s", ShrinkBudget(2000, 60.0)),
        ("500", ShrinkBudget(500, 60.0)),
        ("30s", ShrinkBudget(2000, 30.0)),
        ("10:0.5s", ShrinkBudget(10, 0.5)),
    ],
)
def test_a_shrink_budget_reads_requests_and_seconds(text: str, budget: ShrinkBudget) -> None:
    assert ShrinkBudget.parse(text) == budget
    assert ShrinkBudget.parse(budget.text()) == budget


@pytest.mark.parametrize("text", ["", "s", ":", "1:2", "1:0s", "-1:5s", "lots"])
def test_a_bad_shrink_budget_is_refused(text: str) -> None:
    with pytest.raises(ArgumentError, match="shrink budget"):
        ShrinkBudget.parse(text)


DIGESTS = [v for v in VECTORS if v["op"] == "digest"]


def test_five_card_digests_are_asked_by_default_only_when_cheap() -> None:
    reference = CapsaEngine()
    asked: list[int] = []

    def slow(request: Request) -> Any:
        if request["op"] == "digest":
            asked.append(request["size"])
            if request["size"] == 3:
                time.sleep(0.05)  # 12 five-card digests would then take about 70 s
                return reference.handle(request)
            return {"id": request["id"], "error": {"kind": "internal", "message": "asked"}}
        return reference.handle(request)

    report = run(slow, vectors=DIGESTS, fuzz=0, min_requests=0)
    presets = len(presets_of_52_cards())
    assert asked == [3] * presets and report.exit_code == 0
    skipped = len(DIGESTS) - presets
    assert report.matrix["digest"]["*"] == {
        "pass": presets,
        "fail": 0,
        "unsupported": 0,
        "skipped": skipped,
    }
    assert report.digest_note.startswith(f"{presets} five-card digests not asked: they would")
    assert "(--digests presets asks them)" in report.summary()
    asked_all = run(slow, vectors=DIGESTS, fuzz=0, digests="presets")
    assert asked_all.matrix["digest"]["*"]["fail"] == presets and not asked_all.digest_note


def test_five_card_digests_of_a_fast_engine_are_asked_by_default() -> None:
    report = run(_engine(), vectors=DIGESTS, fuzz=0)
    # the digests of each preset's ranking, three- and five-card
    presets = 2 * len(presets_of_52_cards())
    assert report.matrix["digest"]["*"]["pass"] == presets and not report.digest_note
    assert report.phases["digests"]["requests"] == presets


def test_the_command_line_prints_causes_first_and_passes_its_budgets(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import sys

    import capsa.cli

    mutant = f"{sys.executable} {Path(__file__).parent / 'engines.py'} wheel-high"
    suite = tmp_path / "compare.jsonl"
    suite.write_text("".join(json.dumps(v) + "\n" for v in COMPARE))
    argv = ["conformance", "run", "--engine", mutant, "--vectors", str(suite), "--fuzz", "0"]
    budget = ["--shrink-budget", "7:9s", "--digest-timeout", "33", "--out", str(tmp_path / "o")]
    assert capsa.cli.main([*argv, *budget]) == 1
    printed = capsys.readouterr().out
    cause = printed.index('disagreement compare (result): your answers fit `wheel = "second"`')
    assert cause < printed.index("FAIL disagreement")
    report = json.loads((tmp_path / "o" / "report.json").read_text())
    assert report["shrink"]["budget"] == {"requests": 7, "seconds": 9.0}
    assert report["shrink"]["requests"] <= 7 + 1
    assert capsa.cli.main([*argv, "--shrink-budget", "7:9"]) == 2
    assert "a shrink budget is REQUESTS:SECONDSs" in capsys.readouterr().err


def test_a_digest_has_its_own_timeout(tmp_path: Path) -> None:
    import sys

    engine = tmp_path / "slow_digest.py"
    engine.write_text(
        "import json, sys, time\n"
        "from capsa.conformance.serve import CapsaEngine\n"
        "capsa = CapsaEngine()\n"
        "for line in sys.stdin:\n"
        "    request = json.loads(line)\n"
        "    if request['op'] == 'digest':\n"
        "        time.sleep(1.5)\n"
        "    print(json.dumps(capsa.handle(request)), flush=True)\n",
        encoding="utf-8",
    )
    command = [sys.executable, str(engine)]
    digest = [v for v in DIGESTS if v["id"] == "digest/preset-3/1"] + SETTLE[:3]
    waited = run(command, vectors=digest, fuzz=0, timeout=10.0, digest_timeout=5.0, min_requests=0)
    assert waited.exit_code == 0 and waited.matrix["digest"]["*"]["pass"] == 1
    hurried = run(command, vectors=digest, fuzz=0, timeout=10.0, digest_timeout=1.0)
    (timeout,) = hurried.failures
    assert timeout.kind == "timeout" and timeout.op == "digest" and "1 s" in timeout.got


def _two_points_a_row_at_four_seats(request: Request) -> Request:
    seats = request.get("round", {}).get("seats", [])
    if request.get("op") != "settle" or len(seats) != 4:
        return request
    data = dict(request["rules"])
    data["row_points"] = 2 * data.get("row_points", 1)
    return {**request, "rules": data}


def test_a_knob_value_that_breaks_passing_answers_is_not_offered() -> None:
    # the row point doubles at four seats only: row_points = 2 fits those
    # failures but not the rounds of two seats that pass, so it is not offered
    engine = _engine(_two_points_a_row_at_four_seats)
    report = run(engine, vectors=SETTLE, fuzz=0, digests="none")
    causes = [c for c in report.causes if c.kind == "disagreement" and c.ops == ["settle"]]
    assert causes
    for cause in causes:
        assert ("row_points", 2) not in cause.fits
    rejected = [c for c in causes if ("row_points", 2) in c.rejected]
    assert rejected and "breaks answers that pass" in rejected[0].fit_text()


def test_a_compare_order_no_ranking_gives_is_named_a_ranking_defect() -> None:
    def two_pair_above_a_straight(request: Request) -> Any:
        response = CapsaEngine().handle(request)
        if request.get("op") == "compare" and "result" in response:
            categories = {
                CapsaEngine().handle({**request, "op": "category", "hand": request[k]})["result"]
                for k in ("a", "b")
            }
            if categories == {"two-pair", "straight"}:
                response["result"] = -response["result"]
        return response

    report = run(two_pair_above_a_straight, fuzz=300, digests="none", rules="capsa-susun")
    causes = [c for c in report.causes if c.ops == ["compare"]]
    assert causes and causes[0].detail == "ranking defect"
    assert "a ranking defect, no knob" in causes[0].line()
