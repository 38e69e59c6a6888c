"""collections.deque under the CUDA simulator (vm/cuda.py over vm/kernel_walk.py and
kernel_value.py, which take the DEQUE head of a list's type): the CPU launcher's Results, array
for array, on a compiled BFS and on deques of tuples compared (==, <), searched (in, index,
count, remove) and sorted, ending with IndexError, ValueError and a failed ASSERT_VALUE."""

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
from collections import deque


def bfs(n: int) -> int:
    q = deque()
    q.append((0, 0))
    seen = {0}
    t = 0
    while q:
        x, d = q.popleft()
        t = t * 7 + x + d
        for y in (x * 2 + 1, x + 3):
            if y < n and y not in seen:
                seen.add(y)
                q.append((y, d + 1))
    return t % 1000003


def values(n: int) -> int:
    q = deque()
    for i in range(n):
        q.appendleft((i % 3, str(i)))
    q.rotate(n // 2)
    r = deque(sorted(q))
    t = (q == r) + (q < r) * 2 + ((1, '1') in q) * 4 + q.count((0, '0')) * 8
    if n > 5:
        q.remove((n % 3, 'x'))
    return t


def at(n: int) -> int:
    q = deque()
    q.append(n)
    q.pop()
    return q.index(n) if n > 5 else q[n]


def same(n: int) -> None:
    assert deque([(n, 'a')]) == deque([(1, 'a')])
"""


def test_simulated_deques_match_cpu(tmp_path: Path):
    batch = compile_batch([SOURCE])
    assert batch.ok(0), batch.error(0)
    program = Program.from_batch(batch)
    names = {n: i for i, n in enumerate(batch.function_names(0))}
    calls = [("bfs", (n,)) for n in (1, 9, 30)] + [("values", (n,)) for n in (0, 4, 7)] + [
        ("at", (1,)), ("at", (9,)), ("same", (1,)), ("same", (2,))]  # fmt: skip
    jobs = make_jobs(names, calls)
    limits = LaunchLimits(step_limit=40000, stack_size=64, max_depth=4, heap_size=8000)
    expected = vm.launch(program, jobs, "cpu", limits)
    assert {S.OK, S.INDEX_ERROR, S.VALUE_ERROR, S.ASSERT_FAILED} <= set(expected.status.tolist())
    got = simulate("vm", tmp_path, {**vm_input(program, jobs, limits), "x_max_threads": np.int64(3)})
    assert_same_arrays(arrays(expected), got)
