"""What LLVM made of the VM kernel's run_job: its reference-counting calls, its dispatch and the
handlers of the int instructions bench_vm's loop-heavy and call-heavy grids run.

    python -m benchmarks.kernel_asm [--out run_job.s]
    python -m benchmarks.kernel_asm --report run_job.s [--paths]   # the report of a listing written before

Compiles vm/cpu.py's run_jobs afresh (a dispatcher without cache: numba shows no assembly for
cached code; a few minutes) on a small loop-heavy grid and prints, for the run_job it calls:
its size, the NRT_incref / NRT_decref calls (numba's reference counting: the run of `callq
*%reg` after `movabsq $NRT_incref` at entry is one call per job each), the instructions from
the hot loop's step test to its indirect jump (the dispatch every VM instruction pays: a
`(%rsp)` operand there is a spill or a reload), and each HOT_OPS handler's path back to it.
Runs in an older checkout too (copy this file into its benchmarks/).  Deterministic for one
numba / LLVM version; no timing.
"""

from __future__ import annotations

import argparse
import re
import sys


def grid_run(workload: str, n_candidates: int, step_limit: int):
    """bench_vm's grid of `workload` made ready for vm/cpu.py's run_jobs, in this checkout or an
    older one (fec3820: a Scratch without `walk`, run_jobs taking the cost table): (n_jobs, run),
    run(fn, results) calling fn(0, n_jobs, image, jobs, scratch, results' arrays, [COSTS,] step_limit)."""
    import inspect

    import numpy as np

    from benchmarks.bench_vm import WORKLOADS
    from benchmarks.harness import grid_jobs, program_of
    from gpucc.compiler import compile_batch
    from gpucc.contract.image import LaunchLimits, image_arrays, job_arrays, result_arrays
    from gpucc.contract.isa import COSTS
    from gpucc.vm.kernel import Scratch
    from gpucc.vm.verify import function_checks

    try:
        from gpucc.vm.kernel_walk import WALK_WORDS
    except ImportError:  # a checkout before the comparison walk: its Scratch has no `walk`
        WALK_WORDS = 0
    make, function, grid = WORKLOADS[workload]
    batch = compile_batch(make(n_candidates))
    program, jobs = program_of(batch), grid_jobs(batch, function, grid)
    limits = LaunchLimits()
    image, cols = image_arrays(program), job_arrays(jobs)
    image.func_ok[:] = function_checks(image, jit=False)[:, 0] == 0
    shapes = {"stack": limits.stack_size, "frames": (limits.max_depth, 3), "heap": limits.heap_size, "walk": WALK_WORDS}
    scratch = Scratch(*(np.zeros(shapes[f], np.int64) for f in Scratch._fields))

    def run(fn, results) -> None:
        costs = (COSTS,) if "cost_of" in inspect.signature(fn.py_func).parameters else ()
        fn(0, len(jobs), image, cols, scratch, result_arrays(results), *costs, step_limit)

    return len(jobs), run


def dump(out: str) -> None:
    """run_jobs compiled afresh (a dispatcher without cache: numba shows no assembly for cached
    code), run_job's assembly written to `out`."""
    import numba

    from gpucc.contract.image import LaunchLimits, Results
    from gpucc.vm import cpu

    n_jobs, run = grid_run("loop-heavy", 3, LaunchLimits().step_limit)
    _run_jobs = numba.njit(cpu._run_jobs.py_func)
    with cpu.kernel_inliner():  # as the kernel is compiled
        run(_run_jobs, Results.allocate(n_jobs))
    asm = _run_jobs.inspect_asm(_run_jobs.signatures[0])
    lines, keep = [], False
    for line in asm.splitlines():
        if re.match(r"^[_A-Za-z][^ ]*:$", line):
            keep = "kernel7run_job" in line
        if keep:
            lines.append(line)
    with open(out, "w") as f:
        f.write("\n".join(lines) + "\n")


def is_step_test(line: str, after: str) -> bool:
    """The step budget's test: `addq $-1, R; jae` (decrement and test) or `testq R, R; je`."""
    dec = re.match(r"\taddq\t\$-1, ", line) and after.startswith("\tjae")
    test = re.match(r"\ttestq\t(%\w+), \1$", line) and after.startswith("\tje\t")
    return bool(dec or test)


