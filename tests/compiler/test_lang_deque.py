"""collections.deque (compiler/typecheck_deque.py, its prelude in compiler/preludes.py): each
program run on the VM (reference interpreter and CPU kernel) and compared with CPython running
the same source, returned deques as CPython's repr; the forms not built are located compile
errors naming them."""

from __future__ import annotations

import pytest

from gpucc import vm
from gpucc.compiler.batch import compile_batch
from gpucc.contract import status as st
from gpucc.contract import typecodes as T
from gpucc.contract.image import LaunchLimits, Program
from gpucc.contract.isa import ASSERT_VALUE
from gpucc.vm.asm import make_jobs
from pytest_gpucc.heap_values import Replayer, compared, placeholder
from tests.compiler.test_lang_collections import test_counter_forms_not_built_are_located as located
from tests.oracle.oracle import program_disagreements

EDGES = [(0, []), (1, []), (4, [(0, 1), (1, 2), (2, 3)]), (6, [(0, 2), (0, 3), (3, 4), (2, 4), (1, 5)]),
         (5, [(4, 3), (3, 2), (2, 1), (1, 0), (0, 4)])]  # fmt: skip
INTS = [([],), ([1],), ([3, 1, 2],), ([5, -2, 5, 0, 2**62],)]

PROGRAMS = {
    "bfs_distances": (
        "from collections import deque\n\n\ndef f(n: int, edges: list[tuple[int, int]]) -> list[int]:\n"
        "    adj = [[] for _ in range(n)]\n    for a, b in edges:\n        adj[a].append(b)\n        adj[b].append(a)\n"
        "    dist = [-1] * n\n    if n == 0:\n        return dist\n    dist[0] = 0\n    q = deque([0])\n"
        "    while q:\n        u = q.popleft()\n        for v in adj[u]:\n            if dist[v] < 0:\n"
        "                dist[v] = dist[u] + 1\n                q.append(v)\n    return dist\n",
        EDGES,
    ),
    "bfs_empty_deque_of_pairs": (
        "import collections\n\n\ndef f(n: int) -> int:\n    q = collections.deque()\n    q.append((n, 0))\n"
        "    seen = {n}\n    while q:\n        x, d = q.popleft()\n        if x == 1:\n            return d\n"
        "        for y in (x // 2 if x % 2 == 0 else 3 * x + 1, x - 1):\n            if y > 0 and y not in seen:\n"
        "                seen.add(y)\n                q.append((y, d + 1))\n    return -1\n",
        [(1,), (2,), (7,), (27,), (100,)],
    ),
    "empty_deque_of_strs": (
        "from collections import deque\n\n\ndef f(s: str) -> str:\n    q = deque()\n    for w in s.split():\n"
        "        q.appendleft(w)\n    out = ''\n    while q:\n        out += q.pop() + '.'\n    return out\n",
        [("",), ("a",), ("to be or not",)],
    ),
    "methods": (
        "from collections import deque as D\n\n\ndef f(xs: list[int]):\n    q = D(xs)\n    q.append(7)\n"
        "    q.appendleft(-1)\n    q.extend([8, 9])\n    q.extendleft([10, 11])\n    q.insert(2, 4)\n"
        "    a = q.pop() * 3 + q.popleft()\n    q[0] = q[-1] + len(q)\n    q.remove(7)\n    q.reverse()\n"
        "    r = q.copy()\n    r.append(100)\n    s = sorted(q)\n    t = list(q)\n"
        "    n = a * 1000 + q.count(5) * 100 + q.index(q[1]) * 10 + (8 in q) + (6 not in q) * 2\n"
        "    n = n * 1000 + sum(q) % 997 + min(q) + max(q) % 1000 + len(r) * 7 + bool(q) + s[0] + t[-1]\n"
        "    q.append(n)\n    return q\n",
        INTS,
    ),
    "rotate_both_signs": (
        "from collections import deque\n\n\ndef f(xs: list[int], n: int):\n    q = deque(xs)\n    q.rotate(n)\n"
        "    a = list(q)\n    q.rotate()\n    b = list(q)\n    q.rotate(-n - 1)\n    q.append(int(q == deque(xs)))\n"
        "    return a + b + [9] + list(q)\n",
        [(xs, n) for (xs,) in INTS for n in (0, 1, -1, 2, 7, -9)],
    ),
    "equality_and_clear": (
        "from collections import deque\n\n\ndef f(xs: list[int], ys: list[int]):\n    a = deque(xs)\n    b = deque(ys)\n"
        "    r = (a == b) + (a != b) * 2 + (a < b) * 4 + ([x for x in a] == ys) * 8\n    a.clear()\n"
        "    return r * 100 + len(a) * 10 + (not a) + (a == deque())\n",
        [([], []), ([1, 2], [1, 2]), ([1, 2], [1, 3]), ([1], [])],
    ),
    "of_a_str_and_iteration": (
        "from collections import deque\n\n\ndef f(s: str):\n    q = deque(s)\n    out = []\n    for ch in q:\n"
        "        out.append(ch.upper())\n    q.extend(out)\n    q.append(''.join(q))\n    return q\n",
        [("",), ("ab",), ("héllo",)],
    ),
    "of_a_range": (
        "from collections import deque\n\n\ndef f(n: int):\n    return deque(range(n))\n", [(0,), (3,)],
    ),
    "of_a_tuple": (
        "from collections import deque\n\n\ndef f(n: int):\n    return deque((n, n + 1))\n", [(0,), (3,)],
    ),
    "of_a_set": (
        "from collections import deque\n\n\ndef f(n: int):\n    return deque({n % 3, 5, 1})\n", [(0,), (4,)],
    ),
    "of_a_dict_and_a_deque": (
        "from collections import deque\n\n\ndef g(n: int):\n    return deque({n: 'a', 0: 'b'})\n\n\n"
        "def f(n: int):\n    q = g(n)\n    q.appendleft(-n)\n    return q == g(n), q\n",
        [(0,), (4,)],
    ),
    "floats_widen_an_empty_deque": (
        "from collections import deque\n\n\ndef f(n: int):\n    q = deque()\n    q.append(1)\n"
        "    q.append(n / 4)\n    return sum(q) * 8 + q[0] + len(q)\n",
        [(0,), (3,)],
    ),
    "errors_as_cpython": (
        "from collections import deque\n\n\ndef f(xs: list[int], k: int) -> int:\n    q = deque(xs)\n"
        "    if k == 0:\n        return q.popleft()\n    if k == 1:\n        return q.pop()\n    if k == 2:\n"
        "        return q[5]\n    if k == 3:\n        q.remove(42)\n    if k == 4:\n        return q.index(42)\n"
        "    try:\n        q.popleft()\n    except IndexError:\n        return -1\n    return len(q)\n",
        [(xs, k) for xs in ([], [1, 2]) for k in range(6)],
    ),
    "passed_and_returned": (
        "from collections import deque\n\n\ndef start(x):\n    return deque([x, x + 1])\n\n\n"
        "def drain(q) -> int:\n    t = 0\n    while q:\n        t = t * 10 + q.popleft()\n    return t\n\n\n"
        "def f(x: int) -> int:\n    return drain(start(x))\n",
        [(1,), (7,)],
    ),
}


