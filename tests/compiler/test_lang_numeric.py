"""Floats, bitwise operators, conditional expressions and the numeric builtins: the VM
(reference interpreter and CPU kernel) gives what CPython gives on the same source."""

from __future__ import annotations

import math

import pytest

from gpucc.compiler.batch import compile_batch
from tests.oracle.oracle import program_disagreements

INF, NAN = math.inf, math.nan
INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1

PROGRAMS = {
    "float_arith": (
        "def f(a: float, b: float) -> float:\n    return a + b * 2.5 - a / b + a // b + a % b\n",
        [(7.5, 2.0), (-7.5, 2.0), (7.5, -2.0), (0.0, 1.0), (1.0, 0.0), (1e308, 10.0), (-0.0, 3.0), (5.0, INF),
         (-5.0, INF), (NAN, 1.0), (0.1, 0.2)],
    ),
    "mixed": (
        "def f(a: int, b: float) -> float:\n    return a * b + a - b / 3 + 1\n",
        [(3, 0.5), (-2, 1e-3), (2**53 + 1, 1.0), (INT64_MAX, 2.0), (0, -0.0)],
    ),
    "truediv_ints": ("def f(a: int, b: int) -> float:\n    return a / b\n", [(7, 2), (-7, 2), (1, 3), (5, 0), (0, 7)]),
    "pow": (
        "def f(a: int, b: int, x: float) -> float:\n    return a ** b + x ** 2 + 2 ** 0.5 * x ** 0.5\n",
        [(2, 10, 4.0), (3, 0, 0.25), (-3, 3, 9.0), (2, 63, 1.0), (2, 62, 1.0), (2, -1, 1.0), (5, 2, -4.0),
         (0, 0, 0.0)],
    ),
    "float_pow_edges": (
        "def f(x: float, y: float) -> float:\n    return x ** y\n",
        [(0.0, -1.0), (-8.0, 1.0 / 3), (10.0, 400.0), (-2.0, 3.0), (-0.0, 3.0), (INF, -1.0), (NAN, 0.0),
         (1.0, NAN), (-1.0, INF), (0.5, -INF), (2.0, 0.5)],
    ),
    "compare_mixed": (
        "def f(a: int, x: float) -> int:\n"
        "    return (a < x) + 2 * (a == x) + 4 * (x <= a) + 8 * (a != x) + 16 * (0 < x < a)\n",
        [(2**53 + 1, 2.0**53), (3, 3.0), (3, 3.5), (-1, -0.5), (0, -0.0), (1, NAN), (INT64_MAX, 2.0**63),
         (INT64_MIN, -(2.0**63)), (5, INF), (5, -INF)],
    ),
    "float_truth": (
        "def f(x: float) -> int:\n    n = 0\n    if x:\n        n += 1\n    if not x:\n        n += 2\n"
        "    y = x or 2.5\n    z = x and 3.5\n    return n + int(y * 10) + int(z * 100) + bool(x)\n",
        [(0.0,), (-0.0,), (1.5,), (NAN,), (-2.0,)],
    ),
    "conversions": (
        "def f(x: float, a: int, b: bool) -> float:\n    return float(a) + int(x) + float(b) + abs(x) + abs(a) + bool(a)\n",
        [(2.7, 3, True), (-2.7, -3, False), (NAN, 0, True), (1e19, 1, False), (-1e19, 1, False),
         (INF, 1, True), (0.5, INT64_MIN, True), (-0.0, 0, False)],
    ),
    "bitwise": (
        "def f(a: int, b: int) -> int:\n    return (a & b) + (a | b) * 3 - (a ^ b) + ~a + (a << 3) + (b >> 2) + (a >> 70)\n",
        [(12, 10), (-12, 10), (0, -1), (INT64_MAX, 1), (2**60, 5), (-(2**60), -5), (7, 0)],
    ),
    "shift_errors": ("def f(a: int, b: int) -> int:\n    return a << b\n", [(1, 62), (1, 63), (-1, 63), (3, 64), (0, 100), (1, -1)]),
    "bool_bitwise": (
        "def f(p: bool, q: bool) -> bool:\n    return (p & q) | (p ^ q)\n", [(True, True), (True, False), (False, False)],
    ),
    "ifexp": (
        "def f(a: int, x: float) -> float:\n    y = a if a > 0 else x\n    z = 1 if a else 2 if x else 3\n"
        "    return y + z + (x if x > a else a * 2.0)\n",
        [(3, 0.5), (-3, 0.5), (0, 0.0), (0, -2.0)],
    ),
    "min_max": (
        "def f(a: int, b: int, x: float, y: float) -> float:\n"
        "    return min(a, b) + max(a, b, 7) + min(x, y) * 10 + max(x, y, 0.5) * 100 + min(y, x)\n",
        [(1, 2, 1.5, -2.5), (5, -5, NAN, 1.0), (0, 0, 1.0, NAN), (3, 9, -0.0, 0.0), (3, 3, 0.0, -0.0)],
    ),
    "widened_local": (
        "def f(n: int) -> float:\n    s = 0\n    for i in range(n):\n        s += i / 2\n    t = 1\n    t = t * 1.5\n"
        "    return s + t\n",
        [(0,), (1,), (5,)],
    ),
    "float_params_take_ints": (
        "def g(x: float) -> float:\n    return x * 2\n\ndef f(a: int) -> float:\n    v: float = a\n    return g(a) + v\n",
        [(3,), (-1,)],
    ),
    "augassign_all": (
        "def f(a: int, b: int) -> int:\n    x = a\n    x &= b\n    x |= 8\n    x ^= a\n    x <<= 2\n    x >>= 1\n"
        "    x **= 2\n    return x\n",
        [(12, 10), (-3, 5), (1, 0)],
    ),
    "literals": (
        "def f() -> float:\n    return 1.5e3 + .25 + 3. + 1_000.5 + 2e-3 + 0.1 + 123456789012345.0 + 1e22 + 0e5\n", [()],
    ),
    "float_assert": (
        "def f(x: float) -> float:\n    assert x >= 0.5\n    assert x != 2\n    assert x\n    return x\n",
        [(1.0,), (0.25,), (2.0,), (NAN,)],
    ),
    "int_abs_overflow": ("def f(a: int) -> int:\n    return abs(a) + -a\n", [(-5,), (INT64_MIN,)]),
}


