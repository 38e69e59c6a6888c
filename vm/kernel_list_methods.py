"""The VM kernel's list methods beyond append / sort and the int -> text radix conversions (a
part of vm/kernel.py's body, like vm/kernel_lists.py): LIST_CLEAR .. LIST_REVERSE (list_op
hands them here), VALUE_INDEX / COUNT / REMOVE (value_op, after it checked the constant) and
STR_RADIX (str_op).  vm/reference_methods.py is the spec.

Same one-source rules as run_job (plain Python, numba CPU, CUDA; no allocation, no raising).

Growth.  LIST_EXTEND and LIST_INSERT grow a full list as LIST_APPEND does: its data moves to
a new block of max(2 * cap, the length needed, MIN_CAP) words (the old one is left), spare
words zeroed.  A slot a list gives up (clear, pop, remove) is zeroed, so no stale handle
stays past its length.

Cost (added to the table cost): LIST_CLEAR, LIST_REVERSE: n; LIST_EXTEND: the elements
appended plus those a growth copied; LIST_POP, LIST_INSERT, VALUE_REMOVE: the elements moved
(plus a growth's copy for insert); VALUE_INDEX / COUNT / REMOVE: 1 per element compared plus
the pairs its comparison visited (vm/kernel_walk.py); STR_RADIX: the code points of the
result.  A failing instruction adds nothing.
"""

from __future__ import annotations

import numpy as np

from gpucc.contract.isa import (
    CMP_EQ,
    LIST_CLEAR,
    LIST_EXTEND,
    LIST_INSERT,
    LIST_POP,
    LIST_SET_SLICE,
    POPS,
    VALUE_COUNT,
    VALUE_INDEX,
)  # fmt: skip
from gpucc.contract.jitable import nrt_free
from gpucc.contract.status import INDEX_ERROR, INVALID_BYTECODE, MEMORY_LIMIT, OK, VALUE_ERROR
from gpucc.vm.intmath import INT64_MIN
from gpucc.vm.kernel_heap import DATA, HEADER, MIN_CAP, PLAIN, alloc, copy, header, kind_of, new_list
from gpucc.vm.kernel_slices import slice_bounds
from gpucc.vm.kernel_walk import element_type, sequence, value_compare


@nrt_free
def grow(heap, hp, xs, d, n, cap, need):
    """(status, data offset, hp, elements copied) of list xs (data d, length n, capacity cap)
    made to hold `need` elements."""
    zero = np.int64(0)
    if need <= cap:
        return OK, d, hp, zero
    new_cap = 2 * cap
    if new_cap < need:
        new_cap = need
    if new_cap < MIN_CAP:
        new_cap = np.int64(MIN_CAP)
    nd, hp = alloc(heap, hp, new_cap, DATA)
    if nd < 0:
        return MEMORY_LIMIT, d, hp, zero
    copy(heap, d, nd, n)
    for k in range(nd + n, nd + new_cap):
        heap[k] = 0
    heap[xs + 1] = new_cap
    heap[xs + 2] = nd
    return OK, nd, hp, n


@nrt_free
def _close_gap(heap, xs, d, n, i):
    """Delete element i of list xs (data d, length n): the later ones moved down, the freed
    slot zeroed; returns the elements moved."""
    for k in range(i, n - 1):
        heap[d + k] = heap[d + k + 1]
    heap[d + n - 1] = 0
    heap[xs] = n - 1
    return n - 1 - i


