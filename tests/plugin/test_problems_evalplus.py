"""EvalPlus problem files (pytest_gpucc.problems_evalplus): the canonical solution computes the
expected outputs on the VM, in the same launch, one job per input; types inferred from the
inputs' literals; the problem's tolerance honoured as EvalPlus honours it.

data/evalplus_small.jsonl: nine problems written for these tests in EvalPlus's HumanEval+
format (task_id, prompt, entry_point, canonical_solution, contract, base_input, plus_input,
atol); the canonical solutions carry EvalPlus's `# $_CONTRACT_$` lines where it has them."""

import copy
import json
import shutil
from pathlib import Path

import numpy as np
import pytest
from gpucc_project import run

from pytest_gpucc.evaluate import evaluate
from pytest_gpucc.problems import load_problems, read_problem

EVALPLUS = Path(__file__).parent / "data" / "evalplus_small.jsonl"
FIB_LOOP = "    a = 0\n    b = 1\n    for _ in range(n):\n        t = a + b\n        a = b\n        b = t\n"
FIB_LOOP += "    return a\n"
RESCALE = ("    lo = min(numbers)\n    hi = max(numbers)\n    out = []\n    for x in numbers:\n        out.append({})\n"
           "    return out\n")
LEIBNIZ = "    total = 0.0\n    for k in range({}):\n        total += (-1) ** k / (2 * k + 1)\n    return {}\n"
SAMPLES = [  # (task_id, completion, result)
    ("EvalPlusSmall/0", "    return number % 1.0\n", "passed"),  # the canonical solution
    ("EvalPlusSmall/0", "    return number - int(number) + 1e-9\n", "passed"),  # within EvalPlus's 1e-6 for floats
    ("EvalPlusSmall/0", "    return number - int(number) + 1e-5\n",
     "failed: test_base_input(number=3.5): assert got == want, where 0.50001 == 0.5"),
    ("EvalPlusSmall/1", RESCALE.format("(x - lo) * (1.0 / (hi - lo))"),
     "passed"),  # not bit-equal on [0.1, 0.2, 0.3]: within 1e-6
    ("EvalPlusSmall/1", "    numbers.sort()\n" + RESCALE.format("(x - lo) / (hi - lo)"),
     "failed: test_base_input(numbers=[100.0, 49.9]): assert got[i] == want[i], where 0.0 == 1.0"),
    ("EvalPlusSmall/2", "    if n < 2:\n        return n\n    return fib(n - 1) + fib(n - 2)\n",
     "timed out"),  # fib(50): over the step budget, as over EvalPlus's time limit
    ("EvalPlusSmall/2", "def fib(n):\n" + FIB_LOOP, "passed"),  # restated without types: the inferred ones
    ("EvalPlusSmall/2", FIB_LOOP.replace("range(n)", "range(n - 1)"),
     "failed: test_base_input(n=10): assert fib(n) == want, where 34 == 55"),
    ("EvalPlusSmall/3", "    return xs[-1]\n",  # right on the list the canonical solution sorted: it got a copy
     "failed: test_base_input(xs=[3, 9, 2]): assert largest(xs) == want, where 2 == 9"),
    ("EvalPlusSmall/3", "    return max(xs)\n", "passed"),
    ("EvalPlusSmall/4", LEIBNIZ.format("n + 1", "4 * total"), "passed"),  # off by about 4 / (2n + 1): within atol
    ("EvalPlusSmall/4", LEIBNIZ.format("n", "total"),
     "failed: test_base_input(n=1000): assert got == want, where 0.7851481634599485 == 3.140592653839794"),
    ("EvalPlusSmall/5", "    return 0\n", "not run: count_keys's parameter 'd' is dict: gpucc cannot take its inputs"),
    ("EvalPlusSmall/6", "    return n % 2 == 0\n",
     "not run: an input does not fit the gpucc types: case (True,) of 'plus_input[1]': n=True is not int"),
    ("EvalPlusSmall/7", "    return []\n",  # the canonical solution's lambda and map compile now
     "failed: test_base_input(n=3): assert squares(n) == want, where [] == [0, 1, 4]"),
    ("EvalPlusSmall/7", "    return [i * i for i in range(n)]\n", "passed"),
    ("EvalPlusSmall/8", "    out = ''\n    for w in words:\n        out += w.upper() + ' '\n    return out[:-1]\n",
     "passed"),  # Unicode: 'straße'.upper() == 'STRASSE'
    ("EvalPlusSmall/8", "    return ' '.join(words)\n",
     "failed: test_base_input(words=['hi', 'there']): assert shout(words) == want, where 'hi there' == 'HI THERE'"),
]  # fmt: skip


