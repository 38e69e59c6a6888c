"""The Program image, the job table and the result arrays: flat arrays only.

A Program is every compiled unit (suites and candidates) of a session laid end to end,
so that one VM launch can run any (candidate, test, case) job.  Function ids are global
(an index into func_*); a CALL operand is unit-local and resolves as

    g = unit_func_start[unit] + operand
    if func_import[g] >= 0:        # an interface stub in a suite
        g = link[job_link[job], func_import[g]]

Jump operands are relative to the current function's entry.

On the cuda backend code, lines and consts may be CUDA device arrays (the session's
device-resident path, vm/cuda.py); every other array is always a host array.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from gpucc.contract.limits import MAX_IMPORTS, MAX_PARAMS


@dataclass
class Program:
    code: np.ndarray  # int32[N, 2]
    lines: np.ndarray  # int32[N]
    consts: np.ndarray  # int64[M]
    func_entry: np.ndarray  # int32[F]: absolute pc
    func_nparams: np.ndarray  # int32[F]
    func_nlocals: np.ndarray  # int32[F]
    func_max_stack: np.ndarray  # int32[F]
    func_ret_type: np.ndarray  # int32[F]
    func_unit: np.ndarray  # int32[F]
    func_import: np.ndarray  # int32[F]: -1, or the import's ordinal within its suite
    unit_code_start: np.ndarray  # int32[U + 1]
    unit_const_start: np.ndarray  # int32[U + 1]
    unit_func_start: np.ndarray  # int32[U + 1]

    @property
    def n_units(self) -> int:
        return len(self.unit_func_start) - 1

    @classmethod
    def from_batch(cls, batch) -> "Program":
        """Make unit-relative compiler output global (a compiler.batch.CompiledBatch)."""
        n_funcs = len(batch.func_entry)
        func_unit = np.zeros(n_funcs, dtype=np.int32)
        func_entry = batch.func_entry.astype(np.int32).copy()
        func_import = np.full(n_funcs, -1, dtype=np.int32)
        for u in range(len(batch.sources)):
            lo, hi = int(batch.func_start[u]), int(batch.func_start[u + 1])
            func_unit[lo:hi] = u
            func_entry[lo:hi] += int(batch.code_start[u])
            ordinal = 0
            for f in range(lo, hi):
                if batch.func_is_import[f]:
                    func_import[f] = ordinal
                    ordinal += 1
        return cls(
            code=_contiguous(batch.code, np.int32).reshape(-1, 2),
            lines=_contiguous(batch.lines, np.int32),
            consts=_contiguous(batch.consts, np.int64),
            func_entry=func_entry,
            func_nparams=batch.func_nparams.astype(np.int32),
            func_nlocals=batch.func_nlocals.astype(np.int32),
            func_max_stack=batch.func_max_stack.astype(np.int32),
            func_ret_type=batch.func_ret_type.astype(np.int32),
            func_unit=func_unit,
            func_import=func_import,
            unit_code_start=batch.code_start.astype(np.int32),
            unit_const_start=batch.const_start.astype(np.int32),
            unit_func_start=batch.func_start.astype(np.int32),
        )


def is_device_array(a) -> bool:
    """True for a CUDA device array (numba's, the simulator's, or any with the CUDA array interface)."""
    return not isinstance(a, np.ndarray) and (hasattr(a, "__cuda_array_interface__") or hasattr(a, "copy_to_host"))


def _contiguous(a, dtype):
    """`a` as a contiguous host array of `dtype`; a device array stays where it is, as it is."""
    return a if is_device_array(a) else np.ascontiguousarray(a, dtype=dtype)


@dataclass
class JobTable:
    """One row per (candidate, test, case), candidate-major.

    A list argument k of job j (bit k of arg_lists[j]) is an offset o into `pool` in
    args[j, k]: pool[o] = n, pool[o + 1 .. o + n] its elements (slot values); the job starts
    with it copied into a new list on its heap."""

    func: np.ndarray  # int32[J]: global id of the function to call (a test)
    link: np.ndarray  # int32[J]: row of `links` resolving the suite's imports, -1 if none
    args: np.ndarray  # int64[J, MAX_PARAMS]: arguments (bools as 0/1, floats as their bits)
    links: np.ndarray  # int32[L, MAX_IMPORTS]: global function ids
    pool: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))  # int64[P]: list arguments
    arg_lists: np.ndarray | None = None  # int32[J]: bit k set where argument k is a list; None: none

    def __len__(self) -> int:
        return len(self.func)

    @classmethod
    def empty(cls) -> "JobTable":
        return cls(
            func=np.zeros(0, np.int32),
            link=np.zeros(0, np.int32),
            args=np.zeros((0, MAX_PARAMS), np.int64),
            links=np.zeros((0, MAX_IMPORTS), np.int32),
        )


def argument_slots(values, pool: list[int]) -> tuple[list[int], int]:
    """(args row, arg_lists bits) of one job's argument values: ints, bools, floats, or lists
    of them (appended to `pool` as length + elements; the row holds their offsets)."""
    from gpucc.contract.valuetypes import slot_value

    row, bits = [], 0
    for k, v in enumerate(values):
        if isinstance(v, (list, tuple)):
            bits |= 1 << k
            row.append(len(pool))
            pool += [len(v)] + [slot_value(x) for x in v]
        else:
            row.append(slot_value(v))
    return row, bits


@dataclass
class LaunchLimits:
    step_limit: int = 1_000_000  # instructions per job: the deterministic timeout
    stack_size: int = 1024  # value-stack slots per job (locals + operands of all frames)
    max_depth: int = 256  # call frames per job (the recursion limit)
    heap_size: int = 16384  # int64 words of list storage per job (MemoryError past it)


@dataclass
class Results:
    """What each job ended with (contract.status codes) and what it cost.

    cost is the candidate's work, not the suite's: the weighted cost (contract.isa costs) of
    the instructions executed while the running function's unit differs from the unit of
    the job's function (job_func, before any link resolution), i.e. inside linked candidate
    code.  A CALL counts to the caller, a RETURN to the returning function.  A job without
    a link row (link -1: a direct call, as benchmarks make) counts every instruction.  A
    superinstruction costs what its sequence of plain instructions costs (contract.isa
    EXPANSIONS; only the part run, when one fails midway), so a cost does not depend on
    which superinstructions the compiler used.  steps counts every instruction executed,
    a superinstruction as one (the step limit is over all of them).

    The failure record (fail_*) describes the failing instruction: for STEP_LIMIT the next
    one, which did not run; none (-1 / 0) for OK and for failures before the first one."""

    status: np.ndarray  # int32[J]
    value: np.ndarray  # int64[J]: return value when status == OK
    cost: np.ndarray  # int64[J]: weighted cost of the candidate's instructions (above)
    steps: np.ndarray  # int64[J]: instructions executed
    fail_unit: np.ndarray  # int32[J]: unit of the failing instruction, -1 if none
    fail_line: np.ndarray  # int32[J]: its source line, -1 if none
    fail_lhs: np.ndarray  # int64[J]: ASSERT_CMP left operand / ASSERT_TRUE value
    fail_rhs: np.ndarray  # int64[J]: ASSERT_CMP right operand
    fail_arg: np.ndarray  # int32[J]: operand of the failing instruction
    fail_op: np.ndarray  # int32[J]: opcode of the failing instruction, -1 if none
    launches: int = 1
    meta: dict = field(default_factory=dict)

    @classmethod
    def allocate(cls, n_jobs: int) -> "Results":
        return cls(
            status=np.zeros(n_jobs, np.int32),
            value=np.zeros(n_jobs, np.int64),
            cost=np.zeros(n_jobs, np.int64),
            steps=np.zeros(n_jobs, np.int64),
            fail_unit=np.full(n_jobs, -1, np.int32),
            fail_line=np.full(n_jobs, -1, np.int32),
            fail_lhs=np.zeros(n_jobs, np.int64),
            fail_rhs=np.zeros(n_jobs, np.int64),
            fail_arg=np.zeros(n_jobs, np.int32),
            fail_op=np.full(n_jobs, -1, np.int32),
        )
