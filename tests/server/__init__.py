"""Tests of the reference table server (examples/server/)."""
