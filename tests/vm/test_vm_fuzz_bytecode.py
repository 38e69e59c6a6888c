"""Untrusted bytecode (benchmarks/fuzz_bytecode.py at a small scale): random programs over the
whole ISA and mutations of real compiled ones never crash the kernel, every job ends in a
defined status, and the kernel agrees with the reference on every job; the fuzz's findings."""

from __future__ import annotations

import random

import numpy as np
import pytest
from isaprog import MUTATIONS, isa_program, job_rows, job_table, join_units, mutate, split_units
from vmcheck import launch_all

from gpucc.compiler import compile_batch
from gpucc.contract import status as S
from gpucc.contract.image import LaunchLimits, Program, image_arrays
from gpucc.vm.verify import V_OK, function_checks

LIMITS = LaunchLimits(step_limit=500, stack_size=256, max_depth=16, heap_size=4096)
SOURCES = [
    "def f(a: int, xs: list[int]) -> int:\n    t = 0\n    for x in xs:\n        t += x * a\n    return t\n",
    "def f(s: str, n: int) -> str:\n    return (s.upper() + str(n))[1:] * 2\n",
    "def f(p: tuple[int, str], q: list[tuple[int, str]]) -> bool:\n    return p in q or sorted(q)[0] < p\n",
    "def g(n: int) -> int:\n    return n if n < 2 else g(n - 1) + g(n - 2)\n\n\ndef f(n: int) -> float:\n"
    "    return g(n % 12) / 3.0\n",
]  # fmt: skip
CASES = [[(0, (3, [1, 2, 3])), (0, (-1, []))], [(0, ("ab", 7)), (0, ("", -2))],
         [(0, ((1, "a"), [(2, "b"), (1, "a")])), (0, ((0, ""), [(0, "z")]))], [(1, (9,)), (1, (-3,))]]  # fmt: skip


def compiled() -> list[tuple[Program, list]]:
    batch = compile_batch(SOURCES)
    assert all(batch.ok(u) for u in range(len(SOURCES)))
    return list(zip(split_units(Program.from_batch(batch)), CASES))


def run(units: list[Program], cases: list[list], seed: int):
    """Launch every unit's jobs on the cpu backend, checked equal to the reference; the results."""
    pool: list[int] = []
    rows = [job_rows(p, c, random.Random(seed + u), 3, pool) for u, (p, c) in enumerate(zip(units, cases))]
    program, jobs = job_table(units, rows, pool)
    results = launch_all(program, jobs, LIMITS)
    status = np.asarray(results.status)
    assert ((status >= 0) & (status < len(S.NAMES)) & (status != S.NOT_RUN)).all()
    assert ((results.steps >= 0) & (results.steps <= LIMITS.step_limit)).all()
    return program, results


def test_split_and_join_units_round_trip():
    units = [p for p, _ in compiled()] + [isa_program(random.Random(k)) for k in range(3)]
    again = split_units(join_units(units))
    for a, b in zip(units, again):
        for name, v in vars(a).items():
            assert np.array_equal(v, getattr(b, name)), name


def test_random_isa_programs_verify_often_and_agree_with_the_reference():
    units = [isa_program(random.Random(k)) for k in range(150)]
    program, results = run(units, [[]] * len(units), 0)
    ok = function_checks(image_arrays(program))[:, 0] == V_OK
    verified = np.logical_and.reduceat(ok, program.unit_func_start[:-1])
    assert verified.mean() > 0.2  # most of the rest are refused on purpose (operands, depths)
    assert {S.OK, S.INVALID_BYTECODE} <= set(results.status.tolist())
    assert len(set(program.code[:, 0].tolist())) > 100  # the whole ISA, not only the int rows


@pytest.mark.parametrize("kind", sorted(MUTATIONS))
def test_mutated_programs_never_crash_and_agree_with_the_reference(kind):
    r = random.Random(kind)
    bases = compiled() + [(isa_program(random.Random(k)), []) for k in range(4)]
    units, cases = [], []
    for k in range(60):
        p, c = bases[k % len(bases)]
        q, _ = mutate(p, r, kind)
        try:
            image_arrays(q)  # a refused function table never reaches a launch
        except ValueError:
            assert kind == "table"
            continue
        units.append(q)
        cases.append(c)
    run(units, cases, 1)