@pytest.mark.parametrize("backend", ["reference", "cpu"])
def test_deque_programs_match_cpython(backend):
    assert program_disagreements(PROGRAMS, backend) == []


@pytest.mark.parametrize(
    "src, message, column",
    [
        ("from collections import deque\ndef f(xs: list[int]) -> int:\n    q = deque(xs)\n    return len(q[1:])\n",
         "this form of collections.deque", 17),
        ("from collections import deque\ndef f(xs: list[int]) -> None:\n    q = deque(xs)\n    q.sort()\n",
         "this form of collections.deque", 7),
        ("from collections import deque\ndef f(xs: list[int]) -> int:\n    q = deque(xs)\n    return q.pop(0)\n",
         "this form of collections.deque", 14),
        ("from collections import deque\ndef f(xs: list[int]) -> bool:\n    return deque(xs) == xs\n",
         "unsupported operand types for '==': deque[int] and list[int]", 22),
        ("from collections import deque\ndef f(xs: list[int]) -> int:\n    return len(deque(xs) + xs)\n",
         "unsupported operand types for '+': deque[int] and list[int]", 26),
        ("from collections import deque\ndef f(xs: list[int]) -> int:\n    return len(deque(xs, 2))\n",
         "'deque' takes 1 argument(s), 2 given", 16),
        ("from collections import deque\ndef f(xs: list[int]) -> int:\n    return len(deque(xs, maxlen=2))\n",
         "this form of collections.deque", 16),
        ("from collections import deque\ndef g(xs: list[int]) -> int:\n    return len(xs)\n"
         "def f(xs: list[int]) -> int:\n    return g(deque(xs))\n", "expected list[int], got deque[int]", None),
        ("from collections import deque\ndef f(xs: list[int]) -> None:\n    q = deque(xs)\n    q[1:] = [1]\n",
         "this form of collections.deque", 6),
        ("from collections import deque\ndef f(xs: list[int]) -> int:\n    return deque(xs).popleft(1)\n",
         "takes 0 argument(s), 1 given", 22),
        ("from collections import deque\ndef f(xs: list[int]) -> None:\n    deque(xs).rotate(1, 2)\n",
         "takes 1 argument(s), 2 given", 15),
    ],
)
def test_deque_forms_not_built_are_located(src, message, column):
    located(src, message, column)


def test_deque_type():
    q = T.deque_of(T.tuple_of([T.INT, T.STR]))
    assert T.name(q) == "deque[tuple[int, str]]" and T.width(q) == 5 and T.element(q) == T.tuple_of([T.INT, T.STR])
    assert T.name(T.list_of(T.deque_of(T.INT))) == "list[deque[int]]" and T.is_heap(q)


def test_deques_show_as_cpythons_repr():
    """A failed `==` of deques (ASSERT_VALUE) and a returned deque show as CPython's repr."""
    src = ("from collections import deque\n\n\ndef same(xs: list[int]) -> None:\n    assert deque(xs) == deque([1, 2])\n\n\n"
           "def made(s: str):\n    q = deque()\n    for w in s.split():\n        q.append(w)\n    return q\n")  # fmt: skip
    batch = compile_batch([src])
    assert batch.ok(0), batch.error(0)
    program = Program.from_batch(batch)
    names = {n: i for i, n in enumerate(batch.function_names(0))}
    jobs = make_jobs(names, [("same", ([2, 1],)), ("made", ("a b",)), ("same", ([1, 2],))])
    limits = LaunchLimits()
    res, replayer = vm.launch(program, jobs, "cpu", limits), Replayer(program, jobs, limits)
    assert res.status.tolist() == [st.ASSERT_FAILED, st.OK, st.OK] and res.fail_op[0] == ASSERT_VALUE
    types = compared(ASSERT_VALUE, int(res.fail_arg[0]), replayer.constant(int(res.fail_unit[0]), int(res.fail_arg[0])))
    assert T.name(types[1]) == "deque[int]"
    assert replayer.operands(0, types) == ("deque([2, 1])", "deque([1, 2])")
    ret = int(program.func_ret_type[names["made"]])
    assert replayer.returned(1, ret) == "deque(['a', 'b'])" and placeholder(0, ret, op=-1) == "<deque[str]>"
