"""The variant report's page: the sections, tables and styles around the
charts (:mod:`capsa.report.charts`), as one self-contained HTML text in
English or Indonesian."""

from __future__ import annotations

import html
from collections.abc import Sequence

from capsa import __version__
from capsa.odds import natural_probabilities
from capsa.report.charts import WIDE_FROM_PX, naturals_chart, points_chart, rake_chart, swing_chart
from capsa.report.knobs import differences, rake_words
from capsa.report.numbers import count_text, money_text, percent_text, rate_text, rate_with_margin
from capsa.report.tables import STYLE, Row, stacked_css, table_html, words_html
from capsa.report.variants import Variant, arranging_text, identical_groups
from capsa.report.words import ReportWords
from capsa.rules import Rules

__all__ = ["page_html"]

_CHARTS_STYLE = (
    "@media (max-width: {px}px) {{ .wide {{ display: none; }} .narrow {{ display: block; }} }}"
)

_RATES = ("scoop", "sweep_all", "natural", "foul", "surrender", "round_scoop", "round_natural")


class _Page:
    """The page being written: its words, and the tables' breakpoints."""

    def __init__(self, words: ReportWords) -> None:
        self.words = words
        self.breakpoints: list[int] = []

    def table(self, label: str, head: Sequence[str], rows: Sequence[Row]) -> str:
        text, px = table_html(label, head, rows, self.words)
        self.breakpoints.append(px)
        return text

    def p(self, text: str, cls: str = "") -> str:
        attr = f" class='{cls}'" if cls else ""
        return f"<p{attr}>{words_html(text)}</p>"


def _rate_counts(v: Variant, key: str) -> tuple[int, int]:
    """The count and the total of one of :data:`_RATES`."""
    s = v.summary
    seat_rounds = s.deals * s.seats
    counts = {
        "scoop": (s.scoops, s.pairs),
        "sweep_all": (s.sweep_alls, seat_rounds),
        "natural": (sum(s.declared.values()), seat_rounds),
        "foul": (s.fouls, seat_rounds),
        "surrender": (s.surrenders, seat_rounds),
        "round_scoop": (s.rounds.get("scoop", 0), s.deals),
        "round_natural": (s.rounds.get("natural", 0), s.deals),
    }
    return counts[key]


def _overview(page: _Page, variants: Sequence[Variant], rounds_per_hour: int) -> str:
    w = page.words
    lang = w.lang
    summaries = [v.summary for v in variants]
    money = [s.money_stats(net=True) for s in summaries]
    points = [s.points_stats() for s in summaries]
    cells: dict[str, list[str]] = {
        "deals": [count_text(s.deals, lang) for s in summaries],
        "seats": [str(s.seats) for s in summaries],
        "strategy": [w.get(f"strategy.{s.strategy}", s.strategy) for s in summaries],
        "stake": [count_text(s.stake, lang) for s in summaries],
        "rake": [rake_words(s.rake, w) for s in summaries],
        "turnover": [money_text(v.turnover_per_round, lang) for v in variants],
        "hold": [percent_text(v.hold, lang) for v in variants],
        "house_rake_per_round": [money_text(s.house_rake_per_round, lang) for s in summaries],
        "house_rake_per_1000": [money_text(s.house_rake_per_1000, lang) for s in summaries],
        "rake_per_hour": [money_text(v.rake_per_hour(rounds_per_hour), lang) for v in variants],
        "money_mean": [money_text(m.mean, lang) for m in money],
        "money_std": [money_text(m.std, lang) for m in money],
        "money_p5": [count_text(m.percentiles[5], lang) for m in money],
        "money_p95": [count_text(m.percentiles[95], lang) for m in money],
        "points_std": [w.digits(f"{p.std:.2f}") for p in points],
        "points_range": [w.digits(f"{p.min:,} / {p.max:,}") for p in points],
    }
    for key in _RATES:
        cells[key] = [rate_with_margin(*_rate_counts(v, key), lang) for v in variants]
    per_hour = count_text(rounds_per_hour, lang)
    rows = [(key, w.fill(f"row_name.{key}", n=per_hour), c) for key, c in cells.items()]
    return page.table(w["page.glance_label"], [w["page.figure"], *(v.name for v in variants)], rows)


def _differ(page: _Page, variants: Sequence[Variant], rules: Sequence[Rules | None]) -> str:
    """How the variants' rules differ, as a table and a sentence."""
    w = page.words
    if len(variants) == 1:
        return page.p(w["differ.only_one"])
    unknown = [v.name for v, r in zip(variants, rules, strict=True) if r is None]
    known = [v for v, r in zip(variants, rules, strict=True) if r is not None]
    if len(known) < 2:
        return page.p(w["differ.unknown_all"])
    rows, same = differences(variants, rules, w)
    parts = []
    if unknown:
        parts.append(page.p(w.fill("differ.unknown", names=w.listed(unknown))))
    if not rows:
        parts.append(page.p(w["differ.all_same"]))
        return "\n".join(parts)
    head = [w["differ.rule"], *(v.name for v in known)]
    parts.append(page.table(w["differ.label"], head, rows))
    if same:
        sentence = w["differ.same_one"] if same == 1 else w.fill("differ.same", n=same)
        parts.append(page.p(sentence, "note"))
    return "\n".join(parts)


def _paid(rules: Rules | None) -> set[str] | None:
    """The naturals ``rules`` pay; None for rules not known."""
    if rules is None:
        return None
    return {e["name"] for e in rules["naturals.enabled"]}


