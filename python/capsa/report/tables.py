"""The variant report's tables, and the styles that lay them out.

A table is laid out as a grid where it fits the window and as a stack of
blocks where it would not: each row a block headed by its name, each cell
a line labelled with its column (``data-label``). Where the grid stops
fitting is worked out per table from its longest unbreakable texts, so a
table of two variants stays a grid on a phone where one of six does not.
A number never breaks: a rate's estimate is one piece, and its interval
breaks only after "(95%:" and before "to". Should a grid still be wider
than its box, it scrolls there with a cue, kept in view, saying so (shown
only while there is more to scroll: a ``scroll-state`` container query).
"""

from __future__ import annotations

import html
from collections.abc import Sequence

from capsa.report.words import ReportWords

__all__ = ["STYLE", "Row", "stacked_css", "stacks_below", "table_html", "words_html"]

#: A table row: (key, the row's name, its cells).
Row = tuple[str, str, list[str]]

NBSP = "\u00a0"
# a table's text is 0.9 of the body's 16 px
_TABLE_PX = 14.4
# the width of an average character of system-ui, in ems: generous, so a
# grid that is laid out fits
_CHAR_EM = 0.6
# a cell's padding and border, in ems
_CELL_EM = 1.3
# the body's side padding, px
_PAGE_PX = 32
_ROW_HEAD_EM = 11.0

STYLE = """
html { -webkit-text-size-adjust: 100%; text-size-adjust: 100%; }
body { font-family: system-ui, sans-serif; max-width: 1100px; margin: 1.5em auto; padding: 0 1em;
       color: #222; line-height: 1.45; font-size: 16px; overflow-wrap: normal; }
h1 { font-size: 1.5em; line-height: 1.25; } h2 { font-size: 1.2em; margin-top: 2em;
  border-bottom: 1px solid #ccc; }
.scroll { overflow-x: auto; margin: 1em 0; max-width: 100%; container-type: scroll-state; }
.scroll:focus { outline: 2px solid #3b5f99; }
.scroll-cue { display: none; margin: 0 0 0.4em; color: #3b5f99; font-weight: 600;
  position: sticky; left: 0; }
@container scroll-state(scrollable: inline-end) { .scroll-cue { display: block; } }
table { border-collapse: collapse; font-size: 0.9em; }
th, td { border: 1px solid #ccc; padding: 0.3em 0.6em; text-align: right; vertical-align: top; }
th { font-weight: 600; }
thead th { background: #f2f2f2; } thead th:first-child { text-align: left; }
tbody th { text-align: left; font-weight: normal; min-width: 11em; max-width: 22em; }
.word { white-space: nowrap; display: inline-block; max-width: 100%; overflow-x: auto;
  vertical-align: bottom; }
td .margin { display: block; color: #555; }
.note { color: #555; font-size: 0.9em; }
figure { margin: 1em 0; }
.chart svg { display: block; height: auto; }
.wide svg { max-width: 100%; }
.narrow { display: none; }
.narrow svg { width: 100%; max-width: 34em; }
@media (max-width: 600px) { body { margin: 1em auto; } }
"""

# a table below its breakpoint: a block a row, a line a cell
_STACKED = """
@media (max-width: {px}px) {{
  .stack-{px}, .stack-{px} tbody, .stack-{px} tr, .stack-{px} th,
  .stack-{px} td {{ display: block; }}
  .stack-{px} {{ width: 100%; }}
  .stack-{px} thead {{ display: none; }}
  .stack-{px} tr {{ border: 1px solid #ccc; margin: 0 0 0.75em; }}
  .stack-{px} tbody th {{ background: #f2f2f2; font-weight: 600; border: 0;
    border-bottom: 1px solid #ccc; min-width: 0; max-width: none; }}
  .stack-{px} td {{ display: flex; flex-wrap: wrap; justify-content: space-between;
    gap: 0 1em; border: 0; border-top: 1px solid #eee; }}
  .stack-{px} tbody th + td {{ border-top: 0; }}
  .stack-{px} td::before {{ content: attr(data-label); text-align: left; color: #444; }}
  .stack-{px} td .margin {{ flex-basis: 100%; }}
}}
"""


