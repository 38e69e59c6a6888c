"""heapq, functools.reduce, pow(a, b, m), isinstance, in-place operators and itertools (issue
13, items 4-6): outcomes equal CPython's through the oracle on both backends (exceptions too), and
what stays outside the language is a located compile error naming it."""

from __future__ import annotations

import pytest

from gpucc.compiler.batch import compile_batch
from tests.oracle.oracle import program_disagreements

# each program's `f` returns a flat value (lists and strs folded into an int: the oracle's
# outcomes render flat values)
PROGRAMS = {
    'heapq_push_pop_heapify': (
        'import heapq\ndef h(xs: list[int]) -> int:\n    t = len(xs)\n    for x in xs:\n        t = (t * 31 + x) % 1000000007\n    return t\ndef f(xs: list[int]) -> int:\n    h0 = []\n    out = []\n    for x in xs:\n        heapq.heappush(h0, x)\n        out.append(h0[0])\n    heapq.heapify(xs)\n    out += xs\n    while h0:\n        out.append(heapq.heappop(h0))\n    return h(out)\n',
        [([3,1,2,9,-4,5,5,0],), ([],), ([5,4,3,2,1,0,-1,7,7,7,2],)],
    ),
    'heapq_tuples_all_functions': (
        "from heapq import heappush, heappop, heapify, heapreplace, heappushpop, nlargest, nsmallest\ndef h(xs: list[tuple[int, str]]) -> int:\n    t = len(xs)\n    for x, s in xs:\n        t = (t * 31 + x * 7 + ord(s)) % 1000000007\n    return t\ndef f(xs: list[tuple[int, str]], n: int) -> int:\n    ys = list(xs)\n    heapify(ys)\n    out = list(ys)\n    if ys:\n        out.append(heapreplace(ys, (2, 'q')))\n    out.append(heappushpop(ys, (1, 'z')))\n    out += ys\n    out += nlargest(n, xs) + nsmallest(n, xs)\n    out.append(heappop(ys))\n    return h(out)\n",
        [([(3,'a'),(1,'b'),(2,'c'),(1,'a')], 2), ([], 1), ([(5, 'x')], -1), ([(5, 'x'), (4, 'y')], 5)],
    ),
    'heapq_alias_floats': (
        'import heapq as hq\ndef f(xs: list[float]) -> float:\n    hq.heapify(xs)\n    return hq.heappop(xs) + hq.heappop(xs)\n',
        [([3.5, 1.0, 2.0],), ([1.0],)],
    ),
    'heapq_nlargest_nsmallest_stable': (
        'import heapq\nimport math\ndef f(xs: list[float], n: int) -> int:\n    t = 0\n    for x in heapq.nlargest(n, xs) + heapq.nsmallest(n, xs):\n        t = t * 7 + int(x) * 2 + int(math.copysign(1.0, x) > 0)\n    return t\n',
        [([0.0, -0.0, 1.0, -0.0, 0.0, 2.5, 2.5], 4), ([], 3), ([1.5], 0), ([1.5, 0.0, 0.0, -0.0], 10)],
    ),
    'pow_mod': (
        'def f(a: int, b: int, m: int) -> int:\n    return pow(a, b, m)\n',
        [(0,-1,1),(2,-1,-1),(4,-1,1),(3,2,-5),(3,-1,-7),(0,0,-3),(0,0,1),(5,0,-1),(-3,3,7),(2,-3,-7),(2,5,0),(4,-1,8),(0,-1,5),(2**62+3, 2**62+1, 2**63-1),(-(2**63), 2**63-1, 2**63-25),(3, -(2**63), 1000000007),(12345678901, -5, 2**61-1), (7, 3, -(2**63 - 1)), (10**18, 10**18, -(10**9+7)), (True, 5, 3)],
    ),
    'pow_two_and_three_arguments': (
        'def f(a: int, b: int) -> int:\n    return pow(a, b) + pow(2, 3, 5)\n',
        [(2, 3)],
    ),
    'isinstance_static': (
        'from typing import Optional\ndef f(a: int, b: float, c: bool, s: str, xs: list[int], t: tuple[int, str], n: int) -> int:\n    o = None if n < 0 else n\n    d = {1: a}\n    e = {a}\n    r = [isinstance(a, int), isinstance(a, float), isinstance(b, str), isinstance(b, (str, list)), isinstance(c, int),\n         isinstance(c, bool), isinstance(a, bool), isinstance(s, str), isinstance(s, list), isinstance(xs, list),\n         isinstance(xs, tuple), isinstance(t, tuple), isinstance(d, dict), isinstance(e, set), isinstance(e, dict),\n         isinstance(o, int), isinstance(o, str), isinstance(o, (str, bool)), isinstance(xs[0], int), isinstance(None, int)]\n    k = 0\n    for v in r:\n        k = k * 2 + int(v)\n    if o is not None and isinstance(o, int):\n        k += 10000000\n    return k\n',
        [(1, 2.0, True, 'a', [1], (1, 'b'), -1), (1, 2.0, True, 'a', [1], (1, 'b'), 5), (1, 2.0, True, 'a', [], (1, 'b'), 5)],
    ),
    'isinstance_narrowed': (
        'from typing import Optional\ndef f(n: int) -> int:\n    o: Optional[int] = None if n < 0 else n\n    k = 0\n    if o is not None and isinstance(o, int):\n        k += 10000000\n    return k\n',
        [(5,), (-1,)],
    ),
    'reduce_lambda_no_init': (
        'from functools import reduce\ndef f(xs: list[int]) -> int:\n    return reduce(lambda a, b: a + b, xs)\n',
        [([3,1,2],), ([],), ([5],)],
    ),
    'reduce_named_and_init': (
        'import functools\ndef mul(a: int, b: int) -> int:\n    return a * b\ndef f(xs: list[int]) -> int:\n    x = functools.reduce(mul, xs, 1) + functools.reduce(lambda a, b: a * 10 + b, xs, 0)\n    return x\n',
        [([3,1,2],), ([],), ([5],)],
    ),
    'reduce_in_statements': (
        "from functools import reduce as r\ndef code(s: str) -> int:\n    t = len(s)\n    for c in s:\n        t = (t * 131 + ord(c)) % 1000000007\n    return t\ndef f(xs: list[str]) -> int:\n    return code(g(xs))\ndef g(xs: list[str]) -> str:\n    if r(lambda a, b: a + b, xs, '') == 'ab':\n        return 'yes'\n    elif len(r(lambda a, b: b + a, xs, '-')) > 3:\n        return r(lambda a, b: a + b, map(str, xs))\n    return r(lambda a, b: a + b, [s * 2 for s in xs], '!')\n",
        [(['a', 'b'],), ([],), (['x', 'y', 'z'],), (['q'],)],
    ),
    'reduce_tuples_and_loops': (
        'from functools import reduce\ndef f(xs: list[tuple[int, int]]) -> int:\n    t = reduce(lambda p, q: (p[0] + q[0], max(p[1], q[1])), xs, (0, -1))\n    s = 0\n    for k in range(len(xs)):\n        s += reduce(lambda a, b: a * b, range(1, k + 2))\n    return (t[0] + s) * 1000 + t[1]\n',
        [([(1, 2), (3, 4)],), ([],)],
    ),
    'list_imul_in_place': (
        'def h(xs: list[int]) -> int:\n    t = len(xs)\n    for x in xs:\n        t = (t * 31 + x) % 1000000007\n    return t\ndef f(xs: list[int], n: int) -> int:\n    ys = xs\n    xs *= n\n    xs *= True\n    return h(ys) * 10 + len(xs)\n',
        [([1, 2], 3), ([1], 0), ([], 5), ([4, 5], -2)],
    ),
    'dict_ior_in_place': (
        'def f(p: list[tuple[int, int]], q: list[tuple[int, int]]) -> int:\n    a = dict(p)\n    b = dict(q)\n    c = a\n    a |= b\n    a |= {}\n    t = 0\n    for k, v in c.items():\n        t = t * 100 + k * 10 + v\n    return t\n',
        [([(1, 2)], [(2, 3)]), ([], [(5, 1), (1, 1)]), ([(3, 3), (1, 1)], [(1, 9)])],
    ),
    'itertools_combinatorics': (
        'import itertools\ndef f(xs: list[int]) -> int:\n    t = 0\n    for a, b in itertools.permutations(xs, 2):\n        t = t * 7 + a * 3 + b\n    for a, b, c in itertools.combinations(xs, 3):\n        t = (t * 7 + a * 9 + b * 3 + c) % 1000000007\n    t = (t * 13 + len(list(itertools.combinations_with_replacement(xs, 2)))) % 1000000007\n    for p in itertools.product(xs, [1, 2]):\n        t = (t * 5 + p[0] * 2 + p[1]) % 1000000007\n    t = (t * 3 + sum(a * b for a, b in itertools.product(xs, repeat=2))) % 1000000007\n    t = (t * 3 + sum(itertools.chain(xs, [5], xs))) % 1000000007\n    return t + len([q for q in itertools.permutations(xs, 3)])\n',
        [([1, 2, 3],), ([],), ([4],), ([1, 1, 2, 5],)],
    ),
    'itertools_from_import_strs': (
        'from itertools import permutations, combinations\ndef f(s: str) -> int:\n    ws = [p[0] + p[1] + p[2] for p in permutations(s, 3)]\n    return len(ws) * 1000 + len(set(ws)) + len(list(combinations(s, 2)))\n',
        [('abc',), ('aab',), ('',), ('abcde',)],
    ),
    'accumulate_and_groupby': (
        'from itertools import accumulate, groupby\nimport itertools\ndef h(xs: list[int]) -> int:\n    t = len(xs)\n    for x in xs:\n        t = (t * 31 + x) % 1000000007\n    return t\ndef acc(xs: list[int]) -> int:\n    a = h(list(accumulate(xs)))\n    b = h(list(accumulate(xs, lambda p, q: max(p, q))))\n    c = h(list(itertools.accumulate(xs, lambda p, q: p * q, initial=2)))\n    d = h(list(accumulate(xs, initial=100)))\n    return a + b * 3 + c * 5 + d * 7\ndef grp(xs: list[int]) -> int:\n    e = 0\n    for k, g in groupby(xs):\n        e = e * 10 + k * 3 + len(list(g))\n    r = [(k, len(list(g))) for k, g in groupby(sorted(xs))]\n    e2 = sum(k * 7 + n for k, n in r)\n    gs = [sum(g) for k, g in itertools.groupby(xs, key=lambda x: x % 2)]\n    return e * 11 + e2 * 13 + h(gs)\ndef f(xs: list[int]) -> int:\n    return (acc(xs) + grp(xs)) % 1000000007\n',
        [([1, 2, 2, 3, 3, 3, 1],), ([],), ([5],), ([2, 4, 1, 3, 6],)],
    ),
    'groupby_str': (
        "from itertools import groupby\ndef f(s: str) -> int:\n    out = ''\n    for ch, g in groupby(s):\n        out += ch + str(len(list(g)))\n    return len(out) * 1000 + ord(out[-1]) if out else 0\n",
        [('aaabccd',), ('',), ('x',)],
    ),
    'accumulate_floats': (
        'from itertools import accumulate\ndef f(xs: list[float]) -> float:\n    return sum(accumulate(xs))\n',
        [([1.5, -0.0, 2.25],), ([-0.0],)],
    ),
    'groupby_keys': (
        'from itertools import groupby\ndef f(s: list[int]) -> int:\n    n = 0\n    for ch, g in groupby(s, lambda x: x // 2):\n        n = n * 10 + len(list(g)) + ch\n    return n\n',
        [([1, 1, 2, 3, 4],)],
    ),
}