@nrt_free
def list_method(op, arg, stack, sp, heap, hp):
    """(status, sp, hp, extra cost) of LIST_CLEAR, EXTEND, POP, INSERT, REVERSE or SET_SLICE on
    the stack whose top is at sp - 1 (the receiver deepest, but for SET_SLICE's ys)."""
    zero = np.int64(0)
    base = sp - POPS[op]
    if op == LIST_SET_SLICE:
        return set_slice(arg, stack, base, heap, hp)
    xs = stack[base]
    d, n, cap = header(heap, hp, xs)
    if d < 0:
        return INVALID_BYTECODE, sp, hp, zero
    if op == LIST_EXTEND:
        d2, m, _ = header(heap, hp, stack[sp - 1])
        if d2 < 0:
            return INVALID_BYTECODE, sp, hp, zero
        st, d, hp, copied = grow(heap, hp, xs, d, n, cap, n + m)
        if st != OK:
            return st, sp, hp, zero
        d2, _, _ = header(heap, hp, stack[sp - 1])  # moved when ys is xs
        copy(heap, d2, d + n, m)
        heap[xs] = n + m
        return OK, base, hp, m + copied
    if op == LIST_POP:
        i = stack[sp - 1]
        if i < 0:
            i += n
        if i < 0 or i >= n:
            return INDEX_ERROR, sp, hp, zero
        stack[base] = heap[d + i]
        return OK, base + 1, hp, _close_gap(heap, xs, d, n, i)
    if op == LIST_INSERT:
        i = stack[sp - 2]
        if i < 0:
            i = i + n if i + n > 0 else zero
        if i > n:
            i = n
        st, d, hp, copied = grow(heap, hp, xs, d, n, cap, n + 1)
        if st != OK:
            return st, sp, hp, zero
        for k in range(n, i, -1):
            heap[d + k] = heap[d + k - 1]
        heap[d + i] = stack[sp - 1]
        heap[xs] = n + 1
        return OK, base, hp, n - i + copied
    if op == LIST_CLEAR:
        for k in range(n):
            heap[d + k] = 0
        heap[xs] = 0
        return OK, base, hp, n
    for k in range(n // 2):  # LIST_REVERSE
        a = heap[d + k]
        heap[d + k] = heap[d + n - 1 - k]
        heap[d + n - 1 - k] = a
    return OK, base, hp, n


@nrt_free
def set_slice(arg, stack, base, heap, hp):
    """(status, sp, hp, extra cost) of LIST_SET_SLICE, its operands ys, xs, start, stop, step at
    stack[base ..] (arg bits 1, 2, 4: which parts are given)."""
    zero = np.int64(0)
    ys = stack[base]
    xs = stack[base + 1]
    d, n, cap = header(heap, hp, xs)
    d2, m, _ = header(heap, hp, ys)
    if d < 0 or d2 < 0:
        return INVALID_BYTECODE, base + 5, hp, zero
    st, start, count, step = slice_bounds(n, arg, stack[base + 2], stack[base + 3], stack[base + 4])
    if st != OK:
        return st, base + 5, hp, zero
    extended = (arg & 4) != 0 and step != 1
    if extended and m != count:
        return VALUE_ERROR, base + 5, hp, zero
    if ys == xs:  # xs[a:b] = xs: a copy of it first, as CPython's list_ass_slice
        ys, hp = new_list(heap, hp, m, kind_of(heap, xs))
        if ys < 0:
            return MEMORY_LIMIT, base + 5, hp, zero
        copy(heap, d, ys + HEADER, m)
        d2 = ys + HEADER
    if extended:
        for k in range(m):
            heap[d + start + k * step] = heap[d2 + k]
        return OK, base, hp, m
    st, d, hp, copied = grow(heap, hp, xs, d, n, cap, n - count + m)
    if st != OK:
        return st, base + 5, hp, zero
    tail = n - start - count
    if m > count:
        for k in range(tail - 1, -1, -1):
            heap[d + start + m + k] = heap[d + start + count + k]
    elif m < count:
        for k in range(tail):
            heap[d + start + m + k] = heap[d + start + count + k]
        for k in range(n - count + m, n):
            heap[d + k] = 0
    copy(heap, d2, d + start, m)
    heap[xs] = n - count + m
    return OK, base, hp, m + tail + copied


@nrt_free
def list_find(op, tx, ts, stack, sp, heap, hp, walk):
    """(status, sp, hp, extra cost) of VALUE_INDEX, COUNT or REMOVE: list xs (of type ts) below x
    (of type tx) on top, its elements compared with == by value_compare."""
    zero = np.int64(0)
    xs = stack[sp - 2]
    x = stack[sp - 1]
    d, n = sequence(heap, hp, xs, ts)
    if d < 0:
        return INVALID_BYTECODE, sp, hp, zero
    extra = zero
    found = zero
    k = 0
    while k < n:
        st, eq, visited = value_compare(heap, hp, walk, CMP_EQ, x, tx, heap[d + k], element_type(ts, k))
        if st != OK:
            return st, sp, hp, zero
        extra += 1 + visited
        if eq != 0:
            found += 1
            if op != VALUE_COUNT:
                break
        k += 1
    if op == VALUE_COUNT:
        stack[sp - 2] = found
        return OK, sp - 1, hp, extra
    if found == 0:
        return VALUE_ERROR, sp, hp, zero
    if op == VALUE_INDEX:
        stack[sp - 2] = k
        return OK, sp - 1, hp, extra
    return OK, sp - 2, hp, extra + _close_gap(heap, xs, d, n, k)  # VALUE_REMOVE


@nrt_free
def _digit(m, shift, bits):
    """The digit of the 64 bits of m (read as unsigned) at bit `shift`, `bits` wide (fewer at the top)."""
    width = bits if 64 - shift >= bits else 64 - shift
    return (m >> shift) & ((np.int64(1) << width) - 1)


@nrt_free
def radix_text(arg, stack, sp, heap, hp):
    """(status, sp, hp, extra cost) of STR_RADIX: the int on top as a new str in base arg (2, 8
    or 16; INVALID_BYTECODE for another), as CPython's bin / oct / hex."""
    zero = np.int64(0)
    bits = 1 if arg == 2 else (3 if arg == 8 else (4 if arg == 16 else 0))
    if bits == 0:
        return INVALID_BYTECODE, sp, hp, zero
    i = stack[sp - 1]
    m = i if i >= 0 or i == INT64_MIN else -i  # -(2**63) stays itself: its bits are the magnitude's
    ndigits = 1
    for k in range(1, (64 + bits - 1) // bits):
        if _digit(m, k * bits, bits) != 0:
            ndigits = k + 1
    size = (1 if i < 0 else 0) + 2 + ndigits
    h, hp = new_list(heap, hp, np.int64(size), PLAIN)
    if h < 0:
        return MEMORY_LIMIT, sp, hp, zero
    at = h + HEADER
    if i < 0:
        heap[at] = 45  # '-'
        at += 1
    heap[at] = 48  # '0'
    heap[at + 1] = 98 if bits == 1 else (111 if bits == 3 else 120)  # 'b', 'o', 'x'
    for k in range(ndigits):
        digit = _digit(m, (ndigits - 1 - k) * bits, bits)
        heap[at + 2 + k] = digit + 48 if digit < 10 else digit + 87  # '0'.., 'a'..
    stack[sp - 1] = h
    return OK, sp, hp, np.int64(size)
