"""Showdown pages: every payment sentence states the settlement's figures and
its terms add up to them; the page draws every seat's cards once; both
languages have every word; outside text is escaped; bad breakdowns and
records are typed errors; ``capsa render`` reads and reports like
``capsa settle``; the committed renders of docs/rules.md regenerate byte for
byte."""

from __future__ import annotations

import copy
import dataclasses
import json
import re
import sys
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, reject
from hypothesis import strategies as st
from settlement.test_settlement import _engine_seats, tables

import capsa
from capsa import render
from capsa.cli import main
from capsa.render import examples
from capsa.render._payments import Payment
from capsa.render._text import Speaker, esc
from capsa.render._words import LANGUAGES, _table, words

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

REPO = Path(__file__).resolve().parents[2]
SHOWDOWN = REPO / "docs" / "showdown"
A = "Ah Kh 8s / As Ks 9d 7d 5h / Jc Jd Jh 3c 3d"
B = "Qs Js 7s / Tc Td 2s 4s 6s / 2h 4h 6h 9h Qh"
ALL = examples.WORKED + examples.OUTCOMES


def _settled(example: examples.Example) -> tuple[capsa.Settlement, capsa.Rules]:
    rules = capsa.Rules.preset(example.rules)
    seats = [
        capsa.Seat(capsa.Arrangement.parse(t), surrender=k in example.surrender)
        for k, t in enumerate(example.seats)
    ]
    return capsa.settle(seats, rules, example.stake), rules


def _sentences(table: render.Table, lang: str = "en") -> list[tuple[Payment, str]]:
    speak = Speaker(words(lang), table, markup=False)
    return [(p, speak.sentence(p)) for p in render.payments(table)]


class _Cards(HTMLParser):
    """The cards a page draws, by seat (``data-card`` inside ``data-seat``)."""

    def __init__(self) -> None:
        super().__init__()
        self.seat: str | None = None
        self.cards: dict[str, list[str]] = {}
        self.tags: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        self.tags.add(tag)
        if tag == "article" and values.get("data-seat") is not None:
            self.seat = values["data-seat"]
        if tag == "svg" and values.get("data-card") and self.seat is not None:
            self.cards.setdefault(self.seat, []).append(str(values["data-card"]))


# ---------------------------------------------------------------- payments


@st.composite
def settled_tables(draw: st.DrawFn) -> dict[str, Any]:
    """The settlement tests' tables (every preset, knobs redrawn half the time)."""
    try:
        return draw(tables())
    except ValueError:
        # strategies.natural_hand can draw a card twice for a hand of royals
        # when the deck holds nothing else; such a draw is no table
        reject()


@given(table=settled_tables())
def test_every_payment_adds_up_to_the_settlement(table: dict[str, Any]) -> None:
    """Under every preset with its knobs redrawn: with the rules, every pair
    that pays has the whole sum of its terms (foul amounts, royalties by row,
    multipliers, bonuses, naturals, surrender cost) and it equals the
    settlement's points; without the rules the sums shown still do; each
    sentence names the payer, the payee, the points and the money."""
    rules = table["rules"]
    settlement = capsa.settle(_engine_seats(table["seats"]), rules, table["stakes"])
    for given_rules in (rules, None):
        view = render.table_from_settlement(settlement, rules=given_rules)
        # the core's breakdown read unchecked and its to_dict() read checked agree
        checked = render.table_from_settlement(settlement.to_dict(), rules=given_rules)
        assert checked == view
        w = words("en")
        for payment, sentence in _sentences(view):
            pair = payment.pair
            assert payment.points == abs(pair.points) and payment.money == abs(pair.money)
            if payment.equation is not None:
                assert payment.equation.value() == payment.equation.total
                assert abs(payment.equation.total) == payment.points
            if pair.points == 0:
                assert payment.payer is None and " are even" in sentence
                continue
            assert (payment.payee == pair.i) == (pair.points > 0)
            if given_rules is not None:
                assert payment.equation is not None, sentence
            payer, payee = f"Seat {payment.payer}", f"Seat {payment.payee}"
            assert sentence.startswith(
                f"{payer} pays {payee}: {w.points(pair.points)}, {w.number(abs(pair.money))} "
                f"at a stake of {w.number(pair.stake)}."
            ), sentence


