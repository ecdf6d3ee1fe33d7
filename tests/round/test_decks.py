"""Rounds of larger decks: the provably fair deal of the rules' deck, the
auto-arrange policies that play it, the record that holds its cards, its
replay and the check of its deal (docs/records.md, "The provably fair deal,
capsa-fair-1" and docs/rules.md, "Decks: added suits, two decks and jokers").

The deal is held to the oracle's, written from the text alone; the
settlement of every recorded round to the oracle's settlement of the
recorded arrangements; the greedy policy's bottom to the oracle's strongest
five of the hand.
"""

from __future__ import annotations

import json
import re
from itertools import combinations
from pathlib import Path
from typing import Any

import pytest
from oracle_module import load_oracle
from oracle_tables import disagreements

import capsa
import capsa.solver
import capsa.store

o = load_oracle()

SCHEMA = Path(__file__).resolve().parents[2] / "python" / "capsa" / "schema" / "record-5.json"

# Two decks and both jokers, eight seats: rules no preset holds yet.
EIGHT_SEATS = {"base": "shisanshui", "deck": {"decks": 2, "jokers": 2}}

# rules: the most seats their deck deals to
TABLES: dict[str, int] = {"shisanshui-5": 5, "shisanshui-6": 6, "shisanshui-jokers": 4, "eight": 8}

SEED = bytes(range(32))


def rules_of(name: str) -> capsa.Rules:
    """The rules a table name stands for."""
    return capsa.Rules(EIGHT_SEATS) if name == "eight" else capsa.Rules.preset(name)


def ids(hand: list[capsa.Card]) -> list[int]:
    return [c.id for c in hand]


@pytest.mark.parametrize("name", [*TABLES, "capsa-susun"])
def test_the_fair_deal_shuffles_the_rules_deck_as_the_oracle_does(name: str) -> None:
    rules = rules_of(name)
    config = o.load_rules(rules.to_dict())
    most = TABLES.get(name, 4)
    for nonce in (0, 5, 2**64 - 1):
        for seats in (2, most):
            seeds = [f"player {k}" for k in range(seats)] if nonce else []
            dealt, cards = capsa._core.fair_deal(SEED, seeds, nonce, seats, rules)
            assert [list(h) for h in dealt] == o.fair_deal(seats, SEED, seeds, nonce, config)
            assert [ids(h) for h in cards] == [list(h) for h in dealt]
    # the 52-card deck deals as it did before decks were rules data
    if name == "capsa-susun":
        plain = capsa._core.fair_deal(SEED, [], 3, 4)[0]
        assert plain == capsa._core.fair_deal(SEED, [], 3, 4, rules)[0]
        assert [list(h) for h in plain] == o.fair_deal(4, SEED, [], 3)


def play_round(name: str, submit: int, nonce: int = 1) -> tuple[capsa.Round, str]:
    """A round of the most seats the rules seat: seats below ``submit``
    submit their hand's last valid split, the rest are arranged at the close."""
    rules = rules_of(name)
    seats = TABLES[name]
    rnd = capsa.Round(rules, seats, 25, round_id=f"{name}/{nonce}", nonce=nonce, server_seed=SEED)
    hands = rnd.deal(client_seeds=[f"c{k}" for k in range(seats)])
    for k in range(submit):
        rnd.submit(k, capsa.splits(hands[k], rules)[-1])
    rnd.close(force=True)
    rnd.settle()
    return rnd, rnd.record_json()


@pytest.mark.parametrize("name", sorted(TABLES))
def test_a_round_of_a_larger_deck_is_dealt_recorded_replayed_and_settles_as_the_oracle(
    name: str,
) -> None:
    rnd, text = play_round(name, submit=2)
    assert rnd.auto_arrange == "solver"
    record = json.loads(text)
    assert capsa.replay(text) == record["digest"]
    capsa.verify_deal(text, commitment=rnd.commitment)
    # the hands are the oracle's fair deal of the rules' deck, written as cards
    config = o.load_rules(record["rules"])
    dealt = o.fair_deal(TABLES[name], SEED, record["deal"]["client_seeds"], 1, config)
    assert [s["hand"] for s in record["seats"]] == [
        " ".join(str(capsa.Card(c)) for c in hand) for hand in dealt
    ]
    # every seat's arrangement holds its hand; the settlement is the oracle's
    rows = [[capsa.parse_cards(r) for r in s["arrangement"].split(" / ")] for s in record["seats"]]
    for row, hand in zip(rows, dealt, strict=True):
        assert sorted(c.id for r in row for c in r) == hand
    want = o.settle(
        [
            {
                "top": ids(r[0]),
                "middle": ids(r[1]),
                "bottom": ids(r[2]),
                "declare_natural": s["declare_natural"],
            }
            for r, s in zip(rows, record["seats"], strict=True)
        ],
        config,
        25,
    )
    settled = {k: v for k, v in record["settlement"].items() if k != "version"}
    assert disagreements(settled, want) == []
    assert sum(record["settlement"]["money"]) == 0


