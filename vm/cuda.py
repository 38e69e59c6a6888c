"""CUDA backend: the same `run_job` body as vm/cpu.py, in a `@cuda.jit` kernel.

Imported only for backend "cuda" (it imports numba.cuda).  The launch is grid-stride: a
fixed number of threads (bounded by the scratch memory they need), thread t running jobs
t, t + T, t + 2T, ... (the job table is candidate-major, so a warp runs neighbouring jobs
of one candidate).  Each thread's value stack, frame stack and list heap are column t of device
arrays laid out slot-major (stack[slot, t]), so a warp's accesses to one slot coalesce;
run_job indexes them as it indexes the CPU launcher's per-chunk arrays.

Device residency (numba device arrays; cupy is not needed).  Every copy goes through
contract.transfer and is counted; `results.meta["transfer"]` holds a launch's TransferCounter.
A session on the cuda backend (compiler.cuda_batch.compile_batch_resident, then this launch)
moves exactly this across PCIe:

* host -> device, compile: the sources' bytes; per unit, int64 offsets of its source and of
  its output and scratch regions (7 arrays), then of its compacted code, constants and
  functions (3 arrays).
* device -> host, compile: per unit, its instruction / constant / function counts (the link
  tables are built from them); the number of units that failed and their error records
  only; the compacted function tables (linking resolves names and signatures on the host).
* host -> device, launch: the link tables Program.from_batch builds on the host (func_entry,
  func_end, func_nparams, func_nlocals, func_max_stack, func_unit, func_import,
  unit_const_start, unit_func_start), the job table (func, link, args, links) and the
  opcode cost table: small next to the code.
* device -> host, launch: one byte saying whether any function has a list instruction (a
  launch without lists and without list arguments gets no list heap, so many more threads
  fit), and the result arrays (status, value, cost, steps and the failure record of every
  job), which the report reads.
* never: code, lines and constants (compiled, compacted and run on the device); func_ok
  (each function verified on the device by vm.verify.check_function); stacks, frames and
  the results' initial values (filled on the device).

A Program whose code, lines and consts are host arrays (vm.launch(program, jobs, "cuda")
from a plain compile_batch) works too: those three are then uploaded, counted.
"""

from __future__ import annotations

import dataclasses

import numpy as np
from numba import cuda

from gpucc.contract.cachekey import source_fingerprint
from gpucc.contract.image import JobTable, LaunchLimits, Program, Results
from gpucc.contract.isa import COSTS, FIRST_LIST
from gpucc.contract.transfer import TransferCounter, device_full, is_device_array, require_device, to_device, to_host
from gpucc.vm.kernel import KERNEL_SOURCES, run_job
from gpucc.vm.prepare import prepare_launch
from gpucc.vm.verify import V_OK, check_function

THREADS_PER_BLOCK = 128
SCRATCH_BYTES = 1 << 30  # device memory for all threads' stacks, frames and heaps, at least
MAX_SCRATCH_BYTES = 16 << 30  # ... and at most (a quarter of the free memory in between)
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


def _make_verifier(fingerprint):
    @cuda.jit(cache=True)
    def verify_kernel(code, func_entry, func_end, func_nparams, func_nlocals, func_max_stack,
                      func_unit, func_import, unit_const_start, unit_func_start, depth_at, work,
                      func_ok, has_lists):  # fmt: skip
        """func_ok[g] = 1 where function g passes the verifier (one thread per function;
        function code ranges never overlap, so they share the depth_at / work scratch);
        has_lists[0] = 1 if some function has a list instruction."""
        g = cuda.grid(1)
        if g < func_entry.shape[0]:
            problem, _, _, _ = check_function(g, code, func_entry, func_end, func_nparams, func_nlocals,
                                              func_max_stack, func_unit, func_import, unit_const_start,
                                              unit_func_start, depth_at, work)  # fmt: skip
            func_ok[g] = 1 if problem == V_OK else 0
            for pc in range(func_entry[g], func_end[g]):
                if code[2 * pc] >= FIRST_LIST:
                    has_lists[0] = 1
                    break
        if fingerprint == 0:  # never: keeps the verifier sources' fingerprint in the cache key
            func_ok[0] = -1

    return verify_kernel


_verify = _make_verifier(int(source_fingerprint("vm/verify.py", "contract/isa.py", "contract/valuetypes.py")[:15], 16) | 1)
IMAGE_NAMES = ("code", "lines", "consts", "func_entry", "func_end", "func_nparams", "func_nlocals",
               "func_max_stack", "func_unit", "func_import", "unit_const_start", "unit_func_start")  # fmt: skip
