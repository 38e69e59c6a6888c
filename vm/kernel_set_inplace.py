"""The kernel's set instructions that change a set in place, and those built on them (a part of
vm/kernel.py's body, run by vm/kernel_dict.py's dict_op): SET_IOR, SET_IAND, SET_ISUB, SET_IXOR,
SET_INTERSECT, SET_LT, SET_POP, each CPython's on vm/kernel_set.py's tables.

Same one-source rules as run_job (plain Python, numba CPU, CUDA; no allocation, no raising).
vm/reference_set.py is the spec (its doc: the operand's forms, the body copy that makes a failed
allocation change nothing, the cost).
"""

from __future__ import annotations

import numpy as np

from gpucc.contract.isa import SET_AND, SET_IAND, SET_INTERSECT, SET_IOR, SET_ISUB, SET_IXOR, SET_LT, SET_POP
from gpucc.contract.jitable import nrt_free, type_width
from gpucc.contract.status import INVALID_BYTECODE, KEY_ERROR, MEMORY_LIMIT, OK
from gpucc.contract.typecodes import DICT, LIST, MAX_NIBBLES, SET
from gpucc.vm.kernel_hash import key_hash, key_type_ok
from gpucc.vm.kernel_heap import HEADER, REFS, header, new_list
from gpucc.vm.kernel_set import (
    ADD,
    DEAD,
    MIN_SIZE,
    S_FILL,
    S_FINGER,
    S_MASK,
    S_TABLE,
    S_USED,
    TOGGLE,
    block,
    new_set,
    set_discard,
    set_edit,
    set_find,
    set_len,
    set_merge,
    set_parts,
    set_resize,
)
from gpucc.vm.kernel_set_ops import set_operator, set_subset

FORM_SET, FORM_ITER, FORM_DICT = 0, 1, 2


@nrt_free
def operand_type(c):
    """(ok, form, element type) of type constant c (vm/reference_set.operand_type)."""
    zero = np.int64(0)
    if c < 0 or c >= np.int64(1) << (4 * MAX_NIBBLES):
        return False, zero, zero
    n = type_width(c)
    head = c & 15
    if n == 0 or (c >> (4 * n)) != 0 or (head != SET and head != LIST and head != DICT):
        return False, zero, zero
    w = type_width(c >> 4)
    if w == 0:
        return False, zero, zero
    kt = (c >> 4) & ((np.int64(1) << (4 * w)) - 1)
    form = np.int64(FORM_SET) if head == SET else (np.int64(FORM_ITER) if head == LIST else np.int64(FORM_DICT))
    return key_type_ok(kt), form, kt


@nrt_free
def operand_span(heap, hp, form, b):
    """(data offset or -1, slots): a set's table (2 words a slot), a list's elements."""
    if form == FORM_SET:
        sh, dt, mask = set_parts(heap, hp, b)
        return (dt, mask + 1) if sh >= 0 else (np.int64(-1), np.int64(0))
    d, n, _ = header(heap, hp, b)
    return d, n


@nrt_free
def operand_at(heap, hp, form, d, i, kt):
    """(ok, live, element, hash, cost) of slot i of an operand at d."""
    if form == FORM_SET:
        hx = heap[d + 2 * i]
        return True, hx != DEAD, heap[d + 2 * i + 1], hx, np.int64(0)
    x = heap[d + i]
    ok, hx, cost = key_hash(heap, hp, x, kt)
    return ok, True, x, hx, cost


@nrt_free
def body_copy(heap, hp, h):
    """(status, a new set whose table is a word copy of set h's, hp, cost)."""
    bad = np.int64(-1)
    sh, dt, mask = set_parts(heap, hp, h)
    if sh < 0:
        return INVALID_BYTECODE, bad, hp, np.int64(0)
    table, hp = new_list(heap, hp, 2 * (mask + 1), REFS)
    if table < 0:
        return MEMORY_LIMIT, bad, hp, np.int64(0)
    for k in range(2 * (mask + 1)):
        heap[table + HEADER + k] = heap[dt + k]
    r, hp = new_list(heap, hp, 5, REFS)
    if r < 0:
        return MEMORY_LIMIT, bad, hp, np.int64(0)
    heap[r + HEADER + S_USED] = heap[sh + S_USED]
    heap[r + HEADER + S_FILL] = heap[sh + S_FILL]
    heap[r + HEADER + S_MASK] = mask
    heap[r + HEADER + S_TABLE] = table
    heap[r + HEADER + S_FINGER] = 0
    return OK, r, hp, mask + 1


