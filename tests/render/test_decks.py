"""Showdown pages of larger decks: tables of up to eight seats, second
copies and jokers drawn so that no two cards look alike, and each joker's
row telling what it was played as (``capsa.played_cards``, held to the
oracle's reading of the row, written from docs/rules.md alone).
"""

from __future__ import annotations

import html
import json
import random
import re
from html.parser import HTMLParser
from typing import Any

import pytest
from deck_cards import BLACK_JOKER, RED_JOKER, deck_ids
from oracle_module import load_oracle

import capsa
from capsa import render
from capsa.render._cards import card_drawing, card_face, card_name

o = load_oracle()

TWO_DECKS = {"base": "shisanshui", "deck": {"decks": 2, "jokers": 2}}


class _Faces(HTMLParser):
    """Each card a page draws: its text, classes and spoken name, by seat."""

    def __init__(self) -> None:
        super().__init__()
        self.seat: str | None = None
        self.cards: dict[str, list[tuple[str, str, str]]] = {}
        self.played: list[str] = []
        self._in_played = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if tag == "article" and values.get("data-seat") is not None:
            self.seat = values["data-seat"]
        if tag == "svg" and values.get("data-card") and self.seat is not None:
            face = (str(values["data-card"]), str(values["class"]), str(values["aria-label"]))
            self.cards.setdefault(self.seat, []).append(face)
        self._in_played = tag == "span" and values.get("class") == "played"

    def handle_data(self, data: str) -> None:
        if self._in_played:
            self.played.append(data)
            self._in_played = False


def eight_seat_record() -> dict[str, Any]:
    """A settled eight-seat round of two decks and both jokers, dealt so
    that both jokers are held."""
    rules = capsa.Rules(TWO_DECKS)
    for nonce in range(100):
        rnd = capsa.Round(rules, 8, 10, round_id=f"eight/{nonce}", nonce=nonce)
        hands = rnd.deal()
        if sum(card.joker for hand in hands for card in hand) == 2:
            rnd.close(force=True)
            rnd.settle()
            return rnd.record()
    raise AssertionError("no deal of 100 held both jokers")


@pytest.mark.parametrize("lang", ["en", "id"])
def test_an_eight_seat_page_draws_every_card_as_the_record_holds_it(lang: str) -> None:
    record = eight_seat_record()
    table = render.table_from_record(record)
    page = _Faces()
    page.feed(render.page_html(table, lang))
    assert sorted(page.cards) == [str(k) for k in range(8)]
    for k, seat in enumerate(record["seats"]):
        drawn = page.cards[str(k)]
        rows = seat["arrangement"].replace(" / ", " ").split()
        assert [text for text, _, _ in drawn] == rows
        for text, classes, label in drawn:
            card = capsa.Card(text)
            assert ("copy" in classes.split()) == bool(card.copy)
            assert ("joker" in classes.split()) == card.joker
            if card.copy:
                assert label.endswith("second copy" if lang == "en" else "salinan kedua")
    # each joker's row says what it was played as, as capsa.played_cards reads the row
    rules = capsa.Rules(record["rules"])
    want = []
    for seat in record["seats"]:
        for row in seat["arrangement"].split(" / "):
            cards = capsa.parse_cards(row)
            played = capsa.played_cards(cards, rules)
            want += [(c, p) for c, p in zip(cards, played, strict=True) if c.joker]
    assert len(page.played) == len(want) == 2
    for line, (joker, as_) in zip(page.played, want, strict=True):
        joker_word = {"en": ("black joker", "red joker"), "id": ("joker hitam", "joker merah")}
        assert line.startswith(joker_word[lang][joker.id == RED_JOKER])
        assert line.endswith(html.unescape(card_name(as_, lang)))


