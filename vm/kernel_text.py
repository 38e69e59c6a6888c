"""What the str instructions (vm/kernel_str.py) know of text: whitespace, case mappings,
character classes and number conversions, exactly as CPython 3.11's str methods, str(),
int() and float() (Objects/unicodeobject.c), from vm/unicode.py's tables and vm/strconv.py.

Same one-source rules as run_job (plain Python, numba CPU, CUDA; no allocation, no raising).
A str here is its data in the heap: heap[d .. d + n), code points 0 .. 0x10FFFF.
"""

from __future__ import annotations

import numpy as np

from gpucc.contract.jitable import nrt_free
from gpucc.contract.status import INVALID_BYTECODE, MEMORY_LIMIT, OK
from gpucc.contract.valuetypes import T_BOOL, T_FLOAT, T_INT
from gpucc.vm.kernel_heap import RAW, alloc, release
from gpucc.vm.strconv import (
    FLOAT_REPR_MAX,
    FLOAT_REPR_SCRATCH,
    PARSE_FLOAT_SCRATCH,
    float_repr,
    int_repr,
    int_repr_length,
    parse_float,
    parse_int,
)
from gpucc.vm.unicode import (
    ALPHA,
    CASE_IGNORABLE,
    CASED,
    DECIMAL,
    DIGIT,
    FOLD,
    LOWER,
    LOWER_CASE,
    NUMERIC,
    SPACE,
    TITLE_CASE,
    TITLECASE,
    UPPER,
    UPPER_CASE,
    case_mapping,
    char_flags,
)

# STR_CASE modes
TO_LOWER, TO_UPPER, SWAPCASE, CAPITALIZE, TITLE, CASEFOLD = range(6)
# STR_IS modes: the flags every code point needs (isupper / islower: see is_op)
IS_FLAGS = np.array([DIGIT, ALPHA, ALPHA | DECIMAL | DIGIT | NUMERIC, SPACE, 0, 0, DECIMAL, NUMERIC], np.int64)
IS_UPPER, IS_LOWER = 4, 5
CAPITAL_SIGMA, FINAL_SIGMA, SMALL_SIGMA = 0x3A3, 0x3C2, 0x3C3
TRUE = np.array([ord(c) for c in "True"], np.int64)
FALSE = np.array([ord(c) for c in "False"], np.int64)


@nrt_free
def is_space(c):
    """str.isspace() of code point c (what split() and strip() take for whitespace)."""
    return (char_flags(c) & SPACE) != 0


@nrt_free
def _has(c, flag):
    return (char_flags(c) & flag) != 0


@nrt_free
def _sigma(heap, d, n, i):
    """Σ at i lowers to final ς after a cased code point and not before one, case-ignorable
    ones skipped (CPython's handle_capital_sigma)."""
    j = i - 1
    while j >= 0 and _has(heap[d + j], CASE_IGNORABLE):
        j -= 1
    final = j >= 0 and _has(heap[d + j], CASED)
    if final:
        j = i + 1
        while j < n and _has(heap[d + j], CASE_IGNORABLE):
            j += 1
        final = j == n or not _has(heap[d + j], CASED)
    return np.int64(FINAL_SIGMA if final else SMALL_SIGMA)


@nrt_free
def _lower(heap, d, n, i):
    """(n, c0, c1, c2): the lower-case mapping of the code point at i, with Σ's final form."""
    c = heap[d + i]
    if c == CAPITAL_SIGMA:
        return np.int64(1), _sigma(heap, d, n, i), np.int64(0), np.int64(0)
    return case_mapping(c, LOWER_CASE)


@nrt_free
def _mapped(mode, heap, d, n, i):
    """(n, c0, c1, c2): what STR_CASE `mode` maps the code point at i to."""
    c = heap[d + i]
    if mode == TO_UPPER:
        return case_mapping(c, UPPER_CASE)
    if mode == CASEFOLD:
        return case_mapping(c, FOLD)
    if mode == SWAPCASE:
        if _has(c, UPPER):
            return _lower(heap, d, n, i)
        if _has(c, LOWER):
            return case_mapping(c, UPPER_CASE)
        return np.int64(1), c, np.int64(0), np.int64(0)
    # title case at a word's start: capitalize's first code point, title's after an uncased one
    if (mode == CAPITALIZE and i == 0) or (mode == TITLE and (i == 0 or not _has(heap[d + i - 1], CASED))):
        return case_mapping(c, TITLE_CASE)
    return _lower(heap, d, n, i)


