"""Tests of capsa.solver and its tables."""
