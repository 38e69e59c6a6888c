"""Problem files read into suites in memory (pytest_gpucc.problems): the human-eval format, types
inferred for untyped prompts, per-problem reasons, and bad input named by file and line.

data/humaneval_excerpt.jsonl holds 7 problems of OpenAI's HumanEval (MIT licence), verbatim from
human-eval 1.0.3's data/HumanEval.jsonl.gz but for one line: HumanEval/1's canonical solution says
`del current_string[:]` for `current_string.clear()` (the same in CPython), a form gpucc still
rejects, so that a canonical solution the compiler cannot take stays tested
(test_problem_files.py's step budget)."""

import gzip
import json
from pathlib import Path

import pytest

from pytest_gpucc.infer_types import CannotInfer, Evidence, infer
from pytest_gpucc.problems import ProblemsError, load_problems
from pytest_gpucc.problems_humaneval import human_eval_suite

EXCERPT = Path(__file__).parent / "data" / "humaneval_excerpt.jsonl"


def excerpt_records() -> list[dict]:
    return [json.loads(line) for line in EXCERPT.read_text().splitlines()]


def test_the_excerpt_becomes_suites_and_reasons():
    problems = load_problems(EXCERPT)
    assert problems.errors == []
    found = {p.task_id: p for p in problems.problems}
    assert list(found) == ["HumanEval/1", "HumanEval/2", "HumanEval/3", "HumanEval/13", "HumanEval/53",
                           "HumanEval/55", "HumanEval/72"]  # fmt: skip
    assert found["HumanEval/53"].suite is None
    assert found["HumanEval/53"].reason == "its check uses `import random`"
    for p in found.values():
        assert p.reference == next(r["canonical_solution"] for r in excerpt_records() if r["task_id"] == p.task_id)
        if p.suite is not None:
            assert p.suite.task == p.task_id and p.suite.prompt.startswith(
                next(r["prompt"] for r in excerpt_records() if r["task_id"] == p.task_id))


def test_check_asserts_become_a_table_and_single_tests():
    suite = load_problems(EXCERPT).by_task()["HumanEval/2"].suite
    assert [(t.name, t.params, t.cases) for t in suite.tests] == [
        ("test_check", ["number", "expected"], [(3.5, 0.5)]),  # assert candidate(3.5) == 0.5
        ("test_check_line_11", [], [()]),  # assert abs(candidate(1.33) - 0.33) < 1e-6
        ("test_check_line_12", [], [()]),
    ]
    assert "    assert abs(truncate_number(1.33) - 0.33) < 1e-06\n" in suite.device_source  # candidate bound
    assert [s.name for s in suite.stubs] == ["truncate_number"]


def test_untyped_prompts_get_the_types_their_tests_imply():
    problems = load_problems(EXCERPT).by_task()
    assert problems["HumanEval/55"].suite.headers == {"fib": "def fib(n: int) -> int:"}
    fly = problems["HumanEval/72"].suite  # `assert candidate([3, 2, 3], 9) is True`: a bool, compared with ==
    assert fly.headers == {"will_it_fly": "def will_it_fly(q: list[int], w: int) -> bool:"}
    assert fly.tests[0].cases[0] == ([3, 2, 3], 9, True)
    assert "from typing" not in problems["HumanEval/3"].suite.device_source
    assert "operations: list[int]" in problems["HumanEval/3"].suite.device_source


@pytest.mark.parametrize(
    "calls, truthy, given, types",
    [
        ([([1, 2], 1.5), ([], 2)], False, [None], (["list[int]"], "float")),  # int widened, [] takes the type
        ([([1.0, 2],), ([3],)], True, ["list"], (["list[float]"], "bool")),  # assert f(xs): a truth value
        ([(True, True)], False, [None], (["bool"], "bool")),
        ([((1, "a"), [(1, None)]), ((2.5, ""), [])], False, [None],
         (["tuple[float, str]"], "list[tuple[int, None]]")),  # tuples, an int widened in a field
        ([([[1], []], None), ([[2.5]], 3)], False, [None], (["list[list[float]]"], "Optional[int]")),
        ([("ab", "c"), ("", "")], False, [None], (["str"], "str")),
        ([(["a", "b"], ["x"]), ([], [])], False, [None], (["list[str]"], "list[str]")),
        ([("a b", {"a": 1, "b": 1}), ("", {})], False, [None], (["str"], "dict[str, int]")),  # HumanEval/111
        ([({"p": "q"}, True), ({}, False)], False, [None], (["dict[str, str]"], "bool")),  # {} takes the others'
        ([({(1, 2): [1.5]},), ({(3, 4): [2]},)], True, [None], (["dict[tuple[int, int], list[float]]"], "bool")),
    ],
)
def test_inference_joins_the_literals_of_all_calls(calls, truthy, given, types):
    evidence = Evidence(["x"])
    for arg, *expected in calls:
        evidence.call([arg], expected[0] if expected else None, bool(expected))
    evidence.truthy = truthy
    assert infer(evidence, given, None) == types


