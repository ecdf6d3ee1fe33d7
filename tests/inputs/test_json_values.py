"""The engine's JSON values without Python's json module: the canonical
text of Python data is what json.dumps writes with sorted keys and no
spaces, and the Python value of canonical text is what json.loads reads;
replay of a record given as a dict takes the engine's path when it can and
json's otherwise, with the same outcome."""

from __future__ import annotations

import hashlib
import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import capsa
from capsa import _core


def settled_record() -> dict[str, Any]:
    rnd = capsa.Round(
        capsa.Rules(), 4, 100, round_id="json/1", server_seed=hashlib.sha256(b"j").digest()
    )
    rnd.deal(["a", "b", "c", '\u00e9\n"q"'])
    rnd.close()
    rnd.settle()
    return rnd.record()


def test_canonical_text_and_values_agree_with_json() -> None:
    record = settled_record()
    text = json.dumps(record, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    assert _core.canonical_json_of(record) == text
    assert _core.json_value(text) == json.loads(text)
    assert list(_core.json_value(text)) == list(json.loads(text))
    assert _core.canonical_json_of({"b": (1, -(2**63)), "a": [None, True, 2**64 - 1]}) == (
        '{"a":[null,true,18446744073709551615],"b":[1,-9223372036854775808]}'
    )


@pytest.mark.parametrize(
    ("value", "why"),
    [
        (1.5, "a float is not JSON data"),
        (2**64, "an integer beyond 64 bits"),
        ({1: 2}, "a key of type int"),
    ],
)
def test_what_is_not_json_data_is_refused(value: object, why: str) -> None:
    with pytest.raises(ValueError, match=why):
        _core.canonical_json_of({"x": value})


def test_a_record_dict_replays_by_either_path() -> None:
    record = settled_record()
    assert capsa.replay(record) == record["digest"]
    # an int key is json's to write (as "1"), and the record then has an unknown key
    with pytest.raises(capsa.RecordError) as by_json:
        capsa.replay({**record, 1: 2})
    with pytest.raises(capsa.RecordError) as by_text:
        capsa.replay(json.dumps({**record, 1: 2}))
    assert str(by_json.value) == str(by_text.value)
    with pytest.raises(capsa.RecordError, match=r"not JSON data"):
        capsa.replay({**record, "meta": {"x": float("nan")}})


def _pairs(value: Any) -> Any:
    """Every dict as its list of (key, value) pairs: comparing compares the
    keys' order too."""
    if isinstance(value, dict):
        return [(k, _pairs(v)) for k, v in value.items()]
    if isinstance(value, list):
        return [_pairs(v) for v in value]
    return value


@settings(max_examples=300, deadline=None)
@given(st.lists(st.dictionaries(st.text(max_size=40), st.integers(-3, 3), max_size=30), max_size=6))
def test_object_keys_of_any_text_come_back_as_written(objects: list[dict[str, int]]) -> None:
    # the engine keeps the str of each key it has read between calls: a key
    # must come back as itself whatever was read before it
    for obj in objects:
        text = json.dumps({"outer": obj, **obj}, ensure_ascii=False)
        assert _pairs(_core.json_value(text)) == _pairs(json.loads(text))


def test_keys_that_share_their_ends_or_outgrow_the_kept_ones() -> None:
    # keys over 16 bytes alike in length and in their first and last 8
    # bytes, short keys of every length, and more distinct keys than are kept
    alike = [f"abcdefgh{middle}stuvwxyz" for middle in ("", "1", "2", "12", "21", "\u00e9")]
    short = ["", "a", "ab", "abcdefg", "abcdefgh", "abcdefghi", "abcdefghijklmnop"]
    many = [f"key-{k}" for k in range(1_500)]
    for keys in (alike, short, many, alike + short, list(reversed(many))):
        obj = {key: k for k, key in enumerate(keys)}
        text = json.dumps(obj, ensure_ascii=False)
        for _ in range(2):
            assert _pairs(_core.json_value(text)) == _pairs(json.loads(text))
