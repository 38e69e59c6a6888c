"""`pytest --gpu-candidates examples/` on the repository's examples: the expected outcomes and
fastest candidates, and CPython (the oracle) agrees with every candidate that ran."""

from pathlib import Path

from gpucc_project import run

from pytest_gpucc.candidates import candidates_for, load_samples
from pytest_gpucc.suite import load_suite

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
SAMPLES = EXAMPLES / "collatz_samples.jsonl"

EXPECTED = {  # suite: (fastest, {candidate: status})
    "gcd": ("uses_tuple.py", {"uses_tuple.py": "passed", "euclid_mod.py": "passed", "euclid_sub.py": "passed",
            "recursive.py": "passed", "wrong_min.py": "failed", "loops_on_zero.py": "timeout",
            "uses_numpy.py": "compile error", "pair_list.py": "passed"}),  # its 500 garbage lists are collected
    "fib": ("iterative.py", {"iterative.py": "passed", "naive_recursive.py": "passed", "helper_recursive.py": "passed",
            "wrong_base.py": "failed", "renamed.py": "link error"}),
    "is_prime": ("trial_odd.py", {"trial_odd.py": "passed", "trial_sqrt.py": "passed", "trial_all.py": "passed",
                 "wrong_bound.py": "failed", "zero_divisor.py": "error"}),
    "sum_squares": ("formula.py", {"formula.py": "passed", "loop.py": "passed", "while_loop.py": "passed",
                    "off_by_one.py": "failed", "float_formula.py": "passed"}),
    "Collatz/0": ("Collatz/0#1", {"while_loop.py": "passed", "recursive.py": "passed", "bool_result.py": "link error",
                  "Collatz/0#0": "passed", "Collatz/0#1": "passed", "Collatz/0#2": "failed",
                  "Collatz/0#3": "compile error", "Collatz/0#4": "passed", "Collatz/0#5": "passed",
                  "Collatz/0#6": "passed"}),
    "close_elements": ("sorted_neighbours.py", {"all_pairs.py": "passed", "half_pairs.py": "passed",
                       "sorted_neighbours.py": "passed", "neighbours_only.py": "failed", "off_by_one.py": "error"}),
}  # fmt: skip


def cpython_first_failure(suite, source):
    """(test, case, exception name) of the first failing job when CPython runs it, or None."""
    ns = {"cases": lambda table: (lambda f: f)}
    exec(compile(suite.source, str(suite.path), "exec"), ns)
    exec(compile(source, "<candidate>", "exec"), ns)
    for t in suite.tests:
        for i, case in enumerate(t.cases):
            try:
                ns[t.name](*case)
            except Exception as e:  # noqa: BLE001 - the oracle's verdict
                return t.name, i, type(e).__name__
    return None


def vm_first_failure(cand):
    for t in cand["tests"]:
        for c in t["cases"]:
            if c["status"] != "OK":
                label = {"ASSERT_FAILED": "AssertionError", "ZERO_DIVISION": "ZeroDivisionError",
                         "INDEX_ERROR": "IndexError", "OVERFLOW": "OverflowError", "VALUE_ERROR": "ValueError"}[c["status"]]
                return t["name"], c["case"], label
    return None


def test_examples(gpucc):
    result, doc = run(gpucc, str(EXAMPLES), f"--gpucc-samples={SAMPLES}")
    assert result.ret == 0, result.stdout.str()
    assert doc["launches"] == 1
    got = {s["task"]: (s["fastest"], {c["name"]: c["status"] for c in s["candidates"]}) for s in doc["suites"]}
    assert got == EXPECTED
    for s in doc["suites"]:
        assert s["speedup_vs_slowest"] > 1.5  # correct candidates of clearly different cost
    result.stdout.fnmatch_lines(["*fastest: uses_tuple.py cost * faster than the slowest passing*"])

    samples = load_samples(SAMPLES)
    for s in doc["suites"]:
        suite = load_suite(EXAMPLES / Path(s["suite"]).name)
        sources = {c.name: c.source for c in candidates_for(suite, samples, SAMPLES)}
        for cand in s["candidates"]:
            # the memory limit is gpucc's (a job's heap is far smaller than CPython's memory), not CPython's
            if cand["status"] in ("passed", "failed", "error") and "memory limit" not in cand["reason"]:
                assert vm_first_failure(cand) == cpython_first_failure(suite, sources[cand["name"]]), cand["name"]
