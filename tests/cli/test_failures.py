"""Ordinary failures of the command line's input and output: each is one
line on standard error and exit code 2, found before the work starts where
it can be, and a reader that goes away is no error."""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import capsa
from capsa.cli import EXIT_USAGE, main

A = "Ah Kh 8s / As Ks 9d 7d 5h / Jc Jd Jh 3c 3d"
B = "Qs Js 7s / Tc Td 2s 4s 6s / 2h 4h 6h 9h Qh"
FULL = Path("/dev/full")


def one_line(err: str) -> str:
    assert err.count("\n") == 1, err
    assert "Traceback" not in err and "internal error" not in err, err
    return err


@pytest.fixture
def rounds(tmp_path: Path) -> Path:
    path = tmp_path / "rounds.jsonl"
    lines = [json.dumps({"id": k, "stakes": 10, "seats": [A, B]}) for k in range(3)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


@pytest.mark.parametrize("name", ["x.parquet", "x.jsonl"])
def test_settle_to_a_missing_folder(
    rounds: Path, tmp_path: Path, name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "nonexistent" / "d" / name
    assert main(["settle", str(rounds), "-o", str(target)]) == EXIT_USAGE
    err = one_line(capsys.readouterr().err)
    assert f"cannot write {target}" in err and "no such directory" in err
    assert not (tmp_path / "nonexistent").exists()


@pytest.mark.skipif(not FULL.exists(), reason="no /dev/full")
def test_settle_to_a_full_disk(rounds: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["settle", str(rounds), "-o", str(FULL)]) == EXIT_USAGE
    err = one_line(capsys.readouterr().err)
    assert "cannot write /dev/full: No space left on device" in err


@pytest.mark.skipif(not FULL.exists(), reason="no /dev/full")
def test_parquet_rounds_to_a_full_disk(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("pyarrow")
    source = _parquet_rounds(tmp_path, 50)
    assert main(["settle", str(source), "-o", str(FULL)]) == EXIT_USAGE
    assert "cannot write /dev/full" in one_line(capsys.readouterr().err)


@pytest.mark.skipif(not FULL.exists(), reason="no /dev/full")
def test_rng_dump_to_a_full_disk(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rng", "dump", "--count", "1000", "--out", str(FULL)]) == EXIT_USAGE
    assert "cannot write /dev/full" in one_line(capsys.readouterr().err)


def _parquet_rounds(folder: Path, n: int) -> Path:
    from capsa import bulk

    rng = np.random.default_rng(5)
    decks = np.argsort(rng.random((n, 52)), axis=1).astype(np.uint8)[:, :52]
    path = folder / "rounds.parquet"
    import pyarrow.parquet as pq

    pq.write_table(bulk.rounds_table(decks.reshape(n, 4, 13)), path)
    return path


def test_settle_into_a_reader_that_goes_away(tmp_path: Path) -> None:
    """``capsa settle x.parquet | head -1``: exit 0, nothing on stderr."""
    pytest.importorskip("pyarrow")
    source = _parquet_rounds(tmp_path, 20_000)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    proc = subprocess.Popen(
        [sys.executable, "-m", "capsa", "settle", str(source)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
    )
    assert proc.stdout is not None and proc.stderr is not None
    first = proc.stdout.readline()
    proc.stdout.close()
    err = proc.stderr.read()
    assert proc.wait(timeout=120) == 0, err
    assert json.loads(first)["seats"] == 4
    assert err == b""


def test_simulate_report_into_a_directory_fails_before_simulating(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["simulate", "--deals", "2000000", "--strategy", "greedy", "--no-progress"]
    assert main([*argv, "--report", str(tmp_path)]) == EXIT_USAGE
    out, err = capsys.readouterr()
    assert out == ""  # nothing was simulated
    assert f"cannot write --report {tmp_path}: it is a directory" in one_line(err)
    assert main([*argv, "--json", str(tmp_path / "no" / "s.json")]) == EXIT_USAGE
    out, err = capsys.readouterr()
    assert out == "" and "no such directory" in one_line(err)


def test_simulate_report_without_its_extra_fails_at_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    monkeypatch.setitem(sys.modules, "matplotlib.figure", None)
    argv = ["simulate", "--deals", "2000000", "--strategy", "greedy", "--no-progress"]
    assert main([*argv, "--report", str(tmp_path / "r.html")]) == EXIT_USAGE
    out, err = capsys.readouterr()
    assert out == ""
    assert "pip install 'capsa[report]'" in one_line(err)
    assert not (tmp_path / "r.html").exists()


@pytest.mark.parametrize("count", [1, 2])
def test_render_never_creates_folders(
    tmp_path: Path, count: int, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "rounds.jsonl"
    line = json.dumps({"stakes": 10, "seats": [A, B]})
    source.write_text((line + "\n") * count, encoding="utf-8")
    target = tmp_path / "missing" / "dir" / "x.html"
    assert main(["render", str(source), "-o", str(target)]) == EXIT_USAGE
    assert f"cannot write {target}" in one_line(capsys.readouterr().err)
    assert not (tmp_path / "missing").exists()


def test_play_html_to_a_missing_folder_fails_before_playing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "missing" / "t.html"
    assert main(["play", "--seed", "1", "--html", str(target)]) == EXIT_USAGE
    out, err = capsys.readouterr()
    assert out == "" and "cannot write --html" in one_line(err)


def test_capsa_errors_still_name_their_type(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rank", "Zz"]) == EXIT_USAGE
    assert one_line(capsys.readouterr().err).startswith("capsa rank: CardError:")
    assert isinstance(capsa.CardError("x"), capsa.CapsaError)


@pytest.mark.skipif(not Path("/proc/self").exists(), reason="no /proc")
def test_vectors_into_a_folder_that_cannot_be_made_fail_before_the_work(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from capsa.conformance import vectors

    def never(*args: object, **kwargs: object) -> None:
        raise AssertionError("the vectors were generated before the folder was checked")

    monkeypatch.setattr(vectors, "generate", never)
    assert main(["conformance", "vectors", "--out", "/proc/x"]) == EXIT_USAGE
    assert "cannot write in --out /proc/x" in one_line(capsys.readouterr().err)


@pytest.mark.skipif(not Path("/proc/self").exists(), reason="no /proc")
def test_a_run_into_a_folder_that_cannot_be_made_fails_before_the_run(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from capsa.conformance import harness

    def never(*args: object, **kwargs: object) -> None:
        raise AssertionError("the engine was run before the folder was checked")

    monkeypatch.setattr(harness, "run", never)
    argv = ["conformance", "run", "--engine", "capsa conformance serve", "--out", "/proc/x"]
    assert main(argv) == EXIT_USAGE
    assert "cannot write in --out /proc/x" in one_line(capsys.readouterr().err)


def test_infer_out_to_a_missing_folder_fails_before_probing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "missing" / "house.toml"
    argv = ["conformance", "infer", "--engine", "/nonexistent/engine", "--out", str(target)]
    assert main(argv) == EXIT_USAGE
    assert "cannot write --out" in one_line(capsys.readouterr().err)


@pytest.mark.skipif(not FULL.exists(), reason="no /dev/full")
def test_standard_output_on_a_full_disk(rounds: Path) -> None:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    for argv in (["settle", str(rounds)], ["rules", "pagat"]):
        with FULL.open("wb") as full:
            done = subprocess.run(
                [sys.executable, "-m", "capsa", *argv],
                stdout=full,
                stderr=subprocess.PIPE,
                env=env,
                check=False,
            )
        assert done.returncode == EXIT_USAGE
        assert "No space left on device" in one_line(done.stderr.decode())


def test_tables_train_to_a_missing_folder_fails_before_training(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from capsa.cli import tables

    def never(*args: object, **kwargs: object) -> bytes:
        raise AssertionError("trained before the output was checked")

    monkeypatch.setattr(tables, "train_tables", never)
    target = tmp_path / "missing" / "pagat.bin"
    assert main(["tables", "train", "--preset", "pagat", "--out", str(target)]) == EXIT_USAGE
    assert "no such directory" in one_line(capsys.readouterr().err)


def _interruptible(argv: list[str], **kwargs: object) -> subprocess.Popen[bytes]:
    """``python -m capsa ARGV`` with SIGINT at its default (a background
    process may have inherited it ignored), as a terminal's Ctrl-C meets it."""
    import signal

    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    return subprocess.Popen(  # type: ignore[call-overload, no-any-return]
        [sys.executable, "-m", "capsa", *argv],
        stderr=subprocess.PIPE,
        env=env,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
        **kwargs,
    )


@pytest.mark.skipif(os.name != "posix", reason="SIGINT to a child needs a Unix system")
@pytest.mark.parametrize("source", ["pipe", "file"])
def test_an_interrupt_stops_settle_at_once(tmp_path: Path, source: str) -> None:
    # waiting for input from a pipe, and waiting to write the records of a
    # file read a block ahead on a thread of its own: one line, exit 130,
    # at once
    import signal
    import threading
    import time

    from capsa.cli import EXIT_INTERRUPTED

    line = json.dumps({"seats": [A, B]}).encode() + b"\n"
    if source == "pipe":
        child = _interruptible(["settle"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        assert child.stdin is not None and child.stdout is not None

        # more than a block, then nothing more, the pipe left open; written
        # on a thread, as the child stops reading while its output waits
        def feed() -> None:
            assert child.stdin is not None
            try:
                child.stdin.write(line * 40_000)
                child.stdin.flush()
            except BrokenPipeError:
                pass

        threading.Thread(target=feed, daemon=True).start()
    else:
        rounds = tmp_path / "rounds.jsonl"
        rounds.write_bytes(line * 400_000)
        child = _interruptible(["settle", str(rounds)], stdout=subprocess.PIPE)
        assert child.stdout is not None
    assert child.stdout.readline().startswith(b'{"money":')  # under way
    if source == "pipe":
        # its output read as it comes: the child goes on to wait for input
        threading.Thread(target=child.stdout.read, daemon=True).start()
        time.sleep(0.5)
    # else its output is read no further: the child waits to write
    child.send_signal(signal.SIGINT)
    try:
        code = child.wait(timeout=10)
    finally:
        child.kill()
    assert code == EXIT_INTERRUPTED
    assert child.stderr is not None
    assert one_line(child.stderr.read().decode()).strip() == "capsa settle: interrupted"


def test_only_a_regular_file_is_read_ahead(tmp_path: Path) -> None:
    import io

    from capsa.cli import settle_stream

    path = tmp_path / "rounds.jsonl"
    path.write_bytes(b"\n")
    with path.open("rb") as file:
        assert settle_stream._reads_ahead(file)
    read, write = os.pipe()
    with os.fdopen(read, "rb") as pipe, os.fdopen(write, "wb"):
        assert not settle_stream._reads_ahead(pipe)
    assert not settle_stream._reads_ahead(io.BytesIO(b"\n"))


@pytest.mark.skipif(os.name != "posix", reason="closing a child's descriptor needs a Unix system")
def test_a_closed_standard_output_is_named(rounds: Path) -> None:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    done = subprocess.run(
        [sys.executable, "-m", "capsa", "settle", str(rounds)],
        stderr=subprocess.PIPE,
        env=env,
        preexec_fn=lambda: os.close(1),
        check=False,
    )
    assert done.returncode == EXIT_USAGE
    err = one_line(done.stderr.decode())
    assert err.strip() == (
        "capsa settle: cannot read the input or write the output: standard output is closed"
    )


# ---------------------------------------------------------------- hostile inputs


def _quiet(err: str) -> None:
    assert "Traceback" not in err and "internal error" not in err, err


DEEP = b"[" * 100_000


@pytest.mark.parametrize("column", ["id", "rules", "stakes", "cards0", "surrender1"])
def test_parquet_rounds_with_a_column_twice(
    tmp_path: Path, column: str, capsys: pytest.CaptureFixture[str]
) -> None:
    pa = pytest.importorskip("pyarrow")
    import pyarrow.parquet as pq

    from capsa import bulk

    rounds = bulk.rounds_table(np.arange(52, dtype=np.uint8).reshape(1, 4, 13))
    twice = pa.Table.from_arrays(
        [*rounds.columns, rounds.column(column)], names=[*rounds.column_names, column]
    )
    pq.write_table(twice, tmp_path / "twice.parquet")
    for argv in (
        ["settle", str(tmp_path / "twice.parquet")],
        ["settle", str(tmp_path / "twice.parquet"), "-o", str(tmp_path / "out.parquet")],
    ):
        assert main(argv) == EXIT_USAGE
        err = one_line(capsys.readouterr().err)
        assert f"TableError: the rounds have more than one column named {column!r}" in err
    with pytest.raises(capsa.TableError, match="more than one column"):
        bulk.settle_table(twice)


@pytest.mark.parametrize(
    "line",
    [DEEP, b'{"round_id": ' + DEEP, b'{"format": "capsa-round-record", "x": ' + DEEP],
    ids=["list", "in-an-object", "in-a-record"],
)
def test_a_deeply_nested_line_is_one_failed_record(
    tmp_path: Path, line: bytes, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "deep.jsonl"
    source.write_bytes(line + b"\n")
    for argv in (
        ["records", "to-parquet", str(source), "-o", str(tmp_path / "out.parquet")],
        ["replay", str(source)],
        ["verify", str(source)],
        ["settle", str(source)],
        ["render", str(source), "-o", str(tmp_path / "out.html")],
    ):
        code = main(argv)
        out, err = capsys.readouterr()
        _quiet(err)
        assert code in (0, 1), (argv, err)
        (failed,) = (json.loads(text) for text in out.splitlines())
        assert failed["line"] == 1 and failed["error"] in ("RecordError", "TableError"), failed


def test_a_deeply_nested_commitments_line_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    commitments = tmp_path / "commitments.jsonl"
    commitments.write_bytes(b'{"round_id": ' + DEEP + b"\n")
    records = Path(__file__).parents[1] / "golden" / "records-1.jsonl"
    assert main(["verify", "--commitments", str(commitments), str(records)]) == EXIT_USAGE
    err = one_line(capsys.readouterr().err)
    assert f"--commitments {commitments}, line 1: each line is a JSON object" in err


def test_ids_python_cannot_hold(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """An id of 6,000 digits (past Python's integer text limit) and one
    holding a lone surrogate (an escape of half a UTF-16 pair): rounds
    reported, never an internal error."""
    pytest.importorskip("pyarrow")
    import pyarrow.parquet as pq

    huge = b'{"id": ' + b"1" * 6000 + b', "seats": ["' + A.encode() + b'", "' + B.encode() + b'"]}'
    half = b'{"id": "\\ud800", "seats": ["' + A.encode() + b'", "' + B.encode() + b'"]}'
    record = (Path(__file__).parents[1] / "golden" / "records-1.jsonl").read_bytes().splitlines()[0]
    broken = record.replace(b'"round_id":"', b'"round_id":"\\ud800', 1)
    source = tmp_path / "ids.jsonl"
    source.write_bytes(b"\n".join([huge, half, broken]) + b"\n")
    assert main(["render", str(source), "-o", str(tmp_path / "ids.html")]) == 0
    _quiet(capsys.readouterr().err)
    assert main(["settle", str(source)]) == 0
    out, err = capsys.readouterr()
    _quiet(err)
    results = [json.loads(line, parse_int=str) for line in out.splitlines()]
    assert [r.get("error") for r in results] == [None, None, "RecordError"]
    assert results[0]["id"] == "1" * 6000
    assert results[2]["id"] is None  # the id read from the broken record is no text
    target = tmp_path / "ids.parquet"
    assert main(["settle", str(source), "-o", str(target)]) == 0
    _quiet(capsys.readouterr().err)
    table = pq.read_table(target)
    assert table.column("id").to_pylist() == ["1" * 6000, None, None]
    errors = table.column("error").to_pylist()
    assert errors[0] is None and "lone surrogate" in errors[1]
    assert errors[2].startswith("RecordError")


@pytest.mark.parametrize("op", ["nope", "", "compare,settle"])
def test_vectors_of_an_unknown_op(
    tmp_path: Path, op: str, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "vectors"
    assert main(["conformance", "vectors", "--op", op, "--out", str(target)]) == EXIT_USAGE
    err = one_line(capsys.readouterr().err)
    assert f"--op {op!r} is not an op; the ops are: compare, category" in err
    assert not target.exists()
    from capsa.conformance.vectors import generate

    with pytest.raises(capsa.ArgumentError, match="unknown op"):
        generate([op])


@pytest.mark.parametrize("version", ["'two'", "2.5", "X'02'"])
def test_a_store_whose_schema_version_is_not_an_integer(
    tmp_path: Path, version: str, capsys: pytest.CaptureFixture[str]
) -> None:
    import sqlite3

    url = f"sqlite:///{tmp_path / 's.db'}"
    assert main(["store", "init", url]) == 0
    with contextlib.closing(sqlite3.connect(tmp_path / "s.db")) as db:
        db.execute(f"UPDATE capsa_schema SET version = {version}")
        db.commit()
    capsys.readouterr()
    for argv in (["store", "verify", url], ["store", "migrate", url], ["store", "init", url]):
        assert main(argv) == EXIT_USAGE
        err = one_line(capsys.readouterr().err)
        assert "SchemaVersionError: the store's schema version is" in err
        assert "not an integer" in err
