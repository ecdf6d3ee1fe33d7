"""Tables that fit their window: the width below which a page lays its
matrix of row results and its table of totals out as blocks, one seat
each with every figure labelled, instead of a table a phone would cut.

The width is worked out from what the table holds (its number of columns
and its longest figure or name), so a table of four seats stays a table on
a phone and one of eight, or of figures in the billions, becomes blocks.
"""

from __future__ import annotations

from capsa.render._model import Table
from capsa.render._words import Words

__all__ = ["fit_style"]

# a character of the page's text, and a cell's padding and border, in CSS px
_CHAR_PX = 9.0
_CELL_PX = 16.0
# the page's margins and the section's own
_PAGE_PX = 40.0
# a name is drawn whole up to this many characters; a longer one wraps
_NAME_CHARS = 10

_BLOCKS = """{sel} table,{sel} tbody,{sel} tr,{sel} th,{sel} td{{display:block}}
{sel} table{{background:none;border:0}}
{sel} tr:first-child{{display:none}}
{sel} tr{{background:#fff;border:1px solid #d8d1c2;border-radius:8px;margin:0 0 6px;
padding:4px 10px;display:flex;flex-wrap:wrap;gap:2px 14px}}
{sel} th,{sel} td{{border:0;padding:0;background:none;min-width:0;max-width:100%;
text-align:left;overflow-wrap:anywhere}}
{sel} th{{width:100%}}
{sel} td::before{{content:attr(data-label) " ";color:#4f4a40;font-weight:400}}
{sel} td.self,{sel} td:empty{{display:none}}
{sel} .res,{sel} .cell-points{{display:inline;margin-right:4px}}
"""


def _width(columns: int, longest: int) -> int:
    return int(columns * (longest * _CHAR_PX + _CELL_PX) + _PAGE_PX)


def _longest_name(table: Table, w: Words) -> int:
    names = [s.name or w.fill("seat.name", v=str(s.index)) for s in table.seats]
    return min(max(len(name) for name in names), _NAME_CHARS)


def fit_style(table: Table, w: Words) -> str:
    """The page's CSS laying the matrix and the totals out as blocks below
    the widths they need."""
    if not table.seats:
        return ""
    name = _longest_name(table, w)
    # a cell holds a pair's points, or its outcome when no row was played
    points = max(
        (
            len(w.signed(p.points)) if p.outcome == "rows" else len(w[f"outcome.{p.outcome}"])
            for p in table.pairs
        ),
        default=1,
    )
    matrix = _width(len(table.seats) + 1, max(name, points, 4))
    figures = [len(w.signed(v)) for s in table.seats for v in (s.points, s.money, -s.rake, s.net)]
    totals = _width(5, max([name, *figures]))
    return "".join(
        f"@media (max-width:{width}px){{\n{_BLOCKS.format(sel=sel)}}}\n"
        for sel, width in ((".matrix", matrix), (".totals", totals))
    )
