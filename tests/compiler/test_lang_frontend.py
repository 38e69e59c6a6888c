"""Front-end forms (issue 12 items 5-6, issue 13): semicolons between simple statements,
`for ... else` / `while ... else` (the else runs when no break left the loop, as CPython), and
a local that changes type (a new slot where no join sees its two types); each program run on
the VM (reference interpreter and CPU kernel) and compared with CPython; what stays out."""

from __future__ import annotations

import pytest

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
