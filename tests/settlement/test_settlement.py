"""Settlement: settle, settle_batch and the oracle agree; the money balances."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from oracle_tables import ENGINE_PARTS, NEW_TERMS, with_terms

import capsa
from capsa import oracle
from strategies import arrange, deal_hands, oracle_seats

PRESETS = ["capsa-susun", "pagat", "2-4", "1-6", "mau-binh", "hawaiian-gardens"]


@st.composite
def tables(draw: st.DrawFn) -> dict[str, Any]:
    """A table under a preset, half the time with its settlement knobs redrawn."""
    rng = draw(st.randoms(use_true_random=False))
    preset = draw(st.sampled_from(PRESETS))
    knobs: dict[str, Any] = {"base": preset}
    if draw(st.booleans()):
        knobs.update(
            royalty_mode=draw(st.sampled_from(["winner", "always", "none"])),
            royalty_adds=draw(st.booleans()),
            overall_point=draw(st.integers(0, 2)),
            foul={
                "mode": draw(st.sampled_from(["sweep-all", "scoop", "fixed"])),
                "points": draw(st.integers(0, 9)),
                "pays_royalties": draw(st.booleans()),
            },
            scoop={
                "multiplier": draw(st.integers(1, 3)),
                "bonus": draw(st.integers(0, 3)),
                "multiply_royalties": draw(st.booleans()),
            },
            row_points=draw(st.integers(0, 3)),
            sweep_all={
                "min_players": draw(st.integers(2, 5)),
                "multiplier": draw(st.integers(1, 5)),
                "bonus": draw(st.integers(0, 4)),
            },
            surrender={"enabled": draw(st.booleans()), "cost": draw(st.integers(0, 4))},
            naturals={
                "resolve": draw(st.sampled_from(["higher-wins", "difference"])),
                "ties": draw(st.sampled_from(["push", "compare"])),
                "enabled": [
                    {"name": n, "points": draw(st.integers(0, 40))}
                    for n in draw(st.permutations(list(capsa.NATURAL_NAMES)))[
                        : draw(st.integers(0, 15))
                    ]
                ],
            },
            tie_break=draw(st.sampled_from(["none", "suit"])),
            foul_check=draw(st.sampled_from(["allow-equal", "strict"])),
            money={"rake_percent": draw(st.integers(0, 10))},
        )
    rules = capsa.Rules(knobs)
    seats = draw(st.integers(2, 4))
    hands = deal_hands(rng, seats)
    surrender_ok = rules["surrender.enabled"]
    seat_list = [
        {
            "cards": arrange(rng, h, rules),
            "surrender": surrender_ok and rng.random() < 0.2,
            "declare_natural": rng.random() < 0.85,
        }
        for h in hands
    ]
    if rng.random() < 0.5:
        stakes: Any = rng.randrange(0, 1000)
    elif rng.random() < 0.5:
        m = [[0] * seats for _ in range(seats)]
        for i in range(seats):
            for j in range(i + 1, seats):
                m[i][j] = m[j][i] = rng.randrange(0, 500)
        stakes = m
    else:
        stakes = None
    return {"rules": rules, "seats": seat_list, "stakes": stakes}


def _engine_seats(seats: list[dict[str, Any]]) -> list[capsa.Seat]:
    return [
        capsa.Seat(capsa.Arrangement.from_ids(s["cards"]), s["surrender"], s["declare_natural"])
        for s in seats
    ]


@given(table=tables())
def test_settle_matches_oracle_and_batch(table: dict[str, Any]) -> None:
    """Seat figures and every pair's breakdown (outcome, rows, row points,
    overall, royalties, scoop, sweep all, multiplier, bonus, points, stake,
    money) against the oracle, under every preset with its knobs redrawn half
    the time; the batch settles the same points and money."""
    rules, seats, stakes = table["rules"], table["seats"], table["stakes"]
    got = capsa.settle(_engine_seats(seats), rules, stakes)
    want = oracle.settle(oracle_seats(seats), rules.to_dict(), stakes)
    assert got.points == want["points"]
    assert got.money == want["money"]
    assert got.rake == want["rake"]
    assert got.net == want["net"]
    for pair in got.pairs:
        i, j = pair["seats"]
        assert pair["points"] == want["pair_points"][i][j]
    if ENGINE_PARTS["pair terms"]:
        assert [with_terms(p) for p in got.to_dict()["pairs"]] == want["pairs"]
    else:  # an engine before the pair terms
        terms = set(NEW_TERMS)
        assert got.to_dict()["pairs"] == [
            {k: v for k, v in pair.items() if k not in terms} for pair in want["pairs"]
        ]
    # balances
    assert sum(got.points) == 0 and sum(got.money) == 0
    assert sum(got.net) + sum(got.rake) == 0
    # batch agrees
    cards = np.array([[s["cards"] for s in seats]], dtype=np.uint8)
    sur = np.array([[s["surrender"] for s in seats]])
    dec = np.array([[s["declare_natural"] for s in seats]])
    stake_arg = np.array(stakes, dtype=np.int64) if isinstance(stakes, list) else stakes
    batch = capsa.settle_batch(cards, rules, stake_arg, sur, dec)
    assert batch.errors == []
    assert batch.points[0].tolist() == got.points
    assert batch.money[0].tolist() == got.money


def _arr(text: str) -> capsa.Arrangement:
    return capsa.Arrangement.parse(text)


# docs/rules.md, "Worked examples", bottom row only: A full house (jacks over threes),
# B heart flush, C straight to the 9, D pair of aces. Tops rank A > B > C > D
# and middles D > C > B > A, so in every pair top and middle cancel out and the
# bottom row alone decides.
EXAMPLE = [
    "Ah Kh 8s / As Ks 9d 7d 5h / Jc Jd Jh 3c 3d",
    "Qs Js 7s / Tc Td 2s 4s 6s / 2h 4h 6h 9h Qh",
    "Th 9s 8c / Qc Qd 2d 3s 5s / 5c 6d 7c 8d 9c",
    "Ts 8h 7h / Kc Kd 3h 4d 6c / Ac Ad 2c 4c 5d",
]


def test_worked_example_bottom_row() -> None:
    seats = [_arr(t) for t in EXAMPLE]
    assert [a.values()[2].category for a in seats] == ["full-house", "flush", "straight", "pair"]
    s = capsa.settle(seats, stakes=1000)
    assert [p["rows"]["bottom"] for p in s.pairs] == [1] * 6
    assert s.points == [3, 1, -1, -3]
    assert s.money == [3000, 1000, -1000, -3000]
    assert s.rake == [90, 30, 0, 0]  # 3% of the winners' money under capsa-susun
    assert s.net == [2910, 970, -1000, -3000]
    no_rake = capsa.Rules.preset("pagat")
    assert capsa.settle(seats, no_rake, stakes=1000).net == [3000, 1000, -1000, -3000]


def test_foul_pays_twelve_plus_royalties() -> None:
    rules = capsa.Rules()  # capsa-susun
    foul = _arr("Ah Ad 2c / 3s 4h 9s 6d 8s / 8h 9h Th Jd Qh")  # pair on top, no pair middle
    good = _arr("2d 3d 5c / 2h 2s 4c 4d 6c / 7h 7d 7c 7s Kc")  # quads in the bottom: royalty 7
    s = capsa.settle([good, foul], rules)
    assert s.points == [12 + 7, -(12 + 7)]
    assert s.pairs[0]["outcome"] == "foul"


def test_scoop_pays_six_and_sweep_all_twelve() -> None:
    rules = capsa.Rules().derive(naturals={"enabled": []})
    strong = _arr("Ad Ac 2c / Kd Kc Ks 3c 4d / 9h Th Jh Qh 8s")  # pair, trips, straight
    weak = [
        _arr("2d 3d 5h / 4c 4h 6c 7c 9d / 5s 5d Tc Td Js"),
        _arr("6h 7h 8c / 6s 6d 9c Ts Jd / 2s 2h 3s 3h Ah"),
        _arr("8h Kh As / 7d 7s 4s 5c 9s / Qd Qc Qs 8d Jc"),
    ]
    s2 = capsa.settle([strong, weak[0]], rules)
    assert s2.points == [6, -6]
    # four players, the strong seat wins all three rows against everyone
    s4 = capsa.settle([strong, *weak], rules)
    for pair in s4.pairs[:3]:
        assert pair["sweep_all"] and pair["points"] == 12
    assert sum(s4.points) == 0


def test_rake_and_per_pair_stakes() -> None:
    hands = capsa.deal(3, seed=9)
    seats = [capsa.Arrangement.from_ids(capsa.splits(h)[-1].tolist()) for h in hands]
    stakes = [[0, 100, 10], [100, 0, 10], [10, 10, 0]]
    s = capsa.settle(seats, stakes=stakes)
    for p in s.pairs:
        i, j = p["seats"]
        assert p["money"] == p["points"] * stakes[i][j]
    for money, rake in zip(s.money, s.rake, strict=False):
        assert rake == (money * 3 // 100 if money > 0 else 0)
    assert sum(s.net) + sum(s.rake) == 0


def test_to_dict_and_explain() -> None:
    hands = capsa.deal(4, seed=1)
    seats = [capsa.Arrangement.from_ids(capsa.splits(h)[0].tolist()) for h in hands]
    s = capsa.settle(seats)
    d = s.to_dict()
    assert set(d) == {"points", "money", "rake", "net", "seats", "pairs"}
    assert len(d["pairs"]) == 6
    text = s.explain()
    assert "seat 0 vs seat 1" in text and "points" in text


@pytest.mark.parametrize(
    ("seats", "error"),
    [
        (lambda a: [a[0]], capsa.TableError),
        (lambda a: [a[0], a[0]], capsa.HandError),
        (lambda a: [a[0], a[1], a[2], a[3], a[0]], capsa.TableError),
        (lambda a: [a[0], "nonsense"], capsa.CardError),
        (lambda a: [a[0], 5], TypeError),
    ],
)
def test_bad_tables(seats: Any, error: type[Exception]) -> None:
    hands = capsa.deal(4, seed=2)
    arrs = [capsa.Arrangement.from_ids(capsa.splits(h)[0].tolist()) for h in hands]
    with pytest.raises(error):
        capsa.settle(seats(arrs))


def test_an_arrangement_subclass_is_read_by_its_ids() -> None:
    """An Arrangement is read through its ids, a subclass's own ids too."""
    hands = capsa.deal(2, seed=0)
    first, last = (capsa.Arrangement.from_ids(capsa.splits(hands[0])[k].tolist()) for k in (0, -1))
    other = capsa.Arrangement.from_ids(capsa.splits(hands[1])[-1].tolist())

    class Swapped(capsa.Arrangement):
        __slots__ = ()

        @property
        def ids(self) -> tuple[int, ...]:
            return last.ids

    swapped = Swapped(first.top, first.middle, first.bottom)
    assert capsa.settle([first, other]).points != capsa.settle([last, other]).points
    assert capsa.settle([swapped, other]).points == capsa.settle([last, other]).points
    assert capsa.settle([first, other]).points == capsa.settle([list(first.ids), other]).points
    seat = capsa.Seat(swapped, surrender=False, declare_natural=False)
    assert capsa.settle([seat, other]).points == capsa.settle([last, other]).points


