"""The kernel's set instructions that name the set's type (a part of vm/kernel.py's body, run by
vm/kernel_dict.py's dict_op): set(xs), add, discard, remove, in, | & - ^, <=, ==, each built as
CPython builds it on vm/kernel_set.py's tables.

Same one-source rules as run_job (plain Python, numba CPU, CUDA; no allocation, no raising).
vm/reference_dict.py (`Dicts.set_operator`, `set_subset`, `set_instruction`) is the spec.
"""

from __future__ import annotations

import numpy as np

from gpucc.contract.isa import (
    SET_ADD,
    SET_AND,
    SET_CONTAINS,
    SET_DISCARD,
    SET_EQ,
    SET_FROM,
    SET_LE,
    SET_OR,
    SET_REMOVE,
    SET_SUB,
)
from gpucc.contract.jitable import nrt_free, type_width
from gpucc.contract.status import INVALID_BYTECODE, KEY_ERROR, MEMORY_LIMIT, OK
from gpucc.contract.typecodes import MAX_NIBBLES, SET
from gpucc.vm.kernel_hash import key_hash, key_type_ok
from gpucc.vm.kernel_heap import header
from gpucc.vm.kernel_set import (
    DEAD,
    DISCARD,
    TOGGLE,
    new_set,
    set_copy,
    set_discard,
    set_edit,
    set_find,
    set_len,
    set_merge,
    set_parts,
)


@nrt_free
def set_type(c):
    """(ok, element type) of a set type constant (vm/reference_dict.set_type)."""
    if c < 0 or c >= np.int64(1) << (4 * MAX_NIBBLES) or (c & 15) != SET:
        return False, np.int64(0)
    n = type_width(c)
    if n == 0 or (c >> (4 * n)) != 0:
        return False, np.int64(0)
    return key_type_ok(c >> 4), c >> 4


@nrt_free
def toggle_or_test(op, heap, hp, r, src, kt, inside):
    """Each element x of set src (in table order): with `inside` >= 0, add x to r when its
    presence in set `inside` is (op == SET_AND); with inside -1 (^), discard x from r or add it
    when it was not there; with inside -2 (a copy's -), discard it.  (status, hp, cost)."""
    zero = np.int64(0)
    sh, dt, mask = set_parts(heap, hp, src)
    if sh < 0:
        return INVALID_BYTECODE, hp, zero
    cost = mask + 1
    for i in range(mask + 1):
        hx, x = heap[dt + 2 * i], heap[dt + 2 * i + 1]
        if hx == DEAD:
            continue
        if inside >= 0:
            st, found, hp, c = set_find(heap, hp, inside, x, hx, kt, False)
            cost += c
            if st == OK and found == (op == SET_AND):
                st, _, hp, c = set_find(heap, hp, r, x, hx, kt, True)
                cost += c
        else:
            st, hp, c = set_edit(heap, hp, r, x, hx, kt, TOGGLE if inside == -1 else DISCARD)
            cost += c
        if st != OK:
            return st, hp, cost
    return OK, hp, cost


@nrt_free
def set_operator(op, heap, hp, a, b, kt):
    """(status, new set, hp, cost) of a | b, a & b, a - b, a ^ b, as CPython builds them."""
    zero = np.int64(0)
    bad = np.int64(-1)
    if op == SET_OR:
        st, r, hp, cost = set_copy(heap, hp, a, kt)
        if st == OK and a != b:
            st, hp, c = set_merge(heap, hp, r, b, kt)
            cost += c
        return st, r, hp, cost
    if op == SET_AND and a == b:
        return set_copy(heap, hp, a, kt)
    na, nb = set_len(heap, hp, a), set_len(heap, hp, b)
    if na < 0 or nb < 0:
        return INVALID_BYTECODE, bad, hp, zero
    if op == SET_AND:
        if nb > na:
            a, b = b, a
        r, hp = new_set(heap, hp)
        if r < 0:
            return MEMORY_LIMIT, r, hp, zero
        st, hp, cost = toggle_or_test(op, heap, hp, r, b, kt, a)
        return st, r, hp, cost
    if op == SET_SUB and (na >> 2) > nb:
        st, r, hp, cost = set_copy(heap, hp, a, kt)
        if st == OK:
            st, hp, c = toggle_or_test(op, heap, hp, r, b, kt, np.int64(-2))
            cost += c
        return st, r, hp, cost
    if op == SET_SUB:
        r, hp = new_set(heap, hp)
        if r < 0:
            return MEMORY_LIMIT, r, hp, zero
        st, hp, cost = toggle_or_test(op, heap, hp, r, a, kt, b)
        return st, r, hp, cost
    st, r, hp, cost = set_copy(heap, hp, b, kt)  # SET_XOR: a copy of b, a's elements toggled
    if st == OK:
        st, hp, c = toggle_or_test(op, heap, hp, r, a, kt, np.int64(-1))
        cost += c
    return st, r, hp, cost


