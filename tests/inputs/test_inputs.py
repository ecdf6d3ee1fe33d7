"""Every Python entry point reads its inputs safely: bounded reads, no silent
casts, typed errors naming the culprit."""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest

import capsa
from capsa import _core


def _hand13(seed: int = 1) -> list[int]:
    return [c.id for c in capsa.deal(2, seed=seed)[0]]


def _arrangements(seats: int = 4, seed: int = 2) -> list[capsa.Arrangement]:
    return [
        capsa.Arrangement.from_ids(capsa.splits(h)[0].tolist()) for h in capsa.deal(seats, seed)
    ]


def _tables(n: int = 3) -> npt.NDArray[np.uint8]:
    one = np.array([a.ids for a in _arrangements()], dtype=np.uint8)
    return np.repeat(one[np.newaxis], n, axis=0)


def _raises_quickly(error: type[Exception], match: str, call: Callable[[], Any]) -> None:
    start = time.perf_counter()
    with pytest.raises(error, match=match):
        call()
    assert time.perf_counter() - start < 2.0


# 1. bounded reads


@pytest.mark.parametrize(
    ("call", "error", "match"),
    [
        (lambda: capsa.evaluate(itertools.repeat(1)), capsa.HandError, "3 or 5 cards"),
        (lambda: capsa.evaluate(itertools.count()), capsa.HandError, "3 or 5 cards"),
        (lambda: capsa.count_splits(itertools.count()), capsa.HandError, "13 cards"),
        (lambda: capsa.naturals(itertools.count()), capsa.HandError, "13 cards"),
        (lambda: _core.card_ids(itertools.count()), capsa.HandError, "at most 106"),
        (lambda: _core.card_ids(itertools.count(), 5), capsa.HandError, "5 cards"),
        (lambda: capsa.Arrangement.from_ids(itertools.count()), capsa.HandError, "13 cards"),
        (lambda: capsa.format_cards(itertools.count()), capsa.HandError, "at most 106"),
        (lambda: capsa.best_arrangement(itertools.count()), capsa.HandError, "13 cards"),
    ],
)
def test_endless_cards_raise_quickly(call: Callable[[], Any], error: type, match: str) -> None:
    _raises_quickly(error, match, call)


def test_endless_seats_raise_quickly() -> None:
    seat = _arrangements()[0]
    _raises_quickly(capsa.TableError, "2 to 4 seats", lambda: capsa.settle(itertools.repeat(seat)))


def test_endless_stakes_rows_raise_quickly() -> None:
    seats = _arrangements(2)
    endless = itertools.repeat([0, 1])
    _raises_quickly(capsa.TableError, "2 x 2", lambda: capsa.settle(seats, stakes=endless))


def test_a_long_list_is_refused_by_its_length() -> None:
    with pytest.raises(capsa.HandError, match="got 6"):
        capsa.evaluate(list(range(6)))


# 2. no silent casts


@pytest.mark.parametrize(
    "cards", [[True, False, 2], [0, 1, 2.0], [0, 1, np.float64(2)], [0, 1, np.True_]]
)
def test_bools_and_floats_are_not_card_ids(cards: list[Any]) -> None:
    with pytest.raises(TypeError, match=r"bool|float|a card is a text like"):
        capsa.evaluate(cards)


@pytest.mark.parametrize("card", [True, 1.0, np.float32(3), np.False_, None, b"As"])
def test_card_refuses_non_ids(card: Any) -> None:
    with pytest.raises(TypeError, match=type(card).__name__):
        capsa.Card(card)


def test_numpy_integers_are_card_ids() -> None:
    assert capsa.Card(np.int8(51)) == capsa.Card("As")
    assert capsa.Card(np.uint64(0)) == capsa.Card("2d")
    assert capsa.evaluate(np.array([48, 49, 50], dtype=">i4")).category == "trips"


@pytest.mark.parametrize(
    "cards",
    [
        {0: 1, 4: 5, 8: 9},
        b"\x00\x04\x08",
        bytearray(b"\x00\x04\x08"),
        memoryview(b"\x00\x04\x08"),
        {0, 4, 8},
        frozenset({0, 4, 8}),
    ],
)
def test_mappings_bytes_and_sets_are_not_card_lists(cards: Any) -> None:
    with pytest.raises(TypeError, match=type(cards).__name__):
        capsa.evaluate(cards)
    with pytest.raises(TypeError, match=type(cards).__name__):
        _core.card_ids(cards)


def test_big_ints_are_out_of_range_not_overflow() -> None:
    with pytest.raises(capsa.CardError, match="10000000000000000000000000000"):
        capsa.Card(10**28)
    with pytest.raises(capsa.CardError, match="bits"):
        capsa.evaluate([0, 1, 2**200])


