"""compiler.parser: AST dumps, precedence, CPython's ast as oracle, rejections with their caret."""

from __future__ import annotations

import pathlib

import numpy as np
import pytest
from pyast_oracle import normalized, oracle_dump

from gpucc.compiler import errors, nodes, parser, syntax_tree, tokens
from gpucc.compiler.arrays import ERR_WIDTH, Tree
from gpucc.compiler.syntax_tree import ParseError, dump, parse_source

GCD = '''"""Greatest common divisor."""


def gcd(a: int, b: int) -> int:
    """Euclid."""
    while b != 0:
        t = b
        b = a % b
        a = t
    return a
'''

GCD_DUMP = """\
(MODULE
  (FUNCDEF gcd -> int (PARAM a int) (PARAM b int)
    (BLOCK
      (DOCSTRING)
      (WHILE (COMPARE b != 0)
        (BLOCK
          (ASSIGN t b)
          (ASSIGN b (BINARY % a b))
          (ASSIGN a t)))
      (RETURN a))))"""

PROGRAM = """
def is_prime(n: int) -> bool:
    if n < 2: return False
    for d in range(2, n):
        if d * d > n:
            break
        elif n % d == 0:
            return False
        else:
            continue
    return True


def count(lo: int, hi: int) -> int:
    c: int = 0
    i = lo
    while i < hi:
        if is_prime(i) and not i == 4 or -i > +3:
            c += 1
        i = i + 1
    assert c >= 0
    return c


def interface(x: int, flag: bool) -> None: ...


def test_count() -> None:
    assert count(0, 10) == 4
    report(count(
        0, 20,
    ))
    return None
"""

PROGRAM_DUMP = """\
(MODULE
  (FUNCDEF is_prime -> bool (PARAM n int)
    (BLOCK
      (IF (COMPARE n < 2)
        (BLOCK
          (RETURN False)))
      (FOR_RANGE d 2 n
        (BLOCK
          (IF (COMPARE (BINARY * d d) > n)
            (BLOCK
              (BREAK))
            (IF (COMPARE (BINARY % n d) == 0)
              (BLOCK
                (RETURN False))
              (BLOCK
                (CONTINUE))))))
      (RETURN True)))
  (FUNCDEF count -> int (PARAM lo int) (PARAM hi int)
    (BLOCK
      (ASSIGN c: int 0)
      (ASSIGN i lo)
      (WHILE (COMPARE i < hi)
        (BLOCK
          (IF (BOOLOP or (BOOLOP and (CALL is_prime i) (UNARY not (COMPARE i == 4))) (COMPARE (UNARY - i) > (UNARY + 3)))
            (BLOCK
              (AUGASSIGN c += 1)))
          (ASSIGN i (BINARY + i 1))))
      (ASSERT (COMPARE c >= 0))
      (RETURN c)))
  (FUNCDEF interface -> None (PARAM x int) (PARAM flag bool)
    (BLOCK
      (ELLIPSIS)))
  (FUNCDEF test_count -> None
    (BLOCK
      (ASSERT (COMPARE (CALL count 0 10) == 4))
      (EXPR_STMT (CALL report (CALL count 0 20)))
      (RETURN None))))"""


def body(source_lines: str) -> str:
    """Normalized dump of the statements of `def f() -> int:` with the given body."""
    src = "def f() -> int:\n" + "".join("    " + line + "\n" for line in source_lines.split("\n"))
    text = normalized(dump(parse_source(src)))
    prefix = "(MODULE (FUNCDEF f -> int (BLOCK "
    assert text.startswith(prefix) and text.endswith(")))")
    return text[len(prefix) : -3]


def test_golden_gcd():
    assert dump(parse_source(GCD)) == GCD_DUMP


def test_golden_program():
    assert dump(parse_source(PROGRAM)) == PROGRAM_DUMP


@pytest.mark.parametrize("source", [GCD, PROGRAM])
def test_golden_programs_agree_with_cpython(source):
    assert normalized(dump(parse_source(source))) == oracle_dump(source)


