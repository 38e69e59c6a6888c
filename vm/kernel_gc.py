"""The job heap's garbage collector (a part of vm/kernel.py's body): non-moving mark-sweep over
vm/kernel_heap.py's blocks, run by run_job when an instruction's allocation does not fit.

Same one-source rules as run_job (plain Python, numba CPU, CUDA; no allocation, no raising, no
recursion).  vm/reference_heap.py is the spec (which blocks survive, the heap after).

Why this design.  A slot holds an int, a float's bits or a handle, and nothing at run time says
which: the compiler knows the static type of each local and each value on the operand stack,
but the image carries no stack maps, and bytecode from a model carries no types at all.  So the
roots are conservative: every word of the value stack below sp (every frame's locals and
operands) that is the address of an object block is taken for a handle.  A collector that moves
objects would have to rewrite those words and could change an int that only looks like a
handle, so blocks do not move (mark-sweep, not Cheney's copying).  Inside the heap, tracing is
by block kind (kernel_heap.py's kind table; `trace` below): a PLAIN block (str, box, list of numbers)
holds no handle and is not read; a REFS block's elements are handles where they name an object.
Which words name an object is exact: the object-start bitmap (the words past
kernel_heap.limit) is built from the block walk, so a word inside a block never passes for one.
A conservative root or element can keep garbage alive (an int equal to an object's address);
it never frees a live object.

`collect`: (1) walk the blocks from FIRST_BLOCK to hp, checking each header (a size inside the
heap, a known kind: anything else is a heap corrupted by bad bytecode, INVALID_BYTECODE) and
setting its bit; (2) mark the objects the roots name; (3) scan: pass over the blocks in address
order, tracing each marked, unscanned object (marking what it names; a mark below the pass's
position asks for another pass), until a pass marks nothing: no mark stack, each pass linear;
(4) sweep: each run of unmarked blocks becomes one FREE block, a run at the top lowers hp, the
allocator's cursor goes back to the first block.  The collection costs the job nothing (its
cost and steps are those of its instructions).
"""

from __future__ import annotations

import numpy as np

from gpucc.contract.jitable import nrt_free
from gpucc.contract.status import INVALID_BYTECODE, OK
from gpucc.vm.kernel_heap import (
    CURSOR,
    DATA,
    FIRST_BLOCK,
    FIRST_OBJECT,
    FREE,
    HEADER,
    KIND_MASK,
    KIND_SHIFT,
    PLAIN,
    REFS,
    SIZE_MASK,
    block,
    limit,
)

MARKED = 1 << 40  # header bits while a collection runs
SCANNED = 1 << 41
MARK_BITS = MARKED | SCANNED


@nrt_free
def is_start(heap, p):
    """Whether p is a block's address (the bitmap `collect` built)."""
    return ((heap[limit(heap) + (p >> 6)] >> (p & 63)) & 1) == 1


@nrt_free
def names_object(heap, hp, v):
    """Whether slot value v is a handle: the address of a block of an object kind."""
    if v <= FIRST_BLOCK or v >= hp or not is_start(heap, v):
        return False
    return ((heap[v - 1] >> KIND_SHIFT) & KIND_MASK) >= FIRST_OBJECT


@nrt_free
def trace(heap, hp, b, size, kind):
    """(ok, own, lo, hi) of the block at b of `kind`: the DATA block it keeps alive (own, -1 for
    none) and the words heap[lo .. hi) that are handles where they name an object.  ok False
    for an object whose header is corrupt.  THE table of what each kind holds: a new object kind
    adds its branch here."""
    p = b + 1
    none = np.int64(-1)
    if kind == PLAIN or kind == REFS:  # a list: len, cap, d; its data inline or a DATA block
        if size < HEADER:
            return False, none, p, p
        n = heap[p]
        cap = heap[p + 1]
        d = heap[p + 2]
        if n < 0 or cap < n:
            return False, none, p, p
        own = none
        if d == p + HEADER:
            if cap > size - HEADER:
                return False, none, p, p
        else:
            if d <= FIRST_BLOCK or d >= hp or not is_start(heap, d):
                return False, none, p, p
            if ((heap[d - 1] >> KIND_SHIFT) & KIND_MASK) != DATA or cap > (heap[d - 1] & SIZE_MASK):
                return False, none, p, p
            own = d
        return True, own, d, (d + n if kind == REFS else d)
    return True, none, p, p  # FREE, RAW, DATA: nothing of their own


@nrt_free
def collect(heap, hp, stack, sp):
    """(status, hp) after collecting the heap below hp with roots stack[0 .. sp) (the module doc);
    INVALID_BYTECODE for a corrupt heap."""
    top = limit(heap)
    for i in range(top, heap.shape[0]):
        heap[i] = 0
    b = np.int64(FIRST_BLOCK)
    while b < hp:  # (1) the bitmap
        size, kind = block(heap, hp, b)
        if kind == 0:
            return INVALID_BYTECODE, hp
        p = b + 1
        heap[top + (p >> 6)] |= np.int64(1) << (p & 63)
        b = p + size
    for i in range(sp):  # (2) the roots
        v = stack[i]
        if names_object(heap, hp, v):
            heap[v - 1] |= MARKED
    again = True
    while again:  # (3) trace marked objects until a pass marks none below itself
        again = False
        b = np.int64(FIRST_BLOCK)
        while b < hp:
            w = heap[b]
            size = w & SIZE_MASK
            if (w & MARK_BITS) == MARKED:
                heap[b] = w | SCANNED
                ok, own, lo, hi = trace(heap, hp, b, size, (w >> KIND_SHIFT) & KIND_MASK)
                if not ok:
                    return INVALID_BYTECODE, hp
                if own >= 0:
                    heap[own - 1] |= MARK_BITS
                for k in range(lo, hi):
                    v = heap[k]
                    if names_object(heap, hp, v) and (heap[v - 1] & MARKED) == 0:
                        heap[v - 1] |= MARKED
                        again = again or v - 1 < b
            b += 1 + size
    return OK, sweep(heap, hp)


@nrt_free
def sweep(heap, hp):
    """(4) every run of unmarked blocks one FREE block, marks cleared; the new hp (the end of the
    last marked block)."""
    b = np.int64(FIRST_BLOCK)
    run = np.int64(-1)  # where the current run of unmarked blocks began
    end = np.int64(FIRST_BLOCK)
    while b < hp:
        w = heap[b]
        nb = b + 1 + (w & SIZE_MASK)
        if w & MARKED:
            heap[b] = w & ~np.int64(MARK_BITS)
            if run >= 0:
                heap[run] = (b - run - 1) | (np.int64(FREE) << KIND_SHIFT)
                run = np.int64(-1)
            end = nb
        elif run < 0:
            run = b
        b = nb
    heap[CURSOR] = FIRST_BLOCK
    return end
