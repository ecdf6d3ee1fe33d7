"""Arrangements and fouls."""

from __future__ import annotations

import pytest
from hypothesis import given

import capsa
from capsa import oracle
from strategies import biased_hands, ranking_knobs


def test_parse_and_rows() -> None:
    a = capsa.Arrangement.parse("Ah Kd 2c / 3s 4s 5s 6s 7s / 8h 9h Th Jh Qh")
    assert [str(c) for c in a.top] == ["Ah", "Kd", "2c"]
    assert len(a.middle) == 5 and len(a.bottom) == 5
    assert str(a) == "Ah Kd 2c / 3s 4s 5s 6s 7s / 8h 9h Th Jh Qh"
    assert capsa.Arrangement.parse(str(a)) == a
    top, middle, bottom = a.values()
    assert (top.category, middle.category, bottom.category) == (
        "high-card",
        "straight-flush",
        "straight-flush",
    )
    assert not a.is_foul()


def test_foul_and_strict() -> None:
    foul = capsa.Arrangement.parse("Ah Ad 2c / 3s 4h 9s 6d 7s / 8h 9h Th Jd Qh")
    assert foul.is_foul()
    # equal middle and bottom: fine when equal is allowed, a foul when strict
    equal = capsa.Arrangement("2c 3c 4d", "9s 8s 6h 5h Kd", "9h 8h 6s 5s Kc")
    rules = capsa.Rules(tie_break="none")
    assert not equal.is_foul(rules)
    assert equal.is_foul(rules.derive(foul_check="strict"))


@given(knobs=ranking_knobs(), cards=biased_hands(13))
def test_foul_matches_oracle(knobs: dict[str, object], cards: list[int]) -> None:
    rules = capsa.Rules(knobs)
    a = capsa.Arrangement.from_ids(cards)
    assert a.is_foul(rules) == oracle.is_foul(cards[:3], cards[3:8], cards[8:], rules.to_dict())


@pytest.mark.parametrize(
    "args",
    [
        ("Ah Kd", "3s 4s 5s 6s 7s", "8h 9h Th Jh Qh"),
        ("Ah Kd 2c", "3s 4s 5s 6s", "8h 9h Th Jh Qh 2d"),
        ("Ah Kd 2c", "3s 4s 5s 6s 7s", "8h 9h Th Jh Ah"),
    ],
)
def test_bad_arrangements(args: tuple[str, str, str]) -> None:
    with pytest.raises(capsa.HandError):
        capsa.Arrangement(*args)


def test_bad_parse() -> None:
    with pytest.raises(capsa.HandError, match="three rows"):
        capsa.Arrangement.parse("Ah Kd 2c / 3s 4s 5s 6s 7s")


@pytest.mark.parametrize("row", ["top", "middle", "bottom"])
def test_a_row_of_the_wrong_type_is_named(row: str) -> None:
    rows = {"top": "As Ks Qs", "middle": "2d 3d 4d 5d 6d", "bottom": "7c 8c 9c Tc Jc"}
    rows[row] = 5  # type: ignore[assignment]
    with pytest.raises(TypeError) as info:
        capsa.Arrangement(**rows)  # type: ignore[arg-type]
    assert str(info.value) == (
        f"{row} row: cards must be a text or a sequence of Card, ids or card texts, not int"
    )


def test_parse_reads_arrangements_as_every_reader_does() -> None:
    """``Arrangement.parse`` is the extension's reader: the 13-card form that
    ``settle`` and the stream take is taken here too, with the same errors."""
    rows = "Ah Kd 2c / 3s 4s 5s 6s 7s / 8h 9h Th Jh Qh"
    flat = rows.replace(" / ", " ")
    assert capsa.Arrangement.parse(flat) == capsa.Arrangement.parse(rows)
    assert capsa.Arrangement.parse(rows.replace("/", "|")) == capsa.Arrangement.parse(rows)
    other = capsa.Arrangement.parse("Kc Td 5c / 2d 3h 4c 5d 6d / Jc Jd Js 3c 3d")
    assert (
        capsa.settle([flat, other]).to_dict()
        == capsa.settle([capsa.Arrangement.parse(flat), other]).to_dict()
    )
    with pytest.raises(capsa.HandError, match="the middle row needs 5 cards, got 4") as short:
        capsa.Arrangement.parse("Ah Kd 2c / 3s 4s 5s 6s / 8h 9h Th Jh Qh 7s")
    assert short.value.row == "middle"
    with pytest.raises(capsa.CardError, match='the top row: cannot read card "Zz"') as bad:
        capsa.Arrangement.parse("Zz Kd 2c / 3s 4s 5s 6s 7s / 8h 9h Th Jh Qh")
    assert bad.value.row == "top"
    with pytest.raises(capsa.HandError, match="or 13 cards in row order"):
        capsa.Arrangement.parse("Ah Kd 2c 3s")
