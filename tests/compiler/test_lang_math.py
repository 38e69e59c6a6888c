"""The math module (`import math`, `import math as m`, `from math import ...`): the VM
(reference interpreter and CPU kernel) gives what CPython gives on the same source, floats
bit for bit (an outcome is the value's repr) and errors by kind, on edge and random inputs;
modules and names gpucc does not have are located compile errors naming them."""

from __future__ import annotations

import math
import random

import pytest

from gpucc.compiler.batch import compile_batch
from gpucc.compiler.modules import MATH_CONSTANTS, MATH_FUNCTIONS
from gpucc.contract.isa import MATH_MODES
from tests.oracle.oracle import program_disagreements

INF, NAN = math.inf, math.nan
INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1
EDGES = [0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 2.0, 1e308, -1e308, 5e-324, 1e-300, INF, -INF, NAN, 0.1, 7.0, -7.5,
         709.782712893384, 709.7827128933841, 1e22, math.pi, 2.0**63, -(2.0**63), 1.5, -2.5]  # fmt: skip


def _floats(seed: int, n: int = 60) -> list[float]:
    rng = random.Random(seed)
    xs = list(EDGES)
    for _ in range(n):
        xs.append(rng.uniform(-1, 1) * 10 ** rng.randint(-6, 3))
        xs.append(rng.uniform(-1.2, 1.2))
    return xs


def _ints(seed: int, n: int = 40) -> list[int]:
    rng = random.Random(seed)
    return [0, 1, 2, 5, 20, 21, 62, 63, 66, 100, -1, -7, INT64_MAX, INT64_MIN, 3037000499**2] + [
        rng.choice([rng.randrange(-100, 100), rng.randrange(INT64_MIN, INT64_MAX)]) for _ in range(n)]


def _float_programs() -> dict:
    """One program per function of floats: its one or two float arguments."""
    out = {}
    for op, modes in MATH_MODES.items():
        if op in ("MATH_INT", "MATH_INT2"):
            continue
        for name in dict.fromkeys(modes):
            two = op == "MATH_FLOAT2"
            ret = {"MATH_TO_INT": "int", "MATH_TEST": "bool"}.get(op, "float")
            params = "x: float, y: float" if two else "x: float"
            src = f"import math\n\n\ndef f({params}) -> {ret}:\n    return math.{name}({'x, y' if two else 'x'})\n"
            xs = _floats(len(out))
            rng = random.Random(len(out))
            cases = ([(x, y) for x in EDGES for y in EDGES[::3]] + [(rng.choice(xs), rng.choice(xs)) for _ in range(150)]
                     if two else [(x,) for x in xs])  # fmt: skip
            out[f"{op}.{name}"] = (src, cases)
    return out


def _int_programs() -> dict:
    out = {}
    for name in MATH_MODES["MATH_INT"]:
        out[name] = (f"import math\n\n\ndef f(n: int) -> int:\n    return math.{name}(n)\n",
                     [(n,) for n in _ints(1) if name == "isqrt" or n < 10**6])  # fmt: skip
    for name in MATH_MODES["MATH_INT2"]:
        rng = random.Random(name)
        pairs = [(a, b) for a in _ints(2, 8) for b in _ints(3, 8)] + [
            (rng.randrange(0, 80), rng.randrange(0, 80)) for _ in range(120)]
        out[name] = (f"import math\n\n\ndef f(a: int, b: int) -> int:\n    return math.{name}(a, b)\n", pairs)
    return out


