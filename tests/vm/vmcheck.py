"""Shared helpers of the VM tests: run jobs on every backend and insist they agree."""

from __future__ import annotations

import numpy as np

from gpucc import vm
from gpucc.contract import status as S
from gpucc.contract.image import LaunchLimits, ResultArrays, Results, image_arrays, job_arrays, result_arrays
from gpucc.vm.asm import assemble_named, make_jobs
from gpucc.vm.kernel import Scratch, run_job
from gpucc.vm.kernel_heap import FIRST_BLOCK, MIN_HEAP
from gpucc.vm.kernel_walk import WALK_WORDS
from gpucc.vm.verify import function_checks

MIN, MAX = -(2**63), 2**63 - 1


def assert_same(a: Results, b: Results) -> None:
    for f in ResultArrays._fields:
        x, y = getattr(a, f), getattr(b, f)
        bad = np.flatnonzero(x != y)
        assert not len(bad), f"{f} differs at jobs {bad[:10]}: {x[bad[:10]]} vs {y[bad[:10]]}"


def run_plain(program, jobs, limits: LaunchLimits) -> Results:
    """The kernel body run as plain Python (no numba), job by job."""
    image, cols = image_arrays(program), job_arrays(jobs)
    image.func_ok[:] = function_checks(image, jit=False)[:, 0] == 0
    r = Results.allocate(len(jobs))
    scratch = Scratch(np.zeros(limits.stack_size, np.int64), np.zeros((limits.max_depth, 3), np.int64),
                      np.full(max(MIN_HEAP, limits.heap_size), -7, np.int64),  # a heap word is never read before a job writes it
                      np.full(WALK_WORDS, -7, np.int64))  # fmt: skip
    out = result_arrays(r)
    with np.errstate(all="raise"):  # the kernel must never compute a wrapped result
        for j in range(len(jobs)):
            run_job(j, image, cols, scratch, out, limits.step_limit)
    return r


def heap_for(words: int) -> int:
    """The smallest LaunchLimits.heap_size whose blocks may take `words` heap words, block headers
    included (vm/kernel_heap.py: the state words and the collector's bitmap take the rest)."""
    h = words
    while h - h // 65 - 1 - FIRST_BLOCK < words:
        h += 1
    return h


def launch_all(program, jobs, limits: LaunchLimits | None = None, plain: bool = False) -> Results:
    """Results of the cpu backend, checked equal to the reference (and the plain kernel)."""
    limits = limits or LaunchLimits()
    cpu = vm.launch(program, jobs, "cpu", limits)
    assert_same(vm.launch(program, jobs, "reference", limits), cpu)
    if plain:
        assert_same(run_plain(program, jobs, limits), cpu)
    return cpu


def run_asm(text: str, calls, links=(), limits: LaunchLimits | None = None, plain: bool = False):
    """Assemble `text`, run `calls` on every backend; (results, names)."""
    program, names = assemble_named(text)
    return launch_all(program, make_jobs(names, calls, links), limits, plain), names


def outcome(results: Results, j: int):
    """(status name, value) of job j, value only when it is OK."""
    st = int(results.status[j])
    return (S.NAMES[st], int(results.value[j])) if st == S.OK else (S.NAMES[st], None)


def line_of(text: str, needle: str, nth: int = 0) -> int:
    """1-based line number of the nth line of `text` containing `needle`."""
    return [i for i, line in enumerate(text.splitlines(), 1) if needle in line][nth]


# a binary and a unary function around one instruction `{op}` (the numeric and math op tests)
OPERATOR_PROGRAM = """
.func two a b
    LOAD_VAR a
    LOAD_VAR b
    {op}
    RETURN
.func one a
    LOAD_VAR a
    {op}
    RETURN
"""
