"""The batch flow of a run, the one the pytest plugin (:mod:`pytest_gpucc.session_plugin`) and
``gpucc run`` (:mod:`pytest_gpucc.cli`) both go through: :class:`GpuccSession` takes the suites
and their candidates (:meth:`~GpuccSession.add`, collection :meth:`~GpuccSession.timed`),
compiles them in ONE compile call, links them and runs them in ONE VM launch
(:meth:`~GpuccSession.run`), then reads each candidate's outcome from the results
(:meth:`~GpuccSession.outcome`).  Both front ends print the summary of a
:class:`~pytest_gpucc.report.RunResults` (``summary_rows``): ``gpucc run`` takes it from
:meth:`~GpuccSession.results`, the plugin rebuilds it from the candidates' test reports (the
same with and without xdist, :mod:`pytest_gpucc.collect_results`).

A problem file's suite (:mod:`pytest_gpucc.problems`) may bring its canonical solution
(``reference``), which runs as one more candidate of the same launch and decides its samples'
verdicts (:mod:`pytest_gpucc.problem_verdicts`); a problem that cannot be stated has no suite,
only the reason, and its candidates are ``not run`` (:meth:`~GpuccSession.add_not_run`).

Identical sources (a candidate submitted twice, the same file in two suites) are one unit:
compiled once, and run once per suite.  Timings of the phases (collect, compile, link,
launch, report) and the number of VM launches are recorded for the summary and JSON.
"""

from __future__ import annotations

import dataclasses
import os
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from gpucc.contract import status as st
from gpucc.contract.image import LaunchLimits, Program
from gpucc.contract.isa import ASSERT_KEYED, ASSERT_VALUE
from gpucc.contract.transfer import TransferCounter, run_info
from gpucc.contract.typecodes import is_heap
from gpucc.vm.link import SuiteLink, link
from pytest_gpucc import fallback, neural_mode, problem_verdicts, report
from pytest_gpucc.candidates import Candidate, Sample, by_task, for_problem, sample_name
from pytest_gpucc.fallback import DEFAULT_TIMEOUT
from pytest_gpucc.heap_values import REPLAY_STEPS, Replayer, compared, wants_replay
from pytest_gpucc.problems import Problem, ProblemSet
from pytest_gpucc.suite import Suite

DEFAULT_HEAP_WORDS = LaunchLimits().heap_size


@dataclass
class Options:
    backend: str = "cpu"
    step_limit: int = 1_000_000
    heap_words: int = DEFAULT_HEAP_WORDS  # each job's garbage-collected heap
    strict: bool = False
    fallback: str | None = None  # "cpython": run the samples the compiler cannot take as Python (pytest_gpucc.fallback)
    fallback_workers: int = 0  # its child processes at a time (0: one per core)
    fallback_timeout: float = DEFAULT_TIMEOUT  # seconds per sample
    compiler: str = "traditional"  # or "neural": k samples per candidate (pytest_gpucc.neural_mode)
    neural_k: int = neural_mode.DEFAULT_K
    neural_checkpoint: str | None = None  # None: the shipped one


@dataclass
class SuiteEntry:
    suite: Suite | None  # None: a problem that cannot be stated (not_run says why)
    candidates: list[Candidate]
    display: str  # how reports name the suite: its path relative to the rootdir
    task: str
    reference: Candidate | None = None  # a problem's canonical solution
    not_run: str | None = None
    problem: Problem | None = None  # a problem file's problem, and its samples' completions by candidate name
    completions: dict[str, str] = field(default_factory=dict)


@dataclass
class _Plan:
    """The units of one batch: sources and which unit each suite / candidate is."""

    sources: list[str] = field(default_factory=list)
    unit_of: dict[str, int] = field(default_factory=dict)

    def unit(self, source: str) -> int:
        if source not in self.unit_of:
            self.unit_of[source] = len(self.sources)
            self.sources.append(source)
        return self.unit_of[source]


def backend_name(backend: str) -> str:
    """The concrete backend: auto = cuda when a real CUDA device is usable, else cpu."""
    if backend != "auto":
        return backend
    from gpucc.vm.devices import cuda_available

    return "cuda" if cuda_available() else "cpu"


