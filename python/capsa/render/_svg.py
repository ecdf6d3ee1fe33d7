"""The showdown as one standalone SVG picture: each seat's rows as card
faces with categories and royalties, its marks and totals, the matrix of
row results and every payment, for documents and images (no script, no
font from anywhere else)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from capsa import _core
from capsa._core import Card
from capsa.render._cards import CARD_IDS, SUIT_DEFS, card_drawing, jokers_played, short_name
from capsa.render._hands import hand_words
from capsa.render._html import page_meta, page_title
from capsa.render._model import ROWS, SeatView, Table
from capsa.render._payments import foul_phrases, payments, played_out_of_order
from capsa.render._replay import pair_summary
from capsa.render._text import Speaker
from capsa.render._words import Words, words

__all__ = ["NARROW", "WIDE", "page_svg"]

WIDE = 980
"""The picture's width by default: two columns of seats."""
NARROW = 380
"""A phone's picture: one column of seats, the matrix as a list of pairs."""
_MIN_WIDTH, _MAX_WIDTH = 360, 2000
_MARGIN = 16
_GAP = 16
_CARD_SCALE = 0.8  # faces are 50 x 70: drawn 40 x 56
_ROW_HEIGHT = 62
_LINE = 17
# text sizes (CSS px; bold text a little wider) of payments, hands and the title
_TEXT, _HAND, _HEADING = 13.0, 15.0, 21.5
# a character's width in ems of DejaVu Sans, by kind, erring wide
_EMS = (("WMmw@%", 1.0), ("ABCDEFGHIJKLNOPQRSTUVXYZ", 0.74), ("0123456789", 0.66), (" ", 0.33))
_ENTITY = re.compile(r"&[#\w]+;|.", re.S)
_CARDS_PX = 12 + 5 * 43 + 10


@dataclass(frozen=True, slots=True)
class _Layout:
    """Where things go in a picture ``width`` px wide: two columns of seats
    on a wide one, one on a narrow one."""

    width: int

    @property
    def columns(self) -> int:
        return 2 if self.width >= 900 else 1

    @property
    def column(self) -> int:
        return (self.width - 2 * _MARGIN - (self.columns - 1) * _GAP) // self.columns

    @property
    def narrow(self) -> bool:
        return self.columns == 1


_STYLE = (
    "text{font-family:'DejaVu Sans',Arial,sans-serif;fill:#1c1b19}"
    ".h1{font-size:20px;font-weight:700}.meta{font-size:13px;fill:#4f4a40}"
    ".h2{font-size:15px;font-weight:700}.name{font-size:15px;font-weight:700}"
    ".mark{font-size:12px;font-weight:700}.natural{fill:#8a6300}.declined{fill:#6b4e00}.foul{fill:#c0142b}"
    ".surrender{fill:#555}.auto{fill:#0b5563}.sweep{fill:#6a1b9a}.scoop{fill:#1d5fa8}"
    ".small{font-size:12px;fill:#6a6253}.rowname{font-size:12px;fill:#6a6253}"
    ".cat{font-size:14px;font-weight:600}.roy{font-size:12px;fill:#1a6b32;font-weight:700}"
    ".void{fill:#8a8a8a;text-decoration:line-through}.tot{font-size:13px}"
    ".pay{font-size:13px}.won{fill:#1a6b32}.lost{fill:#c0142b}.tied{fill:#6a6253}"
    ".face{fill:#fff;stroke:#9d978b;stroke-width:1.5}"
    ".black{color:#161616}.red{color:#c8102e}"
    ".card text{fill:currentColor;font-size:16px;font-weight:700}"
    ".card text.wide{font-size:15px;letter-spacing:-1.5px}.card use{fill:currentColor}"
    ".card .copy{fill:currentColor}.card text.copy-mark{fill:#fff;font-size:15px}"
    ".card text.joker-word{font-size:15px}"
)

_BODIES = tuple(
    f'class="{classes}" data-card="{card}">{drawing}</g>'
    for card in map(Card, range(CARD_IDS))
    for classes, drawing in [card_drawing(card)]
)


def _card(card: Card, x: float, y: float) -> str:
    return f'<g transform="translate({x:g} {y:g}) scale({_CARD_SCALE})" {_BODIES[card.id]}'


def _short(name: str, px: float) -> str:
    """An escaped name cut short with "…" to ``px`` at 12 px (never inside
    an entity)."""
    if _text_px(name, 12.5) <= px:
        return name
    kept = ""
    for char in _ENTITY.findall(name):
        if _text_px(kept + char + "…", 12.5) > px:
            break
        kept += char
    return kept + "…"


