"""A vector before its answer: the case, its family and why it is asked."""

from __future__ import annotations

from dataclasses import dataclass, field

from capsa.conformance.protocol import Case

__all__ = ["Draft"]


@dataclass
class Draft:
    """A case waiting for its expected answer: its ``family`` (the middle of
    its id), the ``case``, the ``reason`` in words, the ``flags`` known
    beforehand and its ``number`` in its family when fixed in advance."""

    family: str
    case: Case
    reason: str
    flags: set[str] = field(default_factory=set)
    number: int | None = None
