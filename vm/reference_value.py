"""The value instructions (tuples, Optional, values of any structured type) in plain Python: the
spec vm/kernel_value.py must match bit for bit.

Values and their packed types (contract/typecodes.py).  A slot of type None, int, bool or float
holds the scalar; a str, list or tuple a handle (a tuple is a list object whose length is its
arity); an Optional[T] NONE_REF for None, else a T's handle, or for a scalar T the handle of a
1-element box.  A type met in a constant must be well formed (`type_ok`: every nibble used, no
Optional[Optional[..]] or Optional[None], no dict or set yet) and a value must fit its type (a
valid handle, a tuple of its arity, a box of one element, no element of the unknown type of
`[]`): anything else is INVALID_BYTECODE, when the instruction meets it.

Comparing (VALUE_CMP, ASSERT_VALUE, VALUE_CONTAINS; the < of MIN / MAX / SORT).  CPython
compares sequences (strs, lists, tuples) by finding the first pair of elements that differ by
==, then comparing those (or the lengths when one is a prefix of the other).  `compare` walks
both values in that order, depth first, with an explicit stack of open sequences (no recursion,
as in the kernel), down to the first difference: a pair of numbers (int vs float exact, as
COMPARE_NUM; nan differs from itself: no identity shortcut), a None against a value, values of
different kinds (a number, a str, a list, a tuple: never equal, not ordered: TypeError), or two
sequences of different lengths whose common part is equal.  == / != report whether there is one
(sequences of different lengths differ at once, their elements unvisited); an ordering is the
comparison at that difference, or, without one, whether it allows equality.  An ordering whose
operand is None is a TypeError (None < None too); None elements equal to None are skipped
(`[None] < [None]` is False, as CPython's identity shortcut makes it).

Cost (added to the table cost): the element pairs and code-point pairs the walk visits, as for
lists: at each sequence, up to and including the first differing pair; none for == of
sequences of different lengths.  MIN / MAX: n plus their comparisons; SORT: n * ceil(log2 n)
(the merge passes) plus the comparisons; SORTED: n more (the copy); CONTAINS: the elements
compared plus their walks.  UNPACK_CHECK, BOX and UNBOX: the table cost.  A failing
instruction adds nothing, but for a failed ASSERT_VALUE (its comparison's walk).
"""

from __future__ import annotations

from collections import Counter, defaultdict, deque

from gpucc.contract import isa as O
from gpucc.contract import status as S
from gpucc.contract import typecodes as T
from gpucc.contract.isa import CMP_EQ, CMP_GE, CMP_LE, CMP_LT, CMP_NE, typed_cmp, typed_values, typed_values_fields
from gpucc.vm.kernel_heap import HEADER, PLAIN
from gpucc.vm.reference_dict_objects import Dicts
from gpucc.vm.reference_heap import Heap
from gpucc.vm.reference_lists import merge_sort, sort_cost
from gpucc.vm.reference_numeric import COMPARISONS, Stop, typed_compare, typed_value

NUMBERS = (T.INT, T.BOOL, T.FLOAT)
FACTORIES = {T.INT: int, T.BOOL: bool, T.FLOAT: float, T.STR: str, T.LIST: list, T.SET: set, T.DICT: dict}
SEQUENCES = (T.STR, T.LIST, T.TUPLE, T.DEQUE)  # a deque is laid out as a list
UNSUPPORTED = (T.DICT, T.COUNTER, T.DEFAULTDICT, T.SET)  # the next issue's


def type_ok(t: int) -> bool:
    """Whether packed type t is one the value instructions take (see the module doc)."""
    if not 0 <= t < 1 << 4 * T.MAX_NIBBLES:
        return False
    n = T.width(t)
    if n == 0 or t >> 4 * n:
        return False
    nibbles = [(t >> 4 * i) & 15 for i in range(n)]
    i = 0
    while i < n:
        k = nibbles[i]
        if k in UNSUPPORTED or (k == T.OPTIONAL and nibbles[i + 1] in (T.OPTIONAL, T.NONE)):
            return False
        i += 2 if k == T.TUPLE else 1  # a tuple's arity nibble is no type
    return True


def settled(heap: Heap, x: int, t: int) -> tuple[int, int]:
    """(value, type) of slot x of type t with an Optional resolved: None, or the value inside."""
    if T.head(t) != T.OPTIONAL:
        return x, t
    inner = T.element(t)
    if x == O.NONE_REF:
        return 0, T.NONE
    if T.is_heap(inner):
        return x, inner
    box = heap.slots(x)
    if len(box) != 1:
        raise Stop(S.INVALID_BYTECODE)
    return box[0], inner


