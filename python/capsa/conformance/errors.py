"""The conformance kit's own errors (the engine's failures are report entries, not errors)."""

from __future__ import annotations

__all__ = ["HandshakeError"]


class HandshakeError(Exception):
    """The engine could not be started, or its ``hello`` answer is unusable."""
