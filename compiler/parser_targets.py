"""Unpacking targets for the parsers: the target of `a, (b, c) = value` (as_target) and of
`for i, (a, b) in xs:` or a comprehension's `for i, (a, b) in xs` (for_target).  A target is a
TUPLE whose items are NAMEs and TUPLEs.  Kernel bodies (numba subset, no recursion: the walks
use the parser scratch's operand stack above its operands).
"""

from __future__ import annotations

from gpucc.compiler import tokens
from gpucc.compiler.errors import E_EXPECTED_NAME, E_NESTING_TOO_DEEP, E_PROGRAM_TOO_LARGE, E_SYNTAX
from gpucc.compiler.nodes import N_LIST, N_NAME, N_TUPLE
from gpucc.compiler.parser_util import MAX_NESTING, S_VALS, fail_tok, is_kw, is_op, link_child, new_node
from gpucc.compiler.tokens import TK_NAME
from gpucc.contract.jitable import nrt_free

T = tokens


@nrt_free
def _target_walk(tree, st, n, make):
    """Whether expression n is a TUPLE or LIST of at least one item, each a NAME or such a
    TUPLE or LIST; make: turn its LISTs into TUPLEs (`[a, b] = xs` unpacks as `a, b = xs`)."""
    kind, first, next_ = tree.kind, tree.first, tree.next
    st[S_VALS] = n
    sp = 1
    while sp > 0:
        sp -= 1
        m = st[S_VALS + sp]
        if kind[m] == N_NAME:
            continue
        if kind[m] != N_TUPLE and kind[m] != N_LIST or first[m] == -1:
            return False
        if make:
            kind[m] = N_TUPLE
        c = first[m]
        while c != -1:
            if sp >= MAX_NESTING:
                return False
            st[S_VALS + sp] = c
            sp += 1
            c = next_[c]
    return True


@nrt_free
def as_target(tree, st, n):
    """Whether expression n can be assigned to by unpacking (a TUPLE or LIST of NAMEs and
    such); if so it is made a target (its LISTs TUPLEs)."""
    if tree.kind[n] != N_TUPLE and tree.kind[n] != N_LIST or not _target_walk(tree, st, n, False):
        return False
    return _target_walk(tree, st, n, True)


@nrt_free
def for_target(toks, i, tree, st, used, err):
    """The target of a for loop at token i, up to `in`: a NAME, or a TUPLE of NAMEs and
    (parenthesized or bracketed) TUPLEs (used: the operand stack's entries in use, a
    comprehension's; 0 for a statement).  Returns (node, the `in` token); node -1 on error."""
    outer = new_node(tree, st, N_TUPLE, 0, i, 0)  # the unparenthesized list: a tuple if it has a comma
    if outer < 0:
        return fail_tok(err, toks, i, i, E_PROGRAM_TOO_LARGE, 0), i
    base = S_VALS + used  # the walk's stack, above the operands in use
    st[base] = outer  # the open tuples, innermost last, and their last items
    st[base + 1] = -1
    depth = 1
    commas = 0
    j = i
    while True:
        top = base + 2 * (depth - 1)
        if is_op(toks, j, T.OP_LPAR) or is_op(toks, j, T.OP_LSQB):
            if used + 2 * (depth + 1) > MAX_NESTING:
                return fail_tok(err, toks, j, j, E_NESTING_TOO_DEEP, MAX_NESTING), j
            node = new_node(tree, st, N_TUPLE, 0, j, 0)
            if node < 0:
                return fail_tok(err, toks, j, j, E_PROGRAM_TOO_LARGE, 0), j
            st[top + 1] = link_child(tree, st[top], st[top + 1], node)
            st[top + 2] = node
            st[top + 3] = -1
            depth += 1
            j += 1
            continue
        if toks.kind[j] != TK_NAME:
            return fail_tok(err, toks, j, j, E_EXPECTED_NAME, 0), j
        node = new_node(tree, st, N_NAME, 0, j, 0)
        if node < 0:
            return fail_tok(err, toks, j, j, E_PROGRAM_TOO_LARGE, 0), j
        st[top + 1] = link_child(tree, st[top], st[top + 1], node)
        j += 1
        while depth > 1 and (is_op(toks, j, T.OP_RPAR) or is_op(toks, j, T.OP_RSQB)):  # (a, b) closes
            depth -= 1
            j += 1
        if is_op(toks, j, T.OP_COMMA):
            commas += 1 if depth == 1 else 0
            j += 1
            while depth > 1 and (is_op(toks, j, T.OP_RPAR) or is_op(toks, j, T.OP_RSQB)):  # (a,)
                depth -= 1
                j += 1
            if not (depth == 1 and is_kw(toks, j, T.KW_IN)):
                continue
        if depth == 1 and is_kw(toks, j, T.KW_IN):
            break
        return fail_tok(err, toks, j, j, E_SYNTAX, 0), j
    return (outer if commas > 0 else tree.first[outer]), j
