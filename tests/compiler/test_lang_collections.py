"""collections.Counter (compiler/typecheck_counter.py, its prelude in compiler/preludes.py):
each program run on the VM (reference interpreter and CPU kernel) and compared with CPython
running the same source; the forms not built are located compile errors naming them."""

from __future__ import annotations

import pytest

from gpucc.compiler.batch import compile_batch
from gpucc.contract import typecodes as T
from gpucc.vm.reference_value import python_value
from tests.oracle.oracle import program_disagreements

WORDS = [([],), (["a"],), (["b", "a", "b", "c", "a", "b"],), (["x", "y", "z", "y"],), (["é", "😀", "é", "", ""],)]
INTS = [([],), ([1, 2, 3, 2, 4],), ([5, 5, 5],), ([-1, 0, -1, 2**62, 2**62, 0, 7],)]
# a list of pairs as one int, so that the oracle compares it (its order too)
ENCODE = "\n\ndef enc(ps: list[tuple[str, int]]) -> int:\n    t = 0\n    for k, v in ps:\n" \
         "        t = (t * 131 + sum(ord(ch) for ch in k) * 7 + v) % 1000000007\n    return t * 100 + len(ps)\n"

PROGRAMS = {
    "humaneval_26": (
        "from typing import List\nimport collections\n\n\ndef f(numbers: List[int]) -> int:\n"
        "    c = collections.Counter(numbers)\n    out = [n for n in numbers if c[n] <= 1]\n"
        "    return sum(out) * 100 + len(out)\n",
        INTS,
    ),
    "missing_counts_zero_not_inserted": (
        "from collections import Counter\n\n\ndef f(xs: list[str]) -> int:\n    c = Counter(xs)\n"
        "    n = len(c)\n    z = c['zz'] + c['a']\n    return z * 1000 + n * 10 + len(c) + ('zz' in c)\n",
        WORDS,
    ),
    "augmented_and_del": (
        "import collections as co\n\n\ndef f(s: str) -> int:\n    c = co.Counter(s)\n    c['q'] += 3\n"
        "    c['a'] -= 1\n    if 'b' in c:\n        del c['b']\n    c['w'] = 9\n"
        "    t = 0\n    for k in c:\n        t = (t * 31 + ord(k) * 5 + c[k]) % 1000003\n"
        "    return t * 100 + len(c) + c.get('q', -50) + c.get('nope', 0)\n",
        [("",), ("abcab",), ("bbb",), ("héllo wörld",)],
    ),
    "iteration_views_in_insertion_order": (
        "from collections import Counter" + ENCODE + "\n\ndef f(xs: list[str]) -> int:\n    c = Counter(xs)\n"
        "    return enc(list(c.items())) * 7 + sum(c.values()) + len(list(c.keys())) + len(sorted(c))\n",
        WORDS,
    ),
    "most_common": (
        "from collections import Counter" + ENCODE + "\n\ndef f(xs: list[str], n: int) -> int:\n"
        "    c = Counter(xs)\n    return enc(c.most_common()) * 1000 + enc(c.most_common(n)) % 1000\n",
        [(w, n) for (w,) in WORDS for n in (-1, 0, 1, 2, 10)],
    ),
    "most_common_of_ints_ties": (
        "from collections import Counter\n\n\ndef f(xs: list[int]) -> int:\n    t = 0\n"
        "    for k, v in Counter(xs).most_common(3):\n        t = t * 1000 + k % 997 * 10 + v\n    return t\n",
        INTS + [([3, 1, 2, 1, 2, 3],)],
    ),
    "elements_and_total": (
        "from collections import Counter\n\n\ndef f(s: str) -> int:\n    c = Counter(s)\n    c['z'] = 0\n"
        "    c['y'] = -2\n    es = list(c.elements())\n    t = 0\n    for ch in es:\n"
        "        t = (t * 31 + ord(ch)) % 1000003\n"
        "    return t * 1000 + len(es) * 10 + c.total()\n",
        [("",), ("abracadabra",), ("zzz",)],
    ),
    "equality_missing_counts_zero": (
        "from collections import Counter\n\n\ndef f(xs: list[int], ys: list[int]) -> int:\n"
        "    a = Counter(xs)\n    b = Counter(ys)\n    r = (a == b) * 1 + (a != b) * 2\n    a[99] = 0\n"
        "    r += (a == b) * 4\n    b[99] -= 0\n    b[98] += 0\n    r += (a == b) * 8 + (b == a) * 16\n    a[1] += 1\n"
        "    return r + (a == b) * 32\n",
        [([], []), ([1, 2, 2], [2, 1, 2]), ([1], [2]), ([1, 1], [1])],
    ),
    "counter_of_tuples": (
        "from collections import Counter\n\n\ndef f(xs: list[float]) -> int:\n"
        "    c = Counter([(x > 0, x) for x in xs])\n"
        "    return len(c) * 100 + c[(True, 0.5)] * 10 + c[(False, -0.0)]\n",
        [([],), ([0.5, 0.5, -1.0, 0.0, -0.0],), ([float("nan"), float("nan")],)],
    ),
    "counter_of_floats": (
        "from collections import Counter\n\n\ndef f(xs: list[float]) -> int:\n    d = Counter(xs)\n"
        "    return len(d) * 100 + d[0.5] * 10 + d[-0.0] + d[float('nan')] * 1000\n",
        [([],), ([0.5, 0.5, -1.0, 0.0, -0.0],), ([float("nan"), float("nan")],)],
    ),
    "passed_and_returned": (
        "from collections import Counter\n\n\ndef count(ws):\n    return Counter(ws)\n\n\n"
        "def top(c) -> str:\n    return c.most_common(1)[0][0] if c else ''\n\n\n"
        "def f(s: str) -> int:\n    w = top(count(s.split()))\n    return len(w) * 1000 + sum(ord(ch) for ch in w)\n",
        [("",), ("a b b",), ("x y",)],
    ),
    "in_module_code": (
        "from collections import Counter\n\nVOWELS = Counter('aeiouaa')\n\n\ndef f(s: str) -> int:\n"
        "    return sum(VOWELS[ch] for ch in s)\n",
        [("",), ("banana",), ("xyz",)],
    ),
}


