"""Outcomes, ranking and summaries: pure functions from per-job records to text and JSON.

A candidate's cost is the sum over all its jobs of the deterministic cost (weighted VM
instruction count) of the candidate's own code: the suite's test code is not counted (see
contract.image.Results), so ranking and x-factors compare the candidates' own work.  Passing
candidates rank by (cost, name).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from gpucc.contract import status as st
from gpucc.contract.isa import CMP_NAMES
from pytest_gpucc.heap_values import compared, placeholder

PASSED, FAILED, ERROR, TIMEOUT = "passed", "failed", "error", "timeout"
NOT_RUN = "not run"  # a problem file's sample with no verdict (pytest_gpucc.problem_verdicts)
COMPILE_ERROR, LINK_ERROR, SUITE_ERROR = "compile error", "link error", "suite error"
SYNTAX_ERROR = "syntax error"  # a problem file's sample CPython cannot parse (found before compiling)
VM, CPYTHON = "vm", "cpython"  # the engines: the gpucc path, the CPython fallback (pytest_gpucc.fallback)


@dataclass
class JobRecord:
    """One (test, case) job of a candidate, with its failure located in source."""

    test: str  # test function name
    case: int  # case index
    call: str  # e.g. "test_table(a=12, b=18, want=6)"
    args: list  # the case's values
    status: int  # contract.status code
    value: int = 0
    cost: int = 0
    steps: int = 0
    location: str | None = None  # "path:line" of the failing instruction
    source_line: str | None = None  # its source text, stripped
    in_suite: bool | None = None  # failing instruction in the suite (True) or candidate
    line: int = -1
    lhs: int = 0
    rhs: int = 0
    arg: int = 0  # operand of the failing instruction (ASSERT_CMP: cmp + 8 * type)
    constant: int | None = None  # a failed ASSERT_VALUE's typed_values constant (its comparison and types)
    ret_type: int = 0  # the packed type the job's function returns
    returned: str | None = None  # its returned value's repr, when a replay read it (pytest_gpucc.heap_values)
    op: int = -1  # opcode of the failing instruction, -1 if none
    budget: int | None = None  # a problem's step budget this job went over (status STEP_LIMIT)
    shown: tuple[str, str] | None = None  # a failed assert's operands as repr (pytest_gpucc.heap_values)
    heap_peak_words: int = 0  # the job heap's high-water mark (contract.image.Results)

    @property
    def ok(self) -> bool:
        return self.status == st.OK


@dataclass
class CandidateOutcome:
    suite: str  # the suite's display name
    name: str
    filename: str
    status: str  # PASSED, FAILED, ERROR, TIMEOUT, COMPILE_ERROR, LINK_ERROR, SUITE_ERROR, SYNTAX_ERROR, NOT_RUN
    reason: str = ""  # one line, empty when passed
    detail: str = ""  # the failure report
    cost: int | None = None
    steps: int | None = None
    jobs: list[JobRecord] = field(default_factory=list)
    rank: int | None = None
    rejected: bool = False  # failed, but the suite has a passing candidate (not a run failure)
    source_text: str = ""  # the source that was compiled (--gpucc-best-dir writes it)
    engine: str | None = VM  # what judged it: VM or CPYTHON; None when not run
    neural: dict | None = None  # --gpucc-compiler neural: its samples' figures (pytest_gpucc.neural_mode)

    @property
    def passed(self) -> bool:
        return self.status == PASSED


@dataclass
class SuiteSummary:
    name: str  # the suite's display name (its path)
    outcomes: list[CandidateOutcome]  # in collection order
    ranked: list[CandidateOutcome]  # passing ones, fastest first
    task: str = ""
    reference: dict | None = None  # a problem's canonical solution (pytest_gpucc.problem_verdicts.judge)

    @property
    def judged(self) -> list[CandidateOutcome]:
        """The outcomes with a verdict (not ``not run``)."""
        return [o for o in self.outcomes if o.status != NOT_RUN]

    @property
    def passing(self) -> list[CandidateOutcome]:
        """The passing outcomes: the ranked ones and those passed on CPython (no cost to rank)."""
        return [o for o in self.outcomes if o.passed]

    @property
    def fastest(self) -> CandidateOutcome | None:
        return self.ranked[0] if self.ranked else None

    @property
    def slowest(self) -> CandidateOutcome | None:
        return self.ranked[-1] if self.ranked else None

    @property
    def speedup(self) -> float | None:
        """How many times faster the fastest passing candidate is than the slowest."""
        if not self.ranked:
            return None
        return self.slowest.cost / max(self.fastest.cost, 1)


@dataclass
class RunResults:
    """What one run found, as every consumer (terminal, JSON, JUnit, HTML, harness hooks,
    pass@k, best-dir, compare, ``gpucc run``) reads it: each suite's summary and the run's info
    (backend, launches, jobs, units, timings, ...).  Built from the candidates' test reports by
    :class:`pytest_gpucc.collect_results.ResultsCollector`, and by ``gpucc run`` from its batch
    (:meth:`pytest_gpucc.session.GpuccSession.results`)."""

    summaries: list[SuiteSummary]
    info: dict

    def summary_rows(self, verbosity: int = 0) -> list[Row]:
        """The gpucc summary as (line, markup) rows: the header, then each suite (see :func:`summary_rows`)."""
        return summary_rows(self.summaries, header_lines(self.info, self.summaries), verbosity)

    def to_json(self) -> dict:
        return to_json(self.summaries, self.info)

    def write_json(self, path) -> None:
        """Write :meth:`to_json` to `path` (the --gpucc-json / ``gpucc run --json`` file)."""
        import json
        from pathlib import Path

        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(self.to_json(), indent=1) + "\n", encoding="utf-8")


def assert_where(job: JobRecord) -> str:
    """``where 3 == 6`` for a failed comparison; a plain line for a failed truth test."""
    types = compared(job.op, job.arg, job.constant)
    if types is None:
        return "assertion is false"
    cmp, left, right = types
    lhs, rhs = job.shown or (placeholder(job.lhs, left, job.op), placeholder(job.rhs, right, job.op))
    return f"where {lhs} {CMP_NAMES[cmp]} {rhs}"


def returned(job: JobRecord) -> str | None:
    """The repr of the value a job returned (a heap value's placeholder unless a replay read
    it); None when it did not return."""
    if not job.ok:
        return None
    return job.returned or placeholder(job.value, job.ret_type)


def fell_off_function(job: JobRecord) -> str:
    """The function a NONE_RETURNED job fell off: the codegen puts FELL_OFF on its `def` line."""
    m = re.match(r"def\s+(\w+)", job.source_line or "")
    return m.group(1) if m else "a function"


def job_failure(job: JobRecord, step_limit: int) -> tuple[str, str]:
    """(one-line reason, multi-line report in pytest's style) for a failed job."""
    if job.status == st.ASSERT_FAILED:
        what = assert_where(job)
        reason, error = f"{job.call}: {job.source_line or 'assert'}, {what}", f"AssertionError: {what}"
    elif job.status == st.STEP_LIMIT and job.budget is not None:
        what = f"took {job.steps} steps, over the problem's budget of {job.budget} (from its canonical solution's)"
        reason, error = f"{job.call}: {what}", what
    elif job.status == st.STEP_LIMIT:
        what = f"did not finish within {step_limit} steps (the deterministic timeout)"
        reason, error = f"{job.call}: {what}", what
    elif job.status == st.NONE_RETURNED:
        what = f"{fell_off_function(job)} returned None (reached the end of its body without return)"
        at = f" at {job.location}" if job.location else ""
        reason, error = f"{job.call}: {what}{at}", what
    else:
        label = st.LABELS[job.status] if 0 <= job.status < len(st.LABELS) else f"status {job.status}"
        meaning = st.MEANINGS[job.status] if 0 <= job.status < len(st.MEANINGS) else ""
        if job.status == st.MEMORY_LIMIT:
            meaning += " (--gpucc-heap-words)"
        at = f" at {job.location}" if job.location else ""
        reason, error = f"{job.call}: {label}{at}", f"{label}: {meaning}"
    lines = [f"{job.location}: in {job.call}" if job.location else f"in {job.call}"]
    if job.source_line:
        lines.append(f">   {job.source_line}")
    lines.append(f"E   {error}")
    return reason, "\n".join(lines)


def from_jobs(suite: str, name: str, filename: str, jobs: list[JobRecord], step_limit: int) -> CandidateOutcome:
    """The outcome of a candidate that compiled and linked: its jobs' results."""
    out = CandidateOutcome(suite, name, filename, PASSED, jobs=jobs,
                           cost=sum(j.cost for j in jobs), steps=sum(j.steps for j in jobs))  # fmt: skip
    failed = [j for j in jobs if not j.ok]
    if failed:
        first = failed[0]
        out.status = {st.ASSERT_FAILED: FAILED, st.STEP_LIMIT: TIMEOUT}.get(first.status, ERROR)
        out.reason, out.detail = job_failure(first, step_limit)
        out.detail += f"\n({len(failed)} of {len(jobs)} test cases failed)"
    return out


def from_error(suite: str, name: str, filename: str, kind: str, message: str) -> CandidateOutcome:
    """The outcome of a candidate that did not run: compile, link or suite error."""
    first = message.splitlines()[0] if message else kind
    detail = message if kind != SUITE_ERROR else f"the suite does not compile:\n{message}"
    return CandidateOutcome(suite, name, filename, kind, reason=f"{kind}: {first}", detail=detail)


def not_run(suite: str, name: str, filename: str, reason: str) -> CandidateOutcome:
    """The outcome of a candidate that gets no verdict (its problem cannot be judged)."""
    return CandidateOutcome(suite, name, filename, NOT_RUN, reason=reason, detail=reason, engine=None)


def summarize(name: str, outcomes: list[CandidateOutcome], strict: bool = False, task: str = "",
              reference: dict | None = None) -> SuiteSummary:  # fmt: skip
    """Rank a suite's passing candidates that have a cost (not those passed on CPython) and mark
    failing ones rejected when some candidate passed (unless strict)."""
    ranked = sorted((o for o in outcomes if o.passed and o.cost is not None), key=lambda o: (o.cost, o.name))
    for i, o in enumerate(ranked, 1):
        o.rank = i
    solved = any(o.passed for o in outcomes)
    for o in outcomes:
        o.rejected = solved and not strict and not o.passed and o.status != NOT_RUN
    return SuiteSummary(name, outcomes, ranked, task, reference)


def x_factor(x: float) -> str:
    return f"{x:.2f}x" if x < 10 else f"{x:.1f}x" if x < 100 else f"{x:.0f}x"


Row = tuple[str, dict]  # a terminal summary line and its terminalreporter markup
FASTEST, NONE_PASSED, REJECTED, TITLE = {"green": True, "bold": True}, {"red": True}, {"yellow": True}, {"bold": True}


def plural(n: int, word: str, many: str | None = None) -> str:
    return f"{n} {word if n == 1 else many or word + 's'}"


def header_lines(info: dict, summaries: list[SuiteSummary]) -> list[str]:
    """The summary's header, from a run's info: backend, counts, launches and device; why
    ``auto`` chose the CPU (when it did); the phase timings."""
    n_cands = sum(len(s.outcomes) for s in summaries)
    workers, launches = info.get("workers", 1), info.get("launches", 0)
    spread = f" ({workers} xdist workers{', one each' if launches == workers else ''})" if workers > 1 else ""
    unique = f" ({info['candidate_sources']} unique sources)" if "candidate_sources" in info else ""
    device = f"; device: {info['device']}" if info.get("device") else ""
    counts = (f"{plural(len(summaries), 'suite')}, {plural(n_cands, 'candidate')}{unique}, "
              f"{plural(info.get('jobs', 0), 'job')}, {plural(launches, 'VM launch', 'VM launches')}")  # fmt: skip
    lines = [f"gpucc: backend {info.get('backend')}, {counts}{spread}{device}"]
    if info.get("backend_note"):
        lines.append(f"gpucc: {info['backend_note']}")
    if info.get("fallback"):
        lines.append(f"gpucc: {plural(on_cpython(summaries), 'sample')} ran on CPython (--gpucc-fallback {info['fallback']}: "
                     "no cost, not ranked; not a sandbox)")  # fmt: skip
    if info.get("timings"):
        which = " (the slowest worker's)" if workers > 1 else ""
        lines.append(f"gpucc: timings{which}: " + " ".join(f"{k} {v:.2f}s" for k, v in info["timings"].items()))
    return lines


def on_cpython(summaries: list[SuiteSummary]) -> int:
    """How many candidates the CPython fallback judged."""
    return sum(o.engine == CPYTHON for s in summaries for o in s.outcomes)


def _title(s: SuiteSummary) -> str:
    return f"{s.name} (task {s.task})" if s.task else s.name


def _verdict(s: SuiteSummary) -> str:
    """``fastest: NAME cost N \u2014 X faster than the slowest passing (NAME)``, or why there is none."""
    f, slow = s.fastest, s.slowest
    if not s.judged:
        return "not run: " + "; ".join(dict.fromkeys(o.reason for o in s.outcomes))
    if not s.passing:
        return "no candidate passed"
    if not s.ranked:
        return f"{plural(len(s.passing), 'candidate')} passed on CPython only: no cost to rank"
    if len(s.ranked) == 1:
        return f"fastest: {f.name} cost {f.cost} (the only passing candidate)"
    return f"fastest: {f.name} cost {f.cost} \u2014 {x_factor(s.speedup)} faster than the slowest passing ({slow.name})"


def _ranking(s: SuiteSummary) -> list[Row]:
    """The passing candidates by cost, with the x-factor vs the fastest; the fastest highlighted."""
    names = max(len("candidate"), *(len(o.name) for o in s.ranked))
    costs = max(len("cost"), *(len(str(o.cost)) for o in s.ranked))
    rows = [(f"  {'rank':>4}  {'candidate':<{names}}  {'cost':>{costs}}  vs fastest", {})]
    for o in s.ranked:
        x = x_factor(o.cost / max(s.fastest.cost, 1))
        rows.append((f"  {o.rank:>4}  {o.name:<{names}}  {o.cost:>{costs}}  {x:>10}", FASTEST if o is s.fastest else {}))
    return rows


def summary_rows(summaries: list[SuiteSummary], header: list[str], verbosity: int = 0) -> list[Row]:
    """The terminal summary as (line, markup) rows.  verbosity < 0 (``-q``): one line per suite,
    its fastest candidate; 0: the header, per suite its passing candidates ranked by cost and
    each failing one's reason; > 0 (``-v``): also each failing candidate's full report."""
    if verbosity < 0:
        return [(f"{_title(s)}: {len(s.passing)}/{len(s.outcomes)} passed; {_verdict(s)}",
                 FASTEST if s.passing else NONE_PASSED if s.judged else REJECTED) for s in summaries]  # fmt: skip
    rows: list[Row] = [(line, {}) for line in header]
    for s in summaries:
        if not s.judged:
            rows += [(f"{_title(s)}: {plural(len(s.outcomes), 'candidate')}", TITLE), *_not_run_rows(s)]
            continue
        rows.append((f"{_title(s)}: {len(s.passing)}/{len(s.outcomes)} candidates passed", TITLE))
        rows += _ranking(s) if s.ranked else []
        rows.append((f"  {_verdict(s)}", FASTEST if s.passing else NONE_PASSED))
        if s.ranked and len(s.passing) > len(s.ranked):
            rows.append((f"  also passed on CPython (no cost, not ranked): {len(s.passing) - len(s.ranked)}", {}))
        bad = [o for o in s.judged if not o.passed]
        rows += neural_rows(s.outcomes)
        rows += _not_run_rows(s)
        if bad:
            rows.append(("  rejected:", REJECTED) if bad[0].rejected else ("  failed:", NONE_PASSED))
            for o in bad:
                rows.append((f"    {o.name}: {'on CPython: ' * (o.engine == CPYTHON)}{o.reason}", {}))
                if verbosity > 0:
                    rows += [("      " + x, {}) for x in o.detail.splitlines()]
    return rows


def neural_rows(outcomes: list[CandidateOutcome]) -> list[Row]:
    """--gpucc-compiler neural: each candidate's samples (valid, passing, faithful of k), the
    estimate of p_correct, k_99 and P_success(k) by eq. 7 beside the measured success."""
    rows: list[Row] = []
    for o in (o for o in outcomes if o.neural):
        n = o.neural
        if "valid" not in n:
            rows.append((f"    {o.name}: no samples: {n['reason']}", {}))
            continue
        k99 = "inf" if n["k_99"] is None else n["k_99"]
        rows.append((f"    {o.name}: {n['valid']}/{n['k']} valid, {n['passing']} passing, {n['faithful']} faithful; "
                     f"p_correct {n['p_correct']:.2f}, k_99 {k99}, P_success({n['k']}) eq.7 {n['p_success_eq7']:.2f} "
                     f"vs measured {int(n['success_measured'])}", {}))  # fmt: skip
    return [("  neural samples (faithful: the traditional bytecode's outcome on every job):", {})] + rows if rows else []


def _not_run_rows(s: SuiteSummary) -> list[Row]:
    """One line per reason for the candidates that were not run."""
    reasons: dict[str, int] = {}
    for o in s.outcomes:
        if o.status == NOT_RUN:
            reasons[o.reason] = reasons.get(o.reason, 0) + 1
    return [(f"  not run ({plural(n, 'candidate')}): {why}", REJECTED) for why, n in reasons.items()]


def summary_lines(summaries: list[SuiteSummary], header: str, details: bool = False) -> list[str]:
    """The terminal summary's text (no markup); `details` adds each failing candidate's report."""
    return [line for line, _ in summary_rows(summaries, [header], 1 if details else 0)]


def _job_json(j: JobRecord) -> dict:
    return {
        "case": j.case,
        "args": list(j.args),
        "status": st.NAMES[j.status] if 0 <= j.status < len(st.NAMES) else j.status,
        "value": j.value,
        "returned": returned(j),
        "cost": j.cost,
        "steps": j.steps,
        "heap_peak_words": j.heap_peak_words,
        "location": j.location,
        "line": j.line,
        "operands": [j.lhs, j.rhs] if j.status == st.ASSERT_FAILED else None,
        "where": assert_where(j) if j.status == st.ASSERT_FAILED else None,
    }


def candidate_json(o: CandidateOutcome) -> dict:
    tests: dict[str, list] = {}
    for j in o.jobs:
        tests.setdefault(j.test, []).append(_job_json(j))
    return {
        "name": o.name,
        "source": o.filename,
        "status": o.status,
        "rejected": o.rejected,
        "reason": o.reason,
        "detail": o.detail,
        "cost": o.cost,
        "steps": o.steps,
        "heap_peak_words": max((j.heap_peak_words for j in o.jobs), default=None),
        "rank": o.rank,
        "engine": o.engine,
        **({"neural": o.neural} if o.neural is not None else {}),
        "tests": [{"name": k, "cases": v} for k, v in tests.items()],
    }


def to_json(summaries: list[SuiteSummary], run_info: dict) -> dict:
    """The --gpucc-json document: run info (backend, launches, jobs, timings) and suites."""
    suites = []
    for s in summaries:
        suites.append({
            "suite": s.name,
            "task": s.task,
            "passed": len(s.passing),
            "candidates_total": len(s.outcomes),
            "fastest": s.fastest.name if s.fastest else None,
            "speedup_vs_slowest": s.speedup,
            **({"reference": s.reference} if s.reference is not None else {}),
            "candidates": [candidate_json(o) for o in s.outcomes],
        })  # fmt: skip
    ran_on_cpython = {"cpython_samples": on_cpython(summaries)} if run_info.get("fallback") else {}
    return {**run_info, **ran_on_cpython, "suites": suites}
