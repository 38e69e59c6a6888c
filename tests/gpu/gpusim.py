"""Helpers of the CUDA tests: simulator runs in a subprocess, array comparisons."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent


def simulate(mode: str, tmp_path: Path, payload) -> dict:
    """Run tests/gpu/simrun.py `mode` on payload (sources for compile, arrays for vm) under
    the CUDA simulator; returns its arrays (plus "_seconds", the simulated launch's time)."""
    if importlib.util.find_spec("numba_cuda") is None:
        pytest.skip("numba-cuda is not installed (pip install -e '.[dev]')")
    inp = tmp_path / ("in.npz" if mode == "vm" else "in.json")
    if mode != "vm":
        inp.write_text(json.dumps(payload))
    else:
        np.savez(inp, **payload)
    out = tmp_path / "out.npz"
    proc = subprocess.run([sys.executable, str(HERE / "simrun.py"), mode, str(inp), str(out)],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)  # fmt: skip
    assert proc.returncode == 0, proc.stdout + proc.stderr
    with np.load(out) as data:
        return {k: data[k] for k in data.files}


def assert_same_arrays(expected: dict, got: dict) -> None:
    """Every array of `expected` is in `got` with the same dtype, shape and values."""
    assert set(expected) <= set(got), sorted(set(expected) - set(got))
    for name, want in expected.items():
        have = got[name]
        assert have.dtype == want.dtype and have.shape == want.shape, (name, have.dtype, have.shape, want.dtype, want.shape)
        np.testing.assert_array_equal(have, want, err_msg=name)
