"""Real-device compilability without a GPU: both CUDA kernels compile to PTX (numba-cuda's
NVVM).  Opt-in (GPUCC_PTXCHECK=1; about a minute, the compiler kernel is large) and only
where NVVM and NVRTC are installed (e.g. pip install "numba-cuda[cu12]"; or a CUDA toolkit's
NVVM plus pip install nvidia-cuda-nvrtc of its version: numba-cuda asks NVRTC for the
supported architectures)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from gpusim import HERE, ROOT

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(os.environ.get("GPUCC_PTXCHECK") != "1", reason="opt-in: set GPUCC_PTXCHECK=1 (needs NVVM and NVRTC, ~1 min)"),
]


def _ptx(kernel: str) -> str:
    proc = subprocess.run([sys.executable, str(HERE / "ptxcheck.py"), *kernel.split()], cwd=ROOT, capture_output=True, text=True, timeout=600)
    if any(m in proc.stdout for m in ("NvvmSupportError", "libNVVM cannot be found", 'Failure finding "libnvrtc')):
        pytest.skip(f"NVVM or NVRTC is not installed: {proc.stdout.strip()[:200]}")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return proc.stdout


def test_compiler_kernel_compiles_to_ptx():
    assert "compiler: PTX OK" in _ptx("compiler")


def test_vm_kernel_compiles_to_ptx():
    assert "vm: PTX OK" in _ptx("vm")


def test_residency_kernels_compile_to_ptx():
    out = _ptx("verify fill compact failed_units")
    assert all(f"{k}: PTX OK" in out for k in ("verify", "fill", "compact", "failed_units")), out


def test_text_functions_compile_to_ptx():
    out = _ptx("text numbers")
    assert "text: PTX OK" in out and "numbers: PTX OK" in out, out
