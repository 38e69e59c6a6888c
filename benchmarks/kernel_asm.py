"""What LLVM made of the VM kernel's run_job: its reference-counting calls and its dispatch.

    python -m benchmarks.kernel_asm [--out run_job.s]

Compiles vm/cpu.py's run_jobs afresh (numba's cache moved to a temporary directory: numba shows
no assembly for cached code; several minutes) on a small loop-heavy grid and prints, for the
run_job it calls: its size, the NRT_incref / NRT_decref calls (numba's reference counting: the
run of `callq *%reg` after `movabsq $NRT_incref` at entry is one call per job each), and the
instructions from the hot loop's step test to its indirect jump (the dispatch every VM
instruction pays: a `(%rsp)` operand there is a spill or a reload).  Deterministic for one
numba / LLVM version; no timing.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile


def dump(out: str) -> None:
    """The child: run_jobs compiled here (fresh cache), run_job's assembly written to `out`."""
    import numpy as np

    from benchmarks.bench_vm import WORKLOADS
    from benchmarks.harness import grid_jobs, program_of
    from gpucc.compiler import compile_batch
    from gpucc.contract.image import LaunchLimits, Results, image_arrays, job_arrays, result_arrays
    from gpucc.contract.isa import COSTS
    from gpucc.vm.cpu import _run_jobs
    from gpucc.vm.kernel import Scratch
    from gpucc.vm.kernel_walk import WALK_WORDS
    from gpucc.vm.verify import function_checks

    make, function, grid = WORKLOADS["loop-heavy"]
    batch = compile_batch(make(3))
    program, jobs = program_of(batch), grid_jobs(batch, function, grid)
    limits = LaunchLimits()
    image, cols = image_arrays(program), job_arrays(jobs)
    image.func_ok[:] = function_checks(image, jit=False)[:, 0] == 0
    scratch = Scratch(np.zeros(limits.stack_size, np.int64), np.zeros((limits.max_depth, 3), np.int64),
                      np.zeros(limits.heap_size, np.int64), np.zeros(WALK_WORDS, np.int64))  # fmt: skip
    _run_jobs(0, len(jobs), image, cols, scratch, result_arrays(Results.allocate(len(jobs))), COSTS,
              limits.step_limit)  # fmt: skip
    asm = _run_jobs.inspect_asm(_run_jobs.signatures[0])
    lines, keep = [], False
    for line in asm.splitlines():
        if re.match(r"^[_A-Za-z][^ ]*:$", line):
            keep = "kernel7run_job" in line
        if keep:
            lines.append(line)
    with open(out, "w") as f:
        f.write("\n".join(lines) + "\n")


def report(path: str) -> None:
    lines = open(path).read().splitlines()
    code = [x for x in lines if x.startswith("\t") and not x.startswith("\t.")]
    print(f"run_job: {len(code)} instructions, {sum('callq' in x for x in code)} calls, "
          f"{sum('(%rsp)' in x for x in code)} stack-slot operands")  # fmt: skip
    for name in ("NRT_incref", "NRT_decref"):
        sites = [i for i, x in enumerate(lines) if f"${name}," in x]
        print(f"  {name}: {len(sites)} call sites")
    first = next((i for i, x in enumerate(lines) if "$NRT_incref," in x), len(lines))
    reg = lines[first].split(",")[-1].strip() if first < len(lines) else ""
    entry = 0
    for x in lines[first + 1 :]:
        if x.strip() == f"callq\t*{reg}":
            entry += 1
        elif x.startswith(".L"):
            break
    print(f"  at entry: {entry} NRT_incref calls in a row (one per job)")
    jump = next(i for i, x in enumerate(lines) if re.match(r"\tjmpq\t\*\(", x))
    test = max(i for i in range(jump) if re.match(r"\taddq\t\$-1, ", lines[i]) and lines[i + 1].startswith("\tjae"))
    start = test - 4
    window = [x for x in lines[start : jump + 1]]
    spills = sum("(%rsp)" in x for x in window if not x.startswith("."))
    print(f"the dispatch (from 4 lines before the step test to the indirect jump), {spills} stack-slot operands:")
    print("\n".join(window))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default="run_job.s", help="where run_job's assembly is written")
    ap.add_argument("--report", metavar="FILE", help="only report on an assembly file written before")
    ap.add_argument("--child", help=argparse.SUPPRESS)
    a = ap.parse_args(argv)
    if a.child:
        dump(a.child)
        return 0
    if not a.report:
        with tempfile.TemporaryDirectory() as cache:
            env = dict(os.environ, NUMBA_CACHE_DIR=cache)
            subprocess.run([sys.executable, "-m", "benchmarks.kernel_asm", "--child", a.out], env=env, check=True)
    report(a.report or a.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
