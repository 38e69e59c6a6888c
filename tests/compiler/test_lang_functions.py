"""Functions as models write them: helpers without annotations (typed from their calls, their
return type from their returns), nested defs.  Each program runs on the VM (reference
interpreter and CPU kernel) and in CPython on the same source, and the outcomes must agree;
what is still out is a located compile error."""

from __future__ import annotations

import pytest

from gpucc.compiler.batch import compile_batch
from tests.oracle.oracle import program_disagreements

UNTYPED = {
    "helper": (
        "def twice(x):\n    return x * 2\n\ndef f(n: int) -> int:\n    return twice(n) + twice(3)\n",
        [(0,), (5,), (2**61,)],
    ),
    "two_params_str": (
        "def xor(i, j):\n    if i == j:\n        return '0'\n    else:\n        return '1'\n\n"
        "def f(a: str, b: str) -> int:\n    out = ''\n    for k in range(min(len(a), len(b))):\n"
        "        out = out + xor(a[k], b[k])\n    return len(out) * 1000 + out.count('1') * 10 + (out == '0110')\n",
        [("0101", "0011"), ("", "1"), ("111", "101")],
    ),
    "recursive": (
        "def fib(n):\n    if n < 2:\n        return n\n    return fib(n - 1) + fib(n - 2)\n\n"
        "def f(n: int) -> int:\n    return fib(n)\n",
        [(0,), (1,), (10,)],
    ),
    "procedure": (
        "def push(xs, v):\n    xs.append(v * v)\n\ndef f(n: int) -> int:\n    out = [0]\n    for i in range(n):\n"
        "        push(out, i)\n    return sum(out) + len(out)\n",
        [(0,), (4,)],
    ),
    "chain": (
        "def a(x):\n    return b(x) + 1\n\ndef b(y):\n    return c(y, 2.5)\n\ndef c(p, q):\n    return p * q\n\n"
        "def f(n: int) -> float:\n    return a(n)\n",
        [(0,), (3,)],
    ),
    "mutual": (
        "def even(n):\n    if n == 0:\n        return True\n    return odd(n - 1)\n\n"
        "def odd(n):\n    if n == 0:\n        return False\n    return even(n - 1)\n\n"
        "def f(n: int) -> bool:\n    return even(n)\n",
        [(0,), (7,), (10,)],
    ),
    "list_result": (
        "def digits(n):\n    return [int(c) for c in str(n)]\n\ndef f(n: int) -> int:\n    ds = digits(n)\n"
        "    return sum(ds) * 10 + len(ds)\n",
        [(0,), (9045,)],
    ),
    "falls_off": (
        "def first_neg(xs):\n    for x in xs:\n        if x < 0:\n            return x\n\n"
        "def f(n: int) -> int:\n    return first_neg([3, n, 1])\n",
        [(-2,), (2,)],
    ),
}

NESTED = {
    "prime_helper": (
        "def f(n: int) -> int:\n    def is_prime(k):\n        if k < 2:\n            return False\n"
        "        for i in range(2, k - 1):\n            if k % i == 0:\n                return False\n"
        "        return True\n    largest = 1\n    for j in range(2, n + 1):\n"
        "        if n % j == 0 and is_prime(j):\n            largest = max(largest, j)\n    return largest\n",
        [(2,), (15,), (13195,)],
    ),
    "in_comprehension": (
        "def f(s: str) -> int:\n    def depth(g):\n        d = 0\n        m = 0\n        for c in g:\n"
        "            if c == '(':\n                d += 1\n                m = max(d, m)\n            else:\n"
        "                d -= 1\n        return m\n    ds = [depth(x) for x in s.split(' ') if x]\n    return sum(ds) * 100 + len(ds)\n",
        [("(()()) ((())) () ((())()())",), ("",)],
    ),
    "two_nested_and_sibling_call": (
        "def f(a: int, b: int) -> int:\n    def check(s):\n        v = 0\n        for ch in s:\n"
        "            v = v + 1 if ch == '(' else v - 1\n            if v < 0:\n                return False\n"
        "        return v == 0\n    def both(x, y):\n        return check(x + y) or check(y + x)\n"
        "    return len('Yes' if both('(' * a, ')' * b) else 'No')\n",
        [(1, 1), (2, 1), (0, 0)],
    ),
    "closure": (
        "def f(n: int, s: str) -> int:\n    k = n * 2\n    def add(x):\n        return x + k + n\n"
        "    def count(c):\n        t = 0\n        for ch in s:\n            t += ch == c\n        return t\n"
        "    k = k + 1\n    return add(3) * 100 + count('a') + len([add(i) for i in range(n)])\n",
        [(0, ""), (4, "banana")],
    ),
    "closure_key_and_recursion": (
        "def f(xs: list[int], m: int) -> int:\n    def key(x):\n        return x % m\n"
        "    def depth(k):\n        if k < m:\n            return 0\n        return 1 + depth(k // m)\n"
        "    ys = sorted(xs, key=key)\n    return sum(i * y for i, y in enumerate(ys)) * 10 + depth(sum(xs))\n",
        [([5, 3, 8, 1], 3), ([], 2)],
    ),
    "recursive_nested": (
        "def f(n: int) -> int:\n    def fact(k):\n        if k <= 1:\n            return 1\n        return k * fact(k - 1)\n"
        "    return fact(n)\n",
        [(0,), (5,), (21,)],
    ),
}


@pytest.mark.parametrize("programs", [UNTYPED, NESTED], ids=["untyped", "nested"])
@pytest.mark.parametrize("backend", ["reference", "cpu"])
def test_functions_match_cpython(programs, backend):
    assert program_disagreements(programs, backend) == []


@pytest.mark.parametrize("src, message", [
    ("def g(x):\n    return x\n\ndef f(n: int) -> int:\n    return n\n",
     "cannot infer the types of 'g': it has parameters without annotations and no call"),
    ("def g(n):\n    return g(n - 1) if n > 0 else 0\n\ndef f(n: int) -> int:\n    return g(n)\n",
     "cannot infer the return type of 'g': it is called before any of its returns"),
    ("def g(x):\n    return x\n\ndef f(n: int) -> int:\n    return g(n) + len(g('a'))\n",
     "type mismatch: expected int, got str"),
    ("def f(n: int) -> int:\n    def g(k):\n        return k\n    return h(n)\n\ndef h(n: int) -> int:\n"
     "    return g(n)\n", "'g' is not a function defined in this file"),
    ("def f(n: int) -> int:\n    m = g(n)\n    def g(k):\n        return k\n    return m\n",
     "local variable 'g' may be used before it is assigned"),
    ("def f(n: int) -> int:\n    def g(k):\n        return k + n\n    def h(k):\n        return g(k)\n    return h(1)\n",
     "'g' is not defined here (a nested def may read its own names and its enclosing function's"),
    ("def f(n: int) -> int:\n    def g(k):\n        def h():\n            return n\n        return h()\n    return g(1)\n",
     "'n' is not defined here"),
])  # fmt: skip
def test_what_is_still_out_is_located(src, message):
    batch = compile_batch([src])
    assert not batch.ok(0)
    assert message in str(batch.error(0))
