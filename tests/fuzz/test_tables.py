"""Solver tables from untrusted bytes: whatever the bytes, the engine either
accepts them as tables that then arrange hands validly, or refuses them with
a RulesError; never a panic (``PanicException`` is a ``BaseException``, so
every call here catches ``BaseException``).

The inputs are mutations of the shipped tables (bit flips, truncations,
insertions, header edits, edits of the rows' and the joint section's
varints) and random bytes."""

from __future__ import annotations

import struct
from collections.abc import Callable

import pytest
from hypothesis import event, given
from hypothesis import strategies as st

from capsa import Arrangement, Rules, RulesError
from capsa.solver import best_arrangement, load_tables, rank_arrangements, tables_info
from strategies import hands

MAGIC = b"CAPSATB1"
ROW_NAMES = ["top", "middle", "bottom"]
PRESET_NAMES = ["capsa-susun", "pagat", "mau-binh"]
SHIPPED = {name: load_tables(name) or b"" for name in PRESET_NAMES}

Meta = list[tuple[str, str]]
Rows = list[list[tuple[int, int]]]


def put_varint(v: int) -> bytes:
    """``v`` (0 <= v < 2**64) as the tables' LEB128 varint."""
    out = bytearray()
    while True:
        low, v = v & 0x7F, v >> 7
        if v == 0:
            out.append(low)
            return bytes(out)
        out.append(low | 0x80)


def get_varints(data: bytes) -> list[int]:
    """Every varint of well-formed ``data``."""
    values, v, shift = [], 0, 0
    for b in data:
        v |= (b & 0x7F) << shift
        shift += 7
        if not b & 0x80:
            values.append(v)
            v, shift = 0, 0
    return values


def split_tables(data: bytes) -> tuple[Meta, bytes]:
    """A well-formed file's header lines and the bytes of its rows."""
    (n,) = struct.unpack("<I", data[8:12])
    lines = data[12 : 12 + n].decode().splitlines()
    meta = [(k, v) for k, _, v in (line.partition("=") for line in lines)]
    return meta, data[12 + n :]


def join_header(header: bytes, body: bytes) -> bytes:
    return MAGIC + struct.pack("<I", len(header)) + header + body


def join_tables(meta: Meta, body: bytes) -> bytes:
    """A file of these header lines and row bytes."""
    return join_header("".join(f"{k}={v}\n" for k, v in meta).encode(), body)


def decode_all(data: bytes) -> tuple[Meta, Rows, list[int]]:
    """A well-formed file's header lines, rows of (class, weight) and the
    varints of its joint section (empty when it has none)."""
    meta, body = split_tables(data)
    values = get_varints(body)
    rows: Rows = []
    at = 0
    for _ in range(3):
        row, cls = [], 0
        count, at = values[at], at + 1
        for _ in range(count):
            cls += values[at]
            row.append((cls, values[at + 1]))
            at += 2
        rows.append(row)
    return meta, rows, values[at:]


def decode_tables(data: bytes) -> tuple[Meta, Rows]:
    """A well-formed file's header lines and rows of (class, weight)."""
    meta, rows, _ = decode_all(data)
    return meta, rows


def encode_rows(rows: Rows) -> bytes:
    out = bytearray()
    for row in rows:
        out += put_varint(len(row))
        prev = 0
        for cls, weight in row:
            out += put_varint(cls - prev) + put_varint(weight)
            prev = cls
    return bytes(out)


def encode_tables(meta: Meta, rows: Rows, joint: list[int] | None = None) -> bytes:
    """A file of these header lines, rows and joint section (none if None)."""
    tail = b"".join(put_varint(v) for v in joint or [])
    return join_tables(meta, encode_rows(rows) + tail)


# ------------------------------------------------------------------ mutations


@st.composite
def bit_flips(draw: st.DrawFn, data: bytes) -> bytes:
    out = bytearray(data)
    for _ in range(draw(st.integers(1, 4))):
        pos = draw(st.integers(0, len(out) - 1))
        out[pos] ^= 1 << draw(st.integers(0, 7))
    return bytes(out)


@st.composite
def truncations(draw: st.DrawFn, data: bytes) -> bytes:
    return data[: draw(st.integers(0, len(data) - 1))]