def test_deal_refuses_a_bool_seed() -> None:
    with pytest.raises(TypeError, match=r"seed.*bool"):
        capsa.deal(seed=True)
    with pytest.raises(TypeError, match=r"seats.*bool"):
        capsa.deal(True)


@pytest.mark.parametrize(
    "ids",
    [
        [1.0] * 13,
        ["1"] * 13,
        [True] * 13,
        {i: i for i in range(13)},
        "0 1 2 3 4 5 6 7 8 9 10 11 12",
    ],
)
def test_from_ids_refuses_non_ids(ids: Any) -> None:
    with pytest.raises(TypeError, match=r"float|str|bool|dict|a card is a text like"):
        capsa.Arrangement.from_ids(ids)


def test_from_ids_accepts_numpy_ids() -> None:
    ids = capsa.splits(_hand13())[0]
    assert capsa.Arrangement.from_ids(ids.astype(np.int16)).ids == tuple(ids.tolist())


BATCHES: list[tuple[str, Callable[[Any], Any], int]] = [
    ("evaluate_batch", capsa.evaluate_batch, 5),
    ("count_splits_batch", capsa.count_splits_batch, 13),
    ("naturals_batch", capsa.naturals_batch, 13),
    ("best_arrangement_batch", lambda a: capsa.best_arrangement_batch(a, strategy="greedy"), 13),
]


@pytest.mark.parametrize(("name", "call", "width"), BATCHES)
def test_batch_out_of_range_ids_name_row_and_column(name: str, call: Any, width: int) -> None:
    ids = np.tile(np.arange(width, dtype=np.int64), (4, 1))
    ids[3, width - 1] = 300
    with pytest.raises(capsa.CardError, match=f"row 3, column {width - 1}: card id 300"):
        call(ids)
    ids[3, width - 1] = -1
    with pytest.raises(capsa.CardError, match="card id -1"):
        call(ids)


@pytest.mark.parametrize(("name", "call", "width"), BATCHES)
@pytest.mark.parametrize("dtype", [np.float64, np.bool_, np.complex64, object, "U2"])
def test_batch_refuses_non_integer_dtypes(name: str, call: Any, width: int, dtype: Any) -> None:
    ids = np.zeros((2, width), dtype=dtype)
    with pytest.raises(TypeError, match=str(np.dtype(dtype))):
        call(ids)


@pytest.mark.parametrize(("name", "call", "width"), BATCHES)
def test_batch_accepts_every_integer_form(name: str, call: Any, width: int) -> None:
    rng = np.random.default_rng(5)
    base = np.array([rng.permutation(52)[:width] for _ in range(6)], dtype=np.uint8)
    expected = call(base)
    wide = np.zeros((6, 2 * width), dtype=np.uint8)
    wide[:, ::2] = base
    read_only = base.copy()
    read_only.flags.writeable = False
    for form in [base.astype(">u2"), base.astype(np.int64), wide[:, ::2], read_only]:
        assert np.array_equal(call(form), expected)


@pytest.mark.parametrize(("name", "call", "width"), BATCHES)
def test_batch_of_zero_rows(name: str, call: Any, width: int) -> None:
    expected = call(np.zeros((1, width), dtype=np.uint8)[:0])
    got = call(np.zeros((0, width), dtype=np.int32))
    assert got.shape == expected.shape and got.dtype == expected.dtype
    assert got.shape[0] == 0


@pytest.mark.parametrize(("name", "call", "width"), BATCHES)
def test_batch_wrong_shape_names_it(name: str, call: Any, width: int) -> None:
    with pytest.raises(capsa.TableError, match=r"\(2, 3, 4\)"):
        call(np.zeros((2, 3, 4), dtype=np.int16))
    with pytest.raises(TypeError, match="list"):
        call([[0] * width])


# 3. no untyped exceptions


