"""compiler.parser_tables: every map agrees with the table it is built from (compiler.tokens,
compiler.nodes, contract.isa), and the precedence table with CPython's grammar."""

from __future__ import annotations

import ast
import itertools

import pytest

from gpucc.compiler import nodes, tokens
from gpucc.compiler import parser_tables as pt
from gpucc.contract import isa

OPS = tokens.OPERATORS
# CPython's binary operators by their spelling in nodes.BIN_NAMES
BINARY = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.FloorDiv: "//", ast.Mod: "%", ast.Div: "/",
          ast.Pow: "**", ast.BitAnd: "&", ast.BitOr: "|", ast.BitXor: "^", ast.LShift: "<<", ast.RShift: ">>"}  # fmt: skip


def test_infix_of_op_gives_each_binary_operator_its_code():
    for s, o in enumerate(OPS):
        want = pt.X_BIN + nodes.BIN_NAMES.index(o) if o in nodes.BIN_NAMES else -1
        assert pt.INFIX_OF_OP[s] == want, o


def test_compare_of_op_gives_each_comparison_its_isa_code():
    for s, o in enumerate(OPS):
        assert pt.COMPARE_OF_OP[s] == (isa.CMP_NAMES.index(o) if o in isa.CMP_NAMES else -1), o


def test_prefix_of_op_opens_a_parenthesis_or_a_unary_operator():
    for s, o in enumerate(OPS):
        code = pt.PREFIX_OF_OP[s]
        if o == "(":
            assert code == pt.X_PAREN
        elif o in nodes.UN_NAMES:
            assert (pt.NODE_KIND[code], pt.NODE_OP[code]) == (nodes.N_UNARY, nodes.UN_NAMES.index(o)), o
        else:
            assert code == -1, o


def test_infix_of_kw_gives_and_or_their_boolean_operator():
    for s, kw in enumerate(tokens.KEYWORDS):
        code = pt.INFIX_OF_KW[s]
        if kw in nodes.BOOL_NAMES:
            assert (pt.NODE_KIND[code], pt.NODE_OP[code]) == (nodes.N_BOOLOP, nodes.BOOL_NAMES.index(kw)), kw
        else:
            assert code == -1, kw


def augmented_operator(o):
    """CPython's operator of `x o 1` when that is an augmented assignment (ast.Add, ...), else None."""
    try:
        stmt = ast.parse(f"x {o} 1").body[0]
    except SyntaxError:
        return None
    return type(stmt.op) if isinstance(stmt, ast.AugAssign) else None


def test_augmented_of_op_gives_the_binary_operator_of_each_augmented_assignment():
    for s, o in enumerate(OPS):
        op = augmented_operator(o)
        if op is None:
            assert pt.AUGMENTED_OF_OP[s] == -1, o
        elif op in BINARY:
            assert pt.AUGMENTED_OF_OP[s] == nodes.BIN_NAMES.index(BINARY[op]), o
        else:
            assert (o, pt.AUGMENTED_OF_OP[s]) == ("@=", pt.AUGMENTED_UNSUPPORTED)


def test_node_of_each_code():
    """Each operator code becomes the node its name says; brackets, X_CMP and the conditional's
    codes are reduced otherwise (or never) and bind like nothing."""
    kinds = {nodes.N_UNARY: nodes.UN_NAMES, nodes.N_BOOLOP: nodes.BOOL_NAMES, nodes.N_BINARY: nodes.BIN_NAMES}
    named = {pt.X_NEG: "-", pt.X_POS: "+", pt.X_NOT: "not", pt.X_INV: "~", pt.X_AND: "and", pt.X_OR: "or"}
    named.update({pt.X_BIN + b: o for b, o in enumerate(nodes.BIN_NAMES)})
    for code in range(pt.N_CODES):
        kind, op = pt.NODE_KIND[code], pt.NODE_OP[code]
        if code in named:
            assert kinds[kind][op] == named[code], code
        else:
            assert (kind, op) == (-1, -1), code
    for code in (pt.X_PAREN, pt.X_CALL, pt.X_LIST, pt.X_SUB, pt.X_IFC, pt.X_IFE):
        assert pt.PRECEDENCE[code] == pt.P_NONE


# ------------------------------------------------------------ precedence against CPython's parser

UNARY = {ast.USub: "-", ast.UAdd: "+", ast.Not: "not", ast.Invert: "~"}
CODE = {o: pt.X_BIN + b for b, o in enumerate(nodes.BIN_NAMES)} | {"and": pt.X_AND, "or": pt.X_OR, "<": pt.X_CMP}


def top_operator(source):
    """Spelling of the operator at the root of CPython's tree of expression `source`."""
    node = ast.parse(source, mode="eval").body
    if isinstance(node, ast.BinOp):
        return BINARY[type(node.op)]
    if isinstance(node, ast.BoolOp):
        return "and" if isinstance(node.op, ast.And) else "or"
    if isinstance(node, ast.Compare):
        return "<"
    return UNARY[type(node.op)]


# operator pairs; a chain of one comparison or boolean operator is one node in CPython's tree
PAIRS = [(a, b) for a, b in itertools.product(CODE, CODE) if a != b or a in BINARY.values()]


@pytest.mark.parametrize("left, right", PAIRS)
def test_binary_precedence_agrees_with_cpython(left, right):
    """`a left b right c` groups as CPython's parser groups it: the left operator is reduced
    first when it binds at least as tightly (`**` groups to the right)."""
    p, q = pt.PRECEDENCE[CODE[left]], pt.PRECEDENCE[CODE[right]]
    reduces_left = p >= (q + 1 if q == pt.P_POW else q)
    assert top_operator(f"a {left} b {right} c") == (right if reduces_left else left)


@pytest.mark.parametrize("unary, code", [("-", pt.X_NEG), ("+", pt.X_POS), ("~", pt.X_INV), ("not ", pt.X_NOT)])
@pytest.mark.parametrize("right", list(CODE))
def test_unary_precedence_agrees_with_cpython(unary, code, right):
    q = pt.PRECEDENCE[CODE[right]]
    reduces_unary = pt.PRECEDENCE[code] >= (q + 1 if q == pt.P_POW else q)
    assert top_operator(f"{unary}a {right} b") == (right if reduces_unary else unary.strip())
