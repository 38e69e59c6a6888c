"""Dicts and sets in the reference heap (plain Python): the spec of vm/kernel_dict.py's and
vm/kernel_set.py's objects and algorithms; vm/reference_dict.py runs the instructions on them.

Objects are vm/kernel_dict.py's layout, modelled word for word on the reference heap (the
same blocks allocated in the same order), so MemoryError and bad handles happen at the same
points.  Hashes are CPython's (vm/reference_hash.py); a dict is CPython's compact dict (an
index table over entries in insertion order), a set CPython's open-addressing table
(Objects/setobject.c: LINEAR_PROBES 9 slots, then perturbation; its fill / resize rules and
the algorithms of | & - ^), so a set of numbers iterates in CPython's order.

Cost (added to the table cost): every index or set-table slot probed, the code points and
fields hashed (vm/reference_hash.key_hash), the entries a resize moves, and for instructions
over whole objects (UPDATE, EQ, LIST, FROM, the set operators, FOR_* skipping deleted
entries) each element visited.  A failing instruction adds nothing.
"""

from __future__ import annotations

from gpucc.contract import isa as O
from gpucc.contract import status as S
from gpucc.vm.reference_hash import key_equal, key_hash
from gpucc.vm.kernel_heap import HEADER, PLAIN, REFS
from gpucc.vm.reference_heap import Heap
from gpucc.vm.reference_numeric import Stop

EMPTY, DUMMY = -1, -2  # index-table words of a dict that point at no entry
MIN_SIZE = 8  # CPython's PyDict_MINSIZE and PySet_MINSIZE
LINEAR_PROBES, PERTURB_SHIFT = 9, 5
MASK64 = (1 << 64) - 1
# dict header words (a 4-element list): live entries, index-table handle, entries handle,
# entries written (live or deleted)
D_USED, D_INDEX, D_ENTRIES, D_NENTRIES = range(4)
# set header words: live elements, live + dummy slots, table mask, table handle, pop's finger
S_USED, S_FILL, S_MASK, S_TABLE, S_FINGER = range(5)
PROBE_SLACK = 64  # a probe sequence longer than its table's size plus this: a corrupt table
DEAD = -1  # the hash word of a deleted dict entry and of a set slot that holds no element


def usable(size: int) -> int:
    """Entries an index table of `size` slots takes (CPython's USABLE_FRACTION)."""
    return (size << 1) // 3


def perturbed(i: int, perturb: int, mask: int) -> tuple[int, int]:
    """The next probe: (perturb >> 5, (i * 5 + 1 + that) & mask), perturb unsigned."""
    perturb >>= PERTURB_SHIFT
    return (i * 5 + 1 + perturb) & mask, perturb


