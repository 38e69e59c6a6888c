"""An MBPP problem as a gpucc suite (in memory).

A record (Austin et al. 2021, ``mbpp.jsonl``) has ``task_id`` (an int), ``text``, ``code`` (the
reference solution), ``test_list`` (assert statements as strings), ``test_setup_code`` and
``challenge_test_list``.  There is no prompt: the entry point is the function the asserts call,
its parameters are named as in ``code`` (else ``arg0``, ...), and its parameter and return types
are inferred from the asserts' literal arguments and expected values
(:mod:`pytest_gpucc.infer_types`).  The suite is that typed stub and ``test_list`` as tests
(:mod:`pytest_gpucc.problem_tests`; test N is the N-th assert).  A sample is a whole source (what
MBPP prompts ask for); a restatement without types gets the inferred ones.  ``code`` is the
canonical solution.  Not read: ``challenge_test_list`` (the standard MBPP evaluation runs
``test_list`` only); a problem with ``test_setup_code`` cannot be stated.
"""

from __future__ import annotations

import ast
import builtins
import dataclasses
from pathlib import Path

from gpucc.compiler.limits import MAX_FUNCTIONS
from pytest_gpucc.infer_types import CannotInfer, infer
from pytest_gpucc.problem_tests import (
    Checks,
    Unstateable,
    bool_identity_as_equality,
    evidence,
    statement_checks,
    suite_tests,
)
from pytest_gpucc.suite import Suite, SuiteError, parse_suite

FIELDS = {"code": str, "test_list": list}  # the fields a record needs, and their types
BUILTINS = set(dir(builtins))


def mbpp_suite(path: Path, task_id: str, record: dict) -> Suite:
    """The suite of an MBPP record; Unstateable when the language cannot state it."""
    if str(record.get("test_setup_code") or "").strip():
        raise Unstateable("its test_setup_code runs before the tests")
    tests = record["test_list"]
    if not tests or not all(isinstance(t, str) for t in tests):
        raise Unstateable("bad problem: test_list is not a list of assert strings")
    checks = statement_checks(tests, _entry(tests))
    params = _params(record["code"], checks)
    try:
        types, returns = infer(evidence(checks, params), [None] * len(params), None)
    except CannotInfer as e:
        raise Unstateable(f"its tests do not say the types of {checks.entry}: {e}") from None
    header = f"def {checks.entry}({', '.join(f'{p}: {t}' for p, t in zip(params, types))}) -> {returns}:"
    if returns == "bool":
        bool_identity_as_equality(checks)
    stub = ast.parse(header + "\n    ...\n").body[0]
    text = f"{header}\n    ...\n\n\n" + suite_tests(checks, stub, {checks.entry}, MAX_FUNCTIONS - 1)
    try:
        suite = parse_suite(path, text)
    except SuiteError as e:
        raise Unstateable(f"cannot state its tests: {e.message}") from None
    return dataclasses.replace(suite, task=task_id, name=task_id, prompt="", headers={checks.entry: header})


def _entry(tests: list[str]) -> str:
    """The function the first assert calls (the first call of a name that is not a builtin)."""
    for test in tests:
        try:
            tree = ast.parse(test)
        except SyntaxError:
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id not in BUILTINS:
                return node.func.id
    raise Unstateable("its tests call no function")


def _params(code: str, checks: Checks) -> list[str]:
    """The entry point's parameter names in the reference code, else arg0, ... for the arity of
    its first call."""
    try:
        for node in ast.parse(code).body:
            if isinstance(node, ast.FunctionDef) and node.name == checks.entry:
                return [a.arg for a in node.args.posonlyargs + node.args.args]
    except SyntaxError:
        pass
    for stmt in checks.body:
        for node in ast.walk(stmt):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == checks.entry:
                return [f"arg{i}" for i in range(len(node.args))]
    raise Unstateable(f"its tests never call {checks.entry}")
