"""The showdown as one self-contained HTML page: inline CSS and SVG, no
script, no font or image from anywhere else; it reads the same offline and
printed."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from importlib import resources

from capsa import _core
from capsa._core import Card
from capsa.render._cards import SUIT_DEFS, card_face, card_name, jokers_played
from capsa.render._fit import fit_style
from capsa.render._hands import hand_words
from capsa.render._model import ROWS, SeatView, Table
from capsa.render._nav import Nav, nav_links
from capsa.render._payments import (
    Payment,
    foul_phrases,
    foul_reasons,
    payments,
    played_out_of_order,
)
from capsa.render._replay import replay_section
from capsa.render._story import round_facts, round_notes, verification
from capsa.render._text import Speaker, esc, ident, unbroken
from capsa.render._void import void_body, void_title
from capsa.render._words import Words, words

__all__ = ["page_html"]


@cache
def _style() -> str:
    return resources.files("capsa.render").joinpath("style.css").read_text(encoding="utf-8")


def _document_head(w: Words, title: str, more_style: str = "") -> str:
    return (
        f'<!DOCTYPE html>\n<html lang="{w.lang}">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{title}</title>\n<style>\n{_style()}{more_style}</style>\n</head>\n<body>\n"
        f'<svg class="defs" aria-hidden="true" focusable="false"><defs>{SUIT_DEFS}</defs></svg>\n'
        "<main>\n"
    )


_DOCUMENT_TAIL = "</main>\n</body>\n</html>\n"
_NAV_STYLE = (
    ".round-nav{display:flex;flex-wrap:wrap;gap:6px 16px;margin:10px 0;font-weight:600}"
    ".round-nav .nav-off{color:#6a6253;font-weight:400}\n"
)


def _document(w: Words, title: str, body: str) -> str:
    return _document_head(w, title) + body + _DOCUMENT_TAIL


def page_title(table: Table, w: Words) -> str:
    """The page's title: its own, or the round's id, escaped."""
    if table.title is not None:
        return esc(table.title)
    if table.round_id is not None:
        return f"{w['page.title']}: {w['page.round']} {esc(table.round_id)}"
    return w["page.title"]


def page_meta(table: Table, w: Words, boxes: bool = True) -> str:
    """The line under the title: round, rules, seats and stake; ``boxes``
    draws the round id and the rules' name as boxes of their own (HTML),
    else as plain ``<bdi>`` elements (for the SVG picture)."""

    def shown(text: str, kind: str) -> str:
        return ident(text, kind) if boxes else f'<bdi class="{kind}">{esc(text)}</bdi>'

    parts = []
    if table.round_id is not None:
        parts.append(f"{w['page.round']} {shown(table.round_id, 'round-id')}")
    if table.rules is not None:
        parts.append(f"{w['page.rules']} {shown(table.rules.name, 'rules-name')}")
    else:
        parts.append(w["page.rules_unknown"])
    parts.append(w.fill("page.seat_count", v=str(len(table.seats))))
    stakes = {p.stake for p in table.pairs}
    if len(stakes) == 1:
        parts.append(w.fill("page.stake", v=w.number(stakes.pop())))
    else:
        parts.append(w["page.stakes_vary"])
    return '<p class="meta">' + " · ".join(parts) + "</p>\n"


def _seat_marks(seat: SeatView, table: Table, speak: Speaker) -> list[str]:
    w = speak.words
    marks = []
    if seat.auto:
        marks.append(f'<span class="badge auto">{w["badge.auto"]}</span>')
    if seat.banker:
        marks.append(f'<span class="badge banker">{w["badge.banker"]}</span>')
    if seat.multiplier != 1:
        text = w.fill("badge.multiplier", v=w.number(seat.multiplier))
        marks.append(f'<span class="badge multiplier">{text}</span>')
    horse = _horse_card(table)
    if horse is not None and any(int(c) == int(horse) for row in seat.rows for c in row.cards):
        text = w.fill("badge.horse", card=card_name(horse, w.lang))
        marks.append(f'<span class="badge horse">{text}</span>')
    if played_out_of_order(seat):
        marks.append(f'<span class="badge out-of-order">{w["badge.out_of_order"]}</span>')
    if seat.natural is not None:
        text = w.fill(
            "badge.natural", natural=w[f"natural.{seat.natural}"], v=w.points(seat.natural_points)
        )
        marks.append(f'<span class="badge natural">{text}</span>')
    if seat.declined is not None:
        text = w.fill("badge.declined", natural=w[f"natural.{seat.declined}"])
        marks.append(f'<span class="badge declined">{text}</span>')
    if seat.foul:
        marks.append(f'<span class="badge foul">{w["badge.foul"]}</span>')
    if seat.surrender:
        marks.append(f'<span class="badge surrender">{w["badge.surrender"]}</span>')
    if seat.swept_all:
        marks.append(f'<span class="badge sweep">{w["badge.sweep_all"]}</span>')
    else:
        scooped = []
        for p in table.pairs:
            if p.outcome == "rows" and p.i == seat.index and p.scoop == 1:
                scooped.append(p.j)
            elif p.outcome == "rows" and p.j == seat.index and p.scoop == -1:
                scooped.append(p.i)
        if scooped:
            names = w.join([speak.seat(k) for k in scooped])
            marks.append(f'<span class="badge scoop">{w["badge.scoop"]}: {names}</span>')
    return marks


def _horse_card(table: Table) -> Card | None:
    """The rules' horse card, None without one (or without rules)."""
    if table.rules is None:
        return None
    try:
        return Card(str(table.rules["horse.card"]))
    except KeyError:  # rules without a horse card
        return None


