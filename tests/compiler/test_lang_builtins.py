"""Builtins as models call them: map / filter (a name, a lambda, None), enumerate and zip (loops,
comprehensions, values), range as a value, sorted / min / max / list.sort with key= and
reverse= (CPython's stability: equal keys keep their order, reverse too), default=, and
keyword arguments.  Each program runs on the VM (reference interpreter and CPU kernel) and in
CPython on the same source; the outcomes must agree."""

from __future__ import annotations

import pytest

from gpucc.compiler.batch import compile_batch
from tests.oracle.oracle import program_disagreements

ITERATION = {
    "map_filter": (
        "def f(n: int) -> int:\n    xs = [i * 3 - n for i in range(n)]\n    s = ''.join(list(map(str, xs)))\n"
        "    neg = len(list(filter(lambda x: x < 0, xs)))\n    sq = sum(map(lambda v: v * v, xs))\n"
        "    nz = list(filter(None, xs))\n    big = [len(w) for w in map(str, filter(lambda x: x > 2, xs))]\n"
        "    return len(s) * 100000 + neg * 1000 + sq + len(nz) * 10 + sum(big)\n",
        [(0,), (1,), (5,), (12,)],
    ),
    "enumerate_loops": (
        "def f(xs: list[float], t: float) -> int:\n    hits = 0\n    for idx, a in enumerate(xs):\n"
        "        for idx2, b in enumerate(xs):\n            if idx != idx2 and abs(a - b) < t:\n                hits += 1\n"
        "    for k, v in enumerate(xs, 1):\n        hits += k * (v > t)\n    return hits\n",
        [([1.0, 2.0, 3.9, 4.0], 0.3), ([], 1.0), ([1.0, 1.0], 0.5)],
    ),
    "enumerate_sees_writes": (
        "def f(n: int) -> int:\n    xs = [1] * n\n    for i, x in enumerate(xs):\n        if i + 1 < len(xs):\n"
        "            xs[i + 1] += x\n        if x > 5:\n            break\n        if i % 2 == 0:\n            continue\n"
        "    return sum(xs)\n",
        [(1,), (4,), (9,)],
    ),
    "enumerate_values": (
        "def f(s: str) -> int:\n    pairs = list(enumerate(s))\n    t = 0\n    for p in enumerate(s, 5):\n"
        "        t += p[0]\n    w = [i * ord(c) for i, c in enumerate(s) if c != 'a']\n"
        "    return len(pairs) * 1000 + t * 10 + sum(w)\n",
        [("",), ("abca",)],
    ),
    "zip_forms": (
        "def f(a: list[int], b: str) -> int:\n    t = 0\n    for x, c in zip(a, b):\n        t = t * 7 + x * ord(c)\n"
        "    for x, y, z in zip(a, a[1:], a[2:]):\n        t += x * y - z\n"
        "    u = sum(p * q for p, q in zip(a, a[::-1]))\n    v = [x + len(c) for x, c in zip(a, b)]\n"
        "    return t + u * 3 + len(list(zip(a, b))) + sum(v)\n",
        [([1, 2, 3], "xyzw"), ([], "a"), ([5, -1, 4, 2], "pq")],
    ),
    "range_values": (
        "def f(n: int) -> int:\n    xs = list(range(n))\n    ys = list(range(n, 0, -2))\n"
        "    t = sum(range(n + 1)) + len(range(3, n)) + (4 in range(n)) * 1000\n"
        "    for i in reversed(range(n)):\n        t = t * 2 + i\n    return t + sum(xs) * 7 + sum(ys) * 11\n",
        [(0,), (1,), (6,)],
    ),
    "map_filter_loops": (
        "def f(n: int) -> int:\n    x = 100\n    t = 0\n    for v in map(lambda x: x * 2, range(n)):\n        t += v + x\n"
        "    for w in filter(lambda v: v % 3 == 0, [x, n, 9]):\n        t = t * 2 + w\n"
        "    for a, b in map(lambda i: (i, i * i), range(3)):\n        t += a * b\n"
        "    ys = [x + y for y in map(lambda x: x + 1, range(n))]\n    return t + sum(ys) + x\n",
        [(0,), (3,), (7,)],
    ),
    "divmod": (
        "def f(a: int, b: int) -> int:\n    q, r = divmod(a, b)\n    t = divmod(a * 1.5, 2)\n"
        "    return q * 1000 + r * 10 + int(t[0]) + int(t[1] * 4)\n",
        [(7, 2), (-7, 2), (7, -3), (5, 0)],
    ),
    "tuple_targets_in_comprehensions": (
        "def f(n: int) -> int:\n    ps = [(i, i * i) for i in range(n)]\n    return sum(a * b for a, b in ps) + len([a for a, b in ps if b > 3])\n",
        [(0,), (5,)],
    ),
}

