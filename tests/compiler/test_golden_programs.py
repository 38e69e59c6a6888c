"""Golden programs: tests/golden/programs/*.py state their expected results in comments next to
the code, and each runs on the VM (both backends) and in CPython, which must both match them.

    # f(3, 4) == 7                      the call returns repr 7
    # f(0) raises ZeroDivisionError     the call raises that kind (VM: the status of that label)
    # f(1) runs past the step limit     the VM's step limit; CPython: a line budget
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from tests.oracle.oracle import STEP_LIMIT_LABEL, cpython_namespace, cpython_outcome, vm_outcomes

PROGRAMS = Path(__file__).resolve().parent.parent / "golden" / "programs"
EXPECT = re.compile(r"^# (?P<call>\w+\(.*\)) (?:== (?P<value>.+)|raises (?P<error>\w+)|(?P<steps>runs past the step limit))$")
STEPS = 100_000  # VM step limit and CPython line budget for these programs


def expectations(source: str) -> list[tuple[str, tuple, str]]:
    """(function, args, expected outcome) for every expectation comment in `source`."""
    out = []
    for line in source.splitlines():
        if (m := EXPECT.match(line)) is None:
            if re.match(r"# \w+\(.*\) (=|raises|runs)", line):  # looks meant as one
                raise ValueError(f"malformed expectation comment: {line!r}")
            continue
        call = ast.parse(m["call"], mode="eval").body
        args = tuple(ast.literal_eval(a) for a in call.args)
        want = repr(ast.literal_eval(m["value"])) if m["value"] else m["error"] or STEP_LIMIT_LABEL
        out.append((call.func.id, args, want))
    return out


@pytest.mark.parametrize("backend", ["cpu", "reference"])
@pytest.mark.parametrize("name", sorted(p.stem for p in PROGRAMS.glob("*.py")))
def test_golden_program(name, backend):
    source = (PROGRAMS / f"{name}.py").read_text()
    cases = expectations(source)
    assert cases, f"{name}.py states no expected result"
    want = [w for _, _, w in cases]
    ns = cpython_namespace(source)
    assert [cpython_outcome(ns, f, args, line_budget=STEPS) for f, args, _ in cases] == want
    assert vm_outcomes([source], [(0, f, args) for f, args, _ in cases], backend, STEPS) == want


def test_every_error_kind_has_a_golden_program():
    kinds = {w for p in PROGRAMS.glob("*.py") for _, _, w in expectations(p.read_text())}
    assert {"ZeroDivisionError", "OverflowError", "RecursionError", STEP_LIMIT_LABEL, "ValueError",
            "AssertionError", "IndexError", "TypeError"} <= kinds  # fmt: skip


def test_expectation_comments_parse_values_errors_and_step_limits():
    src = "# f(-1, True) == -2\n# g(0) raises ZeroDivisionError\n# h() runs past the step limit\n# a note\n"
    assert expectations(src) == [("f", (-1, True), "-2"), ("g", (0,), "ZeroDivisionError"), ("h", (), "step limit")]
    with pytest.raises(ValueError, match="malformed"):
        expectations("# f(1) = 2\n")
