"""Tests of capsa.store and the capsa store command."""