@st.composite
def insertions(draw: st.DrawFn, data: bytes) -> bytes:
    pos = draw(st.integers(0, len(data)))
    return data[:pos] + draw(st.binary(min_size=1, max_size=12)) + data[pos:]


KEYS = [
    "format",
    "preset",
    "seats",
    "hands",
    "iterations",
    "seed",
    "scoop_rate",
    "wheel",
    "flush_compare",
    "tie_break",
    "row_points",
    "royalty_mode",
    "royalty_adds",
    "scoop_multiplier",
    "sweep_all_min_players",
    "royalties",
]
ODD_VALUES = [
    "inf",
    "-inf",
    "nan",
    "-0.5",
    "1.5",
    "1e400",
    "",
    "0",
    "-1",
    "5",
    "99999999999999999999",
    "second",
    "suit-first",
    "x\nscoop_rate=inf",
    "0,0,0,5,0,0,0,0,0,0",
    ",".join(["0"] * 30),
    ",".join(["1"] * 30),
]


@st.composite
def header_edits(draw: st.DrawFn, data: bytes) -> bytes:
    meta, body = split_tables(data)
    key = draw(st.sampled_from([*KEYS, "colour", "scoop_rate ", ""]))
    value = draw(st.one_of(st.sampled_from(ODD_VALUES), st.text(max_size=20)))
    op = draw(st.sampled_from(["set", "drop", "add", "duplicate", "raw"]))
    if op == "set":
        meta = [(k, value if k == key else v) for k, v in meta]
    elif op == "drop":
        meta = [(k, v) for k, v in meta if k != key]
    elif op == "add":
        meta.insert(draw(st.integers(0, len(meta))), (key, value))
    elif op == "duplicate":
        meta.append(draw(st.sampled_from(meta)))
    else:  # header bytes that need not be key=value lines or UTF-8
        return join_header(draw(st.binary(max_size=64)), body)
    return join_tables(meta, body)


@st.composite
def varint_edits(draw: st.DrawFn, data: bytes) -> bytes:
    """The rows' varints with some replaced, inserted or removed."""
    meta, body = split_tables(data)
    values = get_varints(body)
    big = st.integers(0, 2**64 - 1)
    for _ in range(draw(st.integers(1, 3))):
        pos = draw(st.integers(0, len(values) - 1))
        op = draw(st.sampled_from(["set", "small", "insert", "remove"]))
        if op == "set":
            values[pos] = draw(big)
        elif op == "small":
            values[pos] = draw(st.integers(0, 1 << 20))
        elif op == "insert":
            values.insert(pos, draw(big))
        else:
            del values[pos]
    return join_tables(meta, b"".join(put_varint(v) for v in values))


@st.composite
def random_rows(draw: st.DrawFn, data: bytes) -> bytes:
    """A real header with rows of random (class, weight) entries around the
    real classes' range (category bits up to 15)."""
    meta, _ = split_tables(data)
    rows = [
        sorted(
            draw(
                st.dictionaries(
                    st.integers(0, (16 << 18) - 1), st.integers(0, 2**64 - 1), max_size=6
                )
            ).items()
        )
        for _ in range(3)
    ]
    return encode_tables(meta, rows)


@st.composite
def weight_edits(draw: st.DrawFn, data: bytes) -> bytes:
    """Real classes with some weights set anywhere in 0..2**64-1 and some
    entries dropped (mostly still valid tables, which must then work)."""
    meta, rows = decode_tables(data)
    for row in rows:
        for _ in range(draw(st.integers(0, 3))):
            pos = draw(st.integers(0, len(row) - 1))
            row[pos] = (row[pos][0], draw(st.integers(0, 2**64 - 1)))
        keep = draw(st.integers(0, len(row)))
        if draw(st.booleans()):
            del row[keep:]
    return encode_tables(meta, rows)


@st.composite
def joint_edits(draw: st.DrawFn, data: bytes) -> bytes:
    """The joint section's bins or cell counts set anywhere in 0..2**64-1
    or to small values, or cells dropped (then refused: bins^3 cells)."""
    meta, rows, joint = decode_all(data)
    for _ in range(draw(st.integers(1, 3))):
        pos = draw(st.integers(0, len(joint) - 1))
        choice = draw(st.integers(0, 2))
        if choice == 0:
            joint[pos] = draw(st.integers(0, 2**64 - 1))
        elif choice == 1:
            joint[pos] = draw(st.integers(0, 300))
        elif len(joint) > 1:
            del joint[pos]
    return encode_tables(meta, rows, joint)


