"""Showdown pages tell a pair's terms from the settlement's own figures
(docs/rules.md, "A pair's terms"): a bonus natural paid on top of the rows,
the cap that bound, the horse card and who holds it, a player's stake
multiplier, the banker and its unplayed pairs, rows played as they stand and
ranked royalties, in English and Indonesian, and the terms they state come to
the settlement's points."""

from __future__ import annotations

import copy
import re
from typing import Any

import pytest

import capsa
from capsa import render
from capsa.render._text import Speaker
from capsa.render._words import LANGUAGES, words

# seat 0 wins the middle and bottom, seat 1 the top: seat 0 collects 1 point
A = "Qs Js 7s / As Ks Kd 9d 5h / Jc Jd Jh 3c 3d"
B = "Ah Kh 8s / Tc Td 2s 4s 6s / 2h 4h 6h 9h Qh"
C = "3s 4d 7h / 5c 5d 8h 9s 7c / Qc Qd Ad Ac 2d"


def _dict(*arrangements: str, rules: capsa.Rules | None = None) -> dict[str, Any]:
    seats = [capsa.Seat(capsa.Arrangement.parse(t)) for t in arrangements]
    return copy.deepcopy(capsa.settle(seats, rules).to_dict())


def _with_terms(data: dict[str, Any], k: int, **terms: int) -> dict[str, Any]:
    """The settlement with pair k's terms set and its points and money made
    what the terms come to (the pages read the terms, never the rules)."""
    pair = data["pairs"][k]
    pair["base"] = pair["points"]
    pair.update(terms)
    return data


def _set_points(data: dict[str, Any], k: int, points: int) -> None:
    pair = data["pairs"][k]
    pair["points"] = points
    pair["money"] = points * pair["stake"]
    i, j = pair["seats"]
    for seat in data["seats"]:
        seat["points"] = seat["money"] = seat["net"] = 0
    for p in data["pairs"]:
        a, b = p["seats"]
        data["seats"][a]["points"] += p["points"]
        data["seats"][b]["points"] -= p["points"]
        data["seats"][a]["money"] += p["money"]
        data["seats"][b]["money"] -= p["money"]
    for seat in data["seats"]:
        seat["net"] = seat["money"] - seat["rake"]
    assert i < j


def _sentences(table: render.Table, lang: str = "en") -> list[str]:
    speak = Speaker(words(lang), table, markup=False)
    return [speak.sentence(p) for p in render.payments(table)]


