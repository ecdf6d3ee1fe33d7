"""How the variant report writes its numbers.

Every rate has :data:`FIGURES` significant figures, kept even when they are
zeros ("1.0%" beside "1.2%"): a percent from 1% up, "1 in N" below (a
natural "1 in 9,500", not "0.011%"). A rate measured by counting has its
95% interval (Wilson's score interval, which stays inside 0..1 and is
right for counts of zero), its bounds written in the estimate's form and to
the estimate's last digit: "1 in 8,900 (95%: 1 in 7,100 to 1 in 11,900)"
(to a digit or two further when the bounds would otherwise read as one
number: "19% (95%: 18.8% to 19.3%)").
Money has two decimals and thousands separated by commas.

Every function takes ``lang`` (``"en"`` or ``"id"``): Indonesian writes
"1 dari 8.900 (95%: 1 dari 7.100 sampai 1 dari 11.900)" and "1.234,50".
"""

from __future__ import annotations

import math

from capsa.report.words import ReportWords, report_words

__all__ = [
    "FIGURES",
    "PERCENT_FROM",
    "Z95",
    "count_text",
    "money_text",
    "percent_text",
    "rate_text",
    "rate_with_margin",
    "wilson_interval",
]

#: Significant figures of every rate and share the report prints.
FIGURES = 2

#: Rates from this share up are written as a percent, below it as "1 in N".
PERCENT_FROM = 0.01

#: The standard normal quantile of a two-sided 95% interval.
Z95 = 1.959964

_MISSING = "-"
# digits a bound may have beyond its estimate's last one
_FINER_AT_MOST = 2


def _last_place(value: float, figures: int = FIGURES) -> int:
    """The power of ten of the last of ``figures`` significant digits of
    ``value`` (> 0)."""
    return math.floor(math.log10(value)) - figures + 1


def _digits(value: float, place: int) -> str:
    """``value`` rounded at the power of ten ``place``, thousands separated."""
    decimals = max(0, -place)
    rounded = round(value, -place) if place > 0 else value
    return f"{rounded:,.{decimals}f}"


def _fixed(value: float, place: int) -> str:
    """``value`` (>= 0) to the place ``place``, or to its own
    :data:`FIGURES` significant figures when that is finer (a bound far
    below the estimate keeps its digits)."""
    if value <= 0:
        return "0"
    return _digits(value, min(place, _last_place(value)))


def percent_text(share: float, lang: str = "en") -> str:
    """A share as a percent to :data:`FIGURES` significant figures: 0.0117
    is "1.2%", 0.01 "1.0%", 0.19 "19%", 0 "0%". NaN and infinities are
    "-". Raises nothing."""
    if not math.isfinite(share):
        return _MISSING
    if share == 0:
        return "0%"
    percent = 100 * share
    return report_words(lang).digits(_digits(percent, _last_place(abs(percent))) + "%")


def rate_text(rate: float, lang: str = "en") -> str:
    """A rate (a share of 0..1) to :data:`FIGURES` significant figures: a
    percent from :data:`PERCENT_FROM` up ("19%", "1.0%"), "1 in N" below
    ("1 in 8,900"), "0" for none; "-" for NaN. Raises nothing."""
    if not math.isfinite(rate):
        return _MISSING
    if rate <= 0:
        return "0"
    if rate >= PERCENT_FROM:
        return percent_text(rate, lang)
    one_in = 1 / rate
    return _one_in(report_words(lang), _digits(one_in, _last_place(one_in)))


def _one_in(words: ReportWords, number: str) -> str:
    """ "1 in N" in words, N written the language's way."""
    return words.digits(words.fill("number.one_in", n=number))


def wilson_interval(count: int, total: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of the rate ``count / total`` (95% for the
    default ``z``). Raises ``ValueError`` unless 0 <= count <= total and
    total > 0."""
    if total <= 0 or not 0 <= count <= total:
        raise ValueError(f"a rate needs 0 <= count <= total and total > 0, got {count} / {total}")
    p = count / total
    z2 = z * z
    centre = (p + z2 / (2 * total)) / (1 + z2 / total)
    half = z * math.sqrt(p * (1 - p) / total + z2 / (4 * total * total)) / (1 + z2 / total)
    return max(0.0, centre - half), min(1.0, centre + half)


def rate_with_margin(count: int, total: int, lang: str = "en") -> str:
    """The rate ``count / total`` and its 95% interval, in one form and to
    one last digit: "19% (95%: 18% to 20%)", "1 in 8,900 (95%: 1 in 7,100
    to 1 in 11,900)", "0 (95%: below 1 in 2,600)", "100% (95%: above
    65%)"; "-" when ``total`` is
    0. Raises ``ValueError`` for a count outside 0..total."""
    if total == 0:
        return _MISSING
    words = report_words(lang)
    low, high = wilson_interval(count, total)
    if count == 0:
        return f"0 (95%: {words.fill('number.below', v=rate_text(high, lang))})"
    if count == total:
        # only a lower bound, to the digit that sets it apart from 100%
        for place in range(0, -5, -1):
            bound = _digits(100 * low, place)
            if float(bound.replace(",", "")) < 100:
                break
        return f"100% (95%: {words.digits(words.fill('number.above', v=bound + '%'))})"
    rate = count / total
    estimate = rate_text(rate, lang)
    # the bounds to the estimate's last digit, or finer where that would
    # write them as one number and hide the interval
    for finer in range(_FINER_AT_MOST + 1):
        first, second = _bounds(rate, low, high, finer, words)
        if first != second:
            break
    return f"{estimate} (95%: {words.fill('number.interval', low=first, high=second)})"


def _bounds(
    rate: float, low: float, high: float, finer: int, words: ReportWords
) -> tuple[str, str]:
    """The bounds of an interval in the form of ``rate``'s text, to its last
    digit or ``finer`` digits further; a percent low to high, "1 in N" the
    frequent to the rare."""
    if rate >= PERCENT_FROM:
        place = _last_place(100 * rate) - finer
        first, second = _fixed(100 * low, place) + "%", _fixed(100 * high, place) + "%"
        return words.digits(first), words.digits(second)
    place = _last_place(1 / rate) - finer
    rare = _one_in(words, _fixed(1 / low, place)) if low > 0 else words["number.none"]
    return _one_in(words, _fixed(1 / high, place)), rare


def money_text(value: float, lang: str = "en") -> str:
    """Money (minor units) with two decimals and commas: "1,234.50"; "-"
    for NaN. Raises nothing."""
    return report_words(lang).digits(f"{value:,.2f}") if math.isfinite(value) else _MISSING


def count_text(value: int, lang: str = "en") -> str:
    """A whole number with commas: "10,000". Raises nothing."""
    return report_words(lang).digits(f"{value:,}")
