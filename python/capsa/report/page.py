"""The variant report's page: the sections, tables and styles around the
charts (:mod:`capsa.report.charts`), as one self-contained HTML text."""

from __future__ import annotations

import html
from collections.abc import Sequence

from capsa import __version__
from capsa.odds import natural_probabilities
from capsa.report.charts import WIDE_FROM_PX, naturals_chart, points_chart, rake_chart, swing_chart
from capsa.report.numbers import count_text, money_text, percent_text, rate_text, rate_with_margin
from capsa.report.variants import Variant, arranging_text, identical_groups

__all__ = ["page_html"]

_STYLE = """
html { -webkit-text-size-adjust: 100%; text-size-adjust: 100%; }
body { font-family: system-ui, sans-serif; max-width: 1100px; margin: 1.5em auto; padding: 0 1em;
       color: #222; line-height: 1.45; font-size: 16px; overflow-wrap: normal; }
h1 { font-size: 1.5em; line-height: 1.25; } h2 { font-size: 1.2em; margin-top: 2em;
  border-bottom: 1px solid #ccc; }
.scroll { overflow-x: auto; margin: 1em 0; max-width: 100%; }
.scroll:focus { outline: 2px solid #3b5f99; }
table { border-collapse: collapse; font-size: 0.9em; }
th, td { border: 1px solid #ccc; padding: 0.3em 0.6em; text-align: right; vertical-align: top; }
th { font-weight: 600; }
thead th { background: #f2f2f2; } thead th:first-child { text-align: left; }
tbody th { text-align: left; font-weight: normal; min-width: 11em; max-width: 22em;
  position: sticky; left: 0; background: #fff; }
td { white-space: nowrap; }
.word { white-space: nowrap; display: inline-block; max-width: 100%; overflow-x: auto;
  vertical-align: bottom; }
td .margin { display: block; color: #555; }
.note { color: #555; font-size: 0.9em; }
figure { margin: 1em 0; }
.chart svg { display: block; height: auto; }
.wide svg { max-width: 100%; }
.narrow { display: none; }
.narrow svg { width: 100%; max-width: 34em; }
@media (max-width: WIDEpx) { .wide { display: none; } .narrow { display: block; } }
@media (max-width: 600px) { body { margin: 1em auto; } table { font-size: 0.85em; } }
""".replace("WIDE", str(WIDE_FROM_PX - 1))


def _cell(text: str) -> str:
    """A table cell; a rate's interval, in brackets, on a line of its own."""
    estimate, bracket, rest = text.partition(" (")
    if not bracket:
        return f"<td>{html.escape(text)}</td>"
    margin = html.escape("(" + rest)
    return f"<td>{html.escape(estimate)} <span class='margin'>{margin}</span></td>"


def _words(text: str) -> str:
    """Text that wraps only between its words: a word a browser could break
    inside (at a hyphen or a slash, such as "three-straight-flushes" or
    "sim/house-pagat.toml") stays whole, and scrolls in its own box if it
    is wider than the window."""
    return " ".join(
        f"<span class='word'>{html.escape(w)}</span>"
        if any(c in w for c in "-/")
        else html.escape(w)
        for w in text.split(" ")
    )


def _table(label: str, head: Sequence[str], rows: Sequence[tuple[str, str, list[str]]]) -> str:
    """A table in a box of its own that scrolls sideways when it is wider
    than the window; rows are (key, header, cells)."""
    heads = "".join(f"<th scope='col'>{_words(h)}</th>" for h in head)
    body = "".join(
        f"<tr data-figure='{key}'><th scope='row'>{_words(name)}</th>"
        f"{''.join(_cell(c) for c in cells)}</tr>"
        for key, name, cells in rows
    )
    return (
        f"<div class='scroll' role='region' tabindex='0' aria-label='{html.escape(label)}'>"
        f"<table><thead><tr>{heads}</tr></thead><tbody>{body}</tbody></table></div>"
    )


_RATES = (
    ("scoop", "A player wins all three rows against another (per pair)"),
    ("sweep_all", "A player sweeps the whole table (per player)"),
    ("natural", "A player declares a natural (per player)"),
    ("foul", "A player fouls (per player)"),
    ("surrender", "A player surrenders (per player)"),
    ("round_scoop", "Rounds with at least one scoop"),
    ("round_natural", "Rounds with a natural"),
)


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


def _overview(variants: Sequence[Variant], rounds_per_hour: int) -> str:
    rows: list[tuple[str, str, list[str]]] = []

    def row(key: str, name: str, cells: list[str]) -> None:
        rows.append((key, name, cells))

    summaries = [v.summary for v in variants]
    row("deals", "Rounds simulated", [count_text(s.deals) for s in summaries])
    row("seats", "Players at the table", [str(s.seats) for s in summaries])
    row("strategy", "How players arrange", [s.strategy for s in summaries])
    row("stake", "Stake (minor units per point)", [count_text(s.stake) for s in summaries])
    row("rake", "Rake of each winner's money", [s.rake_text for s in summaries])
    row("turnover", "Turnover: money won per round, before rake",
        [money_text(v.turnover_per_round) for v in variants])  # fmt: skip
    row("hold", "Hold: house rake as a share of the turnover",
        [percent_text(v.hold) for v in variants])  # fmt: skip
    row("house_rake_per_round", "House rake per round",
        [money_text(s.house_rake_per_round) for s in summaries])  # fmt: skip
    row("house_rake_per_1000", "House rake per 1,000 rounds",
        [money_text(s.house_rake_per_1000) for s in summaries])  # fmt: skip
    row("rake_per_hour", f"House rake per hour, at {rounds_per_hour:,} rounds an hour",
        [money_text(v.rake_per_hour(rounds_per_hour)) for v in variants])  # fmt: skip
    money = [s.money_stats(net=True) for s in summaries]
    points = [s.points_stats() for s in summaries]
    row("money_mean", "Player's average money per round, after rake",
        [money_text(m.mean) for m in money])  # fmt: skip
    row("money_std", "Player's swing: standard deviation of money per round",
        [money_text(m.std) for m in money])  # fmt: skip
    row("money_p5", "Player's bad round (5% of rounds are worse)",
        [count_text(m.percentiles[5]) for m in money])  # fmt: skip
    row("money_p95", "Player's good round (5% of rounds are better)",
        [count_text(m.percentiles[95]) for m in money])  # fmt: skip
    row("points_std", "Points per round: standard deviation", [f"{p.std:.2f}" for p in points])
    row("points_range", "Points per round: worst and best seen",
        [f"{p.min:,} / {p.max:,}" for p in points])  # fmt: skip
    for key, text in _RATES:
        row(key, text, [rate_with_margin(*_rate_counts(v, key)) for v in variants])
    return _table("The figures of every variant", ["", *(v.name for v in variants)], rows)


