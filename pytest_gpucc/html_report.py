"""HTML reports through pytest-html's hooks: per suite a ranked table of candidates, and the run.

``pytest --gpu-candidates --html=report.html`` (pytest-html 4 installed) adds to the report's
summary the run's backend, device, launch count and phase timings, and per suite a table of
its candidates: the passing ones by rank (cost, x-factor vs the fastest, a cost bar scaled to
the slowest passing one), then the failing ones with their reason and full report.  pytest-html's
own results table gains Rank, gpucc status and Cost columns (sortable: ``report.html?sort=gpuccRank``).
Each candidate's "Compiled by" says whose bytecode gave its verdict (traditional / neural); under
``--gpucc-compiler neural`` each suite also gets a table of its candidates' samples: valid,
passing and faithful of k, p_correct, k_99, P_success(k) by eq. 7 beside the measured success.

The summary is read from the run's results, which the plugin's ``pytest_configure`` hands to
:func:`register` (so this module imports no plugin module); a results-table row, which
pytest-html renders as its report arrives, from the outcome that report carries
(:mod:`pytest_gpucc.collect_results`).  Candidate-derived text (names, file names, reasons,
source lines) is untrusted and always goes through :func:`html.escape`.  The hooks are optional,
so nothing changes without pytest-html.
"""

from __future__ import annotations

from collections.abc import Callable
from html import escape

import pytest

from pytest_gpucc import collect_results
from pytest_gpucc.neural_mode import compiled_by
from pytest_gpucc.report import PASSED, CandidateOutcome, RunResults, SuiteSummary
from pytest_gpucc.report import (
    x_factor as factor,  # the terminal summary's x-factor format
)

PLUGIN_NAME = "gpucc-html"
DASH = "\u2014"

STYLE = """<style>
.gpucc-run td, .gpucc-ranking td, .gpucc-ranking th { padding: 3px 8px; border: 1px solid #e6e6e6;
  text-align: left; vertical-align: top; }
.gpucc-neural td, .gpucc-neural th { padding: 3px 8px; border: 1px solid #e6e6e6; text-align: right; }
.gpucc-run, .gpucc-ranking, .gpucc-neural { color: #333; margin-bottom: 8px; }
.gpucc-ranking .gpucc-num { text-align: right; font-variant-numeric: tabular-nums; }
.gpucc-ranking tr.gpucc-fastest td { font-weight: bold; }
.gpucc-ranking tr.gpucc-failing td { color: #a33; }
.gpucc-bar { width: 200px; height: 10px; background: #eee; }
.gpucc-bar > div { height: 10px; background: #4caf50; }
.gpucc-ranking details pre { white-space: pre-wrap; margin: 4px 0; color: #333; }
</style>"""


def register(config, results: Callable[[], RunResults | None]) -> None:
    """Add the HTML hooks when pytest-html will write a report (``--html`` given); `results`
    gives the run's results (None on an xdist worker or before any candidate reported)."""
    if config.pluginmanager.hasplugin("html") and config.getoption("htmlpath", None):
        config.pluginmanager.register(HtmlReport(results), PLUGIN_NAME)


class HtmlReport:
    """pytest-html hook implementations, bound to the run's results."""

    def __init__(self, results: Callable[[], RunResults | None]):
        self.results = results

    @pytest.hookimpl(optionalhook=True)
    def pytest_html_results_summary(self, prefix, summary, postfix, session):
        results = self.results()
        if results is None:
            return
        prefix.append(STYLE)
        prefix.append(run_info_html(results.info))
        summary.extend(suite_html(s) for s in results.summaries)

    @pytest.hookimpl(optionalhook=True)
    def pytest_html_results_table_header(self, cells):
        cells[2:2] = ['<th class="sortable" data-column-type="gpuccRank">Rank</th>',
                      "<th>gpucc status</th>",
                      '<th class="sortable" data-column-type="gpuccCost">Cost</th>']  # fmt: skip

    @pytest.hookimpl(optionalhook=True)
    def pytest_html_results_table_row(self, report, cells):
        # pytest-html renders a row as its report arrives, before the run's results are complete:
        # the outcome comes from the report itself, ranked by the process that ran its whole suite
        data = getattr(report, collect_results.ATTRIBUTE, None)
        o = data["outcome"] if isinstance(data, dict) else None
        if o is None:
            cells[2:2] = ['<td class="col-gpuccRank"></td>', "<td></td>", '<td class="col-gpuccCost"></td>']
            return
        # pytest-html inserts the test id unescaped; a candidate's name is untrusted
        raw = f'<td class="col-testId">{report.nodeid}</td>'
        if cells[1] == raw:
            cells[1] = f'<td class="col-testId">{escape(report.nodeid)}</td>'
        passed = o["status"] == PASSED
        rank = str(o["rank"]) if o["rank"] is not None else DASH
        status = "passed" if passed else f"{'rejected' if o['rejected'] else 'failed'}: {o['status']}"
        if o.get("neural"):
            status += f" ({o['neural'].get('compiled_by', 'neural')})"
        cost = o["cost"] if passed else None
        cells[2:2] = [f'<td class="col-gpuccRank">{_sort_key(o["rank"])}{rank}</td>',
                      f"<td>{escape(status)}</td>",
                      f'<td class="col-gpuccCost">{_sort_key(cost)}{DASH if cost is None else cost}</td>']  # fmt: skip


