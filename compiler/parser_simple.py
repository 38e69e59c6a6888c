"""Simple statements for compiler.parser: the one-line statements (assignments, augmented and
subscript assignments, expression statements, return, assert, pass, break, continue, `...`,
docstrings), each a node appended to the innermost block with its value expression
(compiler.parser_expr; `return a, b` and `x = a, b`: expression_list) as child, ending at
NEWLINE.  Kernel bodies (numba subset): nothing
allocates, raises or recurses.
"""

from __future__ import annotations

from gpucc.compiler import errors, nodes, tokens
from gpucc.compiler.errors import E_EXPECTED_OP, E_PROGRAM_TOO_LARGE, E_UNSUPPORTED
from gpucc.compiler.parser_expr import parse_expr
from gpucc.compiler.parser_tables import AUGMENTED_OF_OP, AUGMENTED_UNSUPPORTED
from gpucc.compiler.parser_targets import as_target
from gpucc.compiler.parser_types import annotation
from gpucc.compiler.parser_util import append_statement, fail_tok, is_op, link_child, new_node
from gpucc.compiler.tokens import TK_NEWLINE, TK_OP
from gpucc.contract.jitable import nrt_free

T = tokens
N = nodes


@nrt_free
def expression_list(toks, i, tree, st, err):
    """An expression, or the tuple `a, b[,]` of several (a TUPLE node): (node, next token);
    node -1 on error."""
    e, j = parse_expr(toks, i, tree, st, err)
    if e < 0 or not is_op(toks, j, T.OP_COMMA):
        return e, j
    node = new_node(tree, st, N.N_TUPLE, 0, i, 0)
    if node < 0:
        return fail_tok(err, toks, i, i, E_PROGRAM_TOO_LARGE, 0), j
    last = link_child(tree, node, -1, e)
    while is_op(toks, j, T.OP_COMMA) and toks.kind[j + 1] != TK_NEWLINE and not is_op(toks, j + 1, T.OP_ASSIGN):
        e, j = parse_expr(toks, j + 1, tree, st, err)
        if e < 0:
            return -1, j
        last = link_child(tree, node, last, e)
    if is_op(toks, j, T.OP_COMMA):  # a trailing comma
        j += 1
    return node, j


@nrt_free
def end_of_statement(toks, i, err):
    """A simple statement ends at NEWLINE or `;` (another simple statement follows on the line;
    a trailing `;` before NEWLINE ends it as NEWLINE does): returns the token after it, or -1."""
    tk = toks.kind
    if tk[i] == TK_NEWLINE:
        return i + 1
    if is_op(toks, i, T.OP_SEMI):
        return i + 2 if tk[i + 1] == TK_NEWLINE else i + 1
    if is_op(toks, i, T.OP_COMMA):
        return fail_tok(err, toks, i, i, E_UNSUPPORTED, errors.C_TUPLES)
    if is_op(toks, i, T.OP_ASSIGN):
        return fail_tok(err, toks, i, i, E_UNSUPPORTED, errors.C_CHAINED_ASSIGN)
    return fail_tok(err, toks, i, i, errors.E_EXPECTED_NEWLINE, 0)


@nrt_free
def statement_node(toks, i, tree, st, err, k, o, t):
    """Append statement node (k, o, t) to the innermost block; -1 (err set) when out of nodes."""
    node = new_node(tree, st, k, o, t, 0)
    if node < 0:
        return fail_tok(err, toks, i, i, E_PROGRAM_TOO_LARGE, 0)
    append_statement(tree, st, node)
    return node


@nrt_free
def _value(toks, i, tree, st, err, node, tuples):
    """The expression at token i (tuples: or a tuple without parentheses), linked as statement
    node's child: (expression, next token)."""
    e, j = expression_list(toks, i, tree, st, err) if tuples else parse_expr(toks, i, tree, st, err)
    if e >= 0:
        tree.first[node] = e
    return e, j


