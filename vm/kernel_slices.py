"""Slice bounds as Python's slice.indices (a part of vm/kernel.py's body): LIST_SLICE's (vm/kernel_lists.py)
and LIST_SET_SLICE's (vm/kernel_list_methods.py).

Same one-source rules as run_job (plain Python, numba CPU, CUDA; no allocation, no raising).
"""

from __future__ import annotations

import numpy as np

from gpucc.contract.jitable import nrt_free
from gpucc.contract.status import OK, VALUE_ERROR

INT64_MAX = 2**63 - 1


@nrt_free
def clamp_index(i, n, lower, upper):
    """A given slice bound i on a list of length n: negative counts from the end, then
    clamped to [lower, upper] (slice.indices)."""
    if i < 0:
        i += n
        return lower if i < lower else i
    return upper if i > upper else i


@nrt_free
def slice_bounds(n, arg, start, stop, step):
    """(status, first index, count, step) of xs[start:stop:step] on a list of length n (arg
    bits 1, 2, 4: start, stop, step given); Python's slice.indices."""
    if (arg & 4) == 0:
        step = np.int64(1)
    if step == 0:
        return VALUE_ERROR, np.int64(0), np.int64(0), step
    lower = np.int64(0) if step > 0 else np.int64(-1)
    upper = n if step > 0 else n - 1
    start = clamp_index(start, n, lower, upper) if arg & 1 else (upper if step < 0 else lower)
    stop = clamp_index(stop, n, lower, upper) if arg & 2 else (lower if step < 0 else upper)
    count = np.int64(0)
    if step > 0 and stop > start:
        count = (stop - start - 1) // step + 1
    elif step < 0 and start > stop:
        count = (start - stop - 1) // (-step if step != -INT64_MAX - 1 else INT64_MAX) + 1
    return OK, start, count, step
