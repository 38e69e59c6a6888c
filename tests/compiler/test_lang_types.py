"""Structured types (contract/typecodes.py): list[bool], nested lists, tuples, Optional / None --
the annotations, literals, operations and unpacking, each program run on the VM (reference
interpreter and CPU kernel) and compared with CPython running the same source."""

from __future__ import annotations

import pytest

from gpucc.compiler.batch import compile_batch
from gpucc.contract import typecodes as T
from tests.oracle.oracle import program_disagreements

LISTS = {
    "bools": (
        "def f(n: int) -> int:\n    bs: list[bool] = [True, False]\n    cs = [n > 2, n > 5]\n    bs.append(n % 2 == 0)\n"
        "    bs[0] = not bs[0]\n    t = 0\n    for b in bs + cs * 2:\n        t = t * 2 + b\n"
        "    return t * 100 + sum(bs) * 10 + (True in cs) + (bs == cs) + len(bs[1:]) + max(cs) + min(bs)\n",
        [(0,), (3,), (6,)],
    ),
    "bool_sort": (
        "def f(n: int) -> bool:\n    bs = [n > 1, n > 3, n > 0]\n    bs.sort()\n    cs = sorted([n < 2, True, False])\n"
        "    return bs[0] or cs[0] and bs != cs\n",
        [(0,), (2,), (5,)],
    ),
    "matrix": (
        "def f(n: int) -> int:\n    rows = []\n    for i in range(n):\n        row = []\n        for j in range(n):\n"
        "            row.append(i * n + j)\n        rows.append(row)\n    if n > 1:\n        rows[1][0] = -7\n"
        "    total = 0\n    for r in rows:\n        total = total * 3 + sum(r) + len(r)\n"
        "    return total + rows[-1][-1] + len(rows)\n",
        [(0,), (1,), (3,)],
    ),
    "nested_ops": (
        "def f(k: int) -> int:\n    xs = [[3, 1], [2], [], [3, 0]]\n    ys = xs + [[k]]\n    zs = sorted(ys)\n    xs.sort()\n"
        "    m = max(ys)\n    lo = min(xs)\n    return (len(zs[0]) * 1000 + m[0] * 100 + len(lo) * 10 + ([k] in xs)\n"
        "            + (xs == zs) * 10000 + (xs[1:] < ys) * 100000 + (xs[0] != []) * 1000000)\n",
        [(0,), (2,), (3,), (-1,)],
    ),
    "mixed_number_lists": (
        "def f(x: float) -> int:\n    a = [1, 2]\n    b = [1.0, x]\n    return (a == b) + (a != b) * 2 + (a < b) * 8\n",
        [(2.0,), (2.5,), (1.0,)],
    ),
    "nested_setitem": (
        "def f(i: int, j: int) -> int:\n    m = [[1, 2, 3], [4, 5, 6]]\n    m[i][j] = 9\n    m[i][j] += 1\n"
        "    return m[0][0] + m[0][1] * 10 + m[1][2] * 100 + sum(m[1])\n",
        [(0, 0), (1, 2), (1, -1), (2, 0), (0, 3)],
    ),
    "empty_then_lists": (
        "def f(n: int) -> int:\n    out = []\n    for i in range(n):\n        out.append([i, i * i])\n"
        "    out.append([])\n    return len(out) * 100 + sum(out[-2]) if n > 0 else len(out)\n",
        [(0,), (1,), (4,)],
    ),
    "list_params": (
        "def g(m: List[List[int]]) -> int:\n    return len(m) * 10 + len(m[0])\n\n"
        "def f(n: int) -> int:\n    return g([[n] * n, [1]]) + g([[]])\n",
        [(1,), (3,)],
    ),
}

