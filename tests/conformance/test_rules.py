"""The harness under an engine's own rules: ``run --rules`` and the hello ``rules``,
claims decided per op, the minimum of answers, and the ``fouls`` and
``not_zero_sum`` claims.

The engines here are capsa (:class:`CapsaEngine`) wrapped to play one house
variant whatever a request's rules say, as an engine written for one game
does. Fuzzing stays at 30 examples or fewer.
"""

from __future__ import annotations

import json
import sys
import textwrap
from collections.abc import Callable
from pathlib import Path
from typing import Any

import jsonschema
import pytest

import capsa.cli
from capsa.arrangement import Arrangement
from capsa.conformance import CapsaEngine, load_vectors, run
from capsa.conformance.claims import OP_KNOBS, ClaimError, check_claims, knob_names
from capsa.conformance.invariants import zero_sum
from capsa.conformance.protocol import Case, RulesSpec, case_from_vector, request_of
from capsa.conformance.rederive import spec_of
from capsa.conformance.vectors import schema, shipped_dir
from capsa.rules import Rules, presets

VECTORS = load_vectors()
HOUSE = Rules.preset("pagat").derive(
    {
        "name": "house",
        "scoop.bonus": 3,
        "naturals.enabled": [],
        "royalties.top": {"pair": 1, "trips": 5},
        "wheel": "second",
    }
)
Handler = Callable[[dict[str, Any]], dict[str, Any]]


def _some(step: int = 3) -> list[dict[str, Any]]:
    """Every ``step``-th vector of the cheap ops, two splits and no digest."""
    cheap = [v for v in VECTORS if v["op"] not in ("digest", "count_splits")][::step]
    return cheap + [v for v in VECTORS if v["op"] == "count_splits"][:2]


def _house_engine(
    rules: Rules = HOUSE,
    hello: dict[str, Any] | None = None,
    answer: Callable[[dict[str, Any], dict[str, Any]], dict[str, Any]] | None = None,
) -> Handler:
    """capsa playing ``rules`` whatever the request says; ``hello`` members added
    to capsa's; ``answer(request, response)`` may change a response."""
    reference = CapsaEngine()
    data = rules.to_dict()

    def engine(request: dict[str, Any]) -> dict[str, Any]:
        if request["op"] == "hello":
            return {"id": request["id"], "result": {**reference.hello(), **(hello or {})}}
        response = reference.handle({**request, "rules": data})
        return answer(request, response) if answer else response

    return engine


# ------------------------------------------------------------------ --rules


def test_a_house_engine_passes_under_its_own_rules_and_fails_under_a_preset() -> None:
    engine = _house_engine(hello={"rules": HOUSE.to_dict()})
    report = run(engine, vectors=_some(), fuzz=30, seed=2)
    assert report.exit_code == 0, [f.to_json() for f in report.failures[:2]]
    assert report.answered > 300 and report.fuzz_cases > 20
    assert report.rules is not None and report.rules.rules() == HOUSE
    assert report.to_json()["rules"]["scoop"]["bonus"] == 3
    # the vectors that needed a surrender (pagat has none) are skipped, and say why
    assert any("surrender" in reason for reason in report.skips)
    # without its rules (today's behaviour) every difference is a failure
    plain = _house_engine()
    assert run(plain, vectors=_some(), fuzz=0).exit_code == 1
    # and --rules wins over the hello
    assert run(engine, vectors=_some(), fuzz=0, rules="pagat").exit_code == 1


def test_a_mutant_still_fails_under_its_own_rules(tmp_path: Path) -> None:
    def wrong_wheel(request: dict[str, Any], response: dict[str, Any]) -> dict[str, Any]:
        if request["op"] == "compare" and "A" in request["a"] and "2" in request["a"]:
            return {**response, "result": -response.get("result", 0)}
        return response

    engine = _house_engine(answer=wrong_wheel)
    path = tmp_path / "house.toml"
    path.write_text(HOUSE.to_toml(), encoding="utf-8")
    report = run(engine, vectors=_some(), fuzz=10, rules=path)
    failures = {f.op for f in report.failures}
    assert report.exit_code == 1 and failures == {"compare"}, failures
    assert all(f.case.rules.rules() == HOUSE for f in report.failures if f.source == "vector")
    # shrinking changes the cards, never the rules the engine plays
    shrunk = [f.shrunk for f in report.failures if f.shrunk is not None]
    assert shrunk and all(v.case.rules.rules() == HOUSE for v in shrunk)
    assert f"--rules {path}" in str(report.failures[0].replay)