SORTING = {
    "sorted_key_reverse": (
        "def f(xs: list[int]) -> int:\n    a = sorted(xs, key=lambda x: x % 3)\n    b = sorted(xs, key=lambda x: x % 3, reverse=True)\n"
        "    c = sorted(xs, reverse=True)\n    d = sorted(xs, reverse=len(xs) > 3)\n    e = sorted(xs, key=abs, reverse=False)\n"
        "    t = 0\n    for v in a + b + c + d + e:\n        t = (t * 31 + v) % 1000003\n    return t\n",
        [([],), ([5, 3, -3, 8, 6, 0, -6, 1],), ([2, 2, 2],), ([4, -4, 7],)],
    ),
    "stable_keys_of_strs": (
        "def f(ws: list[str]) -> int:\n    a = sorted(ws, key=len)\n    b = sorted(ws, key=len, reverse=True)\n"
        "    c = sorted(sorted(ws), key=lambda w: w.count('a'))\n    t = 0\n    for w in a + b + c:\n"
        "        t = (t * 131 + ord(w[0]) * len(w)) % 1000003\n    return t\n",
        [(["bb", "a", "cc", "d", "aaa", "ab"],), (["x"],)],
    ),
    "pairs_key": (
        "def f(n: int) -> int:\n    coords = [(i, j) for i in range(n) for j in range(i) if (i + j) % 3 != 1]\n"
        "    s = sorted(sorted(coords, key=lambda x: x[1], reverse=True), key=lambda x: x[0])\n"
        "    t = 0\n    for i, j in s:\n        t = (t * 17 + i * 5 + j) % 1000003\n    return t\n",
        [(0,), (4,), (7,)],
    ),
    "min_max_key_default": (
        "def f(xs: list[int]) -> int:\n    a = min(xs, key=lambda x: x % 4, default=-1)\n"
        "    b = max(xs, key=lambda x: x % 4, default=-1)\n    c = max(xs, default=99)\n    d = min(xs, key=abs)\n"
        "    return a * 1000000 + b * 10000 + c * 100 + d\n",
        [([],), ([5, 1, 9, -3, 7, 4],), ([8, 4, 0],)],
    ),
    "sort_method": (
        "def f(xs: list[int]) -> int:\n    ys = xs\n    ys.sort(key=lambda x: -x)\n    zs = xs[:]\n"
        "    zs.sort(reverse=True)\n    ws = [str(x) for x in xs]\n    ws.sort(key=len, reverse=True)\n"
        "    return sum(i * v for i, v in enumerate(xs)) * 100 + (zs == xs) * 10 + len(ws[0]) if xs else 0\n",
        [([],), ([3, 10, -2, 3, 100],)],
    ),
}

KEYWORDS = {
    "defaults_and_keywords": (
        "def scale(x, n=2, bias=0.5):\n    return x * n + bias\n\ndef pick(a: int, b: int = 3, c: str = 'z') -> str:\n"
        "    return c * (a + b)\n\ndef f(k: int) -> float:\n    return (scale(k) + scale(k, 3) + scale(k, bias=1.0) + scale(n=4, x=k)\n"
        "            + len(pick(k)) + len(pick(k, c='ab')) + len(pick(b=1, a=k)))\n",
        [(0,), (4,)],
    ),
    "builtin_keywords": (
        "def f(s: str) -> int:\n    parts = s.split(sep='.')\n    q = s.split(',', maxsplit=1)\n"
        "    return len(parts) * 100 + len(q) * 10 + sum([len(p) for p in parts], start=7)\n",
        [("a.b.c",), ("x,y,z",), ("",)],
    ),
}


@pytest.mark.parametrize("programs", [ITERATION, SORTING, KEYWORDS], ids=["iteration", "sorting", "keywords"])
@pytest.mark.parametrize("backend", ["reference", "cpu"])
def test_builtins_match_cpython(programs, backend):
    assert program_disagreements(programs, backend) == []


@pytest.mark.parametrize("src, message", [
    ("def f(n: int) -> int:\n    return len(list(map(lambda a, b: a + b, [n], [n])))\n", "this form of map"),
    ("def f(n: int) -> int:\n    g = lambda x: x + 1\n    return g(n)\n", "lambdas: not supported"),
    ("def f(n: int) -> int:\n    print(n, end='')\n    return n\n", "keyword arguments: not supported"),
    ("def g(a: int, b: int = 2) -> int:\n    return a + b\n\ndef f(n: int) -> int:\n    return g(n, c=1)\n",
     "'c' is no parameter of the function called"),
    ("def g(a: int, b: int) -> int:\n    return a + b\n\ndef f(n: int) -> int:\n    return g(b=n)\n",
     "'g' takes 2 argument(s), 1 given"),
    ("def g(a: int, b: list[int] = []) -> int:\n    return a\n\ndef f(n: int) -> int:\n    return g(n)\n",
     "default parameter values other than literals"),
    ("def zip(a: int) -> int:\n    return a\n\ndef f(n: int) -> int:\n    return zip(n)\n", "cannot be redefined"),
    ("def f(n: int) -> int:\n    xs = [n]\n    ys = [xs]\n    ys[0].sort(key=abs)\n    return n\n", "this form of"),

])  # fmt: skip
def test_what_is_still_out_is_located(src, message):
    batch = compile_batch([src])
    assert not batch.ok(0)
    assert message in str(batch.error(0))
