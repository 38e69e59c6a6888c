"""vm/unicode.py (and vm/strconv.py) under the CUDA simulator agree with the CPU: the tables
numba embeds in a CUDA module give the same facts (tests/gpu/textkernel.py)."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys

import numpy as np
import pytest
from gpusim import HERE, ROOT
from textkernel import SAMPLE

from gpucc.vm import unicode as u


def test_unicode_facts_under_the_simulator_equal_the_cpus(tmp_path):
    if importlib.util.find_spec("numba_cuda") is None:
        pytest.skip("numba-cuda is not installed (pip install -e '.[dev]')")
    out = tmp_path / "out.npz"
    env = {**os.environ, "NUMBA_ENABLE_CUDASIM": "1"}
    proc = subprocess.run([sys.executable, str(HERE / "textkernel.py"), str(out)], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=300)  # fmt: skip
    assert proc.returncode == 0, proc.stdout + proc.stderr
    with np.load(out) as got:
        for i, cp in enumerate(SAMPLE.tolist()):
            assert tuple(got["facts"][i]) == (u.char_flags(cp), u.decimal_value(cp)), hex(cp)
            for k in range(4):
                assert tuple(got["maps"][i, k]) == tuple(u.case_mapping(cp, k + 1)), (hex(cp), k)