def records() -> dict[str, dict]:
    return {r["task_id"]: r for r in map(json.loads, EVALPLUS.read_text().splitlines())}


def write_inputs(folder: Path, samples=SAMPLES) -> None:
    shutil.copy(EVALPLUS, folder / "evalplus.jsonl")
    (folder / "samples.jsonl").write_text("".join(json.dumps({"task_id": t, "completion": c}) + "\n"
                                                  for t, c, _ in samples))  # fmt: skip


def written(folder: Path) -> list[dict]:
    return [json.loads(line) for line in (folder / "samples.jsonl_results.jsonl").read_text().splitlines()]


def test_an_evalplus_file_runs_end_to_end(gpucc):
    write_inputs(gpucc.path)
    result, doc = run(gpucc, "--gpucc-problems=evalplus.jsonl", "--gpucc-samples=samples.jsonl")
    assert result.ret == 0
    assert [(r["task_id"], r["result"]) for r in written(gpucc.path)] == [(t, r) for t, _, r in SAMPLES]
    suites = {s["task"]: s for s in doc["suites"]}
    for task in ("EvalPlusSmall/0", "EvalPlusSmall/1", "EvalPlusSmall/2", "EvalPlusSmall/3", "EvalPlusSmall/4",
                 "EvalPlusSmall/8"):
        reference = suites[task]["reference"]
        n_inputs = sum(len(records()[task][k]) for k in ("base_input", "plus_input"))
        assert reference["status"] == "passed" and len(reference["budgets"]) == n_inputs  # one job per input


def test_verdicts_are_evalplus_verdicts_in_cpython():
    """Every passed / failed verdict is the one EvalPlus's comparison gives in CPython: the
    canonical solution's output on a copy of each input, then the sample's, compared exactly or,
    for floats or a nonzero atol, with numpy.allclose(rtol=1e-07, atol) (1e-6 for floats when
    atol is 0)."""
    problems = records()
    for task, completion, result in SAMPLES:
        if result not in ("passed",) and not result.startswith("failed"):
            continue
        p = problems[task]
        reference, sample = entry_point(p, p["canonical_solution"]), entry_point(p, completion)
        ok = all(evalplus_close(sample(*copy.deepcopy(args)), reference(*copy.deepcopy(args)), p["atol"])
                 for args in p["base_input"] + p["plus_input"])  # fmt: skip
        assert ok == (result == "passed"), (task, completion)


def entry_point(problem: dict, completion: str):
    namespace = {}
    exec(problem["prompt"] + completion, namespace)  # the test's own samples, as EvalPlus runs them
    return namespace[problem["entry_point"]]


def evalplus_close(out, expected, atol) -> bool:
    """EvalPlus's comparison of a result with the expected one (evalplus/eval/__init__.py)."""
    if out == expected:
        return True
    floats = isinstance(expected, float) or isinstance(expected, list) and all(type(x) is float for x in expected)
    atol = atol or (1e-6 if floats else 0)
    if not atol or type(out) is not type(expected) or isinstance(expected, list) and len(out) != len(expected):
        return False
    return bool(np.allclose(out, expected, rtol=1e-07, atol=atol))


