"""The job's heap and its handles (a part of vm/kernel.py's body): the lists and strs of
vm/kernel_lists.py, vm/kernel_order.py and vm/kernel_str.py live here.

Same one-source rules as run_job (plain Python, numba CPU, CUDA; no allocation, no raising).

The heap.  Each job has an int64 array `heap` (contract.image.LaunchLimits.heap_size words) and a
bump pointer hp, 0 when the job starts.  A list value in a slot is a handle h:
heap[h] = len, heap[h + 1] = cap, heap[h + 2] = d, its elements heap[d .. d + len) (slot
values: ints, float bits, or str handles: the instruction's element kind says which).  A str
is a list of Unicode code points.  A new list takes 3 + max(n, 4) contiguous words (header,
then data); appending to a full list moves its data to a new block of 2 * cap words (the old
one is leaked; there is no GC).  An allocation that does not fit ends the job with
MEMORY_LIMIT.  Every allocated word is written (unused capacity is zeroed), so the heap
below hp is the same on every backend.

Handles are checked on every use (bytecode that verified can still hold garbage in a
slot): h must lie in [0, hp - 3] and its header satisfy 0 <= len <= cap, d >= 0,
d + cap <= hp; otherwise INVALID_BYTECODE.
"""

from __future__ import annotations

import numpy as np

from gpucc.contract.jitable import nrt_free

# Most functions here take the heap array.  numba's CPU code counts references to array
# arguments (atomic NRT increfs / decrefs, which its pruning leaves in functions this branchy),
# costing more than most list instructions; these functions allocate nothing, so they are
# compiled without NRT (contract.jitable.nrt_free; CUDA has none anyway).

HEADER = 3  # len, cap, data offset
MIN_CAP = 4


@nrt_free
def header(heap, hp, h):
    """(d, len, cap) of handle h; d == -1 when h is not a valid list handle."""
    if h < 0 or h > hp - HEADER:
        return np.int64(-1), np.int64(0), np.int64(0)
    n = heap[h]
    cap = heap[h + 1]
    d = heap[h + 2]
    if n < 0 or cap < n or d < 0 or d > hp or cap > hp - d:
        return np.int64(-1), np.int64(0), np.int64(0)
    return d, n, cap


@nrt_free
def new_list(heap, hp, n):
    """(handle, hp after) of a new list of length n (its elements left to the caller, the
    spare capacity zeroed); handle -1 when it does not fit."""
    cap = n if n > MIN_CAP else MIN_CAP
    if n < 0 or cap > heap.shape[0] - hp - HEADER:
        return np.int64(-1), hp
    h = hp
    heap[h] = n
    heap[h + 1] = cap
    heap[h + 2] = h + HEADER
    for k in range(h + HEADER + n, h + HEADER + cap):
        heap[k] = 0
    return h, hp + HEADER + cap


@nrt_free
def copy(heap, src, dst, n):
    """heap[dst .. dst + n) = heap[src .. src + n) (the ranges do not overlap)."""
    for k in range(n):
        heap[dst + k] = heap[src + k]
