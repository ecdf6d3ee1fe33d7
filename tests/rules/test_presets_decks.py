"""The presets of larger decks: shisanshui-5 (加一色), shisanshui-6 (加二色)
and shisanshui-jokers (大小王), as docs/rules.md, "Presets" tables them.

Each deals its deck, seats the tables the deck seats, pays its naturals and
five of a kind as its file says, and settles random tables of every size as
the oracle does (the oracle reading the same rules' ``to_dict()``).
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from deck_cards import cs, deck_ids
from oracle_module import load_oracle
from oracle_tables import disagreements

import capsa
from capsa.rules.known import presets_of_52_cards

o = load_oracle()

# preset: (its deck's second copies by suit, its jokers, the most seats)
DECKS: dict[str, tuple[str, int, int]] = {
    "shisanshui-5": ("c", 0, 5),
    "shisanshui-6": ("ch", 0, 6),
    "shisanshui-jokers": ("", 2, 4),
}


def deck_of(preset: str) -> list[int]:
    """The preset's deck, written from its row of the table above."""
    added, jokers, _ = DECKS[preset]
    return deck_ids({"added_suits": added or "none", "jokers": jokers})


def test_the_presets_of_larger_decks_deal_their_decks() -> None:
    for preset, (_added, jokers, most) in DECKS.items():
        rules = capsa.Rules.preset(preset)
        assert not rules.deals_52_cards
        assert rules["deck.jokers"] == jokers
        assert len(deck_of(preset)) // 13 == most
    assert capsa.Rules.preset("shisanshui-5")["deck.added_suits"] == "c"
    assert capsa.Rules.preset("shisanshui-6")["deck.added_suits"] == "hc"
    assert set(capsa.presets()) - set(presets_of_52_cards()) == set(DECKS)


@pytest.mark.parametrize("preset", sorted(DECKS))
def test_a_table_of_the_most_seats_settles_and_one_more_is_refused(preset: str) -> None:
    rules = capsa.Rules.preset(preset)
    deck = deck_of(preset)
    most = DECKS[preset][2]
    random.Random(preset).shuffle(deck)
    hands = [deck[13 * s : 13 * s + 13] for s in range(most)]
    result = capsa.settle(hands, rules, stakes=100)
    assert len(result.pairs) == most * (most - 1) // 2 and sum(result.money) == 0
    with pytest.raises(capsa.TableError, match=f"has 2 to {most} seats, got more than {most}"):
        capsa.settle([*hands, hands[0]], rules)


def test_five_of_a_kind_scores_20_in_the_middle_and_10_at_the_bottom() -> None:
    rules = capsa.Rules.preset("shisanshui-5")
    fives = cs("2d 3c 4h / 9s 9h 9d 9c 9c' / As Ah Ad Ac Ac'")
    other = cs("5d 6c 7h / Ks Kh Kd Qs Qh / Js Jh Jd Jc 2s")
    result = capsa.settle([fives, other], rules)
    rows = result.seats[0]["rows"]
    assert (rows["middle"]["royalty"], rows["bottom"]["royalty"]) == (20, 10)
    # the top lost 1; the middle and the bottom score 20 and 10 in place
    # of their 1
    assert result.points == [29, -29]


def test_the_naturals_of_copies_pay_the_server_s_points() -> None:
    rules = capsa.Rules.preset("shisanshui-jokers")
    assert capsa.natural("As Ah Ad Ac BJ RJ 2c 3d 4h 5s 6c 7d 8h", rules) == "six-of-a-kind"
    six = cs("As Ah Ad Ac BJ RJ 2c 3d 4h 5s 6c 7d 8h")
    plain = cs("2d 3c 4s / 5d 6h 7s 8c Tc / 9c 9d Jh Jd Kc")
    result = capsa.settle([six, plain], rules)
    assert result.points == [20, -20]


@pytest.mark.parametrize("preset", sorted(DECKS))
def test_random_tables_of_every_size_settle_as_the_oracle(preset: str) -> None:
    rules = capsa.Rules.preset(preset)
    config: dict[str, Any] = o.load_rules(rules.to_dict())
    rng = random.Random(f"{preset} tables")
    for size in range(2, DECKS[preset][2] + 1):
        for _ in range(12):
            deck = deck_of(preset)
            rng.shuffle(deck)
            hands = [deck[13 * s : 13 * s + 13] for s in range(size)]
            seats = [capsa.splits(h, rules)[-1] if rng.random() < 0.7 else h for h in hands]
            engine = capsa.settle([list(map(int, s)) for s in seats], rules).to_dict()
            want = o.settle(
                [{"top": s[:3], "middle": s[3:8], "bottom": s[8:]} for s in map(list, seats)],
                config,
            )
            assert disagreements(engine, want) == [], (preset, seats)


@pytest.mark.parametrize("preset", sorted(DECKS))
def test_settle_batch_settles_the_preset_s_tables_as_settle(preset: str) -> None:
    import numpy as np

    rules = capsa.Rules.preset(preset)
    most = DECKS[preset][2]
    rng = np.random.default_rng(5)
    deck = np.array(deck_of(preset), dtype=np.uint8)
    cards = np.stack([rng.permutation(deck)[: 13 * most].reshape(most, 13) for _ in range(200)])
    batch = capsa.settle_batch(cards, rules)
    assert batch.errors == []
    for row in range(0, 200, 37):
        one = capsa.settle([list(map(int, s)) for s in cards[row]], rules)
        assert list(batch.points[row]) == list(one.points)


@pytest.mark.parametrize("preset", [*sorted(DECKS), "capsa-susun"])
def test_the_seeded_deal_of_the_rules_deck_is_the_oracle_s(preset: str) -> None:
    rules = capsa.Rules.preset(preset)
    config = o.load_rules(rules.to_dict())
    most = DECKS[preset][2] if preset in DECKS else 4
    for seed in (0, 1, 7, 2**64 - 1):
        for seats in range(2, most + 1):
            hands = [[c.id for c in h] for h in capsa.deal(seats, seed=seed, rules=rules)]
            assert hands == o.deal(seats, seed, config)
            held = [c for h in hands for c in h]
            assert len(set(held)) == 13 * seats and set(held) <= set(o._deck_ids(config))
    # the 52-card deck deals as it always has
    if preset == "capsa-susun":
        assert capsa.deal(4, seed=7, rules=rules) == capsa.deal(4, seed=7)
        assert [[c.id for c in h] for h in capsa.deal(3, seed=9)] == o.deal(3, 9)


@pytest.mark.parametrize("preset", sorted(DECKS))
def test_a_deal_of_more_seats_than_the_deck_seats_is_refused(preset: str) -> None:
    rules = capsa.Rules.preset(preset)
    most = DECKS[preset][2]
    with pytest.raises(capsa.TableError, match=f"has 2 to {most} seats"):
        capsa.deal(most + 1, seed=1, rules=rules)
    with pytest.raises(capsa.TableError, match="seats"):
        capsa.deal(-1, seed=1, rules=rules)
    with pytest.raises(TypeError):
        capsa.deal(4, seed=1, rules="shisanshui-5")  # type: ignore[arg-type]
