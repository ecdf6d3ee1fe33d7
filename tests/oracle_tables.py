"""Tables over the whole knob space, settled by the engine and by the oracle.

Shared by the engine-against-oracle tests (``tests/oracle/test_agreement.py``)
and ``benches/oracle_agreement.py``: rules drawn from every knob (ranked
royalties, scoop by seats, exempt sweeps, the horse card, caps, banker
games, the foul modes ``none`` and ``refuse``, naturals entries with their
fields among them), tables of 2 to 4 seats dealt to hit the rare naturals
and the horse card, and the comparison of every seat and pair figure of the
two settlements.

``ENGINE_PARTS`` detects the engine's side of those knobs: the knobs in its
knob table, the natural ``two-full-houses``, ``settle(..., banker=,
multipliers=)`` and the pair terms. ``ENGINE_HAS_NEW_RULES`` is all four;
until the engine has them, tables for the engine draw the older knobs only.
``REQUIRE_NEW_RULES = True`` makes an engine without them a test failure
(``test_engine_has_the_new_rules``), and a part without the others fails
it whatever the switch, so the narrower tables never run silently once the
engine has any of it.
"""

from __future__ import annotations

import copy
import inspect
import random
from collections.abc import Mapping
from functools import lru_cache
from itertools import combinations
from typing import Any

from hypothesis import strategies as st

import capsa
import capsa.rules
from capsa import oracle
from capsa.rules.known import presets_of_52_cards
from strategies import natural_hand

__all__ = [
    "ENGINE_HAS_NEW_RULES",
    "ENGINE_PARTS",
    "NEW_TERMS",
    "PRESETS",
    "REQUIRE_NEW_RULES",
    "deal_table",
    "disagreements",
    "engine_settle",
    "knob_sets",
    "merged",
    "oracle_settle",
    "settle_both",
    "with_terms",
]


def _pair_terms() -> bool:
    """Whether the engine's pair results carry the pair terms (a pair whose
    horse card multiplies it)."""
    if "horse.card" not in capsa.rules.KNOB_NAMES:
        return False
    hands = [list(range(13 * s, 13 * s + 13)) for s in range(2)]
    seats = [capsa.Seat(capsa.Arrangement.from_ids(h)) for h in hands]
    rules = capsa.Rules().derive(horse={"card": "2d"})
    return "base" in capsa.settle(seats, rules).to_dict()["pairs"][0]


def with_terms(pair: Mapping[str, Any]) -> dict[str, Any]:
    """The pair with its terms: a pair whose terms are all neutral carries
    none of them (docs/rules.md, "A pair's terms")."""
    if "base" in pair:
        return dict(pair)
    neutral = {"base": pair["points"], "natural_bonus": 0, "cap": 0, "horse": 1}
    return {**pair, **neutral, "seat_multiplier": 1}


# Each part of the engine's side of these rules, detected.
ENGINE_PARTS: dict[str, bool] = {
    "knobs": "horse.card" in capsa.rules.KNOB_NAMES,
    "two-full-houses": "two-full-houses" in capsa.NATURAL_NAMES,
    "settle(banker=, multipliers=)": {"banker", "multipliers"}
    <= set(inspect.signature(capsa.settle).parameters),
    "pair terms": _pair_terms(),
}
ENGINE_HAS_NEW_RULES = all(ENGINE_PARTS.values())
# True once the engine has the new rules: from then on an engine without
# them fails test_engine_has_the_new_rules instead of narrowing the tables.
REQUIRE_NEW_RULES = True

# The terms every pair result carries besides its figures.
NEW_TERMS = ("base", "natural_bonus", "cap", "horse", "seat_multiplier")

# the presets of the 52-card deck: the tests of larger decks draw their decks
PRESETS = presets_of_52_cards()
RANKS = "23456789TJQKA"
SUITS = "dchs"
RANKING_KNOBS = ("tie_break", "suit_order", "flush_compare", "wheel", "foul_check")
STRAIGHT_FLUSH_RAISED = ("three-straights", "three-flushes")
# Where a naturals entry's field applies (None: any natural).
ENTRY_FIELD_NATURAL = {"lowest": "all-high", "highest": "all-low", "count": "twelve-royals"}


# ---------------------------------------------------------------- rules


