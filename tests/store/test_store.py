"""capsa.store: one API over SQLite and PostgreSQL, each test run on both."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import pytest
from store_records import digest_of, make_chain, make_round

import capsa
import capsa.store
from capsa.records import RecordError, ReplayError
from capsa.store import schema
from capsa.store.rows import prepare

GOLDEN = Path(__file__).parents[1] / "golden"
Chains = dict[str, list[str]]


@pytest.fixture(scope="module")
def chains() -> dict[str, list[str]]:
    return {t: make_chain(t, 6) for t in ("t0", "t1")}


def test_append_get_and_idempotence(store: capsa.store.Store, chains: Chains) -> None:
    for text in chains["t0"]:
        assert store.append(text) is True
    assert store.append(chains["t0"][2]) is False
    assert store.append(json.loads(chains["t0"][5])) is False  # a dict of the same record
    got = store.get("t0", "t0/r3")
    assert got is not None and got.text == chains["t0"][3]
    assert got.digest == digest_of(chains["t0"][3])
    assert store.get("t0", "nope") is None
    [table] = store.tables()
    assert (table.table_id, table.rounds, table.last_digest) == (
        "t0",
        6,
        digest_of(chains["t0"][-1]),
    )


def test_interleaved_tables_and_queries(store: capsa.store.Store, chains: Chains) -> None:
    for a, b in zip(chains["t0"], chains["t1"], strict=True):
        store.append(a)
        store.append(b)
    assert [r.round_id for r in store.rounds("t1")] == [f"t1/r{k}" for k in range(6)]
    assert len(list(store.rounds())) == 12
    assert len(list(store.rounds(limit=5))) == 5
    assert [r.round_id for r in store.rounds(player="t0-p1")] == [f"t0/r{k}" for k in range(6)]
    assert len(list(store.rounds(player="shared"))) == 12
    assert {r.round_id for r in store.rounds(since="2026-12-02")} == {
        f"t{t}/r{k}" for t in (0, 1) for k in (1, 3, 5)
    }
    stats = store.stats()
    assert [(s.table_id, s.day, s.rounds, s.players) for s in stats] == [
        ("t0", "2026-12-01", 3, 4),
        ("t0", "2026-12-02", 3, 4),
        ("t1", "2026-12-01", 3, 4),
        ("t1", "2026-12-02", 3, 4),
    ]
    ledger = store.ledger()
    assert isinstance(ledger, capsa.Ledger) and len(ledger) == 12
    assert sum(ledger.balances.values()) + ledger.house == 0
    assert store.ledger("shared") == ledger.balances["shared"]
    assert sum(s.rake for s in stats) == ledger.house
    report = store.verify()
    assert report.ok and (report.records, report.tables) == (12, 2)


def test_refusals(store: capsa.store.Store, chains: Chains) -> None:
    first, second = chains["t0"][:2]
    with pytest.raises(RecordError):
        store.append("{not json")
    with pytest.raises(capsa.store.ChainError) as chain:
        store.append(second)  # does not start the chain
    assert chain.value.expected is None and isinstance(chain.value, capsa.CapsaError)
    store.append(first)
    other = make_round("t0", 1, None, tag="x")  # a fork: another first record
    with pytest.raises(capsa.store.ChainError):
        store.append(other)
    same_id = make_round("t0", 7, digest_of(first)).replace("t0/r7", "t0/r0")
    with pytest.raises(ReplayError, match="digest"):
        store.append(same_id)  # its digest no longer matches
    with pytest.raises(capsa.store.DuplicateRoundError) as dup:
        store.append(make_round("t0", 0, digest_of(first), tag="b"))  # nonce 0 again
    assert dup.value.field == "deal.nonce" and dup.value.round_id == "t0/r0b"
    data = json.loads(make_round("t0", 9, digest_of(first)))
    data["round_id"] = "t0/r0"
    data["digest"] = capsa.records.record_digest(data)
    with pytest.raises(capsa.store.DuplicateRoundError) as dup:
        store.append(data)
    assert dup.value.field == "round_id"
    tampered = json.loads(second)
    tampered["seats"][0]["auto"] = True
    with pytest.raises(ReplayError, match="digest"):
        store.append(tampered)
    tampered["digest"] = capsa.records.record_digest(tampered)
    with pytest.raises(ReplayError):
        store.append(tampered, replay=True)
    assert [t.rounds for t in store.tables()] == [1]


def test_append_many_is_all_or_nothing(store: capsa.store.Store, chains: Chains) -> None:
    assert store.append_many(chains["t0"][:3]) == [True] * 3
    with pytest.raises(capsa.store.ChainError):
        store.append_many([chains["t0"][3], chains["t0"][5]])
    assert [t.rounds for t in store.tables()] == [3]
    assert store.append_many(chains["t0"]) == [False] * 3 + [True] * 3


def test_a_batch_that_meets_a_stored_nonce_stores_nothing(
    store: capsa.store.Store, chains: Chains
) -> None:
    first = chains["t0"][0]
    store.append(first)
    again = make_round("t0", 0, digest_of(first), tag="b")  # nonce 0 again, linked right
    with pytest.raises(capsa.store.DuplicateRoundError):
        store.append_many([again, make_round("t0", 8, digest_of(again))])
    assert [t.rounds for t in store.tables()] == [1]
    assert store.append_many(chains["t0"][1:]) == [True] * 5
    assert store.verify().ok


def test_threads_share_a_store(store: capsa.store.Store, chains: Chains) -> None:
    def append_all() -> None:
        for text in chains["t1"]:
            store.append(text)

    threads = [threading.Thread(target=append_all) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert [(t.rounds, t.last_digest) for t in store.tables()] == [(6, digest_of(chains["t1"][-1]))]


def test_golden_records_and_export(store: capsa.store.Store, tmp_path: Path) -> None:
    for name in ("records-1.jsonl", "records-2.jsonl"):
        for line in (GOLDEN / name).read_text(encoding="utf-8").splitlines():
            store.append(line)
    assert {t.table_id for t in store.tables()} == {None, "table-7"}
    out = tmp_path / "out.jsonl"
    assert store.export(str(out)) == 8
    exported = sorted(out.read_bytes().splitlines(keepends=True))
    golden = sorted(
        line
        for name in ("records-1.jsonl", "records-2.jsonl")
        for line in (GOLDEN / name).read_bytes().splitlines(keepends=True)
    )
    assert exported == golden
    assert store.verify().ok
    assert store.verify(None).records == 4


def test_golden_records_of_format_3(store: capsa.store.Store) -> None:
    lines = (GOLDEN / "records-3.jsonl").read_text(encoding="utf-8").splitlines()
    for line in lines:
        store.append(line)
    report = store.verify()
    assert report.ok and report.records == len(lines)


def test_parquet_export(store: capsa.store.Store, chains: Chains, tmp_path: Path) -> None:
    pq = pytest.importorskip("pyarrow.parquet")
    store.append_many(chains["t1"])
    assert store.export(str(tmp_path / "r.parquet")) == 6
    assert pq.read_table(tmp_path / "r.parquet").num_rows == 6
    with pytest.raises(capsa.store.StoreError, match="format"):
        store.export(str(tmp_path / "r.txt"))


def _edit(store: capsa.store.Store, sql: str, params: tuple[object, ...]) -> None:
    store._execute(sql, params)  # an edit behind the store's back


@pytest.mark.parametrize("column", ["record", "digest", "delete", "net"])
def test_verify_names_an_edited_row(store: capsa.store.Store, chains: Chains, column: str) -> None:
    store.append_many(chains["t0"])
    store.append_many(chains["t1"])
    if column == "record":
        data = json.loads(chains["t0"][2])
        data["seats"][1]["arrangement"] = data["seats"][2]["arrangement"]
        edited = capsa.records.canonical_json(data)
        _edit(store, "UPDATE capsa_records SET record = ? WHERE round_id = ?", (edited, "t0/r2"))
    elif column == "digest":
        _edit(store, "UPDATE capsa_records SET digest = ? WHERE round_id = ?", ("0" * 64, "t0/r2"))
    elif column == "net":
        seq = store._execute("SELECT seq FROM capsa_records WHERE round_id = 't0/r2'").fetchone()
        _edit(store, "UPDATE capsa_seats SET net = net + 1 WHERE seq = ? AND seat = 1", (seq[0],))
    else:
        _edit(store, "DELETE FROM capsa_records WHERE round_id = ?", ("t0/r2",))
    progress: list[int] = []
    report = store.verify(progress=progress.append)
    assert not report.ok
    assert progress[-1] == report.records == (12 if column != "delete" else 11)
    names = {(p.table_id, p.round_id) for p in report.problems}
    assert ("t0", "t0/r2" if column != "delete" else "t0/r3") in names
    assert all(p.table_id == "t0" for p in report.problems if p.kind != "seats")
    # the deleted record's seats are left, rows of no record
    assert [p.kind for p in report.problems].count("seats") == (column == "delete")
    assert "t0/r" in str(report.problems[0])
    assert store.verify("t1").ok


def test_schema_versions(url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(capsa.store.SchemaVersionError, match="capsa store init"):
        capsa.store.open(url, create=False)
    capsa.store.open(url).close()
    steps: list[int] = []

    def step(backend: object, conn: object) -> None:
        steps.append(schema.SCHEMA_VERSION)

    current = schema.SCHEMA_VERSION
    monkeypatch.setattr(schema, "SCHEMA_VERSION", current + 1)
    monkeypatch.setitem(schema.MIGRATIONS, current, step)
    with pytest.raises(capsa.store.SchemaVersionError, match="capsa store migrate"):
        capsa.store.open(url)
    assert capsa.store.migrate(url) == (current, current + 1) and steps == [current + 1]
    capsa.store.open(url).close()
    monkeypatch.setattr(schema, "SCHEMA_VERSION", current)
    with pytest.raises(capsa.store.SchemaVersionError, match="newer capsa"):
        capsa.store.open(url)


# The tables of schema version 1, as capsa 0.1 made them: the migration's
# starting point.
_VERSION_1 = [
    "CREATE TABLE capsa_schema (version INTEGER NOT NULL)",
    "CREATE TABLE capsa_tables (table_key TEXT PRIMARY KEY, last_digest TEXT,"
    " rounds BIGINT NOT NULL)",
    "CREATE TABLE capsa_records ({seq}, table_key TEXT NOT NULL,"
    " round_id TEXT NOT NULL, nonce TEXT NOT NULL, digest TEXT NOT NULL,"
    " previous_digest TEXT, played_at TEXT, day TEXT, record TEXT NOT NULL,"
    " UNIQUE (table_key, round_id), UNIQUE (table_key, nonce))",
    "CREATE INDEX capsa_records_table ON capsa_records (table_key, seq)",
    "CREATE INDEX capsa_records_played_at ON capsa_records (played_at)",
    "CREATE TABLE capsa_seats (seq BIGINT NOT NULL, seat INTEGER NOT NULL,"
    " player_id TEXT NOT NULL, player_name TEXT, net BIGINT NOT NULL,"
    " rake BIGINT NOT NULL, PRIMARY KEY (seq, seat))",
    "CREATE INDEX capsa_seats_player ON capsa_seats (player_id, seq)",
    "INSERT INTO capsa_schema (version) VALUES (1)",
]


def test_a_version_1_store_migrates_with_its_records(url: str, chains: Chains) -> None:
    backend = capsa.store.backend_for(url)
    conn = backend.connect()
    try:
        for statement in _VERSION_1:
            conn.execute(statement.format(seq=backend.sequence_column))
        for text in chains["t0"]:
            record = prepare(text)
            row = conn.execute(
                backend.sql(
                    "INSERT INTO capsa_records (table_key, round_id, nonce, digest,"
                    " previous_digest, played_at, day, record) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
                    " RETURNING seq"
                ),
                (
                    "t0",
                    record.round_id,
                    str(record.nonce),
                    record.digest,
                    record.previous_digest,
                    record.played_at,
                    (record.played_at or "")[:10],
                    record.text,
                ),
            ).fetchone()
            for seat, figures in enumerate(record.seats):
                conn.execute(
                    backend.sql("INSERT INTO capsa_seats VALUES (?, ?, ?, ?, ?, ?)"),
                    (int(row[0]), seat, *figures),
                )
        conn.execute(
            backend.sql("INSERT INTO capsa_tables VALUES (?, ?, ?)"),
            ("t0", digest_of(chains["t0"][-1]), len(chains["t0"])),
        )
    finally:
        conn.close()
    with pytest.raises(capsa.store.SchemaVersionError, match="capsa store migrate"):
        capsa.store.open(url)
    assert capsa.store.migrate(url) == (1, schema.SCHEMA_VERSION)
    with capsa.store.open(url, create=False) as store:
        assert store.verify().ok
        moments = [
            int(m)
            for (m,) in store._execute(
                "SELECT played_at_ms FROM capsa_records ORDER BY seq"
            ).fetchall()
        ]
        assert moments == [prepare(t).played_at_ms for t in chains["t0"]]
        assert len(list(store.rounds("t0", since="2026-12-02T00:00:00Z"))) == 3
        assert store.append(make_round("t0", 6, digest_of(chains["t0"][-1])))


def test_bad_urls() -> None:
    for url in ("mysql://x", "sqlite://", "records.db"):
        with pytest.raises(capsa.store.StoreURLError):
            capsa.store.open(url)


def test_closed_store(url: str) -> None:
    store = capsa.store.open(url)
    store.close()
    worker: list[BaseException] = []

    def use() -> None:
        try:
            store.tables()
        except capsa.store.StoreError as exc:
            worker.append(exc)

    thread = threading.Thread(target=use)
    thread.start()
    thread.join()
    assert worker and "closed" in str(worker[0])


def test_a_record_is_stored_as_its_canonical_text(chains: Chains) -> None:
    text = chains["t0"][0]
    data = json.loads(text)
    moved = dict(data)
    moved["digest"] = moved.pop("digest")  # the digest entry last: not canonical
    for given in (
        text,
        data,
        json.dumps(data, indent=1),
        json.dumps(moved, separators=(",", ":"), ensure_ascii=False),
        text.encode(),
    ):
        assert prepare(given).text == text
    for name in ("records-1.jsonl", "records-2.jsonl", "records-3.jsonl"):
        for line in (GOLDEN / name).read_text("utf-8").splitlines():
            assert prepare(line).text == line
            view = capsa.records.read_record(line)
            assert view.content_digest == view.digest == capsa.records.record_digest(line)
    # text that is not the canonical form reads to the same contents' digest
    assert capsa.records.read_record(json.dumps(data, indent=1)).content_digest == data["digest"]
    assert not capsa.records.read_record(json.dumps(data, indent=1)).canonical_as_read
    assert capsa.records.read_record(text).canonical_as_read


def test_reads_go_a_page_at_a_time(
    store: capsa.store.Store, chains: Chains, monkeypatch: pytest.MonkeyPatch
) -> None:
    from capsa.store import store as store_module

    monkeypatch.setattr(store_module, "PAGE_ROWS", 4)
    for a, b in zip(chains["t0"], chains["t1"], strict=True):
        store.append_many([a, b])
    assert [r.text for r in store.rounds("t0")] == chains["t0"]
    assert len(list(store.rounds(limit=9))) == 9
    assert len(list(store.rounds(player="shared", limit=5))) == 5
    assert list(store.texts()) == [t for pair in zip(*chains.values(), strict=True) for t in pair]
    report = store.verify()
    assert report.ok and report.records == 12
    assert len(store.ledger()) == 12
