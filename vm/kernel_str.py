"""The VM kernel's str instructions (a part of vm/kernel.py's body, like vm/kernel_lists.py):
every instruction from LOAD_STR on, on strs in the job's heap (vm/kernel_heap.py: a str is a
list of code points, a list[str] a list of str handles).  Case mappings and character
properties come from vm/unicode.py, int / float conversions from vm/strconv.py.

Same one-source rules as run_job (plain Python, numba CPU, CUDA; no allocation, no raising).

Operands.  Every str operand (each element of STR_JOIN's list too) must be a valid handle
whose code points lie in 0 .. 0x10FFFF (`text`); STR_GET and STR_ORD only need the handle.
An optional str operand may instead be NO_ARG.  Anything else is INVALID_BYTECODE, found
before any other error.  Every result is a new str (or list[str]), even one equal to an
operand; STR_SPLIT allocates its list first, then its parts in the order it finds them
(rsplit: from the right).  STR_FROM of an int or bool allocates the new str only (its length
counted first, its digits written into it); of a float it writes the digits into a RAW block of
24 + strconv.FLOAT_REPR_SCRATCH words (its scratch), then allocates the new str, then releases
the RAW block (releasing sends the allocator's next fit back to it: vm/kernel_heap.py); float(s) takes a RAW block of
strconv.PARSE_FLOAT_SCRATCH words for its scratch (vm/kernel_heap.py; MEMORY_LIMIT when one does
not fit).  Strs are PLAIN blocks, STR_SPLIT's list a REFS block.

Cost (added to the table cost): the code points of the result for the instructions that
build a str (LOAD_STR, STR_GET 0, STR_CHR, STR_CASE, STR_STRIP, STR_JOIN, STR_REPLACE,
STR_PAD, STR_FROM), STR_SPLIT: the code points of its parts plus the parts; searches: the
code points of s they pass over: STR_CONTAINS, find, index: up to the end of the match (n
when absent); rfind, rindex: from its start to the end (n when absent); count: n;
startswith / endswith: len(prefix) (0 when it is longer than s); STR_IS and STR_TO_NUM: n;
STR_ORD and STR_GET 1 (ord(s[i])): 0.  A failing instruction adds nothing.
"""

from __future__ import annotations

import numpy as np

from gpucc.contract.isa import (
    FLOAT_ROUND,
    LOAD_STR,
    NO_ARG,
    POPS,
    STR_CASE,
    STR_CHR,
    STR_CONTAINS,
    STR_FIND,
    STR_FROM,
    STR_GET,
    STR_IS,
    STR_JOIN,
    STR_ORD,
    STR_PAD,
    STR_RADIX,
    STR_SPLIT,
    STR_STRIP,
    STR_TO_NUM,
)  # fmt: skip
from gpucc.contract.jitable import nrt_free
from gpucc.contract.status import INDEX_ERROR, INVALID_BYTECODE, MEMORY_LIMIT, OK, OVERFLOW_ERROR, TYPE_ERROR, VALUE_ERROR
from gpucc.contract.valuetypes import T_FLOAT
from gpucc.vm.kernel_heap import HEADER, PLAIN, RAW, REFS, alloc, copy, header, new_list, release
from gpucc.vm.kernel_list_methods import radix_text
from gpucc.vm.kernel_round import float_round
from gpucc.vm.kernel_text import case_op, is_op, is_space, parse_number, repr_length, repr_room, repr_value

MAX_CODE_POINT = 0x10FFFF
# STR_FIND modes
FIND, RFIND, INDEX, RINDEX, COUNT, STARTSWITH, ENDSWITH = range(7)


@nrt_free
def text(heap, hp, h):
    """(d, n) of str h; d == -1 unless h is a valid handle whose code points are all Unicode's."""
    d, n, _ = header(heap, hp, h)
    for k in range(n):
        c = heap[d + k]
        if c < 0 or c > MAX_CODE_POINT:
            return np.int64(-1), np.int64(0)
    return d, n