PROGRAMS = {
    **_float_programs(),
    **_int_programs(),
    "ints_as_floats": (
        "import math\n\n\ndef f(n: int, b: bool) -> float:\n"
        "    return math.sqrt(n) + math.log(n, 3) + math.exp(b) + math.pow(n, 2) + math.atan2(n, b) + math.fabs(n)\n",
        [(n, b) for n in (0, 1, 2, 9, 10**6, -4, INT64_MAX, 2**53 + 1) for b in (True, False)],
    ),
    "floor_ceil_trunc_of_ints": (
        "import math\n\n\ndef f(n: int, b: bool) -> int:\n"
        "    return math.floor(n) - math.ceil(n) + math.trunc(n) + math.floor(b) + math.ceil(b)\n",
        [(n, b) for n in (0, 7, -7, INT64_MAX, INT64_MIN + 1) for b in (True, False)],
    ),
    "trunc_floats": ("import math\n\n\ndef f(x: float) -> int:\n    return math.trunc(x)\n", [(x,) for x in _floats(9)]),
    "isclose": (
        "import math\n\n\ndef f(a: float, b: float) -> bool:\n    return math.isclose(a, b)\n",
        [(a, b) for a in EDGES for b in EDGES] + [(1.0, 1.0 + 1e-10), (1.0, 1.0 + 1e-8), (1e-300, 0.0), (5.0, 5.0000000001)],
    ),
    "log_base": (
        "import math\n\n\ndef f(x: float, b: float) -> float:\n    return math.log(x, b)\n",
        [(8.0, 2.0), (100.0, 10.0), (8.0, 1.0), (0.0, 2.0), (2.0, 0.0), (-1.0, 2.0), (INF, 2.0), (2.0, INF),
         (NAN, 2.0), (1.0, 1.0), (0.5, 0.25), (1e308, 1.0000001)],
    ),
    "prod_ints": (
        "import math\n\n\ndef f(xs: list[int]) -> int:\n    return math.prod(xs)\n",
        [([],), ([3, -4, 5],), ([2**31, 2**31],), ([2**32, 2**32, 0],), ([0, 2**62, 4],), ([-(2**62), 2],),
         ([True, 7],)],
    ),
    "prod_floats": (
        "import math\n\n\ndef f(xs: list[float]) -> float:\n    return math.prod(xs)\n",
        [([],), ([0.1, 0.2, 0.3],), ([1e200, 1e200],), ([NAN, 0.0],), ([-0.0, 5.0],), ([INF, 0.0],)],
    ),
    "constants": (
        "import math\n\n\ndef f(x: float) -> float:\n    return math.pi * x + math.e - math.tau / 3 + (x < math.inf) + (math.nan != math.nan)\n",
        [(1.0,), (-2.5,), (INF,)],
    ),
    "nan_is_nan": ("import math\n\n\ndef f() -> bool:\n    return math.isnan(math.nan) and math.isinf(-math.inf)\n", [()]),
    "forms": (
        "from math import sqrt, floor as fl, pi, gcd\nimport math as m\nfrom math import (ceil,\n    e)\n\n\n"
        "def f(x: float, n: int) -> float:\n"
        "    return sqrt(x) + fl(x) + pi + gcd(n, 12) + m.sqrt(n) + ceil(x) * e\n",
        [(2.25, 18), (0.0, 0), (-1.0, 4), (1e300, 7), (INF, 1), (NAN, 3)],
    ),
    "in_expressions": (
        "import math\n\n\ndef helper(xs: list[float]) -> float:\n    return math.sqrt(sum(x * x for x in xs))\n\n\n"
        "def f(xs: list[float]) -> int:\n"
        "    s = helper(xs)\n    best = 0\n    for x in xs:\n        if math.isclose(x, s) or math.floor(x) == math.ceil(s):\n"
        "            best += 1\n    return best + math.isqrt(len(xs)) + len([math.exp(x) for x in xs if x < 700])\n",
        [([3.0, 4.0],), ([],), ([1e200, 1.0],), ([-1.5, 2.5, 0.5],), ([800.0],)],
    ),
    "is_prime": (
        "import math\n\n\ndef f(n: int) -> bool:\n    if n < 2:\n        return False\n"
        "    for d in range(2, int(math.sqrt(n)) + 1):\n        if n % d == 0:\n            return False\n    return True\n",
        [(n,) for n in range(-2, 60)] + [(999983,), (1000003,), (999999,)],
    ),
    "pow_import_shadows_builtin": (
        "from math import pow\n\n\ndef f(a: int, b: int) -> float:\n    return pow(a, b)\n",
        [(2, 10), (0, -1), (-8, 3), (10, 400), (2, -2)],
    ),
    "imported_in_the_function": (
        "def f(n: int) -> int:\n    import math\n    from math import floor, ceil\n"
        "    def g(x: float) -> int:\n        return floor(x) + math.isqrt(n)\n    return g(n / 3) + ceil(n / 3)\n",
        [(n,) for n in (0, 1, 7, 100, 12345)],
    ),
    "local_named_like_the_module": ("def f(math: int) -> int:\n    return math + 1\n", [(3,)]),
}