def words_html(text: str) -> str:
    """Text that wraps only between its words: a word a browser could break
    inside (at a hyphen or a slash, such as "three-straight-flushes" or
    "sim/house-pagat.toml") stays whole, and scrolls in its own box if it
    is wider than the window."""
    return " ".join(
        f"<span class='word'>{html.escape(w)}</span>"
        if any(c in w for c in "-/")
        else html.escape(w)
        for w in text.split(" ")
    )


def _margin_pieces(margin: str, words: ReportWords) -> list[str]:
    """The pieces of "(95%: A to B)" that must not break inside: "(95%:",
    "A", "to B)"."""
    low, _, high = words["number.interval"].partition("{low}")[2].partition("{high}")
    joiner = low.strip()
    head, colon, rest = margin.partition(": ")
    if not colon:
        return [margin]
    first, sep, second = rest.partition(f" {joiner} ") if joiner else (rest, "", "")
    pieces = [head + colon.strip(), first]
    if sep:
        pieces.append(f"{joiner} {second}")
    return pieces + ([high] if high.strip() else [])


def _cell_pieces(text: str, words: ReportWords) -> tuple[str, list[str]]:
    """A cell's estimate and the unbreakable pieces of its interval."""
    estimate, bracket, rest = text.partition(" (")
    if not bracket:
        return text, []
    return estimate, _margin_pieces("(" + rest, words)


def _cell(text: str, label: str, words: ReportWords) -> str:
    """A table cell; a rate's interval, in brackets, on a line of its own."""
    estimate, pieces = _cell_pieces(text, words)
    whole = html.escape(estimate.replace(" ", NBSP))
    data = html.escape(label, quote=True)
    if not pieces:
        return f"<td role='cell' data-label='{data}'>{whole}</td>"
    margin = " ".join(html.escape(p.replace(" ", NBSP)) for p in pieces)
    return f"<td role='cell' data-label='{data}'>{whole} <span class='margin'>{margin}</span></td>"


def _text_px(text: str) -> float:
    return len(text) * _CHAR_EM * _TABLE_PX


def stacks_below(head: Sequence[str], rows: Sequence[Row], words: ReportWords) -> int:
    """The narrowest window (CSS px) the table fits as a grid: each column
    as wide as its widest unbreakable text, the row names' at least their
    minimum."""
    columns = len(head)
    widest = [0.0] * columns
    widest[0] = _ROW_HEAD_EM * _TABLE_PX
    for k, h in enumerate(head):
        for w in h.split(" "):
            widest[k] = max(widest[k], _text_px(w))
    for _, name, cells in rows:
        widest[0] = max(widest[0], *(_text_px(w) for w in name.split(" ")))
        for k, c in enumerate(cells, start=1):
            estimate, pieces = _cell_pieces(c, words)
            widest[k] = max(widest[k], *(_text_px(p) for p in [estimate, *pieces]))
    return round(sum(widest) + columns * _CELL_EM * _TABLE_PX + _PAGE_PX)


def table_html(
    label: str, head: Sequence[str], rows: Sequence[Row], words: ReportWords
) -> tuple[str, int]:
    """A table, as HTML, and the window width (px) below which it is laid
    out as a stack; in a box of its own that scrolls sideways, with a cue,
    should the grid be wider than the box. Rows are (key, name, cells);
    ``head`` names the row names' column first."""
    px = stacks_below(head, rows, words)
    heads = "".join(f"<th scope='col' role='columnheader'>{words_html(h)}</th>" for h in head)
    body = "".join(
        f"<tr role='row' data-figure='{html.escape(key, quote=True)}'>"
        f"<th scope='row' role='rowheader'>{words_html(name)}</th>"
        f"{''.join(_cell(c, h, words) for c, h in zip(cells, head[1:], strict=True))}</tr>"
        for key, name, cells in rows
    )
    cue = f"<p class='scroll-cue' aria-hidden='true'>{html.escape(words['page.scroll_cue'])}</p>"
    return (
        f"<div class='scroll' role='region' tabindex='0' aria-label='{html.escape(label)}'>"
        f"{cue}<table class='stack-{px}' role='table'><thead role='rowgroup'><tr role='row'>"
        f"{heads}</tr></thead><tbody role='rowgroup'>{body}</tbody></table></div>"
    ), px


def stacked_css(breakpoints: Sequence[int]) -> str:
    """The styles that stack the tables of these breakpoints."""
    return "".join(_STACKED.format(px=px) for px in sorted(set(breakpoints)))