def _sort_key(value: int | None) -> str:
    """A hidden prefix that makes pytest-html's string sort order numbers (blanks last)."""
    return f'<span hidden>{"~" if value is None else f"{value:020d}"}</span>'


def run_info_html(info: dict) -> str:
    """The run: backend, device, launches, jobs, ... and the phase timings, as a small table."""
    rows = []
    for key, value in info.items():
        if isinstance(value, dict):  # timings
            value = ", ".join(f"{k} {v:.2f} s" if isinstance(v, float) else f"{k} {v}" for k, v in value.items())
        rows.append(f"<tr><td>{escape(str(key))}</td><td>{escape(str(value))}</td></tr>")
    return f'<h3>gpucc run</h3>\n<table class="gpucc-run">{"".join(rows)}</table>'


def suite_html(s: SuiteSummary) -> str:
    """One suite: a heading, the fastest line and its candidates, passing ones ranked by cost."""
    task = f" (task {s.task})" if s.task else ""
    head = f"<h3>{escape(s.name + task)}: {len(s.passing)}/{len(s.outcomes)} candidates passed</h3>"
    if s.fastest is None:
        verdict = "passed on CPython only: no cost to rank" if s.passing else "no candidate passed"
    elif len(s.ranked) == 1:
        verdict = f"fastest: {s.fastest.name} (the only passing candidate)"
    else:
        verdict = (f"fastest: {s.fastest.name}, {factor(s.speedup)} faster than the slowest "
                   f"passing ({s.slowest.name})")  # fmt: skip
    rows = [_ranked_row(o, s) for o in s.ranked]
    rows += [_failing_row(o) for o in s.outcomes if o.rank is None]  # failing, not run, passed on CPython
    header = "".join(f"<th>{h}</th>" for h in ("Rank", "Candidate", "Status", "Cost", "vs fastest", "Cost bar", "Reason",
                                                 "Compiled by"))  # fmt: skip
    return (f'<div class="gpucc-suite" data-suite="{escape(s.name)}">{head}<p>{escape(verdict)}</p>'
            f'<table class="gpucc-ranking"><thead><tr>{header}</tr></thead>'
            f'<tbody>{"".join(rows)}</tbody></table>{neural_html(s.outcomes)}</div>')  # fmt: skip


NEURAL_HEADER = ("Candidate", "Compiled by", "Valid", "Passing", "Faithful", "p_correct", "k_99", "P_success(k) eq. 7",
                 "Measured", "Traditional verdict")  # fmt: skip


def neural_html(outcomes: list[CandidateOutcome]) -> str:
    """--gpucc-compiler neural: each candidate's samples (faithful: the traditional bytecode's
    outcome on every job), or why it has none; "" in traditional mode."""
    rows = []
    for o in (o for o in outcomes if o.neural):
        n, name = o.neural, f'<td title="{escape(o.filename)}">{escape(o.name)}</td><td>{compiled_by(o)}</td>'
        if "valid" not in n:
            rows.append(f'<tr>{name}<td colspan="8">no samples: {escape(n["reason"])}</td></tr>')
            continue
        k99 = "inf" if n["k_99"] is None else n["k_99"]
        cells = (f"{n['valid']}/{n['k']}", n["passing"], n["faithful"], f"{n['p_correct']:.2f}", k99,
                 f"{n['p_success_eq7']:.2f}", int(n["success_measured"]), n["traditional"])  # fmt: skip
        rows.append(f"<tr>{name}{''.join(f'<td>{escape(str(c))}</td>' for c in cells)}</tr>")
    if not rows:
        return ""
    header = "".join(f"<th>{h}</th>" for h in NEURAL_HEADER)
    return (f"<p>neural samples (faithful: the traditional bytecode's outcome on every job):</p>"
            f'<table class="gpucc-neural"><thead><tr>{header}</tr></thead><tbody>{"".join(rows)}</tbody></table>')


def _ranked_row(o: CandidateOutcome, s: SuiteSummary) -> str:
    x = factor(o.cost / max(s.fastest.cost, 1))
    width = 100.0 * o.cost / max(s.slowest.cost, 1)
    css = "gpucc-passed gpucc-fastest" if o.rank == 1 else "gpucc-passed"
    return (f'<tr class="{css}"><td class="gpucc-num">{o.rank}</td><td title="{escape(o.filename)}">'
            f'{escape(o.name)}</td><td>passed</td><td class="gpucc-num">{o.cost}</td><td class="gpucc-num">{x}</td>'
            f'<td><div class="gpucc-bar"><div style="width: {width:.1f}%"></div></div></td><td></td>'
            f"<td>{compiled_by(o)}</td></tr>")  # fmt: skip


def _failing_row(o: CandidateOutcome) -> str:
    verdict = f"{'rejected' if o.rejected else 'failed'}: {o.status}" if not o.passed else "passed on CPython"
    reason = f"<details><summary>{escape(o.reason)}</summary><pre>{escape(o.detail)}</pre></details>"
    return (f'<tr class="gpucc-failing"><td class="gpucc-num">{DASH}</td><td title="{escape(o.filename)}">'
            f"{escape(o.name)}</td><td>{escape(verdict)}</td><td></td><td></td><td></td>"
            f"<td>{reason}</td><td>{compiled_by(o)}</td></tr>")  # fmt: skip
