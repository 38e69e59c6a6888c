"""Shared benchmark plumbing: compile a workload, build its job grid, time things, print ratios."""

from __future__ import annotations

import statistics
import time

import numpy as np

from gpucc.contract.image import JobTable, Program
from gpucc.contract.limits import MAX_IMPORTS, MAX_PARAMS


def median_time(fn, repeats: int) -> float:
    """Median wall time of fn() over `repeats` runs (seconds)."""
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def grid_jobs(batch, function: str, grid: list[tuple[int, ...]]) -> JobTable:
    """One job per (unit, args) calling `function` of every unit, candidate-major."""
    funcs = []
    for u in range(len(batch)):
        if not batch.ok(u):
            raise RuntimeError(f"workload unit {u} failed to compile: {batch.error(u, f'unit{u}')}")
        names = batch.function_names(u)
        funcs.append(int(batch.func_start[u]) + names.index(function))
    n = len(funcs) * len(grid)
    args = np.zeros((n, MAX_PARAMS), np.int64)
    for k, case in enumerate(grid):
        args[k :: len(grid), : len(case)] = case
    return JobTable(
        func=np.repeat(np.array(funcs, np.int32), len(grid)),
        link=np.full(n, -1, np.int32),
        args=args,
        links=np.zeros((1, MAX_IMPORTS), np.int32),
    )


def cpython_functions(sources: list[str], function: str) -> list:
    """The benchmark's own trusted workload, compiled and exec'd by CPython in this process."""
    out = []
    for i, src in enumerate(sources):
        namespace: dict = {}
        exec(compile(src, f"<cand{i}>", "exec"), namespace)  # trusted, generated above
        out.append(namespace[function])
    return out


def program_of(batch) -> Program:
    return Program.from_batch(batch)


def row(label: str, seconds: float, extra: str = "") -> str:
    return f"  {label:<44} {seconds * 1e3:10.2f} ms  {extra}"
