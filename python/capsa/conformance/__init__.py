"""The conformance kit: differential-test any Chinese poker engine against capsa.

An engine in any language speaks the protocol of ``docs/conformance.md``
(JSON Lines on its standard input and output); ``capsa conformance run
--engine CMD`` runs the shipped vector suites against it, fuzzes it with
Hypothesis, shrinks every disagreement to a minimal case and writes a pass
matrix and a JSON report. :func:`run` does the same from Python, for a
command or an in-process callable.
"""

from capsa.conformance.engines import CallableEngine, Engine, HandshakeError, ProcessEngine
from capsa.conformance.harness import Failure, Report, run
from capsa.conformance.protocol import OPS, PROTOCOL_VERSION, Case, RulesSpec
from capsa.conformance.serve import CapsaEngine, serve
from capsa.conformance.vectors import generate, load_vectors, schema, shipped_dir

__all__ = [
    "OPS",
    "PROTOCOL_VERSION",
    "CallableEngine",
    "CapsaEngine",
    "Case",
    "Engine",
    "Failure",
    "HandshakeError",
    "ProcessEngine",
    "Report",
    "RulesSpec",
    "generate",
    "load_vectors",
    "run",
    "schema",
    "serve",
    "shipped_dir",
]
