"""Lists (list[int], list[float]): literals, indexing, slicing, methods, builtins, loops and
item assignment -- the VM (reference interpreter and CPU kernel) gives what CPython gives."""

from __future__ import annotations

import math

import pytest

from gpucc.compiler.batch import compile_batch
from tests.oracle.oracle import program_disagreements

NAN, INF = math.nan, math.inf
INT64_MAX = 2**63 - 1

PROGRAMS = {
    "index": (
        "def f(xs: list[int], i: int) -> int:\n    return xs[i] * 10 + xs[-1]\n",
        [([1, 2, 3], 0), ([1, 2, 3], -3), ([1, 2, 3], 3), ([1, 2, 3], -4), ([], 0), ([5], -1)],
    ),
    "build": (
        "def f(n: int) -> int:\n    ys = []\n    for i in range(n):\n        ys.append(i * i)\n"
        "    total = 0\n    for y in ys:\n        total = total * 3 + y\n    return total + len(ys)\n",
        [(0,), (1,), (7,), (40,)],
    ),
    "setitem": (
        "def f(xs: list[int], i: int, v: int) -> int:\n    xs[i] = v\n    xs[0] += 5\n    xs[-1] *= 2\n"
        "    return sum(xs)\n",
        [([1, 2, 3], 1, 10), ([1, 2, 3], 5, 1), ([4], -1, 7), ([INT64_MAX, 0], 1, 1)],
    ),
    "builtins": (
        "def f(xs: list[int]) -> int:\n    return sum(xs) + min(xs) * 100 + max(xs) * 10000 + len(xs)\n",
        [([3, 1, 2],), ([-5],), ([],), ([INT64_MAX, 1],)],
    ),
    "float_lists": (
        "def f(xs: list[float], x: float) -> float:\n    ys = [1, 2.5, x]\n    ys[0] = 4\n"
        "    return sum(xs) + min(ys) + max(xs) + ys[0] + (x in xs) + (2 in ys)\n",
        [([0.5, 1.5], 2.0), ([1.0, -0.0], NAN), ([0.1, 0.2, 0.3], -INF), ([2.0], 2.5)],
    ),
    "contains": (
        "def f(xs: list[int], x: int) -> int:\n    n = 0\n    if x in xs:\n        n += 1\n"
        "    if x not in xs:\n        n += 10\n    if xs:\n        n += 100\n    if not xs:\n        n += 1000\n"
        "    return n\n",
        [([1, 2, 3], 2), ([1, 2, 3], 5), ([], 1)],
    ),
    "slices": (
        "def f(xs: list[int], a: int, b: int, s: int) -> int:\n    ys = xs[a:b:s]\n    zs = xs[a:]\n"
        "    ws = xs[:b]\n    vs = xs[::-1]\n    t = 0\n    for y in ys + zs + ws + vs:\n        t = t * 7 + y\n"
        "    return t * 100 + len(ys) + len(xs[:])\n",
        [([1, 2, 3, 4, 5], 1, 4, 1), ([1, 2, 3, 4, 5], 4, 0, -1), ([1, 2, 3, 4, 5], -2, 10, 2),
         ([1, 2, 3, 4, 5], -10, -1, 3), ([1, 2, 3], 0, 3, 0), ([], 0, 1, 1), ([1, 2, 3, 4, 5], 3, 1, -2)],
    ),
    "sorting": (
        "def f(xs: list[int]) -> int:\n    ys = sorted(xs)\n    xs.sort()\n    assert xs == ys\n"
        "    t = 0\n    for y in ys:\n        t = t * 10 + y\n    return t\n",
        [([3, 1, 2],), ([],), ([5, 5, -1, 0, 9, 2],)],
    ),
    "sort_floats_stable": (
        "def f(xs: list[float]) -> float:\n    ys = sorted(xs)\n    t = 0.0\n    for i in range(len(ys)):\n"
        "        t = t * 2 + ys[i] * (i + 1)\n    return t\n",
        [([0.0, -0.0, 1.5, -2.5],), ([-0.0, 0.0],), ([3.5, 3.5, -1.0],)],
    ),
    "repeat_concat": (
        "def f(n: int) -> int:\n    xs = [0] * n\n    ys = [1, 2] + xs + [3]\n    zs = 2 * [7]\n"
        "    return len(xs) * 100 + len(ys) * 10 + sum(ys) + sum(zs)\n",
        [(0,), (3,), (-2,)],
    ),
    "equality": (
        "def f(xs: list[int], ys: list[int]) -> int:\n    return (xs == ys) + 2 * (xs != ys) + 4 * (xs == [])\n",
        [([1, 2], [1, 2]), ([1, 2], [2, 1]), ([], []), ([1], [1, 1])],
    ),
    "aliasing": (
        "def g(xs: list[int]) -> None:\n    xs.append(9)\n\n"
        "def f(xs: list[int]) -> int:\n    ys = xs\n    g(ys)\n    ys[0] = 5\n    return xs[0] * 100 + len(xs)\n",
        [([1],), ([2, 3],)],
    ),
    "empty_list_of_floats": (
        "def f(n: int) -> float:\n    acc = []\n    for i in range(n):\n        acc.append(i / 2)\n"
        "    return sum(acc) + len(acc)\n",
        [(0,), (3,)],
    ),
    "list_params_and_returns": (
        "def evens(xs: list[int]) -> list[int]:\n    out = []\n    for x in xs:\n        if x % 2 == 0:\n"
        "            out.append(x)\n    return out\n\n"
        "def f(xs: list[int]) -> int:\n    return sum(evens(xs)) * 10 + len(evens(evens(xs)))\n",
        [([1, 2, 3, 4],), ([],), ([7],)],
    ),
    "min_max_empty": (
        "def f(xs: list[float]) -> float:\n    return min(xs) + max(xs)\n", [([],), ([NAN, 1.0],), ([1.0, NAN],)],
    ),
    "iterate_while_appending": (
        "def f(n: int) -> int:\n    xs = [1]\n    for x in xs:\n        if len(xs) < n:\n            xs.append(x * 2)\n"
        "    return sum(xs)\n",
        [(1,), (5,)],
    ),
    "comprehension_of_lists_indexed": (  # a list of lists collected by a comprehension
        "def f(xs: list[int]) -> int:\n    return [[x] for x in xs][0][0] + len([[x, x] for x in xs][-1])\n",
        [([3, 4],), ([-1],), ([],)],
    ),
}


