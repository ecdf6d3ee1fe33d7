"""Showdown pages in a real browser (Debian's chromium and chromium-driver,
through Selenium, with the harness of ``browser_pages``): tables of every
outcome kind (rows, scoop, sweep-all, natural against natural, foul,
surrender, rake) in both languages, a table of long and hostile names, a
table of eight seats with second copies and jokers, round
records as ``capsa render`` draws them (auto-arranged seats, players' names,
table, time, notes and a chain), each at the four
widths of a phone, a tablet and a desktop. From the DOM: every seat's
thirteen cards are drawn once, in its rows; every payment sentence shows the
settlement's figures; a record page shows each fact of its record as the
record holds it; nothing sticks out of the page, no two boxes that sit side
by side overlap, no text is under 12 px and no word is split over two lines;
axe-core finds no serious or critical violation. A full-page screenshot of
each goes to ``$CAPSA_ARTIFACTS`` (default ``target/screenshots``), which CI
keeps.

Without chromium these tests are skipped, except under CI (``CI`` set),
where they fail: there they must run.
"""

from __future__ import annotations

import base64
import hashlib
import html
import json
import re
from pathlib import Path
from typing import Any

import pytest
from browser_pages import (
    WIDTHS,
    at_width,
    axe_problems,
    broken_word_problems,
    clipping_problems,
    font_problems,
    layout_problems,
    screenshot,
)

import capsa
from capsa import render
from capsa.cli import main
from capsa.records.times import played_at_text
from capsa.render import examples
from capsa.render._cards import card_name
from capsa.render._story import played_at_shown
from capsa.render._text import Speaker
from capsa.render._words import words
from render.test_decks import eight_seat_record
from render.test_terms import house_table

# axe-core runs once per page at this width (a phone's)
AXE_WIDTH = 360


# ------------------------------------------------------------------ pages


def long_names_table() -> render.Table:
    """A table of long and hostile seat names, a hostile round id and
    figures in the millions."""
    example = examples.WORKED[2]
    rules = capsa.Rules.preset(example.rules)
    seats = [capsa.Arrangement.parse(t) for t in example.seats]
    names = ["W" * 60, "a very long seat name that goes on " * 3, "<b>c</b>", "Dewi"]
    return render.table_from_settlement(
        capsa.settle(seats, rules, 123_456_789),
        rules=rules,
        seat_names=names,
        round_id="<script>alert(1)</script>/" + "9" * 150,
    )


def _pages(folder: Path) -> list[tuple[str, Path, render.Table | None, str]]:
    """(name, file, table, language) of every page the browser checks."""
    pages: list[tuple[str, Path, render.Table | None, str]] = []
    for example in examples.WORKED + examples.OUTCOMES:
        table = example.settle_table()
        for lang in example.langs:
            path = folder / f"{example.slug}.{lang}.html"
            path.write_text(render.page_html(table, lang), encoding="utf-8")
            pages.append((f"{example.slug}.{lang}", path, table, lang))
    # long names and a hostile round id must wrap, not widen the page
    table = long_names_table()
    path = folder / "long-names.html"
    path.write_text(render.page_html(table, "id"), encoding="utf-8")
    pages.append(("long-names.id", path, table, "id"))
    # a banker game with the horse card, a stake multiplier and an unplayed pair;
    # eight seats of two decks and both jokers
    house, eight = house_table(), render.table_from_record(eight_seat_record())
    for lang in ("en", "id"):
        for name, table in (("house", house), ("eight-seats", eight)):
            path = folder / f"{name}.{lang}.html"
            path.write_text(render.page_html(table, lang), encoding="utf-8")
            pages.append((f"{name}.{lang}", path, table, lang))
    return pages


