"""The numeric instructions (bitwise, shifts, power, abs / min / max, truth, floats): the CPU
kernel equals the reference interpreter, which uses Python's own int and float operations."""

from __future__ import annotations

import itertools
import math

import pytest
from vmcheck import MAX, MIN, OPERATOR_PROGRAM as PROGRAM, run_asm

from gpucc.contract import isa as O
from gpucc.contract import status as S
from gpucc.contract.valuetypes import T_FLOAT, T_INT, bits_to_float, float_to_bits

INTS = [0, 1, -1, 2, -3, 7, 63, 64, 65, -64, MAX, MIN, 2**32, 3037000500, -(2**62)]
FLOATS = [0.0, -0.0, 1.0, -1.0, 0.5, -2.5, 3.0, 1e308, -1e308, 5e-324, 2.0**53, 2.0**63, -(2.0**63),
          1e-300, math.inf, -math.inf, math.nan, 0.1, 7.0, -7.0]  # fmt: skip
MIXED_INTS = [0, 1, -1, 3, 2**53, 2**53 + 1, MAX, MIN, -(2**63) + 1]

INT_BINARY = ["BINARY_AND", "BINARY_OR", "BINARY_XOR", "BINARY_LSHIFT", "BINARY_RSHIFT", "BINARY_POW",
              "INT_MIN2", "INT_MAX2"]  # fmt: skip
FLOAT_BINARY = ["FLOAT_ADD", "FLOAT_SUB", "FLOAT_MUL", "FLOAT_DIV", "FLOAT_FLOORDIV", "FLOAT_MOD", "FLOAT_POW",
                "FLOAT_MIN2", "FLOAT_MAX2"]  # fmt: skip
UNARY = {"UNARY_INVERT": INTS, "INT_ABS": INTS, "INT_TRUTH": INTS, "INT_TO_FLOAT": INTS + MIXED_INTS}
FLOAT_UNARY = ["FLOAT_TO_INT", "FLOAT_TRUTH", "FLOAT_NEG", "FLOAT_ABS"]



def run(op: str, calls):
    """(status name, value) per call, after checking the CPU kernel == the reference."""
    results, _ = run_asm(PROGRAM.format(op=op), calls)
    return [(S.NAMES[int(s)], int(v)) for s, v in zip(results.status, results.value)]


def fb(x: float) -> int:
    return float_to_bits(x)


@pytest.mark.parametrize("op", INT_BINARY)
def test_int_binary(op):
    pairs = list(itertools.product(INTS, INTS))
    got = run(op, [("two", p) for p in pairs])
    py = {"BINARY_AND": lambda a, b: a & b, "BINARY_OR": lambda a, b: a | b, "BINARY_XOR": lambda a, b: a ^ b,
          "BINARY_LSHIFT": lambda a, b: a << b if b < 200 else 0 if a == 0 else 2**64,
          "BINARY_RSHIFT": lambda a, b: a >> b, "BINARY_POW": lambda a, b: a**b if b < 200 or abs(a) <= 1 else 2**64,
          "INT_MIN2": min, "INT_MAX2": max}[op]  # fmt: skip
    for (a, b), (status, value) in zip(pairs, got):
        if op in ("BINARY_LSHIFT", "BINARY_RSHIFT", "BINARY_POW") and b < 0:
            assert status == "VALUE_ERROR", (op, a, b)
            continue
        want = py(a, b)
        if MIN <= want <= MAX:
            assert (status, value) == ("OK", want), (op, a, b)
        else:
            assert status == "OVERFLOW", (op, a, b)