def _row_text(seat: SeatView, table: Table, w: Words, k: int) -> tuple[str, str, str]:
    """A row's name (with what each joker in it was played as), its hand
    in words and its royalty (empty without one), as SVG text."""
    row = seat.rows[k]
    played = "".join(
        f" · {joker} → {short_name(as_)}" for joker, as_ in jokers_played(row.cards, table.rules)
    )
    royalty = ""
    if row.royalty > 0:
        paid = not (seat.foul or seat.surrender or seat.natural is not None)
        cls = "roy" if paid else "roy void"
        figure = f"{w['column.royalty']} +{w.number(row.royalty)}"
        royalty = f'<tspan class="{cls}" dx="8">{figure}</tspan>'
    return f"{w[f'row.{row.name}']}{played}", hand_words(row, w), royalty


def _rows(
    seat: SeatView, table: Table, w: Words, x: int, top: int, lay: _Layout
) -> tuple[list[str], int]:
    """A seat's three rows from ``top`` and the height they take: the cards,
    and beside them (a wide picture) or above them (a narrow one) the row's
    name, its hand in words wrapped to the column, and its royalty."""
    out = []
    y = top
    beside = not lay.narrow
    room = lay.column - (_CARDS_PX if beside else 24) - 8
    for k, row in enumerate(seat.rows):
        name, hand, royalty = _row_text(seat, table, w, k)
        tx = x + _CARDS_PX if beside else x + 12
        out.append(f'<text class="rowname" x="{tx}" y="{y + 14}">{name}{royalty}</text>')
        lines = _wrap(hand, room, _HAND)[:3]
        for n, line in enumerate(lines):
            out.append(f'<text class="cat" x="{tx}" y="{y + 30 + 14 * n}">{line}</text>')
        cards_y = y if beside else y + 22 + 14 * len(lines)
        for c, card in enumerate(row.cards):
            out.append(_card(card, x + 12 + c * 43, cards_y))
        y = y + _ROW_HEIGHT if beside else cards_y + 62
    return out, y - top


def _marks(seat: SeatView, w: Words) -> list[tuple[str, str]]:
    """The seat's marks, each its class and its words."""
    marks = []
    if seat.auto:
        marks.append(("auto", w["badge.auto"]))
    if seat.banker:
        marks.append(("banker", w["badge.banker"]))
    if seat.multiplier != 1:
        marks.append(("multiplier", w.fill("badge.multiplier", v=w.number(seat.multiplier))))
    if played_out_of_order(seat):
        marks.append(("out-of-order", w["badge.out_of_order"]))
    if seat.natural is not None:
        text = w.fill(
            "badge.natural", natural=w[f"natural.{seat.natural}"], v=w.points(seat.natural_points)
        )
        marks.append(("natural", text))
    if seat.declined is not None:
        marks.append(("declined", w.fill("badge.declined", natural=w[f"natural.{seat.declined}"])))
    if seat.foul:
        marks.append(("foul", w["badge.foul"]))
    if seat.surrender:
        marks.append(("surrender", w["badge.surrender"]))
    if seat.swept_all:
        marks.append(("sweep", w["badge.sweep_all"]))
    return marks


def _seat_block(
    seat: SeatView, table: Table, speak: Speaker, x: int, y: int, lay: _Layout
) -> tuple[str, int]:
    w = speak.words
    out = []
    marks = _marks(seat, w)
    names = _wrap(speak.seat(seat.index), lay.column - 24, 16.5)
    for n, name in enumerate(names):
        out.append(f'<text class="name" x="{x + 12}" y="{y + 24 + 18 * n}">{name}</text>')
    top = y + 34 + 18 * (len(names) - 1)
    together = "  ".join(text for _, text in marks)
    if lay.narrow or _text_px(names[-1], 16.5) + _text_px(together, 13) + 20 > lay.column - 24:
        # each mark a line of its own when they do not fit beside the name
        for cls, text in marks:
            for line in _wrap(text, lay.column - 24, 13):
                out.append(f'<text class="mark {cls}" x="{x + 12}" y="{top + 8}">{line}</text>')
                top += 16
    else:
        ty = y + 24 + 18 * (len(names) - 1)
        out.append(
            f'<text x="{x + 12 + _text_px(names[-1], 16.5):.0f}" y="{ty}">'
            + "".join(f'<tspan class="mark {cls}" dx="10">{text}</tspan>' for cls, text in marks)
            + "</text>"
        )
    if seat.foul:
        reasons = speak.value(foul_phrases(seat))
        out.append(f'<text class="small foul" x="{x + 12}" y="{top + 10}">{reasons}</text>')
        top += 16
    drawn, rows_height = _rows(seat, table, w, x, top, lay)
    out += drawn
    ty = top + rows_height + 12
    figures = [
        f"{w[f'column.{key}']} {w.signed(value)}"
        for key, value in (
            ("points", seat.points),
            ("money", seat.money),
            ("rake", -seat.rake),
            ("net", seat.net),
        )
    ]
    lines = ["   ".join(figures)]
    if _text_px(lines[0], _TEXT) > lay.column - 24:
        lines = ["   ".join(figures[:2]), "   ".join(figures[2:])]
    for n, text in enumerate(lines):
        out.append(f'<text class="tot" x="{x + 12}" y="{ty + _LINE * n}">{text}</text>')
    height = ty + _LINE * (len(lines) - 1) + 12 - y
    border = (
        "#6a1b9a"
        if seat.swept_all
        else "#c0142b"
        if seat.foul
        else "#b7860b"
        if seat.natural
        else "#8a8a8a"
        if seat.surrender
        else "#d8d1c2"
    )
    dash = ' stroke-dasharray="6 4"' if seat.foul else ""
    frame = (
        f'<rect x="{x}" y="{y}" width="{lay.column}" height="{height}" rx="10" fill="#fff" '
        f'stroke="{border}" stroke-width="2"{dash}/>'
    )
    return frame + "".join(out), height


