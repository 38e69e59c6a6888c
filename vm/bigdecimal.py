"""An exact decimal number held in a scratch int64 array, for float <-> text conversions that
must be exact (vm/strconv.py): Go's strconv decimal (src/strconv/decimal.go, its float
conversion from atof.go), written for the VM kernel bodies (numba subset, no allocation).

A decimal at offset `at` of array `s` takes DEC_WORDS words: s[at + ND] digits d_0 .. d_nd-1
(values 0..9 from s[at + DIGITS]), the decimal point s[at + DP] (the value is 0.d_0 d_1 ...
x 10**dp), and s[at + TRUNC] = 1 when nonzero digits past MAX_DIGITS were dropped.  Digits
have no trailing zeros after any operation below.
"""

from __future__ import annotations

import numpy as np

from gpucc.contract.jitable import nrt_free

ND, DP, TRUNC, DIGITS = 0, 1, 2, 3
MAX_DIGITS = 800  # Go's: enough for the 767 significant digits of the longest exact double
DEC_WORDS = DIGITS + MAX_DIGITS
MAX_SHIFT = 59  # bits per shift step: 10 << 59 still fits an int64
MANT_BITS = 52
EXP_BITS = 11
BIAS = -1023
# a left shift by k adds LEFT_DELTA[k] digits, one less when the digits compare below 5**k's
LEFT_DELTA = np.array([len(str(2**k)) for k in range(MAX_SHIFT + 1)], np.int64)
FIVES_AT = np.array([sum(len(str(5**j)) for j in range(k)) for k in range(MAX_SHIFT + 2)], np.int64)
FIVES = np.array([int(c) for k in range(MAX_SHIFT + 1) for c in str(5**k)], np.int64)
POWTAB = np.array([1, 3, 6, 9, 13, 16, 19, 23, 26], np.int64)  # bits to shift by for a dp


@nrt_free
def dec_assign(s, at, v):
    """The decimal := int v (0 <= v < 2**63)."""
    n = np.int64(0)
    t = v
    while t > 0:
        n += 1
        t //= 10
    for i in range(n - 1, -1, -1):
        s[at + DIGITS + i] = v % 10
        v //= 10
    s[at + ND] = n
    s[at + DP] = n
    s[at + TRUNC] = 0
    dec_trim(s, at)


@nrt_free
def dec_trim(s, at):
    nd = s[at + ND]
    while nd > 0 and s[at + DIGITS + nd - 1] == 0:
        nd -= 1
    s[at + ND] = nd
    if nd == 0:
        s[at + DP] = 0


@nrt_free
def _right_shift(s, at, k):
    """The decimal //= 2**k, exactly unless digits run past MAX_DIGITS (k <= MAX_SHIFT)."""
    nd = s[at + ND]
    r = np.int64(0)
    w = np.int64(0)
    n = np.int64(0)
    while (n >> k) == 0:  # pick up enough leading digits to cover the first shift
        if r >= nd:
            if n == 0:
                s[at + ND] = 0
                return
            while (n >> k) == 0:
                n *= 10
                r += 1
            break
        n = n * 10 + s[at + DIGITS + r]
        r += 1
    s[at + DP] -= r - 1
    mask = (np.int64(1) << k) - 1
    while r < nd:  # pick up a digit, put down a digit
        c = s[at + DIGITS + r]
        s[at + DIGITS + w] = n >> k
        w += 1
        n = (n & mask) * 10 + c
        r += 1
    while n > 0:  # put down the extra digits
        dig = n >> k
        n &= mask
        if w < MAX_DIGITS:
            s[at + DIGITS + w] = dig
            w += 1
        elif dig > 0:
            s[at + TRUNC] = 1
        n *= 10
    s[at + ND] = w
    dec_trim(s, at)


@nrt_free
def _below_fives(s, at, k):
    """1 if the digits compare below those of 5**k (Go's prefixIsLessThan)."""
    nd = s[at + ND]
    for i in range(FIVES_AT[k + 1] - FIVES_AT[k]):
        if i >= nd:
            return True
        d = s[at + DIGITS + i]
        f = FIVES[FIVES_AT[k] + i]
        if d != f:
            return d < f
    return False


@nrt_free
def _left_shift(s, at, k):
    """The decimal *= 2**k (k <= MAX_SHIFT)."""
    nd = s[at + ND]
    delta = LEFT_DELTA[k]
    if _below_fives(s, at, k):
        delta -= 1
    w = nd + delta
    n = np.int64(0)
    for r in range(nd - 1, -1, -1):
        n += s[at + DIGITS + r] << k
        w -= 1
        if w < MAX_DIGITS:
            s[at + DIGITS + w] = n % 10
        elif n % 10 != 0:
            s[at + TRUNC] = 1
        n //= 10
    while n > 0:
        w -= 1
        if w < MAX_DIGITS:
            s[at + DIGITS + w] = n % 10
        elif n % 10 != 0:
            s[at + TRUNC] = 1
        n //= 10
    s[at + ND] = min(nd + delta, MAX_DIGITS)
    s[at + DP] += delta
    dec_trim(s, at)