@pytest.mark.parametrize("backend", ["reference", "cpu"])
def test_counter_programs_match_cpython(backend):
    assert program_disagreements(PROGRAMS, backend) == []


@pytest.mark.parametrize(
    "src, message, column",
    [
        ("from collections import Counter\ndef f(xs: list[int]) -> None:\n    c = Counter(xs)\n    c.update()\n",
         "takes 1 argument(s), 0 given", 7),
        ("from collections import Counter\ndef f(d: dict[str, int]) -> int:\n    return len(Counter(d))\n",
         "this form of collections.Counter", 16),
        ("from collections import Counter\ndef f(xs: list[int]) -> int:\n    return len(Counter(xs) + {1: 2})\n",
         "", None),
        ("from collections import Counter\ndef f(xs: list[int]) -> int:\n    return Counter(xs).total(1)\n",
         "takes 0 argument(s), 1 given", 24),
        *[(f"from collections import {name}\n", f"'{name}' is not supported by gpucc yet", 25)
          for name in ("OrderedDict", "namedtuple", "ChainMap")],
        ("import collections\ndef f() -> int:\n    return len(collections.OrderedDict())\n",
         "'collections.OrderedDict' is not supported by gpucc yet", 16),
    ],
)
def test_counter_forms_not_built_are_located(src, message, column):
    batch = compile_batch([src])
    assert not batch.ok(0)
    err = batch.error(0)
    assert message in str(err), str(err)
    if column is not None:
        assert err.col == column, str(err)


def test_counter_type_and_repr():
    c = T.counter_of(T.STR)
    assert T.name(c) == "Counter[str]" and T.value_of(c) == T.INT and T.width(c) == 3
    assert T.name(T.list_of(T.counter_of(T.tuple_of([T.INT, T.INT])))) == "list[Counter[tuple[int, int]]]"
    assert python_value is not None
