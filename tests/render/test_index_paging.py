"""An index of many rounds in the browser: a hundred rows in the document
at a time (what keeps sorting and filtering a thousand rounds quick), the
pages of them in the sorted and filtered order, and every row still in
the HTML for a reader without scripts."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from browser_pages import at_width

import capsa

ROUNDS = 250

_STATE = """
const rows = [...document.querySelectorAll('table.index tbody tr')];
const pager = document.querySelector('.index-pager');
return {numbers: rows.map((r) => +r.dataset.number), pots: rows.map((r) => +r.dataset.pot),
        pager: !pager.hidden, where: pager.children[1].textContent,
        back: pager.children[0].disabled, ahead: pager.children[2].disabled};
"""


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[int]]:
    folder = tmp_path_factory.mktemp("paging")
    lines = []
    for k in range(ROUNDS):
        hands = capsa.deal(4, seed=k)
        text = [[str(c) for c in hand] for hand in hands]
        seats = [" / ".join(" ".join(t[a:b]) for a, b in ((0, 3), (3, 8), (8, 13))) for t in text]
        lines.append(json.dumps({"id": f"r-{k}", "rules": "pagat", "stakes": 1, "seats": seats}))
    (folder / "many.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    out = folder / "many.html"
    done = subprocess.run(
        [sys.executable, "-m", "capsa", "render", str(folder / "many.jsonl"), "-o", str(out)],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    html = out.read_text(encoding="utf-8")
    pots = [int(v) for v in re.findall(r'data-pot="(\d+)"', html)]
    assert len(pots) == ROUNDS
    return out, pots


def test_a_hundred_rows_at_a_time_in_sorted_order(
    browser: Any, index: tuple[Path, list[int]]
) -> None:
    path, pots = index
    at_width(browser, 1280)
    browser.get(path.as_uri())
    state = browser.execute_script(_STATE)
    assert state["numbers"] == list(range(1, 101))
    assert state["pager"] and state["back"] and not state["ahead"]
    assert state["where"] == "rounds 1–100 of 250"
    browser.find_element("css selector", ".index-pager button:last-child").click()
    state = browser.execute_script(_STATE)
    assert state["numbers"] == list(range(101, 201)) and not state["back"]
    # sorting orders all 250 rounds and goes back to the first page
    browser.find_element("css selector", 'th[data-key="pot"] button').click()
    state = browser.execute_script(_STATE)
    assert state["pots"] == sorted(pots)[:100] and state["where"] == "rounds 1–100 of 250"
    for _ in range(2):
        browser.find_element("css selector", ".index-pager button:last-child").click()
    state = browser.execute_script(_STATE)
    assert state["pots"] == sorted(pots)[200:] and state["ahead"]
    assert state["where"] == "rounds 201–250 of 250"
    # a filter shows its matches from their first
    box = browser.find_element("id", "index-filter")
    box.send_keys("r-24")
    state = browser.execute_script(_STATE)
    want = sorted((pots[k], k + 1) for k in range(ROUNDS) if f"r-{k}".startswith("r-24"))
    assert state["numbers"] == [n for _, n in want] and not state["pager"]


def test_without_scripts_every_row_is_in_the_page(
    browser: Any, index: tuple[Path, list[int]]
) -> None:
    path, _ = index
    browser.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": True})
    try:
        browser.get(path.as_uri())
        rows = browser.find_elements("css selector", "table.index tbody tr")
        assert len(rows) == ROUNDS
        assert not browser.find_element("css selector", ".index-pager").is_displayed()
    finally:
        browser.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": False})
