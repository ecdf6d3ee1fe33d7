"""A top holding both jokers (对鬼冲前), as
docs/rules.md, "Tables of larger decks" words it:
with ``royalties.top_two_jokers`` above 0 such a top wins the top row
against every top that does not hold both, in each pair and in the
sweep-all test, and its royalty is that knob's in place of its hand's; its
strength is its hand's for the foul check and the report. 0 is no such
rule. The engine against the oracle, which follows the text on its own;
the solver plays the rule.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
from deck_cards import BLACK_JOKER, RED_JOKER, cs, deck_ids
from hypothesis import given
from hypothesis import strategies as st
from oracle_module import load_oracle
from oracle_tables import disagreements, engine_settle, oracle_settle

import capsa
import capsa.solver

o = load_oracle()

NO_NATURALS: dict[str, Any] = {"enabled": []}
JOKERS: dict[str, Any] = {"jokers": 2}


def both_rules(two_jokers: int | None, deck: dict[str, Any] = JOKERS, **knobs: Any) -> Any:
    """The engine's rules (shisanshui's scoring, the knob as given) and
    the oracle's reading of them."""
    data: dict[str, Any] = {"base": "shisanshui-jokers", "deck": deck, **knobs}
    data.setdefault("naturals", NO_NATURALS)
    if two_jokers is not None:
        data["royalties"] = {**data.get("royalties", {}), "top_two_jokers": two_jokers}
    rules = capsa.Rules(data)
    return rules, o.load_rules(rules.to_dict())


def table(*seats: str) -> dict[str, Any]:
    return {
        "seats": [{"cards": cs(s), "surrender": False, "declare_natural": True} for s in seats],
        "stakes": 1,
        "banker": None,
        "multipliers": None,
    }


def agreed(t: dict[str, Any], rules: capsa.Rules, config: dict[str, Any]) -> dict[str, Any]:
    engine, want = engine_settle(t, rules), oracle_settle(t, config)
    assert disagreements(engine, want) == [], (t, engine)
    assert isinstance(engine, dict), engine
    assert sum(engine["money"]) == 0
    return engine


# seat 0's top holds both jokers (trips of deuces as ranked); seat 1's is
# trips of aces, which ranks above it
JOKER_TOP = "2d BJ RJ / 3c 3h 3s 4d 4c / 9s Ts Js Qs Ks"
ACES_TOP = "Ah Ad Ac / 5c 5h 5s 6d 6c / 7d 7c 7h 7s 8d"


def test_a_top_of_both_jokers_wins_its_row_and_scores_the_knob() -> None:
    rules, config = both_rules(None)
    assert rules["royalties.top_two_jokers"] == 20  # the preset's 对鬼冲前
    got = agreed(table(JOKER_TOP, ACES_TOP), rules, config)
    seat = got["seats"][0]
    assert seat["rows"]["top"]["royalty"] == 20 and not seat["foul"]
    assert got["pairs"][0]["rows"]["top"] == 1
    # the report keeps its hand: trips, as ranked
    assert seat["rows"]["top"]["category"] == "trips"


def test_without_the_rule_the_top_is_ranked_as_its_hand() -> None:
    rules, config = both_rules(0)
    got = agreed(table(JOKER_TOP, ACES_TOP), rules, config)
    assert got["pairs"][0]["rows"]["top"] == -1
    assert got["seats"][0]["rows"]["top"]["royalty"] == 3  # trips on the top
    assert o.royalty("top", cs("2d BJ RJ"), config) == 3


def test_the_foul_check_reads_the_top_as_ranked() -> None:
    """Trips on the top above a pair in the middle fouls, jokers or not."""
    rules, config = both_rules(None)
    fouled = "9d BJ RJ / 3c 3h 4s 8c Tc / 9s Ts Js Qs Ks"
    got = agreed(table(fouled, ACES_TOP), rules, config)
    assert got["seats"][0]["foul"]


