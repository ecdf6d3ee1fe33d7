"""Pending rounds and records set aside in capsa.store, on SQLite and
PostgreSQL."""

from __future__ import annotations

import hashlib
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from postgres_cluster import new_database, shared_cluster
from store_records import digest_of, make_chain, played

import capsa
import capsa.store
from capsa.store import (
    ChainError,
    DuplicateRoundError,
    NulCharacterError,
    Opening,
    PendingRoundError,
)


@pytest.fixture(params=["sqlite", "postgresql"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[capsa.store.Store]:
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path}/records.db"
    else:
        url = new_database(shared_cluster())
    with capsa.store.open(url) as opened:
        yield opened


def _round(
    k: int, previous: str | None, seed: str = "", round_id: str | None = None
) -> capsa.Round:
    """Round ``k`` of table ``p`` (round id ``p/r{k}``, nonce ``k``)."""
    return capsa.Round(
        seats=4,
        round_id=round_id or f"p/r{k}",
        nonce=k,
        previous_digest=previous,
        table_id="p",
        players=["ana", "ben", "cai", "dee"],
        server_seed=hashlib.sha256(f"p {k} {seed}".encode()).digest(),
    )


def _opening(rnd: capsa.Round) -> Opening:
    return Opening("p", rnd.round_id, rnd.nonce, rnd.commitment, rnd.previous_digest)


def test_a_round_is_pending_until_its_record_is_stored(store: capsa.store.Store) -> None:
    first = _round(0, None)
    before = int(time.time() * 1000)
    store.open_round(_opening(first))
    pending = store.pending("p")
    assert pending is not None and pending.same_round(_opening(first))
    assert pending.opened_ms is not None and before - 5_000 < pending.opened_ms < before + 5_000
    store.open_round(_opening(first))  # opened again (a write tried again): nothing changes
    assert store.pending("p") == pending
    assert store.pending("other") is None
    [table] = store.tables()
    assert (table.table_id, table.rounds, table.last_digest) == ("p", 0, None)
    record = played(first)
    assert store.append(record) and store.pending("p") is None
    # the next round opened with the record before it, in one transaction
    second = _round(1, digest_of(record))
    assert store.append_many([], openings=[_opening(second)]) == []
    third = _round(2, digest_of(played(second)))
    assert store.append_many([second.record_json()], openings=[_opening(third)]) == [True]
    assert store.pending("p") == Opening(
        "p", "p/r2", 2, third.commitment, second.record()["digest"], store.pending("p").opened_ms
    )
    # the same transaction again, as after a commit whose answer was lost
    assert store.append_many([second.record_json()], openings=[_opening(third)]) == [False]
    assert store.append(played(third)) and store.pending("p") is None
    assert store.verify().ok and store.tables()[0].rounds == 3


def test_what_a_pending_round_refuses(store: capsa.store.Store) -> None:
    first = _round(0, None)
    store.open_round(_opening(first))
    with pytest.raises(PendingRoundError, match="'p/r0' pending") as caught:
        store.open_round(_opening(_round(0, None, round_id="p/other")))
    assert (caught.value.round_id, caught.value.pending) == ("p/other", "p/r0")
    with pytest.raises(PendingRoundError, match="'p/r0' pending"):
        store.append(played(_round(7, None, round_id="p/skip")))  # another round's record
    with pytest.raises(PendingRoundError, match="commitment"):
        store.append(played(_round(0, None, seed="dealt again")))  # same id, another deal
    assert store.tables()[0].rounds == 0
    record = played(first)
    wrong_link = Opening("p", "p/r1", 1, "ab" * 32, "not the head")
    with pytest.raises(ChainError) as chained:
        store.append_many([record], openings=[wrong_link])
    assert chained.value.expected == digest_of(record)
    assert store.tables()[0].rounds == 0 and store.pending("p") == store.pending("p")
    assert store.pending("p") is not None  # all or nothing: the record is not stored either
    assert store.append(record)
    head = digest_of(record)
    with pytest.raises(DuplicateRoundError) as duplicate:
        store.open_round(Opening("p", "p/r0", 9, "ab" * 32, head))
    assert duplicate.value.field == "round_id"
    with pytest.raises(DuplicateRoundError) as duplicate:
        store.open_round(Opening("p", "p/new", 0, "ab" * 32, head))
    assert duplicate.value.field == "deal.nonce"
    assert store.pending("p") is None and store.verify().ok


@pytest.mark.parametrize(
    ("make", "error"),
    [
        (lambda: Opening("p", "p/r", True, "ab", None), TypeError),
        (lambda: Opening("p", "p/r", -1, "ab", None), capsa.ArgumentError),
        (lambda: Opening("p", 5, 1, "ab", None), TypeError),
        (lambda: Opening("p", "p/\0", 1, "ab", None), NulCharacterError),
        (lambda: Opening("p\0", "p/r", 1, "ab", None), NulCharacterError),
        (lambda: Opening("p", "p/r", 1, "ab", None, opened_ms=1.0), TypeError),
    ],
)
def test_an_opening_is_typed(make: object, error: type[Exception]) -> None:
    with pytest.raises(error):
        make()  # type: ignore[operator]


def test_openings_must_be_openings(store: capsa.store.Store) -> None:
    with pytest.raises(TypeError, match=r"capsa\.store\.Opening"):
        store.append_many([], openings=[("p", "p/r0")])  # type: ignore[list-item]


def test_records_set_aside_are_kept_byte_for_byte(store: capsa.store.Store) -> None:
    not_utf8 = b'\xff\xfe{"round_id": "\xe9t\xe9"}\x00'
    big = '{"meta":"' + "\u00e9" * (1024 * 1024 - 6) + 'x"}'  # 2 MiB of UTF-8
    assert len(big.encode()) == 2 * 1024 * 1024
    surrogate = '{"player": "\ud800"}'
    chain = make_chain("aside", 1)
    before = int(time.time() * 1000)
    first = store.set_aside(not_utf8, "RecordError: not UTF-8")
    second = store.set_aside(big, "RecordError: over 1 MiB", table_id="aside", round_id="r1")
    third = store.set_aside(surrogate, "bad\0reason", table_id="t\ud800", round_id="r\0")
    fourth = store.set_aside(chain[0].encode(), "ChainError", table_id="aside")
    assert first < second < third < fourth
    # kept once: the same bytes, reason, table and round give the first's number
    assert store.set_aside(bytearray(not_utf8), "RecordError: not UTF-8") == first
    assert store.set_aside(chain[0], "ChainError", table_id="aside") == fourth
    fifth = store.set_aside(chain[0], "ChainError", table_id="aside", round_id="aside/r0")
    assert fifth > fourth
    kept = store.set_aside_records()
    assert [k.seq for k in kept] == [first, second, third, fourth, fifth]
    assert kept[0].record == not_utf8 and kept[0].table_id is None
    assert kept[1].record == big.encode() and (kept[1].table_id, kept[1].round_id) == (
        "aside",
        "r1",
    )
    assert kept[2].record == surrogate.encode("utf-8", "surrogatepass")
    assert (kept[2].table_id, kept[2].round_id, kept[2].reason) == (
        "t\ufffd",
        "r\ufffd",
        "bad\ufffdreason",
    )
    assert kept[3].record == chain[0].encode() and kept[3].reason == "ChainError"
    assert all(before - 5_000 < k.set_aside_ms < before + 60_000 for k in kept)
    assert store.tables() == []  # nothing of it is a stored record


@pytest.mark.parametrize(
    "call",
    [
        lambda s: s.set_aside(12, "why"),
        lambda s: s.set_aside("{}", None),
        lambda s: s.set_aside("{}", "why", table_id=3),
        lambda s: s.set_aside("{}", "why", round_id=b"r"),
    ],
)
def test_set_aside_arguments_are_typed(store: capsa.store.Store, call: object) -> None:
    with pytest.raises(TypeError):
        call(store)  # type: ignore[operator]


def test_a_transaction_reads_the_pending_round(store: capsa.store.Store) -> None:
    first = _round(0, None)
    store.open_round(_opening(first))
    seen = store._write(lambda tx: (tx.pending_round("p"), tx.pending_round("q")))
    assert seen == (store.pending("p"), None)
