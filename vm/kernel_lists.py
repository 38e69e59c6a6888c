"""The VM kernel's list instructions (a part of vm/kernel.py's body, like vm/kernel_numeric.py):
the job's heap, list handles and every instruction from NEW_LIST on.

Same one-source rules as run_job (plain Python, numba CPU, CUDA; no allocation, no raising).

The heap.  Each job has an int64 array `heap` (contract.image.LaunchLimits.heap_size words) and a
bump pointer hp, 0 when the job starts.  A list value in a slot is a handle h:
heap[h] = len, heap[h + 1] = cap, heap[h + 2] = d, its elements heap[d .. d + len) (slot
values: ints, or float bits where the instruction says the elements are floats).  A new
list takes 3 + max(n, 4) contiguous words (header, then data); appending to a full list
moves its data to a new block of 2 * cap words (the old one is leaked; there is no GC).
An allocation that does not fit ends the job with MEMORY_LIMIT.  Every allocated word is
written (unused capacity is zeroed), so the heap below hp is the same on every backend.

Handles are checked on every use (bytecode that verified can still hold garbage in a
slot): h must lie in [0, hp - 3] and its header satisfy 0 <= len <= cap, d >= 0,
d + cap <= hp; otherwise INVALID_BYTECODE.

Cost.  Each instruction costs its table cost (contract.isa) plus the elements it reads or
writes: NEW_LIST, LIST_SUM / MIN / MAX: n; LIST_CONTAINS: the elements compared (up to and
including the match); LIST_SLICE / CONCAT / REPEAT: the elements of the result; LIST_EQ
(and == / != of lists in ASSERT_CMP / COMPARE_NUM): the element pairs compared (0 when
the lengths differ); LIST_APPEND: the elements copied when it grows the list;
LIST_SORT: n * ceil(log2 n) (the merge passes of a bottom-up merge sort); LIST_SORTED: that
plus n (the copy).  An instruction that fails with an error status (IndexError, ValueError,
OverflowError, MEMORY_LIMIT, INVALID_BYTECODE) adds nothing; a failed assert of lists adds
the pairs it compared.

Sorting is a stable bottom-up merge sort comparing with < only (an element moves before
an earlier one only when it is strictly smaller); its n-word buffer comes from the heap
(MEMORY_LIMIT if it does not fit) and is released after.  With nan among floats the order
can differ from CPython's timsort.  `x in xs` and list == compare elements with == (nan is
never equal to itself: CPython's identity shortcut finds the very same nan object).
"""

from __future__ import annotations

import numpy as np

from gpucc.contract.isa import (
    BINARY_ADD,
    CMP_EQ,
    CMP_NE,
    COMPARE_NUM,
    FOR_LIST,
    LIST_APPEND,
    LIST_CONCAT,
    LIST_CONTAINS,
    LIST_EQ,
    LIST_GET,
    LIST_LEN,
    LIST_MAX,
    LIST_MIN,
    LIST_REPEAT,
    LIST_SET,
    LIST_SLICE,
    LIST_SORT,
    LIST_SORTED,
    LIST_SUM,
    NEW_LIST,
)  # fmt: skip
from gpucc.contract.jitable import nrt_free, typed_cmp, typed_cmp_fields
from gpucc.contract.status import (
    INDEX_ERROR,
    INVALID_BYTECODE,
    MEMORY_LIMIT,
    OK,
    OVERFLOW,
    VALUE_ERROR,
)
from gpucc.contract.valuetypes import T_FLOAT, T_INT, T_LIST_FLOAT, T_LIST_INT
from gpucc.vm.floats import b2f, f2b, typed_compare
from gpucc.vm.intmath import arith

# Most functions here take the heap array.  numba's CPU code counts references to array
# arguments (atomic NRT increfs / decrefs, which its pruning leaves in functions this branchy),
# costing more than most list instructions; these functions allocate nothing, so they are
# compiled without NRT (contract.jitable.nrt_free; CUDA has none anyway).

HEADER = 3  # len, cap, data offset
MIN_CAP = 4
INT64_MAX = 2**63 - 1


