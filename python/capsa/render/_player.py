"""A round as one player sees it in their hand history: their seat first,
their result and running balance, the 13 cards they were dealt beside how
they arranged them and what the solver would have played, their pairs
replayed row by row, then the whole showdown; links to the previous and
next round of theirs and to their history.

The page works without scripts. A small inline script, fetching nothing,
shows times in the reader's own time zone and offers to copy or share the
page's link and a summary of the hand.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources

from capsa._core import Card
from capsa.render._cards import card_face
from capsa.render._fit import fit_style
from capsa.render._hands import hand_words
from capsa.render._html import _DOCUMENT_TAIL, _document_head, table_body
from capsa.render._model import Row, SeatView, Table
from capsa.render._nav import Nav, nav_links
from capsa.render._text import Speaker, esc
from capsa.render._words import Words, words

__all__ = ["LOCAL_SCRIPT", "PlayerRound", "history_style", "player_page"]


@cache
def history_style() -> str:
    """The style the hand history's pages add to the showdown's."""
    return resources.files("capsa.render").joinpath("history.css").read_text(encoding="utf-8")


@dataclass(frozen=True, slots=True)
class PlayerRound:
    """One round of a player's: their seat, the cards they were dealt (None
    when the record does not say), the solver's arrangement of them (None
    when not computed), and their balance after the round."""

    table: Table
    seat: int
    dealt: tuple[Card, ...] | None
    suggestion: tuple[Row, Row, Row] | None
    balance: int


LOCAL_SCRIPT = """<script>
(() => {
  const lang = document.documentElement.lang;
  for (const t of document.querySelectorAll('time[datetime$="Z"]')) {
    const when = new Date(t.dateTime);
    if (Number.isNaN(when.getTime())) continue;
    t.title = t.textContent;
    t.textContent = when.toLocaleString(lang, {dateStyle: 'medium', timeStyle: 'medium'});
  }
  for (const b of document.querySelectorAll('button[data-copy]')) {
    b.hidden = false;
    b.addEventListener('click', async () => {
      const text = b.dataset.copy === 'link' ? location.href : b.dataset.copy;
      try {
        if (navigator.share && b.dataset.share) {
          await navigator.share({title: document.title, text});
        }
        else await navigator.clipboard.writeText(text);
        b.dataset.done = '1';
      } catch (e) { b.dataset.done = '0'; }
    });
  }
})();
</script>
"""
"""Local times, and the copy and share buttons, of the player's pages."""


def _cards(cards: Sequence[Card], w: Words) -> str:
    return f'<div class="cards">{"".join(card_face(c, w.lang) for c in cards)}</div>'


def _suggested(rnd: PlayerRound, seat: SeatView, w: Words) -> str:
    if rnd.suggestion is None:
        return ""
    played = [set(row.cards) for row in seat.rows]
    if [set(row.cards) for row in rnd.suggestion] == played:
        return f'<p class="same">{w["history.same_as_solver"]}</p>\n'
    rows = "".join(
        f'<div class="row" data-row="{row.name}">{_cards(row.cards, w)}'
        f'<div class="row-info"><span class="row-name">{w[f"row.{row.name}"]}</span>'
        f'<span class="cat">{hand_words(row, w)}</span></div></div>'
        for row in rnd.suggestion
    )
    return f'<h3>{w["history.solver"]}</h3>\n<div class="suggestion">{rows}</div>\n'


def _hand(rnd: PlayerRound, seat: SeatView, w: Words) -> str:
    dealt = (
        f"<h3>{w['history.dealt']}</h3>\n{_cards(rnd.dealt, w)}\n" if rnd.dealt is not None else ""
    )
    arranged = "; ".join(f"{w[f'row.{row.name}']}: {hand_words(row, w)}" for row in seat.rows)
    return (
        f'<section class="your-hand">\n<h2>{w["history.hand_heading"]}</h2>\n{dealt}'
        f"<h3>{w['history.arranged']}</h3>\n<p>{arranged}</p>\n"
        + _suggested(rnd, seat, w)
        + "</section>\n"
    )


def _result(rnd: PlayerRound, seat: SeatView, speak: Speaker, nav: Nav) -> str:
    w = speak.words
    tone = "pos" if seat.net > 0 else "neg" if seat.net < 0 else ""
    summary = w.fill(
        "history.result",
        seat=speak.seat(seat.index),
        net=f'<strong class="{tone}">{w.signed(seat.net)}</strong>',
        balance=f"<strong>{w.signed(rnd.balance)}</strong>",
        v=w.number(nav.number),
    )
    copy = esc(_copy_text(rnd, seat, w))
    return (
        f'<section class="your-result">\n<p class="result-line">{summary}</p>\n'
        '<p class="share">'
        '<button type="button" data-copy="link" data-share="1" hidden>'
        f"{w['history.share']}</button> "
        f'<button type="button" data-copy="{copy}" hidden>{w["history.copy"]}</button></p>\n'
        f'<p class="deck-option"><label><input type="checkbox" id="four-colour">'
        f"{w['history.four_colour']}</label></p>\n</section>\n"
    )


def _copy_text(rnd: PlayerRound, seat: SeatView, w: Words) -> str:
    """The hand as plain text, for the copy button."""
    rows = " / ".join(" ".join(str(c) for c in row.cards) for row in seat.rows)
    rid = rnd.table.round_id or ""
    return f"{rid}: {rows} ({w.signed(seat.net)})"


def player_page(rnd: PlayerRound, nav: Nav, lang: str = "en") -> str:
    """One round of a player's hand history as a self-contained page."""
    w = words(lang)
    table = rnd.table
    seat = table.seats[rnd.seat]
    speak = Speaker(w, table)
    name = speak.names[rnd.seat]
    title = w.fill("history.round_title", player=name, round=esc(table.round_id or ""))
    lead = nav_links(nav, w) + _result(rnd, seat, speak, nav) + _hand(rnd, seat, w)
    body = table_body(table, w, seat=rnd.seat, lead=lead, title=title)
    head = _document_head(w, title, history_style() + fit_style(table, w))
    return head + body + nav_links(nav, w, landmark=False) + LOCAL_SCRIPT + _DOCUMENT_TAIL