@nrt_free
def new_str(heap, hp, src, n):
    """(handle or -1, hp) of a new str holding heap[src .. src + n)."""
    h, hp = new_list(heap, hp, n, PLAIN)
    if h >= 0:
        copy(heap, src, h + HEADER, n)
    return h, hp


@nrt_free
def matches(heap, d, i, ds, m):
    """Whether heap[d + i .. d + i + m) equals heap[ds .. ds + m)."""
    for k in range(m):
        if heap[d + i + k] != heap[ds + k]:
            return False
    return True


@nrt_free
def find(heap, d, lo, hi, ds, m, reverse):
    """The first (reverse: last) i in [lo, hi - m] where the m code points at ds occur in the
    str data at d; -1 if none."""
    for t in range(hi - m - lo + 1):
        i = hi - m - t if reverse else lo + t
        if matches(heap, d, i, ds, m):
            return i
    return np.int64(-1)


@nrt_free
def search(mode, heap, d, n, ds, m):
    """(status, result, cost) of STR_FIND `mode` (STR_CONTAINS: FIND) of sub (ds, m) in s (d, n)."""
    if mode == STARTSWITH or mode == ENDSWITH:
        if m > n:
            return OK, np.int64(0), np.int64(0)
        return OK, np.int64(matches(heap, d, 0 if mode == STARTSWITH else n - m, ds, m)), m
    if mode == COUNT:
        found = np.int64(0)
        i = np.int64(0)
        while i <= n - m:
            j = find(heap, d, i, n, ds, m, False)
            if j < 0:
                break
            found += 1
            i = j + (m if m > 0 else 1)
        return OK, found, n
    reverse = mode == RFIND or mode == RINDEX
    i = find(heap, d, 0, n, ds, m, reverse)
    if i < 0:
        return (VALUE_ERROR if mode == INDEX or mode == RINDEX else OK), i, n
    return OK, i, (n - i if reverse else i + m)


@nrt_free
def trim(heap, d, lo, hi, from_right, dc, nc):
    """[lo, hi) of the str data at d without the run at its left (from_right: right) end of code
    points in heap[dc .. dc + nc), or of whitespace when dc < 0."""
    while lo < hi:
        c = heap[d + (hi - 1 if from_right else lo)]
        if dc < 0:
            if not is_space(c):
                break
        elif find(heap, dc, 0, nc, d + (hi - 1 if from_right else lo), 1, False) < 0:
            break
        if from_right:
            hi -= 1
        else:
            lo += 1
    return lo, hi


@nrt_free
def word(heap, d, lo, hi, from_right):
    """[a, b): the run of non-whitespace at the left (from_right: right) end of [lo, hi)."""
    a = lo
    b = hi
    if from_right:
        a = hi - 1
        while a > lo and not is_space(heap[d + a - 1]):
            a -= 1
    else:
        b = lo + 1
        while b < hi and not is_space(heap[d + b]):
            b += 1
    return a, b


@nrt_free
def split(heap, hp, d, n, ds, m, maxsplit, reverse, out, total):
    """CPython's split (reverse: rsplit) of the str (d, n) at sep (ds, m; ds < 0: at runs of
    whitespace), at most maxsplit splits (< 0: all): (status, parts, hp, their code points).
    out < 0: only count; else allocate each part as it is found and store its handle at
    heap[out + k], k its place from the left among `total` parts."""
    parts = np.int64(0)
    points = np.int64(0)
    left = maxsplit if maxsplit >= 0 else n + 1  # more splits than there can be
    lo = np.int64(0)  # the rest, not yet split: [lo, hi)
    hi = n
    while left > 0:
        if ds >= 0:  # the part up to the next sep from the scanning end
            k = find(heap, d, lo, hi, ds, m, reverse)
            if k < 0:
                break
            a, b = (k + m, hi) if reverse else (lo, k)
            lo, hi = (lo, k) if reverse else (k + m, hi)
        else:  # the next run of non-whitespace
            lo, hi = trim(heap, d, lo, hi, reverse, np.int64(-1), np.int64(0))
            if lo == hi:
                break
            a, b = word(heap, d, lo, hi, reverse)
            lo, hi = (lo, a) if reverse else (b, hi)
        st, hp = _part(heap, hp, d, a, b, out, total - 1 - parts if reverse else parts)
        if st != OK:
            return st, parts, hp, points
        parts += 1
        points += b - a
        left -= 1
    if ds < 0:  # the rest after maxsplit splits, without the whitespace next to the last part
        lo, hi = trim(heap, d, lo, hi, reverse, np.int64(-1), np.int64(0))
        if lo == hi:
            return OK, parts, hp, points
    st, hp = _part(heap, hp, d, lo, hi, out, total - 1 - parts if reverse else parts)
    return st, parts + 1, hp, points + hi - lo


