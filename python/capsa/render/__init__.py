"""The showdown as people see it: a settled table drawn as a page, with every
payment told in words.

``Settlement.to_html()`` and ``Settlement.to_svg()`` call :func:`settlement_html`
and :func:`settlement_svg`; ``capsa render`` draws the rounds of a file
(:mod:`capsa.cli.render`). A page shows each seat's rows as card faces with
their categories and royalties, the seat-against-seat matrix of row results
and points, naturals, fouls (which rows are out of order), surrenders,
scoops and sweep-alls, each seat's points, money, rake and net, and for
every pair the payment as a sentence naming each term of the rule text
(docs/rules.md, "Settlement") with its figure, taken from the settlement's
own breakdown, and the rule it follows, said in one sentence (an operator's
page, :func:`page_html` with ``operator=True``, also cites docs/rules.md).
A round record's page tells its story: the seats the server arranged at the
deadline, the players, the table, the time of play, the notes (``meta``),
the verification and the chain; a void record's page says why its round
was never played. Cards are named for screen readers. In
English (``lang="en"``) or Indonesian (``lang="id"``).

Everything drawn comes through a :class:`Table`: :func:`table_from_settlement`
reads a settlement (or its ``to_dict()``), :func:`table_from_record` a round
record, :func:`table_from_void` a void record.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from capsa._core import Settlement
from capsa.render._html import page_html
from capsa.render._index import IndexEntry, index_html
from capsa.render._model import Check, PairView, Row, SeatView, Table, table_from_settlement
from capsa.render._payments import Payment, payments
from capsa.render._records import is_round_record, table_from_record
from capsa.render._svg import NARROW, WIDE, page_svg
from capsa.render._void import is_void_record, table_from_void
from capsa.render._words import LANGUAGES, check_lang
from capsa.rules import Rules

__all__ = [
    "LANGUAGES",
    "NARROW",
    "WIDE",
    "Check",
    "IndexEntry",
    "PairView",
    "Payment",
    "Row",
    "SeatView",
    "Table",
    "index_html",
    "is_round_record",
    "is_void_record",
    "page_html",
    "page_svg",
    "payments",
    "settlement_html",
    "settlement_svg",
    "table_from_record",
    "table_from_settlement",
    "table_from_void",
]


def settlement_html(
    settlement: Settlement | Mapping[str, Any],
    lang: str = "en",
    *,
    rules: Rules | None = None,
    round_id: object = None,
    seat_names: Sequence[str] | None = None,
    title: str | None = None,
) -> str:
    """The showdown of a settled table as one self-contained HTML page.

    ``rules`` (the rules it was settled under) lets each payment name the
    rule's own figures where the settlement gives only a total (a foul's
    three rows times the row points, the rows whose royalties count);
    ``round_id``, ``seat_names`` and ``title`` are shown as text.
    """
    check_lang(lang)
    table = table_from_settlement(
        settlement, rules=rules, round_id=round_id, seat_names=seat_names, title=title
    )
    return page_html(table, lang)


def settlement_svg(
    settlement: Settlement | Mapping[str, Any],
    lang: str = "en",
    *,
    rules: Rules | None = None,
    round_id: object = None,
    seat_names: Sequence[str] | None = None,
    title: str | None = None,
    width: int = WIDE,
) -> str:
    """The showdown of a settled table as one standalone SVG picture (the
    seats, their totals and every payment; see :func:`settlement_html`),
    ``width`` px wide: 980 by default, :data:`NARROW` (380) for a phone."""
    check_lang(lang)
    table = table_from_settlement(
        settlement, rules=rules, round_id=round_id, seat_names=seat_names, title=title
    )
    return page_svg(table, lang, width=width)
