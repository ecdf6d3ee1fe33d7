"""The variant report in a real browser (Debian's chromium and
chromium-driver, through Selenium), in English and Indonesian, loaded once
at each of the four widths of :data:`browser_pages.WIDTHS`: nothing sticks
out of the page, no word cut by the edge of a box and no box scrolling
sideways without a cue, no text under 12 CSS px (the charts' included, as
drawn), no word broken over two lines, every chart's text inside its
picture, the chart drawn for the width shown with its text alternative,
axe-core's serious and critical violations none; and from the DOM, every
figure of the tables and the rake chart equals its summary's. The tables
are stacked blocks on a phone and grids where they fit; the clipping check
itself is tried on a page that cuts a word.
A full-page screenshot of each width goes to ``$CAPSA_ARTIFACTS``.

Without chromium these tests are skipped, except under CI (``CI`` set),
where they fail: there they must run.
"""

from __future__ import annotations

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
from capsa.odds import natural_probabilities
from capsa.report import render_report
from capsa.report.charts import WIDE_FROM_PX
from capsa.report.knobs import rake_words
from capsa.report.numbers import count_text, money_text, percent_text, rate_text, rate_with_margin
from capsa.report.tables import STYLE, table_html
from capsa.report.variants import Variant, variants_of
from capsa.report.words import report_words
from capsa.summary import Summary

ROUNDS_PER_HOUR = 40


LANGS = ("en", "id")


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, Path], list[Variant]]:
    """A report of three variants, two of them sharing a rules name (and so
    a curve), written to a file in each language."""
    pagat = capsa.simulate("pagat", deals=1500, strategy="greedy", seed=3, stake=100)
    house = capsa.simulate("capsa-susun", deals=1500, strategy="greedy", seed=3, stake=100)
    pairs: list[tuple[str, Summary]] = [
        ("pagat", pagat),
        ("sim/house.toml", house),
        ("sim/pagat-copy.toml", pagat),
    ]
    folder = tmp_path_factory.mktemp("report")
    paths = {}
    for lang in LANGS:
        paths[lang] = folder / f"variants-{lang}.html"
        page = render_report(pairs, rounds_per_hour=ROUNDS_PER_HOUR, lang=lang)
        paths[lang].write_text(page, encoding="utf-8")
    return paths, variants_of(pairs)


# every text of a chart inside its picture (which would clip it), apart from
# the others, and no word of it broken over two lines; and the pictures shown: whether they are the
# wide ones, their width, role and label
_CHARTS = """
const problems = [], shown = [];
for (const svg of document.querySelectorAll('svg')) {
  const r = svg.getBoundingClientRect();
  if (!r.width) continue;
  const wide = !!svg.closest('.wide');
  shown.push([wide, r.width, svg.getAttribute('role'), svg.getAttribute('aria-label') || '']);
  const texts = [...svg.querySelectorAll('text')];
  // a turned text's box is wider than its letters: only level texts are compared
  const turned = (t) => parseFloat((/rotate\\((-?[\\d.]+)/.exec(t.getAttribute('transform') ||
    '') || [0, 0])[1]) !== 0;
  const level = texts.filter((t) => !turned(t));
  level.forEach((t, k) => {
    const q = t.getBoundingClientRect();
    for (const u of level.slice(k + 1)) {
      const o = u.getBoundingClientRect();
      if (q.left < o.right - 1 && o.left < q.right - 1 &&
          q.top < o.bottom - 1 && o.top < q.bottom - 1) {
        problems.push(`chart texts "${t.textContent}" and "${u.textContent}" overlap`);
      }
    }
  });
  for (const t of texts) {
    // a line of a chart's text ending inside a name: "sim/house-" then "pagat.toml"
    for (const line of t.querySelectorAll('tspan').length ? t.querySelectorAll('tspan') : [t]) {
      if (/[-/]$/.test(line.textContent.trim())) {
        problems.push(`chart text "${line.textContent}" breaks a word`);
      }
    }
    const q = t.getBoundingClientRect();
    if (q.left < r.left - 0.5 || q.right > r.right + 0.5 ||
        q.top < r.top - 0.5 || q.bottom > r.bottom + 0.5) {
      problems.push(`chart text "${t.textContent}" is cut off by its picture`);
    }
  }
}
return [problems, shown];
"""

# the tables: {row key: [header, cells]} for each table, and the column
# heads; a cell's lines joined by one space
_TABLES = """
const text = (e) => e.textContent.replace(/\\s+/g, ' ').trim();
return [...document.querySelectorAll('table')].map((table) => [
  [...table.querySelectorAll('thead th')].map(text),
  Object.fromEntries([...table.querySelectorAll('tbody tr')].map((tr) =>
    [tr.dataset.figure, [...tr.querySelectorAll('th, td')].map(text)])),
]);
"""

