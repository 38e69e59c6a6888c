"""The kernel's sets (a part of vm/kernel.py's body, used by vm/kernel_dict.py): CPython's
open-addressing set table (Objects/setobject.c), so a set iterates in CPython's order.

Same one-source rules as run_job (plain Python, numba CPU, CUDA; no allocation, no raising).
vm/reference_dict.py's `Dicts` set methods are the spec: each function here is the method of
the same name, with the same cost, allocations and checks.

Layout (every block a list of vm/kernel_heap.py): a set is a 5-word list [used, fill, mask,
table, finger] (finger: where s.pop() looks first, CPython's); `table` (a handle) is a list of 2 * (mask + 1) words, slot i = (hash, element): an
unused slot is (DEAD, 0), a deleted one (DEAD, 1), a live one (its hash, never DEAD; its
element, a handle for str and tuple elements).
"""

from __future__ import annotations

import numpy as np

from gpucc.contract.jitable import nrt_free
from gpucc.contract.status import INVALID_BYTECODE, MEMORY_LIMIT, OK
from gpucc.vm.kernel_hash import key_equal
from gpucc.vm.kernel_heap import HEADER, REFS, header, new_list

DEAD = -1
MIN_SIZE = 8
LINEAR_PROBES = 9
PROBE_SLACK = 64
LOW59 = (1 << 59) - 1  # perturb's logical shift right by 5 of an int64 bit pattern
S_USED, S_FILL, S_MASK, S_TABLE, S_FINGER = 0, 1, 2, 3, 4
ADD, DISCARD, TOGGLE = 0, 1, 2  # set_edit's modes


@nrt_free
def perturbed(i, perturb, mask):
    """The next probe after slot i: ((i * 5 + 1 + perturb >> 5) & mask, perturb >> 5), perturb unsigned."""
    perturb = (perturb >> 5) & LOW59
    return (i * 5 + 1 + perturb) & mask, perturb


@nrt_free
def block(heap, hp, n, fill, kind):
    """(handle, hp) of a new list of n words, each `fill`, of block kind PLAIN or REFS
    (vm/kernel_heap.py); handle -1 when it does not fit."""
    h, hp = new_list(heap, hp, n, kind)
    if h >= 0:
        for k in range(n):
            heap[h + HEADER + k] = fill
    return h, hp


@nrt_free
def words(heap, hp, h, n):
    """Data offset of h, which must be a list of n words; -1 otherwise."""
    d, length, _ = header(heap, hp, h)
    if d < 0 or length != n:
        return np.int64(-1)
    return d


@nrt_free
def new_set(heap, hp):
    """(handle or -1, hp) of a new empty set."""
    table, hp = block(heap, hp, 2 * MIN_SIZE, 0, REFS)
    if table < 0:
        return table, hp
    for i in range(MIN_SIZE):
        heap[table + HEADER + 2 * i] = DEAD
    h, hp = new_list(heap, hp, 5, REFS)
    if h >= 0:
        heap[h + HEADER + S_FINGER] = 0
        heap[h + HEADER + S_USED] = 0
        heap[h + HEADER + S_FILL] = 0
        heap[h + HEADER + S_MASK] = MIN_SIZE - 1
        heap[h + HEADER + S_TABLE] = table
    return h, hp


@nrt_free
def set_parts(heap, hp, h):
    """(header offset, table offset, mask) of set h; header offset -1 when h is no set."""
    bad = np.int64(-1)
    sh = words(heap, hp, h, 5)
    if sh < 0:
        return bad, bad, bad
    mask = heap[sh + S_MASK]
    dt, n, _ = header(heap, hp, heap[sh + S_TABLE])
    if dt < 0 or mask < MIN_SIZE - 1 or (mask & (mask + 1)) != 0 or n != 2 * (mask + 1):
        return bad, bad, bad
    if not (0 <= heap[sh + S_USED] and heap[sh + S_USED] <= heap[sh + S_FILL] and heap[sh + S_FILL] <= mask):
        return bad, bad, bad
    return sh, dt, mask


