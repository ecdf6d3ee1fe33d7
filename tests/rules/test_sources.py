"""Money never changes silently: wherever rules can come from two places
(the caller, and data such as a Parquet file's footer, a record, a round
state, an engine's hello), a name the caller gives means the caller's
rules, a preset's name means the preset, and rules read as data are in
full or refused. Each reader is a case here."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from store_records import played

import capsa
from capsa import bulk
from capsa.bulk import record_tables
from capsa.bulk.record_tables import RULES_METADATA_KEY
from capsa.cli import EXIT_USAGE, main

PAGAT = capsa.Rules.preset("pagat")


def _records(count: int, rules: capsa.Rules, table: str = "t") -> list[str]:
    """``count`` records of four seats under ``rules`` (each seat submits
    its hand as dealt), played at one moment each."""
    lines = []
    for k in range(count):
        rnd = capsa.Round(
            rules,
            4,
            None,
            round_id=f"{table}/{k}",
            nonce=k,
            table_id=table,
            server_seed=hashlib.sha256(f"rules sources {k}".encode()).digest(),
            meta={"played_at": f"2027-01-0{1 + k % 9}T08:00:00Z"},
        )
        lines.append(played(rnd))
    return lines


def _with_footer(source: Path, target: Path, footer: Any, *, stakes: bool = True) -> Path:
    """``source`` rewritten with ``footer`` (JSON data, or bytes as they
    are) as its ``capsa.rules``; without ``stakes`` the stakes column is
    null, so that every round plays its rules' ``money.stake``."""
    table = pq.read_table(source)
    if not stakes:
        at = table.column_names.index("stakes")
        table = table.set_column(at, "stakes", pa.nulls(table.num_rows, pa.int64()))
    text = footer if isinstance(footer, bytes) else json.dumps(footer).encode()
    pq.write_table(table.replace_schema_metadata({RULES_METADATA_KEY: text}), target)
    return target


@pytest.fixture
def pagat_file(tmp_path: Path) -> Path:
    """Rounds recorded under pagat, as ``capsa records to-parquet`` writes them."""
    path = tmp_path / "f.parquet"
    record_tables.to_parquet(_records(4, PAGAT), path)
    return path


def _nets(lines: list[str]) -> list[list[int]]:
    return [json.loads(line)["settlement"]["net"] for line in lines]


def one_line(err: str) -> str:
    assert err.count("\n") == 1, err
    assert "Traceback" not in err and "internal error" not in err, err
    return err


# ---------------------------------------------------------------- Parquet footers


