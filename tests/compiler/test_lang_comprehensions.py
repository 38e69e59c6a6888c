"""Comprehensions and generator expressions, and the builtins that iterate (any, all, list,
reversed, sum with start) or round and raise (round, pow) -- the VM (reference interpreter and
CPU kernel) gives what CPython gives, and what the language does not have is a located error."""

from __future__ import annotations

import math

import pytest

from gpucc.compiler.batch import compile_batch
from gpucc.compiler.syntax_tree import dump, parse_source
from tests.oracle.oracle import program_disagreements

NAN, INF = math.nan, math.inf
# lists and strs as checks the oracle compares (it renders numbers and bools)
CODE = (
    "def code(xs: list[int]) -> int:\n    t = 0\n    for x in xs:\n        t = (t * 1009 + x) % 1000000007\n"
    "    return t * 100 + len(xs)\n\n"
    "def codes(s: str) -> int:\n    t = 0\n    for c in s:\n        t = (t * 131 + ord(c)) % 1000000007\n"
    "    return t * 100 + len(s)\n\n"
)

PROGRAMS = {
    "own_scope": (  # the comprehension's x never touches the local x; the first iterable is read outside
        CODE + "def f(xs: list[int]) -> int:\n    x = 5\n    ys = [x * 2 for x in xs if x > 0]\n"
        "    zs = [x + y for y in ys]\n    return code(ys + zs + [x])\n",
        [([1, -2, 3],), ([],)],
    ),
    "first_iterable_outside": (
        CODE + "def f(x: list[int]) -> int:\n    return code([x + 1 for x in x])\n", [([4, 5],)],
    ),
    "clauses_in_order": (
        CODE + "def f(n: int) -> int:\n"
        "    return code([i * 10 + j for i in range(n) if i % 2 == 0 for j in range(i) if j != 1])\n",
        [(0,), (6,)],
    ),
    "rebinding_target": (CODE + "def f(xs: list[int]) -> int:\n    return code([x for x in xs for x in range(x)])\n",
                         [([1, 3],), ([],)]),
    "ranges": (
        CODE + "def f(a: int, b: int, s: int) -> int:\n    return code([i for i in range(a, b, s)] + "
        "[i for i in reversed(range(a))] + [i for i in reversed(range(a, b))] + [i for i in range(b)])\n",
        [(0, 5, 2), (5, -3, -2), (3, 3, 1), (2, 7, 0)],
    ),
    "strs": (
        CODE + "def f(s: str) -> int:\n    up = ''.join(c.upper() for c in s if c != 'a')\n"
        "    nums = ','.join([str(i) for i in range(3)])\n    return codes(up + nums + ' '.join(sorted(w for w in s.split('n'))))\n",
        [("banana",), ("",)],
    ),
    "sum_numeric_tower": (
        "def f(xs: list[int], ys: list[float]) -> float:\n"
        "    return sum(x / 2 for x in xs) + sum(y for y in ys if y > 0) + sum(x > 0 for x in xs)\n",
        [([1, 2, -3], [0.1, 0.2, -0.3]), ([], []), ([7], [INF, -INF])],
    ),
    "sum_ints_overflow": (
        "def f(xs: list[int]) -> int:\n    return sum(x * 2 for x in xs)\n",
        [([2**62, -(2**62)],), ([2**61, 2**61],), ([1, 2],)],
    ),
    "any_all_stop_early": (  # the element after the deciding one is never evaluated (1 // 0)
        "def f(xs: list[int]) -> int:\n    a = any(10 // x > 2 for x in xs)\n    b = all(10 // x > 2 for x in xs)\n"
        "    return a + 2 * b + 4 * any(xs) + 8 * all(xs) + 16 * all([]) + 32 * any('')\n",
        [([1, 0],), ([9, 0],), ([],), ([1, 2],), ([0],)],
    ),
    "any_all_truth": (  # the element of any / all is a truth value: `and` / `or` may mix types there
        "def f(xs: list[float], ws: list[str]) -> int:\n    return any(xs) + 2 * all(xs) + 4 * any(ws) + 8 * all(ws)"
        " + 16 * all(x and w for x in xs for w in ws) + 32 * any(w or x for w in ws for x in xs)\n",
        [([0.0, -0.0], ["", "a"]), ([NAN], ["a"]), ([], [])],
    ),
    "min_max_fold": (
        "def f(xs: list[float]) -> float:\n    return min(x for x in xs) + max(-x for x in xs if x == x)\n",
        [([0.5, 1.5],), ([],), ([NAN, 1.0],), ([1.0, NAN],), ([-0.0, 0.0],), ([NAN],)],
    ),
    "min_max_ints_and_strs": (
        CODE + "def f(ws: list[str]) -> int:\n    return codes(min(w for w in ws) + max(w * 2 for w in ws)) + "
        "max(len(w) for w in ws) + min(w == 'b' for w in ws)\n",
        [(["b", "a", "c"],), ([],), (["é", "e"],)],
    ),
    "nested_consumers": (
        CODE + "def f(xs: list[int]) -> int:\n"
        "    return code([sum(y for y in range(x)) for x in xs if any(z > x for z in xs)])\n",
        [([1, 3, 2],), ([4],)],
    ),
    "in_loops_and_branches": (  # a comprehension's slots never meet a loop's hidden ones
        CODE + "def f(n: int) -> int:\n    t = 0\n    for i in range(sum(1 for _ in range(n)), sum(k for k in range(n))):\n"
        "        for c in [str(j) for j in range(i)]:\n            if all(d in '0123' for d in c):\n"
        "                t += len([c for c in c])\n    return t\n",
        [(3,), (6,)],
    ),
    "list_builtin": (
        CODE + "def f(s: str, xs: list[int]) -> int:\n    ys = list(s)\n    zs = list(xs)\n    zs.append(1)\n"
        "    ws = list()\n    ws.append(len(ys))\n"
        "    return codes(''.join(ys)) + code(zs) + code(xs) + code(list(x + 1 for x in xs)) + code(ws)\n",
        [("abc", [1, 2]), ("", [])],
    ),
    "for_reversed": (
        "def f(s: str, xs: list[int]) -> int:\n    t = 0\n    for c in reversed(s):\n        t = t * 7 + ord(c)\n"
        "    for x in reversed(xs):\n        t = t * 3 + x\n    return t + sum(x for x in reversed(xs))\n",
        [("abc", [1, 2, 3]), ("", [])],
    ),
    "sum_start": (
        "def f(xs: list[int], ys: list[float]) -> float:\n    return sum(xs, 10) + sum(ys, 0.5) + sum(xs, -0.0)\n",
        [([1, 2], [0.25]), ([], []), ([], [-0.0])],
    ),
    "round": (
        "def f(x: float) -> int:\n    return round(x) + round(3) + round(True)\n",
        [(0.5,), (1.5,), (2.5,), (-0.5,), (-1.5,), (-2.5,), (2.675,), (0.49999999999999994,), (-2.4,),
         (-2.6,), (4503599627370497.0,), (NAN,), (INF,), (-INF,), (1e300,)],
    ),
    "pow": (
        "def f(a: int, b: float) -> float:\n    return pow(a, 2) + pow(a, b) + pow(2.0, a) + pow(True, a)\n",
        [(3, 0.5), (-2, 2.0), (0, -1.0), (-1, 0.5), (4000000000, 1.0)],
    ),
    "bools_and_lists_collected": (  # elements of structured types (the packed type codes)
        "def f(xs: list[int]) -> int:\n    bs = [x > 0 for x in xs]\n    ls = [[x, -x] for x in xs if x != 2]\n"
        "    return sum(bs) * 1000 + len(ls) * 100 + sum(l[1] for l in ls) + (bs == sorted(bs))\n",
        [([1, -2, 3],), ([],), ([2, 2, 0],)],
    ),
    "unpacking_targets": (  # a clause's target unpacks each element, nested too, in its own scope
        CODE + "def f(n: int) -> int:\n    ps = [(i, i * i) for i in range(n)]\n    a = 7\n"
        "    prods = [a * b for a, b in ps]\n    qs = [(k, [k, k * 3]) for k in range(n)]\n"
        "    nested = [k + a * s for k, (a, s) in qs if a != 2]\n    grid = [[x, x + 1] for x in range(n)]\n"
        "    flat = [x * 10 + y for x, y in grid for z in range(2) if z < 1]\n"
        "    t = sum(b - a for a, b in ps) + max([s for _, (a, s) in qs] + [0]) + min([a + b for [a, b] in grid] + [99])\n"
        "    y = 0\n    return code(prods + nested + flat + [t, a, y])\n",
        [(1,), (4,)],
    ),
    "unpacking_a_list_of_another_length": (  # CPython's ValueError where an element is a list too short
        "def f(xs: list[list[int]]) -> int:\n    return sum(a * b for a, b in xs)\n",
        [([[1, 2], [3, 4]],), ([[1, 2], [3]],), ([],)],
    ),
    "errors_inside": (
        "def f(xs: list[int]) -> int:\n    return sum(xs[i] // (i - 1) for i in range(len(xs)))\n",
        [([1, 2, 3],), ([5],)],
    ),
}


