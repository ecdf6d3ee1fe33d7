"""The ``capsa settle`` stream never loses a round: every line gets one record,
a bad line an error record of one shape, in order, whatever the input holds."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import capsa
from capsa import _core
from capsa.cli import main

A = "Ah Kh 8s / As Ks 9d 7d 5h / Jc Jd Jh 3c 3d"
B = "Qs Js 7s / Tc Td 2s 4s 6s / 2h 4h 6h 9h Qh"
ERROR_KEYS = ["error", "id", "line", "message", "row", "seat"]


def good(round_id: object) -> bytes:
    return json.dumps({"id": round_id, "seats": [A, B]}).encode()


def settle_bytes(
    data: bytes, capsys: pytest.CaptureFixture[str], *args: str, path: Path | None = None
) -> tuple[int, list[Any], str]:
    """Runs ``capsa settle`` on ``data`` from standard input (or from a file
    when ``path`` is given); returns the exit code, the records, stderr."""
    old = sys.stdin
    argv = ["settle", *args]
    if path is not None:
        path.write_bytes(data)
        argv.append(str(path))
    else:
        sys.stdin = io.TextIOWrapper(io.BytesIO(data), encoding="utf-8")
    try:
        code = main(argv)
    finally:
        sys.stdin = old
    out, err = capsys.readouterr()
    if out.lstrip().startswith("["):
        return code, json.loads(out), err
    return code, [json.loads(line) for line in out.splitlines()], err


@pytest.fixture(params=["stdin", "file"])
def source(request: pytest.FixtureRequest, tmp_path: Path) -> Path | None:
    return tmp_path / "rounds.jsonl" if request.param == "file" else None


def test_a_malformed_first_line_does_not_swallow_the_stream(
    capsys: pytest.CaptureFixture[str], source: Path | None
) -> None:
    for first in (b'{"id": 0, "seats": [', b"\xef\xbb\xbf{", b"[", b"not json", b'{"id": 0} x'):
        data = b"\n".join([first, good(1), good(2)]) + b"\n"
        code, records, _ = settle_bytes(data, capsys, path=source)
        assert code == 0
        assert [r.get("id") for r in records] == [None, 1, 2], first
        assert records[0]["line"] == 1 and sorted(records[0]) == ERROR_KEYS


def test_a_byte_order_mark_is_ignored(
    capsys: pytest.CaptureFixture[str], source: Path | None
) -> None:
    data = b"\xef\xbb\xbf" + good(1) + b"\n" + good(2) + b"\n"
    _, records, _ = settle_bytes(data, capsys, path=source)
    assert [r["id"] for r in records] == [1, 2] and "points" in records[0]


def test_bad_utf8_is_one_error_record(
    capsys: pytest.CaptureFixture[str], source: Path | None
) -> None:
    data = good(1) + b"\n" + b'{"id": 2, "seats": ["\xff\xfe"]}\n' + good(3) + b"\n\xc3\n"
    code, records, err = settle_bytes(data, capsys, path=source)
    assert code == 0 and "Traceback" not in err
    assert [r.get("error") for r in records] == [None, "TableError", None, "TableError"]
    assert records[1]["line"] == 2 and "UTF-8" in records[1]["message"]
    assert records[3]["line"] == 4


@pytest.mark.parametrize("data", [b"", b"\n", b"  \n\t\r\n\n", b"\xef\xbb\xbf\n"])
@pytest.mark.parametrize("fmt", ["auto", "jsonl", "json"])
def test_empty_input_gives_nothing(
    capsys: pytest.CaptureFixture[str], data: bytes, fmt: str
) -> None:
    code, records, err = settle_bytes(data, capsys, "--strict", "--format", fmt)
    assert (code, records, err) == (0, [], "")


def test_lines_end_at_line_feeds_only(
    capsys: pytest.CaptureFixture[str], source: Path | None
) -> None:
    round_with_cr = b'{"id": 1,\r"seats": [\r"%s",\r"%s"]}' % (A.encode(), B.encode())
    data = round_with_cr + b"\r\n" + b"bad\n" + good(3) + b"\n"
    _, records, _ = settle_bytes(data, capsys, path=source)
    assert [r.get("id") for r in records] == [1, None, 3]
    assert "points" in records[0] and records[1]["line"] == 2


@pytest.mark.parametrize(
    "written",
    [
        "123456789012345678901234567890",
        "-0",
        "1e400",
        "0.1000000000000000055511151231257827",
        '"t\\u00e9"',
        "null",
    ],
)
def test_ids_are_echoed_exactly(capsysbinary: pytest.CaptureFixture[bytes], written: str) -> None:
    id_text = written.encode()
    settled = b'{"id": %s, "seats": ["%s", "%s"]}\n' % (id_text, A.encode(), B.encode())
    failed = b'{"id": %s, "seats": ["%s"]}\n' % (id_text, A.encode())
    old = sys.stdin
    sys.stdin = io.TextIOWrapper(io.BytesIO(settled + failed), encoding="utf-8")
    try:
        main(["settle"])
    finally:
        sys.stdin = old
    first, second = capsysbinary.readouterr().out.splitlines()
    assert first.startswith(b'{"id":%s,"money":' % id_text)
    assert b'"id":%s,"line":2' % id_text in second


def test_error_records_have_one_shape_everywhere(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    bad_card = {"id": "r", "seats": [A, "Qs Js 7s / Tc Td 2s 4s 6s / 2h 4h 6h 9h Zz"]}
    _, lines_out, _ = settle_bytes(json.dumps(bad_card).encode() + b"\n", capsys)
    doc = json.dumps([{"id": "q", "seats": [A, B]}, bad_card], indent=1).encode()
    _, doc_out, _ = settle_bytes(doc, capsys)
    _, file_out, _ = settle_bytes(doc, capsys, "--format", "json", path=tmp_path / "d.json")
    for record in (lines_out[0], doc_out[1], file_out[1]):
        assert sorted(record) == ERROR_KEYS
        assert record["error"] == "CardError" and record["id"] == "r"
        assert record["seat"] == 1 and record["row"] == "bottom"
        assert "Zz" in record["message"]
    assert doc_out[1]["line"] == doc[: doc.index(b'"id": "r"')].count(b"\n")


def test_a_document_is_one_round_or_a_list(capsys: pytest.CaptureFixture[str]) -> None:
    one = json.dumps({"id": 9, "seats": [A, B]}, indent=2).encode()
    _, records, _ = settle_bytes(one, capsys)
    assert len(records) == 1 and records[0]["id"] == 9
    listed = json.dumps([{"id": 1, "seats": [A, B]}, {"id": 2, "seats": [B, A]}]).encode()
    _, records, _ = settle_bytes(listed, capsys)
    assert [r["id"] for r in records] == [1, 2]
    assert records[0]["points"] == [-p for p in records[1]["points"]]


def test_a_malformed_document_is_one_error_naming_its_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, records, _ = settle_bytes(b'[\n{"seats": []},\n{', capsys, "--format", "json")
    # nothing was settled: exit 1 (docs/cli.md, exit codes)
    assert code == 1 and len(records) == 1
    assert records[0]["line"] == 3 and sorted(records[0]) == ERROR_KEYS


def test_an_overlong_line_is_reported_and_skipped(capsys: pytest.CaptureFixture[str]) -> None:
    huge = b'{"id": "' + b"x" * (_core.MAX_LINE_BYTES + 10) + b'"}'
    data = good(1) + b"\n" + huge + b"\n" + good(3) + b"\n" + huge
    code, records, _ = settle_bytes(data, capsys)
    assert code == 0
    assert [r.get("id") for r in records] == [1, None, 3, None]
    assert records[1]["line"] == 2 and str(len(huge)) in records[1]["message"]
    assert records[3]["line"] == 4


def test_keys_given_twice_are_refused(capsys: pytest.CaptureFixture[str]) -> None:
    data = b'{"id": 1, "seats": ["%s", "%s"], "stakes": 1, "stakes": 2}\n' % (
        A.encode(),
        B.encode(),
    )
    _, records, _ = settle_bytes(data, capsys)
    assert records[0]["error"] == "TableError" and "stakes" in records[0]["message"]


def test_seat_forms_match_the_api(capsys: pytest.CaptureFixture[str]) -> None:
    a = capsa.Arrangement.parse(A)
    rounds = [
        {"seats": [A, B]},
        {"seats": [list(a.ids), B]},
        {"seats": [" ".join(str(c) for c in a.cards), B]},
        {
            "seats": [
                {"top": A.split("/")[0], "middle": list(a.ids[3:8]), "bottom": A.split("/")[2]},
                B,
            ]
        },
    ]
    data = b"".join(json.dumps(r).encode() + b"\n" for r in rounds)
    _, records, _ = settle_bytes(data, capsys)
    api = capsa.settle([a, capsa.Arrangement.parse(B)]).to_dict()
    assert all(r == api for r in records)


@pytest.mark.parametrize(
    "argv",
    [
        ["settle", "/no/such/file"],
        ["settle", "/"],
        ["settle", "--rules", "no-such-preset"],
        ["settle", "--format", "xml"],
        ["settle", "--indent", "-1"],
        ["play", "--seats", "99999999999999999999"],
        ["play", "--seats", "-1"],
        ["play", "--seats", "1"],
        ["play", "--seats", "5"],
        ["play", "--seats", "four"],
        ["play", "--seed", "-1"],
        ["play", "--seed", str(2**64)],
        ["play", "--seed", "1.5"],
        ["play", "--stake", "-1"],
        ["play", "--rules", "/"],
        ["arrange", "As Ks Qs Js Ts 9s 8s 7s 6s 5s 4s 3s 2s", "-k", "0"],
        ["arrange", "As Ks Qs Js Ts 9s 8s 7s 6s 5s 4s 3s 2s", "-k", "-3"],
        ["arrange", "As Ks Qs Js Ts 9s 8s 7s 6s 5s 4s 3s 2s", "--seats", "-1"],
        ["arrange", "As Ks Qs Js Ts 9s 8s 7s 6s 5s 4s 3s 2s", "--seats", str(10**30)],
        ["arrange", "As Ks Qs"],
        ["arrange", "As As Qs Js Ts 9s 8s 7s 6s 5s 4s 3s 2s"],
        ["arrange", "Zz Ks Qs Js Ts 9s 8s 7s 6s 5s 4s 3s 2s"],
        ["arrange", "A\udcff Ks Qs Js Ts 9s 8s 7s 6s 5s 4s 3s 2s"],
        ["rank", "As Ks"],
        ["rank", "As Ks Qs Js Zs"],
        ["rank", "\udcff"],
        ["rules", "no-such-preset"],
        ["rules", "/"],
        ["rules", "/no/such/file.toml"],
        ["rules", "x" * 5000],
        ["play", "--rules", "x/" * 3000],
        ["bogus"],
        ["--bogus"],
        ["play", "--bogus"],
    ],
)
def test_every_failure_is_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    code = main(argv)
    out, err = capsys.readouterr()
    assert code == 2, (argv, err)
    assert err.count("\n") == 1 and err.startswith("capsa"), err
    assert "Traceback" not in err
    assert out == ""


@pytest.mark.parametrize(
    "content",
    [
        b"\xff\xfe\x00name",
        b"a = " + b"[" * 5000 + b"]" * 5000,
        b"base = [1]",
        b"x = 1" + b"0" * 5000,
    ],
)
def test_bad_rules_files_are_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, content: bytes
) -> None:
    path = tmp_path / "house.toml"
    path.write_bytes(content)
    for argv in (["rules", str(path)], ["play", "--rules", str(path)]):
        code = main(argv)
        out, err = capsys.readouterr()
        assert code == 2 and err.count("\n") == 1 and "RulesError" in err, (argv, err)
        assert out == ""


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--version"]) == 0
    assert capsys.readouterr().out.strip() == f"capsa {capsa.__version__}"


def test_the_console_script_fails_in_one_line(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "capsa", "settle", str(tmp_path / "missing.jsonl")],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "missing.jsonl" in done.stderr
    piped = subprocess.run(
        [sys.executable, "-m", "capsa", "settle"],
        input=b"\xff\n" + good(1) + b"\n",
        capture_output=True,
    )
    assert piped.returncode == 0
    records = [json.loads(x) for x in piped.stdout.splitlines()]
    assert [r.get("id") for r in records] == [None, 1]


def test_a_document_written_in_batches_is_the_document_settled_whole() -> None:
    known = {"capsa-susun": capsa.Rules()}
    rounds = [{"id": k, "seats": [A, B] if k % 7 else [A]} for k in range(20_000)]
    for document in (
        json.dumps(rounds, indent=1).encode(),
        json.dumps(rounds[0]).encode(),
        b"[]",
        b"[1,",
    ):
        whole, failed = _core.settle_json_document(document, known, "capsa-susun", None)
        parts: list[bytes] = []
        assert _core.write_json_document(document, known, parts.append, "capsa-susun") == failed
        assert b"".join(parts) == whole
    assert failed == 1 and len(parts) == 1
