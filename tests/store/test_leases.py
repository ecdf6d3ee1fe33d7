"""Table leases of capsa.store, on SQLite and PostgreSQL: a second holder
refused with a message naming the table, the holder and when the lease
ends; two holders racing; writes fenced by ``holder=`` refused once the
lease moved."""

from __future__ import annotations

import re
import threading
import time

import pytest
from store_records import make_chain

import capsa
import capsa.store
from capsa.store import LeaseError, Opening


def test_a_second_holder_is_refused_and_takes_nothing(store: capsa.store.Store) -> None:
    store.lease(["t1", "t2"], "server-a")
    before = time.time() * 1000
    with pytest.raises(LeaseError) as caught:
        store.lease(["t3", "t2"], "server-b", ttl_ms=5_000)
    refused = caught.value
    assert (refused.table_id, refused.holder) == ("t2", "server-a")
    assert refused.expires_ms is not None
    assert before + 25_000 < refused.expires_ms < before + 31_000  # a's 30 s default
    message = str(refused)
    assert "'t2'" in message and "'server-a'" in message and "'server-b'" in message
    moment = r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z"
    assert re.search(rf"until {moment} \(for \d+\.\d s more\)", message)
    # all or nothing: b took no lease, not even t3's
    store.lease(["t3"], "server-a")
    # a renews its own; b gets them once a releases them
    store.lease(["t1", "t2", "t3"], "server-a", ttl_ms=60_000)
    store.release(["t2", "t3"], "server-a")
    store.release(["t1"], "server-b")  # not b's: nothing happens
    store.lease(["t2", "t3", None], "server-b")
    with pytest.raises(LeaseError, match="'t1' is leased by 'server-a'"):
        store.lease(["t1"], "server-b")


def test_a_lease_that_ended_goes_to_the_next_holder(store: capsa.store.Store) -> None:
    store.lease(["t"], "server-a", ttl_ms=500)
    with pytest.raises(LeaseError):
        store.lease(["t"], "server-b")
    time.sleep(0.6)
    store.lease(["t"], "server-b")
    with pytest.raises(LeaseError) as caught:
        store.lease(["t"], "server-a")
    assert caught.value.holder == "server-b"


@pytest.mark.parametrize(
    ("call", "error"),
    [
        (lambda s: s.lease("t1", "a"), TypeError),
        (lambda s: s.lease(["t1"], ""), capsa.ArgumentError),
        (lambda s: s.lease(["t1"], 7), TypeError),
        (lambda s: s.lease(["t1"], "a\0b"), capsa.ArgumentError),
        (lambda s: s.lease(["t1"], "a", ttl_ms=0), capsa.ArgumentError),
        (lambda s: s.lease(["t1"], "a", ttl_ms=1.5), TypeError),
        (lambda s: s.lease([3], "a"), TypeError),
        (lambda s: s.append(make_chain("t1", 1)[0], holder=""), capsa.ArgumentError),
    ],
)
def test_lease_arguments_are_typed(
    store: capsa.store.Store, call: object, error: type[Exception]
) -> None:
    with pytest.raises(error):
        call(store)  # type: ignore[operator]


def test_two_holders_racing_for_leases(url: str) -> None:
    """Two servers start at the same moment, each with a store of its own,
    and lease the same tables: one gets them all, the other none."""
    stores = [capsa.store.open(url), capsa.store.open(url)]
    tables = [f"race-{k}" for k in range(4)]
    try:
        for turn in range(15):
            barrier = threading.Barrier(2)
            won: list[str] = []
            failures: list[BaseException] = []

            def claim(
                store: capsa.store.Store,
                holder: str,
                order: list[str],
                barrier: threading.Barrier = barrier,
                won: list[str] = won,
                failures: list[BaseException] = failures,
            ) -> None:
                barrier.wait()
                try:
                    store.lease(order, holder, ttl_ms=60_000)
                    won.append(holder)
                except LeaseError:
                    pass
                except BaseException as exc:
                    failures.append(exc)

            threads = [
                threading.Thread(target=claim, args=(stores[0], f"a{turn}", tables)),
                threading.Thread(target=claim, args=(stores[1], f"b{turn}", tables[::-1])),
            ]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            assert failures == [] and len(won) == 1
            loser = f"b{turn}" if won[0].startswith("a") else f"a{turn}"
            for table in tables:
                with pytest.raises(LeaseError):
                    stores[0].lease([table], loser)
            stores[0].release(tables, won[0])
    finally:
        for store in stores:
            store.close()


def test_writes_fenced_after_the_lease_moved(store: capsa.store.Store) -> None:
    chain = make_chain("fenced", 3)
    with pytest.raises(LeaseError, match="nobody holds its lease") as caught:
        store.append(chain[0], holder="server-a")
    assert caught.value.holder is None and store.tables() == []
    store.lease(["fenced"], "server-a", ttl_ms=500)
    assert store.append(chain[0], holder="server-a")
    time.sleep(0.6)
    with pytest.raises(LeaseError, match="the lease of 'server-a' ended at"):
        store.append(chain[1], holder="server-a")  # ended, though nobody took it yet
    store.lease(["fenced"], "server-b")
    for write in (
        lambda: store.append(chain[1], holder="server-a"),
        lambda: store.append_many(chain[1:], holder="server-a"),
        lambda: store.set_aside("{}", "refused", table_id="fenced", holder="server-a"),
        lambda: store.open_round(
            Opening("fenced", "fenced/r1", 1, "00" * 32, store.tables()[0].last_digest),
            holder="server-a",
        ),
    ):
        with pytest.raises(LeaseError) as caught:
            write()
        assert (caught.value.table_id, caught.value.holder) == ("fenced", "server-b")
    [table] = store.tables()
    assert table.rounds == 1 and store.set_aside_records() == []
    assert store.pending("fenced") is None
    assert store.append_many(chain[1:], holder="server-b") == [True, True]
    assert store.append(chain[0], holder="server-b") is False
    # a write of no holder is not fenced
    assert store.set_aside("{}", "refused", table_id="fenced") == 1