def test_the_command_line_runs_under_a_rules_file(tmp_path: Path, capsys: Any) -> None:
    rules = tmp_path / "house.toml"
    rules.write_text(HOUSE.to_toml(), encoding="utf-8")
    script = tmp_path / "engine.py"
    script.write_text(
        textwrap.dedent(
            f"""
            import json, sys
            from capsa import Rules
            from capsa.conformance.serve import CapsaEngine
            engine, data = CapsaEngine(), Rules.load({str(rules)!r}).to_dict()
            for line in sys.stdin:
                request = json.loads(line)
                if request["op"] != "hello":
                    request["rules"] = data
                sys.stdout.write(json.dumps(engine.handle(request)) + "\\n")
                sys.stdout.flush()
            """
        ),
        encoding="utf-8",
    )
    suite = tmp_path / "some.jsonl"
    suite.write_text("".join(json.dumps(v) + "\n" for v in _some(8)), encoding="utf-8")
    argv = ["conformance", "run", "--engine", f"{sys.executable} {script}"]
    argv += ["--vectors", str(suite), "--fuzz", "10", "--out", str(tmp_path / "out")]
    assert capsa.cli.main([*argv, "--rules", str(rules)]) == 0
    printed = capsys.readouterr().out
    assert 'tested under the rules pagat with name = "house"' in printed
    assert "vectors skipped: " in printed and "failures: none" in printed
    assert capsa.cli.main(argv) == 1  # under each vector's own rules it differs
    capsys.readouterr()
    assert capsa.cli.main([*argv, "--rules", str(tmp_path / "nope.toml")]) == 2
    assert "--rules" in capsys.readouterr().err


def test_rederived_answers_are_checked_against_the_oracle(monkeypatch: Any) -> None:
    import capsa.conformance.rederive as rederive

    monkeypatch.setattr(rederive, "_witness", lambda case: "not capsa's answer")
    compare = [v for v in VECTORS if v["op"] == "compare"][:50]
    report = run(_house_engine(), vectors=compare, fuzz=0, rules=HOUSE)
    assert report.answered == 0 and report.exit_code == 3
    assert report.skips == {"capsa and capsa.oracle disagree (a capsa bug)": 50}


def test_fuzzing_varies_only_the_knobs_claimed_around_the_engines_rules() -> None:
    seen: set[str] = set()
    reference = CapsaEngine()
    data = HOUSE.to_dict()

    def engine(request: dict[str, Any]) -> dict[str, Any]:
        if request["op"] == "hello":
            hello = {**reference.hello(), "ops": ["compare"], "rules": data}
            return {"id": 0, "result": {**hello, "knobs": {"wheel": ["low", "second"]}}}
        seen.add(request["rules"]["wheel"])
        return reference.handle({**request, "rules": {**data, "wheel": request["rules"]["wheel"]}})

    report = run(engine, vectors=[], fuzz=30, seed=4, min_requests=10)
    assert report.exit_code == 0 and seen == {"low", "second"}


def test_fuzzing_without_rules_draws_only_what_the_claims_allow() -> None:
    reference = CapsaEngine()
    top = {"pair": 1, "trips": 5}
    seen: list[dict[str, Any]] = []

    def engine(request: dict[str, Any]) -> dict[str, Any]:
        if request["op"] == "hello":
            claims = {"royalties.top": [top], "naturals.names": [], "scoop.bonus": [3]}
            return {"id": 0, "result": {**reference.hello(), "ops": ["settle"], "knobs": claims}}
        seen.append(request["rules"])
        return reference.handle(request)

    report = run(engine, vectors=[], fuzz=30, seed=6, min_requests=30)
    assert report.exit_code == 0 and report.fuzz_cases > 20
    assert all(r["royalties"]["top"] == top and r["naturals"]["enabled"] == [] for r in seen)
    assert all(r["scoop"]["bonus"] == 3 for r in seen)


