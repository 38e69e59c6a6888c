"""The set instructions that change a set in place, and the ones built on them, in plain Python:
the spec vm/kernel_set_inplace.py must match bit for bit, on vm/reference_dict_objects.py's sets.

Each is CPython 3.11's (Objects/setobject.c) on the same table, so the set iterates in CPython's
order after it: SET_IOR set_update_internal (set_merge; a dict's keys after one resize; any other
iterable's elements added in order), SET_IAND set_intersection_update (a new set, its body
swapped in), SET_ISUB set_difference_update_internal (its dummies resized away past a quarter
of the table), SET_IXOR set_symmetric_difference_update, SET_INTERSECT set_intersection,
SET_LT `<`, SET_POP set_pop with its finger (the set's fifth header word).

The operand t's form is named by the type constant: a set type, t is a set; a list type, t a
list of elements (CPython's path for an iterable that is no set or dict); a dict type, t the
list of a dict's keys in order (CPython's path for a dict).  An instruction that allocates
changes the set only once all of its allocations fitted (it works on a copy of the set's body,
then swaps it in), so that after MEMORY_LIMIT it runs again from the start on the same set.
Cost: as reference_dict_objects' (slots probed, elements hashed, entries moved), plus the words
of a body copied and each list element visited.
"""

from __future__ import annotations

from gpucc.contract import isa as O
from gpucc.contract import status as S
from gpucc.contract import typecodes as T
from gpucc.vm.kernel_heap import HEADER, REFS
from gpucc.vm.reference_dict_objects import DEAD, MIN_SIZE, S_FILL, S_FINGER, S_MASK, S_TABLE, S_USED, Dicts
from gpucc.vm.reference_hash import key_hash, key_type_ok
from gpucc.vm.reference_numeric import Stop

FORM_SET, FORM_ITER, FORM_DICT = range(3)


def operand_type(c: int) -> tuple[int, int]:
    """(form, element type) of an in-place instruction's type constant, checked."""
    if not (0 <= c < 1 << 4 * T.MAX_NIBBLES) or not T.width(c) or c >> 4 * T.width(c):
        raise Stop(S.INVALID_BYTECODE)
    head = T.head(c)
    if head not in (T.SET, T.LIST, T.DICT) or not T.width(T.element(c)):
        raise Stop(S.INVALID_BYTECODE)
    kt = T.element(c) & ((1 << 4 * T.width(T.element(c))) - 1)
    if not key_type_ok(kt):
        raise Stop(S.INVALID_BYTECODE)
    return (FORM_SET if head == T.SET else FORM_ITER if head == T.LIST else FORM_DICT), kt


def elements(dicts: Dicts, form: int, b: int, kt: int) -> list[tuple[int, int]]:
    """(hash, element) of operand b in its order: a set's table, a list's (each visited costs 1)."""
    if form == FORM_SET:
        return dicts.set_slots(b)
    xs = dicts.heap.slots(b)
    dicts.cost += len(xs)
    out = []
    for x in xs:
        hx, extra = key_hash(dicts.heap, x, kt)
        dicts.cost += extra
        out.append((hx, x))
    return out


def body_copy(dicts: Dicts, h: int) -> int:
    """A new set whose table is a word-for-word copy of set h's (its dummies, its order)."""
    w = dicts.heap.words
    sh, dt, mask = dicts.set_parts(h)
    table = dicts.heap.new(w[dt : dt + 2 * (mask + 1)], REFS)
    dicts.cost += mask + 1
    return dicts.heap.new([w[sh + S_USED], w[sh + S_FILL], mask, table, 0], REFS)


def adopt(dicts: Dicts, h: int, r: int) -> None:
    """set_swap_bodies: set h takes set r's table (h's finger stays)."""
    w = dicts.heap.words
    sh, _, _ = dicts.set_parts(h)
    rh, _, _ = dicts.set_parts(r)
    w[sh : sh + 4] = w[rh : rh + 4]


def clear(dicts: Dicts, h: int) -> None:
    """set_clear_internal: an empty table of MIN_SIZE slots (a new one unless h's is that size)."""
    w = dicts.heap.words
    sh, dt, mask = dicts.set_parts(h)
    if mask != MIN_SIZE - 1:
        dt = dicts.block(2 * MIN_SIZE, 0, REFS) + HEADER
        w[sh + S_TABLE], w[sh + S_MASK] = dt - HEADER, MIN_SIZE - 1
    for i in range(MIN_SIZE):
        w[dt + 2 * i], w[dt + 2 * i + 1] = DEAD, 0
    w[sh + S_USED] = w[sh + S_FILL] = 0


