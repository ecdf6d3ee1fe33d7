"""The variant report in a real browser (Debian's chromium and
chromium-driver, through Selenium), loaded once at each of the four widths
of :data:`browser_pages.WIDTHS`: nothing sticks out of the page (the wide
tables scroll in their own box), no text under 12 CSS px (the charts'
included, as drawn), no word broken over two lines, every chart's text
inside its picture, the chart drawn for the width shown with its text
alternative, axe-core's serious and critical violations none; and from the
DOM, every figure of the tables and the rake chart equals its summary's.
A full-page screenshot of each width goes to ``$CAPSA_ARTIFACTS``.

Without chromium these tests are skipped, except under CI (``CI`` set),
where they fail: there they must run.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_pages import (
    WIDTHS,
    at_width,
    axe_problems,
    broken_word_problems,
    chromium,
    font_problems,
    layout_problems,
    screenshot,
)

import capsa
from capsa.odds import natural_probabilities
from capsa.report import render_report
from capsa.report.charts import WIDE_FROM_PX
from capsa.report.numbers import count_text, money_text, percent_text, rate_text, rate_with_margin
from capsa.report.variants import Variant, variants_of
from capsa.summary import Summary

ROUNDS_PER_HOUR = 40


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[Variant]]:
    """A report of three variants, two of them sharing a rules name (and so
    a curve), written to a file."""
    pagat = capsa.simulate("pagat", deals=1500, strategy="greedy", seed=3, stake=100)
    house = capsa.simulate("capsa-susun", deals=1500, strategy="greedy", seed=3, stake=100)
    pairs: list[tuple[str, Summary]] = [
        ("pagat", pagat),
        ("sim/house.toml", house),
        ("sim/pagat-copy.toml", pagat),
    ]
    path = tmp_path_factory.mktemp("report") / "variants.html"
    path.write_text(render_report(pairs, rounds_per_hour=ROUNDS_PER_HOUR), encoding="utf-8")
    return path, variants_of(pairs)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium() as driver:
        yield driver


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

# the tables as shown: {row key: [header, cells]} for each table, and the
# column heads; a cell's lines joined by one space
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


def _overview_expected(v: Variant) -> dict[str, str]:
    """What the overview shows of one variant, from its summary."""
    s = v.summary
    money = s.money_stats(net=True)
    seat_rounds = s.deals * s.seats
    return {
        "deals": count_text(s.deals),
        "seats": str(s.seats),
        "stake": count_text(s.stake),
        "rake": s.rake_text,
        "turnover": money_text(v.turnover_per_round),
        "hold": percent_text(v.hold),
        "house_rake_per_round": money_text(s.house_rake_per_round),
        "house_rake_per_1000": money_text(s.house_rake_per_1000),
        "rake_per_hour": money_text(s.house_rake_per_round * ROUNDS_PER_HOUR),
        "money_mean": money_text(money.mean),
        "money_p5": count_text(money.percentiles[5]),
        "money_p95": count_text(money.percentiles[95]),
        "scoop": rate_with_margin(s.scoops, s.pairs),
        "sweep_all": rate_with_margin(s.sweep_alls, seat_rounds),
        "foul": rate_with_margin(s.fouls, seat_rounds),
        "surrender": rate_with_margin(s.surrenders, seat_rounds),
        "round_natural": rate_with_margin(s.rounds.get("natural", 0), s.deals),
    }


def _figure_problems(driver: Any, variants: list[Variant]) -> list[str]:
    """Every figure of the tables and the rake chart that differs from the
    summaries'."""
    problems = []
    (overview_head, overview), (naturals_head, naturals) = driver.execute_script(_TABLES)
    names = [v.name for v in variants]
    if overview_head != ["", *names]:
        problems.append(f"the variants are headed {overview_head}")
    for k, v in enumerate(variants):
        for key, want in _overview_expected(v).items():
            shown = overview[key][k + 1]
            if shown != want:
                problems.append(f"{key} of {v.name} shows {shown!r}, the summary {want!r}")
    heads = [f"{what}, {name}" for name in names for what in ("dealt", "declared")]
    if naturals_head != ["natural", "exact probability", *heads]:
        problems.append(f"the naturals are headed {naturals_head}")
    if len(naturals) != len(natural_probabilities()):
        problems.append(f"the naturals table has {len(naturals)} rows")
    for name, p in natural_probabilities().items():
        want = [name, rate_text(float(p))]
        for v in variants:
            hands = v.summary.deals * v.summary.seats
            want.append(rate_with_margin(v.summary.qualifying[name], hands))
            want.append(rate_with_margin(v.summary.declared[name], hands))
        if naturals.get(name) != want:
            problems.append(f"the natural {name} shows {naturals.get(name)}, not {want}")
    bars = driver.execute_script(_BAR_LABELS)
    for v in variants:
        if money_text(v.summary.house_rake_per_1000) not in bars:
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


@pytest.mark.parametrize("width_name", list(WIDTHS))
def test_the_report_at_every_width(
    browser: Any, report: tuple[Path, list[Variant]], width_name: str
) -> None:
    path, variants = report
    width = WIDTHS[width_name]
    at_width(browser, width)
    browser.get(path.as_uri())
    assert browser.execute_script("return document.readyState") == "complete"
    problems = layout_problems(browser, "main", ("tr",))
    problems += font_problems(browser)
    problems += broken_word_problems(browser, "h1, h2, p, th, td")
    problems += _chart_problems(browser, width, variants)
    problems += _figure_problems(browser, variants)
    problems += axe_problems(browser)
    screenshot(browser, f"report-{width_name}")
    assert not problems, f"at {width}px:\n" + "\n".join(problems[:40])


def test_the_naturals_table_scrolls_in_its_own_box_on_a_phone(
    browser: Any, report: tuple[Path, list[Variant]]
) -> None:
    path, _ = report
    at_width(browser, WIDTHS["phone-360"])
    browser.get(path.as_uri())
    boxes = browser.execute_script(
        "return [...document.querySelectorAll('.scroll')].map((b) => "
        "[b.scrollWidth, b.clientWidth, b.tabIndex, b.getAttribute('aria-label')])"
    )
    page = browser.execute_script("return document.documentElement.scrollWidth")
    assert page <= WIDTHS["phone-360"]
    naturals = boxes[-1]
    assert naturals[0] > naturals[1], "the naturals table fits: nothing to scroll"
    assert naturals[2] == 0 and naturals[3], "a scrolling box a keyboard cannot reach"
