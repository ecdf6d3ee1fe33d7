"""Tests of cards and dealing: encoding, seeded deals, uniformity."""
