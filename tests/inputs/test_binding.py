"""The binding's contracts with the Python layer: the rules argument is a
``RuleSet`` (every ``capsa.Rules`` is one), a seat is read by its public
attributes, and the seat count has one check and one message everywhere."""

from __future__ import annotations

import json
import pickle
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import capsa
from capsa import _core

# seed 60 deals seat 0 three straights (a natural under capsa-susun)
NATURAL_SEED = 60


def _arrangements(seats: int = 4, seed: int = NATURAL_SEED) -> list[capsa.Arrangement]:
    return [
        capsa.Arrangement.from_ids(capsa.splits(h)[-1].tolist()) for h in capsa.deal(seats, seed)
    ]


# ---------------------------------------------------------------- rules


def test_rules_are_rule_sets() -> None:
    for name in capsa.presets():
        assert isinstance(capsa.Rules.preset(name), _core.RuleSet)
    derived = capsa.Rules().derive({"scoop.multiplier": 3})
    assert isinstance(derived, _core.RuleSet) and derived["scoop.multiplier"] == 3
    revived = pickle.loads(pickle.dumps(derived))
    assert isinstance(revived, _core.RuleSet) and revived == derived


def test_a_compiled_rule_set_is_taken_as_the_rules_it_compiles() -> None:
    pagat = capsa.Rules.preset("pagat")
    compiled = _core.RuleSet(pagat.to_dict())
    seats = _arrangements()
    assert capsa.settle(seats, compiled).to_dict() == capsa.settle(seats, pagat).to_dict()


def test_rules_are_not_read_from_a_private_attribute() -> None:
    class Carrier:
        _engine = _core.RuleSet(capsa.Rules.preset("pagat").to_dict())

    with pytest.raises(
        TypeError, match=r"^argument 'rules': must be a capsa\.Rules or None, not Carrier$"
    ):
        capsa.evaluate("As Ks Qs", Carrier())
    with pytest.raises(TypeError, match="not dict"):
        capsa.settle(_arrangements(), capsa.Rules().to_dict())


@pytest.mark.parametrize(
    ("players", "match"),
    [
        (-1, r"sweep_all\.min_players must be in 2\.\.9, got -1$"),
        (1, r"sweep_all\.min_players must be in 2\.\.9, got 1$"),
        (10, r"sweep_all\.min_players must be in 2\.\.9, got 10$"),
    ],
)
def test_the_compiled_rules_refuse_min_players_out_of_range(players: int, match: str) -> None:
    config = capsa.Rules().to_dict()
    config["sweep_all"]["min_players"] = players
    with pytest.raises(capsa.RulesError, match=match):
        _core.RuleSet(config)


def test_rules_stay_immutable() -> None:
    rules = capsa.Rules()
    for key in ("_data", "_frozen", "row_points"):
        with pytest.raises(AttributeError, match="immutable"):
            setattr(rules, key, {})
    assert rules == capsa.Rules.preset("capsa-susun")


# ---------------------------------------------------------------- seats


class _DuckArrangement:
    """Not a capsa.Arrangement: only the `ids` the protocol reads."""

    def __init__(self, ids: tuple[int, ...]) -> None:
        self.ids = ids


class _DuckSeat:
    """Not a capsa.Seat: only the attributes the protocol reads."""

    def __init__(self, arrangement: Any, surrender: Any = False, declare_natural: Any = True):
        self.arrangement = arrangement
        self.surrender = surrender
        self.declare_natural = declare_natural


def test_seats_are_read_by_their_public_attributes() -> None:
    rules = capsa.Rules.preset("2-4")  # surrender enabled
    arrs = _arrangements()
    assert capsa.natural(arrs[0].cards, rules) is not None
    real = [
        capsa.Seat(arrs[0], declare_natural=False),
        capsa.Seat(arrs[1], surrender=True),
        arrs[2],
        capsa.Seat(arrs[3]),
    ]
    ducks = [
        _DuckSeat(_DuckArrangement(arrs[0].ids), declare_natural=False),
        _DuckSeat(str(arrs[1]), surrender=True),
        _DuckArrangement(arrs[2].ids),
        _DuckSeat(list(arrs[3].ids)),
    ]
    want = capsa.settle(real, rules).to_dict()
    assert capsa.settle(ducks, rules).to_dict() == want
    assert want["seats"][0]["natural"] is None and want["seats"][1]["surrender"]


@pytest.mark.parametrize(
    ("seat", "match"),
    [
        (_DuckSeat("x", surrender=1), "seat 1: surrender must be true or false, not an integer"),
        (
            _DuckSeat("x", declare_natural=np.bool_(True)),
            "seat 1: declare_natural must be true or false, not numpy.bool",
        ),
    ],
)
def test_a_seat_flag_must_be_a_bool(seat: _DuckSeat, match: str) -> None:
    arrs = _arrangements(2)
    seat.arrangement = arrs[1]
    with pytest.raises(TypeError, match=match):
        capsa.settle([arrs[0], seat])


def test_a_seat_without_its_flags_is_refused() -> None:
    arrs = _arrangements(2)

    class Partial:
        arrangement = arrs[1]
        surrender = False

    with pytest.raises(TypeError, match=r"seat 1: .* Partial has no declare_natural"):
        capsa.settle([arrs[0], Partial()])


# ---------------------------------------------------------------- seat count


def _stream_message(seats: int) -> str:
    line = json.dumps({"seats": [str(a) for a in _arrangements(4)][:1] * seats}).encode()
    out, failed = _core.settle_json_lines([line], {})
    assert failed == 1
    return str(json.loads(out)["message"])


@pytest.mark.parametrize(
    ("call", "got"),
    [
        (lambda: capsa.deal(5), "5"),
        (lambda: capsa.deal(1), "1"),
        (lambda: capsa.best_arrangement(capsa.deal(2, seed=1)[0], seats=5), "5"),
        (lambda: capsa.settle(_arrangements(4) + _arrangements(2)[:1]), "more than 4"),
        (lambda: capsa.settle(_arrangements(2)[:1]), "1"),
    ],
)
def test_one_seat_count_message(call: Callable[[], Any], got: str) -> None:
    with pytest.raises(capsa.TableError, match=f"a table has 2 to 4 seats, got {got}$"):
        call()


def test_the_stream_refuses_a_seat_count_in_the_same_words() -> None:
    assert _stream_message(1) == "a table has 2 to 4 seats, got 1"
    assert _stream_message(5) == "a table has 2 to 4 seats, got 5"


def test_the_batch_names_the_seat_range_in_its_shape() -> None:
    cards = np.zeros((1, 5, 13), dtype=np.uint8)
    with pytest.raises(capsa.TableError, match=r"with P from 2 to 4, got shape \(1, 5, 13\)"):
        capsa.settle_batch(cards)
