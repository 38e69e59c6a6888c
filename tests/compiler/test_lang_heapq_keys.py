"""heapq.nlargest / nsmallest with key= (compiler/desugar_heapq.py) and the keyword forms of
sorted / min / max / list.sort real code uses (compiler/desugar_keyed.py: a key written as a
tuple is one flat tuple with the index), each program compared with CPython on the VM."""

from __future__ import annotations

import pytest

from gpucc.compiler.batch import compile_batch
from tests.oracle.oracle import program_disagreements

PAIRS = [([],), ([("a", 1)],), ([("b", 2), ("a", 2), ("c", 1), ("d", 3), ("e", 2)],),
         ([("x", -1), ("yy", 5), ("z", 5), ("ww", -1), ("v", 0), ("u", 5)],)]  # fmt: skip
NS = (-1, 0, 1, 2, 3, 10)

PROGRAMS = {
    "nlargest_key_lambda_ties_in_order": (
        "import heapq\n\n\ndef f(ps: list[tuple[str, int]], n: int):\n    return heapq.nlargest(n, ps, key=lambda p: p[1])\n",
        [(ps, n) for (ps,) in PAIRS for n in NS],
    ),
    "nsmallest_key_tuple_alias": (
        "from heapq import nsmallest as ns\n\n\ndef f(ps: list[tuple[str, int]], n: int):\n"
        "    return ns(n, ps, key=lambda p: (-len(p[0]), p[1]))\n",
        [(ps, n) for (ps,) in PAIRS for n in NS],
    ),
    "key_a_function_and_keyless_in_one_unit": (
        "from heapq import nlargest, nsmallest\n\n\ndef score(w: str) -> int:\n    return len(w) % 3\n\n\n"
        "def f(ws: list[str], n: int):\n    a = nlargest(n, ws, key=score)\n    b = nsmallest(n, ws, key=len)\n"
        "    return a + ['|'] + b + ['|'] + nlargest(n, ws)\n",
        [(ws, n) for ws in ([], ["bb", "a", "ccc", "dd", "e", "ffff"], ["x", "x", "y"]) for n in NS],
    ),
    "items_by_count_desc_then_key": (
        "def f(ws: list[str]):\n    d = {}\n    for w in ws:\n        d[w] = d.get(w, 0) + 1\n"
        "    return sorted(d.items(), key=lambda kv: (-kv[1], kv[0]))\n",
        [([],), (["b", "a", "b", "c", "a", "b", "d"],), (["z", "y", "x"],)],
    ),
    "sort_key_reverse_in_place": (
        "def f(ps: list[tuple[str, int]]):\n    ps.sort(key=lambda p: (p[1], p[0]), reverse=True)\n    return ps\n",
        PAIRS,
    ),
    "max_key_default_min_key_of_a_comprehension": (
        "def f(ps: list[tuple[str, int]]) -> int:\n    best = max(ps, key=lambda p: p[1], default=('none', -9))\n"
        "    low = min([p[1] * 2 for p in ps], key=abs, default=7)\n    return best[1] * 1000 + low + len(best[0])\n",
        PAIRS,
    ),
}


@pytest.mark.parametrize("backend", ["reference", "cpu"])
def test_keyed_programs_match_cpython(backend):
    assert program_disagreements(PROGRAMS, backend) == []


def test_nlargest_key_in_a_function_import_is_located():
    src = "def f(xs: list[int]) -> int:\n    import heapq\n    return len(heapq.nlargest(2, xs, key=abs))\n"
    batch = compile_batch([src])
    assert not batch.ok(0) and "'nlargest'" in str(batch.error(0)) and batch.error(0).line == 3