def test_gpucc_evaluate_writes_the_same_results(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write_inputs(tmp_path)
    evaluation = evaluate("evalplus.jsonl", "samples.jsonl", ks=(1,))
    assert [r["result"] for r in written(tmp_path)] == [r for _, _, r in SAMPLES]
    assert evaluation.counts == {"passed": 8, "failed": 7, "timed out": 1, "not run": 2}


def test_the_suite_calls_the_renamed_canonical_solution_then_the_sample():
    suite = load_problems(EVALPLUS).by_task()["EvalPlusSmall/1"].suite
    assert [(t.name, len(t.cases)) for t in suite.tests] == [("test_base_input", 3), ("test_plus_input", 3)]
    assert suite.tests[1].cases[1] == ([-3.5, 0.0, 7.0],)  # ints in a list[float] input are floats
    assert [s.name for s in suite.stubs] == ["rescale_to_unit"]
    assert "def canonical_rescale_to_unit(numbers: list[float]) -> list[float]:" in suite.source
    assert "    want = canonical_rescale_to_unit(numbers[:])\n    got = rescale_to_unit(numbers)\n" in suite.source
    assert suite.prompt == records()["EvalPlusSmall/1"]["prompt"]  # a sample is the prompt + its completion


def problem(**changes):
    """EvalPlusSmall/2 (fib, untyped) with `changes`, read as a problem."""
    record = dict(records()["EvalPlusSmall/2"], **changes)
    return read_problem(Path("p.jsonl"), 1, record["task_id"], record)


def test_a_recursive_canonical_solution_calls_itself_not_the_sample():
    p = problem(canonical_solution="    return n if n < 2 else fib(n - 1) + fib(n - 2)\n")
    assert "    return n if n < 2 else canonical_fib(n - 1) + canonical_fib(n - 2)\n" in p.suite.source
    assert p.reference == "    return n if n < 2 else fib(n - 1) + fib(n - 2)\n"


def test_contract_lines_are_blanked_from_the_canonical_solution():
    p = load_problems(EVALPLUS).by_task()["EvalPlusSmall/0"]
    assert "$_CONTRACT_$" not in p.reference and "$_CONTRACT_$" not in p.suite.source
    assert p.reference == "\n\n    return number % 1.0\n"  # line numbers kept


@pytest.mark.parametrize(
    "changes, reason",
    [
        ({"prompt": 'def fib(n):\n    """The n-th Fibonacci number."""\n'},  # no >>> example: no return type
         "the prompt does not type fib and its inputs and >>> examples do not say the types: the return value: no "
         "test gives it a literal value to infer its type from"),
        ({"plus_input": [[3], [2.5]]}, None),  # an int and a float: n is a float
        ({"plus_input": [[3, 4]]}, "bad problem: plus_input[0] has 2 arguments; fib takes 1"),
        ({"base_input": [], "plus_input": []}, "bad problem: no inputs (base_input and plus_input are empty)"),
        ({"atol": "0"}, "bad problem: atol '0' is not a non-negative number"),
        ({"plus_input": [[2**70]]}, "an input does not fit the gpucc types: case (1180591620717411303424,) of "
         "'plus_input[0]': n=1180591620717411303424 does not fit in 64 bits"),
        ({"canonical_solution": "    return fib(n - 1) +\n"}, "bad problem: its prompt and canonical_solution are "
         "not valid Python: line 8: invalid syntax"),
    ],
)  # fmt: skip
def test_what_cannot_be_stated_gets_a_reason(changes, reason):
    p = problem(**changes)
    assert p.reason == reason
    if reason is None:
        assert p.suite.headers == {"fib": "def fib(n: float) -> int:"}


def test_bad_lines_of_an_evalplus_file_are_named_and_the_rest_is_read(tmp_path):
    lines = EVALPLUS.read_text().splitlines()
    bad = dict(json.loads(lines[0]), task_id="Bad/0")
    del bad["canonical_solution"]
    (tmp_path / "p.jsonl").write_text("\n".join([json.dumps(bad), *lines]) + "\n")
    found = load_problems(tmp_path / "p.jsonl")
    assert found.errors == [f"{tmp_path / 'p.jsonl'}:1: Bad/0: bad problem: no str 'canonical_solution'"]
    assert len(found.problems) == 10 and sum(p.suite is not None for p in found.problems) == 7