@pytest.mark.parametrize(
    "stmt, expected",
    [
        ("x = 1", "(ASSIGN x 1)"),
        ("x: bool = True", "(ASSIGN x: bool True)"),
        ("x -= 2", "(AUGASSIGN x -= 2)"),
        ("x *= 2", "(AUGASSIGN x *= 2)"),
        ("x //= 2", "(AUGASSIGN x //= 2)"),
        ("x %= 2", "(AUGASSIGN x %= 2)"),
        ("g()", "(EXPR_STMT (CALL g))"),
        ("g(1, h(2), 3,)", "(EXPR_STMT (CALL g 1 (CALL h 2) 3))"),
        ("x", "(EXPR_STMT x)"),
        ("return", "(RETURN)"),
        ("pass", "(PASS)"),
        ("'doc' 'more'", "(DOCSTRING)"),
        ("...", "(ELLIPSIS)"),
        ("assert not x", "(ASSERT (UNARY not x))"),
        ("while True: pass", "(WHILE True (BLOCK (PASS)))"),
        ("for i in range(10): g(i)", "(FOR_RANGE i 10 (BLOCK (EXPR_STMT (CALL g i))))"),
        ("for i in range(0, 10, -1): pass", "(FOR_RANGE i 0 10 (UNARY - 1) (BLOCK (PASS)))"),
        ("if a: pass\nelse: return", "(IF a (BLOCK (PASS)) (BLOCK (RETURN)))"),
        ("if a:\n    pass\nelif b:\n    pass\nelif c: pass", "(IF a (BLOCK (PASS)) (IF b (BLOCK (PASS)) (IF c (BLOCK (PASS)))))"),
        ("if a:\n    pass\nelse:\n    if b: pass", "(IF a (BLOCK (PASS)) (BLOCK (IF b (BLOCK (PASS)))))"),
        ("while x:\n    if y:\n        break\n    continue", "(WHILE x (BLOCK (IF y (BLOCK (BREAK))) (CONTINUE)))"),
        ("x = (1 +\n  2)", "(ASSIGN x (BINARY + 1 2))"),
        ("x = 1 + \\\n  2", "(ASSIGN x (BINARY + 1 2))"),
    ],
)  # fmt: skip
def test_statement_forms(stmt, expected):
    assert body(stmt) == expected


@pytest.mark.parametrize(
    "expr, expected",
    [
        ("a + b * c", "(BINARY + a (BINARY * b c))"),
        ("a - b - c", "(BINARY - (BINARY - a b) c)"),
        ("a // b % c * d", "(BINARY * (BINARY % (BINARY // a b) c) d)"),
        ("(a + b) * c", "(BINARY * (BINARY + a b) c)"),
        ("-a * b", "(BINARY * (UNARY - a) b)"),
        ("- -a", "(UNARY - (UNARY - a))"),
        ("a * -b", "(BINARY * a (UNARY - b))"),
        ("not a == b", "(UNARY not (COMPARE a == b))"),
        ("not not a", "(UNARY not (UNARY not a))"),
        ("a and not b", "(BOOLOP and a (UNARY not b))"),
        ("a and b and c", "(BOOLOP and (BOOLOP and a b) c)"),
        ("a or b and c", "(BOOLOP or a (BOOLOP and b c))"),
        ("a and b or c", "(BOOLOP or (BOOLOP and a b) c)"),
        ("a < b < c", "(COMPARE a < b < c)"),
        ("a < b + 1 <= -c != d", "(COMPARE a < (BINARY + b 1) <= (UNARY - c) != d)"),
        ("(a < b) < c", "(COMPARE (COMPARE a < b) < c)"),
        ("a < (b < c)", "(COMPARE a < (COMPARE b < c))"),
        ("a < b and b > c", "(BOOLOP and (COMPARE a < b) (COMPARE b > c))"),
        ("f(a < b, not c)", "(CALL f (COMPARE a < b) (UNARY not c))"),
        ("f(g(h()))", "(CALL f (CALL g (CALL h)))"),
        ("((((a))))", "a"),
        ("0x10 + 0b1 + 1_000", "(BINARY + (BINARY + 16 1) 1000)"),
        ("None", "None"),
        ("'a' \"b\" + s[1:] * 2", "(BINARY + 'ab' (BINARY * (SLICE s 1 None None) 2))"),
        ("','.join(['a', s.upper()])", "(METHOD join ',' (LIST 'a' (METHOD upper s)))"),
        ("'\\x41\\u00e9' r'\\d' < s not in '''x'''", "(COMPARE 'Aé\\\\d' < s not in 'x')"),
    ],
)  # fmt: skip
def test_precedence(expr, expected):
    assert body(f"return {expr}") == f"(RETURN {expected})"
    assert normalized(dump(parse_source(f"def f() -> int:\n    return {expr}\n"))) == oracle_dump(
        f"def f() -> int:\n    return {expr}\n"
    )


def test_node_fields():
    a = parse_source("def f(a: int) -> bool:\n    return a < 3\n")
    assert a.kind[0] == nodes.N_MODULE
    fn = a.children(0)[0]
    assert (a.kind_name(fn), a.text(fn), int(a.op[fn])) == ("FUNCDEF", "f", 2)  # T_BOOL
    param, block = a.children(fn)
    ret = a.children(block)[0]
    cmp = a.children(ret)[0]
    left, link = a.children(cmp)
    assert a.kind_name(link) == "CMP_LINK" and a.text(link) == "<"
    assert int(a.val[a.children(link)[0]]) == 3 and a.line(ret) == 2


def test_plain_python_run_matches_compiled():
    """The kernel body runs unchanged as plain Python (the one-source rule)."""
    from gpucc.compiler import lexer

    compiled = parse_source(PROGRAM)
    src = np.frombuffer(PROGRAM.encode(), dtype=np.uint8)
    n_tok, toks = lexer.lex_source(PROGRAM)
    arrays = syntax_tree.tree_arrays(len(src))
    stack = np.zeros(parser.scratch_size(n_tok), dtype=np.int32)
    err = np.zeros(ERR_WIDTH, dtype=np.int32)
    n = parser.parse(src, toks, n_tok, arrays, stack, err)
    assert n == compiled.n_nodes
    for got, want in zip(arrays, (compiled.kind, compiled.op, compiled.tok, compiled.first, compiled.next_, compiled.val)):
        assert np.array_equal(got[:n], want[:n])


