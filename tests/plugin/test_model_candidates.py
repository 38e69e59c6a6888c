"""Candidates as models write them, against a typed suite: untyped (MBPP-style) interface
functions take the stub's types, typing imports, module docstrings, `__main__` blocks and other
module-level code are what CPython makes of them, and a function that reaches its end returns None (NONE_RETURNED)."""

import json

from gpucc_project import GCD_SUITE, run, write_project

from pytest_gpucc.cli import main

EUCLID = "    while b != 0:\n        r = a % b\n        a = b\n        b = r\n    return a\n"
MODEL = {
    "untyped.py": "def gcd(a, b):\n" + EUCLID,
    "dressed.py": '"""Greatest common divisor."""\nfrom typing import List, Optional\nimport doctest\n\n\n'
                  "def gcd(a, b: int):\n" + EUCLID + '\n\nif __name__ == "__main__":\n    doctest.testmod()\n'
                  "    print(gcd(12, 18))\n",
    "float_a.py": "def gcd(a: float, b):\n    return 1\n",
    "stray.py": "def gcd(a, b):\n" + EUCLID + '\n\nprint(gcd(1, 2))\nCHECKED = gcd(4, 6) == 2\nif __name__ == "__main__":\n    pass\n',
}  # fmt: skip
FALLS_OFF = {"falls_off.py": "def gcd(a: int, b: int) -> int:\n    if a > 0:\n        while b != 0:\n"
                             "            r = a % b\n            a = b\n            b = r\n        return a\n"}  # fmt: skip


def outcomes(doc):
    return {c["name"]: (c["status"], c["reason"]) for c in doc["suites"][0]["candidates"]}


def test_untyped_and_dressed_candidates_pass_a_typed_suite(gpucc):
    write_project(gpucc, candidates=MODEL)
    result, doc = run(gpucc)
    assert result.ret == 0 and result.parseoutcomes() == {"passed": 3, "rejected": 1}
    got = outcomes(doc)
    assert got["untyped.py"][0] == got["dressed.py"][0] == "passed"
    assert got["stray.py"][0] == "passed"  # its module code (a print, a call) runs before each test
    assert got["float_a.py"] == ("link error", "link error: defines gcd(float, int) -> int, but the suite's "
                                               "interface is gcd(int, int) -> int")  # fmt: skip


def test_gpucc_run_takes_an_untyped_candidate(capsys, gpucc):
    write_project(gpucc, candidates={"untyped.py": MODEL["untyped.py"]})
    assert main(["run", str(gpucc.path / "suite_gcd.py"), "-q"]) == 0
    assert "1/1 passed; fastest: untyped.py" in capsys.readouterr().out


def test_an_untyped_whole_source_sample_passes(gpucc):
    write_project(gpucc, candidates={})
    (gpucc.path / "s.jsonl").write_text(json.dumps({"task_id": "gcd", "completion": MODEL["untyped.py"]}) + "\n")
    result, doc = run(gpucc, "--gpucc-samples=s.jsonl")
    assert result.ret == 0 and outcomes(doc)["gcd#0"][0] == "passed"


def test_falling_off_the_end_is_reported_with_the_function_and_its_line(capsys, gpucc):
    write_project(gpucc, suite=GCD_SUITE, candidates=FALLS_OFF)
    result, doc = run(gpucc, "--junitxml=junit.xml")
    what = "gcd returned None (reached the end of its body without return) at gcd_candidates/falls_off.py:1"
    reason = f"test_table(a=0, b=9, want=9): {what}"
    assert result.ret == 1 and outcomes(doc)["falls_off.py"] == ("error", reason)
    result.stdout.fnmatch_lines([f"    falls_off.py: {reason}"])
    case = doc["suites"][0]["candidates"][0]["tests"][0]["cases"][2]
    assert case["status"] == "NONE_RETURNED" and case["line"] == 1
    junit = (gpucc.path / "junit.xml").read_text()  # failed (no candidate passed): the report is its <failure>
    assert "<failure" in junit and "gcd_candidates/falls_off.py:1: in test_table(a=0, b=9, want=9)" in junit
    assert "E   gcd returned None (reached the end of its body without return)" in junit
    capsys.readouterr()
    assert main(["run", str(gpucc.path / "suite_gcd.py")]) == 1
    assert f"    falls_off.py: {reason}" in capsys.readouterr().out.splitlines()


def test_a_problem_sample_falling_off_its_end_fails_as_returned_none(gpucc):
    problem = {"task_id": "T/0", "entry_point": "f", "prompt": 'def f(n: int) -> int:\n    """n."""\n',
               "canonical_solution": "    return n\n",
               "test": "def check(candidate):\n    assert candidate(3) == 3\n    assert candidate(0) == 0\n"}  # fmt: skip
    (gpucc.path / "problems.jsonl").write_text(json.dumps(problem) + "\n")
    sample = {"task_id": "T/0", "completion": "    if n > 0:\n        return n\n"}
    (gpucc.path / "s.jsonl").write_text(json.dumps(sample) + "\n")
    result, _ = run(gpucc, "--gpucc-problems=problems.jsonl", "--gpucc-samples=s.jsonl")
    assert result.ret == 1
    written = json.loads((gpucc.path / "s.jsonl_results.jsonl").read_text())
    assert written["passed"] is False and written["result"] == (
        "failed: test_check(n=0, expected=0): f returned None (reached the end of its body without return) at T/0#0:1")
