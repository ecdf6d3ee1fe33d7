"""``infer`` decides what the answers fix: rounds asked to tell readings apart,
equivalences named, observations set aside in the check, no guess written,
every rake read, ranking defects named and never fitted."""

from __future__ import annotations

import sys
from typing import Any

from capsa import Rules, presets
from capsa.conformance.inference import CANNOT_INFER, infer
from capsa.conformance.inference.defects import DEFECT_NOTE
from capsa.conformance.inference.knobs import get, with_knobs
from conformance.variant_engines import (
    PAGAT_HOUSE,
    VARIANTS,
    DefectiveRanking,
    House,
    plays_the_same,
    random_variant,
)

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

_SUSUN = Rules.preset("capsa-susun")


def _variant(name: str) -> Any:
    return next(v for v in VARIANTS if v.name == name)


def test_the_check_sets_aside_what_an_observation_explains() -> None:
    # a sweeper at two and three seats is paid 9 nobody pays: the check run's
    # answers there do not sum to zero, as the inference observed, and no knob
    # is withdrawn for them
    house = _variant("pagat-house")
    found = infer(house.make(), base=house.base, check=10)
    assert found.check is not None and found.check.explains_every_answer
    assert any(o["kind"] == "not-zero-sum" for o in found.check.observations)
    assert found.undetermined == {}
    for knob in ("row_points", "royalty_mode", "royalties.top.trips", "sweep_all.min_players"):
        assert get(found.rules, knob) == get(PAGAT_HOUSE, knob), knob
    # 3 x 2 and 3 + 3, 3 x 4 and 3 + 9: one reading kept, the others named
    for knob in ("scoop.multiplier", "scoop.bonus", "sweep_all.multiplier", "sweep_all.bonus"):
        assert "give the same answer to every case" in found.equivalent[knob]
    same = {k: get(found.rules, k) for k in found.equivalent}
    assert plays_the_same(PAGAT_HOUSE, with_knobs(PAGAT_HOUSE, same)) == []


def test_an_ambiguity_is_settled_by_asking_a_round_that_tells_the_readings_apart() -> None:
    # a house that gives its rules in hello: two readings of the sweep's
    # multiplier and bonus fit the probes, and a dealt round tells which
    house = _variant("claimed-rules")
    found = infer(house.make(), base=house.base)
    for knob in ("sweep_all.multiplier", "sweep_all.bonus"):
        told = [n for n in found.probed[knob] if n.startswith("separate-")]
        assert told, found.probed[knob]
        assert get(found.rules, knob) == get(house.truth, knob)


def test_a_knob_not_determined_is_not_written_in_the_rules_file() -> None:
    # a house whose dealt rounds leave many knobs not determined (a scoop's
    # bonus of 2 only rounds of three or four seats show, every two-seat scoop
    # paid as a sweep)
    house = random_variant(1129)
    found = infer(house.make(), base=house.base)
    assert len(found.undetermined) > 10
    text = found.to_toml()
    written = tomllib.loads(text)
    for knob in found.undetermined:
        assert f"# not determined: {knob}" in text
        if knob.count(".") == 1 and not knob.startswith(("royalties.", "naturals.")):
            table, leaf = knob.split(".")
            assert leaf not in written.get(table, {}), knob
        elif "." not in knob:
            assert knob not in written, knob
    # the file loads as the rules found: the base where nothing was determined
    assert Rules.from_toml(text).derive(name="x") == found.rules.derive(name="x")
    for knob in found.undetermined:
        assert get(found.rules, knob) == get(found.base, knob), knob


def _shifted(request: dict[str, Any], engine: House) -> dict[str, Any]:
    response = engine(request)
    if request.get("op") == "settle" and "result" in response:
        result = response["result"]
        result["points"] = [result["points"][0] + 1, result["points"][1] - 1, *result["points"][2:]]
    return response


