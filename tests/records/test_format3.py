"""Round records of format 3: the rules hold the rake in basis points with a
minimum pot and caps. The rake figures are pinned by the golden records and
recomputed here from the rule text; records of formats 1 and 2 keep their
rules in the older shape, read and replayed to the same money."""

from __future__ import annotations

import copy
import hashlib
import json
from pathlib import Path
from typing import Any

import pytest

import capsa
from capsa import _core, bulk
from capsa.bulk import record_tables
from capsa.bulk.record_tables import RULES_METADATA_KEY
from capsa.cli import main
from capsa.records.read import (
    RECORD_FORMAT_VERSION,
    RecordError,
    ReplayError,
    canonical_json,
    record_digest,
    rules_dict_of_format,
    rules_for_record,
)

GOLDEN = Path(__file__).parents[1] / "golden"
#: Rules whose rake rounds down, leaves a small winner alone and caps both
#: a pot and the round (those of the last golden round of format 3).
CAPPED = capsa.Rules().derive(
    {
        "name": "house-round",
        "money.rake_basis_points": 290,
        "money.rake_minimum_pot": 150,
        "money.rake_cap_per_pot": 20,
        "money.rake_cap_per_round": 25,
    }
)


def golden_lines(version: int) -> list[str]:
    return (GOLDEN / f"records-{version}.jsonl").read_text(encoding="utf-8").splitlines()


