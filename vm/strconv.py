"""Numbers <-> text for the VM kernel bodies (numba subset): str(int), int(s), repr(float) and
float(s) exactly as CPython 3.11, reading and writing code points in int64 arrays.

int(s) and float(s) read s as CPython does (Objects/unicodeobject.c,
_PyUnicode_TransformDecimalAndSpaceToASCII): non-ASCII whitespace counts as a space and non-ASCII
decimal digits as their digits; any other non-ASCII code point is an error.  Failures return
contract.status VALUE_ERROR (or OVERFLOW: an int outside int64) instead of raising.
"""

from __future__ import annotations

import numpy as np
from numba.extending import register_jitable

from gpucc.contract.status import OK, OVERFLOW, VALUE_ERROR
from gpucc.vm.intmath import INT64_MIN
from gpucc.vm.unicode import SPACE, char_flags, decimal_value

MIN_TENTH = -(2**63 // 10)  # value * 10 - d fits an int64 unless value < this (or == it and d > 8)
INT_MAX_STR_DIGITS = 4300  # CPython's default sys.get_int_max_str_digits(): more is a ValueError
PLUS, MINUS, UNDERSCORE = ord("+"), ord("-"), ord("_")


@register_jitable
def _write_digits(m, buf, at):
    """Write the decimal digits of m >= 0 at buf[at:]; their count."""
    n = np.int64(1)
    t = m // 10
    while t > 0:
        n += 1
        t //= 10
    for i in range(n - 1, -1, -1):
        buf[at + i] = ord("0") + m % 10
        m //= 10
    return n


@register_jitable
def int_repr(value, buf, at):
    """Write str(value) at buf[at:] (at most 20 code points); its length."""
    if value >= 0:
        return _write_digits(value, buf, at)
    buf[at] = MINUS
    head = value // -10  # -value // 10, and -value's last digit, without negating INT64_MIN
    if head == 0:
        buf[at + 1] = ord("0") - value % -10
        return np.int64(2)
    n = _write_digits(head, buf, at + 1)
    buf[at + 1 + n] = ord("0") - value % -10
    return n + 2


@register_jitable
def _is_space(cp):
    """Whitespace to int() and float(): C's isspace for ASCII (not str.isspace: '\x1c' is not),
    str.isspace beyond."""
    if cp < 128:
        return cp == 32 or 9 <= cp <= 13
    return char_flags(cp) & SPACE != 0


@register_jitable
def _strip(buf, lo, hi):
    """(lo, hi) without the whitespace at both ends."""
    while lo < hi and _is_space(buf[lo]):
        lo += 1
    while hi > lo and _is_space(buf[hi - 1]):
        hi -= 1
    return lo, hi


@register_jitable
def parse_int(buf, lo, hi):
    """(status, int(s)) for the str s = buf[lo:hi] (CPython's PyLong_FromString, base 10):
    whitespace, a sign, decimal digits with single '_' between them; VALUE_ERROR for anything
    else or more than INT_MAX_STR_DIGITS digits, OVERFLOW outside int64."""
    lo, hi = _strip(buf, lo, hi)
    negative = False
    if lo < hi and (buf[lo] == PLUS or buf[lo] == MINUS):
        negative = buf[lo] == MINUS
        lo += 1
    value = np.int64(0)  # minus the magnitude: INT64_MIN fits
    digits = 0
    overflow = False
    prev_underscore = True  # no '_' first
    for i in range(lo, hi):
        if buf[i] == UNDERSCORE:
            if prev_underscore:
                return VALUE_ERROR, np.int64(0)
            prev_underscore = True
            continue
        d = decimal_value(buf[i])
        if d < 0:
            return VALUE_ERROR, np.int64(0)
        prev_underscore = False
        digits += 1
        if value < MIN_TENTH or (value == MIN_TENTH and d > 8):
            overflow = True
        else:
            value = value * 10 - d
    if prev_underscore or digits > INT_MAX_STR_DIGITS:  # also: no digits at all
        return VALUE_ERROR, np.int64(0)
    if overflow or (not negative and value == INT64_MIN):
        return OVERFLOW, np.int64(0)
    return OK, (value if negative else -value)
