"""The VM kernel's list instructions (a part of vm/kernel.py's body, like vm/kernel_numeric.py):
every instruction from NEW_LIST to FOR_LIST, on lists in the job's heap (vm/kernel_heap.py),
compared and sorted by vm/kernel_order.py, and the job's object arguments built in the heap.

Same one-source rules as run_job (plain Python, numba CPU, CUDA; no allocation, no raising).

Cost.  Each instruction costs its table cost (contract.isa) plus the elements it reads or
writes: NEW_LIST, LIST_SUM / MIN / MAX: n; LIST_CONTAINS: the elements compared (up to and
including the match); LIST_SLICE / CONCAT / REPEAT: the elements of the result; LIST_EQ
(and == / != of lists in ASSERT_CMP / COMPARE_NUM): the element pairs compared (0 when
the lengths differ); LIST_APPEND: the elements copied when it grows the list;
LIST_SORT: n * ceil(log2 n) (the merge passes of a bottom-up merge sort); LIST_SORTED: that
plus n (the copy); comparisons of strs add the code points they compare (vm/kernel_order.py).
An instruction that fails with an error status (IndexError, ValueError, OverflowError,
MEMORY_LIMIT, INVALID_BYTECODE) adds nothing; a failed assert of lists adds the pairs it
compared.
"""

from __future__ import annotations

import numpy as np

from gpucc.contract.isa import (
    BINARY_ADD,
    COMPARE_NUM,
    FOR_LIST,
    LIST_APPEND,
    LIST_CLEAR,
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
    NONE_REF,
)  # fmt: skip
from gpucc.contract.jitable import nrt_free
from gpucc.contract.status import (
    INDEX_ERROR,
    INVALID_BYTECODE,
    MEMORY_LIMIT,
    OK,
    OVERFLOW,
    VALUE_ERROR,
)
from gpucc.contract.valuetypes import T_FLOAT, T_INT, T_STR
from gpucc.vm.floats import b2f, f2b
from gpucc.vm.intmath import arith
from gpucc.vm.kernel_heap import HEADER, PLAIN, REFS, copy, header, joined_kind, kind_of, new_list
from gpucc.vm.kernel_list_methods import grow, list_method
from gpucc.vm.kernel_slices import slice_bounds
from gpucc.vm.kernel_order import element_equal, less, list_compare, list_equal, sort_list, strs_ok
from gpucc.vm.kernel_walk import WALK_COLS

INT64_MAX = 2**63 - 1


@nrt_free
def _reduce(op, heap, hp, d, n, kind, etype, walk):
    """(status, result, extra cost) of sum / min / max over heap[d .. d + n) (elements of `kind`,
    kernel_order.less)."""
    zero = np.int64(0)
    if op == LIST_SUM:
        if kind == 1:
            acc = 0.0
            for k in range(n):
                acc += b2f(heap[d + k])
            return OK, f2b(acc), n
        total = zero
        for k in range(n):
            st, total = arith(BINARY_ADD, total, heap[d + k])
            if st != OK:
                return OVERFLOW, zero, zero
        return OK, total, n
    if n == 0:
        return VALUE_ERROR, zero, zero
    if kind == 2 and not strs_ok(heap, hp, d, n):
        return INVALID_BYTECODE, zero, zero
    best = heap[d]
    extra = n
    for k in range(1, n):
        x = heap[d + k]
        st, better, pairs = (less(kind, heap, hp, x, best, etype, walk) if op == LIST_MIN
                             else less(kind, heap, hp, best, x, etype, walk))  # fmt: skip
        if st != OK:
            return st, zero, zero
        extra += pairs
        if better:
            best = x
    return OK, best, extra


