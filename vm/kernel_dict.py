"""The VM kernel's dict and set instructions (a part of vm/kernel.py's body): every instruction
from NEW_DICT on.  Dicts are CPython's compact dicts, sets vm/kernel_set.py's tables, keys
hashed and compared by vm/kernel_hash.py.

Same one-source rules as run_job (plain Python, numba CPU, CUDA; no allocation, no raising).
vm/reference_dict.py is the spec: what each instruction does, its errors in the order they are
found, its extra cost, and the blocks it allocates, in order.

Layout (every block a list of vm/kernel_heap.py, allocated only by its new_list):
* a dict is a 4-word list [used, index, entries, n]: `used` live entries; `index` (a handle)
  a list of `size` words (a power of two, at least 8): EMPTY (-1), DUMMY (-2, a deleted
  entry's), or an entry number; `entries` (a handle) a list of 3 * usable(size) words (usable:
  2/3 of size, CPython's USABLE_FRACTION), entry e = words 3e, 3e + 1, 3e + 2 = (hash, key,
  value) for e < n, in insertion order; a deleted entry is (DEAD, 0, 0); the words from 3n on
  are 0.  Handles: `index` and `entries`; in an entry whose hash is not DEAD, the key when the
  key type is str or a tuple, the value when the value type lives in the heap.  The blocks do
  not record those types, so for the collector (vm/kernel_gc.py) the header, the entries, a
  set's header and table, and the (key, value) tuples are REFS blocks (every word naming an
  object is taken for a handle: conservative), the index PLAIN.
* an instruction that fails with MEMORY_LIMIT has changed no object it did not allocate (a
  set's insertion is undone when its resize does not fit), so it can run again after a
  collection (vm/kernel.py's heap_op).  DICT_UPDATE's entries already inserted stay: it runs
  again over the same entries to the same dict, its cost then counting them as present.
* a set: vm/kernel_set.py's doc.
* FOR_* keep their state in the loop's second slot: position | (size at the start + 1) << 21
  | elements given << 42 (0 before the first step).
"""

from __future__ import annotations

import numpy as np

from gpucc.contract.isa import (
    ASSERT_KEYED,
    CMP_EQ,
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
)
from gpucc.contract.jitable import nrt_free, type_value_of, type_width
from gpucc.contract.status import ASSERT_FAILED, INVALID_BYTECODE, KEY_ERROR, MEMORY_LIMIT, OK, RUNTIME_ERROR
from gpucc.contract.typecodes import COUNTER, DEFAULTDICT, DICT, MAX_NIBBLES, SET
from gpucc.vm.kernel_hash import key_equal, key_hash, key_type_ok
from gpucc.vm.kernel_heap import HEADER, PLAIN, REFS, header, new_list
from gpucc.vm.kernel_set import (
    DEAD,
    MIN_SIZE,
    PROBE_SLACK,
    S_USED,
    block,
    new_set,
    perturbed,
    set_len,
    set_parts,
    words,
)
from gpucc.vm.kernel_set_ops import set_op, set_subset, set_type
from gpucc.vm.kernel_walk import type_ok, value_compare

EMPTY, DUMMY = -1, -2
D_USED, D_INDEX, D_ENTRIES, D_NENTRIES = 0, 1, 2, 3
FOR_BITS = 21
FOR_FIELD = (1 << FOR_BITS) - 1


@nrt_free
def usable(size):
    return (size << 1) // 3


@nrt_free
def new_dict(heap, hp):
    """(handle or -1, hp) of a new empty dict: its index, its entries, then its header."""
    index, hp = block(heap, hp, MIN_SIZE, EMPTY, PLAIN)
    if index < 0:
        return index, hp
    entries, hp = block(heap, hp, 3 * usable(MIN_SIZE), 0, REFS)
    if entries < 0:
        return entries, hp
    h, hp = new_list(heap, hp, 4, REFS)
    if h >= 0:
        heap[h + HEADER + D_USED] = 0
        heap[h + HEADER + D_INDEX] = index
        heap[h + HEADER + D_ENTRIES] = entries
        heap[h + HEADER + D_NENTRIES] = 0
    return h, hp


@nrt_free
def dict_parts(heap, hp, h):
    """(header offset, index offset, index size, entries offset, entries written) of dict h;
    header offset -1 when h is no dict."""
    bad = np.int64(-1)
    dh = words(heap, hp, h, 4)
    if dh < 0:
        return bad, bad, bad, bad, bad
    di, size, _ = header(heap, hp, heap[dh + D_INDEX])
    de, n_words, _ = header(heap, hp, heap[dh + D_ENTRIES])
    ne = heap[dh + D_NENTRIES]
    if di < 0 or de < 0 or size < MIN_SIZE or (size & (size - 1)) != 0 or n_words != 3 * usable(size):
        return bad, bad, bad, bad, bad
    if ne < 0 or ne > usable(size) or heap[dh + D_USED] < 0 or heap[dh + D_USED] > ne:
        return bad, bad, bad, bad, bad
    return dh, di, size, de, ne


