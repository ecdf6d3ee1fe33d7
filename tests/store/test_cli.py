"""``capsa store``: every verb, its output lines and exit codes, on SQLite
(the same verbs on PostgreSQL once)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from store_records import make_chain

import capsa.store
from capsa.cli import main

GOLDEN = Path(__file__).parents[1] / "golden" / "records-2.jsonl"


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, list[str], str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out.splitlines(), err


def test_a_log_in_and_out(url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, "store", "init", url)
    assert code == 0 and f"schema version {capsa.store.SCHEMA_VERSION}" in out[0]
    log = tmp_path / "in.jsonl"
    chain = make_chain("cli", 3)
    log.write_text(f"{chain[0]}\nnot json\n\n{chain[2]}\n{chain[1]}\n{chain[0]}\n", "utf-8")
    code, out, err = _run(capsys, "store", "append", url, str(log))
    results = [json.loads(line) for line in out]
    assert code == 1
    assert [r.get("stored", r.get("error")) for r in results] == [
        True,
        "RecordError",
        "ChainError",
        True,
        False,
    ]
    assert [r["line"] for r in results] == [1, 2, 4, 5, 6]
    assert results[2]["round_id"] == "cli/r2" and results[2]["fields"] == ["previous_digest"]
    assert "2 stored, 1 already stored, 2 failed" in err
    code, out, err = _run(capsys, "store", "append", url, str(log))  # r2 now follows r1
    assert code == 1 and "1 stored, 3 already stored, 1 failed" in err
    code, out, err = _run(capsys, "store", "verify", url)
    assert (code, out) == (0, []) and "3 record(s) of 1 table(s) verify" in err
    code, out, err = _run(capsys, "store", "verify", url, "--table", "cli")
    assert (code, out) == (0, []) and "3 record(s) of 1 table(s) verify" in err
    code, out, err = _run(capsys, "store", "verify", url, "--table", "other")
    assert (code, out) == (2, []) and "holds no table 'other'" in err
    assert len(err.strip().splitlines()) == 1
    code, out, _ = _run(capsys, "store", "stats", url)
    stats = [json.loads(line) for line in out]
    assert code == 0
    assert [(s["table_id"], s["day"], s["rounds"], s["players"]) for s in stats] == [
        ("cli", "2026-12-01", 2, 4),
        ("cli", "2026-12-02", 1, 4),
    ]
    exported = tmp_path / "out.jsonl"
    code, _, err = _run(capsys, "store", "export", url, "--format", "jsonl", "--out", str(exported))
    assert code == 0 and exported.read_text("utf-8") == "".join(t + "\n" for t in chain)
    code, out, _ = _run(capsys, "store", "migrate", url)
    assert code == 0 and "nothing to migrate" in out[0]


def test_verify_reports_an_edited_row(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import sqlite3

    url = f"sqlite:///{tmp_path}/records.db"
    assert _run(capsys, "store", "append", url, str(GOLDEN))[0] == 2  # no store yet
    assert not (tmp_path / "records.db").exists()  # and none made
    assert _run(capsys, "store", "init", url)[0] == 0
    assert _run(capsys, "store", "append", url, str(GOLDEN))[0] == 0
    with sqlite3.connect(tmp_path / "records.db") as conn:
        conn.execute("UPDATE capsa_records SET record = replace(record, '\"Alice\"', '\"Eve\"')")
    code, out, err = _run(capsys, "store", "verify", url)
    problems = [json.loads(line) for line in out]
    assert code == 1 and problems and problems[0]["round_id"] == "table-7/round-1"
    assert problems[0]["table_id"] == "table-7" and "digest" in problems[0]["fields"]
    code, _, err = _run(
        capsys, "store", "export", url, "--format", "parquet", "--out", str(tmp_path / "x.parquet")
    )
    assert code in (1, 2) and "Traceback" not in err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["store", "verify", "mysql://x"], "is not a store URL"),
        (["store", "verify", "sqlite:////nonexistent/dir/x.db"], "holds no records store"),
        (["store", "init", "sqlite:////nonexistent/dir/x.db"], "unable to open"),
        (
            ["store", "verify", "postgresql://nobody:pw@127.0.0.1:1/x", "--retry-seconds", "0.2"],
            "DatabaseUnavailableError: the database postgresql://nobody:***@127.0.0.1:1/x is "
            "unavailable (tried for 0.2 s); last error: OperationalError: connection failed",
        ),
        (["store", "stats", "sqlite:///x.db", "--retry-seconds", "-1"], "must be a number"),
        (["store", "stats", "sqlite:///x.db", "--retry-seconds", "inf"], "must be a number"),
        (["store", "export", "sqlite:///x.db", "--format", "xml", "--out", "x"], "invalid choice"),
    ],
)
def test_failures_are_one_line(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _out, err = _run(capsys, *argv)
    assert code == 2 and message in err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err


@pytest.mark.parametrize("batch", ["2", "3", "100"])
def test_append_in_batches_reports_each_line(
    batch: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = f"sqlite:///{tmp_path}/records.db"
    chain = make_chain("cli", 3)
    log = tmp_path / "in.jsonl"
    log.write_text(f"{chain[0]}\nnot json\n\n{chain[2]}\n{chain[1]}\n{chain[0]}\n", "utf-8")
    assert _run(capsys, "store", "init", url)[0] == 0
    code, out, err = _run(capsys, "store", "append", url, str(log), "--batch", batch)
    results = [json.loads(line) for line in out]
    assert code == 1 and [r["line"] for r in results] == [1, 2, 4, 5, 6]
    assert [r.get("stored", r.get("error")) for r in results] == [
        True,
        "RecordError",
        "ChainError",
        True,
        False,
    ]
    code, out, err = _run(capsys, "store", "append", url, str(log), "--batch", batch)
    assert "1 stored, 3 already stored, 1 failed" in err
    assert _run(capsys, "store", "append", url, str(log), "--batch", "0")[0] == 2


def test_pending_rounds_and_records_set_aside(url: str, capsys: pytest.CaptureFixture[str]) -> None:
    with capsa.store.open(url) as store:
        store.open_round(capsa.store.Opening("t", "t/r0", 7, "ab" * 32, None, opened_ms=1))
        store.set_aside(b"\xff not UTF-8", "RecordError", table_id="t")
        store.set_aside('{"a": "\u00e9"}', "ChainError", round_id="t/r9")
    code, out, _ = _run(capsys, "store", "pending", url)
    assert code == 0 and [json.loads(line) for line in out] == [
        {
            "commitment": "ab" * 32,
            "nonce": 7,
            "opened_ms": 1,
            "previous_digest": None,
            "round_id": "t/r0",
            "table_id": "t",
        }
    ]
    code, out, _ = _run(capsys, "store", "set-aside", url)
    lines = [json.loads(line) for line in out]
    assert code == 0 and [(k["seq"], k["reason"]) for k in lines] == [
        (1, "RecordError"),
        (2, "ChainError"),
    ]
    assert lines[0]["record_base64"] == "/yBub3QgVVRGLTg=" and "record" not in lines[0]
    assert lines[1]["record"] == '{"a": "\u00e9"}' and lines[1]["round_id"] == "t/r9"


def test_keys_checkpoints_and_business_days(
    url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("CAPSA_STORE_KEY", raising=False)
    key = tmp_path / "store.key"
    key.write_text("5a" * 32 + "\n", "ascii")
    log = tmp_path / "in.jsonl"
    log.write_text("".join(t + "\n" for t in make_chain("cli", 3)), "utf-8")
    assert _run(capsys, "store", "init", url)[0] == 0
    assert _run(capsys, "store", "append", url, str(log), "--key-file", str(key))[0] == 0
    code, out, err = _run(capsys, "store", "verify", url)
    assert (code, out) == (0, []) and "head MACs not checked: no store key" in err
    code, out, err = _run(capsys, "store", "verify", url, "--key-file", str(key))
    assert code == 0 and "head MACs checked; no checkpoint given" in err
    monkeypatch.setenv("CAPSA_STORE_KEY", "5a" * 32)
    code, out, err = _run(capsys, "store", "checkpoint", url)
    assert code == 0 and "1 table(s)" in err and "signed under the store key" in err
    checkpoint = capsa.store.Checkpoint.parse(out[0])
    assert len(out) == 1 and checkpoint.signed_by(bytes.fromhex("5a" * 32))
    published = tmp_path / "checkpoint.json"
    published.write_text(out[0], "utf-8")
    code, out, err = _run(capsys, "store", "verify", url, "--checkpoint", str(published))
    assert code == 0 and "head MACs checked; against 1 checkpoint(s)" in err
    # the heads deleted: every record still checked, each missing head named
    with capsa.store.open(url) as store:
        store._execute("DELETE FROM capsa_tables")
    code, out, err = _run(capsys, "store", "verify", url, "--checkpoint", str(published))
    problems = [json.loads(line) for line in out]
    assert code == 1 and "3 record(s) of 1 table(s) checked" in err
    assert [(p["kind"], p["table_id"], p["fields"]) for p in problems] == [
        ("head", "cli", ["head"])
    ]
    code, out, _ = _run(capsys, "store", "stats", url, "--tz", "Pacific/Kiritimati")
    assert code == 0 and [json.loads(line)["day"] for line in out] == ["2026-12-02", "2026-12-03"]


@pytest.mark.parametrize(
    ("argv", "env", "message"),
    [
        (["verify", "--key-file", "{tmp}/none"], None, "cannot read"),
        (["verify", "--key-file", "{tmp}/log.jsonl"], None, "written as hex"),
        (["verify"], "5a5a", "at least 16 bytes"),
        (["verify"], "not hex", "CAPSA_STORE_KEY: a store key is written as hex"),
        (["verify", "--checkpoint", "{tmp}/log.jsonl"], None, "--checkpoint"),
        (["verify", "--table", "typo"], None, "holds no table 'typo'"),
        (["sign-heads"], None, "without a key"),
        (["stats", "--tz", "Mars/Base"], None, "time zone"),
    ],
)
def test_key_checkpoint_and_zone_failures_are_one_line(
    argv: list[str],
    env: str | None,
    message: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    url = f"sqlite:///{tmp_path}/records.db"
    (tmp_path / "log.jsonl").write_text(make_chain("cli", 1)[0] + "\n", "utf-8")
    assert _run(capsys, "store", "init", url)[0] == 0
    if env is None:
        monkeypatch.delenv("CAPSA_STORE_KEY", raising=False)
    else:
        monkeypatch.setenv("CAPSA_STORE_KEY", env)
    verb, *rest = argv
    code, _, err = _run(capsys, "store", verb, url, *[a.format(tmp=tmp_path) for a in rest])
    assert code == 2 and message in err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
