"""vm/unicode.py and vm/strconv.py under the CUDA simulator agree with the CPU: the tables
numba embeds in a CUDA module give the same facts (tests/gpu/textkernel.py)."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys

import numpy as np
import pytest
from gpusim import HERE, ROOT
from textkernel import NUMBERS, SAMPLE

from gpucc.vm import strconv
from gpucc.vm import unicode as u


def test_unicode_and_number_text_under_the_simulator_equal_the_cpus(tmp_path):
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
        scratch = np.zeros(strconv.FLOAT_REPR_SCRATCH, np.int64)
        for i, t in enumerate(NUMBERS):
            buf = np.array([ord(c) for c in t], np.int64)
            st_int, value = strconv.parse_int(buf, 0, len(buf))
            st_float, bits = strconv.parse_float(buf, 0, len(buf), scratch)
            assert tuple(got["parsed"][i]) == (st_int, value, st_float, bits), t
            text = np.zeros(48, np.int64)
            n_int = strconv.int_repr(value, text, 0)
            n_float = strconv.float_repr(bits, text, 24, scratch)
            assert tuple(got["lengths"][i]) == (n_int, n_float), t
            np.testing.assert_array_equal(got["out"][i], text, err_msg=t)