@pytest.mark.parametrize("backend", ["reference", "cpu"])
def test_math_programs_match_cpython(backend):
    assert program_disagreements(PROGRAMS, backend) == []


def test_every_function_and_constant_is_exercised():
    sources = "".join(src for src, _ in PROGRAMS.values())
    for name in MATH_FUNCTIONS + tuple(MATH_CONSTANTS):
        assert f"math.{name}" in sources or f"import {name}" in sources, name


@pytest.mark.parametrize(
    "src, message, column",
    [
        ("import numpy\n", "module 'numpy' is not supported by gpucc", 8),
        ("import math, operator\n", "module 'operator' is not supported by gpucc", 14),
        ("from operator import add\n", "module 'operator' is not supported by gpucc", 6),
        ("import os.path\n", "module 'os.path' is not supported by gpucc", 8),
        ("from math import *\n", "'*' is not supported by gpucc yet", 18),
        ("from math import fsum\n", "'fsum' is not supported by gpucc yet", 18),
        ("import math\ndef f(x: float) -> float:\n    return math.hypot(x, x)\n", "'math.hypot' is not supported by gpucc yet",
         12),
        ("import math as m\ndef f(x: float) -> float:\n    return m.gamma(x)\n", "'m.gamma' is not supported by gpucc yet", 12),
        ("import math\ndef f(x: float) -> float:\n    return math.sqrt(x, x)\n", "'math.sqrt' takes 1 argument(s), 2 given",
         12),
        ("import math\ndef f(x: float) -> float:\n    return math.log()\n", "'math.log' takes 1 argument(s), 0 given", 12),
        ("import math\ndef f(x: float) -> int:\n    return math.isqrt(x)\n", "unsupported operand types for 'isqrt'", 17),
        ("import math\ndef f(s: str) -> float:\n    return math.sqrt(s)\n", "unsupported operand types for 'sqrt'", 17),
        ("import math\ndef f(x: float) -> float:\n    y = math\n    return x\n", "a module, or a module's function, as a value",
         9),
        ("from math import sqrt\ndef f(x: float) -> float:\n    g = sqrt\n    return x\n",
         "a module, or a module's function, as a value", 9),
        ("import math\ndef f(x: float) -> float:\n    return math.pi()\n", "a module, or a module's function, as a value", 12),
        ("def f(x: float) -> float:\n    return math.sqrt(x)\n", "name 'math' is not defined", 12),
        ("def f(x: float) -> float:\n    return sqrt(x)\n", "'sqrt' is not a function defined in this file", 12),
        ("def f(x: float) -> float:\n    if x: import math\n    return x\n", "'import' is not supported by gpucc", 11),
        ("def g() -> int:\n    import math\n    return 1\ndef f(x: float) -> float:\n    return math.sqrt(x)\n",
         "name 'math' is not defined", 12),
        ("import math\ndef f(x: float) -> float:\n    return math.sqrt(x, rel=1)\n", "keyword arguments", None),
    ],
)
def test_modules_and_names_not_built_are_located(src, message, column):
    batch = compile_batch([src])
    assert not batch.ok(0)
    err = batch.error(0)
    assert message in str(err), str(err)
    if column is not None:
        assert f":{column}: error" in str(err), str(err)
