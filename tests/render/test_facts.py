"""Facts a showdown page must not leave out: a natural held and not
declared, the seat holding the horse card, the rake as paid, and the
picture's words for screen readers."""

from __future__ import annotations

import re

import capsa
from capsa import Arrangement, Rules, Seat, render
from capsa.render import examples
from capsa.render._words import words

SIX_PAIRS = Arrangement.parse("2c 2d Ac / 3c 3d 4c 4d 5c / 5d 6c 6d 7h 7s")
OTHER = Arrangement.parse("Kc Qd Jc / 9c 9d Tc Th 2h / Ah Ad As Ks Kh")


def test_a_natural_not_declared_is_told_on_the_seat_payments_and_index() -> None:
    rules = Rules.preset("capsa-susun")
    settlement = capsa.settle([Seat(SIX_PAIRS, declare_natural=False), Seat(OTHER)], rules)
    table = render.table_from_settlement(settlement, rules=rules)
    assert table.seats[0].declined == "six-pairs" and table.seats[1].declined is None
    page = render.page_html(table)
    assert 'class="badge declined">held six pairs, not declared' in page
    assert "<bdi>Seat 0</bdi> held six pairs and did not declare it" in page
    index = render.index_html([render.IndexEntry.settled(1, None, "r.html", table)])
    assert '<span class="mark">natural not declared: six pairs</span>' in index
    # declared, it is a natural and nothing is said of declining
    declared = capsa.settle([Seat(SIX_PAIRS), Seat(OTHER)], rules)
    page = render.page_html(render.table_from_settlement(declared, rules=rules))
    assert "not declared" not in page and "natural: six pairs" in page
    # without the rules nothing can be said
    unknown = render.table_from_settlement(settlement)
    assert unknown.seats[0].declined is None


def test_the_seat_holding_the_horse_card_is_marked() -> None:
    rules = Rules.preset("shisanshui-horse")
    seats = [Seat(SIX_PAIRS, declare_natural=False), Seat(OTHER)]
    page = render.page_html(render.table_from_settlement(capsa.settle(seats, rules), rules=rules))
    marked = re.findall(r'<article[^>]*id="seat-(\d)".*?</article>', page, re.S)
    assert "holds the horse card, the ace of hearts" in page
    holder = re.search(r'id="seat-(\d)"(?:(?!</article>).)*badge horse', page, re.S)
    assert holder is not None and holder.group(1) == "1" and len(marked) == 2
    plain = render.page_html(
        render.table_from_settlement(capsa.settle(seats, Rules.preset("pagat")))
    )
    assert "horse card" not in plain


def test_the_picture_names_itself_for_screen_readers() -> None:
    table = examples.WORKED[1].settle_table()
    svg = render.page_svg(table)
    assert 'aria-labelledby="showdown-title showdown-desc"' in svg
    desc = re.search(r'<desc id="showdown-desc">(.*?)</desc>', svg)
    assert desc is not None
    for seat in table.seats:
        assert f"net {words('en').signed(seat.net)}." in desc.group(1)
    assert "top pair of kings" in desc.group(1)


def test_a_seats_rake_shows_as_paid() -> None:
    table = examples.WORKED[1].settle_table()
    page = render.page_html(table)
    w = words("en")
    raked = [s for s in table.seats if s.rake > 0]
    assert raked
    for seat in raked:
        assert (
            f'<td class="num rake" data-value="{seat.rake}" data-label="rake">'
            f"{w.signed(-seat.rake)}</td>"
        ) in page
    assert "net = money − rake" in page
