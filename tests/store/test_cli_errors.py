"""``capsa store`` as an operator meets it when something is wrong: the
file given, the URL, the database, the export path; a byte-order mark and
U+0000 in a log (on SQLite: the same code serves PostgreSQL, whose own
failures store/test_cli.py covers)."""

from __future__ import annotations

import json
import sqlite3
import time
from pathlib import Path

import pytest
from store_records import make_chain, rewritten

import capsa.store.sqlite
from capsa.cli import main

Run = tuple[int, list[str], str]


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> Run:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out.splitlines(), err


def _one_line(err: str) -> bool:
    return len(err.strip().splitlines()) == 1 and "Traceback" not in err


@pytest.fixture
def url(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> str:
    made = f"sqlite:///{tmp_path}/records.db"
    assert _run(capsys, "store", "init", made)[0] == 0
    return made


def test_a_log_with_a_byte_order_mark_is_read_as_capsa_replay_reads_it(
    url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    chain = make_chain("bom", 2)
    log = tmp_path / "marked.jsonl"
    log.write_bytes(b"\xef\xbb\xbf" + "".join(t + "\n" for t in chain).encode())
    code, out, err = _run(capsys, "replay", str(log))
    assert code == 0 and len(out) == 2
    code, out, err = _run(capsys, "store", "append", url, str(log))
    assert code == 0 and [json.loads(line)["stored"] for line in out] == [True, True]
    assert "2 stored, 0 already stored, 0 failed" in err
    exported = tmp_path / "out.jsonl"
    assert _run(capsys, "store", "export", url, "--format", "jsonl", "--out", str(exported))[0] == 0
    assert exported.read_text("utf-8") == "".join(t + "\n" for t in chain)  # without the mark


def test_a_line_that_is_not_utf8_fails_alone(
    url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    chain = make_chain("latin", 2)
    log = tmp_path / "latin1.jsonl"
    log.write_bytes(chain[0].encode() + b"\n\xe9t\xe9\n" + chain[1].encode() + b"\n")
    code, out, err = _run(capsys, "store", "append", url, str(log))
    results = [json.loads(line) for line in out]
    assert code == 1 and [r.get("stored", r.get("error")) for r in results] == [
        True,
        "RecordError",
        True,
    ]
    assert "not UTF-8" in results[1]["message"] and results[1]["line"] == 2
    assert "2 stored, 0 already stored, 1 failed" in err


def test_a_key_holding_nul_fails_alone(
    url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # a record as an older writer could have made it: capsa.Round and the
    # record reader refuse U+0000 in an id, which the store cannot key
    nul = rewritten(make_chain("t", 1)[0], lambda data: data.update(table_id="t\u0000x"))
    records = [make_chain("kept", 1)[0], nul]
    log = tmp_path / "nul.jsonl"
    log.write_text("".join(t + "\n" for t in records), "utf-8")
    code, out, _ = _run(capsys, "store", "append", url, str(log), "--batch", "2")
    results = [json.loads(line) for line in out]
    assert code == 1 and results[0]["stored"] is True
    assert results[1]["error"] == "RecordError" and results[1]["fields"] == ["table_id"]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["store", "append", "{url}", "{tmp}/missing.jsonl"], "missing.jsonl"),
        (["store", "append", "ftp://host/records", "{tmp}/x.jsonl"], "is not a store URL"),
        (["store", "stats", "sqlite:records.db"], "is not a store URL"),
        (["store", "append", "sqlite:///{tmp}/none.db", "{tmp}/x.jsonl"], "capsa store init"),
        (["store", "migrate", "sqlite:///{tmp}/none.db"], "capsa store init"),
        (["store", "migrate", "sqlite:///{tmp}/no/records.db"], "capsa store init"),
        (["store", "init", "sqlite:///{tmp}/no/such/dir/records.db"], "no such directory"),
        (["store", "verify", "sqlite:///{tmp}/text.db"], "not a database"),
        (["store", "verify", "sqlite:///{tmp}"], "it is a directory"),
        (["store", "export", "{url}", "--format", "jsonl", "--out", "{tmp}/no/x.jsonl"], "no/x"),
        (["store", "export", "{url}", "--format", "parquet", "--out", "{tmp}/no/x.pq"], "no/x"),
    ],
)
def test_failures_are_one_line(
    argv: list[str], message: str, url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "text.db").write_text("not a database, a note\n" * 100, "utf-8")
    argv = [a.format(url=url, tmp=tmp_path) for a in argv]
    code, out, err = _run(capsys, *argv)
    assert (code, out) == (2, []) and message in err and _one_line(err)
    assert not (tmp_path / "none.db").exists() and not (tmp_path / "no").exists()


def test_a_locked_database_is_one_line(
    url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(capsa.store.sqlite, "BUSY_TIMEOUT_SECONDS", 1.0)
    log = tmp_path / "in.jsonl"
    log.write_text(make_chain("locked", 1)[0] + "\n", "utf-8")
    holder = sqlite3.connect(tmp_path / "records.db", isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")  # another program holding the database
    try:
        started = time.monotonic()
        code, out, err = _run(capsys, "store", "append", url, str(log))
        waited = time.monotonic() - started
        assert (code, out) == (2, []) and "database is locked" in err and _one_line(err)
        assert 1.0 <= waited < 3.0  # the busy timeout once, not once per try
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    code, out, err = _run(capsys, "store", "append", url, str(log))
    assert code == 0 and json.loads(out[0])["stored"] is True
