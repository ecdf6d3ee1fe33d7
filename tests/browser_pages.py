"""Pages in a real browser: Debian's chromium and chromium-driver through
Selenium, and axe-core for accessibility (through ``selenium-axe-python``,
the kept fork of ``axe-selenium-python``, which bundles axe-core 4).

The browser tests of every page kind use this module: :func:`chromium` opens
the browser (skipped without one, failed under CI, where it must run),
:func:`at_width` sets the window a phone or a desktop has, and the checks
return the problems they find from the boxes the browser laid out, each a
sentence naming the element:

* :func:`layout_problems`: the page wider than the window, a box or a text
  sticking out of it (unless inside a box that scrolls on its own), boxes
  side by side that overlap;
* :func:`font_problems`: text drawn smaller than 12 CSS px, SVG text
  included at the scale it is drawn;
* :func:`broken_word_problems`: a word split over two lines that would
  fit on one;
* :func:`clipping_problems`: a word cut by the edge of a box that clips or
  scrolls its content (computed ``overflow-x`` or ``overflow-y`` not
  ``visible``, a picture's ``<svg>`` included): each word, measured with a
  DOM Range, must lie wholly inside or wholly outside the box's client
  area; and a box that scrolls sideways without a cue;
* :func:`axe_problems`: axe-core's violations, of every impact.

:func:`screenshot` keeps a full-page picture in ``$CAPSA_ARTIFACTS``
(default ``target/screenshots``), which CI keeps.

The scroll cue: a box whose content is wider than it and that scrolls
sideways (``overflow-x`` ``auto`` or ``scroll``) must show that it does, by
a visible element of the class ``scroll-cue`` inside it (a note kept in
view as the box scrolls, say "scroll sideways for more"). A page shows the
cue only when its box does scroll (a CSS ``scroll-state`` container query),
so a box whose content fits has none to show.
"""

from __future__ import annotations

import base64
import os
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

__all__ = [
    "ARTIFACTS",
    "WIDTHS",
    "at_width",
    "axe_problems",
    "broken_word_problems",
    "chromium",
    "clipping_problems",
    "font_problems",
    "layout_problems",
    "screenshot",
]

REPO = Path(__file__).resolve().parent.parent
ARTIFACTS = Path(os.environ.get("CAPSA_ARTIFACTS") or REPO / "target" / "screenshots")
"""Where screenshots go."""

WIDTHS = {"phone-360": 360, "phone-390": 390, "tablet": 768, "desktop": 1280}
"""The window widths (CSS px) every page is checked at."""

MINIMUM_FONT_PX = 12.0

try:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
except ImportError:  # pragma: no cover - selenium is in the test extra
    webdriver = None  # type: ignore[assignment]

try:
    from selenium_axe_python import Axe
except ImportError:  # pragma: no cover - selenium-axe-python is in the test extra
    Axe = None


def _missing() -> str | None:
    if webdriver is None:
        return "selenium is not installed (pip install -e '.[test]')"
    if Axe is None:
        return "selenium-axe-python is not installed (pip install -e '.[test]')"
    if shutil.which("chromium") is None and shutil.which("chromium-browser") is None:
        return "chromium is not installed (apt-get install chromium chromium-driver)"
    if shutil.which("chromedriver") is None:
        return "chromedriver is not installed (apt-get install chromium-driver)"
    return None


@contextmanager
def chromium() -> Iterator[Any]:
    """A headless Chromium at scale 1, English; skips the test without one,
    except under CI (``CI`` set), where it fails."""
    reason = _missing()
    if reason is not None:
        if os.environ.get("CI"):
            pytest.fail(f"the browser tests must run in CI: {reason}")
        pytest.skip(reason)
    options = webdriver.ChromeOptions()
    options.binary_location = str(shutil.which("chromium") or shutil.which("chromium-browser"))
    for flag in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--hide-scrollbars",
        "--force-device-scale-factor=1",
        "--lang=en-US",
    ):
        options.add_argument(flag)
    service = Service(executable_path=str(shutil.which("chromedriver")))
    driver = webdriver.Chrome(service=service, options=options)
    try:
        yield driver
    finally:
        driver.quit()


def at_width(driver: Any, width: int) -> None:
    """Lay pages out in a window ``width`` CSS px wide (a phone's below 600)."""
    driver.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": width, "height": 900, "deviceScaleFactor": 1, "mobile": width < 600},
    )


def screenshot(driver: Any, name: str) -> Path:
    """Keep a full-page screenshot of the page as ``ARTIFACTS/name.png``."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    shot = driver.execute_cdp_cmd(
        "Page.captureScreenshot", {"format": "png", "captureBeyondViewport": True}
    )
    path = ARTIFACTS / f"{name}.png"
    path.write_bytes(base64.b64decode(shot["data"]))
    return path


# a short name for an element, shared by the scripts below
_LABEL = """
const label = (e) => e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') +
  (e.className && e.className.baseVal === undefined && String(e.className).trim()
    ? '.' + String(e.className).trim().split(/\\s+/).join('.') : '') +
  (e.dataset && e.dataset.card ? `[${e.dataset.card}]` : '');
