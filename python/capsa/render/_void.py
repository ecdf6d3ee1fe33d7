"""Void records (``docs/records.md``, "Void records") as pages: a round that
was never played, its commitment published and its record never written,
drawn with its reason, its commitment and nonce, its table, time and notes,
and the check of its digest with its place in the table's chain.

The adapter reads a JSON object whose ``format`` is ``"capsa-void-record"``:
``round_id``, ``reason`` and ``deal`` (``commitment``, ``nonce``) are
required; ``table_id``, ``meta`` (its ``played_at``), ``digest`` and
``previous_digest`` are shown when given.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from capsa import records
from capsa._core import TableError
from capsa.records.times import played_at_text
from capsa.render._model import Table, VoidRound, display_id
from capsa.render._records import record_check, record_meta, record_text
from capsa.render._story import round_facts, round_notes, verification
from capsa.render._text import esc, ident, unbroken
from capsa.render._words import Words

__all__ = ["is_void_record", "table_from_void", "void_body", "void_title"]


def is_void_record(value: object) -> bool:
    """True for a void record: a JSON object whose ``format`` says so."""
    return isinstance(value, Mapping) and value.get("format") == records.VOID_FORMAT


def table_from_void(record: Mapping[str, Any], *, verify: bool = True) -> Table:
    """What a page draws for a void record (see the module docs); ``verify``
    checks its digest. Raises ``TableError`` naming a required key that is
    missing or not of its type, ``TypeError`` for a record that is not a
    dict."""
    if not isinstance(record, Mapping):
        raise TypeError(f"a void record is a dict, not {type(record).__name__}")
    reason = record.get("reason")
    if not isinstance(reason, str):
        raise TableError("record.reason must be text (why the round is void)")
    deal = record.get("deal")
    commitment = deal.get("commitment") if isinstance(deal, Mapping) else None
    nonce = deal.get("nonce") if isinstance(deal, Mapping) else None
    if not isinstance(commitment, str):
        raise TableError("record.deal.commitment must be text (64 hex digits)")
    if not isinstance(nonce, int) or isinstance(nonce, bool):
        raise TableError("record.deal.nonce must be an integer")
    meta = record.get("meta")
    return Table(
        seats=(),
        pairs=(),
        round_id=display_id(record.get("round_id")),
        checks=(record_check("void", records.replay, record),) if verify else (),
        table_id=display_id(record.get("table_id"), "table_id"),
        played_at=played_at_text(meta) if isinstance(meta, Mapping) else None,
        meta=record_meta(record),
        digest=record_text(record, "digest"),
        previous_digest=record_text(record, "previous_digest"),
        void=VoidRound(reason, commitment, nonce),
    )


def void_title(table: Table, w: Words) -> str:
    """A void round's page title, escaped."""
    if table.round_id is None:
        return w["void.title"]
    return f"{w['void.title']}: {w['page.round']} {esc(table.round_id)}"


def void_body(table: Table, w: Words) -> str:
    """A void round's page content (without the document around it)."""
    assert table.void is not None
    void = table.void
    meta = ""
    if table.round_id is not None:
        meta = f'<p class="meta">{w["page.round"]} {ident(table.round_id, "round-id")}</p>\n'
    facts = (
        f"<div><dt>{w['void.reason']}</dt><dd>{ident(void.reason, 'void-reason')}</dd></div>"
        f'<div><dt>{w["void.commitment"]}</dt><dd><code class="digest commitment" '
        f'tabindex="0">{esc(void.commitment)}</code></dd></div>'
        f"<div><dt>{w['void.nonce']}</dt><dd>{void.nonce}</dd></div>"
    )
    return (
        f"<header>\n<h1>{unbroken(void_title(table, w))}</h1>\n{meta}"
        f"{round_facts(table, w)}</header>\n"
        f'<section class="void">\n<h2>{w["void.heading"]}</h2>\n<p>{w["void.says"]}</p>\n'
        f'<dl class="facts void-facts">{facts}</dl>\n</section>\n'
        + verification(table, w)
        + round_notes(table, w)
    )
