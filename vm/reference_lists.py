"""The list instructions in plain Python: the spec vm/kernel_lists.py must match bit for bit.

The heap is modelled word for word (vm/reference_heap.py: layout, allocation sizes, handle
checks and write order as vm/kernel_lists.py documents them), so MemoryError and bad handles
happen at the same points; what each instruction computes is written with Python's own list operations
(indexing, slicing, `min`, `max`, +, *) on the elements as Python ints and floats.
Sorting is the documented bottom-up merge sort (CPython's timsort agrees with it on every
list without nan; tests/vm/test_vm_lists.py checks that).  Strs compare as lists of code
points (Python's list order is CPython's str order), counting the code points compared
(vm/kernel_order.py).
"""

from __future__ import annotations

from gpucc.contract import isa as O
from gpucc.contract import status as S
from gpucc.contract.isa import CMP_EQ, CMP_NE, typed_cmp, typed_cmp_fields
from gpucc.contract.valuetypes import (
    T_FLOAT,
    T_INT,
    T_LIST_FLOAT,
    T_LIST_INT,
    T_LIST_STR,
    T_STR,
    float_to_bits,
)
from gpucc.vm.kernel_heap import HEADER, PLAIN, REFS
from gpucc.vm.reference_heap import Heap
from gpucc.vm.reference_numeric import Stop, int64, typed_compare


LIST_TYPES = (T_LIST_INT, T_LIST_FLOAT)
HEAP_TYPES = (T_LIST_INT, T_LIST_FLOAT, T_STR, T_LIST_STR)
STRS = 2  # the element kind of strs (LIST_MIN .. LIST_EQ)


def list_typed(arg: int) -> bool:
    """Whether a TYPED_CMP operand names a list or str type (then they compare in the heap)."""
    _, lt, rt = typed_cmp_fields(arg)
    return lt in HEAP_TYPES or rt in HEAP_TYPES


class StrKey:
    """A str element (handle h) whose comparisons add the code points they compare to cost[0]."""

    def __init__(self, heap: "Heap", h: int, cost: list[int]):
        self.h, self.points, self.cost = h, heap.slots(h), cost

    def __lt__(self, other: "StrKey") -> bool:
        self.cost[0] += compared(self.points, other.points)
        return self.points < other.points

    def __gt__(self, other: "StrKey") -> bool:
        return other < self


def compared(xs: list[int], ys: list[int]) -> int:
    """Code points a lexicographic comparison looks at: up to the first difference."""
    return next((k + 1 for k, (x, y) in enumerate(zip(xs, ys)) if x != y), min(len(xs), len(ys)))


def str_compare(heap: "Heap", a: int, b: int, equality: bool) -> tuple[int, int]:
    """(sign of a - b, code points compared) of strs a and b; equality: only whether they
    differ (unequal lengths compare none)."""
    xs, ys = heap.slots(a), heap.slots(b)
    if equality and len(xs) != len(ys):
        return 1, 0
    return (xs > ys) - (xs < ys), compared(xs, ys)


def merge_sort(xs: list) -> list:
    """Bottom-up stable merge sort by < only (an element goes before an earlier one only when
    it is strictly smaller): the kernel's algorithm, so nan lands where the kernel puts it."""
    src, n, width = list(xs), len(xs), 1
    while width < n:
        dst = []
        for lo in range(0, n, 2 * width):
            left, right = src[lo : lo + width], src[lo + width : lo + 2 * width]
            i = r = 0
            while i < len(left) or r < len(right):
                if r < len(right) and (i >= len(left) or right[r] < left[i]):
                    dst.append(right[r])
                    r += 1
                else:
                    dst.append(left[i])
                    i += 1
        src, width = dst, width * 2
    return src


def sort_cost(n: int) -> int:
    """n * ceil(log2 n): n elements moved by each merge pass."""
    return n * (n - 1).bit_length() if n > 1 else 0


def slots_of(values: list, is_float: bool) -> list[int]:
    return [float_to_bits(v) for v in values] if is_float else list(values)


def element_equal(heap: Heap, arg: int, x: int, y: int) -> tuple[bool, int]:
    """(x == y, code points compared) of elements compared by == of TYPED_CMP arg's types."""
    _, lt, rt = typed_cmp_fields(arg)
    if T_STR in (lt, rt):
        sign, cost = str_compare(heap, x, y, True)
        return sign == 0, cost
    return typed_compare(arg, x, y), 0