@pytest.mark.parametrize("op", FLOAT_BINARY)
def test_float_binary_is_pythons(op):
    pairs = list(itertools.product(FLOATS, FLOATS))
    got = run(op, [("two", (fb(a), fb(b))) for a, b in pairs])
    py = {"FLOAT_ADD": lambda a, b: a + b, "FLOAT_SUB": lambda a, b: a - b, "FLOAT_MUL": lambda a, b: a * b,
          "FLOAT_DIV": lambda a, b: a / b, "FLOAT_FLOORDIV": lambda a, b: a // b, "FLOAT_MOD": lambda a, b: a % b,
          "FLOAT_POW": lambda a, b: a**b, "FLOAT_MIN2": min, "FLOAT_MAX2": max}[op]  # fmt: skip
    for (a, b), (status, value) in zip(pairs, got):
        try:
            want = py(a, b)
        except ZeroDivisionError:
            assert status == "ZERO_DIVISION", (op, a, b)
            continue
        except OverflowError:  # CPython's own (a float out of range): caught as OverflowError
            assert status == "OVERFLOW_ERROR", (op, a, b)
            continue
        if isinstance(want, complex):
            assert status == "VALUE_ERROR", (op, a, b)
            continue
        assert status == "OK", (op, a, b, status)
        assert value == fb(want) or (math.isnan(want) and math.isnan(bits_to_float(value))), (op, a, b, want)


@pytest.mark.parametrize("op", sorted(UNARY) + FLOAT_UNARY)
def test_unary(op):
    args = [fb(x) for x in FLOATS] if op in FLOAT_UNARY else UNARY[op]
    got = run(op, [("one", (a,)) for a in args])
    for a, (status, value) in zip(args, got):
        x = bits_to_float(a) if op in FLOAT_UNARY else a
        if op == "FLOAT_TO_INT" and math.isnan(x):
            assert status == "VALUE_ERROR"
        elif op == "FLOAT_TO_INT" and math.isinf(x):
            assert status == "OVERFLOW_ERROR"  # CPython's own
        elif op == "FLOAT_TO_INT" and not -(2.0**63) <= x < 2.0**63:
            assert status == "OVERFLOW"  # past int64: CPython's big int
        elif op == "INT_ABS" and a == MIN:
            assert status == "OVERFLOW"
        else:
            want = {"UNARY_INVERT": lambda v: ~v, "INT_ABS": abs, "INT_TRUTH": lambda v: int(bool(v)),
                    "INT_TO_FLOAT": lambda v: fb(float(v)), "FLOAT_TO_INT": int, "FLOAT_TRUTH": lambda v: int(bool(v)),
                    "FLOAT_NEG": lambda v: fb(-v), "FLOAT_ABS": lambda v: fb(abs(v))}[op](x)  # fmt: skip
            assert (status, value) == ("OK", want), (op, x)


@pytest.mark.parametrize("cmp", O.CMP_NAMES)
def test_compare_num_is_exact_like_python(cmp):
    """int vs float compares exactly (2**53 + 1 != 2.0**53), nan compares false, -0.0 == 0.0."""
    c = O.CMP_NAMES.index(cmp)
    cases = []
    for i, x in itertools.product(MIXED_INTS, FLOATS):
        cases.append(("two", (i, fb(x)), O.typed_cmp(c, T_INT, T_FLOAT), i, x))
        cases.append(("two", (fb(x), i), O.typed_cmp(c, T_FLOAT, T_INT), x, i))
    for x, y in itertools.product(FLOATS, FLOATS):
        cases.append(("two", (fb(x), fb(y)), O.typed_cmp(c, T_FLOAT, T_FLOAT), x, y))
    ops = {"<": lambda a, b: a < b, "<=": lambda a, b: a <= b, "==": lambda a, b: a == b,
           "!=": lambda a, b: a != b, ">": lambda a, b: a > b, ">=": lambda a, b: a >= b}  # fmt: skip
    for arg in sorted({k[2] for k in cases}):
        group = [k for k in cases if k[2] == arg]
        got = run(f"COMPARE_NUM @{arg}", [(f, a) for f, a, *_ in group])
        for (_, _, _, a, b), (status, value) in zip(group, got):
            assert (status, value) == ("OK", int(ops[cmp](a, b))), (a, cmp, b)
