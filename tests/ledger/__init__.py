"""Tests of capsa.ledger."""