def test_a_sweep_all_names_each_term_with_its_number() -> None:
    (_, text), *_ = _sentences(examples.WORKED[3].settle_table())
    assert text == (
        "B pays A: 19 points, 1,900 at a stake of 100. A won all three rows against every "
        "opponent, a sweep-all: 3 in row points × 4 for sweeping all + 7 in royalties "
        "(A's 7 for four of a kind at the bottom) = 19."
    )


def test_a_foul_pays_the_sweep_all_amount_and_the_royalties() -> None:
    sentences = [s for _, s in _sentences(examples.WORKED[1].settle_table())]
    assert sentences[1] == (
        "A pays C: 21 points, 2,100 at a stake of 100. A fouled (the middle beats the bottom) "
        "and pays C the foul amount: 3 rows × 1 × 4 at the sweep-all rate + 9 in royalties "
        "(C's 9 for a straight flush at the bottom) = 21."
    )


def test_naturals_surrenders_and_fouls_are_told_as_the_rules_settle_them() -> None:
    by_slug = {e.slug: _sentences(e.settle_table()) for e in examples.OUTCOMES}
    naturals = [s for _, s in by_slug["naturals"]]
    assert naturals[0].endswith(
        "A's full colour beats B's six pairs and collects its points less the weaker's: "
        "6 for full colour − 4 for six pairs = 2."
    )
    assert naturals[5] == (
        "C pays D: 3 points, 30 at a stake of 10. C surrendered: the surrender cost 3."
    )
    compared = [s for _, s in by_slug["naturals-compared"]]
    assert "B's ranks are higher, compared group by group: 6 for six pairs." in compared[0]
    fouls = [s for _, s in by_slug["surrender-and-fouls"]]
    assert fouls[0] == (
        "A and B are even: nothing changes hands. "
        "A surrendered and B fouled: a surrender pays nothing to a foul."
    )
    assert fouls[3] == "B and C are even: nothing changes hands. Both fouled."
    assert fouls[4].endswith("the foul amount: 3 rows × 1 + 1 for the overall point = 4.")


def test_without_the_rules_a_foul_names_its_rate_and_royalties_only() -> None:
    settlement, _ = _settled(examples.WORKED[1])
    view = render.table_from_settlement(settlement, seat_names=["A", "B", "C", "D"])
    payment, text = _sentences(view)[1]
    assert payment.equation is None
    assert text == (
        "A pays C: 21 points, 2,100 at a stake of 100. A fouled (the middle beats the bottom) "
        "and pays C the foul amount at the sweep-all rate (× 4); including 9 in royalties "
        "(C's 9 for a straight flush at the bottom)."
    )


def test_the_indonesian_page_uses_the_games_terms() -> None:
    foul = examples.WORKED[1].settle_table()
    page = render.page_html(foul, "id")
    for term in ("atas", "tengah", "bawah", "PAO", "tembus", "barang", "biaya meja"):
        assert term in page, term
    assert 'lang="id"' in page and "Setiap pembayaran" in page
    sweep = render.page_html(examples.WORKED[3].settle_table(), "id")
    assert "tembus keliling, super" in sweep
    assert "1.900 dengan taruhan 100" in sweep


def test_both_languages_have_every_word() -> None:
    data = _table()
    assert set(data) == set(LANGUAGES)
    keys = {lang: words(lang).keys() for lang in LANGUAGES}
    assert keys["en"] == keys["id"]
    for lang in LANGUAGES:
        for name in capsa.CATEGORIES:
            assert f"category.{name}" in keys[lang] and f"category_a.{name}" in keys[lang]
        for name in capsa.NATURAL_NAMES:
            assert f"natural.{name}" in keys[lang]
    # every template fills with the same placeholders in both languages
    holes = re.compile(r"{(\w+)}")
    for key in keys["en"]:
        assert set(holes.findall(words("en")[key])) == set(holes.findall(words("id")[key])), key


