"""The variant report's charts, as inline SVG with a text alternative.

Each chart is drawn twice: wide (:data:`WIDE_INCHES`, shown at its own size
from windows of :data:`WIDE_FROM_PX` up) and narrow (:data:`NARROW_INCHES`,
a phone's column, never shown smaller than drawn), so its text is never
under 12 CSS px. Text stays text (``svg.fonttype`` ``none``): it scales
with the picture, a reader can find it, and a test can read it. Each
picture carries ``role="img"`` and an ``aria-label`` saying what it shows
in words and numbers. Needs matplotlib.
"""

from __future__ import annotations

import html
import io
import math
import textwrap
from collections.abc import Callable, Sequence
from typing import Any

from capsa.odds import natural_probabilities
from capsa.report.numbers import money_text, rate_text
from capsa.report.variants import Variant
from capsa.report.words import ReportWords

__all__ = [
    "NARROW_INCHES",
    "WIDE_FROM_PX",
    "WIDE_INCHES",
    "naturals_chart",
    "points_chart",
    "rake_chart",
    "swing_chart",
]

#: Width of a wide chart (inches of 96 CSS px): 864 px.
WIDE_INCHES = 9.0
#: Width of a narrow chart: 317 CSS px, the column of a 360 px phone.
NARROW_INCHES = 3.3
#: The narrowest window (CSS px) that shows the wide charts at their size.
WIDE_FROM_PX = 900
# font sizes (points of 4/3 CSS px): 14.7 px wide, 12.7 px narrow
_WIDE_FONT = 11.0
_NARROW_FONT = 9.5

Draw = Callable[[Any, bool], None]


def _svg(draw: Draw, narrow: bool, height: float, alt: str) -> str:
    try:
        import matplotlib
        from matplotlib.figure import Figure
        from matplotlib.layout_engine import ConstrainedLayoutEngine
    except ImportError as exc:  # pragma: no cover - the test extra installs it
        raise ImportError("the report needs matplotlib: pip install 'capsa[report]'") from exc
    font = _NARROW_FONT if narrow else _WIDE_FONT
    width = NARROW_INCHES if narrow else WIDE_INCHES
    with matplotlib.rc_context({"svg.fonttype": "none", "font.size": font}):
        # room at the edges: a browser's text runs a little wider than
        # matplotlib measures it, and the picture clips what sticks out
        layout = ConstrainedLayoutEngine(w_pad=8 / 72, h_pad=6 / 72)
        fig = Figure(figsize=(width, height * (1.45 if narrow else 1)), layout=layout)
        draw(fig, narrow)
        out = io.StringIO()
        fig.savefig(out, format="svg", metadata={"Date": None})
    text = out.getvalue()
    text = text[text.index("<svg") :]
    label = html.escape(alt, quote=True)
    return text.replace("<svg ", f'<svg role="img" aria-label="{label}" ', 1)


def _chart(draw: Draw, alt: str, height: float = 4.2) -> str:
    return (
        f"<figure><div class='chart wide'>{_svg(draw, False, height, alt)}</div>"
        f"<div class='chart narrow'>{_svg(draw, True, height, alt)}</div></figure>"
    )


def _wrap(text: str, narrow: bool, wide_width: int = 60, narrow_width: int = 32) -> str:
    # a name such as "sim/house-pagat.toml" stays whole, as on the page
    width = narrow_width if narrow else wide_width
    return textwrap.fill(text, width, break_on_hyphens=False, break_long_words=False)


def _x_label(fig: Any, ax: Any, words: ReportWords, key: str, narrow: bool) -> None:
    """The x axis's label; on a phone short (``key_short`` where the words
    have one: a browser sets the lines of a centred label a little apart
    from where matplotlib measured them) and centred on the picture, not on
    the axes, so that names on the y axis cannot push it off the edge."""
    if narrow:
        fig.supxlabel(words.get(f"{key}_short", words[key]), fontsize=_NARROW_FONT)
    else:
        ax.set_xlabel(words[key])
    _number_axis(ax.xaxis, words)


