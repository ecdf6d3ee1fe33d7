"""Showdown pages in a real browser (Debian's chromium and chromium-driver,
through Selenium): tables of every outcome kind (rows, scoop, sweep-all,
natural against natural, foul, surrender, rake) and a round record, each
at desktop (1280 px) and phone (390 px) width (the index of rounds has its
own tests, tests/test_render_index.py). From the
DOM: every seat's thirteen cards are drawn once, in its rows; every payment
sentence shows the settlement's figures; nothing sticks out of the page and
no two boxes that sit side by side overlap. A full-page screenshot of each
goes to ``$CAPSA_ARTIFACTS`` (default ``target/screenshots``), which CI
keeps.

Without chromium these tests are skipped, except under CI (``CI`` set),
where they fail: there they must run.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_pages import at_width, chromium, layout_problems, screenshot

import capsa
from capsa import render
from capsa.cli import main
from capsa.render import examples
from capsa.render._text import Speaker
from capsa.render._words import words

WIDTHS = {"desktop": 1280, "phone": 390}


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium() as driver:
        yield driver


# ------------------------------------------------------------------ pages


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
    example = examples.WORKED[2]
    rules = capsa.Rules.preset(example.rules)
    seats = [capsa.Arrangement.parse(t) for t in example.seats]
    names = ["W" * 60, "a very long seat name that goes on " * 3, "<b>c</b>", "Dewi"]
    table = render.table_from_settlement(
        capsa.settle(seats, rules, 123_456_789),
        rules=rules,
        seat_names=names,
        round_id="<script>alert(1)</script>/" + "9" * 150,
    )
    path = folder / "long-names.html"
    path.write_text(render.page_html(table, "id"), encoding="utf-8")
    pages.append(("long-names.id", path, table, "id"))
    return pages


@pytest.fixture(scope="module")
def pages(tmp_path_factory: pytest.TempPathFactory) -> list[tuple[str, Path, Any, str]]:
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
    return found


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
const colours = {};
for (const card of document.querySelectorAll('svg.card')) {
  colours[card.dataset.card] = getComputedStyle(card).color;
}
return [seats, colours];
"""

_PAYMENTS = """
return [...document.querySelectorAll('li.payment')].map((li) => ({
  text: li.textContent.replace(/\\s+/g, ' ').trim(),
  pair: li.dataset.pair, points: li.dataset.points, money: li.dataset.money,
  payer: li.dataset.payer === undefined ? null : li.dataset.payer,
}));
"""


def _check_cards(driver: Any, table: render.Table) -> None:
    seats, colours = driver.execute_script(_CARDS)
    drawn = [card for rows in seats.values() for _, cards in rows for card in cards]
    assert len(drawn) == len(set(drawn)) == 13 * len(table.seats), "a card drawn twice or missing"
    for seat in table.seats:
        rows = seats[str(seat.index)]
        assert [name for name, _ in rows] == ["top", "middle", "bottom"]
        assert [cards for _, cards in rows] == [[str(c) for c in r.cards] for r in seat.rows]
    red = {colours[c] for c in drawn if c[-1] in "hd"}
    black = {colours[c] for c in drawn if c[-1] in "sc"}
    assert len(red) == len(black) == 1 and red != black, (red, black)


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


def test_every_page_in_the_browser(browser: Any, pages: list[tuple[str, Path, Any, str]]) -> None:
    """Each page at each width: its cards, its payments, its layout, a screenshot."""
    problems = []
    for width_name, width in WIDTHS.items():
        at_width(browser, width)
        for name, path, table, lang in pages:
            browser.get(path.as_uri())
            assert browser.execute_script("return document.readyState") == "complete"
            if table is not None:
                _check_cards(browser, table)
                _check_payments(browser, table, lang)
            found = layout_problems(browser, "main", _SIDE_BY_SIDE)
            found += browser.execute_script(_CARD_BOXES)
            problems += [f"{name} at {width}px: {p}" for p in found]
            screenshot(browser, f"{name}-{width_name}")
    assert not problems, "\n".join(problems[:40])


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
