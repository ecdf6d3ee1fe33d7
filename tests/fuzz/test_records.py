"""Fuzzing the record reader and the round state reader from Python: any
bytes, any JSON value put anywhere in a real record, any edit of its text.
The answer is a typed error (RecordError, ReplayError; TypeError for a
wrong Python type) or, for a record left as it was, its digest. A record
that changed is never accepted."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import capsa
from capsa.records import RecordError, ReplayError
from capsa.round.state import MAC_FIELD, seal

GOLDEN = [
    json.loads(line)
    for line in (Path(__file__).parents[1] / "golden" / "records-1.jsonl").read_text().splitlines()
]
LINES = [json.dumps(r, sort_keys=True, separators=(",", ":"), ensure_ascii=False) for r in GOLDEN]

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=False)
    | st.text(max_size=30),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)


def paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every path into a JSON value (keys and indices)."""
    found = [prefix]
    if isinstance(value, dict):
        for key, item in value.items():
            found += paths(item, (*prefix, key))
    elif isinstance(value, list):
        for k, item in enumerate(value):
            found += paths(item, (*prefix, k))
    return found


PATHS = [paths(r)[1:] for r in GOLDEN]  # not the record itself


def replaced(record: Any, path: tuple[Any, ...], value: Any) -> Any:
    if not path:
        return value
    record = copy.deepcopy(record)
    at = record
    for part in path[:-1]:
        at = at[part]
    at[path[-1]] = value
    return record


def outcome(record: Any) -> str | Exception:
    try:
        return capsa.replay(record)
    except (RecordError, ReplayError) as exc:
        assert str(exc)
        return exc


@given(data=st.binary(max_size=300))
def test_any_bytes(data: bytes) -> None:
    result = outcome(data)
    assert isinstance(result, RecordError)
    with pytest.raises(RecordError):
        capsa.verify_deal(data)


@given(which=st.integers(0, len(GOLDEN) - 1), pick=st.integers(0, 10**6), value=json_values)
def test_any_value_anywhere_in_a_record(which: int, pick: int, value: Any) -> None:
    record = GOLDEN[which]
    path = PATHS[which][pick % len(PATHS[which])]
    changed = replaced(record, path, value)
    result = outcome(changed)
    same = json.dumps(changed, sort_keys=True) == json.dumps(record, sort_keys=True)
    if same:
        assert result == record["digest"]
    else:
        assert isinstance(result, Exception), (path, value)
    if isinstance(result, ReplayError):
        assert result.fields
    if isinstance(result, RecordError) and path and isinstance(changed, dict):
        assert isinstance(result.field, str)


def same_outcome(a: str | Exception, b: str | Exception) -> bool:
    if isinstance(a, str) or isinstance(b, str):
        return a == b
    return (type(a), str(a), getattr(a, "field", None), getattr(a, "fields", None)) == (
        type(b),
        str(b),
        getattr(b, "field", None),
        getattr(b, "fields", None),
    )


@given(which=st.integers(0, len(GOLDEN) - 1), pick=st.integers(0, 10**6), value=json_values)
def test_a_record_given_as_a_dict_reads_as_its_text(which: int, pick: int, value: Any) -> None:
    """The dict is read without being written as text first; what is read,
    refused or replayed is what its text gives, members in any order."""
    path = PATHS[which][pick % len(PATHS[which])]
    changed = replaced(GOLDEN[which], path, value)
    reordered = dict(reversed(changed.items()))
    for record in (changed, reordered):
        try:
            text = json.dumps(record, ensure_ascii=False, allow_nan=False)
        except ValueError:  # NaN or infinity: no text to compare with
            assert "not JSON data" in str(outcome(record))
            continue
        assert same_outcome(outcome(record), outcome(text)), (path, value)


@given(
    which=st.integers(0, len(GOLDEN) - 1),
    at=st.integers(0, 10**6),
    cut=st.integers(0, 8),
    insert=st.binary(max_size=8),
)
def test_any_edit_of_the_text(which: int, at: int, cut: int, insert: bytes) -> None:
    line = LINES[which].encode()
    k = at % (len(line) + 1)
    edited = line[:k] + insert + line[k + cut :]
    result = outcome(edited)
    if edited == line:
        assert result == GOLDEN[which]["digest"]
    elif isinstance(result, str):
        # only an edit that changes no value of the record replays: JSON
        # whitespace, or an escape written another way
        assert json.loads(edited) == GOLDEN[which]


@given(value=json_values)
def test_any_json_value_as_a_record(value: Any) -> None:
    try:
        capsa.replay(value if isinstance(value, dict) else json.dumps(value))
    except (RecordError, ReplayError):
        pass
    else:  # pragma: no cover - a made-up value is never a record
        raise AssertionError(value)


KEY = bytes(range(32))


def round_state() -> dict[str, Any]:
    rnd = capsa.Round(capsa.Rules.preset("2-4"), 3, round_id="fuzz", server_seed=bytes(32))
    rnd.deal(["a", "b", "c"])
    rnd.submit(0, capsa.splits(rnd.hands[0])[-1].tolist())
    return rnd.to_dict(key=KEY)


STATE = round_state()
STATE_PATHS = paths(STATE)[1:]


def fields_of(state: dict[str, Any]) -> str:
    return json.dumps({k: v for k, v in state.items() if k != MAC_FIELD}, sort_keys=True)


def resealed(state: dict[str, Any]) -> dict[str, Any]:
    """The state sealed again under the key, as if the server wrote it."""
    fields = {k: v for k, v in state.items() if k != MAC_FIELD}
    return seal(fields, KEY)


@given(pick=st.integers(0, 10**6), value=json_values)
def test_any_value_anywhere_in_a_round_state(pick: int, value: Any) -> None:
    path = STATE_PATHS[pick % len(STATE_PATHS)]
    changed = replaced(STATE, path, value)
    try:
        capsa.Round.from_dict(changed, key=KEY)
    except capsa.RoundError as exc:
        assert str(exc)
    else:  # only the same values keep the MAC (the fields' MACs only name a change)
        assert fields_of(changed) == fields_of(STATE)
    # sealed again under the key, every invariant is still checked
    try:
        restored = capsa.Round.from_dict(resealed(changed), key=KEY)
    except (capsa.CapsaError, TypeError) as exc:
        assert str(exc)
        return
    # accepted: the state is one a round can be in, and it round-trips
    again = capsa.Round.from_dict(restored.to_dict(key=KEY), key=KEY)
    assert again.to_dict(key=KEY) == restored.to_dict(key=KEY)
