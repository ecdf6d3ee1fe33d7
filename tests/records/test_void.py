"""Void records: a round whose commitment was published but which was never
played, closed in its table's chain. The golden void records pin the format;
every reader of records takes one (read_record, replay, verify_deal, capsa
replay and capsa verify, the ledger, to-parquet, capsa render)."""

from __future__ import annotations

import copy
import hashlib
import importlib.util
import io
import json
import subprocess
import sys
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

import capsa
from capsa import _core
from capsa.ledger.data import seal_saved
from capsa.records import (
    VOID_FORMAT,
    RecordError,
    ReplayError,
    canonical_json,
    read_record,
    read_records,
    record_digest,
    void_record,
)
from capsa.sealing import MAC_FIELD

GOLDEN = Path(__file__).parents[1] / "golden"
COMMITMENT = hashlib.sha256(b"a server seed").hexdigest()

KEY = hashlib.sha256(b"test_void_records: the server key").digest()


def _golden_module() -> Any:
    spec = importlib.util.spec_from_file_location("make_records", GOLDEN / "make_records.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def golden_void() -> list[str]:
    return (GOLDEN / "void-1.jsonl").read_text(encoding="utf-8").splitlines()


def golden_rounds() -> list[str]:
    return (GOLDEN / "records-4.jsonl").read_text(encoding="utf-8").splitlines()


def python_canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def played(round_id: str, nonce: int, previous: str | None, table_id: str | None = "t") -> str:
    rnd = capsa.Round(
        round_id=round_id,
        nonce=nonce,
        previous_digest=previous,
        table_id=table_id,
        server_seed=hashlib.sha256(round_id.encode()).digest(),
    )
    rnd.deal()
    for seat, hand in enumerate(rnd.hands):
        rnd.submit(seat, list(hand))
    rnd.close()
    rnd.settle()
    return rnd.record_json()


def chain() -> tuple[str, str, str]:
    """A round, the void round after it, and the round after that, of table t."""
    first = played("t/1", 1, None)
    void = void_record(
        "t/2", COMMITMENT, 2, "crash", table_id="t", previous_digest=json.loads(first)["digest"]
    )
    third = played("t/3", 3, json.loads(void)["digest"])
    return first, void, third


# ---------------------------------------------------------------- the format


def test_golden_void_records_regenerate_byte_for_byte() -> None:
    """`python tests/golden/make_records.py --void > tests/golden/void-1.jsonl`
    writes exactly the committed file: the void record writer is pinned."""
    assert _golden_module().golden_void_records() == golden_void()


def test_golden_void_records_replay_in_their_chains() -> None:
    first, second, alone = golden_void()
    last_round = json.loads(golden_rounds()[-1])["digest"]
    digest = capsa.replay(first, previous_digest=last_round)
    assert capsa.replay(second, previous_digest=digest) == json.loads(second)["digest"]
    capsa.replay(alone, previous_digest=None)
    for line in golden_void():
        view = read_record(line)
        assert view.kind == "void" and isinstance(view, _core.VoidView)
        assert view.canonical_as_read and view.content_digest == view.digest
        capsa.verify_deal(line, commitment=json.loads(line)["deal"]["commitment"])


def test_void_records_are_canonical_json_with_an_independent_digest() -> None:
    records = [json.loads(line) for line in golden_void()]
    assert {r["table_id"] for r in records} == {"table-7", None}
    assert any(r["meta"] for r in records) and any(not r["meta"] for r in records)
    assert any(not r["reason"].isascii() for r in records)
    for line, record in zip(golden_void(), records, strict=True):
        assert python_canonical(record) == line == canonical_json(record)
        assert set(record) == {
            "capsa_version", "deal", "digest", "format", "format_version", "meta",
            "previous_digest", "reason", "round_id", "table_id",
        }  # fmt: skip
        assert record["format"] == VOID_FORMAT and record["format_version"] == 1
        assert set(record["deal"]) == {"algorithm", "commitment", "nonce"}
        without = {k: v for k, v in record.items() if k != "digest"}
        digest = hashlib.sha256(python_canonical(without).encode("utf-8")).hexdigest()
        assert digest == record["digest"] == record_digest(record)


def test_the_docs_show_a_golden_void_record_byte_for_byte() -> None:
    docs = (Path(__file__).parents[2] / "docs" / "records.md").read_text(encoding="utf-8")
    shown = docs.split("For example (`tests/golden/void-1.jsonl`, its first line):")[1]
    assert shown.split("```text\n", 1)[1].split("\n```", 1)[0] == golden_void()[0]


def test_void_records_follow_their_json_schema() -> None:
    jsonschema = pytest.importorskip("jsonschema")
    root = json.loads((resources.files("capsa") / "schema" / "void-1.json").read_text("utf-8"))
    for line in golden_void():
        jsonschema.validate(json.loads(line), root)
    record = json.loads(golden_void()[0])
    for broken in (
        {**record, "reason": ""},
        {**record, "seats": []},
        {**record, "deal": {**record["deal"], "server_seed": "0" * 64}},
        {**record, "format_version": 2},
    ):
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate(broken, root)


def test_the_round_record_reader_names_each_kind() -> None:
    round_text, void, _ = chain()
    assert read_record(round_text).kind == "round"
    assert read_record(void).kind == "void"
    assert read_record(json.loads(void)).kind == "void"  # a dict too
    view = read_record(void)
    assert isinstance(view, _core.VoidView)
    assert (view.round_id, view.table_id, view.nonce, view.commitment, view.reason) == (
        "t/2",
        "t",
        2,
        COMMITMENT,
        "crash",
    )
    assert view.seat_count == 0 and json.loads(view.meta_json) == {}
    batch = read_records([round_text, void, b"{}"])
    assert [getattr(v, "kind", None) for v in batch] == ["round", "void", None]
    assert isinstance(batch[2], RecordError)


def test_replay_checks_a_void_records_digest_and_link() -> None:
    first, void, _ = chain()
    link = json.loads(first)["digest"]
    assert capsa.replay(void, previous_digest=link) == json.loads(void)["digest"]
    changed = json.loads(void)
    changed["reason"] = "no crash at all"
    with pytest.raises(ReplayError) as info:
        capsa.replay(changed, previous_digest=None)
    assert info.value.fields == ("digest", "previous_digest")
    with pytest.raises(ReplayError) as info:
        capsa.verify_deal(void, commitment="0" * 64)
    assert info.value.fields == ("deal.commitment",)


@pytest.mark.parametrize(
    ("edit", "field"),
    [
        (lambda r: r.update(reason=""), "reason"),
        (lambda r: r.update(reason="a\0b"), "reason"),
        (lambda r: r.update(reason="r" * 1025), "reason"),
        (lambda r: r.update(settlement={}), "settlement"),
        (lambda r: r.pop("table_id"), "table_id"),
        (lambda r: r["deal"].update(server_seed="0" * 64), "deal.server_seed"),
        (lambda r: r["deal"].update(nonce=-1), "deal.nonce"),
        (lambda r: r.update(format_version=2), "format_version"),
        (lambda r: r.update(round_id=""), "round_id"),
        (lambda r: r.update(meta={"k": [1]}), "meta"),
    ],
)
def test_an_unreadable_void_record_names_the_field(edit: Any, field: str) -> None:
    record = json.loads(golden_void()[0])
    edit(record)
    with pytest.raises(RecordError) as info:
        capsa.replay(record)
    assert info.value.field == field


def test_void_record_refuses_what_a_void_record_cannot_hold() -> None:
    with pytest.raises(capsa.ArgumentError, match="reason must be 1 to 1024 bytes"):
        void_record("r", COMMITMENT, 1, "")
    with pytest.raises(capsa.ArgumentError, match="U\\+0000"):
        void_record("r", COMMITMENT, 1, "a\0b")
    with pytest.raises(capsa.ArgumentError, match="commitment must be 64"):
        void_record("r", "abc", 1, "crash")
    with pytest.raises(capsa.ArgumentError, match="round_id"):
        void_record("", COMMITMENT, 1, "crash")
    with pytest.raises(capsa.ArgumentError, match="previous_digest"):
        void_record("r", COMMITMENT, 1, "crash", previous_digest="x")
    with pytest.raises(capsa.ArgumentError, match="table_id"):
        void_record("r", COMMITMENT, 1, "crash", table_id="t" * 257)
    with pytest.raises(capsa.ArgumentError, match="nonce"):
        void_record("r", COMMITMENT, -1, "crash")
    with pytest.raises(TypeError):
        void_record("r", COMMITMENT, 1, 7)  # type: ignore[arg-type]
    with pytest.raises(capsa.ArgumentError, match="meta"):
        void_record("r", COMMITMENT, 1, "crash", meta={"k" * 65: 1})
    assert read_record(void_record("r", COMMITMENT, 1, "r" * 1024)).kind == "void"


# ---------------------------------------------------------------- the command line


def _capsa(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "capsa", *args],
        input=stdin,
        capture_output=True,
        text=True,
        check=False,
    )


