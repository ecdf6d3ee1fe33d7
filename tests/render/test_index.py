"""The index of rounds ``capsa render`` writes for many rounds: its HTML, and
the page in a real browser (Debian's chromium through Selenium, at every
width of the harness).

The rounds: records of one table with players, times, seats the server
arranged at the close and a chained verification, a record changed after it
was written (its verification fails), one with a hostile table id, rounds
read as ``capsa settle`` input of every outcome kind (their record cells
empty), and a round that cannot be settled. In the browser, from the DOM:
nothing sticks out, no text under 12 px, no header or id broken inside a
word, no serious or critical axe-core violation (at a phone's width and a
desktop's: the two layouts), every row's pot, rake and
nets equal to its settlement's, sorting by a header and filtering by typed
words, and with scripts off every row there in input order.
"""

from __future__ import annotations

import hashlib
import io
import json
import re
import sys
from dataclasses import dataclass
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
from capsa import Arrangement, Round, Rules, render, splits
from capsa.cli import main
from capsa.render import examples
from capsa.render._index import CARD_WIDTH_MAX
from capsa.render._words import LANGUAGES, words

_TABLE = "t-seq"
_PLAYERS = [{"id": "p-1", "name": "Anastasia"}, "p-2", "p-3", {"id": "p-4", "name": "Budi"}]
_HOSTILE_TABLE = "<script>alert(1)</script>"
_LONG_ROUND = "<b>t-seq</b>/" + "9" * 150


@dataclass(frozen=True)
class Expected:
    """What a row must show: the round's settlement's figures and its story."""

    round_id: str
    pot: int
    rake: int
    nets: tuple[int, ...]
    table_id: str | None = None
    auto: int = 0
    verified: str = ""


def _records() -> list[dict[str, Any]]:
    """Four chained rounds of one table: the server arranges the seats that
    did not submit (all four in the second round)."""
    out: list[dict[str, Any]] = []
    previous = None
    for k in range(4):
        rnd = Round(
            Rules(),
            4,
            round_id=f"{_TABLE}/round-{k + 1}",
            table_id=_TABLE,
            players=_PLAYERS,
            previous_digest=previous,
            meta={"played_at": f"2026-12-01T20:{10 * (3 - k):02d}:00Z"},
            server_seed=hashlib.sha256(b"index %d" % k).digest(),
        )
        hands = rnd.deal()
        for seat in range(3 if k != 1 else 0):
            rnd.submit(seat, Arrangement.from_ids(splits(hands[seat], Rules())[-1]))
        rnd.close()
        rnd.settle()
        previous = rnd.digest
        out.append(rnd.record())
    return out


def _expected(settlement: dict[str, Any], round_id: str, **story: Any) -> Expected:
    seats = settlement["seats"]
    return Expected(
        round_id,
        sum(s["money"] for s in seats if s["money"] > 0),
        sum(s["rake"] for s in seats),
        tuple(s["net"] for s in seats),
        **story,
    )


def _write_rounds(folder: Path) -> tuple[Path, list[Expected | None]]:
    """The input file and, per line, what its row shows (None: an error row)."""
    lines: list[str] = []
    expected: list[Expected | None] = []
    records = _records()
    changed = json.loads(json.dumps(records[2]))
    changed["round_id"] = f"{_TABLE}/round-changed"
    hostile = json.loads(json.dumps(records[3]))
    hostile["table_id"] = _HOSTILE_TABLE
    hostile["round_id"] = _LONG_ROUND
    for record in [*records, changed, hostile]:
        ok = record is not changed and record is not hostile
        auto = sum(seat.get("auto") is True for seat in record["seats"])
        story = {"table_id": record["table_id"], "auto": auto, "verified": "ok" if ok else "fail"}
        expected.append(_expected(record["settlement"], record["round_id"], **story))
        lines.append(json.dumps(record))
    for example in examples.WORKED + examples.OUTCOMES:
        seats = [
            {**dict(zip(("top", "middle", "bottom"), text.split(" / "), strict=True)),
             "surrender": k in example.surrender}
            for k, text in enumerate(example.seats)
        ]  # fmt: skip
        round_value = {"id": example.slug, "rules": example.rules, "seats": seats}
        if example.stake is not None:
            round_value["stakes"] = example.stake
        lines.append(json.dumps(round_value))
        settled = capsa.settle(
            [
                capsa.Seat(Arrangement.parse(text), surrender=k in example.surrender)
                for k, text in enumerate(example.seats)
            ],
            Rules.preset(example.rules),
            example.stake,
        )
        expected.append(_expected(settled.to_dict(), example.slug))
    # a round without an id: its link says "open"
    lines.append(json.dumps({"seats": list(examples.WORKED[0].seats), "rules": "pagat"}))
    rules = Rules.preset("pagat")
    settled = capsa.settle([Arrangement.parse(t) for t in examples.WORKED[0].seats], rules)
    expected.append(_expected(settled.to_dict(), ""))
    lines.append('{"id": "bad/round-1", "seats": ["As Ks"]}')
    expected.append(None)
    source = folder / "rounds.jsonl"
    source.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return source, expected