def device_name(backend: str) -> str:
    """What runs the batch, for reports: the CUDA device's name, or the CPU model and cores."""
    if backend == "cuda":
        if os.environ.get("NUMBA_ENABLE_CUDASIM", "0") not in ("", "0"):
            return "numba CUDA simulator"
        try:
            from numba import cuda

            name = cuda.get_current_device().name
            return name.decode() if isinstance(name, bytes) else str(name)
        except Exception:  # a device that went away: still a report line
            return "CUDA device"
    model = ""
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            model = next((ln.split(":", 1)[1].strip() for ln in f if ln.startswith("model name")), "")
    except OSError:
        pass
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return f"{model or 'CPU'}, {cores} cores"


def auto_backend_note(backend: str) -> str | None:
    """Why ``--gpucc-backend auto`` runs on the CPU (None when it was not asked for, or found CUDA)."""
    if backend != "auto" or backend_name(backend) != "cpu":
        return None
    return "no usable CUDA device (an NVIDIA GPU, its driver and numba-cuda): running on the CPU"


class GpuccSession:
    """One run's batch: its suites and candidates, the compile / link / launch, the outcomes."""

    def __init__(self, options: Options, rootpath: Path | None = None):
        self.options = options
        self.rootpath = Path(rootpath or os.getcwd())
        self.entries: dict[str, SuiteEntry] = {}  # by suite display name, in collection order
        self.timings = {"collect": 0.0, "compile": 0.0, "link": 0.0, "launch": 0.0, "report": 0.0}
        if options.fallback:
            self.timings["fallback"] = 0.0
        if options.compiler == "neural":
            self.timings["neural"] = 0.0
        self.sampled: neural_mode.Sampled | None = None
        self.launches = 0
        self.n_jobs = 0
        self.n_units = 0
        self.n_candidate_sources = 0
        self.error: BaseException | None = None
        self.outcomes: dict[tuple[str, str], report.CandidateOutcome] = {}
        self.references: dict[str, dict] = {}  # by suite display: what a problem's canonical solution did
        self.summaries: list[report.SuiteSummary] = []
        self.ran = False
        self.transfers = TransferCounter()  # host<->device copies (cuda backend)

    def display(self, path: Path) -> str:
        try:
            return str(Path(path).resolve().relative_to(self.rootpath.resolve()))
        except ValueError:
            return str(path)

    @contextmanager
    def timed(self, phase: str) -> Iterator[None]:
        """Add the time the block takes to phase `phase` (collect, compile, link, launch, report)."""
        t = time.perf_counter()
        try:
            yield
        finally:
            self.timings[phase] += time.perf_counter() - t

    def add(self, suite: Suite, candidates: list[Candidate], display: str | None = None,
            reference: Candidate | None = None) -> SuiteEntry:  # fmt: skip
        """A suite and its candidates (`display` defaults to the suite file's path; a problem
        file's suite names itself, and may bring its canonical solution as `reference`)."""
        entry = SuiteEntry(suite, candidates, display or self.display(suite.path), suite.task, reference)
        self.entries[entry.display] = entry
        return entry

    def add_not_run(self, display: str, task: str, candidates: list[Candidate], reason: str) -> SuiteEntry:
        """A problem that cannot be stated: its candidates are reported ``not run: <reason>``."""
        entry = SuiteEntry(None, candidates, display, task, not_run=reason)
        self.entries[display] = entry
        return entry

    def add_problems(self, problems: ProblemSet, samples: list[Sample], samples_path: Path) -> list[SuiteEntry]:
        """Each problem of a problem file that has samples, in file order, named
        ``<problems file>::<task_id>``: its suite, samples and canonical solution, or (a problem
        that cannot be stated) its samples and the reason."""
        mine = by_task(samples)
        prefix = self.display(problems.path)
        entries = []
        for p in problems.problems:
            if p.task_id not in mine:
                continue
            cands, reference = for_problem(p, mine[p.task_id], samples_path)
            display = f"{prefix}::{p.task_id}"
            if p.suite is None:
                entries.append(self.add_not_run(display, p.task_id, cands, p.reason))
            else:
                entries.append(self.add(p.suite, cands, display, reference))
            entries[-1].problem = p
            entries[-1].completions = {sample_name(s): s.completion for s in mine[p.task_id]}
        return entries

    # -- the batch -------------------------------------------------------------------------

    def run(self, selected: set[tuple[str, str]] | None = None, announce: Callable[[str], None] | None = None) -> None:
        """Compile, link and launch once for the selected (suite, candidate) pairs (all if None);
        first, `announce` gets a line saying how many candidates on which backend.

        Later calls do nothing, or re-raise what the first one raised."""
        if self.error is not None:
            raise RuntimeError("the gpucc batch failed (see the first failing candidate)") from self.error
        if self.ran:
            return
        self.ran = True
        try:
            self._run(selected, announce)
        except BaseException as exc:
            self.error = exc
            raise

    def _run(self, selected, announce) -> None:
        chosen = []
        for e in self.entries.values():
            cands = [c for c in e.candidates if selected is None or (e.display, c.name) in selected]
            if cands:
                chosen.append(dataclasses.replace(e, candidates=cands))
        entries = [e for e in chosen if e.not_run is None]
        plan = _Plan()
        suite_units = [plan.unit(e.suite.device_source) for e in entries]
        for e in entries:
            for c in _compiled(e):
                plan.unit(c.source)
        self.n_units = len(plan.sources)
        self.n_candidate_sources = len({c.source for e in entries for c in e.candidates if c.error is None})
        backend = backend_name(self.options.backend)
        if announce is not None:
            n = report.plural(sum(len(e.candidates) for e in entries), "candidate")
            how = f" (and {self.options.neural_k} neural samples each)" if self.options.compiler == "neural" else ""
            announce(f"gpucc: compiling {n} in one batch{how}, then one VM launch ({backend} backend)")
        if not entries:
            self._record(chosen, {}, announce)
            return

        from gpucc import vm
        from gpucc.compiler.batch import compile_batch

        with self.timed("compile"):
            if backend == "cuda" and self.options.compiler != "neural":  # code stays on the device (vm/cuda.py)
                from gpucc.compiler.cuda_batch import compile_batch_resident

                batch = compile_batch_resident(plan.sources, self.transfers)
            else:
                batch = compile_batch(plan.sources, backend=backend)
        if self.options.compiler == "neural":
            with self.timed("neural"):
                candidate_units = sorted({plan.unit_of[c.source] for e in entries for c in e.candidates if c.error is None})
                self.sampled = neural_mode.sample_units(batch, candidate_units, self.options.neural_k,
                                                        self.options.neural_checkpoint)  # fmt: skip
                batch = self.sampled.batch

        with self.timed("link"):
            program = Program.from_batch(batch)
            links = []
            for su, e in zip(suite_units, entries):
                tests = [(x.name, x.cases) for x in e.suite.tests]
                units = {plan.unit_of[c.source] for c in _compiled(e)}
                samples = self.sampled.units if self.sampled else {}
                links.append(SuiteLink(su, tests, sorted(units.union(*(samples.get(u, []) for u in units)))))
            linked = link(batch, program, links)
            self.n_jobs = len(linked.jobs)

        results = None
        limits = LaunchLimits(step_limit=self.options.step_limit, heap_size=self.options.heap_words)
        self.replayer = Replayer(program, linked.jobs, limits)
        if self.n_jobs:
            with self.timed("launch"):
                results = vm.launch(program, linked.jobs, backend=backend, limits=limits)
                self.launches += int(getattr(results, "launches", 1))
                if "transfer" in results.meta:
                    self.transfers.add(results.meta["transfer"])

        with self.timed("report"):
            judged = {}
            for s, (su, e) in enumerate(zip(suite_units, entries)):
                outs = [self._outcome(batch, linked, results, s, su, e, c, plan) for c in e.candidates]
                if self.sampled is not None:
                    outs = [self._neural(batch, linked, results, s, su, e, c, o, plan) for c, o in zip(e.candidates, outs)]
                for o, c in zip(outs, e.candidates):
                    o.source_text = c.source
                reference = None
                if e.suite.prompt is not None:  # a problem file's suite
                    ref = None if e.reference is None else self._outcome(batch, linked, results, s, su, e,
                                                                          e.reference, plan)  # fmt: skip
                    outs, reference = problem_verdicts.judge(outs, ref, self.options.step_limit)
                judged[e.display] = (outs, reference)
        self._record(chosen, judged, announce)

    def _record(self, entries: list[SuiteEntry], judged: dict, announce: Callable[[str], None] | None) -> None:
        """Record every entry's outcomes and summary, in order: the `judged` ones' (display:
        (outcomes, reference info)), and the not-run ones'; with the fallback, those it takes
        run on CPython first."""
        outcomes = {e.display: judged[e.display] if e.not_run is None else
                    ([report.not_run(e.display, c.name, c.filename, e.not_run) for c in e.candidates], None)
                    for e in entries}  # fmt: skip
        if self.options.fallback:
            with self.timed("fallback"):
                self._on_cpython(entries, outcomes, announce or (lambda line: None))
        with self.timed("report"):
            for e in entries:
                outs, reference = outcomes[e.display]
                for o in outs:
                    self.outcomes[(e.display, o.name)] = o
                if reference is not None:
                    self.references[e.display] = reference
                self.summaries.append(report.summarize(e.display, outs, self.options.strict, e.task, reference))

    def _on_cpython(self, entries: list[SuiteEntry], outcomes: dict, announce: Callable[[str], None]) -> None:
        """Replace in `outcomes` each not-run outcome the CPython fallback takes by its verdict."""
        picked = [(e, i) for e in entries for i, o in enumerate(outcomes[e.display][0])
                  if fallback.takes(e.problem, e.not_run, o)]  # fmt: skip
        samples = [(outcomes[e.display][0][i], e.problem, e.completions[outcomes[e.display][0][i].name])
                   for e, i in picked]  # fmt: skip
        judged = fallback.rerun(samples, self.options.fallback_timeout, self.options.fallback_workers, announce)
        for (e, i), o in zip(picked, judged):
            outcomes[e.display][0][i] = o

    def results(self) -> report.RunResults:
        """This process's results: each suite's summary and the run info."""
        return report.RunResults(self.summaries, self.json_info())

    def outcome(self, suite_display: str, name: str) -> report.CandidateOutcome:
        return self.outcomes[(suite_display, name)]

    # -- outcomes --------------------------------------------------------------------------

    def _candidate_filename(self, c: Candidate) -> str:
        return self.display(c.path) if c.path is not None and c.path.suffix == ".py" else c.filename

    def _neural(self, batch, linked, results, s, su, e: SuiteEntry, c: Candidate, traditional, plan: _Plan):
        """Candidate c's neural-mode outcome: its samples' outcomes judged (neural_mode.judge)."""
        u = plan.unit_of.get(c.source)
        if c.error is not None or not batch.ok(u):
            return neural_mode.judge(traditional, self.options.neural_k, [], [], [], "the traditional front end "
                                     "rejects the source (names and types come from it)")  # fmt: skip
        if u in self.sampled.reasons:
            return neural_mode.judge(traditional, self.options.neural_k, [], [], [], self.sampled.reasons[u])
        units = self.sampled.units[u]
        outs = [self._outcome(batch, linked, results, s, su, e, c, plan, unit=us) for us in units]
        faithful = [(s, us) in linked.ranges and (s, u) in linked.ranges
                    and neural_mode.same_outcome(results, linked.ranges[(s, u)], linked.ranges[(s, us)])
                    for us in units]  # fmt: skip
        return neural_mode.judge(traditional, self.options.neural_k, outs, faithful, self.sampled.problems[u], None)

    def _outcome(self, batch, linked, results, s, su, e: SuiteEntry, c: Candidate, plan: _Plan, unit: int | None = None):
        """Candidate c's outcome from its unit's jobs (`unit`: another unit for its source, a neural sample)."""
        fname = self._candidate_filename(c)
        if not batch.ok(su):
            return report.from_error(e.display, c.name, fname, report.SUITE_ERROR, _compile_error(batch, su, e.display))
        if c.error is not None:
            return report.from_error(e.display, c.name, fname, report.SYNTAX_ERROR, c.error)
        u = plan.unit_of[c.source] if unit is None else unit
        if not batch.ok(u):
            return report.from_error(e.display, c.name, fname, report.COMPILE_ERROR, _compile_error(batch, u, fname))
        if (s, u) in linked.errors:
            return report.from_error(e.display, c.name, fname, report.LINK_ERROR, linked.errors[(s, u)])
        lo, hi = linked.ranges[(s, u)]
        files = {su: (e.display, e.suite.device_source), u: (fname, c.source)}  # where a job can fail
        jobs = [self._job(results, j, e.suite, linked, files, su) for j in range(lo, hi)]
        first = next((k for k, job in enumerate(jobs) if not job.ok), None)  # the one the report shows
        if first is not None:
            job = jobs[first]
            types = compared(job.op, job.arg, job.constant)
            if wants_replay(job.op, types, job.status, job.steps):
                job.shown = self.replayer.operands(lo + first, types)
        for k, job in enumerate(jobs):  # heap values returned: read on a replay (pytest_gpucc.heap_values)
            if job.ok and is_heap(job.ret_type) and job.steps <= REPLAY_STEPS:
                job.returned = self.replayer.returned(lo + k, job.ret_type)
        return report.from_jobs(e.display, c.name, fname, jobs, self.options.step_limit)

    def _job(self, r, j: int, suite: Suite, linked, files: dict, suite_unit: int) -> report.JobRecord:
        test = suite.tests[int(linked.job_test[j])]
        case = int(linked.job_case[j])
        rec = report.JobRecord(test.name, case, test.describe(case), list(test.cases[case]), int(r.status[j]),
                               int(r.value[j]), int(r.cost[j]), int(r.steps[j]),
                               ret_type=int(self.replayer.program.func_ret_type[linked.jobs.func[j]]),
                               heap_peak_words=int(r.heap_peak_words[j]))  # fmt: skip
        if rec.status != st.OK:
            unit, line = int(r.fail_unit[j]), int(r.fail_line[j])
            rec.line, rec.lhs, rec.rhs, rec.arg = line, int(r.fail_lhs[j]), int(r.fail_rhs[j]), int(r.fail_arg[j])
            rec.op = int(r.fail_op[j])
            if rec.op == ASSERT_VALUE or rec.op == ASSERT_KEYED:
                rec.constant = self.replayer.constant(unit, rec.arg)
            if unit in files and line > 0:
                name, source = files[unit]
                rec.location = f"{name}:{line}"
                rec.source_line = _source_line(source, line)
                rec.in_suite = unit == suite_unit
        return rec

    # -- reports ---------------------------------------------------------------------------

    def json_info(self) -> dict:
        """The run-level fields of the JSON: backend, device, launches, jobs, units, limits, timings."""
        return {
            "backend": backend_name(self.options.backend),
            "device": device_name(backend_name(self.options.backend)),
            "launches": self.launches,
            "jobs": self.n_jobs,
            "units": self.n_units,
            "candidate_sources": self.n_candidate_sources,
            "backend_note": auto_backend_note(self.options.backend),
            "step_limit": self.options.step_limit,
            "heap_words": self.options.heap_words,
            "strict": self.options.strict,
            "compiler": self.options.compiler,
            **({"neural_k": self.options.neural_k} if self.options.compiler == "neural" else {}),
            "timings": dict(self.timings),
            "transfer": run_info(backend_name(self.options.backend), self.transfers),
            **({"fallback": self.options.fallback, "fallback_timeout": self.options.fallback_timeout}
               if self.options.fallback else {}),
        }


def _compiled(e: SuiteEntry) -> list[Candidate]:
    """The candidates of `e` that go to the compiler (its reference too; not those CPython
    cannot parse)."""
    return [c for c in e.candidates + [e.reference] * (e.reference is not None) if c.error is None]


def _source_line(source: str, line: int) -> str | None:
    """Line `line` (1-based) of `source`, stripped; None past the end."""
    start = 0
    for _ in range(line - 1):
        start = source.find("\n", start) + 1
        if start == 0:
            return None
    end = source.find("\n", start)
    return source[start : len(source) if end < 0 else end].strip()


def _compile_error(batch, u: int, filename: str) -> str:
    return batch.error(u, filename).format()
