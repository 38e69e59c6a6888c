"""Compare two checkouts launch by launch: one long-lived worker per checkout, both pinned to the
same CPU, timing bench_vm's workloads (or a probe loop) alternately, old first on even rounds.

    python -m benchmarks.alternate --old ../base --new . --rounds 15 --reps 10 --cpu 0 [--pairs 4]
    python -m benchmarks.alternate --old ../base --probe "t += ord(s[i % 8])" --setup "s = 'abcdefgh'"

Why beside benchmarks/interleave.py (whole benchmark runs, alternated): on this shared 2-core
machine the host runs a process at one of two speeds about 2x apart for seconds at a time, and
a process that stays on the other vCPU runs at another speed again.  Workers on one CPU,
measurements of `reps` warm launches each, alternated: a speed change falls on both checkouts'
neighbouring measurements, so the per-round ratio new / old (its median, and quartiles) is the
figure; the minimum over rounds (each checkout's undisturbed speed) is printed beside it.  Each
worker compiles its own checkout's code on first use (numba cache) before anything is timed.
Each process also has a speed of its own, steady for its life (the str grid 66-81 ms per launch
in six identical processes): `--pairs N` runs N worker pairs one after another and pools their
rounds, printing each pair's median too.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path


def probe_source(setup: str, body: str) -> str:
    """`score(n)` running `body` n times with `t` the int it returns (setup before the loop)."""
    lines = [f"    {s.strip()}" for s in setup.split(";") if s.strip()]
    return "def score(n: int) -> int:\n" + "".join(f"{x}\n" for x in lines) + (
        f"    t = 0\n    for i in range(n):\n        {body}\n    return t\n")


def worker() -> None:
    """Reads workload names (or `probe`) from stdin; prints the seconds per launch of each."""
    import numba

    from benchmarks.bench_vm import WORKLOADS
    from benchmarks.harness import grid_jobs, program_of
    from gpucc import vm
    from gpucc.compiler import compile_batch
    from gpucc.contract.image import LaunchLimits

    numba.set_num_threads(1)
    limits, ready = LaunchLimits(step_limit=50_000_000), {}
    reps, candidates = int(os.environ["ALT_REPS"]), int(os.environ["ALT_CANDIDATES"])
    for line in sys.stdin:
        name = line.strip()
        if name not in ready:
            if name == "probe":
                src = probe_source(os.environ["ALT_SETUP"], os.environ["ALT_PROBE"])
                sources, function, grid = [src] * candidates, "score", [(n,) for n in range(20, 161, 20)]
            else:
                make, function, grid = WORKLOADS[name]
                sources = make(candidates)
            batch = compile_batch(sources)
            ready[name] = (program_of(batch), grid_jobs(batch, function, grid))
        program, jobs = ready[name]
        vm.launch(program, jobs, "cpu", limits)  # warm
        t = time.perf_counter()
        for _ in range(reps):
            vm.launch(program, jobs, "cpu", limits)
        print((time.perf_counter() - t) / reps, flush=True)


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.alternate", description=__doc__.split("\n\n")[0])
    ap.add_argument("--old", required=True, type=Path)
    ap.add_argument("--new", default=Path("."), type=Path)
    ap.add_argument("--rounds", type=int, default=15)
    ap.add_argument("--reps", type=int, default=10, help="launches per measurement")
    ap.add_argument("--cpu", type=int, default=0, help="the CPU both workers are pinned to")
    ap.add_argument("--candidates", type=int, default=300)
    ap.add_argument("--workload", action="append", help="bench_vm's workloads (default: all four)")
    ap.add_argument("--probe", help="instead: a loop body adding to t (e.g. \"t += len(s[1:5])\")")
    ap.add_argument("--setup", default="", help="the probe's statements before its loop, ';'-separated")
    ap.add_argument("--pairs", type=int, default=1,
                    help="worker pairs, one after another, each running every round: a process's own speed "
                         "moves the str grid by up to 1.4x and the int grids by a few percent (cause not found)")
    args = ap.parse_args(argv)
    names = ["probe"] if args.probe else (args.workload or ["loop-heavy", "call-heavy", "str-heavy", "list-heavy"])
    env = {**os.environ, "ALT_REPS": str(args.reps), "ALT_CANDIDATES": str(args.candidates),
           "ALT_PROBE": args.probe or "", "ALT_SETUP": args.setup}  # fmt: skip
    times = {(n, label): [] for n in names for label in ("old", "new")}
    pair_medians = {n: [] for n in names}
    for _ in range(args.pairs):
        pair = run_pair(args, env, names)
        for name in names:
            old, new = pair[name, "old"], pair[name, "new"]
            times[name, "old"] += old
            times[name, "new"] += new
            pair_medians[name].append(statistics.median(b / a for a, b in zip(old, new)))
    print(f"{args.pairs} worker pair(s) x {args.rounds} rounds of {args.reps} launches per checkout, CPU {args.cpu}; "
          "ms per launch; ratio = new / old")
    for name in names:
        old, new = times[name, "old"], times[name, "new"]
        paired = sorted(b / a for a, b in zip(old, new))
        q = len(paired) // 4
        print(f"  {name:11s} old min {1e3 * min(old):8.2f}  new min {1e3 * min(new):8.2f}  ratio of mins "
              f"{min(new) / min(old):.3f}  per round: median {statistics.median(paired):.3f} "
              f"(quartiles {paired[q]:.3f} - {paired[-1 - q]:.3f})")  # fmt: skip
        if args.pairs > 1:
            print(f"  {'':11s} per pair: " + " ".join(f"{m:.3f}" for m in pair_medians[name]))


def run_pair(args, env: dict, names: list[str]) -> dict[tuple[str, str], list[float]]:
    """One worker per checkout, both pinned to args.cpu: `args.rounds` rounds of every workload
    -> (workload, "old" | "new") -> seconds per launch, one per round."""
    from benchmarks.interleave import interpreter  # not in the worker: the old checkout may not have it

    workers = {}
    for label, checkout in (("old", args.old.resolve()), ("new", args.new.resolve())):
        # this file runs the worker (the old checkout may not have it); the checkout's own code is imported
        cmd = ["taskset", "-c", str(args.cpu), interpreter(checkout), str(Path(__file__).resolve()), "--worker"]
        workers[label] = subprocess.Popen(cmd, cwd=checkout, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                                          env={**env, "PYTHONPATH": str(checkout)})  # fmt: skip

    def measure(label: str, name: str) -> float:
        w = workers[label]
        w.stdin.write(name + "\n")
        w.stdin.flush()
        line = w.stdout.readline()
        if not line:  # the worker died (its traceback is above): a workload bench_vm lacks, a compile error
            sys.exit(f"the {label} checkout's worker stopped at {name!r}")
        return float(line)

    for name in names:  # compile and warm both
        for label in workers:
            measure(label, name)
    times = {(n, label): [] for n in names for label in workers}
    for r in range(args.rounds):
        for name in names:
            for label in ("old", "new") if r % 2 == 0 else ("new", "old"):
                times[name, label].append(measure(label, name))
    for w in workers.values():
        w.stdin.close()
        w.wait()
    return times


if __name__ == "__main__":
    worker() if sys.argv[1:] == ["--worker"] else main()