def test_surrender_needs_rules() -> None:
    hands = capsa.deal(2, seed=2)
    arrs = [capsa.Arrangement.from_ids(capsa.splits(h)[0].tolist()) for h in hands]
    with pytest.raises(capsa.TableError, match="surrender"):
        capsa.settle([capsa.Seat(arrs[0], surrender=True), arrs[1]])
    s = capsa.settle([capsa.Seat(arrs[0], surrender=True), arrs[1]], capsa.Rules.preset("2-4"))
    assert s.points[0] <= 0


def test_bad_stakes() -> None:
    hands = capsa.deal(2, seed=2)
    arrs = [capsa.Arrangement.from_ids(capsa.splits(h)[0].tolist()) for h in hands]
    with pytest.raises(capsa.TableError):
        capsa.settle(arrs, stakes=[[0, 1], [2, 0]])
    with pytest.raises(capsa.TableError):
        capsa.settle(arrs, stakes=-5)
    with pytest.raises(capsa.TableError):
        capsa.settle(arrs, stakes=[[0, 1, 1], [1, 0, 1], [1, 1, 0]])


def test_batch_reports_bad_rows_and_settles_the_rest() -> None:
    n = 1_000
    cards = np.zeros((n, 4, 13), dtype=np.uint8)
    for k in range(n):
        hands = capsa.deal(4, seed=k)
        for s in range(4):
            cards[k, s] = [c.id for c in hands[s]]
    cards[17, 1, 0] = cards[17, 0, 0]
    cards[500, 2, 5] = 99
    out = capsa.settle_batch(cards)
    assert [row for row, _ in out.errors] == [17, 500]
    assert "HandError" in out.errors[0][1] and "CardError" in out.errors[1][1]
    assert out.points[17].tolist() == [0, 0, 0, 0]
    assert (out.points.sum(axis=1) == 0).all() and (out.money.sum(axis=1) == 0).all()
    one = capsa.settle([capsa.Arrangement.from_ids(cards[3, s].tolist()) for s in range(4)])
    assert out.points[3].tolist() == one.points