MUTATIONS: list[Callable[[bytes], st.SearchStrategy[bytes]]] = [
    joint_edits,
    weight_edits,
    bit_flips,
    truncations,
    insertions,
    header_edits,
    varint_edits,
    random_rows,
]


def mutated_tables() -> st.SearchStrategy[bytes]:
    shipped = st.sampled_from(list(SHIPPED.values()))
    mutated = st.tuples(shipped, st.sampled_from(MUTATIONS)).flatmap(lambda t: t[1](t[0]))
    random = st.one_of(st.binary(max_size=300), st.binary(max_size=300).map(MAGIC.__add__))
    return st.one_of(mutated, random)


# ------------------------------------------------------------------ property


def _refused_or_usable(data: bytes, cards: list[int], rules: Rules) -> None:
    try:
        info = tables_info(rules, data)
    except RulesError as exc:
        assert str(exc).startswith("solver tables: "), str(exc)
        event("refused")
        return
    except BaseException as exc:  # a PanicException is not an Exception
        pytest.fail(f"tables_info raised {type(exc).__name__}: {exc}")
    event("accepted")
    assert len(info["classes"]) == 3 and min(info["classes"]) >= 1
    # rank classes mean other hands under another wheel or flush_compare
    knobs = rules.to_dict()
    other = [k for k in ("wheel", "flush_compare") if info[k] != knobs[k]]
    if other:
        with pytest.raises(RulesError, match=f"^solver tables: trained for {other[0]} = "):
            best_arrangement(cards, rules, tables=data)
        event("another ranking")
        return
    try:
        best = best_arrangement(cards, rules, tables=data)
        ranked = rank_arrangements(cards, rules, 3, tables=data)
    except BaseException as exc:
        pytest.fail(f"validated tables failed in the solver: {type(exc).__name__}: {exc}")
    assert sorted(best.ids) == sorted(cards)
    assert not best.arrangement.is_foul(rules)
    assert 1 <= len(ranked) <= 3
    for choice in ranked:
        assert not choice.arrangement.is_foul(rules)
        assert isinstance(choice.arrangement, Arrangement)


@given(
    data=mutated_tables(),
    cards=hands(13),
    preset=st.sampled_from(["capsa-susun", "pagat", "mau-binh", "hawaiian-gardens"]),
)
def test_mutated_tables_are_refused_or_usable(data: bytes, cards: list[int], preset: str) -> None:
    _refused_or_usable(data, cards, Rules.preset(preset))


@given(
    meta_rows=st.sampled_from(list(SHIPPED.values())).map(decode_tables),
    row=st.integers(0, 2),
    category=st.integers(0, 15),
    key=st.integers(0, (1 << 18) - 1),
    cards=hands(13),
)
def test_tables_with_any_class_are_refused_or_usable(
    meta_rows: tuple[Meta, Rows], row: int, category: int, key: int, cards: list[int]
) -> None:
    """One entry replaced by an arbitrary class (any category bits): only a
    real rank class of the row's hand size may pass."""
    meta, rows = meta_rows
    rows = [list(r) for r in rows]
    pos = len(rows[row]) // 2
    cls = category << 18 | key
    rows[row][pos] = (cls, rows[row][pos][1])
    rows[row].sort()
    if len({c for c, _ in rows[row]}) < len(rows[row]):
        return  # the class was already there; the deltas would repeat it
    data = encode_tables(meta, rows)
    if category not in ((0, 1, 3) if row == 0 else range(10)):
        with pytest.raises(RulesError, match=f"row {ROW_NAMES[row]}: entry"):
            tables_info(None, data)
    _refused_or_usable(data, cards, Rules.preset("capsa-susun"))


def test_codec_reproduces_the_shipped_files() -> None:
    for data in SHIPPED.values():
        meta, rows, joint = decode_all(data)
        assert encode_tables(meta, rows, joint) == data
        # bins, then bins^3 cell counts
        assert len(joint) == 1 + joint[0] ** 3