TUPLES = {
    "gcd": (
        "def f(a: int, b: int) -> int:\n    while b:\n        a, b = b, a % b\n    return a\n",
        [(12, 18), (7, 0), (0, 5), (35, 21)],
    ),
    "swap_same_name": (
        "def f(a: int, b: int) -> int:\n    a, a = b, a + 1\n    x, y = a, b\n    return x * 10 + y\n",
        [(1, 2), (5, -3)],
    ),
    "fields": (
        "def f(n: int) -> int:\n    t = (n, 'ab', n > 3)\n    u: tuple[int, str, bool] = t\n"
        "    s = u[1] * u[0] if u[2] else u[1]\n    return len(s + str(len(t)) + str(t[-3])) * 100 + ord(s[0])\n",
        [(0,), (2,), (5,)],
    ),
    "homogeneous_index": (
        "def f(i: int) -> int:\n    t = (10, 20, 30)\n    total = 0\n    for x in t:\n        total += x\n"
        "    return t[i] + total + (20 in t) + (25 not in t)\n",
        [(0,), (2,), (-1,), (3,), (-4,)],
    ),
    "returns": (
        "def divmod2(a: int, b: int) -> tuple[int, int]:\n    return a // b, a % b\n\n"
        "def f(a: int, b: int) -> int:\n    q, r = divmod2(a, b)\n    t = divmod2(b, 3)\n    return q * 100 + r * 10 + t[0]\n",
        [(17, 5), (-7, 2), (3, 0)],
    ),
    "compare": (
        "def f(a: int, b: int) -> int:\n    p, q = (a, 'x'), (b, 'y')\n    r = (a, b) < (b, a)\n"
        "    return (p == q) + (p < q) * 2 + (p >= q) * 4 + r * 8 + ((a, b) == (a, b)) * 16 + ((1, 2.0) == (1, 2)) * 32\n",
        [(1, 2), (2, 1), (3, 3)],
    ),
    "list_of_tuples": (
        "def f(n: int) -> int:\n    ps: list[tuple[int, str]] = []\n    for i in range(n):\n        ps.append((n - i, str(i)))\n"
        "    ps.sort()\n    best = max(ps)\n    total = 0\n    for k, s in ps:\n        total = total * 10 + k + len(s)\n"
        "    return total * 100 + best[0] + ((1, '0') in ps) * 7 + len(sorted(ps))\n",
        [(0,), (1,), (4,)],
    ),
    "enumerate_like": (
        "def f(xs: list[int]) -> int:\n    pairs = []\n    for i in range(len(xs)):\n        pairs.append((i, [xs[i], -xs[i]]))\n"
        "    t = 0\n    for i, (a, b) in pairs:\n        t = t * 7 + i * a - b\n    return t\n",
        [([],), ([3],), ([1, 2, 3],)],
    ),
    "unpack_list": (
        "def f(xs: list[int]) -> int:\n    a, b = xs\n    [c, d] = xs\n    return a * 10 + b + c - d\n",
        [([1, 2],), ([1],), ([1, 2, 3],), ([],)],
    ),
    "nested_unpack": (
        "def f(n: int) -> int:\n    (a, b), c = (n, n + 1), [n * 2]\n    (d, (e, g)) = 1, (2, 3)\n    return a + b * 10 + c[0] * 100 + d + e + g\n",
        [(0,), (4,)],
    ),
    "concat": (
        "def f(n: int) -> int:\n    t = (n,) + (n + 1, 'z')\n    e = ()\n    return t[0] + t[1] + len(t) + len(t[2]) + len(e)\n",
        [(1,), (5,)],
    ),
    "min_max_tuples": (
        "def f(a: int, b: int) -> int:\n    lo = min((a, 1), (b, 2))\n    hi = max((a, 'x'), (b, 'y'), (a, 'z'))\n"
        "    return lo[0] * 100 + lo[1] * 10 + hi[0] + len(hi[1])\n",
        [(1, 2), (2, 1), (3, 3)],
    ),
}

