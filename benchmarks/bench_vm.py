"""VM (CPU backend) vs CPython in-process on the same candidate x test grid.

    python benchmarks/bench_vm.py [--candidates 1000] [--cases 8] [--repeats 5]

Both sides run the same generated sources (benchmarks/workloads.py) on the same arguments;
results are checked equal before anything is timed.  Prints medians and the ratio.
"""

from __future__ import annotations

import argparse

import numba
import numpy as np

from benchmarks import workloads
from benchmarks.harness import cpython_functions, grid_jobs, median_time, program_of, row
from gpucc import vm
from gpucc.compiler import compile_batch
from gpucc.contract import status
from gpucc.contract.image import LaunchLimits

WORKLOADS = {
    "loop-heavy": (workloads.loop_heavy, "score", [(n,) for n in (50, 100, 150, 200, 250, 300, 350, 400)]),
    "call-heavy": (workloads.call_heavy, "score", [(n,) for n in (4, 6, 8, 10, 12, 14, 16, 18)]),
    "str-heavy": (workloads.str_heavy, "score", [(n,) for n in (20, 40, 60, 80, 100, 120, 140, 160)]),
    "list-heavy": (workloads.list_heavy, "score", [(n,) for n in (20, 40, 60, 80, 100, 120, 140, 160)]),
}


def bench(name: str, n_candidates: int, n_cases: int, repeats: int) -> dict:
    make, function, grid = WORKLOADS[name]
    grid = grid[:n_cases]
    sources = make(n_candidates)
    batch = compile_batch(sources)
    program = program_of(batch)
    jobs = grid_jobs(batch, function, grid)
    limits = LaunchLimits(step_limit=50_000_000)

    results = vm.launch(program, jobs, "cpu", limits)  # warm-up (numba cache / JIT)
    assert (results.status == status.OK).all(), "workload must run cleanly on the VM"
    funcs = cpython_functions(sources, function)
    expected = np.array([f(*case) for f in funcs for case in grid], dtype=np.int64)
    assert (results.value == expected).all(), "VM and CPython disagree on the workload"

    def run_cpython():
        for f in funcs:
            for case in grid:
                f(*case)

    t_cpython = median_time(run_cpython, repeats)
    timings = {}
    for threads in sorted({1, numba.config.NUMBA_NUM_THREADS}):
        numba.set_num_threads(threads)
        timings[threads] = median_time(lambda: vm.launch(program, jobs, "cpu", limits), repeats)
    numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
    steps = int(results.steps.sum())
    print(f"{name}: {n_candidates} candidates x {len(grid)} cases = {len(jobs)} jobs, {steps:,} VM instructions")
    print(row("CPython in-process (1 thread)", t_cpython))
    for threads, t in timings.items():
        print(row(f"gpucc VM, CPU backend, {threads} thread(s)", t,
                  f"{steps / t / 1e6:8.1f} M instr/s  {len(jobs) / t:10.0f} evals/s  "
                  f"ratio vs CPython {t_cpython / t:5.1f}x"))  # fmt: skip
    return {"cpython": t_cpython, "vm": timings, "steps": steps, "jobs": len(jobs)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--candidates", type=int, default=1000)
    ap.add_argument("--cases", type=int, default=8)
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--workload", choices=sorted(WORKLOADS), action="append")
    a = ap.parse_args()
    for name in a.workload or sorted(WORKLOADS, reverse=True):
        bench(name, a.candidates, a.cases, a.repeats)


if __name__ == "__main__":
    main()
