"""CPU backend: verify every function, then run every job with numba `prange` over chunks.

Each chunk allocates its value stack, frame stack and list heap once and reuses them for its jobs;
chunks are handed to threads dynamically (jobs differ wildly in length).
"""

from __future__ import annotations

import math
from contextlib import contextmanager

import llvmlite.binding as llvm
import numba
import numpy as np
from numba import njit, prange

from gpucc.contract.cachekey import source_fingerprint
from gpucc.contract.image import JobTable, LaunchLimits, Program, Results, result_arrays
from gpucc.vm.kernel import KERNEL_SOURCES, Scratch, run_job
from gpucc.vm.kernel_heap import MIN_HEAP
from gpucc.vm.kernel_walk import WALK_WORDS
from gpucc.vm.prepare import prepare_launch


# LLVM's inliner, for the kernel's CPU code.  str_op and list_op are each one dispatch over dozens
# of instructions, so LLVM's static estimate puts every arm below 2% of the function's entry
# frequency: a "cold" call site, where the inline threshold is 45.  new_list, which every
# allocating instruction calls, then stayed a call (str_op -> new_list, the heap passed as seven
# words).  Call sites count as cold only below 1% of the entry (the arms of those dispatches are
# above it; run_job's calls out of its hot loop stay below it: inlining more into run_job cost int
# code 5-10%), and inlining may grow a function more (threshold 3000, LLVM's -O3 default 250).
# Measured in benchmarks/RESULTS.md (session 25): list code 0.75x, str code 0.91x the time
# before, int code unchanged.  The options are LLVM's process-wide command line, read whenever
# numba builds a pass pipeline, so they hold only while the kernel compiles: under them the
# compiler's own numba code took minutes longer to compile (RESULTS, session 26).
_INLINER = ("-inline-threshold=3000", "-cold-callsite-rel-freq=1")
_LLVM_DEFAULTS = ("-inline-threshold=250", "-cold-callsite-rel-freq=2")  # -O3's values


@contextmanager
def kernel_inliner():
    """LLVM's inliner options for the kernel's compile, LLVM's defaults again after it."""
    for option in _INLINER:
        llvm.set_option("gpucc", option)
    try:
        yield
    finally:
        for option in _LLVM_DEFAULTS:
            llvm.set_option("gpucc", option)


def _make_runner(fingerprint):
    # compiled on its own, without parallel=True: numba's parfor passes over the whole
    # kernel body would more than double the (cold-cache) compile time for nothing
    @njit(cache=True)
    def run_jobs(lo, hi, image, jobs, scratch, out, step_limit):
        for j in range(lo, hi):
            run_job(j, image, jobs, scratch, out, step_limit)
        return len(fingerprint)

    return run_jobs


_SOURCES = (source_fingerprint(*KERNEL_SOURCES), _INLINER)  # other options: another cached kernel
_run_jobs = _make_runner(_SOURCES)


def _make_launcher(fingerprint):
    @njit(parallel=True, cache=True)
    def launch_chunks(image, jobs, out, step_limit, scratch_size, chunk):
        """Jobs in chunks of `chunk`; scratch_size = (stack_size, max_depth, heap_size)."""
        n_jobs = jobs.func.shape[0]
        n_chunks = (n_jobs + chunk - 1) // chunk
        stack_size, max_depth, heap_size = scratch_size
        for c in prange(n_chunks):
            # every heap word a job reads it wrote first
            scratch = Scratch(np.empty(stack_size, np.int64), np.empty((max_depth, 3), np.int64),
                              np.empty(heap_size, np.int64), np.empty(WALK_WORDS, np.int64))  # fmt: skip
            _run_jobs(c * chunk, min(n_jobs, (c + 1) * chunk), image, jobs, scratch, out, step_limit)
        return len(fingerprint)

    return launch_chunks


_launch_chunks = _make_launcher(_SOURCES)


def chunk_size(n_jobs: int) -> int:
    """Jobs per chunk: about 8 chunks per thread, at most 256 jobs each."""
    return max(1, min(256, math.ceil(n_jobs / (8 * numba.get_num_threads()))))


def launch_cpu(program: Program, jobs: JobTable, limits: LaunchLimits | None = None) -> Results:
    """Run every job of `jobs` on `program`; one parallel launch."""
    limits, image, job_cols, results = prepare_launch(program, jobs, limits, "cpu")
    n_jobs = len(results.status)
    if n_jobs == 0:
        return results
    scratch_size = (limits.stack_size, limits.max_depth, max(MIN_HEAP, limits.heap_size))
    args = (image, job_cols, result_arrays(results), limits.step_limit, scratch_size, chunk_size(n_jobs))
    with numba.parallel_chunksize(1):
        if _launch_chunks.signatures:
            _launch_chunks(*args)
        else:  # the process's first launch compiles the launcher, or loads it from numba's cache
            with kernel_inliner():
                _launch_chunks(*args)
    return results