@pytest.mark.parametrize("backend", ["reference", "cpu"])
def test_numeric_programs_match_cpython(backend):
    assert program_disagreements(PROGRAMS, backend) == []


@pytest.mark.parametrize(
    "src, message",
    [
        ("def f(x: float) -> int:\n    return ~x\n", "unsupported operand types for '~': float and float"),
        ("def f(x: float) -> int:\n    return x & 1\n", "unsupported operand types for '&': float and int"),
        ("def f(a: int, x: float) -> int:\n    return min(a, x)\n", "unsupported operand types for 'min': int and float"),
        ("def f(a: int) -> int:\n    return abs(a, a)\n", "'abs' takes 1 argument(s), 2 given"),
        ("def f(a: int) -> int:\n    return max(a)\n", "unsupported operand types for 'max': int and int"),
        ("def f(a: int) -> int:\n    return a if a\n", "expected 'else' in the conditional expression"),
        ("def f() -> float:\n    return 1j\n", "complex literals (1j): not supported by gpucc"),
        ("def f() -> float:\n    return 1e300\n", "float literal 1e300 needs more than gpucc's exact literal parsing"),
        ("def f() -> int:\n    return 1.5\n", "return type mismatch: expected int, got float"),
        ("def f(a: int) -> int:\n    x: int = 0\n    x = 1.5\n    return x\n", "type mismatch: expected int, got float"),
        ("def f(a: bool) -> bool:\n    a += 1\n    return a\n", "type mismatch: expected bool, got int"),
        ("def f(a: int) -> int:\n    return a @ a\n", "operator '@' is not supported by gpucc"),
        ("def f(c: bool) -> int:\n    return 1 if c else True\n", "unsupported operand types for 'if': int and bool"),
        ("def f(x: float) -> int:\n    for i in range(x):\n        pass\n    return 0\n",
         "type mismatch: expected int, got float"),
    ],
)
def test_numeric_errors_are_named(src, message):
    batch = compile_batch([src])
    assert not batch.ok(0)
    assert message in str(batch.error(0)), str(batch.error(0))