def _pair_list(table: Table, speak: Speaker, y: int, lay: _Layout) -> tuple[str, int]:
    """The row results as a list of pairs, a line each (a narrow picture)."""
    w = speak.words
    out = [f'<text class="h2" x="{_MARGIN}" y="{y + 16}">{w["page.matrix_heading"]}</text>']
    height = 28
    for pair in table.pairs:
        if pair.outcome == "unplayed":
            continue
        text = pair_summary(pair, pair.i, speak)
        for k, line in enumerate(_wrap(text, lay.width - 2 * _MARGIN - 12)):
            x = _MARGIN + (12 if k else 0)
            out.append(f'<text class="tot" x="{x}" y="{y + height + 12}">{line}</text>')
            height += _LINE
    return "".join(out), height


def _matrix(table: Table, speak: Speaker, y: int, lay: _Layout) -> tuple[str, int]:
    if lay.narrow:
        return _pair_list(table, speak, y, lay)
    w = speak.words
    n = len(table.seats)
    cell_w, cell_h = min(118, (lay.width - 2 * _MARGIN) // (n + 1)), 40
    out = [f'<text class="h2" x="{_MARGIN}" y="{y + 16}">{w["page.matrix_heading"]}</text>']
    y += 26
    for b in range(n):
        out.append(
            f'<text class="small" x="{_MARGIN + (b + 1) * cell_w}" y="{y + 14}">'
            f"{_short(speak.names[b], cell_w - 8)}</text>"
        )
    y += 20
    by_pair = {(p.i, p.j): p for p in table.pairs}
    for a in range(n):
        row_y = y + a * cell_h
        out.append(
            f'<text class="small" x="{_MARGIN}" y="{row_y + 16}">'
            f"{_short(speak.names[a], cell_w - 8)}</text>"
        )
        for b in range(n):
            cx = _MARGIN + (b + 1) * cell_w
            if a == b:
                out.append(f'<text class="small" x="{cx}" y="{row_y + 16}">—</text>')
                continue
            pair = by_pair[(min(a, b), max(a, b))]
            sign = 1 if a == pair.i else -1
            if pair.outcome == "rows":
                parts = []
                for k, row in enumerate(ROWS):
                    result = ("tied", "won", "lost")[pair.rows[k] * sign]
                    symbol = {"won": "+", "lost": "−", "tied": "="}[result]
                    parts.append(
                        f'<tspan class="{result}">{w[f"row_short.{row}"]} {symbol}</tspan>'
                    )
                cell = " ".join(parts)
            else:
                cell = w[f"outcome.{pair.outcome}"]
            out.append(f'<text class="tot" x="{cx}" y="{row_y + 16}">{cell}</text>')
            out.append(
                f'<text class="tot" x="{cx}" y="{row_y + 33}" font-weight="700">'
                f"{w.signed(sign * pair.points)}</text>"
            )
    return "".join(out), 26 + 20 + n * cell_h


def _em(char: str) -> float:
    for chars, ems in _EMS:
        if char in chars:
            return ems
    return 0.62


def _text_px(text: str, size: float) -> float:
    """How wide ``text`` (escaped) is drawn at ``size`` px, erring wide."""
    return sum(_em("x" if len(c) > 1 else c) for c in _ENTITY.findall(text)) * size


def _wrap(text: str, px: float, size: float = _TEXT) -> list[str]:
    """Lines of escaped text no wider than ``px``, broken at spaces; a word
    wider than a line is broken between its characters (never inside an
    entity)."""
    lines: list[str] = []
    line = ""
    for word in text.split(" "):
        candidate = f"{line} {word}" if line else word
        if _text_px(candidate, size) <= px:
            line = candidate
            continue
        if line:
            lines.append(line)
        line = ""
        for char in _ENTITY.findall(word):
            if line and _text_px(line + char, size) > px:
                lines.append(line)
                line = ""
            line += char
    lines.append(line)
    return lines


def _payments(table: Table, speak: Speaker, y: int, lay: _Layout) -> tuple[str, int]:
    w = speak.words
    out = [f'<text class="h2" x="{_MARGIN}" y="{y + 16}">{w["page.payments_heading"]}</text>']
    height = 28
    for number, payment in enumerate(payments(table), start=1):
        text = f"{number}. " + speak.sentence(payment)
        for k, line in enumerate(_wrap(text, lay.width - 2 * _MARGIN - 22)):
            x = _MARGIN + (22 if k else 0)
            out.append(f'<text class="pay" x="{x}" y="{y + height + 12}">{line}</text>')
            height += _LINE
        height += 6
    return "".join(out), height


def _title(table: Table, w: Words, lay: _Layout) -> tuple[str, int]:
    """The title and the line under it, wrapped to the picture; and the
    height they take."""
    meta = page_meta(table, w, boxes=False).removeprefix('<p class="meta">').removesuffix("</p>\n")
    # the round id and the rules' name are boxes on a page, plain text here
    meta = re.sub(r"</?bdi[^>]*>", "", meta)
    out = []
    y = _MARGIN + 20
    for line in _wrap(page_title(table, w), lay.width - 2 * _MARGIN, _HEADING):
        out.append(f'<text class="h1" x="{_MARGIN}" y="{y}">{line}</text>')
        y += 26
    parts = meta.split(" · ") if lay.narrow else [meta]
    for part in parts:
        for line in _wrap(part, lay.width - 2 * _MARGIN):
            out.append(f'<text class="meta" x="{_MARGIN}" y="{y - 4}">{line}</text>')
            y += 18
    return "".join(out), y + 6


def _description(table: Table, speak: Speaker) -> str:
    """What a screen reader says of the picture: each seat's rows in words
    and its net."""
    w = speak.words
    return " ".join(
        w.fill(
            "svg.seat",
            seat=speak.seat(seat.index),
            rows=", ".join(f"{w[f'row.{row.name}']} {hand_words(row, w)}" for row in seat.rows),
            v=w.signed(seat.net),
        )
        for seat in table.seats
    )


def _width(width: object) -> int:
    if not isinstance(width, int) or isinstance(width, bool):
        raise TypeError(f"width is an int, not {type(width).__name__}")
    if not _MIN_WIDTH <= width <= _MAX_WIDTH:
        raise _core.ArgumentError(
            f"width must be from {_MIN_WIDTH} to {_MAX_WIDTH} px, not {width}"
        )
    return width


def page_svg(table: Table, lang: str = "en", *, width: int = WIDE) -> str:
    """The showdown of one table as a standalone SVG picture ``width`` CSS
    px wide (360 to 2000): two columns of seats from 900 px, else one, with
    the row results as a list of pairs (:data:`NARROW` is a phone's)."""
    w = words(lang)
    lay = _Layout(_width(width))
    speak = Speaker(w, table, markup=False)
    title, y = _title(table, w, lay)
    parts = [title]
    for start in range(0, len(table.seats), lay.columns):
        heights = []
        for col, seat in enumerate(table.seats[start : start + lay.columns]):
            x = _MARGIN + col * (lay.column + _GAP)
            block, height = _seat_block(seat, table, speak, x, y, lay)
            parts.append(block)
            heights.append(height)
        y += max(heights) + _GAP
    block, height = _matrix(table, speak, y, lay)
    parts.append(block)
    y += height + _GAP
    block, height = _payments(table, speak, y, lay)
    parts.append(block)
    y += height + _MARGIN
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{lay.width}" height="{y}" '
        f'viewBox="0 0 {lay.width} {y}" role="img" lang="{w.lang}" '
        'aria-labelledby="showdown-title showdown-desc">'
        f'<title id="showdown-title">{page_title(table, w)}</title>'
        f'<desc id="showdown-desc">{_description(table, speak)}</desc>'
        f"<style>{_STYLE}</style><defs>{SUIT_DEFS}</defs>"
        f'<rect width="{lay.width}" height="{y}" fill="#f3f0e8"/>' + "".join(parts) + "</svg>\n"
    )