def _number_axis(axis: Any, words: ReportWords) -> None:
    """A linear axis's ticks written the language's way ("20,000",
    "20.000")."""
    from matplotlib.ticker import FuncFormatter, ScalarFormatter

    if not isinstance(axis.get_major_formatter(), ScalarFormatter):
        return

    def tick(value: float, _position: object = None) -> str:
        text = f"{value:,.0f}" if float(value).is_integer() else f"{value:,.6g}"
        return words.digits(text.replace("-", "\u2212"))

    axis.set_major_formatter(FuncFormatter(tick))


def _one_in(share: float, words: ReportWords) -> str:
    """A log axis's tick in words, not powers of ten (whose small raised
    digits would be too small to read): "10%", "1 in 1,000", "1 in 10
    million"."""
    if share >= 0.01:
        return words.digits(f"{100 * share:g}%")
    one_in = round(1 / share)
    for size, word in ((10**12, "trillion"), (10**9, "billion"), (10**6, "million")):
        if one_in >= size:
            number = f"{one_in // size:,} {words[f'number.{word}']}"
            return words.digits(words.fill("number.one_in", n=number))
    return words.digits(words.fill("number.one_in", n=f"{one_in:,}"))


def _log_axis(axis: Any, decades: int, words: ReportWords) -> None:
    """A log axis with a tick every ``decades`` powers of ten, in words."""
    from matplotlib.ticker import FuncFormatter, LogLocator, NullLocator

    axis.set_major_locator(LogLocator(base=10.0**decades))
    axis.set_minor_locator(NullLocator())
    axis.set_major_formatter(FuncFormatter(lambda share, _position: _one_in(share, words)))


def _legend(fig: Any, ax: Any, narrow: bool) -> None:
    if narrow:
        # above the plot: below it is the x axis's label
        fig.legend(loc="outside upper center", ncols=1, frameon=False)
    else:
        ax.legend()


def rake_chart(variants: Sequence[Variant], words: ReportWords) -> str:
    """Bars of the house's rake per 1,000 rounds, one a variant."""
    values = [v.summary.house_rake_per_1000 for v in variants]
    shown = [money_text(x, words.lang) for x in values]

    def draw(fig: Any, narrow: bool) -> None:
        ax = fig.add_subplot()
        names = [_wrap(v.name, narrow, 24, 14) for v in variants]
        bars = ax.barh(names, values, color="#3b5f99")
        ax.bar_label(bars, labels=shown, padding=3)
        top = max((x for x in values if math.isfinite(x)), default=0.0)
        ax.set_xlim(0, (top or 1) * (2.0 if narrow else 1.3))
        ax.invert_yaxis()
        _x_label(fig, ax, words, "chart.rake_axis", narrow)
        ax.grid(axis="x", alpha=0.3)

    values_text = "; ".join(f"{v.name} {x}" for v, x in zip(variants, shown, strict=True))
    alt = words.fill("chart.rake_alt", values=values_text)
    return _chart(draw, alt, height=1.4 + 0.5 * len(variants))


def _curve(group: Sequence[Variant]) -> tuple[list[float], list[float]]:
    """The share of rounds a player ends on each number of points, with a
    gap where no round ended."""
    h = group[0].summary.points_histogram()
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
    return xs, ys


def points_chart(groups: Sequence[Sequence[Variant]], words: ReportWords) -> str:
    """Curves of the share of rounds a player ends on each number of points
    (log scale), one a group of variants with the same curve."""

    def draw(fig: Any, narrow: bool) -> None:
        ax = fig.add_subplot()
        for group in groups:
            xs, ys = _curve(group)
            label = " = ".join(v.name for v in group)
            ax.plot(xs, ys, marker=".", markersize=4, linewidth=1, label=_wrap(label, narrow))
        ax.set_yscale("log")
        _log_axis(ax.yaxis, 1, words)
        _x_label(fig, ax, words, "chart.points_axis", narrow)
        ax.set_ylabel(words["chart.points_share"])
        ax.grid(alpha=0.3)
        _legend(fig, ax, narrow)

    described = []
    for group in groups:
        stats = group[0].summary.points_stats()
        described.append(
            words.fill(
                "chart.points_item",
                names=words.listed([v.name for v in group]),
                low=words.digits(f"{stats.min:,}"),
                high=words.digits(f"{stats.max:,}"),
                std=words.digits(f"{stats.std:.2f}"),
            )
        )
    return _chart(draw, words.fill("chart.points_alt", values="; ".join(described)))