@nrt_free
def dec_shift(s, at, k):
    """The decimal *= 2**k (any sign of k)."""
    if s[at + ND] == 0:
        return
    while k > MAX_SHIFT:
        _left_shift(s, at, MAX_SHIFT)
        k -= MAX_SHIFT
    while k < -MAX_SHIFT:
        _right_shift(s, at, MAX_SHIFT)
        k += MAX_SHIFT
    if k > 0:
        _left_shift(s, at, k)
    elif k < 0:
        _right_shift(s, at, -k)


@nrt_free
def _should_round_up(s, at, nd):
    """Whether cutting the digits at nd rounds up (half to even; up if truncated)."""
    if nd < 0 or nd >= s[at + ND]:
        return False
    if s[at + DIGITS + nd] == 5 and nd + 1 == s[at + ND]:  # exactly halfway
        if s[at + TRUNC] != 0:
            return True
        return nd > 0 and s[at + DIGITS + nd - 1] % 2 == 1
    return s[at + DIGITS + nd] >= 5


@nrt_free
def dec_round_down(s, at, nd):
    if 0 <= nd < s[at + ND]:
        s[at + ND] = nd
        dec_trim(s, at)


@nrt_free
def dec_round_up(s, at, nd):
    """Cut the digits at nd and add one unit of the last digit kept."""
    if nd < 0 or nd >= s[at + ND]:
        return
    for i in range(nd - 1, -1, -1):
        if s[at + DIGITS + i] < 9:
            s[at + DIGITS + i] += 1
            s[at + ND] = i + 1
            return
    s[at + DIGITS] = 1  # all nines: 10**dp
    s[at + ND] = 1
    s[at + DP] += 1


@nrt_free
def dec_round(s, at, nd):
    """Round to nd digits, half to even."""
    if _should_round_up(s, at, nd):
        dec_round_up(s, at, nd)
    else:
        dec_round_down(s, at, nd)


@nrt_free
def _rounded_integer(s, at):
    """The integer part, rounded half to even (the decimal is below 2**63)."""
    dp = s[at + DP]
    nd = s[at + ND]
    n = np.int64(0)
    for i in range(dp):
        n = n * 10 + (s[at + DIGITS + i] if i < nd else 0)
    if _should_round_up(s, at, dp):
        n += 1
    return n


@nrt_free
def dec_to_float_bits(s, at, negative):
    """The bits of the double nearest the decimal (ties to even; +-inf past the largest),
    negated if `negative` (Go's decimal.floatBits).  Destroys the decimal."""
    mant = np.int64(0)
    exp = np.int64(BIAS)
    if s[at + ND] == 0 or s[at + DP] < -330:
        pass  # zero
    elif s[at + DP] > 310:
        exp = (1 << EXP_BITS) - 1 + BIAS  # inf
    else:
        exp = np.int64(0)
        while s[at + DP] > 0:  # scale by powers of two into [0.5, 1)
            n = POWTAB[s[at + DP]] if s[at + DP] < len(POWTAB) else 27
            dec_shift(s, at, -n)
            exp += n
        while s[at + DP] < 0 or (s[at + DP] == 0 and s[at + DIGITS] < 5):
            n = POWTAB[-s[at + DP]] if -s[at + DP] < len(POWTAB) else 27
            dec_shift(s, at, n)
            exp -= n
        exp -= 1  # the range is [0.5, 1), a double's significand is in [1, 2)
        if exp < BIAS + 1:  # below the least exponent: a subnormal
            dec_shift(s, at, -(BIAS + 1 - exp))
            exp = BIAS + 1
        if exp - BIAS >= (1 << EXP_BITS) - 1:
            exp = (1 << EXP_BITS) - 1 + BIAS
        else:
            dec_shift(s, at, 1 + MANT_BITS)
            mant = _rounded_integer(s, at)
            if mant == np.int64(2) << MANT_BITS:  # rounding carried into a new bit
                mant >>= 1
                exp += 1
            if exp - BIAS >= (1 << EXP_BITS) - 1:
                mant = 0
                exp = (1 << EXP_BITS) - 1 + BIAS
            elif mant & (np.int64(1) << MANT_BITS) == 0:  # subnormal
                exp = BIAS
    bits = (mant & ((np.int64(1) << MANT_BITS) - 1)) | ((exp - BIAS) << MANT_BITS)
    return bits | np.int64(-(2**63)) if negative else bits