def _seat(seat: SeatView, table: Table, speak: Speaker, reasons: str | None) -> str:
    w = speak.words
    classes = ["seat"]
    if seat.foul:
        classes.append("foul")
    if seat.natural is not None:
        classes.append("natural")
    if seat.surrender:
        classes.append("surrender")
    if seat.swept_all:
        classes.append("swept")
    if seat.auto:
        classes.append("auto")
    out = [
        f'<article class="{" ".join(classes)}" id="seat-{seat.index}" data-seat="{seat.index}">',
        f'<div class="seat-head"><h3>{speak.seat(seat.index)}</h3>',
    ]
    if seat.player_id is not None and seat.player_id not in (seat.name, f"seat-{seat.index}"):
        out.append(f'<span class="player-id">{w["story.player"]} {ident(seat.player_id)}</span>')
    out += _seat_marks(seat, table, speak)
    if reasons is not None:
        out.append(f'<span class="reason">{reasons}</span>')
    if seat.natural is not None:
        note = w["page.natural_split"] if seat.natural_rows else w["page.natural_cards"]
        out.append(f'<span class="note">{note}</span>')
    out.append("</div>")
    out_rows = {r for _, rows in foul_reasons(seat) for r in rows} if seat.foul else set()
    paid = not (seat.foul or seat.surrender or seat.natural is not None)
    unpaid = "natural" if seat.natural is not None else "foul" if seat.foul else "surrender"
    shown_rows = seat.natural_rows or tuple(row.cards for row in seat.rows)
    heads = _row_heads(w.lang)
    for row, cards in zip(seat.rows, shown_rows, strict=True):
        out.append(
            f'<div class="row{" out" if row.name in out_rows else ""}" data-row="{row.name}">'
            f'<div class="cards">{"".join([card_face(c, w.lang) for c in cards])}</div>'
            f'{heads[row.name]}<span class="cat" title="{w["column.hand"]}">'
            f"{hand_words(row, w)}</span>"
        )
        out += _jokers_played(cards, table, w)
        if row.royalty > 0:
            title = w["column.royalty"] if paid else w[f"page.{unpaid}_no_royalty"]
            out.append(
                f'<span class="roy{"" if paid else " void"}" title="{title}">'
                f"{w['column.royalty']} +{w.number(row.royalty)}</span>"
            )
        out.append("</div></div>")
    labels = _total_labels(w.lang)
    out.append(
        '<dl class="seat-totals">'
        + "".join(
            [
                f'{label}<dd class="{key}">{w.signed(value)}</dd></div>'
                for (key, label), value in zip(
                    labels, (seat.points, seat.money, -seat.rake, seat.net), strict=True
                )
            ]
        )
    )
    out.append("</dl></article>")
    return "\n".join(out) + "\n"


def _jokers_played(cards: Sequence[Card], table: Table, w: Words) -> list[str]:
    """What each joker of a row stands for, a line each."""
    return [
        f'<span class="played">'
        f"{w.fill('card.played_as', joker=card_name(card, w.lang), card=card_name(as_, w.lang))}"
        "</span>"
        for card, as_ in jokers_played(cards, table.rules)
    ]


@cache
def _row_heads(lang: str) -> dict[str, str]:
    """The start of each row's caption in a language: built once."""
    w = words(lang)
    return {
        row: f'<div class="row-info"><span class="row-name">{w[f"row.{row}"]}</span>'
        for row in ROWS
    }


@cache
def _total_labels(lang: str) -> tuple[tuple[str, str], ...]:
    """Each seat total's key and the start of its entry in a language."""
    w = words(lang)
    return tuple(
        (key, f"<div><dt>{w[f'column.{key}']}</dt>") for key in ("points", "money", "rake", "net")
    )