@nrt_free
def _part(heap, hp, d, lo, hi, out, k):
    """Allocate part [lo, hi) of the str at d as list element heap[out + k] (out < 0: count only)."""
    if out < 0:
        return OK, hp
    h, hp = new_str(heap, hp, d + lo, hi - lo)
    if h < 0:
        return MEMORY_LIMIT, hp
    heap[out + k] = h
    return OK, hp


@nrt_free
def replace(heap, d, n, do, m, dn, mn, count, out):
    """s.replace(old, new, count) of s (d, n), old (do, m), new (dn, mn): its length; written
    to heap[out ..] unless out < 0."""
    left = count if count >= 0 else n + 1
    length = np.int64(0)
    i = np.int64(0)  # copied up to here
    while left > 0 and i <= n:
        k = find(heap, d, i, n, do, m, False) if m > 0 else i
        if k < 0:
            break
        if out >= 0:
            copy(heap, d + i, out + length, k - i)
            copy(heap, dn, out + length + k - i, mn)
        length += k - i + mn
        left -= 1
        if m == 0:  # insert before each code point and at the end
            if k < n and out >= 0:
                heap[out + length] = heap[d + k]
            length += 1 if k < n else 0
            i = k + 1
        else:
            i = k + m
    if i < n:
        if out >= 0:
            copy(heap, d + i, out + length, n - i)
        length += n - i
    return length


