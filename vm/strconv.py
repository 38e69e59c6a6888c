"""Numbers <-> text for the VM kernel bodies (numba subset): str(int), int(s), repr(float) and
float(s) exactly as CPython 3.11, reading and writing code points in int64 arrays.

int(s) and float(s) read s as CPython does (Objects/unicodeobject.c,
_PyUnicode_TransformDecimalAndSpaceToASCII): non-ASCII whitespace counts as a space and non-ASCII
decimal digits as their digits; any other non-ASCII code point is an error.  Failures return
contract.status VALUE_ERROR (or OVERFLOW: an int outside int64) instead of raising.
"""

from __future__ import annotations

import numpy as np

from gpucc.contract.jitable import nrt_free
from gpucc.contract.status import OK, OVERFLOW, VALUE_ERROR
from gpucc.vm.bigdecimal import (
    BIAS,
    DEC_WORDS,
    DIGITS,
    DP,
    MANT_BITS,
    MAX_DIGITS,
    ND,
    TRUNC,
    dec_assign,
    dec_round,
    dec_round_down,
    dec_round_up,
    dec_shift,
    dec_to_float_bits,
    dec_trim,
)
from gpucc.vm.floats import f2b
from gpucc.vm.intmath import INT64_MIN
from gpucc.vm.unicode import SPACE, char_flags, decimal_value

