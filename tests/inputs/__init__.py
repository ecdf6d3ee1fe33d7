"""Tests of how every entry point reads its inputs: types, channels, JSON values."""
