"""Round records: the golden records pin the format, every tampered field is
named, a newer format is refused, and the canonical form and the digest can
be checked with nothing but Python's json and hashlib."""

from __future__ import annotations

import copy
import hashlib
import importlib.util
import json
import re
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

import capsa
from capsa import oracle
from capsa.records import (
    RECORD_FORMAT_VERSION,
    RecordError,
    ReplayError,
    canonical_json,
    record_digest,
)

GOLDEN = Path(__file__).parents[1] / "golden"


def _golden_module() -> Any:
    spec = importlib.util.spec_from_file_location("make_records", GOLDEN / "make_records.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


FORMATS = (1, 2, 3, 4, 5)


def golden_lines(version: int = RECORD_FORMAT_VERSION) -> list[str]:
    return (GOLDEN / f"records-{version}.jsonl").read_text(encoding="utf-8").splitlines()


def all_golden_lines() -> list[str]:
    return [line for version in FORMATS for line in golden_lines(version)]


def python_canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


@pytest.mark.parametrize("version", FORMATS)
def test_golden_records_regenerate_byte_for_byte(version: int) -> None:
    """`python tests/golden/make_records.py --format N > tests/golden/records-N.jsonl`
    writes exactly the committed file: the writer's output is pinned."""
    assert _golden_module().golden_records(version) == golden_lines(version)


@pytest.mark.parametrize("version", FORMATS)
def test_golden_records_replay_as_a_chain(version: int) -> None:
    previous: str | None = None
    for line in golden_lines(version):
        previous = capsa.replay(line, previous_digest=previous)
        capsa.verify_deal(line)


@pytest.mark.parametrize("version", FORMATS[1:])
def test_golden_records_of_format_2_on_name_the_table_and_players(version: int) -> None:
    records = [json.loads(line) for line in golden_lines(version)]
    assert all(r["format_version"] == version and r["table_id"] == "table-7" for r in records)
    players = [s["player"] for r in records for s in r["seats"]]
    assert {"id": "p-1002", "name": "Bảo ☃"} in players
    assert {"id": "p-1004", "name": None} in players
    assert {"id": "seat-0", "name": None} in players  # players left out
    strategies = {r["solver"]["strategy"] for r in records}
    assert strategies == ({"solver", "greedy", "foul"} if version >= 4 else {"solver"})


@pytest.mark.parametrize("version", FORMATS)
def test_golden_records_hold_every_kind_of_field(version: int) -> None:
    records = [json.loads(line) for line in golden_lines(version)]
    assert {len(r["seats"]) for r in records} == {2, 3, 4}
    seats = [s for r in records for s in r["seats"]]
    assert any(s["auto"] for s in seats) and any(s["surrender"] for s in seats)
    assert any(not s["declare_natural"] for s in seats)
    assert any(isinstance(r["stakes"], list) for r in records)
    assert any(r["meta"] for r in records) and any(r["deal"]["client_seeds"] for r in records)
    assert records[0]["previous_digest"] is None
    assert all(r["format_version"] == version for r in records)


def test_records_are_canonical_json_with_an_independent_digest() -> None:
    for line in all_golden_lines():
        record = json.loads(line)
        assert python_canonical(record) == line
        assert canonical_json(record) == line
        without = {k: v for k, v in record.items() if k != "digest"}
        digest = hashlib.sha256(python_canonical(without).encode("utf-8")).hexdigest()
        assert digest == record["digest"] == record_digest(record)
        rules = hashlib.sha256(python_canonical(record["rules"]).encode()).hexdigest()
        assert rules == record["rules_digest"]


def test_the_deal_verifies_with_the_oracle_alone() -> None:
    for line in all_golden_lines():
        record = json.loads(line)
        deal = record["deal"]
        seed = bytes.fromhex(deal["server_seed"])
        assert hashlib.sha256(seed).hexdigest() == deal["commitment"]
        hands = oracle.fair_deal(len(record["seats"]), seed, deal["client_seeds"], deal["nonce"])
        texts = [" ".join(str(capsa.Card(c)) for c in hand) for hand in hands]
        assert texts == [s["hand"] for s in record["seats"]]


def played_record(k: int = 0, rules: capsa.Rules | None = None) -> dict[str, Any]:
    rnd = capsa.Round(
        rules, 4, 100, round_id=f"t/{k}", server_seed=hashlib.sha256(bytes([k])).digest()
    )
    rnd.deal(["a", "b", "c", "d"])
    rnd.close()
    rnd.settle()
    return rnd.record()


def reseal(record: dict[str, Any]) -> dict[str, Any]:
    """The record with its digest recomputed, as a forger would."""
    record = copy.deepcopy(record)
    record["digest"] = record_digest(record)
    return record


def fields_of(record: dict[str, Any], **kw: Any) -> tuple[str, ...]:
    with pytest.raises(ReplayError) as info:
        capsa.replay(record, **kw)
    assert all(f in str(info.value) for f in info.value.fields)
    return info.value.fields


def change(record: dict[str, Any], edit: Callable[[dict[str, Any]], None]) -> dict[str, Any]:
    record = copy.deepcopy(record)
    edit(record)
    return record


def test_a_changed_card_is_named() -> None:
    record = played_record()
    hands = [s["hand"].split() for s in record["seats"]]

    def swap(r: dict[str, Any]) -> None:
        a, b = hands[0][0], hands[1][0]
        for k, other in ((0, b), (1, a)):
            cards = sorted(
                [*(c for c in hands[k] if c not in (a, b)), other], key=lambda c: capsa.Card(c).id
            )
            r["seats"][k]["hand"] = " ".join(cards)

    fields = fields_of(change(record, swap))
    assert "seats[0].hand" in fields and "seats[1].hand" in fields and "digest" in fields
    # the arrangements no longer hold the dealt cards either way
    fields = fields_of(reseal(change(record, swap)))
    assert "digest" not in fields and "seats[0].hand" in fields


def test_a_changed_arrangement_is_named() -> None:
    record = played_record()

    def rearrange(r: dict[str, Any]) -> None:
        top, middle, bottom = (row.split() for row in r["seats"][2]["arrangement"].split(" / "))
        top[0], bottom[0] = bottom[0], top[0]
        r["seats"][2]["arrangement"] = " / ".join(" ".join(row) for row in (top, middle, bottom))

    fields = fields_of(reseal(change(record, rearrange)))
    # the same cards in other rows: the settlement changes, or the arrangement
    # fouls where the server arranged it
    assert any(f.startswith(("settlement.", "seats[2].arrangement")) for f in fields), fields


def test_a_changed_payout_is_named() -> None:
    record = played_record()

    def pay(r: dict[str, Any]) -> None:
        r["settlement"]["seats"][1]["net"] += 1000

    assert fields_of(change(record, pay)) == ("digest", "settlement.seats[1].net")
    assert fields_of(reseal(change(record, pay))) == ("settlement.seats[1].net",)


def test_changed_rules_are_named() -> None:
    record = played_record()

    def double(r: dict[str, Any]) -> None:
        r["rules"]["scoop"]["multiplier"] = 3

    fields = fields_of(reseal(change(record, double)))
    assert fields[0] == "rules_digest"

    def forged(r: dict[str, Any]) -> None:
        double(r)
        r["rules_digest"] = hashlib.sha256(python_canonical(r["rules"]).encode()).hexdigest()

    # digests forged too: the settlement no longer follows from the rules,
    # unless no scoop happened; either way the chain's next link breaks
    record_rules = reseal(change(record, forged))
    try:
        capsa.replay(record_rules)
    except ReplayError as exc:
        assert all(f.startswith("settlement.") for f in exc.fields)

    def partial(r: dict[str, Any]) -> None:
        del r["rules"]["wheel"]

    with pytest.raises(
        RecordError, match=r"rules: not the rules in full.*wheel is missing"
    ) as info:
        capsa.replay(reseal(change(record, partial)))
    assert info.value.field == "rules"

    def invalid(r: dict[str, Any]) -> None:
        r["rules"]["row_points"] = -1

    with pytest.raises(RecordError, match="row_points") as info:
        capsa.replay(change(record, invalid))
    assert info.value.field == "rules"


def test_a_changed_digest_or_chain_link_is_named() -> None:
    record = played_record()
    assert fields_of(change(record, lambda r: r.update(digest="0" * 64))) == ("digest",)
    link = change(record, lambda r: r.update(previous_digest="1" * 64))
    assert fields_of(link) == ("digest",)
    assert fields_of(reseal(link), previous_digest=None) == ("previous_digest",)
    assert capsa.replay(reseal(link), previous_digest="1" * 64)


def test_wrong_seeds_fail_verification_with_the_reason() -> None:
    record = played_record()
    server = change(record, lambda r: r["deal"].update(server_seed="ab" * 32))
    with pytest.raises(ReplayError, match="not the seed committed to") as info:
        capsa.verify_deal(server)
    assert info.value.fields[0] == "deal.server_seed"
    client = change(record, lambda r: r["deal"]["client_seeds"].__setitem__(2, "mallory"))
    with pytest.raises(ReplayError, match="not the hand the seeds deal") as info:
        capsa.verify_deal(client)
    assert all(f.endswith(".hand") for f in info.value.fields)
    nonce = change(record, lambda r: r["deal"].update(nonce=1))
    with pytest.raises(ReplayError, match=r"deal\.nonce"):
        capsa.verify_deal(nonce)
    with pytest.raises(ReplayError, match="not the commitment published") as info:
        capsa.verify_deal(record, commitment="0" * 64)
    assert info.value.fields == ("deal.commitment",)
    capsa.verify_deal(record, commitment=record["deal"]["commitment"])
    with pytest.raises(capsa.ArgumentError, match="commitment must be 64"):
        capsa.verify_deal(record, commitment="xyz")


def test_a_newer_format_is_refused_first() -> None:
    record = played_record()
    newer_version = RECORD_FORMAT_VERSION + 1
    newer = change(
        record, lambda r: r.update(format_version=newer_version, seats="whatever", extra=1)
    )
    with pytest.raises(
        RecordError, match=f"format_version {newer_version} is newer than this capsa reads"
    ) as info:
        capsa.replay(newer)
    assert info.value.field == "format_version"
    with pytest.raises(RecordError, match=f"format_version {newer_version} is newer"):
        capsa.verify_deal(newer)


def test_unreadable_records_name_the_field() -> None:
    record = played_record()
    cases: list[tuple[Callable[[dict[str, Any]], None], str]] = [
        (lambda r: r.pop("settlement"), "settlement"),
        (lambda r: r.update(surprise=1), "surprise"),
        (lambda r: r["seats"][1].update(auto="yes"), "seats[1].auto"),
        (lambda r: r["seats"][0].update(hand="As As"), "seats[0].hand"),
        (lambda r: r["deal"].update(algorithm="capsa-fair-9"), "deal.algorithm"),
        (lambda r: r.update(stakes=1.5), ""),
        (lambda r: r.update(round_id=""), "round_id"),
        (lambda r: r["deal"].update(client_seeds=["a"]), "deal.client_seeds"),
        (lambda r: r.update(seats=r["seats"][:1]), "seats"),
        (lambda r: r.update(format="something-else"), "format"),
    ]
    for edit, field in cases:
        with pytest.raises(RecordError) as info:
            capsa.replay(change(record, edit))
        assert info.value.field == field, (field, str(info.value))
        assert field in str(info.value)
    for bad in ["", "[]", "{", '{"format": "capsa-round-record"}', b"\xff", "\ud800"]:
        with pytest.raises(RecordError):
            capsa.replay(bad)
    with pytest.raises(RecordError, match="not JSON data"):
        capsa.replay({"x": float("nan")})
    with pytest.raises(TypeError, match="a record is JSON text"):
        capsa.replay(42)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        capsa.replay({"x": {1, 2}})


# ---------------------------------------------------------------- the schema


def _check(value: Any, schema: dict[str, Any], root: dict[str, Any], path: str) -> list[str]:
    """Errors of ``value`` against the JSON Schema keywords the record schemas use."""
    if "$ref" in schema:
        schema = root["$defs"][schema["$ref"].rsplit("/", 1)[1]]
    errors: list[str] = []
    kinds = {
        "object": dict,
        "array": list,
        "string": str,
        "boolean": bool,
        "null": type(None),
    }
    kind = schema.get("type")
    if kind == "integer":
        if not isinstance(value, int) or isinstance(value, bool):
            return [f"{path}: not an integer"]
    elif kind is not None and not isinstance(value, kinds[kind]):
        return [f"{path}: not {kind}"]
    if "const" in schema and value != schema["const"]:
        errors.append(f"{path}: not {schema['const']!r}")
    if "oneOf" in schema:
        matching = [s for s in schema["oneOf"] if not _check(value, s, root, path)]
        if len(matching) != 1:
            errors.append(f"{path}: matches {len(matching)} of oneOf")
    if isinstance(value, str):
        if len(value) < schema.get("minLength", 0) or len(value) > schema.get("maxLength", 10**9):
            errors.append(f"{path}: length")
        if "pattern" in schema and not re.search(schema["pattern"], value):
            errors.append(f"{path}: pattern")
    is_int = isinstance(value, int) and not isinstance(value, bool)
    low, high = schema.get("minimum", -(10**30)), schema.get("maximum", 10**30)
    if is_int and not low <= value <= high:
        errors.append(f"{path}: range")
    if isinstance(value, list):
        if not schema.get("minItems", 0) <= len(value) <= schema.get("maxItems", 10**9):
            errors.append(f"{path}: items")
        for k, item in enumerate(value):
            errors += _check(item, schema.get("items", {}), root, f"{path}[{k}]")
    if isinstance(value, dict):
        errors += [
            f"{path}: {key} missing" for key in schema.get("required", []) if key not in value
        ]
        if len(value) > schema.get("maxProperties", 10**9):
            errors.append(f"{path}: too many properties")
        properties = schema.get("properties", {})
        extra = schema.get("additionalProperties", True)
        for key, item in value.items():
            if key in properties:
                errors += _check(item, properties[key], root, f"{path}.{key}")
            elif extra is False:
                errors.append(f"{path}: unknown {key}")
            elif isinstance(extra, dict):
                errors += _check(item, extra, root, f"{path}.{key}")
            names = schema.get("propertyNames", {})
            if not names.get("minLength", 0) <= len(key) <= names.get("maxLength", 10**9):
                errors.append(f"{path}: key {key!r}")
    return errors


def schema(version: int = RECORD_FORMAT_VERSION) -> dict[str, Any]:
    path = resources.files("capsa") / "schema" / f"record-{version}.json"
    return dict(json.loads(path.read_text(encoding="utf-8")))


@pytest.mark.parametrize("version", FORMATS)
def test_records_follow_the_json_schema(version: int) -> None:
    root = schema(version)
    records = [json.loads(line) for line in golden_lines(version)]
    if version == RECORD_FORMAT_VERSION:
        records += [played_record(k) for k in range(5)]
    for record in records:
        assert _check(record, root, root, "record") == []
    broken = change(records[0], lambda r: r["seats"][0].update(hand="As"))
    assert _check(broken, root, root, "record") != []
    broken = change(records[0], lambda r: r.update(format_version=version % 4 + 1))
    assert _check(broken, root, root, "record") != []
    # an id holding U+0000, which the reader refuses (docs/records.md, "Ids and texts")
    broken = change(records[0], lambda r: r.update(round_id="r\x00"))
    assert _check(broken, root, root, "record") == ["record.round_id: pattern"]


@pytest.mark.parametrize("version", FORMATS)
def test_records_follow_the_json_schema_by_a_full_validator(version: int) -> None:
    jsonschema = pytest.importorskip("jsonschema")
    root = schema(version)
    for line in golden_lines(version):
        jsonschema.validate(json.loads(line), root)