def list_equal(heap: Heap, a: int, b: int, etype_a: int, etype_b: int) -> tuple[bool, int]:
    """(a == b, element pairs compared + code points of str elements) with == of the element types."""
    xs, ys = heap.slots(a), heap.slots(b)
    if len(xs) != len(ys):
        return False, 0
    arg = typed_cmp(CMP_EQ, etype_a, etype_b)
    points = 0
    for k, (x, y) in enumerate(zip(xs, ys)):
        eq, cost = element_equal(heap, arg, x, y)
        points += cost
        if not eq:
            return False, k + 1 + points
    return True, len(xs) + points


def list_compare(heap: Heap, arg: int, a: int, b: int) -> tuple[bool, int]:
    """(a <cmp> b, cost) of ASSERT_CMP / COMPARE_NUM with list or str operands: the six
    comparisons of strs, == / != of two lists of numbers or of two list[str]."""
    cmp, lt, rt = typed_cmp_fields(arg)
    if lt == rt == T_STR:
        sign, cost = str_compare(heap, a, b, cmp in (CMP_EQ, CMP_NE))
        return typed_compare(typed_cmp(cmp, T_INT, T_INT), sign, 0), cost
    if cmp not in (CMP_EQ, CMP_NE) or not ({lt, rt} <= set(LIST_TYPES) or lt == rt == T_LIST_STR):
        raise Stop(S.INVALID_BYTECODE)
    elem = {T_LIST_INT: T_INT, T_LIST_FLOAT: T_FLOAT, T_LIST_STR: T_STR}
    eq, cost = list_equal(heap, a, b, elem[lt], elem[rt])
    return eq == (cmp == CMP_EQ), cost


def slice_of(xs: list, arg: int, start: int, stop: int, step: int) -> list:
    """xs[start:stop:step] with the parts whose arg bit (1, 2, 4) is clear as None."""
    given = lambda bit, v: v if arg & bit else None  # noqa: E731
    try:
        return xs[given(1, start) : given(2, stop) : given(4, step)]
    except ValueError:  # slice step cannot be zero
        raise Stop(S.VALUE_ERROR) from None


def execute(job, op: int, arg: int) -> int:
    """Run list instruction op on a vm.reference.Job (its stack, frame and heap); returns the
    instruction's extra cost (vm/kernel_lists.py)."""
    heap: Heap = job.heap
    is_float = arg == 1
    if op == O.FOR_LIST:
        s = job.slot(arg, 2)
        xs = heap.slots(job.stack[s])
        i = job.stack[s + 1]
        if 0 <= i < len(xs):
            job.push(xs[i])
            job.stack[s + 1] = i + 1
            job.next_pc += 1  # skip the JUMP out of the loop
        return 0
    if op == O.NEW_LIST:
        job.need(arg, 1)
        values = job.stack[job.sp - arg : job.sp]
        h = heap.new(values, REFS)
        job.sp -= arg
        job.push(h)
        return arg
    if op == O.LIST_CONTAINS:
        job.need(2, 1)
        h, x = job.pop(), job.pop()
        points = 0
        for k, e in enumerate(heap.slots(h)):
            eq, cost = element_equal(heap, arg, x, e)
            points += cost
            if eq:
                job.push(1)
                return k + 1 + points
        job.push(0)
        return len(heap.slots(h)) + points
    if op in (O.LIST_EQ, O.COMPARE_NUM):
        job.need(2, 1)
        b, a = job.pop(), job.pop()
        t = T_STR if arg == STRS else (T_FLOAT if is_float else T_INT)
        eq, cost = list_equal(heap, a, b, t, t) if op == O.LIST_EQ else list_compare(heap, arg, a, b)
        job.push(int(eq))
        return cost
    if op == O.LIST_GET:
        job.need(2, 1)
        i, h = job.pop(), job.pop()
        job.push(_item(heap.slots(h), i))
        return 0
    if op == O.LIST_SET:
        job.need(3)
        i, h, v = job.pop(), job.pop(), job.pop()
        d, n, _ = heap.header(h)
        _item(heap.slots(h), i)  # IndexError as for a read
        heap.words[d + (i + n if i < 0 else i)] = v
        return 0
    if op == O.LIST_APPEND:
        job.need(2)
        v, h = job.pop(), job.pop()
        return heap.append(h, v)
    if op == O.LIST_CONCAT:
        job.need(2, 1)
        b, a = job.pop(), job.pop()
        xs = heap.slots(a) + heap.slots(b)
        job.push(heap.new(xs, heap.kind(a, b)))
        return len(xs)
    if op == O.LIST_REPEAT:
        job.need(2, 1)
        times, h = job.pop(), job.pop()
        xs = heap.slots(h)
        if times > 0 and xs and times > heap.size // len(xs):
            raise Stop(S.MEMORY_LIMIT)  # the kernel's check before it multiplies
        out = xs * times
        job.push(heap.new(out, heap.kind(h)))
        return len(out)
    if op == O.LIST_SLICE:
        job.need(4, 1)
        step, stop, start, h = job.pop(), job.pop(), job.pop(), job.pop()
        out = slice_of(heap.slots(h), arg, start, stop, step)
        job.push(heap.new(out, heap.kind(h)))
        return len(out)
    job.need(1, 1)  # one list operand: LIST_LEN, SUM, MIN, MAX, SORTED, SORT
    h = job.pop()
    values = heap.values(h, is_float)
    n = len(values)
    if op == O.LIST_LEN:
        job.push(n)
        return 0
    if op == O.LIST_SUM:
        acc = 0.0 if is_float else 0
        for x in values:  # left to right; ints stop at the first partial sum past int64
            acc = acc + x if is_float else int64(acc + x)
        job.push(float_to_bits(acc) if is_float else acc)
        return n
    points = [0]  # code points compared by the StrKeys of str elements
    if op in (O.LIST_MIN, O.LIST_MAX):
        if not values:
            raise Stop(S.VALUE_ERROR)
        best = (min if op == O.LIST_MIN else max)(keys(heap, values, arg, points))
        job.push(best.h if arg == STRS else slots_of([best], is_float)[0])
        return n + points[0]
    if op == O.LIST_SORT:
        d, _, _ = heap.header(h)
        ordered = sort(heap, values, arg, points)
        heap.words[d : d + n] = ordered
        return sort_cost(n) + points[0]
    if op == O.LIST_SORTED:
        new = heap.new(heap.slots(h), heap.kind(h))
        ordered = sort(heap, values, arg, points)
        heap.words[new + HEADER : new + HEADER + n] = ordered
        job.push(new)
        return n + sort_cost(n) + points[0]
    raise Stop(S.INVALID_BYTECODE)