@nrt_free
def dict_lookup(heap, hp, h, k, kt):
    """(status, entry or -1, hash, first free index slot, cost) of key k in dict h."""
    zero = np.int64(0)
    dh, di, size, de, ne = dict_parts(heap, hp, h)
    if dh < 0:
        return INVALID_BYTECODE, zero, zero, zero, zero
    ok, hk, cost = key_hash(heap, hp, k, kt)
    if not ok:
        return INVALID_BYTECODE, zero, zero, zero, zero
    mask = size - 1
    i, perturb, free = hk & mask, hk, np.int64(-1)
    for _ in range(size + PROBE_SLACK):
        cost += 1
        ix = heap[di + i]
        if ix == EMPTY:
            return OK, np.int64(-1), hk, (i if free < 0 else free), cost
        if ix == DUMMY:
            if free < 0:
                free = i
        elif ix < 0 or ix >= ne:
            return INVALID_BYTECODE, zero, zero, zero, zero
        elif heap[de + 3 * ix] == hk:
            ok, eq = key_equal(heap, hp, heap[de + 3 * ix + 1], k, kt)
            if not ok:
                return INVALID_BYTECODE, zero, zero, zero, zero
            if eq:
                return OK, ix, hk, free, cost
        i, perturb = perturbed(i, perturb, mask)
    return INVALID_BYTECODE, zero, zero, zero, zero


@nrt_free
def free_slot(heap, di, size, hk):
    """(slot or -1, cost): the first index slot of hk's probe sequence holding no entry."""
    mask = size - 1
    i, perturb = hk & mask, hk
    cost = np.int64(0)
    for _ in range(size + PROBE_SLACK):
        if heap[di + i] < 0:
            return i, cost
        cost += 1
        i, perturb = perturbed(i, perturb, mask)
    return np.int64(-1), cost


@nrt_free
def dict_resize(heap, hp, h):
    """(status, hp, cost): dict h's tables rebuilt for 3 x its live entries, compacted."""
    zero = np.int64(0)
    dh, _, _, de, ne = dict_parts(heap, hp, h)
    if dh < 0:
        return INVALID_BYTECODE, hp, zero
    size = np.int64(MIN_SIZE)
    while size < 3 * heap[dh + D_USED]:
        size <<= 1
    index, hp = block(heap, hp, size, EMPTY, PLAIN)
    if index < 0:
        return MEMORY_LIMIT, hp, zero
    entries, hp = block(heap, hp, 3 * usable(size), 0, REFS)
    if entries < 0:
        return MEMORY_LIMIT, hp, zero
    ni, ne2 = index + HEADER, entries + HEADER
    n = zero
    cost = zero
    for e in range(ne):
        if heap[de + 3 * e] != DEAD:
            for k in range(3):
                heap[ne2 + 3 * n + k] = heap[de + 3 * e + k]
            slot, c = free_slot(heap, ni, size, heap[de + 3 * e])
            cost += c
            if slot < 0:
                return INVALID_BYTECODE, hp, cost
            heap[ni + slot] = n
            n += 1
            cost += 1
    heap[dh + D_INDEX] = index
    heap[dh + D_ENTRIES] = entries
    heap[dh + D_NENTRIES] = n
    return OK, hp, cost


@nrt_free
def dict_set(heap, hp, h, k, v, kt):
    """d[k] = v: (status, hp, cost)."""
    st, e, hk, free, cost = dict_lookup(heap, hp, h, k, kt)
    if st != OK:
        return st, hp, cost
    dh, di, size, de, ne = dict_parts(heap, hp, h)
    if e >= 0:
        heap[de + 3 * e + 2] = v
        return OK, hp, cost
    if ne >= usable(size):
        st, hp, c = dict_resize(heap, hp, h)
        cost += c
        if st != OK:
            return st, hp, cost
        dh, di, size, de, ne = dict_parts(heap, hp, h)
        free, c = free_slot(heap, di, size, hk)
        cost += c
        if free < 0:
            return INVALID_BYTECODE, hp, cost
    heap[di + free] = ne
    heap[de + 3 * ne] = hk
    heap[de + 3 * ne + 1] = k
    heap[de + 3 * ne + 2] = v
    heap[dh + D_NENTRIES] = ne + 1
    heap[dh + D_USED] += 1
    return OK, hp, cost