@pytest.mark.parametrize("backend", ["reference", "cpu"])
def test_iters_programs_match_cpython(backend):
    assert program_disagreements(PROGRAMS, backend) == []


@pytest.mark.parametrize(
    "src, message, column",
    [
        ("def f(a: float) -> float:\n    return pow(a, 2, 5)\n", "expected int, got float", 16),
        ("def f(a: int) -> bool:\n    return isinstance(a, complex)\n", "isinstance of a class but int", 26),
        ("def f(a: int) -> bool:\n    return isinstance(a)\n", "'isinstance' takes 2 argument(s), 1 given", 12),
        ("def f(a: float) -> bool:\n    return isinstance(a, (int, str))\n", "isinstance of a float against int or float", 12),
        ("from functools import reduce\ndef f(xs: list[int]) -> int:\n"
         "    return sum(reduce(lambda a, b: a + b, xs) for _ in range(2))\n", "functools.reduce, itertools.accumulate", 16),
        ("from functools import reduce\ndef f(xs: list[int]) -> int:\n    g = reduce\n    return 1\n",
         "functools.reduce, itertools.accumulate", 9),
        ("from functools import reduce\ndef f(xs: list[int]) -> int:\n    while reduce(lambda a, b: a + b, xs) > 9:\n"
         "        xs = xs[1:]\n    return 1\n", "functools.reduce, itertools.accumulate", 11),
        ("from itertools import permutations\ndef f(xs: list[int]) -> int:\n    return len(list(permutations(xs)))\n",
         "this form of itertools", 21),
        ("import itertools\ndef f(xs: list[int], r: int) -> int:\n    return len(list(itertools.combinations(xs, r)))\n",
         "this form of itertools", 48),
        ("import itertools\ndef f(xs: list[int]) -> int:\n    return len(list(itertools.combinations(xs, 6)))\n",
         "this form of itertools", 31),
        ("from itertools import islice\n", "'islice' is not supported by gpucc yet", 23),
        ("from functools import lru_cache\n", "'lru_cache' is not supported by gpucc yet", 23),
        ("def f(a: set[int], b: set[int]) -> int:\n    a += b\n    return len(a)\n", "augmented assignment to a list or set", 5),
    ],
)
def test_iters_not_built_are_located(src, message, column):
    batch = compile_batch([src])
    assert not batch.ok(0)
    err = batch.error(0)
    assert message in str(err), str(err)
    assert f":{column}: error" in str(err), str(err)
