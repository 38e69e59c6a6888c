"""The math instructions: the CPU kernel (numba: the platform libm) equals the reference, which
is CPython's math module itself, bit for bit, errors included; the plain-Python kernel too for
the int instructions and the tests (vmcheck.run_plain raises on every numpy floating-point
flag, which float results such as inf - inf set: the float instructions' Python path is
tests/gpu/test_cuda_math.py's, under the CUDA simulator)."""

from __future__ import annotations

import math
import random
import struct

import pytest
from vmcheck import MAX, MIN, OPERATOR_PROGRAM as PROGRAM, run_asm

from gpucc.contract import isa as O
from gpucc.contract import status as S
from gpucc.contract.valuetypes import bits_to_float, float_to_bits
from gpucc.vm import kernel_math

EDGES = [0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 2.0, -2.5, 3.0, 1e308, -1e308, 5e-324, -5e-324, 2.0**53, 2.0**63,
         -(2.0**63), 1e-300, math.inf, -math.inf, math.nan, 0.1, 7.0, -7.0, 709.782712893384, 709.7827128933841,
         -745.2, 1e22, math.pi, math.e, 1.0000000001, 0.9999999999, 100.0, 1024.5]  # fmt: skip
INTS = [0, 1, 2, 3, 5, 6, 20, 21, 34, 62, 63, 64, 66, 100, 1000, 10**9, 3037000499**2, 3037000499**2 - 1,
        3037000499**2 + 1,
        MAX, MIN, -1, -7, -(2**62), 2**62, 12, 18, 2**32 + 15]  # fmt: skip


def floats(n: int, seed: int) -> list[float]:
    """Edge values, random bit patterns and random values of every scale."""
    rng = random.Random(seed)
    out = list(EDGES)
    for _ in range(n):
        out.append(struct.unpack("<d", rng.getrandbits(64).to_bytes(8, "little"))[0])
        out.append(rng.uniform(-1, 1) * 10 ** rng.randint(-8, 3))
        out.append(rng.choice([-1, 1]) * rng.random() * 2.0)
    return out


def run(op: str, calls, plain: bool = False):
    results, _ = run_asm(PROGRAM.format(op=op), calls, plain=plain)
    return [(S.NAMES[int(s)], int(v)) for s, v in zip(results.status, results.value)]


def python_outcome(f, *args):
    """(status name, value) of CPython's f(*args): its result, or its exception's status."""
    try:
        r = f(*args)
    except ValueError:
        return "VALUE_ERROR", None
    except OverflowError:  # CPython's own: caught as OverflowError
        return "OVERFLOW_ERROR", None
    except ZeroDivisionError:
        return "ZERO_DIVISION", None
    if isinstance(r, bool):
        return "OK", int(r)
    if isinstance(r, float):
        return "OK", float_to_bits(r)
    return ("OK", r) if MIN <= r <= MAX else ("OVERFLOW", None)


def check(got, want, what):
    for (status, value), (wstatus, wvalue), w in zip(got, want, what):
        assert status == wstatus, (w, status, wstatus)
        if wvalue is not None:
            assert value == wvalue, (w, bits_to_float(value), bits_to_float(wvalue))


def test_modes_are_the_tables():
    """The kernel's mode numbers are contract.isa.MATH_MODES' order."""
    for name, modes in O.MATH_MODES.items():
        for k, fname in enumerate(modes):
            const = {"log": "LOG_BASE" if name == "MATH_FLOAT2" else "LOG"}.get(fname, fname.upper())
            if hasattr(kernel_math, const) and name not in ("MATH_TO_INT", "MATH_TEST"):
                assert getattr(kernel_math, const) == k, (name, fname)


def test_exp_max_is_the_last_finite_exp():
    assert math.isfinite(math.exp(kernel_math.EXP_MAX))
    with pytest.raises(OverflowError):
        math.exp(math.nextafter(kernel_math.EXP_MAX, math.inf))


@pytest.mark.parametrize("k", range(len(O.MATH_MODES["MATH_FLOAT"])))
def test_float_functions_are_cpythons(k):
    name = O.MATH_MODES["MATH_FLOAT"][k]
    xs = floats(300, k)
    got = run(f"MATH_FLOAT {k}", [("one", (float_to_bits(x),)) for x in xs])
    check(got, [python_outcome(getattr(math, name), x) for x in xs], xs)