def test_node_capacity_exceeded_is_an_error():
    src = np.frombuffer(GCD.encode(), dtype=np.uint8)
    from gpucc.compiler import lexer

    n_tok, toks = lexer.lex_source(GCD)
    arrays = Tree(*[np.zeros(8, dtype=np.int32) for _ in range(5)], np.zeros(8, dtype=np.int64))
    err = np.zeros(ERR_WIDTH, dtype=np.int32)
    stack = np.zeros(parser.scratch_size(n_tok), dtype=np.int32)
    assert syntax_tree._parse_one(src, toks, n_tok, arrays, stack, err) == -1
    assert err[0] == errors.E_PROGRAM_TOO_LARGE


def test_deep_nesting_is_an_error():
    deep = "(" * 100 + "1" + ")" * 100
    err = reject(f"def f() -> int:\n    return {deep}\n")
    assert err.code == errors.E_NESTING_TOO_DEEP
    ok = "(" * 40 + "1" + ")" * 40
    assert body(f"return {ok}") == "(RETURN 1)"


def reject(source):
    with pytest.raises(ParseError) as info:
        parse_source(source)
    return info.value.error


T = tokens
# Syntax errors: (body line of `def f(x: int) -> int:` or a whole file when it starts with '!',
# code, arg, col).  Constructs outside the language: tests/compiler/test_unsupported.py.
REJECTIONS = [
    ("if x: if y: pass", errors.E_SYNTAX, 0, 11),
    ("return x == not x", errors.E_SYNTAX, 0, 17),
    ("else:\n        pass", errors.E_SYNTAX, 0, 5),
    ("return (x", errors.E_EXPECTED_OP, T.OP_RPAR, 12),
    ("return g(x", errors.E_EXPECTED_OP, T.OP_RPAR, 13),
    ("return g(x y)", errors.E_EXPECTED_OP, T.OP_RPAR, 16),
    ("return x)", errors.E_EXPECTED_NEWLINE, 0, 13),
    ("return x y", errors.E_EXPECTED_NEWLINE, 0, 14),
    ("return +", errors.E_EXPECTED_EXPR, 0, 13),
    ("if x\n        pass", errors.E_EXPECTED_OP, T.OP_COLON, 9),
    ("x = 1\n        y = 2", errors.E_UNEXPECTED_INDENT, 0, 9),
    ("!def f(x: bytes) -> int:\n    pass", errors.E_UNKNOWN_TYPE, 0, 10),
    ("!def f(x: frozenset[int]) -> int:\n    pass", errors.E_UNKNOWN_TYPE, 0, 10),
    ("!def f(x: object) -> int:\n    pass", errors.E_UNKNOWN_TYPE, 0, 10),
    ("!def f(x: int) -> dict:\n    pass", errors.E_UNKNOWN_TYPE, 0, 18),
    ("!def f(x: ) -> int:\n    pass", errors.E_EXPECTED_TYPE, 0, 10),
    ("!def f(x: int) -> int:\npass", errors.E_EXPECTED_INDENT, 0, 1),
    ("!def f(x: int) -> int:", errors.E_EXPECTED_INDENT, 0, 22),
    ("!def (x: int) -> int:\n    pass", errors.E_EXPECTED_NAME, 0, 5),
    ("!  def f() -> int:\n    pass", errors.E_UNEXPECTED_INDENT, 0, 3),
]  # fmt: skip


@pytest.mark.parametrize("snippet, code, arg, col", REJECTIONS, ids=[r[0].split("\n")[0] for r in REJECTIONS])
def test_rejections_name_the_error_and_point_at_it(snippet, code, arg, col):
    whole = snippet.startswith("!")
    source = snippet[1:] if whole else "def f(x: int) -> int:\n    " + snippet + "\n"
    err = reject(source)
    assert (errors.NAMES[err.code], err.col) == (errors.NAMES[code], col), err.format()
    if "{text}" not in errors.TEMPLATES[code]:  # the message does not quote the source
        assert err.message == errors.message(source, code, 0, 0, arg)
    line_of_error = source.split("\n")[err.line - 1]
    assert err.source_line == line_of_error


def test_rejection_line_numbers():
    err = reject("def f() -> int:\n    x = 1\n\n    # c\n    return x @ 2\n")
    assert (err.line, err.col, err.code) == (5, 14, errors.E_UNSUPPORTED_OPERATOR)


EXAMPLES = sorted(pathlib.Path(__file__).resolve().parents[2].joinpath("examples").rglob("*.py"))


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.name for p in EXAMPLES])
def test_examples_parse_or_fail_with_a_named_error(path):
    source = path.read_text()
    try:
        parse_source(source, filename=str(path))
    except ParseError as e:
        assert 0 < e.code < len(errors.NAMES)
        assert "compile error" not in e.error.message
