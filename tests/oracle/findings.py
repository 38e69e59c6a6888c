"""Open findings: disagreements with CPython that the differential fuzzer found in gpucc and
that are not fixed yet, each with a minimal reproducer.

Each finding is recognised exactly by a rewrite that means the same in Python (and in gpucc
as documented) and steers around the bug: a disagreement that vanishes when the program is
rewritten is that finding.  The fuzzer (benchmarks/fuzz_differential.py) counts disagreements
by finding; the CI tests (tests/unit/test_differential.py) tolerate only these, and expect
each reproducer to still disagree: once a finding is fixed, delete its entry here.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

from tests.oracle.oracle import cpython_outcomes, vm_outcomes


@dataclass(frozen=True)
class Finding:
    what: str
    source: str  # a minimal reproducer: f(*args) disagrees
    args: tuple
    vm_outcome: str = ""  # the VM's outcome of any instance starts with this


FINDINGS: dict[str, Finding] = {}  # none open
# Fixed (their reproducers now agree with CPython: tests/unit/test_differential.py FIXED):
FIXED = {
    "F1": Finding("an int or bool literal left of `+` or `*` with a float on the right computed garbage",
                  "def f(x: float) -> float:\n    return 8 + x * 1 + (3 * x)\n", (0.5,)),
    "F2": Finding("an int local read by min / max / and / or before the float assignment that widens it "
                  "was a compile error",
                  "def f(a: int) -> float:\n    z = a\n    y = min(z, 0.5)\n    z = 1.5\n    return y\n", (3,)),
    "F3": Finding("the reference interpreter raised OverflowError for a negative float to a huge "
                  "fractional power (the documented outcome is ValueError)",
                  "def f(x: float, y: float) -> float:\n    return x ** y\n", (-3.75, 888683.5)),
}
REPRODUCER_BACKEND: dict[str, str] = {}  # where a reproducer disagrees (default: every backend)


def _rewrite(source: str, finding: str) -> str:
    tree = ast.parse(source)
    rewriter = REWRITERS[finding]()
    rewriter.funcs = {f.name: getattr(f.returns, "id", "None") for f in tree.body if isinstance(f, ast.FunctionDef)}
    return ast.unparse(ast.fix_missing_locations(rewriter.visit(tree)))


# finding -> an ast.NodeTransformer class whose rewrite (same meaning in Python) steers around it
REWRITERS: dict[str, type] = {}
CANDIDATES: tuple[tuple[str, ...], ...] = tuple((k,) for k in REWRITERS)


def classify(bad: list[tuple], backend: str = "cpu", step_limit: int = 200_000) -> list[str | None]:
    """bad: disagreements on `backend` as oracle.disagreements gives them, (source, function,
    args, CPython's outcome, the VM's outcome) -> the open finding(s)
    explaining each ("F2", ...) or None (a new disagreement), told by the findings' rewrites
    (one VM launch for all)."""
    sources, calls, owner = [], [], []
    for k, (source, fname, args, _, got) in enumerate(bad):
        for ids in CANDIDATES:
            if not all(got.startswith(FINDINGS[i].vm_outcome) for i in ids):
                continue
            rewritten = source
            for i in ids:
                rewritten = _rewrite(rewritten, i)
            if ast.dump(ast.parse(rewritten)) != ast.dump(ast.parse(source)):
                calls.append((len(sources), fname, args))
                sources.append(rewritten)
                owner.append((k, "+".join(ids)))
    out: list[str | None] = [None] * len(bad)
    if sources:
        want, got = cpython_outcomes(sources, calls), vm_outcomes(sources, calls, backend, step_limit)
        for (k, ids), w, g in zip(owner, want, got):
            if w == g and out[k] is None:
                out[k] = ids
    return out