@pytest.fixture(scope="module")
def pages(
    tmp_path_factory: pytest.TempPathFactory, stories: dict[str, dict[str, Any]]
) -> list[tuple[str, Path, Any, str]]:
    folder = tmp_path_factory.mktemp("pages")
    found = _pages(folder)
    # a round record's page, as capsa render writes it beside an index
    record: dict[str, Any] = {"round_id": "table-7/round-12", "rules": "capsa-susun"}
    seats = [capsa.Arrangement.parse(t) for t in examples.WORKED[1].seats]
    record["settlement"] = capsa.settle(seats, capsa.Rules(), 100).to_dict()
    lines = [
        json.dumps({"id": "r1", "seats": list(examples.WORKED[3].seats), "stakes": 100}),
        '{"id": "r2", "seats": ["As Ks"]}',
        json.dumps(record),
    ]
    source = folder / "rounds.jsonl"
    source.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert main(["render", str(source), "-o", str(folder / "index.html")]) == 0
    drawn = render.table_from_record(record, verify=False)
    found.append(("record", folder / "index-rounds" / "round-3.html", drawn, "en"))
    for name, story in stories.items():
        lang = name.rsplit(".", 1)[1]
        source = folder / f"{name}.json"
        source.write_text(json.dumps(story), encoding="utf-8")
        path = folder / f"{name}.html"
        assert main(["render", str(source), "-o", str(path), "--lang", lang]) == 0
        found.append((name, path, render.table_from_record(story, verify=False), lang))
    return found


def _story_round(previous: str | None, meta: dict[str, Any], seed: bytes) -> dict[str, Any]:
    """A record of a table of four players with names (one of them without),
    seats 0 and 3 arranged by the server at the close."""
    rnd = capsa.Round(
        capsa.Rules(),
        4,
        round_id=f"table-7/round-{seed.decode()}",
        table_id="table-7",
        players=[
            {"id": "p-1", "name": "Anastasia Wijayakusuma"},
            {"id": "p-2", "name": None},
            {"id": "p-3", "name": "Budi <b>B.</b>"},
            {"id": "seat-3", "name": None},
        ],
        previous_digest=previous,
        meta=meta,
        server_seed=hashlib.sha256(seed).digest(),
    )
    hands = rnd.deal()
    for seat in (1, 2):
        rnd.submit(seat, capsa.Arrangement.from_ids(capsa.splits(hands[seat], capsa.Rules())[-1]))
    rnd.close()
    rnd.settle()
    return rnd.record()


@pytest.fixture(scope="module")
def stories() -> dict[str, dict[str, Any]]:
    """Two rounds of one table's chain, the first drawn in English and the
    second, linked to it, in Indonesian; notes with markup and a long text."""
    first = _story_round(None, {"played_at": 1_800_000_000_000, "dealer": "<b>Budi</b>"}, b"1")
    second = _story_round(
        first["digest"],
        {"played_at": "2027-01-15T08:03:10.250Z", "note": " ".join(["a long note that wraps"] * 6)},
        b"2",
    )
    return {"story-first.en": first, "story-linked.id": second}


# ------------------------------------------------------------------ checks

_SIDE_BY_SIDE = (
    "main", "header", "section", ".seats", ".seat", ".seat-head", ".row", ".cards",
    ".row-info", ".seat-totals", ".payments", "tr", "td", ".checks",
)  # fmt: skip

# every card face drawn at a readable size, inside its seat
_CARD_BOXES = """
const problems = [];
for (const card of document.querySelectorAll('.seat svg.card')) {
  const r = card.getBoundingClientRect(), s = card.closest('.seat').getBoundingClientRect();
  const name = `svg.card[${card.dataset.card}]`;
  if (r.width < 30 || r.height < 40) problems.push(`${name} is drawn ${r.width}x${r.height}`);
  if (r.left < s.left || r.right > s.right || r.top < s.top || r.bottom > s.bottom) {
    problems.push(`${name} is outside its seat`);
  }
}
return problems;
"""

