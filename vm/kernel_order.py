"""Comparing and ordering heap values (a part of vm/kernel.py's body): list == list, the six
comparisons of strs, `x in xs`, and the merge sort and min / max of vm/kernel_lists.py, for
elements of kind 0 ints, 1 floats (their bits), 2 strs (handles) and VALUES (values of a
packed type, compared by vm/kernel_walk.py: the value instructions' min / max / sorts).

Same one-source rules as run_job (plain Python, numba CPU, CUDA; no allocation, no raising).

Strs order lexicographically by code point, as CPython's.  `x in xs` and list == compare
elements with == (nan is never equal to itself: CPython's identity shortcut finds the very
same nan object).  Sorting is a stable bottom-up merge sort comparing with < only (an element
moves before an earlier one only when it is strictly smaller); its n-word buffer is a RAW
heap block (MEMORY_LIMIT if it does not fit), released after.  With nan among floats the
order can differ from CPython's timsort.

Cost (added to the instruction's, vm/kernel_lists.py): comparing two strs costs the code
points it compares (`str_order`: up to and including the first difference; == of strs of
unequal lengths compares none).  A str element that is no list's handle is INVALID_BYTECODE
when it is compared; sort, min and max check every element first.
"""

from __future__ import annotations

import numpy as np

from gpucc.contract.isa import CMP_EQ, CMP_LT, CMP_NE
from gpucc.contract.jitable import nrt_free, typed_cmp, typed_cmp_fields
from gpucc.contract.status import INVALID_BYTECODE, MEMORY_LIMIT, OK
from gpucc.contract.valuetypes import T_FLOAT, T_INT, T_LIST_FLOAT, T_LIST_INT, T_LIST_STR, T_STR
from gpucc.vm.floats import b2f, typed_compare
from gpucc.vm.intmath import compare
from gpucc.vm.kernel_heap import RAW, alloc, header, release
from gpucc.vm.kernel_walk import value_compare

VALUES = 3  # the element kind of values of a packed type


@nrt_free
def heap_type(t):
    """Whether values of type t are heap handles (lists and strs)."""
    return t == T_LIST_INT or t == T_LIST_FLOAT or t == T_STR or t == T_LIST_STR


@nrt_free
def list_typed(arg):
    """Whether a TYPED_CMP operand names a list or str type."""
    _, lt, rt = typed_cmp_fields(arg)
    return heap_type(lt) or heap_type(rt)


@nrt_free
def str_order(heap, hp, a, b, equality):
    """(status, sign of a - b, code points compared) of strs a and b, lexicographic by code
    point; with `equality` only whether they differ (sign 0 or 1: unequal lengths compare none)."""
    da, na, _ = header(heap, hp, a)
    db, nb, _ = header(heap, hp, b)
    if da < 0 or db < 0:
        return INVALID_BYTECODE, np.int64(0), np.int64(0)
    if equality and na != nb:
        return OK, np.int64(1), np.int64(0)
    m = min(na, nb)
    for k in range(m):
        x = heap[da + k]
        y = heap[db + k]
        if x != y:
            return OK, np.int64(-1 if x < y else 1), k + 1
    return OK, np.int64(-1 if na < nb else (1 if na > nb else 0)), m


@nrt_free
def less(kind, heap, hp, a, b, etype, walk):
    """(status, a < b, code points or pairs compared) of elements of kind 0 ints, 1 floats, 2 strs
    (checked handles) or VALUES: values of packed type etype (vm/kernel_walk.py, with its scratch)."""
    if kind == VALUES:
        st, lt, pairs = value_compare(heap, hp, walk, CMP_LT, a, etype, b, etype)
        return st, lt != 0, pairs
    if kind == 2:
        _, sign, pairs = str_order(heap, hp, a, b, False)
        return OK, sign < 0, pairs
    if kind == 1:
        return OK, b2f(a) < b2f(b), np.int64(0)
    return OK, a < b, np.int64(0)


