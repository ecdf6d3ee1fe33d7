"""What a page tells of a round beyond its settlement: the table and when
it was played, the notes recorded with it (``meta``), and its verification
with its place in the table's chain of records. Everything from the record
is escaped."""

from __future__ import annotations

import re

from capsa.render._model import Table
from capsa.render._text import esc, ident
from capsa.render._words import Words

__all__ = ["played_at_shown", "round_facts", "round_notes", "verification"]

_UTC = re.compile(r"(\d{4}-\d\d-\d\d)T(\d\d:\d\d:\d\d)(\.\d+)?Z")


def played_at_shown(played_at: str) -> str:
    """When a round was played as people read it: a UTC time of ISO 8601
    (``2027-01-15T08:00:00.000Z``) as ``2027-01-15 08:00:00 UTC`` (its
    milliseconds when not zero); other text as written."""
    match = _UTC.fullmatch(played_at)
    if match is None:
        return played_at
    fraction = match.group(3) or ""
    if not fraction.strip(".0"):
        fraction = ""
    return f"{match.group(1)} {match.group(2)}{fraction} UTC"


def round_facts(table: Table, w: Words) -> str:
    """The table and the time of play, as a list under the page's title
    (empty when the round has neither)."""
    items = []
    if table.table_id is not None:
        items.append(
            f"<div><dt>{w['story.table']}</dt><dd>{ident(table.table_id, 'table-id')}</dd></div>"
        )
    if table.played_at is not None:
        when = esc(table.played_at)
        items.append(
            f"<div><dt>{w['story.played_at']}</dt>"
            f'<dd><time class="played-at" datetime="{when}">'
            f"{esc(played_at_shown(table.played_at))}</time></dd></div>"
        )
    return f'<dl class="facts">{"".join(items)}</dl>\n' if items else ""


def round_notes(table: Table, w: Words) -> str:
    """The record's ``meta``, each entry as written (empty without one)."""
    if not table.meta:
        return ""
    items = "".join(
        f'<div data-key="{esc(key)}"><dt>{ident(key)}</dt>'
        f"<dd>{ident(value, 'note-value')}</dd></div>"
        for key, value in table.meta
    )
    return (
        f'<section class="notes">\n<h2>{w["story.notes_heading"]}</h2>\n'
        f'<dl class="notes-list">{items}</dl>\n</section>\n'
    )


def _chain(table: Table, w: Words) -> list[str]:
    if table.digest is None:
        return []
    if table.previous_digest is None:
        link = (
            f'<li class="chain" data-chain="first">'
            f"{w['story.chain']}: {w['story.chain_first']}</li>"
        )
    else:
        link = (
            f'<li class="chain" data-chain="linked">{w["story.chain"]}: '
            f'{w["story.chain_linked"]} <code class="digest previous-digest" tabindex="0">'
            f"{esc(table.previous_digest)}</code></li>"
        )
    digest = (
        f'<li class="chain">{w["story.digest"]}: '
        f'<code class="digest this-digest" tabindex="0">{esc(table.digest)}</code></li>'
    )
    return [link, digest]


def verification(table: Table, w: Words) -> str:
    """The record's checks (passed, failed with the reason, or not checked)
    and its place in the chain (empty when the page has neither)."""
    out = []
    for check in table.checks:
        if check.ok is None:
            status, mark = "skip", w["verify.not_checked"]
        elif check.ok:
            status, mark = "ok", w["verify.passed"]
        else:
            status, mark = "fail", w["verify.failed"]
        detail = f" — {esc(check.detail)}" if check.detail else ""
        out.append(
            f'<li class="check" data-check="{esc(check.name)}" data-status="{status}">'
            f'{w[f"verify.{check.name}"]}: <span class="{status}">{mark}</span>{detail}</li>'
        )
    out += _chain(table, w)
    if not out:
        return ""
    items = "\n".join(out)
    return (
        f'<section class="verification">\n<h2>{w["verify.heading"]}</h2>\n'
        f'<ul class="checks">\n{items}\n</ul>\n</section>\n'
    )
