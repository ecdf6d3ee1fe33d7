"""The example engine in Go (``examples/go-engine``), a house engine.

The engine was written from ``docs/conformance.md`` and ``docs/rules.md``
alone and plays one house variant, ``examples/go-engine/house.toml``,
whatever rules it is sent; below four seats it also pays a sweeper the
sweep-all bonus from the house, so those rounds do not sum to zero. These
tests build it with ``go build`` and check its answers against capsa's under
``house.toml``: at four seats exactly, at two and three seats exactly except
for that bonus; then that ``capsa conformance run --rules house.toml``
passes it with the bonus as its one observation, and that ``infer`` gets
none of its knobs wrong. Without ``go`` the tests are skipped, except in CI (``CI``
set), where ``.ci/run`` installs it and a missing ``go`` is a failure.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import sys
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

import capsa
from capsa.conformance import load_vectors
from capsa.conformance.vectors import shipped_dir

ENGINE_DIR = Path(__file__).resolve().parents[2] / "examples" / "go-engine"
HOUSE_FILE = ENGINE_DIR / "house.toml"
HOUSE = capsa.Rules.load(HOUSE_FILE)
OPS = ["compare", "category", "foul", "natural", "count_splits", "settle", "digest"]
WHOLE = ("naturals.enabled", "royalties.top", "royalties.middle", "royalties.bottom")


def _go_env(scratch: Path) -> dict[str, str]:
    """The environment for ``go``, which needs a build cache somewhere: the
    user's, else one in ``scratch``."""
    env = dict(os.environ)
    if not (env.get("HOME") or env.get("XDG_CACHE_HOME") or env.get("GOCACHE")):
        env["GOCACHE"] = str(scratch / "cache")
    return env