@pytest.mark.parametrize("backend", ["reference", "cpu"])
def test_comprehension_programs_match_cpython(backend):
    assert program_disagreements(PROGRAMS, backend) == []


def test_parse_tree_clauses_then_element():
    src = "def f(xs: list[int]) -> int:\n    return sum(x for x in [y * 2 for y in xs if y] if x > 1)\n"
    assert "(RETURN (CALL sum (COMP gen (FOR x (COMP list (FOR y xs) (IF y) (BINARY * y 2))) " \
           "(IF (COMPARE x > 1)) x)))" in dump(parse_source(src))  # fmt: skip


@pytest.mark.parametrize(
    "src, message",
    [
        ("def f(xs: list[int]) -> int:\n    return len(x for x in xs)\n", "generator expressions but as the one argument"),
        ("def f(xs: list[int]) -> int:\n    g = (x for x in xs)\n    return 0\n", "generator expressions but as"),
        ("def f(xs: list[int]) -> int:\n    return sum(x for x in xs, 1)\n", "invalid syntax"),
        ("def f(xs: list[int]) -> int:\n    return [1, x for x in xs][0]\n", "invalid syntax"),
        ("def f(xs: list[int]) -> int:\n    return [x for x, y in xs][0]\n", "cannot unpack a value of type int into 2 names"),
        ("def f(xs: list[tuple[int, int]]) -> int:\n    return [x for x, y, z in xs][0]\n",
         "cannot unpack a value of type tuple[int, int] into 3 names"),
        ("def f(n: int) -> int:\n    return [x for x, y in range(n)][0]\n", "cannot unpack a value of type int into 2 names"),
        ("def f(xs: list[tuple[int, int]]) -> int:\n    return [x for (x, 1) in xs][0]\n", "expected a name"),
        ("def f(xs: list[int]) -> int:\n    return [y for x in xs for y in range(y)][0]\n",
         "local variable 'y' may be used before it is assigned"),
        ("def f(xs: list[int]) -> int:\n    ys = [x for x in xs]\n    return x\n", "name 'x' is not defined"),
        ("def f(xs: list[int]) -> int:\n    return sum(x for x in 3)\n", "type mismatch: expected list[int], got int"),
        ("def f(xs: list[str]) -> int:\n    return sum(x for x in xs)\n", "unsupported operand types for 'sum'"),
        ("def f(xs: list[int]) -> int:\n    ys = reversed(xs)\n    return 0\n", "reversed() but as the iterable"),
        ("def f(x: int) -> float:\n    return round(x, 2)\n", "unsupported operand types for 'round'"),
        ("def f(xs: list[int]) -> bool:\n    return any()\n", "'any' takes 1 argument(s), 0 given"),
        ("def f(n: int) -> int:\n    return sum(i for i in reversed(range(0, n, 2)))\n", "for loops over anything but range()"),
        ("def f(xs: list[int]) -> int:\n    return sum(hash(x) for x in xs)\n", "built-in 'hash' is not supported yet"),
        ("def f(xs: list[int]) -> int:\n    any = 1\n    return any(x for x in xs)\n", "'any' is a local variable here"),
    ],
)
def test_comprehension_errors_are_named(src, message):
    batch = compile_batch([src])
    assert not batch.ok(0)
    assert message in str(batch.error(0)), str(batch.error(0))
