"""Property tests of the Python API boundary: any object in, a correct answer
or a typed error (CapsaError or TypeError) out, never anything else."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import capsa
from capsa import _core

TYPED = (capsa.CapsaError, TypeError)

numpy_scalars = st.one_of(
    hnp.from_dtype(np.dtype(d))
    for d in ["i1", "u1", "i2", "u2", ">i4", "u4", "i8", ">u8", "f4", "f8", "?", "c8"]
)
atoms = st.one_of(
    st.integers(),
    st.booleans(),
    st.floats(allow_nan=True),
    st.text(max_size=8),
    st.sampled_from(["As", "2d", "10h", "7\u2663", "A\ud800", "\udcff", "5", "As Kd"]),
    st.binary(max_size=6),
    st.none(),
    numpy_scalars,
    st.integers(0, 51).map(capsa.Card),
)
card_objects = st.recursive(
    atoms,
    lambda inner: st.one_of(
        st.lists(inner, max_size=14),
        st.lists(inner, max_size=14).map(tuple),
        st.dictionaries(st.integers(0, 51), inner, max_size=5),
        st.sets(st.integers(0, 51), max_size=6),
        st.frozensets(st.integers(0, 51), max_size=6),
    ),
    max_leaves=20,
)


def _plain_id(x: Any) -> int | None:
    """The id `x` stands for when it is a valid card id or Card, else None."""
    if isinstance(x, capsa.Card):
        return x.id
    if isinstance(x, bool | np.bool_) or not isinstance(x, int | np.integer):
        return None
    return int(x) if 0 <= int(x) < 52 else None


def _typed_or(call: Callable[[], Any]) -> Any:
    try:
        return call()
    except TYPED:
        return None


@given(card_objects)
def test_card_inputs_answer_or_raise_typed(obj: Any) -> None:
    for call in (
        lambda: capsa.evaluate(obj),
        lambda: capsa.Card(obj),
        lambda: _core.card_ids(obj),
        lambda: capsa.Arrangement.from_ids(obj),
        lambda: capsa.Arrangement(obj, obj, obj),
    ):
        _typed_or(call)


@given(st.lists(atoms, min_size=3, max_size=5))
def test_evaluate_is_right_when_every_item_is_an_id(items: list[Any]) -> None:
    ids = [_plain_id(x) for x in items]
    result = _typed_or(lambda: capsa.evaluate(items))
    plain = [i for i in ids if i is not None]
    if len(plain) == len(items) and len(set(plain)) == len(plain) and len(plain) in (3, 5):
        assert result is not None and result == capsa.evaluate(plain)
    elif any(isinstance(x, bool | float | np.bool_ | np.floating) for x in items):
        assert result is None


@given(st.lists(card_objects, max_size=5), st.one_of(st.none(), atoms))
def test_settle_answers_or_raises_typed(seats: list[Any], stakes: Any) -> None:
    _typed_or(lambda: capsa.settle(seats, stakes=stakes))


def _arrays(widths: tuple[int, ...]) -> st.SearchStrategy[Any]:
    """Arrays of every dtype and many shapes, some sliced, byte-swapped or read-only."""
    dtypes = st.one_of(
        hnp.integer_dtypes(endianness="="),
        hnp.integer_dtypes(endianness="<"),
        hnp.integer_dtypes(endianness=">"),
        hnp.unsigned_integer_dtypes(endianness="?"),
        hnp.floating_dtypes(),
        hnp.complex_number_dtypes(),
        hnp.boolean_dtypes(),
        hnp.byte_string_dtypes(max_len=2),
        hnp.unicode_string_dtypes(max_len=2),
    )
    shapes = st.one_of(
        st.tuples(st.integers(0, 5), st.sampled_from(widths)),
        hnp.array_shapes(min_dims=0, max_dims=4, min_side=0, max_side=14),
    )

    @st.composite
    def build(draw: st.DrawFn) -> Any:
        dtype = draw(dtypes)
        shape = draw(shapes)
        in_range = dtype.kind in "iu" and draw(st.booleans())
        elements = st.integers(0, 51) if in_range else None
        arr = draw(hnp.arrays(dtype, shape, elements=elements))
        if arr.ndim >= 2 and draw(st.booleans()):
            wide = np.zeros((*arr.shape[:-1], 2 * arr.shape[-1]), dtype=arr.dtype)
            wide[..., ::2] = arr
            arr = wide[..., ::2]
        if draw(st.booleans()):
            arr.flags.writeable = False
        return arr

    return build()


def _reference(arr: Any) -> npt.NDArray[np.uint8] | None:
    """The same ids as a C-contiguous uint8 array, when it is an integer array of ids."""
    if not isinstance(arr, np.ndarray) or arr.dtype.kind not in "iu":
        return None
    if arr.size and (arr.min() < 0 or arr.max() > 51):
        return None
    return np.ascontiguousarray(arr, dtype=np.uint8)


BATCHES: list[tuple[Callable[[Any], Any], tuple[int, ...]]] = [
    (capsa.evaluate_batch, (3, 5)),
    (capsa.count_splits_batch, (13,)),
    (capsa.naturals_batch, (13,)),
    (lambda a: capsa.best_arrangement_batch(a, strategy="greedy"), (13,)),
]


def _outcome(call: Callable[[], Any]) -> Any:
    try:
        return ("ok", call())
    except (capsa.CapsaError, TypeError) as exc:
        return ("error", type(exc))


def _same(a: Any, b: Any) -> bool:
    if a[0] != b[0]:
        return False
    if a[0] == "error":
        return bool(a[1] is b[1])
    if isinstance(a[1], tuple):
        return all(_same(("ok", x), ("ok", y)) for x, y in zip(a[1], b[1], strict=True))
    if isinstance(a[1], np.ndarray):
        return a[1].dtype == b[1].dtype and np.array_equal(a[1], b[1])
    return bool(a[1] == b[1])


@pytest.mark.parametrize("index", range(len(BATCHES)))
@given(data=st.data())
def test_batch_arrays_equal_the_uint8_result(index: int, data: st.DataObject) -> None:
    call, widths = BATCHES[index]
    arr = data.draw(_arrays(widths))
    got = _outcome(lambda: call(arr))
    reference = _reference(arr)
    if reference is not None:
        assert _same(got, _outcome(lambda: call(reference)))
    elif arr.dtype.kind not in "iu":
        assert got == ("error", TypeError)
    else:
        assert got[0] == "error" and issubclass(got[1], capsa.CapsaError)


@given(data=st.data())
def test_settle_batch_arrays_equal_the_uint8_result(data: st.DataObject) -> None:
    dtype = data.draw(
        st.one_of(hnp.integer_dtypes(endianness="?"), hnp.unsigned_integer_dtypes(endianness="?"))
    )
    n, p = data.draw(st.integers(0, 4)), data.draw(st.integers(1, 5))
    ids = data.draw(hnp.arrays(dtype, (n, p, 13), elements=st.integers(0, 51)))
    if data.draw(st.booleans()):
        ids = ids[::-1]
    got = _outcome(lambda: capsa.settle_batch(ids))
    assert _same(got, _outcome(lambda: capsa.settle_batch(np.ascontiguousarray(ids, np.uint8))))
    if not 2 <= p <= 4:
        assert got == ("error", capsa.TableError)


@given(_arrays((13,)))
def test_settle_batch_any_array_answers_or_raises_typed(arr: Any) -> None:
    _typed_or(lambda: capsa.settle_batch(arr))
