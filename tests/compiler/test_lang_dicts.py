"""dict[K, V]: displays, `{}` typed by its context, d[k] (KeyError), d[k] = v, d[k] op= v,
del d[k], in, len, get, setdefault, pop, update, keys / values / items, ==, iteration in
insertion order (and CPython's RuntimeError when a loop's dict changes size), dict
comprehensions, and dicts as parameters, results and locals: each program run on the VM
(reference interpreter and CPU kernel) and compared with CPython running the same source."""

from __future__ import annotations

import pytest

from gpucc.compiler.batch import compile_batch
from gpucc.contract import typecodes as T
from tests.oracle.oracle import program_disagreements

WORDS = [("the cat the dog",), ("",), ("a b a b a",), ("é 😀 é",)]

DICTS = {
    "literal_get_set": (
        "def f(n: int) -> int:\n    d = {1: 10, 2: 20, 3: 30}\n    d[n] = n * 100\n    d[2] += 5\n"
        "    t = 0\n    for k in d:\n        t = t * 10 + k\n    return t * 1000 + d[1] + d[2] + len(d)\n",
        [(1,), (2,), (4,), (-1,)],
    ),
    "key_error": ("def f(n: int) -> int:\n    d = {'a': 1}\n    return d[str(n)]\n", [(0,), (1,)]),
    "counts": (
        "def f(s: str) -> int:\n    d = {}\n    for w in s.split():\n        d[w] = d.get(w, 0) + 1\n"
        "    t = 0\n    for w, c in d.items():\n        t = t * 7 + c * len(w)\n    return t * 100 + len(d)\n",
        WORDS,
    ),
    "group_lists": (
        "def f(n: int) -> int:\n    groups: dict[int, list[int]] = {}\n    for i in range(n):\n"
        "        if i % 3 not in groups:\n            groups[i % 3] = []\n        groups[i % 3].append(i)\n"
        "    t = 0\n    for k, v in groups.items():\n        t = t * 100 + k * 10 + len(v)\n    return t\n",
        [(0,), (2,), (7,)],
    ),
    "inferred_from_store": (
        "def f(n: int) -> int:\n    d = {}\n    for i in range(n):\n        d[str(i)] = [i, i]\n"
        "    return sum(len(v) for v in d.values()) + len(d)\n",
        [(0,), (4,)],
    ),
    "setdefault_pop_del": (
        "def f(n: int) -> int:\n    d = {'x': 1, 'y': 2, 'z': 3}\n    a = d.setdefault('w', n)\n"
        "    b = d.setdefault('x', 9)\n    c = d.pop('y')\n    e = d.pop('q', -1)\n    del d['z']\n"
        "    return a * 1000 + b * 100 + c * 10 + e + len(d) * 10000\n",
        [(0,), (5,)],
    ),
    "del_missing": ("def f(n: int) -> int:\n    d = {1: 1}\n    del d[n]\n    return len(d)\n", [(1,), (2,)]),
    "pop_missing": ("def f(n: int) -> int:\n    d = {1: 1}\n    return d.pop(n)\n", [(1,), (2,)]),
    "order_after_deletes": (
        "def f(n: int) -> int:\n    d = {}\n    for i in range(n):\n        d[i * 7 % 11] = i\n"
        "    for i in range(0, n, 3):\n        if i * 7 % 11 in d:\n            del d[i * 7 % 11]\n"
        "    d[100] = 1\n    d[0] = 5\n    t = 0\n    for k, v in d.items():\n        t = (t * 31 + k * 3 + v) % 1000003\n"
        "    return t\n",
        [(0,), (5,), (11,), (30,)],
    ),
    "update_and_eq": (
        "def f(n: int) -> int:\n    a = {'p': 1, 'q': 2}\n    b = {'q': 2, 'p': 1}\n    c = {'q': n}\n    e = dict()\n"
        "    e.update(a)\n    a.update(c)\n    return (a == b) + (b == e) * 10 + (a != e) * 100 + (e == {}) * 1000\n",
        [(2,), (3,)],
    ),
    "views_and_builtins": (
        "def f(n: int) -> int:\n    d = {5: 'e', 1: 'a', 3: 'c'}\n    d[n] = 'n'\n    ks = sorted(d)\n"
        "    vs = sorted(d.values())\n    its = sorted(d.items())\n"
        "    return ks[0] * 1000 + len(vs[0]) * 100 + its[-1][0] + max(d) + min(d.keys()) + sum(d)\n",
        [(0,), (9,), (3,)],
    ),
    "comprehensions": (
        "def f(n: int) -> int:\n    d = {i: i * i for i in range(n) if i % 2 == 1}\n"
        "    e = {d[k]: k for k in d}\n    l = [k for k in d]\n    return sum(d.values()) + len(e) * 1000 + sum(l) * 7\n",
        [(0,), (6,), (9,)],
    ),
    "string_keys_lens": (
        "def f(s: str) -> int:\n    d = {w: len(w) for w in s.split()}\n    return sum(d.values()) * 10 + len(d)\n",
        WORDS,
    ),
    "float_and_tuple_keys": (
        "def f(x: float) -> int:\n    d = {1.5: 1, 2.0: 2, -0.0: 3}\n    e = {(1, 'a'): 1, (2, 'b'): 2}\n"
        "    return d.get(x, 0) * 100 + d.get(2, 9) * 10 + e.get((1, 'a'), 0) + (0.0 in d) * 1000\n",
        [(1.5,), (0.0,), (2.0,), (float("nan"),)],
    ),
    "bool_keys_as_ints": (
        "def f(b: bool) -> int:\n    d = {True: 1, False: 2}\n    return d[b] + d[not b] * 10\n",
        [(True,), (False,)],
    ),
    "truth_and_len": (
        "def f(n: int) -> int:\n    d: Dict[str, int] = {}\n    t = 0 if d else 1\n    for i in range(n):\n"
        "        d[str(i)] = i\n    if d:\n        t += 10\n    return t + len(d) * 100 + bool(d)\n",
        [(0,), (3,)],
    ),
    "changed_size_while_iterating": (
        "def f(n: int) -> int:\n    d = {1: 1, 2: 2, 3: 3}\n    for k in d:\n        if k == n:\n            d[k * 10] = 0\n"
        "    return len(d)\n",
        [(0,), (2,)],
    ),
    "deleting_while_iterating": (
        "def f(n: int) -> int:\n    d = {1: 1, 2: 2, 3: 3}\n    for k in d:\n        if k == n:\n            del d[k]\n"
        "    return len(d)\n",
        [(0,), (3,), (1,)],
    ),
    "assigning_existing_while_iterating": (
        "def f(n: int) -> int:\n    d = {1: 1, 2: 2, 3: 3}\n    for k in d:\n        d[k] = d[k] * n\n"
        "    return sum(d.values())\n",
        [(0,), (3,)],
    ),
    "parameters_and_results": (
        "def make(n: int) -> dict[str, int]:\n    return {str(i): i for i in range(n)}\n\n"
        "def total(d: Dict[str, int]) -> int:\n    return sum(d.values())\n\n"
        "def f(n: int) -> int:\n    d = make(n)\n    d['x'] = 100\n    return total(d) + total(make(2)) + total({})\n",
        [(0,), (4,)],
    ),
    "get_of_heap_values": (
        "def f(n: int) -> int:\n    d = {'a': [1, 2], 'b': [3]}\n    v = d.get('a' if n > 0 else 'z')\n"
        "    if v is None:\n        return -1\n    return len(v)\n",
        [(0,), (1,)],
    ),
    "nested_dicts": (
        "def f(n: int) -> int:\n    d: dict[int, dict[int, int]] = {}\n    for i in range(n):\n        d[i % 2] = {}\n"
        "        d[i % 2][i] = i\n    return len(d) * 10 + sum(len(v) for v in d.values())\n",
        [(0,), (3,)],
    ),
}


