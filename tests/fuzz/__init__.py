"""Property tests and fuzzing of the Python API, the readers and capsa.strategies."""
