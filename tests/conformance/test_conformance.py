"""The conformance kit's data: the protocol schema, capsa serve, the vector
suites (schema, flags, byte-for-byte regeneration, the oracle's agreement)
and the pinned digests (checked against the oracle)."""

from __future__ import annotations

import hashlib
import itertools
import json
import subprocess
import sys
from collections.abc import Iterator
from functools import lru_cache
from pathlib import Path
from typing import Any

import jsonschema
import numpy as np
import pytest
import referencing

from capsa import oracle
from capsa.conformance import digests
from capsa.conformance.flags import FLAGS
from capsa.conformance.protocol import (
    OPS,
    Case,
    RulesSpec,
    ids_of,
    request_line,
    request_of,
    text_of,
)
from capsa.conformance.serve import CapsaEngine, serve
from capsa.conformance.vectors import (
    DECKS_SUITE,
    generate,
    load_vectors,
    schema,
    shipped_dir,
    write_suites,
)
from capsa.conformance.witness import oracle_answer
from capsa.rules.known import presets_of_52_cards

VECTORS = load_vectors()


@lru_cache(maxsize=1)
def schemas() -> tuple[dict[str, Any], dict[str, Any], referencing.Registry[Any]]:
    protocol, vector = schema("protocol"), schema("vector")
    registry: referencing.Registry[Any] = referencing.Registry().with_resources(
        [
            (protocol["$id"], referencing.Resource.from_contents(protocol)),
            (vector["$id"], referencing.Resource.from_contents(vector)),
        ]
    )
    return protocol, vector, registry


def validator(ref: str) -> jsonschema.protocols.Validator:
    protocol, vector, registry = schemas()
    if ref == "vector":
        return jsonschema.Draft202012Validator(vector, registry=registry)
    schema = {"$ref": f"{protocol['$id']}#/$defs/{ref}"}
    return jsonschema.Draft202012Validator(schema, registry=registry)


def cases() -> Iterator[tuple[dict[str, Any], Case]]:
    from capsa.conformance.protocol import case_from_vector

    for vector in VECTORS:
        yield vector, case_from_vector(vector)


# ------------------------------------------------------------ schema


def test_the_schemas_are_valid_json_schemas() -> None:
    protocol, vector, _ = schemas()
    jsonschema.Draft202012Validator.check_schema(protocol)
    jsonschema.Draft202012Validator.check_schema(vector)


def test_every_shipped_vector_validates_and_so_does_its_request() -> None:
    vector_check, request_check = validator("vector"), validator("request")
    ids_check = validator("request")
    for k, (vector, case) in enumerate(cases()):
        vector_check.validate(vector)
        if k % 4 == 0:  # a request holds the full rules data: slow to validate
            request_check.validate(request_of(7, case))
            ids_check.validate(json.loads(request_line(7, case, ids=True)))


def test_the_schema_refuses_what_the_protocol_refuses() -> None:
    vector = dict(VECTORS[0])
    for broken in (
        {**vector, "flags": ["no-such-flag"]},
        {**vector, "expected": 2},  # compare answers -1, 0 or 1
        {k: v for k, v in vector.items() if k != "reason"},
    ):
        with pytest.raises(jsonschema.ValidationError):
            validator("vector").validate(broken)
    request = request_of(1, Case("compare", RulesSpec.of("pagat"), {"a": "As Kd", "b": "Ks"}))
    with pytest.raises(jsonschema.ValidationError):
        validator("request").validate({**request, "a": "as kd"})  # not canonical text
    with pytest.raises(jsonschema.ValidationError):
        validator("request").validate({**request, "rules": {"name": "pagat"}})  # partial rules


def test_the_vector_schema_names_exactly_the_documented_flags() -> None:
    _, vector, _ = schemas()
    assert vector["properties"]["flags"]["items"]["enum"] == sorted(FLAGS)
    docs = (Path(__file__).resolve().parents[2] / "docs" / "conformance.md").read_text()
    undocumented = [flag for flag in FLAGS if f"`{flag}`" not in docs]
    assert not undocumented


def test_the_suites_cover_every_flag_and_every_op() -> None:
    seen = {flag for vector in VECTORS for flag in vector["flags"]}
    assert set(FLAGS) - seen == set()
    assert {vector["op"] for vector in VECTORS} == set(OPS)


def test_vector_ids_are_unique_and_name_their_op() -> None:
    ids = [vector["id"] for vector in VECTORS]
    assert len(ids) == len(set(ids))
    assert all(vector["id"].split("/")[0] == vector["op"] for vector in VECTORS)


def _of_decks(vector: dict[str, Any]) -> bool:
    """Whether a vector is of the decks suite (its family names the deck)."""
    return str(vector["id"]).split("/")[1].startswith("deck-")