@pytest.mark.parametrize(
    "values, message",
    [
        ([1, True], "parameter 'x' has values of several types (bool, int)"),
        ([{1, 2}], "parameter 'x': {1, 2} is a set, which gpucc does not have"),
        ([[1, "a"]], "parameter 'x': [1, 'a'] has values of several types (int, str)"),
        ([(1, "a"), (1, 2)], "parameter 'x' has values of several types (tuple[int, int], tuple[int, str])"),
        ([["a"], [1]], "parameter 'x' has values of several types (list[int], list[str])"),
        ([[]], "parameter 'x': only empty lists, so no element type"),
        ([{"a": 1, 8: 2}], "parameter 'x': {'a': 1, 8: 2} has values of several types (int, str)"),  # HumanEval/95
        ([{}], "parameter 'x': only empty dicts, so no key or value type"),
    ],
)
def test_inference_names_what_does_not_fit(values, message):
    evidence = Evidence(["x"])
    for v in values:
        evidence.call([v], 0, True)
    with pytest.raises(CannotInfer) as e:
        infer(evidence, [None], None)
    assert str(e.value) == message


def test_imports_before_the_prompts_docstring_stay_the_candidates():
    record = {
        "task_id": "T/0", "entry_point": "f", "canonical_solution": "    return math.ceil(x / 2)\n",
        "prompt": "def f(x):\n    import math\n    \"\"\"Half, rounded up.\"\"\"\n",
        "test": "def check(candidate):\n    assert candidate(3) == 2\n    assert candidate(4) == 2\n",
    }  # fmt: skip
    suite = human_eval_suite(Path("p.jsonl"), "T/0", record)
    assert suite.headers == {"f": "def f(x: int) -> int:"}
    assert "import" not in suite.device_source and '"""Half, rounded up."""\n    ...\n' in suite.device_source


def test_bad_lines_are_named_by_file_and_line_and_the_rest_is_read(tmp_path):
    good = excerpt_records()[1]  # HumanEval/2
    no_entry = dict(excerpt_records()[2], entry_point="nowhere")
    lines = [json.dumps(good), "{not json", "", json.dumps({"prompt": "x"}), json.dumps(good),
             json.dumps(no_entry), json.dumps({"task_id": "T/9", "prompt": "def f() -> int:\n"})]  # fmt: skip
    path = tmp_path / "problems.jsonl"
    path.write_text("\n".join(lines) + "\n")
    problems = load_problems(path)
    assert problems.errors == [
        f"{path}:2: invalid JSON: Expecting property name enclosed in double quotes (column 2)",
        f"{path}:4: expected an object with a string 'task_id'",
        f"{path}:5: task_id 'HumanEval/2' again (first on line 1); this line is ignored",
        f"{path}:6: HumanEval/3: bad problem: the prompt defines no function 'nowhere' (its entry_point)",
        f"{path}:7: T/9: bad problem: no str 'entry_point', no str 'test'",
    ]
    assert [(p.task_id, p.line, p.suite is not None) for p in problems.problems] == [
        ("HumanEval/2", 1, True), ("HumanEval/3", 6, False), ("T/9", 7, False)]  # fmt: skip


def test_gzip_files_are_read_and_a_gz_that_is_not_one_is_named(tmp_path):
    packed = tmp_path / "HumanEval.jsonl.gz"
    packed.write_bytes(gzip.compress(EXCERPT.read_bytes()))
    assert [p.task_id for p in load_problems(packed).problems] == [r["task_id"] for r in excerpt_records()]
    fake = tmp_path / "fake.jsonl.gz"
    fake.write_bytes(EXCERPT.read_bytes())
    with pytest.raises(ProblemsError, match=rf"^{fake}: not a gzip file \(Not a gzipped file"):
        load_problems(fake)
    with pytest.raises(ProblemsError, match=rf"^{tmp_path / 'missing.jsonl'}: cannot read the problems file"):
        load_problems(tmp_path / "missing.jsonl")
