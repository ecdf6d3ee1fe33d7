"""Colour for a terminal: ``--color auto|always|never`` and the ANSI codes
``capsa play`` paints its table with (won and lost rows, the points a pair
settles, the headings). ``auto`` paints only a terminal, and never when
``NO_COLOR`` is set (https://no-color.org) or ``TERM`` is ``dumb``."""

from __future__ import annotations

import argparse
import os
import re
from typing import IO

__all__ = ["CHOICES", "add_color", "paint", "wanted"]

CHOICES = ("auto", "always", "never")
_BOLD, _GREEN, _RED, _RESET = "\033[1m", "\033[32m", "\033[31m", "\033[0m"
_WON_LOST = re.compile(r"\b(won|lost)\b")
_SETTLED = re.compile(r"(=> seat \d+ )([+-]\d+)( points)")
_HEADING = re.compile(r"^(seat  top.*)$", re.MULTILINE)


def add_color(parser: argparse.ArgumentParser) -> None:
    """Adds ``--color`` to a subcommand."""
    parser.add_argument(
        "--color",
        choices=CHOICES,
        default="auto",
        help="colour the output: auto (a terminal without NO_COLOR), always, never (default: auto)",
    )


def wanted(choice: str, stream: IO[str]) -> bool:
    """Whether to paint what goes to ``stream`` under ``--color choice``."""
    if choice != "auto":
        return choice == "always"
    if os.environ.get("NO_COLOR") or os.environ.get("TERM") == "dumb":
        return False
    return stream.isatty()


def paint(text: str) -> str:
    """``text`` with the headings bold, "won" green and "lost" red, and each
    pair's settled points green or red by their sign."""
    text = _HEADING.sub(lambda m: f"{_BOLD}{m.group(1)}{_RESET}", text)
    text = _WON_LOST.sub(lambda m: _coloured(m.group(1), m.group(1) == "won"), text)
    return _SETTLED.sub(
        lambda m: m.group(1) + _coloured(m.group(2), m.group(2)[0] == "+") + m.group(3), text
    )


def _coloured(word: str, good: bool) -> str:
    return f"{_GREEN if good else _RED}{word}{_RESET}"
