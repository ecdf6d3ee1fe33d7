"""The conformance kit: differential-test any Chinese poker engine against capsa.

An engine in any language speaks the protocol of ``docs/conformance.md``
(JSON Lines on its standard input and output); ``capsa conformance run
--engine CMD`` runs the shipped vector suites against it, fuzzes it with
Hypothesis, shrinks every disagreement to a minimal case and writes a pass
matrix and a JSON report. :func:`run` does the same from Python, for a
command or an in-process callable.

``PROTOCOL_VERSION`` is the protocol version this kit speaks (``1``) and
``OPS`` the ops it knows, in the order the harness runs them (``compare``,
``category``, ``foul``, ``natural``, ``count_splits``, ``settle``,
``digest``). :class:`CapsaEngine` is capsa's side of the protocol; the
function behind ``capsa conformance serve`` is
``capsa.conformance.serve.serve`` (not a name of this package: the package
attribute ``serve`` is its submodule, which importing it binds).

The kit uses capsa's public API alone (names in ``capsa.__all__`` and in
the ``__all__`` of capsa's public modules), so that it can ship as a
distribution of its own; its schema and vector suites are data of this
package. It needs the public API of capsa 0.1.0 or later, with
``capsa.RulesSpec`` and ``capsa.settle_json_lines`` (added after 0.1.0).

The names below are imported when first used, so that the ``capsa``
command line, which registers ``capsa conformance``, starts no slower.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from capsa.conformance.claims import ClaimError
    from capsa.conformance.engines import CallableEngine, Engine, HandshakeError, ProcessEngine
    from capsa.conformance.harness import run
    from capsa.conformance.inference import Inference, Observation, infer
    from capsa.conformance.protocol import OPS, PROTOCOL_VERSION, Case, RulesSpec
    from capsa.conformance.report import Report
    from capsa.conformance.serve import CapsaEngine
    from capsa.conformance.vectors import generate, load_vectors, schema, shipped_dir
    from capsa.conformance.verdicts import Failure

_WHERE = {
    "CallableEngine": "engines",
    "ClaimError": "claims",
    "Engine": "engines",
    "HandshakeError": "engines",
    "ProcessEngine": "engines",
    "Failure": "verdicts",
    "Report": "report",
    "run": "harness",
    "Inference": "inference",
    "Observation": "inference",
    "infer": "inference",
    "OPS": "protocol",
    "PROTOCOL_VERSION": "protocol",
    "Case": "protocol",
    "RulesSpec": "protocol",
    "CapsaEngine": "serve",
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
    "ClaimError",
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
