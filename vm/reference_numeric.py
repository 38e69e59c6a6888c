"""The numeric instructions (bitwise, shifts, power, abs / min / max, truth, floats) in plain
Python: the spec vm/kernel_numeric.py must match bit for bit.

Each is written with Python's own operators on Python ints and floats, so the kernel's
ports of CPython's float code are checked against CPython itself.  `run(op, arg, a, b)`
returns the result slot value or raises Stop; for one-operand instructions b is unused.
"""

from __future__ import annotations

from gpucc.contract import isa as O
from gpucc.contract import status as S
from gpucc.contract.isa import typed_cmp_fields
from gpucc.contract.valuetypes import T_FLOAT, bits_to_float, float_to_bits

INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1
COMPARISONS = (
    lambda a, b: a < b, lambda a, b: a <= b, lambda a, b: a == b,
    lambda a, b: a != b, lambda a, b: a > b, lambda a, b: a >= b,
)  # fmt: skip


class Stop(Exception):
    """The job ends with `status` (assert operands in lhs / rhs)."""

    def __init__(self, status: int, lhs: int = 0, rhs: int = 0):
        self.status, self.lhs, self.rhs = status, lhs, rhs


def int64(x: int) -> int:
    """x if it fits in int64, else OverflowError."""
    if not INT64_MIN <= x <= INT64_MAX:
        raise Stop(S.OVERFLOW)
    return x


def _float_pow(x: float, y: float) -> float:
    if float("-inf") < x < 0 and y == y and y not in (float("inf"), float("-inf")) and y != int(y):
        raise Stop(S.VALUE_ERROR)  # a complex result (whether or not it would overflow)
    return x**y


def python_op(f, *args):
    """f(*args) with Python's exceptions as statuses (a complex result: ValueError)."""
    try:
        r = f(*args)
    except ZeroDivisionError:
        raise Stop(S.ZERO_DIVISION) from None
    except OverflowError:  # CPython's own (an int past int64 is int64()'s OVERFLOW)
        raise Stop(S.OVERFLOW_ERROR) from None
    except ValueError:
        raise Stop(S.VALUE_ERROR) from None
    if isinstance(r, complex):
        raise Stop(S.VALUE_ERROR)
    return r


def typed_value(bits: int, type_code: int):
    return bits_to_float(bits) if type_code == T_FLOAT else bits


def typed_compare(arg: int, a: int, b: int) -> bool:
    """a <cmp> b for a TYPED_CMP operand arg (Python compares int with float exactly)."""
    cmp, left, right = typed_cmp_fields(arg)
    if cmp >= len(COMPARISONS):
        raise Stop(S.INVALID_BYTECODE)
    return COMPARISONS[cmp](typed_value(a, left), typed_value(b, right))


def _shift(a: int, b: int, left: bool) -> int:
    if b < 0:
        raise Stop(S.VALUE_ERROR)
    if left and a != 0 and b >= 64:  # CPython would try to build the huge int
        raise Stop(S.OVERFLOW)
    return int64(a << b) if left else a >> min(b, 64)


def _int_pow(a: int, b: int) -> int:
    if b < 0:  # gpucc's ints stay ints; CPython would give a float
        raise Stop(S.VALUE_ERROR)
    if abs(a) > 1 and b >= 64:
        raise Stop(S.OVERFLOW)
    return int64(a**b)


def _float_to_int(x: float) -> int:
    return int64(python_op(int, x))


F = bits_to_float
_INT_BINARY = {
    O.BINARY_AND: lambda a, b: a & b,
    O.BINARY_OR: lambda a, b: a | b,
    O.BINARY_XOR: lambda a, b: a ^ b,
    O.BINARY_LSHIFT: lambda a, b: _shift(a, b, True),
    O.BINARY_RSHIFT: lambda a, b: _shift(a, b, False),
    O.BINARY_POW: _int_pow,
    O.INT_MIN2: min,
    O.INT_MAX2: max,
}
_FLOAT_BINARY = {
    O.FLOAT_ADD: lambda x, y: x + y,
    O.FLOAT_SUB: lambda x, y: x - y,
    O.FLOAT_MUL: lambda x, y: x * y,
    O.FLOAT_DIV: lambda x, y: x / y,
    O.FLOAT_FLOORDIV: lambda x, y: x // y,
    O.FLOAT_MOD: lambda x, y: x % y,
    O.FLOAT_POW: _float_pow,
    O.FLOAT_MIN2: min,
    O.FLOAT_MAX2: max,
}
UNARY = {
    O.UNARY_INVERT: lambda a: ~a,
    O.INT_ABS: lambda a: int64(abs(a)),
    O.INT_TRUTH: lambda a: int(bool(a)),
    O.INT_TO_FLOAT: lambda a: float_to_bits(float(a)),
    O.FLOAT_TO_INT: lambda a: _float_to_int(F(a)),
    O.FLOAT_TRUTH: lambda a: int(bool(F(a))),
    O.FLOAT_NEG: lambda a: float_to_bits(-F(a)),
    O.FLOAT_ABS: lambda a: float_to_bits(abs(F(a))),
}


def run(op: int, arg: int, a: int, b: int = 0) -> int:
    """The result slot value of numeric instruction op on slot values a (and b)."""
    if op in UNARY:
        return UNARY[op](a)
    if op in _INT_BINARY:
        return _INT_BINARY[op](a, b)
    if op == O.COMPARE_NUM:
        return int(typed_compare(arg, a, b))
    if op in _FLOAT_BINARY:
        return float_to_bits(python_op(_FLOAT_BINARY[op], F(a), F(b)))
    raise Stop(S.INVALID_BYTECODE)
