"""Tests of capsa.conformance: the protocol's data and capsa serve, the
harness against real, hostile and mutant engines and the example engines
in Node, Go and Java, diagnosis, inference, and the kit's hold on capsa's
public API alone; with the engines they run (``engines``,
``hostile_engine``, ``variant_engines``)."""
