"""A variant report: simulated rules variants side by side, as one HTML file.

:func:`write_report` (and ``capsa simulate --rules A --rules B --report
OUT.html``) writes a self-contained page, plots inline as SVG, written for
an operator rather than a programmer: what each variant pays the house,
how much a player's result swings from round to round, how often the big
events happen, and how often each natural is dealt against its exact
probability. Needs matplotlib (``pip install 'capsa[report]'``).

This is the operator's report on simulated variants; the text that explains
one settlement to a player is ``Settlement.explain()``, written by the core
(its ``report`` module). ``capsa.report`` is public (the docs import
``write_report`` from it), so its name stays.
"""

from __future__ import annotations

import html
import io
import math
import os
from collections.abc import Sequence
from typing import Any

from capsa import __version__
from capsa.odds import natural_probabilities
from capsa.summary import Summary

__all__ = ["render_report", "write_report"]

_STYLE = """
body { font-family: system-ui, sans-serif; max-width: 1100px; margin: 2em auto; padding: 0 1em;
       color: #222; line-height: 1.45; }
h1 { font-size: 1.6em; } h2 { font-size: 1.25em; margin-top: 2em; border-bottom: 1px solid #ccc; }
table { border-collapse: collapse; margin: 1em 0; font-size: 0.92em; }
th, td { border: 1px solid #ccc; padding: 0.3em 0.6em; text-align: right; }
th:first-child, td:first-child { text-align: left; }
thead th { background: #f2f2f2; }
.note { color: #555; font-size: 0.9em; }
figure { margin: 1em 0; } svg { max-width: 100%; height: auto; }
"""


def _figure() -> tuple[Any, Any]:
    try:
        from matplotlib.figure import Figure
    except ImportError as exc:  # pragma: no cover - the test extra installs it
        raise ImportError("the report needs matplotlib: pip install 'capsa[report]'") from exc
    fig = Figure(figsize=(9, 4.2), dpi=100)
    return fig, fig.add_subplot()


def _svg(fig: Any) -> str:
    out = io.StringIO()
    fig.savefig(out, format="svg", bbox_inches="tight")
    text = out.getvalue()
    return text[text.index("<svg") :]


def _label(label: str, summary: Summary) -> str:
    return label if label == summary.rules else f"{label} ({summary.rules})"


def _money(value: float) -> str:
    return f"{value:,.2f}" if math.isfinite(value) else "-"


def _share(value: float) -> str:
    if not math.isfinite(value):
        return "-"
    if value == 0:
        return "0"
    return f"{100 * value:.3g}%" if value >= 0.001 else f"1 in {1 / value:,.0f}"


def _points_plot(variants: Sequence[tuple[str, Summary]]) -> str:
    fig, ax = _figure()
    for label, s in variants:
        h = s.points_histogram()
        n = sum(h.values())
        xs: list[float] = []
        ys: list[float] = []
        for x in sorted(h):
            if xs and x - xs[-1] > 1:
                # no line across values no round ended with
                xs.append(math.nan)
                ys.append(math.nan)
            xs.append(x)
            ys.append(h[x] / n)
        ax.plot(xs, ys, marker=".", markersize=4, linewidth=1, label=_label(label, s))
    ax.set_yscale("log")
    ax.set_xlabel("points a player wins (+) or loses (-) in one round")
    ax.set_ylabel("share of rounds (log scale)")
    ax.set_title("How a round ends for a player")
    ax.grid(alpha=0.3)
    ax.legend()
    return _svg(fig)


def _rake_plot(variants: Sequence[tuple[str, Summary]]) -> str:
    fig, ax = _figure()
    labels = [_label(label, s) for label, s in variants]
    values = [s.house_rake_per_1000 for _, s in variants]
    bars = ax.bar(labels, values, color="#4c72b0")
    ax.bar_label(bars, labels=[f"{v:,.0f}" for v in values])
    ax.set_ylabel("house rake per 1,000 rounds (minor units)")
    ax.set_title("What the house earns")
    ax.grid(axis="y", alpha=0.3)
    return _svg(fig)


