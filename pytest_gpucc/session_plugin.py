"""The ``--gpu-candidates`` run as a pytest plugin object: :class:`SessionPlugin`.

:mod:`pytest_gpucc.plugin` registers one per run in ``pytest_configure``, under the name
``gpucc-session`` (``config.pluginmanager.get_plugin("gpucc-session")``), as pytest-xdist
registers its ``DSession``; it unregisters itself at ``pytest_unconfigure``.  Its methods are
the hooks that need the run's state (its ``batch``, a :class:`~pytest_gpucc.session.GpuccSession`,
the samples and the results), so none of them runs without ``--gpu-candidates``.

It collects suite files (see :mod:`pytest_gpucc.suite`) into one item per (suite, candidate),
node id ``path/suite_gcd.py::euclid_mod.py``, so ``-k``, ``-x``, ``--junitxml`` work as usual.
With ``--gpucc-problems FILE`` it collects that problem file (:mod:`pytest_gpucc.problems`) into
one item per ``--gpucc-samples`` record whose task is one of its problems, node id
``FILE::HumanEval/0#12``; the sample of a problem that cannot be judged is SKIPPED with the
reason (``not run: ...``).
All selected candidates are compiled in one batch and run in one VM launch when collection
finishes (or, failing that, when the first candidate item runs).

Outcomes:

* a candidate that passes every test case PASSES;
* a failing candidate (failed assert, runtime error, step limit, compile or link error) in a
  suite that HAS a passing candidate is REJECTED (letter ``r``): reported with its reason, but
  not a test failure -- the suite is solved, this candidate is just not the answer;
* the candidates of a suite with NO passing candidate FAIL;
* ``--gpucc-strict``: every failing candidate FAILS.

The terminal summary ranks each suite's passing candidates by cost and gives each failing
one's reason in a line; with ``-v`` it adds their full reports (as a failure would show them),
with ``-q`` it is one line per suite.  Every consumer reads :meth:`SessionPlugin.results`, which
is rebuilt from the candidates' test reports (:mod:`pytest_gpucc.collect_results`), so it is the
same on the xdist controller as without xdist (:mod:`pytest_gpucc.distribute`).
"""

from __future__ import annotations

import fnmatch
from collections.abc import Callable
from pathlib import Path

import pytest

from pytest_gpucc import distribute
from pytest_gpucc.candidates import Sample, candidates_for, problem_file_notes, unmatched_task_ids
from pytest_gpucc.collect_results import ATTRIBUTE, MAIN, ResultsCollector, payload
from pytest_gpucc.lean_hooks import LeanHooks
from pytest_gpucc.problems import ProblemSet
from pytest_gpucc.report import NOT_RUN, CandidateOutcome, RunResults
from pytest_gpucc.session import GpuccSession, Options
from pytest_gpucc.suite import SuiteError, load_suite

PLUGIN_NAME = "gpucc-session"