def _plain(page: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", page))


def test_a_pair_without_terms_reads_as_before() -> None:
    data = _dict(A, B)
    bare = render.table_from_settlement(data)
    with_neutral = render.table_from_settlement(_with_terms(copy.deepcopy(data), 0))
    assert _sentences(bare) == _sentences(with_neutral)
    assert "in all" not in _sentences(bare)[0]


def test_the_horse_card_doubles_and_names_its_holder() -> None:
    data = _dict(A, B)
    base = data["pairs"][0]["points"]
    _with_terms(data, 0, horse=2)
    _set_points(data, 0, 2 * base)
    assert base == 1
    # without the rules the page cannot say which card it is, only the multiplier
    plain = _sentences(render.table_from_settlement(data))[0]
    assert "Seat 1 pays Seat 0: 2 points" in plain
    assert "× 2: one of the two holds the horse card" in plain
    assert plain.endswith("in all, 1, then × 2: one of the two holds the horse card, making 2.")
    indonesian = _sentences(render.table_from_settlement(data), "id")[0]
    assert "kartu kuda" in indonesian and "menjadi 2" in indonesian


def test_the_horse_card_is_named_with_the_rules() -> None:
    rules = capsa.Rules.preset("pagat").derive({"horse.card": "Ah"})
    data = _dict(A, B)
    _with_terms(data, 0, horse=2)
    _set_points(data, 0, 2)
    sentence = _sentences(render.table_from_settlement(data, rules=rules))[0]
    # seat 1 holds A♥ on top
    assert "× 2: Seat 1 holds the horse card ♥A" in sentence
    page = render.settlement_html(data, rules=rules)
    assert "Seat 1 holds the horse card ♥A" in _plain(page)
    assert 'id="rule-horse"' in page


def test_a_bonus_natural_is_paid_on_top_of_the_rows_and_the_cap_binds() -> None:
    data = _dict(A, B)
    # seat 1's bonus natural of 40 on top of the 1 point seat 0 won in the rows,
    # capped at 12
    data["seats"][1]["natural"] = "dragon"
    data["seats"][1]["natural_points"] = 40
    _with_terms(data, 0, natural_bonus=-40, cap=12)
    _set_points(data, 0, -12)
    sentence = _sentences(render.table_from_settlement(data))[0]
    assert sentence.startswith("Seat 0 pays Seat 1: 12 points")
    assert "Seat 0 won the middle and bottom" in sentence  # the base as it was settled
    assert (
        "in all, −1, then + 40 for Seat 1's dragon, a bonus natural paid on top of the rows, "
        "then capped at 12, making 12." in sentence
    )


def test_the_cap_of_stage_final_comes_after_the_multipliers() -> None:
    data = _dict(A, B)
    _with_terms(data, 0, base=5, horse=2, cap=8)
    _set_points(data, 0, 8)
    sentence = _sentences(render.table_from_settlement(data))[0]
    assert sentence.endswith(
        "in all, 5, then × 2: one of the two holds the horse card, then capped at 8, making 8."
    )


def test_terms_that_do_not_come_to_the_points_are_not_stated() -> None:
    data = _dict(A, B)
    _with_terms(data, 0, horse=2)
    _set_points(data, 0, 3)  # not 1 × 2
    sentence = _sentences(render.table_from_settlement(data))[0]
    assert "Seat 1 pays Seat 0: 3 points" in sentence and "in all" not in sentence


def test_a_banker_game_marks_the_banker_and_leaves_unplayed_pairs_even() -> None:
    data = _dict(A, B, C)
    # seat 0 is the banker: the pair of seats 1 and 2 is not played
    data["banker"] = 0
    data["seats"][2]["multiplier"] = 3
    pairs = {tuple(p["seats"]): k for k, p in enumerate(data["pairs"])}
    unplayed = data["pairs"][pairs[1, 2]]
    unplayed.update(outcome="unplayed", rows={"top": 0, "middle": 0, "bottom": 0})
    unplayed.update(row_points=0, overall=0, royalties=0, scoop=0, multiplier=1, bonus=0)
    k = pairs[0, 2]
    base = data["pairs"][k]["points"]
    _with_terms(data, k, seat_multiplier=3)
    _set_points(data, k, 3 * base)
    _set_points(data, pairs[1, 2], 0)
    table = render.table_from_settlement(data)
    assert table.banker == 0 and table.seats[0].banker and not table.seats[1].banker
    by_pair = {(p.pair.i, p.pair.j): p for p in render.payments(table)}
    assert by_pair[1, 2].payer is None and by_pair[1, 2].points == 0
    sentences = dict(zip(by_pair, _sentences(table), strict=True))
    assert sentences[1, 2] == (
        "Seat 1 and Seat 2 do not play each other. Each plays the banker, Seat 0, and not the "
        "other: nothing is won or lost here."
    )
    assert f"then × 3, Seat 2's stake multiplier, making {abs(3 * base)}." in sentences[0, 2]
    for lang in LANGUAGES:
        w = words(lang)
        page = render.settlement_html(data, lang)
        assert page.count('class="badge banker"') == 1
        assert w.fill("badge.multiplier", v="3") in page
        assert 'data-outcome="unplayed"' in page and w["outcome.unplayed"] in page
        assert 'id="rule-banker"' in page
        svg = render.settlement_svg(data, lang)
        assert w["badge.banker"] in svg
    # the banker is found from the pairs played when the settlement does not name it
    del data["banker"]
    assert render.table_from_settlement(data).banker == 0


def test_a_banker_that_is_not_a_seat_is_a_table_error() -> None:
    data = _dict(A, B)
    data["banker"] = 5
    with pytest.raises(capsa.TableError, match=r"settlement\.banker"):
        render.table_from_settlement(data)


def test_rows_out_of_order_played_as_they_stand_are_marked() -> None:
    fouled = "As Ad Kc / 2c 3d 4d 5s 7c / 8c 9d Th Js 3s"
    rules = capsa.Rules.preset("pagat").derive({"foul.mode": "none"})
    data = _dict(fouled, B, rules=rules)
    assert data["seats"][0]["foul"] is False
    for lang in LANGUAGES:
        page = render.settlement_html(data, lang, rules=rules)
        assert words(lang)["badge.out_of_order"] in page
        assert words(lang)["badge.out_of_order"] in render.settlement_svg(data, lang, rules=rules)
    assert words("en")["badge.out_of_order"] not in render.settlement_html(_dict(A, B))


def test_a_ranked_royalty_is_named_by_its_rank() -> None:
    rules = capsa.Rules.preset("pagat").derive(
        {"royalties.top_by_rank": {"pair": {"A": 2}}, "royalties.top": {"pair": 0}}
    )
    aces = "Ac Ad 8d / Ks Kd 9c 9d 5h / Jc Jd Jh 3c 3d"
    data = _dict(aces, B, rules=rules)
    assert data["seats"][0]["rows"]["top"]["royalty"] == 2
    sentence = _sentences(render.table_from_settlement(data, rules=rules))[0]
    assert "Seat 0's 2 for a pair of aces on top" in sentence
    indonesian = _sentences(render.table_from_settlement(data, rules=rules), "id")[0]
    assert "as di atas" in indonesian


def house_table() -> render.Table:
    """A banker game of three with every term on show, for the browser's
    checks: T (seat 2) the banker, A's pair doubled by the horse card ♥A
    and capped, B's at a stake multiplier of 3, A and B unplayed."""
    rules = capsa.Rules.preset("pagat").derive({"horse.card": "Ah"})
    t = "Ac As 8c / Kc Kh Qc Qd 2c / 3d 4d 5d 6d 8d"
    a = "Ah Ad 8s / Ks Kd 9c 9d 5h / Jc Jd Jh 3c 3s"
    data = _dict(a, B.replace("Ah Kh 8s", "Qs Js 7s"), t)
    data["banker"] = 2
    data["seats"][1]["multiplier"] = 3
    pairs = {tuple(p["seats"]): k for k, p in enumerate(data["pairs"])}
    unplayed = data["pairs"][pairs[0, 1]]
    unplayed.update(outcome="unplayed", rows={"top": 0, "middle": 0, "bottom": 0})
    unplayed.update(row_points=0, overall=0, royalties=0, scoop=0, multiplier=1, bonus=0)
    _set_points(data, pairs[0, 1], 0)
    k = pairs[0, 2]
    base = data["pairs"][k]["points"]
    _with_terms(data, k, horse=2)
    _set_points(data, k, 2 * base)
    k = pairs[1, 2]
    base = data["pairs"][k]["points"]
    _with_terms(data, k, seat_multiplier=3)
    _set_points(data, k, 3 * base)
    return render.table_from_settlement(data, rules=rules, title="A banker game")


def test_the_house_table_tells_every_term() -> None:
    table = house_table()
    told = " ".join(_sentences(table))
    assert "do not play each other" in told
    assert "Seat 0 holds the horse card ♥A" in told
    assert "Seat 1's stake multiplier" in told
    assert sum(p.terms is not None for p in render.payments(table)) == 2