def test_the_words_file_is_one_toml_document_of_both_languages() -> None:
    text = (REPO / "python" / "capsa" / "render" / "words.toml").read_text(encoding="utf-8")
    assert set(tomllib.loads(text)) == {"en", "id"}


def test_a_language_outside_the_list_is_an_argument_error() -> None:
    settlement, _ = _settled(examples.WORKED[0])
    with pytest.raises(capsa.ArgumentError, match="'fr'"):
        settlement.to_html("fr")  # type: ignore[attr-defined]
    with pytest.raises(TypeError, match="lang is a str"):
        settlement.to_svg(["en"])  # type: ignore[attr-defined]


# ---------------------------------------------------------------- the page


@pytest.mark.parametrize("example", ALL, ids=[e.slug for e in ALL])
def test_every_seat_is_drawn_with_its_thirteen_cards_once(example: examples.Example) -> None:
    settlement, rules = _settled(example)
    page = settlement.to_html(rules=rules)  # type: ignore[attr-defined]
    parser = _Cards()
    parser.feed(page)
    dealt = {
        str(k): [str(c) for c in capsa.Arrangement.parse(t).cards]
        for k, t in enumerate(example.seats)
    }
    assert parser.cards == dealt
    # self-contained: no script, no link, nothing fetched
    assert not parser.tags & {"script", "link", "img", "iframe", "object", "embed"}
    assert "url(" not in page and "@import" not in page and "http" not in page


def test_svg_pictures_are_well_formed_xml_holding_every_card() -> None:
    for example in ALL:
        settlement, rules = _settled(example)
        for lang in LANGUAGES:
            svg = settlement.to_svg(lang, rules=rules)  # type: ignore[attr-defined]
            root = ET.fromstring(svg)
            cards = [g.get("data-card") for g in root.iter("{http://www.w3.org/2000/svg}g")]
            assert len(cards) == 13 * len(example.seats)
            assert "http" not in svg.replace('xmlns="http://www.w3.org/2000/svg"', "")


def test_the_page_marks_what_happened_and_shows_each_seats_totals() -> None:
    sweep = render.page_html(examples.WORKED[3].settle_table())
    assert sweep.count('class="seat swept"') == 1 and 'class="badge sweep"' in sweep
    assert sweep.count('class="badge scoop"') == 2  # C and D each scooped B
    foul = render.page_html(examples.WORKED[1].settle_table())
    assert 'class="seat foul"' in foul
    assert 'data-row="middle"' in foul and 'class="row out" data-row="bottom"' in foul
    assert "the middle beats the bottom" in foul
    assert 'title="not paid: the seat fouled"' not in foul  # A's rows have no royalty
    naturals = render.page_html(examples.OUTCOMES[0].settle_table())
    assert "natural: full colour, 6 points" in naturals and 'class="badge surrender"' in naturals
    assert 'title="not paid: the natural is settled instead of the rows"' in naturals
    # the totals table: every seat's figures, the house's rake
    table = examples.WORKED[1].settle_table()
    page = render.page_html(table)
    for seat in table.seats:
        for figure in (seat.points, seat.money, seat.rake, seat.net):
            assert f'data-value="{figure}"' in page
    assert f'class="num rake" data-value="{sum(s.rake for s in table.seats)}"' in page


def test_the_matrix_shows_each_pair_from_both_sides() -> None:
    table = examples.WORKED[0].settle_table()
    page = render.page_html(table)
    for pair in table.pairs:
        assert f'data-seat="{pair.i}" data-against="{pair.j}" data-outcome="rows"' in page
        assert f'data-points="{pair.points}"' in page and f'data-points="{-pair.points}"' in page
    # each pair split its rows 2-1: 18 rows won and 18 lost, seen from both sides
    assert page.count('data-result="won"') == page.count('data-result="lost"') == 18


