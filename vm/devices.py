"""Which backends this machine can run: the one place that probes for a CUDA device."""

from __future__ import annotations

import functools
import os


@functools.lru_cache(maxsize=1)
def cuda_available() -> bool:
    """True when numba-cuda is installed and a real CUDA device with a working driver is
    usable.  Lazy (imports numba.cuda only when called) and never raises.  The numba CUDA
    simulator (NUMBA_ENABLE_CUDASIM=1) does not count: it runs every thread in Python."""
    if os.environ.get("NUMBA_ENABLE_CUDASIM", "0") not in ("", "0"):
        return False
    try:
        from numba import cuda

        return bool(cuda.is_available()) and len(cuda.gpus) > 0
    except Exception:  # no numba-cuda, no driver, no device, broken install
        return False
