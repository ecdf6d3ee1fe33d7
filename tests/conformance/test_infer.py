"""``capsa conformance infer``: the rules an engine plays, found by probing it.

Against capsa itself (``serve`` as a process) it finds the rules it was
sent; against an engine that ignores the rules it is sent and plays a preset
of its own, it finds that preset; against the mutant engines it names the
changed knob, or reports the answer no knob explains, naming the probe.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

import capsa.cli
from capsa import Rules, RulesError, presets
from capsa.conformance import CapsaEngine, HandshakeError
from capsa.conformance.claims import check_claims
from capsa.conformance.inference import CANNOT_INFER, Inference, infer
from capsa.conformance.inference.knobs import get as _get
from capsa.conformance.inference.knobs import with_knobs
from capsa.conformance.vectors import shipped_dir
from conformance.engines import MUTANTS
from conformance.variant_engines import plays_the_same

SERVE = [sys.executable, "-m", "capsa", "conformance", "serve"]
REFERENCE = CapsaEngine()


def _wrong(found: Inference, target: Rules) -> dict[str, Any]:
    """The probed knobs whose inferred value is not the target's, and those said
    to be equivalent whose values do not play as the target's."""
    wrong = {
        knob: (_get(found.rules, knob), _get(target, knob))
        for knob in found.probed
        if _get(found.rules, knob) != _get(target, knob) and knob not in found.equivalent
    }
    same = {k: _get(found.rules, k) for k in found.equivalent}
    differs = plays_the_same(target, with_knobs(target, same))
    return wrong | ({"equivalent": (same, differs[:3])} if differs else {})


@pytest.mark.parametrize("preset", ["capsa-susun", "pagat", "mau-binh", "2-4"])
def test_infer_against_serve_finds_the_rules_it_was_sent(preset: str) -> None:
    found = infer(SERVE, base=preset)
    assert found.observations == [], [o.message for o in found.observations]
    assert found.changed() == {}
    assert _wrong(found, Rules.preset(preset)) == {}
    # the ranking, the scoring and the royalties are all probed
    for knob in ("wheel", "tie_break", "row_points", "royalty_mode"):
        assert knob in found.probed, knob
    if Rules.preset(preset)["royalty_adds"]:
        assert "royalties.bottom.quads" in found.probed
    else:
        # a royalty paid in place of the row point answers as one a point
        # smaller added to it: an equivalence, the base's royalties kept, and said so
        reason = found.equivalent["royalties.bottom.quads"]
        assert "royalty_adds = true, royalties.bottom.quads = 3" in reason
        assert "give the same answer to every case" in reason


def _plays(preset: str) -> Any:
    """An engine that plays ``preset`` whatever rules it is sent."""
    data = Rules.preset(preset).to_dict()

    def handler(request: dict[str, Any]) -> dict[str, Any]:
        if request.get("op") == "hello":
            return REFERENCE.handle(request)
        return REFERENCE.handle({**request, "rules": data})

    return handler


# the presets that play only rules infer probes, and those that use a rule of
# the houses (the horse card, caps, banker games, ranked royalties, ...): what
# an engine that claims none of them is not asked
_NO_CLAIMS = check_claims({"protocol": 1})
UNTOLD = [p for p in presets() if _NO_CLAIMS.outside("settle", Rules.preset(p)) is not None]
TOLD = [p for p in presets() if p not in UNTOLD]


@pytest.mark.parametrize("preset", TOLD)
def test_infer_finds_the_preset_an_engine_plays_whatever_it_is_sent(preset: str) -> None:
    found = infer(_plays(preset), base="capsa-susun")
    target = Rules.preset(preset)
    assert found.observations == [], [o.message for o in found.observations]
    assert _wrong(found, target) == {}
    # the naturals paid and their points; their order as far as any answer shows it
    assert {n["name"]: n["points"] for n in found.rules["naturals.enabled"]} == {
        n["name"]: n["points"] for n in target["naturals.enabled"]
    }
    if preset != "capsa-susun":
        assert found.changed(), "a preset other than the base differs somewhere"


@pytest.mark.parametrize("preset", UNTOLD)
def test_infer_says_it_cannot_infer_a_preset_of_rules_it_does_not_probe(preset: str) -> None:
    found = infer(_plays(preset), base="capsa-susun")
    assert found.observations and not found.explains_every_answer
    assert CANNOT_INFER in found.notes
    assert "# note: cannot infer the rules" in found.to_toml()