def test_to_html_is_the_render_module_s_page() -> None:
    settlement, rules = _settled(examples.WORKED[2])
    assert settlement.to_html(rules=rules) == render.settlement_html(settlement, rules=rules)  # type: ignore[attr-defined]
    assert settlement.to_svg("id") == render.settlement_svg(settlement, "id")  # type: ignore[attr-defined]
    # the settlement's to_dict() draws the same page
    assert render.settlement_html(settlement.to_dict()) == render.settlement_html(settlement)


def test_a_naturals_split_is_drawn_when_known() -> None:
    table = examples.OUTCOMES[0].settle_table()
    seat = table.seats[0]
    split = (
        seat.rows[2].cards[:3],
        seat.rows[1].cards,
        (*seat.rows[2].cards[3:], *seat.rows[0].cards),
    )
    seats = (dataclasses.replace(seat, natural_rows=split), *table.seats[1:])
    page = render.page_html(dataclasses.replace(table, seats=seats))
    parser = _Cards()
    parser.feed(page)
    assert parser.cards["0"] == [str(c) for row in split for c in row]
    assert "the split that makes the natural" in page
    assert "the natural is judged on all 13 cards" in render.page_html(table)


# ---------------------------------------------------------------- escaping

HOSTILE = '<script>alert("x")</script>&amp;\'"'


def test_round_ids_seat_names_titles_and_rule_names_are_text() -> None:
    settlement, _ = _settled(examples.WORKED[0])
    rules = capsa.Rules.preset("pagat").derive(name="<b>house</b>")
    names = [HOSTILE, "<img src=x onerror=alert(1)>", "B&B", "D"]
    for draw in (render.settlement_html, render.settlement_svg):
        page = draw(settlement, rules=rules, round_id=HOSTILE, seat_names=names, title=HOSTILE)
        assert "<script" not in page and "<img" not in page and "<b>house" not in page
        assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;amp;&#x27;&quot;" in page
        assert "&lt;b&gt;house&lt;/b&gt;" in page and "B&amp;B" in page
    ET.fromstring(render.settlement_svg(settlement, round_id=HOSTILE, seat_names=names))


def test_invisible_characters_and_lone_surrogates_are_shown_escaped() -> None:
    settlement, _ = _settled(examples.WORKED[0])
    round_id = "r\x00\u202e1\ud800\n"
    page = render.settlement_html(settlement, round_id=round_id)
    page.encode("utf-8")  # a lone surrogate would not encode
    assert "r\\u0000\\u202e1\\ud800\\u000a" in page
    ET.fromstring(render.settlement_svg(settlement, round_id=round_id))
    assert esc("As ♠ <") == "As ♠ &lt;"


def test_a_long_round_id_is_cut() -> None:
    settlement, _ = _settled(examples.WORKED[0])
    page = render.settlement_html(settlement, round_id="x" * 100_000)
    assert "x" * 199 + "…" in page and "x" * 201 not in page


# ---------------------------------------------------------------- bad input


def _breakdown() -> dict[str, Any]:
    settlement, _ = _settled(examples.WORKED[0])
    return settlement.to_dict()


@pytest.mark.parametrize(
    ("change", "error", "named"),
    [
        (lambda d: d.pop("seats"), capsa.TableError, "settlement.seats is missing"),
        (
            lambda d: d["seats"].__delitem__(slice(1, None)),
            capsa.TableError,
            "settlement.seats must be a list of 2 to 8",
        ),
        (lambda d: d["seats"][1].pop("net"), capsa.TableError, r"seats\[1\]\.net is missing"),
        (
            lambda d: d["seats"][2].update(points="3"),
            capsa.TableError,
            r"seats\[2\]\.points must be an integer",
        ),
        (
            lambda d: d["seats"][0].update(foul=1),
            capsa.TableError,
            r"seats\[0\]\.foul must be true or false",
        ),
        (
            lambda d: d["seats"][0].update(natural="dragonfly"),
            capsa.TableError,
            r"seats\[0\]\.natural",
        ),
        (
            lambda d: d["seats"][3]["rows"]["top"].update(category="five"),
            capsa.TableError,
            "category must be one of",
        ),
        (lambda d: d["pairs"][0].update(outcome="draw"), capsa.TableError, r"pairs\[0\]\.outcome"),
        (
            lambda d: d["pairs"][0]["rows"].update(top=2),
            capsa.TableError,
            r"pairs\[0\]\.rows must be 1, 0 or -1",
        ),
        (
            lambda d: d["pairs"][1].update(seats=[0, 0]),
            capsa.TableError,
            r"pairs\[1\]\.seats must be two seats",
        ),
        (lambda d: d["pairs"].pop(), capsa.TableError, "settlement.pairs must be a list of 6"),
    ],
)
def test_a_breakdown_that_is_not_a_settlement_names_the_key(
    change: Any, error: type[Exception], named: str
) -> None:
    data = _breakdown()
    change(data)
    with pytest.raises(error, match=named):
        render.settlement_html(data)


