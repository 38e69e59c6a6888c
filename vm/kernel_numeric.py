"""The VM kernel's numeric instructions beyond int + - * // % (a part of vm/kernel.py's
body, kept apart so the hot dispatch loop stays short): bitwise ops, shifts, power,
abs / min / max, truth values, and every float instruction.

`numeric_value` computes one of them from its operands; same one-source rules as run_job
(no allocation, no raising).  Operands are exactly as contract.isa.TABLE documents them.
"""

from __future__ import annotations

import numpy as np
from numba.extending import register_jitable

from gpucc.contract.isa import (
    BINARY_AND,
    BINARY_LSHIFT,
    BINARY_OR,
    BINARY_POW,
    BINARY_RSHIFT,
    BINARY_XOR,
    COMPARE_NUM,
    FLOAT_ABS,
    FLOAT_ADD,
    FLOAT_DIV,
    FLOAT_FLOORDIV,
    FLOAT_MAX2,
    FLOAT_MIN2,
    FLOAT_MOD,
    FLOAT_MUL,
    FLOAT_NEG,
    FLOAT_POW,
    FLOAT_SUB,
    FLOAT_TO_INT,
    FLOAT_TRUTH,
    INT_ABS,
    INT_MAX2,
    INT_MIN2,
    INT_TO_FLOAT,
    INT_TRUTH,
    UNARY_INVERT,
)  # fmt: skip
from gpucc.contract.status import INVALID_BYTECODE, OK, OVERFLOW, ZERO_DIVISION
from gpucc.vm.floats import b2f, f2b, float_divmod, float_pow, float_to_int, typed_compare
from gpucc.vm.intmath import INT64_MIN, int_pow, shift


@register_jitable
def _unary(op, a):
    """(status, result) of a one-operand instruction on slot value a."""
    if op == UNARY_INVERT:
        return OK, -a - 1  # never overflows: ~(-2**63) == 2**63 - 1
    if op == INT_ABS:
        if a == INT64_MIN:
            return OVERFLOW, a
        return OK, (a if a >= 0 else -a)
    if op == INT_TRUTH:
        return OK, np.int64(1 if a != 0 else 0)
    if op == INT_TO_FLOAT:
        return OK, f2b(np.float64(a))
    x = b2f(a)
    if op == FLOAT_TO_INT:
        return float_to_int(x)
    if op == FLOAT_TRUTH:
        return OK, np.int64(1 if x != 0.0 else 0)
    if op == FLOAT_NEG:
        return OK, f2b(-x)
    if op == FLOAT_ABS:
        return OK, f2b(abs(x))
    return INVALID_BYTECODE, a


@register_jitable
def _binary(op, arg, a, b):
    """(status, result) of a two-operand instruction on slot values a, b."""
    if op == BINARY_AND:
        return OK, a & b
    if op == BINARY_OR:
        return OK, a | b
    if op == BINARY_XOR:
        return OK, a ^ b
    if op == BINARY_LSHIFT or op == BINARY_RSHIFT:
        return shift(op == BINARY_LSHIFT, a, b)
    if op == BINARY_POW:
        return int_pow(a, b)
    if op == INT_MIN2:
        return OK, (b if b < a else a)
    if op == INT_MAX2:
        return OK, (b if b > a else a)
    if op == COMPARE_NUM:
        return OK, np.int64(typed_compare(arg, a, b))
    x = b2f(a)
    y = b2f(b)
    r = x
    if op == FLOAT_ADD:
        r = x + y
    elif op == FLOAT_SUB:
        r = x - y
    elif op == FLOAT_MUL:
        r = x * y
    elif op == FLOAT_DIV:
        if y == 0.0:
            return ZERO_DIVISION, a
        r = x / y
    elif op == FLOAT_FLOORDIV or op == FLOAT_MOD:
        st, q, m = float_divmod(x, y)
        if st != OK:
            return st, a
        r = q if op == FLOAT_FLOORDIV else m
    elif op == FLOAT_POW:
        st, r = float_pow(x, y)
        if st != OK:
            return st, a
    elif op == FLOAT_MIN2:
        r = y if y < x else x
    elif op == FLOAT_MAX2:
        r = y if y > x else x
    else:
        return INVALID_BYTECODE, a
    return OK, f2b(r)


@register_jitable
def numeric_value(op, arg, a, b, pops):
    """(status, result) of numeric instruction op, popping `pops` operands: a b, or b alone
    when pops == 1 (run_job reads them and pushes the result: no array crosses this call,
    so numba's CPU code does no reference counting here)."""
    if pops == 1:
        return _unary(op, b)
    return _binary(op, arg, a, b)
