"""Superinstructions are their sequences: the table says so (cost, stack effect), and a
program with every superinstruction expanded back into its sequence (contract.isa.EXPANSIONS)
gives the same results and the same cost on every backend, only more steps."""

from __future__ import annotations

import dataclasses
import importlib.util
import random
from pathlib import Path

import numpy as np
import pytest
from randprog import Gen
from vmcheck import launch_all

from gpucc.compiler import compile_batch
from gpucc.contract import isa as O
from gpucc.contract import status as S
from gpucc.contract.image import LaunchLimits, Program, function_ends
from gpucc.vm.asm import assemble_named, make_jobs
from gpucc.vm.verify import verify

_spec = importlib.util.spec_from_file_location(
    "gpucc_bench_workloads", Path(__file__).resolve().parents[2] / "benchmarks" / "workloads.py")
workloads = importlib.util.module_from_spec(_spec)  # benchmarks/ is not an installed package
_spec.loader.exec_module(workloads)


@pytest.mark.parametrize("op", sorted(O.EXPANSIONS), ids=lambda op: O.TABLE[op].name)
def test_a_superinstruction_costs_and_moves_the_stack_like_its_sequence(op):
    arg = O.pack(1, 2) if O.TABLE[op].operand in O.PACKED_KINDS else 1
    seq = O.EXPANSIONS[op](arg)
    assert O.TABLE[op].cost == sum(O.TABLE[o].cost for o, _ in seq)
    assert all(o not in O.EXPANSIONS for o, _ in seq)  # sequences of plain instructions
    depth = lowest = 0
    for o, _ in seq:
        depth -= O.TABLE[o].pops
        lowest = min(lowest, depth)
        depth += O.TABLE[o].pushes
    assert (-lowest, depth) == (O.TABLE[op].pops, O.TABLE[op].pushes - O.TABLE[op].pops)


def expand(program: Program) -> Program:
    """The same program with each superinstruction replaced by its sequence (jumps
    remapped; max_stack + 2 for what a sequence holds beyond its superinstruction)."""
    ends = function_ends(program)
    code, lines = [], []
    entry = program.func_entry.copy()
    unit_code = [0]
    for u in range(program.n_units):
        for g in range(int(program.unit_func_start[u]), int(program.unit_func_start[u + 1])):
            lo, hi = int(program.func_entry[g]), int(ends[g])
            entry[g] = len(code)
            if program.func_import[g] >= 0 or hi <= lo:
                continue
            new_at, body = [], []
            for pc in range(lo, hi):
                op, arg = (int(x) for x in program.code[pc])
                new_at.append(len(body))
                seq = O.EXPANSIONS[op](arg) if op in O.EXPANSIONS else [(op, arg)]
                body += [(o, a, int(program.lines[pc])) for o, a in seq]
            for o, a, line in body:
                if o in O.JUMP_OPCODES:
                    t = new_at[O.jump_target(o, a)]
                    a = t if O.TABLE[o].operand == O.ARG_JUMP else O.pack(t, O.unpack(a)[1])
                code.append((o, a))
                lines.append(line)
        unit_code.append(len(code))
    return Program(
        code=np.array(code, np.int32).reshape(-1, 2), lines=np.array(lines, np.int32), consts=program.consts,
        func_entry=entry.astype(np.int32), func_nparams=program.func_nparams, func_nlocals=program.func_nlocals,
        func_max_stack=(program.func_max_stack + 2 * (program.func_import < 0)).astype(np.int32),
        func_ret_type=program.func_ret_type, func_unit=program.func_unit, func_import=program.func_import,
        unit_code_start=np.array(unit_code, np.int32), unit_const_start=program.unit_const_start,
        unit_func_start=program.unit_func_start,
    )  # fmt: skip


def assert_expansion_agrees(program: Program, jobs, limits: LaunchLimits) -> None:
    """Same results and costs, fused or expanded (a sequence is at most 4 instructions: the
    expanded program gets 4x the steps; jobs stopped by the step limit did different work)."""
    plain = expand(program)
    assert verify(plain) == []
    assert not np.isin(plain.code[:, 0], list(O.EXPANSIONS)).any()
    fused = launch_all(program, jobs, limits)
    unfused = launch_all(plain, jobs, dataclasses.replace(limits, step_limit=4 * limits.step_limit))
    done = fused.status != S.STEP_LIMIT
    assert done.sum() >= len(done) // 2
    for field in ("status", "value", "cost", "fail_unit", "fail_line", "fail_lhs", "fail_rhs"):
        assert (getattr(fused, field)[done] == getattr(unfused, field)[done]).all(), field
    assert (fused.steps <= unfused.steps).all() and (fused.steps < unfused.steps).any()


def test_compiled_workloads_cost_the_same_with_superinstructions_expanded():
    sources = workloads.loop_heavy(3) + workloads.call_heavy(3)
    batch = compile_batch(sources)
    program = Program.from_batch(batch)
    fused_ops = set(program.code[:, 0].tolist()) & set(O.EXPANSIONS)
    assert len(fused_ops) >= 10  # the peephole pass used most of them
    funcs = [int(batch.func_start[u]) + batch.function_names(u).index("score") for u in range(len(sources))]
    jobs = make_jobs({}, [(g, (n,)) for g in funcs for n in (0, 7, 30)])
    assert_expansion_agrees(program, jobs, LaunchLimits(step_limit=10**6))


@pytest.mark.parametrize("seed", range(12))
def test_random_programs_cost_the_same_with_superinstructions_expanded(seed):
    program, names = assemble_named(Gen(seed).program())
    rng = random.Random(seed)
    values = [0, 1, -1, 7, -40, 2**40, 2**63 - 1, -(2**63)]
    calls = [("main", (rng.choice(values), rng.choice(values))) for _ in range(6)] + [("helper", (5,))]
    limits = LaunchLimits(step_limit=5000, stack_size=200, max_depth=12)
    assert_expansion_agrees(program, make_jobs(names, calls), limits)