_BAR_LABELS = """
const svg = [...document.querySelectorAll('svg')].find((s) => s.getBoundingClientRect().width);
return [...svg.querySelectorAll('text')].map((t) => t.textContent);
"""


def _overview_expected(v: Variant, lang: str) -> dict[str, str]:
    """What the overview shows of one variant, from its summary."""
    s = v.summary
    money = s.money_stats(net=True)
    seat_rounds = s.deals * s.seats
    return {
        "deals": count_text(s.deals, lang),
        "seats": str(s.seats),
        "stake": count_text(s.stake, lang),
        "rake": rake_words(s.rake, report_words(lang)),
        "turnover": money_text(v.turnover_per_round, lang),
        "hold": percent_text(v.hold, lang),
        "house_rake_per_round": money_text(s.house_rake_per_round, lang),
        "house_rake_per_1000": money_text(s.house_rake_per_1000, lang),
        "rake_per_hour": money_text(s.house_rake_per_round * ROUNDS_PER_HOUR, lang),
        "money_mean": money_text(money.mean, lang),
        "money_p5": count_text(money.percentiles[5], lang),
        "money_p95": count_text(money.percentiles[95], lang),
        "scoop": rate_with_margin(s.scoops, s.pairs, lang),
        "sweep_all": rate_with_margin(s.sweep_alls, seat_rounds, lang),
        "foul": rate_with_margin(s.fouls, seat_rounds, lang),
        "surrender": rate_with_margin(s.surrenders, seat_rounds, lang),
        "round_natural": rate_with_margin(s.rounds.get("natural", 0), s.deals, lang),
    }


def _naturals_expected(variants: list[Variant], lang: str) -> dict[str, list[str]]:
    """What the naturals table shows: one dealt column (the same deals), and
    each variant's declared share, or "not paid"."""
    words = report_words(lang)
    paid = [
        {e["name"] for e in capsa.Rules.preset(v.summary.rules)["naturals.enabled"]}
        for v in variants
    ]
    first = variants[0].summary
    out = {}
    for name, p in natural_probabilities().items():
        want = [words[f"natural.{name}"], rate_text(float(p), lang)]
        want.append(rate_with_margin(first.qualifying[name], first.deals * first.seats, lang))
        for v, pays in zip(variants, paid, strict=True):
            hands = v.summary.deals * v.summary.seats
            declared = rate_with_margin(v.summary.declared[name], hands, lang)
            want.append(declared if name in pays else words["number.not_paid"])
        out[name] = want
    return out


def _figure_problems(driver: Any, variants: list[Variant], lang: str) -> list[str]:
    """Every figure of the tables and the rake chart that differs from the
    summaries'."""
    problems = []
    tables = driver.execute_script(_TABLES)
    words = report_words(lang)
    overview_head, overview = next(t for t in tables if "deals" in t[1])
    naturals_head, naturals = next(t for t in tables if "clean-dragon" in t[1])
    names = [v.name for v in variants]
    if overview_head != [words["page.figure"], *names]:
        problems.append(f"the variants are headed {overview_head}")
    for k, v in enumerate(variants):
        for key, want in _overview_expected(v, lang).items():
            shown = overview[key][k + 1]
            if shown != want:
                problems.append(f"{key} of {v.name} shows {shown!r}, the summary {want!r}")
    heads = [words.fill("naturals_table.declared_of", name=name) for name in names]
    fixed = ["natural", "exact", "dealt"]
    if naturals_head != [*(words[f"naturals_table.{k}"] for k in fixed), *heads]:
        problems.append(f"the naturals are headed {naturals_head}")
    for name, want in _naturals_expected(variants, lang).items():
        if naturals.get(name) != want:
            problems.append(f"the natural {name} shows {naturals.get(name)}, not {want}")
    bars = driver.execute_script(_BAR_LABELS)
    for v in variants:
        if money_text(v.summary.house_rake_per_1000, lang) not in bars:
            problems.append(f"the rake chart has no bar label for {v.name}")
    return problems


def _chart_problems(driver: Any, width: int, variants: list[Variant]) -> list[str]:
    problems, shown = driver.execute_script(_CHARTS)
    if len(shown) != 4:
        problems.append(f"{len(shown)} charts shown, not 4")
    for k, (wide, drawn, role, label) in enumerate(shown):
        if wide != (width >= WIDE_FROM_PX):
            problems.append(f"a {'wide' if wide else 'narrow'} chart shown at {width}px")
        if drawn > width:
            problems.append(f"a chart is drawn {drawn}px wide at {width}px")
        # the rake, points and swing charts name every variant they draw
        named = k == 3 or all(v.summary.rules in label for v in variants)
        if role != "img" or len(label) < 80 or not named:
            problems.append(f"a chart's text alternative is {role}/{label[:60]!r}")
    return problems


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("width_name", list(WIDTHS))
def test_the_report_at_every_width(
    browser: Any, report: tuple[dict[str, Path], list[Variant]], width_name: str, lang: str
) -> None:
    paths, variants = report
    width = WIDTHS[width_name]
    at_width(browser, width)
    browser.get(paths[lang].as_uri())
    assert browser.execute_script("return document.readyState") == "complete"
    assert browser.execute_script("return document.documentElement.lang") == lang
    problems = layout_problems(browser, "main", ("tr",))
    problems += clipping_problems(browser)
    problems += font_problems(browser)
    problems += broken_word_problems(browser, "h1, h2, p, th, td")
    problems += _chart_problems(browser, width, variants)
    problems += _figure_problems(browser, variants, lang)
    problems += axe_problems(browser)
    screenshot(browser, f"report-{lang}-{width_name}")
    assert not problems, f"at {width}px:\n" + "\n".join(problems[:40])


