"""Tests of the capsa command line."""
