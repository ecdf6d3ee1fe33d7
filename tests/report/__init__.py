"""Tests of capsa.report: the variant report."""
