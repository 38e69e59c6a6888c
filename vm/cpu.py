"""CPU backend: verify every function, then run every job with numba `prange` over chunks.

Each chunk allocates its value stack, frame stack and list heap once and reuses them for its jobs;
chunks are handed to threads dynamically (jobs differ wildly in length).
"""

from __future__ import annotations

import math

import numba
import numpy as np
from numba import njit, prange

from gpucc.contract.cachekey import source_fingerprint
from gpucc.contract.image import JobTable, LaunchLimits, Program, Results
from gpucc.contract.isa import COSTS
from gpucc.vm.kernel import KERNEL_SOURCES, run_job
from gpucc.vm.prepare import prepare_launch


def _make_runner(fingerprint):
    # compiled on its own, without parallel=True: numba's parfor passes over the whole
    # kernel body would more than double the (cold-cache) compile time for nothing
    @njit(cache=True)
    def run_jobs(lo, hi, code, lines, consts, func_entry, func_end, func_nparams, func_nlocals,
                 func_max_stack, func_unit, func_import, unit_const_start, unit_func_start,
                 func_ok, job_func, job_link, job_args, links, job_pool, job_arg_lists, cost_of, step_limit,
                 stack, frames, heap, status, value, cost, steps, fail_unit, fail_line, fail_lhs, fail_rhs,
                 fail_arg, fail_op):
        for j in range(lo, hi):
            run_job(j, code, lines, consts, func_entry, func_end, func_nparams, func_nlocals,
                    func_max_stack, func_unit, func_import, unit_const_start, unit_func_start,
                    func_ok, job_func, job_link, job_args, links, job_pool, job_arg_lists, cost_of,
                    step_limit, stack, frames, heap, status, value, cost, steps, fail_unit, fail_line, fail_lhs, fail_rhs,
                    fail_arg, fail_op)
        return len(fingerprint)

    return run_jobs


_SOURCES = source_fingerprint(*KERNEL_SOURCES)
_run_jobs = _make_runner(_SOURCES)


def _make_launcher(fingerprint):
    @njit(parallel=True, cache=True)
    def launch_chunks(code, lines, consts, func_entry, func_end, func_nparams, func_nlocals,
                      func_max_stack, func_unit, func_import, unit_const_start, unit_func_start,
                      func_ok, job_func, job_link, job_args, links, job_pool, job_arg_lists, cost_of,
                      step_limit, stack_size, max_depth, heap_size, chunk, status, value, cost, steps, fail_unit,
                      fail_line, fail_lhs, fail_rhs, fail_arg, fail_op):
        n_jobs = job_func.shape[0]
        n_chunks = (n_jobs + chunk - 1) // chunk
        for c in prange(n_chunks):
            stack = np.empty(stack_size, np.int64)
            frames = np.empty((max_depth, 3), np.int64)
            heap = np.empty(heap_size, np.int64)  # every word a job reads it wrote first
            _run_jobs(c * chunk, min(n_jobs, (c + 1) * chunk), code, lines, consts, func_entry,
                      func_end, func_nparams, func_nlocals, func_max_stack, func_unit,
                      func_import, unit_const_start, unit_func_start, func_ok, job_func,
                      job_link, job_args, links, job_pool, job_arg_lists, cost_of, step_limit, stack,
                      frames, heap, status,
                      value, cost, steps, fail_unit, fail_line, fail_lhs, fail_rhs, fail_arg, fail_op)
        return len(fingerprint)

    return launch_chunks


_launch_chunks = _make_launcher(_SOURCES)


def chunk_size(n_jobs: int) -> int:
    """Jobs per chunk: about 8 chunks per thread, at most 256 jobs each."""
    return max(1, min(256, math.ceil(n_jobs / (8 * numba.get_num_threads()))))


def launch_cpu(program: Program, jobs: JobTable, limits: LaunchLimits | None = None) -> Results:
    """Run every job of `jobs` on `program`; one parallel launch."""
    limits, image, job_cols, results, func_ok = prepare_launch(program, jobs, limits, "cpu")
    n_jobs = len(results.status)
    if n_jobs == 0:
        return results
    r = results
    with numba.parallel_chunksize(1):
        _launch_chunks(*image, func_ok, *job_cols, COSTS, limits.step_limit, limits.stack_size,
                       limits.max_depth, limits.heap_size, chunk_size(n_jobs), r.status, r.value, r.cost,
                       r.steps, r.fail_unit, r.fail_line, r.fail_lhs, r.fail_rhs, r.fail_arg, r.fail_op)
    return results