def test_a_footer_never_redefines_a_preset(
    pagat_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The issue's case: a footer saying pagat stakes 100 a point made
    ``capsa settle --rules pagat`` pay 100 times pagat's money."""
    redefined = PAGAT.derive({"money.stake": 100}).to_dict()
    evil = _with_footer(pagat_file, tmp_path / "evil.parquet", {"pagat": redefined}, stakes=False)
    assert main(["settle", "--rules", "pagat", str(evil)]) == EXIT_USAGE
    out, err = capsys.readouterr()
    assert out == ""
    assert "redefines the preset 'pagat' (money.stake is 100, not 1)" in one_line(err)
    with pytest.raises(capsa.RulesError, match="redefines the preset 'pagat'"):
        bulk.settle_table(pq.ParquetFile(evil).read(), PAGAT)
    # as written by capsa, the same rounds pay pagat's money
    honest = _with_footer(pagat_file, tmp_path / "honest.parquet", {"pagat": PAGAT.to_dict()})
    assert main(["settle", "--rules", "pagat", str(honest)]) == 0
    paid = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    recorded = [json.loads(line)["settlement"] for line in _records(4, PAGAT)]
    assert [p["money"] for p in paid] == [r["money"] for r in recorded]
    assert [p["money"] for p in paid] == [p["points"] for p in paid]  # pagat's stake is 1


@pytest.mark.parametrize(
    ("footer", "reason"),
    [
        ({"pagat": {"scoop": {"multiplier": 100}}}, "not the rules in full"),
        ({"pagat": {**PAGAT.to_dict(), "base": "pagat"}}, "base names a preset"),
        ({"pagat": {**PAGAT.to_dict(), "nope": 1}}, "unknown key 'nope'"),
        ({"pagat": "pagat"}, "must be the rules as a JSON object"),
        ([PAGAT.to_dict()], "must be a JSON object of rules by name"),
        (b"not json", "is not JSON"),
        (b"[" * 100_000, "is not JSON: nested too deeply"),
        ({"house": PAGAT.derive(name="house").to_dict()}, "names rules 'house' that are not"),
        (
            {"pagat@0123456789abcdef": PAGAT.to_dict()},
            "names rules 'pagat@0123456789abcdef' that are not those rules",
        ),
    ],
)
def test_a_footer_capsa_did_not_write_is_refused(
    pagat_file: Path,
    tmp_path: Path,
    footer: Any,
    reason: str,
    capsys: pytest.CaptureFixture[str],
) -> None:
    bad = _with_footer(pagat_file, tmp_path / "bad.parquet", footer)
    assert main(["settle", str(bad)]) == EXIT_USAGE
    assert reason in one_line(capsys.readouterr().err)
    with pytest.raises(capsa.RulesError, match=r"capsa\.rules"):
        record_tables.parquet_rules(bad)
    with pytest.raises(capsa.RulesError, match=r"capsa\.rules"):
        bulk.settle_parquet(bad, tmp_path / "out.parquet")


def test_the_callers_name_and_the_footers_disagreeing_is_an_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A file recorded under pagat, settled with ``--rules`` a house file
    that kept pagat's name: pagat would mean two things, so it is refused
    (and never quietly one of them)."""
    path = tmp_path / "f.parquet"
    record_tables.to_parquet(_records(2, PAGAT), path)
    house = PAGAT.derive({"money.stake": 100})
    assert house.name == "pagat"  # a rules file based on pagat keeps its name
    (tmp_path / "house.toml").write_text(house.to_toml(), encoding="utf-8")
    assert main(["settle", "--rules", str(tmp_path / "house.toml"), str(path)]) == EXIT_USAGE
    err = one_line(capsys.readouterr().err)
    assert "names rules 'pagat' other than the rules given under that name" in err
    assert "money.stake is 1, not 100" in err
    table = pq.ParquetFile(path).read()
    with pytest.raises(capsa.RulesError, match="other than the rules given"):
        bulk.settle_table(table, house)
    with pytest.raises(capsa.RulesError, match="other than the rules given"):
        bulk.settle_table(table, known={"pagat": house})
    # the footer's own names settle, the caller's other names too
    results = bulk.settle_table(table, known={"house": house})
    assert results.column("error").null_count == 2


def test_the_default_rules_and_known_must_agree_on_a_name() -> None:
    house = PAGAT.derive({"money.stake": 100})
    hands = np.array([[c.id for c in h] for h in capsa.deal(4, seed=3)], dtype=np.uint8)
    rounds = bulk.rounds_table(capsa.best_arrangement_batch(hands, PAGAT)[None])
    with pytest.raises(capsa.RulesError, match="rules= and known= name different rules 'pagat'"):
        bulk.settle_table(rounds, house, known={"pagat": PAGAT})
    # the default rules settle the rounds that name none, whatever known holds
    plain = bulk.settle_table(rounds, house)
    assert plain.column("money0").to_pylist() == [100 * plain.column("points0")[0].as_py()]


def test_the_dask_paths_read_the_footer_as_strictly(pagat_file: Path, tmp_path: Path) -> None:
    pytest.importorskip("dask.dataframe")
    from capsa import dask as capsa_dask

    redefined = PAGAT.derive({"money.stake": 100}).to_dict()
    evil = _with_footer(pagat_file, tmp_path / "evil.parquet", {"pagat": redefined}, stakes=False)
    with pytest.raises(capsa.RulesError, match="redefines the preset 'pagat'"):
        capsa_dask.settle_parquet(evil, tmp_path / "out", rows_per_task=1)
    # a frame drops the footer: known= is the caller's, read from the file strictly
    with pytest.raises(capsa.RulesError, match="redefines the preset 'pagat'"):
        record_tables.parquet_rules(evil)
    house = PAGAT.derive({"money.stake": 100})
    with pytest.raises(capsa.RulesError, match="other than the rules given"):
        capsa_dask.settle_parquet(pagat_file, tmp_path / "out2", house, rows_per_task=1)
    frame = capsa_dask.read_rounds(pagat_file)
    settled = capsa_dask.settle_dataframe(frame, PAGAT).compute()
    assert settled["error"].isna().all()


# ---------------------------------------------------------------- JSON Lines


def test_a_record_line_keeps_its_own_rules_and_a_round_line_the_callers(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """In one stream: a record settles under the rules it holds whatever
    ``--rules`` says; a round naming pagat settles under the ``--rules``
    file that the caller named pagat (the caller's name wins)."""
    house = PAGAT.derive({"money.stake": 100})
    (tmp_path / "house.toml").write_text(house.to_toml(), encoding="utf-8")
    record = _records(1, PAGAT)[0]
    hands = [
        "Ah Kh 8s / As Ks 9d 7d 5h / Jc Jd Jh 3c 3d",
        "Qs Js 7s / Tc Td 2s 4s 6s / 2h 4h 6h 9h Qh",
    ]
    round_line = json.dumps({"id": "r", "rules": "pagat", "seats": hands})
    (tmp_path / "mixed.jsonl").write_text(f"{record}\n{round_line}\n", encoding="utf-8")
    argv = ["settle", "--rules", str(tmp_path / "house.toml"), str(tmp_path / "mixed.jsonl")]
    assert main(argv) == 0
    first, second = (json.loads(line) for line in capsys.readouterr().out.splitlines())
    assert first["money"] == json.loads(record)["settlement"]["money"]
    assert second["money"] == [100 * p for p in second["points"]]


def test_a_record_whose_rules_name_the_caller_gave_other_rules_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = _records(1, PAGAT)[0]
    key = record_tables.rules_key(PAGAT)
    impostor = PAGAT.derive({"money.stake": 100, "name": key})
    (tmp_path / "impostor.toml").write_text(impostor.to_toml(), encoding="utf-8")
    (tmp_path / "r.jsonl").write_text(record + "\n", encoding="utf-8")
    argv = ["settle", "--rules", str(tmp_path / "impostor.toml"), str(tmp_path / "r.jsonl")]
    assert main(argv) == 1  # the one round failed
    (error,) = (json.loads(line) for line in capsys.readouterr().out.splitlines())
    assert error["error"] == "RulesError" and error["id"] == "t/0"
    assert f"names rules {key!r} other than the rules given" in error["message"]


# ---------------------------------------------------------------- records and states


@pytest.mark.parametrize(
    ("rules", "reason"),
    [
        ({"scoop": {"multiplier": 100}}, "not the rules in full"),
        ({**PAGAT.to_dict(), "base": "pagat"}, "base names a preset"),
        ('base = "pagat"\n[money]\nstake = 100\n', "base names a preset"),
        ("[money]\nstake = 100\n", "not the rules in full"),
    ],
)
def test_render_refuses_a_records_partial_rules(
    tmp_path: Path, rules: Any, reason: str, capsys: pytest.CaptureFixture[str]
) -> None:
    record = json.loads(_records(1, PAGAT)[0])
    record["rules"] = rules
    (tmp_path / "r.jsonl").write_text(json.dumps(record) + "\n", encoding="utf-8")
    argv = ["render", str(tmp_path / "r.jsonl"), "-o", str(tmp_path / "r.html"), "--strict"]
    assert main(argv) == 1
    (error,) = (json.loads(line) for line in capsys.readouterr().out.splitlines())
    assert error["error"] == "RulesError" and reason in error["message"]


def test_render_reads_an_older_records_rules_as_its_format_writes_them() -> None:
    from capsa.render import table_from_record

    golden = Path(__file__).parents[1] / "golden" / "records-1.jsonl"
    record = json.loads(golden.read_text(encoding="utf-8").splitlines()[0])
    assert set(record["rules"]["money"]) == {"stake", "rake_percent"}
    assert table_from_record(record).rules is not None
    del record["rules"]["money"]["rake_percent"]
    with pytest.raises(capsa.RulesError, match="not the rules in full as a format 1 record"):
        table_from_record(record)


def test_a_round_states_rules_are_read_in_full() -> None:
    from capsa.round.state import rules_of_state, rules_text

    assert rules_of_state(rules_text(PAGAT)) == PAGAT
    partial = capsa._core.canonical_json(json.dumps({"money": {"stake": 100}}))
    with pytest.raises(capsa.RoundError, match="not the rules in full"):
        rules_of_state(partial)


# ---------------------------------------------------------------- engines and variants


def test_conformance_infer_takes_the_callers_rules_over_the_hellos() -> None:
    from capsa.conformance.inference.claims import base_rules

    claimed = capsa.Rules.preset("mau-binh").derive(row_points=2)
    hello = {"rules": claimed.to_dict(), "preset": "mau-binh"}
    assert base_rules("pagat", hello)[0] == PAGAT
    assert base_rules(PAGAT, hello)[0] == PAGAT
    assert base_rules(None, hello)[0] == claimed


def test_an_engines_hello_with_partial_rules_is_refused() -> None:
    from capsa.conformance import CapsaEngine, HandshakeError, infer

    reference = CapsaEngine()

    def engine(request: dict[str, Any]) -> dict[str, Any]:
        if request["op"] == "hello":
            hello = {**reference.hello(), "rules": {"money": {"stake": 100}}}
            return {"id": request["id"], "result": hello}
        return reference.handle(request)

    with pytest.raises(HandshakeError, match="missing knobs"):
        infer(engine)


def test_simulate_takes_the_callers_stake_and_a_preset_name_means_the_preset(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--stake`` replaces every variant's stake, and ``--rules pagat`` is the
    preset even beside a file named ``pagat``."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "pagat").write_text(PAGAT.derive({"money.stake": 100}).to_toml(), "utf-8")
    argv = ["simulate", "--rules", "pagat", "--deals", "200", "--strategy", "greedy"]
    assert main([*argv, "--json", "a.json", "--no-progress"]) == 0
    (summary,) = json.loads((tmp_path / "a.json").read_text("utf-8"))
    assert summary["stake"] == 1
    assert main([*argv, "--stake", "7", "--json", "b.json", "--no-progress"]) == 0
    (summary,) = json.loads((tmp_path / "b.json").read_text("utf-8"))
    assert summary["stake"] == 7
    assert main([*argv[:2], "./pagat", *argv[3:], "--json", "c.json", "--no-progress"]) == 0
    (summary,) = json.loads((tmp_path / "c.json").read_text("utf-8"))
    assert summary["stake"] == 100
    capsys.readouterr()