@pytest.fixture(scope="module")
def engine(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The engine, built with ``go build`` into a temporary directory."""
    go = shutil.which("go")
    if go is None:
        if os.environ.get("CI"):
            pytest.fail("go is not installed, and CI must run the Go engine (.ci/run installs it)")
        pytest.skip("go is not installed (CI installs it)")
    build = tmp_path_factory.mktemp("go-engine")
    binary = build / "go-engine"
    done = subprocess.run(
        [go, "build", "-o", str(binary), "."],
        cwd=ENGINE_DIR,
        env=_go_env(build),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    return binary


def test_the_go_engine_is_gofmt_formatted_and_vet_clean(engine: Path, tmp_path: Path) -> None:
    go = shutil.which("go")
    assert go is not None  # the engine fixture skipped or failed without it
    gofmt = Path(go).resolve().parent / "gofmt"
    unformatted = subprocess.run(
        [str(gofmt) if gofmt.exists() else "gofmt", "-l", "."],
        cwd=ENGINE_DIR,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert unformatted.returncode == 0 and unformatted.stdout == "", unformatted
    vet = subprocess.run(
        [go, "vet", "."],
        cwd=ENGINE_DIR,
        env=_go_env(tmp_path),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert vet.returncode == 0, vet.stderr


def test_the_go_engine_rakes_as_the_rules_say(engine: Path, tmp_path: Path) -> None:
    # the house takes no rake, so its rake is held to the rule text by go test
    go = shutil.which("go")
    assert go is not None
    done = subprocess.run(
        [go, "test", "."],
        cwd=ENGINE_DIR,
        env=_go_env(tmp_path),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def _exchange(engine: Path, lines: list[str]) -> list[dict[str, Any]]:
    done = subprocess.run(
        [str(engine)],
        input="".join(line + "\n" for line in lines),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    return [json.loads(line) for line in done.stdout.splitlines()]


def _results(engine: Path, requests: list[dict[str, Any]]) -> list[Any]:
    """The engine's results for ``requests``, sent as the harness sends them
    (house rules attached), in order; an error answer fails the test."""
    rules = HOUSE.to_dict()
    lines = [
        json.dumps({"id": n, **request, "rules": rules, "preset": None})
        for n, request in enumerate(requests)
    ]
    answers = _exchange(engine, lines)
    assert [a["id"] for a in answers] == list(range(len(requests)))
    errors = [(r, a["error"]) for r, a in zip(requests, answers, strict=True) if "error" in a]
    assert not errors, errors[:3]
    return [a["result"] for a in answers]


def _knobs(data: Mapping[str, Any], prefix: str = "") -> Iterator[tuple[str, Any]]:
    """Every knob of rules data as (dotted name, value), royalty tables and
    ``naturals.enabled`` whole, the labels left out."""
    for key, value in data.items():
        dotted = prefix + key
        if isinstance(value, Mapping) and dotted not in WHOLE:
            yield from _knobs(value, dotted + ".")
        elif dotted not in ("name", "description"):
            yield dotted, value


def _hello(engine: Path) -> dict[str, Any]:
    (answer,) = _exchange(engine, [json.dumps({"id": 0, "op": "hello", "protocol": 1})])
    assert answer["id"] == 0
    result: dict[str, Any] = answer["result"]
    return result


def test_the_go_engine_declares_its_house_variant_in_its_hello(engine: Path) -> None:
    hello = _hello(engine)
    assert hello["protocol"] == 1 and hello["ops"] == OPS and hello["money"] is True
    assert capsa.Rules.from_dict(hello["rules"]) == HOUSE
    assert all(capsa.Rules.preset(name) != HOUSE for name in capsa.presets())
    claims = dict(hello["knobs"])
    assert claims.pop("naturals.names") == []
    assert claims == {knob: [value] for knob, value in _knobs(HOUSE.to_dict())}
    assert hello["not_zero_sum"]["seats"] == [2, 3] and "house" in hello["not_zero_sum"]["note"]


def _hand(rng: random.Random, size: int) -> list[int]:
    """``size`` distinct card ids, often from a few ranks (trips, full houses,
    quads) or from a run of ranks in few suits (straights, flushes, straight
    flushes, the wheel)."""
    mode = rng.randrange(3)
    if mode == 0:
        return rng.sample(range(52), size)
    if mode == 1:
        pool = [4 * rank + suit for rank in rng.sample(range(13), 3) for suit in range(4)]
    else:
        low = rng.randrange(-1, 9)  # -1: the ranks A 2 3 4 ..., the wheel's
        ranks = [(low + k) % 13 for k in range(rng.choice((5, 6, 7)))]
        suits = rng.sample(range(4), rng.choice((1, 2, 2, 3)))
        pool = [4 * rank + suit for rank in ranks for suit in suits]
        pool += rng.sample([c for c in range(52) if c not in pool], max(0, size - len(pool)))
    return rng.sample(pool, size)


def _text(ids: list[int]) -> str:
    return capsa.format_cards(ids)


def test_the_go_engine_ranks_fouls_and_counts_splits_as_capsa_does_under_its_rules(
    engine: Path,
) -> None:
    rng = random.Random(2108)
    pairs = [(_hand(rng, rng.choice((3, 5))), _hand(rng, rng.choice((3, 5)))) for _ in range(320)]
    # the same ranks in other suits: equal under a ranking without suit tie-break
    pairs += [(a, [c - c % 4 + (c + 1) % 4 for c in a]) for a, _ in pairs[:80]]
    deals = [rng.sample(range(52), 13) for _ in range(300)]
    requests = [{"op": "compare", "a": _text(a), "b": _text(b)} for a, b in pairs]
    requests += [{"op": "category", "hand": _text(a)} for a, _ in pairs]
    requests += [
        {"op": "foul", "top": _text(d[:3]), "middle": _text(d[3:8]), "bottom": _text(d[8:])}
        for d in deals
    ]
    requests += [{"op": "count_splits", "hand": _text(d)} for d in deals[:25]]
    expected = [capsa.compare(a, b, HOUSE) for a, b in pairs]
    expected += [capsa.evaluate(a, HOUSE).category for a, _ in pairs]
    expected += [capsa.Arrangement(d[:3], d[3:8], d[8:]).is_foul(HOUSE) for d in deals]
    expected += [capsa.count_splits(d, HOUSE) for d in deals[:25]]
    got = _results(engine, requests)
    wrong = [(r, g, e) for r, g, e in zip(requests, got, expected, strict=True) if g != e]
    assert not wrong, wrong[:5]
    assert {-1, 0, 1} <= set(got[:400]) and len(set(got[400:800])) == 10  # every category met
    assert 0 < sum(got[800:1100]) < 300  # fouled and valid arrangements both met


def test_the_go_engine_has_the_pagat_digests_and_no_naturals(engine: Path) -> None:
    pinned = {
        v["input"]["size"]: v["expected"]
        for v in load_vectors()
        if v["op"] == "digest" and v["rules"] == {"preset": "pagat", "knobs": {}}
    }
    # the house ranks as pagat does: no suit tie-break, the wheel low
    assert set(pinned) == {3, 5}
    assert _results(engine, [{"op": "digest", "size": 5}, {"op": "digest", "size": 3}]) == [
        pinned[5],
        pinned[3],
    ]
    # the natural suite: the 52-card deck this engine plays
    suite = load_vectors(shipped_dir() / "natural.jsonl")
    naturals = [v for v in suite if v["expected"] is not None]
    got = _results(engine, [{"op": "natural", **v["input"]} for v in naturals[:40]])
    assert len(got) == 40 and got == [None] * 40


def _arrangement(rng: random.Random, cards: list[int], foul: bool) -> capsa.Arrangement:
    """A random split of ``cards``: fouled when ``foul`` (if one is found),
    else valid under the house rules."""
    for _ in range(200):
        shuffled = rng.sample(cards, 13)
        arrangement = capsa.Arrangement(shuffled[:3], shuffled[3:8], shuffled[8:])
        if arrangement.is_foul(HOUSE) == foul:
            return arrangement
    return capsa.best_arrangement(cards, HOUSE).arrangement


def _table(rng: random.Random, seats: int) -> tuple[list[capsa.Seat], Any]:
    """A table of ``seats`` seats; in half of them seat 0 is dealt high cards,
    so that it often sweeps, and a quarter of the seats foul."""
    deck = rng.sample(range(52), 52)
    if rng.random() < 0.5:
        deck.sort(key=lambda c: -c + rng.randrange(16))
    hands = [deck[13 * s : 13 * s + 13] for s in range(seats)]
    table = [capsa.Seat(_arrangement(rng, h, rng.random() < 0.25)) for h in hands]
    stakes: Any = rng.choice((1, 7, 100))
    if rng.random() < 0.3:
        stakes = [[0] * seats for _ in range(seats)]
        for i in range(seats):
            for j in range(i + 1, seats):
                stakes[i][j] = stakes[j][i] = rng.randrange(0, 50)
    return table, stakes


def _round(table: list[capsa.Seat], stakes: Any) -> dict[str, Any]:
    return {
        "seats": [
            {
                "top": _text(list(s.arrangement.top)),
                "middle": _text(list(s.arrangement.middle)),
                "bottom": _text(list(s.arrangement.bottom)),
                "surrender": False,
                "declare_natural": True,
            }
            for s in table
        ],
        "stakes": stakes,
    }


def _house_bonus(table: list[capsa.Seat], stakes: Any) -> tuple[list[int], list[int]]:
    """The points and money the house pays at a table below four seats: the
    sweep-all bonus for each opponent of a seat that sweeps, by capsa's own
    definition of a sweep (its sweep-all with ``min_players = 2``)."""
    swept = capsa.settle(table, HOUSE.derive({"sweep_all.min_players": 2}), stakes).seats
    bonus = HOUSE["sweep_all.bonus"]
    n = len(table)
    points, money = [0] * n, [0] * n
    for i, seat in enumerate(swept):
        if seat["swept_all"]:
            points[i] = bonus * (n - 1)
            money[i] = sum(
                bonus * (stakes if isinstance(stakes, int) else stakes[i][j])
                for j in range(n)
                if j != i
            )
    return points, money


def _settle_cases(seed: int, sizes: tuple[int, ...], count: int) -> list[tuple[Any, ...]]:
    rng = random.Random(seed)
    return [_table(rng, rng.choice(sizes)) for _ in range(count)]


def test_the_go_engine_settles_four_seats_exactly_as_capsa_under_its_rules(engine: Path) -> None:
    cases = _settle_cases(4, (4,), 150)
    got = _results(engine, [{"op": "settle", "round": _round(t, s)} for t, s in cases])
    sweeps = 0
    for (table, stakes), answer in zip(cases, got, strict=True):
        want = capsa.settle(table, HOUSE, stakes)
        assert answer == {
            "points": want.points,
            "money": want.money,
            "rake": want.rake,
            "net": want.net,
        }, _round(table, stakes)
        sweeps += any(seat["swept_all"] for seat in want.seats)
    assert sweeps >= 10  # the sweep-all bonus paid by every opponent was asked


def test_the_go_engine_settles_two_and_three_seats_as_capsa_plus_the_house_bonus(
    engine: Path,
) -> None:
    cases = _settle_cases(23, (2, 3), 300)
    got = _results(engine, [{"op": "settle", "round": _round(t, s)} for t, s in cases])
    sweeps = 0
    for (table, stakes), answer in zip(cases, got, strict=True):
        want = capsa.settle(table, HOUSE, stakes)
        bonus_points, bonus_money = _house_bonus(table, stakes)
        expected = {
            "points": [p + b for p, b in zip(want.points, bonus_points, strict=True)],
            "money": [m + b for m, b in zip(want.money, bonus_money, strict=True)],
            "rake": [0] * len(table),
            "net": [m + b for m, b in zip(want.money, bonus_money, strict=True)],
        }
        assert answer == expected, _round(table, stakes)
        if any(bonus_points):
            sweeps += 1
            assert sum(answer["points"]) == sum(bonus_points) > 0
        else:
            assert sum(answer["points"]) == sum(answer["money"]) == 0
    assert sweeps >= 30  # the house's bonus was asked, at both sizes


def test_the_go_engine_answers_bad_requests_with_typed_errors_and_goes_on(engine: Path) -> None:
    rules = HOUSE.to_dict()
    good = {"op": "compare", "a": "As Ks Qs", "b": "2d 3d 4d", "rules": rules, "preset": None}
    seat = {"top": "Ah Kh 8s", "middle": "As Ks 9d 7d 5h", "bottom": "Jc Jd Jh 3c 3d"}
    other = {"top": "Qs Js 7s", "middle": "2c 3s 4c 5c 6c", "bottom": "2h 4h 6h 9h Qh"}
    settle = {"op": "settle", "rules": rules, "preset": None}
    answers = _exchange(
        engine,
        [
            "not json",
            json.dumps({**good, "id": 1, "op": "frobnicate"}),
            json.dumps({**good, "id": 2, "a": "As Ks Zz"}),
            json.dumps({**good, "id": 3, "a": "As As Ks"}),
            json.dumps({**settle, "id": 4, "round": {"seats": [seat, seat]}}),
            json.dumps(
                {**settle, "id": 5, "round": {"seats": [{**seat, "surrender": True}, other]}}
            ),
            json.dumps({**settle, "id": 6, "round": {"seats": [seat, other], "stakes": [[0, 1]]}}),
            json.dumps({**good, "id": 7}),
            "x" * (2 << 20),
            json.dumps({**good, "id": 8, "a": "2s 3d 4c"}),
        ],
    )
    assert answers[0]["id"] is None and answers[0]["error"]["kind"] == "invalid"
    errors = {a["id"]: (a["error"]["kind"], a["error"]["message"]) for a in answers[1:7]}
    assert len(answers) == 10 and list(errors) == [1, 2, 3, 4, 5, 6]
    assert errors[1][0] == "unsupported" and "frobnicate" in errors[1][1]
    assert errors[2][0] == "invalid" and "Zz" in errors[2][1]
    assert errors[3][0] == "invalid" and "repeated" in errors[3][1]
    assert errors[4][0] == "invalid" and "twice" in errors[4][1]
    assert errors[5][0] == "unsupported" and "surrender" in errors[5][1]
    assert errors[6][0] == "invalid" and "stakes" in errors[6][1]
    assert answers[7] == {"id": 7, "result": 1}
    assert answers[8]["id"] is None and "1 MiB" in answers[8]["error"]["message"]
    assert answers[9] == {"id": 8, "result": 0}  # three cards make no straight, no flush


def _capsa(*args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "capsa", "conformance", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def test_the_go_engine_passes_run_under_its_own_rules(engine: Path, tmp_path: Path) -> None:
    done = _capsa(
        "run", "--engine", str(engine), "--rules", str(HOUSE_FILE), "--fuzz", "40", "--seed", "7",
        "--out", str(tmp_path),
    )  # fmt: skip
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    report = json.loads((tmp_path / "report.json").read_text(encoding="utf-8"))
    assert report["passed"] is True and report["failures"] == []
    assert report["vectors"]["asked"] > 800 and report["fuzz"]["cases"] > 20
    for op in OPS:
        assert report["matrix"][op]["*"]["pass"] > 0, op
    # the house's bonus below four seats: declared, observed, and nothing else
    assert {o["kind"] for o in report["observations"]} == {"not-zero-sum"}


@pytest.mark.parametrize("base", [None, "capsa-susun"])
def test_infer_finds_every_knob_of_the_go_engine_or_says_it_is_not_determined(
    engine: Path, base: str | None
) -> None:
    """Probed under the rules its hello declares, or under a preset it differs
    from in 20 knobs, infer gets no knob of the house wrong: each is found or
    reported not determined or not probed."""
    from capsa.conformance.inference import infer

    found = infer(str(engine), base=base)
    open_knobs = set(found.undetermined) | set(found.not_probed)
    wrong = {
        knob: (found.rules[knob], value)
        for knob, value in _knobs(HOUSE.to_dict())
        if found.rules[knob] != value
        and not any(k == knob or k.startswith(knob + ".") for k in open_knobs)
    }
    assert wrong == {}, found.to_toml()
    # the scoring it could solve only at four seats, and the house's own bonus
    for knob in ("scoop.bonus", "royalties.top", "royalties.middle", "royalties.bottom"):
        assert found.rules[knob] == HOUSE[knob], knob
    assert found.rules["naturals.enabled"] == []
    # the house's bonus below four seats is observed, not fitted
    assert any("sum to zero" in o.message for o in found.observations)


def test_run_under_the_rules_infer_finds_reports_only_the_house_bonus(
    engine: Path, tmp_path: Path
) -> None:
    """infer probing under pagat (so every knob that differs is found by a
    probe), then run under what it wrote: every op tested, no failure, and
    the house's bonus the one observation."""
    inferred = tmp_path / "inferred.toml"
    done = _capsa(
        "infer", "--engine", str(engine), "--rules", "pagat", "--no-check", "--out", str(inferred)
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    capsa.Rules.load(inferred)
    done = _capsa(
        "run", "--engine", str(engine), "--rules", str(inferred), "--fuzz", "20", "--seed", "7",
        "--out", str(tmp_path / "report"),
    )  # fmt: skip
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    # rules the engine's claims rule out would skip its ops instead of testing them
    report = json.loads((tmp_path / "report" / "report.json").read_text(encoding="utf-8"))
    for op in OPS:
        assert report["matrix"][op]["*"]["pass"] > 0, (op, report["skipped"])
    assert {o["kind"] for o in report["observations"]} == {"not-zero-sum"}
