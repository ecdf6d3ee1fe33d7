"""The capsa command line."""

from __future__ import annotations

import sys

__all__ = ["main"]


def main(argv: list[str] | None = None) -> int:
    print("capsa", sys.argv[1:] if argv is None else argv)
    return 0