def test_bad_cards_in_a_breakdown_name_the_seat_and_row() -> None:
    data = _breakdown()
    data["seats"][2]["rows"]["middle"]["cards"] = "As Kd <x> 2c 3c"
    with pytest.raises(capsa.CardError, match='cannot read card "<x>"') as raised:
        render.settlement_html(data)
    assert (raised.value.seat, raised.value.row) == (2, "middle")
    data["seats"][2]["rows"]["middle"]["cards"] = "As Kd 2c 3c"
    with pytest.raises(capsa.HandError, match="holds 4 cards") as raised:
        render.settlement_html(data)
    assert (raised.value.seat, raised.value.row) == (2, "middle")


def test_wrong_argument_types_are_type_errors() -> None:
    settlement, _ = _settled(examples.WORKED[0])
    with pytest.raises(TypeError, match="Settlement or its to_dict"):
        render.settlement_html([1, 2])  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"rules is a capsa\.Rules"):
        render.settlement_html(settlement, rules="pagat")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"seat_names\[1\] is a str"):
        render.settlement_html(settlement, seat_names=["a", 2, "c", "d"])  # type: ignore[list-item]
    with pytest.raises(capsa.TableError, match="3 names for a table of 4 seats"):
        render.settlement_html(settlement, seat_names=["a", "b", "c"])


# ---------------------------------------------------------------- records


def _record() -> dict[str, Any]:
    settlement, _ = _settled(examples.WORKED[2])
    return {
        "format": 1,
        "round_id": "table-7/round-12",
        "rules": "capsa-susun",
        "seat_names": ["ana", "budi", "citra", "dewi"],
        "settlement": settlement.to_dict(),
    }


def test_a_round_record_is_drawn_with_its_verification(monkeypatch: pytest.MonkeyPatch) -> None:
    record = _record()
    assert render.is_round_record(record) and not render.is_round_record({"seats": []})
    monkeypatch.delattr(capsa.records, "verify_deal", raising=False)
    monkeypatch.delattr(capsa.records, "replay", raising=False)
    table = render.table_from_record(record)
    assert [(c.name, c.ok) for c in table.checks] == [("commitment", None), ("replay", None)]
    page = render.page_html(table)
    assert page.count('data-status="skip"') == 2 and "table-7/round-12" in page and "budi" in page

    def tampered(rec: dict[str, Any]) -> None:
        raise capsa.TableError("the record's money differs: pairs[0].money")

    monkeypatch.setattr(capsa.records, "verify_deal", lambda rec: True, raising=False)
    monkeypatch.setattr(capsa.records, "replay", tampered, raising=False)
    page = render.page_html(render.table_from_record(record))
    assert 'data-check="commitment" data-status="ok"' in page
    assert 'data-check="replay" data-status="fail"' in page
    assert "TableError: the record&#x27;s money differs: pairs[0].money" in page