_CARDS = """
const seats = {};
for (const seat of document.querySelectorAll('article.seat')) {
  seats[seat.dataset.seat] = [...seat.querySelectorAll('.row')].map(
    (row) => [row.dataset.row, [...row.querySelectorAll('svg.card')].map((c) => c.dataset.card)]);
}
const colours = {}, labels = {};
for (const card of document.querySelectorAll('svg.card')) {
  colours[card.dataset.card] = getComputedStyle(card).color;
  labels[card.dataset.card] = card.getAttribute('aria-label');
}
return [seats, colours, labels];
"""

_PAYMENTS = """
return [...document.querySelectorAll('li.payment')].map((li) => ({
  text: li.textContent.replace(/\\s+/g, ' ').trim(),
  pair: li.dataset.pair, points: li.dataset.points, money: li.dataset.money,
  payer: li.dataset.payer === undefined ? null : li.dataset.payer,
}));
"""


def _check_cards(driver: Any, table: render.Table, lang: str) -> None:
    seats, colours, labels = driver.execute_script(_CARDS)
    drawn = [card for rows in seats.values() for _, cards in rows for card in cards]
    assert len(drawn) == len(set(drawn)) == 13 * len(table.seats), "a card drawn twice or missing"
    for seat in table.seats:
        rows = seats[str(seat.index)]
        assert [name for name, _ in rows] == ["top", "middle", "bottom"]
        assert [cards for _, cards in rows] == [[str(c) for c in r.cards] for r in seat.rows]
    red = {colours[c] for c in drawn if c[-1] in "hd"}
    black = {colours[c] for c in drawn if c[-1] in "sc"}
    assert len(red) == len(black) == 1 and red != black, (red, black)
    # a screen reader says each card in the page's language
    cards = [card for seat in table.seats for row in seat.rows for card in row.cards]
    assert {str(c): html.unescape(card_name(c, lang)) for c in cards} == labels


_TOTALS = """
const text = (e) => e.textContent.trim();
return [...document.querySelectorAll('article.seat')].map((seat) => [
  [...seat.querySelectorAll('.seat-totals dd')].map(text),
  [...document.querySelectorAll(`.totals tr[data-seat="${seat.dataset.seat}"] td`)].map(text),
]);
"""


def _check_totals(driver: Any, table: render.Table, lang: str) -> None:
    """Each seat's points, money, rake and net, in its box and in the
    table of totals, are the settlement's."""
    w = words(lang)
    shown = driver.execute_script(_TOTALS)
    want = [
        [w.signed(v) for v in (seat.points, seat.money, -seat.rake, seat.net)]
        for seat in table.seats
    ]
    assert shown == [[figures, figures] for figures in want]


def _check_payments(driver: Any, table: render.Table, lang: str) -> None:
    shown = driver.execute_script(_PAYMENTS)
    speak = Speaker(words(lang), table, markup=False)
    w = words(lang)
    paid = render.payments(table)
    assert len(shown) == len(paid) == len(table.pairs)
    for item, payment in zip(shown, paid, strict=True):
        pair = payment.pair
        # the sentence as the page's source holds it (escaped), as a reader sees it
        written = f"{speak.sentence(payment)} {speak.sections(payment)}"
        want = re.sub(r"\s+", " ", html.unescape(written))
        assert item["text"] == want
        assert (item["pair"], item["points"], item["money"]) == (
            f"{pair.i}-{pair.j}",
            str(abs(pair.points)),
            str(abs(pair.money)),
        )
        if pair.points:
            assert w.points(pair.points) in item["text"]
            assert w.number(abs(pair.money)) in item["text"]
            assert item["payer"] == str(pair.j if pair.points > 0 else pair.i)


# where no word may be split over two lines: headings, names, ids, labels
# (a sentence may wrap after a hyphen, as print does)
_WORDS = "h1, h2, h3, th, dt, bdi, .badge, .digest, .row-name, .cat, .payment .head"