def test_a_top_of_both_jokers_sweeps_all() -> None:
    """Four seats: the joker top wins its row against every top, a nine-high
    straight flush and a royal flush the others: it sweeps all."""
    rules, config = both_rules(None, sweep_all={"min_players": 4})
    first = cs("2d BJ RJ / 5s 6s 7s 8s 9s / Tc Jc Qc Kc Ac")
    # trips of aces on the top, above the deuces the jokers make as ranked
    aces = cs("Ah Ad As / 3d 3c 3h 4d 4c / 8d 8c 8h Td Th")
    rest = [c for c in deck_ids(JOKERS) if c not in first + aces and c < BLACK_JOKER]
    random.Random(5).shuffle(rest)
    seats = [first, aces]
    for hand in (rest[:13], rest[13:26]):
        seats.append([int(c) for c in capsa.splits(hand, rules)[0]])
    t = {
        "seats": [{"cards": c, "surrender": False, "declare_natural": True} for c in seats],
        "stakes": 1,
        "banker": None,
        "multipliers": None,
    }
    got = agreed(t, rules, config)
    assert got["seats"][0]["swept_all"]
    # without the rule its trips of deuces lose to the aces: no sweep
    off, off_config = both_rules(0, sweep_all={"min_players": 4})
    assert not agreed(t, off, off_config)["seats"][0]["swept_all"]


@st.composite
def joker_tables(draw: st.DrawFn) -> tuple[dict[str, Any], dict[str, Any], int | None]:
    """A deck with both jokers, a knob value (unset, 0 or 1 to 30) and a
    table of 2 to the deck's most seats, one seat's top holding both jokers
    most of the time, the rest dealt and laid out by a legal split."""
    deck = draw(
        st.sampled_from([JOKERS, {"jokers": 2, "decks": 2}, {"jokers": 2, "added_suits": "c"}])
    )
    knob = draw(st.one_of(st.none(), st.just(0), st.integers(1, 30)))
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    ids = [c for c in deck_ids(deck) if c < BLACK_JOKER]
    rng.shuffle(ids)
    most = min(8, (len(ids) + 2) // 13)
    players = rng.randint(2, most)
    hands = [ids[13 * k : 13 * k + 13] for k in range(players)]
    if rng.random() < 0.8:
        hands[0][-2:] = [BLACK_JOKER, RED_JOKER]
    return deck, {"hands": hands, "seed": rng.random()}, knob


@given(drawn=joker_tables())
def test_random_tables_with_both_jokers_settle_as_the_oracle(
    drawn: tuple[dict[str, Any], dict[str, Any], int | None],
) -> None:
    """Seat 0 (holding both jokers most of the time) lays them on the top
    when a legal split does, seven times in ten; the others play greedy's
    arrangement, or their cards as dealt (often fouled) one time in five."""
    deck, dealt, knob = drawn
    rules, config = both_rules(knob, deck)
    rng = random.Random(dealt["seed"])
    hands = dealt["hands"]
    splits = capsa.splits(hands[0], rules)
    up = [s for s in splits if {BLACK_JOKER, RED_JOKER} <= {int(c) for c in s[:3]}]
    pick = up if up and rng.random() < 0.7 else splits
    seats = [[int(c) for c in pick[rng.randrange(len(pick))]]]
    for hand in hands[1:]:
        laid = capsa._core.auto_arrangement(hand, rules, len(hands), "greedy")[0]
        seats.append(hand if rng.random() < 0.2 else laid)
    t = {
        "seats": [{"cards": c, "surrender": False, "declare_natural": True} for c in seats],
        "stakes": 1,
        "banker": None,
        "multipliers": None,
    }
    engine, want = engine_settle(t, rules), oracle_settle(t, config)
    assert disagreements(engine, want) == [], (deck, knob, t)


def test_the_solver_puts_both_jokers_on_top_when_the_rule_pays_it() -> None:
    """On dealt hands holding both jokers with a legal split that keeps
    them on the top (trips on the top need two rows above them), the
    solver's pick keeps them there nearly always under the preset's rule,
    and rarely without it; it never fouls."""
    on, _ = both_rules(None)
    off, _ = both_rules(0)
    rng = np.random.default_rng(3)
    others = [c for c in deck_ids(JOKERS) if c < BLACK_JOKER]
    counts = {"possible": 0, "on": 0, "off": 0}
    while counts["possible"] < 30:
        hand = [*rng.choice(others, 11, replace=False).tolist(), BLACK_JOKER, RED_JOKER]
        splits = capsa.splits(hand, on)
        if not any({BLACK_JOKER, RED_JOKER} <= {int(c) for c in s[:3]} for s in splits):
            continue
        counts["possible"] += 1
        for name, rules in (("on", on), ("off", off)):
            choice = capsa.solver.best_arrangement(hand, rules)
            assert not choice.arrangement.is_foul(rules)
            counts[name] += {BLACK_JOKER, RED_JOKER} <= set(choice.arrangement.ids[:3])
    assert counts["on"] >= 27 and counts["off"] <= 15, counts