def test_every_preset_appears_under_every_op_but_digest_and_splits() -> None:
    import capsa

    for op in ("compare", "foul", "natural", "settle"):
        # the decks suite asks the presets of larger decks (families deck-*)
        ours = [v for v in VECTORS if v["op"] == op]
        used = {v["rules"]["preset"] for v in ours if not _of_decks(v)}
        assert used == set(presets_of_52_cards()), op
        larger = {v["rules"]["preset"] for v in ours if _of_decks(v)}
        assert larger == set(capsa.presets()) - set(presets_of_52_cards()), op
    # a banker game's rounds name the banker and the multipliers
    banker = [
        v["input"]["round"]
        for v in VECTORS
        if v["op"] == "settle" and capsa.Rules.preset(v["rules"]["preset"])["banker.enabled"]
    ]
    assert banker and all(r["banker"] in range(len(r["seats"])) for r in banker)
    assert any(m != 1 for r in banker for m in r["multipliers"])


# ------------------------------------------------------------ regeneration


def test_regenerating_the_suites_gives_the_shipped_bytes(tmp_path: Path) -> None:
    # The oracle checked every vector when the suites were written (and
    # test_the_oracle_agrees_with_a_sample_of_the_vectors repeats that on a
    # sample); here the byte-for-byte check runs without it, to stay fast.
    ops = [op for op in OPS if op != "digest"]
    told: list[tuple[str, int]] = []
    suites = generate(ops, check=False, progress=lambda name, n: told.append((name, n)))
    write_suites(tmp_path, suites)
    # each suite is told as it is done, with its count
    assert told == [(name, len(vectors)) for name, vectors in suites.items()]
    for name in [*ops, DECKS_SUITE]:
        assert (tmp_path / f"{name}.jsonl").read_bytes() == (
            shipped_dir() / f"{name}.jsonl"
        ).read_bytes(), name


def test_regenerating_a_sample_of_the_digests_gives_the_shipped_lines(tmp_path: Path) -> None:
    # Every digest takes a sort of 2.6 million hands: a fixed sample (each
    # preset's and every 16th configuration) is recomputed here; `capsa
    # conformance vectors` recomputes them all.
    shipped = (shipped_dir() / "digest.jsonl").read_text().splitlines()
    picked = {k for k in range(len(shipped) + 2) if k % 16 == 0 or k < 6}
    regenerated = generate(["digest"], check=False, digest_select=lambda k: k in picked)["digest"]
    by_id = {json.loads(line)["id"]: line + "\n" for line in shipped}
    assert len(regenerated) >= 12
    for vector in regenerated:
        assert vector.line() == by_id[vector.id]


def test_the_oracle_agrees_with_a_sample_of_the_vectors() -> None:
    checked = 0
    for k, (vector, case) in enumerate(cases()):
        if case.op == "digest" or (case.op == "count_splits" and k % 5) or k % 3:
            continue
        assert oracle_answer(case) == vector["expected"], vector["id"]
        checked += 1
    assert checked > 300


# ------------------------------------------------------------ digests


def _oracle_rules(config: dict[str, str]) -> dict[str, Any]:
    return oracle.load_rules({"flush_compare": "ranks", "wheel": "low", **config})


def _pinned(size: int, config: dict[str, str]) -> str:
    for vector in VECTORS:
        if vector["op"] == "digest" and vector["input"]["size"] == size:
            spec = RulesSpec.of(vector["rules"]["preset"], vector["rules"]["knobs"])
            if digests.ranking_key(spec.rules(), size) == config:
                return str(vector["expected"])
    raise AssertionError(f"no pinned digest for {config}")


def _oracle_digest(keys: list[Any]) -> str:
    """The digest of hand keys in enumeration order, by the definition: dense
    ranks as little-endian u32."""
    order = {key: rank for rank, key in enumerate(sorted(set(keys)))}
    return hashlib.sha256(np.array([order[k] for k in keys], dtype="<u4").tobytes()).hexdigest()


@pytest.mark.parametrize(
    "config",
    [
        {"tie_break": "none", "suit_order": "shcd"},
        {"tie_break": "suit", "suit_order": "shcd"},
        {"tie_break": "suit", "suit_order": "dchs"},
    ],
)
def test_three_card_digests_match_the_oracle(config: dict[str, str]) -> None:
    rules = _oracle_rules(config)
    keys = [oracle._key(hand, rules) for hand in itertools.combinations(range(52), 3)]
    assert _oracle_digest(keys) == _pinned(3, config)