def _naturals_table(page: _Page, variants: Sequence[Variant], rules: Sequence[Rules | None]) -> str:
    w = page.words
    lang = w.lang
    exact = natural_probabilities()
    # the same deals deal the same naturals: one column then
    one_dealt = len({tuple(sorted(v.summary.qualifying.items())) for v in variants}) == 1
    qualifying = [[v.summary.qualifying.get(n, 0) for n in exact] for v in variants]
    dealt = variants[:1] if one_dealt else variants
    head = [w["naturals_table.natural"], w["naturals_table.exact"]]
    if one_dealt:
        head.append(w["naturals_table.dealt"])
    else:
        head += [w.fill("naturals_table.dealt_of", name=v.name) for v in variants]
    head += [w.fill("naturals_table.declared_of", name=v.name) for v in variants]
    paid = [_paid(r) for r in rules]
    rows = []
    hands = [v.summary.deals * v.summary.seats for v in variants]
    for i, (name, p) in enumerate(exact.items()):
        cells = [rate_text(float(p), lang)]
        for k in range(len(dealt)):
            cells.append(rate_with_margin(qualifying[k][i], hands[k], lang))
        for k, (v, pays) in enumerate(zip(variants, paid, strict=True)):
            if pays is not None and name not in pays:
                cells.append(w["number.not_paid"])
            else:
                cells.append(rate_with_margin(v.summary.declared.get(name, 0), hands[k], lang))
        rows.append((name, w.get(f"natural.{name}", name), cells))
    return page.table(w["page.naturals_label"], head, rows)


def _identical_note(page: _Page, groups: Sequence[Sequence[Variant]]) -> str:
    shared = [g for g in groups if len(g) > 1]
    if not shared:
        return ""
    w = page.words
    return page.p(
        " ".join(w.fill("page.identical", names=w.listed([v.name for v in g])) for g in shared)
    )


def _sources(page: _Page, variants: Sequence[Variant]) -> str:
    w = page.words
    named = [v for v in variants if v.name != v.summary.rules]
    if not named:
        return ""
    text = "; ".join(w.fill("page.source", name=v.name, source=v.source) for v in named)
    return page.p(w.fill("page.sources", list=text), "note")


def _rake_text(page: _Page, variants: Sequence[Variant]) -> str:
    """What the house earns, in words that follow each variant's stake and
    rake: where the rake rounds down to nothing in most rounds, it says so."""
    w = page.words
    sentences = [w["page.house_intro"]]
    raking = [v for v in variants if v.summary.rake["basis_points"] > 0]
    free = [v.name for v in variants if v not in raking]
    for v in raking:
        s = v.summary
        nothing = s.house_rake.get(0, 0) / s.deals if s.deals else 0.0
        key = "page.rake_mostly_zero" if nothing > 0.5 else "page.rake_rounds"
        sentences.append(
            w.fill(
                key,
                name=v.name,
                rake=rake_words(s.rake, w),
                stake=count_text(s.stake, w.lang),
                share=percent_text(nothing, w.lang),
            )
        )
    if free:
        key = "page.no_rake_one" if len(free) == 1 else "page.no_rake"
        sentences.append(w.fill(key, names=w.listed(free)))
    return page.p(" ".join(sentences))


def _same_deals(variants: Sequence[Variant]) -> bool:
    """True when every variant was played on the same deals."""
    return len({(v.summary.seed, v.summary.seats, v.summary.ranges) for v in variants}) == 1


def page_html(
    variants: Sequence[Variant],
    title: str,
    rounds_per_hour: int,
    words: ReportWords,
    rules: Sequence[Rules | None],
) -> str:
    """The whole report page of ``variants`` (``rules``: each one's rules,
    None where not known), in the language of ``words``."""
    w = words
    page = _Page(w)
    same_deals = _same_deals(variants)
    dealt = w["page.same_deals" if same_deals else "page.different_deals"]
    body = [
        f"<h1>{words_html(title)}</h1>",
        page.p(w.fill("page.intro", dealt=dealt)),
        _sources(page, variants),
        f"<h2>{words_html(w['page.arranging'])}</h2>",
        page.p(arranging_text(variants, w.lang)),
        f"<h2>{words_html(w['differ.heading'])}</h2>",
        _differ(page, variants, rules),
        f"<h2>{words_html(w['page.glance'])}</h2>",
        _overview(page, variants, rounds_per_hour),
        page.p(w.fill("page.glance_note", n=count_text(rounds_per_hour, w.lang)), "note"),
        f"<h2>{words_html(w['page.house'])}</h2>",
        _rake_text(page, variants),
        rake_chart(variants, w),
        f"<h2>{words_html(w['page.points'])}</h2>",
        page.p(w["page.points_intro"]),
        _identical_note(page, identical_groups(variants)),
        points_chart(identical_groups(variants), w),
        f"<h2>{words_html(w['page.swing'])}</h2>",
        page.p(w["page.swing_intro"]),
        swing_chart(variants, w),
        f"<h2>{words_html(w['page.naturals'])}</h2>",
        page.p(w["page.naturals_intro"]),
        naturals_chart(variants, same_deals, w),
        _naturals_table(page, variants, rules),
    ]
    seeds = ", ".join(str(s) for s in sorted({v.summary.seed for v in variants}))
    body.append(page.p(w.fill("page.footer", version=__version__, seeds=seeds), "note"))
    style = STYLE + _CHARTS_STYLE.format(px=WIDE_FROM_PX - 1) + stacked_css(page.breakpoints)
    head = [
        f"<!doctype html><html lang='{w.lang}'><head><meta charset='utf-8'>",
        "<meta name='viewport' content='width=device-width, initial-scale=1'>",
        f"<title>{html.escape(title)}</title>",
        f"<style>{style}</style></head><body><main>",
    ]
    return "\n".join([*head, *(p for p in body if p), "</main></body></html>"])
