"""The dict and set instructions under the CUDA simulator (vm/cuda.py over vm/kernel_keyed.py,
kernel_dict.py, kernel_set.py, kernel_set_ops.py, kernel_set_inplace.py, kernel_hash.py): the CPU
launcher's Results, array for array, on compiled programs that hash ints, floats, strs and tuples,
resize, delete, iterate, combine sets, change them in place (operators, methods of lists and
dicts, pop, clear), compare Counters (missing counts 0), read defaultdicts (a missing key's value made first) and end with KeyError, RuntimeError and a
failed ASSERT_KEYED."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from gpusim import assert_same_arrays, simulate
from simrun import arrays, vm_input

from gpucc import vm
from gpucc.compiler.batch import compile_batch
from gpucc.contract import status as S
from gpucc.contract.image import LaunchLimits, Program
from gpucc.vm.asm import make_jobs

SOURCE = """
from collections import Counter, defaultdict


def f(n: int) -> int:
    d = {}
    for i in range(n):
        d[str(i % 7) + 'k'] = d.get(str(i % 7) + 'k', 0) + i
    e = {(i, 'x'): i * 0.5 for i in range(n)}
    s = {i * 37 % 101 for i in range(n)} | {n, -n}
    t = 0
    for k, v in d.items():
        t = t * 3 + v + len(k)
    for x in s - {0}:
        t = (t * 5 + x) % 1000003
    del d['0k']
    return t + len(e) + int(e.get((1, 'x'), 9.0)) + len(s & {1, 37, n}) + len(s ^ {2})


def g(n: int) -> int:
    s = {1, 2, 3}
    for x in s:
        if x == n:
            s.add(10)
    return len(s)


def h(n: int) -> None:
    assert {n: [n]} == {1: [1]}


def k(n: int) -> int:
    c = Counter([i % 3 for i in range(n)])
    c[5] -= 0
    del c[7]
    assert c == Counter([i % 3 for i in range(n)])
    return c[9] + c[1] * 10 + (c == Counter([1])) * 100 + c.total()


def u(n: int) -> int:
    s = {i * 7 % 40 for i in range(n)}
    a = s
    s |= {i * 3 for i in range(n)}
    s &= set(range(0, 60, 2))
    s -= {0, 6}
    s ^= {8, 100}
    s.update([n, 64], {1: 0, 33: 0})
    s.difference_update([2])
    s.symmetric_difference_update([4, 5])
    s.intersection_update(range(200))
    t = 0
    for x in s.union([7]).difference({7: 0}):
        t = (t * 5 + x) % 1000003
    t += len(s.intersection([1, 2, 3])) + s.isdisjoint([9]) + (s < a) + (s > {1})
    t = t * 7 + s.pop() + a.pop()
    s.clear()
    if n > 3:
        t += s.pop()
    return t + len(a)


def m(n: int) -> int:
    d = defaultdict(list)
    w = defaultdict(str)
    for i in range(n):
        d[i % 3].append(i)
        w[i % 2] += 'ab'
    c = Counter([i % 4 for i in range(n)]) - Counter([1, 1])
    assert d == {i: [j for j in range(n) if j % 3 == i] for i in range(min(n, 3))}
    return len(d[5]) + len(d) * 10 + len(w[1]) * 100 + len(c) * 1000
"""


def test_simulated_dicts_and_sets_match_cpu(tmp_path: Path):
    batch = compile_batch([SOURCE])
    assert batch.ok(0), batch.error(0)
    program = Program.from_batch(batch)
    names = {n: i for i, n in enumerate(batch.function_names(0))}
    calls = [("f", (n,)) for n in (0, 1, 8, 30)] + [("g", (2,)), ("g", (5,)), ("h", (1,)), ("h", (2,))] + [
        ("k", (n,)) for n in (0, 1, 5)] + [("u", (0,)), ("u", (9,))] + [("m", (n,)) for n in (0, 4)]
    jobs = make_jobs(names, calls)
    limits = LaunchLimits(step_limit=20000, stack_size=64, max_depth=4, heap_size=6000)
    expected = vm.launch(program, jobs, "cpu", limits)
    assert {S.OK, S.KEY_ERROR, S.RUNTIME_ERROR, S.ASSERT_FAILED} <= set(expected.status.tolist())
    got = simulate("vm", tmp_path, {**vm_input(program, jobs, limits), "x_max_threads": np.int64(3)})
    assert_same_arrays(arrays(expected), got)