@pytest.mark.parametrize("wheel", ["low", "second"])
def test_five_card_digests_without_suit_rules_match_the_oracle(wheel: str) -> None:
    # Without a suit rule a hand's value depends only on its ranks and on
    # whether it is one suit (docs/rules.md, "Within a category"), so the
    # oracle ranks one hand of each such class (7,462 of them) and numpy
    # maps all 2,598,960 hands to their class: the whole digest, checked by
    # the oracle in a second.
    config = {"tie_break": "none", "suit_order": "shcd", "flush_compare": "ranks", "wheel": wheel}
    rules = _oracle_rules(config)
    hands = digests.all_hands(5).astype(np.int64)
    ranks, suits = hands // 4, hands % 4
    flush = (suits == suits[:, :1]).all(axis=1)
    code = ((ranks[:, 0] * 13 + ranks[:, 1]) * 13 + ranks[:, 2]) * 13 + ranks[:, 3]
    code = (code * 13 + ranks[:, 4]) * 2 + flush
    classes, first, inverse = np.unique(code, return_index=True, return_inverse=True)
    keys = [oracle._key(tuple(int(c) for c in hands[i]), rules) for i in first]
    # the claim the shortcut rests on, checked on a sample of each class's members
    sample = np.random.default_rng(5).choice(len(hands), 4000, replace=False)
    for i in sample:
        assert oracle._key(tuple(int(c) for c in hands[i]), rules) == keys[inverse[i]]
    order = {key: rank for rank, key in enumerate(sorted(set(keys)))}
    dense = np.array([order[k] for k in keys], dtype="<u4")[inverse]
    assert len(classes) == len(set(keys)) == 7462
    digest = hashlib.sha256(dense.astype("<u4").tobytes()).hexdigest()
    assert digest == _pinned(5, config)


def test_digests_of_the_suit_configurations_are_all_distinct_and_have_no_ties() -> None:
    five = [v for v in VECTORS if v["op"] == "digest" and v["input"]["size"] == 5]
    assert len({v["expected"] for v in five}) == len(list(digests.ranking_configurations(5)))
    ranks, classes = digests.dense_ranks(np.array([5, 3, 3, 9, 0], dtype=np.uint32))
    assert ranks.tolist() == [2, 1, 1, 3, 0] and classes == 4


# ------------------------------------------------------------ serve


def _serve(lines: list[bytes]) -> list[dict[str, Any]]:
    import io

    out = io.BytesIO()
    serve(io.BytesIO(b"".join(lines)), out)
    return [json.loads(line) for line in out.getvalue().splitlines()]


def test_serve_answers_hello_and_every_op_with_the_vectors_expected() -> None:
    hello = _serve([b'{"id": 0, "op": "hello", "protocol": 1}\n'])[0]
    assert hello["result"]["protocol"] == 1 and set(hello["result"]["ops"]) == set(OPS)
    validator("hello_result").validate(hello["result"])
    chosen = [(v, c) for v, c in cases() if c.op != "digest"][::7]
    answers = _serve([request_line(k, c) for k, (_, c) in enumerate(chosen)])
    for k, ((vector, case), answer) in enumerate(zip(chosen, answers, strict=True)):
        assert answer == {"id": k, "result": vector["expected"]}, vector["id"]
        validator("response").validate(answer)
        validator(f"results/{case.op}").validate(answer["result"])


def test_serve_reports_bad_requests_as_errors_and_goes_on() -> None:
    case = Case("compare", RulesSpec.of("pagat"), {"a": "As Kd Qh Js 9c", "b": "2c 3c 4c"})
    good = request_line(9, case)
    bad_card = good.replace(b"As Kd", b"Zz Kd")
    partial = json.dumps({"id": 4, "op": "compare", "a": "As", "b": "Kd", "rules": {"name": "x"}})
    answers = _serve(
        [
            b"{not json\n",
            b'{"id": 2, "op": "shuffle", "rules": {}}\n',
            bad_card,
            partial.encode() + b"\n",
            b"\n",
            b"x" * ((1 << 20) + 1) + b"\n",
            good,
        ]
    )
    assert answers[0]["id"] is None and answers[0]["error"]["kind"] == "invalid"
    assert (
        answers[1]["error"]["kind"] == "unsupported" and "shuffle" in answers[1]["error"]["message"]
    )
    assert answers[2]["error"]["type"] == "CardError" and "Zz" in answers[2]["error"]["message"]
    assert (
        answers[3]["error"]["kind"] == "invalid"
        and "missing knobs" in answers[3]["error"]["message"]
    )
    assert "longer than" in answers[4]["error"]["message"]
    assert answers[5] == {"id": 9, "result": 1}
    for answer in answers:
        validator("response").validate(answer)


