"""Tests of capsa.settlement: settling tables, the rake, bounds and larger decks."""
