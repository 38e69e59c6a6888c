"""The plugin end to end (gpucc, in-process): items, reasons, ranking, exit codes, JSON."""

import json

from gpucc_project import GCD_SUITE, run, write_project


def cands(doc, suite=0):
    return {c["name"]: c for c in doc["suites"][suite]["candidates"]}


def test_reasons_ranking_and_one_launch(project):
    result, doc = run(project, "-v", "--gpucc-step-limit=5000")
    assert result.ret == 0
    assert result.parseoutcomes() == {"passed": 2, "rejected": 5}
    result.stdout.fnmatch_lines([  # -v: the rejected candidates' full reports in the summary
        "*suite_gcd.py::fast.py PASSED*", "*suite_gcd.py::wrong.py REJECTED*",
        "*gpucc summary*", "gpucc: backend cpu, 1 suite, 7 candidates (7 unique sources), * jobs, 1 VM launch;*",
        "suite_gcd.py (task gcd): 2/7 candidates passed",
        "*fastest: fast.py cost * faster than the slowest passing (slow.py)",
        "    divzero.py: test_table(a=12, b=18, want=6): ZeroDivisionError at gcd_candidates/divzero.py:2",
        "      >   return a // (b - b)",
        "    forever.py: test_table(a=12, b=18, want=6): did not finish within 5000 steps (the deterministic timeout)",
        "    listy.py: compile error: gcd_candidates/listy.py:2:10: error: dict keys and set elements*",
        "              xs = {[a, b]}", "                   ^",
        "    misnamed.py: link error: *does not define 'gcd'*",
        "    wrong.py: test_table(a=12, b=18, want=6): assert gcd(a, b) == want, where 3 == 6",
        "      suite_gcd.py:7: in test_table(a=12, b=18, want=6)",
    ])  # fmt: skip
    assert doc["launches"] == 1 and doc["backend"] == "cpu"
    assert doc["jobs"] == 5 * 4  # five candidates compiled and linked, 3 cases + 1 plain test each
    assert set(doc["timings"]) == {"collect", "compile", "link", "launch", "report"}
    c = cands(doc)
    assert c["fast.py"]["rank"] == 1 and c["slow.py"]["rank"] == 2 and c["fast.py"]["cost"] < c["slow.py"]["cost"]
    assert [c[n]["status"] for n in ("wrong.py", "forever.py", "listy.py", "divzero.py", "misnamed.py")] == [
        "failed", "timeout", "compile error", "error", "link error"]  # fmt: skip
    case = c["wrong.py"]["tests"][0]["cases"][0]
    assert case["status"] == "ASSERT_FAILED" and case["operands"] == [3, 6] and case["line"] == 7
    assert doc["suites"][0]["fastest"] == "fast.py"


def test_no_passing_candidate_fails_the_run_and_strict(gpucc):
    wrong = {"wrong.py": GCD_SUITE.replace("...", "return 3").split("\n\n\n@")[0] + "\n"}
    write_project(gpucc, candidates=wrong)
    result, _ = run(gpucc)
    assert result.ret == 1 and result.parseoutcomes() == {"failed": 1}
    result.stdout.fnmatch_lines(["*suite_gcd.py:7: in test_table(a=12, b=18, want=6)", ">   assert gcd(a, b) == want",
                                 "E   AssertionError: where 3 == 6", "*3 of 4 test cases failed*"])  # fmt: skip
    write_project(gpucc, candidates={**wrong, "good.py": "def gcd(a: int, b: int) -> int:\n    if b == 0:\n"
                                        "        return a\n    return gcd(b, a % b)\n"})  # fmt: skip
    result, _ = run(gpucc)
    assert result.ret == 0 and result.parseoutcomes() == {"passed": 1, "rejected": 1}
    strict, _ = run(gpucc, "--gpucc-strict")
    assert strict.ret == 1 and strict.parseoutcomes() == {"passed": 1, "failed": 1}


