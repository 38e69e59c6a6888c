"""CUDA backend: the same `run_job` body as vm/cpu.py, in a `@cuda.jit` kernel.

Imported only for backend "cuda" (it imports numba.cuda).  The launch is grid-stride: a
fixed number of threads (bounded by the scratch memory they need), thread t running jobs
t, t + T, t + 2T, ... (the job table is candidate-major, so a warp runs neighbouring jobs
of one candidate).  The kernel takes the same bundles as run_job (contract.image's
ImageArrays, JobArrays, ResultArrays of device arrays) and one Scratch of every thread's:
each thread's value stack, frame stack, list heap and comparison walk are column t of device arrays laid out
slot-major (stack[slot, t]), so a warp's accesses to one slot coalesce; run_job indexes them
as it indexes the CPU launcher's per-chunk arrays.

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
  unit_const_start, unit_func_start) and the job table (func, link, args, links, pool,
  arg_lists): small next to the code.  The opcode cost table (contract.isa.COSTS) is a global
  of run_job's: numba compiles it into the kernel's constant memory, no launch copies it.
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

import numpy as np
from numba import cuda

from gpucc.contract.cachekey import source_fingerprint
from gpucc.contract.image import (
    ImageArrays,
    JobArrays,
    JobTable,
    LaunchLimits,
    Program,
    ResultArrays,
    Results,
    result_arrays,
)
from gpucc.contract.isa import FIRST_EXC, FIRST_LIST
from gpucc.contract.transfer import TransferCounter, device_full, is_device_array, require_device, to_device, to_host
from gpucc.vm.kernel import KERNEL_SOURCES, Scratch, run_job
from gpucc.vm.kernel_heap import MIN_HEAP
from gpucc.vm.kernel_walk import WALK_WORDS
from gpucc.vm.prepare import prepare_launch
from gpucc.vm.verify import V_OK, VERIFIER_SOURCES, check_function

THREADS_PER_BLOCK = 128
SCRATCH_BYTES = 1 << 30  # device memory for all threads' stacks, frames and heaps, at least
MAX_SCRATCH_BYTES = 16 << 30  # ... and at most (a quarter of the free memory in between)
MAX_THREADS = 1 << 18


def _cache_key(sources) -> int:
    """A nonzero int of the sources' fingerprint (a kernel closes over it: numba's cache key)."""
    return int(source_fingerprint(*sources)[:15], 16) | 1


def _make_kernel(fingerprint):
    @cuda.jit(cache=True)
    def run_jobs_kernel(image, jobs, scratch, out, step_limit):
        """Thread t runs jobs t, t + T, ... with column t of `scratch` (every thread's)."""
        t = cuda.grid(1)
        n_threads = scratch.stack.shape[1]
        if t >= n_threads:
            return
        mine = Scratch(scratch.stack[:, t], scratch.frames[:, :, t], scratch.heap[:, t], scratch.walk[:, t])
        for j in range(t, jobs.func.shape[0], n_threads):
            run_job(j, image, jobs, mine, out, step_limit)
        if fingerprint == 0:  # never: keeps the kernel sources' fingerprint in the cache key
            out.status[t] = -1

    return run_jobs_kernel


_kernel = _make_kernel(_cache_key(KERNEL_SOURCES))


def _make_verifier(fingerprint):
    @cuda.jit(cache=True)
    def verify_kernel(image, depth_at, work, has_lists):
        """image.func_ok[g] = 1 where function g passes the verifier (one thread per function;
        function code ranges never overlap, so they share the depth_at / work scratch);
        has_lists[0] = 1 if some function has a list instruction (the list, str and value groups)."""
        g = cuda.grid(1)
        if g < image.func_entry.shape[0]:
            problem, _, _, _ = check_function(g, image, depth_at, work)
            image.func_ok[g] = 1 if problem == V_OK else 0
            for pc in range(image.func_entry[g], image.func_end[g]):
                if FIRST_LIST <= image.code[2 * pc] < FIRST_EXC:
                    has_lists[0] = 1
                    break
        if fingerprint == 0:  # never: keeps the verifier sources' fingerprint in the cache key
            has_lists[0] = -1

    return verify_kernel


_verify = _make_verifier(_cache_key(VERIFIER_SOURCES))


def _blocks(n: int) -> int:
    return (n + THREADS_PER_BLOCK - 1) // THREADS_PER_BLOCK


def device_image(image: ImageArrays, counter: TransferCounter) -> ImageArrays:
    """`image` on the device: its host tables copied (counted, labelled by field), the arrays
    already there kept, func_ok a new device array for the verifier to fill (never copied)."""
    tables = {name: a if is_device_array(a) else to_device(a, counter, name)
              for name, a in image._asdict().items() if name != "func_ok"}  # fmt: skip
    return ImageArrays(**tables, func_ok=cuda.device_array(image.func_ok.shape[0], np.int8))


def verify_on_device(image: ImageArrays):
    """Fill the device image's func_ok (1 where the function passes vm.verify.check_function)
    on the device; returns has_lists, an int8[1] device array: 1 if any function has a list
    instruction."""
    n_funcs, n_code = image.func_entry.shape[0], image.code.shape[0] // 2
    has_lists = device_full((1,), np.int8, 0)
    if n_funcs:
        args = (image, cuda.device_array(max(1, n_code), np.int32), cuda.device_array(max(1, n_code), np.int32),
                has_lists)  # fmt: skip
        require_device(args, "the verifier kernel")
        _verify[_blocks(n_funcs), THREADS_PER_BLOCK](*args)
    return has_lists


def scratch_budget() -> int:
    """Device bytes for all threads' scratch: a quarter of the free memory, within
    SCRATCH_BYTES .. MAX_SCRATCH_BYTES (the simulator reports infinite memory)."""
    free = cuda.current_context().get_memory_info()[0]
    return int(min(MAX_SCRATCH_BYTES, max(SCRATCH_BYTES, free // 4)))


def thread_count(n_jobs: int, limits: LaunchLimits, heap_words: int, budget: int) -> int:
    """Threads of one launch: one per job, as far as the scratch budget and MAX_THREADS allow
    (each thread: limits' stack and frames, heap_words of list heap, the comparison walk's words)."""
    per_thread = 8 * (limits.stack_size + 3 * limits.max_depth + heap_words + WALK_WORDS)
    return max(1, min(n_jobs, MAX_THREADS, budget // per_thread))


def launch_cuda(program: Program, jobs: JobTable, limits: LaunchLimits | None = None) -> Results:
    """Run every job of `jobs` on `program` in one kernel launch on the current CUDA device.

    `program`'s code, lines and consts may already be device arrays (they then stay there);
    results.meta["transfer"] counts what this launch copied (see the module docstring);
    meta "threads" and "heap_words" say how many threads ran and each one's list heap."""
    limits, image, job_cols, results = prepare_launch(program, jobs, limits, "cuda")
    counter = TransferCounter()
    results.meta.update(transfer=counter, threads=0, heap_words=0)
    n_jobs = len(results.status)
    if n_jobs == 0:
        return results
    dimage = device_image(image, counter)
    has_lists = verify_on_device(dimage)
    djobs = JobArrays(*(to_device(a, counter, f"jobs.{name}") for name, a in job_cols._asdict().items()))
    lists = to_host(has_lists, counter, "has lists")[0] != 0 or job_cols.pool.size > 0
    # a launch without lists gets the smallest heap array (its state words, no block)
    heap_words = max(MIN_HEAP, limits.heap_size) if lists else MIN_HEAP
    n_threads = thread_count(n_jobs, limits, heap_words, scratch_budget())
    scratch = Scratch(cuda.device_array((limits.stack_size, n_threads), np.int64),
                      cuda.device_array((limits.max_depth, 3, n_threads), np.int64),
                      cuda.device_array((heap_words, n_threads), np.int64),
                      cuda.device_array((WALK_WORDS, n_threads), np.int64))  # fmt: skip
    results.meta.update(threads=n_threads, heap_words=heap_words)
    hosts = result_arrays(results)  # allocated with each array's initial value, filled alike on the device
    out = ResultArrays(*(device_full(h.shape, h.dtype, h[0]) for h in hosts))
    args = (dimage, djobs, scratch, out, np.int64(limits.step_limit))
    require_device(args, "the VM kernel")
    _kernel[_blocks(n_threads), THREADS_PER_BLOCK](*args)
    for host, dev in zip(hosts, out):
        to_host(dev, counter, "results", out=host)
    return results
