"""Suite files: parsing, checks with file:line errors, the device source."""

from pathlib import Path

import pytest

from pytest_gpucc.suite import SuiteError, parse_suite

GOOD = '''\
# gpucc: task = HumanEval/7
def gcd(a: int, b: int) -> int:
    """Greatest common divisor."""
    ...


def helper(x: int) -> int:
    return x


@cases([(12, 18, 6),
        (7, 5, 1)])
def test_table(a: int, b: int, want: int) -> None:
    assert gcd(a, b) == want


@cases([True, False])
def test_flag(f: bool) -> None:
    assert f or not f


def test_plain() -> None:
    assert gcd(2, 4) == 2
'''


def parse(text: str, name: str = "suite_gcd.py"):
    return parse_suite(Path("/x") / name, text)


def test_good_suite_parts():
    s = parse(GOOD)
    assert s.task == "HumanEval/7" and s.name == "gcd"
    assert s.candidates_dir == Path("/x/gcd_candidates")
    assert [x.name for x in s.stubs] == ["gcd"]
    assert s.stubs[0].prompt == 'def gcd(a: int, b: int) -> int:\n    """Greatest common divisor."""\n'
    assert [(t.name, t.params, t.cases) for t in s.tests] == [
        ("test_table", ["a", "b", "want"], [(12, 18, 6), (7, 5, 1)]),
        ("test_flag", ["f"], [(True,), (False,)]),
        ("test_plain", [], [()]),
    ]
    assert s.tests[0].describe(1) == "test_table(a=7, b=5, want=1)"
    assert s.n_jobs_per_candidate == 5


def test_device_source_blanks_decorators_and_keeps_lines():
    s = parse(GOOD)
    src, dev = s.source.splitlines(), s.device_source.splitlines()
    assert len(src) == len(dev)
    changed = [i + 1 for i, (a, b) in enumerate(zip(src, dev)) if a != b]
    assert changed == [11, 12, 17]
    assert all(dev[i - 1] == "" for i in changed)
    assert "cases" not in s.device_source


def test_task_defaults_to_file_name_and_one_line_stub_prompt():
    s = parse("def f(n: int) -> bool: ...\n\n\ndef test_x() -> None:\n    assert f(1)\n", "suite_odd.py")
    assert s.task == "odd" and s.stubs[0].prompt == "def f(n: int) -> bool:\n"


@pytest.mark.parametrize(
    "text, line, fragment",
    [
        ("def f(x: int) -> int: ...\ndef test_a() -> None\n    pass\n", 2, "invalid syntax"),
        ("def test_a() -> None:\n    pass\n", 1, "no interface stub"),
        ("def f(x: int) -> int: ...\n", 1, "no test_"),
        ("def f(x: int) -> int: ...\n@other\ndef test_a() -> None:\n    pass\n", 2, "only the @cases"),
        ("def f(x: int) -> int: ...\ndef test_a(x: int) -> None:\n    pass\n", 2, "no @cases"),
        ("def f(x: int) -> int: ...\n@cases([1])\ndef test_a() -> None:\n    pass\n", 2, "takes no parameters"),
        ("def f(x: int) -> int: ...\n@cases([(1, 2),\n (3,)])\ndef test_a(x: int, y: int) -> None:\n    pass\n",
         3, "does not give 2 value(s)"),
        ("def f(x: int) -> int: ...\n@cases([True])\ndef test_a(x: int) -> None:\n    pass\n", 2, "x=True is not int"),
        ("def f(x: int) -> int: ...\n@cases([1])\ndef test_a(x: bool) -> None:\n    pass\n", 2, "x=1 is not bool"),
        ("def f(x: int) -> int: ...\n@cases([9223372036854775808])\ndef test_a(x: int) -> None:\n    pass\n", 2, "64 bits"),
        ("def f(x: int) -> int: ...\n@cases([n])\ndef test_a(x: int) -> None:\n    pass\n", 2, "literal list"),
        ("def f(x: int) -> int: ...\n@cases([])\ndef test_a(x: int) -> None:\n    pass\n", 2, "non-empty"),
        ("def f(x: int) -> int: ...\ndef test_a(x: dict) -> None:\n    pass\n", 2, "needs an annotation of a gpucc type"),
        ("def f(x: int) -> int: ...\n@cases([3])\ndef test_a(x: str) -> None:\n    pass\n", 2, "x=3 is not str"),
        ("def f(x: int) -> int: ...\n@cases([['a', 1]])\ndef test_a(x: list[str]) -> None:\n    pass\n", 2,
         "x=['a', 1]: element 1 is not str"),
        ("def f(x: int) -> int: ...\ndef test_a(x: set[int]) -> None:\n    pass\n", 2, "needs an annotation of a gpucc type"),
        ("def f(x: int) -> int: ...\ndef test_a(x: tuple[int, ...]) -> None:\n    pass\n", 2, "Optional[T]"),
        ("def f(x: int) -> int: ...\n@cases([((1, 'a'),)])\ndef test_a(x: tuple[int, int]) -> None:\n    pass\n", 2,
         "x=(1, 'a'): field 'a' is not int"),
        ("def f(x: int) -> int: ...\n@cases([[(1,)]])\ndef test_a(x: list[tuple[int, int]]) -> None:\n    pass\n", 2,
         "x=[(1,)]: element (1,) is not tuple[int, int]"),
        ("def f(x: int) -> int: ...\n@cases([3])\ndef test_a(x: list[int]) -> None:\n    pass\n", 2,
         "x=3 is not list[int]"),
        ("def f(x: int) -> int: ...\n@cases([[1, 2.5]])\ndef test_a(x: list[int]) -> None:\n    pass\n", 2,
         "x=[1, 2.5]: element 2.5 is not int"),
        ("def f(x: int) -> int: ...\n@cases([([True], 1)])\ndef test_a(x: list[float], y: int) -> None:\n    pass\n",
         2, "element True is not float"),
        ("def f(x: int) -> int: ...\n@cases([[9223372036854775808]])\ndef test_a(x: list[int]) -> None:\n    pass\n", 2, "64 bits"),
        ("def f(x: int) -> int: ...\n@cases([1])\ndef helper(x: int) -> int:\n    return x\n"
         "def test_a() -> None:\n    pass\n", 3, "only for test_"),
    ],
)
def test_bad_suites_name_file_and_line(text, line, fragment):
    with pytest.raises(SuiteError) as info:
        parse(text)
    assert info.value.line == line
    assert str(info.value).startswith(f"/x/suite_gcd.py:{line}: ")
    assert fragment in str(info.value)


