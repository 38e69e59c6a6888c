"""Link suites to candidates: resolve interface stubs, build the job table.

For every (suite, candidate unit) pair whose units both compiled, each interface stub of the
suite (a function whose body is ``...``) is resolved by name to the candidate's function of
the same name, with the same parameter and return types.  A candidate that lacks one, has
another signature, or has a ``...`` stub of its own (it would resolve through the job's link
row to a wrong function) gets a link error and no jobs.  Linked pairs get one job per
(test, case), candidate-major: all jobs of one candidate are contiguous, in test then case
order, so a GPU warp's lanes share one candidate's control flow.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from gpucc.contract import typecodes
from gpucc.contract.image import JobTable, Program
from gpucc.contract.limits import MAX_IMPORTS, MAX_PARAMS
from gpucc.contract.pool import argument_slots


@dataclass
class SuiteLink:
    """What linking needs to know about one suite."""

    unit: int  # the suite's unit in the batch
    tests: list[tuple[str, list[tuple]]]  # (test function name, cases: argument tuples)
    candidate_units: list[int]  # candidate units to link (compile-failed ones are skipped)


@dataclass
class Linked:
    jobs: JobTable
    job_suite: np.ndarray  # int32[J]: index into the suites list
    job_unit: np.ndarray  # int32[J]: candidate unit
    job_test: np.ndarray  # int32[J]: index into the suite's tests
    job_case: np.ndarray  # int32[J]: index into the test's cases
    ranges: dict = field(default_factory=dict)  # (suite index, unit) -> (first job, end job)
    errors: dict = field(default_factory=dict)  # (suite index, unit) -> link error message


def signature(batch, f: int, name: str) -> str:
    """``name(int, int) -> bool`` for global function f of a CompiledBatch."""
    n = int(batch.func_nparams[f])
    params = ", ".join(_type_name(t) for t in batch.func_param_types[f][:n])
    return f"{name}({params}) -> {_type_name(batch.func_ret_type[f])}"


def _type_name(t) -> str:
    t = int(t)
    return typecodes.name(t) if t >= 0 and typecodes.width(t) > 0 else f"type {t}"


def _functions(batch, u: int) -> dict[str, int]:
    lo = int(batch.func_start[u])
    return {name: lo + i for i, name in enumerate(batch.function_names(u))}


def _same_signature(batch, f: int, g: int) -> bool:
    n = int(batch.func_nparams[f])
    return (
        n == int(batch.func_nparams[g])
        and int(batch.func_ret_type[f]) == int(batch.func_ret_type[g])
        and np.array_equal(batch.func_param_types[f][:n], batch.func_param_types[g][:n])
    )


def resolve(batch, suite_unit: int, cand_unit: int) -> list[int] | str:
    """Global ids of the candidate's functions for the suite's imports, in import order,
    or a link error message."""
    want = _functions(batch, suite_unit)
    have = _functions(batch, cand_unit)
    for name, g in have.items():
        if batch.func_is_import[g]:
            return f"'{name}' has no body (`...`): a candidate must define every function it declares"
    out = []
    for name, f in want.items():
        if not batch.func_is_import[f]:
            continue
        g = have.get(name)
        if g is None:
            return f"does not define '{name}' (the suite's interface: {signature(batch, f, name)})"
        if not _same_signature(batch, f, g):
            return f"defines {signature(batch, g, name)}, but the suite's interface is {signature(batch, f, name)}"
        out.append(g)
    return out


def _template(batch, suite: SuiteLink, pool: list[int]):
    """The job rows of one candidate of a suite: function ids, args, arg_lists bits, (test,
    case) indices; objects (strs, lists, tuples, boxed Optionals: contract/pool.py) go into
    `pool` as the test's parameter types say (every candidate's rows share them)."""
    funcs = _functions(batch, suite.unit)
    func, args, bits, tests, cases = [], [], [], [], []
    for t, (name, table) in enumerate(suite.tests):
        f = funcs.get(name)
        if f is None or batch.func_is_import[f]:
            raise ValueError(f"suite unit {suite.unit} has no test function '{name}'")
        for c, case in enumerate(table):
            if len(case) != int(batch.func_nparams[f]) or len(case) > MAX_PARAMS:
                raise ValueError(f"'{name}' takes {int(batch.func_nparams[f])} argument(s), case {c} has {len(case)}")
            func.append(f)  # compiler function ids are already global (func_start offsets)
            row, row_bits = argument_slots(case, pool, batch.func_param_types[f][: len(case)])
            args.append(row + [0] * (MAX_PARAMS - len(case)))
            bits.append(row_bits)
            tests.append(t)
            cases.append(c)
    return (
        np.array(func, np.int32),
        np.array(args, np.int64).reshape(-1, MAX_PARAMS),
        np.array(bits, np.int32),
        np.array(tests, np.int32),
        np.array(cases, np.int32),
    )


def link(batch, program: Program, suites: list[SuiteLink]) -> Linked:
    """Resolve every (suite, candidate) pair and build one job table for one launch.

    `program` is Program.from_batch(batch): its function ids are the batch's (global) ones."""
    blocks, links, pool = [], [], []
    ranges, errors = {}, {}
    n_jobs = 0
    for s, suite in enumerate(suites):
        if not batch.ok(suite.unit):
            continue
        func, args, bits, tests, cases = _template(batch, suite, pool)
        for u in suite.candidate_units:
            if not batch.ok(u):
                continue
            resolved = resolve(batch, suite.unit, u)
            if isinstance(resolved, str):
                errors[(s, u)] = resolved
                continue
            row = np.full(MAX_IMPORTS, -1, np.int32)
            row[: len(resolved)] = resolved
            links.append(row)
            k = len(func)
            blocks.append((func, np.full(k, len(links) - 1, np.int32), args, bits, np.full(k, s, np.int32),
                           np.full(k, u, np.int32), tests, cases))  # fmt: skip
            ranges[(s, u)] = (n_jobs, n_jobs + k)
            n_jobs += k
    if not blocks:
        empty = np.zeros(0, np.int32)
        return Linked(JobTable.empty(), empty, empty, empty, empty, ranges, errors)
    cols = [np.concatenate(c) for c in zip(*blocks)]
    jobs = JobTable(func=cols[0], link=cols[1], args=cols[2], links=np.stack(links), pool=np.array(pool, np.int64),
                    arg_lists=cols[3])  # fmt: skip
    return Linked(jobs, cols[4], cols[5], cols[6], cols[7], ranges, errors)
