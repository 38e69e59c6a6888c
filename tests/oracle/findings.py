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
from tests.oracle.tower import expr_type, local_types


@dataclass(frozen=True)
class Finding:
    what: str
    source: str  # a minimal reproducer: f(*args) disagrees
    args: tuple
    vm_outcome: str = ""  # the VM's outcome of any instance starts with this


FINDINGS = {
    "F2": Finding(
        "a local assigned an int and later a float (widened: a float everywhere, as documented) "
        "is still an int to min/max/and/or that read it before the float assignment: a compile "
        "error ('unsupported operand types') for a valid program",
        "def f(a: int) -> float:\n    z = a\n    y = min(z, 0.5)\n    z = 1.5\n    return y\n", (3,),
        "compile error: <candidate>"),
}
REPRODUCER_BACKEND: dict[str, str] = {}  # where a reproducer disagrees (default: every backend)
# Fixed: F1 (a literal left of + or * with a float on the right), F3 (the reference's negative ** fraction).


class _FloatFirst(ast.NodeTransformer):
    """F2's rewrite: the first assignment of a widened local stores `float(value)`."""

    funcs: dict[str, str]

    def visit_FunctionDef(self, node):
        names, seen = local_types(node, self.funcs), set()
        for n in ast.walk(node):  # statements in source order within each block is enough here
            if isinstance(n, ast.Assign) and isinstance(n.targets[0], ast.Name):
                v = n.targets[0].id
                if v not in seen and names.get(v) == "float" and expr_type(n.value, names, self.funcs) != "float":
                    n.value = ast.Call(ast.Name("float", ast.Load()), [n.value], [])
                seen.add(v)
        return node


def _rewrite(source: str, finding: str) -> str:
    tree = ast.parse(source)
    rewriter = {"F2": _FloatFirst}[finding]()
    rewriter.funcs = {f.name: getattr(f.returns, "id", "None") for f in tree.body if isinstance(f, ast.FunctionDef)}
    return ast.unparse(ast.fix_missing_locations(rewriter.visit(tree)))


CANDIDATES = (("F2",),)


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
