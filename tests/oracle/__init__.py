"""Tests of the pure-Python reference oracle, and the engine against it."""
