"""Optional narrowing (compiler/narrowing.py) and the truth of an Optional: each program runs on
the VM (reference interpreter and CPU kernel) and in CPython on the same source, and the
outcomes must agree; what narrowing does not prove stays a located compile error."""

from __future__ import annotations

import pytest

from gpucc.compiler.batch import compile_batch
from tests.oracle.oracle import program_disagreements

OPT = "def g(n: int) -> Optional[int]:\n    return None if n < 0 else n * 2\n\n"

NARROWING = {
    "if_not_none": (
        OPT + "def h(k: int) -> int:\n    return k + 1\n\n"
        "def f(n: int) -> int:\n    x = g(n)\n    if x is not None:\n        return h(x) + x\n    return -1\n",
        [(3,), (-2,)],
    ),
    "early_return": (
        OPT + "def f(n: int) -> int:\n    x = g(n)\n    if x is None:\n        return len('none')\n    return len(str(x) + str(x % 3)) + x\n",
        [(4,), (-1,)],
    ),
    "default_assigned": (
        OPT + "def f(n: int) -> int:\n    x = g(n)\n    if x is None:\n        x = 0\n    return x\n",
        [(5,), (-5,)],
    ),
    "elif_chain_and_else": (
        OPT + "def f(n: int) -> int:\n    x = g(n)\n    y = g(n - 3)\n    if x is None:\n        return 0\n"
        "    elif y is not None:\n        return x * 10 + y\n    else:\n        return x\n",
        [(-1,), (2,), (5,)],
    ),
    "while_not_none": (
        "def nxt(k: int) -> Optional[int]:\n    return None if k > 20 else k * 2 + 1\n\n"
        "def f(n: int) -> int:\n    x = nxt(n)\n    t = 0\n    while x is not None:\n        t += x\n        x = nxt(x)\n    return t\n",
        [(0,), (30,), (3,)],
    ),
    "and_or_ifexp": (
        OPT + "def f(n: int) -> int:\n    x = g(n)\n    a = x is not None and x > 4\n    b = x is None or x < 3\n"
        "    c = x + 1 if x is not None else -1\n    d = -1 if x is None else x * 3\n    e = 7 if not (x is None) and x else 8\n"
        "    return a * 1000 + b * 100 + c + d + e\n",
        [(-3,), (0,), (1,), (6,)],
    ),
    "eq_none": (
        OPT + "def f(n: int) -> int:\n    x = g(n)\n    if x != None:\n        return x + 100\n    if x == None:\n        return 7\n    return 0\n",
        [(2,), (-2,)],
    ),
    "is_none_of_a_narrowed_read": (
        OPT + "def f(n: int) -> int:\n    x = g(n)\n    if x is not None:\n        if x is None or x == None:\n            return -5\n"
        "        return x + (x is not None) + (x != None)\n    return 1\n",
        [(2,), (-2,)],
    ),
    "assignment_unbinds": (
        OPT + "def f(n: int) -> int:\n    x = g(n)\n    if x is None:\n        return 0\n    y = x\n    x = g(n - 10)\n"
        "    if x is None:\n        return y\n    return x + y\n",
        [(3,), (12,), (-1,)],
    ),
    "loop_body_assigns": (
        "def f(xs: list[int]) -> int:\n    best = None\n    out = []\n    for v in xs:\n        if best is None:\n"
        "            best = v\n        else:\n            best = max(best, v)\n        out.append(best)\n    return sum(out) * 100 + len(out) + sum([v + 1 for v in out])\n",
        [([],), ([3, 1, 4, 1, 5],), ([-2, -7],)],
    ),
    "assert_narrows": (
        OPT + "def f(n: int) -> int:\n    x = g(n)\n    assert x is not None\n    return x * 2\n",
        [(3,), (-3,)],
    ),
    "optional_str_and_list": (
        "def g(s: str) -> Optional[str]:\n    return None if s == '' else s\n\n"
        "def f(s: str) -> int:\n    t = g(s)\n    if t is None:\n        return -1\n    ws = t.split()\n    m = None\n"
        "    if len(ws) > 1:\n        m = ws\n    if m is not None:\n        m.append(t.upper())\n        return len(m)\n    return len(t)\n",
        [("",), ("ab",), ("a b c",)],
    ),
    "comprehension_if": (
        "def k(ys: list[int]) -> int:\n    return sum(ys) * 10 + len(ys)\n\n"
        "def f(vs: list[int]) -> int:\n    xs = [None if v < 0 else v for v in vs]\n"
        "    return k([x + 1 for x in xs if x is not None])\n",
        [([1, -1, 3],), ([],), ([-1],)],
    ),
    "break_joins": (
        OPT + "def f(n: int) -> int:\n    x = g(n)\n    while True:\n        if x is None:\n            x = 1\n            break\n"
        "        if x > 3:\n            break\n        x = g(x - 5)\n    return x\n",
        [(1,), (5,), (-1,)],
    ),
}