# the int instructions bench_vm's loop-heavy and call-heavy grids run (their bytecode is the same at fec3820)
HOT_OPS = ("LOAD_VAR LOAD_INT STORE_VAR LOAD_VAR2 STORE_LOAD JUMP JUMP_IF_NOT_EQ_INT JUMP_IF_NOT_GE_VARS "
           "JUMP_IF_NOT_NE_VAR_INT JUMP_IF_NOT_LT_VAR_INT BINARY_ADD BINARY_ADD_INT BINARY_MOD_INT "
           "BINARY_FLOORDIV_INT VAR_MUL_INT VAR_MOD_INT VAR_SUB_INT VAR_FLOORDIV_INT ADD_TO_VAR INC_VAR FOR_LOOP "
           "CALL RETURN RETURN_VAR").split()  # fmt: skip


def is_instruction(line: str) -> bool:
    return line.startswith("\t") and not line.startswith("\t.")


def report(path: str, verbose: bool = False) -> None:
    lines = open(path).read().splitlines()
    code = [x for x in lines if is_instruction(x)]
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
    test = max(i for i in range(jump) if is_step_test(lines[i], lines[i + 1]))
    start = test - 4
    window = [x for x in lines[start : jump + 1]]
    spills = sum("(%rsp)" in x for x in window if not x.startswith("."))
    print(f"the dispatch (from 4 lines before the step test to the indirect jump), {spills} stack-slot operands:")
    print("\n".join(window))
    handlers(lines, test, jump, verbose)


def handlers(lines: list[str], test: int, jump: int, verbose: bool) -> None:
    """Each HOT_OPS handler's shortest path (in instructions, either way at each branch) from
    its jump-table target back to the dispatch (or a copy of its indirect jump): the no-error
    path, since error paths leave the loop.  Its instructions and stack-slot operands."""
    from collections import deque

    from gpucc.contract import isa

    where = {}  # label -> index of the next instruction in `code`
    code = []
    home = set()  # instructions of the dispatch
    for i, x in enumerate(lines):
        if re.match(r"^\.L\w+:$", x):
            where[x[:-1]] = len(code)
        elif is_instruction(x):
            if test - 6 <= i <= jump:
                home.add(len(code))
            code.append(x)
    table = re.search(r"\$(\.LJTI\w+)", "\n".join(lines[test:jump]))[1]
    bias = re.search(r"leal\t-(\d+)\(", "\n".join(lines[test:jump]))
    at = lines.index(table + ":")
    targets = [x.split()[-1] for x in lines[at + 1 :] if x.startswith("\t.quad")][: 256]

    def successors(k: int) -> list[int]:
        x = code[k]
        dest = re.match(r"\tj\w+\t(\.L\w+)$", x)
        out = [where[dest[1]]] if dest and dest[1] in where else []
        if not (x.startswith("\tjmp\t") or x.startswith("\tjmpq\t") or x.startswith("\tretq")):
            out.append(k + 1)
        return out

    print("the handlers (shortest path back to the dispatch: instructions, stack-slot operands):")
    for name in HOT_OPS:
        first = where[targets[getattr(isa, name) - int(bias[1] if bias else 0)]]
        parent, queue, end = {first: None}, deque([first]), None
        while queue:
            k = queue.popleft()
            if k in home or code[k].startswith("\tjmpq\t*"):
                end = k
                break
            for n in successors(k):
                if n not in parent and n < len(code):
                    parent[n] = k
                    queue.append(n)
        path = []
        while end is not None and end != first:
            end = parent[end]
            path.append(code[end])
        path.reverse()
        print(f"  {name:<24} {len(path):4} {sum('(%rsp)' in x for x in path):3}")
        if verbose:
            print("\n".join(path))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default="run_job.s", help="where run_job's assembly is written")
    ap.add_argument("--report", metavar="FILE", help="only report on an assembly file written before")
    ap.add_argument("--paths", action="store_true", help="print each handler's path too")
    a = ap.parse_args(argv)
    if not a.report:
        dump(a.out)
    report(a.report or a.out, a.paths)
    return 0


if __name__ == "__main__":
    sys.exit(main())