def test_spec_of_names_the_nearest_preset_and_sends_exactly_the_rules() -> None:
    spec = spec_of(HOUSE)
    assert spec.preset == "pagat" and spec.rules() == HOUSE and spec.wire_preset is None
    assert spec_of(Rules.preset("mau-binh")).wire_preset == "mau-binh"


# ------------------------------------------------------------------ asking nothing


def _one_variant_hello() -> dict[str, Any]:
    """Each settle knob's one value, as a fixed-variant engine lists them."""
    knobs = {k: [HOUSE[k]] for k in sorted(OP_KNOBS["settle"])}
    return {"ops": ["settle"], "money": False, "knobs": knobs}


def test_an_engine_whose_claims_skip_everything_does_not_pass(tmp_path: Path) -> None:
    engine = _house_engine(hello=_one_variant_hello())
    settle = [v for v in VECTORS if v["op"] == "settle"]
    report = run(engine, vectors=settle, fuzz=0, out=tmp_path)
    assert report.failures == [] and report.answered == 0 and report.exit_code == 3
    data = json.loads((tmp_path / "report.json").read_text())
    assert data["passed"] is False and data["answered"] == 0
    assert "only 0 requests answered" in data["not_passed_because"]
    assert "outside the claims" in data["not_passed_because"]
    assert sum(data["skipped"].values()) == len(settle)
    # a run that asked enough passes
    assert run(_house_engine(), vectors=_some(6), fuzz=0, rules=HOUSE).exit_code == 0


def test_the_command_line_exits_3_with_the_reason(tmp_path: Path, capsys: Any) -> None:
    script = tmp_path / "engine.py"
    script.write_text(
        textwrap.dedent(
            """
            import json, sys
            from capsa.conformance.serve import CapsaEngine
            engine = CapsaEngine()
            for line in sys.stdin:
                request = json.loads(line)
                response = engine.handle(request)
                if request["op"] == "hello":
                    response["result"]["ops"] = ["category"]
                sys.stdout.write(json.dumps(response) + "\\n")
                sys.stdout.flush()
            """
        ),
        encoding="utf-8",
    )
    suite = tmp_path / "category.jsonl"
    category = [v for v in VECTORS if v["op"] == "category"][:30]
    suite.write_text("".join(json.dumps(v) + "\n" for v in category))
    engine = f"{sys.executable} {script}"
    argv = ["conformance", "run", "--engine", engine, "--vectors", str(suite), "--fuzz", "0"]
    code = capsa.cli.main([*argv, "--out", str(tmp_path / "out")])
    printed = capsys.readouterr().out
    assert code == 3 and "NOT PASSED: only 30 requests answered (fewer than 100)" in printed
    assert capsa.cli.main([*argv, "--min-requests", "5", "--out", str(tmp_path / "ok")]) == 0


# ------------------------------------------------------------------ per op


def test_a_scoring_claim_skips_no_compare_vector() -> None:
    reference = CapsaEngine()

    def engine(request: dict[str, Any]) -> dict[str, Any]:
        if request["op"] == "hello":
            return {"id": 0, "result": {**reference.hello(), "knobs": {"scoop.bonus": [3]}}}
        return reference.handle(request)

    # the compare and settle suites without the rules of every house and the
    # larger decks, which this engine does not claim (their cases are skipped)
    compare = load_vectors(shipped_dir() / "compare.jsonl")
    settle = load_vectors(shipped_dir() / "settle.jsonl")
    report = run(engine, vectors=compare + settle, fuzz=0)
    assert report.failures == [] and report.exit_code == 0
    assert report.matrix["compare"]["*"] == {
        "pass": len(compare),
        "fail": 0,
        "unsupported": 0,
        "skipped": 0,
    }
    other = [v for v in settle if spec_from(v).rules()["scoop.bonus"] != 3]
    assert other and report.skips == {"outside the claims (knobs.scoop.bonus)": len(other)}


def spec_from(vector: dict[str, Any]) -> RulesSpec:
    return RulesSpec.of(vector["rules"]["preset"], vector["rules"]["knobs"])


