"""The worked examples of docs/rules.md as showdown pages, and a table of
every other outcome kind.

``python -m capsa.render.examples --out docs/showdown`` writes, for each
worked example, its HTML page and SVG pictures, wide and narrow (English, and the foul in
Indonesian too); the files are the same byte for byte on every run.
``--outcomes`` adds the tables of :data:`OUTCOMES`.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from capsa.arrangement import Arrangement
from capsa.render._html import page_html
from capsa.render._model import Table, table_from_settlement
from capsa.render._svg import NARROW, page_svg
from capsa.rules import Rules
from capsa.settlement import Seat, settle

__all__ = ["OUTCOMES", "WORKED", "Example", "main", "write"]


@dataclass(frozen=True)
class Example:
    """A table to draw: its rules preset, seats (``top / middle / bottom``),
    stake and the seats' decisions."""

    slug: str
    title: str
    rules: str
    seats: tuple[str, ...]
    stake: int | None = None
    surrender: tuple[int, ...] = ()
    names: tuple[str, ...] | None = ("A", "B", "C", "D")
    langs: tuple[str, ...] = ("en",)

    def settle_table(self) -> Table:
        """The example settled by capsa, as a page draws it."""
        rules = Rules.preset(self.rules)
        seats = [
            Seat(Arrangement.parse(text), surrender=k in self.surrender)
            for k, text in enumerate(self.seats)
        ]
        settlement = settle(seats, rules, self.stake)
        names = self.names[: len(seats)] if self.names is not None else None
        return table_from_settlement(settlement, rules=rules, seat_names=names, title=self.title)


# the seed-1 deal of capsa.deal(4, seed=1), each seat arranged by the solver
_SEED_1 = (
    "Qd Kd Kc / 4d 7h Ts Ac As / 3h 8d 8h 9d 9c",
    "Jd Qc Ks / 5d 6h 6s 7d 7c / 3d 3c 3s 4c 4h",
    "Td Qs Ad / 5h 6c 8c 8s 9s / 9h Th Jh Qh Kh",
    "7s Tc Ah / 5c 5s 6d Jc Js / 2d 2c 2h 2s 4s",
)

WORKED = (
    Example(
        "bottom-row-only",
        "Worked example: the bottom row (docs/rules.md)",
        "pagat",
        # the top and middle rows are ordered against the bottom, so each
        # pair splits them and the bottom decides: A +3,000, B +1,000, ...
        (
            "Kc Td 5c / 2d 3h 4c 5d 6s / Jc Jd Jh 3c 3d",
            "9s 9d 4s / 8d 8c 7c 7h 2c / Kh Th 8h 6h 2h",
            "Ts Tc 2s / Ac Ah Qh Js 4h / 5s 6c 7d 8s 9c",
            "Qs Qd 5h / Ks Kd 9h 6d 3s / As Ad Qc 7s 4d",
        ),
        stake=1000,
    ),
    Example(
        "foul",
        "Worked example: a foul (docs/rules.md)",
        "capsa-susun",
        # seat A's middle and bottom swapped: its middle beats its bottom
        ("Qd Kd Kc / 3h 8d 8h 9d 9c / 4d 7h Ts Ac As", *_SEED_1[1:]),
        stake=100,
        langs=("en", "id"),
    ),
    Example(
        "scoop",
        "Worked example: a scoop (docs/rules.md)",
        "capsa-susun",
        _SEED_1,
        stake=100,
    ),
    Example(
        "sweep-all",
        "Worked example: a sweep-all (docs/rules.md)",
        "capsa-susun",
        (
            "5d Kd Kh / 3d 4h 5s 6s 7s / 2d Td Tc Th Ts",
            "Qs Kc Ac / 4s 8h 8s 9h Jd / 2c 2s 3c 7d 7h",
            "6c Jc Js / 2h 7c Ks Ad As / 8d 8c Qd Qc Qh",
            "4d 4c 6d / 3s 5c 9d 9c 9s / 3h 5h 6h Jh Ah",
        ),
        stake=100,
    ),
)
"""The worked examples of docs/rules.md ("Worked examples")."""

OUTCOMES = (
    Example(
        "naturals",
        "Naturals, the difference rule and a surrender",
        "hawaiian-gardens",
        (
            "7c 7s 8s / 2c 3c 4c 5c 6c / 2s 3s 4s 5s 6s",
            "2h Ad As / 9d Td Jd Qd Kd / 9s Ts Js Qs Ks",
            "Tc Kc Ac / 4h 5h 6h 8d 8c / 3d 4d 5d 6d 7d",
            "Jc Kh Ah / 2d 3h 9c Qc Qh / 7h 8h 9h Th Jh",
        ),
        stake=10,
        surrender=(2,),
    ),
    Example(
        "naturals-compared",
        "The same natural, compared group by group, and a foul",
        "2-4",
        (
            "Th Jh Js / 3d 4c 5d 6d 7d / 3s 4s 5s 6s Ts",
            "6c Ad Ac / 2h 7c 7h 8h 8s / 2c 3c 3h Qc Qs",
            "Qd Qh Kc / 5h 6h 9h Kh Ah / 4d 4h 9s Td Tc",
        ),
        stake=5,
    ),
    Example(
        "surrender-and-fouls",
        "A surrender, two fouls and the overall point",
        "2-4",
        (
            "2d Tc Kh / 2s 3h 4s 5d Ah / 8s 9c Th Js Qs",
            "Jh Kc Ks / 3d 7d 7c 7h 7s / 8d Td Qh Ac As",
            "8h 9s Jd / 3c 5c 8c Jc Qc / 2c 3s 4d 5h 6h",
            "Qd Kd Ad / 2h 5s 9d 9h Ts / 4c 4h 6d 6c 6s",
        ),
        stake=20,
        surrender=(0,),
    ),
    Example(
        "two-seats",
        "Two seats, a tied row and royalties",
        "pagat",
        (
            "Ks Qd 5c / 8s 8h 8d 3c 3d / 9s 9h 9d 9c 2c",
            "Kh Qc 5d / Ah Kd Jc 7s 4h / As Ad Jd 6c 6h",
        ),
        stake=25,
        names=None,
    ),
)
"""Tables of the outcome kinds the worked examples do not show."""


def write(out: Path, examples: Sequence[Example] = WORKED) -> list[Path]:
    """Writes each example's page, its picture and its narrow picture (a
    phone's, ``.narrow.svg``) into ``out``; returns the paths."""
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for example in examples:
        table = example.settle_table()
        for lang in example.langs:
            suffix = "" if lang == "en" else f".{lang}"
            drawn = (
                ("html", page_html(table, lang)),
                ("svg", page_svg(table, lang)),
                ("narrow.svg", page_svg(table, lang, width=NARROW)),
            )
            for ext, text in drawn:
                path = out / f"{example.slug}{suffix}.{ext}"
                path.write_bytes(text.encode("utf-8"))
                written.append(path)
    return written


def main(argv: list[str] | None = None) -> int:
    """``python -m capsa.render.examples --out DIR [--outcomes]``."""
    parser = argparse.ArgumentParser(
        prog="python -m capsa.render.examples",
        description="Draws the worked examples of docs/rules.md as showdown pages.",
    )
    parser.add_argument("--out", type=Path, default=Path("docs/showdown"))
    parser.add_argument("--outcomes", action="store_true", help="also the other outcome kinds")
    args = parser.parse_args(argv)
    examples = WORKED + OUTCOMES if args.outcomes else WORKED
    for path in write(args.out, examples):
        print(path)
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
