"""Tests of capsa.simulation: the variant simulator."""
