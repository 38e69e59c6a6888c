"""set[T]: displays, set() typed by its context, set(xs), add, discard, remove (KeyError), in,
len, | & - ^, <= / >= and issubset, ==, set comprehensions and iteration, which follows
CPython's table order for sets of ints, floats, bools and tuples of them: each program run on
the VM (reference interpreter and CPU kernel) and compared with CPython running the same
source.  Sets of strs iterate in the VM's documented order (CPython's changes from run to
run), so those programs use only order-free results."""

from __future__ import annotations

import random

import pytest

from gpucc.compiler.batch import compile_batch
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


ORDER = "def order(s: set[int]) -> int:\n    t = 0\n    for x in s:\n        t = (t * 131 + x) % 1000000007\n    return t\n\n"
IN_PLACE = {
    "in_place_operators_and_an_alias": (
        "def f(n: int) -> list[int]:\n    s = {i * 7 % 40 for i in range(n)}\n    t = {i * 3 % 50 for i in range(n + 5)}\n"
        "    u = s\n    s |= t\n    a = list(s)\n    s &= {x for x in range(0, 60, 2)}\n    b = list(s)\n"
        "    s -= {x for x in range(0, 60, 6)}\n    c = list(u)\n    s ^= {x * 8 for x in range(12)}\n"
        "    s |= s\n    d = list(u)\n    u ^= u\n    return a + b + c + d + list(s) + [len(s)]\n",
        [(0,), (3,), (12,), (40,)],
    ),
    "update_methods_of_iterables": (
        "def f(n: int) -> list[int]:\n    s = set(range(n))\n    for x in range(0, n, 3):\n        s.discard(x)\n"
        "    s.update([n * 8, n * 16, 5], range(3))\n    a = list(s)\n    d = {k * 32: 1 for k in range(n)}\n"
        "    s.update(d)\n    b = list(s)\n    s.intersection_update([x * 2 for x in range(n * 4)], d.keys())\n"
        "    c = list(s)\n    s.update(d.keys(), (1, 2, 3))\n    s.difference_update((0, 32), [64])\n"
        "    s.symmetric_difference_update([1, 2, 3, 1, 96, 4])\n    e = list(s)\n"
        "    s.symmetric_difference_update({96: 0, 7: 1, 64: 2})\n    return a + b + c + e + list(s)\n",
        [(0,), (2,), (7,), (20,)],
    ),
    "new_sets_from_methods": (
        ORDER + "def f(n: int) -> list[int]:\n    s = {i * 5 % 64 for i in range(n)}\n    t = [i * 9 % 70 for i in range(n)]\n"
        "    d = {x: x for x in t}\n    u = set(t)\n"
        "    out = [order(s.union(t)), order(s.union(d, {1, 2})), order(s.union(s)), order(s.union()), order(s.union(u, s))]\n"
        "    out += [order(s.intersection(t)), order(s.intersection(d, t)), order(s.intersection(u)), order(s.intersection())]\n"
        "    out += [order(s.difference(t)), order(s.difference(d)), order(s.difference({1}, t)), order(s.difference())]\n"
        "    out += [order(s.symmetric_difference(t)), order(s.symmetric_difference(d)), order(s.symmetric_difference(u))]\n"
        "    return out + [order(s.copy()), order(s)]\n",
        [(0,), (4,), (9,), (30,), (70,)],
    ),
    "tests_of_sets": (
        "def f(n: int) -> list[bool]:\n    s = {i for i in range(n)}\n    t = [1, 2, 3]\n    d = {1: 0, 2: 0}\n"
        "    return [s.issubset(t), s.issubset(d), s.issuperset(t), s.issuperset({2: 1}), s.issuperset({1, 2}),\n"
        "            s.isdisjoint(t), s.isdisjoint({9, 10}), s.isdisjoint(d), s < {0, 1, 2}, s > {1}, s < s, s > s,\n"
        "            {1, 2} < s, s > set()]\n",
        [(0,), (1,), (3,), (5,)],
    ),
    "pop_finger_and_clear": (
        "def f(n: int) -> list[int]:\n    s = {i * 11 % 100 for i in range(n)}\n    out = []\n"
        "    for _ in range(n // 2):\n        out.append(s.pop())\n    s.add(3)\n    s |= {n * 8, 1}\n    out.append(s.pop())\n"
        "    c = s\n    out += list(c)\n    s.clear()\n    out.append(len(c))\n    s.add(n)\n    out.append(s.pop())\n"
        "    if n > 5:\n        out.append(s.pop())\n    return out\n",
        [(0,), (1,), (4,), (9,), (30,)],
    ),
    "pop_caught": (
        "def f(n: int) -> int:\n    s = {n}\n    k = 0\n    try:\n        while True:\n            s.pop()\n"
        "            k += 1\n    except KeyError:\n        k += 100\n    return k\n",
        [(1,)],
    ),
    "tuples_and_floats_in_place": (
        "def f(n: int) -> int:\n    s = {(i, i % 3) for i in range(n)}\n    s |= {(i % 4, 1) for i in range(n)}\n"
        "    s -= {(0, 0)}\n    s ^= {(1, 1), (9, 9)}\n    s.update([(5, 5), (0, 0)])\n    t = 0\n    for a, b in s:\n"
        "        t = (t * 7 + a * 3 + b) % 1000003\n    g = {i / 2 for i in range(n)}\n    g &= {0.5, 1.0, 1.5, 2.0, 100.0}\n"
        "    g.symmetric_difference_update([7.5, 0.5])\n    for x in g:\n        t = t * 3 + int(x * 2)\n    return t\n",
        [(0,), (5,), (17,)],
    ),
    "changed_size_by_an_in_place_op": (
        "def f(n: int) -> int:\n    s = {1, 2, 3}\n    for x in s:\n        if x == n:\n            s |= {100}\n"
        "        if x == n + 10:\n            s &= {1, 2, 3}\n    return len(s)\n",
        [(0,), (2,), (-8,)],
    ),
    "set_of_a_set_and_of_a_dict": (  # CPython's set_merge and dict path, not one element at a time
        "from collections import Counter\n\ndef f(xs: list[int]) -> list[int]:\n    s = set(xs)\n"
        "    d = {x: 0 for x in xs}\n    for x in xs[:3]:\n        s.discard(x)\n    c = Counter(xs)\n"
        "    return list(set(s)) + [0] + list(set(d)) + [1] + list(set(d.keys())) + [2] + list(set(c)) + list({x for x in s})\n",
        [([232, 9, -512, 80, 56, 49, 168, -320, -256, 21, 672, 376, -47],), ([0, 16, 1, 2, 3],), ([],)],
    ),
    "strs_order_free_in_place": (
        "def f(s: str) -> int:\n    w = set(s.split())\n    w |= {'x', 'y'}\n    w -= {'the'}\n    w.update(['z', 'a'])\n"
        "    v = w.union(['q']).difference({'a': 1})\n    return len(w) * 100 + len(v) + ('z' in v) * 10000\n",
        [("the cat the dog",), ("",)],
    ),
}