OPTIONALS = {
    "best": (
        "def best(xs: list[int]) -> Optional[int]:\n    b = None\n    for x in xs:\n        if b is None or x > b:\n"
        "            b = x\n    return b\n\n"
        "def f(xs: list[int]) -> int:\n    r = best(xs)\n    if r is None:\n        return -999\n    return r * 2\n",
        [([],), ([3, 9, 2],), ([-5],)],
    ),
    "unbox_error": (
        "def g(n: int) -> Optional[int]:\n    if n > 0:\n        return n\n    return None\n\n"
        "def f(n: int) -> int:\n    return g(n) + 1\n",
        [(3,), (0,)],
    ),
    "optional_str": (
        "def g(s: str) -> str | None:\n    if s:\n        return s.upper()\n\n"
        "def f(s: str) -> int:\n    t = g(s)\n    if t is not None:\n        return len(t) + (t == 'AB') * 10\n"
        "    return -1 + (t == None) * 100 + len(g('x'))\n",
        [("ab",), ("",), ("xyz",)],
    ),
    "optional_params": (
        "def g(a: Optional[int], xs: Optional[list[int]]) -> int:\n    total = 0\n    if a is not None:\n"
        "        total += a\n    if xs is not None:\n        total += len(xs)\n    return total\n\n"
        "def f(n: int) -> int:\n    return g(n, None) * 100 + g(None, [1, 2]) * 10 + g(None, None) + g(n, [n])\n",
        [(1,), (7,)],
    ),
    "none_len": (
        "def g(n: int) -> Optional[list[int]]:\n    if n < 0:\n        return\n    return [n] * n\n\n"
        "def f(n: int) -> int:\n    return len(g(n))\n",
        [(2,), (-1,)],
    ),
    "optional_compare": (
        "def g(n: int) -> Optional[int]:\n    return None if n < 0 else n\n\n"
        "def f(a: int, b: int) -> int:\n    x, y = g(a), g(b)\n    return (x == y) + (x != y) * 2 + (x == 3) * 4 + (x is None) * 8 + (None is not y) * 16\n",
        [(1, 1), (-1, -2), (3, -1), (-1, 3)],
    ),
    "optional_order_error": (
        "def g(n: int) -> Optional[int]:\n    return None if n < 0 else n\n\n"
        "def f(a: int) -> bool:\n    return g(a) < 5\n",
        [(1,), (-1,)],
    ),
    "local_later_bound": (
        "def f(xs: list[str]) -> int:\n    longest = None\n    for s in xs:\n        if longest is None or len(s) > len(longest):\n"
        "            longest = s\n    if longest is None:\n        return -1\n    return len(longest) * 100 + ord(longest[0])\n",
        [([],), (["a", "abc", "ab"],)],
    ),
    "list_of_optionals": (
        "def f(n: int) -> int:\n    xs = [None, n, None]\n    xs.append(n + 1)\n    t = 0\n    for x in xs:\n"
        "        if x is not None:\n            t += x\n    return t * 10 + len(xs) + (None in xs) + (xs[1] == n)\n",
        [(0,), (5,)],
    ),
    "rebound_to_none": (
        "def f(n: int) -> int:\n    x = n * 2\n    if n > 2:\n        x = None\n    return -1 if x is None else x + 1\n",
        [(1,), (3,)],
    ),
    "optional_float": (
        "def g(n: int) -> Optional[float]:\n    if n > 0:\n        return n\n    return None\n\n"
        "def f(n: int) -> float:\n    r = g(n)\n    return r / 4 if r is not None else -0.5\n",
        [(3,), (0,)],
    ),
    "asserts": (
        "def f(n: int) -> int:\n    assert (n, [n]) == (1, [1])\n    assert [[n]] != [[0]]\n    assert (n, 'a') < (2, 'b')\n"
        "    return n\n",
        [(1,), (0,), (2,)],
    ),
    "left_operand_unboxed_after_the_right": (  # fuzz finding F8: CPython evaluates both operands first
        "def f(a: int, xs: list[int]) -> float:\n    o = None\n    s = None\n    if a > 0:\n        o = a\n"
        "        s = 'ab'\n    return o + 0.5 + (o - xs[a]) * 1.5 + len(s + 'c') + (o * [a])[0]\n",
        [(1, [5, 7]), (0, []), (0, [4]), (2, [1])],
    ),
    "procedure": (
        "def bump(xs: list[int]) -> None:\n    xs.append(len(xs))\n\n"
        "def f(n: int) -> int:\n    xs = [n]\n    bump(xs)\n    bump(xs)\n    return sum(xs)\n",
        [(0,), (3,)],
    ),
}


