"""Front-end forms (issue 12 items 5-6, issue 13): semicolons between simple statements,
`for ... else` / `while ... else` (the else runs when no break left the loop, as CPython), and
a local that changes type (a new slot where no join sees its two types); each program run on
the VM (reference interpreter and CPU kernel) and compared with CPython; what stays out."""

from __future__ import annotations

import pytest

from gpucc.compiler.batch import compile_batch
from gpucc.compiler.syntax_tree import ParseError, parse_source
from tests.oracle.oracle import program_disagreements

LOOP_ELSE = {
    "for_else_prime": (  # HumanEval/150's shape: return in the body, break after it, else returns
        "def f(n: int, x: int, y: int) -> int:\n    if n == 1:\n        return y\n"
        "    for i in range(2, n):\n        if n % i == 0:\n            return y\n            break\n"
        "    else:\n        return x\n",
        [(1, 3, 4), (2, 3, 4), (7, 34, 12), (15, 8, 5)],
    ),
    "for_else_break_skips_it": (
        "def f(xs: list[int], k: int) -> int:\n    r = 0\n    for x in xs:\n        if x == k:\n"
        "            r = 1\n            break\n        r += 10\n    else:\n        r = -r\n    return r\n",
        [([], 1), ([1, 2, 3], 2), ([1, 2, 3], 5)],
    ),
    "while_else": (
        "def f(n: int) -> int:\n    i = 0\n    while i < n:\n        if i * i > 50:\n            break\n"
        "        i += 1\n    else:\n        i = -i\n    return i\n",
        [(0,), (3,), (20,)],
    ),
    "else_assigns_or_break_does": (  # definite assignment: both the else and the break bind y
        "def f(xs: list[int]) -> int:\n    for x in xs:\n        if x < 0:\n            y = x\n            break\n"
        "    else:\n        y = 0\n    return y\n",
        [([],), ([1, -2, -3],), ([4, 5],)],
    ),
    "break_in_else_is_the_outer_loops": (
        "def f(n: int) -> int:\n    c = 0\n    for i in range(n):\n        for j in range(i):\n"
        "            c += j\n        else:\n            c += 100\n            if i >= 3:\n                break\n"
        "        c += 1\n    return c\n",
        [(0,), (2,), (6,)],
    ),
    "tuple_target_and_enumerate_else": (
        "def f(ps: list[tuple[int, str]]) -> int:\n    out = ''\n    for k, s in ps:\n        out += s * k\n"
        "    else:\n        out += '.'\n    for i, (k, s) in enumerate(ps):\n        if k == 0:\n            break\n"
        "    else:\n        out += 'all'\n    return len(out) * 1000 + sum(ord(c) for c in out)\n",
        [([],), ([(1, 'a'), (2, 'b')],), ([(1, 'a'), (0, 'b')],)],
    ),
    "else_on_while_true_never_runs": (
        "def f(n: int) -> int:\n    while True:\n        n += 1\n        if n > 5:\n            break\n"
        "    else:\n        n = 0\n    return n\n",
        [(0,), (9,)],
    ),
    "continue_and_else_of_a_list_loop": (
        "def f(xs: list[int]) -> int:\n    t = 0\n    for x in xs:\n        if x % 2 == 0:\n            continue\n"
        "        t += x\n    else:\n        t *= 2\n    return t\n",
        [([],), ([1, 2, 3],)],
    ),
}

SEMICOLONS = {
    "semicolons": (  # HumanEval/69: `frq[i] += 1;`
        "def f(lst: list[int]) -> int:\n    frq = [0] * (max(lst) + 1)\n    for i in lst:\n        frq[i] += 1;\n"
        "    a = 1; b = 2; c = a + b;\n    if c > 2: a = 5; b = 6\n    return frq[1] * 100 + a * 10 + b\n",
        [([1, 1, 2],), ([3],)],
    ),
    "semicolons_in_module_code": (
        "X = 1; Y = 2\n\ndef f(n: int) -> int:\n    return n + X + Y\n",
        [(0,), (5,)],
    ),
}


@pytest.mark.parametrize("backend", ["reference", "cpu"])
@pytest.mark.parametrize("programs", [LOOP_ELSE, SEMICOLONS], ids=["loop_else", "semicolons"])
def test_front_end_forms_match_cpython(programs, backend):
    assert program_disagreements(programs, backend) == []


