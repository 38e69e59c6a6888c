"""Which backends this machine can run: the one place that probes for a CUDA device."""

from __future__ import annotations

import ctypes.util
import functools
import os


@functools.lru_cache(maxsize=1)
def cuda_available() -> bool:
    """True when numba-cuda is installed and a real CUDA device with a working driver is
    usable.  Lazy (imports numba.cuda only when called) and never raises.  The numba CUDA
    simulator (NUMBA_ENABLE_CUDASIM=1) does not count: it runs every thread in Python."""
    if os.environ.get("NUMBA_ENABLE_CUDASIM", "0") not in ("", "0"):
        return False
    if not _driver_present():  # cheap: spares importing numba.cuda (~0.5 s) on GPU-less machines
        return False
    try:
        from numba import cuda

        return bool(cuda.is_available()) and len(cuda.gpus) > 0
    except Exception:  # no numba-cuda, no driver, no device, broken install
        return False


def _driver_present() -> bool:
    """Whether an NVIDIA driver library can be found at all (no import, no device query)."""
    return os.path.exists("/proc/driver/nvidia") or ctypes.util.find_library("cuda") is not None