@nrt_free
def set_resize(heap, hp, h, minused):
    """set_table_resize: (status, hp, cost)."""
    zero = np.int64(0)
    sh, dt, mask = set_parts(heap, hp, h)
    if sh < 0:
        return INVALID_BYTECODE, hp, zero
    size = np.int64(MIN_SIZE)
    while size <= minused:
        size <<= 1
    table, hp = block(heap, hp, 2 * size, 0, REFS)
    if table < 0:
        return MEMORY_LIMIT, hp, zero
    nt = table + HEADER
    for i in range(size):
        heap[nt + 2 * i] = DEAD
    cost = zero
    for i in range(mask + 1):
        if heap[dt + 2 * i] != DEAD:
            st, c = insert_clean(heap, nt, size - 1, heap[dt + 2 * i + 1], heap[dt + 2 * i])
            cost += c
            if st != OK:
                return st, hp, cost
    heap[sh + S_TABLE] = table
    heap[sh + S_MASK] = size - 1
    heap[sh + S_FILL] = heap[sh + S_USED]
    return OK, hp, cost


@nrt_free
def insert_clean(heap, dt, mask, x, hx):
    """set_insert_clean into a table with no dummies: (status, cost)."""
    i, perturb = hx & mask, hx
    cost = np.int64(0)
    for _ in range(mask + 1 + PROBE_SLACK):
        probes = LINEAR_PROBES if i + LINEAR_PROBES <= mask else 0
        for j in range(i, i + probes + 1):
            cost += 1
            if heap[dt + 2 * j] == DEAD and heap[dt + 2 * j + 1] == 0:
                heap[dt + 2 * j] = hx
                heap[dt + 2 * j + 1] = x
                return OK, cost
        i, perturb = perturbed(i, perturb, mask)
    return INVALID_BYTECODE, cost


@nrt_free
def lookup(heap, hp, dt, mask, x, hx, kt):
    """set_lookkey over the table at dt: (status, x's slot or -1, the unused slot that ends the
    probe sequence, the last dummy slot passed or -1, cost: the slots probed)."""
    i, perturb, free = hx & mask, hx, np.int64(-1)
    cost = np.int64(0)
    for _ in range(mask + 1 + PROBE_SLACK):
        probes = LINEAR_PROBES if i + LINEAR_PROBES <= mask else 0
        for j in range(i, i + probes + 1):
            cost += 1
            hj, kj = heap[dt + 2 * j], heap[dt + 2 * j + 1]
            if hj == DEAD and kj == 0:
                return OK, np.int64(-1), np.int64(j), free, cost
            if hj == hx:
                ok, eq = key_equal(heap, hp, kj, x, kt)
                if not ok:
                    return INVALID_BYTECODE, np.int64(-1), np.int64(-1), free, cost
                if eq:
                    return OK, np.int64(j), np.int64(-1), free, cost
            if hj == DEAD:
                free = np.int64(j)
        i, perturb = perturbed(i, perturb, mask)
    return INVALID_BYTECODE, np.int64(-1), np.int64(-1), free, cost


@nrt_free
def set_find(heap, hp, h, x, hx, kt, add):
    """(status, found, hp, cost): whether x (hash hx) is in set h; with add, insert it when
    it is not (set_add_entry: the last dummy passed is reused; a fill past 3/5 resizes)."""
    sh, dt, mask = set_parts(heap, hp, h)
    if sh < 0:
        return INVALID_BYTECODE, False, hp, np.int64(0)
    st, j, unused, free, cost = lookup(heap, hp, dt, mask, x, hx, kt)
    if st != OK or j >= 0 or not add:
        return st, j >= 0, hp, cost
    at = free if free >= 0 else unused
    heap[dt + 2 * at] = hx
    heap[dt + 2 * at + 1] = x
    heap[sh + S_USED] += 1
    if free < 0:
        heap[sh + S_FILL] += 1
        if heap[sh + S_FILL] * 5 >= mask * 3:
            used = heap[sh + S_USED]
            st, hp, c = set_resize(heap, hp, h, used * 2 if used > 50000 else used * 4)
            if st == MEMORY_LIMIT:  # undone, so that the instruction can run again after a collection
                heap[dt + 2 * at] = DEAD
                heap[dt + 2 * at + 1] = 0
                heap[sh + S_USED] -= 1
                heap[sh + S_FILL] -= 1
            return st, False, hp, cost + c
    return OK, False, hp, cost