def test_keyword_selects_candidates_and_junit_properties(project):
    result, doc = run(project, "-k", "fast or wrong", "--junitxml=junit.xml")
    assert result.parseoutcomes() == {"passed": 1, "rejected": 1, "deselected": 5}
    assert sorted(cands(doc)) == ["fast.py", "wrong.py"] and doc["units"] == 3 and doc["launches"] == 1
    junit = (project.path / "junit.xml").read_text()
    assert '<property name="gpucc_rejected" value="test_table(a=12, b=18, want=6): assert gcd(a, b) == want, ' in junit
    assert "<failure" not in junit


def test_bad_suite_is_a_collection_error(gpucc):
    write_project(gpucc, suite=GCD_SUITE.replace("(0, 9, 9)", "(0, 9)"))
    result, _ = run(gpucc)
    assert result.ret == 2
    result.stdout.fnmatch_lines(["*bad gpucc suite: *suite_gcd.py:5: case (0, 9) of 'test_table' does not give 3 value(s)*"])
    result, _ = run(gpucc, "--gpucc-samples=missing.jsonl")
    assert result.ret == 4 and "missing.jsonl: cannot read samples" in result.stderr.str()


def test_samples_jsonl_and_identical_sources_compiled_once(gpucc):
    write_project(gpucc, candidates={"fast.py": "def gcd(a: int, b: int) -> int:\n    if b == 0:\n"
                                        "        return a\n    return gcd(b, a % b)\n"})  # fmt: skip
    body = "    while b != 0:\n        r = a % b\n        a = b\n        b = r\n    return a\n"
    records = [{"task_id": "gcd", "completion": body}, {"task_id": "gcd", "completion": "    return a + b\n"},
               {"task_id": "gcd", "completion": body}, {"task_id": "gcd", "completion": (gpucc.path / "gcd_candidates"
               / "fast.py").read_text()}, {"task_id": "nope", "completion": body}]  # fmt: skip
    (gpucc.path / "s.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    result, doc = run(gpucc, "--gpucc-samples=s.jsonl")
    assert result.ret == 0 and result.parseoutcomes() == {"passed": 4, "rejected": 1}
    c = cands(doc)
    assert sorted(c) == ["fast.py", "gcd#0", "gcd#1", "gcd#2", "gcd#3"]
    assert c["gcd#1"]["status"] == "failed" and c["gcd#0"]["cost"] == c["gcd#2"]["cost"]
    assert doc["units"] == 1 + 3  # the suite + three distinct candidate sources
    assert doc["jobs"] == 3 * 4  # identical sources also run once
    result.stdout.fnmatch_lines(["samples whose task_id matches no collected suite: nope"])


BIG_LIST_SUITE = '''
def squares(n: int) -> list[int]:
    ...


def test_many() -> None:
    assert len(squares(20000)) == 20000
'''


SQUARES = {"comp.py": "def squares(n: int) -> list[int]:\n    return [i * i for i in range(n)]\n"}


def test_a_job_whose_live_data_outgrows_the_heap_ends_with_the_memory_limit(gpucc):
    """20,000 live ints outgrow the default heap (16,384 words); the report names the option."""
    write_project(gpucc, BIG_LIST_SUITE, SQUARES, name="sq")
    result, doc = run(gpucc, "-v")
    assert result.ret == 1 and doc["heap_words"] == 16384
    result.stdout.fnmatch_lines(["*comp.py: test_many(): memory limit at sq_candidates/comp.py:2",
                                 "*E   memory limit: *(--gpucc-heap-words)"])  # fmt: skip


def test_heap_words_gives_each_job_a_larger_heap(gpucc):
    """The same job with a heap of 100,000 words (the list grows by doubling, and the collector
    does not move blocks: 50,000 is not enough)."""
    write_project(gpucc, BIG_LIST_SUITE, SQUARES, name="sq")
    result, doc = run(gpucc, "--gpucc-heap-words", "100000")
    assert result.ret == 0 and doc["heap_words"] == 100000
    assert cands(doc)["comp.py"]["status"] == "passed"


def test_heap_words_below_one_is_a_usage_error(project):
    result = project.runpytest_inprocess("--gpu-candidates", "--gpucc-heap-words=0", "-p", "no:cacheprovider")
    assert result.ret == 4
    result.stderr.fnmatch_lines(["*--gpucc-heap-words must be at least 1*"])
