"""capsa.strategies checks its arguments when a strategy is built, with
capsa's typed errors naming the argument, rather than failing (or drawing
nonsense) when the strategy is first drawn from."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import capsa
from capsa import strategies as cs

BAD_ARGUMENTS: list[tuple[Callable[[], Any], type[Exception], str]] = [
    (lambda: cs.hand_ids(60), capsa.ArgumentError, "size"),
    (lambda: cs.hand_ids(-1), capsa.ArgumentError, "size"),
    (lambda: cs.hand_ids(5, frozenset({99})), capsa.CardError, "99"),
    (lambda: cs.hand_ids("5"), TypeError, "size"),  # type: ignore[arg-type]
    (lambda: cs.rows(4), capsa.ArgumentError, "size"),
    (lambda: cs.arrangements(hand=list(range(12))), capsa.HandError, "hand"),
    (lambda: cs.arrangements(hand=[0] * 13), capsa.HandError, "hand"),
    (lambda: cs.arrangements(hand=list(range(40, 53))), capsa.CardError, "52"),
    (lambda: cs.arrangements(rules="pagat"), TypeError, "rules"),  # type: ignore[arg-type]
    (lambda: cs.arrangements(valid=1), TypeError, "valid"),  # type: ignore[arg-type]
    (lambda: cs.rules_specs(["nope"]), capsa.RulesError, "nope"),
    (lambda: cs.rules_specs(knobs={"nope": [1]}), capsa.RulesError, "nope"),
    (lambda: cs.rules(knobs={"wheel": ["sideways"]}), capsa.RulesError, "wheel"),
    (lambda: cs.rules_specs(max_changes=-1), capsa.ArgumentError, "max_changes"),
    (lambda: cs.tables(seats=5), capsa.ArgumentError, "seats"),
    (lambda: cs.tables(seats=1), capsa.ArgumentError, "seats"),
    (lambda: cs.tables(rules="pagat"), TypeError, "rules"),  # type: ignore[arg-type]
    (lambda: cs.tables(seats="3"), TypeError, "seats"),  # type: ignore[arg-type]
]


@pytest.mark.parametrize(("build", "error", "culprit"), BAD_ARGUMENTS)
def test_a_bad_argument_is_refused_when_the_strategy_is_built(
    build: Callable[[], Any], error: type[Exception], culprit: str
) -> None:
    with pytest.raises(error, match=culprit):
        build()


def test_a_seat_count_strategy_out_of_range_is_refused_when_drawn() -> None:
    @settings(max_examples=1, database=None)
    @given(cs.tables(seats=st.just(5)))
    def draw(table: cs.Table) -> None:
        raise AssertionError("a five-seat table was drawn")

    with pytest.raises(capsa.ArgumentError, match="seats"):
        draw()


@settings(max_examples=20)
@given(cs.arrangements(hand=list(range(13)), valid=True))
def test_a_given_hand_is_arranged_whatever_its_order(arrangement: capsa.Arrangement) -> None:
    assert sorted(arrangement.ids) == list(range(13))
