"""The rules a round may name: every preset, and the caller's own rules."""

from __future__ import annotations

from capsa.rules.loading import presets
from capsa.rules.value import Rules

__all__ = ["default_known_rules"]


def default_known_rules(rules: Rules | None = None) -> dict[str, Rules]:
    """The rules a ``rules`` column may name: every preset, and ``rules``
    under its own name (it wins over a preset of that name)."""
    known = {name: Rules.preset(name) for name in presets()}
    if rules is not None:
        known[rules.name] = rules
    return known
