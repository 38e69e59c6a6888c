"""The VM kernel's dict and set instructions (a part of vm/kernel.py's body): every instruction
from NEW_DICT on, run by dict_op on vm/kernel_dict.py's dicts and vm/kernel_set.py's sets
(kernel_set_ops.py, kernel_set_inplace.py: the set instructions); here the loops over dicts and
sets, their listing, len and ASSERT_KEYED.

Same one-source rules as run_job (plain Python, numba CPU, CUDA; no allocation, no raising).
vm/reference_dict.py is the spec.  FOR_* keep their state in the loop's second slot: position |
(size at the start + 1) << 21 | elements given << 42 (0 before the first step).
"""

from __future__ import annotations

import numpy as np

from gpucc.contract.isa import (
    ASSERT_KEYED,
    COLL_LEN,
    DICT_CONTAINS,
    DICT_DEL,
    DICT_EQ,
    DICT_GET,
    DICT_GET_DEFAULT,
    DICT_LIST,
    DICT_POP,
    DICT_POP_DEFAULT,
    DICT_SET,
    DICT_SETDEFAULT,
    DICT_UPDATE,
    FOR_DICT_ITEMS,
    FOR_DICT_KEYS,
    FOR_SET,
    NEW_DICT,
    NEW_SET,
    SET_IOR,
)
from gpucc.contract.jitable import nrt_free
from gpucc.contract.status import ASSERT_FAILED, INVALID_BYTECODE, KEY_ERROR, MEMORY_LIMIT, OK, RUNTIME_ERROR
from gpucc.contract.typecodes import SET
from gpucc.vm.kernel_dict import (
    D_USED,
    dict_delete,
    dict_lookup,
    dict_parts,
    dict_set,
    dict_type,
    dict_update,
    new_dict,
    typed_dict_equal,
)
from gpucc.vm.kernel_heap import HEADER, REFS, header, new_list
from gpucc.vm.kernel_set import DEAD, S_USED, new_set, set_len, set_parts
from gpucc.vm.kernel_set_inplace import in_place_op
from gpucc.vm.kernel_set_ops import set_op, set_subset, set_type

FOR_BITS = 21
FOR_FIELD = (1 << FOR_BITS) - 1


@nrt_free
def for_step(op, arg, stack, sp, fp, heap, hp):
    """FOR_DICT_* / FOR_SET over slots fp + arg (the object), + 1 (the state): (status, sp, hp,
    cost, pc advance: 2 when it pushed, skipping the JUMP out)."""
    zero = np.int64(0)
    s = fp + arg
    h, state = stack[s], stack[s + 1]
    pos, start, given = state & FOR_FIELD, (state >> FOR_BITS) & FOR_FIELD, state >> (2 * FOR_BITS)
    de = dt = zero
    if op == FOR_SET:
        sh, dt, mask = set_parts(heap, hp, h)
        if sh < 0:
            return INVALID_BYTECODE, sp, hp, zero, 1
        used, ends = heap[sh + S_USED], mask + 1
    else:
        dh, _, _, de, ne = dict_parts(heap, hp, h)
        if dh < 0:
            return INVALID_BYTECODE, sp, hp, zero, 1
        used, ends = heap[dh + D_USED], ne
    if start == 0:
        start = used + 1
    if used != start - 1:
        return RUNTIME_ERROR, sp, hp, zero, 1
    cost = zero
    while pos < ends and (heap[dt + 2 * pos] if op == FOR_SET else heap[de + 3 * pos]) == DEAD:
        pos += 1
        cost += 1
    if pos >= ends:
        stack[s + 1] = pos | (start << FOR_BITS) | ((given & FOR_FIELD) << (2 * FOR_BITS))
        return OK, sp, hp, cost, 1
    if op != FOR_SET and given >= start - 1:
        return RUNTIME_ERROR, sp, hp, zero, 1
    if op == FOR_SET:
        v = heap[dt + 2 * pos + 1]
    elif op == FOR_DICT_ITEMS:
        v, hp = new_list(heap, hp, 2, REFS)
        if v < 0:
            return MEMORY_LIMIT, sp, hp, zero, 1
        heap[v + HEADER] = heap[de + 3 * pos + 1]
        heap[v + HEADER + 1] = heap[de + 3 * pos + 2]
    else:
        v = heap[de + 3 * pos + (1 if op == FOR_DICT_KEYS else 2)]
    stack[sp] = v
    stack[s + 1] = (pos + 1) | (start << FOR_BITS) | (((given + 1) & FOR_FIELD) << (2 * FOR_BITS))
    return OK, sp + 1, hp, cost, 2


@nrt_free
def dict_list(arg, stack, sp, heap, hp):
    """DICT_LIST: (status, sp, hp, cost): the list first, then (items) its tuples."""
    zero = np.int64(0)
    h = stack[sp - 1]
    if arg == 3:
        sh, dt, mask = set_parts(heap, hp, h)
        if sh < 0:
            return INVALID_BYTECODE, sp, hp, zero
        n, ends, stride, src = heap[sh + S_USED], mask + 1, 2, dt
    else:
        dh, _, _, de, ne = dict_parts(heap, hp, h)
        if dh < 0:
            return INVALID_BYTECODE, sp, hp, zero
        n, ends, stride, src = heap[dh + D_USED], ne, 3, de
    out, hp = new_list(heap, hp, n, REFS)
    if out < 0:
        return MEMORY_LIMIT, sp, hp, zero
    k = 0
    for e in range(ends):
        if heap[src + stride * e] != DEAD:
            if arg == 2:
                t, hp = new_list(heap, hp, 2, REFS)
                if t < 0:
                    return MEMORY_LIMIT, sp, hp, zero
                heap[t + HEADER] = heap[src + stride * e + 1]
                heap[t + HEADER + 1] = heap[src + stride * e + 2]
                heap[out + HEADER + k] = t
            else:
                heap[out + HEADER + k] = heap[src + stride * e + (2 if arg == 1 else 1)]
            k += 1
    stack[sp - 1] = out
    return OK, sp, hp, ends + n