def house_rake(money: list[int], money_rules: dict[str, int]) -> list[int]:
    """Each seat's rake by the rule text, from the knobs as a format 3
    record holds them (docs/rules.md, "Money, rake and exactness")."""
    points = money_rules["rake_basis_points"]
    minimum = money_rules["rake_minimum_pot"]
    per_pot, per_round = money_rules["rake_cap_per_pot"], money_rules["rake_cap_per_round"]
    rake = [m * points // 10_000 if m > 0 and m >= minimum else 0 for m in money]
    if per_pot:
        rake = [min(r, per_pot) for r in rake]
    total = sum(rake)
    if per_round and total > per_round:
        shares = [per_round * r // total for r in rake]
        remainders = [per_round * r % total for r in rake]
        left = per_round - sum(shares)
        for seat in sorted(range(len(rake)), key=lambda s: (-remainders[s], s))[:left]:
            shares[seat] += 1
        rake = shares
    return rake


def resealed(record: dict[str, Any], *, rules: bool = False) -> dict[str, Any]:
    """The record with its digest (and its rules digest) recomputed, as a
    forger would."""
    record = copy.deepcopy(record)
    if rules:
        text = canonical_json(record["rules"])
        record["rules_digest"] = hashlib.sha256(text.encode()).hexdigest()
    record["digest"] = record_digest(record)
    return record


def played(rules: capsa.Rules, k: int, stakes: int = 100) -> capsa.Round:
    """A settled four-seat round, every seat arranged at the close."""
    rnd = capsa.Round(
        rules,
        4,
        stakes,
        round_id=f"t/{k}",
        table_id="t",
        server_seed=hashlib.sha256(f"format 3 round {k}".encode()).digest(),
    )
    rnd.deal()
    rnd.close()
    rnd.settle()
    return rnd


def format_2_record(rnd: capsa.Round) -> str:
    """The settled round's record written in format 2."""
    state = rnd.to_dict(key=bytes(32))
    seats = [
        (capsa.Arrangement.parse(p["arrangement"]).ids, p["auto"], p["surrender"],
         p["declare_natural"])
        for p in state["play"]
    ]  # fmt: skip
    text, _ = _core.write_round_record(
        rules_for_record(rnd.rules, 2),
        rnd.round_id,
        rnd.stakes,
        bytes.fromhex(state["server_seed"]),
        rnd.client_seeds,
        rnd.nonce,
        seats,
        rnd.previous_digest,
        table_id=rnd.table_id,
        players=rnd.players,
        format_version=2,
    )
    return text


# ---------------------------------------------------------------- the golden records


def test_played_rounds_hold_their_rules_as_format_3_writes_them() -> None:
    record = played(capsa.Rules(), 0).record()
    assert record["format_version"] == RECORD_FORMAT_VERSION >= 3
    assert record["rules"]["money"] == capsa.Rules().to_dict()["money"]
    assert "rake_percent" not in record["rules"]["money"]


def test_golden_rake_figures_follow_the_rule_text() -> None:
    """Every format 3 golden record's rake is the rule text's, and between
    them they round down, leave a winner below the minimum pot alone, cap a
    pot and cap the round."""
    seen: set[str] = set()
    for line in golden_lines(3):
        record = json.loads(line)
        settlement, knobs = record["settlement"], record["rules"]["money"]
        assert set(knobs) == {
            "stake",
            "rake_basis_points",
            "rake_minimum_pot",
            "rake_cap_per_pot",
            "rake_cap_per_round",
        }
        money, rake = settlement["money"], settlement["rake"]
        assert rake == house_rake(money, knobs), record["round_id"]
        assert settlement["net"] == [m - r for m, r in zip(money, rake, strict=True)]
        assert sum(settlement["net"]) + sum(rake) == 0
        plain = [m * knobs["rake_basis_points"] // 10_000 for m in money if m > 0]
        exact = [m * knobs["rake_basis_points"] / 10_000 for m in money if m > 0]
        if plain != exact:
            seen.add("rounds down")
        winners = [m for m in money if m > 0]
        if any(m < knobs["rake_minimum_pot"] for m in winners):
            seen.add("minimum pot")
        if knobs["rake_cap_per_pot"] and knobs["rake_cap_per_pot"] in rake:
            seen.add("cap per pot")
        if knobs["rake_cap_per_round"] and sum(rake) == knobs["rake_cap_per_round"]:
            uncapped = house_rake(money, {**knobs, "rake_cap_per_round": 0})
            assert sum(uncapped) > sum(rake)
            seen.add("cap per round")
    assert seen == {"rounds down", "minimum pot", "cap per pot", "cap per round"}


def test_the_older_golden_rounds_replay_to_the_same_money_in_format_3() -> None:
    """The rounds the golden records of formats 2 and 3 share give the same
    settlement; the rules differ only in how the money table is written."""
    older, newer = golden_lines(2), golden_lines(3)
    assert len(newer) > len(older)
    for two, three in zip(older, newer, strict=False):
        a, b = json.loads(two), json.loads(three)
        capsa.replay(two)
        assert a["settlement"] == b["settlement"]
        assert set(a["rules"]["money"]) == {"stake", "rake_percent"}
        points = a["rules"]["money"]["rake_percent"] * 100
        assert b["rules"]["money"]["rake_basis_points"] == points
        assert {**a["rules"], "money": None} == {**b["rules"], "money": None}


# ---------------------------------------------------------------- formats 2 and 3


def test_a_format_2_and_a_format_3_record_of_one_round_replay_to_the_same_money() -> None:
    rnd = played(capsa.Rules().derive({"money.rake_percent": 5}), 1)
    three, two = rnd.record_json(), format_2_record(rnd)
    assert json.loads(two)["format_version"] == 2
    assert json.loads(two)["rules"]["money"] == {"rake_percent": 5, "stake": 1}
    assert capsa.replay(three) == rnd.digest
    capsa.replay(two)
    # the newest format names its settlement version; the figures are the same
    assert json.loads(two)["settlement"] == {
        k: v for k, v in json.loads(three)["settlement"].items() if k != "version"
    }
    ledgers = [capsa.Ledger(), capsa.Ledger()]
    ledgers[0].add(two)
    ledgers[1].add(three)
    assert ledgers[0].balances == ledgers[1].balances and ledgers[0].house == ledgers[1].house


def test_a_format_3_record_with_a_binding_cap_replays() -> None:
    cap = CAPPED["money.rake_cap_per_round"]
    uncapped = CAPPED.to_dict()["money"] | {"rake_cap_per_round": 0}
    for k in range(40):
        record = played(CAPPED, k).record()
        money, rake = record["settlement"]["money"], record["settlement"]["rake"]
        if sum(rake) == cap < sum(house_rake(money, uncapped)):
            break
    else:
        pytest.fail("no round of 40 where the round cap binds")
    assert capsa.replay(record) == record["digest"]
    assert rake == house_rake(money, record["rules"]["money"])
    assert capsa.Rules.from_dict(json.loads(golden_lines(3)[-1])["rules"]) == CAPPED


def test_a_changed_rake_figure_is_named_with_the_digest_recomputed() -> None:
    record = json.loads(golden_lines(3)[-1])
    seat = max(range(len(record["seats"])), key=lambda s: record["settlement"]["rake"][s])
    changed = copy.deepcopy(record)
    changed["settlement"]["seats"][seat]["rake"] += 1
    changed["settlement"]["seats"][seat]["net"] -= 1
    changed["settlement"]["rake"][seat] += 1
    changed["settlement"]["net"][seat] -= 1
    with pytest.raises(ReplayError) as info:
        capsa.replay(resealed(changed))
    assert "digest" not in info.value.fields
    assert f"settlement.seats[{seat}].rake" in info.value.fields
    assert f"settlement.rake[{seat}]" in info.value.fields
    assert f"settlement.seats[{seat}].rake" in str(info.value)


def test_changed_rake_knobs_are_named_with_every_digest_recomputed() -> None:
    """A cap raised in the rules, with the rules digest and the digest
    recomputed: the settlement no longer follows from the rules."""
    record = json.loads(golden_lines(3)[-1])
    changed = copy.deepcopy(record)
    changed["rules"]["money"]["rake_cap_per_round"] = 0
    with pytest.raises(ReplayError) as info:
        capsa.replay(resealed(changed, rules=True))
    assert any(f.startswith("settlement.") and "rake" in f for f in info.value.fields)


def test_a_format_2_record_whose_rules_carry_a_new_knob_is_refused() -> None:
    record = json.loads(golden_lines(2)[0])
    for money in (
        {"rake_percent": 3, "stake": 1, "rake_cap_per_pot": 0},
        {"rake_basis_points": 300, "stake": 1},
        {"rake_basis_points": 300, "rake_cap_per_pot": 0, "rake_cap_per_round": 0,
         "rake_minimum_pot": 0, "stake": 1},
    ):  # fmt: skip
        changed = copy.deepcopy(record)
        changed["rules"]["money"] = money
        with pytest.raises(RecordError, match=r"not in a format 2 record") as info:
            capsa.replay(resealed(changed, rules=True))
        assert info.value.field == "rules"
        assert "money.rake_" in str(info.value)


def test_a_format_3_record_whose_rules_are_in_the_older_shape_is_refused() -> None:
    record = json.loads(golden_lines(3)[0])
    changed = copy.deepcopy(record)
    changed["rules"]["money"] = {"rake_percent": 3, "stake": 1}
    with pytest.raises(RecordError, match="rake_basis_points is missing") as info:
        capsa.replay(resealed(changed, rules=True))
    assert info.value.field == "rules"
    assert "money.rake_percent is not as written" in str(info.value)


def test_the_older_shape_of_the_rules_is_one_function() -> None:
    assert rules_dict_of_format(capsa.Rules(), 3) == capsa.Rules().to_dict()
    older = rules_dict_of_format(capsa.Rules(), 2)
    assert older["money"] == {"stake": 1, "rake_percent": 3}
    assert rules_dict_of_format(capsa.Rules(), 1) == older
    assert capsa.Rules.from_dict(older) == capsa.Rules()
    for knobs, named in [
        ({"money.rake_basis_points": 250}, "money.rake_basis_points is 250"),
        ({"money.rake_minimum_pot": 10}, "money.rake_minimum_pot is 10"),
        ({"money.rake_cap_per_pot": 5}, "money.rake_cap_per_pot is 5"),
        ({"money.rake_cap_per_round": 9}, "money.rake_cap_per_round is 9"),
    ]:
        with pytest.raises(capsa.ArgumentError, match=named):
            rules_dict_of_format(capsa.Rules().derive(knobs), 2)
        with pytest.raises(capsa.ArgumentError, match="format 1 record"):
            rules_for_record(capsa.Rules().derive(knobs), 1)
    assert rules_for_record(CAPPED).text == canonical_json(CAPPED.to_dict())


# ---------------------------------------------------------------- readers


def test_every_format_replays_and_verifies_on_the_command_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for version in (1, 2, 3):
        log = tmp_path / f"records-{version}.jsonl"
        log.write_text("\n".join(golden_lines(version)) + "\n", encoding="utf-8")
        for command in (["replay", str(log), "--first"], ["verify", str(log)]):
            assert main(command) == 0, (version, command)
            lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
            assert [line["ok"] for line in lines] == [True] * len(golden_lines(version))


def test_a_ledger_books_the_capped_rounds_and_capsa_settle_reads_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = golden_lines(3)
    ledger = capsa.Ledger(previous_digest=None)
    for line in lines:
        ledger.add(line)
    house = sum(sum(json.loads(line)["settlement"]["rake"]) for line in lines)
    assert ledger.house == house
    assert sum(ledger.balances.values()) + ledger.house == 0
    log = tmp_path / "t.jsonl"
    log.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert main(["settle", str(log)]) == 0
    results = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    for line, result in zip(lines, results, strict=True):
        for key in ("id", "table_id", "players", "played_at"):
            result.pop(key)
        assert result == json.loads(line)["settlement"]


def test_capped_records_to_parquet_carry_the_rules_and_settle_back(tmp_path: Path) -> None:
    pq = pytest.importorskip("pyarrow.parquet")
    lines = [played(CAPPED, k).record_json() for k in range(6)]
    record_tables.to_parquet(lines, tmp_path / "r.parquet")
    footer = json.loads(pq.read_metadata(tmp_path / "r.parquet").metadata[RULES_METADATA_KEY])
    assert [rules["money"] for rules in footer.values()] == [CAPPED.to_dict()["money"]]
    known = record_tables.parquet_rules(tmp_path / "r.parquet")
    assert list(known.values()) == [CAPPED]
    results = bulk.settle_table(pq.read_table(tmp_path / "r.parquet"), known=known).to_pylist()
    for line, result in zip(lines, results, strict=True):
        settlement = json.loads(line)["settlement"]
        assert [result[f"rake{s}"] for s in range(4)] == settlement["rake"]
        assert [result[f"net{s}"] for s in range(4)] == settlement["net"]


def test_the_schema_of_format_3_holds_the_money_table_as_written() -> None:
    jsonschema = pytest.importorskip("jsonschema")
    from importlib import resources

    path = resources.files("capsa") / "schema" / "record-3.json"
    root = json.loads(path.read_text(encoding="utf-8"))
    record = json.loads(golden_lines(3)[-1])
    jsonschema.validate(record, root)
    older = copy.deepcopy(record)
    older["rules"]["money"] = {"rake_percent": 3, "stake": 1}
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(older, root)


def test_a_round_recorded_in_formats_2_and_3_is_one_row_of_the_rounds_table() -> None:
    """The same round, its record in either format: the same rules (by
    name, and in full in the table's metadata) and the same row but for the
    digest."""
    rnd = played(capsa.Rules().derive({"money.rake_percent": 4, "name": "house-4"}), 2)
    table = record_tables.records_table([format_2_record(rnd), rnd.record_json()])
    two, three = table.to_pylist()
    assert two.pop("digest") != three.pop("digest") == rnd.digest
    assert two == three
    footer = json.loads(table.schema.metadata[RULES_METADATA_KEY])
    assert list(footer.values()) == [rnd.rules.to_dict()]
    assert footer[three["rules"]]["money"]["rake_basis_points"] == 400
    results = bulk.settle_table(table, known=record_tables.rules_of_metadata(table.schema.metadata))
    settlement = rnd.record()["settlement"]
    for row in results.to_pylist():
        assert [row[f"net{s}"] for s in range(4)] == settlement["net"]
