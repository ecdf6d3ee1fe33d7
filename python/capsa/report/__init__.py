"""A variant report: simulated rules variants side by side, as one HTML file.

:func:`write_report` (and ``capsa simulate --rules A --rules B --report
OUT.html``) writes a self-contained page, plots inline as SVG, written for
an operator rather than a programmer: what each variant pays the house (per
round, per hour and as a share of the money that changes hands), how much
a player's result swings from round to round, how often the big events
happen, and how often each natural is dealt against its exact
probability. Variants are named by their rules; rates carry their 95%
interval, all to the same significant figures (:mod:`capsa.report.numbers`).
A table says how the variants' rules differ, knob by knob in words. The
page reads on a phone as on a desktop: a table too wide for the window is
laid out as a stack of labelled blocks. It is written in English or
Indonesian (``lang="id"``; the words are in ``words.toml``). Needs
matplotlib (``pip install 'capsa[report]'``).

This is the operator's report on simulated variants; the text that explains
one settlement to a player is ``Settlement.explain()``, written by the core
(its ``report`` module).
"""

from __future__ import annotations

import os
from collections.abc import Sequence

from capsa.report.knobs import variant_rules
from capsa.report.page import page_html
from capsa.report.variants import ROUNDS_PER_HOUR, variants_of
from capsa.report.words import LANGUAGES, report_words
from capsa.rules import Rules
from capsa.summary import Summary

__all__ = ["LANGUAGES", "ROUNDS_PER_HOUR", "render_report", "write_report"]


def render_report(
    variants: Sequence[tuple[str, Summary]],
    title: str | None = None,
    *,
    rounds_per_hour: int = ROUNDS_PER_HOUR,
    lang: str = "en",
    rules: Sequence[Rules | None] | None = None,
) -> str:
    """The report page of ``(label, summary)`` pairs, as HTML text. A
    variant is named by its rules' name, and by its label too (a preset
    name or a rules file) where two variants share a rules name. The rake
    per hour assumes ``rounds_per_hour`` rounds an hour at a table.
    ``lang`` is the page's language, one of :data:`LANGUAGES` (``"en"``,
    ``"id"``). ``rules``, one per variant (None where not known), are the
    rules the variants were simulated under, which the page compares; by
    default a variant's are the preset its label or rules name names, when
    the summary's digest says it was simulated under it.
    Raises ``ValueError`` for no variants, a ``rounds_per_hour`` below 1
    or ``rules`` not one per variant, ``capsa.ArgumentError`` (a
    ``ValueError``) for a ``lang`` not in :data:`LANGUAGES`, ``TypeError``
    for a pair that is not (label, Summary), a ``lang`` not a str or rules
    not ``capsa.Rules``."""
    words = report_words(lang)
    if not variants:
        raise ValueError("a report needs at least one variant")
    for label, s in variants:
        if not isinstance(label, str) or not isinstance(s, Summary):
            raise TypeError("variants are (label, Summary) pairs")
    if isinstance(rounds_per_hour, bool) or not isinstance(rounds_per_hour, int):
        raise TypeError(f"rounds_per_hour must be an int, not {type(rounds_per_hour).__name__}")
    if rounds_per_hour < 1:
        raise ValueError(f"rounds_per_hour must be at least 1, got {rounds_per_hour}")
    named = variants_of(variants)
    known = variant_rules(named, rules)
    names = list(dict.fromkeys(v.summary.rules for v in named))
    title = title or words.fill("page.title", names=", ".join(names))
    return page_html(named, title, rounds_per_hour, words, known)


def write_report(
    variants: Sequence[tuple[str, Summary]],
    path: str | os.PathLike[str],
    title: str | None = None,
    *,
    rounds_per_hour: int = ROUNDS_PER_HOUR,
    lang: str = "en",
    rules: Sequence[Rules | None] | None = None,
) -> None:
    """Writes :func:`render_report` to ``path``. Raises as it does, and
    ``OSError`` when the file cannot be written."""
    text = render_report(variants, title, rounds_per_hour=rounds_per_hour, lang=lang, rules=rules)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
