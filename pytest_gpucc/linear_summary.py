"""pytest's failure summary in time linear in the number of failed items.

For each failed report, pytest's terminal reporter prints the teardown sections of its item,
which it finds with ``TerminalReporter._get_teardown_reports``: a scan of every passed
setup/teardown report of the run.  That is O(failures x items): an eval whose samples mostly
fail (tens of thousands of failing candidates are normal) spent most of its time there (issue
#11: 175 of 207 s).  Registered for ``--gpu-candidates`` runs, this plugin gives that one
reporter object, just before it prints its summary, a lookup that indexes the teardown reports
once: the same reports in the same order, so the same output.  It only replaces a method the
running pytest has (a pytest that renames it keeps its own, and its cost).
"""

from __future__ import annotations

import pytest

LOOKUP = "_get_teardown_reports"  # TerminalReporter's per-failure scan


class TeardownIndex:
    """``_get_teardown_reports(node_id)`` from an index built on first use (the summary runs
    after the last report arrived)."""

    def __init__(self, reporter):
        self.reporter = reporter
        self.by_node: dict | None = None

    def __call__(self, node_id) -> list:
        if self.by_node is None:
            self.by_node = {}
            for report in self.reporter.getreports(""):
                if report.when == "teardown":
                    self.by_node.setdefault(_node_key(report), []).append(report)
        return list(self.by_node.get(node_id, ()))


def _node_key(report):
    """What the reporter passes for a report's item: ``report.id`` (pytest 9), else ``nodeid``."""
    return getattr(report, "id", report.nodeid)


@pytest.hookimpl(wrapper=True, tryfirst=True)  # outside the terminal reporter's own wrapper
def pytest_terminal_summary(terminalreporter):
    if hasattr(type(terminalreporter), LOOKUP):
        setattr(terminalreporter, LOOKUP, TeardownIndex(terminalreporter))
    return (yield)