@pytest.mark.parametrize(
    ("change", "error", "named"),
    [
        (lambda r: r.pop("settlement"), capsa.TableError, "'settlement' is missing"),
        (
            lambda r: r.update(settlement=[]),
            capsa.TableError,
            "record.settlement must be an object",
        ),
        (lambda r: r.update(rules="texas"), capsa.RulesError, "texas"),
        (lambda r: r.update(rules=7), capsa.RulesError, "record.rules must be"),
        (lambda r: r.update(seat_names="ana"), capsa.TableError, "record.seat_names"),
        (lambda r: r["settlement"]["seats"][0].pop("rake"), capsa.TableError, r"seats\[0\]\.rake"),
    ],
)
def test_a_bad_record_names_what_is_wrong(change: Any, error: type[Exception], named: str) -> None:
    record = _record()
    change(record)
    with pytest.raises(error, match=named):
        render.table_from_record(record, verify=False)


def test_records_rules_may_be_a_table_or_toml() -> None:
    record = _record()
    record["rules"] = capsa.Rules.preset("pagat").to_dict()
    assert render.table_from_record(record, verify=False).rules == capsa.Rules.preset("pagat")
    record["rules"] = capsa.Rules.preset("2-4").to_toml()
    assert render.table_from_record(record, verify=False).rules == capsa.Rules.preset("2-4")


# ---------------------------------------------------------------- capsa render


def _round(id_: Any, *seats: str, **extra: Any) -> str:
    return json.dumps({"id": id_, "seats": list(seats), **extra}, ensure_ascii=False)