def _page_problems(driver: Any, table: render.Table | None, lang: str) -> list[str]:
    if table is not None:
        _check_cards(driver, table, lang)
        _check_payments(driver, table, lang)
        _check_totals(driver, table, lang)
    found = layout_problems(driver, "main", _SIDE_BY_SIDE)
    found += clipping_problems(driver)
    found += driver.execute_script(_CARD_BOXES)
    found += font_problems(driver)
    found += broken_word_problems(driver, _WORDS)
    return found


@pytest.mark.parametrize("width_name", list(WIDTHS))
def test_every_page_in_the_browser(
    browser: Any, pages: list[tuple[str, Path, Any, str]], width_name: str
) -> None:
    """Each page at each width: its cards, its payments, its layout, its
    fonts and words, a screenshot."""
    width = WIDTHS[width_name]
    at_width(browser, width)
    problems = []
    for name, path, table, lang in pages:
        browser.get(path.as_uri())
        assert browser.execute_script("return document.readyState") == "complete"
        found = _page_problems(browser, table, lang)
        problems += [f"{name} at {width}px: {p}" for p in found]
        screenshot(browser, f"{name}-{width_name}")
    assert not problems, "\n".join(problems[:40])


# every page the ``pages`` fixture draws, by name, known before it draws them
# so that each page's axe-core run is a test of its own
PAGE_NAMES = [
    *(f"{e.slug}.{lang}" for e in examples.WORKED + examples.OUTCOMES for lang in e.langs),
    "long-names.id",
    "house.en",
    "eight-seats.en",
    "house.id",
    "eight-seats.id",
    "record",
    "story-first.en",
    "story-linked.id",
]


def test_the_pages_are_the_ones_named(pages: list[tuple[str, Path, Any, str]]) -> None:
    assert [name for name, _, _, _ in pages] == PAGE_NAMES


@pytest.mark.parametrize("name", PAGE_NAMES)
def test_axe_finds_no_serious_violation(
    browser: Any, pages: list[tuple[str, Path, Any, str]], name: str
) -> None:
    """axe-core on each page at a phone's width."""
    at_width(browser, AXE_WIDTH)
    path = {n: p for n, p, _, _ in pages}[name]
    browser.get(path.as_uri())
    assert axe_problems(browser) == []


def test_the_record_page_shows_its_verification(
    browser: Any, pages: list[tuple[str, Path, Any, str]]
) -> None:
    path = dict((n, p) for n, p, _, _ in pages)["record"]
    browser.get(path.as_uri())
    checks = browser.execute_script(
        "return [...document.querySelectorAll('li.check')]"
        ".map(c => [c.dataset.check, c.dataset.status])"
    )
    expected = "ok" if hasattr(capsa, "replay") else "skip"
    assert [c for c, _ in checks] == ["commitment", "replay"]
    assert {s for _, s in checks} <= {expected, "ok", "fail"}


def test_hostile_text_is_shown_as_text(
    browser: Any, pages: list[tuple[str, Path, Any, str]]
) -> None:
    path = dict((n, p) for n, p, _, _ in pages)["long-names.id"]
    browser.get(path.as_uri())
    assert browser.execute_script("return document.querySelectorAll('script, b').length") == 0
    shown = browser.execute_script("return document.querySelector('.round-id').textContent")
    assert shown.startswith("<script>alert(1)</script>/")
    names = browser.execute_script(
        "return [...document.querySelectorAll('article.seat h3')].map(h => h.textContent)"
    )
    assert names[2] == "<b>c</b>"


