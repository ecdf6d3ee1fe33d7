"""Sorting and filtering the index of a thousand rounds, in a browser.

Run on demand, not a test (needs chromium and chromedriver, as the browser
tests do)::

    python benches/index_browser.py            # 1,000 rounds, 5 repeats
    python benches/index_browser.py --quick    # 300 rounds, 3 repeats

``capsa render`` writes the index of 1,000 rounds (pagat, four seats dealt
from seeds 0..); the same page is timed side by side with every row in the
document at once (``data-per-page`` raised to hold them all: how the index
worked before it paged), on a desktop (1280 px) and on a phone (390 px,
the CPU slowed four times as Chrome's device emulation does). Timed: a click
on a header until the page has been laid out again (sorting by pot, then by
time) and typing a filter. Checked while timed: the rows shown after
sorting by pot are the smallest pots in order, the same on both pages.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from bench_common import machine

import capsa

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from browser_pages import at_width, chromium

_TIMED = """
const [kind, arg, done] = arguments;
const t0 = performance.now();
if (kind === 'sort') document.querySelector(`th[data-key="${arg}"] button`).click();
else { const f = document.getElementById('index-filter'); f.value = arg;
       f.dispatchEvent(new Event('input')); }
document.body.offsetHeight;
requestAnimationFrame(() => setTimeout(() => done(performance.now() - t0), 0));
"""
_FIRST_POTS = """
return [...document.querySelectorAll('table.index tbody tr')].filter((r) => !r.hidden)
  .slice(0, 20).map((r) => +r.dataset.pot);
"""


def write_index(folder: Path, rounds: int) -> tuple[Path, list[int]]:
    lines = []
    for k in range(rounds):
        hands = [[str(c) for c in hand] for hand in capsa.deal(4, seed=k)]
        seats = [" / ".join(" ".join(t[a:b]) for a, b in ((0, 3), (3, 8), (8, 13))) for t in hands]
        lines.append(json.dumps({"id": f"r-{k}", "rules": "pagat", "stakes": 1, "seats": seats}))
    (folder / "rounds.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    out = folder / "paged.html"
    subprocess.run(
        [sys.executable, "-m", "capsa", "render", str(folder / "rounds.jsonl"), "-o", str(out)],
        check=True,
        capture_output=True,
    )
    html = out.read_text(encoding="utf-8")
    whole = folder / "whole.html"
    whole.write_text(html.replace('data-per-page="100"', 'data-per-page="1000000"'), "utf-8")
    pots = sorted(int(v) for v in re.findall(r'data-pot="(\d+)"', html))
    return out, pots


def time_page(driver: Any, path: Path, repeats: int, pots: list[int]) -> dict[str, float]:
    times: dict[str, list[float]] = {"sort by pot": [], "sort by time": [], "filter": []}
    for _ in range(repeats):
        driver.get(path.as_uri())
        times["sort by pot"].append(driver.execute_async_script(_TIMED, "sort", "pot"))
        shown = driver.execute_script(_FIRST_POTS)
        assert shown == pots[:20], (path.name, shown, pots[:20])
        times["sort by time"].append(driver.execute_async_script(_TIMED, "sort", "time"))
        times["filter"].append(driver.execute_async_script(_TIMED, "filter", "r-1"))
    return {k: statistics.median(v) for k, v in times.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="300 rounds, 3 repeats")
    args = parser.parse_args()
    rounds, repeats = (300, 3) if args.quick else (1000, 5)
    print(f"machine: {machine()}")
    with tempfile.TemporaryDirectory() as tmp, chromium() as driver:
        paged, pots = write_index(Path(tmp), rounds)
        whole = Path(tmp) / "whole.html"
        for name, width, slow in (("desktop 1280 px", 1280, 1), ("phone 390 px, CPU ÷4", 390, 4)):
            at_width(driver, width)
            driver.execute_cdp_cmd("Emulation.setCPUThrottlingRate", {"rate": slow})
            before = time_page(driver, whole, repeats, pots)
            after = time_page(driver, paged, repeats, pots)
            print(f"\n{rounds} rounds, {name} (median of {repeats}, ms)")
            print(f"{'':14}{'every row':>11}{'100 a page':>12}{'ratio':>8}")
            for key in before:
                ratio = before[key] / after[key]
                print(f"{key:14}{before[key]:>11.0f}{after[key]:>12.0f}{ratio:>7.1f}×")
        driver.execute_cdp_cmd("Emulation.setCPUThrottlingRate", {"rate": 1})


if __name__ == "__main__":
    main()
