"""How a rules error shows the value it was given: short, bounded in depth
and length, whatever the value."""

from __future__ import annotations

import reprlib
from typing import Any

__all__ = ["show"]


class _ShortRepr(reprlib.Repr):
    """reprlib with integers too long for ``repr`` shown by their size."""

    def repr_int(self, x: int, level: int) -> str:
        if x.bit_length() > 256:
            return f"<integer of {x.bit_length()} bits>"
        return super().repr_int(x, level)


_SHORT_REPR = _ShortRepr()
_SHORT_REPR.maxlevel = 3
_SHORT_REPR.maxstring = 60
_SHORT_REPR.maxother = 60


def show(value: Any) -> str:
    """A short repr of any value for an error message (bounded in depth and length)."""
    try:
        return _SHORT_REPR.repr(value)
    except Exception:  # a value whose repr fails still gets a message
        return f"<{type(value).__name__}>"
