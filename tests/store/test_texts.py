"""capsa.store and the texts it is given: where a table's chain starts, a
byte-order mark, U+0000 inside strings; each test run on both backends."""

from __future__ import annotations

from typing import Any

import pytest
from store_records import digest_of, make_chain, played, rewritten

import capsa.store
from capsa.records import read_record


def test_a_tables_first_record_starts_its_chain(store: capsa.store.Store) -> None:
    chain = make_chain("t", 4)
    # a log taken up in its middle is refused: its first record must start it
    with pytest.raises(capsa.store.ChainError) as refused:
        store.append(chain[1])
    assert (refused.value.round_id, refused.value.expected) == ("t/r1", None)
    with pytest.raises(capsa.store.ChainError):
        store.append_many(chain[1:])
    assert store.tables() == [] and list(store.rounds()) == []
    # a first row that does not start its chain (its first record deleted
    # behind the store's back) is what verify names
    store.append_many(chain)
    [seq] = store._execute("SELECT seq FROM capsa_records WHERE round_id = 't/r0'").fetchone()
    store._execute("DELETE FROM capsa_seats WHERE seq = ?", (seq,))
    store._execute("DELETE FROM capsa_records WHERE seq = ?", (seq,))
    store._execute("UPDATE capsa_tables SET rounds = 3")
    report = store.verify()
    assert [(p.table_id, p.round_id, p.fields) for p in report.problems] == [
        ("t", "t/r1", ("previous_digest",))
    ]
    assert report.records == 3


def _round_with(field: str, text: str) -> str:
    """A table's first record with ``text`` as the field named: ``table_id``,
    ``round_id``, ``player_id``, ``player_name``, ``meta`` (a note) or
    ``played_at``. capsa.Round refuses U+0000 in every one of them: the
    record is written with another text and edited (an older writer's)."""
    rnd = capsa.Round(
        seats=4,
        round_id="r0",
        nonce=0,
        table_id=f"nul-{field}",
        players=[{"id": "p0", "name": "Ana"}, "p1", "p2", "p3"],
        server_seed=bytes(32),
        meta={"note": "-"} if field == "meta" else {"played_at": "-"},
    )

    def edit(data: dict[str, Any]) -> None:
        if field in ("table_id", "round_id"):
            data[field] = text
        elif field.startswith("player_"):
            data["seats"][0]["player"][field.removeprefix("player_")] = text
        else:
            data["meta"]["note" if field == "meta" else field] = text

    return rewritten(played(rnd), edit)


NUL = "a\u0000b"


@pytest.mark.parametrize("field", ["meta", "player_name", "played_at"])
def test_nul_in_a_text_of_an_older_record_is_stored_byte_for_byte(
    store: capsa.store.Store, field: str
) -> None:
    text = _round_with(field, NUL)
    assert "\\u0000" in text  # JSON writes it escaped
    assert store.append(text) is True
    assert store.append(text) is False
    view = read_record(text)
    got = store.get(view.table_id, "r0")
    assert got is not None and got.text == text and got.digest == digest_of(text)
    data = got.record()
    kept = {
        "meta": data["meta"].get("note"),
        "player_name": data["seats"][0]["player"]["name"],
        "played_at": data["meta"].get("played_at"),
    }
    assert kept[field] == NUL
    assert store.verify().ok
    if field == "player_name":
        assert read_record(got.text).players[0] == ("p0", NUL)
        assert store.ledger("p0") == store.ledger().balances["p0"]
    if field == "played_at":
        assert got.played_at == "a\ufffdb"
        assert [s.day for s in store.stats()] == [None]


@pytest.mark.parametrize(
    ("field", "named"),
    [
        ("table_id", "table_id"),
        ("round_id", "round_id"),
        ("player_id", "seats[0].player.id"),
    ],
)
def test_nul_in_a_key_is_refused_by_name(store: capsa.store.Store, field: str, named: str) -> None:
    # the record reader refuses it, so that no record it reads is one a
    # store cannot key
    text = _round_with(field, NUL)
    first = make_chain("kept", 1)[0]
    for attempt in (lambda: store.append(text), lambda: store.append_many([first, text])):
        with pytest.raises(capsa.RecordError) as refused:
            attempt()
        assert refused.value.field == named and named in str(refused.value)
    assert store.tables() == [] and list(store.rounds()) == []  # nothing half-written
    assert store.append(first) and store.verify().ok


def test_a_byte_order_mark_is_left_out_as_the_readers_do(store: capsa.store.Store) -> None:
    chain = make_chain("bom", 3)
    marked = "\ufeff" + chain[0]
    assert read_record(marked).digest == digest_of(chain[0])  # the readers take it
    assert store.append(marked) is True
    assert store.append(chain[0]) is False  # the same record
    assert store.append(marked.encode("utf-8")) is False
    assert store.append_many(["\ufeff" + chain[1], ("\ufeff" + chain[2]).encode()]) == [True, True]
    assert [r.text for r in store.rounds()] == chain  # stored without the mark
    assert store.verify().ok


def test_lookups_by_ids_no_record_can_have(store: capsa.store.Store) -> None:
    store.append_many(make_chain("t", 2))
    # U+0000, which no stored id holds (and PostgreSQL text cannot carry):
    # nothing is found, as for any id the store does not hold
    assert store.get("t\0", "t/r0") is None and store.get("t", "t/r0\0") is None
    assert list(store.rounds("t\0")) == [] and list(store.rounds(player="t-p0\0")) == []
    assert store.ledger("shared\0") == 0 and store.pending("t\0") is None
    with pytest.raises(capsa.store.StoreError, match="holds no table"):
        store.verify("t\0")
    # a lone surrogate is no text at all: named, never a UnicodeEncodeError
    for call in (
        lambda: store.get("t\ud800", "t/r0"),
        lambda: store.get("t", "t/r0\udc00"),
        lambda: list(store.rounds("\ud800")),
        lambda: list(store.rounds(player="\ud800")),
        lambda: store.ledger("\ud800"),
        lambda: store.pending("\ud800"),
        lambda: store.verify("\ud800"),
    ):
        with pytest.raises(capsa.ArgumentError, match="not valid Unicode"):
            call()
    with pytest.raises(TypeError, match="round_id must be a str"):
        store.get("t", 3)  # type: ignore[arg-type]
    # the lookups still find what is there
    assert store.get("t", "t/r1") is not None
    ledger = store.ledger()
    assert isinstance(ledger, capsa.Ledger)
    assert store.ledger("shared") == ledger.balances["shared"]
    assert len(list(store.rounds("t", player="shared"))) == 2