@cache
def _result_marks(lang: str) -> dict[tuple[int, int], str]:
    """Each row's result mark (row index, +1/0/-1) in a language: built once."""
    w = words(lang)
    marks = {}
    for k, row in enumerate(ROWS):
        for value, result, symbol in ((1, "won", "+"), (-1, "lost", "−"), (0, "tied", "=")):
            marks[k, value] = (
                f'<span class="res {result}" data-row="{row}" data-result="{result}" '
                f'title="{w[f"row.{row}"]}: {w[f"result.{result}"]}">'
                f"{w[f'row_short.{row}']} {symbol}</span>"
            )
    return marks


def _matrix(table: Table, speak: Speaker) -> str:
    w = speak.words
    n = len(table.seats)
    out = [
        f'<section class="matrix">\n<h2>{w["page.matrix_heading"]}</h2>\n'
        '<div class="scroll" tabindex="0"><table>',
        f'<tr><th scope="col">{w["page.matrix_corner"]}</th>'
        + "".join(f'<th scope="col">{speak.seat(b)}</th>' for b in range(n))
        + "</tr>",
    ]
    marks_of = _result_marks(w.lang)
    pairs = {(p.i, p.j): p for p in table.pairs}
    for a in range(n):
        cells = [f'<th scope="row">{speak.seat(a)}</th>']
        for b in range(n):
            if a == b:
                cells.append('<td class="self">—</td>')
                continue
            pair = pairs[(a, b) if a < b else (b, a)]
            sign = 1 if a < b else -1
            if pair.outcome == "rows":
                marks = [marks_of[k, r * sign] for k, r in enumerate(pair.rows)]
            else:
                marks = [f'<span class="res kind">{w[f"outcome.{pair.outcome}"]}</span>']
            points = sign * pair.points
            tone = "pos" if points > 0 else "neg" if points < 0 else ""
            label = w.fill("page.against", seat=speak.names[b])
            cells.append(
                f'<td data-seat="{a}" data-against="{b}" data-outcome="{pair.outcome}" '
                f'data-label="{label}">'
                + "".join(marks)
                + f'<span class="cell-points {tone}" data-points="{points}">'
                f"{w.signed(points)}</span></td>"
            )
        out.append("<tr>" + "".join(cells) + "</tr>")
    out.append(f'</table></div>\n<p class="legend">{w["page.matrix_legend"]}</p>\n</section>\n')
    return "\n".join(out)


def _totals(table: Table, speak: Speaker) -> str:
    w = speak.words
    keys = ("points", "money", "rake", "net")
    out = [
        f'<section class="totals">\n<h2>{w["page.totals_heading"]}</h2>\n'
        '<div class="scroll" tabindex="0"><table>',
        f'<tr><th scope="col">{w["page.matrix_corner"]}</th>'
        + "".join(f'<th class="num">{w[f"column.{k}"]}</th>' for k in keys)
        + "</tr>",
    ]
    for seat in table.seats:
        figures = (seat.points, seat.money, seat.rake, seat.net)
        out.append(
            f'<tr data-seat="{seat.index}"><th scope="row">{speak.seat(seat.index)}</th>'
            + "".join(
                # a seat's rake is paid: shown taken away, as net = money − rake
                f'<td class="num {k}" data-value="{v}" data-label="{w[f"column.{k}"]}">'
                f"{w.signed(-v if k == 'rake' else v)}</td>"
                for k, v in zip(keys, figures, strict=True)
            )
            + "</tr>"
        )
    rake = sum(seat.rake for seat in table.seats)
    out.append(
        f'<tr class="house"><th scope="row">{w["page.house"]}</th><td></td><td></td>'
        f'<td class="num rake" data-value="{rake}" data-label="{w["column.rake"]}">'
        f"{w.signed(rake)}</td><td></td></tr>"
    )
    out.append(f'</table></div>\n<p class="legend">{w["page.totals_legend"]}</p>\n</section>\n')
    return "\n".join(out)


def _payment(payment: Payment, speak: Speaker) -> str:
    pair = payment.pair
    attrs = (
        f'data-pair="{pair.i}-{pair.j}" data-outcome="{pair.outcome}" '
        f'data-points="{payment.points}" data-money="{payment.money}" data-stake="{pair.stake}"'
    )
    if payment.payer is not None:
        attrs += f' data-payer="{payment.payer}" data-payee="{payment.payee}"'
    text = [
        f'<li class="payment" {attrs}><span class="head">{speak.head(payment)}</span> ',
        f'<span class="why">{speak.story(payment)}',
    ]
    end = ";" if payment.terms is not None else "."
    if payment.equation is not None:
        text.append(f':</span> <span class="sum">{speak.equation(payment.equation)}{end}</span>')
    else:
        text.append(f"{end}</span>")
    if payment.terms is not None:
        text.append(f' <span class="sum terms">{speak.terms(payment.terms)}.</span>')
    text.append(f' <span class="rule">{speak.sections(payment)}</span></li>')
    return "".join(text)


