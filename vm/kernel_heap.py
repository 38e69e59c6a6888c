"""The job's heap: its blocks, their kinds, allocation (a part of vm/kernel.py's body): the lists
and strs of vm/kernel_lists.py, vm/kernel_order.py and vm/kernel_str.py live here, and
vm/kernel_gc.py collects what no longer is reachable.

Same one-source rules as run_job (plain Python, numba CPU, CUDA; no allocation, no raising).

Layout.  Each job has an int64 array `heap` of H words (contract.image.LaunchLimits.heap_size).
heap[CURSOR] and heap[PEAK] are the allocator's state; blocks fill heap[FIRST_BLOCK .. hp), hp
the top (every function here takes and returns it); the last H // 65 + 1 words are the
collector's object-start bitmap, so blocks may reach `limit(heap)` (about 98.5% of H).  A block
at b is a header word heap[b] = size | kind << 32 (| the collector's mark bits, only while it
runs) and size payload words from b + 1, its address.  Every block's kind is declared here
(the kind table below), and vm/kernel_gc.py's `trace` is the one place saying which words of a block of
that kind are handles: a new object kind (dicts, sets) adds a row to both.

A list (or str, tuple, box) value in a slot is a handle h, the address of a PLAIN or REFS
block: heap[h] = len, heap[h + 1] = cap, heap[h + 2] = d, its elements heap[d .. d + len) (slot
values: ints, float bits, or handles: the instruction's element kind says which).  A new list
has its data inline (d = h + HEADER, 3 + max(n, 4) payload words); appending to a full list
moves its data to a new DATA block of 2 * cap words (the old inline words stay unused in the
list's block; an old DATA block becomes garbage).  Every word of a new list is written (unused
capacity zeroed), so what a job can read is the same on every backend.

Allocation (`alloc`) is next fit: from heap[CURSOR] it walks the blocks below hp and takes the
first FREE block big enough (split when at least 2 words are left over, else taken whole), then
bumps hp.  A job starts with an empty heap (`start`); hp never passes limit.  When an
allocation does not fit, the instruction fails with MEMORY_LIMIT having changed nothing but
blocks it allocated; run_job then collects (vm/kernel_gc.py) and runs the instruction once
more: MEMORY_LIMIT again ends the job.  So a job ends with the memory limit only when what it
can still reach (plus the instruction's need and the holes between blocks: the collector does
not move blocks) does not fit.  heap[PEAK] is the highest hp the job reached: its
heap_peak_words (contract.image.Results) is PEAK - FIRST_BLOCK.

Handles are checked on every use (bytecode that verified can still hold garbage in a
slot): h must lie in [FIRST_BLOCK, hp - 3] and its header satisfy 0 <= len <= cap,
d >= FIRST_BLOCK, d + cap <= hp; otherwise INVALID_BYTECODE.  So no instruction reads or writes
outside the blocks: a forged handle can overwrite block headers (the next collection or
allocation finds them: INVALID_BYTECODE), never the allocator's state or the bitmap.
"""

from __future__ import annotations

import numpy as np

from gpucc.contract.jitable import nrt_free

# Most functions here take the heap array.  numba's CPU code counts references to array
# arguments (atomic NRT increfs / decrefs, which its pruning leaves in functions this branchy),
# costing more than most list instructions; these functions allocate nothing, so they are
# compiled without NRT (contract.jitable.nrt_free; CUDA has none anyway).

HEADER = 3  # a list's len, cap, data offset
MIN_CAP = 4
CURSOR, PEAK = 0, 1  # the allocator's state words
FIRST_BLOCK = 2
MIN_HEAP = FIRST_BLOCK + 2  # the smallest heap array a kernel gets (it holds no block)

# Block kinds: the one table of them (vm/kernel_gc.py's `trace` says what each holds).  A kind
# from FIRST_OBJECT on is an object a handle may name; the ones before it are the heap's own.
FREE = 1  # no object: the allocator's to give out
RAW = 2  # an instruction's scratch (a sort's merge buffer, str()'s digits), released by it
DATA = 3  # a grown list's elements, kept alive by its list (never named by a handle)
PLAIN = 4  # a list, str, tuple or box whose elements are no handles (code points, numbers)
REFS = 5  # a list or tuple whose elements may be handles: every one that names an object is one
FIRST_OBJECT = PLAIN
LAST_KIND = REFS  # new kinds go after it (and into vm/kernel_gc.py's trace)

KIND_SHIFT = 32
SIZE_MASK = (1 << KIND_SHIFT) - 1
KIND_MASK = 0xFF