@pytest.mark.parametrize(
    ("cards", "error"),
    [
        (np.zeros((2, 4, 13), dtype=np.float32), TypeError),
        (np.zeros((2, 5, 13), dtype=np.uint8), capsa.TableError),
        (np.zeros((2, 4, 12), dtype=np.uint8), capsa.TableError),
        (np.zeros((2, 4, 13), dtype=np.int32) - 1, capsa.CardError),
    ],
)
def test_batch_bad_arrays(cards: Any, error: type[Exception]) -> None:
    with pytest.raises(error):
        capsa.settle_batch(cards)


def test_a_seat_may_be_given_as_arrangement_text() -> None:
    a = "Ah Kh 8s / As Ks 9d 7d 5h / Jc Jd Jh 3c 3d"
    b = "Qs Js 7s | Tc Td 2s 4s 6s | 2h 4h 6h 9h Qh"
    by_text = capsa.settle([a, b]).to_dict()
    parsed = capsa.settle([capsa.Arrangement.parse(a), capsa.Arrangement.parse(b)]).to_dict()
    assert by_text == parsed
    with pytest.raises(capsa.HandError) as info:
        capsa.settle([a, "Qs Js / Tc Td 2s 4s 6s / 2h 4h 6h 9h Qh"])
    assert info.value.seat == 1 and info.value.row == "top"