@nrt_free
def append(stack, sp, heap, hp):
    """(status, sp, hp, extra cost) of LIST_APPEND (xs v ->): a full list's elements move to a
    new DATA block of twice its capacity (kernel_list_methods.grow; extra: the elements copied)."""
    zero = np.int64(0)
    xs = stack[np.uint64(sp - 2)]
    d, n, cap = header(heap, hp, xs)
    if d < 0:
        return INVALID_BYTECODE, sp, hp, zero
    st, d, hp, extra = grow(heap, hp, xs, d, n, cap, n + 1)
    if st != OK:
        return st, sp, hp, zero
    heap[np.uint64(d + n)] = stack[np.uint64(sp - 1)]
    heap[np.uint64(xs)] = n + 1
    return OK, sp - 2, hp, extra


@nrt_free
def list_access(op, arg, stack, sp, fp, heap, hp):
    """(status, sp, hp, extra cost, pc advance: 1, or 2 when FOR_LIST skips its JUMP) of the list
    instructions loops run most: FOR_LIST, LIST_GET, LIST_SET, LIST_LEN, LIST_APPEND.  run_job
    calls it directly, not through kernel_frames.heap_op: every call passes each array as seven
    words, and heap_op's passing of four arrays, then list_op's of three, cost more than these
    instructions do.  An append whose growth did not fit (MEMORY_LIMIT, nothing changed) runs
    again through heap_op, after a collection."""
    zero = np.int64(0)
    if op == LIST_APPEND:
        st, sp, hp, extra = append(stack, sp, heap, hp)
        return st, sp, hp, extra, 1
    if op == FOR_LIST:
        s = np.uint64(fp + arg)  # every index here is >= 0 (the verifier's sp and fp, header's d, i checked)
        d, n, _ = header(heap, hp, stack[s])
        if d < 0:
            return INVALID_BYTECODE, sp, hp, zero, 1
        i = stack[s + np.uint64(1)]
        if i < 0 or i >= n:
            return OK, sp, hp, zero, 1
        stack[np.uint64(sp)] = heap[np.uint64(d + i)]
        stack[s + np.uint64(1)] = i + 1
        return OK, sp + 1, hp, zero, 2
    if op == LIST_LEN:
        d, n, _ = header(heap, hp, stack[np.uint64(sp - 1)])
        if d < 0:
            return INVALID_BYTECODE, sp, hp, zero, 1
        stack[np.uint64(sp - 1)] = n
        return OK, sp, hp, zero, 1
    base = sp - 2  # LIST_GET, LIST_SET: xs, i (LIST_SET: v below them)
    d, n, _ = header(heap, hp, stack[np.uint64(base)])
    if d < 0:
        return INVALID_BYTECODE, sp, hp, zero, 1
    i = stack[np.uint64(base + 1)]
    if i < 0:
        i += n
    if i < 0 or i >= n:
        return INDEX_ERROR, sp, hp, zero, 1
    if op == LIST_GET:
        stack[np.uint64(base)] = heap[np.uint64(d + i)]
        return OK, sp - 1, hp, zero, 1
    heap[np.uint64(d + i)] = stack[np.uint64(base - 1)]
    return OK, base - 1, hp, zero, 1