@nrt_free
def dict_op(op, arg, stack, sp, fp, heap, hp, walk, consts, const_base):
    """Run dict or set instruction op; returns (status, sp, hp, extra cost, pc advance: 1, or 2
    when a FOR_* test pushed and skips its JUMP).  The extra cost is 0 when it fails."""
    zero = np.int64(0)
    if op >= FOR_DICT_KEYS and op <= FOR_SET:
        return for_step(op, arg, stack, sp, fp, heap, hp)
    if op == NEW_DICT or op == NEW_SET:
        h, hp = new_dict(heap, hp) if op == NEW_DICT else new_set(heap, hp)
        if h < 0:
            return MEMORY_LIMIT, sp, hp, zero, 1
        stack[sp] = h
        return OK, sp + 1, hp, zero, 1
    if op == COLL_LEN:
        d, n, _ = header(heap, hp, stack[sp - 1])
        if d < 0 or (n != 4 and n != 5):  # a dict's header, a set's
            return INVALID_BYTECODE, sp, hp, zero, 1
        stack[sp - 1] = heap[d]
        return OK, sp, hp, zero, 1
    if op == DICT_LIST:
        st, sp, hp, cost = dict_list(arg, stack, sp, heap, hp)
        return st, sp, hp, (cost if st == OK else zero), 1
    c = consts[const_base + arg]
    if op == ASSERT_KEYED:
        st, eq, cost = keyed_equal(c, heap, hp, walk, stack[sp - 2], stack[sp - 1])
        if st == OK and not eq:
            return ASSERT_FAILED, sp, hp, cost, 1  # the operands stay for the failure record
        return st, sp - 2, hp, (cost if st == OK else zero), 1
    if op >= SET_IOR:
        st, sp, hp, cost = in_place_op(op, c, stack, sp, heap, hp)
        return st, sp, hp, (cost if st == OK else zero), 1
    if op >= NEW_SET:
        st, sp, hp, cost = set_op(op, c, stack, sp, heap, hp)
        return st, sp, hp, (cost if st == OK else zero), 1
    ok, kt, vt = dict_type(c)
    if not ok:
        return INVALID_BYTECODE, sp, hp, zero, 1
    st = OK
    cost = zero
    if op == DICT_SET:
        st, hp, cost = dict_set(heap, hp, stack[sp - 2], stack[sp - 1], stack[sp - 3], kt)
        sp -= 3
    elif op == DICT_GET:
        st, e, _, _, cost = dict_lookup(heap, hp, stack[sp - 2], stack[sp - 1], kt)
        if st == OK and e < 0:
            st = KEY_ERROR
        if st == OK:
            _, _, _, de, _ = dict_parts(heap, hp, stack[sp - 2])
            stack[sp - 2] = heap[de + 3 * e + 2]
            sp -= 1
    elif op == DICT_GET_DEFAULT or op == DICT_SETDEFAULT or op == DICT_POP_DEFAULT:
        h, k, v = stack[sp - 3], stack[sp - 2], stack[sp - 1]
        st, e, _, _, cost = dict_lookup(heap, hp, h, k, kt)
        if st == OK and e >= 0:
            if op == DICT_POP_DEFAULT:
                st, v, c = dict_delete(heap, hp, h, k, kt)
                cost += c
            else:
                _, _, _, de, _ = dict_parts(heap, hp, h)
                v = heap[de + 3 * e + 2]
        elif st == OK and op == DICT_SETDEFAULT:
            st, hp, c = dict_set(heap, hp, h, k, v, kt)
            cost += c
        if st == OK:  # a MEMORY_LIMIT leaves the operands for the run after a collection
            stack[sp - 3] = v
        sp -= 2
    elif op == DICT_CONTAINS:
        st, e, _, _, cost = dict_lookup(heap, hp, stack[sp - 1], stack[sp - 2], kt)
        stack[sp - 2] = 1 if e >= 0 else 0
        sp -= 1
    elif op == DICT_DEL or op == DICT_POP:
        st, v, cost = dict_delete(heap, hp, stack[sp - 2], stack[sp - 1], kt)
        stack[sp - 2] = v
        sp -= 2 if op == DICT_DEL else 1
    elif op == DICT_UPDATE:
        st, hp, cost = dict_update(heap, hp, stack[sp - 2], stack[sp - 1], kt)
        sp -= 2
    elif op == DICT_EQ:
        st, eq, cost = typed_dict_equal(c, heap, hp, walk, stack[sp - 2], stack[sp - 1], kt, vt)
        stack[sp - 2] = 1 if eq else 0
        sp -= 1
    else:
        st = INVALID_BYTECODE
    return st, sp, hp, (cost if st == OK else zero), 1


@nrt_free
def keyed_equal(c, heap, hp, walk, a, b):
    """(status, a == b, cost) of two dicts or sets of type constant c (ASSERT_KEYED)."""
    zero = np.int64(0)
    if (c & 15) == SET:
        ok, kt = set_type(c)
        na, nb = set_len(heap, hp, a), set_len(heap, hp, b)
        if not ok or na < 0 or nb < 0:
            return INVALID_BYTECODE, False, zero
        if na != nb:
            return OK, False, zero
        return set_subset(heap, hp, a, b, kt)
    ok, kt, vt = dict_type(c)
    if not ok:
        return INVALID_BYTECODE, False, zero
    return typed_dict_equal(c, heap, hp, walk, a, b, kt, vt)
