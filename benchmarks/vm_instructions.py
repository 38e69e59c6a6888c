"""Machine instructions the CPU kernel executes per VM instruction, counted by valgrind's
callgrind (a count, not a time: it does not move with the machine's load).

    python -m benchmarks.vm_instructions [--workload loop-heavy] [--candidates 20] [--runs 2] [--icache 8192]

Runs a child under ``valgrind --tool=callgrind --instr-atstart=no``: the child compiles
bench_vm's grid of the workload and makes a first call of vm/cpu.py's run_jobs (run_job over
every job, one thread, numba's cached code; func_ok from the plain-Python verifier), all
without instrumentation, then turns callgrind's instrumentation on (a client request from a
small C helper built here with cc and valgrind's callgrind.h) for --runs more calls only.
Prints the instructions counted ("Collected") over the VM instructions those runs executed
(Results.steps).  `--icache N` also simulates an N-byte, 8-way instruction cache and prints
its misses: a proxy for the hot code's footprint (a small cache stands in for the core's
micro-op cache).  Then the same per kernel function (the child prints the functions'
addresses, from numba's cached library; callgrind's per-address totals go to the function at or
below each).  Also runs in an older checkout (copy this file and kernel_asm.py into its
benchmarks/).

The CPU valgrind shows a program is not this machine's (no AVX-512 here), and numba keys its
cache by the CPU: under valgrind the kernel would compile afresh (still compiling after 30
minutes when stopped, RESULTS session 28).  So both runs target valgrind's CPU (NUMBA_CPU_NAME / NUMBA_CPU_FEATURES, asked of llvmlite under valgrind)
and the child first runs natively, compiling (or loading) that code into numba's cache.  The
count is of that code, not of the code numba makes for this machine's own CPU.
"""

from __future__ import annotations

import argparse
import ctypes
import os
import re
import subprocess
import sys
import tempfile

HELPER = """#include <valgrind/callgrind.h>
void cg_start(void) { CALLGRIND_ZERO_STATS; CALLGRIND_START_INSTRUMENTATION; }
void cg_stop(void) { CALLGRIND_STOP_INSTRUMENTATION; }
"""


def helper(tmp: str) -> str:
    """Build the client-request helper library in `tmp`; its path."""
    src, lib = os.path.join(tmp, "cg.c"), os.path.join(tmp, "libcg.so")
    with open(src, "w") as f:
        f.write(HELPER)
    subprocess.run(["cc", "-O1", "-shared", "-fPIC", "-o", lib, src], check=True)
    return lib


def child(workload: str, n_candidates: int, runs: int, lib: str) -> None:
    """Compile the grid, run it once, then `runs` times with instrumentation on; print the steps."""
    import contextlib

    from benchmarks.kernel_asm import grid_run
    from gpucc.contract.image import Results
    from gpucc.vm import cpu

    kernel_inliner = getattr(cpu, "kernel_inliner", contextlib.nullcontext)  # fec3820 has none

    n_jobs, run = grid_run(workload, n_candidates, 50_000_000)
    results = [Results.allocate(n_jobs) for _ in range(runs + 1)]
    cg = ctypes.CDLL(lib)
    with kernel_inliner():
        run(cpu._run_jobs, results[0])  # compiles, or loads numba's cache
    cg.cg_start()
    for r in results[1:]:
        run(cpu._run_jobs, r)
    cg.cg_stop()
    for r in results:
        assert (r.status == 0).all() and (r.steps == results[0].steps).all(), "workload must run cleanly on the VM"
    print(f"steps {runs * int(results[0].steps.sum())} jobs {n_jobs}")
    library = next(iter(cpu._run_jobs.overloads.values())).library
    for f in library._shared_module.functions:  # the kernel's functions (cached code: their names are here)
        if not f.is_declaration and (address := library._codegen._engine.get_function_address(f.name)):
            print(f"fn {address:x} {demangle(f.name)}")


def demangle(name: str) -> str:
    """numba's mangled `_ZN5gpucc2vm10kernel_str6str_opB3v36...` as `vm.kernel_str.str_op` (a
    `cpython.` or `cfunc.` wrapper keeps its prefix)."""
    z = name.find("_ZN")
    if z < 0:
        return name
    at, parts = z + 3, []
    while at < len(name) and name[at].isdigit():
        digits = re.match(r"\d+", name[at:])[0]
        at += len(digits) + int(digits)
        parts.append(name[at - int(digits) : at])
    return name[:z] + ".".join(p for p in parts if p != "gpucc")