def test_no_rake_on_any_answer_is_rake_zero_when_the_points_fit_no_knob() -> None:
    # every settle moves a point from seat 1 to seat 0 that no knob pays; every
    # rake answer is 0 up to stakes of 10^12: the rate is 0, the caps moot
    engine = House("shifted", _SUSUN.derive({"money.rake_basis_points": 0}))
    found = infer(lambda request: _shifted(request, engine), base="capsa-susun")
    assert found.rules["money.rake_basis_points"] == 0
    assert "money.rake_basis_points" in found.probed
    for knob in ("money.rake_minimum_pot", "money.rake_cap_per_pot", "money.rake_cap_per_round"):
        assert "takes no rake" in found.equivalent[knob]


def test_ranking_defects_are_named_with_their_hands_and_fitted_to_no_knob() -> None:
    found = infer(DefectiveRanking("defects", _SUSUN), base="capsa-susun")
    defects = {o.probe: o.message for o in found.observations if o.kind == "ranking-defect"}
    assert "Ac Ad Kh Ks Qc above 2c 3d 4h 5s 6c" in defects["defect-two-pair-straight-5"]
    assert "Ac Ad Ah Ks Kc above 2c 2d 2h 2s 3c" in defects["defect-full-house-quads-5"]
    assert "Ks Kh 9c 5d 3c above Kd Kc Qs 7h 4h" in defects["defect-kicker-0"]
    assert "Ah Kd Qc and As Kc Qd 3h 2s equal" in defects["defect-rows-0"]
    # only the defects: no order between adjacent categories that is right
    assert "defect-pair-two-pair-5" not in defects
    assert DEFECT_NOTE in found.notes and CANNOT_INFER not in found.notes
    assert found.changed() == {} and found.undetermined == {}


def test_an_engine_without_defects_has_no_defect_observation() -> None:
    found = infer(House("plain", _SUSUN), base="capsa-susun")
    assert [o for o in found.observations if o.kind == "ranking-defect"] == []
    assert DEFECT_NOTE not in found.notes


def test_every_preset_is_a_base_infer_can_probe_under() -> None:
    # an engine playing each preset, probed under it: every answer explained,
    # nothing changed (a natural counted from 13, tiers and the rules of larger
    # decks included)
    for name in presets():
        found = infer(House(name, Rules.preset(name)), base=name)
        assert found.changed() == {}, (name, found.changed())
        assert found.observations == [], (name, [o.message for o in found.observations])


def test_the_horse_card_is_read_from_dealt_rounds() -> None:
    # no probe is written for the horse card: Ah is told from none, 5h, Th and
    # As by the answers (dealt rounds asked where the others do not tell them)
    horse = Rules.preset("shisanshui-horse")
    found = infer(House("horse", horse), base="shisanshui-horse")
    assert found.rules["horse.card"] == "Ah"
    assert found.probed["horse.card"] and found.probed["horse.multiplier"]
    assert "horse.card" not in found.undetermined
    # under a base without a horse, an engine without one: none, read the same way
    plain = infer(House("plain", _SUSUN), base="capsa-susun")
    assert get(plain.rules, "horse.card") is None and plain.probed["horse.card"]
    assert "counts only under horse.card" in plain.equivalent["horse.multiplier"]
    assert "a banker game changes what a round holds" in plain.not_probed["banker.enabled"]


def test_a_scoop_sized_by_the_table_is_inferred_from_dealt_rounds() -> None:
    truth = _SUSUN.derive({"scoop.by_seats": True})
    found = infer(House("by seats", truth), base="capsa-susun")
    assert found.rules["scoop.by_seats"] is True
    assert "scoop.by_seats" in found.probed and "scoop.by_seats" not in found.undetermined


def test_royalties_by_rank_are_read_under_a_base_that_has_them() -> None:
    thai = Rules.preset("thai")
    found = infer(House("thai", thai), base="thai")
    assert found.changed() == {}
    assert found.probed["royalties.bottom_by_rank"]
