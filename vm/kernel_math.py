"""The VM kernel's math instructions (a part of vm/kernel.py's body, like vm/kernel_value.py):
CPython's math module on the value on top of the stack.

Same one-source rules as run_job (plain Python, numba CPU, CUDA; no allocation, no raising).
A float function calls the target's math (numba's CPU target: the platform libm, as CPython
does; CUDA: libdevice, which may differ in the last place; plain Python and the CUDA
simulator: Python's math module).  Python's math raises where CPython's does, so every domain
and overflow check comes before the call: the call itself never fails.  vm/reference_math.py
is the spec (Python's math module itself, its exceptions as statuses).
"""

from __future__ import annotations

import math

import numpy as np
from numba.extending import register_jitable

from gpucc.contract.isa import (
    BINARY_FLOORDIV,
    BINARY_MOD,
    BINARY_MUL,
    MATH_FLOAT,
    MATH_FLOAT2,
    MATH_INT,
    MATH_INT2,
    MATH_ISCLOSE,
    MATH_PROD,
    MATH_TEST,
    MATH_TO_INT,
)
from gpucc.contract.jitable import nrt_free
from gpucc.contract.status import INVALID_BYTECODE, OK, OVERFLOW, OVERFLOW_ERROR, VALUE_ERROR, ZERO_DIVISION
from gpucc.vm.floats import b2f, f2b, ffloor, float_pow, float_to_int
from gpucc.vm.intmath import INT64_MIN, arith
from gpucc.vm.kernel_heap import header

# MATH_FLOAT's functions (its IMM operand), MATH_FLOAT2's, MATH_INT's, MATH_INT2's
(SQRT, EXP, LOG, LOG2, LOG10, SIN, COS, TAN, ASIN, ACOS, ATAN, FABS, DEGREES, RADIANS) = range(14)
POW, ATAN2, COPYSIGN, LOG_BASE = range(4)
ISQRT, FACTORIAL = range(2)
GCD, LCM, COMB, PERM = range(4)
EXP_MAX = 709.782712893384  # the largest double whose exp is finite (tests/vm/test_vm_math.py)
RAD_TO_DEG = 180.0 / math.pi  # CPython's radToDeg and degToRad
DEG_TO_RAD = math.pi / 180.0
ISQRT_MAX = 3037000499  # isqrt(2**63 - 1)
FACTORIAL_MAX = 20  # 21! is past int64
REL_TOL = 1e-09  # math.isclose's default


@register_jitable
def float1(f, x):
    """(status, math.f(x)) for MATH_FLOAT's function f."""
    if f == SQRT:
        return (VALUE_ERROR, x) if x < 0.0 else (OK, math.sqrt(x))
    if f == EXP:
        return (OVERFLOW_ERROR, x) if x > EXP_MAX and not math.isinf(x) else (OK, math.exp(x))
    if f == LOG or f == LOG2 or f == LOG10:
        if x <= 0.0:  # 0, the negatives and -inf; nan gives nan
            return VALUE_ERROR, x
        return OK, (math.log(x) if f == LOG else math.log2(x) if f == LOG2 else math.log10(x))
    if f == SIN or f == COS or f == TAN:
        if math.isinf(x):
            return VALUE_ERROR, x
        return OK, (math.sin(x) if f == SIN else math.cos(x) if f == COS else math.tan(x))
    if f == ASIN or f == ACOS:
        if x > 1.0 or x < -1.0:
            return VALUE_ERROR, x
        return OK, (math.asin(x) if f == ASIN else math.acos(x))
    if f == ATAN:
        return OK, math.atan(x)
    if f == FABS:
        return OK, math.fabs(x)
    if f == DEGREES:
        return OK, x * RAD_TO_DEG
    if f == RADIANS:
        return OK, x * DEG_TO_RAD
    return INVALID_BYTECODE, x


@register_jitable
def float2(f, x, y):
    """(status, result) of MATH_FLOAT2's function f of x, y."""
    if f == POW:  # CPython's math.pow is float ** but for 0.0 ** -y: ValueError there
        st, r = float_pow(x, y)
        return (VALUE_ERROR if st == ZERO_DIVISION else st), r
    if f == ATAN2:
        return OK, math.atan2(x, y)
    if f == COPYSIGN:
        return OK, math.copysign(x, y)
    if f == LOG_BASE:
        if x <= 0.0 or y <= 0.0:
            return VALUE_ERROR, x
        den = math.log(y)
        if den == 0.0:
            return ZERO_DIVISION, x
        return OK, math.log(x) / den
    return INVALID_BYTECODE, x


@register_jitable
def isclose(a, b):
    """math.isclose(a, b) with its default tolerances (CPython's math_isclose_impl)."""
    if a == b:
        return True
    if math.isinf(a) or math.isinf(b):
        return False
    diff = math.fabs(b - a)
    return diff <= math.fabs(REL_TOL * b) or diff <= math.fabs(REL_TOL * a)


