"""Differential testing against CPython: both sides of the comparison (oracle) for the random
programs of gpucc.neural.gen (the generator the neural compiler's data shares).  Imported by the
unit tests and by `python -m benchmarks.fuzz_differential`."""