class SessionPlugin:
    """The hooks of a ``--gpu-candidates`` run, bound to its batch, samples and results."""

    def __init__(self, config: pytest.Config, options: Options, samples: list[Sample], samples_path: Path | None,
                 problems: ProblemSet | None = None):  # fmt: skip
        self.config = config
        self.batch = GpuccSession(options, config.rootpath)
        self.samples = samples  # --gpucc-samples records, read from samples_path
        self.samples_path = samples_path
        self.problems = problems  # --gpucc-problems, read on every process (the xdist controller too)
        self.input_messages: list[str] = []  # unusable lines of the problem file, unknown task ids
        self.unknown_tasks: dict[str, str] = {}  # task_id: why its samples were not run
        if problems is not None:
            self.input_messages, self.unknown_tasks = problem_file_notes(problems, samples, samples_path)
        self.collector = ResultsCollector(options.strict)  # the results, rebuilt from reports
        self.run_info: dict | None = None  # this process's run info, once its batch ran
        self.lean_hooks: dict[Path, LeanHooks] = {}  # candidate items' hook relays by path, once the batch ran

    def results(self) -> RunResults | None:
        """The run's results, for every consumer (terminal, JSON, JUnit, HTML, hooks), rebuilt from
        the candidates' reports (see :mod:`pytest_gpucc.collect_results`), so the same with and
        without xdist; None on an xdist worker, or before any candidate reported."""
        if hasattr(self.config, "workerinput"):
            return None
        results = self.collector.results()
        if results is not None and self.input_messages:
            results.info.update(input_errors=self.input_messages, unknown_tasks=self.unknown_tasks)
        return results

    def collected_tasks(self) -> set[str]:
        """The tasks this process collected a suite for, and a problem file's tasks (known on
        every process; the xdist controller collects no suite files): the tasks of the
        candidates that were deselected are among them."""
        tasks = {e.task for e in self.batch.entries.values()}
        return tasks | set(self.problems.by_task()) if self.problems is not None else tasks

    # -- collection ------------------------------------------------------------------------

    def is_suite(self, path: Path) -> bool:
        return fnmatch.fnmatch(path.name, self.config.getini("gpucc_suite_glob"))

    def pytest_collect_file(self, file_path: Path, parent):
        if self.problems is not None and file_path.resolve() == self.problems.path.resolve():
            return ProblemsFile.from_parent(parent, path=file_path, session_plugin=self)
        if self.is_suite(file_path):
            return SuiteFile.from_parent(parent, path=file_path, session_plugin=self)
        return None

    @pytest.hookimpl(tryfirst=True)
    def pytest_pycollect_makemodule(self, module_path: Path, parent):
        """A suite named on the command line (``pytest --gpu-candidates suite_gcd.py``) is not also
        imported as a Python test module (its ``@cases`` is no Python name)."""
        if self.is_suite(module_path):
            return NotAPythonModule.from_parent(parent, path=module_path)
        return None

    def pytest_collection_finish(self, session):
        """Run the batch before the first item reports, so progress output stays clean."""
        if session.config.option.collectonly:
            return
        items = []
        for order, item in enumerate(session.items):
            if isinstance(item, CandidateItem):
                item.gpucc_order = order  # the same on every xdist worker: results come back in this order
                items.append(item)
        if items:
            try:
                self.run_batch(session, items)
            except Exception:  # reported by the first item that needs the batch
                pass

    # -- the batch -------------------------------------------------------------------------

    def run_batch(self, session, items) -> None:
        """Compile every selected candidate in one batch and run all their jobs in one launch."""
        items = distribute.my_share(session, items)
        selected = {(i.suite_key, i.name) for i in items if isinstance(i, CandidateItem)}
        tr = session.config.pluginmanager.get_plugin("terminalreporter")
        if session.config.get_verbosity() < 0:
            tr = None
        self.batch.run(selected, announce=None if tr is None else lambda line: tr.write_line(f"{line} ..."))
        t = self.batch.timings
        if tr is not None:
            tr.write_line(f"gpucc: compiled in {t['compile']:.2f} s, linked {self.batch.n_jobs} jobs in "
                          f"{t['link']:.2f} s, ran them in {t['launch']:.2f} s")  # fmt: skip
        if tr is not None and t["compile"] + t["launch"] > 10:
            tr.write_line("gpucc: the first run JIT-compiles the compiler and the VM with numba; later runs load "
                          "them from its cache")  # fmt: skip

    def item_hooks(self, item: CandidateItem, relay: Callable[[], object]):
        """A candidate item's hook relay (`relay()`: pytest's): once the batch ran, without the
        phase wrappers that capture output and logs (see :mod:`pytest_gpucc.lean_hooks`)."""
        if not self.batch.ran or self.batch.error is not None:  # its call may still run the batch
            return relay()
        if item.path not in self.lean_hooks:
            self.lean_hooks[item.path] = LeanHooks(relay(), self.config.pluginmanager)
        return self.lean_hooks[item.path]

    # -- reports ---------------------------------------------------------------------------

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_makereport(self, item, call):
        rep = yield
        exc = call.excinfo.value if call.excinfo is not None else None
        if rep.when == "call" and isinstance(exc, CandidateFailed) and exc.outcome.rejected:
            rep.outcome = "passed"
            rep.longrepr = None
            rep.gpucc_rejected = True
            rep.sections.append(("gpucc rejected", f"{exc.outcome.status}\n{exc.outcome.detail}"))
        if rep.when == "call" and isinstance(item, CandidateItem):
            if rep.skipped:  # not run: located at the problem file, so pytest folds equal reasons
                rep.longrepr = (str(item.path), None, rep.longrepr[2])
            self.attach_outcome(item, rep)
        return rep

    def attach_outcome(self, item: CandidateItem, rep) -> None:
        """Put the candidate's outcome and this process's run info on its report (see collect_results)."""
        outcome = self.batch.outcomes.get((item.suite_key, item.name))
        if outcome is None:
            return
        if self.run_info is None:
            self.run_info = self.batch.json_info()
        worker = getattr(self.config, "workerinput", {}).get("workerid", MAIN)
        task = self.batch.entries[item.suite_key].task
        order = getattr(item, "gpucc_order", len(item.session.items))
        reference = self.batch.references.get(item.suite_key)
        setattr(rep, ATTRIBUTE, payload(outcome, task, order, worker, self.run_info, reference))

    def pytest_report_teststatus(self, report, config):
        if report.when == "call" and getattr(report, "gpucc_rejected", False):
            return "rejected", "r", ("REJECTED", {"yellow": True})
        return None

    def pytest_terminal_summary(self, terminalreporter, exitstatus, config):
        results = self.results()
        if results is None:
            return
        terminalreporter.write_sep("=", "gpucc summary")
        for line, markup in results.summary_rows(config.get_verbosity()):
            terminalreporter.write_line(line, **markup)
        for line in self.input_messages:
            terminalreporter.write_line(f"gpucc: {line}", yellow=True)
        tasks = {s.task for s in results.summaries} | self.collected_tasks()
        unmatched = [] if self.problems else unmatched_task_ids(self.samples, tasks)
        if unmatched:
            terminalreporter.write_line(f"samples whose task_id matches no collected suite: {', '.join(unmatched)}")

    def pytest_sessionfinish(self, session, exitstatus):
        results = self.results()
        if results is None:  # no candidate reported, or an xdist worker (the controller has them)
            return
        session.config.hook.pytest_gpucc_results(config=session.config, results=results)
        json_path = session.config.getoption("gpucc_json")
        if json_path:
            results.write_json(json_path)

    def pytest_unconfigure(self, config):
        config.pluginmanager.unregister(self)


