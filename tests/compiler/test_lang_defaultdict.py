"""collections.defaultdict (compiler/typecheck_defaultdict.py, compiler/desugar_defaultdict.py)
and Counter's update / subtract / Counter() / + - & | / unary + - (compiler/typecheck_counter.py,
their preludes in compiler/preludes.py): each program run on the VM (reference interpreter and
CPU kernel) and compared with CPython running the same source (a returned defaultdict or
Counter compared by its repr); the forms not built are located compile errors naming them."""

from __future__ import annotations

import pytest

from gpucc.contract import typecodes as T
from tests.compiler.test_lang_collections import test_counter_forms_not_built_are_located as located
from tests.oracle.oracle import program_disagreements

WORDS = [([],), (["a"],), (["b", "a", "b", "c", "a", "b"],), (["x", "yy", "z", "yy", ""],), (["é", "😀", "é"],)]
INTS = [([],), ([1, 2, 3, 2, 4],), ([5, 5, 5],), ([-1, 0, -1, 2**62, 2**62, 0, 7],)]
PAIRS = [([],), ([("a", 1), ("b", 2), ("a", 3)],), ([("x", -5), ("x", 5), ("y", 0)],)]

PROGRAMS = {
    "count_words_int": (
        "from collections import defaultdict\n\n\ndef f(xs: list[str]):\n    d = defaultdict(int)\n"
        "    for x in xs:\n        d[x] += 1\n    return d\n",
        WORDS,
    ),
    "group_by_length_list": (
        "from collections import defaultdict\n\n\ndef f(xs: list[str]):\n    d = defaultdict(list)\n"
        "    for x in xs:\n        d[len(x)].append(x)\n    return d\n",
        WORDS,
    ),
    "group_pairs_items_sorted": (
        "import collections\n\n\ndef f(ps: list[tuple[str, int]]) -> list[tuple[str, int]]:\n"
        "    d = collections.defaultdict(list)\n    for k, v in ps:\n        d[k].append(v)\n"
        "    return sorted([(k, sum(v)) for k, v in d.items()], key=lambda kv: -kv[1])\n",
        PAIRS,
    ),
    "read_inserts_get_in_pop_do_not": (
        "from collections import defaultdict as dd\n\n\ndef f(xs: list[int]) -> list[int]:\n    d = dd(int)\n"
        "    a = d.get(7, -1)\n    b = 8 in d\n    n0 = len(d)\n    c = d[9]\n    n1 = len(d)\n"
        "    e = d.pop(10, -2)\n    s = d.setdefault(11, 4)\n    for x in xs:\n        d[x] = d[x] + x\n"
        "    return [a, int(b), n0, c, n1, e, s, len(d), int(9 in d)] + list(d.keys()) + list(d.values())\n",
        INTS,
    ),
    "fresh_list_per_key_not_shared": (
        "from collections import defaultdict\n\n\ndef f(xs: list[int]) -> list[list[int]]:\n"
        "    d = defaultdict(list)\n    a = d[0]\n    b = d[1]\n    a.append(5)\n    for x in xs:\n"
        "        d[x % 3].append(x)\n    return [d[0], d[1], d[2], a, b, d[99]]\n",
        INTS,
    ),
    "sets_and_strs_and_floats": (
        "from collections import defaultdict\n\n\ndef f(xs: list[str]) -> str:\n    s = defaultdict(set)\n"
        "    t = defaultdict(str)\n    g = defaultdict(float)\n    b = defaultdict(bool)\n    for x in xs:\n"
        "        n = len(x)\n        s[n].add(x)\n        t[n] += x\n        g[x] += 0.5\n        b[x] = not b[x]\n"
        "    return ','.join(str(len(v)) for v in s.values()) + t[1] + '|' + t[7] + str(g['a']) + str(b['b'])\n",
        WORDS,
    ),
    "dict_factory_nested": (
        "from collections import defaultdict\n\n\ndef f(ps: list[tuple[str, int]]):\n    d = defaultdict(dict)\n"
        "    for k, v in ps:\n        d[k][v] = len(k)\n    return d\n",
        PAIRS,
    ),
    "equality_with_dicts_and_len_truth": (
        "from collections import defaultdict\n\n\ndef f(xs: list[int]) -> int:\n    d = defaultdict(int)\n"
        "    r = int(d == {}) + 2 * int(not d)\n    for x in xs:\n        d[x] += 1\n"
        "    e = {x: xs.count(x) for x in xs}\n    r += 4 * int(d == e) + 8 * int(e == d) + 16 * int(d != e)\n"
        "    d2 = defaultdict(int)\n    for x in reversed(xs):\n        d2[x] += 1\n"
        "    return r + 32 * int(d == d2) + 64 * len(d) + 1024 * int(bool(d))\n",
        INTS,
    ),
    "dict_of_defaultdict_and_keys_order": (
        "from collections import defaultdict\n\n\ndef f(s: str) -> list[str]:\n    d = defaultdict(int)\n"
        "    for ch in s:\n        d[ch] += 1\n    m = max(d.values()) if d else 0\n"
        "    return [k for k, v in d.items() if v == m] + sorted(d.keys(), key=lambda k: -d[k])\n",
        [("",), ("abracadabra",), ("zzyyx",)],
    ),
    "passed_to_a_helper": (
        "from collections import defaultdict\n\n\ndef add(d, k, v):\n    d[k].append(v)\n\n\n"
        "def f(xs: list[int]) -> int:\n    d = defaultdict(list)\n    for i, x in enumerate(xs):\n"
        "        add(d, x, i)\n    return sum(len(v) * k for k, v in d.items())\n",
        INTS,
    ),
    "assert_failure_outcome": (
        "from collections import defaultdict\n\n\ndef f(xs: list[int]) -> int:\n    d = defaultdict(int)\n"
        "    for x in xs:\n        d[x] += 1\n    assert d == {1: 1}\n    return len(d)\n",
        [([1],), ([1, 1],), ([],)],
    ),
    # Counter's rest
    "counter_update_and_subtract": (
        "from collections import Counter\n\n\ndef f(xs: list[str], ys: list[str]):\n    c = Counter(xs)\n"
        "    c.update(ys)\n    c.subtract(xs)\n    c.subtract(ys)\n    c.subtract(ys)\n    return c\n",
        [(a, b) for (a,) in WORDS[:4] for (b,) in WORDS[1:4]],
    ),
    "counter_update_of_counts": (
        "from collections import Counter\n\n\ndef f(xs: list[str], ys: list[str]):\n    c = Counter(xs)\n"
        "    c.update(Counter(ys))\n    d = Counter(ys)\n    d.subtract(c)\n    return [c, d]\n",
        [(a, b) for (a,) in WORDS[:4] for (b,) in WORDS[:4]],
    ),
    "counter_empty_typed_by_use": (
        "from collections import Counter\n\n\ndef f(s: str):\n    c = Counter()\n    for ch in s:\n"
        "        c[ch] += 1\n    c.update(s)\n    return c\n",
        [("",), ("banana",), ("xyz",)],
    ),
    "counter_operators": (
        "from collections import Counter\n\n\ndef f(xs: list[int], ys: list[int]):\n    a = Counter(xs)\n"
        "    b = Counter(ys)\n    b[99] = -3\n    a[98] = 0\n    return [a + b, a - b, b - a, a & b, a | b, b | a, +b, -b, a]\n",
        [(a, b) for (a,) in INTS for (b,) in INTS],
    ),
}


