"""Tests of capsa.rules: presets, knobs and where rules come from."""