@pytest.mark.parametrize("k", range(len(O.MATH_MODES["MATH_FLOAT2"])))
def test_float2_functions_are_cpythons(k):
    name = O.MATH_MODES["MATH_FLOAT2"][k]
    rng = random.Random(k)
    xs = floats(60, 10 + k)
    pairs = [(x, y) for x in EDGES for y in EDGES] + [(rng.choice(xs), rng.choice(xs)) for _ in range(600)]
    pairs += [(rng.uniform(0, 10), rng.uniform(-5, 5)) for _ in range(300)] + [(8.0, 1.0), (-8.0, 1 / 3)]
    got = run(f"MATH_FLOAT2 {k}", [("two", (float_to_bits(x), float_to_bits(y))) for x, y in pairs])
    check(got, [python_outcome(getattr(math, name), x, y) for x, y in pairs], pairs)


@pytest.mark.parametrize("k", range(2))
def test_floor_ceil_are_cpythons(k):
    xs = floats(200, 20 + k)
    got = run(f"MATH_TO_INT {k}", [("one", (float_to_bits(x),)) for x in xs])
    check(got, [python_outcome(math.floor if k == 0 else math.ceil, x) for x in xs], xs)


@pytest.mark.parametrize("k", range(3))
def test_tests_are_cpythons(k):
    xs = floats(50, 30 + k)
    got = run(f"MATH_TEST {k}", [("one", (float_to_bits(x),)) for x in xs], plain=True)
    check(got, [python_outcome(getattr(math, O.MATH_MODES["MATH_TEST"][k]), x) for x in xs], xs)


def test_isclose_is_cpythons():
    rng = random.Random(5)
    pairs = [(x, y) for x in EDGES for y in EDGES]
    pairs += [(x, x * (1 + rng.choice([-1, 1]) * 10 ** rng.uniform(-12, -6))) for x in floats(100, 6)]
    got = run("MATH_ISCLOSE", [("two", (float_to_bits(x), float_to_bits(y))) for x, y in pairs])
    check(got, [python_outcome(math.isclose, x, y) for x, y in pairs], pairs)


@pytest.mark.parametrize("k", range(2))
def test_isqrt_factorial(k):
    rng = random.Random(k)
    ns = INTS + [rng.randrange(0, MAX) for _ in range(300)] + [rng.randrange(0, 25) for _ in range(30)]
    got = run(f"MATH_INT {k}", [("one", (n,)) for n in ns], plain=True)
    f = math.isqrt if k == 0 else lambda n: math.factorial(n) if n <= 25 else 2**64
    check(got, [python_outcome(f, n) for n in ns], ns)


@pytest.mark.parametrize("k", range(4))
def test_gcd_lcm_comb_perm(k):
    rng = random.Random(k)
    pairs = [(a, b) for a in INTS for b in INTS]
    pairs += [(rng.randrange(0, 70), rng.randrange(0, 70)) for _ in range(300)]
    pairs += [(rng.randrange(MIN, MAX), rng.randrange(MIN, MAX)) for _ in range(100)]
    name = O.MATH_MODES["MATH_INT2"][k]

    def f(a, b):  # comb / perm of more than 64 factors: past int64 (CPython would take long)
        if name in ("comb", "perm") and a >= b >= 0 and min(b, a - b if name == "comb" else b) > 64:
            return 2**64
        return getattr(math, name)(a, b)

    got = run(f"MATH_INT2 {k}", [("two", p) for p in pairs], plain=True)
    check(got, [python_outcome(f, a, b) for a, b in pairs], pairs)


def test_prod():
    prog = """
.func ints
    LOAD_INT 3
    LOAD_INT -4
    LOAD_INT 5
    NEW_LIST 3
    MATH_PROD 0
    RETURN
.func none
    NEW_LIST 0
    MATH_PROD 0
    RETURN
.func big
    LOAD_INT 2000000000
    LOAD_INT 2000000000
    LOAD_INT 3
    NEW_LIST 3
    MATH_PROD 0
    RETURN
.func fl
    LOAD_INT 3
    INT_TO_FLOAT
    LOAD_INT 10
    INT_TO_FLOAT
    LOAD_INT 1
    INT_TO_FLOAT
    FLOAT_DIV
    NEW_LIST 2
    MATH_PROD 1
    RETURN
"""
    results, _ = run_asm(prog, [("ints", ()), ("none", ()), ("big", ()), ("fl", ())], plain=True)
    got = [(S.NAMES[int(s)], int(v)) for s, v in zip(results.status, results.value)]
    assert got[:3] == [("OK", -60), ("OK", 1), ("OVERFLOW", 0)]
    assert got[3] == ("OK", float_to_bits(math.prod([3.0, 10.0])))
    assert list(results.cost[:2]) == [3 + 5 + 5 + 2, 2 + 2 + 2]  # LOAD_INT 1, NEW_LIST and MATH_PROD 2 + n, RETURN 2