@nrt_free
def limit(heap):
    """The end of the block area: the bitmap (vm/kernel_gc.py) takes the words after it."""
    return np.int64(heap.shape[0] - heap.shape[0] // 65 - 1)


@nrt_free
def start(heap):
    """An empty heap: the state words written; returns hp."""
    if heap.shape[0] >= MIN_HEAP:
        heap[CURSOR] = FIRST_BLOCK
        heap[PEAK] = FIRST_BLOCK
    return np.int64(FIRST_BLOCK)


@nrt_free
def peak_words(heap):
    """The job's heap high-water mark: the most block words (headers too) it ever held."""
    if heap.shape[0] < MIN_HEAP:
        return np.int64(0)
    return heap[PEAK] - FIRST_BLOCK


@nrt_free
def block(heap, hp, b):
    """(size, kind) of the block at b; kind 0 when its header is no block's below hp."""
    w = heap[b]
    size = w & SIZE_MASK
    kind = (w >> KIND_SHIFT) & KIND_MASK
    if w < 0 or kind < FREE or kind > LAST_KIND or size > hp - b - 1:
        return np.int64(0), np.int64(0)
    return size, kind


@nrt_free
def alloc(heap, hp, size, kind):
    """(address or -1, hp) of a new block of at least `size` payload words (their contents the
    caller's) of `kind`: next fit, see the module doc.  -1 when it does not fit (or a block
    header on the way is corrupt: the collection that follows reports it)."""
    if heap.shape[0] < MIN_HEAP or size < 0:
        return np.int64(-1), hp
    c = heap[CURSOR]
    while c < hp:
        s, k = block(heap, hp, c)
        if k == 0:
            return np.int64(-1), hp
        if k == FREE and s >= size:
            if s - size >= 2:  # split: the rest stays free
                heap[c + 1 + size] = (s - size - 1) | (np.int64(FREE) << KIND_SHIFT)
                s = size
            heap[c] = s | (np.int64(kind) << KIND_SHIFT)
            heap[CURSOR] = c + 1 + s
            return c + 1, hp
        c += 1 + s
    if size > limit(heap) - hp - 1:
        return np.int64(-1), hp
    heap[hp] = size | (np.int64(kind) << KIND_SHIFT)
    p = hp + 1
    hp = p + size
    heap[CURSOR] = hp
    if hp > heap[PEAK]:
        heap[PEAK] = hp
    return p, hp


@nrt_free
def release(heap, hp, p):
    """hp after block p (an instruction's RAW scratch) is given back: FREE, the cursor moved back
    to it, hp lowered to it when it was the last block."""
    b = p - 1
    size = heap[b] & SIZE_MASK
    heap[b] = size | (np.int64(FREE) << KIND_SHIFT)
    if b < heap[CURSOR]:
        heap[CURSOR] = b
    if b + 1 + size == hp:
        hp = b
    return hp


@nrt_free
def header(heap, hp, h):
    """(d, len, cap) of handle h; d == -1 when h is not a valid list handle."""
    if h < FIRST_BLOCK or h > hp - HEADER:
        return np.int64(-1), np.int64(0), np.int64(0)
    u = np.uint64(h)  # >= 0: numba emits no negative-index wraparound
    n = heap[u]
    cap = heap[u + np.uint64(1)]
    d = heap[u + np.uint64(2)]
    if n < 0 or cap < n or d < FIRST_BLOCK or d > hp or cap > hp - d:
        return np.int64(-1), np.int64(0), np.int64(0)
    return d, n, cap


@nrt_free
def new_list(heap, hp, n, kind):
    """(handle, hp after) of a new list of length n and block kind PLAIN or REFS (its elements
    left to the caller, the spare capacity zeroed); handle -1 when it does not fit."""
    cap = n if n > MIN_CAP else MIN_CAP
    if n < 0 or cap > limit(heap):
        return np.int64(-1), hp
    h, hp = alloc(heap, hp, HEADER + cap, kind)
    if h < 0:
        return h, hp
    heap[h] = n
    heap[h + 1] = cap
    heap[h + 2] = h + HEADER
    for k in range(h + HEADER + n, h + HEADER + cap):
        heap[k] = 0
    return h, hp


@nrt_free
def kind_of(heap, h):
    """The kind a new list copied from (valid) handle h takes: PLAIN if h's block is, else REFS."""
    if h >= 1 and ((heap[h - 1] >> KIND_SHIFT) & KIND_MASK) == PLAIN:
        return np.int64(PLAIN)
    return np.int64(REFS)


@nrt_free
def joined_kind(heap, a, b):
    """The kind of a list holding the elements of lists a and b (a + b)."""
    ka = kind_of(heap, a)
    return ka if ka == kind_of(heap, b) else np.int64(REFS)


@nrt_free
def copy(heap, src, dst, n):
    """heap[dst .. dst + n) = heap[src .. src + n) (the ranges do not overlap)."""
    for k in range(n):
        heap[dst + k] = heap[src + k]