def by_function(out_file: str, addresses: list[tuple[int, str]], icache: bool) -> list[tuple[str, int, int]]:
    """(function, instructions, I-cache misses) per kernel function, from callgrind's per-address
    totals: each address goes to the function starting at or below it."""
    import bisect

    events = "Ir,I1mr" if icache else "Ir"
    text = subprocess.run(["callgrind_annotate", f"--show={events}", "--threshold=100", out_file],
                          capture_output=True, text=True, check=True).stdout  # fmt: skip
    starts = sorted(addresses)
    totals: dict[str, list[int]] = {}
    for line in text.splitlines():
        m = re.match(r"\s*([\d,]+)\s+\([^)]*\)\s+(?:([\d,]+)\s+\([^)]*\)\s+)?\?\?\?:0x([0-9a-f]+)", line)
        if not m:
            continue
        k = bisect.bisect_right(starts, (int(m[3], 16), "\uffff")) - 1
        name = starts[k][1] if k >= 0 else "(outside the kernel)"
        t = totals.setdefault(name, [0, 0])
        t[0] += int(m[1].replace(",", ""))
        t[1] += int(m[2].replace(",", "")) if m[2] else 0
    return sorted(((n, ir, mr) for n, (ir, mr) in totals.items()), key=lambda r: -r[1])


CPU_QUERY = ("import llvmlite.binding as b; b.initialize_native_target(); print(b.get_host_cpu_name()); "
             "print(b.get_host_cpu_features().flatten())")


def valgrind_cpu() -> dict[str, str]:
    """numba's CPU settings for the CPU a program sees under valgrind."""
    out = subprocess.run(["valgrind", "-q", sys.executable, "-c", CPU_QUERY], capture_output=True, text=True, check=True)
    name, features = out.stdout.split()[-2:]
    return {"NUMBA_CPU_NAME": name, "NUMBA_CPU_FEATURES": features}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--workload", default="loop-heavy")
    ap.add_argument("--candidates", type=int, default=20)
    ap.add_argument("--runs", type=int, default=2)
    ap.add_argument("--icache", type=int, default=0, help="simulate an instruction cache of this many bytes")
    ap.add_argument("--child", help=argparse.SUPPRESS)
    a = ap.parse_args(argv)
    if a.child:
        child(a.workload, a.candidates, a.runs, a.child)
        return 0
    env = {**os.environ, **valgrind_cpu()}
    sim = ["--cache-sim=yes", f"--I1={a.icache},8,64", "--D1=32768,8,64", "--LL=1048576,16,64"] if a.icache else []
    with tempfile.TemporaryDirectory() as tmp:
        child_cmd = [sys.executable, "-m", "benchmarks.vm_instructions", "--workload", a.workload,
                     "--candidates", str(a.candidates), "--runs", str(a.runs), "--child", helper(tmp)]  # fmt: skip
        subprocess.run(child_cmd, env=env, check=True, capture_output=True)  # natively: numba's cache filled
        cmd = ["valgrind", "--tool=callgrind", "--instr-atstart=no", *sim, f"--callgrind-out-file={tmp}/cg.out"]
        out = subprocess.run(cmd + child_cmd, env=env, capture_output=True, text=True)
        functions = [(int(a, 16), n) for a, n in re.findall(r"^fn ([0-9a-f]+) (\S+)$", out.stdout, re.M)]
        table = by_function(f"{tmp}/cg.out", functions, bool(a.icache)) if out.returncode == 0 else []
    collected = re.search(r"Collected\s*:\s*(\d+)(?:\s+\d+\s+\d+\s+(\d+))?", out.stderr)
    steps = re.search(r"^steps (\d+) jobs (\d+)$", out.stdout, re.M)
    if out.returncode or not collected or not steps:
        raise RuntimeError(f"no count in valgrind's output:\n{out.stdout[-1000:]}\n{out.stderr[-2000:]}")
    ir, n = int(collected[1]), int(steps[1])
    print(f"{a.workload}: {a.candidates} candidates, {steps[2]} jobs, {a.runs} runs: {n:,} VM instructions, "
          f"{ir:,} machine instructions, {ir / n:.3f} per VM instruction")  # fmt: skip
    if a.icache:
        misses = int(collected[2])
        print(f"  {a.icache}-byte instruction cache: {misses:,} misses, {misses / ir:.2%} of the instructions")
    print(f"  {'function':44} {'instructions':>14} {'share':>7}" + (f" {'I-cache misses':>15} {'share':>7}" if a.icache else ""))
    for name, fn_ir, fn_mr in table[:15]:
        row = f"  {name[:44]:44} {fn_ir:>14,} {fn_ir / ir:>7.1%}"
        print(row + (f" {fn_mr:>15,} {fn_mr / max(misses, 1):>7.1%}" if a.icache else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