@pytest.mark.parametrize("name", sorted(TABLES))
def test_the_record_of_a_larger_deck_follows_the_schema(name: str) -> None:
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    _, text = play_round(name, submit=0, nonce=2)
    jsonschema.validate(json.loads(text), schema)


def test_a_round_of_a_larger_deck_is_the_same_record_from_the_same_seeds() -> None:
    assert play_round("eight", submit=3)[1] == play_round("eight", submit=3)[1]


def test_a_saved_round_of_a_larger_deck_restores_and_records_the_same() -> None:
    key = b"k" * 32
    rules = rules_of("shisanshui-6")
    rnd = capsa.Round(rules, 6, 10, round_id="saved", server_seed=SEED)
    hands = rnd.deal()
    rnd.submit(0, capsa.splits(hands[0], rules)[-1])
    saved = rnd.to_dict(key=key)
    back = capsa.Round.from_dict(saved, key=key)
    assert back.hands == hands and back.arrangement(0) == rnd.arrangement(0)
    for r in (rnd, back):
        r.close(force=True)
        r.settle()
    assert back.record_json() == rnd.record_json()


def hand_ending(record: dict[str, Any], seat: int, card: str) -> str:
    """Seat ``seat``'s hand with its last card (its highest id) made ``card``."""
    return " ".join([*record["seats"][seat]["hand"].split()[:-1], card])


def tampered(text: str, change: Any) -> dict[str, Any]:
    record = json.loads(text)
    change(record)
    return record


def test_a_record_holding_cards_its_rules_do_not_deal_is_refused() -> None:
    _, plain = play_round_52()
    second_copy = tampered(plain, lambda r: r["seats"][0].update(hand=hand_ending(r, 0, "As'")))
    not_dealt = r"seats\[0\]\.hand: .*As' \(id 103\).*not in the 52-card deck"
    with pytest.raises(capsa.RecordError, match=not_dealt):
        capsa.replay(second_copy)
    _, larger = play_round("shisanshui-5", submit=0, nonce=3)
    joker = tampered(larger, lambda r: r["seats"][1].update(hand=hand_ending(r, 1, "BJ")))
    with pytest.raises(capsa.RecordError, match=r"seats\[1\]\.hand: .*BJ.*not in the 65-card deck"):
        capsa.replay(joker)


def test_a_record_seating_more_than_its_deck_deals_to_is_refused() -> None:
    _, text = play_round("shisanshui-5", submit=0, nonce=4)
    six = tampered(text, lambda r: r["seats"].append(r["seats"][0]))
    with pytest.raises(capsa.RecordError, match=r"the 65-card deck .* has 2 to 5 seats, got 6"):
        capsa.replay(six)
    # the 52-card message as it always was
    _, plain = play_round_52()
    five = tampered(plain, lambda r: r["seats"].append(r["seats"][0]))
    with pytest.raises(capsa.RecordError, match="seats: a table has 2 to 4 seats, got 5"):
        capsa.replay(five)


def test_a_record_whose_deck_knob_is_not_a_deck_is_refused_naming_it() -> None:
    _, text = play_round("shisanshui-5", submit=0, nonce=5)
    bad = tampered(text, lambda r: r["rules"]["deck"].update(added_suits=["c"]))
    not_a_deck = r"rules\.deck\.added_suits must be a text or an integer, not an? array"
    with pytest.raises(capsa.RecordError, match=not_a_deck):
        capsa.replay(bad)
    wrong = tampered(text, lambda r: r["rules"]["deck"].update(decks=3))
    with pytest.raises(capsa.RecordError, match=r"rules\.deck\.decks"):
        capsa.replay(wrong)


def test_a_changed_card_of_a_larger_deck_fails_the_deal_check() -> None:
    _, text = play_round("shisanshui-jokers", submit=0, nonce=6)
    record = json.loads(text)
    hands = [s["hand"].split() for s in record["seats"]]
    # swap one card between two seats: every card is still the deck's
    a, b = hands[0][0], hands[1][0]
    hands[0][0], hands[1][0] = b, a
    for seat, hand in zip(record["seats"][:2], hands[:2], strict=True):
        order = sorted(hand, key=lambda t: capsa.Card(t).id)
        seat["hand"] = " ".join(order)
    with pytest.raises(capsa.ReplayError, match=r"seats\[0\]\.hand"):
        capsa.verify_deal(record)