@nrt_free
def list_op(op, arg, stack, sp, fp, heap, hp, walk):
    """Run list instruction op (or COMPARE_NUM on list operands; not those of list_access) on
    the stack whose top is at sp - 1 and the frame at fp (walk: the job's Scratch.walk); returns
    (status, sp, hp, extra cost, pc advance).  The frequent ones of str code too (comparisons, +,
    slices) here, in a function with a short prologue; the rest in list_rest, whose inlined list
    methods make it large (RESULTS, session 28)."""
    zero = np.int64(0)
    if op == LIST_EQ or op == COMPARE_NUM:
        if op == LIST_EQ:
            t = T_FLOAT if arg == 1 else (T_STR if arg == 2 else T_INT)
            st, eq, extra = list_equal(heap, hp, stack[sp - 2], stack[sp - 1], t, t)
        else:
            st, eq, extra = list_compare(arg, stack[sp - 2], stack[sp - 1], heap, hp)
        if st != OK:
            return st, sp, hp, zero, 1
        stack[sp - 2] = eq
        return OK, sp - 1, hp, extra, 1
    if op == LIST_CONCAT:
        a = stack[sp - 2]
        d, n, _ = header(heap, hp, a)
        d2, n2, _ = header(heap, hp, stack[sp - 1])
        if d < 0 or d2 < 0:
            return INVALID_BYTECODE, sp, hp, zero, 1
        h, hp = new_list(heap, hp, n + n2, joined_kind(heap, a, stack[sp - 1]))
        if h < 0:
            return MEMORY_LIMIT, sp, hp, zero, 1
        copy(heap, d, h + HEADER, n)
        copy(heap, d2, h + HEADER + n, n2)
        stack[sp - 2] = h
        return OK, sp - 1, hp, n + n2, 1
    if op == LIST_SLICE:
        base = sp - 4
        d, n, _ = header(heap, hp, stack[base])
        if d < 0:
            return INVALID_BYTECODE, sp, hp, zero, 1
        st, start, count, step = slice_bounds(n, arg, stack[base + 1], stack[base + 2], stack[base + 3])
        if st != OK:
            return st, sp, hp, zero, 1
        h, hp = new_list(heap, hp, count, kind_of(heap, stack[base]))
        if h < 0:
            return MEMORY_LIMIT, sp, hp, zero, 1
        for k in range(count):
            heap[h + HEADER + k] = heap[d + start + k * step]
        stack[base] = h
        return OK, base + 1, hp, count, 1
    return list_rest(op, arg, stack, sp, fp, heap, hp, walk)


@nrt_free
def list_rest(op, arg, stack, sp, fp, heap, hp, walk):
    """list_op's other instructions (as list_op)."""
    zero = np.int64(0)
    if op == NEW_LIST:
        h, hp = new_list(heap, hp, np.int64(arg), REFS)
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
        extra = zero
        while k < n and found == 0:
            st, found, pairs = element_equal(heap, hp, arg, x, heap[d + k])
            if st != OK:
                return st, sp, hp, zero, 1
            extra += pairs
            k += 1
        stack[sp - 2] = found
        return OK, sp - 1, hp, k + extra, 1
    if op == LIST_REPEAT:
        a = stack[sp - 2]
        d, n, _ = header(heap, hp, a)
        if d < 0:
            return INVALID_BYTECODE, sp, hp, zero, 1
        times = stack[sp - 1]
        if times <= 0 or n == 0:
            times = zero
        elif times > heap.shape[0] // n:  # surely past the heap (n * times might overflow)
            return MEMORY_LIMIT, sp, hp, zero, 1
        total = n * times
        h, hp = new_list(heap, hp, total, kind_of(heap, a))
        if h < 0:
            return MEMORY_LIMIT, sp, hp, zero, 1
        for r in range(times):
            copy(heap, d, h + HEADER + r * n, n)
        stack[sp - 2] = h
        return OK, sp - 1, hp, total, 1
    if op == LIST_APPEND:  # again after a collection (list_access's did not fit)
        st, sp, hp, extra = append(stack, sp, heap, hp)
        return st, sp, hp, extra, 1
    if op >= LIST_CLEAR:  # the list methods of vm/kernel_list_methods.py
        st, sp, hp, extra = list_method(op, arg, stack, sp, heap, hp)
        return st, sp, hp, extra, 1
    # one list operand on top: SUM, MIN, MAX, SORTED, SORT
    st, sp, hp, extra = one_list_op(op, arg, 0, walk, stack, sp, heap, hp)
    return st, sp, hp, extra, 1