class NotAPythonModule(pytest.File):
    """Stands in for the Python module pytest would make of a suite: collects nothing."""

    def collect(self):
        return []


class GpuccFile(pytest.File):
    """A file the session plugin collects (its candidates' items reach the plugin through it)."""

    def __init__(self, *, session_plugin: SessionPlugin, **kwargs):
        super().__init__(**kwargs)
        self.session_plugin = session_plugin


class SuiteFile(GpuccFile):
    """A suite file: one :class:`CandidateItem` per candidate."""

    def collect(self):
        sp = self.session_plugin
        with sp.batch.timed("collect"):
            try:
                suite = load_suite(self.path)
            except SuiteError as e:
                raise self.CollectError(f"bad gpucc suite: {e}") from None
            cands = candidates_for(suite, sp.samples, sp.samples_path)
        if not cands:
            raise self.CollectError(
                f"{self.path}: no candidates: expected *.py files in {suite.candidates_dir.name}/ next to the "
                f"suite, or --gpucc-samples records with task_id {suite.task!r}"
            )
        entry = sp.batch.add(suite, cands)
        for c in cands:
            yield CandidateItem.from_parent(self, name=c.name, suite_key=entry.display)


class ProblemsFile(GpuccFile):
    """A --gpucc-problems file: one :class:`CandidateItem` per sample of each of its problems."""

    def collect(self):
        sp = self.session_plugin
        with sp.batch.timed("collect"):
            entries = sp.batch.add_problems(sp.problems, sp.samples, sp.samples_path)
        for entry in entries:
            for c in entry.candidates:
                yield CandidateItem.from_parent(self, name=c.name, suite_key=entry.display)


class CandidateFailed(Exception):
    def __init__(self, outcome: CandidateOutcome):
        super().__init__(outcome.reason)
        self.outcome = outcome


class CandidateItem(pytest.Item):
    """One (suite, candidate): passes, is rejected or fails as its outcome in the batch says."""

    def __init__(self, *, suite_key: str, **kwargs):
        super().__init__(**kwargs)
        self.suite_key = suite_key

    @property
    def ihook(self):
        return self.parent.session_plugin.item_hooks(self, lambda: super(CandidateItem, self).ihook)

    def runtest(self):
        sp = self.parent.session_plugin
        if not sp.batch.ran or sp.batch.error is not None:
            sp.run_batch(self.session, self.session.items or [self])
        if (self.suite_key, self.name) not in sp.batch.outcomes:  # xdist moved it here from a crashed worker
            raise RuntimeError(f"gpucc: {self.nodeid} was not in this process's batch (each xdist worker "
                               "compiles its own suites once); rerun the suite")  # fmt: skip
        outcome = sp.batch.outcome(self.suite_key, self.name)
        if outcome.status == NOT_RUN:
            pytest.skip(f"not run: {outcome.reason}")
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
