"""A banker game's columns of a rounds table: ``banker``, the banker's seat
(null: no banker), and ``multiplier0`` .. ``multiplier3``, each seat's stake
multiplier (null: 1), read into the arrays the batch kernel takes. Whether
the rules allow them is the kernel's check, round by round."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from capsa.bulk.columns import BANKER_COLUMN, MULTIPLIER_COLUMNS, pyarrow_module

if TYPE_CHECKING:
    import pyarrow as pa

__all__ = ["Roles", "group_roles", "read_roles"]

Roles = tuple[npt.NDArray[np.int64] | None, npt.NDArray[np.int64] | None]
"""Each round's banker seat (-1: none) and each seat's multiplier, or None
for a table without the columns."""

_INT64_MAX = np.iinfo(np.int64).max


def _int_column(
    table: pa.Table, name: str, default: int, refuse: Callable[[npt.NDArray[np.intp], str], None]
) -> npt.NDArray[np.int64] | None:
    """An integer column as int64 (null: ``default``), or None when absent;
    ``refuse`` marks the rows whose value is past 64 bits."""
    pa = pyarrow_module()
    if name not in table.column_names:
        return None
    array = table.column(name).combine_chunks()
    if not pa.types.is_integer(array.type):
        raise TypeError(f"{name} must be an integer column, not {array.type}")
    values = array.fill_null(default).to_numpy(zero_copy_only=False)
    if values.dtype == np.uint64:
        past = np.flatnonzero(values > _INT64_MAX)
        refuse(past, f"TableError: {name} holds a value past 64-bit integers")
        values = np.where(values > _INT64_MAX, default, values)
    return np.asarray(values, dtype=np.int64)


def read_roles(
    table: pa.Table, seats: int, refuse: Callable[[npt.NDArray[np.intp], str], None]
) -> Roles:
    """The rounds' banker and multipliers; ``refuse(rows, reason)`` marks the
    rows that cannot be settled (a value past 64 bits, a negative banker).
    Raises ``TypeError`` for a column that
    is not of integers."""
    banker = _int_column(table, BANKER_COLUMN, -1, refuse)
    if banker is not None:
        off = np.flatnonzero(banker < -1)
        refuse(off, f"TableError: {BANKER_COLUMN} must be a seat, in 0..{seats - 1}")
        banker = np.where(banker < -1, -1, banker)
    columns = [_int_column(table, MULTIPLIER_COLUMNS[s], 1, refuse) for s in range(seats)]
    if all(c is None for c in columns):
        return banker, None
    ones = np.ones(table.num_rows, dtype=np.int64)
    multipliers = np.stack([ones if c is None else c for c in columns], axis=1)
    return banker, multipliers


def group_roles(
    roles: Roles,
    rows: slice | npt.NDArray[np.intp],
    seats: int,
    refuse: Callable[[npt.NDArray[np.intp], str], None],
) -> dict[str, npt.NDArray[np.int64]]:
    """The banker and multipliers of a group of rounds of ``seats`` seats, as
    keywords of the kernel (none when no round of the group names them);
    ``refuse`` marks the rounds whose banker is not one of their seats."""
    banker, multipliers = roles
    out: dict[str, npt.NDArray[np.int64]] = {}
    if banker is not None:
        group = banker[rows]
        off = group >= seats
        if np.any(off):
            index = np.arange(len(banker))[rows][off]
            refuse(index, f"TableError: {BANKER_COLUMN} must be a seat, in 0..{seats - 1}")
        if np.any(group >= 0):
            out["banker"] = np.ascontiguousarray(np.where(off, -1, group))
    if multipliers is not None:
        group = multipliers[rows, :seats]
        if np.any(group != 1):
            out["multipliers"] = np.ascontiguousarray(group)
    return out