@nrt_free
def list_typed(arg):
    """Whether a TYPED_CMP operand names a list type."""
    _, lt, rt = typed_cmp_fields(arg)
    return lt == T_LIST_INT or lt == T_LIST_FLOAT or rt == T_LIST_INT or rt == T_LIST_FLOAT


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
def enter_arguments(j, n_params, jobs, stack, heap):
    """(status, hp): job j's arguments (jobs: contract.image.JobArrays) into stack[0 .. n_params),
    each list argument (bit k of arg_lists[j]; args[j, k] an offset into pool: pool_list)
    copied into a new heap list.  MEMORY_LIMIT when they do not fit."""
    pool = jobs.pool
    hp = np.int64(0)
    bits = jobs.arg_lists[j]
    for k in range(n_params):
        v = jobs.args[j, k]
        if (bits >> k) & 1:
            v, hp = pool_list(pool, v, heap, hp)
            if v < 0:
                return MEMORY_LIMIT, hp
        stack[k] = v
    return OK, hp


@nrt_free
def pool_list(pool, o, heap, hp):
    """(handle or -1, hp): a new heap list of the pool list at offset o; a list of strs
    (pool[o] = -1 - n) gets a new heap str for each element (JobTable's layout)."""
    n = pool[o]
    nested = n < 0
    if nested:
        n = -1 - n
    h, hp = new_list(heap, hp, n)
    if h < 0:
        return h, hp
    for i in range(n):
        x = pool[o + 1 + i]
        if nested:
            m = pool[x]
            x, hp = new_list(heap, hp, m)
            if x < 0:
                return x, hp
            for c in range(m):
                heap[x + HEADER + c] = pool[pool[o + 1 + i] + 1 + c]
        heap[h + HEADER + i] = x
    return h, hp


@nrt_free
def less(is_float, a, b):
    if is_float:
        return b2f(a) < b2f(b)
    return a < b


@nrt_free
def merge_passes(n):
    """ceil(log2 n): the merge passes of a bottom-up merge sort of n elements (0 for n <= 1)."""
    p = 0
    width = 1
    while width < n:
        width *= 2
        p += 1
    return p


@nrt_free
def merge_sort(heap, d, n, tmp, is_float):
    """Sort heap[d .. d + n) stably by <, using heap[tmp .. tmp + n) as the buffer."""
    src = d
    dst = tmp
    width = 1
    while width < n:
        for lo in range(0, n, 2 * width):
            mid = min(lo + width, n)
            hi = min(lo + 2 * width, n)
            i = lo
            r = mid
            for k in range(lo, hi):
                if r < hi and (i >= mid or less(is_float, heap[src + r], heap[src + i])):
                    heap[dst + k] = heap[src + r]
                    r += 1
                else:
                    heap[dst + k] = heap[src + i]
                    i += 1
        t = src
        src = dst
        dst = t
        width *= 2
    if src != d:
        for k in range(n):
            heap[d + k] = heap[src + k]


@nrt_free
def sort_list(heap, hp, d, n, is_float):
    """(status, extra cost) of sorting a list's data in place with a temporary heap buffer."""
    if n > heap.shape[0] - hp:
        return MEMORY_LIMIT, np.int64(0)
    merge_sort(heap, d, n, hp, is_float)
    return OK, n * merge_passes(n)


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


@nrt_free
def list_equal(heap, hp, a, b, etype_a, etype_b):
    """(status, a == b, pairs compared) of two lists whose elements have types etype_a / _b."""
    da, na, _ = header(heap, hp, a)
    db, nb, _ = header(heap, hp, b)
    if da < 0 or db < 0:
        return INVALID_BYTECODE, np.int64(0), np.int64(0)
    if na != nb:
        return OK, np.int64(0), np.int64(0)
    arg = typed_cmp(CMP_EQ, etype_a, etype_b)
    for k in range(na):
        if typed_compare(arg, heap[da + k], heap[db + k]) == 0:
            return OK, np.int64(0), k + 1
    return OK, np.int64(1), na


