"""Arithmetic, comparisons and stack shuffles: Python semantics on int64, overflow never wraps."""

from __future__ import annotations

import itertools

import pytest
from vmcheck import MAX, MIN, outcome, run_asm

from gpucc.contract import isa as O

EDGES = [0, 1, -1, 2, -2, 3, -3, 7, -7, MAX, MIN, MAX - 1, MIN + 1, 2**32, -(2**32), 3037000499,
         3037000500, -3037000500, 2**62, -(2**62), MIN // 2, 10**18, -(10**18)]  # fmt: skip
PY = {
    "BINARY_ADD": lambda a, b: a + b,
    "BINARY_SUB": lambda a, b: a - b,
    "BINARY_MUL": lambda a, b: a * b,
    "BINARY_FLOORDIV": lambda a, b: a // b,
    "BINARY_MOD": lambda a, b: a % b,
}


def expected(name: str, a: int, b: int):
    if b == 0 and name in ("BINARY_FLOORDIV", "BINARY_MOD"):
        return ("ZERO_DIVISION", None)
    r = PY[name](a, b)
    return ("OK", r) if MIN <= r <= MAX else ("OVERFLOW", None)


BINOP = """
.func f a b
    LOAD_VAR a
    LOAD_VAR b
    {op}
    RETURN
.func g a
    LOAD_VAR a
    {op}_INT {imm}
    RETURN
"""


@pytest.mark.parametrize("name", sorted(PY))
def test_binary_ops_match_python_on_edges(name):
    pairs = list(itertools.product(EDGES, EDGES))
    results, _ = run_asm(BINOP.format(op=name, imm=3), [("f", p) for p in pairs])
    for j, (a, b) in enumerate(pairs):
        assert outcome(results, j) == expected(name, a, b), (name, a, b)


@pytest.mark.parametrize("name", sorted(PY))
@pytest.mark.parametrize("imm", [0, 1, -1, 3, -3, 2**31 - 1, -(2**31)])
def test_binary_int_forms_equal_the_two_operand_forms(name, imm):
    results, _ = run_asm(BINOP.format(op=name, imm=imm), [("g", (a,)) for a in EDGES], plain=True)
    for j, a in enumerate(EDGES):
        assert outcome(results, j) == expected(name, a, imm)


@pytest.mark.parametrize(
    "name, a, b, want",
    [
        ("BINARY_ADD", MAX, 1, "OVERFLOW"),
        ("BINARY_SUB", MIN, 1, "OVERFLOW"),
        ("BINARY_MUL", MIN, -1, "OVERFLOW"),
        ("BINARY_MUL", -1, MIN, "OVERFLOW"),
        ("BINARY_MUL", 2**32, 2**31, "OVERFLOW"),
        ("BINARY_FLOORDIV", MIN, -1, "OVERFLOW"),
        ("BINARY_FLOORDIV", 5, 0, "ZERO_DIVISION"),
        ("BINARY_MOD", 5, 0, "ZERO_DIVISION"),
    ],
)
def test_overflow_and_zero_division_edges(name, a, b, want):
    results, _ = run_asm(BINOP.format(op=name, imm=1), [("f", (a, b))], plain=True)
    assert outcome(results, 0) == (want, None)
    assert results.fail_line[0] == 5  # the line of the failing instruction


@pytest.mark.parametrize("a, b", [(7, 2), (-7, 2), (7, -2), (-7, -2), (6, 3), (-6, 3), (MIN, -1), (MIN, 2), (MAX, -2)])
def test_floor_division_and_modulo_signs(a, b):
    div, _ = run_asm(BINOP.format(op="BINARY_FLOORDIV", imm=1), [("f", (a, b))])
    mod, _ = run_asm(BINOP.format(op="BINARY_MOD", imm=1), [("f", (a, b))])
    assert outcome(mod, 0) == ("OK", a % b)
    assert outcome(div, 0) == (("OK", a // b) if MIN <= a // b <= MAX else ("OVERFLOW", None))


def test_multiplication_boundary_products():
    # products right at and just past the int64 limits, from both signs
    cases = [(2**62, 2), (-(2**62), 2), (2**31, 2**32), (-(2**31), 2**32), (3, 3074457345618258602),
             (3, 3074457345618258603), (-3, 3074457345618258603), (-3, -3074457345618258603),
             (MIN // 4, 4), (MIN // 4, -4), (MAX, 1), (MIN, 1), (MIN, 0), (MAX, -1)]  # fmt: skip
    results, _ = run_asm(BINOP.format(op="BINARY_MUL", imm=1), [("f", c) for c in cases], plain=True)
    for j, (a, b) in enumerate(cases):
        assert outcome(results, j) == expected("BINARY_MUL", a, b), (a, b)


UNARY = """
.func neg a
    LOAD_VAR a
    UNARY_NEG
    RETURN
.func not_ a
    LOAD_VAR a
    UNARY_NOT
    RETURN
"""


def test_unary_ops():
    values = [0, 1, -1, 5, MAX, MIN]
    results, _ = run_asm(UNARY, [("neg", (v,)) for v in values] + [("not_", (v,)) for v in values])
    assert [outcome(results, j) for j in range(len(values))] == [
        ("OK", -v) if v != MIN else ("OVERFLOW", None) for v in values
    ]
    assert [outcome(results, len(values) + j)[1] for j in range(len(values))] == [int(v == 0) for v in values]


@pytest.mark.parametrize("cmp", range(6))
def test_comparisons_push_one_or_zero(cmp):
    name = O.TABLE[O.CMP_OPCODES[cmp]].name
    text = f".func f a b\n LOAD_VAR a\n LOAD_VAR b\n {name}\n RETURN\n"
    pairs = list(itertools.product([MIN, -1, 0, 1, MAX], repeat=2))
    results, _ = run_asm(text, [("f", p) for p in pairs])
    ops = [lambda a, b: a < b, lambda a, b: a <= b, lambda a, b: a == b,
           lambda a, b: a != b, lambda a, b: a > b, lambda a, b: a >= b]  # fmt: skip
    assert [int(v) for v in results.value] == [int(ops[cmp](a, b)) for a, b in pairs]


def test_stack_shuffles():
    # a b c -> ROT_THREE -> c a b; then digits read back as c*100 + a*10 + b
    text = """
.func rot3 a b c
    LOAD_VAR a
    LOAD_VAR b
    LOAD_VAR c
    ROT_THREE
    STORE_VAR a     # b
    STORE_VAR b     # a
    STORE_VAR c     # c
    LOAD_VAR c
    BINARY_MUL_INT 100
    LOAD_VAR b
    BINARY_MUL_INT 10
    BINARY_ADD
    LOAD_VAR a
    BINARY_ADD
    RETURN
.func rot2 a b
    LOAD_VAR a
    LOAD_VAR b
    ROT_TWO
    BINARY_SUB
    RETURN
.func dup a
    LOAD_VAR a
    DUP_TOP
    BINARY_MUL
    LOAD_INT 99
    POP_TOP
    NOP
    RETURN
"""
    results, _ = run_asm(text, [("rot3", (1, 2, 3)), ("rot2", (10, 3)), ("dup", (-12,))], plain=True)
    assert [int(v) for v in results.value] == [312, 3 - 10, 144]


def test_load_const_reads_the_units_own_pool():
    text = """
.unit a
.func big
    LOAD_CONST 10**18
    LOAD_CONST -2**63
    BINARY_SUB
    RETURN
.unit b
.func small
    LOAD_CONST 5
    RETURN
"""
    results, _ = run_asm(text, [("big", ()), ("small", ())], plain=True)
    assert outcome(results, 0) == ("OVERFLOW", None)
    assert outcome(results, 1) == ("OK", 5)


def test_inc_var_overflows_instead_of_wrapping():
    text = ".func f a\n INC_VAR a\n LOAD_VAR a\n RETURN\n"
    results, _ = run_asm(text, [("f", (41,)), ("f", (MAX,))], plain=True)
    assert outcome(results, 0) == ("OK", 42)
    assert outcome(results, 1) == ("OVERFLOW", None)