def keys(heap: Heap, values: list, kind: int, cost: list[int]) -> list:
    """The elements as they compare: StrKeys for strs (every handle checked first), else values."""
    return [StrKey(heap, h, cost) for h in values] if kind == STRS else values


def sort(heap: Heap, values: list, kind: int, cost: list[int]) -> list[int]:
    """The slots of `values` merge-sorted (str handles checked, then room for the merge buffer)."""
    elements = keys(heap, values, kind, cost)
    heap.scratch(len(values))  # the merge buffer
    ordered = merge_sort(elements)
    return [k.h for k in ordered] if kind == STRS else slots_of(ordered, kind == 1)


def _item(xs: list, i: int):
    """xs[i] (Python's negative indices); INDEX_ERROR out of range."""
    try:
        return xs[i]
    except IndexError:
        raise Stop(S.INDEX_ERROR) from None


def enter_arguments(heap: Heap, args, bits: int, pool) -> list[int]:
    """The job's argument slots: object arguments (bit k of bits) built from the pool into the
    heap (MEMORY_LIMIT if they do not fit)."""
    out = []
    for k, a in enumerate(args):
        if bits >> k & 1:
            a = pool_object(heap, pool, int(a))
        out.append(int(a))
    return out


def pool_object(heap: Heap, pool, o: int) -> int:
    """A new heap list of the pool object at offset o (contract/pool.py's layout), each nested
    object a new heap list of its own, built before its elements, depth first: an explicit
    stack of [handle, offsets of the elements (None: a slot value), next element]."""

    def new(o: int) -> tuple[int, list]:
        head = int(pool[o])
        if head >= 0:  # an empty list may get handles
            return heap.new([int(x) for x in pool[o + 1 : o + 1 + head]], PLAIN if head > 0 else REFS), []
        n, mask = (-1 - head) & 0xFFFFFFFF, (-1 - head) >> 32
        elements = [int(x) for x in pool[o + 1 : o + 1 + n]]
        h = heap.new([0] * n, REFS)
        is_object = [(mask == 0 or mask >> i & 1) and x != O.NONE_REF for i, x in enumerate(elements)]
        return h, [[h, elements, is_object, 0]]

    root, stack = new(o)
    while stack:
        top = stack[-1]
        h, elements, is_object, i = top
        if i == len(elements):
            stack.pop()
            continue
        top[3] = i + 1
        x = elements[i]
        if is_object[i]:
            x, opened = new(x)
            stack += opened
        heap.words[h + HEADER + i] = x
    return root
