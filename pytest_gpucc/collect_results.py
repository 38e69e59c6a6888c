"""The run's results, rebuilt from test reports: one path with and without xdist.

Each candidate item's ``call`` report carries ``report.gpucc``, a dict of plain builtins (so
xdist serialises it with the report, like any extra report attribute):

* ``outcome``: every :class:`~pytest_gpucc.report.CandidateOutcome` field, its jobs as dicts of
  every :class:`~pytest_gpucc.report.JobRecord` field (:func:`outcome_dict`: so a field added
  later travels too; it must hold JSON-like values);
* ``task``: the suite's task name; ``order``: the item's index in the collection (the same on
  every xdist worker), so suites and candidates come back in collection order;
* ``worker`` and ``run``: which process launched the batch and its run info (backend, device,
  launches, jobs, units, timings, ...);
* ``reference``: for a problem file's suite, what its canonical solution did (else None).

The process that logs the reports (pytest itself, or the xdist controller) feeds them to a
:class:`ResultsCollector`, which re-ranks each suite with :func:`report.summarize` and merges the
workers' run info; :meth:`pytest_gpucc.session_plugin.SessionPlugin.results` returns what it
builds.
"""

from __future__ import annotations

import dataclasses

import pytest

from pytest_gpucc.report import (
    CandidateOutcome,
    JobRecord,
    RunResults,
    SuiteSummary,
    summarize,
)

ATTRIBUTE = "gpucc"  # the report attribute that carries a candidate's payload
MAIN = "main"  # the worker id of a run without xdist
SUMMED = ("launches", "jobs", "units", "candidate_sources")  # run info that adds up over workers
OUTCOME_FIELDS = tuple(f.name for f in dataclasses.fields(CandidateOutcome))
JOB_FIELDS = tuple(f.name for f in dataclasses.fields(JobRecord))


def payload(outcome: CandidateOutcome, task: str, order: int, worker: str, run: dict,
            reference: dict | None = None) -> dict:  # fmt: skip
    """What one candidate's report carries (builtins only)."""
    return {"outcome": outcome_dict(outcome), "task": task, "order": order, "worker": worker, "run": run,
            "reference": reference}  # fmt: skip


def outcome_dict(outcome: CandidateOutcome) -> dict:
    """``dataclasses.asdict(outcome)`` without its deep copy of every value, which made it the
    largest per-candidate cost of a run (field values are builtins already; a job's ``args``
    list is shared, not copied)."""
    data = {name: getattr(outcome, name) for name in OUTCOME_FIELDS}
    data["jobs"] = [{name: getattr(job, name) for name in JOB_FIELDS} for job in outcome.jobs]
    return data


def outcome_from_dict(data: dict) -> CandidateOutcome:
    """The inverse of :func:`outcome_dict` (keys it does not know are dropped)."""
    fields = {k: data[k] for k in OUTCOME_FIELDS if k in data}
    fields["jobs"] = [JobRecord(**j) for j in data.get("jobs", [])]
    return CandidateOutcome(**fields)


def merge_run_info(runs: dict[str, dict]) -> dict:
    """One run info from each worker's: counts add up (``SUMMED``), each phase timing is the
    slowest worker's (workers run side by side), other values are kept when every worker
    agrees and listed otherwise; ``workers`` says how many processes launched."""
    infos = list(runs.values())
    merged: dict = {}
    for key in dict.fromkeys(k for info in infos for k in info):
        values = [info[key] for info in infos if key in info]
        if key in SUMMED:
            merged[key] = sum(values)
        elif key == "timings":
            merged[key] = {phase: max(t.get(phase, 0.0) for t in values) for phase in values[0]}
        else:
            distinct = [v for i, v in enumerate(values) if v not in values[:i]]
            merged[key] = distinct[0] if len(distinct) == 1 else distinct
    merged["workers"] = len(infos)
    return merged


class ResultsCollector:
    """A plugin that collects the payloads of logged reports (here, or on the xdist controller)
    and builds the RunResults: each payload is decoded once, and only the suites that got a new
    report since the last build are ranked again."""

    def __init__(self, strict: bool):
        self.strict = strict
        self._suites: dict[str, dict[str, tuple[int, CandidateOutcome]]] = {}  # suite: name: (order, outcome)
        self._tasks: dict[str, str] = {}
        self._references: dict[str, dict | None] = {}
        self._summaries: dict[str, SuiteSummary] = {}
        self._runs: dict[str, dict] = {}
        self._changed: set[str] = set()
        self._results: RunResults | None = None

    @pytest.hookimpl(tryfirst=True)  # before other plugins (pytest-html's rows) read the results
    def pytest_runtest_logreport(self, report) -> None:
        data = getattr(report, ATTRIBUTE, None)
        if report.when != "call" or not isinstance(data, dict):
            return
        outcome = outcome_from_dict(data["outcome"])
        self._suites.setdefault(outcome.suite, {})[outcome.name] = (data["order"], outcome)  # a rerun replaces
        self._tasks[outcome.suite] = data["task"]
        self._references[outcome.suite] = data.get("reference")
        self._runs[data["worker"]] = data["run"]
        self._changed.add(outcome.suite)
        self._results = None

    def results(self) -> RunResults | None:
        """The results of the reports seen so far (the same object until another arrives)."""
        if self._results is None and self._suites:
            for name in self._changed:
                outcomes = [o for _, o in sorted(self._suites[name].values(), key=lambda x: x[0])]
                task, reference = self._tasks[name], self._references[name]
                self._summaries[name] = summarize(name, outcomes, self.strict, task, reference)
            self._changed.clear()
            first = {name: min(order for order, _ in c.values()) for name, c in self._suites.items()}
            summaries = [self._summaries[name] for name in sorted(first, key=first.get)]
            self._results = RunResults(summaries, merge_run_info(self._runs))
        return self._results