const visible = (e) => {
  const r = e.getBoundingClientRect();
  return r.width > 0 && r.height > 0 && getComputedStyle(e).visibility !== 'hidden';
};
// the nearest ancestor that clips or scrolls its content: what is inside it
// cannot widen the page
const clipper = (e) => {
  for (let p = e.parentElement; p && p !== document.body; p = p.parentElement) {
    if (getComputedStyle(p).overflowX !== 'visible') return p;
  }
  return null;
};
"""

_LAYOUT = (
    _LABEL
    + """
const [scope, sideBySide] = arguments;
const problems = [];
const width = document.documentElement.clientWidth;
if (document.documentElement.scrollWidth > width) {
  const wide = document.documentElement.scrollWidth;
  problems.push(`the page is ${wide}px wide in a ${width}px window`);
}
const root = document.querySelector(scope) || document.body;
for (const e of root.querySelectorAll('*')) {
  if (!visible(e) || clipper(e)) continue;
  const r = e.getBoundingClientRect();
  if (r.right > width + 0.5 || r.left < -0.5) {
    const span = `${r.left.toFixed(1)}..${r.right.toFixed(1)}`;
    problems.push(`${label(e)} sticks out: ${span} of ${width}`);
  }
}
const text = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
for (let node = text.nextNode(); node; node = text.nextNode()) {
  if (!node.textContent.trim() || clipper(node)) continue;
  const range = document.createRange();
  range.selectNodeContents(node);
  const r = range.getBoundingClientRect();
  if (r.width > 0 && (r.right > width + 0.5 || r.left < -0.5)) {
    problems.push(`text in ${label(node.parentElement)} sticks out: ${r.right.toFixed(1)}`);
  }
}
const overlap = (a, b) => a.left < b.right - 0.5 && b.left < a.right - 0.5 &&
                          a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
for (const container of root.querySelectorAll(sideBySide.join(','))) {
  const kids = [...container.children].filter(visible);
  for (let i = 0; i < kids.length; i++) {
    for (let j = i + 1; j < kids.length; j++) {
      if (overlap(kids[i].getBoundingClientRect(), kids[j].getBoundingClientRect())) {
        problems.push(`${label(kids[i])} overlaps ${label(kids[j])} in ${label(container)}`);
      }
    }
  }
}
return problems;
"""
)

_FONTS = (
    _LABEL
    + """
const minimum = arguments[0];
const problems = new Map();
const text = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
for (let node = text.nextNode(); node; node = text.nextNode()) {
  const e = node.parentElement;
  if (!node.textContent.trim() || !e || !visible(e)) continue;
  if (e.closest('script, style, title, desc')) continue;
  let size = parseFloat(getComputedStyle(e).fontSize);
  if (e instanceof SVGElement && e.getScreenCTM) {
    const m = e.getScreenCTM();
    if (m) size *= Math.sqrt(Math.abs(m.a * m.d - m.b * m.c));
  }
  if (size < minimum - 0.01) {
    const key = `${label(e)} is ${size.toFixed(1)}px`;
    problems.set(key, `${key}: "${node.textContent.trim().slice(0, 30)}"`);
  }
}
return [...problems.values()];
"""
)

_BROKEN_WORDS = (
    _LABEL
    + """
const selector = arguments[0];
const problems = [];
// the width of the lines a text is laid out in: its nearest block's
const lineWidth = (e) => {
  while (e && getComputedStyle(e).display.startsWith('inline') &&
         getComputedStyle(e).display !== 'inline-block') e = e.parentElement;
  return e ? e.clientWidth : Infinity;
};
for (const e of document.querySelectorAll(selector)) {
  if (!visible(e)) continue;
  const text = document.createTreeWalker(e, NodeFilter.SHOW_TEXT);
  for (let node = text.nextNode(); node; node = text.nextNode()) {
    for (const m of node.textContent.matchAll(/\\S+/g)) {
      const range = document.createRange();
      range.setStart(node, m.index);
      range.setEnd(node, m.index + m[0].length);
      const rects = [...range.getClientRects()].filter((r) => r.width > 0);
      const tops = new Set(rects.map((r) => Math.round(r.top)));
      // a word longer than its line has to break: only one that fits is broken
      const wide = rects.reduce((sum, r) => sum + r.width, 0);
      if (tops.size > 1 && wide <= lineWidth(node.parentElement)) {
        problems.push(`"${m[0]}" is broken over ${tops.size} lines in ${label(e)}`);
      }
    }
  }
}
return problems;
"""
)


def layout_problems(
    driver: Any, scope: str = "body", side_by_side: tuple[str, ...] = ("tr", "td")
) -> list[str]:
    """What sticks out of the window or overlaps in the page now loaded:
    every box and text under ``scope`` (those inside a box that clips or
    scrolls are left to that box), and the children of each element matching
    one of ``side_by_side``."""
    found: list[str] = driver.execute_script(_LAYOUT, scope, list(side_by_side))
    return found


def font_problems(driver: Any, minimum: float = MINIMUM_FONT_PX) -> list[str]:
    """Every visible text drawn smaller than ``minimum`` CSS px (SVG text at
    the scale its picture is drawn), once per element kind and size."""
    found: list[str] = driver.execute_script(_FONTS, minimum)
    return found


def broken_word_problems(driver: Any, selector: str) -> list[str]:
    """Every word, in the elements matching ``selector``, that the browser
    split over two lines."""
    found: list[str] = driver.execute_script(_BROKEN_WORDS, selector)
    return found


_CLIPPING = (
    _LABEL
    + """
