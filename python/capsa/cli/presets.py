"""``capsa presets`` (the shipped rule presets) and ``capsa rules`` (a
preset's or a file's rules as TOML)."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from capsa.cli.common import load_rules
from capsa.rules import presets

__all__ = ["register"]


def _presets(args: argparse.Namespace) -> int:
    for name in presets():
        print(name)
    return 0


def _rules(args: argparse.Namespace) -> int:
    sys.stdout.write(load_rules(args.name).to_toml())
    return 0


def register(subparsers: Any) -> None:
    """Adds ``capsa presets`` and ``capsa rules``."""
    listed = subparsers.add_parser("presets", help="list the shipped rule presets")
    listed.set_defaults(run=_presets)

    rules = subparsers.add_parser("rules", help="print a preset's (or file's) rules as TOML")
    rules.add_argument(
        "name", nargs="?", default=None, help="a preset's name (default: every preset)"
    )
    rules.set_defaults(run=_rules)