@nrt_free
def adopt(heap, hp, h, r):
    """set_swap_bodies: set h takes set r's table (h's finger stays); the status."""
    sh, _, _ = set_parts(heap, hp, h)
    rh, _, _ = set_parts(heap, hp, r)
    if sh < 0 or rh < 0:
        return INVALID_BYTECODE
    for k in range(4):
        heap[sh + k] = heap[rh + k]
    return OK


@nrt_free
def clear(heap, hp, h):
    """set_clear_internal: (status, hp) with an empty table of MIN_SIZE slots in set h."""
    sh, dt, mask = set_parts(heap, hp, h)
    if sh < 0:
        return INVALID_BYTECODE, hp
    if mask != MIN_SIZE - 1:
        table, hp = block(heap, hp, 2 * MIN_SIZE, 0, REFS)
        if table < 0:
            return MEMORY_LIMIT, hp
        heap[sh + S_TABLE] = table
        heap[sh + S_MASK] = MIN_SIZE - 1
        dt = table + HEADER
    for i in range(MIN_SIZE):
        heap[dt + 2 * i] = DEAD
        heap[dt + 2 * i + 1] = 0
    heap[sh + S_USED] = 0
    heap[sh + S_FILL] = 0
    return OK, hp


@nrt_free
def intersection(form, heap, hp, a, b, kt):
    """set_intersection: (status, a new set of b's elements in a, in b's order, hp, cost)."""
    if form == FORM_SET:
        return set_operator(SET_AND, heap, hp, a, b, kt)
    zero = np.int64(0)
    r, hp = new_set(heap, hp)
    if r < 0:
        return MEMORY_LIMIT, r, hp, zero
    d, n = operand_span(heap, hp, form, b)
    if d < 0:
        return INVALID_BYTECODE, r, hp, zero
    cost = n
    for i in range(n):
        ok, _, x, hx, c = operand_at(heap, hp, form, d, i, kt)
        if not ok:
            return INVALID_BYTECODE, r, hp, cost
        st, found, hp, c2 = set_find(heap, hp, a, x, hx, kt, False)
        cost += c + c2
        if st == OK and found:
            st, _, hp, c2 = set_find(heap, hp, r, x, hx, kt, True)
            cost += c2
        if st != OK:
            return st, r, hp, cost
    return OK, r, hp, cost


@nrt_free
def difference_update(form, heap, hp, a, b, kt):
    """set_difference_update_internal (a != b): (status, hp, cost)."""
    d, n = operand_span(heap, hp, form, b)
    if d < 0:
        return INVALID_BYTECODE, hp, np.int64(0)
    cost = n
    for i in range(n):
        ok, live, x, hx, c = operand_at(heap, hp, form, d, i, kt)
        if not ok:
            return INVALID_BYTECODE, hp, cost
        cost += c
        if live:
            st, _, c = set_discard(heap, hp, a, x, hx, kt)
            cost += c
            if st != OK:
                return st, hp, cost
    sh, _, mask = set_parts(heap, hp, a)
    if sh < 0:
        return INVALID_BYTECODE, hp, cost
    used = heap[sh + S_USED]
    if heap[sh + S_FILL] - used > mask // 4:  # more than a quarter dummies: resized away
        st, hp, c = set_resize(heap, hp, a, used * 2 if used > 50000 else used * 4)
        return st, hp, cost + c
    return OK, hp, cost


@nrt_free
def merge_into(op, form, heap, hp, r, b, kt):
    """Operand b into set r (a body copy): SET_IOR's adds (a dict's keys after one resize),
    SET_IXOR's toggles.  (status, hp, cost)."""
    if op == SET_IOR and form == FORM_SET:
        return set_merge(heap, hp, r, b, kt)
    d, n = operand_span(heap, hp, form, b)
    if d < 0:
        return INVALID_BYTECODE, hp, np.int64(0)
    cost = n
    if op == SET_IOR and form == FORM_DICT:
        rh, _, mask = set_parts(heap, hp, r)
        if (heap[rh + S_FILL] + n) * 5 >= mask * 3:
            st, hp, c = set_resize(heap, hp, r, (heap[rh + S_USED] + n) * 2)
            cost += c
            if st != OK:
                return st, hp, cost
    for i in range(n):
        ok, live, x, hx, c = operand_at(heap, hp, form, d, i, kt)
        if not ok:
            return INVALID_BYTECODE, hp, cost
        cost += c
        if live:
            st, hp, c = set_edit(heap, hp, r, x, hx, kt, TOGGLE if op == SET_IXOR else ADD)
            cost += c
            if st != OK:
                return st, hp, cost
    return OK, hp, cost


