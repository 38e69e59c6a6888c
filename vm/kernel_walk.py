"""Comparing two values of any structured type (a part of vm/kernel.py's body): the walk of
VALUE_CMP, ASSERT_VALUE, VALUE_CONTAINS and the < of VALUE_MIN / MAX / SORT / SORTED, and the
checks of the packed types (contract/typecodes.py) those instructions take.

Same one-source rules as run_job (plain Python, numba CPU, CUDA; no allocation, no raising,
no recursion).  vm/reference_value.py is the spec (values, types, the order, the cost): this is
its `compare`, with its stack of open sequences in the job's `walk` scratch (Scratch.walk):
WALK_ROWS rows of WALK_COLS words, one per sequence open at once, each holding both
sequences' data offset and length, the next index and both sequence types.  A type has at most
MAX_NIBBLES nibbles and each open sequence takes one of both operands' nibbles (a str's code
points take none), so well-formed types never open more than WALK_ROWS.
"""

from __future__ import annotations

import numpy as np

from gpucc.contract.isa import CMP_EQ, CMP_GE, CMP_LE, CMP_NE, NONE_REF
from gpucc.contract.jitable import nrt_free, type_arity, type_field, type_width, typed_cmp
from gpucc.contract.status import INVALID_BYTECODE, OK, TYPE_ERROR
from gpucc.contract.typecodes import BOOL, COUNTER, DEFAULTDICT, DEQUE, DICT, FLOAT, INT, LIST, MAX_NIBBLES, NONE, OPTIONAL, SET, STR, TUPLE
from gpucc.vm.floats import typed_compare
from gpucc.vm.intmath import compare
from gpucc.vm.kernel_heap import header

WALK_ROWS = MAX_NIBBLES
WALK_COLS = 7  # x's data offset, x's length, y's data offset, y's length, next index, x's type, y's type
WALK_WORDS = WALK_ROWS * WALK_COLS


@nrt_free
def type_ok(t):
    """Whether packed type t is one the value instructions take: well formed (every nibble
    used), no Optional[Optional[..]] or Optional[None], no dict or set (vm/reference_value.py)."""
    if t < 0 or t >= np.int64(1) << (4 * MAX_NIBBLES):
        return False
    n = type_width(t)
    if n == 0 or (t >> (4 * n)) != 0:
        return False
    i = 0
    while i < n:
        k = (t >> (4 * i)) & 15
        if k == DICT or k == COUNTER or k == DEFAULTDICT or k == SET:
            return False
        if k == OPTIONAL:
            inner = (t >> (4 * i + 4)) & 15
            if inner == OPTIONAL or inner == NONE:
                return False
        i += 2 if k == TUPLE else 1  # a tuple's arity nibble is no type
    return True


@nrt_free
def settle(heap, hp, x, t):
    """(ok, value, type) of slot x of type t with an Optional resolved: None (type NONE), or the
    value inside (a scalar read from its box); ok False for a box that is no 1-element list."""
    if (t & 15) != OPTIONAL:
        return True, x, t
    inner = t >> 4
    if x == NONE_REF:
        return True, np.int64(0), np.int64(NONE)
    h = inner & 15
    if h == STR or h >= LIST or h == DEFAULTDICT:
        return True, x, inner
    d, n, _ = header(heap, hp, x)
    if d < 0 or n != 1:
        return False, x, inner
    return True, heap[d], inner


@nrt_free
def kind(t):
    """What a value of settled type t compares as: NONE, INT (any number), STR, LIST, TUPLE or DEQUE;
    -1 for a type no value has (the unknown element type of `[]`)."""
    h = t & 15
    if h == INT or h == BOOL or h == FLOAT:
        return INT
    if h == NONE or h == STR or h == LIST or h == TUPLE or h == DEQUE:
        return h
    return -1


@nrt_free
def sequence(heap, hp, x, t):
    """(d, n) of sequence x of type t; d == -1 for a bad handle or a tuple of another arity."""
    d, n, _ = header(heap, hp, x)
    if (t & 15) == TUPLE and n != type_arity(t):
        return np.int64(-1), n
    return d, n


@nrt_free
def element_type(t, k):
    """The type of element k of a sequence of type t (a str's code points compare as ints)."""
    h = t & 15
    if h == STR:
        return np.int64(INT)
    if h == TUPLE:
        return np.int64(type_field(t, k))
    return t >> 4


@nrt_free
def value_compare(heap, hp, walk, cmp, a, ta, b, tb):
    """(status, a <cmp> b as 0 / 1, pairs visited) of values of well-formed types ta, tb:
    vm/reference_value.py's compare.  Status TYPE_ERROR for an ordering of None or of values
    of different kinds, INVALID_BYTECODE for a value that does not fit its type."""
    zero = np.int64(0)
    equality = cmp == CMP_EQ or cmp == CMP_NE
    differ = np.int64(1 if cmp == CMP_NE else 0)  # == / != of values found different
    depth = 0
    visited = zero
    x, tx, y, ty = a, ta, b, tb
    while True:
        okx, x, tx = settle(heap, hp, x, tx)
        oky, y, ty = settle(heap, hp, y, ty)
        kx = kind(tx)
        ky = kind(ty)
        if not (okx and oky) or kx < 0 or ky < 0:
            return INVALID_BYTECODE, zero, zero
        if not equality and depth == 0 and (kx == NONE or ky == NONE):
            return TYPE_ERROR, zero, zero  # an ordering of None
        if kx != ky:
            if equality:
                return OK, differ, visited
            return TYPE_ERROR, zero, zero
        if kx == INT:
            if typed_compare(typed_cmp(CMP_EQ, tx, ty), x, y) == 0:
                return OK, np.int64(typed_compare(typed_cmp(cmp, tx, ty), x, y)), visited
        elif kx != NONE:  # two sequences: open them
            dx, nx = sequence(heap, hp, x, tx)
            dy, ny = sequence(heap, hp, y, ty)
            if dx < 0 or dy < 0 or depth == WALK_ROWS:
                return INVALID_BYTECODE, zero, zero
            if equality and nx != ny:
                return OK, differ, visited
            row = depth * WALK_COLS
            walk[row] = dx
            walk[row + 1] = nx
            walk[row + 2] = dy
            walk[row + 3] = ny
            walk[row + 4] = 0
            walk[row + 5] = tx
            walk[row + 6] = ty
            depth += 1
        # the next pair: close the sequences walked to their common end
        row = 0
        k = zero
        while depth > 0:
            row = (depth - 1) * WALK_COLS
            k = walk[row + 4]
            nx = walk[row + 1]
            ny = walk[row + 3]
            if k < nx and k < ny:
                break
            if nx != ny:
                return OK, np.int64(compare(cmp, nx, ny)), visited
            depth -= 1
        if depth == 0:
            return OK, np.int64(1 if cmp == CMP_EQ or cmp == CMP_LE or cmp == CMP_GE else 0), visited
        x = heap[walk[row] + k]
        tx = element_type(walk[row + 5], k)
        y = heap[walk[row + 2] + k]
        ty = element_type(walk[row + 6], k)
        walk[row + 4] = k + 1
        visited += 1
