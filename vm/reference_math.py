"""The math instructions in plain Python: the spec vm/kernel_math.py must match bit for bit.

Each is CPython's math module itself on Python ints and floats, its exceptions as statuses
(reference_numeric.python_op); only the int results gpucc bounds to 64 bits (int64) and
math.prod's first partial product past int64 are gpucc's own.
"""

from __future__ import annotations

import math

from gpucc.contract import isa as O
from gpucc.contract import status as S
from gpucc.contract.valuetypes import bits_to_float, float_to_bits
from gpucc.vm.reference_numeric import Stop, int64, python_op

F = bits_to_float
FLOAT1 = (math.sqrt, math.exp, math.log, math.log2, math.log10, math.sin, math.cos, math.tan, math.asin, math.acos,
          math.atan, math.fabs, math.degrees, math.radians)  # fmt: skip
FLOAT2 = (math.pow, math.atan2, math.copysign, math.log)
INT1 = (math.isqrt, math.factorial)
INT2 = (math.gcd, math.lcm, math.comb, math.perm)
TESTS = (math.isnan, math.isinf, math.isfinite)


def _prod(values: list, is_float: bool):
    acc = 1.0 if is_float else 1
    for x in values:  # left to right; ints stop at the first partial product past int64
        acc = acc * x if is_float else int64(acc * x)
    return acc


def _int_cost(op: int, arg: int, a: int, b: int) -> int:
    """The extra cost of MATH_INT / MATH_INT2: the factors multiplied (factorial, comb, perm)."""
    if op == O.MATH_INT:
        return a if arg == 1 else 0
    if arg < 2 or b > a or b < 0:
        return 0
    return min(b, a - b) if arg == 2 else b


def execute(job, op: int, arg: int) -> int:
    """Run math instruction op on a vm.reference.Job; returns its extra cost."""
    two = op in (O.MATH_FLOAT2, O.MATH_ISCLOSE, O.MATH_INT2)
    job.need(2 if two else 1, 1)
    b = job.pop()
    a = job.pop() if two else b
    if op == O.MATH_PROD:
        values = job.heap.values(b, arg == 1)
        r = _prod(values, arg == 1)
        job.push(float_to_bits(r) if arg == 1 else r)
        return len(values)
    if op in (O.MATH_INT, O.MATH_INT2):
        f = INT1[arg] if op == O.MATH_INT else INT2[arg]
        if (arg == 1 and op == O.MATH_INT and b > 20) or (op == O.MATH_INT2 and _int_cost(op, arg, a, b) > 64):
            raise Stop(S.OVERFLOW)  # 21! and every comb / perm of more than 64 factors are past int64
        job.push(int64(python_op(f, b) if op == O.MATH_INT else python_op(f, a, b)))
        return _int_cost(op, arg, a, b)
    if op == O.MATH_TO_INT:
        job.push(int64(python_op(math.floor if arg == 0 else math.ceil, F(b))))
    elif op == O.MATH_TEST:
        job.push(int(TESTS[arg](F(b))))
    elif op == O.MATH_ISCLOSE:
        job.push(int(math.isclose(F(a), F(b))))
    elif op == O.MATH_FLOAT:
        job.push(float_to_bits(python_op(FLOAT1[arg], F(b))))
    elif op == O.MATH_FLOAT2:
        job.push(float_to_bits(python_op(FLOAT2[arg], F(a), F(b))))
    else:
        raise Stop(S.INVALID_BYTECODE)
    return 0