def merged(base: Mapping[str, Any], knobs: Mapping[str, Any]) -> dict[str, Any]:
    """Rules data ``knobs`` over a full ``base`` dict as a rules file reads:
    tables merged key by key, a royalty row (ranked or not) and
    ``naturals.enabled`` replacing the base's whole."""
    out = copy.deepcopy(dict(base))
    for key, value in knobs.items():
        if key == "base":
            continue
        if isinstance(value, Mapping):
            out[key] = {**out.get(key, {}), **copy.deepcopy(dict(value))}
        else:
            out[key] = value
    return out


def _rank_key(draw: st.DrawFn, letter: str) -> str:
    """A rank letter as a rules file may write it (``10`` for ``T``, lower case)."""
    if letter == "T" and draw(st.booleans()):
        return "10"
    return letter.lower() if draw(st.booleans()) else letter


@st.composite
def _naturals_entries(draw: st.DrawFn, names: tuple[str, ...]) -> list[dict[str, Any]]:
    chosen = draw(st.permutations(list(names)))[: draw(st.integers(0, len(names)))]
    entries: list[dict[str, Any]] = []
    for index, name in enumerate(chosen):
        entry: dict[str, Any] = {"name": name, "points": draw(st.integers(0, 40))}
        if name == "all-high" and draw(st.booleans()):
            entry["lowest"] = _rank_key(draw, draw(st.sampled_from(RANKS[3:10])))
        if name == "all-low" and draw(st.booleans()):
            entry["highest"] = _rank_key(draw, draw(st.sampled_from(RANKS[4:])))
        if name == "twelve-royals" and draw(st.booleans()):
            entry["count"] = draw(st.sampled_from([12, 13]))
        if name == "twelve-same-color" and draw(st.booleans()):
            entry["exactly"] = draw(st.booleans())
        if index > 0 and draw(st.integers(0, 3)) == 0:
            entry["same_tier"] = draw(st.booleans())
        if draw(st.integers(0, 3)) == 0:
            raisers = ["quads", "straight-flush"] if name in STRAIGHT_FLUSH_RAISED else ["quads"]
            entry["raised_by"] = draw(st.sampled_from(raisers))
            entry["raised_points"] = draw(st.integers(0, 60))
        if draw(st.integers(0, 4)) == 0:
            entry["must_declare"] = draw(st.booleans())
        if draw(st.integers(0, 4)) == 0:
            entry["bonus"] = draw(st.booleans())
        entries.append(entry)
    return entries


@st.composite
def _ranked_royalties(draw: st.DrawFn, row: str) -> dict[str, dict[str, int]]:
    cats = oracle.THREE_CARD_CATEGORIES if row == "top" else oracle.CATEGORIES
    table: dict[str, dict[str, int]] = {}
    for cat in draw(st.lists(st.sampled_from(cats), unique=True, max_size=3)):
        letters = draw(st.lists(st.sampled_from(RANKS), unique=True, min_size=1, max_size=6))
        table[cat] = {_rank_key(draw, r): draw(st.integers(0, 12)) for r in letters}
    return table


def _maybe(draw: st.DrawFn, table: dict[str, Any], key: str, value: st.SearchStrategy[Any]) -> None:
    if draw(st.booleans()):
        table[key] = draw(value)


