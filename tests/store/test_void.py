"""Void records in the store, each test on SQLite and PostgreSQL: appended
like any record with no seat rows, verified, booked by the ledger, left out
of a Parquet export and counted; and Store.void_pending closing a table's
pending round in one transaction."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path

import pytest
from store_records import digest_of, make_chain, make_round

import capsa
import capsa.store
from capsa.records import read_record, void_record
from capsa.store import DuplicateRoundError, LeaseError, Opening, PendingRoundError

COMMITMENT = hashlib.sha256(b"the server seed of a round never played").hexdigest()


def _pending(
    store: capsa.store.Store, table_id: str | None, round_id: str, nonce: int, after: str | None
) -> None:
    """A pending round of the table, as the server records one before it
    publishes the round's commitment."""
    store.open_round(Opening(table_id, round_id, nonce, COMMITMENT, after))


def _seat_rows(store: capsa.store.Store) -> int:
    return int(store._execute("SELECT COUNT(*) FROM capsa_seats").fetchone()[0])


def test_a_void_record_is_appended_verified_and_booked(store: capsa.store.Store) -> None:
    rounds = make_chain("t0", 2)
    void = void_record(
        "t0/r2", COMMITMENT, 2, "crash", table_id="t0", previous_digest=digest_of(rounds[-1])
    )
    after = make_round("t0", 3, digest_of(void))
    assert store.append_many([*rounds, void, after]) == [True] * 4
    assert store.append(void) is False  # stored already
    assert _seat_rows(store) == 3 * 4  # the void round has none
    got = store.get("t0", "t0/r2")
    assert got is not None and got.text == void and got.view().kind == "void"
    report = store.verify()
    assert report.ok and report.records == 4
    ledger = store.ledger()
    assert isinstance(ledger, capsa.Ledger)
    assert [e.void for e in ledger.entries] == [False, False, True, False]
    assert sum(s.rounds for s in store.stats()) == 3  # by day, the void round uncounted
    # the void round's id and nonce are used: no round takes them again
    with pytest.raises(DuplicateRoundError):
        store.append(make_round("t0", 2, digest_of(after)))


def test_verify_finds_a_seat_row_given_to_a_void_record(store: capsa.store.Store) -> None:
    void = void_record("t/1", COMMITMENT, 1, "crash", table_id="t")
    store.append(void)
    seq = store._execute("SELECT seq FROM capsa_records").fetchone()[0]
    store._execute(
        "INSERT INTO capsa_seats (seq, seat, player_id, player_name, net, rake)"
        " VALUES (?, 0, 'p', NULL, 100, 0)",
        (int(seq),),
    )
    report = store.verify()
    assert [p.fields for p in report.problems] == [("seats",)]


def test_void_pending_closes_the_pending_round(store: capsa.store.Store) -> None:
    rounds = make_chain("t0", 2)
    store.append_many(rounds)
    assert store.void_pending("t0", "crash") is None  # nothing pending
    _pending(store, "t0", "t0/r2", 2, digest_of(rounds[-1]))
    text = store.void_pending("t0", "the server stopped during round 2")
    assert text is not None
    view = read_record(text)
    assert view.kind == "void" and isinstance(view, capsa._core.VoidView)
    assert (view.table_id, view.round_id, view.nonce, view.commitment) == (
        "t0",
        "t0/r2",
        2,
        COMMITMENT,
    )
    assert view.previous_digest == digest_of(rounds[-1])
    assert view.reason == "the server stopped during round 2"
    assert store.void_pending("t0", "crash") is None  # the pending round is cleared
    assert store.pending("t0") is None
    [table] = store.tables()
    assert (table.rounds, table.last_digest) == (3, view.digest)
    assert store.verify().ok
    # the next round follows the void one
    assert store.append(make_round("t0", 3, view.digest))


def test_void_pending_of_a_table_of_no_id(store: capsa.store.Store) -> None:
    _pending(store, None, "r0", 0, None)
    text = store.void_pending(None, "power lost")
    assert text is not None and json.loads(text)["table_id"] is None
    assert json.loads(text)["previous_digest"] is None
    assert store.verify().ok


def test_void_pending_changes_nothing_when_it_fails(store: capsa.store.Store) -> None:
    rounds = make_chain("t0", 2)
    store.append(rounds[0])
    _pending(store, "t0", "t0/r9", 9, digest_of(rounds[0]))
    with pytest.raises(capsa.ArgumentError, match="reason"):
        store.void_pending("t0", "")
    with pytest.raises(TypeError):
        store.void_pending("t0", 7)  # type: ignore[arg-type]
    with pytest.raises(capsa.ArgumentError, match="table_id"):
        store.void_pending("", "crash")
    pending = store.pending("t0")
    assert pending is not None and pending.round_id == "t0/r9"
    assert [t.rounds for t in store.tables()] == [1]
    # while it is pending no other round is stored; its void record is
    with pytest.raises(PendingRoundError):
        store.append(rounds[1])
    assert store.void_pending("t0", "crash") is not None
    assert store.append(make_round("t0", 10, store.tables()[0].last_digest))


def test_void_pending_is_fenced_by_the_lease(store: capsa.store.Store) -> None:
    _pending(store, "t0", "t0/r0", 0, None)
    store.lease(["t0"], "b")
    with pytest.raises(LeaseError):
        store.void_pending("t0", "crash", holder="a")
    assert store.pending("t0") is not None
    store.release(["t0"], "b")
    store.lease(["t0"], "a")
    assert store.void_pending("t0", "crash", holder="a") is not None
    assert store.pending("t0") is None


def test_store_export_leaves_void_rounds_out_of_parquet(url: str, tmp_path: Path) -> None:
    pytest.importorskip("pyarrow")
    rounds = make_chain("t0", 1)
    void = void_record(
        "t0/r1", COMMITMENT, 1, "crash", table_id="t0", previous_digest=digest_of(rounds[0])
    )
    with capsa.store.open(url) as store:
        store.append_many([*rounds, void])
        left: list[str] = []
        assert store.export(str(tmp_path / "r.parquet"), on_void=left.append) == 1
        assert left == ["t0/r1"]
        assert store.export(str(tmp_path / "r.jsonl")) == 2
    assert (tmp_path / "r.jsonl").read_text().splitlines()[1] == void
    command = [sys.executable, "-m", "capsa", "store", "export", url, "--format", "parquet"]
    done = subprocess.run(
        [*command, "--out", str(tmp_path / "c.parquet")],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "1 record(s) written" in done.stderr and "1 void round(s) left out" in done.stderr