@pytest.mark.parametrize(
    ("call", "error", "match"),
    [
        (lambda: capsa.deal(-1), capsa.TableError, "seats.*-1"),
        (lambda: capsa.deal(10**30), capsa.TableError, "seats.*1000000000000000000000000000000"),
        (lambda: capsa.deal(4.0), TypeError, "seats.*float"),
        (lambda: capsa.deal(4, seed=-1), capsa.ArgumentError, "seed.*0\\.\\.18446744073709551615"),
        (lambda: capsa.deal(4, seed=2**64), capsa.ArgumentError, "seed.*18446744073709551616"),
        (lambda: capsa.best_arrangement(_hand13(), seats=-1), capsa.TableError, "seats.*-1"),
        (lambda: capsa.best_arrangement(_hand13(), seats=True), TypeError, "seats.*bool"),
        (lambda: capsa.rank_arrangements(_hand13(), k=-1), capsa.ArgumentError, "k.*-1"),
        (lambda: capsa.rank_arrangements(_hand13(), k=0), capsa.ArgumentError, "k.*0"),
        (lambda: capsa.rank_arrangements(_hand13(), k=True), TypeError, "k.*bool"),
        (lambda: capsa.rank_arrangements(_hand13(), k=2.0), TypeError, "k.*float"),
        (lambda: capsa.Card("A\ud800"), capsa.CardError, r"A\\\\ud800"),
        (lambda: capsa.evaluate("As Ks Qs Js T\udcff"), capsa.CardError, r"T\\\\udcff"),
        (lambda: capsa.parse_cards("As \ud800"), capsa.CardError, r"\\\\ud800"),
        (lambda: capsa.Arrangement.parse(None), TypeError, "NoneType"),  # type: ignore[arg-type]
        (lambda: _core.card_ids([0], count=-1), capsa.ArgumentError, "count"),
    ],
)
def test_typed_errors(call: Callable[[], Any], error: type, match: str) -> None:
    with pytest.raises(error, match=match):
        call()


def test_a_huge_k_gives_every_choice() -> None:
    hand = _hand13()
    assert len(capsa.rank_arrangements(hand, k=10**30)) == len(
        capsa.rank_arrangements(hand, k=100_000)
    )


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"deals": 0}, capsa.ArgumentError, "deals"),
        ({"deals": 10**30}, capsa.ArgumentError, "deals"),
        ({"seed": -1}, capsa.ArgumentError, "seed"),
        ({"seats": 5}, capsa.TableError, "seats"),
        ({"deals": 1.5}, TypeError, "deals"),
    ],
)
def test_tournament_arguments(kwargs: dict[str, Any], error: type, match: str) -> None:
    with pytest.raises(error, match=match):
        capsa.solver.duplicate_tournament(["greedy", "random"], **kwargs)


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"hands": 0}, capsa.ArgumentError, "hands"),
        ({"opponents": -1}, capsa.ArgumentError, "opponents"),
        ({"seed": 2**64}, capsa.ArgumentError, "seed"),
        ({"hands": True}, TypeError, "hands"),
    ],
)
def test_best_response_check_arguments(kwargs: dict[str, Any], error: type, match: str) -> None:
    with pytest.raises(error, match=match):
        capsa.solver.best_response_check(**kwargs)


@pytest.mark.parametrize(
    ("stakes", "error", "match"),
    [
        (1.5, TypeError, "not a number"),
        (True, TypeError, "bool"),
        ("1", TypeError, "str"),
        (10**30, capsa.TableError, "stake"),
        ([[0, 1.5], [1.5, 0]], TypeError, "not a number"),
        (np.ones((2, 2), dtype=np.float64), TypeError, "float64"),
    ],
)
def test_settle_stakes_types(stakes: Any, error: type, match: str) -> None:
    with pytest.raises(error, match=match):
        capsa.settle(_arrangements(2), stakes=stakes)


def test_settle_bad_card_names_the_seat() -> None:
    seats: list[Any] = [_arrangements(2)[0], [*range(12), 200]]
    with pytest.raises(capsa.CardError, match=r"seat 1.*200") as info:
        capsa.settle(seats)
    assert info.value.seat == 1


def test_arrangement_bad_card_names_the_row() -> None:
    with pytest.raises(capsa.CardError, match=r"bottom row.*Zd") as info:
        capsa.Arrangement("As Ks Qs", "2d 3d 4d 5d 6d", "7d 8d 9d Td Zd")
    assert info.value.row == "bottom"


# 4. settle_batch arguments raise, before any row


@pytest.mark.parametrize(
    ("stakes", "match"),
    [
        (-1, "stake must be in 0.."),
        (np.array([[0, 1, 1, 1], [2, 0, 1, 1], [1, 1, 0, 1], [1, 1, 1, 0]]), "symmetric"),
        (np.ones((3, 3), dtype=np.int64), r"\(4, 4\)|4 x 4"),
        ([[0, 1], [1, 0]], "4 x 4"),
    ],
)
@pytest.mark.parametrize("rows", [3, 0])
def test_batch_bad_stakes_raise(stakes: Any, match: str, rows: int) -> None:
    with pytest.raises(capsa.TableError, match=match):
        capsa.settle_batch(_tables(rows), stakes=stakes)


def test_batch_stakes_of_any_integer_dtype() -> None:
    cards = _tables()
    expected = capsa.settle_batch(cards, stakes=np.full((4, 4), 3, dtype=np.int64))
    got = capsa.settle_batch(cards, stakes=np.full((4, 4), 3, dtype=np.int16))
    assert np.array_equal(got.money, expected.money) and not got.errors


