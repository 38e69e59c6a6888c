"""Python's float semantics for the VM kernel bodies (numba subset): bit casts, floor
division and modulo, power, conversions and exact int-float comparisons.

A float lives in an int64 slot as the bits of its IEEE double.  Each function mirrors the
CPython function named in its doc (Objects/floatobject.c) and returns a status instead of
raising.  vm/reference.py checks these against Python's own float operations.
"""

from __future__ import annotations

import math

import numpy as np
from numba.core import types
from numba.extending import intrinsic, overload, register_jitable

from gpucc.contract.jitable import typed_cmp_fields
from gpucc.contract.status import OK, OVERFLOW, OVERFLOW_ERROR, VALUE_ERROR, ZERO_DIVISION
from gpucc.contract.valuetypes import T_FLOAT
from gpucc.vm.intmath import compare

TWO_63 = 9223372036854775808.0  # 2.0 ** 63
CMP_NE = 3


def fmod(x, y):
    """C's fmod (exact; nan for an infinite x or a zero y).  Plain Python: numpy's; numba's
    CPU target lacks math.fmod, so the overloads below supply it."""
    return np.fmod(np.float64(x), np.float64(y))


@intrinsic
def _frem(typingctx, x, y):
    def codegen(context, builder, signature, args):
        return builder.frem(args[0], args[1])  # LLVM lowers it to libm's fmod on the CPU

    return types.float64(types.float64, types.float64), codegen


@overload(fmod, target="cpu")
def _fmod_cpu(x, y):
    return lambda x, y: _frem(np.float64(x), np.float64(y))


def _register_cuda_fmod():
    """On CUDA, math.fmod is libdevice's exact fmod (NVPTX's frem expansion is not exact)."""
    try:
        overload(fmod, target="cuda")(lambda x, y: lambda x, y: math.fmod(x, y))
    except Exception:  # noqa: BLE001 - no numba-cuda target registered: CPU only
        pass


_register_cuda_fmod()


@register_jitable
def f2b(x):
    """The slot value (bits) of float x."""
    return np.float64(x).view(np.int64)


@register_jitable
def b2f(bits):
    """The float whose bits a slot holds."""
    return np.int64(bits).view(np.float64)


@register_jitable
def ffloor(x):
    """floor(x) as a float (nan and infinities unchanged)."""
    if x - x != 0.0:
        return x
    t = x - fmod(x, 1.0)
    if t > x:
        t -= 1.0
    return t


@register_jitable
def float_divmod(a, b):
    """(status, a // b, a % b): CPython's float_divmod."""
    if b == 0.0:
        return ZERO_DIVISION, a, a
    mod = fmod(a, b)
    div = (a - mod) / b
    if mod != 0.0:
        if (b < 0.0) != (mod < 0.0):
            mod += b
            div -= 1.0
    else:
        mod = math.copysign(0.0, b)
    if div != 0.0:
        floordiv = ffloor(div)
        if div - floordiv > 0.5:
            floordiv += 1.0
    else:
        floordiv = math.copysign(0.0, a / b)
    return OK, floordiv, mod


@register_jitable
def _odd_integer(x):
    return fmod(math.fabs(x), 2.0) == 1.0


@register_jitable
def float_pow(v, w):
    """(status, v ** w): CPython's float_pow.  A negative base with a fractional exponent is
    VALUE_ERROR (CPython returns a complex number)."""
    if w == 0.0:
        return OK, 1.0
    if v != v:
        return OK, v
    if w != w:
        return OK, (1.0 if v == 1.0 else w)
    if math.isinf(w):
        v = math.fabs(v)
        if v == 1.0:
            return OK, 1.0
        if (w > 0.0) == (v > 1.0):
            return OK, math.fabs(w)
        return OK, 0.0
    if math.isinf(v):
        odd = _odd_integer(w)
        if w > 0.0:
            return OK, (v if odd else math.fabs(v))
        return OK, (math.copysign(0.0, v) if odd else 0.0)
    if v == 0.0:
        if w < 0.0:
            return ZERO_DIVISION, v
        return OK, (v if _odd_integer(w) else 0.0)
    negate = False
    if v < 0.0:
        if w != ffloor(w):
            return VALUE_ERROR, v
        v = -v
        negate = _odd_integer(w)
    if v == 1.0:
        return OK, (-1.0 if negate else 1.0)
    r = v**w
    if math.isinf(r):
        return OVERFLOW_ERROR, v
    return OK, (-r if negate else r)


@register_jitable
def float_to_int(x):
    """(status, int(x)): toward zero; nan is VALUE_ERROR, an infinity CPython's OverflowError
    (OVERFLOW_ERROR), a finite x outside int64 OVERFLOW (CPython's ints are unbounded: gpucc's
    stop at 64 bits)."""
    if x != x:
        return VALUE_ERROR, np.int64(0)
    if math.isinf(x):
        return OVERFLOW_ERROR, np.int64(0)
    if x >= TWO_63 or x < -TWO_63:
        return OVERFLOW, np.int64(0)
    return OK, np.int64(x)


@register_jitable
def fcompare(cmp, a, b):
    """1 if float a <cmp> b, else 0 (nan: only != holds)."""
    if a != a or b != b:
        return 1 if cmp == CMP_NE else 0
    return compare(cmp, a, b)


@register_jitable
def int_float_compare(cmp, i, f):
    """1 if int i <cmp> float f, exactly (as CPython compares int with float), else 0."""
    if f != f:
        return 1 if cmp == CMP_NE else 0
    if f >= TWO_63:
        return compare(cmp, 0, 1)  # i < f
    if f < -TWO_63:
        return compare(cmp, 1, 0)
    fl = ffloor(f)
    n = np.int64(fl)
    if i != n:
        return compare(cmp, i, n)  # |i - f| >= |i - floor(f)| past the fraction
    return compare(cmp, 0, 0) if fl == f else compare(cmp, 0, 1)


@register_jitable
def typed_compare(arg, a, b):
    """1 if slot values a <cmp> b hold for a TYPED_CMP operand arg, else 0."""
    cmp, lt, rt = typed_cmp_fields(arg)
    if lt == T_FLOAT and rt == T_FLOAT:
        return fcompare(cmp, b2f(a), b2f(b))
    if lt == T_FLOAT:
        mirrored = cmp if cmp == 2 or cmp == CMP_NE else cmp ^ 4  # a < b == b > a (CMP_* order)
        return int_float_compare(mirrored, b, b2f(a))
    if rt == T_FLOAT:
        return int_float_compare(cmp, a, b2f(b))
    return compare(cmp, a, b)