def swing_chart(variants: Sequence[Variant], words: ReportWords) -> str:
    """Boxes of a player's money per round after rake, one a variant."""
    stats = [v.summary.money_stats(net=True) for v in variants]

    def draw(fig: Any, narrow: bool) -> None:
        ax = fig.add_subplot()
        boxes = []
        for v, m in zip(variants, stats, strict=True):
            p = m.percentiles
            boxes.append(
                {
                    "label": _wrap(v.name, narrow, 24, 14),
                    "med": p[50],
                    "q1": p[25],
                    "q3": p[75],
                    "whislo": p[5],
                    "whishi": p[95],
                    "mean": m.mean,
                    "fliers": [p[1], p[99]],
                }
            )
        ax.bxp(boxes, showmeans=True, orientation="horizontal")
        ax.invert_yaxis()
        _x_label(fig, ax, words, "chart.swing_axis", narrow)
        ax.grid(axis="x", alpha=0.3)

    def number(value: int) -> str:
        return words.digits(f"{value:,}")

    items = "; ".join(
        words.fill(
            "chart.swing_item",
            name=v.name,
            q1=number(m.percentiles[25]),
            q3=number(m.percentiles[75]),
            p5=number(m.percentiles[5]),
            p95=number(m.percentiles[95]),
            mean=money_text(m.mean, words.lang),
        )
        for v, m in zip(variants, stats, strict=True)
    )
    alt = words.fill("chart.swing_alt", values=items)
    return _chart(draw, alt, height=1.6 + 0.7 * len(variants))


def naturals_chart(variants: Sequence[Variant], same_deals: bool, words: ReportWords) -> str:
    """Bars of how often each natural was dealt, against its exact
    probability and the 95% margin of a share of that many hands."""
    exact = natural_probabilities()
    names = list(exact)
    # the same deals deal the same hands: one bar then
    shown = variants[:1] if same_deals else variants
    hands = shown[0].summary.deals * shown[0].summary.seats

    def draw(fig: Any, narrow: bool) -> None:
        ax = fig.add_subplot()
        height = 0.8 / len(shown)
        for k, v in enumerate(shown):
            ys = [i - 0.4 + (k + 0.5) * height for i in range(len(names))]
            freq = [v.summary.natural_frequency(n) for n in names]
            text = (
                words["chart.naturals_dealt"]
                if len(shown) == 1
                else words.fill("chart.naturals_dealt_of", name=v.name)
            )
            ax.barh(ys, freq, height=height, label=_wrap(text, narrow), alpha=0.8)
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
            label=_wrap(words["chart.naturals_exact"], narrow),
        )
        ax.set_yticks(range(len(names)), [words.get(f"natural.{n}", n) for n in names])
        ax.set_xscale("log")
        ax.set_xlim(1e-12, 0.1)
        _log_axis(ax.xaxis, 4 if narrow else 2, words)
        ax.tick_params(axis="x", labelrotation=30 if narrow else 0)
        _x_label(fig, ax, words, "chart.naturals_axis", narrow)
        ax.invert_yaxis()
        ax.grid(axis="x", alpha=0.3)
        where = "outside upper center" if narrow else "outside lower center"
        fig.legend(loc=where, ncols=1 if narrow else 2, frameon=False)

    items = "; ".join(
        words.fill(
            "chart.naturals_item",
            natural=words.get(f"natural.{n}", n),
            v=rate_text(float(exact[n]), words.lang),
        )
        for n in names
    )
    return _chart(draw, words.fill("chart.naturals_alt", values=items), height=6.0)