@nrt_free
def case_op(mode, heap, d, n, out):
    """The length of STR_CASE `mode` of the str at d; also written to heap[out ..] unless out < 0."""
    length = np.int64(0)
    for i in range(n):
        k, c0, c1, c2 = _mapped(mode, heap, d, n, i)
        if out >= 0:
            heap[out + length] = c0
            if k > 1:
                heap[out + length + 1] = c1
            if k > 2:
                heap[out + length + 2] = c2
        length += k
    return length


@nrt_free
def is_op(mode, heap, d, n):
    """(OK, bool) of STR_IS `mode` of the str at d."""
    if mode == IS_UPPER or mode == IS_LOWER:  # some cased code point, none of the other case or title
        this = UPPER if mode == IS_UPPER else LOWER
        if n == 1:
            return OK, np.int64(_has(heap[d], this))
        other = (LOWER if mode == IS_UPPER else UPPER) | TITLECASE
        cased = False
        for k in range(n):
            if _has(heap[d + k], other):
                return OK, np.int64(0)
            cased = cased or _has(heap[d + k], this)
        return OK, np.int64(cased)
    for k in range(n):
        if not _has(heap[d + k], IS_FLAGS[mode]):
            return OK, np.int64(0)
    return OK, np.int64(n > 0)


@nrt_free
def repr_value(x, type_code, heap, at):
    """Write str(x) of a value of `type_code` (int, bool, float: CPython's repr) to heap[at ..];
    its length, -1 for another type.  A float takes FLOAT_REPR_SCRATCH words of scratch after
    its FLOAT_REPR_MAX (see repr_room)."""
    if type_code == T_BOOL:
        word = TRUE if x != 0 else FALSE
        for k in range(word.shape[0]):
            heap[at + k] = word[k]
        return np.int64(word.shape[0])
    if type_code == T_INT:
        return int_repr(x, heap, at)
    if type_code == T_FLOAT:
        return float_repr(x, heap, at, heap[at + FLOAT_REPR_MAX : at + FLOAT_REPR_MAX + FLOAT_REPR_SCRATCH])
    return np.int64(-1)


@nrt_free
def repr_length(x, type_code):
    """len(str(x)) of an int or bool (as repr_value writes it, without scratch); -1 for another type."""
    if type_code == T_BOOL:
        return np.int64(4 if x != 0 else 5)
    if type_code == T_INT:
        return int_repr_length(x)
    return np.int64(-1)


@nrt_free
def repr_room(type_code):
    """The words of the RAW block repr_value writes for `type_code` (vm/kernel_str.py STR_FROM)."""
    return FLOAT_REPR_MAX + (FLOAT_REPR_SCRATCH if type_code == T_FLOAT else 0)


@nrt_free
def parse_number(type_code, heap, hp, d, n):
    """(status, slot value, hp) of STR_TO_NUM: int(s) (T_INT) or float(s) (T_FLOAT: its scratch a
    RAW heap block, released after; MEMORY_LIMIT if it does not fit); another type is
    INVALID_BYTECODE."""
    if type_code == T_INT:
        st, r = parse_int(heap, d, d + n)
        return st, r, hp
    if type_code != T_FLOAT:
        return INVALID_BYTECODE, np.int64(0), hp
    tmp, hp = alloc(heap, hp, np.int64(PARSE_FLOAT_SCRATCH), RAW)
    if tmp < 0:
        return MEMORY_LIMIT, np.int64(0), hp
    st, r = parse_float(heap, d, d + n, heap[tmp : tmp + PARSE_FLOAT_SCRATCH])
    return st, r, release(heap, hp, tmp)