MIN_TENTH = -(2**63 // 10)  # value * 10 - d fits an int64 unless value < this (or == it and d > 8)
INT_MAX_STR_DIGITS = 4300  # CPython's default sys.get_int_max_str_digits(): more is a ValueError
FLOAT_REPR_SCRATCH = 3 * DEC_WORDS  # scratch words float_repr needs
PARSE_FLOAT_SCRATCH = DEC_WORDS  # and parse_float
FLOAT_REPR_MAX = 24  # the longest repr(float): '-2.2250738585072014e-308'
NAN_BITS = 0x7FF8000000000000  # float('nan'); float('-nan') has the sign bit too
INF_BITS = 0x7FF0000000000000
SIGN_BIT = -(2**63)
EXP_CLAMP = 10**15  # a larger exponent means the same (+-inf or 0) for any str a heap holds
POW10 = np.array([float(10**k) for k in range(23)])  # the powers of ten a double holds exactly
# the ASCII code points written or read (no str constants: CUDA kernels have no str type)
ZERO, PLUS, MINUS, DOT, UNDERSCORE = ord("0"), ord("+"), ord("-"), ord("."), ord("_")
LOWER_A, LOWER_E, LOWER_F, LOWER_I, LOWER_N = (ord(c) for c in "aefin")
WORDS = np.array([ord(c) for c in "infinitynan"], np.int64)  # 'inf' / 'infinity' at 0, 'nan' at 8


@nrt_free
def digit_count(m):
    """The decimal digits of m >= 0."""
    n = np.int64(1)
    t = m // 10
    while t > 0:
        n += 1
        t //= 10
    return n


@nrt_free
def _write_digits(m, buf, at):
    """Write the decimal digits of m >= 0 at buf[at:]; their count."""
    n = digit_count(m)
    for i in range(n - 1, -1, -1):
        buf[at + i] = ZERO + m % 10
        m //= 10
    return n


@nrt_free
def int_repr(value, buf, at):
    """Write str(value) at buf[at:] (at most 20 code points); its length."""
    if value >= 0:
        return _write_digits(value, buf, at)
    buf[at] = MINUS
    head = value // -10  # -value // 10, and -value's last digit, without negating INT64_MIN
    if head == 0:
        buf[at + 1] = ZERO - value % -10
        return np.int64(2)
    n = _write_digits(head, buf, at + 1)
    buf[at + 1 + n] = ZERO - value % -10
    return n + 2


@nrt_free
def int_repr_length(value):
    """len(str(value)): the code points int_repr writes."""
    if value >= 0:
        return digit_count(value)
    head = value // -10  # as int_repr
    return np.int64(2) if head == 0 else digit_count(head) + 2


@nrt_free
def _is_space(cp):
    """Whitespace to int() and float(): C's isspace for ASCII (not str.isspace: '\x1c' is not),
    str.isspace beyond."""
    if cp < 128:
        return cp == 32 or 9 <= cp <= 13
    return char_flags(cp) & SPACE != 0


@nrt_free
def _strip(buf, lo, hi):
    """(lo, hi) without the whitespace at both ends."""
    while lo < hi and _is_space(buf[lo]):
        lo += 1
    while hi > lo and _is_space(buf[hi - 1]):
        hi -= 1
    return lo, hi


@nrt_free
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


@nrt_free
def _shortest(s, mant, exp):
    """Cut the decimal at s[0:] (= mant * 2**(exp - MANT_BITS)) to the fewest digits that read
    back as the same double, the nearest such (Go's strconv roundShortest).  Uses the next
    two decimals of s for the halfway points to the neighbouring doubles."""
    if exp > BIAS + 1 and 332 * (s[DP] - s[ND]) >= 100 * (exp - MANT_BITS):
        return  # no shorter decimal is within half an ulp
    up = DEC_WORDS
    dec_assign(s, up, mant * 2 + 1)
    dec_shift(s, up, exp - MANT_BITS - 1)
    if mant > np.int64(1) << MANT_BITS or exp == BIAS + 1:
        mantlo = mant - 1
        explo = exp
    else:  # a power of two: the double below is half as far
        mantlo = mant * 2 - 1
        explo = exp - 1
    low = 2 * DEC_WORDS
    dec_assign(s, low, mantlo * 2 + 1)
    dec_shift(s, low, explo - MANT_BITS - 1)
    inclusive = mant % 2 == 0  # the halfway points round to this double (ties to even)
    upper_delta = 0  # 0: digits equal to upper's so far; 1: one apart, then 9s vs 0s; 2: further
    ui = 0
    while True:
        mi = ui - s[up + DP] + s[DP]
        if mi >= s[ND]:
            return
        li = ui - s[up + DP] + s[low + DP]
        lower_digit = s[low + DIGITS + li] if 0 <= li < s[low + ND] else 0
        digit = s[DIGITS + mi] if mi >= 0 else 0
        upper_digit = s[up + DIGITS + ui] if ui < s[up + ND] else 0
        ok_down = lower_digit != digit or (inclusive and li + 1 == s[low + ND])
        if upper_delta == 0 and digit + 1 < upper_digit:
            upper_delta = 2
        elif upper_delta == 0 and digit != upper_digit:
            upper_delta = 1
        elif upper_delta == 1 and (digit != 9 or upper_digit != 0):
            upper_delta = 2
        ok_up = upper_delta > 0 and (inclusive or upper_delta > 1 or ui + 1 < s[up + ND])
        if ok_down and ok_up:
            dec_round(s, 0, mi + 1)
            return
        if ok_down:
            dec_round_down(s, 0, mi + 1)
            return
        if ok_up:
            dec_round_up(s, 0, mi + 1)
            return
        ui += 1


@nrt_free
def _put(buf, at, a, b, c):
    buf[at] = a
    buf[at + 1] = b
    buf[at + 2] = c


@nrt_free
def _put_digits(buf, at, s, lo, hi):
    """Write the decimal's digits lo..hi-1 (0 outside 0..nd-1) at buf[at:]."""
    for i in range(lo, hi):
        buf[at + i - lo] = ZERO + (s[DIGITS + i] if 0 <= i < s[ND] else 0)


@nrt_free
def float_repr(bits, buf, at, scratch):
    """Write repr(float) of the double with these bits at buf[at:] (at most FLOAT_REPR_MAX
    code points); its length.  scratch: FLOAT_REPR_SCRATCH words (int64)."""
    exp = (bits >> MANT_BITS) & 0x7FF
    mant = bits & ((np.int64(1) << MANT_BITS) - 1)
    n = np.int64(0)
    if exp == 0x7FF and mant != 0:
        _put(buf, at, LOWER_N, LOWER_A, LOWER_N)
        return np.int64(3)
    if bits < 0:
        buf[at] = MINUS
        n = np.int64(1)
    if exp == 0x7FF:
        _put(buf, at + n, LOWER_I, LOWER_N, LOWER_F)
        return n + 3
    if exp == 0 and mant == 0:
        _put(buf, at + n, ZERO, DOT, ZERO)
        return n + 3
    if exp == 0:
        exp = np.int64(1)  # subnormal
    else:
        mant |= np.int64(1) << MANT_BITS
    exp += BIAS
    dec_assign(scratch, 0, mant)
    dec_shift(scratch, 0, exp - MANT_BITS)
    _shortest(scratch, mant, exp)
    nd = scratch[ND]
    decpt = scratch[DP]
    if decpt <= -4 or decpt > 16:  # d.ddde+XX (CPython's float_repr_style 'short', mode 'r')
        _put_digits(buf, at + n, scratch, 0, 1)
        n += 1
        if nd > 1:
            buf[at + n] = DOT
            _put_digits(buf, at + n + 1, scratch, 1, nd)
            n += nd
        buf[at + n] = LOWER_E
        buf[at + n + 1] = MINUS if decpt - 1 < 0 else PLUS
        e = abs(decpt - 1)
        if e < 10:
            buf[at + n + 2] = ZERO
            n += 1
        return n + 2 + _write_digits(e, buf, at + n + 2)
    if decpt <= 0:  # 0.000ddd
        buf[at + n] = ZERO
        buf[at + n + 1] = DOT
        _put_digits(buf, at + n + 2, scratch, decpt, nd)
        return n + 2 + nd - decpt
    _put_digits(buf, at + n, scratch, 0, decpt)
    buf[at + n + decpt] = DOT
    if decpt >= nd:  # ddd000.0
        buf[at + n + decpt + 1] = ZERO
        return n + decpt + 2
    _put_digits(buf, at + n + decpt + 1, scratch, decpt, nd)  # ddd.ddd
    return n + nd + 1


@nrt_free
def _is_digit(buf, i, lo, hi):
    return lo <= i < hi and decimal_value(buf[i]) >= 0


@nrt_free
def _spells(buf, i, hi, word, n):
    """Whether buf[i:hi] is WORDS[word:word + n] in any case."""
    if hi - i != n:
        return False
    for k in range(n):
        if buf[i + k] | 32 != WORDS[word + k]:  # ASCII letters only: c | 32 == x iff c is x or X
            return False
    return True


@nrt_free
def _inf_or_nan(buf, i, hi, negative):
    """(status, bits) of 'inf', 'infinity' or 'nan' in any case at buf[i:hi] (Python's
    _Py_parse_inf_or_nan, after the sign)."""
    sign = SIGN_BIT if negative else 0
    if _spells(buf, i, hi, 0, 3) or _spells(buf, i, hi, 0, 8):
        return OK, np.int64(INF_BITS | sign)
    if _spells(buf, i, hi, 8, 3):
        return OK, np.int64(NAN_BITS | sign)
    return VALUE_ERROR, np.int64(0)


@nrt_free
def _decimal_bits(buf, lo, hi, exp10, negative, s):
    """The bits of the double nearest to the digits at buf[lo:hi] ('.' and '_' among them)
    times 10**exp10, negated if `negative`: exactly when a double holds the digits and the
    power of ten (Clinger's fast path, Go's atof64exact), else through a decimal in s."""
    nd = np.int64(0)
    count = np.int64(0)  # significant digits, kept or not
    dp = np.int64(0)
    dot = False
    s[TRUNC] = 0
    for k in range(lo, hi):
        if buf[k] == UNDERSCORE:
            continue
        if buf[k] == DOT:
            dp = count
            dot = True
            continue
        d = decimal_value(buf[k])
        if d == 0 and count == 0:  # a leading zero: after the point it moves the point
            dp -= 1
            continue
        count += 1
        if nd < MAX_DIGITS:
            s[DIGITS + nd] = d
            nd += 1
        elif d != 0:
            s[TRUNC] = 1
    s[ND] = nd
    s[DP] = (dp if dot else count) + exp10
    dec_trim(s, 0)
    sign = np.int64(SIGN_BIT) if negative else np.int64(0)
    nd = s[ND]
    if nd == 0:
        return sign
    if nd <= 16 and s[TRUNC] == 0:  # 16 digits: the most below 2**53, and no int64 overflow
        m = np.int64(0)
        for k in range(nd):
            m = m * 10 + s[DIGITS + k]
        e = s[DP] - nd
        if m >> MANT_BITS + 1 == 0:
            f = np.float64(m)
            exact = e == 0
            if 0 < e <= 15 + 22:
                if e > 22:  # move zeros into the digits while they stay exact
                    f *= POW10[e - 22]
                    e = 22
                if f <= 1e15:
                    f *= POW10[e]
                    exact = True
            elif -22 <= e < 0:
                f /= POW10[-e]
                exact = True
            if exact:
                return f2b(f) | sign
    return dec_to_float_bits(s, 0, negative)


@nrt_free
def parse_float(buf, lo, hi, scratch):
    """(status, bits of float(s)) for the str s = buf[lo:hi], correctly rounded (CPython's
    PyFloat_FromString): whitespace, a sign, digits with an optional '.', an optional exponent,
    '_' only between digits; or inf, infinity, nan in any case.  Out of range is +-inf or
    +-0.0, as CPython.  scratch: PARSE_FLOAT_SCRATCH words (int64)."""
    lo, hi = _strip(buf, lo, hi)
    for i in range(lo, hi):
        if buf[i] == UNDERSCORE and not (_is_digit(buf, i - 1, lo, hi) and _is_digit(buf, i + 1, lo, hi)):
            return VALUE_ERROR, np.int64(0)
    negative = lo < hi and buf[lo] == MINUS
    start = lo + 1 if lo < hi and (buf[lo] == PLUS or buf[lo] == MINUS) else lo
    i = start
    digits = 0
    dot = False
    while i < hi and ((buf[i] == DOT and not dot) or buf[i] == UNDERSCORE or decimal_value(buf[i]) >= 0):
        if buf[i] == DOT:
            dot = True
        elif buf[i] != UNDERSCORE:
            digits += 1
        i += 1
    if digits == 0:
        return _inf_or_nan(buf, start, hi, negative)
    mant_end = i
    exp10 = np.int64(0)
    if i < hi and buf[i] | 32 == LOWER_E:
        j = i + 1
        if j < hi and (buf[j] == PLUS or buf[j] == MINUS):
            j += 1
        if _is_digit(buf, j, lo, hi):  # else the 'e' is not the number's: an error below
            i = j
            while i < hi and (buf[i] == UNDERSCORE or decimal_value(buf[i]) >= 0):
                if buf[i] != UNDERSCORE and exp10 < EXP_CLAMP:
                    exp10 = exp10 * 10 + decimal_value(buf[i])
                i += 1
            if buf[j - 1] == MINUS:
                exp10 = -exp10
    if i != hi:
        return VALUE_ERROR, np.int64(0)
    return OK, _decimal_bits(buf, start, mant_end, exp10, negative, scratch)