@pytest.mark.parametrize("backend", ["reference", "cpu"])
def test_dict_programs_match_cpython(backend):
    assert program_disagreements(DICTS, backend) == []


def test_dict_annotations_are_packed_types():
    src = "def f(a: dict[str, int], b: Dict[int, list[str]], c: set[int], d: Set[tuple[int, str]]) -> int:\n    return 0\n"
    batch = compile_batch([src])
    assert batch.ok(0), batch.error(0)
    want = [T.dict_of(T.STR, T.INT), T.dict_of(T.INT, T.list_of(T.STR)), T.set_of(T.INT),
            T.set_of(T.tuple_of([T.INT, T.STR]))]  # fmt: skip
    assert list(batch.func_param_types[0][:4]) == want


@pytest.mark.parametrize(
    "src, message",
    [
        ("def f(x: dict[list[int], int]) -> int:\n    return 0\n", "dict keys and set elements of this type"),
        ("def f() -> int:\n    d = {[1]: 2}\n    return 0\n", "dict keys and set elements of this type"),
        ("def f() -> int:\n    d = {1: 2, 'a': 3}\n    return 0\n", "mixing elements of different types"),
        ("def f() -> int:\n    d = {1: 2}\n    return d['a']\n", "type mismatch"),
        ("def f() -> int:\n    d = {'a': 2}\n    return d[1]\n", "type mismatch: expected str, got int"),
        ("def f() -> int:\n    d = {'a': 2}\n    d['b'] = 'c'\n    return 0\n", "type mismatch: expected int, got str"),
        ("def f() -> int:\n    d = {1: 2}\n    return d.get(1)\n", "d.get(k) without a default"),
        ("def f() -> int:\n    d = {1: 2}\n    return d < d\n", "unsupported operand types for '<'"),
        ("def f() -> int:\n    d = {1: 2}\n    d.append(3)\n    return 0\n", "methods other than"),
        ("def f(xs: list[int]) -> int:\n    xs.keys()\n    return 0\n", "methods other than"),
        ("def f() -> int:\n    d = set([1], [2])\n    return 0\n", "dict() and set() with keywords or more"),
        ("def f(xs: list[int]) -> int:\n    del xs[0]\n    return 0\n", "del of anything but a dict's item"),
        ("def f() -> int:\n    d = {1: 2}\n    for k in reversed(d):\n        return k\n    return 0\n",
         "unsupported operand types for 'reversed'"),
        ("def f() -> bool:\n    return [{1: 2}] == [{1: 2}]\n", "unsupported operand types for '=='"),
        ("def f() -> int:\n    d = {1: 2}\n    return {1: 2, 3}\n", "invalid syntax"),
    ],
)
def test_what_dicts_do_not_take_is_a_located_error(src, message):
    batch = compile_batch([src])
    assert not batch.ok(0)
    assert message in str(batch.error(0)), str(batch.error(0))