def _volatility_plot(variants: Sequence[tuple[str, Summary]]) -> str:
    fig, ax = _figure()
    stats = []
    for label, s in variants:
        m = s.money_stats(net=True)
        p = m.percentiles
        stats.append(
            {
                "label": _label(label, s),
                "med": p[50],
                "q1": p[25],
                "q3": p[75],
                "whislo": p[5],
                "whishi": p[95],
                "mean": m.mean,
                "fliers": [p[1], p[99]],
            }
        )
    ax.bxp(stats, showmeans=True, orientation="horizontal")
    ax.set_xlabel("a player's money after rake in one round (minor units)")
    ax.set_title(
        "How much a player's result swings (box: middle half; whiskers: 5%-95%; dots: 1%, 99%)"
    )
    ax.grid(axis="x", alpha=0.3)
    return _svg(fig)


def _same_deals(variants: Sequence[tuple[str, Summary]]) -> bool:
    """True when every variant was played on the same deals."""
    return len({(s.seed, s.seats, s.ranges) for _, s in variants}) == 1


def _naturals_plot(variants: Sequence[tuple[str, Summary]]) -> str:
    exact = natural_probabilities()
    names = list(exact)
    fig, ax = _figure()
    fig.set_size_inches(9, 6)
    # the same deals deal the same hands: one bar then
    shown = variants[:1] if _same_deals(variants) else variants
    height = 0.8 / len(shown)
    for k, (label, s) in enumerate(shown):
        ys = [i - 0.4 + (k + 0.5) * height for i in range(len(names))]
        freq = [s.natural_frequency(n) for n in names]
        text = "dealt in the simulation" if len(shown) == 1 else f"dealt, {_label(label, s)}"
        ax.barh(ys, freq, height=height, label=text, alpha=0.8)
    # where the simulated share should fall: the exact probability and its
    # 95% sampling margin for the number of hands dealt
    hands = shown[0][1].deals * shown[0][1].seats
    probabilities = [float(exact[n]) for n in names]
    margins = [1.96 * math.sqrt(p * (1 - p) / hands) if hands else 0.0 for p in probabilities]
    low = [min(m, p * (1 - 1e-9)) for p, m in zip(probabilities, margins, strict=True)]
    ax.errorbar(
        probabilities,
        range(len(names)),
        xerr=[low, margins],
        fmt="D",
        color="black",
        capsize=3,
        zorder=3,
        label="exact probability, with the 95% sampling margin",
    )
    ax.set_yticks(range(len(names)), names)
    ax.set_xscale("log")
    ax.set_xlim(1e-12, 0.1)
    ax.set_xlabel("share of hands (log scale)")
    ax.set_title("How often each natural is dealt, against its exact probability")
    ax.invert_yaxis()
    ax.grid(axis="x", alpha=0.3)
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.12), ncol=2)
    return _svg(fig)


def _overview(variants: Sequence[tuple[str, Summary]]) -> str:
    rows: list[tuple[str, list[str]]] = []

    def row(name: str, cells: list[str]) -> None:
        rows.append((name, cells))

    row("Rules", [html.escape(s.rules) for _, s in variants])
    row("Rounds simulated", [f"{s.deals:,}" for _, s in variants])
    row("Players at the table", [str(s.seats) for _, s in variants])
    row("How players arrange", [s.strategy for _, s in variants])
    row("Stake (minor units per point)", [f"{s.stake:,}" for _, s in variants])
    row("Rake of each winner's money", [s.rake_text for _, s in variants])
    row("House rake per round", [_money(s.house_rake_per_round) for _, s in variants])
    row("House rake per 1,000 rounds", [_money(s.house_rake_per_1000) for _, s in variants])
    money = [s.money_stats(net=True) for _, s in variants]
    points = [s.points_stats() for _, s in variants]
    row(
        "Player's average money per round, after rake",
        [_money(m.mean) for m in money],
    )
    row(
        "Player's swing: standard deviation of money per round",
        [_money(m.std) for m in money],
    )
    row("Player's bad round (5% of rounds are worse)", [f"{m.percentiles[5]:,}" for m in money])
    row("Player's good round (5% of rounds are better)", [f"{m.percentiles[95]:,}" for m in money])
    row("Points per round: standard deviation", [f"{p.std:.2f}" for p in points])
    row("Points per round: worst and best seen", [f"{p.min:,} / {p.max:,}" for p in points])
    for key, text in (
        ("scoop", "A player wins all three rows against another (per pair)"),
        ("sweep_all", "A player sweeps the whole table (per player)"),
        ("natural", "A player declares a natural (per player)"),
        ("foul", "A player fouls (per player)"),
        ("surrender", "A player surrenders (per player)"),
        ("round_scoop", "Rounds with at least one scoop"),
        ("round_natural", "Rounds with a natural"),
    ):
        row(text, [_share(s.rates[key]) for _, s in variants])
    head = "".join(f"<th>{html.escape(label)}</th>" for label, _ in variants)
    body = "".join(
        f"<tr><td>{name}</td>{''.join(f'<td>{c}</td>' for c in cells)}</tr>" for name, cells in rows
    )
    return f"<table><thead><tr><th></th>{head}</tr></thead><tbody>{body}</tbody></table>"


