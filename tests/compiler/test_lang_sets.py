"""set[T]: displays, set() typed by its context, set(xs), add, discard, remove (KeyError), in,
len, | & - ^, <= / >= and issubset, ==, set comprehensions and iteration, which follows
CPython's table order for sets of ints, floats, bools and tuples of them: each program run on
the VM (reference interpreter and CPU kernel) and compared with CPython running the same
source.  Sets of strs iterate in the VM's documented order (CPython's changes from run to
run), so those programs use only order-free results."""

from __future__ import annotations

import random

import pytest

from tests.oracle.oracle import program_disagreements


def digits(expr: str) -> str:
    """Source folding the iteration order of `expr` into one int."""
    return f"    t = 0\n    for x in {expr}:\n        t = (t * 131 + x) % 1000000007\n"


SETS = {
    "display_and_order": (
        "def f(n: int) -> int:\n    s = {33, 1, 17, n, -5, 2**40}\n" + digits("s") + "    return t * 10 + len(s)\n",
        [(0,), (1,), (9,), (-1,)],
    ),
    "from_list": (
        "def f(xs: list[int]) -> int:\n    s = set(xs)\n" + digits("s") + "    return t * 100 + len(s)\n",
        [([],), ([3, 1, 2],), ([5, 5, 13, 21, 29, -8, 0, 8, 16],), (list(range(40, 0, -3)),)],
    ),
    "add_discard_remove": (
        "def f(n: int) -> int:\n    s = set()\n    for i in range(n):\n        s.add(i * 37 % 50)\n"
        "    for i in range(0, n, 4):\n        s.discard(i)\n    s.remove(n * 37 % 50 if n > 0 else 0)\n"
        + digits("s") + "    return t\n",
        [(0,), (1,), (10,), (30,)],
    ),
    "operators": (
        "def f(n: int) -> int:\n    a = {i * 3 % 17 for i in range(n)}\n    b = {i * 5 % 13 for i in range(n + 4)}\n"
        "    t = 0\n    for x in a | b:\n        t = t * 7 + x\n    for x in a & b:\n        t = t * 7 + x\n"
        "    for x in a - b:\n        t = t * 7 + x\n    for x in b ^ a:\n        t = (t * 7 + x) % 1000003\n"
        "    return t\n",
        [(0,), (3,), (8,), (20,)],
    ),
    "subsets_and_equality": (
        "def f(n: int) -> int:\n    a = {1, 2, 3}\n    b = {x for x in range(n)}\n"
        "    return (a <= b) + (b >= a) * 10 + a.issubset(b) * 100 + (a == b) * 1000 + (a != {3, 2, 1}) * 10000\n",
        [(0,), (4,), (3,)],
    ),
    "membership_and_builtins": (
        "def f(n: int) -> int:\n    s = {4, 8, 15, 16, 23, 42}\n"
        "    return (n in s) + (n not in s) * 10 + max(s) + min(s) * 100 + sum(s) + sorted(s)[1] + len(s)\n",
        [(4,), (5,)],
    ),
    "remove_missing": ("def f(n: int) -> int:\n    s = {1}\n    s.remove(n)\n    return len(s)\n", [(1,), (2,)]),
    "floats_and_tuples": (
        "def f(x: float) -> int:\n    s = {1.5, -0.0, 2.0, x, 1e20}\n    p = {(1, 2), (2, 1), (int(x), 0)}\n"
        "    t = 0\n    for v in s:\n        t = t * 3 + int(v) % 7\n    for a, b in p:\n        t = t * 5 + a * 2 + b\n"
        "    return t * 10 + len(s) + (0.0 in s) * 1000000\n",
        [(0.0,), (1.5,), (3.0,)],
    ),
    "strs_order_free": (
        "def f(s: str) -> int:\n    words = set(s.split())\n    chars = {c for c in s}\n"
        "    return len(words) * 1000 + len(chars) + ('a' in chars) * 100000 + sum(len(w) for w in words) * 10\n",
        [("the cat the dog",), ("",), ("a b a",)],
    ),
    "changed_size_while_iterating": (
        "def f(n: int) -> int:\n    s = {1, 2, 3}\n    for x in s:\n        if x == n:\n            s.add(x + 100)\n"
        "    return len(s)\n",
        [(0,), (2,)],
    ),
    "set_of_set_and_copy": (
        "def f(n: int) -> int:\n    a = {n, 1, 9}\n    b = set(a)\n    b.add(50)\n" + digits("b") + "    return t + len(a) * 7\n",
        [(0,), (9,)],
    ),
    "parameters_and_results": (
        "def evens(xs: Set[int]) -> set[int]:\n    return {x for x in xs if x % 2 == 0}\n\n"
        "def f(n: int) -> int:\n    s = evens(set([i * 7 % 10 for i in range(n)]))\n" + digits("s") + "    return t\n",
        [(0,), (9,)],
    ),
}


def random_order_programs(seed: int, count: int) -> dict:
    """Programs building sets of ints by adds and discards in random orders: their iteration
    order is CPython's table layout."""
    rng = random.Random(seed)
    out = {}
    for k in range(count):
        lines = ["def f(n: int) -> int:", "    s = set()"]
        for _ in range(rng.randrange(1, 30)):
            v = rng.randrange(-64, 64)
            lines.append(f"    s.{rng.choice(['add', 'add', 'discard'])}({v} + n)")
        out[f"random{k}"] = ("\n".join(lines) + "\n" + digits("s") + "    return t\n", [(0,), (rng.randrange(-99, 99),)])
    return out


@pytest.mark.parametrize("backend", ["reference", "cpu"])
def test_set_programs_match_cpython(backend):
    assert program_disagreements(SETS, backend) == []


def test_random_sets_iterate_in_cpythons_order():
    assert program_disagreements(random_order_programs(1, 60), "cpu") == []