def test_natural_depends_on_the_names_not_the_points() -> None:
    claims = check_claims({"knobs": {"naturals.points.dragon": [26]}})
    pagat = Rules.preset("pagat")
    assert claims.outside("natural", pagat) is None
    assert claims.outside("settle", pagat) == "knobs.naturals.points.dragon"
    assert claims.outside("compare", pagat) is None
    names = check_claims({"knobs": {"naturals.names": ["dragon"]}})
    assert names.outside("natural", pagat) == "knobs.naturals.names"


@pytest.mark.parametrize("op", ["compare", "category", "foul", "natural", "count_splits"])
def test_an_ops_answer_depends_on_no_knob_outside_its_table(op: str) -> None:
    reference = CapsaEngine()
    specs: dict[tuple[RulesSpec, str], RulesSpec] = {}
    for vector in [v for v in VECTORS if v["op"] == op][:: 3 if op == "compare" else 1]:
        case = case_from_vector(vector)
        for other in presets():
            key = (case.rules, other)
            if key not in specs:
                specs[key] = _outside_changed(case.rules.rules(), op, Rules.preset(other))
            answer = reference.handle(request_of(0, Case(op, specs[key], case.input)))
            assert answer["result"] == vector["expected"], (vector["id"], other)


def _outside_changed(rules: Rules, op: str, other: Rules) -> RulesSpec:
    """``rules`` with every knob outside ``op``'s row taken from ``other``, and
    the naturals' points changed (they never decide ``natural``)."""
    outside = {k: other[k] for k in knob_names() if k not in OP_KNOBS[op]}
    enabled = [{**e, "points": e["points"] + 7} for e in rules["naturals.enabled"]]
    outside.setdefault("naturals.enabled", enabled)
    return spec_of(rules.derive(outside))


# ------------------------------------------------------------------ claims checked


@pytest.mark.parametrize(
    ("hello", "claim"),
    [
        ({"knobs": {"whele": ["low"]}}, "knobs.whele"),
        ({"knobs": {"wheel": ["middle"]}}, "knobs.wheel"),
        ({"knobs": {"wheel": []}}, "knobs.wheel"),
        ({"knobs": {"wheel": "low"}}, "knobs.wheel"),
        ({"knobs": {"royalties.top": [{"flush": 3}]}}, "knobs.royalties.top"),
        ({"knobs": {"naturals.enabled": [[{"name": "dragon"}]]}}, "knobs.naturals.enabled"),
        ({"knobs": {"naturals.names": ["dragoon"]}}, "knobs.naturals.names"),
        ({"knobs": {"naturals.points.dragon": [-1]}}, "knobs.naturals.points.dragon"),
        ({"knobs": {"naturals.points.unicorn": [3]}}, "knobs.naturals.points.unicorn"),
        ({"knobs": {"money.rake_percent": [101]}}, "knobs.money.rake_percent"),
        (
            {"knobs": {"money.rake_percent": [3], "money.rake_basis_points": [300]}},
            "knobs.money.rake_percent",
        ),
        ({"fouls": "sometimes"}, "fouls"),
        ({"not_zero_sum": {"seats": [9]}}, "not_zero_sum.seats"),
        ({"not_zero_sum": {"seats": [2], "why": "x"}}, "not_zero_sum"),
        ({"rules": {"wheel": "low"}}, "rules"),
        ({"rules": {**HOUSE.to_dict(), "wheel": "middle"}}, "rules"),
        ({"rules": HOUSE.to_dict(), "knobs": {"wheel": ["low"]}}, "rules"),
    ],
)
def test_a_bad_claim_is_refused_naming_it(hello: dict[str, Any], claim: str) -> None:
    with pytest.raises(ClaimError) as caught:
        run(_house_engine(hello=hello), vectors=[], fuzz=0)
    assert caught.value.claim == claim and claim in str(caught.value)


