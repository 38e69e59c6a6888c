"""Batch compile throughput (CPU backend) vs CPython's compile() on the same sources.

    python benchmarks/bench_compile.py [--candidates 1000] [--repeats 5]
"""

from __future__ import annotations

import argparse

import numba

from benchmarks import workloads
from benchmarks.harness import median_time, row
from gpucc.compiler import compile_batch


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--candidates", type=int, default=1000)
    ap.add_argument("--repeats", type=int, default=5)
    a = ap.parse_args()
    for name, make in (("loop-heavy", workloads.loop_heavy), ("call-heavy", workloads.call_heavy)):
        sources = make(a.candidates)
        lines = sum(s.count("\n") for s in sources) / len(sources)
        batch = compile_batch(sources)  # warm-up
        assert all(batch.ok(u) for u in range(len(batch)))
        t_py = median_time(lambda: [compile(s, "<c>", "exec") for s in sources], a.repeats)
        print(f"{name}: {len(sources)} candidates of {lines:.0f} lines")
        print(row("CPython compile()", t_py, f"{len(sources) / t_py:10.0f} candidates/s"))
        for threads in sorted({1, numba.config.NUMBA_NUM_THREADS}):
            numba.set_num_threads(threads)
            t = median_time(lambda: compile_batch(sources), a.repeats)
            print(row(f"gpucc compile_batch, CPU, {threads} thread(s)", t,
                      f"{len(sources) / t:10.0f} candidates/s  ratio vs compile() {t_py / t:5.1f}x"))  # fmt: skip
        numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)


if __name__ == "__main__":
    main()
