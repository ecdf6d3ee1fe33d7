"""Tests of hands: ranking, splits, naturals and arrangements."""