def test_explain_shows_no_royalty_on_a_fouled_seat() -> None:
    # seat 0 fouls with quads (a royalty under capsa-susun) in its middle
    fouled = capsa.Arrangement.parse("As Ah Ad / 9c 9d 9h 9s 2c / 3c 4d 6h 8s Tc")
    other = capsa.Arrangement.parse("Qs Js 7s / Kc Td 2s 4s 6s / 2h 4h 5h 7h Qh")
    result = capsa.settle([fouled, other])
    assert result.to_dict()["seats"][0]["foul"]
    assert result.to_dict()["seats"][0]["rows"]["middle"]["royalty"] > 0
    seat_line = result.explain().splitlines()[2]  # the categories
    assert "quads" in seat_line and "quads +" not in seat_line


# seat 0's three flushes (a natural under capsa-susun) with a straight-flush
# bottom (a royalty); seat 1 holds nothing and fouls
THREE_FLUSHES = "2h 5h 9h / 3c 6c 8c Tc Qc / 2s 3s 4s 5s 6s"
NOTHING = "Qs Js 7s / Kc Td 2d 4d 6d / 2c 4h 5d 7h Qh"


def test_explain_shows_no_royalty_on_a_seat_that_declared_a_natural() -> None:
    result = capsa.settle([THREE_FLUSHES, NOTHING])
    seat = result.to_dict()["seats"][0]
    assert seat["natural"] == "three-flushes" and seat["rows"]["bottom"]["royalty"] == 9
    seat_line = result.explain().splitlines()[2]  # the categories
    assert "straight-flush" in seat_line and "+" not in seat_line
    # declined, the natural's rows are compared and the royalty is paid and shown
    declined = capsa.Seat(capsa.Arrangement.parse(THREE_FLUSHES), declare_natural=False)
    assert "straight-flush +9" in capsa.settle([declined, NOTHING]).explain().splitlines()[2]


def test_explain_shows_no_royalty_on_a_surrendered_seat() -> None:
    # seat 0 has royalties in every row under 2-4 and surrenders
    royal = capsa.Arrangement.parse("3s 3h 3d / 9c 9d 9h Kh Kd / 8c 8d 8h 8s 5s")
    seats = [capsa.Seat(royal, surrender=True), NOTHING]
    result = capsa.settle(seats, capsa.Rules.preset("2-4"))
    seat = result.to_dict()["seats"][0]
    assert seat["surrender"] and all(row["royalty"] > 0 for row in seat["rows"].values())
    seat_line = result.explain().splitlines()[2]  # the categories
    assert "trips" in seat_line and "+" not in seat_line
