"""A record's time in the store: ``rounds(since=...)`` compares the moments
``since`` and ``meta.played_at`` name, whatever their offsets, and
``stats(tz=...)`` counts business days in a time zone; on SQLite and on
PostgreSQL."""

from __future__ import annotations

import datetime
import hashlib
from collections.abc import Iterator
from pathlib import Path

import pytest
from postgres_cluster import new_database, shared_cluster
from store_records import digest_of, played

import capsa
import capsa.store
from capsa.records.times import moment_ms
from capsa.store import StoreError

# round k of the table "tz" was played at PLAYED[k] (None: no played_at)
PLAYED: list[str | int | None] = [
    "2026-12-02T03:00:00+07:00",  # 2026-12-01T20:00Z
    "2026-12-01T23:30:00-05:00",  # 2026-12-02T04:30Z
    "2026-07-01T04:30:00Z",  # New York is on summer time: 00:30 on July 1
    1_795_000_000_000,  # Unix ms: 2026-11-18T11:06:40Z
    "soon",  # names no moment
    None,
]


def _chain() -> list[str]:
    texts: list[str] = []
    for k, when in enumerate(PLAYED):
        rnd = capsa.Round(
            seats=4,
            round_id=f"tz/r{k}",
            nonce=k,
            previous_digest=digest_of(texts[-1]) if texts else None,
            table_id="tz",
            players=["ana", "ben", "cai", "dee"],
            server_seed=hashlib.sha256(f"tz {k}".encode()).digest(),
            meta={} if when is None else {"played_at": when},
        )
        texts.append(played(rnd))
    return texts


@pytest.fixture(params=["sqlite", "postgresql"], scope="module")
def store(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[capsa.store.Store]:
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path_factory.mktemp('times')}/records.db"
    else:
        url = new_database(shared_cluster())
    with capsa.store.open(url) as opened:
        opened.append_many(_chain())
        yield opened


def _since(store: capsa.store.Store, since: object) -> list[int]:
    return [int(r.round_id[4:]) for r in store.rounds("tz", since=since)]  # type: ignore[arg-type]


PLUS_7 = datetime.timezone(datetime.timedelta(hours=7))


@pytest.mark.parametrize(
    ("since", "rounds"),
    [
        ("2026-12-01T21:00:00Z", [1]),  # as text, +07:00 sorts after: it is before
        ("2026-12-01T20:00:00Z", [0, 1]),
        ("2026-12-02T03:00:00+07:00", [0, 1]),  # the same moment
        ("2026-12-02T03:00:00.001+07:00", [1]),
        ("2026-12-01T15:00:00-05:00", [0, 1]),
        ("2026-12-01T20:00:00", [0, 1]),  # no offset: UTC
        ("2026-11-18T11:06:40Z", [0, 1, 3]),
        ("2026-11-18T11:06:40.001Z", [0, 1]),
        (1_795_000_000_000, [0, 1, 3]),
        (1_795_000_000_001, [0, 1]),
        (datetime.datetime(2026, 12, 2, 3, 0, tzinfo=PLUS_7), [0, 1]),
        (datetime.datetime(2026, 12, 1, 20, 0, 0, 1000), [1]),  # naive: UTC
        ("2026-01-01", [0, 1, 2, 3]),
    ],
)
def test_since_is_a_moment(store: capsa.store.Store, since: object, rounds: list[int]) -> None:
    assert _since(store, since) == rounds


@pytest.mark.parametrize("since", ["yesterday", "", "2026-13-01", True, 1.5, [2026]])
def test_a_since_that_names_no_moment_is_refused(store: capsa.store.Store, since: object) -> None:
    with pytest.raises(StoreError, match="since"):
        _since(store, since)


@pytest.mark.parametrize(
    ("tz", "days"),
    [
        ("UTC", ["2026-07-01", "2026-11-18", "2026-12-01", "2026-12-02", None]),
        ("+07:00", ["2026-07-01", "2026-11-18", "2026-12-02", None]),
        ("Asia/Jakarta", ["2026-07-01", "2026-11-18", "2026-12-02", None]),
        ("+0700", ["2026-07-01", "2026-11-18", "2026-12-02", None]),
        ("America/New_York", ["2026-07-01", "2026-11-18", "2026-12-01", None]),
        ("-05:00", ["2026-06-30", "2026-11-18", "2026-12-01", None]),  # no summer time
        ("-12", ["2026-06-30", "2026-11-17", "2026-12-01", None]),
    ],
)
def test_stats_count_business_days_in_a_time_zone(
    store: capsa.store.Store, tz: str, days: list[str | None]
) -> None:
    stats = store.stats(tz=tz)
    assert [s.day for s in stats] == days
    assert sum(s.rounds for s in stats) == len(PLAYED)
    assert [s.rounds for s in stats if s.day is None] == [2]  # "soon" and none
    assert all(s.table_id == "tz" and s.players == 4 for s in stats)


def test_stats_by_utc_day_by_default(store: capsa.store.Store) -> None:
    assert store.stats() == store.stats(tz="UTC")
    by_day = {s.day: s.rounds for s in store.stats()}
    assert by_day["2026-12-01"] == 1 and by_day["2026-12-02"] == 1


@pytest.mark.parametrize(
    ("tz", "error"),
    [
        ("Mars/Base", StoreError),
        ("+24:00", StoreError),
        ("+07:60", StoreError),
        ("../etc/passwd", StoreError),
        ("", StoreError),
        (7, TypeError),
    ],
)
def test_a_time_zone_that_is_not_one(store: capsa.store.Store, tz: object, error: type) -> None:
    with pytest.raises(error):
        store.stats(tz=tz)  # type: ignore[arg-type]


def test_the_day_of_a_moment_at_the_edges_of_the_calendar(tmp_path: Path) -> None:
    from capsa.store.days import local_day

    assert local_day(0, "UTC") == "1970-01-01"
    assert local_day(-1, "UTC") == "1969-12-31"
    assert local_day(-1, "+00:01") == "1970-01-01"
    assert local_day(None, "UTC") is None
    assert local_day(10**18, "UTC") is None


@pytest.mark.parametrize(
    ("text", "moment"),
    [
        ("2026-12-01T20:00:00Z", 1_796_155_200_000),
        ("2026-12-02T03:00:00+07:00", 1_796_155_200_000),
        ("2026-12-01T20:00:00.5+07:00", 1_796_130_000_500),
        ("2026-12-01T20:00:00,25z", 1_796_155_200_250),
        ("2026-12-01T20:00:00.1234567Z", 1_796_155_200_123),
        ("2026-12-01 20:00:00.123", 1_796_155_200_123),
        ("2026-12-01", 1_796_083_200_000),
        ("yesterday", None),
    ],
)
def test_a_moment_is_read_alike_on_every_python(text: str, moment: int | None) -> None:
    # Python 3.10's fromisoformat reads no "Z" and no fraction of other than
    # 3 or 6 digits; the store files rounds by the same moment on every one
    assert moment_ms(text) == moment