@st.composite
def knob_sets(draw: st.DrawFn, new: bool) -> tuple[str, dict[str, Any]]:
    """A preset and knobs over it: today's settlement and ranking knobs
    redrawn half the time, and with ``new`` each group of the newer
    knobs half the time (ranked royalties, scoop by seats, exempt sweeps,
    the horse card, caps, banker games, every foul mode, naturals entries
    with their fields and the new natural)."""
    preset = draw(st.sampled_from(PRESETS))
    knobs: dict[str, Any] = {}
    names = tuple(oracle.NATURAL_NAMES if new else oracle.NATURAL_NAMES[:15])
    modes = ["sweep-all", "scoop", "fixed", *(["none", "refuse"] if new else [])]
    if draw(st.booleans()):
        knobs.update(
            tie_break=draw(st.sampled_from(["none", "suit"])),
            suit_order=draw(st.sampled_from(["shcd", "dchs", "hscd", "cdsh"])),
            flush_compare=draw(st.sampled_from(["ranks", "suit-first"])),
            wheel=draw(st.sampled_from(["low", "second"])),
            foul_check=draw(st.sampled_from(["allow-equal", "strict"])),
            row_points=draw(st.integers(0, 3)),
            overall_point=draw(st.integers(0, 2)),
            royalty_mode=draw(st.sampled_from(["winner", "always", "none"])),
            royalty_adds=draw(st.booleans()),
            scoop={
                "multiplier": draw(st.integers(1, 3)),
                "bonus": draw(st.integers(0, 3)),
                "multiply_royalties": draw(st.booleans()),
            },
            sweep_all={
                "min_players": draw(st.integers(2, 5)),
                "multiplier": draw(st.integers(1, 5)),
                "bonus": draw(st.integers(0, 4)),
            },
            foul={
                "mode": draw(st.sampled_from(modes)),
                "points": draw(st.integers(0, 9)),
                "pays_royalties": draw(st.booleans()),
            },
            surrender={"enabled": draw(st.booleans()), "cost": draw(st.integers(0, 4))},
            naturals={
                "resolve": draw(st.sampled_from(["higher-wins", "difference"])),
                "ties": draw(st.sampled_from(["push", "compare"])),
                "enabled": draw(_naturals_entries(names)),
            },
            money={"rake_basis_points": draw(st.integers(0, 1000))},
        )
        if not new:
            for entry in knobs["naturals"]["enabled"]:
                for field in [f for f in entry if f not in ("name", "points")]:
                    del entry[field]
    if not new:
        return preset, knobs
    if draw(st.booleans()):
        royalties: dict[str, Any] = {}
        for row in oracle.ROWS:
            if draw(st.booleans()):
                royalties[f"{row}_by_rank"] = draw(_ranked_royalties(row))
        knobs["royalties"] = royalties
    scoop = knobs.setdefault("scoop", {})
    _maybe(draw, scoop, "by_seats", st.booleans())
    sweep = knobs.setdefault("sweep_all", {})
    _maybe(draw, sweep, "natural_opponents", st.sampled_from(["block", "exempt"]))
    if draw(st.booleans()):
        card = draw(st.sampled_from(RANKS)) + draw(st.sampled_from(SUITS))
        horse: dict[str, Any] = {"card": card.replace("T", "10") if draw(st.booleans()) else card}
        _maybe(draw, horse, "multiplier", st.integers(1, 4))
        _maybe(draw, horse, "naturals", st.booleans())
        knobs["horse"] = horse
    if draw(st.booleans()):
        cap: dict[str, Any] = {}
        for key in ("pair", "scoop", "sweep_all"):
            _maybe(draw, cap, key, st.integers(0, 12))
        _maybe(draw, cap, "stage", st.sampled_from(["pair", "final"]))
        knobs["cap"] = cap
    if draw(st.booleans()):
        knobs["banker"] = {
            "enabled": draw(st.booleans()),
            "wins_ties": draw(st.booleans()),
            "max_multiplier": draw(st.integers(1, 5)),
        }
    if draw(st.integers(0, 3)) == 0:
        knobs.setdefault("foul", {})["mode"] = draw(st.sampled_from(["none", "refuse"]))
    return preset, knobs


# ---------------------------------------------------------------- tables


def _card(text: str) -> int:
    return 4 * RANKS.index(text[0]) + SUITS.index(text[1])