@pytest.fixture(scope="module")
def index_pages(
    tmp_path_factory: pytest.TempPathFactory,
) -> tuple[dict[str, Path], list[Expected | None]]:
    folder = tmp_path_factory.mktemp("index")
    source, expected = _write_rounds(folder)
    pages = {}
    for lang in LANGUAGES:
        out = folder / f"index-{lang}.html"
        assert main(["render", str(source), "-o", str(out), "--lang", lang]) == 0
        pages[lang] = out
    return pages, expected


# ------------------------------------------------------------------ the HTML


def test_the_index_says_what_it_holds_and_every_row_is_in_the_html(
    index_pages: tuple[dict[str, Path], list[Expected | None]],
) -> None:
    pages, expected = index_pages
    page = pages["en"].read_text(encoding="utf-8")
    assert "<title>Rounds from rounds.jsonl</title>" in page
    assert '<h1 id="index-heading">Rounds from rounds.jsonl</h1>' in page
    assert "<title>Ronde dari rounds.jsonl</title>" in pages["id"].read_text(encoding="utf-8")
    rows = re.findall(r'<tr class="(round|error)" data-number="(\d+)"', page)
    assert rows == [
        ("error" if e is None else "round", str(k)) for k, e in enumerate(expected, start=1)
    ]
    # the hostile table id is text; the only script is the page's own
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page and page.count("<script>") == 1
    first = expected[0]
    assert first is not None
    row = re.search(r'<tr class="round" data-number="1"[^\n]*', page)
    assert row is not None
    shown = "<span>2026-12-01</span> <span>20:30:00Z</span>"
    assert f'<time datetime="2026-12-01T20:30:00Z">{shown}</time>' in row[0]
    assert f'data-pot="{first.pot}" data-rake="{first.rake}"' in row[0]
    assert '<td class="auto"><bdi>Budi</bdi></td>' in row[0]
    assert 'data-outcome="scoop"' in row[0]  # sorted by the words shown
    assert 'class="verified ok"' in row[0] and "Anastasia" in row[0]
    # each record's place in its table's chain: the changed and hostile
    # copies keep their originals' links
    chain = re.findall(r'<span class="chain">([^<]*)</span>', page)
    assert chain == ["first of its chain"] + [f"follows #{k}" for k in (1, 2, 3, 2, 3)]


def test_a_record_after_one_not_listed_says_so() -> None:
    records = _records()
    tables = [render.table_from_record(r, verify=False) for r in records]
    entries = [render.IndexEntry.settled(k, k, None, t) for k, t in enumerate(tables, start=1)]
    page = render.index_html([entries[1], entries[3], entries[2]], "id")
    chain = re.findall(r'<span class="chain">([^<]*)</span>', page)
    assert chain == ["menyusul ronde yang tidak tercantum"] * 2 + ["menyusul #2"]


def test_a_round_that_is_no_record_leaves_the_record_cells_empty() -> None:
    table = examples.OUTCOMES[0].settle_table()
    entry = render.IndexEntry.settled(1, 1, "r/round-1.html", table)
    assert (entry.table_id, entry.played_at, entry.auto, entry.verified) == (None, None, (), None)
    assert entry.pot == sum(s.money for s in table.seats if s.money > 0)
    assert entry.rake == sum(s.rake for s in table.seats)
    page = render.index_html([entry])
    row = page[page.index('<tr class="round"') : page.index("</tr>", page.index("<tbody>"))]
    link = '<a href="r/round-1.html">open</a>'
    assert f'<td class="num">1</td><td>{link}</td><td></td><td></td>' in row
    assert '<td class="auto"></td><td></td><td class="num">1</td>' in row
    assert 'data-verified=""' in row


