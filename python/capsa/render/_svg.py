"""The showdown as one standalone SVG picture: each seat's rows as card
faces with categories and royalties, its marks and totals, the matrix of
row results and every payment, for documents and images (no script, no
font from anywhere else)."""

from __future__ import annotations

from capsa._core import Card
from capsa.render._cards import CARD_IDS, SUIT_DEFS, card_drawing, jokers_played, short_name
from capsa.render._hands import hand_words
from capsa.render._html import page_meta, page_title
from capsa.render._model import ROWS, SeatView, Table
from capsa.render._payments import foul_phrases, payments, played_out_of_order
from capsa.render._text import Speaker
from capsa.render._words import Words, words

__all__ = ["page_svg"]

_WIDTH = 980
_MARGIN = 16
_GAP = 16
_COLUMN = (_WIDTH - 2 * _MARGIN - _GAP) // 2
_CARD_SCALE = 0.8  # faces are 50 x 70: drawn 40 x 56
_ROW_HEIGHT = 62
_LINE = 17
# characters per line of a payment (13px text over the picture's width)
_WRAP = 128
_NAME_CHARS = 14

_STYLE = (
    "text{font-family:'DejaVu Sans',Arial,sans-serif;fill:#1c1b19}"
    ".h1{font-size:20px;font-weight:700}.meta{font-size:13px;fill:#4f4a40}"
    ".h2{font-size:15px;font-weight:700}.name{font-size:15px;font-weight:700}"
    ".mark{font-size:12px;font-weight:700}.natural{fill:#8a6300}.foul{fill:#c0142b}"
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


def _short(name: str) -> str:
    # an escaped name is cut on characters, never inside an entity
    return name if len(name) <= _NAME_CHARS or "&" in name else name[: _NAME_CHARS - 1] + "…"


def _rows(seat: SeatView, table: Table, w: Words, x: int, top: int) -> list[str]:
    """A seat's three rows from ``top``: the cards, the row's name (and what
    each joker in it was played as), its category and its royalty."""
    out = []
    paid = not (seat.foul or seat.surrender or seat.natural is not None)
    for k, row in enumerate(seat.rows):
        ry = top + k * _ROW_HEIGHT
        for c, card in enumerate(row.cards):
            out.append(_card(card, x + 12 + c * 43, ry))
        tx = x + 12 + 5 * 43 + 10
        played = "".join(
            f" · {joker} → {short_name(as_)}"
            for joker, as_ in jokers_played(row.cards, table.rules)
        )
        out.append(
            f'<text class="rowname" x="{tx}" y="{ry + 14}">{w[f"row.{row.name}"]}{played}</text>'
        )
        out.append(
            f'<text class="cat" x="{tx}" y="{ry + 32}">{w[f"category.{row.category}"]}</text>'
        )
        if row.royalty > 0:
            cls = "roy" if paid else "roy void"
            out.append(
                f'<text class="{cls}" x="{tx}" y="{ry + 49}">'
                f"{w['column.royalty']} +{w.number(row.royalty)}</text>"
            )
    return out


def _seat_block(seat: SeatView, table: Table, speak: Speaker, x: int, y: int) -> tuple[str, int]:
    w = speak.words
    out = []
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
    if seat.foul:
        marks.append(("foul", w["badge.foul"]))
    if seat.surrender:
        marks.append(("surrender", w["badge.surrender"]))
    if seat.swept_all:
        marks.append(("sweep", w["badge.sweep_all"]))
    line = f'<text x="{x + 12}" y="{y + 24}"><tspan class="name">{speak.seat(seat.index)}</tspan>'
    for cls, text in marks:
        line += f'<tspan class="mark {cls}" dx="10">{text}</tspan>'
    out.append(line + "</text>")
    top = y + 34
    if seat.foul:
        reasons = speak.value(foul_phrases(seat))
        out.append(f'<text class="small foul" x="{x + 12}" y="{top + 10}">{reasons}</text>')
        top += 16
    out += _rows(seat, table, w, x, top)
    ty = top + 3 * _ROW_HEIGHT + 12
    totals = "   ".join(
        f"{w[f'column.{key}']} {w.signed(value)}"
        for key, value in (
            ("points", seat.points),
            ("money", seat.money),
            ("rake", seat.rake),
            ("net", seat.net),
        )
    )
    out.append(f'<text class="tot" x="{x + 12}" y="{ty}">{totals}</text>')
    height = ty + 12 - y
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
        f'<rect x="{x}" y="{y}" width="{_COLUMN}" height="{height}" rx="10" fill="#fff" '
        f'stroke="{border}" stroke-width="2"{dash}/>'
    )
    return frame + "".join(out), height


