"""CI artefacts: the fastest passing source per suite, and cost change vs a saved run.

* ``--gpucc-best-dir DIR`` writes each suite's fastest passing candidate's source to
  ``DIR/<task>.py`` (characters other than letters, digits, ``_ . -`` in the task become
  ``_``: ``HumanEval/0`` -> ``HumanEval_0.py``).  A suite with no passing candidate gets no
  file, and a file of that name left by an earlier run is deleted, so a pipeline never picks
  up a stale answer.
* ``--gpucc-compare BASELINE.json`` (a saved ``--gpucc-json`` file) prints, per suite, the
  fastest passing cost now vs then and each candidate's cost change.  With
  ``--gpucc-compare-fail PCT`` the run fails (exit 1) when a suite's fastest passing cost grew
  by more than PCT percent, or a suite that had a passing candidate has none now (in the
  spirit of pytest-benchmark's ``--benchmark-compare-fail``).  Suites are matched by their
  name (path) and candidates by name; a suite absent from this run is not compared.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from pytest_gpucc.report import RunResults, SuiteSummary

BASELINE = pytest.StashKey[dict]()
BEST_LINES = pytest.StashKey[list]()
COMPARISON = pytest.StashKey["Comparison"]()


def addoptions(group) -> None:
    group.addoption("--gpucc-best-dir", metavar="DIR", default=None,
                    help="write each suite's fastest passing candidate's source to DIR/<task>.py")
    group.addoption("--gpucc-compare", metavar="BASELINE.json", default=None,
                    help="show each suite's and candidate's cost change vs a saved --gpucc-json file")
    group.addoption("--gpucc-compare-fail", metavar="PCT", default=None,
                    help="with --gpucc-compare: fail the run when a suite's fastest passing cost grew by "
                    "more than PCT percent, or a suite that passed has no passing candidate now")  # fmt: skip


# -- best-dir -------------------------------------------------------------------------------


def best_file_name(task: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]", "_", task) + ".py"


def write_best(directory, summaries: list[SuiteSummary]) -> list[str]:
    """Write (or, for a suite without a passing candidate, delete) DIR/<task>.py; one line each."""
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    lines = []
    for s in summaries:
        path = directory / best_file_name(s.task or Path(s.name).stem)
        if s.fastest is None:
            path.unlink(missing_ok=True)
            lines.append(f"{s.name}: no passing candidate, no {path} written")
        else:
            path.write_text(s.fastest.source_text, encoding="utf-8")
            lines.append(f"{s.name}: {s.fastest.name} (cost {s.fastest.cost}) -> {path}")
    return lines


# -- compare --------------------------------------------------------------------------------


def load_baseline(path) -> dict:
    """``{suite name: {"fastest": cost or None, "costs": {candidate: cost or None}}}`` from a
    --gpucc-json file; ValueError naming the file when it is not one."""
    try:
        doc = json.loads(Path(path).read_text(encoding="utf-8"))
        suites = {}
        for s in doc["suites"]:
            costs = {c["name"]: c["cost"] if c["status"] == "passed" else None for c in s["candidates"]}
            suites[s["suite"]] = {"fastest": costs[s["fastest"]] if s["fastest"] is not None else None, "costs": costs}
        return suites
    except OSError as e:
        raise ValueError(f"--gpucc-compare: cannot read {path}: {e.strerror or e}") from None
    except (ValueError, KeyError, TypeError) as e:
        why = e.msg if isinstance(e, json.JSONDecodeError) else f"no field {e}" if isinstance(e, KeyError) else "bad structure"
        raise ValueError(f"--gpucc-compare: {path} is not a --gpucc-json results file ({why})") from None


def parse_percent(text: str) -> float:
    """``"5"`` or ``"5%"`` -> 5.0; ValueError unless a non-negative number."""
    try:
        value = float(text.strip().removesuffix("%"))
    except ValueError:
        value = -1.0
    if not value >= 0:  # also NaN
        raise ValueError(f"--gpucc-compare-fail: {text!r} is not a non-negative percentage (e.g. 5 or 5%)")
    return value


def percent(now: int, then: int) -> str:
    return "=" if now == then else f"{(now - then) / max(then, 1) * 100:+.1f}%"


def change(now: int | None, then: int | None) -> str:
    """How a passing cost (None: not passing) changed: ``cost 120 vs 100: +20.0%``, ..."""
    if now is None:
        return "failing, as in the baseline" if then is None else f"failing now, cost {then} in the baseline"
    if then is None:
        return f"cost {now}, failing or absent in the baseline"
    return f"cost {now} vs {then}: {percent(now, then)}"


@dataclass
class Comparison:
    baseline: str
    lines: list[str] = field(default_factory=list)
    regressions: list[str] = field(default_factory=list)  # why the run fails, one line each


def compare(results: RunResults, baseline: dict, name: str, fail_pct: float | None) -> Comparison:
    """Each suite's fastest passing cost and each candidate's cost, now vs the baseline."""
    cmp = Comparison(name)
    for s in results.summaries:
        base = baseline.get(s.name)
        if base is None:
            cmp.lines.append(f"{s.name}: not in the baseline")
            continue
        now, then = (s.fastest.cost if s.fastest else None), base["fastest"]
        cmp.lines.append(f"{s.name}: fastest {change(now, then)}")
        for o in s.outcomes:
            now_o = o.cost if o.passed else None
            if o.name in base["costs"]:
                cmp.lines.append(f"    {o.name}: {change(now_o, base['costs'][o.name])}")
            else:
                cmp.lines.append(f"    {o.name}: new, " + (f"cost {now_o}" if o.passed else "failing"))
        if fail_pct is None or then is None:
            continue
        if now is None:
            cmp.regressions.append(f"{s.name}: no passing candidate now (the baseline's fastest cost was {then})")
        elif now > then * (1 + fail_pct / 100):
            cmp.regressions.append(f"{s.name}: fastest {change(now, then)}, more than {fail_pct:g}%")
    return cmp


# -- hooks ----------------------------------------------------------------------------------


def pytest_configure(config):
    path, fail = config.getoption("gpucc_compare"), config.getoption("gpucc_compare_fail")
    try:
        if fail is not None:
            if path is None:
                raise ValueError("--gpucc-compare-fail needs --gpucc-compare BASELINE.json")
            parse_percent(fail)
        if path is not None:
            config.stash[BASELINE] = load_baseline(path)
    except ValueError as e:
        raise pytest.UsageError(str(e)) from None


def pytest_gpucc_results(config, results):
    best_dir = config.getoption("gpucc_best_dir")
    if best_dir:
        try:
            config.stash[BEST_LINES] = write_best(best_dir, results.summaries)
        except OSError as e:
            config.stash[BEST_LINES] = [f"cannot write to {best_dir}: {e.strerror or e}"]
    if BASELINE in config.stash:
        fail = config.getoption("gpucc_compare_fail")
        pct = parse_percent(fail) if fail is not None else None
        config.stash[COMPARISON] = compare(results, config.stash[BASELINE], config.getoption("gpucc_compare"), pct)


@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(session, exitstatus):
    """After the results hook ran (the session plugin's pytest_sessionfinish): fail on a regression."""
    cmp = session.config.stash.get(COMPARISON, None)
    if cmp is not None and cmp.regressions and session.exitstatus == pytest.ExitCode.OK:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


@pytest.hookimpl(trylast=True)  # after the gpucc summary
def pytest_terminal_summary(terminalreporter, exitstatus, config):
    tr = terminalreporter
    if BEST_LINES in config.stash:
        tr.write_sep("-", f"gpucc best candidates in {config.getoption('gpucc_best_dir')}")
        for line in config.stash[BEST_LINES]:
            tr.write_line(line)
    cmp = config.stash.get(COMPARISON, None)
    if cmp is not None:
        tr.write_sep("-", f"gpucc cost vs baseline {cmp.baseline}")
        for line in cmp.lines:
            tr.write_line(line)
        if cmp.regressions:
            pct = config.getoption("gpucc_compare_fail")
            tr.write_line(f"gpucc compare FAILED (--gpucc-compare-fail={pct}):", red=True)
            for line in cmp.regressions:
                tr.write_line(f"  {line}", red=True)
