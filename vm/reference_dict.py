"""The dict and set instructions in plain Python: the spec vm/kernel_dict.py must match bit for bit.

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
from gpucc.contract import typecodes as T
from gpucc.vm.reference_hash import key_equal, key_hash, key_type_ok
from gpucc.vm.reference_lists import Heap
from gpucc.vm.reference_numeric import Stop
from gpucc.vm.reference_value import compare, constant, type_ok

EMPTY, DUMMY = -1, -2  # index-table words of a dict that point at no entry
MIN_SIZE = 8  # CPython's PyDict_MINSIZE and PySet_MINSIZE
LINEAR_PROBES, PERTURB_SHIFT = 9, 5
MASK64 = (1 << 64) - 1
# dict header words (a 4-element list): live entries, index-table handle, entries handle,
# entries written (live or deleted)
D_USED, D_INDEX, D_ENTRIES, D_NENTRIES = range(4)
# set header words: live elements, live + dummy slots, table mask, table handle
S_USED, S_FILL, S_MASK, S_TABLE = range(4)
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

    def block(self, n: int, fill: int) -> int:
        """A new list of n words, each `fill`."""
        return self.heap.new([fill] * n)

    def table(self, h: int) -> tuple[int, int]:
        """(data offset, words) of a table block."""
        d, n, _ = self.heap.header(h)
        return d, n

    # -- dicts
    def new_dict(self, size: int = MIN_SIZE) -> int:
        index = self.block(size, EMPTY)
        entries = self.block(3 * usable(size), 0)
        return self.heap.new([0, index, entries, 0])

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
        while True:
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

    def free_slot(self, di: int, size: int, hk: int) -> int:
        """The first index slot of hash hk's probe sequence holding no entry (CPython's find_empty_slot)."""
        w = self.heap.words
        mask = size - 1
        i, perturb = hk & mask, hk & MASK64
        while w[di + i] >= 0:
            self.cost += 1
            i, perturb = perturbed(i, perturb, mask)
        return i

    def dict_resize(self, h: int) -> None:
        """Rebuild dict h's tables for 3 x its live entries (CPython's GROWTH_RATE), compacted."""
        w = self.heap.words
        dh, _, _, de, ne = self.dict_parts(h)
        size = MIN_SIZE
        while size < 3 * w[dh + D_USED]:
            size <<= 1
        index = self.block(size, EMPTY)
        entries = self.block(3 * usable(size), 0)
        ni, ne2 = index + 3, entries + 3
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
        while w[di + i] != e:  # the index slot pointing at e
            i, perturb = perturbed(i, perturb, size - 1)
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
        table = self.block(2 * size, 0)
        self.clear_table(table + 3, size)
        return self.heap.new([0, 0, size - 1, table])

    def clear_table(self, d: int, size: int) -> None:
        for i in range(size):
            self.heap.words[d + 2 * i] = DEAD

    def set_parts(self, h: int) -> tuple[int, int, int]:
        """(header offset, table offset, mask) of set h."""
        w = self.heap.words
        sh = self.words(h, 4)
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

    def set_find(self, h: int, x: int, hx: int, kt: int, add: bool) -> bool:
        """Whether x (hash hx) is in set h (set_lookkey); with add, insert it when it is not
        (set_add_entry, resizing as CPython does)."""
        w = self.heap.words
        sh, dt, mask = self.set_parts(h)
        i, perturb, free = hx & mask, hx & MASK64, -1
        while True:
            probes = LINEAR_PROBES if i + LINEAR_PROBES <= mask else 0
            for j in range(i, i + probes + 1):
                self.cost += 1
                hj, kj = w[dt + 2 * j], w[dt + 2 * j + 1]
                if hj == DEAD and kj == 0:  # unused: the end of the probe sequence
                    if add and free >= 0:  # the last dummy passed is reused, as CPython 3.11
                        w[dt + 2 * free], w[dt + 2 * free + 1] = hx, x
                        w[sh + S_USED] += 1
                    elif add:
                        w[dt + 2 * j], w[dt + 2 * j + 1] = hx, x
                        w[sh + S_FILL] += 1
                        w[sh + S_USED] += 1
                        if w[sh + S_FILL] * 5 >= mask * 3:
                            used = w[sh + S_USED]
                            self.set_resize(h, used * 2 if used > 50000 else used * 4)
                    return False
                if hj == hx and key_equal(self.heap, kj, x, kt):
                    return True
                if hj == DEAD:
                    free = j
            i, perturb = perturbed(i, perturb, mask)

    def insert_clean(self, dt: int, mask: int, x: int, hx: int) -> None:
        """Put x in a table with no dummies and no x (set_insert_clean)."""
        w = self.heap.words
        i, perturb = hx & mask, hx & MASK64
        while True:
            probes = LINEAR_PROBES if i + LINEAR_PROBES <= mask else 0
            for j in range(i, i + probes + 1):
                self.cost += 1
                if w[dt + 2 * j] == DEAD and w[dt + 2 * j + 1] == 0:
                    w[dt + 2 * j], w[dt + 2 * j + 1] = hx, x
                    return
            i, perturb = perturbed(i, perturb, mask)

    def set_resize(self, h: int, minused: int) -> None:
        """set_table_resize: a table of the least power of two > minused, the live slots moved
        in table order."""
        w = self.heap.words
        sh, dt, mask = self.set_parts(h)
        size = MIN_SIZE
        while size <= minused:
            size <<= 1
        table = self.block(2 * size, 0)
        nt = table + 3
        self.clear_table(nt, size)
        for i in range(mask + 1):
            if w[dt + 2 * i] != DEAD:
                self.insert_clean(nt, size - 1, w[dt + 2 * i + 1], w[dt + 2 * i])
        w[sh + S_TABLE], w[sh + S_MASK], w[sh + S_FILL] = table, size - 1, w[sh + S_USED]

    def set_discard(self, h: int, x: int, hx: int, kt: int) -> bool:
        """Remove x from set h (a dummy slot stays); whether it was there."""
        w = self.heap.words
        sh, dt, mask = self.set_parts(h)
        i, perturb = hx & mask, hx & MASK64
        while True:
            probes = LINEAR_PROBES if i + LINEAR_PROBES <= mask else 0
            for j in range(i, i + probes + 1):
                self.cost += 1
                hj, kj = w[dt + 2 * j], w[dt + 2 * j + 1]
                if hj == DEAD and kj == 0:
                    return False
                if hj == hx and key_equal(self.heap, kj, x, kt):
                    w[dt + 2 * j], w[dt + 2 * j + 1] = DEAD, 1
                    w[sh + S_USED] -= 1
                    return True
            i, perturb = perturbed(i, perturb, mask)

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


def dict_type(c: int) -> tuple[int, int]:
    """(key type, value type) of a dict type constant, checked."""
    if T.head(c) != T.DICT or not (0 <= c < 1 << 4 * T.MAX_NIBBLES) or c >> 4 * max(T.width(c), 1):
        raise Stop(S.INVALID_BYTECODE)
    if not T.width(c):
        raise Stop(S.INVALID_BYTECODE)
    kt = T.element(c) & ((1 << 4 * T.width(T.element(c))) - 1)
    if not key_type_ok(kt):
        raise Stop(S.INVALID_BYTECODE)
    return kt, T.value_of(c)


def set_type(c: int) -> int:
    """The element type of a set type constant, checked."""
    if not (0 <= c < 1 << 4 * T.MAX_NIBBLES) or T.head(c) != T.SET or not T.width(c) or c >> 4 * T.width(c):
        raise Stop(S.INVALID_BYTECODE)
    if not key_type_ok(T.element(c)):
        raise Stop(S.INVALID_BYTECODE)
    return T.element(c)


def values_equal(heap: Heap, a: int, b: int, vt: int) -> tuple[bool, int]:
    """(a == b, pairs visited) of two dict values of type vt (VALUE_CMP's ==)."""
    if not type_ok(vt):
        raise Stop(S.INVALID_BYTECODE)
    return compare(heap, O.CMP_EQ, a, vt, b, vt)


FOR_STATE_BITS = 21  # the for tests' state slot: position | (size at the start + 1) << 21 | yielded << 42
FOR_FIELD = (1 << FOR_STATE_BITS) - 1


def for_step(job, op: int, arg: int, dicts: Dicts) -> None:
    """FOR_DICT_* / FOR_SET: the next element from slots arg (the object), arg + 1 (the state)."""
    w = dicts.heap.words
    s = job.slot(arg, 2)
    h, state = job.stack[s], job.stack[s + 1]
    pos, start, given = state & FOR_FIELD, (state >> FOR_STATE_BITS) & FOR_FIELD, state >> 2 * FOR_STATE_BITS
    if op == O.FOR_SET:
        sh, dt, mask = dicts.set_parts(h)
        used, ends = w[sh + S_USED], mask + 1
    else:
        dh, _, _, de, ne = dicts.dict_parts(h)
        used, ends = w[dh + D_USED], ne
    if start == 0:
        start = used + 1
    if used != start - 1:
        raise Stop(S.RUNTIME_ERROR)  # changed size during iteration
    while pos < ends:
        dead = w[dt + 2 * pos] == DEAD if op == O.FOR_SET else w[de + 3 * pos] == DEAD
        if not dead:
            break
        pos += 1
        dicts.cost += 1
    if pos >= ends:
        job.stack[s + 1] = pos | start << FOR_STATE_BITS | given << 2 * FOR_STATE_BITS
        return
    if op != O.FOR_SET and given >= start - 1:
        raise Stop(S.RUNTIME_ERROR)  # keys changed during iteration
    if op == O.FOR_SET:
        v = w[dt + 2 * pos + 1]
    elif op == O.FOR_DICT_ITEMS:
        v = dicts.heap.new(w[de + 3 * pos + 1 : de + 3 * pos + 3])
    else:
        v = w[de + 3 * pos + (1 if op == O.FOR_DICT_KEYS else 2)]
    job.push(v)
    job.stack[s + 1] = (pos + 1) | start << FOR_STATE_BITS | (given + 1) << 2 * FOR_STATE_BITS
    job.next_pc += 1  # skip the JUMP out of the loop


def execute(job, op: int, arg: int) -> int:
    """Run dict or set instruction op on a vm.reference.Job; returns its extra cost."""
    dicts = Dicts(job.heap)
    if op in (O.FOR_DICT_KEYS, O.FOR_DICT_VALUES, O.FOR_DICT_ITEMS, O.FOR_SET):
        for_step(job, op, arg, dicts)
        return dicts.cost
    if op == O.NEW_DICT:
        job.need(0, 1)
        job.push(dicts.new_dict())
        return 0
    if op == O.NEW_SET:
        job.need(0, 1)
        job.push(dicts.new_set())
        return 0
    if op == O.COLL_LEN:
        h = job.pop()
        d, n, _ = job.heap.header(h)
        if n != 4:
            raise Stop(S.INVALID_BYTECODE)
        job.push(job.heap.words[d])
        return 0
    if op == O.DICT_LIST:
        h = job.pop()
        if arg == 3:
            items = [x for _, x in dicts.set_slots(h)]
        elif arg == 2:
            items = [job.heap.new([k, v]) for k, v in dicts.entries(h)]
        else:
            items = [kv[arg] for kv in dicts.entries(h)]
        job.push(job.heap.new(items))
        return dicts.cost + len(items)
    c = constant(job, arg)
    if op >= O.NEW_SET:
        return set_instruction(job, op, set_type(c), dicts)
    kt, vt = dict_type(c)
    w = job.heap.words
    if op == O.DICT_SET:
        job.need(3, 0)
        k, h, v = job.pop(), job.pop(), job.pop()
        dicts.dict_set(h, k, v, kt)
    elif op == O.DICT_GET:
        job.need(2, 1)
        k, h = job.pop(), job.pop()
        job.push(dicts.dict_value(h, dicts.dict_get(h, k, kt)))
    elif op in (O.DICT_GET_DEFAULT, O.DICT_SETDEFAULT, O.DICT_POP_DEFAULT):
        job.need(3, 1)
        default, k, h = job.pop(), job.pop(), job.pop()
        e, _, _ = dicts.dict_lookup(h, k, kt)
        if e >= 0:
            v = dicts.dict_delete(h, k, kt) if op == O.DICT_POP_DEFAULT else dicts.dict_value(h, e)
        else:
            v = default
            if op == O.DICT_SETDEFAULT:
                dicts.dict_set(h, k, v, kt)
        job.push(v)
    elif op == O.DICT_CONTAINS:
        job.need(2, 1)
        h, k = job.pop(), job.pop()
        e, _, _ = dicts.dict_lookup(h, k, kt)
        job.push(int(e >= 0))
    elif op in (O.DICT_DEL, O.DICT_POP):
        job.need(2, 1)
        k, h = job.pop(), job.pop()
        v = dicts.dict_delete(h, k, kt)
        if op == O.DICT_POP:
            job.push(v)
    elif op == O.DICT_UPDATE:
        job.need(2, 0)
        e, h = job.pop(), job.pop()
        for k, v in dicts.entries(e):
            dicts.dict_set(h, k, v, kt)
    elif op == O.DICT_EQ:
        job.need(2, 1)
        b, a = job.pop(), job.pop()
        equal = w[dicts.dict_parts(a)[0] + D_USED] == w[dicts.dict_parts(b)[0] + D_USED]
        if equal:
            for k, v in dicts.entries(a):
                e, _, _ = dicts.dict_lookup(b, k, kt)
                if e < 0:
                    equal = False
                    break
                equal, visited = values_equal(job.heap, v, dicts.dict_value(b, e), vt)
                dicts.cost += visited
                if not equal:
                    break
        job.push(int(equal))
    else:
        raise Stop(S.INVALID_BYTECODE)
    return dicts.cost


def set_instruction(job, op: int, kt: int, dicts: Dicts) -> int:
    """The set instructions that name the set's type."""
    if op == O.SET_FROM:
        job.need(1, 1)
        xs = job.heap.slots(job.pop())
        h = dicts.new_set()
        for x in xs:
            dicts.set_add(h, x, kt)
        job.push(h)
        return dicts.cost + len(xs)
    job.need(2, 1)
    if op in (O.SET_ADD, O.SET_DISCARD, O.SET_REMOVE):
        x, h = job.pop(), job.pop()
        if op == O.SET_ADD:
            dicts.set_add(h, x, kt)
            return dicts.cost
        hx, extra = key_hash(job.heap, x, kt)
        dicts.cost += extra
        if not dicts.set_discard(h, x, hx, kt) and op == O.SET_REMOVE:
            raise Stop(S.KEY_ERROR)
        return dicts.cost
    if op == O.SET_CONTAINS:
        h, x = job.pop(), job.pop()
        hx, extra = key_hash(job.heap, x, kt)
        dicts.cost += extra
        job.push(int(dicts.set_find(h, x, hx, kt, False)))
        return dicts.cost
    b, a = job.pop(), job.pop()
    if op in (O.SET_OR, O.SET_AND, O.SET_SUB, O.SET_XOR):
        job.push(dicts.set_operator(op, a, b, kt))
    elif op == O.SET_LE:
        job.push(int(dicts.set_subset(a, b, kt)))
    elif op == O.SET_EQ:
        job.push(int(dicts.set_len(a) == dicts.set_len(b) and dicts.set_subset(a, b, kt)))
    else:
        raise Stop(S.INVALID_BYTECODE)
    return dicts.cost