def test_capsa_replay_and_verify_give_a_void_ok_line() -> None:
    log = "".join(line + "\n" for line in chain())
    for verb in (("replay", "--first"), ("verify",)):
        done = _capsa(*verb, stdin=log)
        assert done.returncode == 0, done.stderr
        lines = [json.loads(line) for line in done.stdout.splitlines()]
        assert [line.get("void") for line in lines] == [None, True, None]
        assert all(line["ok"] for line in lines)
    # the round after a void one must follow it, not the round before
    first, _, third = chain()
    done = _capsa("replay", "--first", stdin=f"{first}\n{third}\n")
    assert done.returncode == 1
    assert json.loads(done.stdout.splitlines()[1])["fields"] == ["previous_digest"]


def test_capsa_verify_checks_a_void_rounds_commitment(tmp_path: Path) -> None:
    _, void, _ = chain()
    published = tmp_path / "commitments.jsonl"
    published.write_text(json.dumps({"round_id": "t/2", "table_id": "t", "commitment": COMMITMENT}))
    done = _capsa("verify", "--commitments", str(published), stdin=void + "\n")
    assert done.returncode == 0 and json.loads(done.stdout)["void"] is True
    published.write_text(json.dumps({"round_id": "t/2", "table_id": "t", "commitment": "0" * 64}))
    done = _capsa("verify", "--commitments", str(published), stdin=void + "\n")
    assert done.returncode == 1 and json.loads(done.stdout)["fields"] == ["deal.commitment"]
    published.write_text(json.dumps({"round_id": "t/9", "table_id": "t", "commitment": COMMITMENT}))
    done = _capsa("verify", "--commitments", str(published), stdin=void + "\n")
    assert done.returncode == 1 and json.loads(done.stdout)["fields"] == ["deal.commitment"]
    done = _capsa("verify", "--commitment", "0" * 64, stdin=void + "\n")
    assert done.returncode == 1