def test_the_svg_picture_draws_every_seat_of_an_eight_seat_table() -> None:
    record = eight_seat_record()
    picture = render.page_svg(render.table_from_record(record))
    drawn = re.findall(r'data-card="([^"]+)"', picture)
    held = [c for seat in record["seats"] for c in seat["arrangement"].replace(" / ", " ").split()]
    assert sorted(drawn) == sorted(held) and len(drawn) == 104
    # each joker's row says, short, what it was played as
    rules = capsa.Rules(record["rules"])
    for seat in record["seats"]:
        for row in seat["arrangement"].split(" / "):
            cards = capsa.parse_cards(row)
            for card, as_ in zip(cards, capsa.played_cards(cards, rules), strict=True):
                if card.joker:
                    suit = {"s": "♠", "h": "♥", "d": "♦", "c": "♣"}[as_.suit]
                    assert f" · {card} → {str(as_)[:-1].replace('T', '10')}{suit}" in picture


def test_no_two_cards_of_any_deck_are_drawn_alike() -> None:
    drawings = {card_drawing(capsa.Card(k)) for k in range(106)}
    assert len(drawings) == 106
    # and every face names its card apart from every other, in both languages
    for lang in ("en", "id"):
        labels = {
            re.search(r'aria-label="([^"]+)"', card_face(capsa.Card(k), lang)).group(1)  # type: ignore[union-attr]
            for k in range(106)
        }
        assert len(labels) == 106


def rows_with_jokers(rules: capsa.Rules, count: int, seed: int) -> list[list[int]]:
    """Rows of three and five cards of the rules' deck, each holding a joker."""
    config = rules.to_dict()["deck"]
    deck = [c for c in deck_ids(config) if c not in (BLACK_JOKER, RED_JOKER)]
    jokers = [BLACK_JOKER, RED_JOKER][: config.get("jokers", 0)]
    rng = random.Random(seed)
    rows = []
    for _ in range(count):
        size = rng.choice((3, 5))
        held = rng.sample(jokers, rng.randint(1, len(jokers)))
        # few ranks, so that jokers make pairs, trips, straights and flushes
        pool = [c for c in deck if c % 52 // 4 in rng.sample(range(13), 4) or rng.random() < 0.1]
        rows.append(held + rng.sample(pool, size - len(held)))
    return rows


@pytest.mark.parametrize("rules", [capsa.Rules(TWO_DECKS), capsa.Rules.preset("shisanshui-jokers")])
def test_played_cards_make_the_row_as_strong_as_the_oracle_reads_it(rules: capsa.Rules) -> None:
    config = o.load_rules(rules.to_dict())
    for row in rows_with_jokers(rules, 400, 7):
        played = [c.id for c in capsa.played_cards(row, rules)]
        assert [p for c, p in zip(row, played, strict=True) if c < 104] == [
            c % 52 for c in row if c < 104
        ]
        assert all(p < 52 for p in played)
        assert o._face_key_of(played, config) == o._key(row, config), (row, played)


def test_played_cards_of_a_52_card_row_are_the_row() -> None:
    assert capsa.played_cards("As Kd Th") == capsa.parse_cards("As Kd Th")
    five = capsa.Rules.preset("shisanshui-5")
    assert [c.id for c in capsa.played_cards("Ac Ac' Kd", five)] == [49, 49, 44]
    with pytest.raises(capsa.CardError):
        capsa.played_cards("As Kd BJ")
    with pytest.raises(capsa.HandError):
        capsa.played_cards("As Kd", five)


def test_a_record_page_of_a_larger_deck_round_trips_through_the_cli(tmp_path: Any) -> None:
    from capsa.cli import main

    source = tmp_path / "eight.jsonl"
    source.write_text(json.dumps(eight_seat_record()) + "\n", encoding="utf-8")
    assert main(["render", str(source), "-o", str(tmp_path / "eight.html")]) == 0
    page = (tmp_path / "eight.html").read_text(encoding="utf-8")
    assert page.count('class="card joker') == 2 and "played as the" in page
