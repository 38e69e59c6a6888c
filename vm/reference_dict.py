"""The dict and set instructions in plain Python: the spec vm/kernel_dict.py must match bit for
bit, on vm/reference_dict_objects.py's objects (its doc: layout, hashes, order, cost).  Each
instruction checks its type constant (a malformed one is INVALID_BYTECODE), pops its operands as
contract.isa's doc column says, and adds the cost its object operations counted.
"""

from __future__ import annotations

from gpucc.contract import isa as O
from gpucc.contract import status as S
from gpucc.contract import typecodes as T
from gpucc.vm import reference_set
from gpucc.vm.reference_dict_objects import D_USED, DEAD, S_USED, Dicts
from gpucc.vm.reference_hash import key_hash, key_type_ok
from gpucc.vm.kernel_heap import HEADER, REFS
from gpucc.vm.reference_heap import Heap
from gpucc.vm.reference_numeric import Stop
from gpucc.vm.reference_value import compare, constant, type_ok


def dict_type(c: int) -> tuple[int, int]:
    """(key type, value type) of a dict type constant, checked."""
    if T.head(c) not in (T.DICT, T.COUNTER, T.DEFAULTDICT) or not (0 <= c < 1 << 4 * T.MAX_NIBBLES) or c >> 4 * max(T.width(c), 1):
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


def dicts_equal(heap: Heap, dicts: Dicts, a: int, b: int, kt: int, vt: int) -> bool:
    """a == b of dicts: as many entries, each of a's keys in b with an equal value."""
    w = heap.words
    if w[dicts.dict_parts(a)[0] + D_USED] != w[dicts.dict_parts(b)[0] + D_USED]:
        return False
    for k, v in dicts.entries(a):
        e, _, _ = dicts.dict_lookup(b, k, kt)
        if e < 0:
            return False
        equal, visited = values_equal(heap, v, dicts.dict_value(b, e), vt)
        dicts.cost += visited
        if not equal:
            return False
    return True


def typed_dicts_equal(heap: Heap, dicts: Dicts, a: int, b: int, c: int) -> bool:
    """a == b of dicts of type constant c: of Counters, CPython 3.10's (a missing key counts 0)."""
    kt, vt = dict_type(c)
    if T.head(c) != T.COUNTER:
        return dicts_equal(heap, dicts, a, b, kt, vt)
    for x, y in ((a, b), (b, a)):
        for k, v in dicts.entries(x):
            e, _, _ = dicts.dict_lookup(y, k, kt)
            if v != (dicts.dict_value(y, e) if e >= 0 else 0):
                return False
    return True


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
        job.stack[s + 1] = pos | start << FOR_STATE_BITS | (given & FOR_FIELD) << 2 * FOR_STATE_BITS
        return
    if op != O.FOR_SET and given >= start - 1:
        raise Stop(S.RUNTIME_ERROR)  # keys changed during iteration
    if op == O.FOR_SET:
        v = w[dt + 2 * pos + 1]
    elif op == O.FOR_DICT_ITEMS:
        v = dicts.heap.new(w[de + 3 * pos + 1 : de + 3 * pos + 3], REFS)
    else:
        v = w[de + 3 * pos + (1 if op == O.FOR_DICT_KEYS else 2)]
    job.push(v)
    job.stack[s + 1] = (pos + 1) | start << FOR_STATE_BITS | ((given + 1) & FOR_FIELD) << 2 * FOR_STATE_BITS
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
        if n not in (4, 5):  # a dict's header, a set's
            raise Stop(S.INVALID_BYTECODE)
        job.push(job.heap.words[d])
        return 0
    if op == O.DICT_LIST:  # the list first, then (items) its tuples
        h = job.pop()
        if arg == 3:
            items = [x for _, x in dicts.set_slots(h)]
        else:
            items = dicts.entries(h)
        out = job.heap.new([0] * len(items), REFS)
        for i, item in enumerate(items):
            job.heap.words[out + HEADER + i] = item if arg == 3 else job.heap.new(list(item), REFS) if arg == 2 else item[arg]
        job.push(out)
        return dicts.cost + len(items)
    c = constant(job, arg)
    if op == O.ASSERT_KEYED:
        job.need(2, 0)
        a, b = job.stack[job.sp - 2], job.stack[job.sp - 1]
        if T.head(c) == T.SET:
            kt = set_type(c)
            equal = dicts.set_len(a) == dicts.set_len(b) and dicts.set_subset(a, b, kt)
        else:
            equal = typed_dicts_equal(job.heap, dicts, a, b, c)
        if not equal:
            job.cost += dicts.cost if job.counts else 0
            raise Stop(S.ASSERT_FAILED, a, b)  # the operands stay on the stack (the host replays)
        job.sp -= 2
        return dicts.cost
    if op >= O.SET_IOR:
        return reference_set.execute(job, op, c, dicts)
    if op >= O.NEW_SET:
        return set_instruction(job, op, set_type(c), dicts)
    kt, vt = dict_type(c)
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
        job.push(int(typed_dicts_equal(job.heap, dicts, a, b, c)))
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