const tolerance = 0.5;
const problems = new Map();
const clips = (e) => {
  const s = getComputedStyle(e);
  return s.overflowX !== 'visible' || s.overflowY !== 'visible';
};
// what a box shows of its content: inside its borders, without scroll bars
const client = (e) => {
  const r = e.getBoundingClientRect();
  if (!e.clientWidth && !e.clientHeight) return r;
  const left = r.left + e.clientLeft, top = r.top + e.clientTop;
  return {left, top, right: left + e.clientWidth, bottom: top + e.clientHeight};
};
const clippers = (node) => {
  const found = [];
  for (let p = node.parentElement; p && p !== document.body; p = p.parentElement) {
    if (clips(p)) found.push(p);
  }
  return found;
};
const text = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
for (let node = text.nextNode(); node; node = text.nextNode()) {
  const e = node.parentElement;
  if (!e || !node.textContent.trim() || e.closest('script, style, title, desc')) continue;
  const boxes = clippers(node);
  if (!boxes.length) continue;
  for (const m of node.textContent.matchAll(/\\S+/g)) {
    const range = document.createRange();
    range.setStart(node, m.index);
    range.setEnd(node, m.index + m[0].length);
    for (const r of range.getClientRects()) {
      if (r.width <= 0 || r.height <= 0) continue;
      for (const box of boxes) {
        const b = client(box);
        const inside = r.left >= b.left - tolerance && r.right <= b.right + tolerance &&
                       r.top >= b.top - tolerance && r.bottom <= b.bottom + tolerance;
        const outside = r.right <= b.left + tolerance || r.left >= b.right - tolerance ||
                        r.bottom <= b.top + tolerance || r.top >= b.bottom - tolerance;
        if (!inside && !outside) {
          const key = `"${m[0]}" is cut by the edge of ${label(box)}`;
          const shown = `${r.left.toFixed(1)}..${r.right.toFixed(1)}`;
          problems.set(key, `${key} (${shown} of ${b.left.toFixed(1)}..${b.right.toFixed(1)})`);
        }
      }
    }
  }
}
for (const e of document.body.querySelectorAll('*')) {
  if (!visible(e)) continue;
  const x = getComputedStyle(e).overflowX;
  if ((x !== 'auto' && x !== 'scroll') || e.scrollWidth <= e.clientWidth + 1) continue;
  const cues = [...e.querySelectorAll('.scroll-cue')].filter(visible);
  if (!cues.length) {
    problems.set(label(e), `${label(e)} scrolls sideways (${e.scrollWidth}px in ` +
                 `${e.clientWidth}px) with no visible .scroll-cue`);
  }
}
return [...problems.values()];
"""
)


def clipping_problems(driver: Any) -> list[str]:
    """Every word cut by the edge of a box that clips or scrolls its content
    (a word wholly outside, scrolled out of view, is not cut), once per word
    and box; and every box that scrolls sideways without a visible
    ``.scroll-cue`` inside it (the module's convention)."""
    found: list[str] = driver.execute_script(_CLIPPING)
    return found


_AXE_VIOLATIONS = """
const done = arguments[arguments.length - 1];
axe.run(document, {resultTypes: ['violations']}).then((found) => done(found.violations));
"""


def axe_problems(
    driver: Any, impacts: tuple[str, ...] = ("minor", "moderate", "serious", "critical")
) -> list[str]:
    """axe-core's violations of the page now loaded whose impact is one of
    ``impacts``, one line each with the elements it names."""
    Axe(driver).inject()
    # the violations alone: the passes of a page are most of axe's answer
    violations = driver.execute_async_script(_AXE_VIOLATIONS)
    problems = []
    for violation in violations:
        if violation.get("impact") not in impacts:
            continue
        targets = [", ".join(node["target"]) for node in violation["nodes"][:5]]
        problems.append(
            f"{violation['impact']}: {violation['id']} ({violation['help']}): "
            + "; ".join(targets)
            + (f" and {len(violation['nodes']) - 5} more" if len(violation["nodes"]) > 5 else "")
        )
    return problems