def play_round_52() -> tuple[capsa.Round, str]:
    rnd = capsa.Round(capsa.Rules(), 4, 25, round_id="plain", server_seed=SEED)
    rnd.deal()
    rnd.close(force=True)
    rnd.settle()
    return rnd, rnd.record_json()


def test_the_seats_left_at_the_close_are_arranged_by_the_solver_of_the_rules_deck() -> None:
    rules = rules_of("shisanshui-6")
    _, text = play_round("shisanshui-6", submit=1)
    record = json.loads(text)
    for seat in record["seats"][1:]:
        hand = capsa.parse_cards(seat["hand"])
        choice = capsa.solver.best_arrangement(hand, rules, seats=6)
        assert seat["arrangement"] == str(choice.arrangement)
    assert not any(s["foul"] for s in record["settlement"]["seats"])
    assert capsa.Round(capsa.Rules(), 4, 10, round_id="r").auto_arrange == "solver"


@pytest.mark.parametrize("name", sorted(TABLES))
def test_a_round_seats_what_its_deck_deals_to_and_no_more(name: str) -> None:
    most = TABLES[name]
    rules = rules_of(name)
    capsa.Round(rules, most, 10, round_id="r")
    with pytest.raises(capsa.TableError, match=f"has 2 to {most} seats, got {most + 1}"):
        capsa.Round(rules, most + 1, 10, round_id="r")
    with pytest.raises(capsa.TableError, match="got -1"):
        capsa.Round(rules, -1, 10, round_id="r")


def strongest_five(hand: list[int], config: dict[str, Any]) -> list[int]:
    best = list(next(iter(combinations(hand, 5))))
    for five in combinations(hand, 5):
        if o.compare(list(five), best, config) > 0:
            best = list(five)
    return best


@pytest.mark.parametrize("name", sorted(TABLES))
def test_the_greedy_policy_plays_the_strongest_bottom_and_never_fouls(name: str) -> None:
    rules = rules_of(name)
    config = o.load_rules(rules.to_dict())
    for nonce in range(4):
        for hand in capsa._core.fair_deal(SEED, [], nonce, 2, rules)[0]:
            laid, _ = capsa._core.auto_arrangement(list(hand), rules, 2, "greedy")
            top, middle, bottom = laid[:3], laid[3:8], laid[8:]
            assert sorted(laid) == sorted(hand)
            assert not o.is_foul(top, middle, bottom, config)
            assert o.compare(bottom, strongest_five(list(hand), config), config) == 0
            fouled, declared = capsa._core.auto_arrangement(list(hand), rules, 2, "foul")
            assert o.is_foul(fouled[:3], fouled[3:8], fouled[8:], config) and not declared


def chain_of(tables: list[tuple[str, int]]) -> list[str]:
    """One table's chain of records, a round of each (rules, seats) in turn."""
    texts: list[str] = []
    previous = None
    for nonce, (name, seats) in enumerate(tables):
        rules = rules_of(name)
        ids = {"round_id": f"r{nonce}", "table_id": "t", "nonce": nonce}
        rnd = capsa.Round(rules, seats, 10, previous_digest=previous, server_seed=SEED, **ids)
        rnd.deal()
        rnd.close(force=True)
        rnd.settle()
        texts.append(rnd.record_json())
        previous = rnd.digest
    return texts


MIXED = [("shisanshui-6", 6), ("capsa-susun", 4), ("eight", 8), ("capsa-susun", 3)]


def test_the_store_and_the_ledger_keep_rounds_of_larger_decks(tmp_path: Path) -> None:
    texts = chain_of(MIXED)
    with capsa.store.open_store(f"sqlite:///{tmp_path / 'rounds.db'}") as store:
        assert all(store.append(text) for text in texts)
        report = store.verify()
        assert report.problems == [] and report.records == 4 and report.seats == 21
        assert list(store.texts()) == texts
    ledger = capsa.Ledger()
    for text in texts:
        ledger.add(text)
    assert sum(ledger.balances.values()) + ledger.house == 0
    assert len(ledger.balances) == 8


WIDE = [*MIXED, ("shisanshui-jokers", 4), ("shisanshui-5", 5)]


def test_a_table_of_records_holds_its_width_and_reports_wider_rounds() -> None:
    pytest.importorskip("pyarrow")
    from capsa.bulk.record_tables import records_schema, records_table

    failed: list[tuple[int, str | None, Exception]] = []
    table = records_table(chain_of(WIDE), on_error=lambda n, r, e: failed.append((n, r, e)))
    # four seats unless told: the 52-card deck's schema, rounds of jokers in it
    assert table.schema.remove_metadata() == records_schema()
    assert table.column("round_id").to_pylist() == ["r1", "r3", "r4"]
    assert [(n, r) for n, r, _ in failed] == [(1, "r0"), (3, "r2"), (6, "r5")]
    assert all(isinstance(e, capsa.TableError) for _, _, e in failed)
    assert "holds up to 4 seats and the round has 6" in str(failed[0][2])


