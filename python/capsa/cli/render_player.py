"""``capsa render --player ID``: one player's hand history from a record log.

Of the round records read, those where a seat's player id is ID are drawn
as that player's pages (:mod:`capsa.render._player`): OUT.html is the
first page of their history (:mod:`capsa.render._history`), the rest of it
and a page per round go in OUT-rounds/. Each round's page is written once
the next of the player's rounds is read (it links to it), each history
page once it is full, and the first page last (it lists every page): memory
holds a page of rows, not the history.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from capsa import _core
from capsa.cli.common import prepare_folder, write_file
from capsa.render._history import HistoryPage, PageSpan, history_page, history_row
from capsa.render._model import ROWS, Row, Table
from capsa.render._nav import Nav
from capsa.render._player import PlayerRound, player_page
from capsa.render._text import esc
from capsa.solver import best_arrangement

__all__ = ["PlayerPages"]


def _dealt(record: Mapping[str, Any] | None, seat: int, table: Table) -> tuple[_core.Card, ...]:
    """The 13 cards the seat was dealt: the record's ``hand``, else the
    cards of its rows."""
    seats = record.get("seats") if record is not None else None
    data = seats[seat] if isinstance(seats, list) and seat < len(seats) else None
    hand = data.get("hand") if isinstance(data, Mapping) else None
    if isinstance(hand, str):
        try:
            return tuple(_core.parse_cards(hand))
        except _core.CapsaError:
            pass
    return tuple(card for row in table.seats[seat].rows for card in row.cards)


def _suggestion(dealt: tuple[_core.Card, ...], table: Table) -> tuple[Row, Row, Row] | None:
    """The solver's arrangement of the hand under the round's rules, each
    row with its category; None when the solver cannot play the rules."""
    if table.rules is None or len(dealt) != 13:
        return None
    try:
        choice = best_arrangement(list(dealt), table.rules, seats=len(table.seats))
    except _core.CapsaError:
        return None
    rows = []
    for name, cards in zip(ROWS, choice.arrangement.rows, strict=True):
        value = _core.evaluate(cards, table.rules)
        rows.append(Row(name, tuple(cards), value.category, value.strength, 0))
    return rows[0], rows[1], rows[2]


class PlayerPages:
    """The pages of one player's history, written as the rounds come."""

    def __init__(self, out: Path, lang: str, player: str, page_size: int) -> None:
        self.out = out
        self.lang = lang
        self.player = player
        self.page_size = page_size
        self.folder = out.with_name(out.stem + "-rounds")
        self.count = 0
        self.failed = 0
        self.mine = 0
        self.balance = 0
        # the player as the pages name them: their name at the first round that gives one
        self.name = esc(player)
        self.named = False
        self.held: PlayerRound | None = None
        self.rows: list[str] = []
        self.first_rows: list[str] = []
        self.spans: list[PageSpan] = []
        self.span_start: str | None = None
        self.span_end: str | None = None

    def _round_href(self, number: int) -> str:
        return f"round-{number}.html"

    def _page_href(self, page: int, *, inside: bool) -> str:
        """A history page's link from a page in OUT-rounds/ (``inside``) or from OUT.html."""
        if page == 1:
            return f"../{self.out.name}" if inside else self.out.name
        return f"page-{page}.html" if inside else f"{self.folder.name}/page-{page}.html"

    def _write(self, name: str, text: str) -> None:
        if not self.folder.is_dir():
            prepare_folder(self.folder, "the pages' folder")
        write_file(self.folder / name, text.encode("utf-8"))

    def _flush_round(self, next_number: int | None) -> None:
        held, self.held = self.held, None
        if held is None:
            return
        number = self.mine - (next_number is not None)
        page = (number - 1) // self.page_size + 1
        nav = Nav(
            back=self._page_href(page, inside=True),
            number=number,
            previous=self._round_href(number - 1) if number > 1 else None,
            next=self._round_href(next_number) if next_number is not None else None,
        )
        self._write(self._round_href(number), player_page(held, nav, self.lang))

    def _seat_of(self, table: Table) -> int | None:
        for seat in table.seats:
            if seat.player_id == self.player:
                return seat.index
        return None

    def add(self, table: Table, line: int | None, record: Mapping[str, Any] | None = None) -> None:
        """One drawn round: kept when the player sat at it."""
        del line
        self.count += 1
        seat = self._seat_of(table)
        if seat is None or table.void is not None:
            return
        seat_name = table.seats[seat].name
        if not self.named and seat_name is not None:
            self.name, self.named = esc(seat_name), True
        self.mine += 1
        self._flush_round(self.mine)
        self.balance += table.seats[seat].net
        dealt = _dealt(record, seat, table)
        self.held = PlayerRound(table, seat, dealt, _suggestion(dealt, table), self.balance)
        self._row(table, seat)

    def _row(self, table: Table, seat: int) -> None:
        if len(self.rows) == self.page_size:
            self._close_page(last=False)
        number = self.mine
        href = f"{self.folder.name}/{self._round_href(number)}"
        if number > self.page_size:
            href = self._round_href(number)
        self.rows.append(history_row(table, seat, number, href, self.balance, self.lang))
        if self.span_start is None:
            self.span_start = table.played_at
        self.span_end = table.played_at

    def _close_page(self, last: bool) -> None:
        page = len(self.spans) + 1
        first = (page - 1) * self.page_size + 1
        span = PageSpan(
            self._page_href(page, inside=False),
            first,
            first + len(self.rows) - 1,
            self.span_start,
            self.span_end,
            self.balance if last else self._balance_before_last(),
        )
        self.spans.append(span)
        if page == 1:
            self.first_rows = self.rows
        else:
            view = HistoryPage(
                self.name,
                page,
                previous=self._page_href(page - 1, inside=True),
                next=None if last else self._page_href(page + 1, inside=True),
                first=self._page_href(1, inside=True),
            )
            self._write(f"page-{page}.html", history_page(self.rows, view, self.lang))
        self.rows = []
        self.span_start = self.span_end = None

    def _balance_before_last(self) -> int:
        # a page closes when the next round arrives, whose net is already counted
        assert self.held is not None
        return self.balance - self.held.table.seats[self.held.seat].net

    def error(self, record: bytes, line: int | None) -> None:
        """A round that could not be drawn: it counts, and the rest go on."""
        del record, line
        self.count += 1
        self.failed += 1

    def finish(self) -> None:
        """Writes the last round's page, the last history page and the first."""
        self._flush_round(None)
        if self.rows or not self.spans:
            self._close_page(last=True)
        many = len(self.spans) > 1
        view = HistoryPage(
            self.name,
            1,
            next=self._page_href(2, inside=False) if many else None,
            spans=tuple(self.spans) if many else (),
            rounds=self.mine,
            net=self.balance,
        )
        write_file(self.out, history_page(self.first_rows, view, self.lang).encode("utf-8"))

    def close(self) -> None:
        """Nothing is held open between pages."""