def test_claims_that_say_everything_are_accepted() -> None:
    hello = {
        "rules": HOUSE.to_dict(),
        "preset": "pagat",
        "fouls": "scored",
        "not_zero_sum": {"seats": [2, 3], "note": "the house pays a sweep bonus"},
        "knobs": {
            "royalties.top": [{"pair": 1, "trips": 5}],
            "naturals.enabled": [[]],
            "naturals.names": [],
            "naturals.points.dragon": [13],
            "surrender.enabled": [False],
            "wheel": ["second", "low"],
        },
    }
    claims = check_claims(hello)
    assert claims.rules == HOUSE and claims.not_zero_sum == {2, 3}
    assert claims.varied() == {"wheel": ["second", "low"]}
    protocol = schema("protocol")
    hello_schema = jsonschema.Draft202012Validator({**protocol, "$ref": "#/$defs/hello_result"})
    full = {**CapsaEngine().hello(), **hello}
    hello_schema.validate(full)
    with pytest.raises(jsonschema.ValidationError):
        hello_schema.validate({**full, "not_zero_sum": {"seats": [9]}})
    with pytest.raises(jsonschema.ValidationError):
        hello_schema.validate({**full, "fouls": "sometimes"})


def test_a_claim_of_the_rake_in_whole_percent_is_read_as_basis_points() -> None:
    claims = check_claims({"knobs": {"money.rake_percent": [0, 5]}})
    assert claims.knobs == {"money.rake_basis_points": [0, 500]}


def test_the_command_line_refuses_a_bad_claim_in_one_line(tmp_path: Path, capsys: Any) -> None:
    script = tmp_path / "engine.py"
    script.write_text(
        "import json, sys\n"
        "for line in sys.stdin:\n"
        '    hello = {"protocol": 1, "engine": "x", "ops": ["compare"], '
        '"knobs": {"royalties.top": [{"straight": 2}]}}\n'
        '    print(json.dumps({"id": json.loads(line)["id"], "result": hello}), flush=True)\n',
        encoding="utf-8",
    )
    code = capsa.cli.main(["conformance", "run", "--engine", f"{sys.executable} {script}"])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1 and "knobs.royalties.top" in err[0]


# ------------------------------------------------------------------ fouls and zero-sum


def test_an_engine_that_never_scores_fouls_gets_no_fouled_table() -> None:
    pagat = Rules.preset("pagat")

    def refuse_fouls(request: dict[str, Any], response: dict[str, Any]) -> dict[str, Any]:
        if request["op"] == "settle":
            seats = request["round"]["seats"]
            rows = [Arrangement(s["top"], s["middle"], s["bottom"]) for s in seats]
            assert not any(r.is_foul(pagat) for r in rows), "a fouled table was sent"
        return response

    engine = _house_engine(pagat, hello={"fouls": "never"}, answer=refuse_fouls)
    settle = [v for v in VECTORS if v["op"] == "settle"]
    report = run(engine, vectors=settle, fuzz=30, seed=5, rules=pagat)
    assert report.exit_code == 0, [f.to_json() for f in report.failures[:2]]
    assert report.skips['a fouled seat (hello "fouls": "never")'] > 10


def _house_pays(seats: int) -> Callable[[dict[str, Any], dict[str, Any]], dict[str, Any]]:
    """At tables of ``seats``, a scoop (4 points or more) earns 5 more paid by the house."""

    def answer(request: dict[str, Any], response: dict[str, Any]) -> dict[str, Any]:
        if request["op"] != "settle" or len(request["round"]["seats"]) != seats:
            return response
        assert "result" in response, response
        points = [p + 5 if p >= 4 else p for p in response["result"]["points"]]
        return {**response, "result": {"points": points}}

    return answer


def test_a_declared_non_zero_sum_difference_is_an_observation() -> None:
    settle = [v for v in VECTORS if v["op"] == "settle"]
    declared = {"money": False, "not_zero_sum": {"seats": [2], "note": "house bonus"}}
    engine = _house_engine(Rules.preset("pagat"), declared, _house_pays(2))
    report = run(engine, vectors=settle, fuzz=20, rules="pagat")
    assert report.failures == [], [f.to_json() for f in report.failures[:2]]
    (seen,) = report.observations
    assert seen["kind"] == "not-zero-sum" and seen["count"] > 3 and seen["note"] == "house bonus"
    assert not zero_sum(seen["example"]["got"])
    assert "observed: " in report.summary() and report.exit_code == 0