@pytest.mark.parametrize("backend", ["reference", "cpu"])
def test_list_programs_match_cpython(backend):
    assert program_disagreements(PROGRAMS, backend) == []


@pytest.mark.parametrize(
    "src, message",
    [
        ("def f(xs: list[int]) -> int:\n    xs -= [1]\n    return 0\n", "augmented assignment to a list"),
        ("def f(xs: list[int]) -> int:\n    xs.push(1)\n    return 0\n", "methods other than the list, str, dict and set methods"),
        ("def f(xs: list[int]) -> int:\n    xs.append(1.5)\n    return 0\n", "type mismatch: expected int, got float"),
        ("def f(x: int) -> int:\n    return x[0]\n", "unsupported operand types for '[': int and int"),
        ("def f(xs: list[int]) -> int:\n    return xs[1.5]\n", "type mismatch: expected int, got float"),
        ("def f(xs: list[int]) -> int:\n    return len(xs, xs)\n", "'len' takes 1 argument(s), 2 given"),
        ("def f(xs: list[int]) -> int:\n    return sum(3)\n", "unsupported operand types for 'sum': int and int"),
        ("def f(xs: list[int]) -> int:\n    return len([xs[0], 'a'])\n", "lists mixing elements of different types"),
        ("def f(xs: list[int]) -> int:\n    xs[len(xs) - 1] += 1\n    return 0\n", "augmented assignment to a subscript"),
        ("def f(xs: list[int]) -> int:\n    return xs.count\n", "attribute access: not supported"),
    ],
)
def test_list_errors_are_named(src, message):
    batch = compile_batch([src])
    assert not batch.ok(0)
    assert message in str(batch.error(0)), str(batch.error(0))