def _naturals_table(variants: Sequence[Variant]) -> str:
    exact = natural_probabilities()
    head = ["natural", "exact probability"]
    for v in variants:
        head += [f"dealt, {v.name}", f"declared, {v.name}"]
    rows = []
    for name, p in exact.items():
        cells = [rate_text(float(p))]
        for v in variants:
            s = v.summary
            hands = s.deals * s.seats
            cells.append(rate_with_margin(s.qualifying[name], hands))
            cells.append(rate_with_margin(s.declared[name], hands))
        rows.append((name, name, cells))
    return _table("How often each natural is dealt and declared", head, rows)


def _same_deals(variants: Sequence[Variant]) -> bool:
    """True when every variant was played on the same deals."""
    return len({(v.summary.seed, v.summary.seats, v.summary.ranges) for v in variants}) == 1


def _identical_note(groups: Sequence[Sequence[Variant]]) -> str:
    shared = [g for g in groups if len(g) > 1]
    if not shared:
        return ""
    sentences = " ".join(
        f"{' and '.join(v.name for v in g)} end rounds with exactly the same spread of points, "
        "so their curves are one line, labelled with every name."
        for g in shared
    )
    return f"<p>{_words(sentences)}</p>"


def _sources(variants: Sequence[Variant]) -> str:
    named = [v for v in variants if v.name != v.summary.rules]
    if not named:
        return ""
    text = "; ".join(f"{v.name}: rules from {v.source}" for v in named)
    return f"<p class='note'>Variants that share a rules name: {_words(text)}.</p>"


def page_html(variants: Sequence[Variant], title: str, rounds_per_hour: int) -> str:
    """The whole report page of ``variants``."""
    seeds = sorted({v.summary.seed for v in variants})
    same_deals = _same_deals(variants)
    groups = identical_groups(variants)
    dealt = (
        "Every variant was played on the same deals (same seed), so the differences "
        "come from the rules alone."
        if same_deals
        else "The variants were played on different deals."
    )
    parts = [
        "<!doctype html><html lang='en'><head><meta charset='utf-8'>",
        "<meta name='viewport' content='width=device-width, initial-scale=1'>",
        f"<title>{html.escape(title)}</title>",
        f"<style>{_STYLE}</style></head><body><main><h1>{_words(title)}</h1>",
        "<p>Each variant below was simulated by dealing many tables, letting every player "
        "arrange the cards the same way, and settling each round with the variant's rules. "
        f"{dealt} Money is in minor units (cents, say): points times the stake. "
        "The rake is what the house keeps from each winning player. A rate is given with "
        "its 95% interval: the range the true rate lies in, given the rounds simulated.</p>",
        _sources(variants),
        "<h2>How the players arranged</h2>",
        f"<p>{html.escape(arranging_text(variants))}</p>",
        "<h2>At a glance</h2>",
        _overview(variants, rounds_per_hour),
        "<p class='note'>The turnover is what a round's winners win before rake, each "
        "player's payments to and from the others netted; the hold is the house's rake as "
        f"a share of it. The rake per hour assumes {rounds_per_hour:,} rounds an hour at "
        "one table.</p>",
        "<h2>What the house earns</h2>",
        "<p>The house's rake over 1,000 rounds at the stake shown. Rake is a percentage of "
        "each winner's money, rounded down, so at a stake of one unit per point it is "
        "mostly zero.</p>",
        rake_chart(variants),
        "<h2>How a round ends for a player</h2>",
        "<p>The share of rounds in which a player wins or loses each number of points. "
        "A wider curve means bigger swings; the far ends are the rare big rounds "
        "(scoops, sweeps, naturals).</p>",
        _identical_note(groups),
        points_chart(groups),
        "<h2>How much a player's result swings</h2>",
        "<p>The spread of a player's money per round after rake. The box holds the middle "
        "half of the rounds, the whiskers run from the 5% worst to the 5% best, the circles "
        "mark the 1% and 99% rounds, and the triangle is the average. A player needs a "
        "bankroll of several times the spread to ride out a bad run.</p>",
        swing_chart(variants),
        "<h2>Naturals</h2>",
        "<p>How often a player is dealt each natural (the bars), against its exact "
        "probability (the black diamonds; how they are computed is in docs/bulk.md). "
        "'Declared' counts only the naturals the variant pays and the player chose to "
        "declare.</p>",
        naturals_chart(variants, same_deals),
        _naturals_table(variants),
        f"<p class='note'>capsa {html.escape(__version__)}; "
        f"seed(s) {', '.join(map(str, seeds))}.</p>",
        "</main></body></html>",
    ]
    return "\n".join(p for p in parts if p)