def _take_ranks(rng: random.Random, deck: list[int], counts: list[int]) -> list[int] | None:
    """Cards of distinct random ranks, ``counts[k]`` of the k-th, from the deck."""
    by_rank: dict[int, list[int]] = {}
    for c in deck:
        by_rank.setdefault(c // 4, []).append(c)
    hand: list[int] = []
    used: set[int] = set()
    for need in sorted(counts, reverse=True):
        ranks = [r for r, cards in by_rank.items() if len(cards) >= need and r not in used]
        if not ranks:
            return None
        rank = rng.choice(ranks)
        used.add(rank)
        hand += rng.sample(by_rank[rank], need)
    return hand


def _run(rng: random.Random, deck: list[int], size: int, suit: int | None) -> list[int] | None:
    """``size`` cards of consecutive ranks (ace low or high), of one suit
    when ``suit`` is given, from the deck."""
    starts = list(range(-1, 14 - size))
    rng.shuffle(starts)
    for start in starts:
        ranks = [12 if r == -1 else r for r in range(start, start + size)]
        options = [[c for c in deck if c // 4 == r and suit in (None, c % 4)] for r in ranks]
        if all(options):
            return [rng.choice(o) for o in options]
    return None


def _rare_hand(rng: random.Random, deck: list[int]) -> list[int] | None:
    """13 cards built for a rare natural or a raise, or None when the deck
    left cannot make the one chosen."""
    kind = rng.choice(
        ["two-full-houses", "three-quads", "quads-pairs", "sf-flushes", "sf-straights",
         "royals", "high", "colour-exactly"]
    )  # fmt: skip
    if kind == "two-full-houses":
        return _take_ranks(rng, deck, [3, 3, 2, 2, 2, 1])
    if kind == "three-quads":
        return _take_ranks(rng, deck, [4, 4, 4, 1])
    if kind == "quads-pairs":  # six pairs holding a quad: raised by quads
        return _take_ranks(rng, deck, [4, 2, 2, 2, 2, 1])
    if kind in ("sf-flushes", "sf-straights"):
        suit = rng.randrange(4)
        flush = _run(rng, deck, 5, suit)
        if flush is None:
            return None
        rest = [c for c in deck if c not in flush]
        if kind == "sf-flushes":
            other, top = rng.sample([s for s in range(4) if s != suit], 2)
            five = [c for c in rest if c % 4 == other]
            three = [c for c in rest if c % 4 == top]
            if len(five) < 5 or len(three) < 3:
                return None
            return flush + rng.sample(five, 5) + rng.sample(three, 3)
        five_run = _run(rng, rest, 5, None)
        if five_run is None:
            return None
        three_run = _run(rng, [c for c in rest if c not in five_run], 3, None)
        return None if three_run is None else flush + five_run + three_run
    if kind == "royals":
        pool = [c for c in deck if c // 4 >= 9]
        return rng.sample(pool, 13) if len(pool) >= 13 else None
    if kind == "high":
        lowest = rng.randrange(3, 9)
        pool = [c for c in deck if c // 4 >= lowest]
        return rng.sample(pool, 13) if len(pool) >= 13 else None
    colour = rng.choice([(0, 2), (1, 3)])
    same = [c for c in deck if c % 4 in colour]
    other = [c for c in deck if c % 4 not in colour]
    if len(same) < 12 or not other:
        return None
    return rng.sample(same, 12) + rng.sample(other, 1)


def _deal_hands(rng: random.Random, players: int, horse: int | None) -> list[list[int]]:
    """``players`` hands: a third built for a natural (a rare one half of
    those), and the horse card dealt to some seat most of the time."""
    deck = list(range(52))
    rng.shuffle(deck)
    hands: list[list[int]] = []
    for _ in range(players):
        hand: list[int] | None = None
        roll = rng.random()
        if roll < 0.17:
            hand = _rare_hand(rng, deck)
            if hand is not None:
                for c in hand:
                    deck.remove(c)
        elif roll < 0.33:
            hand = natural_hand(rng, deck)
        if hand is None:
            hand = deck[:13]
            del deck[:13]
        hands.append(hand)
    if horse is not None and horse in deck and rng.random() < 0.7:
        hand = rng.choice(hands)
        hand[rng.randrange(13)] = horse
    return hands


@lru_cache(maxsize=256)
def _ranking(knobs: tuple[tuple[str, Any], ...]) -> capsa.Rules:
    return capsa.Rules(dict(knobs))


def _arrange(
    rng: random.Random, hand: list[int], config: Mapping[str, Any], fouls: float
) -> list[int]:
    """A valid split of the hand (by the rules' ranking), or with chance
    ``fouls`` a random order (often a foul)."""
    if rng.random() >= fouls:
        ranking = _ranking(tuple((k, config[k]) for k in RANKING_KNOBS))
        legal = capsa.splits(hand, ranking)
        if len(legal):
            return [int(x) for x in legal[rng.randrange(len(legal))]]
    cards = hand[:]
    rng.shuffle(cards)
    return cards


def deal_table(rng: random.Random, config: Mapping[str, Any], players: int) -> dict[str, Any]:
    """A table under the oracle's rules ``config``: each seat's 13 ids as
    top, middle, bottom (``cards``), its surrender (one time in five where
    the rules allow it) and declare flags (declared six times in seven);
    arrangements fouled three times in ten (one in twenty under ``foul.mode
    = "refuse"``); the banker and multipliers of a banker game (multipliers
    left out one time in five); stakes one integer, a matrix or the rules'."""
    horse_text = config.get("horse", {}).get("card")
    horse = None if horse_text is None else _card(horse_text)
    fouls = 0.05 if config["foul"]["mode"] == "refuse" else 0.3
    seats = [
        {
            "cards": _arrange(rng, hand, config, fouls),
            "surrender": config["surrender"]["enabled"] and rng.random() < 0.2,
            "declare_natural": rng.random() < 0.85,
        }
        for hand in _deal_hands(rng, players, horse)
    ]
    banker = multipliers = None
    if config.get("banker", {}).get("enabled", False):
        banker = rng.randrange(players)
        most = config["banker"].get("max_multiplier", 1)
        if rng.random() < 0.8:
            multipliers = [1 if s == banker else rng.randint(1, most) for s in range(players)]
    stakes: Any
    if rng.random() < 0.4:
        stakes = rng.randrange(0, 1000)
    elif rng.random() < 0.5:
        stakes = [[0] * players for _ in range(players)]
        for i, j in combinations(range(players), 2):
            stakes[i][j] = stakes[j][i] = rng.randrange(0, 500)
    else:
        stakes = None
    return {"seats": seats, "banker": banker, "multipliers": multipliers, "stakes": stakes}


# ---------------------------------------------------------------- settling


def _oracle_seats(seats: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [
        {
            "top": s["cards"][:3],
            "middle": s["cards"][3:8],
            "bottom": s["cards"][8:],
            "surrender": s["surrender"],
            "declare_natural": s["declare_natural"],
        }
        for s in seats
    ]


def engine_settle(table: Mapping[str, Any], rules: capsa.Rules) -> dict[str, Any] | str:
    """The engine's ``settle(...).to_dict()`` of the table, or its refusal
    as ``"refused: <type>: <message>"``."""
    keywords: dict[str, Any] = {}
    if table["banker"] is not None:
        keywords["banker"] = table["banker"]
    if table["multipliers"] is not None:
        keywords["multipliers"] = table["multipliers"]
    seats = [
        capsa.Seat(capsa.Arrangement.from_ids(s["cards"]), s["surrender"], s["declare_natural"])
        for s in table["seats"]
    ]
    try:
        result: dict[str, Any] = capsa.settle(seats, rules, table["stakes"], **keywords).to_dict()
    except capsa.CapsaError as exc:
        return f"refused: {type(exc).__name__}: {exc}"
    return result


def oracle_settle(table: Mapping[str, Any], config: Mapping[str, Any]) -> dict[str, Any] | str:
    """The oracle's settlement of the table, or its refusal as
    ``"refused: <message>"``."""
    try:
        result: dict[str, Any] = oracle.settle(
            _oracle_seats(table["seats"]),
            config,
            table["stakes"],
            banker=table["banker"],
            multipliers=table["multipliers"],
        )
    except ValueError as exc:
        return f"refused: {exc}"
    return result


def settle_both(
    table: Mapping[str, Any], rules: capsa.Rules, config: Mapping[str, Any]
) -> tuple[dict[str, Any] | str, dict[str, Any] | str]:
    """The engine's and the oracle's settlements of the table (each a
    refusal as ``"refused: <message>"``)."""
    return engine_settle(table, rules), oracle_settle(table, config)


def disagreements(engine: dict[str, Any] | str, want: dict[str, Any] | str) -> list[str]:
    """Every figure the engine's settlement and the oracle's differ in:
    seat points, money, rake and net; each pair's whole breakdown (the pair
    terms too once the engine reports them); each seat's natural and its
    points, foul, surrender, sweep-all and row royalties. A refusal agrees
    only with a refusal. Empty when they agree."""
    if isinstance(engine, str) or isinstance(want, str):
        if isinstance(engine, str) and isinstance(want, str):
            return []
        return [f"engine {engine if isinstance(engine, str) else 'settled'}, "
                f"oracle {want if isinstance(want, str) else 'settled'}"]  # fmt: skip
    out: list[str] = []
    for key in ("points", "money", "rake", "net"):
        if engine[key] != want[key]:
            out.append(f"{key}: engine {engine[key]}, oracle {want[key]}")
    terms = ENGINE_PARTS["pair terms"]
    for got_pair, pair in zip(engine["pairs"], want["pairs"], strict=True):
        got = with_terms(got_pair) if terms else got_pair
        expected = pair if terms else {k: v for k, v in pair.items() if k not in NEW_TERMS}
        if got != expected:
            keys = sorted(set(got) | set(expected))
            diff = {k: (got.get(k), expected.get(k)) for k in keys if got.get(k) != expected.get(k)}
            out.append(f"pair {pair['seats']}: (engine, oracle) {diff}")
    for index, (got, facts) in enumerate(zip(engine["seats"], want["seats"], strict=True)):
        seen = {k: got[k] for k in ("natural", "natural_points", "foul", "surrender", "swept_all")}
        seen["royalties"] = {row: got["rows"][row]["royalty"] for row in oracle.ROWS}
        expected = {k: facts[k] for k in seen}
        if seen != expected:
            out.append(f"seat {index}: engine {seen}, oracle {expected}")
    return out