def test_a_round_reusing_a_void_rounds_id_or_nonce_is_refused() -> None:
    first, void, _ = chain()
    digest = json.loads(void)["digest"]
    again = played("t/2", 7, digest)
    done = _capsa("replay", "--first", stdin=f"{first}\n{void}\n{again}\n")
    assert json.loads(done.stdout.splitlines()[2])["fields"] == ["round_id"]
    same_nonce = played("t/4", 2, digest)
    done = _capsa("replay", "--first", stdin=f"{first}\n{void}\n{same_nonce}\n")
    assert json.loads(done.stdout.splitlines()[2])["fields"] == ["deal.nonce"]


# ---------------------------------------------------------------- the ledger


def test_the_ledger_books_a_void_round_without_money() -> None:
    first, void, third = chain()
    ledger = capsa.Ledger(previous_digest=None)
    ledger.add(first)
    balances, house = ledger.balances, ledger.house
    entry = ledger.add(void)
    assert entry.void and entry.players == () and entry.net == () and entry.round == 2
    assert entry.digest == json.loads(void)["digest"] and entry.house == house
    assert ledger.balances == balances and ledger.last_digest_of("t") == entry.digest
    with pytest.raises(ReplayError) as info:
        ledger.add(void)
    assert set(info.value.fields) == {"round_id", "deal.nonce"}
    ledger.add(third)
    assert [e.void for e in ledger.entries] == [False, True, False]
    assert sum(ledger.balances.values()) + ledger.house == 0
    # saved and loaded: the void entry is kept, and so is the chain
    loaded = capsa.Ledger.from_dict(json.loads(json.dumps(ledger.to_dict(key=KEY))), key=KEY)
    assert loaded.entries == ledger.entries and loaded.balances == ledger.balances
    with pytest.raises(ReplayError):
        loaded.add(played("t/2", 9, ledger.last_digest_of("t")))
    out = io.StringIO()
    ledger.write_jsonl(out)
    assert [json.loads(line)["void"] for line in out.getvalue().splitlines()] == [
        False,
        True,
        False,
    ]
    out = io.StringIO()
    ledger.write_csv(out)
    assert "t/2" not in out.getvalue() and len(out.getvalue().splitlines()) == 1 + 8


