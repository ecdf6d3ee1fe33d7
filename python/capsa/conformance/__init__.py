"""The conformance kit: differential-test any Chinese poker engine against capsa.

An engine in any language speaks the protocol of ``docs/conformance.md``
(JSON Lines on its standard input and output); ``capsa conformance run
--engine CMD`` runs the shipped vector suites against it, fuzzes it with
Hypothesis, shrinks every disagreement to a minimal case and writes a pass
matrix and a JSON report. :func:`run` does the same from Python, for a
command or an in-process callable.

The names below are imported when first used, so that the ``capsa``
command line, which registers ``capsa conformance``, starts no slower.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from capsa.conformance.engines import CallableEngine, Engine, HandshakeError, ProcessEngine
    from capsa.conformance.harness import Failure, Report, run
    from capsa.conformance.infer import Inference, Observation, infer
    from capsa.conformance.protocol import OPS, PROTOCOL_VERSION, Case, RulesSpec
    from capsa.conformance.serve import CapsaEngine, serve
    from capsa.conformance.vectors import generate, load_vectors, schema, shipped_dir

_WHERE = {
    "CallableEngine": "engines",
    "Engine": "engines",
    "HandshakeError": "engines",
    "ProcessEngine": "engines",
    "Failure": "harness",
    "Report": "harness",
    "run": "harness",
    "Inference": "infer",
    "Observation": "infer",
    "infer": "infer",
    "OPS": "protocol",
    "PROTOCOL_VERSION": "protocol",
    "Case": "protocol",
    "RulesSpec": "protocol",
    "CapsaEngine": "serve",
    "serve": "serve",
    "generate": "vectors",
    "load_vectors": "vectors",
    "schema": "vectors",
    "shipped_dir": "vectors",
}

__all__ = [
    "OPS",
    "PROTOCOL_VERSION",
    "CallableEngine",
    "CapsaEngine",
    "Case",
    "Engine",
    "Failure",
    "HandshakeError",
    "Inference",
    "Observation",
    "ProcessEngine",
    "Report",
    "RulesSpec",
    "generate",
    "infer",
    "load_vectors",
    "run",
    "schema",
    "serve",
    "shipped_dir",
]


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module 'capsa.conformance' has no attribute {name!r}")
    value = getattr(importlib.import_module(f"capsa.conformance.{module}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *_WHERE])
