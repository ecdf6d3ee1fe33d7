"""``Settlement.to_dict()`` (and the ``seats`` and ``pairs`` properties),
built straight as Python data, against ``json.loads`` of the record
``capsa settle`` writes for the same round: equal, keys in the same order,
over random tables (every preset, 2 to 4 seats, fouls, naturals declared or
not, surrenders, stakes as one figure or a matrix, every rake form)."""

from __future__ import annotations

import json
import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

import capsa
from capsa import _core
from capsa.rules.known import presets_of_52_cards
from strategies import dealt_seats, oracle_seats

# the presets of games without a banker: ``capsa settle``'s rounds name none
PLAIN_PRESETS = sorted(
    p for p in presets_of_52_cards() if not capsa.Rules.preset(p)["banker.enabled"]
)


def ordered(value: Any) -> Any:
    """The value with every dict as its list of (key, value) pairs and every
    scalar with its type, so that comparing two values compares the order of
    their keys and the types of their values too (``False == 0``)."""
    if isinstance(value, dict):
        return [(k, ordered(v)) for k, v in value.items()]
    if isinstance(value, list):
        return [ordered(v) for v in value]
    return (type(value).__name__, value)


@st.composite
def rounds(draw: st.DrawFn) -> tuple[capsa.Rules, list[dict[str, Any]], Any]:
    """Rules (a preset with its rake and surrender redrawn), seats and stakes."""
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    knobs = capsa.Rules.preset(draw(st.sampled_from(PLAIN_PRESETS))).to_dict()
    knobs["surrender"]["enabled"] = draw(st.booleans())
    knobs["money"] = {
        "stake": draw(st.integers(0, 50)),
        "rake_basis_points": draw(st.sampled_from([0, 1, 300, 2500, 10000])),
        "rake_minimum_pot": draw(st.sampled_from([0, 1, 10, 1000])),
        "rake_cap_per_pot": draw(st.sampled_from([0, 1, 7, 500])),
        "rake_cap_per_round": draw(st.sampled_from([0, 1, 5, 900])),
    }
    rules = capsa.Rules(knobs)
    count = draw(st.integers(2, 4))
    seats = dealt_seats(rng, rules, count)
    stakes: Any = None
    if rng.random() < 0.3:
        stakes = rng.randrange(0, 1000)
    elif rng.random() < 0.5:
        stakes = [[0] * count for _ in range(count)]
        for i in range(count):
            for j in range(i + 1, count):
                stakes[i][j] = stakes[j][i] = rng.randrange(0, 500)
    return rules, seats, stakes


def written_record(rules: capsa.Rules, seats: list[dict[str, Any]], stakes: Any) -> Any:
    """``json.loads`` of the record ``capsa settle`` writes for the round."""
    line = json.dumps({"seats": oracle_seats(seats), "stakes": stakes}).encode()
    data, failed = _core.settle_json_lines([line], {"r": rules}, "r")
    assert failed == 0, data
    return json.loads(data)


@settings(max_examples=400, deadline=None)
@given(table=rounds())
def test_to_dict_is_the_record_capsa_settle_writes(
    table: tuple[capsa.Rules, list[dict[str, Any]], Any],
) -> None:
    rules, seats, stakes = table
    engine_seats = [
        capsa.Seat(capsa.Arrangement.from_ids(s["cards"]), s["surrender"], s["declare_natural"])
        for s in seats
    ]
    settlement = capsa.settle(engine_seats, rules, stakes)
    want = written_record(rules, seats, stakes)
    got = settlement.to_dict()
    assert got == want
    assert ordered(got) == ordered(want)
    assert ordered(settlement.seats) == ordered(want["seats"])
    assert ordered(settlement.pairs) == ordered(want["pairs"])


def test_each_call_gives_new_data() -> None:
    settlement = capsa.settle(
        ["Ah Kh 8s / As Ks 9d 7d 5h / Jc Jd Jh 3c 3d"] * 1
        + ["Qs Js 7s / Tc Td 2s 4s 6s / 2h 4h 6h 9h Qh"]
    )
    first = settlement.to_dict()
    first["seats"][0]["rows"]["top"]["cards"] = "changed"
    first["pairs"].clear()
    assert settlement.to_dict()["seats"][0]["rows"]["top"]["cards"] == "Ah Kh 8s"
    assert len(settlement.to_dict()["pairs"]) == 1
    assert settlement.seats is not settlement.seats