@nrt_free
def in_place(op, form, heap, hp, a, b, kt):
    """SET_IOR, SET_IAND, SET_ISUB, SET_IXOR: (status, hp, cost) after set a changed by b."""
    zero = np.int64(0)
    if op == SET_IAND:
        st, r, hp, cost = intersection(form, heap, hp, a, b, kt)
        if st == OK:
            st = adopt(heap, hp, a, r)
        return st, hp, cost
    if form == FORM_SET and a == b:  # s |= s: nothing; s -= s, s ^= s: cleared
        if op == SET_IOR:
            return OK, hp, zero
        st, hp = clear(heap, hp, a)
        return st, hp, zero
    if op == SET_ISUB:
        return difference_update(form, heap, hp, a, b, kt)
    if op == SET_IOR and form == FORM_SET:
        nb = set_len(heap, hp, b)
        if nb <= 0:
            return (OK if nb == 0 else INVALID_BYTECODE), hp, zero
    cost = zero
    if op == SET_IXOR and form == FORM_ITER:  # CPython's otherset: a new set of the iterable
        t, hp = new_set(heap, hp)
        if t < 0:
            return MEMORY_LIMIT, hp, zero
        st, hp, cost = merge_into(SET_IOR, form, heap, hp, t, b, kt)
        if st != OK:
            return st, hp, cost
        form, b = np.int64(FORM_SET), t
    st, r, hp, c = body_copy(heap, hp, a)
    cost += c
    if st != OK:
        return st, hp, cost
    st, hp, c = merge_into(op, form, heap, hp, r, b, kt)
    cost += c
    if st == OK:
        st = adopt(heap, hp, a, r)
    return st, hp, cost


@nrt_free
def pop(heap, hp, h):
    """set_pop: (status, element, cost): the first live slot from the finger on (wrapping)."""
    zero = np.int64(0)
    sh, dt, mask = set_parts(heap, hp, h)
    if sh < 0:
        return INVALID_BYTECODE, zero, zero
    if heap[sh + S_USED] == 0:
        return KEY_ERROR, zero, zero
    i = heap[sh + S_FINGER] & mask
    cost = np.int64(1)
    while heap[dt + 2 * i] == DEAD:
        i = (i + 1) & mask
        cost += 1
        if cost > mask + 1:  # no live slot in a set whose size says otherwise
            return INVALID_BYTECODE, zero, zero
    x = heap[dt + 2 * i + 1]
    heap[dt + 2 * i] = DEAD
    heap[dt + 2 * i + 1] = 1
    heap[sh + S_USED] -= 1
    heap[sh + S_FINGER] = i + 1
    return OK, x, cost


@nrt_free
def in_place_op(op, c, stack, sp, heap, hp):
    """An instruction of this module with type constant c: (status, sp, hp, extra cost)."""
    zero = np.int64(0)
    if op == SET_POP:
        st, x, cost = pop(heap, hp, stack[sp - 1])
        if st == OK:
            stack[sp - 1] = x
        return st, sp, hp, cost
    ok, form, kt = operand_type(c)
    if not ok:
        return INVALID_BYTECODE, sp, hp, zero
    a, b = stack[sp - 2], stack[sp - 1]
    if op == SET_LT:
        na, nb = set_len(heap, hp, a), set_len(heap, hp, b)
        if form != FORM_SET or na < 0 or nb < 0:
            return INVALID_BYTECODE, sp, hp, zero
        st, holds, cost = OK, False, zero
        if na < nb:
            st, holds, cost = set_subset(heap, hp, a, b, kt)
        stack[sp - 2] = 1 if holds else 0
        return st, sp - 1, hp, cost
    if op == SET_INTERSECT:
        st, r, hp, cost = intersection(form, heap, hp, a, b, kt)
        if st == OK:
            stack[sp - 2] = r
        return st, sp - 1, hp, cost
    if op == SET_IOR or op == SET_IAND or op == SET_ISUB or op == SET_IXOR:
        st, hp, cost = in_place(op, form, heap, hp, a, b, kt)
        return st, sp - 2, hp, cost
    return INVALID_BYTECODE, sp, hp, zero
