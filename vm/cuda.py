"""CUDA backend: the same `run_job` body as vm/cpu.py, in a `@cuda.jit` kernel.

Imported only for backend "cuda" (it imports numba.cuda).  The launch is grid-stride: a
fixed number of threads (bounded by the scratch memory they need), thread t running jobs
t, t + T, t + 2T, ... (the job table is candidate-major, so a warp runs neighbouring jobs
of one candidate).  Each thread's value stack, frame stack and list heap are column t of device
arrays laid out slot-major (stack[slot, t]), so a warp's accesses to one slot coalesce;
run_job indexes them as it indexes the CPU launcher's per-chunk arrays.
"""

from __future__ import annotations

import dataclasses

import numpy as np
from numba import cuda

from vm.image import JobTable, LaunchLimits, Program, Results
from vm.kernel import COSTS, KERNEL_SOURCES, run_job
from vm.prepare import prepare_launch, source_fingerprint

THREADS_PER_BLOCK = 128
SCRATCH_BYTES = 1 << 30  # device memory for all threads' stacks and frames together
MAX_THREADS = 1 << 18


def _make_kernel(fingerprint):
    @cuda.jit(cache=True)
    def run_jobs_kernel(code, lines, consts, func_entry, func_end, func_nparams, func_nlocals,
                        func_max_stack, func_unit, func_import, unit_const_start,
                        unit_func_start, func_ok, job_func, job_link, job_args, links, job_pool,
                        job_arg_lists, cost_of, step_limit, stacks, frames, heaps, status, value, cost, steps, fail_unit,
                        fail_line, fail_lhs, fail_rhs, fail_arg, fail_op):  # fmt: skip
        t = cuda.grid(1)
        n_threads = stacks.shape[1]
        if t >= n_threads:
            return
        stack = stacks[:, t]
        frame = frames[:, :, t]
        heap = heaps[:, t]
        for j in range(t, job_func.shape[0], n_threads):
            run_job(j, code, lines, consts, func_entry, func_end, func_nparams, func_nlocals,
                    func_max_stack, func_unit, func_import, unit_const_start, unit_func_start,
                    func_ok, job_func, job_link, job_args, links, job_pool, job_arg_lists, cost_of,
                    step_limit, stack, frame, heap, status, value, cost, steps, fail_unit, fail_line, fail_lhs, fail_rhs,
                    fail_arg, fail_op)  # fmt: skip
        if fingerprint == 0:  # never: keeps the kernel sources' fingerprint in the cache key
            status[t] = -1

    return run_jobs_kernel


_kernel = _make_kernel(int(source_fingerprint(*KERNEL_SOURCES)[:15], 16) | 1)


def thread_count(n_jobs: int, limits: LaunchLimits) -> int:
    """Threads of one launch: one per job, as far as SCRATCH_BYTES and MAX_THREADS allow."""
    per_thread = 8 * (limits.stack_size + 3 * limits.max_depth + limits.heap_size)
    return max(1, min(n_jobs, MAX_THREADS, SCRATCH_BYTES // per_thread))


def result_arrays(results: Results) -> list[np.ndarray]:
    """The per-job result arrays, in Results' (and run_job's) order."""
    return [getattr(results, f.name) for f in dataclasses.fields(results) if isinstance(getattr(results, f.name), np.ndarray)]


def launch_cuda(program: Program, jobs: JobTable, limits: LaunchLimits | None = None) -> Results:
    """Run every job of `jobs` on `program` in one kernel launch on the current CUDA device."""
    limits, image, job_cols, results, func_ok = prepare_launch(program, jobs, limits, "cuda")
    n_jobs = len(results.status)
    if n_jobs == 0:
        return results
    n_threads = thread_count(n_jobs, limits)
    ins = [cuda.to_device(a) for a in (*image, func_ok, *job_cols, COSTS)]
    stacks = cuda.device_array((limits.stack_size, n_threads), np.int64)
    frames = cuda.device_array((limits.max_depth, 3, n_threads), np.int64)
    # at least one row (no zero-size allocation): a heap under 7 words holds no list either way
    heaps = cuda.device_array((max(1, limits.heap_size), n_threads), np.int64)
    outs = [cuda.to_device(a) for a in result_arrays(results)]
    blocks = (n_threads + THREADS_PER_BLOCK - 1) // THREADS_PER_BLOCK
    _kernel[blocks, THREADS_PER_BLOCK](*ins, np.int64(limits.step_limit), stacks, frames, heaps, *outs)
    for host, dev in zip(result_arrays(results), outs):
        dev.copy_to_host(host)
    return results