_TABLE_LAYOUT = """
return [...document.querySelectorAll('table')].map((t) => [
  t.querySelector('tbody tr').dataset.figure,
  getComputedStyle(t.querySelector('thead')).display !== 'none',
  t.closest('.scroll').scrollWidth - t.closest('.scroll').clientWidth,
]);
"""


def test_the_tables_are_blocks_on_a_phone_and_grids_on_a_desktop(
    browser: Any, report: tuple[dict[str, Path], list[Variant]]
) -> None:
    paths, _ = report
    shown = {}
    for width in (WIDTHS["phone-360"], WIDTHS["desktop"]):
        at_width(browser, width)
        browser.get(paths["en"].as_uri())
        shown[width] = browser.execute_script(_TABLE_LAYOUT)
    phone, desktop = shown[WIDTHS["phone-360"]], shown[WIDTHS["desktop"]]
    assert [key for key, _, _ in phone] == ["tie_break", "deals", "clean-dragon"]
    assert not any(grid for _, grid, _ in phone), f"a grid on a phone: {phone}"
    assert all(grid for _, grid, _ in desktop), f"blocks on a desktop: {desktop}"
    assert all(extra <= 1 for _, _, extra in phone + desktop), "a table scrolls"


def _page(tmp_path: Path, name: str, body: str, style: str = "") -> str:
    path = tmp_path / name
    path.write_text(
        "<!doctype html><html lang='en'><head><meta charset='utf-8'>"
        "<meta name='viewport' content='width=device-width, initial-scale=1'>"
        f"<style>{style}</style></head><body>{body}</body></html>",
        encoding="utf-8",
    )
    return path.as_uri()


def test_the_clipping_check_finds_a_cut_word_and_a_box_without_a_cue(
    browser: Any, tmp_path: Path
) -> None:
    at_width(browser, WIDTHS["desktop"])
    box = "<div style='width: 120px; overflow-x: auto; white-space: nowrap'>{}</div>"
    browser.get(_page(tmp_path, "cut.html", box.format("short words then 1234567890123")))
    found = clipping_problems(browser)
    assert any('"1234567890123" is cut by the edge of div' in p for p in found), found
    assert any("no visible .scroll-cue" in p for p in found), found
    assert not any('"short"' in p for p in found), found
    # a word wholly scrolled out of view is not cut; a cue answers the scrolling
    far = "<p class='scroll-cue'>more</p><span style='margin-left: 300px'>far</span>"
    browser.get(_page(tmp_path, "far.html", box.format(far)))
    assert clipping_problems(browser) == []
    # a picture clips its text too
    svg = "<svg width='60' height='40'><text x='10' y='20'>overhanging</text></svg>"
    browser.get(_page(tmp_path, "svg.html", svg))
    assert any('"overhanging" is cut by the edge of svg' in p for p in clipping_problems(browser))


def test_a_grid_too_wide_for_its_box_shows_the_cue(browser: Any, tmp_path: Path) -> None:
    """The fallback where a grid outgrows its box: laid out without the
    stacking styles, the table scrolls, and the cue is shown while it does."""
    words = report_words("en")

    def table(variants: int) -> str:
        head = ["", *(f"variant-{k}" for k in range(variants))]
        rows = [("x", "A figure", [rate_with_margin(3, 4000)] * variants)]
        return table_html("wide", head, rows, words)[0]

    uri = _page(tmp_path, "wide.html", f"<main>{table(8)}{table(2)}</main>", STYLE)
    cues = "return [...document.querySelectorAll('.scroll-cue')].map((c) => c.offsetWidth)"
    at_width(browser, WIDTHS["phone-360"])
    browser.get(uri)
    assert all(width > 0 for width in browser.execute_script(cues))
    assert not any("scroll-cue" in p for p in clipping_problems(browser))
    at_width(browser, WIDTHS["desktop"])
    browser.get(uri)
    # eight columns outgrow the page's 1,100 px, two fit: no cue for those
    wide, narrow = browser.execute_script(cues)
    assert wide > 0 and narrow == 0
