"""The modules besides math (compiler/modules.py): `sys.maxsize`, bisect (a prelude in the
language: compiler/preludes.py), module imports used from module code, and the modules not
built: outcomes equal CPython's through the oracle, and the rest are located compile errors
naming the module or the name."""

from __future__ import annotations

import pytest

from gpucc.compiler.batch import compile_batch
from tests.oracle.oracle import program_disagreements

PROGRAMS = {
    "maxsize": (
        "import sys\n\n\ndef f(xs: list[int]) -> int:\n    best = -sys.maxsize - 1\n    for x in xs:\n"
        "        best = max(best, x)\n    return best\n",
        [([],), ([3, -4, 5],), ([-(2**63)],)],
    ),
    "maxsize_forms": (
        "from sys import maxsize\nimport sys as s\n\n\ndef f(n: int) -> bool:\n"
        "    return n < maxsize and s.maxsize == maxsize and maxsize + n > 0\n",
        [(0,), (-5,), (1,), (2**63 - 1,)],
    ),
    "module_code_reads_modules": (
        "import math\nimport sys\n\nROOT = math.sqrt(2)\nBIG = sys.maxsize // 2\n\n\n"
        "def f(x: float) -> float:\n    return x * ROOT + BIG\n",
        [(1.0,), (-3.5,)],
    ),
    "typing_and_math_together": (
        "from typing import List\nimport math, sys\n\n\ndef f(xs: List[int]) -> int:\n"
        "    return sum(math.isqrt(x) for x in xs if x < sys.maxsize)\n",
        [([1, 4, 17],), ([],)],
    ),
    "bisect": (
        "import bisect\n\n\ndef f(xs: list[int], x: int) -> int:\n"
        "    return bisect.bisect_left(xs, x) * 100 + bisect.bisect_right(xs, x) * 10 + bisect.bisect(xs, x)\n",
        [([], 3), ([1, 2, 2, 2, 5], 2), ([1, 2, 2, 2, 5], 0), ([1, 2, 2, 2, 5], 9), ([1, 3, 5, 7], 4)],
    ),
    "bisect_forms": (
        "from bisect import bisect_left as bl, bisect\nimport bisect as b\n\n\n"
        "def f(ws: list[str], w: str) -> int:\n    return bl(ws, w) * 100 + bisect(ws, w) * 10 + b.bisect_right(ws, w)\n",
        [(["a", "b", "b", "d"], "b"), (["a", "b", "b", "d"], "c"), ([], "x"), (["x"], "")],
    ),
    "bisect_floats_in_a_function": (
        "def f(xs: list[float], x: float) -> int:\n    from bisect import bisect_left\n"
        "    ys = sorted(xs)\n    return bisect_left(ys, x)\n",
        [([3.5, -1.0, 2.0], 2.0), ([], 0.0), ([1.0, 1.0], 1.0)],
    ),
}


@pytest.mark.parametrize("backend", ["reference", "cpu"])
def test_module_programs_match_cpython(backend):
    assert program_disagreements(PROGRAMS, backend) == []


@pytest.mark.parametrize(
    "src, message, column",
    [
        ("import sys\ndef f() -> int:\n    return len(sys.argv)\n", "'sys.argv' is not supported by gpucc yet", 16),
        ("from sys import maxint\n", "'maxint' is not supported by gpucc yet", 17),
        ("from math import maxsize\n", "'maxsize' is not supported by gpucc yet", 18),
        ("import sys\ndef f() -> int:\n    return sys\n", "a module, or a module's function, as a value", 12),
        ("import sys\ndef f() -> int:\n    return sys.maxsize()\n", "a module, or a module's function, as a value", 12),
        *[(f"import {m}\n", f"module '{m}' is not supported by gpucc", 8)
          for m in ("re", "operator")],
        ("from collections import OrderedDict\n", "'OrderedDict' is not supported by gpucc yet", 25),
        ("from bisect import insort\n", "'insort' is not supported by gpucc yet", 20),
        ("import bisect\ndef f(xs: list[int]) -> int:\n    return bisect.bisect_left(xs, 1, 0)\n",
         "'bisect_left' takes 2 argument(s), 3 given", 19),
        ("import bisect\ndef bisect_left(a: list[int], x: int) -> int:\n    return 0\n"
         "def f(xs: list[int]) -> int:\n    return bisect.bisect_left(xs, 1)\n", "defined more than once", None),
    ],
)
def test_modules_not_built_are_located(src, message, column):
    batch = compile_batch([src])
    assert not batch.ok(0)
    err = batch.error(0)
    assert message in str(err), str(err)
    if column is not None:
        assert f":{column}: error" in str(err), str(err)