TRUTH = {
    "if_and_while": (
        OPT + "def f(n: int) -> int:\n    x = g(n)\n    t = 0\n    if x:\n        t += x\n    if not x:\n        t += 100\n"
        "    while x:\n        t += 1\n        x = g(x - 3)\n    return t\n",
        [(-1,), (0,), (1,), (5,)],
    ),
    "values_and_conditions": (
        OPT + "def f(n: int) -> int:\n    x = g(n)\n    y = g(n - 2)\n    a = x or y\n    b = x and y\n"
        "    c = 1 if x or n > 5 else 2\n    d = bool(x) + (not y) * 2\n"
        "    return (a if a is not None else -7) * 1000 + (b if b is not None else -3) * 100 + c * 10 + d\n",
        [(-1,), (0,), (1,), (2,), (4,)],
    ),
    "optional_float_str_list": (
        "def gf(n: int) -> Optional[float]:\n    return None if n < 0 else n / 2\n\n"
        "def gs(n: int) -> Optional[str]:\n    return None if n < 0 else 'ab'[:n]\n\n"
        "def gl(n: int) -> Optional[list[int]]:\n    return None if n < 0 else [1] * n\n\n"
        "def f(n: int) -> int:\n    return (1 if gf(n) else 0) + (2 if gs(n) else 0) + (4 if gl(n) else 0) + (8 if None else 0)\n",
        [(-1,), (0,), (1,)],
    ),
    "any_all_and_comprehension_if": (
        "def f(vs: list[int]) -> int:\n    xs = [None if v < 0 else v for v in vs]\n"
        "    return any(xs) + all(xs) * 2 + len([x for x in xs if x]) * 4 + sum([1 for x in xs if not x]) * 8\n",
        [([],), ([-1, 0],), ([1, 2],), ([0, -1, 3],)],
    ),
}

COMPARE_LATE = {  # fuzz finding F9: an Optional left operand of a comparison is unboxed after the right one ran
    "compare_chain": (
        OPT + "def f(n: int, xs: list[int]) -> int:\n    o = g(n)\n    a = o < xs[n]\n    b = 0 <= o < xs[0]\n"
        "    c = o == n * 2 < xs[-1]\n    return a + b * 2 + c * 4\n",
        [(1, [5, 7]), (-1, []), (-1, [4]), (0, [1]), (2, [9, 9, 9])],
    ),
    "assert_compare": (  # the fuzzer's seed 1: an assert's comparison reports its operands (ASSERT_CMP)
        OPT + "def f(n: int, xs: list[int]) -> int:\n    o = g(n)\n    assert o >= xs[0]\n    return 1\n",
        [(1, [1]), (1, [5]), (-1, [1]), (-1, [])],
    ),
}


@pytest.mark.parametrize("backend", ["reference", "cpu"])
@pytest.mark.parametrize("programs", [NARROWING, TRUTH, COMPARE_LATE], ids=["narrowing", "truth", "compare_late"])
def test_programs_match_cpython(programs, backend):
    assert program_disagreements(programs, backend) == []


@pytest.mark.parametrize(
    "src, message",
    [
        (OPT + "def f(n: int) -> int:\n    x = g(n)\n    if x is None:\n        pass\n    return x\n",
         "return type mismatch: expected int, got Optional[int]"),
        (OPT + "def f(n: int) -> int:\n    x = g(n)\n    if x is not None:\n        x = g(1)\n        return x\n    return 0\n",
         "return type mismatch: expected int, got Optional[int]"),
        (OPT + "def f(n: int) -> int:\n    x = g(n)\n    if x is None or n > 2:\n        return 0\n    while n > 0:\n"
         "        n -= 1\n        x = g(n)\n    return x\n", "return type mismatch: expected int, got Optional[int]"),
        (OPT + "def f(n: int) -> str:\n    x = g(n)\n    if x is not None or n > 0:\n        return str(x)\n    return ''\n",
         "unsupported operand types for 'str': Optional[int]"),
    ],
    ids=["not_narrowed_after_pass", "reassigned", "loop_reassigns", "or_proves_nothing"],
)
def test_what_narrowing_does_not_prove_is_rejected(src, message):
    batch = compile_batch([src])
    assert not batch.ok(0)
    assert message in str(batch.error(0))
