"""Problem files in, gpucc suites out: every problem the language can state becomes a suite in
memory (no file is written); every other one gets a reason.

Formats read (``.jsonl``, or ``.jsonl.gz``; one JSON object a line, blank lines skipped), per
record: human-eval's (``task_id``, ``prompt``, ``entry_point``, ``canonical_solution``, ``test``;
:mod:`pytest_gpucc.problems_humaneval`), MBPP's (an int ``task_id``, ``text``, ``code``,
``test_list``, ...; :mod:`pytest_gpucc.problems_mbpp`) and EvalPlus's (HumanEval+: human-eval's
fields with ``base_input``, ``plus_input`` and ``atol`` instead of ``test``, the expected outputs
computed on the VM; :mod:`pytest_gpucc.problems_evalplus`), told apart by ``base_input``, then
``test_list``.  The canonical solution (MBPP's ``code``) is one more candidate of the problem's
suite, in the same launch (:mod:`pytest_gpucc.problem_verdicts`).

A problem the language cannot state (an untyped entry point, a test that imports ``random``,
a ``str`` the compiler rejects, ...) gets a reason; its samples are reported ``not run:
<reason>``.  What the host-side translation cannot see, the compiler decides when it compiles
the suite (a suite that does not compile is such a problem too).  A line that is not a usable
problem (invalid JSON, no ``task_id``, a missing field, an entry point the prompt does not
define) is listed in :attr:`ProblemSet.errors` as ``FILE:LINE: message``, and the rest of the
file is read.  A file that cannot be read at all (missing, a ``.gz`` that is not gzip, not
UTF-8) raises :class:`ProblemsError`.
"""

from __future__ import annotations

import gzip
import json
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from pytest_gpucc.problem_tests import Unstateable
from pytest_gpucc.problems_evalplus import FIELDS as EVALPLUS_FIELDS
from pytest_gpucc.problems_evalplus import evalplus_suite, without_contract
from pytest_gpucc.problems_humaneval import FIELDS as HUMAN_EVAL_FIELDS
from pytest_gpucc.problems_humaneval import human_eval_suite
from pytest_gpucc.problems_mbpp import FIELDS as MBPP_FIELDS
from pytest_gpucc.problems_mbpp import mbpp_suite
from pytest_gpucc.suite import Suite


class ProblemsError(Exception):
    """A problems file that cannot be read at all."""


@dataclass
class Problem:
    task_id: str
    line: int  # its line in the problems file
    suite: Suite | None = None  # None: reason says why there is none
    reason: str | None = None
    reference: str | None = None  # the canonical solution (what is appended to the prompt)
    kind: str = "human-eval"  # its format: human-eval, mbpp or evalplus
    record: dict | None = field(default=None, repr=False)  # the record as read (what the CPython fallback runs)


@dataclass
class ProblemSet:
    path: Path
    problems: list[Problem] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)  # "FILE:LINE: message", in file order

    def by_task(self) -> dict[str, Problem]:
        return {p.task_id: p for p in self.problems}


def load_problems(path) -> ProblemSet:
    """Read a problems file; ProblemsError when it cannot be read at all."""
    path = Path(path)
    found = ProblemSet(path)
    first_line: dict[str, int] = {}
    for lineno, line in enumerate(_read_text(path).split("\n"), 1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as e:
            found.errors.append(f"{path}:{lineno}: invalid JSON: {e.msg} (column {e.colno})")
            continue
        task_id = record.get("task_id") if isinstance(record, dict) else None
        if type(task_id) is int and "test_list" in record:
            task_id = str(task_id)  # MBPP numbers its problems
        if not isinstance(task_id, str):
            found.errors.append(f"{path}:{lineno}: expected an object with a string 'task_id'")
            continue
        if task_id in first_line:
            found.errors.append(f"{path}:{lineno}: task_id {task_id!r} again (first on line {first_line[task_id]}); "
                                "this line is ignored")  # fmt: skip
            continue
        first_line[task_id] = lineno
        problem = read_problem(path, lineno, task_id, record)
        if problem.reason and problem.reason.startswith("bad problem"):
            found.errors.append(f"{path}:{lineno}: {task_id}: {problem.reason}")
        found.problems.append(problem)
    return found


def _read_text(path: Path) -> str:
    try:
        data = path.read_bytes()
    except OSError as e:
        raise ProblemsError(f"{path}: cannot read the problems file: {e.strerror or e}") from None
    if path.suffix == ".gz":
        try:
            data = gzip.decompress(data)
        except (OSError, EOFError, zlib.error) as e:
            raise ProblemsError(f"{path}: not a gzip file ({e})") from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise ProblemsError(f"{path}: not UTF-8 text (byte {e.start})") from None


# -- records --------------------------------------------------------------------------------


def read_problem(path: Path, line: int, task_id: str, record: dict) -> Problem:
    """One record as a Problem (EvalPlus when it has a ``base_input``, else MBPP when it has a
    ``test_list``, else human-eval): with its suite, or the reason it has none."""
    form = next(f for f in FORMATS if f.marker is None or f.marker in record)
    missing = [f"no {kind.__name__} {k!r}" for k, kind in form.fields.items() if not isinstance(record.get(k), kind)]
    if missing:
        return Problem(task_id, line, reason=f"bad problem: {', '.join(missing)}", kind=form.kind)
    reference = record.get(form.reference)
    reference = form.clean(reference) if isinstance(reference, str) else None
    try:
        suite = form.suite(path, task_id, record)
    except Unstateable as e:
        usable = None if str(e).startswith("bad problem") else record
        return Problem(task_id, line, reason=str(e), reference=reference, kind=form.kind, record=usable)
    return Problem(task_id, line, suite, reference=reference, kind=form.kind, record=record)


@dataclass(frozen=True)
class _Format:
    kind: str  # Problem.kind
    marker: str | None  # the field that tells a record of this format (None: the default)
    fields: dict[str, type]  # the fields a record needs, and their types
    suite: Callable[[Path, str, dict], Suite]
    reference: str  # the field that holds the canonical solution
    clean: Callable[[str], str] = lambda text: text  # the canonical solution as it is run


FORMATS = (  # in the order they are tried
    _Format("evalplus", "base_input", EVALPLUS_FIELDS, evalplus_suite, "canonical_solution", without_contract),
    _Format("mbpp", "test_list", MBPP_FIELDS, mbpp_suite, "code"),
    _Format("human-eval", None, HUMAN_EVAL_FIELDS, human_eval_suite, "canonical_solution"),
)