def test_the_headers_sort_and_the_script_fetches_nothing() -> None:
    for lang in LANGUAGES:
        w = words(lang)
        page = render.index_html([], lang)
        head = page[page.index("<thead>") : page.index("</thead>")]
        buttons = re.findall(
            r'<th scope="col"[^>]*data-key="(\w+)"[^>]*><button type="button"', head
        )
        assert buttons == [
            "number", "round", "time", "table", "outcome", "pot", "rake", "auto", "verified",
            "line",
        ]  # fmt: skip
        assert head.count("aria-sort=") == 1 and 'aria-sort="ascending"' in head
        for key in ("players", "time", "table", "pot", "rake", "auto", "verified"):
            assert w[f"index.{key}"] in head
        assert "<title>" + w["index.title"] + "</title>" in page
        assert w["index.no_rounds"] in page
        script = page[page.index("<script>") :]
        for fetching in ("http", "fetch(", "XMLHttpRequest", "import", "src=", "url("):
            assert fetching not in script and fetching not in page.replace("http-equiv", "")
        # the filter shows only with a script; its styles are the index's own
        assert '<div class="index-tools" hidden>' in page
        assert ".index-box{" in page
        assert ".index-box{" not in render.page_html(examples.OUTCOMES[0].settle_table())


def test_the_index_of_standard_input_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    text = "\n".join(json.dumps({"id": e.slug, "seats": list(e.seats)}) for e in examples.WORKED)
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(text.encode())))
    out = tmp_path / "many.html"
    assert main(["render", "-o", str(out), "--lang", "id"]) == 0
    assert "<title>Ronde dari masukan standar</title>" in out.read_text(encoding="utf-8")
    assert capsys.readouterr().out == ""


# ------------------------------------------------------------------ in the browser


_ROWS = """
return [...document.querySelectorAll('table.index tbody tr')].map((r) => ({
  number: r.dataset.number, kind: r.className, hidden: r.hidden,
  round: r.cells[1].textContent, table: r.cells[3].textContent,
  pot: r.querySelector('.pot')?.textContent ?? null,
  rake: r.querySelector('.rake')?.textContent ?? null,
  nets: [...r.querySelectorAll('.net-item')].map((n) => n.lastChild.textContent.trim()),
  auto: r.querySelectorAll('.auto bdi').length,
  verified: r.dataset.verified ?? '',
}));
"""

_SORTS = """
return [...document.querySelectorAll('table.index th')].map((h) => h.getAttribute('aria-sort'));
"""


def _click(driver: Any, key: str) -> list[str | None]:
    """Click a header's button as a user does (scrolling the table to it
    first, out from under the sticky round column); each header's aria-sort
    after."""
    button = driver.find_element("css selector", f'table.index th[data-key="{key}"] button')
    driver.execute_script(
        "arguments[0].scrollIntoView({block: 'nearest', inline: 'nearest'})", button
    )
    button.click()
    sorts: list[str | None] = driver.execute_script(_SORTS)
    return sorts


_TYPE = """
const input = document.getElementById('index-filter');
input.value = arguments[0];
input.dispatchEvent(new Event('input', {bubbles: true}));
return document.getElementById('index-count').textContent;
"""

_SIDE_BY_SIDE = ("main", "header", "section", ".index-tools", "tr", "td")


def _check_figures(rows: list[dict[str, Any]], expected: list[Expected | None], lang: str) -> None:
    w = words(lang)
    assert [row["number"] for row in rows] == [str(k) for k in range(1, len(expected) + 1)]
    for row, want in zip(rows, expected, strict=True):
        if want is None:
            assert row["kind"] == "error" and row["pot"] is None
            continue
        assert row["round"] == (want.round_id or w["index.open"])
        assert (row["pot"], row["rake"]) == (w.number(want.pot), w.number(want.rake))
        assert row["nets"] == [w.signed(net) for net in want.nets]
        assert row["table"] == (want.table_id or "")
        assert (row["auto"], row["verified"]) == (want.auto, want.verified)


_CARD = """
const row = document.querySelector('table.index tr.round');
return [getComputedStyle(row).display,
        getComputedStyle(row.querySelector('.pot'), '::before').content];
"""


def _check_cards(driver: Any, width: int, lang: str) -> None:
    """On a phone or a tablet each round is a card whose cells say what they hold."""
    display, label = driver.execute_script(_CARD)
    if width <= CARD_WIDTH_MAX:
        assert display == "block" and words(lang)["index.pot"] in label, (display, label)
    else:
        assert display == "table-row" and label in ("none", "normal"), (display, label)