def test_serve_reads_cards_as_ids_and_every_seat_form_capsa_settle_reads() -> None:
    engine = CapsaEngine()
    settle = next(v for v in VECTORS if v["op"] == "settle")
    case = Case(
        "settle", RulesSpec.of(settle["rules"]["preset"], settle["rules"]["knobs"]), settle["input"]
    )
    as_ids = engine.handle(json.loads(request_line(1, case, ids=True)))
    assert as_ids["result"] == settle["expected"]
    request = request_of(2, case)
    seats = request["round"]["seats"]
    request["round"]["seats"] = [
        f"{seats[0]['top']} / {seats[0]['middle']} / {seats[0]['bottom']}",
        ids_of(seats[1]["top"]) + ids_of(seats[1]["middle"]) + ids_of(seats[1]["bottom"]),
    ]
    assert engine.handle(request)["result"] == settle["expected"]


def test_capsa_conformance_serve_runs_as_a_process() -> None:
    case = Case("category", RulesSpec.of("pagat"), {"hand": "As Ks Qs Js Ts"})
    lines = b'{"id":0,"op":"hello","protocol":1}\n' + request_line(1, case)
    done = subprocess.run(
        [sys.executable, "-m", "capsa", "conformance", "serve"],
        input=lines,
        capture_output=True,
        timeout=60,
        check=True,
    )
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert answers[1] == {"id": 1, "result": "royal-flush"}


def test_card_text_and_ids_round_trip() -> None:
    assert text_of(range(52)).split()[:5] == ["2d", "2c", "2h", "2s", "3d"]
    assert ids_of(text_of(range(52))) == list(range(52))
    assert ids_of("As Td") == [51, 32]


def test_serve_answers_by_the_rules_of_each_line_when_rules_texts_repeat() -> None:
    # serve skips parsing a rules text it has seen; each answer must still
    # follow the rules of its own line
    wheel = {"a": "As 2d 3c 4h 5s", "b": "2c 3d 4s 5h 6d"}
    low = request_line(1, Case("compare", RulesSpec.of("pagat"), wheel))
    high = request_line(2, Case("compare", RulesSpec.of("mau-binh"), wheel))
    shadowed = low.replace(b'{"id":1,', b'{"id":3,"rules":"not rules",', 1)
    answers = _serve([low, high, low, shadowed, high])
    assert [a.get("result") for a in answers] == [-1, 1, -1, None, 1]
    assert [a["id"] for a in answers] == [1, 2, 1, None, 2]
    # a line with "rules" twice is refused, never read last-wins
    assert answers[3]["error"] == {"kind": "invalid", "message": 'duplicate key "rules"'}


def test_the_package_names_load_on_first_use_and_match_their_modules() -> None:
    import capsa.conformance as kit
    from capsa.conformance import harness

    assert set(kit.__all__) <= set(dir(kit))
    assert kit.run is harness.run
    with pytest.raises(AttributeError, match="no_such_name"):
        _ = kit.no_such_name  # type: ignore[attr-defined]


# Choice names the suites do not cover yet.
NEWER_CHOICES = {("foul.mode", "none"), ("foul.mode", "refuse")}


def test_every_value_of_every_named_choice_and_flag_knob_is_in_the_suites() -> None:
    from capsa import _core
    from capsa.strategies import KNOB_VALUES

    used: dict[str, set[Any]] = {}
    for _, case in cases():
        rules = case.rules.rules()
        for key in KNOB_VALUES:
            used.setdefault(key, set()).add(json.dumps(rules[key]))
    for key, names in _core.RULE_CHOICES.items():
        if key not in KNOB_VALUES:
            continue  # a knob rules data may leave out: the suites keep its default
        # the foul modes of the newer rules are settled by no suite yet
        names = tuple(n for n in names if (key, n) not in NEWER_CHOICES)
        assert {json.dumps(n) for n in names} <= used[key], key
    for key in (
        "royalty_adds",
        "scoop.multiply_royalties",
        "foul.pays_royalties",
        "surrender.enabled",
    ):
        assert used[key] == {"true", "false"}, key
    assert len(used["suit_order"]) == 24
    for key in ("row_points", "scoop.multiplier", "sweep_all.min_players"):
        assert len(used[key]) >= 3, key
    assert len(used["money.rake_basis_points"]) >= 3
    for key in ("money.rake_minimum_pot", "money.rake_cap_per_pot", "money.rake_cap_per_round"):
        assert len(used[key]) >= 2, key


def test_an_unknown_schema_or_digest_choice_is_an_argument_error() -> None:
    from capsa import ArgumentError
    from capsa.conformance.harness import run

    with pytest.raises(ArgumentError, match='"protocol" and "vector", not \'nope\''):
        schema("nope")
    with pytest.raises(ArgumentError, match="\"none\", not 'some'"):
        run(lambda request: {}, digests="some")
