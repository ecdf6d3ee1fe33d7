"""The SVG picture in a real browser, drawn inline in a page at its own
size: the wide picture (980 px) in a desktop's window, the narrow one (380
px) in a phone's. Every outcome kind, a table of long and hostile names,
a banker game with the horse card and eight seats of two decks, in both
languages: no text smaller than 12 px as drawn, no word cut by the
picture's edge, nothing wider than the window."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from browser_pages import (
    at_width,
    clipping_problems,
    font_problems,
    layout_problems,
    screenshot,
)

import capsa
from capsa import render
from capsa.render import examples
from render.test_browser import long_names_table
from render.test_decks import eight_seat_record
from render.test_terms import house_table

_PAGE = """<!DOCTYPE html>
<html lang="{lang}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>picture</title><style>body{{margin:0;background:#fff}}</style></head>
<body><main>{svg}</main></body></html>
"""


def _tables() -> list[tuple[str, render.Table, str]]:
    tables = []
    for example in examples.WORKED + examples.OUTCOMES:
        for lang in example.langs:
            tables.append((f"{example.slug}.{lang}", example.settle_table(), lang))
    tables.append(("long-names.id", long_names_table(), "id"))
    eight = render.table_from_record(eight_seat_record())
    for lang in ("en", "id"):
        tables += [(f"house.{lang}", house_table(), lang), (f"eight-seats.{lang}", eight, lang)]
    return tables


@pytest.fixture(scope="module")
def pictures(tmp_path_factory: pytest.TempPathFactory) -> list[tuple[str, Path, int]]:
    folder = tmp_path_factory.mktemp("pictures")
    out = []
    for name, table, lang in _tables():
        for width, window in ((render.WIDE, 1280), (render.NARROW, 390)):
            svg = render.page_svg(table, lang, width=width)
            path = folder / f"{name}.{width}.html"
            path.write_text(_PAGE.format(lang=lang, svg=svg), encoding="utf-8")
            out.append((f"{name} at {width} px", path, window))
    return out


def test_every_picture_reads_at_its_size(
    browser: Any, pictures: list[tuple[str, Path, int]]
) -> None:
    problems = []
    for name, path, window in pictures:
        at_width(browser, window)
        browser.get(path.as_uri())
        found = layout_problems(browser, "main", ("main",))
        found += font_problems(browser)
        found += clipping_problems(browser)
        problems += [f"{name}: {p}" for p in found]
        screenshot(browser, "svg-" + path.stem)
    assert not problems, "\n".join(problems[:40])


def test_a_width_outside_the_range_is_refused() -> None:
    table = examples.WORKED[0].settle_table()
    with pytest.raises(capsa.ArgumentError, match="width must be from 360 to 2000 px, not 200"):
        render.page_svg(table, width=200)
    with pytest.raises(TypeError, match="width is an int"):
        render.page_svg(table, width=True)
