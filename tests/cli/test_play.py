"""``capsa play``: what a seat shows. A declared natural made by rows shows
the split that makes it; the deal is written in one card notation; the
table fits 80 columns in aligned columns, and a deal without ``--seed``
prints the seed that deals it again."""

from __future__ import annotations

import re

import pytest

import capsa
from capsa import _core
from capsa.cli import main

# seeded deals (fixed on every platform) with a declared row-shaped natural:
# (seed, seat, natural) under capsa-susun
ROW_SHAPED_NATURALS = [(2, 3, "three-flushes"), (60, 0, "three-straights")]
STRAIGHTS3 = {frozenset(w) for w in ("A23", *("23456789TJQKA"[i : i + 3] for i in range(11)))}


def _play(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    assert main(["play", *argv]) == 0
    return capsys.readouterr().out


def _shown(out: str, seat: int) -> capsa.Arrangement:
    """The arrangement the seat's line shows."""
    block = out.split(f"seat {seat}: ", 1)[1]
    match = re.search(r"arranged (.+?)  \(expects", block)
    assert match, block
    return capsa.Arrangement.parse(match.group(1))


def _is_flush(row: tuple[capsa.Card, ...]) -> bool:
    return len({c.suit for c in row}) == 1


def _is_straight(row: tuple[capsa.Card, ...]) -> bool:
    if len(row) == 5:
        category = capsa.evaluate(row, capsa.Rules(tie_break="none")).category
        return category in ("straight", "straight-flush", "royal-flush")
    return frozenset(str(c)[0] for c in row) in STRAIGHTS3


@pytest.mark.parametrize(("seed", "seat", "natural"), ROW_SHAPED_NATURALS)
def test_a_declared_natural_shows_the_rows_that_make_it(
    capsys: pytest.CaptureFixture[str], seed: int, seat: int, natural: str
) -> None:
    hand = capsa.deal(4, seed=seed)[seat]
    assert capsa.natural(hand) == natural
    out = _play(capsys, "--seed", str(seed))
    assert f"declares the natural {natural}" in out.split(f"seat {seat}: ", 1)[1].split("seat")[0]
    shown = _shown(out, seat)
    assert sorted(c.id for c in shown.cards) == sorted(c.id for c in hand)
    has_shape = _is_flush if natural == "three-flushes" else _is_straight
    assert all(has_shape(row) for row in shown.rows), str(shown)
    assert not shown.is_foul()
    # the settled table shows the same rows
    table_row = next(line for line in out.splitlines() if line.startswith(f"{seat}     "))
    for row in shown.rows:
        assert " ".join(str(c) for c in row) in table_row


def test_a_natural_not_made_by_rows_shows_the_solvers_arrangement(
    capsys: pytest.CaptureFixture[str],
) -> None:
    seed, seat = 349, 3  # a dragon
    hand = capsa.deal(4, seed=seed)[seat]
    assert capsa.natural(hand) == "dragon"
    out = _play(capsys, "--seed", str(seed))
    assert "declares the natural dragon" in out
    assert _shown(out, seat) == capsa.best_arrangement(hand, capsa.Rules(), seats=4).arrangement


@pytest.mark.parametrize("seed", [2, 60, 349, 2026])
def test_the_deal_is_written_in_one_card_notation(
    capsys: pytest.CaptureFixture[str], seed: int
) -> None:
    out = _play(capsys, "--seed", str(seed))
    # every word written like a card, in any of the notations cards are read in
    cards = re.findall(r"(?<!\S)(?:10|[2-9TJQKA])[A-Za-z♠♥♣♦♤♡♧♢](?!\S)", out)
    assert all(re.fullmatch(r"[2-9TJQKA][dchs]", card) for card in cards), cards
    assert len(cards) == 3 * 4 * 13  # the deal, the arrangements, the settled table


@pytest.mark.parametrize(
    "argv",
    [
        ["--seed", "2026"],
        ["--seed", "7", "--rules", "2-4", "--stake", "100"],
        ["--seed", "3", "--rules", "shisanshui-6", "--seats", "6"],
    ],
)
def test_the_table_fits_80_columns_and_its_columns_align(
    capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    out = _play(capsys, *argv)
    assert max(len(line) for line in out.splitlines()) <= 80, out
    table = out.split("\n\nseat  top", 1)[1].split("\n\n", 1)[0].splitlines()
    header, rows = "seat  top" + table[0], table[1:]
    starts = [header.index(h) for h in ("top", "middle", "bottom")]
    for cards, categories in zip(rows[::2], rows[1::2], strict=True):
        # each row's cards and category begin under its heading
        for start in starts:
            assert cards[start - 2 : start] == "  " and cards[start] != " ", cards
            assert categories[start - 2 : start] == "  " and categories[start] != " "


def test_a_deal_without_a_seed_prints_the_seed_that_deals_it_again(
    capsys: pytest.CaptureFixture[str],
) -> None:
    out = _play(capsys)
    seed = re.search(r"seed (\d+)$", out.splitlines()[0])
    assert seed, out.splitlines()[0]
    assert _play(capsys, "--seed", seed.group(1)) == out


# ---------------------------------------------------------------- the core call


def test_natural_split_of_each_row_shaped_natural() -> None:
    hand = "Qh Kh Ah 2d 3d 4d 5d 6d 2s 3s 4s 5s 6s"
    for natural in ("three-straight-flushes", "three-straights", "three-flushes"):
        split = _core.natural_split(hand, natural)
        assert split is not None
        arrangement = capsa.Arrangement.from_ids(split)
        assert sorted(split) == sorted(_core.card_ids(hand))
        assert not arrangement.is_foul()
    assert str(capsa.Arrangement.from_ids(_core.natural_split(hand, "three-flushes") or [])) == (
        "Qh Kh Ah / 2d 3d 4d 5d 6d / 2s 3s 4s 5s 6s"
    )


def test_natural_split_follows_the_rules() -> None:
    # two flushes of equal ranks: under strict fouls only the suit tie-break
    # orders them, so spades go to the bottom
    hand = "3c 5c 7c 2h 4h 6h 8h Th 2s 4s 6s 8s Ts"
    strict = capsa.Rules(foul_check="strict")
    split = _core.natural_split(hand, "three-flushes", strict)
    assert split is not None and not capsa.Arrangement.from_ids(split).is_foul(strict)
    assert [capsa.Card(i).suit for i in split[8:]] == ["s"] * 5


def test_natural_split_is_none_without_rows_to_show() -> None:
    dragon = "2d 3c 4h 5s 6d 7c 8h 9s Td Jc Qh Ks Ad"
    assert _core.natural_split(dragon, "dragon") is None
    assert _core.natural_split(dragon, "three-flushes") is None
    assert _core.natural_split(dragon, "three-straights") is not None


def test_natural_split_refuses_a_bad_natural() -> None:
    hand = capsa.deal(2, seed=1)[0]
    with pytest.raises(capsa.ArgumentError, match='"three-pairs" is not a natural'):
        _core.natural_split(hand, "three-pairs")
    with pytest.raises(TypeError, match="natural must be a natural's name"):
        _core.natural_split(hand, 12)  # type: ignore[arg-type]
    with pytest.raises(capsa.HandError, match="13"):
        _core.natural_split(hand[:12], "three-flushes")


def test_colour_is_painted_only_when_asked_and_changes_no_character(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    plain = _play(capsys, "--seed", "2026", "--color", "never")
    painted = _play(capsys, "--seed", "2026", "--color", "always")
    assert "\033[" not in plain and "\033[32mwon\033[0m" in painted
    assert re.sub(r"\033\[[0-9;]*m", "", painted) == plain
    # auto: a terminal is painted, but not under NO_COLOR; a pipe never is
    assert _play(capsys, "--seed", "2026") == plain
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setenv("TERM", "xterm")
    monkeypatch.setattr("sys.stdout.isatty", lambda: True)
    assert _play(capsys, "--seed", "2026") == painted
    monkeypatch.setenv("NO_COLOR", "1")
    assert _play(capsys, "--seed", "2026") == plain
