"""Differential testing against CPython: a random program generator (gen) and both sides of
the comparison (oracle).  Imported by the unit tests and by `python -m benchmarks.fuzz_differential`."""
