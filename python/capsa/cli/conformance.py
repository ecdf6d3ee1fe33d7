"""``capsa conformance``: serve, vectors, run and infer."""

from __future__ import annotations

from typing import Any

from capsa.cli.common import int_in

__all__ = ["register"]


def register(subparsers: Any) -> None:
    """Adds ``capsa conformance``."""
    from capsa.conformance.cli import register as register_conformance

    register_conformance(subparsers, int_in)
