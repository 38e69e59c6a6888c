"""Comprehensions for the expression parser (compiler.parser_expr): `[e for x in xs if c]` and
the generator expression `f(e for x in xs)`, as one COMP node (compiler/nodes.py) whose
children are its clauses in source order, then its element.

`for` after the first item of a list literal or of a call's arguments opens a comprehension:
the item becomes its element, and an X_COMP entry goes on the operator stack above the
bracket (a bracket itself: the clauses' expressions end at it).  Each `for` / `if` at X_COMP
ends the clause before it (its expression becomes the clause's child) and opens the next;
the closing bracket ends the last one.  A list comprehension replaces the list literal's
node; a generator expression is its call's one argument.  A clause's target is a name or an
unpacking target (`for i, (a, b) in xs`); a generator expression in parentheses of its own is
a located error.

Kernel bodies: each returns the next token (or a node) and -1 with err set.
"""

from __future__ import annotations

from gpucc.compiler import errors, tokens
from gpucc.compiler.errors import E_EXPECTED_NAME, E_PROGRAM_TOO_LARGE, E_SYNTAX, E_UNSUPPORTED
from gpucc.compiler.nodes import (
    COMP_DICT,
    COMP_GEN,
    COMP_LIST,
    COMP_SET,
    N_COMP,
    N_COMP_FOR,
    N_COMP_IF,
    N_DICT,
    N_METHOD,
    N_SET,
    N_TUPLE,
    PAIR,
)
from gpucc.compiler.parser_opstack import add_arg, close, pop_val, push_op, push_val, top_entry, top_op
from gpucc.compiler.parser_tables import X_BRACE, X_CALL, X_COMP, X_IFC, X_LIST, X_PAREN
from gpucc.compiler.parser_targets import for_target
from gpucc.compiler.parser_util import MAX_NESTING, O_LAST, O_NODE, S_NOPS, S_NVALS, fail_tok, is_kw, is_op, new_node
from gpucc.compiler.tokens import TK_NAME
from gpucc.contract.jitable import nrt_free

T = tokens


@nrt_free
def _link_clause(tree, st, clause):
    """Clause node `clause` follows the comprehension's last child so far."""
    o = top_entry(st)
    tree.next[st[o + O_LAST]] = clause
    st[o + O_LAST] = clause


@nrt_free
def _end_clause(tree, st):
    """The operand just completed is the expression of the comprehension's last clause."""
    x = pop_val(st)
    tree.first[st[top_entry(st) + O_LAST]] = x


@nrt_free
def _for_clause(toks, i, tree, st, err):
    """`for NAME in` or `for a, (b, c) in` at token i (X_COMP on top): a COMP_FOR clause (val:
    its target TUPLE, parser_targets.for_target; 0 for a NAME); its iterable starts after `in`."""
    target, j = -1, i + 2
    if toks.kind[i + 1] != TK_NAME or not is_kw(toks, i + 2, T.KW_IN):
        target, j = for_target(toks, i + 1, tree, st, st[S_NVALS], err)
        if target < 0:
            return -1
    tok = i + 1 if target < 0 else tree.tok[target]  # the variable (or the target's first token)
    clause = new_node(tree, st, N_COMP_FOR, 0, tok, 0)
    if clause < 0:
        return fail_tok(err, toks, i, i, E_PROGRAM_TOO_LARGE, 0)
    if target >= 0 and tree.kind[target] == N_TUPLE:
        tree.val[clause] = target
    _link_clause(tree, st, clause)
    return j + 1


