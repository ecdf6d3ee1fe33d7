"""A player's hand history in a real browser: the history page and a round
page, in English and Indonesian, at a phone's and a desktop's widths: no
text sticking out, nothing too small to read, no word split, no serious
axe-core violation; times in the reader's own zone."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from browser_pages import (
    WIDTHS,
    at_width,
    axe_problems,
    broken_word_problems,
    clipping_problems,
    font_problems,
    layout_problems,
    screenshot,
)

from render.test_history import _log

_SIDE_BY_SIDE = (
    "main", "header", "section", ".seats", ".seat", ".row", ".cards", ".row-info",
    ".h-round", ".h-head", ".h-foot", ".round-nav", ".pager", "tr", "td",
)  # fmt: skip
_WORDS = "h1, h2, h3, th, dt, bdi, .badge, .row-name, .cat, .h-row, .round-nav a, .pager a"


@pytest.fixture(scope="module")
def pages(tmp_path_factory: pytest.TempPathFactory) -> list[tuple[str, Path]]:
    folder = tmp_path_factory.mktemp("history")
    _log(folder / "log.jsonl")
    out = []
    for lang in ("en", "id"):
        page = folder / f"budi-{lang}.html"
        done = subprocess.run(
            [sys.executable, "-m", "capsa", "render", str(folder / "log.jsonl"), "-o", str(page),
             "--player", "budi", "--page-size", "3", "--lang", lang],
            capture_output=True, text=True, timeout=120,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr
        rounds = folder / f"budi-{lang}-rounds"
        out += [
            (f"history.{lang}", page),
            (f"history-page-2.{lang}", rounds / "page-2.html"),
            (f"round.{lang}", rounds / "round-2.html"),
        ]
    return out


@pytest.mark.parametrize("width_name", list(WIDTHS))
def test_the_history_at_every_width(
    browser: Any, pages: list[tuple[str, Path]], width_name: str
) -> None:
    width = WIDTHS[width_name]
    at_width(browser, width)
    problems = []
    for name, path in pages:
        browser.get(path.as_uri())
        found = layout_problems(browser, "main", _SIDE_BY_SIDE)
        found += clipping_problems(browser)
        found += font_problems(browser)
        found += broken_word_problems(browser, _WORDS)
        problems += [f"{name} at {width}px: {p}" for p in found]
        screenshot(browser, f"history-{name}-{width_name}")
    assert not problems, "\n".join(problems[:40])


@pytest.mark.parametrize("width", [360, 1280])
def test_axe_finds_no_serious_violation(
    browser: Any, pages: list[tuple[str, Path]], width: int
) -> None:
    at_width(browser, width)
    problems = []
    for name, path in pages:
        browser.get(path.as_uri())
        problems += [f"{name}: {p}" for p in axe_problems(browser)]
    assert problems == []


def test_times_are_shown_in_the_readers_zone(browser: Any, pages: list[tuple[str, Path]]) -> None:
    """The script turns each UTC time into the reader's local time (the
    UTC text stays as its title); without it the UTC text is there."""
    browser.execute_cdp_cmd("Emulation.setTimezoneOverride", {"timezoneId": "Asia/Jakarta"})
    try:
        browser.get(dict(pages)["round.en"].as_uri())
        shown = browser.execute_script(
            "const t = document.querySelector('time.played-at'); return [t.textContent, t.title];"
        )
    finally:
        browser.execute_cdp_cmd("Emulation.setTimezoneOverride", {"timezoneId": "UTC"})
    text, title = shown
    assert title.endswith("UTC") and "UTC" not in text
    # 2027-01-15 08:01:30 UTC is 15:01:30 in Jakarta (UTC+7)
    assert "3:01:30" in text or "15:01:30" in text, text