def _check_sorting(driver: Any, expected: list[Expected | None]) -> None:
    keys = _click(driver, "pot")
    assert keys.count("ascending") == 1 and "descending" not in keys
    pots = [r["pot"] for r in driver.execute_script(_ROWS)]
    want = sorted(e.pot for e in expected if e is not None)
    assert [int(p.replace(",", "").replace(".", "")) for p in pots if p is not None] == want
    assert pots[-1] is None  # the error row has no pot: last
    _click(driver, "pot")
    pots = [r["pot"] for r in driver.execute_script(_ROWS)]
    assert [int(p.replace(",", "").replace(".", "")) for p in pots if p is not None] == want[::-1]
    # by time: the records were played in reverse order of their rounds, the
    # changed and hostile copies at their originals' times; ties in input order
    sorts = _click(driver, "time")
    assert sorts[2] == "ascending" and sorts.count(None) == len(sorts) - 1
    rows = driver.execute_script(_ROWS)
    assert [r["round"] for r in rows[:6]] == [
        f"{_TABLE}/round-{k}" if k else _LONG_ROUND for k in ("4", "", "3", "changed", "2", "1")
    ]
    assert [r["number"] for r in rows[6:]] == [str(k) for k in range(7, len(expected) + 1)]


def _check_filter(driver: Any, expected: list[Expected | None], lang: str) -> None:
    total = len(expected)
    driver.find_element("id", "index-filter").send_keys("Budi")
    shown = driver.find_element("id", "index-count").text
    with_budi = [e.round_id for e in expected if e is not None and e.table_id is not None]
    assert [r["round"] for r in driver.execute_script(_ROWS) if not r["hidden"]] == with_budi
    w = words(lang)
    records = [e for e in expected if e is not None and e.table_id is not None]
    assert shown == w.fill(
        "index.shown",
        v=w.number(len(with_budi)),
        n=w.number(total),
        pot=w.number(sum(e.pot for e in records)),
        rake=w.number(sum(e.rake for e in records)),
    )
    # every round: the pot and rake of them all
    settled = [e for e in expected if e is not None]
    assert driver.execute_script(_TYPE, "") == w.fill(
        "index.shown",
        v=w.number(total),
        n=w.number(total),
        pot=w.number(sum(e.pot for e in settled)),
        rake=w.number(sum(e.rake for e in settled)),
    )
    driver.execute_script(_TYPE, "  round-changed   Anastasia ")
    visible = [r["round"] for r in driver.execute_script(_ROWS) if not r["hidden"]]
    assert visible == [f"{_TABLE}/round-changed"]
    driver.execute_script(_TYPE, "")
    assert not any(r["hidden"] for r in driver.execute_script(_ROWS))


# axe-core at the two layouts: one card per round (a phone) and the table
_AXE_WIDTHS = ("phone-360", "desktop")


@pytest.mark.parametrize("width_name", list(WIDTHS))
def test_the_index_in_the_browser(
    browser: Any, index_pages: tuple[dict[str, Path], list[Expected | None]], width_name: str
) -> None:
    """Each language at each width: layout, fonts, words, figures, sorting,
    filtering; axe at a phone's width and a desktop's."""
    pages, expected = index_pages
    width = WIDTHS[width_name]
    at_width(browser, width)
    problems = []
    for lang, path in pages.items():
        browser.get(path.as_uri())
        found = layout_problems(browser, "main", _SIDE_BY_SIDE)
        found += clipping_problems(browser)
        found += font_problems(browser)
        found += broken_word_problems(
            browser, ".index th, .index bdi, .index time, .index a, .index .mark, h1"
        )
        if width_name in _AXE_WIDTHS:
            found += axe_problems(browser)
        problems += [f"{lang} at {width}px: {p}" for p in found]
        screenshot(browser, f"index-{lang}-{width_name}")
        _check_figures(browser.execute_script(_ROWS), expected, lang)
        _check_cards(browser, width, lang)
        _check_filter(browser, expected, lang)
        _check_sorting(browser, expected)
    assert not problems, "\n".join(problems[:40])


def test_without_scripts_every_row_is_there(
    browser: Any, index_pages: tuple[dict[str, Path], list[Expected | None]]
) -> None:
    pages, expected = index_pages
    at_width(browser, WIDTHS["phone-390"])
    browser.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": True})
    try:
        browser.get(pages["en"].as_uri())
        tools = browser.find_element("css selector", ".index-tools")
        assert not tools.is_displayed()  # the page's script did not run
        buttons = browser.find_elements("css selector", "table.index th button")
        assert buttons and not any(b.is_enabled() for b in buttons)
        # on a phone, the cards label their cells: the headers that cannot sort are hidden
        assert not browser.find_element("css selector", "table.index thead").is_displayed()
        rows = browser.find_elements("css selector", "table.index tbody tr")
        assert [r.get_attribute("data-number") for r in rows] == [
            str(k) for k in range(1, len(expected) + 1)
        ]
        assert all(r.is_displayed() for r in rows)
        first = rows[0].find_element("css selector", ".pot").text
        assert first == words("en").number(expected[0].pot if expected[0] else 0)
    finally:
        browser.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": False})