def recorded(text: str) -> dict[str, Any]:
    return json.loads(text)["settlement"]


def test_a_table_of_eight_seats_settles_every_deck_as_its_records() -> None:
    pytest.importorskip("pyarrow")
    from capsa import bulk
    from capsa.bulk.record_tables import records_table

    texts = chain_of(WIDE)
    table = records_table(texts, seats=8)
    assert table.num_rows == len(WIDE) and table.column_names.count("cards7") == 1
    results = bulk.settle_table(table).to_pylist()
    for text, row, (_, seats) in zip(texts, results, WIDE, strict=True):
        want = recorded(text)
        assert row["error"] is None and row["seats"] == seats
        for figure in ("points", "money", "rake", "net"):
            assert [row[f"{figure}{s}"] for s in range(seats)] == want[figure]
            assert all(row[f"{figure}{s}"] is None for s in range(seats, 8))
        assert [row[f"fouled{s}"] for s in range(seats)] == [seat["foul"] for seat in want["seats"]]


def test_a_parquet_log_of_larger_decks_settles_as_its_records(tmp_path: Path) -> None:
    pytest.importorskip("pyarrow")
    import pyarrow.parquet as pq

    from capsa import bulk
    from capsa.bulk.record_tables import to_parquet

    texts = chain_of(WIDE)
    log = tmp_path / "rounds.jsonl"
    log.write_text("".join(t + "\n" for t in texts))
    assert to_parquet(log, tmp_path / "rounds.parquet", seats=8) == (len(WIDE), 0)
    assert bulk.settle_parquet(tmp_path / "rounds.parquet", tmp_path / "out.parquet") == (6, 0)
    rows = pq.read_table(tmp_path / "out.parquet").to_pylist()
    for text, row in zip(texts, rows, strict=True):
        money = recorded(text)["money"]
        assert [row[f"money{s}"] for s in range(8)] == money + [None] * (8 - len(money))


def test_the_command_line_writes_tables_as_wide_as_told(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("pyarrow")
    import pyarrow.parquet as pq

    from capsa.cli import main

    texts = chain_of(MIXED)
    log = tmp_path / "rounds.jsonl"
    log.write_text("".join(t + "\n" for t in texts))
    # four seats unless told: the rounds of six and eight are one line each
    assert main(["records", "to-parquet", str(log), "-o", str(tmp_path / "a.parquet")]) == 1
    failed = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [f["round_id"] for f in failed] == ["r0", "r2"]
    wide = str(tmp_path / "b.parquet")
    assert main(["records", "to-parquet", str(log), "-o", wide, "--seats", "8"]) == 0
    assert pq.read_table(wide).num_rows == 4
    # settled JSON rounds to Parquet: a round wider than the file is an error record
    for seats, errors in ((4, 2), (8, 0)):
        out = tmp_path / f"s{seats}.parquet"
        assert main(["settle", str(log), "-o", str(out), "--seats", str(seats)]) == 0
        rows = pq.read_table(out).to_pylist()
        assert sum(r["error"] is not None for r in rows) == errors
        assert [r["money0"] is None for r in rows] == [seats < 6, False, seats < 8, False]
    first_error = pq.read_table(tmp_path / "s4.parquet").column("error")[0].as_py()
    assert first_error.startswith("TableError: ") and "write them with --seats 6" in first_error
    assert main(["settle", str(log), "-o", str(tmp_path / "x.parquet"), "--seats", "9"]) == 2


def test_capsa_play_deals_arranges_and_settles_a_larger_deck(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from capsa.cli import main

    assert main(["play", "--rules", "shisanshui-6", "--seats", "6", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    dealt = [hand.split() for hand in re.findall(r"^seat \d+: (.+)$", out, flags=re.MULTILINE)]
    assert len(dealt) == 6 and len({card for hand in dealt for card in hand}) == 78
    assert out.count("(expects ") == 6
    assert any("'" in card for hand in dealt for card in hand)
    assert main(["play", "--rules", "shisanshui-5", "--seats", "6"]) == 2
    error = capsys.readouterr().err.strip().splitlines()
    refused = "a table of the 65-card deck (added suits: c) has 2 to 5 seats, got 6"
    assert error == [f"capsa play: TableError: {refused}"]