def elements(heap: Heap, x: int, t: int) -> list[int]:
    """The elements of sequence x of type t (a tuple must have its arity)."""
    xs = heap.slots(x)
    if T.head(t) == T.TUPLE and len(xs) != T.arity(t):
        raise Stop(S.INVALID_BYTECODE)
    return xs


def element_type(t: int, k: int) -> int:
    """The type of element k of a sequence of type t (a str's code points compare as ints)."""
    h = T.head(t)
    return T.INT if h == T.STR else (T.field(t, k) if h == T.TUPLE else T.element(t))


def kind(t: int) -> int:
    """What a value of (settled) type t compares as: None, a number, or its sequence head."""
    h = T.head(t)
    if h in NUMBERS:
        return T.INT
    if h == T.NONE or h in SEQUENCES:
        return h
    raise Stop(S.INVALID_BYTECODE)  # the unknown type of `[]`'s elements


class Open:
    """A pair of sequences being walked: their elements, types and the next index."""

    def __init__(self, xs: list[int], tx: int, ys: list[int], ty: int):
        self.xs, self.tx, self.ys, self.ty, self.k = xs, tx, ys, ty, 0


def compare(heap: Heap, cmp: int, a: int, ta: int, b: int, tb: int) -> tuple[bool, int]:
    """(a <cmp> b, pairs visited) of values of well-formed types ta, tb (see the module doc)."""
    equality = cmp in (CMP_EQ, CMP_NE)
    walk: list[Open] = []
    visited = 0
    x, tx, y, ty = a, ta, b, tb
    while True:
        x, tx = settled(heap, x, tx)
        y, ty = settled(heap, y, ty)
        kx, ky = kind(tx), kind(ty)
        if not equality and not walk and T.NONE in (kx, ky):
            raise Stop(S.TYPE_ERROR)  # an ordering of None
        if kx != ky:
            if equality:
                return cmp == CMP_NE, visited
            raise Stop(S.TYPE_ERROR)  # a number, str, list, tuple or None against another kind
        if kx == T.INT and not typed_compare(typed_cmp(CMP_EQ, tx, ty), x, y):
            return typed_compare(typed_cmp(cmp, tx, ty), x, y), visited
        if kx in SEQUENCES:
            xs, ys = elements(heap, x, tx), elements(heap, y, ty)
            if equality and len(xs) != len(ys):
                return cmp == CMP_NE, visited
            walk.append(Open(xs, tx, ys, ty))
        while walk and walk[-1].k >= min(len(walk[-1].xs), len(walk[-1].ys)):  # close the walked ones
            done = walk.pop()
            if len(done.xs) != len(done.ys):
                return COMPARISONS[cmp](len(done.xs), len(done.ys)), visited
        if not walk:
            return cmp in (CMP_EQ, CMP_LE, CMP_GE), visited
        top = walk[-1]
        x, tx, y, ty = top.xs[top.k], element_type(top.tx, top.k), top.ys[top.k], element_type(top.ty, top.k)
        top.k += 1
        visited += 1


class Key:
    """An element of a list being sorted (or min / max'd): < is VALUE_CMP's, counting into cost[0]."""

    def __init__(self, heap: Heap, h: int, t: int, cost: list[int]):
        self.heap, self.h, self.t, self.cost = heap, h, t, cost

    def __lt__(self, other: "Key") -> bool:
        less, visited = compare(self.heap, CMP_LT, self.h, self.t, other.h, other.t)
        self.cost[0] += visited
        return less


def constant(job, arg: int) -> int:
    """consts[arg] of the running unit."""
    u = job.unit
    lo, hi = int(job.image.unit_const_start[u]), int(job.image.unit_const_start[u + 1])
    if not 0 <= arg < hi - lo:
        raise Stop(S.INVALID_BYTECODE)
    return int(job.image.consts[lo + arg])


def comparison(c: int) -> tuple[int, int, int]:
    """(cmp, ltype, rtype) of a typed_values constant, checked (no bit outside its fields)."""
    cmp, lt, rt = typed_values_fields(c)
    if cmp > CMP_GE or not (type_ok(lt) and type_ok(rt)) or typed_values(cmp, lt, rt) != c:
        raise Stop(S.INVALID_BYTECODE)
    return cmp, lt, rt


def element_type_of(c: int) -> int:
    """The element type a MIN / MAX / SORT / SORTED constant names, checked."""
    if not type_ok(c):
        raise Stop(S.INVALID_BYTECODE)
    return c


