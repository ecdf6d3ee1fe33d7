"""Verify covers the whole store: every record, seat row and head, whatever
an editor of the database left out; with the store key each head's MAC;
against checkpoints each chain's first rounds. Each test on SQLite and on
PostgreSQL."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
from store_records import digest_of, make_chain, make_round

import capsa
import capsa.store
from capsa.records import canonical_json, record_digest
from capsa.store import Checkpoint, CheckpointError, HeadMACError, StoreError

KEY = bytes(range(32))
Chains = dict[str, list[str]]


@pytest.fixture(scope="module")
def chains() -> Chains:
    return {t: make_chain(t, 6) for t in ("t0", "t1")}


@pytest.fixture
def keyed(url: str) -> Iterator[capsa.store.Store]:
    with capsa.store.open(url, key=KEY) as opened:
        yield opened


def _sql(store: capsa.store.Store, sql: str, params: tuple[object, ...] = ()) -> Any:
    return store._execute(sql, params)  # an edit behind the store's back


def _seq(store: capsa.store.Store, round_id: str) -> int:
    return int(
        _sql(store, "SELECT seq FROM capsa_records WHERE round_id = ?", (round_id,)).fetchone()[0]
    )


def _delete_record(store: capsa.store.Store, round_id: str) -> None:
    seq = _seq(store, round_id)
    _sql(store, "DELETE FROM capsa_seats WHERE seq = ?", (seq,))
    _sql(store, "DELETE FROM capsa_records WHERE seq = ?", (seq,))


def _set_head(store: capsa.store.Store, table: str, rounds: int, digest: str | None) -> None:
    _sql(
        store,
        "UPDATE capsa_tables SET rounds = ?, last_digest = ? WHERE table_key = ?",
        (rounds, digest, table),
    )


def _head(store: capsa.store.Store, table: str) -> tuple[Any, ...]:
    return tuple(
        _sql(
            store,
            "SELECT rounds, last_digest, head_mac FROM capsa_tables WHERE table_key = ?",
            (table,),
        ).fetchone()
    )


def _kinds(
    report: capsa.store.VerifyReport,
) -> list[tuple[str, str | None, str | None, tuple[str, ...]]]:
    return [(p.kind, p.table_id, p.round_id, p.fields) for p in report.problems]


def _rewrite_tail(store: capsa.store.Store, chain: list[str], start: int) -> str:
    """Rewrites the chain's records from ``start`` on coherently, as an
    editor of the database who knows the record format would: the winner
    of round ``start`` becomes ``mallory``, every digest and link after it
    recomputed, the rows, seats and head set to match. Returns the new last
    digest."""
    previous = digest_of(chain[start - 1]) if start else None
    for k in range(start, len(chain)):
        data = json.loads(chain[k])
        if k == start:
            winner = max(range(len(data["seats"])), key=lambda s: data["settlement"]["net"][s])
            data["seats"][winner]["player"]["id"] = "mallory"
            _sql(
                store,
                "UPDATE capsa_seats SET player_id = 'mallory' WHERE seq = ? AND seat = ?",
                (_seq(store, data["round_id"]), winner),
            )
        data["previous_digest"] = previous
        data["digest"] = record_digest(data)
        text = canonical_json(data)
        _sql(
            store,
            "UPDATE capsa_records SET record = ?, digest = ?, previous_digest = ?"
            " WHERE round_id = ?",
            (text, data["digest"], previous, data["round_id"]),
        )
        previous = data["digest"]
    assert previous is not None
    return previous


# -- heads -------------------------------------------------------------------


def test_deleted_heads_leave_every_record_checked(store: capsa.store.Store, chains: Chains) -> None:
    store.append_many(chains["t0"])
    store.append_many(chains["t1"])
    data = json.loads(chains["t0"][2])
    data["seats"][1]["arrangement"] = data["seats"][2]["arrangement"]
    _sql(
        store,
        "UPDATE capsa_records SET record = ? WHERE round_id = 't0/r2'",
        (canonical_json(data),),
    )
    _sql(store, "DELETE FROM capsa_tables")
    report = store.verify()
    assert (report.records, report.tables, report.seats) == (12, 2, 48)
    assert ("record", "t0", "t0/r2") in [k[:3] for k in _kinds(report)]
    assert ("head", "t0", None, ("head",)) in _kinds(report)
    assert ("head", "t1", None, ("head",)) in _kinds(report)
    assert "no head row" in str(report.problems[-1])


def test_a_head_of_no_records_and_a_table_the_store_does_not_hold(
    store: capsa.store.Store, chains: Chains
) -> None:
    store.append_many(chains["t0"])
    # a head with rounds and no record, and one of a table that holds nothing yet
    _sql(
        store,
        "INSERT INTO capsa_tables VALUES ('ghost', ?, 3, NULL)",
        (digest_of(chains["t1"][2]),),
    )
    _sql(store, "INSERT INTO capsa_tables VALUES ('empty', NULL, 0, NULL)")
    report = store.verify()
    assert _kinds(report) == [("head", "ghost", None, ("last_digest", "rounds"))]
    assert "holds no record of the table" in report.problems[0].message
    assert report.tables == 3 and report.records == 6
    assert store.verify("empty").ok
    with pytest.raises(StoreError, match="holds no table 'typo'"):
        store.verify("typo")
    with pytest.raises(StoreError, match="holds no table None"):
        store.verify(None)  # the table of no id: none stored


def test_records_without_their_head_and_a_head_behind(
    store: capsa.store.Store, chains: Chains
) -> None:
    store.append_many(chains["t0"])
    store.append_many(chains["t1"])
    _sql(store, "DELETE FROM capsa_tables WHERE table_key = 't1'")
    _set_head(store, "t0", 5, digest_of(chains["t0"][4]))
    report = store.verify()
    assert _kinds(report) == [
        ("head", "t0", None, ("last_digest", "rounds")),
        ("head", "t1", None, ("head",)),
    ]
    assert _kinds(store.verify("t1")) == [("head", "t1", None, ("head",))]


# -- seats' rows -------------------------------------------------------------


@pytest.mark.parametrize("edit", ["orphan", "missing", "extra", "renumbered"])
def test_seat_rows(store: capsa.store.Store, chains: Chains, edit: str) -> None:
    store.append_many(chains["t0"])
    seq = _seq(store, "t0/r3")
    if edit == "orphan":  # seats of a record number the store does not hold
        for seat in range(2):
            _sql(
                store,
                "INSERT INTO capsa_seats VALUES (?, ?, 'eve', NULL, 500, 0)",
                (seq + 100, seat),
            )
        expected = [("seats", None, None, ("seats",))]
    elif edit == "missing":
        _sql(store, "DELETE FROM capsa_seats WHERE seq = ? AND seat = 3", (seq,))
        expected = [("record", "t0", "t0/r3", ("seats",))]
    elif edit == "extra":
        _sql(store, "INSERT INTO capsa_seats VALUES (?, 4, 'eve', NULL, 500, 0)", (seq,))
        expected = [("record", "t0", "t0/r3", ("seats",))]
    else:
        _sql(store, "UPDATE capsa_seats SET seat = 7 WHERE seq = ? AND seat = 3", (seq,))
        expected = [("record", "t0", "t0/r3", ("seats[3].seat",))]
    report = store.verify()
    assert _kinds(report) == expected
    if edit == "orphan":
        assert report.seats == 24 + 2 and f"record number {seq + 100}" in str(report.problems[0])
    if edit == "missing":
        assert "3 seat row(s) for the record's 4 seat(s)" in report.problems[0].message


# -- played_at -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("column", "value"),
    [("played_at", "2030-01-01T00:00:00Z"), ("played_at_ms", 0), ("played_at", None)],
)
def test_an_edited_played_at_is_found(
    store: capsa.store.Store, chains: Chains, column: str, value: object
) -> None:
    store.append_many(chains["t0"])
    _sql(store, f"UPDATE capsa_records SET {column} = ? WHERE round_id = 't0/r4'", (value,))
    assert _kinds(store.verify()) == [("record", "t0", "t0/r4", (column,))]


# -- anchoring: the head MAC and checkpoints ---------------------------------


def test_a_coherent_tail_rewrite(url: str, chains: Chains) -> None:
    with capsa.store.open(url, key=KEY) as keyed:
        keyed.append_many(chains["t0"][:4])
        checkpoint = keyed.checkpoint()  # taken before the rewritten rounds
        keyed.append_many(chains["t0"][4:])
        keyed.append_many(chains["t1"])
        late = keyed.checkpoint()  # taken after them
        last = _rewrite_tail(keyed, chains["t0"], 4)
        _set_head(keyed, "t0", 6, last)
        # the records alone check: the rewrite is coherent
        with capsa.store.open(url) as keyless:
            report = keyless.verify()
            assert report.ok and not report.macs_checked
            assert "head MACs not checked: no store key" in report.unchecked
            assert keyless.ledger("mallory") > 0  # and it pays
            # an older checkpoint does not cover the rounds rewritten
            assert keyless.verify(checkpoints=[checkpoint]).ok
            # a checkpoint that does finds it, with no key
            assert _kinds(keyless.verify(checkpoints=[late.text])) == [
                ("checkpoint", "t0", "t0/r5", ("digest",))
            ]
        # the key finds it: the head is not the one it signed
        report = keyed.verify()
        assert report.macs_checked and _kinds(report) == [("head", "t0", None, ("head_mac",))]
        # and refuses to build on it or to checkpoint it
        with pytest.raises(HeadMACError) as refused:
            keyed.append(make_round("t0", 6, last))
        assert refused.value.table_id == "t0"
        with pytest.raises(HeadMACError):
            keyed.checkpoint()


def test_a_truncated_tail(url: str, chains: Chains) -> None:
    with capsa.store.open(url, key=KEY) as keyed:
        keyed.append_many(chains["t0"][:4])
        kept = _head(keyed, "t0")  # an old head and its MAC, kept by an attacker
        keyed.append_many(chains["t0"][4:])
        checkpoint = keyed.checkpoint()
        _delete_record(keyed, "t0/r5")
        _delete_record(keyed, "t0/r4")
        _set_head(keyed, "t0", 4, digest_of(chains["t0"][3]))
        with capsa.store.open(url) as keyless:
            assert keyless.verify().ok  # cut coherently: the records alone check
        assert _kinds(keyed.verify()) == [("head", "t0", None, ("head_mac",))]
        # with the old head's MAC put back, the key alone sees nothing ...
        _sql(keyed, "UPDATE capsa_tables SET head_mac = ? WHERE table_key = 't0'", (kept[2],))
        assert keyed.verify().ok
        # ... and a checkpoint made after the rounds cut finds it
        report = keyed.verify(checkpoints=[checkpoint])
        assert _kinds(report) == [("checkpoint", "t0", None, ("rounds",))]
        assert "cut short" in str(report.problems[0])
        # a whole table gone, head and all: only a checkpoint knows it was there
        for k in range(4):
            _delete_record(keyed, f"t0/r{k}")
        _sql(keyed, "DELETE FROM capsa_tables")
        assert keyed.verify().ok and keyed.verify().tables == 0
        assert _kinds(keyed.verify(checkpoints=[checkpoint])) == [
            ("checkpoint", "t0", None, ("rounds",))
        ]


def test_the_key_signs_every_head_it_writes(url: str, chains: Chains) -> None:
    with capsa.store.open(url) as keyless:
        keyless.append_many(chains["t0"][:2])  # written before the store had a key
    with capsa.store.open(url, key=KEY) as keyed:
        report = keyed.verify()
        assert _kinds(report) == [("head", "t0", None, ("head_mac",))]
        assert "not signed" in report.problems[0].message
        with pytest.raises(HeadMACError, match="not signed"):
            keyed.append(chains["t0"][2])
        assert keyed.sign_heads() == 1 and keyed.sign_heads() == 0
        assert keyed.append(chains["t0"][2])
        assert keyed.append_many(chains["t1"]) == [True] * 6
        assert keyed.verify().ok
        assert keyed.append(chains["t0"][2]) is False  # the same record: nothing written
    with capsa.store.open(url, key=bytes(32)) as other:  # another key
        assert [p.fields for p in other.verify().problems] == [("head_mac",), ("head_mac",)]
    with capsa.store.open(url) as keyless:
        with pytest.raises(StoreError, match="without a key"):
            keyless.sign_heads()
        keyless.append(chains["t0"][3])  # a writer without the key leaves the head unsigned
    with capsa.store.open(url, key=KEY) as keyed:
        assert _kinds(keyed.verify()) == [("head", "t0", None, ("head_mac",))]


def test_store_keys_are_checked(url: str) -> None:
    with pytest.raises(TypeError, match="bytes"):
        capsa.store.open(url, key="0" * 32)  # type: ignore[arg-type]
    with pytest.raises(capsa.ArgumentError, match="at least 16 bytes"):
        capsa.store.open(url, key=b"short")


def test_checkpoints_are_kept_signed_and_read_back(
    keyed: capsa.store.Store, chains: Chains
) -> None:
    keyed.append_many(chains["t1"])
    keyed.append_many(chains["t0"][:3])
    checkpoint = keyed.checkpoint()
    assert [(t.table_id, t.rounds) for t in checkpoint.tables] == [("t0", 3), ("t1", 6)]
    assert checkpoint.tables[0].last_digest == digest_of(chains["t0"][2])
    assert checkpoint.signed_by(KEY) and not checkpoint.signed_by(bytes(32))
    checkpoint.check(KEY)
    text = checkpoint.text
    assert json.loads(text)["mac"] == checkpoint.mac and "\n" not in text
    assert Checkpoint.parse(text) == checkpoint
    assert Checkpoint.parse(json.dumps(json.loads(text), indent=2)) == checkpoint
    assert list(keyed.checkpoints()) == [checkpoint]
    keyed.append_many(chains["t0"][3:])
    assert keyed.verify(checkpoints=[checkpoint, keyed.checkpoint()]).ok
    # a checkpoint changed after it was signed
    forged = json.loads(text)
    forged["tables"][0]["rounds"] = 2
    forged["tables"][0]["last_digest"] = digest_of(chains["t0"][1])
    forged_text = json.dumps(forged)
    with pytest.raises(CheckpointError, match="MAC"):
        Checkpoint.parse(forged_text).check(KEY)
    report = keyed.verify(checkpoints=[forged_text])
    assert _kinds(report) == [("checkpoint", None, None, ("mac",))]
    unsigned = Checkpoint.make(checkpoint.tables, checkpoint.made_ms)
    assert unsigned.mac is None and json.loads(unsigned.text)["mac"] is None
    with pytest.raises(CheckpointError, match="not signed"):
        unsigned.check(KEY)


def _checkpoint_with(**changes: object) -> str:
    data: dict[str, Any] = {
        "format": "capsa-store-checkpoint",
        "format_version": 1,
        "mac": None,
        "made_at": "2026-12-01T20:00:00.000Z",
        "tables": [{"last_digest": "ab" * 32, "rounds": 1, "table_id": "t"}],
    }
    data.update(changes)
    return json.dumps(data)


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ("not json", "JSON"),
        ("[]", "object"),
        (_checkpoint_with(format="capsa-round-state"), "format"),
        (_checkpoint_with(format_version=2), "format_version"),
        (_checkpoint_with(format_version=True), "format_version"),
        (_checkpoint_with(extra=1), "fields"),
        (_checkpoint_with(mac="AB" * 32), "mac"),
        (_checkpoint_with(made_at="2026-12-01T20:00:00Z"), "made_at"),
        (_checkpoint_with(tables={}), "tables"),
        (_checkpoint_with(tables=[{"rounds": 1, "table_id": "t"}]), "tables[0]"),
        (_checkpoint_with(tables=[{"last_digest": None, "rounds": 0, "table_id": "t"}]), "rounds"),
        (
            _checkpoint_with(tables=[{"last_digest": "x", "rounds": 1, "table_id": "t"}]),
            "last_digest",
        ),
        (
            _checkpoint_with(tables=[{"last_digest": "ab" * 32, "rounds": 1, "table_id": ""}]),
            "table_id",
        ),
        (
            _checkpoint_with(
                tables=[
                    {"last_digest": "ab" * 32, "rounds": 1, "table_id": "u"},
                    {"last_digest": "ab" * 32, "rounds": 1, "table_id": "t"},
                ]
            ),
            "order",
        ),
    ],
)
def test_a_text_that_is_not_a_checkpoint(text: str, named: str) -> None:
    with pytest.raises(CheckpointError, match=re.escape(named)):
        Checkpoint.parse(text)


# -- the walk ----------------------------------------------------------------


@pytest.mark.parametrize("page", [1, 2, 3, 500])
def test_the_walk_pairs_heads_and_records_page_after_page(
    store: capsa.store.Store, page: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    from capsa.store import store as store_module

    for k, table in enumerate(["b", "d", "f", None]):
        store.append_many(make_chain(table, k + 1))
    # heads of no record before, between and after the tables that have some
    for ghost in ("a", "c", "c2", "e", "g", "h"):
        _sql(store, "INSERT INTO capsa_tables VALUES (?, ?, 1, NULL)", (ghost, "ab" * 32))
    _sql(store, "DELETE FROM capsa_tables WHERE table_key = 'd'")  # records with no head
    queries: list[str] = []
    execute = store._execute

    def counted(sql: str, params: tuple[object, ...] = ()) -> Any:
        queries.append(sql)
        return execute(sql, params)

    monkeypatch.setattr(store, "_execute", counted)
    monkeypatch.setattr(store_module, "PAGE_ROWS", page)
    report = store.verify()
    assert (report.records, report.tables) == (10, 10)
    assert sorted(_kinds(report), key=str) == sorted(
        [("head", g, None, ("last_digest", "rounds")) for g in ("a", "c", "c2", "e", "g", "h")]
        + [("head", "d", None, ("head",))],
        key=str,
    )
    # no query a record: a few a page (records, seats, heads, the seats'
    # record numbers and their records), and one a table at most
    assert len(queries) <= 6 * (10 // page + 1) + 10 + 4
    assert store.verify("f").records == 3 and store.verify(None).records == 4


def test_verify_reads_one_snapshot(
    store: capsa.store.Store, chains: Chains, monkeypatch: pytest.MonkeyPatch
) -> None:
    from capsa.store import store as store_module
    from capsa.store import verify as verify_module

    monkeypatch.setattr(store_module, "PAGE_ROWS", 1)
    monkeypatch.setattr(verify_module, "_READ_TOGETHER", 1)
    store.append_many(chains["t0"][:3])
    seen: list[int] = []

    def progress(count: int) -> None:
        if count == 1:  # a writer appends while verify walks the table
            with capsa.store.open(store.url) as writer:
                writer.append_many(chains["t0"][3:])
        seen.append(count)

    report = store.verify(progress=progress)
    assert report.ok and report.records == 3 and seen == [1, 2, 3]
    assert store.verify().records == 6
