"""Tests of capsa.round: the Round state machine and its parts."""
