"""A player's hand history: their rounds in the order played, across
tables, a page of them at a time, each with its time, table, the rows they
played in words, what happened, their net and their running balance, and a
link to the round's page (:mod:`capsa.render._player`).

The first page also lists every page with the dates and the balance it
covers, and a date field jumps to the page holding that day (with a
script; without one the list of pages is there to follow). Pages hold a
fixed number of rounds, so a history of any length opens and scrolls at
the same speed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from capsa.render._hands import hand_words
from capsa.render._html import _DOCUMENT_TAIL, _document_head
from capsa.render._model import SeatView, Table
from capsa.render._player import LOCAL_SCRIPT, history_style
from capsa.render._story import played_at_shown
from capsa.render._text import esc
from capsa.render._words import Words, words

__all__ = ["HistoryPage", "PageSpan", "history_page", "history_row"]


@dataclass(frozen=True, slots=True)
class PageSpan:
    """One page of a history as the first page lists it: its link, the
    numbers of its first and last round, their times, and the balance after
    its last round."""

    href: str
    first: int
    last: int
    start: str | None
    end: str | None
    balance: int


@dataclass(frozen=True, slots=True)
class HistoryPage:
    """One page of a player's history: the player's name (escaped), its
    number, the links to the pages before and after it and to the first
    page (None where there is none), and on the first page every page's span
    and the whole history's totals (rounds, net)."""

    player: str
    number: int
    previous: str | None = None
    next: str | None = None
    first: str | None = None
    spans: tuple[PageSpan, ...] = ()
    rounds: int = 0
    net: int = 0


def _marks(seat: SeatView, w: Words) -> list[str]:
    marks = []
    if seat.natural is not None:
        marks.append(w.fill("index.natural", v=w[f"natural.{seat.natural}"]))
    for flag, key in (
        (seat.foul, "badge.foul"),
        (seat.surrender, "badge.surrender"),
        (seat.swept_all, "badge.sweep_all"),
        (seat.auto, "badge.auto"),
    ):
        if flag:
            marks.append(w[key])
    return marks


def history_row(table: Table, seat: int, number: int, href: str, balance: int, lang: str) -> str:
    """One round of a player's history, as a list item."""
    w = words(lang)
    view = table.seats[seat]
    rows = " · ".join(
        f'<span class="h-row"><span class="row-name">{w[f"row_short.{row.name}"]}</span> '
        f"{hand_words(row, w)}</span>"
        for row in view.rows
    )
    when = _time_text(table.played_at)
    where = f"<bdi>{esc(table.table_id)}</bdi>" if table.table_id is not None else ""
    marks = "".join(f'<span class="mark">{m}</span>' for m in _marks(view, w))
    tone = "pos" if view.net > 0 else "neg" if view.net < 0 else ""
    rid = esc(table.round_id) if table.round_id is not None else w["index.open"]
    return (
        f'<li class="h-round" data-number="{number}" data-net="{view.net}" '
        f'data-time="{esc(table.played_at or "")}">'
        f'<div class="h-head"><span class="h-num">#{number}</span> '
        f'<a href="{esc(href)}"><bdi>{rid}</bdi></a> '
        f'<span class="h-where">{where} {when}</span></div>'
        f'<div class="h-rows">{rows}</div>'
        f'<div class="h-foot">{marks}<span class="h-net {tone}">{w["column.net"]} '
        f"<strong>{w.signed(view.net)}</strong></span>"
        f'<span class="h-balance">{w["history.balance"]} <strong>{w.signed(balance)}</strong>'
        "</span></div></li>\n"
    )


def _pager(page: HistoryPage, w: Words, landmark: bool = True) -> str:
    def link(href: str | None, key: str, rel: str) -> str:
        if href is None:
            return ""
        return f'<a href="{esc(href)}" rel="{rel}">{w[key]}</a>'

    parts = [
        link(page.previous, "history.previous_page", "prev"),
        f'<span class="h-page">{w.fill("history.page", v=w.number(page.number))}</span>',
        link(page.next, "history.next_page", "next"),
    ]
    if page.first is not None:
        parts.append(link(page.first, "history.all_pages", "first"))
    # the pager at the foot repeats the one at the head: one navigation landmark
    if not landmark:
        return f'<div class="pager">{"".join(parts)}</div>\n'
    return f'<nav class="pager" aria-label="{w["history.pages"]}">{"".join(parts)}</nav>\n'


def _time_text(text: str | None) -> str:
    if text is None:
        return ""
    return f'<time datetime="{esc(text)}">{esc(played_at_shown(text))}</time>'


def _directory(page: HistoryPage, w: Words) -> str:
    """Every page with the rounds, the dates and the balance it covers, and
    the field that jumps to a date."""
    if not page.spans:
        return ""
    items = "".join(
        f'<li data-start="{esc(s.start or "")}" data-end="{esc(s.end or "")}">'
        f'<a href="{esc(s.href)}">{w.fill("history.span", a=w.number(s.first), b=w.number(s.last))}'
        f"</a> {_time_text(s.start)} – {_time_text(s.end)} · "
        f"{w['history.balance']} {w.signed(s.balance)}</li>"
        for s in page.spans
    )
    return (
        f'<section class="h-pages">\n<h2>{w["history.pages"]}</h2>\n'
        '<form class="h-jump" hidden><label for="h-date">'
        f'{w["history.jump"]}</label> <input id="h-date" type="date"> '
        f'<button type="submit">{w["history.go"]}</button></form>\n'
        f'<ol class="h-spans">{items}</ol>\n</section>\n'
    )


_JUMP_SCRIPT = """<script>
(() => {
  const form = document.querySelector('.h-jump');
  if (!form) return;
  const spans = [...document.querySelectorAll('.h-spans li')];
  form.hidden = false;
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const day = document.getElementById('h-date').value;
    if (!day) return;
    const hit = spans.find((li) => (li.dataset.end || '').slice(0, 10) >= day) || spans.at(-1);
    if (hit) location.href = hit.querySelector('a').href;
  });
})();
</script>
"""


def history_page(rows: Sequence[str], page: HistoryPage, lang: str = "en") -> str:
    """A page of a player's history: its rounds (from :func:`history_row`),
    the links between pages, and on the first page the totals and every
    page's span."""
    w = words(lang)
    title = w.fill("history.title", player=page.player)
    totals = ""
    if page.spans:
        totals = (
            '<p class="meta">'
            + w.fill(
                "history.totals",
                v=w.number(page.rounds),
                net=w.signed(page.net),
                n=w.number(len(page.spans)),
            )
            + "</p>\n"
        )
    empty = f"<p>{w['history.none']}</p>\n" if not rows else ""
    return (
        _document_head(w, title, history_style())
        + f"<header>\n<h1>{title}</h1>\n{totals}</header>\n"
        + _pager(page, w)
        + f'<ol class="h-list">\n{"".join(rows)}</ol>\n{empty}'
        + _pager(page, w, landmark=False)
        + _directory(page, w)
        + LOCAL_SCRIPT
        + _JUMP_SCRIPT
        + _DOCUMENT_TAIL
    )