@nrt_free
def open_comprehension(toks, i, tree, st, err):
    """`for` at token i after an operand, inside a list literal or a call: the operand, its
    bracket's first item, is a comprehension's element.  Returns where the first clause's
    iterable starts."""
    if not close(tree, st):
        return fail_tok(err, toks, i, i, E_PROGRAM_TOO_LARGE, 0)
    top = top_op(st)
    if top == X_PAREN:
        return fail_tok(err, toks, i, i, E_UNSUPPORTED, errors.C_GENERATOR)
    if top == X_IFC:
        return fail_tok(err, toks, i, i, errors.E_EXPECTED_ELSE, 0)
    o = top_entry(st)
    bracket, last = st[o + O_NODE], st[o + O_LAST]
    first_item = last < 0 or (tree.kind[bracket] == N_METHOD and last == tree.first[bracket])
    pair = top == X_BRACE and tree.kind[bracket] == N_DICT and tree.val[bracket] == 1  # {k: v for ...}
    if top == X_BRACE and (pair or first_item and tree.kind[bracket] == N_SET):
        code = COMP_DICT if pair else COMP_SET
    elif (top != X_LIST and top != X_CALL) or not first_item:  # [a, b for ...], f(a, b for ...)
        return fail_tok(err, toks, i, i, E_SYNTAX, 0)
    else:
        code = COMP_LIST if top == X_LIST else COMP_GEN
    comp = new_node(tree, st, N_COMP, code, i, 0)
    if comp < 0:
        return fail_tok(err, toks, i, i, E_PROGRAM_TOO_LARGE, 0)
    element = pop_val(st)
    if pair:  # the element: the TUPLE (key, value), never built (nodes.PAIR)
        key = tree.first[bracket]
        element = _pair(tree, st, key, element, i)
        if element < 0:
            return fail_tok(err, toks, i, i, E_PROGRAM_TOO_LARGE, 0)
    tree.first[comp] = element
    if not push_op(st, X_COMP, i, comp, element):
        return fail_tok(err, toks, i, i, errors.E_NESTING_TOO_DEEP, MAX_NESTING)
    return _for_clause(toks, i, tree, st, err)


@nrt_free
def _pair(tree, st, key, value, i):
    """A TUPLE node (key, value) marked PAIR; -1 when out of nodes."""
    node = new_node(tree, st, N_TUPLE, 0, tree.tok[key], PAIR)
    if node >= 0:
        tree.first[node] = key
        tree.next[key] = value
        tree.next[value] = -1
    return node


@nrt_free
def next_clause(toks, i, tree, st, err):
    """`for` or `if` at token i after a clause's expression: the next clause.  Returns where
    its expression starts."""
    if not close(tree, st):
        return fail_tok(err, toks, i, i, E_PROGRAM_TOO_LARGE, 0)
    if top_op(st) != X_COMP:
        return fail_tok(err, toks, i, i, errors.E_EXPECTED_ELSE, 0)
    _end_clause(tree, st)
    if is_kw(toks, i, T.KW_FOR):
        return _for_clause(toks, i, tree, st, err)
    clause = new_node(tree, st, N_COMP_IF, 0, i, 0)
    if clause < 0:
        return fail_tok(err, toks, i, i, E_PROGRAM_TOO_LARGE, 0)
    _link_clause(tree, st, clause)
    return i + 1


@nrt_free
def close_comprehension(toks, i, tree, st, err):
    """`]`, `)` or `,` at token i ends the last clause (X_COMP on top, reduced to it): the
    comprehension is complete.  Returns the node that is an operand now: the list
    comprehension, or the call whose one argument the generator expression is."""
    first, next_ = tree.first, tree.next
    o = top_entry(st)
    comp = st[o + O_NODE]
    braces = tree.op[comp] == COMP_SET or tree.op[comp] == COMP_DICT
    if not is_op(toks, i, T.OP_RSQB if tree.op[comp] == COMP_LIST else T.OP_RBRACE if braces else T.OP_RPAR):
        return fail_tok(err, toks, i, i, E_SYNTAX, 0)
    _end_clause(tree, st)
    element = first[comp]  # the element moves after the clauses (it is evaluated innermost)
    first[comp] = next_[element]
    next_[st[o + O_LAST]] = element
    next_[element] = -1
    st[S_NOPS] -= 1
    bracket = st[top_entry(st) + O_NODE]
    st[S_NOPS] -= 1
    if tree.op[comp] == COMP_LIST or braces:
        return comp  # in place of the list, set or dict display
    st[S_NOPS] += 1
    push_val(st, comp)
    add_arg(tree, st)
    st[S_NOPS] -= 1
    return bracket
