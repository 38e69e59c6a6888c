"""Machine instructions per VM instruction of the CPU kernel, counted by valgrind (not timed: the
count does not move with the machine's load).

    python -m benchmarks.vm_instructions [--workload loop-heavy] [--candidates 100] [--launches 4]

Compiles bench_vm's grid of the workload here, then runs a child under ``valgrind
--tool=cachegrind --cache-sim=no`` twice: once running the grid's jobs once (numba's cache
loaded, the first call made) and once 1 + --launches times, and divides the difference of their
instruction counts (valgrind's "I refs") by the VM instructions of the extra runs.  The child
calls the kernel's job loop (vm/cpu.py's run_jobs: run_job over every job, one thread, numba's
cached code) directly, without the parallel launcher or the verifier (func_ok from the plain-
Python verifier), so that little besides the kernel runs under valgrind.
"""

from __future__ import annotations

import argparse
import pickle
import re
import subprocess
import sys
import tempfile

IREFS = re.compile(r"I\s+refs:\s+([0-9,]+)")


def save_grid(workload: str, n_candidates: int, path: str) -> None:
    """Compile bench_vm's grid of `workload` and pickle (program, jobs) to `path`."""
    from benchmarks.bench_vm import WORKLOADS
    from benchmarks.harness import grid_jobs, program_of
    from gpucc.compiler import compile_batch

    make, function, grid = WORKLOADS[workload]
    batch = compile_batch(make(n_candidates))
    with open(path, "wb") as f:
        pickle.dump((program_of(batch), grid_jobs(batch, function, grid)), f)


def run_grid(path: str, runs: int) -> int:
    """Run the pickled grid's jobs `runs` times with run_jobs; the VM instructions of one run."""
    import numpy as np

    from gpucc.contract.image import LaunchLimits, Results, image_arrays, job_arrays, result_arrays
    from gpucc.contract.isa import COSTS
    from gpucc.vm.cpu import _run_jobs
    from gpucc.vm.kernel import Scratch
    from gpucc.vm.verify import function_checks

    with open(path, "rb") as f:
        program, jobs = pickle.load(f)
    limits = LaunchLimits(step_limit=50_000_000)
    image, cols = image_arrays(program), job_arrays(jobs)
    image.func_ok[:] = function_checks(image, jit=False)[:, 0] == 0
    words = [limits.stack_size, (limits.max_depth, 3), limits.heap_size, 64]  # 64: the walk scratch, where there is one
    scratch = Scratch(*(np.zeros(w, np.int64) for w in words[: len(Scratch._fields)]))
    steps = 0
    for _ in range(runs):
        results = Results.allocate(len(jobs))
        _run_jobs(0, len(jobs), image, cols, scratch, result_arrays(results), COSTS, limits.step_limit)
        assert (results.status == 0).all(), "workload must run cleanly on the VM"
        steps = int(np.sum(results.steps))
    return steps


def count(path: str, runs: int) -> tuple[int, int]:
    """(valgrind's instruction count, VM instructions per run) of a child running the grid `runs` times."""
    cmd = ["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null",
           sys.executable, "-m", "benchmarks.vm_instructions", "--child", path, str(runs)]  # fmt: skip
    out = subprocess.run(cmd, capture_output=True, text=True, check=True)
    irefs = IREFS.search(out.stderr)
    steps = re.search(r"^steps (\d+)$", out.stdout, re.M)
    if not irefs or not steps:
        raise RuntimeError(f"no count in valgrind's output:\n{out.stderr[-2000:]}")
    return int(irefs[1].replace(",", "")), int(steps[1])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--workload", default="loop-heavy")
    ap.add_argument("--candidates", type=int, default=100)
    ap.add_argument("--launches", type=int, default=4)
    ap.add_argument("--child", nargs=2, help=argparse.SUPPRESS)
    a = ap.parse_args(argv)
    if a.child:
        print(f"steps {run_grid(a.child[0], int(a.child[1]))}")
        return 0
    with tempfile.NamedTemporaryFile(suffix=".pkl") as grid:
        save_grid(a.workload, a.candidates, grid.name)
        base, steps = count(grid.name, 1)
        more, _ = count(grid.name, 1 + a.launches)
    per_run = (more - base) / a.launches
    print(f"{a.workload}: {a.candidates} candidates x 8 cases, {steps:,} VM instructions per run")
    print(f"  {per_run:,.0f} machine instructions per run, {per_run / steps:.3f} per VM instruction")
    return 0


if __name__ == "__main__":
    sys.exit(main())