def intersection(dicts: Dicts, form: int, a: int, b: int, kt: int) -> int:
    """set_intersection: a new set of the elements of b (in b's order) that are in a."""
    if form == FORM_SET:
        return dicts.set_operator(O.SET_AND, a, b, kt)
    r = dicts.new_set()
    for hx, x in elements(dicts, form, b, kt):
        if dicts.set_find(a, x, hx, kt, False):
            dicts.set_find(r, x, hx, kt, True)
    return r


def in_place(dicts: Dicts, op: int, form: int, a: int, b: int, kt: int) -> None:
    """SET_IOR, SET_IAND, SET_ISUB or SET_IXOR: set a changed by operand b."""
    w = dicts.heap.words
    if op == O.SET_IAND:
        adopt(dicts, a, intersection(dicts, form, a, b, kt))
        return
    if form == FORM_SET and a == b:  # s |= s: nothing; s -= s, s ^= s: cleared
        if op != O.SET_IOR:
            clear(dicts, a)
        return
    if op == O.SET_ISUB:
        for hx, x in elements(dicts, form, b, kt):
            dicts.set_discard(a, x, hx, kt)
        sh, _, mask = dicts.set_parts(a)
        used = w[sh + S_USED]
        if w[sh + S_FILL] - used > mask // 4:
            dicts.set_resize(a, used * 2 if used > 50000 else used * 4)
        return
    if op == O.SET_IOR and form == FORM_SET and dicts.set_len(b) == 0:
        return
    if op == O.SET_IXOR and form == FORM_ITER:  # CPython's otherset: a new set of the iterable
        t = dicts.new_set()
        for hx, x in elements(dicts, form, b, kt):
            dicts.set_find(t, x, hx, kt, True)
        form, b = FORM_SET, t
    r = body_copy(dicts, a)  # before the operand is read, as the kernel: a bad operand fails with the copy made
    xs = elements(dicts, form, b, kt) if form != FORM_SET or op == O.SET_IXOR else []
    if op == O.SET_IOR and form == FORM_SET:
        dicts.set_merge(r, b, kt)
    elif op == O.SET_IOR:
        rh, _, mask = dicts.set_parts(r)
        if form == FORM_DICT and (w[rh + S_FILL] + len(xs)) * 5 >= mask * 3:  # one resize first
            dicts.set_resize(r, (w[rh + S_USED] + len(xs)) * 2)
        for hx, x in xs:
            dicts.set_find(r, x, hx, kt, True)
    else:
        for hx, x in xs:
            if not dicts.set_discard(r, x, hx, kt):
                dicts.set_find(r, x, hx, kt, True)
    adopt(dicts, a, r)


def pop(dicts: Dicts, h: int) -> int:
    """set_pop: the first live slot from the finger on (wrapping); KEY_ERROR when empty."""
    w = dicts.heap.words
    sh, dt, mask = dicts.set_parts(h)
    if w[sh + S_USED] == 0:
        raise Stop(S.KEY_ERROR)
    i = w[sh + S_FINGER] & mask
    for _ in range(mask + 1):
        if w[dt + 2 * i] != DEAD:
            break
        i = (i + 1) & mask
        dicts.cost += 1
    else:
        raise Stop(S.INVALID_BYTECODE)  # no live slot in a set whose size says otherwise
    x = w[dt + 2 * i + 1]
    w[dt + 2 * i], w[dt + 2 * i + 1] = DEAD, 1
    w[sh + S_USED] -= 1
    w[sh + S_FINGER] = i + 1
    dicts.cost += 1
    return x


def execute(job, op: int, c: int, dicts: Dicts) -> int:
    """Run in-place set instruction op (type constant c) on a vm.reference.Job; its extra cost."""
    if op == O.SET_POP:
        job.need(1, 1)
        job.push(pop(dicts, job.pop()))
        return dicts.cost
    job.need(2, 1)
    b, a = job.stack[job.sp - 1], job.stack[job.sp - 2]
    form, kt = operand_type(c)
    if op == O.SET_LT:
        if form != FORM_SET:
            raise Stop(S.INVALID_BYTECODE)
        job.sp -= 2
        job.push(int(dicts.set_len(a) < dicts.set_len(b) and dicts.set_subset(a, b, kt)))
    elif op == O.SET_INTERSECT:
        r = intersection(dicts, form, a, b, kt)
        job.sp -= 2
        job.push(r)
    elif op in (O.SET_IOR, O.SET_IAND, O.SET_ISUB, O.SET_IXOR):
        in_place(dicts, op, form, a, b, kt)
        job.sp -= 2
    else:
        raise Stop(S.INVALID_BYTECODE)
    return dicts.cost