def test_an_undeclared_size_or_a_zero_sum_difference_still_fails() -> None:
    settle = [v for v in VECTORS if v["op"] == "settle"]
    declared = {"money": False, "not_zero_sum": {"seats": [3], "note": "house bonus"}}
    engine = _house_engine(Rules.preset("pagat"), declared, _house_pays(2))
    report = run(engine, vectors=settle, fuzz=0, rules="pagat")
    kinds = {f.kind for f in report.failures}
    assert kinds == {"disagreement", "invariant"} and report.observations == []

    def doubled(request: dict[str, Any], response: dict[str, Any]) -> dict[str, Any]:
        if request["op"] != "settle" or len(request["round"]["seats"]) != 2:
            return response
        assert "result" in response, response
        return {**response, "result": {"points": [2 * p for p in response["result"]["points"]]}}

    declared["not_zero_sum"] = {"seats": [2]}
    engine = _house_engine(Rules.preset("pagat"), declared, doubled)
    report = run(engine, vectors=settle, fuzz=0, rules="pagat")
    assert report.exit_code == 1 and report.observations == []
    assert {f.kind for f in report.failures} == {"disagreement"}


def test_rules_outside_the_claims_leave_an_op_untested_and_the_run_does_not_pass() -> None:
    # the engine plays pagat without naturals and claims so; rules enabling
    # naturals skip every settle vector, though compare passes
    own = Rules.preset("pagat").derive({"naturals.enabled": []})
    engine = _house_engine(rules=own, hello={"knobs": {"naturals.enabled": [[]]}})
    settle = [v for v in VECTORS if v["op"] == "settle"]
    compare = [v for v in VECTORS if v["op"] == "compare"]
    pagat = Rules.preset("pagat")
    report = run(engine, vectors=compare + settle, fuzz=0, rules=pagat, min_requests=0)
    assert report.failures == [] and report.answered > 100
    assert report.exit_code == 3
    assert report.too_few().startswith(f"no settle case compared ({len(settle)} skipped")
    # under the rules it plays every op it lists is compared, and it passes
    assert run(engine, vectors=compare + settle, fuzz=0, rules=own).exit_code == 0


def test_the_decks_suite_is_asked_only_of_an_engine_that_claims_the_deck() -> None:
    reference = CapsaEngine()
    decks = load_vectors(shipped_dir() / "decks.jsonl")

    def engine_claiming(knobs: dict[str, Any]) -> Any:
        def engine(request: dict[str, Any]) -> dict[str, Any]:
            if request["op"] == "hello":
                return {"id": 0, "result": {**reference.hello(), "knobs": knobs}}
            return reference.handle(request)

        return engine

    plain = run(engine_claiming({}), vectors=decks, fuzz=0, min_requests=0)
    assert plain.failures == [] and plain.vectors_asked == 0
    assert sum(plain.skips.values()) == len(decks)
    assert all(reason.startswith("outside the claims (knobs.deck.") for reason in plain.skips)
    # an engine of the jokers' deck is asked that deck's vectors, and passes
    jokers = engine_claiming({"deck.jokers": [0, 2]})
    report = run(jokers, vectors=decks, fuzz=0, min_requests=0)
    ranked = [
        v
        for v in decks
        if spec_from(v).rules().deck == {**_PLAIN_DECK, "jokers": 2}
        and v["op"] not in ("natural", "settle")
    ]
    # its naturals and settlements need the claims of the preset's newer knobs too
    assert report.failures == [] and report.vectors_asked == len(ranked) > 40
    assert not any("knobs.deck.jokers" in reason for reason in report.skips)
    # capsa's own hello claims every deck: what it is not asked is for the
    # newer knobs and naturals of the presets, which no hello claims whole
    everything = run(reference.handle, vectors=decks, fuzz=0)
    assert everything.failures == [] and everything.vectors_asked > 200
    assert everything.vectors_asked + sum(everything.skips.values()) == len(decks)
    assert not any("knobs.deck." in reason for reason in everything.skips)


_PLAIN_DECK = {"added_suits": "none", "decks": 1, "jokers": 0}