@nrt_free
def set_subset(heap, hp, a, b, kt):
    """(status, a <= b, cost)."""
    zero = np.int64(0)
    na, nb = set_len(heap, hp, a), set_len(heap, hp, b)
    if na < 0 or nb < 0:
        return INVALID_BYTECODE, False, zero
    if na > nb:
        return OK, False, zero
    sh, dt, mask = set_parts(heap, hp, a)
    cost = mask + 1
    for i in range(mask + 1):
        if heap[dt + 2 * i] != DEAD:
            st, found, hp, c = set_find(heap, hp, b, heap[dt + 2 * i + 1], heap[dt + 2 * i], kt, False)
            cost += c
            if st != OK or not found:
                return st, False, cost
    return OK, True, cost


@nrt_free
def set_op(op, c, stack, sp, heap, hp):
    """A set instruction with type constant c: (status, sp, hp, extra cost)."""
    zero = np.int64(0)
    ok, kt = set_type(c)
    if not ok:
        return INVALID_BYTECODE, sp, hp, zero
    if op == SET_FROM:
        d, n, _ = header(heap, hp, stack[sp - 1])
        if d < 0:
            return INVALID_BYTECODE, sp, hp, zero
        h, hp = new_set(heap, hp)
        if h < 0:
            return MEMORY_LIMIT, sp, hp, zero
        cost = n
        for k in range(n):
            x = heap[d + k]
            ok, hx, c1 = key_hash(heap, hp, x, kt)
            if not ok:
                return INVALID_BYTECODE, sp, hp, zero
            st, _, hp, c2 = set_find(heap, hp, h, x, hx, kt, True)
            cost += c1 + c2
            if st != OK:
                return st, sp, hp, zero
        stack[sp - 1] = h
        return OK, sp, hp, cost
    a, b = stack[sp - 2], stack[sp - 1]
    if op == SET_CONTAINS or op == SET_ADD or op == SET_DISCARD or op == SET_REMOVE:
        h, x = (b, a) if op == SET_CONTAINS else (a, b)
        ok, hx, cost = key_hash(heap, hp, x, kt)
        if not ok:
            return INVALID_BYTECODE, sp, hp, zero
        if op == SET_CONTAINS or op == SET_ADD:
            st, found, hp, c = set_find(heap, hp, h, x, hx, kt, op == SET_ADD)
            if st == OK:  # a MEMORY_LIMIT leaves the operands for the run after a collection
                stack[sp - 2] = 1 if found else 0
            return st, sp - (1 if op == SET_CONTAINS else 2), hp, cost + c
        st, found, c = set_discard(heap, hp, h, x, hx, kt)
        if st == OK and not found and op == SET_REMOVE:
            st = KEY_ERROR
        return st, sp - 2, hp, cost + c
    if op == SET_LE or op == SET_EQ:
        if op == SET_EQ and set_len(heap, hp, a) != set_len(heap, hp, b):
            st, holds, cost = OK, False, zero
            if set_len(heap, hp, a) < 0 or set_len(heap, hp, b) < 0:
                st = INVALID_BYTECODE
        else:
            st, holds, cost = set_subset(heap, hp, a, b, kt)
        stack[sp - 2] = 1 if holds else 0
        return st, sp - 1, hp, cost
    st, r, hp, cost = set_operator(op, heap, hp, a, b, kt)
    if st == OK:
        stack[sp - 2] = r
    return st, sp - 1, hp, cost
