"""The kernel's dicts (a part of vm/kernel.py's body, run by vm/kernel_keyed.py's dict_op):
CPython's compact dict, keys hashed and compared by vm/kernel_hash.py; its lookup, insertion,
deletion, resize, ==, update.

Same one-source rules as run_job (plain Python, numba CPU, CUDA; no allocation, no raising).
vm/reference_dict.py and vm/reference_dict_objects.py are the spec: what each instruction does,
its errors in the order they are found, its extra cost, and the blocks it allocates, in order.

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
"""

from __future__ import annotations

import numpy as np

from gpucc.contract.isa import CMP_EQ
from gpucc.contract.jitable import nrt_free, type_value_of, type_width
from gpucc.contract.status import INVALID_BYTECODE, KEY_ERROR, MEMORY_LIMIT, OK
from gpucc.contract.typecodes import COUNTER, DEFAULTDICT, DICT, MAX_NIBBLES
from gpucc.vm.kernel_hash import key_equal, key_hash, key_type_ok
from gpucc.vm.kernel_heap import HEADER, PLAIN, REFS, header, new_list
from gpucc.vm.kernel_set import DEAD, MIN_SIZE, PROBE_SLACK, block, perturbed, words
from gpucc.vm.kernel_walk import type_ok, value_compare

EMPTY, DUMMY = -1, -2
D_USED, D_INDEX, D_ENTRIES, D_NENTRIES = 0, 1, 2, 3


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
