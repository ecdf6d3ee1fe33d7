"""Arguments Python itself cannot take (a lone surrogate in a name, an
array for a name, an integer too long to write) are typed capsa errors or
``TypeError`` naming the argument, never an encoding or numpy error or a
hint about interpreter settings."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pytest

import capsa
from capsa.simulation import simulate
from capsa.solver import best_arrangement, best_arrangement_batch, rank_arrangements

HAND = "2c 3d 4h 5s 6c 7d 8h 9s Tc Jd Qh Ks Ac"
RECORD = Path(__file__).parents[1] / "golden" / "records-1.jsonl"
PYTHON_HINT = "set_int_max_str_digits"


def test_a_surrogate_strategy_or_effort_is_an_unknown_name() -> None:
    with pytest.raises(capsa.RulesError, match=r"unknown strategy '\\ud800'; the strategies"):
        best_arrangement(HAND, strategy="\ud800")
    with pytest.raises(capsa.ArgumentError, match=r"unknown effort '\\ud800'; the efforts"):
        best_arrangement(HAND, effort="\ud800")
    with pytest.raises(capsa.ArgumentError, match="unknown effort"):
        rank_arrangements(HAND, effort="\ud800")
    empty = np.zeros((0, 13), dtype=np.uint8)
    with pytest.raises(capsa.RulesError, match="unknown strategy"):
        best_arrangement_batch(empty, strategy="\ud800")
    with pytest.raises(capsa.ArgumentError, match="unknown strategy"):
        simulate(deals=1, strategy="\ud800")


def test_an_array_for_the_strategy_is_a_type_error_naming_it() -> None:
    with pytest.raises(TypeError, match="strategy must be a str, not ndarray"):
        simulate(deals=1, strategy=np.array(["solver", "greedy"]))  # type: ignore[arg-type]


def test_a_round_id_too_long_to_write_is_an_argument_error() -> None:
    seats = [capsa.Seat(best_arrangement(h).arrangement) for h in capsa.deal(2, seed=4)]
    settlement = capsa.settle(seats)
    for draw in (settlement.to_html, settlement.to_svg):
        with pytest.raises(capsa.ArgumentError, match="round_id is an integer of more than") as e:
            draw(round_id=10**5000)
        assert PYTHON_HINT not in str(e.value)


def test_a_record_with_an_integer_too_long_names_it() -> None:
    record = json.loads(RECORD.read_text(encoding="utf-8").splitlines()[0])
    record["meta"] = {"table": 10**5000}
    for check in (capsa.replay, capsa.verify_deal):
        with pytest.raises(capsa.RecordError, match="an integer of more than") as e:
            check(record)
        assert PYTHON_HINT not in str(e.value)


def test_a_protocol_request_with_an_integer_too_long_names_it() -> None:
    import io

    from capsa.conformance.serve import serve

    big = "9" * 5000
    request = f'{{"id":{big},"op":"compare"}}\n'.encode()
    out = io.BytesIO()
    serve(io.BytesIO(request), out)
    answer = json.loads(out.getvalue())
    assert answer["error"]["kind"] == "invalid"
    digits = sys.get_int_max_str_digits()
    assert answer["error"]["message"] == f"malformed JSON: an integer of more than {digits} digits"
