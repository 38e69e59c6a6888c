"""The CUDA compiler launcher (compiler/cuda_batch.py) gives the CPU launcher's CompiledBatch.

Simulator runs happen in a subprocess (tests/gpu/simrun.py); the expected batch is compiled
here on the CPU backend."""

from __future__ import annotations

from pathlib import Path

import pytest
from gpusim import ROOT, assert_same_arrays, simulate
from simrun import arrays

from gpucc.compiler.batch import compile_batch

# every example suite and candidate, the golden programs, and one error of each phase
SOURCES = [p.read_text() for p in sorted((ROOT / "examples").rglob("*.py")) + sorted((ROOT / "tests/golden").glob("*.py"))]
SOURCES += [
    "def f() -> int:\n    return 1 $ 2\n",  # lexer
    "def f() -> int:\n    return [1]\n",  # parser: unsupported construct
    "def f(x: int) -> int:\n    return y\n",  # type checker
    "def f(x: int) -> bool:\n    return x + 1\n",  # type checker
    "def f() -> int:\n    return 1\n" + "def g() -> int:\n    return 2\n" * 70,  # too many functions
    "def f(a: int, b: int) -> int:\n    while a < b < 10 and not a == 3:\n        a += 1\n    return a\n",
]


def test_simulated_compile_matches_cpu(tmp_path: Path):
    expected = compile_batch(SOURCES, backend="cpu")
    codes = set(expected.error_code.tolist())
    assert 0 in codes and len(codes) >= 5  # the batch really mixes good units and each phase's errors
    got = simulate("compile", tmp_path, SOURCES)
    assert_same_arrays(arrays(expected), got)


def test_simulated_compile_of_no_units_and_an_empty_source(tmp_path: Path):
    got = simulate("compile", tmp_path, ["", "def f() -> int:\n    return 1\n"])
    assert_same_arrays(arrays(compile_batch(["", "def f() -> int:\n    return 1\n"], "cpu")), got)
    assert got["error_code"].tolist()[1] == 0 and got["code_start"][-1] > 0


def test_unknown_backend_names_the_valid_ones():
    with pytest.raises(ValueError, match="cpu, cuda"):
        compile_batch(["def f() -> int:\n    return 1\n"], backend="tpu")


@pytest.mark.gpu
def test_device_compile_matches_cpu():
    expected = compile_batch(SOURCES, backend="cpu")
    assert_same_arrays(arrays(expected), arrays(compile_batch(SOURCES, backend="cuda")))