def random_in_place_programs(seed: int, count: int) -> dict:
    """Programs changing a set of ints in place by random adds, discards, operators and methods
    (dummies, resizes): its iteration order after each is CPython's table layout."""
    rng = random.Random(seed)
    forms = ["s |= {{{a}}}", "s &= {{{a}}}", "s -= {{{a}}}", "s ^= {{{a}}}", "s.update([{a}])", "s.update({{{d}}})",
             "s.intersection_update([{a}])", "s.difference_update([{a}])", "s.symmetric_difference_update([{a}])",
             "s.symmetric_difference_update({{{d}}})", "s = s.union([{a}])", "s = s.intersection([{a}])",
             "s = s.difference([{a}])", "s = s.symmetric_difference([{a}])", "s.add({v})", "s.discard({v})", "s = set(s)",
             "s = set({{{d}}})"]  # fmt: skip
    out = {}
    for k in range(count):
        lines = ["def f(n: int) -> list[int]:", "    s = {n, 1, 2, 3, 40, -7}", "    out = []"]
        for _ in range(rng.randrange(1, 14)):
            xs = [rng.randrange(-64, 64) * rng.choice([1, 1, 8, 32]) for _ in range(rng.randrange(1, 24))]
            a = ", ".join(map(str, xs))
            d = ", ".join(f"{x}: 0" for x in xs)
            lines.append("    " + rng.choice(forms).format(a=a, d=d, v=xs[0]))
            lines.append("    out += list(s)")
        out[f"random_in_place{k}"] = ("\n".join(lines) + "\n    return out\n", [(0,), (rng.randrange(-99, 99),)])
    return out


@pytest.mark.parametrize("backend", ["reference", "cpu"])
def test_in_place_set_programs_match_cpython(backend):
    assert program_disagreements(IN_PLACE, backend) == []


def test_random_in_place_sets_iterate_in_cpythons_order():
    assert program_disagreements(random_in_place_programs(2, 40), "cpu") == []


@pytest.mark.parametrize(
    "src, message",
    [
        ("def f(s: set[int]) -> int:\n    s |= [1]\n    return 0\n", "augmented assignment to a list or set"),
        ("def f(s: set[str]) -> int:\n    s.update('abc')\n    return 0\n", "type mismatch: expected set[str], got str"),
        ("def f(s: set[int]) -> int:\n    return len(s.union([1.5]))\n", "type mismatch: expected set[int], got list[float]"),
        ("def f(s: set[int]) -> int:\n    return len(s.union(1, 2, 3, 4))\n", "'union' takes 3 argument(s), 4 given"),
        ("def f(s: set[int]) -> int:\n    s.intersection_update()\n    return 0\n", "'intersection_update' takes 1"),
        ("def f(s: set[int]) -> int:\n    return s.pop(1)\n", "'pop' takes 0 argument(s), 1 given"),
        ("def f(s: set[int]) -> int:\n    return len(frozenset(s))\n", "frozenset"),
    ],
)
def test_set_forms_not_built_are_located(src, message):
    batch = compile_batch([src])
    assert not batch.ok(0)
    assert message in str(batch.error(0)), str(batch.error(0))