@nrt_free
def one_list_op(op, kind, etype, walk, stack, sp, heap, hp):
    """(status, sp, hp, extra cost) of LIST_SUM, MIN, MAX, SORTED or SORT on the list on top,
    its elements of `kind` (kernel_order.less: VALUES for the value instructions' MIN / MAX /
    SORTED / SORT, of packed type etype, compared with the `walk` scratch)."""
    zero = np.int64(0)
    xs = stack[sp - 1]
    d, n, _ = header(heap, hp, xs)
    if d < 0:
        return INVALID_BYTECODE, sp, hp, zero
    if op == LIST_SUM or op == LIST_MIN or op == LIST_MAX:
        st, r, extra = _reduce(op, heap, hp, d, n, kind, etype, walk)
        if st != OK:
            return st, sp, hp, zero
        stack[sp - 1] = r
        return OK, sp, hp, extra
    if op == LIST_SORT:
        st, hp, extra = sort_list(heap, hp, d, n, kind, etype, walk)
        return st, sp - 1, hp, (extra if st == OK else zero)
    if op == LIST_SORTED:
        h, hp = new_list(heap, hp, n, kind_of(heap, xs))
        if h < 0:
            return MEMORY_LIMIT, sp, hp, zero
        copy(heap, d, h + HEADER, n)
        st, hp, extra = sort_list(heap, hp, h + HEADER, n, kind, etype, walk)
        if st != OK:
            return st, sp, hp, zero
        stack[sp - 1] = h
        return OK, sp, hp, n + extra
    return INVALID_BYTECODE, sp, hp, zero


@nrt_free
def _copy_from_stack(stack, lo, heap, dst, n):
    for k in range(n):
        heap[dst + k] = stack[lo + k]


@nrt_free
def enter_arguments(j, n_params, jobs, stack, heap, walk, hp):
    """(status, hp): job j's arguments (jobs: contract.image.JobArrays) into stack[0 .. n_params),
    each object argument (bit k of arg_lists[j]; args[j, k] an offset into pool) built in the
    heap from hp on by pool_object.  MEMORY_LIMIT when they do not fit."""
    pool = jobs.pool
    hp = np.int64(hp)
    bits = jobs.arg_lists[j]
    for k in range(n_params):
        v = jobs.args[j, k]
        if (bits >> k) & 1:
            v, hp = pool_object(pool, v, heap, hp, walk)
            if v < 0:
                return MEMORY_LIMIT, hp
        stack[k] = v
    return OK, hp


@nrt_free
def _open(pool, o, heap, hp):
    """(handle or -1, hp, n, mask, nested) of a new heap list for the pool object at o: a flat
    one's slot values copied, a nested one's elements left to pool_object (contract/pool.py)."""
    head = pool[o]
    n = head
    mask = np.int64(0)
    if head < 0:
        n = (-1 - head) & 0xFFFFFFFF
        mask = (-1 - head) >> 32
    h, hp = new_list(heap, hp, n, PLAIN if head > 0 else REFS)  # an empty list may get handles
    if h >= 0 and head >= 0:
        for i in range(n):
            heap[h + HEADER + i] = pool[o + 1 + i]
    return h, hp, n, mask, head < 0


@nrt_free
def pool_object(pool, o, heap, hp, walk):
    """(handle or -1, hp): the pool object at offset o (contract/pool.py's layout, checked by
    contract.image.job_arrays: at most WALK_ROWS deep) as new heap lists, each before its
    elements, depth first; the open nested objects in `walk` (pool offset, n, mask, handle,
    next element; a row of vm/kernel_walk.py's WALK_COLS)."""
    root, hp, n, mask, nested = _open(pool, o, heap, hp)
    depth = 0
    if root >= 0 and nested:
        _push(walk, 0, o, n, mask, root)
        depth = 1
    while depth > 0:
        row = (depth - 1) * WALK_COLS
        i = walk[row + 4]
        if i == walk[row + 1]:
            depth -= 1
            continue
        walk[row + 4] = i + 1
        x = pool[walk[row] + 1 + i]
        mask = walk[row + 2]
        if (mask == 0 or (mask >> i) & 1) and x != NONE_REF:  # a nested object's offset
            h, hp, n, inner_mask, nested = _open(pool, x, heap, hp)
            if h < 0:
                return h, hp
            heap[walk[row + 3] + HEADER + i] = h
            if nested:
                _push(walk, depth, x, n, inner_mask, h)
                depth += 1
        else:
            heap[walk[row + 3] + HEADER + i] = x
    return root, hp


@nrt_free
def _push(walk, depth, o, n, mask, h):
    row = depth * WALK_COLS
    walk[row] = o
    walk[row + 1] = n
    walk[row + 2] = mask
    walk[row + 3] = h
    walk[row + 4] = 0