@nrt_free
def strs_ok(heap, hp, d, n):
    """Whether every element of heap[d .. d + n) is a valid list (str) handle."""
    for k in range(n):
        if header(heap, hp, heap[d + k])[0] < 0:
            return False
    return True


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
def merge_sort(heap, hp, d, n, tmp, kind, etype, walk):
    """Sort heap[d .. d + n) (elements of `kind`, see less) stably by <, using heap[tmp .. tmp + n)
    as the buffer; returns (status, code points or pairs compared): a comparison's error stops it."""
    src = d
    dst = tmp
    width = 1
    pairs = np.int64(0)
    while width < n:
        for lo in range(0, n, 2 * width):
            mid = min(lo + width, n)
            hi = min(lo + 2 * width, n)
            i = lo
            r = mid
            for k in range(lo, hi):
                take_right = r < hi and i >= mid
                if r < hi and i < mid:
                    st, take_right, c = less(kind, heap, hp, heap[src + r], heap[src + i], etype, walk)
                    if st != OK:
                        return st, pairs
                    pairs += c
                if take_right:
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
    return OK, pairs


@nrt_free
def sort_list(heap, hp, d, n, kind, etype, walk):
    """(status, hp, extra cost) of sorting a list's data in place with a RAW buffer block of n
    words, released after."""
    if kind == 2 and not strs_ok(heap, hp, d, n):
        return INVALID_BYTECODE, hp, np.int64(0)
    tmp, hp = alloc(heap, hp, n, RAW)
    if tmp < 0:
        return MEMORY_LIMIT, hp, np.int64(0)
    st, pairs = merge_sort(heap, hp, d, n, tmp, kind, etype, walk)
    hp = release(heap, hp, tmp)
    if st != OK:
        return st, hp, np.int64(0)
    return OK, hp, n * merge_passes(n) + pairs


@nrt_free
def element_equal(heap, hp, arg, x, y):
    """(status, x == y, code points compared) of elements compared by == of TYPED_CMP arg's
    types: strs when one is T_STR, else slot values."""
    _, lt, rt = typed_cmp_fields(arg)
    if lt == T_STR or rt == T_STR:
        st, sign, pairs = str_order(heap, hp, x, y, True)
        return st, np.int64(sign == 0), pairs
    return OK, np.int64(typed_compare(arg, x, y)), np.int64(0)


@nrt_free
def list_equal(heap, hp, a, b, etype_a, etype_b):
    """(status, a == b, pairs compared (+ code points of str elements)) of two lists whose
    elements have types etype_a / _b."""
    da, na, _ = header(heap, hp, a)
    db, nb, _ = header(heap, hp, b)
    if da < 0 or db < 0:
        return INVALID_BYTECODE, np.int64(0), np.int64(0)
    if na != nb:
        return OK, np.int64(0), np.int64(0)
    arg = typed_cmp(CMP_EQ, etype_a, etype_b)
    extra = np.int64(0)
    for k in range(na):
        st, eq, pairs = element_equal(heap, hp, arg, heap[da + k], heap[db + k])
        extra += pairs
        if st != OK:
            return st, np.int64(0), np.int64(0)
        if eq == 0:
            return OK, np.int64(0), k + 1 + extra
    return OK, np.int64(1), na + extra


@nrt_free
def list_compare(arg, a, b, heap, hp):
    """(status, a <cmp> b, extra cost) of ASSERT_CMP / COMPARE_NUM on list or str operands: all
    six of two strs, == and != of two lists (list[int] / list[float], or two list[str]);
    anything else is INVALID_BYTECODE (the compiler never emits it)."""
    cmp, lt, rt = typed_cmp_fields(arg)
    if lt == T_STR and rt == T_STR:
        st, sign, extra = str_order(heap, hp, a, b, cmp == CMP_EQ or cmp == CMP_NE)
        return st, np.int64(compare(cmp, sign, 0)), extra
    numbers = (lt == T_LIST_INT or lt == T_LIST_FLOAT) and (rt == T_LIST_INT or rt == T_LIST_FLOAT)
    if (cmp != CMP_EQ and cmp != CMP_NE) or not (numbers or (lt == T_LIST_STR and rt == T_LIST_STR)):
        return INVALID_BYTECODE, np.int64(0), np.int64(0)
    element = T_STR if lt == T_LIST_STR else T_INT
    st, eq, extra = list_equal(heap, hp, a, b, T_FLOAT if lt == T_LIST_FLOAT else element,
                               T_FLOAT if rt == T_LIST_FLOAT else element)  # fmt: skip
    if cmp == CMP_NE:
        eq = 1 - eq
    return st, eq, extra


@nrt_free
def list_length(heap, hp, h):
    """len of list h (for a failing assert's record), 0 for a bad handle."""
    _, n, _ = header(heap, hp, h)
    return n
