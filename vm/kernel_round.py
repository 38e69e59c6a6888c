"""round(x, n) of a float, as CPython's float.__round__ (a part of vm/kernel.py's body, called
by vm/kernel_str.py's str_op for FLOAT_ROUND): the exact decimal of x (vm/bigdecimal.py) cut at
n digits after the point, half to even, then the double nearest that decimal.  CPython's
double_round does the same with dtoa (mode 3) and strtod, both exact, so the result is the same
double.  Its scratch is a RAW block of DEC_WORDS words, released after, as STR_FROM's; vm/reference_methods.py
is the spec (Python's own round).

Same one-source rules as run_job (plain Python, numba CPU, CUDA; no allocation, no raising).
"""

from __future__ import annotations

import numpy as np

from gpucc.contract.jitable import nrt_free
from gpucc.contract.status import MEMORY_LIMIT, OK, OVERFLOW_ERROR
from gpucc.vm.kernel_heap import RAW, alloc, release
from gpucc.vm.bigdecimal import BIAS, DEC_WORDS, DP, MANT_BITS, ND, dec_assign, dec_round, dec_shift, dec_to_float_bits

# CPython's bounds (Objects/floatobject.c): past NDIGITS_MAX x is its own rounding, below
# NDIGITS_MIN every finite x rounds to a zero of its sign
NDIGITS_MAX = int((53 - (-1021)) * 0.30103)
NDIGITS_MIN = -int((1024 + 1) * 0.30103)
SIGN = np.int64(-(2**63))


@nrt_free
def float_round(stack, sp, heap, hp):
    """(status, sp, hp, extra cost 0) of FLOAT_ROUND: x's bits under n on top."""
    bits = stack[sp - 2]
    n = stack[sp - 1]
    exp = (bits >> MANT_BITS) & 0x7FF
    mant = bits & ((np.int64(1) << MANT_BITS) - 1)
    result = bits
    if exp == 0x7FF or (exp == 0 and mant == 0) or n > NDIGITS_MAX:
        pass  # inf, nan, a zero, or more digits than a double has: x itself
    elif n < NDIGITS_MIN:
        result = bits & SIGN
    else:
        tmp, hp = alloc(heap, hp, np.int64(DEC_WORDS), RAW)
        if tmp < 0:
            return MEMORY_LIMIT, sp, hp, np.int64(0)
        s = heap[tmp : tmp + DEC_WORDS]
        if exp == 0:
            exp = np.int64(1)  # subnormal
        else:
            mant |= np.int64(1) << MANT_BITS
        dec_assign(s, 0, mant)
        dec_shift(s, 0, exp + BIAS - MANT_BITS)
        cut = s[DP] + n
        if cut < 0:
            s[ND] = 0
        else:
            dec_round(s, 0, cut)
        result = dec_to_float_bits(s, 0, bits < 0)
        hp = release(heap, hp, tmp)
        if (result >> MANT_BITS) & 0x7FF == 0x7FF:
            return OVERFLOW_ERROR, sp, hp, np.int64(0)
    stack[sp - 2] = result
    return OK, sp - 1, hp, np.int64(0)