def _matrix(table: Table, speak: Speaker, y: int) -> tuple[str, int]:
    w = speak.words
    n = len(table.seats)
    cell_w, cell_h = 118, 40
    out = [f'<text class="h2" x="{_MARGIN}" y="{y + 16}">{w["page.matrix_heading"]}</text>']
    y += 26
    for b in range(n):
        out.append(
            f'<text class="small" x="{_MARGIN + (b + 1) * cell_w}" y="{y + 14}">'
            f"{_short(speak.names[b])}</text>"
        )
    y += 20
    by_pair = {(p.i, p.j): p for p in table.pairs}
    for a in range(n):
        row_y = y + a * cell_h
        out.append(
            f'<text class="small" x="{_MARGIN}" y="{row_y + 16}">{_short(speak.names[a])}</text>'
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


def _wrap(text: str) -> list[str]:
    """Lines of at most ``_WRAP`` characters, broken at spaces (an escaped
    entity holds none, so it is never split)."""
    lines = []
    line = ""
    for word in text.split(" "):
        if line and len(line) + 1 + len(word) > _WRAP:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    lines.append(line)
    return lines


def _payments(table: Table, speak: Speaker, y: int) -> tuple[str, int]:
    w = speak.words
    out = [f'<text class="h2" x="{_MARGIN}" y="{y + 16}">{w["page.payments_heading"]}</text>']
    height = 28
    for number, payment in enumerate(payments(table), start=1):
        text = f"{number}. " + speak.sentence(payment)
        for k, line in enumerate(_wrap(text)):
            x = _MARGIN + (22 if k else 0)
            out.append(f'<text class="pay" x="{x}" y="{y + height + 12}">{line}</text>')
            height += _LINE
        height += 6
    return "".join(out), height


def _title(table: Table, w: Words, speak: Speaker) -> str:
    meta = page_meta(table, w, boxes=False).removeprefix('<p class="meta">').removesuffix("</p>\n")
    meta = meta.replace("<bdi", "<tspan").replace("</bdi>", "</tspan>")
    return (
        f'<text class="h1" x="{_MARGIN}" y="{_MARGIN + 20}">{page_title(table, w)}</text>'
        f'<text class="meta" x="{_MARGIN}" y="{_MARGIN + 42}">{meta}</text>'
    )


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


def page_svg(table: Table, lang: str = "en") -> str:
    """The showdown of one table as a standalone SVG picture."""
    w = words(lang)
    speak = Speaker(w, table, markup=False)
    parts = [_title(table, w, speak)]
    y = _MARGIN + 58
    for start in range(0, len(table.seats), 2):
        heights = []
        for col, seat in enumerate(table.seats[start : start + 2]):
            block, height = _seat_block(seat, table, speak, _MARGIN + col * (_COLUMN + _GAP), y)
            parts.append(block)
            heights.append(height)
        y += max(heights) + _GAP
    block, height = _matrix(table, speak, y)
    parts.append(block)
    y += height + _GAP
    block, height = _payments(table, speak, y)
    parts.append(block)
    y += height + _MARGIN
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{_WIDTH}" height="{y}" '
        f'viewBox="0 0 {_WIDTH} {y}" role="img" lang="{w.lang}" '
        'aria-labelledby="showdown-title showdown-desc">'
        f'<title id="showdown-title">{page_title(table, w)}</title>'
        f'<desc id="showdown-desc">{_description(table, speak)}</desc>'
        f"<style>{_STYLE}</style><defs>{SUIT_DEFS}</defs>"
        f'<rect width="{_WIDTH}" height="{y}" fill="#f3f0e8"/>' + "".join(parts) + "</svg>\n"
    )
