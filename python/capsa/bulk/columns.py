"""The columns of rounds and results tables (``docs/bulk.md``): their names,
their Arrow schemas, and a rounds table built from numpy arrays.
``MAX_SEATS`` is 8, the most seats of any deck's table, and
``DEFAULT_SEATS`` 4, the 52-card deck's, the width of a table unless told;
``CARD_COLUMNS``, ``SURRENDER_COLUMNS`` and ``DECLARE_COLUMNS`` name one
column per seat (``AUTO_COLUMNS`` too: an
optional rounds column, whether the server arranged the seat); ``FIGURES``
are the per-seat figures of a result (points, money, rake, net) and
``OUTCOMES`` the per-seat outcome columns that follow them (fouled,
natural, scoops, swept, surrendered, auto). ``ECHOED_COLUMNS`` are the
optional columns of a round's table, time and players (``table_id``,
``played_at``, ``player0`` ..) that a results table carries as given,
after ``id``.

:mod:`capsa.bulk` settles tables of this layout and re-exports every name
here. Needs ``pyarrow`` (``pip install 'capsa[parquet]'``) for the schemas
and tables; importing this module does not.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from capsa import _core
from capsa._core import TableError

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt
    import pyarrow as pa

__all__ = [
    "AUTO_COLUMNS",
    "BANKER_COLUMN",
    "CARD_COLUMNS",
    "DECLARE_COLUMNS",
    "DEFAULT_SEATS",
    "ECHOED_COLUMNS",
    "FIGURES",
    "KERNEL_OUTCOMES",
    "LAST_CARD_ID",
    "MAX_SEATS",
    "MULTIPLIER_COLUMNS",
    "OUTCOMES",
    "PLAYER_COLUMNS",
    "SURRENDER_COLUMNS",
    "echoed_fields",
    "outcome_arrays",
    "outcome_fields",
    "outcome_values",
    "pyarrow_module",
    "results_schema",
    "rounds_schema",
    "rounds_table",
]

#: The most seats of a table: two decks with jokers seat eight.
MAX_SEATS = 8
#: The seats of a table unless told: the most the 52-card deck seats.
DEFAULT_SEATS = 4
CARD_COLUMNS = tuple(f"cards{s}" for s in range(MAX_SEATS))
SURRENDER_COLUMNS = tuple(f"surrender{s}" for s in range(MAX_SEATS))
DECLARE_COLUMNS = tuple(f"declare_natural{s}" for s in range(MAX_SEATS))
AUTO_COLUMNS = tuple(f"auto{s}" for s in range(MAX_SEATS))
PLAYER_COLUMNS = tuple(f"player{s}" for s in range(MAX_SEATS))
#: A banker game's columns: the banker's seat, each seat's multiplier.
BANKER_COLUMN = "banker"
MULTIPLIER_COLUMNS = tuple(f"multiplier{s}" for s in range(MAX_SEATS))
#: Optional columns of a rounds table that its results carry as given,
#: after ``id``: the round's table, when it was played (a UTC timestamp in
#: milliseconds) and each seat's player, as a table of round records has
#: them.
ECHOED_COLUMNS = ("table_id", "played_at", *PLAYER_COLUMNS)
FIGURES = ("points", "money", "rake", "net")
#: Per seat, after the figures and ``error``: settled as fouled, the
#: declared natural it was settled with (its name, or null), how many
#: opponents it won all three rows against (scoops), whether it swept all,
#: settled as surrendered, and whether the server arranged it (null when
#: the rounds do not say). docs/rules.md defines each.
OUTCOMES = ("fouled", "natural", "scoops", "swept", "surrendered", "auto")
#: The last card id of any deck, the red joker's; the rules of a round say
#: which ids it deals, as
#: docs/rules.md, "Decks: added suits, two decks and jokers" has them.
LAST_CARD_ID = 105


def pyarrow_module() -> Any:
    """pyarrow, or an ImportError saying how to install it."""
    try:
        import pyarrow
    except ImportError as exc:  # pragma: no cover - the test extra installs it
        raise ImportError("columnar rounds need pyarrow: pip install 'capsa[parquet]'") from exc
    return pyarrow


def rounds_schema(seats: int = DEFAULT_SEATS, id_type: pa.DataType | None = None) -> pa.Schema:
    """The canonical rounds schema of a table of ``seats`` (2 to 8)."""
    pa = pyarrow_module()
    _check_seats(seats)
    fields = [
        pa.field("id", id_type or pa.string()),
        pa.field("rules", pa.string()),
        pa.field("stakes", pa.int64()),
    ]
    fields += [pa.field(CARD_COLUMNS[s], pa.binary(13)) for s in range(seats)]
    fields += [pa.field(SURRENDER_COLUMNS[s], pa.bool_()) for s in range(seats)]
    fields += [pa.field(DECLARE_COLUMNS[s], pa.bool_()) for s in range(seats)]
    return pa.schema(fields)


def results_schema(
    seats: int = DEFAULT_SEATS,
    id_type: pa.DataType | None = None,
    *,
    echoed: Sequence[pa.Field] = (),
) -> pa.Schema:
    """The results schema for rounds of up to ``seats`` seats; without
    ``id_type`` it has no ``id`` column (the rounds had none). ``echoed``
    are the fields of the rounds' ``ECHOED_COLUMNS`` it carries after it
    (as the rounds have them; :func:`echoed_fields` gives them in their own
    types)."""
    pa = pyarrow_module()
    _check_seats(seats)
    fields = [pa.field("id", id_type)] if id_type is not None else []
    fields += echoed
    fields.append(pa.field("seats", pa.int8()))
    for figure in FIGURES:
        fields += [pa.field(f"{figure}{s}", pa.int64()) for s in range(seats)]
    fields.append(pa.field("error", pa.string()))
    fields += outcome_fields(seats)
    return pa.schema(fields)


def echoed_fields(seats: int = DEFAULT_SEATS) -> list[pa.Field]:
    """The ``ECHOED_COLUMNS`` of ``seats`` seats in their own types:
    ``table_id`` and each ``player{s}`` text, ``played_at`` a timestamp in
    milliseconds, UTC."""
    pa = pyarrow_module()
    _check_seats(seats)
    return [
        pa.field("table_id", pa.string()),
        pa.field("played_at", pa.timestamp("ms", tz="UTC")),
        *(pa.field(PLAYER_COLUMNS[s], pa.string()) for s in range(seats)),
    ]


def outcome_fields(seats: int = DEFAULT_SEATS) -> list[pa.Field]:
    """The outcome columns (``OUTCOMES``) of ``seats`` seats, outcome by
    outcome, as the results schema ends with them."""
    pa = pyarrow_module()
    _check_seats(seats)
    types = {
        "fouled": pa.bool_(),
        "natural": pa.string(),
        "scoops": pa.int8(),
        "swept": pa.bool_(),
        "surrendered": pa.bool_(),
        "auto": pa.bool_(),
    }
    return [pa.field(f"{name}{s}", types[name]) for name in OUTCOMES for s in range(seats)]


#: The outcomes the kernel settles (``_core.settle_rounds``): every one of
#: ``OUTCOMES`` but ``auto``, an input.
KERNEL_OUTCOMES = OUTCOMES[:-1]


def outcome_arrays(
    outcomes: npt.NDArray[np.uint8], has: Sequence[npt.NDArray[np.bool_]]
) -> list[pa.Array]:
    """The outcome columns of the kernel's outcomes (uint8 (5, seats, N),
    as ``capsa._core.settle_rounds`` gives them), ``KERNEL_OUTCOMES`` seat
    by seat, in their results types: null where ``has[s]`` (bool (N,), one
    a seat) is false."""
    pa = pyarrow_module()
    import numpy as np

    seats = outcomes.shape[1]
    names = pa.array([None, *_core.NATURAL_NAMES], pa.string())
    masks = [None if has[s].all() else ~has[s] for s in range(seats)]
    arrays: list[Any] = []
    for o, outcome in enumerate(KERNEL_OUTCOMES):
        for s in range(seats):
            values = outcomes[o, s]
            if outcome == "natural":
                taken = np.where(has[s], values, 0) if masks[s] is not None else values
                arrays.append(names.take(pa.array(taken, pa.uint8())))
            elif outcome == "scoops":
                arrays.append(pa.array(values.astype(np.int8), pa.int8(), mask=masks[s]))
            else:
                arrays.append(pa.array(values.astype(bool), pa.bool_(), mask=masks[s]))
    return arrays


def outcome_values(settlement: Mapping[str, Any]) -> dict[str, list[Any]]:
    """Each seat's outcomes (every one of ``OUTCOMES`` but ``auto``) of a
    settlement as ``Settlement.to_dict()`` (and ``capsa settle``) writes it:
    the values the results columns hold, one per seat."""
    seats = settlement["seats"]
    scoops = [0] * len(seats)
    for pair in settlement["pairs"]:
        # int(): a reader may keep JSON numbers as their text
        scoop = int(pair["scoop"])
        if pair["outcome"] == "rows" and scoop:
            i, j = (int(k) for k in pair["seats"])
            scoops[i if scoop > 0 else j] += 1
    return {
        "fouled": [bool(seat["foul"]) for seat in seats],
        "natural": [seat["natural"] for seat in seats],
        "scoops": scoops,
        "swept": [bool(seat["swept_all"]) for seat in seats],
        "surrendered": [bool(seat["surrender"]) for seat in seats],
    }


def _check_seats(seats: int) -> None:
    if isinstance(seats, bool) or not isinstance(seats, int):
        raise TypeError(f"seats must be an int, not {type(seats).__name__}")
    if not 2 <= seats <= MAX_SEATS:
        raise TableError(f"a table has 2 to {MAX_SEATS} seats, got {seats}")


def rounds_table(
    cards: npt.NDArray[np.integer[Any]],
    *,
    ids: Any = None,
    rules: str | None = None,
    stakes: int | npt.NDArray[np.integer[Any]] | None = None,
    surrender: npt.NDArray[np.bool_] | None = None,
    declare_natural: npt.NDArray[np.bool_] | None = None,
) -> pa.Table:
    """A rounds table in the canonical schema from an (N, P, 13) array of
    card ids (as :func:`capsa.settle_batch` takes them: P from 2 to 8, ids
    0..105, which the rules of each round check when it is settled);
    ``ids`` is any sequence Arrow can read (default: the row numbers),
    ``rules`` one name for every round, ``stakes`` one stake or one per
    round, the flags (N, P) bool arrays."""
    import numpy as np  # here, so that reading rounds and records does not load numpy

    pa = pyarrow_module()
    arr = np.asarray(cards)
    if arr.ndim != 3 or arr.shape[2] != 13 or not 2 <= arr.shape[1] <= MAX_SEATS:
        raise TableError(
            f"cards must have shape (N, P, 13) with P from 2 to {MAX_SEATS}, got {arr.shape}"
        )
    if arr.size and (arr.min() < 0 or arr.max() > LAST_CARD_ID):
        raise _core.CardError(f"cards: every card id must be in 0..{LAST_CARD_ID}")
    n, p = arr.shape[:2]
    ids8 = np.ascontiguousarray(arr, dtype=np.uint8)
    columns: dict[str, Any] = {"id": pa.array(np.arange(n) if ids is None else ids)}
    columns["rules"] = (
        pa.array([rules] * n, pa.string()) if rules is not None else pa.nulls(n, pa.string())
    )
    if stakes is None:
        columns["stakes"] = pa.nulls(n, pa.int64())
    else:
        columns["stakes"] = pa.array(np.broadcast_to(np.asarray(stakes, np.int64), (n,)))
    for s in range(p):
        data = pa.py_buffer(np.ascontiguousarray(ids8[:, s, :]).tobytes())
        columns[CARD_COLUMNS[s]] = pa.FixedSizeBinaryArray.from_buffers(
            pa.binary(13), n, [None, data]
        )
    for names, flags, default in (
        (SURRENDER_COLUMNS, surrender, False),
        (DECLARE_COLUMNS, declare_natural, True),
    ):
        values = np.full((n, p), default) if flags is None else np.asarray(flags, dtype=bool)
        if values.shape != (n, p):
            raise TableError(f"flags must have shape ({n}, {p}), got {values.shape}")
        for s in range(p):
            columns[names[s]] = pa.array(values[:, s])
    return pa.table(columns, schema=rounds_schema(p, columns["id"].type))