@pytest.mark.parametrize("backend", ["reference", "cpu"])
@pytest.mark.parametrize("programs", [LISTS, TUPLES, OPTIONALS], ids=["lists", "tuples", "optionals"])
def test_structured_programs_match_cpython(programs, backend):
    assert program_disagreements(programs, backend) == []


def test_annotations_are_packed_types():
    src = (
        "def f(a: list[list[int]], b: Tuple[int, str], c: Optional[float], d: int | None, e: List[bool]) -> "
        "tuple[int, list[str]] | None:\n    return None\n"
    )
    batch = compile_batch([src])
    assert batch.ok(0), batch.error(0)
    want = [T.list_of(T.list_of(T.INT)), T.tuple_of([T.INT, T.STR]), T.optional_of(T.FLOAT), T.optional_of(T.INT),
            T.list_of(T.BOOL)]  # fmt: skip
    assert list(batch.func_param_types[0][:5]) == want
    assert int(batch.func_ret_type[0]) == T.optional_of(T.tuple_of([T.INT, T.list_of(T.STR)]))


@pytest.mark.parametrize(
    "src, message",
    [
        ("def f(x: list[tuple[int, int, int, int, int]]) -> int:\n    return 0\n", "types this large"),
        ("def f(x: int) -> int:\n    t = (x, x, x, x, x, x, x)\n    return 0\n", "types this large"),
        ("def f(x: int) -> int:\n    return [[[[[[[x]]]]]]][0]\n", "types this large"),
        ("def f(i: int) -> int:\n    t = (1, 'a')\n    return t[i]\n", "a tuple indexed by anything but a constant"),
        ("def f() -> int:\n    t = (1, 2)\n    return len(t[1:])\n", "a tuple indexed by anything but a constant, or sliced"),
        ("def f() -> int:\n    a, b = (1, 2, 3)\n    return a\n", "cannot unpack a value of type tuple[int, int, int] into 2 names"),
        ("def f() -> int:\n    a, b = 5\n    return a\n", "cannot unpack a value of type int into 2 names"),
        ("def f(x: Optional[int]) -> int:\n    return x\n", "return type mismatch: expected int, got Optional[int]"),
        ("def f(x: Optional[int]) -> str:\n    return str(x)\n", "unsupported operand types for 'str': Optional[int]"),
        ("def f(x: int) -> bool:\n    return x is None\n", "unsupported operand types for 'is': int and None"),
        ("def f(x: Optional[int]) -> bool:\n    return x is x\n", "unsupported operand types for 'is'"),
        ("def f() -> int:\n    ps = []\n    ps.append((1, (2, 3)))\n    return 0\n", "types this large"),
        ("def f(x: tuple[int, ...]) -> int:\n    return 0\n", "expected a type"),
        ("def f(x: dict[list[int], int]) -> int:\n    return 0\n", "dict keys and set elements of this type"),
        ("def f() -> int:\n    xs = [1, 'a']\n    return 0\n", "lists mixing elements of different types"),
        ("def f() -> int:\n    xs = [1, True]\n    return 0\n", "lists mixing elements of different types"),
    ],
)
def test_what_the_codes_cannot_hold_is_named(src, message):
    batch = compile_batch([src])
    assert not batch.ok(0)
    assert message in str(batch.error(0)), str(batch.error(0))