class Dicts:
    """The dict and set operations of one job's heap; `cost` counts their extra cost."""

    def __init__(self, heap: Heap):
        self.heap, self.cost = heap, 0

    # -- blocks
    def words(self, h: int, n: int) -> int:
        """Data offset of block h, which must be a list of n words."""
        d, length, _ = self.heap.header(h)
        if length != n:
            raise Stop(S.INVALID_BYTECODE)
        return d

    def block(self, n: int, fill: int, kind: int) -> int:
        """A new list of n words, each `fill`, of block kind PLAIN or REFS (vm/kernel_dict.py's doc)."""
        return self.heap.new([fill] * n, kind)

    def table(self, h: int) -> tuple[int, int]:
        """(data offset, words) of a table block."""
        d, n, _ = self.heap.header(h)
        return d, n

    # -- dicts
    def new_dict(self, size: int = MIN_SIZE) -> int:
        index = self.block(size, EMPTY, PLAIN)
        entries = self.block(3 * usable(size), 0, REFS)
        return self.heap.new([0, index, entries, 0], REFS)

    def dict_parts(self, h: int) -> tuple[int, int, int, int, int]:
        """(header offset, index offset, index size, entries offset, entries written) of dict h."""
        w = self.heap.words
        dh = self.words(h, 4)
        di, size = self.table(w[dh + D_INDEX])
        de, n_words = self.table(w[dh + D_ENTRIES])
        ne = w[dh + D_NENTRIES]
        if size < MIN_SIZE or size & (size - 1) or n_words != 3 * usable(size) or not 0 <= ne <= usable(size):
            raise Stop(S.INVALID_BYTECODE)
        if not 0 <= w[dh + D_USED] <= ne:
            raise Stop(S.INVALID_BYTECODE)
        return dh, di, size, de, ne

    def dict_lookup(self, h: int, k: int, kt: int) -> tuple[int, int, int]:
        """(entry number or -1, hash, first free index slot: empty or dummy) of key k in dict h."""
        w = self.heap.words
        _, di, size, de, ne = self.dict_parts(h)
        hk, extra = key_hash(self.heap, k, kt)
        self.cost += extra
        mask = size - 1
        i, perturb, free = hk & mask, hk & MASK64, -1
        for _ in range(size + PROBE_SLACK):
            self.cost += 1
            ix = w[di + i]
            if ix == EMPTY:
                return -1, hk, (i if free < 0 else free)
            if ix == DUMMY:
                free = i if free < 0 else free
            elif not 0 <= ix < ne:
                raise Stop(S.INVALID_BYTECODE)
            elif w[de + 3 * ix] == hk and key_equal(self.heap, w[de + 3 * ix + 1], k, kt):
                return ix, hk, free
            i, perturb = perturbed(i, perturb, mask)
        raise Stop(S.INVALID_BYTECODE)  # a table with no empty slot

    def free_slot(self, di: int, size: int, hk: int) -> int:
        """The first index slot of hash hk's probe sequence holding no entry (CPython's find_empty_slot)."""
        w = self.heap.words
        mask = size - 1
        i, perturb = hk & mask, hk & MASK64
        for _ in range(size + PROBE_SLACK):
            if w[di + i] < 0:
                return i
            self.cost += 1
            i, perturb = perturbed(i, perturb, mask)
        raise Stop(S.INVALID_BYTECODE)

    def dict_resize(self, h: int) -> None:
        """Rebuild dict h's tables for 3 x its live entries (CPython's GROWTH_RATE), compacted."""
        w = self.heap.words
        dh, _, _, de, ne = self.dict_parts(h)
        size = MIN_SIZE
        while size < 3 * w[dh + D_USED]:
            size <<= 1
        index = self.block(size, EMPTY, PLAIN)
        entries = self.block(3 * usable(size), 0, REFS)
        ni, ne2 = index + HEADER, entries + HEADER
        n = 0
        for e in range(ne):
            if w[de + 3 * e] != DEAD:
                w[ne2 + 3 * n : ne2 + 3 * n + 3] = w[de + 3 * e : de + 3 * e + 3]
                w[ni + self.free_slot(ni, size, w[de + 3 * e])] = n
                n += 1
                self.cost += 1
        w[dh + D_INDEX], w[dh + D_ENTRIES], w[dh + D_NENTRIES] = index, entries, n

    def dict_set(self, h: int, k: int, v: int, kt: int) -> None:
        w = self.heap.words
        e, hk, free = self.dict_lookup(h, k, kt)
        dh, di, size, de, ne = self.dict_parts(h)
        if e >= 0:
            w[de + 3 * e + 2] = v
            return
        if ne >= usable(size):
            self.dict_resize(h)
            dh, di, size, de, ne = self.dict_parts(h)
            free = self.free_slot(di, size, hk)
        w[di + free] = ne
        w[de + 3 * ne : de + 3 * ne + 3] = [hk, k, v]
        w[dh + D_NENTRIES] = ne + 1
        w[dh + D_USED] += 1

    def dict_get(self, h: int, k: int, kt: int) -> int:
        """The entry number of key k in dict h; KEY_ERROR when absent."""
        e, _, _ = self.dict_lookup(h, k, kt)
        if e < 0:
            raise Stop(S.KEY_ERROR)
        return e

    def dict_value(self, h: int, e: int) -> int:
        _, _, _, de, _ = self.dict_parts(h)
        return self.heap.words[de + 3 * e + 2]

    def dict_delete(self, h: int, k: int, kt: int) -> int:
        """Delete key k from dict h (KEY_ERROR when absent); returns its value."""
        w = self.heap.words
        e = self.dict_get(h, k, kt)
        dh, di, size, de, _ = self.dict_parts(h)
        hk = w[de + 3 * e]
        i, perturb = hk & (size - 1), hk & MASK64
        for _ in range(size + PROBE_SLACK):  # the index slot pointing at e
            if w[di + i] == e:
                break
            i, perturb = perturbed(i, perturb, size - 1)
        if w[di + i] != e:
            raise Stop(S.INVALID_BYTECODE)
        v = w[de + 3 * e + 2]
        w[di + i] = DUMMY
        w[de + 3 * e : de + 3 * e + 3] = [DEAD, 0, 0]
        w[dh + D_USED] -= 1
        return v

    def entries(self, h: int) -> list[tuple[int, int]]:
        """(key, value) of dict h's live entries in order; each entry visited costs 1."""
        w = self.heap.words
        _, _, _, de, ne = self.dict_parts(h)
        self.cost += ne
        return [(w[de + 3 * e + 1], w[de + 3 * e + 2]) for e in range(ne) if w[de + 3 * e] != DEAD]

    # -- sets
    def new_set(self, size: int = MIN_SIZE) -> int:
        table = self.block(2 * size, 0, REFS)
        self.clear_table(table + HEADER, size)
        return self.heap.new([0, 0, size - 1, table, 0], REFS)

    def clear_table(self, d: int, size: int) -> None:
        for i in range(size):
            self.heap.words[d + 2 * i] = DEAD

    def set_parts(self, h: int) -> tuple[int, int, int]:
        """(header offset, table offset, mask) of set h."""
        w = self.heap.words
        sh = self.words(h, 5)
        mask = w[sh + S_MASK]
        dt, n = self.table(w[sh + S_TABLE])
        if mask < MIN_SIZE - 1 or mask & (mask + 1) or n != 2 * (mask + 1):
            raise Stop(S.INVALID_BYTECODE)
        if not 0 <= w[sh + S_USED] <= w[sh + S_FILL] <= mask:
            raise Stop(S.INVALID_BYTECODE)
        return sh, dt, mask

    def set_slots(self, h: int) -> list[tuple[int, int]]:
        """(hash, element) of set h's live slots in table order; each slot visited costs 1."""
        w = self.heap.words
        _, dt, mask = self.set_parts(h)
        self.cost += mask + 1
        return [(w[dt + 2 * i], w[dt + 2 * i + 1]) for i in range(mask + 1) if w[dt + 2 * i] != DEAD]

    def lookup(self, dt: int, mask: int, x: int, hx: int, kt: int) -> tuple[int, int, int]:
        """set_lookkey: (x's slot or -1, the unused slot that ends the probe sequence, the last
        dummy slot passed or -1)."""
        w = self.heap.words
        i, perturb, free = hx & mask, hx & MASK64, -1
        for _ in range(mask + 1 + PROBE_SLACK):
            probes = LINEAR_PROBES if i + LINEAR_PROBES <= mask else 0
            for j in range(i, i + probes + 1):
                self.cost += 1
                hj, kj = w[dt + 2 * j], w[dt + 2 * j + 1]
                if hj == DEAD and kj == 0:  # unused: the end of the probe sequence
                    return -1, j, free
                if hj == hx and key_equal(self.heap, kj, x, kt):
                    return j, -1, free
                if hj == DEAD:
                    free = j
            i, perturb = perturbed(i, perturb, mask)
        raise Stop(S.INVALID_BYTECODE)

    def set_find(self, h: int, x: int, hx: int, kt: int, add: bool) -> bool:
        """Whether x (hash hx) is in set h; with add, insert it when it is not (set_add_entry:
        the last dummy passed is reused, as CPython 3.11; a fill past 3/5 resizes)."""
        w = self.heap.words
        sh, dt, mask = self.set_parts(h)
        j, unused, free = self.lookup(dt, mask, x, hx, kt)
        if j >= 0 or not add:
            return j >= 0
        at = free if free >= 0 else unused
        w[dt + 2 * at], w[dt + 2 * at + 1] = hx, x
        w[sh + S_USED] += 1
        if free < 0:
            w[sh + S_FILL] += 1
            if w[sh + S_FILL] * 5 >= mask * 3:
                used = w[sh + S_USED]
                try:
                    self.set_resize(h, used * 2 if used > 50000 else used * 4)
                except Stop as stop:  # undone, so that the instruction can run again after a collection
                    if stop.status == S.MEMORY_LIMIT:
                        w[dt + 2 * at], w[dt + 2 * at + 1] = DEAD, 0
                        w[sh + S_USED] -= 1
                        w[sh + S_FILL] -= 1
                    raise
        return False

    def insert_clean(self, dt: int, mask: int, x: int, hx: int) -> None:
        """Put x in a table with no dummies and no x (set_insert_clean)."""
        w = self.heap.words
        i, perturb = hx & mask, hx & MASK64
        for _ in range(mask + 1 + PROBE_SLACK):
            probes = LINEAR_PROBES if i + LINEAR_PROBES <= mask else 0
            for j in range(i, i + probes + 1):
                self.cost += 1
                if w[dt + 2 * j] == DEAD and w[dt + 2 * j + 1] == 0:
                    w[dt + 2 * j], w[dt + 2 * j + 1] = hx, x
                    return
            i, perturb = perturbed(i, perturb, mask)
        raise Stop(S.INVALID_BYTECODE)

    def set_resize(self, h: int, minused: int) -> None:
        """set_table_resize: a table of the least power of two > minused, the live slots moved
        in table order."""
        w = self.heap.words
        sh, dt, mask = self.set_parts(h)
        size = MIN_SIZE
        while size <= minused:
            size <<= 1
        table = self.block(2 * size, 0, REFS)
        nt = table + HEADER
        self.clear_table(nt, size)
        for i in range(mask + 1):
            if w[dt + 2 * i] != DEAD:
                self.insert_clean(nt, size - 1, w[dt + 2 * i + 1], w[dt + 2 * i])
        w[sh + S_TABLE], w[sh + S_MASK], w[sh + S_FILL] = table, size - 1, w[sh + S_USED]

    def set_discard(self, h: int, x: int, hx: int, kt: int) -> bool:
        """Remove x from set h (a dummy slot stays); whether it was there."""
        w = self.heap.words
        sh, dt, mask = self.set_parts(h)
        j, _, _ = self.lookup(dt, mask, x, hx, kt)
        if j >= 0:
            w[dt + 2 * j], w[dt + 2 * j + 1] = DEAD, 1
            w[sh + S_USED] -= 1
        return j >= 0

    def set_add(self, h: int, x: int, kt: int) -> None:
        hx, extra = key_hash(self.heap, x, kt)
        self.cost += extra
        self.set_find(h, x, hx, kt, True)

    def set_merge(self, h: int, other: int, kt: int) -> None:
        """set_merge: other's elements into set h (one resize first, as CPython)."""
        w = self.heap.words
        sh, _, mask = self.set_parts(h)
        oh, odt, omask = self.set_parts(other)
        if h == other or w[oh + S_USED] == 0:
            return
        if (w[sh + S_FILL] + w[oh + S_USED]) * 5 >= mask * 3:
            self.set_resize(h, (w[sh + S_USED] + w[oh + S_USED]) * 2)
        sh, dt, mask = self.set_parts(h)
        if w[sh + S_FILL] == 0 and mask == omask and w[oh + S_FILL] == w[oh + S_USED]:
            self.cost += mask + 1
            w[dt : dt + 2 * (mask + 1)] = w[odt : odt + 2 * (omask + 1)]
            w[sh + S_FILL], w[sh + S_USED] = w[oh + S_FILL], w[oh + S_USED]
            return
        slots = self.set_slots(other)
        if w[sh + S_FILL] == 0:
            w[sh + S_FILL] = w[sh + S_USED] = len(slots)
            for hx, x in slots:
                self.insert_clean(dt, mask, x, hx)
            return
        for hx, x in slots:
            self.set_find(h, x, hx, kt, True)

    def set_copy(self, h: int, kt: int) -> int:
        r = self.new_set()
        self.set_merge(r, h, kt)
        return r

    def set_len(self, h: int) -> int:
        sh, _, _ = self.set_parts(h)
        return self.heap.words[sh + S_USED]

    def set_operator(self, op: int, a: int, b: int, kt: int) -> int:
        """A new set: a | b, a & b, a - b or a ^ b, built as CPython builds it."""
        if op == O.SET_OR:
            r = self.set_copy(a, kt)
            if a != b:
                self.set_merge(r, b, kt)
            return r
        if op == O.SET_AND:
            if a == b:
                return self.set_copy(a, kt)
            if self.set_len(b) > self.set_len(a):
                a, b = b, a
            r = self.new_set()
            for hx, x in self.set_slots(b):
                if self.set_find(a, x, hx, kt, False):
                    self.set_find(r, x, hx, kt, True)
            return r
        if op == O.SET_SUB:
            if (self.set_len(a) >> 2) > self.set_len(b):
                r = self.set_copy(a, kt)
                for hx, x in self.set_slots(b):
                    self.set_discard(r, x, hx, kt)
                return r
            r = self.new_set()
            for hx, x in self.set_slots(a):
                if not self.set_find(b, x, hx, kt, False):
                    self.set_find(r, x, hx, kt, True)
            return r
        r = self.set_copy(b, kt)  # SET_XOR: a copy of b, then a's elements toggled
        for hx, x in self.set_slots(a):
            if not self.set_discard(r, x, hx, kt):
                self.set_find(r, x, hx, kt, True)
        return r

    def set_subset(self, a: int, b: int, kt: int) -> bool:
        if self.set_len(a) > self.set_len(b):
            return False
        return all(self.set_find(b, x, hx, kt, False) for hx, x in self.set_slots(a))