def _payments(paid: list[Payment], speak: Speaker, table: Table) -> str:
    w = speak.words
    items = "\n".join(_payment(p, speak) for p in paid)
    declined = "".join(
        '<p class="declined-note">'
        + w.fill("say.declined", seat=speak.seat(s.index), natural=w[f"natural.{s.declined}"])
        + "</p>\n"
        for s in table.seats
        if s.declined is not None
    )
    return (
        f'<section class="pay">\n<h2>{w["page.payments_heading"]}</h2>\n{declined}'
        f'<ol class="payments">\n{items}\n</ol>\n</section>\n'
    )


def _rules_used(paid: list[Payment], w: Words, operator: bool) -> str:
    """Each rule the payments follow, by its name and one sentence; on an
    operator's page also where docs/rules.md states it."""
    used = dict.fromkeys(s for p in paid for s in p.sections)
    items = []
    for s in used:
        cite = ""
        if operator:
            # docs/rules.md is written in English: its heading is cited as it is there
            where = f"{w['page.rule_prefix']}, “{words('en')[f'section.{s}']}”"
            cite = f' <cite class="docs">{w["story.docs"]}: {where}.</cite>'
        items.append(
            f'<div id="rule-{s}"><dt>{w[f"rule_name.{s}"]}</dt>'
            f"<dd>{w[f'rule_says.{s}']}{cite}</dd></div>"
        )
    return (
        f'<section class="rules-used">\n<h2>{w["page.rules_heading"]}</h2>\n'
        f'<dl class="rules-list">{"".join(items)}</dl>\n</section>\n'
    )


def _reasons(seat: SeatView, speak: Speaker) -> str | None:
    return speak.value(foul_phrases(seat)) if seat.foul else None


def table_body(
    table: Table,
    w: Words,
    operator: bool = False,
    *,
    seat: int | None = None,
    lead: str = "",
    title: str | None = None,
) -> str:
    """The page's main content (without the document around it). A
    player's page (``seat``) draws that seat first and replays its own
    pairs, with ``lead`` after the header and its own ``title``."""
    speak = Speaker(w, table)
    order = sorted(table.seats, key=lambda s: s.index != seat)
    seats = "".join(_seat(s, table, speak, _reasons(s, speak)) for s in order)
    paid = payments(table)
    heading = title if title is not None else page_title(table, w)
    return (
        f"<header>\n<h1>{unbroken(heading)}</h1>\n{page_meta(table, w)}"
        f"{round_facts(table, w)}</header>\n"
        + lead
        + verification(table, w)
        + f'<section class="table">\n<h2>{w["page.seats_heading"]}</h2>\n'
        f'<div class="seats">\n{seats}</div>\n</section>\n'
        + (replay_section(table, speak, seat) if seat is not None else "")
        + _matrix(table, speak)
        + (replay_section(table, speak) if seat is None else "")
        + _totals(table, speak)
        + _payments(paid, speak, table)
        + _rules_used(paid, w, operator)
        + round_notes(table, w)
    )


def page_html(
    table: Table, lang: str = "en", *, operator: bool = False, nav: Nav | None = None
) -> str:
    """The showdown of one table as a self-contained HTML page.

    A player's page (``Settlement.to_html()``, the default) names the rule
    each payment follows and says each rule in one sentence; an operator's
    page (``operator=True``: the pages ``capsa render`` writes) also cites
    where docs/rules.md states it. ``nav`` links the page to the previous
    and next round and to the index listing it. A void round's page (``table.void``)
    says why it was never played, with its commitment and nonce.
    """
    w = words(lang)
    operator = _core.read_flag(operator, "operator")
    if table.void is not None:
        return _document(w, void_title(table, w), void_body(table, w))
    style = fit_style(table, w)
    if nav is None:
        body = table_body(table, w, operator)
        return _document_head(w, page_title(table, w), style) + body + _DOCUMENT_TAIL
    links = nav_links(nav, w)
    body = table_body(table, w, operator, lead=links)
    foot = nav_links(nav, w, landmark=False)
    head = _document_head(w, page_title(table, w), _NAV_STYLE + style)
    return head + body + foot + _DOCUMENT_TAIL