@nrt_free
def list_compare(arg, a, b, heap, hp):
    """(status, a <cmp> b, extra cost) of ASSERT_CMP / COMPARE_NUM on list operands: == and !=
    of two lists; anything else is INVALID_BYTECODE (the compiler never emits it)."""
    cmp, lt, rt = typed_cmp_fields(arg)
    if (cmp != CMP_EQ and cmp != CMP_NE) or (lt != T_LIST_INT and lt != T_LIST_FLOAT) or (
        rt != T_LIST_INT and rt != T_LIST_FLOAT
    ):
        return INVALID_BYTECODE, np.int64(0), np.int64(0)
    st, eq, extra = list_equal(heap, hp, a, b, T_FLOAT if lt == T_LIST_FLOAT else T_INT,
                               T_FLOAT if rt == T_LIST_FLOAT else T_INT)  # fmt: skip
    if cmp == CMP_NE:
        eq = 1 - eq
    return st, eq, extra


@nrt_free
def list_length(heap, hp, h):
    """len of list h (for a failing assert's record), 0 for a bad handle."""
    _, n, _ = header(heap, hp, h)
    return n


@nrt_free
def _reduce(op, heap, d, n, is_float):
    """(status, result) of sum / min / max over heap[d .. d + n)."""
    if op == LIST_SUM:
        if is_float:
            acc = 0.0
            for k in range(n):
                acc += b2f(heap[d + k])
            return OK, f2b(acc)
        total = np.int64(0)
        for k in range(n):
            st, total = arith(BINARY_ADD, total, heap[d + k])
            if st != OK:
                return OVERFLOW, np.int64(0)
        return OK, total
    if n == 0:
        return VALUE_ERROR, np.int64(0)
    best = heap[d]
    for k in range(1, n):
        x = heap[d + k]
        if (less(is_float, x, best) if op == LIST_MIN else less(is_float, best, x)):
            best = x
    return OK, best


@nrt_free
def _copy(heap, src, dst, n):
    for k in range(n):
        heap[dst + k] = heap[src + k]


