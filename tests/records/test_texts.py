"""One validity rule for the ids and texts a round holds (``capsa.ids``,
``docs/records.md``, "Ids and texts"), so that no value is accepted by one
layer and refused by the next: whatever ``Round`` accepts, the settled
round's record is read back, replayed, booked by a ``Ledger`` (saved and
loaded too) and stored by ``capsa.store``; whatever it refuses is an
``ArgumentError`` or ``TypeError`` naming the field. Texts are drawn with
controls, U+0000, lone surrogates and lengths at the bounds; the rule is
written out here (``_accepted``) and Round must decide as it does."""

from __future__ import annotations

import hashlib
import json
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from store_records import rewritten

import capsa
import capsa.ids
import capsa.store
from capsa.cli import main
from capsa.records import read_record

KEY = hashlib.sha256(b"test_texts key").digest()
PLAYERS = ["p0", "p1", "p2", "p3"]
SPECIAL = ["\x00", "\x01", "\t", "\n", "\x1f", "\x7f", "\x80", "\x9f", "\u2028", "\ud800", "\udfff"]
SPECIAL += ["\ufeff", "\uffff", "é", "€", "😀", '"', "\\", " "]


def _sized(unit: str, size: int) -> str:
    """The most ``unit``s that fit in ``size`` bytes of UTF-8."""
    return unit * (size // len(unit.encode("utf-8", "surrogatepass")))


TEXTS = st.one_of(
    st.text(st.one_of(st.characters(), st.sampled_from(SPECIAL)), max_size=40),
    # lengths at the bounds: 64, 256 and 1024 bytes and one more
    st.builds(
        lambda unit, size, extra: _sized(unit, size) + extra,
        st.sampled_from(["x", "é", "€", "😀", "\x01", "\x00"]),
        st.sampled_from([0, 1, 63, 64, 65, 255, 256, 257, 1023, 1024, 1025]),
        st.sampled_from(["", "x", "\x00", "\ud800"]),
    ),
)
NOT_TEXT = st.sampled_from([7, True, 1.5, b"x", ["p"], None])

FIELDS = ("table_id", "round_id", "player_id", "player_name", "meta_key", "meta_text")


def _utf8(text: str) -> bytes | None:
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:
        return None


def _accepted(field: str, value: object, seat: int) -> bool:
    """The rule, written out: whether a writer takes ``value`` as ``field``."""
    if value is None and field in ("table_id", "player_name", "meta_text"):
        return True  # no table id, no name, a note of null
    if field == "meta_text" and isinstance(value, int):
        return -(2**63) <= value < 2**64  # a note of a 64-bit integer or a boolean
    if not isinstance(value, str):
        return False
    data = _utf8(value)
    if data is None:
        return False
    if field in ("table_id", "round_id", "player_id"):
        if field == "player_id" and value in PLAYERS[:seat] + PLAYERS[seat + 1 :]:
            return False  # a player holds one seat
        return 1 <= len(data) <= 256 and not any(c < " " or c == "\x7f" for c in value)
    if field == "player_name":
        return 1 <= len(data) <= 256 and "\x00" not in value
    if field == "meta_key":
        return 1 <= len(data) <= 64 and "\x00" not in value
    return len(data) <= 1024 and "\x00" not in value  # a note's text


def _named(field: str, seat: int) -> str:
    return {
        "table_id": "table_id",
        "round_id": "round_id",
        "player_id": f"players[{seat}].id",
        "player_name": f"players[{seat}].name",
        "meta_key": "meta",
        "meta_text": "meta[",
    }[field]


def _arguments(field: str, value: object, seat: int) -> dict[str, Any]:
    players: list[Any] = list(PLAYERS)
    if field == "player_id":
        players[seat] = {"id": value, "name": None}
    elif field == "player_name":
        players[seat] = {"id": PLAYERS[seat], "name": value}
    meta: dict[Any, Any] = {"played_at": "2026-01-01T00:00:00Z"}
    if field == "meta_key":
        meta = {value: "v"}
    elif field == "meta_text":
        meta["note"] = value
    return {
        "table_id": value if field == "table_id" else "t",
        "round_id": value if field == "round_id" else "t/1",
        "players": players,
        "meta": meta,
    }


def _played(rnd: capsa.Round) -> str:
    for seat, hand in enumerate(rnd.deal()):
        rnd.submit(seat, hand)
    rnd.close()
    rnd.settle()
    return rnd.record_json()


def _check_everywhere(rnd: capsa.Round) -> None:
    """The round's state, its record read, replayed, booked (saved and
    loaded) and stored, each with the texts as given."""
    state = json.loads(json.dumps(rnd.to_dict(key=KEY)))
    again = capsa.Round.from_dict(state, key=KEY, table_id=rnd.table_id, round_id=rnd.round_id)
    assert again.players == rnd.players
    text = _played(rnd)
    view = read_record(text)
    assert (view.table_id, view.round_id) == (rnd.table_id, rnd.round_id)
    assert [p for p, _ in view.players] == [p["id"] for p in rnd.players]
    assert capsa.replay(text) == view.digest
    ledger = capsa.Ledger()
    ledger.add(text)
    loaded = capsa.Ledger.from_dict(json.loads(json.dumps(ledger.to_dict(key=KEY))), key=KEY)
    assert loaded.balances == ledger.balances and loaded.names == ledger.names
    with tempfile.TemporaryDirectory() as tmp, capsa.store.open(f"sqlite:///{tmp}/t.db") as store:
        assert store.append(text) is True
        stored = store.get(rnd.table_id, rnd.round_id)
        assert stored is not None and stored.text == text
        assert store.verify().ok


@given(
    field=st.sampled_from(FIELDS),
    value=st.one_of(TEXTS, TEXTS, NOT_TEXT),
    seat=st.integers(0, 3),
)
def test_what_round_accepts_every_layer_takes_and_what_it_refuses_is_named(
    field: str, value: object, seat: int
) -> None:
    assume(field != "meta_key" or not isinstance(value, list))  # a dict key is hashable
    arguments = _arguments(field, value, seat)
    try:
        rnd = capsa.Round(None, 4, 1, server_seed=bytes(32), **arguments)
    except (capsa.ArgumentError, TypeError) as exc:
        assert not _accepted(field, value, seat), exc
        assert _named(field, seat) in str(exc), exc
        return
    assert _accepted(field, value, seat)
    _check_everywhere(rnd)


@given(value=st.one_of(TEXTS, NOT_TEXT))
def test_capsa_ids_decides_as_round_does(value: object) -> None:
    for check, field in (
        (capsa.ids.check_table_id, "table_id"),
        (capsa.ids.check_round_id, "round_id"),
        (capsa.ids.check_player_id, "player_id"),
        (capsa.ids.check_player_name, "player_name"),
    ):
        ok = _accepted(field, value, 4) and (value is not None or field == "player_name")
        if ok:
            assert check(value) == value
            continue
        with pytest.raises((capsa.ArgumentError, TypeError)) as refused:
            check(value, "the field")
        assert "the field" in str(refused.value)


def test_a_lone_surrogate_is_named_in_every_field_never_a_unicode_error() -> None:
    for field in FIELDS:
        with pytest.raises(capsa.ArgumentError, match="lone surrogate") as refused:
            capsa.Round(None, 4, 1, **_arguments(field, "a\ud800", 1))
        assert _named(field, 1) in str(refused.value)
    with pytest.raises(capsa.ArgumentError, match="lone surrogate"):
        capsa.Ledger(previous_digest={"t\udfff": None})


def test_the_largest_record_fits_and_every_reader_takes_it() -> None:
    """Every text at its bound, written as the most bytes of JSON it can
    be (a control character is six: ``\\u0001``): the record is well under
    the mebibyte a reader takes."""
    worst_id = _sized('"', 256)  # two bytes of JSON each, no control
    names = _sized("\x01", 256)
    rules = capsa.Rules().derive(
        name=_sized("\x01", capsa._core.MAX_RULES_NAME_BYTES),
        description=_sized("\x01", capsa._core.MAX_RULES_DESCRIPTION_BYTES),
    )
    meta = {f"{k:02d}" + _sized("\x01", 62): _sized("\x01", 1024) for k in range(32)}
    rnd = capsa.Round(
        rules,
        4,
        1,
        round_id=worst_id,
        table_id=worst_id[:-1] + "t",
        players=[{"id": worst_id[:-1] + str(k), "name": names} for k in range(4)],
        meta=meta,
        server_seed=bytes(32),
    )
    for seat in range(4):
        rnd.add_client_seed(seat, _sized("\x01", capsa._core.MAX_CLIENT_SEED_BYTES))
    text = _played(rnd)
    assert len(text.encode()) < capsa._core.MAX_RECORD_BYTES // 2
    assert capsa.replay(text) == read_record(text).digest
    capsa.Ledger().add(text)
    with tempfile.TemporaryDirectory() as tmp, capsa.store.open(f"sqlite:///{tmp}/t.db") as store:
        assert store.append(text) is True


def test_a_rules_description_over_its_bound_is_refused_where_the_rules_are_made() -> None:
    # over a megabyte, it made records that replay, the ledger and the store refused
    with pytest.raises(capsa.RulesError, match="description is at most 16384 bytes"):
        capsa.Rules().derive(description="x" * 1_100_000)
    with pytest.raises(capsa.RulesError, match="name is at most 256 bytes"):
        capsa.Rules.from_dict({**capsa.Rules().to_dict(), "name": "n" * 257})


def test_an_older_records_control_characters_in_its_ids_are_still_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """What capsa wrote before the rule (an id holding a tab or a newline)
    is read, replayed, booked, stored and verified against its published
    commitment, as when it was written: only U+0000 is refused."""
    rnd = capsa.Round(None, 2, 1, round_id="r1", table_id="t", server_seed=bytes(32))
    text = rewritten(
        _played(rnd),
        lambda data: (
            data.update(table_id="t\n1", round_id="r\t1"),
            data["seats"][0]["player"].update(id="p\x1f0"),
        ),
    )
    view = read_record(text)
    assert (view.table_id, view.round_id, view.players[0][0]) == ("t\n1", "r\t1", "p\x1f0")
    assert capsa.replay(text) == view.digest
    ledger = capsa.Ledger()
    ledger.add(text)
    assert capsa.Ledger.from_dict(ledger.to_dict(key=KEY), key=KEY).balances == ledger.balances
    with capsa.store.open(f"sqlite:///{tmp_path}/t.db") as store:
        assert store.append(text) is True and store.verify().ok
    log, published = tmp_path / "log.jsonl", tmp_path / "commitments.jsonl"
    log.write_text(text + "\n", encoding="utf-8")
    line = {"table_id": "t\n1", "round_id": "r\t1", "commitment": view.commitment}
    published.write_text(json.dumps(line) + "\n", encoding="utf-8")
    assert main(["verify", "--commitments", str(published), str(log)]) == 0, capsys.readouterr()
    # a writer refuses them
    with pytest.raises(capsa.ArgumentError, match="which an id cannot hold"):
        capsa.Round(None, 2, 1, round_id="r\t1")