@nrt_free
def simple_statement(toks, i, tree, st, err, k, o, t, e0):
    """A statement node (k, o, t) whose optional value expression starts at token e0 (-1: none),
    ending at NEWLINE.  Returns the next token or -1."""
    node = statement_node(toks, i, tree, st, err, k, o, t)
    if node < 0:
        return -1
    if e0 < 0:
        return end_of_statement(toks, i, err)
    e, j = _value(toks, e0, tree, st, err, node, k != N.N_ASSERT)
    if e < 0:
        return -1
    if k == N.N_ASSERT and is_op(toks, j, T.OP_COMMA):
        return fail_tok(err, toks, j, j, E_UNSUPPORTED, errors.C_ASSERT_MESSAGE)
    return end_of_statement(toks, j, err)


@nrt_free
def expression_statement(toks, i, tree, st, err):
    """An expression as a statement, `xs[i] = v` / `xs[i] op= v` (a SETITEM), or `a, b = v`
    (an UNPACK).  Returns the next token or -1."""
    kind, op = tree.kind, tree.op
    node = statement_node(toks, i, tree, st, err, N.N_EXPR_STMT, 0, i)
    if node < 0:
        return -1
    e, j = _value(toks, i, tree, st, err, node, True)
    if e < 0:
        return -1
    if toks.kind[j] != TK_OP:
        return end_of_statement(toks, j, err)
    s = toks.sub[j]
    a = AUGMENTED_OF_OP[s]
    if s == T.OP_ASSIGN and as_target(tree, st, e):  # a, (b, c) = v, [a, b] = v
        kind[node] = N.N_UNPACK
        v, j = expression_list(toks, j + 1, tree, st, err)
        if v < 0:
            return -1
        tree.next[e] = v
        if is_op(toks, j, T.OP_ASSIGN):
            return fail_tok(err, toks, j, j, E_UNSUPPORTED, errors.C_CHAINED_ASSIGN)
    elif kind[e] == N.N_SUBSCRIPT and (s == T.OP_ASSIGN or a >= 0) or kind[e] == N.N_SLICE and s == T.OP_ASSIGN:
        # xs[i] = v, xs[i] += v, xs[a:b] = ys
        kind[node] = N.N_SETITEM
        op[node] = -1 if s == T.OP_ASSIGN else a
        v, j = expression_list(toks, j + 1, tree, st, err)
        if v < 0:
            return -1
        tree.next[e] = v
        if is_op(toks, j, T.OP_ASSIGN):
            return fail_tok(err, toks, j, j, E_UNSUPPORTED, errors.C_CHAINED_ASSIGN)
    elif a == AUGMENTED_UNSUPPORTED:
        return fail_tok(err, toks, j, j, errors.E_UNSUPPORTED_OPERATOR, s)
    elif s == T.OP_ASSIGN or s == T.OP_COLON or a >= 0:  # f(x) = 1, (a) += 1
        return fail_tok(err, toks, i, i, E_UNSUPPORTED, errors.C_ASSIGN_TARGET)
    return end_of_statement(toks, j, err)


@nrt_free
def name_statement(src, toks, i, tree, st, err):
    """A statement at name token i: `x = v`, `x: T = v`, `x op= v`, or an expression statement.
    Returns the next token or -1."""
    tk = toks.kind
    if tk[i + 1] != TK_OP:
        return expression_statement(toks, i, tree, st, err)
    s1 = toks.sub[i + 1]
    if s1 == T.OP_ASSIGN:
        return simple_statement(toks, i, tree, st, err, N.N_ASSIGN, N.NO_TYPE, i, i + 2)
    if s1 == T.OP_COLON:
        t, a = annotation(src, toks, i + 2, err)  # a: after the annotation
        if t < 0:
            return -1
        if tk[a] == TK_NEWLINE:
            return fail_tok(err, toks, i, a - 1, E_UNSUPPORTED, errors.C_BARE_ANNOTATION)
        if not is_op(toks, a, T.OP_ASSIGN):
            return fail_tok(err, toks, a, a, E_EXPECTED_OP, T.OP_ASSIGN)
        return simple_statement(toks, i, tree, st, err, N.N_ASSIGN, t, i, a + 1)
    a = AUGMENTED_OF_OP[s1]
    if a == AUGMENTED_UNSUPPORTED:
        return fail_tok(err, toks, i + 1, i + 1, errors.E_UNSUPPORTED_OPERATOR, s1)
    if a >= 0:
        return simple_statement(toks, i, tree, st, err, N.N_AUGASSIGN, a, i, i + 2)
    return expression_statement(toks, i, tree, st, err)