def test_render_one_round_writes_its_page(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "round.json"
    path.write_text(_round("<script>", A, B, rules="pagat", stakes=100), encoding="utf-8")
    out = tmp_path / "page.html"
    assert main(["render", str(path), "-o", str(out), "--lang", "id"]) == 0
    page = out.read_text(encoding="utf-8")
    assert '<bdi class="round-id">&lt;script&gt;</bdi>' in page and "<script>" not in page
    assert "pagat" in page and 'lang="id"' in page
    assert not (tmp_path / "page-rounds").exists()
    assert capsys.readouterr().out == ""


def test_render_many_rounds_writes_an_index_and_the_error_records_of_settle(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad_card = B.replace("Qh", "Qz")
    lines = [
        _round(1, A, B),
        "not json",
        "",
        _round(-0, A, bad_card).replace('"id": 0', '"id": -0'),
        json.dumps(_record()),
        _round("x", A, A),
        _round(12345678901234567890123, B, A, rules="2-4"),
    ]
    path = tmp_path / "rounds.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert main(["settle", str(path)]) == 0
    settled = capsys.readouterr().out.splitlines()
    want_errors = [line for line in settled if line.startswith('{"error":')]
    assert len(want_errors) == 4  # the record is no round to capsa settle
    out = tmp_path / "index.html"
    assert main(["render", str(path), "-o", str(out)]) == 0
    captured = capsys.readouterr()
    errors = captured.out.splitlines()
    assert errors == [e for e in want_errors if '"line":5' not in e]
    assert "3 round(s) could not be settled" in captured.err
    index = out.read_text(encoding="utf-8")
    assert index.count('<tr class="error"') == 3
    assert 'href="index-rounds/round-1.html"' in index
    pages = sorted(p.name for p in (tmp_path / "index-rounds").iterdir())
    assert pages == ["round-1.html", "round-4.html", "round-6.html"]
    record_page = (tmp_path / "index-rounds" / "round-4.html").read_text(encoding="utf-8")
    assert "table-7/round-12" in record_page and 'class="verification"' in record_page
    big = (tmp_path / "index-rounds" / "round-6.html").read_text(encoding="utf-8")
    assert (
        "12345678901234567890123" in big
        and 'Rules <bdi class="rules-name"><span class="w">2-4</span>' in big
    )
    assert main(["render", str(path), "-o", str(out), "--strict"]) == 1


def test_render_reads_a_document_of_rounds(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "rounds.json"
    text = json.dumps([json.loads(_round(1, A, B)), 5, json.loads(_round(2, B, A))], indent=2)
    path.write_text(text, encoding="utf-8")
    assert main(["settle", str(path)]) == 0
    settled = json.loads(capsys.readouterr().out)
    out = tmp_path / "doc.html"
    assert main(["render", str(path), "-o", str(out), "--format", "json"]) == 0
    errors = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert errors == [settled[1]] and errors[0]["line"] == 9
    assert sorted(p.name for p in (tmp_path / "doc-rounds").iterdir()) == [
        "round-1.html",
        "round-3.html",
    ]


def test_render_of_no_rounds_is_an_empty_index(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "empty.jsonl"
    path.write_text("\n\n", encoding="utf-8")
    out = tmp_path / "none.html"
    assert main(["render", str(path), "-o", str(out)]) == 0
    page = out.read_text(encoding="utf-8")
    assert "The input holds no rounds." in page and "0 rounds settled" in page
    assert capsys.readouterr().out == ""


def test_render_of_rounds_none_of_which_settles_fails(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # as capsa settle: the error records are written and the exit code is 1
    path = tmp_path / "garbage.jsonl"
    path.write_text("garbage\n", encoding="utf-8")
    out = tmp_path / "garbage.html"
    assert main(["render", str(path), "-o", str(out)]) == 1
    captured = capsys.readouterr()
    assert '"error":"TableError"' in captured.out
    assert "1 round(s) could not be settled" in captured.err
    # one round settled among them: done, the other listed with its error
    path.write_text("garbage\n" + _round(1, A, B) + "\n", encoding="utf-8")
    assert main(["render", str(path), "-o", str(out)]) == 0


def test_an_error_records_id_is_shown_as_written(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "ids.jsonl"
    path.write_text(_round(1, A, B) + "\n" + '{"id": 1e400, "seats": []}\n', encoding="utf-8")
    out = tmp_path / "ids.html"
    assert main(["render", str(path), "-o", str(out)]) == 0
    assert '"id":1e400' in capsys.readouterr().out
    assert "<td><bdi>1e400</bdi></td>" in out.read_text(encoding="utf-8")


def test_render_refuses_what_it_cannot_write(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "round.json"
    path.write_text(_round(1, A, B), encoding="utf-8")
    assert main(["render", str(path), "-o", str(tmp_path)]) == 2
    assert "is a directory" in capsys.readouterr().err
    assert main(["render", str(path)]) == 2
    assert "-o/--output" in capsys.readouterr().err
    assert main(["render", str(tmp_path / "missing.json"), "-o", "x.html"]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_play_html_draws_the_table_it_played(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "play.html"
    assert main(["play", "--seed", "2026", "--seats", "3", "--html", str(out)]) == 0
    text = capsys.readouterr().out
    page = out.read_text(encoding="utf-8")
    assert "capsa play, seed 2026" in page and page.count('class="payment"') == 3
    parser = _Cards()
    parser.feed(page)
    assert len(parser.cards) == 3 and all(len(c) == 13 for c in parser.cards.values())
    assert "seat 0 vs seat 1" in text


# ---------------------------------------------------------------- the docs


def test_the_worked_examples_regenerate_byte_for_byte(tmp_path: Path) -> None:
    """``python -m capsa.render.examples --out docs/showdown`` writes exactly
    the committed files."""
    written = examples.write(tmp_path)
    committed = sorted(p.name for p in SHOWDOWN.iterdir() if p.suffix in (".html", ".svg"))
    assert sorted(p.name for p in written) == committed
    for path in written:
        assert path.read_bytes() == (SHOWDOWN / path.name).read_bytes(), path.name


def test_the_worked_examples_pay_what_docs_rules_md_says() -> None:
    bottom, foul, scoop, sweep = (e.settle_table() for e in examples.WORKED)
    assert [s.net for s in bottom.seats] == [3000, 1000, -1000, -3000]
    foul_pairs = [p for p in foul.pairs if p.outcome == "foul"]
    roy = {p.j: sum(r.royalty for r in foul.seats[p.j].rows) for p in foul_pairs}
    assert [-p.points for p in foul_pairs] == [12 + roy[p.j] for p in foul_pairs]
    scoops = [p for p in scoop.pairs if p.scoop and not p.sweep_all]
    assert scoops and all(p.row_points * p.multiplier == 3 * 2 * p.scoop for p in scoops)
    swept = [p for p in sweep.pairs if p.sweep_all]
    assert len(swept) == 3 and all(abs(p.row_points) * p.multiplier == 12 for p in swept)


def test_copies_of_a_breakdown_are_not_changed() -> None:
    data = _breakdown()
    before = copy.deepcopy(data)
    render.settlement_html(data)
    assert data == before


def test_a_row_shaped_natural_is_drawn_in_the_split_that_makes_it() -> None:
    # submitted rows mix the suits; the natural is three flushes
    rules = capsa.Rules()
    shown = "Ac Kc Jc / Qh Th 8h 7c 4c / 2s 5s 9s Ks 6s"
    other = "Ad Kd Qd / Jd Td 9d 8d 7h / 2d 3d 4d 5d 6h"
    result = capsa.settle([shown, other], rules)
    from capsa.render._model import table_from_settlement

    seat = table_from_settlement(result, rules=rules).seats[0]
    assert seat.natural == "three-flushes"
    assert seat.natural_rows is not None
    suits = [{str(card)[-1] for card in row} for row in seat.natural_rows]
    assert all(len(s) == 1 for s in suits), suits
    assert sorted(map(int, sum(seat.natural_rows, ()))) == sorted(
        int(c) for c in capsa.parse_cards(shown.replace("/", ""))
    )


def test_cards_are_named_for_screen_readers_in_the_pages_language() -> None:
    table = examples.WORKED[2].settle_table()
    for lang, ace, ten in (
        ("en", "ace of spades", "ten of hearts"),
        ("id", "as sekop", "sepuluh hati"),
    ):
        page = render.page_html(table, lang)
        labels = dict(re.findall(r'data-card="(\w\w)"[^>]*aria-label="([^"]+)"', page))
        assert len(labels) == 52
        assert labels["As"] == ace and labels["Th"] == ten
        assert len(set(labels.values())) == 52


def test_a_players_page_says_each_rule_and_an_operators_page_cites_it() -> None:
    """Each payment names its rule; the page says each rule once, in one
    sentence; only an operator's page (what ``capsa render`` writes) cites
    docs/rules.md."""
    table = dataclasses.replace(examples.WORKED[3].settle_table(), title=None)
    w = words("en")
    player = render.page_html(table)
    assert "docs/rules.md" not in player and "<cite" not in player
    assert player.count('<a href="#rule-rows">Rows</a>') == len(table.pairs)
    for section in ("rows", "sweep_all"):
        assert player.count(f'id="rule-{section}"') == 1
        assert w[f"rule_says.{section}"] in player
    operator = render.page_html(table, operator=True)
    assert operator.count('<cite class="docs">') == 2
    assert "docs/rules.md, Settlement, “Step 4: rows”" in operator


def test_a_payment_says_who_pays_whom_then_the_figures() -> None:
    table = examples.OUTCOMES[3].settle_table()
    (_, text), *_ = _sentences(table)
    pair = table.pairs[0]
    payer, payee = (1, 0) if pair.points > 0 else (0, 1)
    assert text.startswith(
        f"Seat {payer} pays Seat {payee}: {abs(pair.points)} points, "
        f"{abs(pair.money):,} at a stake of 25."
    )
    (_, text), *_ = _sentences(table, "id")
    assert text.startswith(f"Pemain {payer} membayar Pemain {payee}: {abs(pair.points)} poin, ")


def test_a_word_of_a_name_or_an_id_is_kept_whole() -> None:
    table = dataclasses.replace(
        examples.WORKED[2].settle_table(), title=None, round_id="t-7/r-1 of table-7"
    )
    page = render.page_html(table)
    assert (
        '<h1>Showdown: Round <span class="w">t-7/r-1</span> of <span class="w">table-7</span>'
        in page
    )
    assert '<bdi class="round-id" tabindex="0">' in page
