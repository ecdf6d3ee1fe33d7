"""``capsa conformance infer`` on house engines: table sizes that are not zero-sum,
the hello claims, the digest, and the check run under the inferred rules."""

from __future__ import annotations

from typing import Any

from capsa import Rules
from capsa.conformance.flags import DECK52_NATURALS
from capsa.conformance.inference import infer
from capsa.conformance.inference.check import check_inferred
from capsa.conformance.inference.knobs import get
from capsa.conformance.vectors import load_vectors, shipped_dir
from conformance.variant_engines import PAGAT_HOUSE, SWEEP_HOUSE, House

# the check's vectors: a few settle rounds (each re-derived and checked by the oracle)
SETTLE = load_vectors(shipped_dir() / "settle.jsonl")[:60]


def _pagat_house(**hello: Any) -> House:
    return House("pagat house", PAGAT_HOUSE, hello=hello, unpaid={2: 9, 3: 9})


def test_a_house_not_zero_sum_at_two_and_three_seats_is_solved_at_four() -> None:
    found = infer(_pagat_house(), base="capsa-susun")
    assert found.not_zero_sum == [2, 3]
    assert any("rounds of 4 seats" in note for note in found.notes)
    # the knobs the four-seat rounds fix, with the probes that fixed them
    for knob in ("sweep_all.min_players", "royalties.top.trips", "row_points", "naturals.enabled"):
        assert found.probed[knob], knob
        assert get(found.rules, knob) == get(PAGAT_HOUSE, knob), knob
    assert found.rules["royalties"]["top"] == {"trips": 3}
    assert found.rules["naturals.enabled"] == []
    assert found.rules["sweep_all.min_players"] == 4
    # only 3 * multiplier + bonus shows, on every round: equivalent, the values named
    for knob in ("scoop.multiplier", "scoop.bonus"):
        assert "scoop.multiplier = 1, scoop.bonus = 3" in found.equivalent[knob]
    for knob in ("sweep_all.multiplier", "sweep_all.bonus"):
        reason = found.equivalent[knob]
        assert "sweep_all.multiplier = 3, sweep_all.bonus = 3" in reason  # 3 * 3 + 3 = 3 * 4
        assert "give the same answer to every case" in reason


def test_the_not_zero_sum_formula_is_named_per_table_size() -> None:
    found = infer(_pagat_house(), base="capsa-susun")
    text = {o.message.split(" the points")[0]: o for o in found.observations}
    two, three = text["at 2 seats"].message, text["at 3 seats"].message
    formula = "a seat that wins every row against everyone collects 9 more than the others pay it"
    assert formula in two and formula in three
    assert "the sweeper collects 15 and the other seat pays it 6" in two
    assert "the sweeper collects 21 and every other seat pays it 6" in three
    assert "does not declare it" in two and text["at 2 seats"].kind == "not-zero-sum"
    assert not found.explains_every_answer
    declared = infer(_pagat_house(not_zero_sum={"seats": [2, 3], "note": "house bonus"}))
    assert declared.observations and declared.unexplained == []
    assert all("the engine declares it" in o.message for o in declared.observations)
    assert declared.explains_every_answer


def test_null_natural_answers_mean_no_naturals() -> None:
    found = infer(_pagat_house(), base="capsa-susun")
    assert found.rules["naturals.enabled"] == []
    # one probe of each natural of the 52-card deck, two-full-houses included, and
    # twelve royals counted from 13
    assert len(found.probed["naturals.enabled"]) == len(DECK52_NATURALS) + 1 == 17
    assert "natural-twelve-royals-13" in found.probed["naturals.enabled"]
    assert "pays no" in found.equivalent["naturals.points.dragon"]


def test_the_hello_rules_are_the_base_and_fouls_never_asks_no_foul() -> None:
    asked: list[dict[str, Any]] = []
    rules = Rules.preset("mau-binh").derive(row_points=2)
    engine = House("claimed", rules, hello={"rules": rules.to_dict(), "fouls": "never"})

    def spy(request: dict[str, Any]) -> dict[str, Any]:
        asked.append(request)
        return engine(request)

    found = infer(spy)
    assert found.base == rules and found.changed() == {}
    assert "fouls" in found.not_probed["foul.mode"]
    assert [r for r in asked if r.get("op") == "settle"] and engine.fouled_asked == 0
    assert found.observations == []


def test_a_knob_claim_the_answers_contradict_is_an_observation() -> None:
    engine = House("liar", Rules.preset("pagat"), hello={"knobs": {"wheel": ["second"]}})
    found = infer(engine, base="pagat")
    assert found.rules["wheel"] == "low" and "wheel" in found.probed
    claimed = [o for o in found.observations if "claims wheel" in o.message]
    assert claimed and "wheel-vs-six" in claimed[0].message


def test_without_compare_the_digest_fixes_the_ranking() -> None:
    rules = Rules.preset("pagat").derive(wheel="second")
    engine = House("digest only", rules, ops=["digest", "settle"])
    found = infer(engine, base="pagat")
    assert found.rules["wheel"] == "second"
    assert found.probed["wheel"] == ["digest-5"]
    assert "no hand's order depends on it" in found.equivalent["suit_order"]


def test_the_check_run_explains_every_answer_of_a_zero_sum_house() -> None:
    found = infer(House("sweep house", SWEEP_HOUSE), base="capsa-susun")
    found.check = check_inferred(
        House("sweep house", SWEEP_HOUSE), found.rules, fuzz=10, vectors=SETTLE
    )
    assert found.check.explains_every_answer, found.check.failures[:5]
    assert found.explains_every_answer
    assert "# check: a run under the inferred rules" in found.to_toml()


def test_the_check_run_lists_the_failures_under_the_inferred_rules() -> None:
    found = infer(_pagat_house(), base="capsa-susun")
    found.check = check = check_inferred(_pagat_house(), found.rules, fuzz=0, vectors=SETTLE)
    assert not check.explains_every_answer and check.failure_count > 0
    assert not found.explains_every_answer
    # what fails is the unpaid sweep bonus at two and three seats, nothing else
    assert all("settle" in line for line in check.failures), check.failures[:5]
    text = found.to_toml()
    assert "finds" in text and "# check failure: " in text
    # declared, the same answers are observations, not failures
    declared = _pagat_house(not_zero_sum={"seats": [2, 3]})
    assert check_inferred(declared, found.rules, fuzz=0, vectors=SETTLE).failures == []