def execute(job, op: int, arg: int) -> int:
    """Run value instruction op on a vm.reference.Job; returns its extra cost."""
    heap: Heap = job.heap
    if op in (O.VALUE_CMP, O.ASSERT_VALUE):
        job.need(2, 1)
        cmp, lt, rt = comparison(constant(job, arg))
        a, b = job.stack[job.sp - 2], job.stack[job.sp - 1]
        holds, visited = compare(heap, cmp, a, lt, b, rt)
        if op == O.ASSERT_VALUE and not holds:
            job.cost += visited if job.counts else 0
            raise Stop(S.ASSERT_FAILED, a, b)  # the operands stay on the stack (the host replays)
        job.sp -= 2
        if op == O.VALUE_CMP:
            job.push(int(holds))
        return visited
    if op == O.VALUE_CONTAINS:
        job.need(2, 1)
        cmp, tx, ts = comparison(constant(job, arg))
        if cmp != CMP_EQ or T.head(ts) not in (T.LIST, T.TUPLE, T.DEQUE):
            raise Stop(S.INVALID_BYTECODE)
        h, x = job.pop(), job.pop()
        cost = 0
        found = False
        for k, e in enumerate(elements(heap, h, ts)):
            found, visited = compare(heap, CMP_EQ, x, tx, e, element_type(ts, k))
            cost += 1 + visited
            if found:
                break
        job.push(int(found))
        return cost
    if op == O.UNPACK_CHECK:
        job.need(1, 1)
        if len(heap.slots(job.stack[job.sp - 1])) != arg:
            raise Stop(S.VALUE_ERROR)
        return 0
    if op == O.BOX:
        job.push(heap.new([job.pop()], PLAIN))
        return 0
    if op == O.UNBOX:
        v = job.pop()
        if v == O.NONE_REF:
            raise Stop(S.TYPE_ERROR)
        if arg == 1:
            box = heap.slots(v)
            if len(box) != 1:
                raise Stop(S.INVALID_BYTECODE)
            v = box[0]
        job.push(v)
        return 0
    # one list operand, its element type a constant: MIN, MAX, SORTED, SORT
    job.need(1, 1)
    t = element_type_of(constant(job, arg))
    h = job.pop()
    d, n, _ = heap.header(h)
    cost = [0]
    items = [Key(heap, e, t, cost) for e in heap.slots(h)]
    if op in (O.VALUE_MIN, O.VALUE_MAX):
        if not items:
            raise Stop(S.VALUE_ERROR)
        best = items[0]
        for item in items[1:]:  # the first extreme, as CPython's min / max
            if (item < best) if op == O.VALUE_MIN else (best < item):
                best = item
        job.push(best.h)
        return n + cost[0]
    if op == O.VALUE_SORTED:
        h = heap.new(heap.slots(h), heap.kind(h))
        d = h + HEADER
    heap.scratch(n)  # the merge buffer
    heap.words[d : d + n] = [k.h for k in merge_sort(items)]
    if op == O.VALUE_SORTED:
        job.push(h)
        return n + sort_cost(n) + cost[0]
    if op == O.VALUE_SORT:
        return sort_cost(n) + cost[0]
    raise Stop(S.INVALID_BYTECODE)


class ShownSet(set):
    """A set read from the heap: == as a set, repr in the VM's iteration order (CPython's for
    sets of numbers: its table's order), as CPython's repr shows a set."""

    def __init__(self, items):
        items = list(items)
        super().__init__(items)
        self.order = items

    def __repr__(self) -> str:
        return "{" + ", ".join(map(repr, self.order)) + "}" if self.order else "set()"


def python_value(heap: Heap, v: int, t: int):
    """The Python value slot v of packed type t holds, its heap parts read from `heap` (the
    host's reader of a replayed job: recursive, bounded by the type's nibbles)."""
    h = T.head(t)
    if h == T.OPTIONAL:
        return None if v == O.NONE_REF else python_value(heap, *settled(heap, v, t))
    if h == T.NONE:
        return None
    if h == T.BOOL:
        return v != 0
    if h in NUMBERS:
        return typed_value(v, h)
    if h in (T.DICT, T.COUNTER, T.DEFAULTDICT):
        kt = T.element(t) & ((1 << 4 * T.width(T.element(t))) - 1)
        d = {python_value(heap, k, kt): python_value(heap, x, T.value_of(t)) for k, x in Dicts(heap).entries(v)}
        if h == T.DEFAULTDICT:  # its factory is its value type's (compiler/typecheck_defaultdict.py)
            return defaultdict(FACTORIES[T.head(T.value_of(t))], d)
        return d if h == T.DICT else Counter(d)  # its repr: most common first, as CPython's
    if h == T.SET:
        return ShownSet(python_value(heap, x, T.element(t)) for _, x in Dicts(heap).set_slots(v))
    if h not in SEQUENCES:
        raise ValueError(f"no Python value of type {T.name(t)}")
    items = elements(heap, v, t)
    if h == T.STR:
        return "".join(map(chr, items))
    values = [python_value(heap, x, element_type(t, k)) for k, x in enumerate(items)]
    if h == T.DEQUE:
        return deque(values)  # its repr: deque([1, 2]), as CPython's
    return tuple(values) if h == T.TUPLE else values