@register_jitable
def isqrt(n):
    """The exact int square root of n >= 0: the float root, corrected."""
    s = min(np.int64(math.sqrt(np.float64(n))), np.int64(ISQRT_MAX))
    while s * s > n:
        s -= 1
    while s < ISQRT_MAX and (s + 1) * (s + 1) <= n:
        s += 1
    return s


@register_jitable
def gcd(a, b):
    """(status, math.gcd(a, b)): Euclid on the non-positive a and b (-(2**63) has no positive)."""
    x = a if a <= 0 else -a
    y = b if b <= 0 else -b
    while y != 0:
        _, r = arith(BINARY_MOD, x, y)  # x % y of two negatives: in (y, 0]
        x = y
        y = r
    return (OVERFLOW, x) if x == INT64_MIN else (OK, -x)


@register_jitable
def int2(f, a, b):
    """(status, result, extra cost) of MATH_INT2's function f of a, b."""
    zero = np.int64(0)
    if f == GCD:
        st, g = gcd(a, b)
        return st, g, zero
    if f == LCM:
        if a == 0 or b == 0:
            return OK, zero, zero
        st, g = gcd(a, b)
        if st != OK:
            return st, zero, zero
        _, q = arith(BINARY_FLOORDIV, a, g)
        st, r = arith(BINARY_MUL, q, b)
        if st != OK or r == INT64_MIN:
            return OVERFLOW, zero, zero
        return OK, (r if r >= 0 else -r), zero
    if f != COMB and f != PERM:
        return INVALID_BYTECODE, zero, zero
    if a < 0 or b < 0:
        return VALUE_ERROR, zero, zero
    if b > a:
        return OK, zero, zero
    k = min(b, a - b) if f == COMB else b
    r = np.int64(1)
    i = np.int64(0)
    while i < k:  # r stays exact: comb divides by i + 1 after cancelling gcd(r, i + 1)
        m = a - i
        if f == COMB:
            _, g = gcd(r, i + 1)
            r = r // g
            m = m // ((i + 1) // g)
        st, r = arith(BINARY_MUL, r, m)
        if st != OK:
            return OVERFLOW, zero, zero
        i += 1
    return OK, r, k


@register_jitable
def int1(f, n):
    """(status, result, extra cost) of MATH_INT's function f of n."""
    zero = np.int64(0)
    if f != ISQRT and f != FACTORIAL:
        return INVALID_BYTECODE, zero, zero
    if n < 0:
        return VALUE_ERROR, zero, zero
    if f == ISQRT:
        return OK, isqrt(n), zero
    if n > FACTORIAL_MAX:
        return OVERFLOW, zero, zero
    r = np.int64(1)
    for i in range(2, n + 1):
        r *= i
    return OK, r, n


@nrt_free
def prod(kind, heap, hp, h):
    """(status, math.prod(xs) of the list handle h, extra cost); kind 1: floats."""
    zero = np.int64(0)
    d, n, _ = header(heap, hp, h)
    if d < 0:
        return INVALID_BYTECODE, zero, zero
    if kind == 1:
        acc = 1.0
        for k in range(n):
            acc *= b2f(heap[d + k])
        return OK, f2b(acc), n
    total = np.int64(1)
    for k in range(n):
        st, total = arith(BINARY_MUL, total, heap[d + k])
        if st != OK:
            return OVERFLOW, zero, zero
    return OK, total, n


@nrt_free
def math_op(op, arg, stack, sp, heap, hp):
    """Run math instruction op (arg: its IMM operand) on the stack whose top is at sp - 1;
    returns (status, sp, extra cost)."""
    zero = np.int64(0)
    a = stack[sp - 1]
    if op == MATH_PROD:
        st, r, extra = prod(arg, heap, hp, a)
    elif op == MATH_INT:
        st, r, extra = int1(arg, a)
    elif op == MATH_INT2:
        st, r, extra = int2(arg, stack[sp - 2], a)
    elif op == MATH_TO_INT:
        x = b2f(a)
        st, r = float_to_int(ffloor(x) if arg == 0 else -ffloor(-x))
        extra = zero
    elif op == MATH_TEST:
        x = b2f(a)
        t = x != x if arg == 0 else math.isinf(x) if arg == 1 else not (x != x or math.isinf(x))
        st, r, extra = OK, np.int64(1 if t else 0), zero
    elif op == MATH_ISCLOSE:
        st, r, extra = OK, np.int64(1 if isclose(b2f(stack[sp - 2]), b2f(a)) else 0), zero
    elif op == MATH_FLOAT:
        st, x = float1(arg, b2f(a))
        r, extra = f2b(x), zero
    elif op == MATH_FLOAT2:
        st, x = float2(arg, b2f(stack[sp - 2]), b2f(a))
        r, extra = f2b(x), zero
    else:
        return INVALID_BYTECODE, sp, zero
    if st != OK:
        return st, sp, zero
    if op == MATH_INT2 or op == MATH_ISCLOSE or op == MATH_FLOAT2:
        sp -= 1
    stack[sp - 1] = r
    return OK, sp, extra