JOB_NAMES = ("job_func", "job_link", "job_args", "links", "pool", "arg_lists")


def _blocks(n: int) -> int:
    return (n + THREADS_PER_BLOCK - 1) // THREADS_PER_BLOCK


def verified_on_device(image: list):
    """(func_ok, has_lists) device arrays: int8[F], 1 where the function passes
    vm.verify.check_function, and int8[1], 1 if any function has a list instruction; run on
    the device over the device image (image_arrays' order)."""
    code, _, _, fe, fend, fp, fl, fm, fu, fi, uconst, ufunc = image
    n_funcs, n_code = fe.shape[0], code.shape[0] // 2
    func_ok = cuda.device_array(n_funcs, np.int8)
    has_lists = device_full((1,), np.int8, 0)
    if n_funcs:
        args = (code, fe, fend, fp, fl, fm, fu, fi, uconst, ufunc, cuda.device_array(max(1, n_code), np.int32),
                cuda.device_array(max(1, n_code), np.int32), func_ok, has_lists)  # fmt: skip
        require_device(args, "the verifier kernel")
        _verify[_blocks(n_funcs), THREADS_PER_BLOCK](*args)
    return func_ok, has_lists


def scratch_budget() -> int:
    """Device bytes for all threads' scratch: a quarter of the free memory, within
    SCRATCH_BYTES .. MAX_SCRATCH_BYTES (the simulator reports infinite memory)."""
    free = cuda.current_context().get_memory_info()[0]
    return int(min(MAX_SCRATCH_BYTES, max(SCRATCH_BYTES, free // 4)))


def thread_count(n_jobs: int, limits: LaunchLimits, heap_words: int, budget: int) -> int:
    """Threads of one launch: one per job, as far as the scratch budget and MAX_THREADS allow
    (each thread: limits' stack and frames, heap_words of list heap)."""
    per_thread = 8 * (limits.stack_size + 3 * limits.max_depth + heap_words)
    return max(1, min(n_jobs, MAX_THREADS, budget // per_thread))


def result_arrays(results: Results) -> list[np.ndarray]:
    """The per-job result arrays, in Results' (and run_job's) order."""
    return [getattr(results, f.name) for f in dataclasses.fields(results) if isinstance(getattr(results, f.name), np.ndarray)]


def launch_cuda(program: Program, jobs: JobTable, limits: LaunchLimits | None = None) -> Results:
    """Run every job of `jobs` on `program` in one kernel launch on the current CUDA device.

    `program`'s code, lines and consts may already be device arrays (they then stay there);
    results.meta["transfer"] counts what this launch copied (see the module docstring);
    meta "threads" and "heap_words" say how many threads ran and each one's list heap."""
    limits, image, job_cols, results, _ = prepare_launch(program, jobs, limits, "cuda", verify=False)
    counter = TransferCounter()
    results.meta.update(transfer=counter, threads=0, heap_words=0)
    n_jobs = len(results.status)
    if n_jobs == 0:
        return results
    dimage = [a if is_device_array(a) else to_device(a, counter, name) for name, a in zip(IMAGE_NAMES, image)]
    func_ok, has_lists = verified_on_device(dimage)
    ins = [*dimage, func_ok, *(to_device(a, counter, n) for n, a in zip(JOB_NAMES, job_cols)),
           to_device(COSTS, counter, "cost table")]  # fmt: skip
    lists = to_host(has_lists, counter, "has lists")[0] != 0 or jobs.pool.size > 0
    # at least one row (no zero-size allocation): a heap under 7 words holds no list either way
    heap_words = max(1, limits.heap_size) if lists else 1
    n_threads = thread_count(n_jobs, limits, heap_words, scratch_budget())
    stacks = cuda.device_array((limits.stack_size, n_threads), np.int64)
    frames = cuda.device_array((limits.max_depth, 3, n_threads), np.int64)
    heaps = cuda.device_array((heap_words, n_threads), np.int64)
    results.meta.update(threads=n_threads, heap_words=heap_words)
    hosts = result_arrays(results)  # allocated with each array's initial value, filled alike on the device
    outs = [device_full(h.shape, h.dtype, h[0]) for h in hosts]
    args = (*ins, np.int64(limits.step_limit), stacks, frames, heaps, *outs)
    require_device(args, "the VM kernel")
    _kernel[_blocks(n_threads), THREADS_PER_BLOCK](*args)
    for host, dev in zip(hosts, outs):
        to_host(dev, counter, "results", out=host)
    return results