@nrt_free
def dict_delete(heap, hp, h, k, kt):
    """del d[k]: (status, its value, cost); KEY_ERROR when absent."""
    zero = np.int64(0)
    st, e, hk, _, cost = dict_lookup(heap, hp, h, k, kt)
    if st != OK:
        return st, zero, cost
    if e < 0:
        return KEY_ERROR, zero, cost
    dh, di, size, de, _ = dict_parts(heap, hp, h)
    i, perturb = hk & (size - 1), hk
    for _ in range(size + PROBE_SLACK):
        if heap[di + i] == e:
            break
        i, perturb = perturbed(i, perturb, size - 1)
    if heap[di + i] != e:
        return INVALID_BYTECODE, zero, cost
    v = heap[de + 3 * e + 2]
    heap[di + i] = DUMMY
    heap[de + 3 * e] = DEAD
    heap[de + 3 * e + 1] = 0
    heap[de + 3 * e + 2] = 0
    heap[dh + D_USED] -= 1
    return OK, v, cost


@nrt_free
def dict_type(c):
    """(ok, key type, value type) of a dict (Counter, defaultdict) type constant (vm/reference_dict.dict_type)."""
    zero = np.int64(0)
    h = c & 15
    if c < 0 or c >= np.int64(1) << (4 * MAX_NIBBLES) or (h != DICT and h != COUNTER and h != DEFAULTDICT):
        return False, zero, zero
    n = type_width(c)
    if n == 0 or (c >> (4 * n)) != 0:
        return False, zero, zero
    kt = (c >> 4) & ((np.int64(1) << (4 * type_width(c >> 4))) - 1)
    return key_type_ok(kt), kt, type_value_of(c)


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
def typed_dict_equal(c, heap, hp, walk, a, b, kt, vt):
    """(status, a == b, cost) of dicts of type constant c: of Counters, CPython 3.10's (a
    missing key counts 0: each count of a is b's and each of b's a's), else dict_equal."""
    if (c & 15) != COUNTER:
        return dict_equal(heap, hp, walk, a, b, kt, vt)
    st, eq, cost = entries_in(heap, hp, walk, a, b, kt, vt, True)
    if st != OK or not eq:
        return st, eq, cost
    st, eq, more = entries_in(heap, hp, walk, b, a, kt, vt, True)
    return st, eq, cost + more


@nrt_free
def dict_equal(heap, hp, walk, a, b, kt, vt):
    """(status, a == b, cost) of dicts a, b."""
    zero = np.int64(0)
    ah, _, _, _, _ = dict_parts(heap, hp, a)
    bh, _, _, _, _ = dict_parts(heap, hp, b)
    if ah < 0 or bh < 0:
        return INVALID_BYTECODE, False, zero
    if heap[ah + D_USED] != heap[bh + D_USED]:
        return OK, False, zero
    return entries_in(heap, hp, walk, a, b, kt, vt, False)


@nrt_free
def entries_in(heap, hp, walk, a, b, kt, vt, counts):
    """(status, whether each of dict a's entries is in b with an == value, cost); counts: of
    Counters, a key b lacks counts 0 there."""
    zero = np.int64(0)
    ah, _, _, de, ne = dict_parts(heap, hp, a)
    if ah < 0:
        return INVALID_BYTECODE, False, zero
    cost = ne
    for e in range(ne):
        if heap[de + 3 * e] != DEAD:
            st, f, _, _, c = dict_lookup(heap, hp, b, heap[de + 3 * e + 1], kt)
            cost += c
            if st != OK:
                return st, False, cost
            _, _, _, bde, _ = dict_parts(heap, hp, b)
            if counts:
                if heap[de + 3 * e + 2] != (heap[bde + 3 * f + 2] if f >= 0 else zero):
                    return OK, False, cost
                continue
            if f < 0:
                return OK, False, cost
            if not type_ok(vt):
                return INVALID_BYTECODE, False, cost
            st, holds, visited = value_compare(heap, hp, walk, CMP_EQ, heap[de + 3 * e + 2], vt, heap[bde + 3 * f + 2], vt)
            cost += visited
            if st != OK:
                return st, False, cost
            if holds == 0:
                return OK, False, cost
    return OK, True, cost


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
        if d < 0 or n != 4:
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


@nrt_free
def dict_update(heap, hp, h, e, kt):
    """d.update(e): (status, hp, cost): e's live entries set in d, in order."""
    zero = np.int64(0)
    eh, _, _, de, ne = dict_parts(heap, hp, e)
    if eh < 0:
        return INVALID_BYTECODE, hp, zero
    cost = ne
    for i in range(ne):
        _, _, _, de, _ = dict_parts(heap, hp, e)  # d.update(d) may move e's entries
        if heap[de + 3 * i] != DEAD:
            st, hp, c = dict_set(heap, hp, h, heap[de + 3 * i + 1], heap[de + 3 * i + 2], kt)
            cost += c
            if st != OK:
                return st, hp, cost
    return OK, hp, cost
