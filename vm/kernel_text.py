"""What the str instructions (vm/kernel_str.py) know of text: whitespace, case mappings,
character classes and number conversions, exactly as CPython 3.11's str methods, int() and
str() (Objects/unicodeobject.c, Objects/longobject.c), from vm/unicode.py's tables.

Same one-source rules as run_job (plain Python, numba CPU, CUDA; no allocation, no raising).
A str here is its data in the heap: heap[d .. d + n), code points 0 .. 0x10FFFF.
"""

from __future__ import annotations

import numpy as np

from gpucc.contract.jitable import nrt_free
from gpucc.contract.status import INVALID_BYTECODE, OK, OVERFLOW, VALUE_ERROR
from gpucc.contract.valuetypes import T_BOOL, T_INT
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
    decimal_value,
)

# STR_CASE modes
TO_LOWER, TO_UPPER, SWAPCASE, CAPITALIZE, TITLE, CASEFOLD = range(6)
# STR_IS modes: the flags every code point needs (isupper / islower: see is_op)
IS_FLAGS = np.array([DIGIT, ALPHA, ALPHA | DECIMAL | DIGIT | NUMERIC, SPACE, 0, 0, DECIMAL, NUMERIC], np.int64)
IS_UPPER, IS_LOWER = 4, 5
CAPITAL_SIGMA, FINAL_SIGMA, SMALL_SIGMA = 0x3A3, 0x3C2, 0x3C3
MAX_STR_DIGITS = 4300  # sys.int_max_str_digits: int() of more digits is a ValueError
INT64_MIN = -(2**63)
INT64_MIN_TENTH = -(2**63 // 10)  # -922337203685477580: times 10, minus at most 8, still fits
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
def _ascii_space(c):
    return c == 32 or (9 <= c and c <= 13)


@nrt_free
def _int_space(c):
    """Whitespace as int() sees it: ASCII's below 127, Unicode's above."""
    return _ascii_space(c) if c < 127 else is_space(c)


@nrt_free
def _digit(c):
    """The decimal digit c stands for in int(), or -1."""
    if c < 127:
        return c - 48 if 48 <= c and c <= 57 else np.int64(-1)
    return decimal_value(c)


@nrt_free
def parse_int(heap, d, n):
    """(status, value) of int(s) for the str at d: whitespace around an optional sign and decimal
    digits (any script's), single '_' between digits; ValueError, OverflowError past int64."""
    i = np.int64(0)
    while i < n and _int_space(heap[d + i]):
        i += 1
    negative = i < n and heap[d + i] == 45
    if i < n and (heap[d + i] == 45 or heap[d + i] == 43):
        i += 1
    digits = np.int64(0)
    value = np.int64(0)  # minus the magnitude so far (reaches -2**63), while it fits
    fits = True
    while i < n:
        v = _digit(heap[d + i])
        if v < 0:
            if heap[d + i] != 95 or digits == 0 or i + 1 >= n or _digit(heap[d + i + 1]) < 0:
                break  # '_' only between two digits
            i += 1
            continue
        digits += 1
        if value < INT64_MIN_TENTH or (value == INT64_MIN_TENTH and v > 8):  # value * 10 - v < -(2**63)
            fits = False
        elif fits:
            value = value * 10 - v
        i += 1
    while i < n and _int_space(heap[d + i]):
        i += 1
    if digits == 0 or i < n or digits > MAX_STR_DIGITS:
        return VALUE_ERROR, np.int64(0)
    if not fits or (not negative and value == INT64_MIN):
        return OVERFLOW, np.int64(0)
    return OK, (value if negative else -value)


@nrt_free
def repr_value(x, type_code, heap, at):
    """Write str(x) of a value of `type_code` (int, bool) to heap[at ..]; its length, -1 for
    another type."""
    if type_code == T_BOOL:
        word = TRUE if x != 0 else FALSE
        for k in range(word.shape[0]):
            heap[at + k] = word[k]
        return np.int64(word.shape[0])
    if type_code != T_INT:
        return np.int64(-1)
    q = x if x < 0 else -x  # -|x| always fits; its digits are -(q % -10)
    n = np.int64(1 if x < 0 else 0)
    t = q
    while True:
        n += 1
        t = (t - t % -10) // 10
        if t == 0:
            break
    for k in range(n - 1, 0 if x < 0 else -1, -1):
        heap[at + k] = 48 - q % -10
        q = (q - q % -10) // 10
    if x < 0:
        heap[at] = 45
    return n


@nrt_free
def parse_number(type_code, heap, d, n):
    """(status, slot value) of STR_TO_NUM: int(s) (T_INT); anything else is INVALID_BYTECODE."""
    if type_code == T_INT:
        return parse_int(heap, d, n)
    return INVALID_BYTECODE, np.int64(0)