# mutant -> (base preset, the knob it must name and its value)
KNOB_MUTANTS: dict[str, tuple[str, str, Any]] = {
    "wheel-high": ("capsa-susun", "wheel", "second"),
    "no-suit-tie-break": ("capsa-susun", "tie_break", "none"),
    "flush-suit-first": ("capsa-susun", "flush_compare", "suit-first"),
    # equal rows exist only without the suit tie-break
    "strict-fouls": ("pagat", "foul_check", "strict"),
    "royalties-to-loser": ("capsa-susun", "royalty_mode", "always"),
    "no-scoop-multiplier": ("capsa-susun", "scoop.multiplier", 1),
    "sweep-all-too-early": ("capsa-susun", "sweep_all.min_players", 2),
}


@pytest.mark.parametrize("name", sorted(KNOB_MUTANTS))
def test_infer_names_the_knob_a_mutant_changed(name: str) -> None:
    base, knob, value = KNOB_MUTANTS[name]
    found = infer(MUTANTS[name](), base=base)
    assert found.changed() == {knob: (Rules.preset(base)[knob], value)}
    assert found.observations == [], [o.message for o in found.observations]


# mutant -> (base preset, the probe that must be named, words the observation has)
OBSERVED_MUTANTS: dict[str, tuple[str, str, str]] = {
    "top-straights": ("capsa-susun", "top-no-straight", "three-card hands straights"),
    "natural-not-over-foul": ("capsa-susun", "natural-over-foul", "fouled rows decide"),
    "rake-rounded-up": ("capsa-susun", "rake-stake-33", "of 300 basis points (3%) up"),
    "bonus-not-zero-sum": ("1-6", "scoop", "do not sum to zero"),
}


@pytest.mark.parametrize("name", sorted(OBSERVED_MUTANTS))
def test_infer_reports_what_no_knob_explains_naming_the_probe(name: str) -> None:
    base, probe, words = OBSERVED_MUTANTS[name]
    found = infer(MUTANTS[name](), base=base)
    assert found.changed() == {}
    named = [o for o in found.observations if o.probe == probe]
    assert named, [o.probe for o in found.observations]
    assert words in named[0].message
    assert named[0].request["op"] in ("compare", "settle")


def test_a_round_cap_shared_rounding_down_is_named_not_fitted() -> None:
    from conformance.variant_engines import CAPPED_RAKE

    found = infer(MUTANTS["round-cap-rounded-down"](), base=CAPPED_RAKE)
    assert "money.rake_cap_per_round" in found.undetermined
    named = [o for o in found.observations if o.probe == "rake-shared-cap"]
    assert named, [o.probe for o in found.observations]
    assert "not by largest remainders" in named[0].message


def test_an_engine_without_settle_has_its_scoring_not_probed() -> None:
    found = infer(MUTANTS["top-straights"](), base="capsa-susun")  # compare and category only
    assert found.not_probed["row_points"] == "row_points: the engine does not support settle"
    assert found.not_probed["foul_check"] == "foul_check: the engine does not support foul"
    assert "wheel" in found.probed and "royalty_mode" not in found.probed