@nrt_free
def pad(mode, heap, d, n, width, fill, out):
    """Write s (d, n) padded to `width` with code point `fill` to heap[out ..]: mode 0 zfill,
    1 center, 2 ljust, 3 rjust (width > n)."""
    marg = width - n
    left = marg if mode == 3 or mode == 0 else (marg // 2 + (marg & width & 1) if mode == 1 else 0)
    for k in range(width):
        heap[out + k] = fill
    copy(heap, d, out + left, n)
    if mode == 0 and marg > 0 and n > 0 and (heap[d] == 43 or heap[d] == 45):  # '+' / '-' goes before the zeros
        heap[out] = heap[d]
        heap[out + marg] = 48


@nrt_free
def str_op(op, arg, stack, sp, heap, hp, consts, const_base):
    """Run str instruction op on the stack whose top is at sp - 1 (consts[const_base ..]: the
    running unit's constants); returns (status, sp, hp, extra cost, pc advance: 1) as list_op.
    The short, frequent ones (LOAD_STR, s[i], ord, the searches) here: this function's prologue is
    short, while str_rest's saves registers and zeroes dozens of call slots on every call (RESULTS,
    session 27)."""
    zero = np.int64(0)
    if op == LOAD_STR:
        at = const_base + arg
        h, hp = new_list(heap, hp, consts[at], PLAIN)
        if h < 0:
            return MEMORY_LIMIT, sp, hp, zero, 1
        for k in range(consts[at]):
            heap[h + HEADER + k] = consts[at + 1 + k]
        stack[sp] = h
        return OK, sp + 1, hp, consts[at], 1
    if op == STR_CONTAINS or op == STR_FIND:  # a in b, find, count, startswith, ...: nothing allocated
        base = sp - 2
        d, n = text(heap, hp, stack[base])
        d2, m = text(heap, hp, stack[base + 1])
        if d < 0 or d2 < 0:
            return INVALID_BYTECODE, sp, hp, zero, 1
        if op == STR_CONTAINS:  # find a in b
            st, r, extra = search(FIND, heap, d2, m, d, n)
            r = np.int64(r >= 0)
        else:
            st, r, extra = search(arg, heap, d, n, d2, m)
        if st != OK:
            return st, sp, hp, zero, 1
        stack[base] = r
        return OK, base + 1, hp, extra, 1
    if op != STR_GET and op != STR_ORD:
        return str_rest(op, arg, stack, sp, heap, hp, consts, const_base)
    base = sp - POPS[op]
    d, n, _ = header(heap, hp, stack[base])
    if d < 0:
        return INVALID_BYTECODE, sp, hp, zero, 1
    if op == STR_ORD:
        if n != 1:
            return TYPE_ERROR, sp, hp, zero, 1
        stack[base] = heap[d]
        return OK, base + 1, hp, zero, 1
    i = stack[base + 1]
    i = i + n if i < 0 else i
    if i < 0 or i >= n:
        return INDEX_ERROR, sp, hp, zero, 1
    if arg != 0:  # ord(s[i]): the code point, no str made
        stack[base] = heap[d + i]
        return OK, base + 1, hp, zero, 1
    r, hp = new_list(heap, hp, np.int64(1), PLAIN)  # not new_str: one call fewer (s[i] is common)
    if r < 0:
        return MEMORY_LIMIT, sp, hp, zero, 1
    heap[r + HEADER] = heap[d + i]
    stack[base] = r
    return OK, base + 1, hp, np.int64(1), 1


@nrt_free
def str_rest(op, arg, stack, sp, heap, hp, consts, const_base):
    """str_op's other instructions (as str_op)."""
    zero = np.int64(0)
    if op == STR_RADIX:  # bin / oct / hex: vm/kernel_list_methods.py
        st, sp, hp, extra = radix_text(arg, stack, sp, heap, hp)
        return st, sp, hp, extra, 1
    if op == FLOAT_ROUND:  # round(x, n): vm/kernel_round.py (its scratch: the free heap)
        st, sp, hp, extra = float_round(stack, sp, heap, hp)
        return st, sp, hp, extra, 1
    base = sp - POPS[op]  # the operands are stack[base .. sp), the result goes to stack[base]
    r = zero  # the result: a new str's handle (-1: it did not fit), or a value
    value = op == STR_IS or op == STR_TO_NUM
    extra = zero
    if op == STR_CHR:
        c = stack[base]
        if c < -(2**31) or c >= 2**31:  # CPython: past a C int
            return OVERFLOW_ERROR, sp, hp, zero, 1
        if c < 0 or c > MAX_CODE_POINT:
            return VALUE_ERROR, sp, hp, zero, 1
        r, hp = new_list(heap, hp, np.int64(1), PLAIN)
        if r >= 0:
            heap[r + HEADER] = c
        extra = np.int64(1)
    elif op == STR_FROM and arg == T_FLOAT:  # its digits need scratch: a RAW block, released after
        tmp, hp = alloc(heap, hp, repr_room(arg), RAW)
        if tmp < 0:
            return MEMORY_LIMIT, sp, hp, zero, 1
        n = repr_value(stack[base], arg, heap, tmp)
        r, hp = new_str(heap, hp, tmp, n)
        hp = release(heap, hp, tmp)
        extra = n
    elif op == STR_FROM:  # an int or bool: its length first, its digits written in place (no RAW
        n = repr_length(stack[base], arg)  # block: releasing one sent the next fit back below every str)
        if n < 0:
            return INVALID_BYTECODE, sp, hp, zero, 1
        r, hp = new_list(heap, hp, n, PLAIN)
        if r >= 0:
            repr_value(stack[base], arg, heap, r + HEADER)
        extra = n
    elif op == STR_JOIN:
        ds, m = text(heap, hp, stack[base])
        dx, k, _ = header(heap, hp, stack[base + 1])
        if ds < 0 or dx < 0:
            return INVALID_BYTECODE, sp, hp, zero, 1
        total = m * (k - 1) if k > 0 else zero
        for e in range(k):
            de, ne = text(heap, hp, heap[dx + e])
            if de < 0:
                return INVALID_BYTECODE, sp, hp, zero, 1
            total += ne
        r, hp = new_list(heap, hp, total, PLAIN)
        if r >= 0:
            at = r + HEADER
            for e in range(k):
                de, ne, _ = header(heap, hp, heap[dx + e])
                if e > 0:
                    copy(heap, ds, at, m)
                    at += m
                copy(heap, de, at, ne)
                at += ne
        extra = total
    else:  # s is the first operand
        d, n = text(heap, hp, stack[base])
        if d < 0:
            return INVALID_BYTECODE, sp, hp, zero, 1
        if op == STR_IS or op == STR_TO_NUM:
            if op == STR_IS:
                st, r = is_op(arg, heap, d, n)
            else:
                st, r, hp = parse_number(arg, heap, hp, d, n)
            if st != OK:
                return st, sp, hp, zero, 1
            extra = n
        elif op == STR_CASE:
            length = case_op(arg, heap, d, n, -1)
            r, hp = new_list(heap, hp, length, PLAIN)
            if r >= 0:
                case_op(arg, heap, d, n, r + HEADER)
            extra = length
        elif op == STR_PAD:
            width = stack[base + 1]
            fill = np.int64(48 if arg == 0 else 32)  # '0', ' '
            if stack[base + 2] != NO_ARG:
                df, nf = text(heap, hp, stack[base + 2])
                if df < 0 or arg == 0:
                    return INVALID_BYTECODE, sp, hp, zero, 1
                if nf != 1:
                    return TYPE_ERROR, sp, hp, zero, 1
                fill = heap[df]
            length = width if width > n else n
            r, hp = new_list(heap, hp, length, PLAIN)
            if r >= 0:
                pad(arg, heap, d, n, length, fill, r + HEADER)
            extra = length
        else:  # a second str operand (optional for STR_STRIP and STR_SPLIT)
            d2 = np.int64(-1)
            m = zero
            if stack[base + 1] != NO_ARG or (op != STR_STRIP and op != STR_SPLIT):
                d2, m = text(heap, hp, stack[base + 1])
                if d2 < 0:
                    return INVALID_BYTECODE, sp, hp, zero, 1
            if op == STR_STRIP:  # mode 0 both ends, 1 the left, 2 the right
                lo, hi = trim(heap, d, zero, n, False, d2, m) if arg != 2 else (zero, n)
                lo, hi = trim(heap, d, lo, hi, True, d2, m) if arg != 1 else (lo, hi)
                r, hp = new_str(heap, hp, d + lo, hi - lo)
                extra = hi - lo
            elif op == STR_SPLIT:
                if d2 >= 0 and m == 0:
                    return VALUE_ERROR, sp, hp, zero, 1
                maxsplit = stack[base + 2]
                _, k, _, _ = split(heap, hp, d, n, d2, m, maxsplit, arg == 1, np.int64(-1), zero)
                r, hp = new_list(heap, hp, k, REFS)
                if r < 0:
                    return MEMORY_LIMIT, sp, hp, zero, 1
                st, _, hp, points = split(heap, hp, d, n, d2, m, maxsplit, arg == 1, r + HEADER, k)
                if st != OK:
                    return st, sp, hp, zero, 1
                extra = points + k
            else:  # STR_REPLACE
                d3, m3 = text(heap, hp, stack[base + 2])
                if d3 < 0:
                    return INVALID_BYTECODE, sp, hp, zero, 1
                length = replace(heap, d, n, d2, m, d3, m3, stack[base + 3], np.int64(-1))
                r, hp = new_list(heap, hp, length, PLAIN)
                if r >= 0:
                    replace(heap, d, n, d2, m, d3, m3, stack[base + 3], r + HEADER)
                extra = length
    if r < 0 and not value:
        return MEMORY_LIMIT, sp, hp, zero, 1
    stack[base] = r
    return OK, base + 1, hp, extra, 1
