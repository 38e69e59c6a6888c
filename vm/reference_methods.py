"""The list methods beyond append / sort (LIST_CLEAR .. LIST_REVERSE, VALUE_INDEX / COUNT /
REMOVE) and STR_RADIX in plain Python: the spec vm/kernel_list_methods.py must match bit for
bit (its doc: growth, zeroed slots, cost).  What each computes is Python's own list method on
the slots, or Python's bin / oct / hex.
"""

from __future__ import annotations

import math

from gpucc.contract import isa as O
from gpucc.contract import status as S
from gpucc.contract import typecodes as T
from gpucc.contract.isa import CMP_EQ
from gpucc.contract.valuetypes import bits_to_float, float_to_bits
from gpucc.vm.bigdecimal import DEC_WORDS
from gpucc.vm.kernel_round import NDIGITS_MAX, NDIGITS_MIN
from gpucc.vm.kernel_heap import PLAIN
from gpucc.vm.reference_heap import Heap
from gpucc.vm.reference_numeric import Stop
from gpucc.vm.reference_value import compare, comparison, constant, element_type

RADIX = {2: bin, 8: oct, 16: hex}


def store(heap: Heap, h: int, xs: list[int], old_n: int) -> None:
    """List h now holds xs (its capacity suffices); the slots it gave up zeroed."""
    d, _, _ = heap.header(h)
    heap.words[d : d + max(len(xs), old_n)] = xs + [0] * (old_n - len(xs))
    heap.words[h] = len(xs)


def list_method(job, op: int) -> int:
    """Run LIST_CLEAR, EXTEND, POP, INSERT or REVERSE on a vm.reference.Job; its extra cost."""
    heap: Heap = job.heap
    pops = O.TABLE[op].pops
    job.need(pops, O.TABLE[op].pushes)
    h, *args = job.stack[job.sp - pops : job.sp]
    job.sp -= pops
    xs = heap.slots(h)
    n = len(xs)
    if op == O.LIST_EXTEND:
        ys = heap.slots(args[0])
        copied = heap.grow(h, n + len(ys))
        store(heap, h, xs + ys, n)
        return len(ys) + copied
    if op == O.LIST_POP:
        i = args[0]
        try:
            v = xs.pop(i)
        except IndexError:
            raise Stop(S.INDEX_ERROR) from None
        store(heap, h, xs, n)
        job.push(v)
        return n - 1 - (i + n if i < 0 else i)
    if op == O.LIST_INSERT:
        i, v = args
        at = max(i + n, 0) if i < 0 else min(i, n)
        copied = heap.grow(h, n + 1)
        xs.insert(i, v)
        store(heap, h, xs, n)
        return n - at + copied
    if op == O.LIST_CLEAR:
        store(heap, h, [], n)
        return n
    if op == O.LIST_REVERSE:
        store(heap, h, xs[::-1], n)
        return n
    raise Stop(S.INVALID_BYTECODE)


def serves(op: int) -> bool:
    """Whether op is one of this module's instructions."""
    return (O.LIST_CLEAR <= op <= O.LIST_SET_SLICE or op == O.STR_RADIX or op == O.FLOAT_ROUND
            or O.VALUE_INDEX <= op <= O.VALUE_REMOVE)


def execute(job, op: int, arg: int) -> int:
    """Run one of this module's instructions on a vm.reference.Job; its extra cost."""
    if op == O.STR_RADIX:
        return radix(job, arg)
    if op == O.FLOAT_ROUND:
        return float_round(job)
    if op >= O.VALUE_INDEX:
        cmp, tx, ts = comparison(constant(job, arg))
        if cmp != CMP_EQ or T.head(ts) not in (T.LIST, T.DEQUE):
            raise Stop(S.INVALID_BYTECODE)
        return list_find(job, op, tx, ts)
    if op == O.LIST_SET_SLICE:
        return set_slice(job, arg)
    return list_method(job, op)


def set_slice(job, arg: int) -> int:
    """Run LIST_SET_SLICE: Python's xs[start:stop:step] = ys on the slots; its extra cost."""
    heap: Heap = job.heap
    job.need(5)
    ys, h, start, stop, step = job.stack[job.sp - 5 : job.sp]
    job.sp -= 5
    xs = heap.slots(h)
    values = heap.slots(ys)
    n, m = len(xs), len(values)
    part = slice(*(v if arg & bit else None for bit, v in ((1, start), (2, stop), (4, step))))
    try:
        first, _, stride = part.indices(n)
        count = len(range(*part.indices(n)))
    except ValueError:  # slice step cannot be zero
        raise Stop(S.VALUE_ERROR) from None
    extended = arg & 4 and step != 1
    if extended and m != count:
        raise Stop(S.VALUE_ERROR)
    if ys == h:  # the kernel's copy of xs first
        heap.new(values, heap.kind(h))
    xs[part] = values
    if extended:
        store(heap, h, xs, n)
        return m
    copied = heap.grow(h, len(xs))
    store(heap, h, xs, n)
    return m + (n - first - count) + copied


def list_find(job, op: int, tx: int, ts: int) -> int:
    """Run VALUE_INDEX, COUNT or REMOVE (x of type tx in list xs of type ts); its extra cost."""
    heap: Heap = job.heap
    job.need(2, 1)
    x, h = job.pop(), job.pop()
    xs = heap.slots(h)
    cost, hits = 0, []
    for k, e in enumerate(xs):
        eq, visited = compare(heap, CMP_EQ, x, tx, e, element_type(ts, k))
        cost += 1 + visited
        if eq:
            hits.append(k)
            if op != O.VALUE_COUNT:
                break
    if op == O.VALUE_COUNT:
        job.push(len(hits))
        return cost
    if not hits:
        raise Stop(S.VALUE_ERROR)
    if op == O.VALUE_INDEX:
        job.push(hits[0])
        return cost
    del xs[hits[0]]  # VALUE_REMOVE
    store(heap, h, xs, len(xs) + 1)
    return cost + len(xs) - hits[0]


def float_round(job) -> int:
    """Run FLOAT_ROUND: Python's round(x, n) (vm/kernel_round.py: when it needs its scratch)."""
    job.need(2, 1)
    n, x = job.pop(), bits_to_float(job.pop())
    if math.isfinite(x) and x != 0 and NDIGITS_MIN <= n <= NDIGITS_MAX:
        job.heap.scratch(DEC_WORDS)
    try:
        job.push(float_to_bits(round(x, n)))
    except OverflowError:
        raise Stop(S.OVERFLOW_ERROR) from None
    return 0


def radix(job, arg: int) -> int:
    """Run STR_RADIX: bin / oct / hex of the int on top as a new str; its extra cost."""
    if arg not in RADIX:
        raise Stop(S.INVALID_BYTECODE)
    text = RADIX[arg](job.pop())
    job.push(job.heap.new([ord(c) for c in text], PLAIN))
    return len(text)