def test_batch_flags_any_strides() -> None:
    cards = _tables()
    wide = np.zeros((3, 8), dtype=bool)
    plain = capsa.settle_batch(cards)
    got = capsa.settle_batch(cards, surrender=wide[:, ::2], declare_natural=~wide[:, ::2])
    assert np.array_equal(got.points, plain.points)


@pytest.mark.parametrize(
    ("flags", "error", "match"),
    [
        (np.zeros((3, 4), dtype=np.int64), TypeError, "int64"),
        (np.zeros((3, 3), dtype=bool), capsa.TableError, r"\(3, 4\)"),
        ([[False] * 4] * 3, TypeError, "list"),
    ],
)
def test_batch_bad_flags(flags: Any, error: type, match: str) -> None:
    with pytest.raises(error, match=match):
        capsa.settle_batch(_tables(), surrender=flags)


@pytest.mark.parametrize("shape", [(3, 3), (4,), (3, 4, 1)])
def test_batch_flag_shape_is_shown_as_numpy_does(shape: tuple[int, ...]) -> None:
    with pytest.raises(capsa.TableError) as info:
        capsa.settle_batch(_tables(), declare_natural=np.ones(shape, dtype=bool))
    assert str(info.value) == f"declare_natural must have shape (3, 4), got shape {shape}"


@pytest.mark.parametrize("stake", [2**63, -(2**63) - 1, 2**70])
def test_a_stake_past_int64_is_refused_with_the_range_of_a_stake(stake: int) -> None:
    seats = _arrangements(2)
    with pytest.raises(capsa.TableError) as info:
        capsa.settle(seats, stakes=stake)
    assert str(info.value) == f"the stake must be in 0..{2**63 - 1}, got {stake}"
    with pytest.raises(capsa.TableError) as info:
        capsa.settle(seats, stakes=[[0, stake], [stake, 0]])
    assert str(info.value) == f"stakes[0][1] must be in 0..{2**63 - 1}, got {stake}"


@pytest.mark.parametrize(
    ("a", "b", "which"),
    [("As Ks", "2d 3d 4d", "first"), ("As Ks Qs", "2d 3d 4d 5d", "second")],
)
def test_compare_names_the_hand_of_the_wrong_size(a: str, b: str, which: str) -> None:
    with pytest.raises(capsa.HandError) as info:
        capsa.compare(a, b)
    got = len((a if which == "first" else b).split())
    assert str(info.value) == f"the {which} hand needs 3 or 5 cards, got {got}"


@pytest.mark.parametrize(
    "shape", [(0,), (3, 4), (3, 4, 13, 1), (3, 1, 13), (3, 5, 13), (0, 0, 0), (3, 4, 0)]
)
def test_batch_any_shape_raises_typed(shape: tuple[int, ...]) -> None:
    with pytest.raises(capsa.TableError, match="shape"):
        capsa.settle_batch(np.zeros(shape, dtype=np.uint8))


def test_batch_out_of_range_names_row_seat_column() -> None:
    cards = _tables().astype(np.int32)
    cards[2, 1, 7] = 300
    with pytest.raises(capsa.CardError, match="row 2, seat 1, column 7: card id 300") as info:
        capsa.settle_batch(cards)
    assert info.value.seat == 1


def test_batch_of_zero_tables() -> None:
    out = capsa.settle_batch(np.zeros((0, 3, 13), dtype=np.int64))
    assert out.points.shape == (0, 3) and out.points.dtype == np.int64 and out.errors == []


# 5. Seat and Arrangement


def test_seat_refuses_a_seat_and_non_bool_flags() -> None:
    arrangement = _arrangements()[0]
    with pytest.raises(TypeError, match="not a Seat"):
        capsa.Seat(capsa.Seat(arrangement))  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="surrender must be true or false"):
        capsa.Seat(arrangement, surrender=1)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="declare_natural must be true or false"):
        capsa.Seat(arrangement, declare_natural=np.True_)  # type: ignore[arg-type]


def test_arrangement_row_refuses_an_arrangement() -> None:
    arrangement = _arrangements()[0]
    with pytest.raises(TypeError, match="Arrangement"):
        capsa.Arrangement(arrangement, "2d 3d 4d 5d 6d", "7d 8d 9d Td Jd")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="already an Arrangement"):
        capsa.Arrangement.from_ids(arrangement)  # type: ignore[arg-type]


def test_settle_refuses_a_single_seat_or_text() -> None:
    arrangement = _arrangements()[0]
    for seats in [arrangement, capsa.Seat(arrangement), "As Kd", {0: arrangement}]:
        with pytest.raises(TypeError, match="seats must be a list"):
            capsa.settle(seats)  # type: ignore[arg-type]