@nrt_free
def set_discard(heap, hp, h, x, hx, kt):
    """(status, found, cost): x removed from set h (its slot becomes a dummy)."""
    sh, dt, mask = set_parts(heap, hp, h)
    if sh < 0:
        return INVALID_BYTECODE, False, np.int64(0)
    st, j, _, _, cost = lookup(heap, hp, dt, mask, x, hx, kt)
    if st == OK and j >= 0:
        heap[dt + 2 * j] = DEAD
        heap[dt + 2 * j + 1] = 1
        heap[sh + S_USED] -= 1
    return st, j >= 0, cost


@nrt_free
def set_edit(heap, hp, h, x, hx, kt, mode):
    """x (hash hx) added to set h (mode ADD), discarded (DISCARD), or discarded and added when it
    was not there (TOGGLE, as ^): (status, hp, cost)."""
    st, found, cost = OK, False, np.int64(0)
    if mode != ADD:
        st, found, cost = set_discard(heap, hp, h, x, hx, kt)
    if st == OK and not found and mode != DISCARD:
        st, _, hp, c = set_find(heap, hp, h, x, hx, kt, True)
        cost += c
    return st, hp, cost


@nrt_free
def set_merge(heap, hp, h, other, kt):
    """set_merge: (status, hp, cost) after other's elements went into set h."""
    zero = np.int64(0)
    sh, _, mask = set_parts(heap, hp, h)
    oh, odt, omask = set_parts(heap, hp, other)
    if sh < 0 or oh < 0:
        return INVALID_BYTECODE, hp, zero
    if h == other or heap[oh + S_USED] == 0:
        return OK, hp, zero
    cost = zero
    if (heap[sh + S_FILL] + heap[oh + S_USED]) * 5 >= mask * 3:
        st, hp, c = set_resize(heap, hp, h, (heap[sh + S_USED] + heap[oh + S_USED]) * 2)
        cost += c
        if st != OK:
            return st, hp, cost
    sh, dt, mask = set_parts(heap, hp, h)
    if heap[sh + S_FILL] == 0 and mask == omask and heap[oh + S_FILL] == heap[oh + S_USED]:
        cost += mask + 1
        for k in range(2 * (mask + 1)):
            heap[dt + k] = heap[odt + k]
        heap[sh + S_FILL] = heap[oh + S_FILL]
        heap[sh + S_USED] = heap[oh + S_USED]
        return OK, hp, cost
    cost += omask + 1  # the scan of other's table
    if heap[sh + S_FILL] == 0:
        heap[sh + S_FILL] = heap[oh + S_USED]
        heap[sh + S_USED] = heap[oh + S_USED]
        for i in range(omask + 1):
            if heap[odt + 2 * i] != DEAD:
                st, c = insert_clean(heap, dt, mask, heap[odt + 2 * i + 1], heap[odt + 2 * i])
                cost += c
                if st != OK:
                    return st, hp, cost
        return OK, hp, cost
    for i in range(omask + 1):
        if heap[odt + 2 * i] != DEAD:
            st, _, hp, c = set_find(heap, hp, h, heap[odt + 2 * i + 1], heap[odt + 2 * i], kt, True)
            cost += c
            if st != OK:
                return st, hp, cost
    return OK, hp, cost


@nrt_free
def set_copy(heap, hp, h, kt):
    """(status, new set, hp, cost): a copy of set h, as CPython's set_copy."""
    r, hp = new_set(heap, hp)
    if r < 0:
        return MEMORY_LIMIT, r, hp, np.int64(0)
    st, hp, cost = set_merge(heap, hp, r, h, kt)
    return st, r, hp, cost


@nrt_free
def set_len(heap, hp, h):
    """The size of set h, -1 when h is no set."""
    sh, _, _ = set_parts(heap, hp, h)
    return heap[sh + S_USED] if sh >= 0 else np.int64(-1)
