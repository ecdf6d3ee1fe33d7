"""The settle vectors of the rules of every house (``settle-house.jsonl``):
written again byte for byte by the generator, every new knob of the rules
asked by some vector, the suites written before them unchanged, and the
banker games the protocol's rounds do not carry yet settled by capsa as
worked out by hand."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import capsa
from capsa.conformance.house_seeds import BANKER_SETTLE_SEEDS
from capsa.conformance.serve import _seat
from capsa.conformance.vectors import HOUSE_SUITE, generate, load_vectors, shipped_dir

NEW_KNOBS = {
    "royalties.top_by_rank",
    "royalties.bottom_by_rank",
    "scoop.by_seats",
    "sweep_all.natural_opponents",
    "horse.card",
    "horse.multiplier",
    "horse.naturals",
    "cap.pair",
    "cap.scoop",
    "cap.sweep_all",
    "cap.stage",
    "foul.mode",
    "naturals.enabled",
}
# the fields of a natural's entry the suite asks
ENTRY_FIELDS = {
    "lowest",
    "highest",
    "count",
    "exactly",
    "same_tier",
    "raised_points",
    "raised_by",
    "must_declare",
    "bonus",
}


@pytest.fixture(scope="module")
def house() -> list[dict[str, object]]:
    return load_vectors(shipped_dir() / f"{HOUSE_SUITE}.jsonl")


def test_the_house_suite_regenerates_byte_for_byte_and_the_old_settle_suite_too(
    tmp_path: Path,
) -> None:
    suites = generate(["settle"], check=False)
    for name in ("settle", HOUSE_SUITE):
        written = "".join(v.line() for v in suites[name]).encode("utf-8")
        assert written == (shipped_dir() / f"{name}.jsonl").read_bytes(), name


def test_every_new_knob_and_entry_field_is_asked(house: list[dict[str, object]]) -> None:
    knobs: dict[str, set[str]] = {}
    fields: set[str] = set()
    for vector in house:
        assert vector["op"] == "settle"
        rules = vector["rules"]
        assert isinstance(rules, dict)
        for name, value in rules["knobs"].items():
            knobs.setdefault(name, set()).add(json.dumps(value, sort_keys=True))
            if name == "naturals.enabled":
                fields |= {key for entry in value for key in entry} - {"name", "points"}
    assert set(knobs) >= NEW_KNOBS
    assert fields >= ENTRY_FIELDS
    assert {'"none"', '"refuse"'} <= knobs["foul.mode"]
    assert '"final"' in knobs["cap.stage"]
    assert '"exempt"' in knobs["sweep_all.natural_opponents"]
    assert knobs["horse.naturals"] == {"false"}


def test_a_horse_card_doubles_and_a_cap_binds_in_the_suite(
    house: list[dict[str, object]],
) -> None:
    by_id = {str(v["id"]): v for v in house}
    # A scoops B for 3: the horse card doubles it, the stages order the cap
    assert by_id["settle/horse/1"]["expected"]["points"] == [6, -6]  # type: ignore[index]
    assert by_id["settle/horse/3"]["expected"]["points"] == [3, -3]  # type: ignore[index]
    assert by_id["settle/cap-stage/1"]["expected"]["points"] == [4, -4]  # type: ignore[index]
    assert by_id["settle/cap-stage/2"]["expected"]["points"] == [2, -2]  # type: ignore[index]


@pytest.mark.parametrize(
    ("k", "points"),
    [
        # T the banker: A's pair even (× 3), B loses one row net (× 2)
        (0, [0, -2, 2]),
        # with ties to the banker A loses the top it tied as well: -1 × 3
        (1, [-3, -2, 5]),
        # A the banker of two takes the tied top: 2 rows to 1
        (2, [1, -1]),
    ],
)
def test_banker_games_settle_as_worked_out(k: int, points: list[int]) -> None:
    _, spec, case, _ = BANKER_SETTLE_SEEDS[k]
    round_ = case["round"]
    seats = [_seat(s, n) for n, s in enumerate(round_["seats"])]
    result = capsa.settle(
        seats, spec.rules(), banker=round_["banker"], multipliers=round_.get("multipliers")
    )
    assert result.points == points
    outcomes = {tuple(p["seats"]): p["outcome"] for p in result.to_dict()["pairs"]}
    if len(seats) == 3:
        assert outcomes[0, 1] == "unplayed"


def _pair(**fields: object) -> dict[str, object]:
    pair: dict[str, object] = {"seats": [0, 2], "outcome": "rows", "points": 3}
    pair.update(fields)
    return pair


def test_a_pairs_terms_are_told_from_its_own_figures() -> None:
    from capsa.conformance.explain import pair_terms

    assert pair_terms(_pair()) is None
    assert pair_terms(_pair(base=3, horse=1, cap=0, seat_multiplier=1, natural_bonus=0)) is None
    assert pair_terms(_pair(points=4, base=3, cap=2, horse=2)) == (
        "0 v 2: base +3, capped at 2, the horse card (held by one of the two) x 2: +4"
    )
    # stage final: the points are the cap after the multipliers
    assert pair_terms(_pair(points=2, base=3, cap=2, horse=2)) == (
        "0 v 2: base +3, the horse card (held by one of the two) x 2, capped at 2: +2"
    )
    assert pair_terms(_pair(points=-36, base=1, natural_bonus=-13, seat_multiplier=3)) == (
        "0 v 2: base +1, bonus naturals -13 on top of the base, "
        "the player's stake multiplier x 3: -36"
    )
    assert pair_terms(_pair(outcome="unplayed", points=0)) == (
        "0 v 2: not played (each plays the banker only)"
    )


def test_explain_tells_a_house_vector_with_its_horse_card(
    house: list[dict[str, object]],
) -> None:
    from capsa.conformance.explain import explain
    from capsa.conformance.vectors import vectors_of

    told = {str(v["id"]): explain(case) for v, case in vectors_of(house)}
    assert 'horse.card = "Ah"' in told["settle/horse/1"]
    assert "horse card x2" in told["settle/horse/1"]
    assert "+6 points" in told["settle/horse/1"]


def test_the_rules_of_every_house_are_asked_only_of_an_engine_that_claims_them() -> None:
    from capsa.conformance.claims import check_claims

    pagat = capsa.Rules.preset("pagat")
    horse = pagat.derive({"horse.card": "Ah"})
    assert check_claims({}).outside("settle", pagat) is None
    assert check_claims({}).outside("settle", horse) == "knobs.horse.card"
    assert check_claims({"knobs": {"horse.card": ["Ah"]}}).outside("settle", horse) is None
    # a ranking op does not read the horse card
    assert check_claims({}).outside("compare", horse) is None
    fouls = pagat.derive({"foul.mode": "none"})
    assert check_claims({}).outside("settle", fouls) == "knobs.foul.mode"
    assert check_claims({"knobs": {"foul.mode": ["none"]}}).outside("settle", fouls) is None
    raised = pagat.derive({"naturals.enabled": [{"name": "dragon", "points": 13, "bonus": True}]})
    assert check_claims({}).outside("settle", raised) == "knobs.naturals.enabled"