def test_str_parameters_take_python_strs():
    text = (
        "def f(s: str, xs: list[str]) -> int: ...\n"
        "@cases([('ab', ['x', '']), ('', [])])\n"
        "def test_one(s: str, xs: list[str]) -> None:\n    assert f(s, xs) >= 0\n"
    )
    (one,) = parse(text).tests
    assert one.types == ["str", "list[str]"] and one.cases == [("ab", ["x", ""]), ("", [])]
    assert one.describe(0) == "test_one(s='ab', xs=['x', ''])"


def test_list_parameters_take_python_lists():
    text = (
        "def f(xs: list[int]) -> int: ...\n"
        "@cases([[3, 1], [], ([5],)])\n"
        "def test_one(xs: list[int]) -> None:\n    assert f(xs) >= 0\n"
        "@cases([([1, 2.5], 2), ([], 0)])\n"
        "def test_two(ys: list[float], n: int) -> None:\n    assert len(ys) == n\n"
    )
    one, two = parse(text).tests
    assert one.types == ["list[int]"] and one.cases == [([3, 1],), ([],), ([5],)]
    assert two.types == ["list[float]", "int"] and two.cases == [([1.0, 2.5], 2), ([], 0)]
    assert type(two.cases[0][0][0]) is float  # an int element of a list[float] becomes a float
    assert two.describe(0) == "test_two(ys=[1.0, 2.5], n=2)"


def test_structured_parameters_take_tuples_nested_lists_and_none():
    text = (
        "def f(xs: list[tuple[int, str]]) -> Optional[int]: ...\n"
        "@cases([[(1, 'a'), (2, 'b')], [], [(3, '')]])\n"
        "def test_one(xs: list[tuple[int, str]]) -> None:\n    assert f(xs) is None\n"
        "@cases([((1, 2.0), None, [[1], []], [True]), ((0, 1), 7, [], [])])\n"
        "def test_two(p: tuple[float, float], o: int | None, m: List[List[float]], b: list[bool]) -> None:\n"
        "    pass\n"
        "@cases([(5, 'x'), ((6, 'y'),)])\n"
        "def test_three(p: Tuple[int, str]) -> None:\n    pass\n"
    )
    one, two, three = parse(text).tests
    assert one.cases == [([(1, "a"), (2, "b")],), ([],), ([(3, "")],)]
    assert two.cases == [((1.0, 2.0), None, [[1.0], []], [True]), ((0.0, 1.0), 7, [], [])]
    assert type(two.cases[0][0][0]) is float and type(two.cases[0][2][0][0]) is float  # ints widened inside
    assert three.cases == [((5, "x"),), ((6, "y"),)]  # a tuple parameter's case is the tuple itself
    assert two.describe(0) == "test_two(p=(1.0, 2.0), o=None, m=[[1.0], []], b=[True])"