_STORY = """
const text = (e) => e ? e.textContent.replace(/\\s+/g, ' ').trim() : null;
const seats = [...document.querySelectorAll('article.seat')].map((seat) => ({
  name: text(seat.querySelector('h3')),
  auto: text(seat.querySelector('.badge.auto')),
  player: text(seat.querySelector('.player-id bdi')),
}));
const time = document.querySelector('time.played-at');
return {
  seats,
  table: text(document.querySelector('.facts .table-id')),
  time: time && [time.getAttribute('datetime'), text(time)],
  notes: [...document.querySelectorAll('.notes-list > div')].map(
    (d) => [text(d.querySelector('dt')), text(d.querySelector('dd'))]),
  chain: [...document.querySelectorAll('li.chain[data-chain]')].map((li) => li.dataset.chain),
  previous: text(document.querySelector('.previous-digest')),
  digest: text(document.querySelector('.this-digest')),
  checks: [...document.querySelectorAll('li.check')].map((c) => c.dataset.status),
  markup: document.querySelectorAll('main b, main script').length,
  links: [...document.querySelectorAll('.payment .rule a')].map(
    (a) => !!document.getElementById(a.getAttribute('href').slice(1))),
  docs: document.querySelectorAll('.rules-list cite.docs').length,
  rules: document.querySelectorAll('.rules-list > div').length,
};
"""


def test_a_record_page_tells_the_records_story(
    browser: Any, pages: list[tuple[str, Path, Any, str]], stories: dict[str, dict[str, Any]]
) -> None:
    """Each fact of a record as its page shows it (at a phone's width):
    the seats arranged by the server, the players, the table, the time, the
    notes as text, the chain (first, then linked) and the checks; the rules
    of its payments, with where docs/rules.md states them (an operator's
    page)."""
    paths = {n: p for n, p, _, _ in pages}
    at_width(browser, WIDTHS["phone-390"])
    for name, record in stories.items():
        w = words(name.rsplit(".", 1)[1])
        browser.get(paths[name].as_uri())
        shown = browser.execute_script(_STORY)
        autos = [seat.get("auto") is True for seat in record["seats"]]
        assert autos == [True, False, False, True]
        assert [s["auto"] for s in shown["seats"]] == [
            html.unescape(w["badge.auto"]) if auto else None for auto in autos
        ]
        players = [seat["player"] for seat in record["seats"]]
        labels = [p["name"] or (p["id"] if p["id"] != f"seat-{k}" else None) for k, p in
                  enumerate(players)]  # fmt: skip
        assert [s["name"] for s in shown["seats"]] == [
            label or html.unescape(w.fill("seat.name", v=str(k))) for k, label in enumerate(labels)
        ]
        assert [s["player"] for s in shown["seats"]] == ["p-1", None, "p-3", None]
        assert shown["table"] == record["table_id"]
        played = played_at_text(record["meta"])
        assert played is not None and shown["time"] == [played, played_at_shown(played)]
        assert shown["notes"] == [
            [key, value if isinstance(value, str) else json.dumps(value)]
            for key, value in record["meta"].items()
        ]
        assert shown["markup"] == 0
        linked = record.get("previous_digest") is not None
        assert shown["chain"] == ["linked" if linked else "first"]
        assert shown["previous"] == record.get("previous_digest")
        assert shown["digest"] == record["digest"]
        assert shown["checks"] == ["ok", "ok"]
        assert shown["links"] and all(shown["links"])
        assert shown["docs"] == shown["rules"] > 0


def test_a_players_page_names_its_rules_without_the_docs(browser: Any) -> None:
    """``Settlement.to_html()``, a player's page: each rule by name and in
    one sentence, without citing docs/rules.md."""
    example = examples.WORKED[3]
    rules = capsa.Rules.preset(example.rules)
    seats = [capsa.Arrangement.parse(t) for t in example.seats]
    page = capsa.settle(seats, rules, 100).to_html(rules=rules)
    browser.get("data:text/html;charset=utf-8;base64," + base64.b64encode(page.encode()).decode())
    shown = browser.execute_script(_STORY)
    assert shown["docs"] == 0 and shown["rules"] == 2 and all(shown["links"])
    assert "docs/rules.md" not in browser.execute_script("return document.body.textContent")