@nrt_free
def list_op(op, arg, stack, sp, fp, heap, hp):
    """Run list instruction op (or COMPARE_NUM on list operands) on the stack whose top is at
    sp - 1 and the frame at fp; returns (status, sp, hp, extra cost, pc advance: 1, or 2
    when FOR_LIST skips its JUMP)."""
    zero = np.int64(0)
    if op == FOR_LIST:
        s = fp + arg
        d, n, _ = header(heap, hp, stack[s])
        if d < 0:
            return INVALID_BYTECODE, sp, hp, zero, 1
        i = stack[s + 1]
        if i < 0 or i >= n:
            return OK, sp, hp, zero, 1
        stack[sp] = heap[d + i]
        stack[s + 1] = i + 1
        return OK, sp + 1, hp, zero, 2
    if op == NEW_LIST:
        h, hp = new_list(heap, hp, np.int64(arg))
        if h < 0:
            return MEMORY_LIMIT, sp, hp, zero, 1
        sp -= arg
        _copy_from_stack(stack, sp, heap, h + HEADER, arg)
        stack[sp] = h
        return OK, sp + 1, hp, np.int64(arg), 1
    if op == LIST_CONTAINS:
        x = stack[sp - 2]
        d, n, _ = header(heap, hp, stack[sp - 1])
        if d < 0:
            return INVALID_BYTECODE, sp, hp, zero, 1
        found = 0
        k = 0
        while k < n and found == 0:
            found = typed_compare(arg, x, heap[d + k])
            k += 1
        stack[sp - 2] = found
        return OK, sp - 1, hp, np.int64(k), 1
    if op == LIST_EQ or op == COMPARE_NUM:
        if op == LIST_EQ:
            t = T_FLOAT if arg & 1 else T_INT
            st, eq, extra = list_equal(heap, hp, stack[sp - 2], stack[sp - 1], t, t)
        else:
            st, eq, extra = list_compare(arg, stack[sp - 2], stack[sp - 1], heap, hp)
        if st != OK:
            return st, sp, hp, zero, 1
        stack[sp - 2] = eq
        return OK, sp - 1, hp, extra, 1
    if op == LIST_GET or op == LIST_SET:
        base = sp - 2  # xs, i (LIST_SET: v below them)
        d, n, _ = header(heap, hp, stack[base])
        if d < 0:
            return INVALID_BYTECODE, sp, hp, zero, 1
        i = stack[base + 1]
        if i < 0:
            i += n
        if i < 0 or i >= n:
            return INDEX_ERROR, sp, hp, zero, 1
        if op == LIST_GET:
            stack[base] = heap[d + i]
            return OK, sp - 1, hp, zero, 1
        heap[d + i] = stack[base - 1]
        return OK, base - 1, hp, zero, 1
    if op == LIST_CONCAT or op == LIST_REPEAT:
        a = stack[sp - 2]
        d, n, _ = header(heap, hp, a)
        if d < 0:
            return INVALID_BYTECODE, sp, hp, zero, 1
        if op == LIST_CONCAT:
            d2, n2, _ = header(heap, hp, stack[sp - 1])
            if d2 < 0:
                return INVALID_BYTECODE, sp, hp, zero, 1
            times = np.int64(1)
            total = n + n2
        else:
            d2 = d
            n2 = zero
            times = stack[sp - 1]
            if times <= 0 or n == 0:
                times = zero
            elif times > heap.shape[0] // n:  # surely past the heap (n * times might overflow)
                return MEMORY_LIMIT, sp, hp, zero, 1
            total = n * times
        h, hp = new_list(heap, hp, total)
        if h < 0:
            return MEMORY_LIMIT, sp, hp, zero, 1
        for r in range(times):
            _copy(heap, d, h + HEADER + r * n, n)
        _copy(heap, d2, h + HEADER + n, n2)
        stack[sp - 2] = h
        return OK, sp - 1, hp, total, 1
    if op == LIST_SLICE:
        base = sp - 4
        d, n, _ = header(heap, hp, stack[base])
        if d < 0:
            return INVALID_BYTECODE, sp, hp, zero, 1
        st, start, count, step = slice_bounds(n, arg, stack[base + 1], stack[base + 2], stack[base + 3])
        if st != OK:
            return st, sp, hp, zero, 1
        h, hp = new_list(heap, hp, count)
        if h < 0:
            return MEMORY_LIMIT, sp, hp, zero, 1
        for k in range(count):
            heap[h + HEADER + k] = heap[d + start + k * step]
        stack[base] = h
        return OK, base + 1, hp, count, 1
    if op == LIST_APPEND:
        xs = stack[sp - 2]
        d, n, cap = header(heap, hp, xs)
        if d < 0:
            return INVALID_BYTECODE, sp, hp, zero, 1
        extra = zero
        if n == cap:
            new_cap = 2 * cap if cap >= MIN_CAP else np.int64(MIN_CAP)
            if new_cap > heap.shape[0] - hp:
                return MEMORY_LIMIT, sp, hp, zero, 1
            _copy(heap, d, hp, n)
            for k in range(hp + n, hp + new_cap):
                heap[k] = 0
            d = hp
            hp += new_cap
            heap[xs + 1] = new_cap
            heap[xs + 2] = d
            extra = n
        heap[d + n] = stack[sp - 1]
        heap[xs] = n + 1
        return OK, sp - 2, hp, extra, 1
    # one list operand on top: LIST_LEN, SUM, MIN, MAX, SORTED, SORT
    xs = stack[sp - 1]
    d, n, _ = header(heap, hp, xs)
    if d < 0:
        return INVALID_BYTECODE, sp, hp, zero, 1
    is_float = (arg & 1) == 1
    if op == LIST_LEN:
        stack[sp - 1] = n
        return OK, sp, hp, zero, 1
    if op == LIST_SUM or op == LIST_MIN or op == LIST_MAX:
        st, r = _reduce(op, heap, d, n, is_float)
        if st != OK:
            return st, sp, hp, zero, 1
        stack[sp - 1] = r
        return OK, sp, hp, n, 1
    if op == LIST_SORT:
        st, extra = sort_list(heap, hp, d, n, is_float)
        return st, sp - 1, hp, extra, 1
    if op == LIST_SORTED:
        h, hp = new_list(heap, hp, n)
        if h < 0:
            return MEMORY_LIMIT, sp, hp, zero, 1
        _copy(heap, d, h + HEADER, n)
        st, extra = sort_list(heap, hp, h + HEADER, n, is_float)
        if st != OK:
            return st, sp, hp, zero, 1
        stack[sp - 1] = h
        return OK, sp, hp, n + extra, 1
    return INVALID_BYTECODE, sp, hp, zero, 1


@nrt_free
def _copy_from_stack(stack, lo, heap, dst, n):
    for k in range(n):
        heap[dst + k] = stack[lo + k]