@pytest.mark.parametrize("backend", ["reference", "cpu"])
def test_defaultdict_and_counter_programs_match_cpython(backend):
    assert program_disagreements(PROGRAMS, backend) == []


DD = "from collections import defaultdict\n"


@pytest.mark.parametrize(
    "src, message, column",
    [
        (DD + "def f() -> int:\n    return len(defaultdict())\n", "this form of collections.defaultdict", 16),
        (DD + "def f() -> int:\n    return len(defaultdict(lambda: 0))\n", "this form of collections.defaultdict", 16),
        (DD + "def f() -> int:\n    return len(defaultdict(tuple))\n", "this form of collections.defaultdict", 16),
        (DD + "def f() -> int:\n    return len(defaultdict(int, {1: 2}))\n", "this form of collections.defaultdict",
         16),
        ("import collections\ndef f() -> int:\n    return len(collections.defaultdict())\n",
         "this form of collections.defaultdict", 28),
        (DD + "def f(xs: list[float]) -> int:\n    d = defaultdict(int)\n    d[1] += 0.5\n    return len(d)\n",
         "type mismatch", None),
        (DD + "def g(d: dict[int, int]) -> int:\n    return len(d)\n\ndef f() -> int:\n"
              "    d = defaultdict(int)\n    return g(d)\n", "type mismatch", None),
        ("from collections import Counter\ndef f(xs: list[int]) -> int:\n    return len(Counter(xs) + {1: 2})\n",
         "", None),
        ("from collections import Counter\ndef f(xs: list[int]) -> int:\n    return len(Counter(xs) * 2)\n",
         "", None),
        (DD + "def f(xs: list[int]) -> list[int]:\n    d = defaultdict(int)\n    return sorted(d, key=lambda k: -d[k])\n",
         "a dict where a builtin rewritten as a loop over positions wants a sequence", 12),
        ("def f(xs: list[int]) -> int:\n    d = {5: 1}\n    return max(d, key=lambda k: d[k])\n",
         "a dict where a builtin rewritten as a loop over positions wants a sequence", 12),
        ("from collections import Counter\ndef f(xs: list[int]) -> int:\n    c = Counter(xs)\n    c |= Counter(xs)\n"
         "    return len(c)\n", "unsupported operand types", None),
        *[(f"from collections import {name}\n", f"'{name}' is not supported by gpucc yet", 25)
          for name in ("OrderedDict", "namedtuple", "ChainMap")],
    ],
)
def test_forms_not_built_are_located(src, message, column):
    located(src, message, column)


def test_defaultdict_type_names():
    d = T.defaultdict_of(T.STR, T.list_of(T.INT))
    assert T.name(d) == "defaultdict[str, list[int]]" and T.value_of(d) == T.list_of(T.INT) and T.width(d) == 4
    assert T.name(T.list_of(T.defaultdict_of(T.INT, T.INT))) == "list[defaultdict[int, int]]"