def test_the_command_writes_a_rules_file_that_loads(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    engine = f"{sys.executable} {Path(__file__).parent / 'engines.py'} wheel-high"
    out = tmp_path / "inferred.toml"
    vectors = tmp_path / "check.jsonl"  # a few vectors keep the check run short
    lines = (shipped_dir() / "compare.jsonl").read_text(encoding="utf-8").splitlines()[:40]
    vectors.write_text("\n".join(lines) + "\n", encoding="utf-8")
    argv = ["conformance", "infer", "--engine", engine, "--out", str(out), "--check-fuzz", "0"]
    argv += ["--check-vectors", str(vectors)]
    assert capsa.cli.main(argv) == 0
    printed = capsys.readouterr().out
    assert 'wheel = "second"' in printed and "# changed: wheel" in printed
    assert "# check: a run under the inferred rules" in printed
    assert "explains every answer" in printed
    loaded = Rules.load(out)
    assert loaded["wheel"] == "second"
    assert loaded.derive(name="capsa-susun", wheel="low") == Rules.preset("capsa-susun")


def test_the_command_reads_the_base_from_a_rules_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    base = tmp_path / "house.toml"
    base.write_text('base = "pagat"\nname = "house"\nrow_points = 2\n', encoding="utf-8")
    engine = " ".join(SERVE)
    argv = ["conformance", "infer", "--engine", engine, "--rules", str(base), "--no-check"]
    assert capsa.cli.main(argv) == 0
    printed = capsys.readouterr().out
    assert "row_points = 2" in printed and "0 knob(s) differ from house" in printed


def test_a_missing_rules_file_is_a_rules_error_naming_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "nope.toml"
    argv = ["conformance", "infer", "--engine", "true", "--rules", str(missing)]
    assert capsa.cli.main(argv) == 2
    assert "RulesError" in capsys.readouterr().err.replace("\n", " ")
    with pytest.raises(RulesError, match=r"nope\.toml"):
        infer(" ".join(SERVE), base=Rules.load(missing))


def test_an_engine_that_cannot_start_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    code = capsa.cli.main(["conformance", "infer", "--engine", "/nonexistent/engine"])
    assert code == 2
    assert "/nonexistent/engine" in capsys.readouterr().err
    with pytest.raises(HandshakeError, match="nonexistent"):
        infer("/nonexistent/engine")


def _with_hello(extra: dict[str, Any], answer: Any = None) -> Any:
    """capsa, with ``extra`` in its hello and each result replaced by ``answer(request)``."""

    def handler(request: dict[str, Any]) -> dict[str, Any]:
        response = REFERENCE.handle(request)
        if request.get("op") == "hello":
            response["result"].update(extra)
        elif answer is not None:
            response = {"id": request.get("id"), **answer(request, response)}
        return response

    return handler


def test_the_preset_the_hello_names_is_the_base() -> None:
    found = infer(_with_hello({"preset": "mau-binh"}))
    assert found.base == Rules.preset("mau-binh") and found.changed() == {}
    assert found.notes == []


def test_a_hello_naming_an_unknown_preset_is_noted_not_used() -> None:
    found = infer(_with_hello({"preset": "no-such-preset", "engine": "odd\nname"}))
    assert found.base == Rules.preset("capsa-susun")
    assert "no-such-preset" in found.notes[0] and "capsa-susun" in found.notes[0]
    text = found.to_toml()
    assert "# note: " in text and "odd\\nname" in text
    assert Rules.from_toml(text).name == "engine (inferred)"  # the name is not printable


def _garbage(request: dict[str, Any], response: dict[str, Any]) -> dict[str, Any]:
    op = request["op"]
    if op == "settle":
        return {"result": {"points": "many\n#", "rake": [True]}}
    if op == "compare":
        return {"result": [1]}
    if op == "natural":
        return {"result": {"name": "dragon"}}
    if op == "foul":
        raise RuntimeError("the engine broke")
    return response


def test_malformed_answers_are_observations_naming_their_probe() -> None:
    found = infer(_with_hello({}, _garbage))
    by_probe = {o.probe: o.message for o in found.observations}
    assert "a malformed settle result" in by_probe["rows-2-1"]
    assert "[1]" in by_probe["wheel-vs-six"]
    assert "the engine failed" in by_probe["foul-equal-middle-bottom"]
    assert "RuntimeError" in by_probe["foul-equal-middle-bottom"]
    # nothing is changed on such answers, and the file still loads
    assert found.changed() == {}
    assert Rules.from_toml(found.to_toml()).derive(name="capsa-susun") == Rules.preset(
        "capsa-susun"
    )


def test_knobs_only_a_combination_of_which_shows_are_named_equivalent() -> None:
    # 1-6 pays a scoop as 3 x 1 + 3; capsa-susun's 3 x 2 + 0 is the same 6, and
    # no round tells them apart while royalties are not multiplied
    found = infer(_plays("1-6"), base="capsa-susun")
    for knob in ("scoop.multiplier", "scoop.bonus"):
        reason = found.equivalent[knob]
        assert "scoop.multiplier = 2, scoop.bonus = 0 (kept)" in reason
        assert "scoop.multiplier = 1, scoop.bonus = 3" in reason
        assert "scoop.multiply_royalties = false" in reason
        assert knob not in found.undetermined and knob not in found.changed()
    # with a tied row possible, the row point and the overall point are told apart
    assert "row_points" in found.probed and "overall_point" in found.probed
    assert "# equivalent: scoop.multiplier" in found.to_toml()


def test_a_knob_no_value_of_which_explains_its_probes_is_not_determined() -> None:
    # the rake is rounded up: no rate gives the engine's rake at every stake
    found = infer(MUTANTS["rake-rounded-up"](), base="capsa-susun")
    reason = found.undetermined["money.rake_basis_points"]
    assert "no value of it explains the answers to rake-stake-7, rake-stake-33" in reason
    assert "money.rake_basis_points" not in found.probed
    assert "# not determined: money.rake_basis_points: no value" in found.to_toml()