@pytest.mark.parametrize(
    "source",
    [
        "def f(x: int) -> int:\n    x = 1; if x: pass\n    return x\n",
        "def f(x: int) -> int:\n    x = 1; for i in range(3): pass\n    return x\n",
        "def f(x: int) -> int:\n    x = 1;; x = 2\n    return x\n",
    ],
)
def test_a_compound_statement_after_a_semicolon_is_a_syntax_error(source):
    with pytest.raises(SyntaxError):
        compile(source, "<s>", "exec")
    with pytest.raises(ParseError):
        parse_source(source)


CHANGES_TYPE = {
    "list_then_joined": (  # HumanEval/101
        "def f(s: str) -> int:\n    if not s:\n        return 0\n    s_list = []\n    for letter in s:\n"
        "        if letter == ',':\n            s_list.append(' ')\n        else:\n            s_list.append(letter)\n"
        "    s_list = ''.join(s_list)\n    return len(s_list.split())\n",
        [("",), ("Hi, my name",), ("a,b,,c d",)],
    ),
    "param_becomes_a_list": (  # HumanEval/108 and 145: a nested def whose parameter changes type
        "def f(arr: list[int]) -> int:\n    def digits_sum(n):\n        neg = 1\n"
        "        if n < 0: n, neg = -1 * n, -1 \n        n = [int(i) for i in str(n)]\n"
        "        n[0] = n[0] * neg\n        return sum(n)\n"
        "    return len(list(filter(lambda x: x > 0, [digits_sum(i) for i in arr])))\n",
        [([],), ([-1, 11, -11],), ([1, 1, 2],), ([12, 23, 34, -45, -56, 0],)],
    ),
    "unpacked_strs_then_ints_in_a_try": (  # HumanEval/124
        "def f(date: str) -> bool:\n    try:\n        date = date.strip()\n        month, day, year = date.split('-')\n"
        "        month, day, year = int(month), int(day), int(year)\n        if month < 1 or month > 12:\n"
        "            return False\n        if day < 1 or day > 31:\n            return False\n    except:\n"
        "        return False\n    return True\n",
        [("03-11-2000",), ("15-01-2012",), ("04-0-2040",), ("06/04/2020",), ("",), ("1-2-3-4",)],
    ),
    "several_versions_and_reads_of_each": (
        "def f(n: int) -> int:\n    x = n * 2\n    y = x + 1\n    x = str(x)\n    y += len(x)\n"
        "    x = [x, x]\n    y += len(x) + len(x[0])\n    x = (y, x)\n    return x[0] * 10 + len(x[1])\n",
        [(0,), (7,), (-123,)],
    ),
    "the_new_value_reads_the_old_version": (
        "def f(xs: list[int]) -> int:\n    s = xs\n    s = ','.join([str(v) for v in s])\n    s = s.split(',')\n"
        "    s = len(s) + len(s[0])\n    return s\n",
        [([],), ([1, 22, 333],)],
    ),
    "optional_and_widening_unchanged": (  # a join type still wins where one exists
        "def f(n: int) -> float:\n    x = None\n    x = n\n    y = 0\n    y = 0.5 + n\n    return x + y\n",
        [(0,), (3,)],
    ),
}


@pytest.mark.parametrize("backend", ["reference", "cpu"])
def test_a_local_that_changes_type_matches_cpython(backend):
    assert program_disagreements(CHANGES_TYPE, backend) == []


JOINS = {  # two types meet where CPython's name may hold either: still a located compile error
    "in_a_loop": "def f(n: int) -> int:\n    x = 1\n    for i in range(n):\n        x = str(i)\n    return 0\n",
    "in_a_branch_read_after": (
        "def f(n: int) -> int:\n    x = 1\n    if n > 0:\n        x = 'a'\n    return len(str(x))\n"),
    "read_in_the_else_branch": (
        "def f(n: int) -> int:\n    x = 1\n    if n > 0:\n        x = 'a'\n    else:\n        x = x + 1\n    return 0\n"),
    "read_in_an_except_clause": (
        "def f(s: str) -> int:\n    x = 1\n    try:\n        x = 'a'\n        return int(s)\n    except:\n"
        "        return x\n"),
    "module_code": "X = 1\nX = 'a'\n\ndef f(n: int) -> int:\n    return n\n",
}


@pytest.mark.parametrize("name", sorted(JOINS))
def test_two_types_meeting_at_a_join_stay_a_compile_error(name):
    batch = compile_batch([JOINS[name]])
    assert not batch.ok(0)
    message = str(batch.error(0))
    assert "type mismatch" in message and "this local changes type where both of its types meet" in message, message