def test_a_saved_void_entry_is_checked() -> None:
    first, void, _ = chain()
    ledger = capsa.Ledger(previous_digest=None)
    ledger.extend([first, void])
    data = ledger.to_dict(key=KEY)
    # changed, then sealed again under the key: the entry's own checks find it
    bad = copy.deepcopy(data)
    bad["entries"][1]["players"] = ["x", "y"]
    with pytest.raises(capsa.ArgumentError, match="players of a void round"):
        capsa.Ledger.from_dict(_resealed(bad), key=KEY)
    bad = copy.deepcopy(data)
    bad["entries"][1]["void"] = "yes"
    with pytest.raises(capsa.ArgumentError, match="void must be true or false"):
        capsa.Ledger.from_dict(_resealed(bad), key=KEY)


def _resealed(data: dict[str, Any]) -> dict[str, Any]:
    """A saved ledger changed outside the server, sealed again under KEY."""
    return seal_saved({k: v for k, v in data.items() if k != MAC_FIELD}, KEY)


# ---------------------------------------------------------------- analytics and pages


def test_to_parquet_leaves_a_void_round_out_and_counts_it(tmp_path: Path) -> None:
    pytest.importorskip("pyarrow")
    import pyarrow.parquet as pq

    from capsa.bulk.record_tables import records_table, to_parquet

    log = list(chain())
    void: list[tuple[int, str]] = []
    written, failed = to_parquet(
        log, tmp_path / "r.parquet", on_void=lambda n, r: void.append((n, r))
    )
    assert (written, failed, void) == (2, 0, [(2, "t/2")])
    assert pq.read_table(tmp_path / "r.parquet").column("round_id").to_pylist() == ["t/1", "t/3"]
    assert records_table(log).num_rows == 2
    tampered = log[1].replace('"crash"', '"quiet"')
    failures: list[str] = []
    written, failed = to_parquet(
        [tampered], tmp_path / "t.parquet", on_error=lambda n, r, e: failures.append(str(r))
    )
    assert (written, failed, failures) == (0, 1, ["t/2"])
    (tmp_path / "log.jsonl").write_text("".join(line + "\n" for line in log))
    done = _capsa(
        "records", "to-parquet", str(tmp_path / "log.jsonl"), "-o", str(tmp_path / "c.pq")
    )
    assert done.returncode == 0 and done.stdout == ""
    assert "1 void round(s) left out" in done.stderr


def test_capsa_render_draws_a_void_round_with_its_reason(tmp_path: Path) -> None:
    first, _, _ = chain()
    void = void_record(
        "t/2",
        COMMITMENT,
        2,
        "the <server> stopped",
        table_id="t",
        previous_digest=json.loads(first)["digest"],
    )
    log = tmp_path / "log.jsonl"
    log.write_text(f"{first}\n{void}\n")
    done = _capsa("render", str(log), "-o", str(tmp_path / "out.html"))
    assert done.returncode == 0, done.stderr
    index = (tmp_path / "out.html").read_text(encoding="utf-8")
    assert 'class="round void"' in index and "void: the &lt;server&gt; stopped" in index
    assert "1 rounds settled, 1 void, 0 could not be settled." in index
    page = (tmp_path / "out-rounds" / "round-2.html").read_text(encoding="utf-8")
    assert "<title>Void round: Round t/2</title>" in page
    assert "the &lt;server&gt; stopped" in page and COMMITMENT in page
    assert 'data-check="void" data-status="ok"' in page
    alone = tmp_path / "void.jsonl"
    alone.write_text(void.replace("stopped", "halted") + "\n")  # its digest no longer checks
    done = _capsa("render", str(alone), "-o", str(tmp_path / "one.html"), "--lang", "id")
    assert done.returncode == 0
    page = (tmp_path / "one.html").read_text(encoding="utf-8")
    assert "Ronde batal" in page and 'data-check="void" data-status="fail"' in page