def _naturals_table(variants: Sequence[tuple[str, Summary]]) -> str:
    exact = natural_probabilities()
    head = "<th>natural</th><th>exact probability</th>"
    head += "".join(
        f"<th>dealt, {html.escape(label)}</th><th>declared, {html.escape(label)}</th>"
        for label, _ in variants
    )
    rows = []
    for name, p in exact.items():
        cells = [f"<td>{name}</td><td>{_share(float(p))}</td>"]
        for _, s in variants:
            n = s.deals * s.seats
            seen = s.natural_frequency(name)
            error = 1.96 * math.sqrt(float(p) * (1 - float(p)) / n) if n else float("nan")
            cells.append(f"<td>{_share(seen)} ± {_share(error)}</td>")
            cells.append(f"<td>{_share(s.natural_frequency(name, declared=True))}</td>")
        rows.append(f"<tr>{''.join(cells)}</tr>")
    return f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>"


def render_report(variants: Sequence[tuple[str, Summary]], title: str | None = None) -> str:
    """The report page of ``(label, summary)`` pairs, as HTML text."""
    if not variants:
        raise ValueError("a report needs at least one variant")
    for label, s in variants:
        if not isinstance(label, str) or not isinstance(s, Summary):
            raise TypeError("variants are (label, Summary) pairs")
    title = title or "Capsa variants compared: " + ", ".join(label for label, _ in variants)
    seeds = sorted({s.seed for _, s in variants})
    same_deals = _same_deals(variants)
    dealt = (
        "Every variant was played on the same deals (same seed), so the differences "
        "come from the rules alone."
        if same_deals
        else "The variants were played on different deals."
    )
    parts = [
        "<!doctype html><html lang='en'><head><meta charset='utf-8'>",
        f"<title>{html.escape(title)}</title>",
        f"<style>{_STYLE}</style></head><body><h1>{html.escape(title)}</h1>",
        "<p>Each variant below was simulated by dealing many tables, letting every player "
        "arrange the cards the same way, and settling each round with the variant's rules. "
        f"{dealt} Money is in minor units (cents, say): points times the stake. "
        "The rake is what the house keeps from each winning player.</p>",
        "<h2>At a glance</h2>",
        _overview(variants),
        "<h2>What the house earns</h2>",
        "<p>The house's rake over 1,000 rounds at the stake shown. Rake is a percentage of "
        "each winner's money, rounded down, so at a stake of one unit per point it is "
        "mostly zero.</p>",
        f"<figure>{_rake_plot(variants)}</figure>",
        "<h2>How a round ends for a player</h2>",
        "<p>The share of rounds in which a player wins or loses each number of points. "
        "A wider curve means bigger swings; the far ends are the rare big rounds "
        "(scoops, sweeps, naturals).</p>",
        f"<figure>{_points_plot(variants)}</figure>",
        "<h2>How much a player's result swings</h2>",
        "<p>The spread of a player's money per round after rake. The box holds the middle "
        "half of the rounds, the whiskers run from the 5% worst to the 5% best, the dots "
        "mark the 1% and 99% rounds, and the triangle is the average. A player needs a "
        "bankroll of several times the spread to ride out a bad run.</p>",
        f"<figure>{_volatility_plot(variants)}</figure>",
        "<h2>Naturals</h2>",
        "<p>How often a player is dealt each natural (the bars), against its exact "
        "probability (the black diamonds; how they are computed is in docs/bulk.md). "
        "'Declared' counts only the naturals the variant pays and the player chose to "
        "declare. The ± is the 95% sampling margin of the simulated share.</p>",
        f"<figure>{_naturals_plot(variants)}</figure>",
        _naturals_table(variants),
        f"<p class='note'>capsa {__version__}; seed(s) {', '.join(map(str, seeds))}.</p>",
        "</body></html>",
    ]
    return "\n".join(parts)


def write_report(
    variants: Sequence[tuple[str, Summary]],
    path: str | os.PathLike[str],
    title: str | None = None,
) -> None:
    """Writes :func:`render_report` to ``path``."""
    text = render_report(variants, title)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
