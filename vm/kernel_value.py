"""The VM kernel's value instructions (a part of vm/kernel.py's body, like vm/kernel_lists.py):
every instruction from VALUE_CMP on, on values of any structured type (tuples, nested lists,
Optional), compared by vm/kernel_walk.py.

Same one-source rules as run_job (plain Python, numba CPU, CUDA; no allocation, no raising).
vm/reference_value.py is the spec: what each instruction does, its errors in the order they
are found, its extra cost.  MIN / MAX / SORTED / SORT are the list instructions' (vm/kernel_lists.py
one_list_op) on elements of kind VALUES.
"""

from __future__ import annotations

import numpy as np

from gpucc.contract.isa import (
    ASSERT_VALUE,
    BOX,
    CMP_EQ,
    CMP_GE,
    LIST_MIN,
    NONE_REF,
    UNBOX,
    UNPACK_CHECK,
    VALUE_CMP,
    VALUE_CONTAINS,
    VALUE_INDEX,
    VALUE_MIN,
)
from gpucc.contract.jitable import nrt_free, typed_values, typed_values_fields
from gpucc.contract.status import ASSERT_FAILED, INVALID_BYTECODE, MEMORY_LIMIT, OK, TYPE_ERROR, VALUE_ERROR
from gpucc.contract.typecodes import DEQUE, LIST, TUPLE
from gpucc.vm.kernel_heap import HEADER, PLAIN, header, new_list
from gpucc.vm.kernel_list_methods import list_find
from gpucc.vm.kernel_lists import one_list_op
from gpucc.vm.kernel_order import VALUES
from gpucc.vm.kernel_walk import element_type, sequence, type_ok, value_compare


@nrt_free
def comparison(c):
    """(ok, cmp, ltype, rtype) of a typed_values constant: ok False for a comparison past >=, a
    type the value instructions do not take, or a bit outside the fields."""
    cmp, lt, rt = typed_values_fields(c)
    ok = cmp <= CMP_GE and type_ok(lt) and type_ok(rt) and typed_values(cmp, lt, rt) == c
    return ok, cmp, lt, rt


@nrt_free
def value_op(op, arg, stack, sp, heap, hp, walk, consts, const_base):
    """Run value instruction op (arg: its operand; CONST operands index consts from const_base)
    on the stack whose top is at sp - 1; returns (status, sp, hp, extra cost).  The extra cost
    is 0 when it fails, but for a failed ASSERT_VALUE (its walk; both operands stay on the
    stack for the failure record)."""
    zero = np.int64(0)
    if op == UNPACK_CHECK:
        d, n, _ = header(heap, hp, stack[sp - 1])
        if d < 0:
            return INVALID_BYTECODE, sp, hp, zero
        return (OK if n == arg else VALUE_ERROR), sp, hp, zero
    if op == BOX:
        h, hp = new_list(heap, hp, np.int64(1), PLAIN)
        if h < 0:
            return MEMORY_LIMIT, sp, hp, zero
        heap[h + HEADER] = stack[sp - 1]
        stack[sp - 1] = h
        return OK, sp, hp, zero
    if op == UNBOX:
        v = stack[sp - 1]
        if v == NONE_REF:
            return TYPE_ERROR, sp, hp, zero
        if arg == 1:
            d, n, _ = header(heap, hp, v)
            if d < 0 or n != 1:
                return INVALID_BYTECODE, sp, hp, zero
            stack[sp - 1] = heap[d]
        return OK, sp, hp, zero
    c = consts[const_base + arg]
    if op == VALUE_CMP or op == ASSERT_VALUE:
        ok, cmp, lt, rt = comparison(c)
        if not ok:
            return INVALID_BYTECODE, sp, hp, zero
        st, holds, visited = value_compare(heap, hp, walk, cmp, stack[sp - 2], lt, stack[sp - 1], rt)
        if st != OK:
            return st, sp, hp, zero
        if op == ASSERT_VALUE:
            if holds == 0:
                return ASSERT_FAILED, sp, hp, visited
            return OK, sp - 2, hp, visited
        stack[sp - 2] = holds
        return OK, sp - 1, hp, visited
    if op == VALUE_CONTAINS:
        ok, cmp, tx, ts = comparison(c)
        if not ok or cmp != CMP_EQ or ((ts & 15) != LIST and (ts & 15) != TUPLE and (ts & 15) != DEQUE):
            return INVALID_BYTECODE, sp, hp, zero
        x = stack[sp - 2]
        d, n = sequence(heap, hp, stack[sp - 1], ts)
        if d < 0:
            return INVALID_BYTECODE, sp, hp, zero
        found = zero
        extra = zero
        k = 0
        while k < n and found == 0:
            st, found, visited = value_compare(heap, hp, walk, CMP_EQ, x, tx, heap[d + k], element_type(ts, k))
            if st != OK:
                return st, sp, hp, zero
            extra += 1 + visited
            k += 1
        stack[sp - 2] = found
        return OK, sp - 1, hp, extra
    if op >= VALUE_INDEX:  # VALUE_INDEX, COUNT, REMOVE: vm/kernel_list_methods.py
        ok, cmp, tx, ts = comparison(c)
        if not ok or cmp != CMP_EQ or ((ts & 15) != LIST and (ts & 15) != DEQUE):
            return INVALID_BYTECODE, sp, hp, zero
        return list_find(op, tx, ts, stack, sp, heap, hp, walk)
    # VALUE_MIN, MAX, SORTED, SORT: the list instructions of the same order on elements of type c
    if not type_ok(c):
        return INVALID_BYTECODE, sp, hp, zero
    return one_list_op(LIST_MIN + (op - VALUE_MIN), VALUES, c, walk, stack, sp, heap, hp)
