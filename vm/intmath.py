"""Python's int64 arithmetic and comparisons for the VM kernel bodies (numba subset).

Every function returns a status with its result instead of raising, and detects overflow
before computing: numba's signed arithmetic is `nsw` (overflow is undefined behaviour to
LLVM), so a wrapped result must never be computed.
"""

from __future__ import annotations

import numpy as np
from numba.extending import register_jitable

from gpucc.contract.isa import BINARY_ADD, BINARY_FLOORDIV, BINARY_MOD, BINARY_MUL, BINARY_SUB
from gpucc.contract.status import OK, OVERFLOW, VALUE_ERROR, ZERO_DIVISION

INT64_MIN = -(2**63)
INT64_MAX = 2**63 - 1
MUL_SAFE = 3037000499  # floor(sqrt(2**63 - 1)): |a|, |b| <= this cannot overflow a * b
# truth masks of <, <=, ==, !=, >, >= over the outcomes (bit 2: a < b, bit 1: a == b, bit 0: a > b)
CMP_MASKS = sum(mask << (3 * cmp) for cmp, mask in enumerate((0b100, 0b110, 0b010, 0b101, 0b001, 0b011)))


@register_jitable
def compare(cmp, a, b):
    """1 if `a <cmp> b` holds, else 0 (cmp: contract.isa CMP_* order, 0 <= cmp < 6), branch-free:
    bit (2 * (a < b) + (a == b)) of the comparison's 3-bit truth mask in CMP_MASKS."""
    return (CMP_MASKS >> (3 * cmp + 2 * (a < b) + (a == b))) & 1


@register_jitable
def mul_wide(a, b):
    """(status, a * b) when |a| or |b| is too large for the product to be surely in range."""
    if a == INT64_MIN or b == INT64_MIN:  # fits only times 0 or 1
        other = b if a == INT64_MIN else a
        if other == 0 or other == 1:
            return OK, a * b
        return OVERFLOW, a
    ma = a if a >= 0 else -a
    mb = b if b >= 0 else -b
    if ma <= 1 or mb <= 1:
        return OK, a * b
    limit = INT64_MAX // mb  # the largest |a| that fits; one more when the product
    if (a < 0) != (b < 0) and INT64_MAX % mb == mb - 1:  # is negative and mb | 2**63
        limit += 1
    if ma > limit:
        return OVERFLOW, a
    return OK, a * b


@register_jitable
def arith(op, a, b):
    """(status, result) of a binary int64 op with Python semantics.

    Overflow is detected before computing: numba's signed arithmetic is `nsw` (overflow is
    undefined behaviour to LLVM), so a wrapped result must never be computed."""
    if op == BINARY_ADD:
        if (b > 0 and a > INT64_MAX - b) or (b < 0 and a < INT64_MIN - b):
            return OVERFLOW, a
        return OK, a + b
    if op == BINARY_SUB:
        if (b < 0 and a > INT64_MAX + b) or (b > 0 and a < INT64_MIN + b):
            return OVERFLOW, a
        return OK, a - b
    if op == BINARY_MUL:
        if -MUL_SAFE <= a <= MUL_SAFE and -MUL_SAFE <= b <= MUL_SAFE:
            return OK, a * b
        return mul_wide(a, b)
    if b == 0:
        return ZERO_DIVISION, a
    if b == -1:  # avoid the hardware trap of MIN / -1; x // -1 == -x, x % -1 == 0
        if op == BINARY_MOD:
            return OK, b - b
        if a == INT64_MIN:
            return OVERFLOW, a
        return OK, -a
    if op == BINARY_FLOORDIV:
        return OK, a // b
    return OK, a % b


@register_jitable
def int_pow(a, b):
    """(status, a ** b) for int64 a, b; a negative exponent is VALUE_ERROR (gpucc's ints stay
    ints: CPython would return a float)."""
    if b < 0:
        return VALUE_ERROR, a
    result = np.int64(1)
    base = a
    while b > 0:
        if b & 1:
            st, result = arith(BINARY_MUL, result, base)
            if st != OK:
                return OVERFLOW, a
        b >>= 1
        if b > 0:
            st, base = arith(BINARY_MUL, base, base)
            if st != OK:  # |base| >= 2: a later factor uses it, so the result overflows too
                return OVERFLOW, a
    return OK, result


@register_jitable
def shift(left, a, b):
    """(status, a << b) or (status, a >> b) with Python's semantics on int64."""
    if b < 0:
        return VALUE_ERROR, a  # negative shift count
    if not left:
        if b >= 64:
            return OK, np.int64(-1) if a < 0 else np.int64(0)
        return OK, a >> b
    if a == 0 or b == 0:
        return OK, a
    if b >= 64:
        return OVERFLOW, a
    if b == 63:
        return (OK, np.int64(INT64_MIN)) if a == -1 else (OVERFLOW, a)
    limit = np.int64(1) << (63 - b)
    if a < -limit or a >= limit:
        return OVERFLOW, a
    return OK, a * (np.int64(1) << b)
