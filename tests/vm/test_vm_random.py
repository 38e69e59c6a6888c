"""Differential tests on random programs: the numba kernel, the kernel body run as plain
Python and the reference interpreter agree on everything, and garbage never crashes."""

from __future__ import annotations

import random

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from randprog import Gen, garbage
from vmcheck import MAX, MIN, assert_same, launch_all, run_plain

from gpucc import vm
from gpucc.contract import isa as O
from gpucc.contract import status as S
from gpucc.contract.image import JobTable, LaunchLimits
from gpucc.vm.asm import assemble_named, make_jobs
from gpucc.vm.verify import verify

LIMITS = LaunchLimits(step_limit=3000, stack_size=96, max_depth=12)
ARGS = [0, 1, -1, 2, 5, -9, 100, MAX, MIN, 2**40]
SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def jobs_for(names: dict, rng: random.Random, n: int = 8) -> JobTable:
    calls = [("main", (rng.choice(ARGS), rng.choice(ARGS))) for _ in range(n)]
    return make_jobs(names, calls + [("helper", (rng.choice(ARGS),))])


@SETTINGS
@given(st.integers(0, 2**32))
def test_random_valid_programs_agree_on_every_backend(seed):
    program, names = assemble_named(Gen(seed).program())
    assert verify(program) == []
    jobs = jobs_for(names, random.Random(seed))
    results = launch_all(program, jobs, LIMITS)
    assert not (results.status == S.INVALID_BYTECODE).any()
    assert_same(run_plain(program, jobs, LIMITS), results)


@SETTINGS
@given(st.integers(0, 2**32), st.lists(st.tuples(st.integers(0, 10**6), st.integers(-3, O.NUM_OPCODES + 2),
                                                  st.sampled_from([0, 1, 2, -1, 7, 2**31 - 1, -(2**31)])),
                                        min_size=1, max_size=4))  # fmt: skip
def test_mutated_programs_agree_and_never_crash(seed, mutations):
    program, names = assemble_named(Gen(seed).program())
    for where, op, arg in mutations:
        pc = where % len(program.code)
        program.code[pc] = (op, arg) if op % 3 else (program.code[pc, 0], arg)
    jobs = jobs_for(names, random.Random(seed), n=4)
    launch_all(program, jobs, LIMITS)


@SETTINGS
@given(st.integers(0, 2**32))
def test_garbage_never_crashes_and_backends_agree(seed):
    program = garbage(seed)
    rng = random.Random(seed)
    n_funcs = len(program.func_entry)
    calls = [(rng.randrange(-1, n_funcs + 1), [rng.choice(ARGS) for _ in range(2)], rng.randrange(-1, 3))
             for _ in range(6)]  # fmt: skip
    links = [[rng.randrange(-1, n_funcs + 1) for _ in range(3)] for _ in range(2)]
    jobs = make_jobs({}, calls, links)
    results = launch_all(program, jobs, LIMITS)
    assert np.isin(results.status, range(len(S.NAMES))).all()
    assert_same(run_plain(program, jobs, LIMITS), results)


def test_garbage_seeds_cover_runs_not_only_rejections():
    # the garbage generator must also produce programs that verify and run
    statuses = set()
    for seed in range(300):
        program = garbage(seed)
        jobs = make_jobs({}, [(g, (1, 2)) for g in range(len(program.func_entry))])
        statuses |= set(vm.launch(program, jobs, "cpu", LIMITS).status.tolist())
    assert S.INVALID_BYTECODE in statuses and S.OK in statuses
