"""Desugaring, the constructors of a value from an iterable (a part of compiler/desugar.py's pass;
kernel bodies): written as the comprehensions the later phases compile, which iterate any
iterable a clause takes (a list, a str, a range, a dict and its views, a set) in CPython's order.

    set(e)                  {v for v in e}
    dict(e)                 {k: w for k, w in e}     e's items 2-tuples (or zip(a, b): its loop)
    tuple(e)                [(ys[0], ..., ys[n - 1]) for ys in [e]][0]   e a list display of n
                            elements, or sorted / list / reversed of one: the length a tuple
                            type needs is known when compiled; tuple() is ()

`constructor` rewrites the call in place and returns the clause a dict's target unpacks (the
caller runs desugar.py's _unpacking_clause on it), 0 for the others, -1 on an error, or -2 when
the call is left as it is (tuple() of another iterable: the type checker's located error).
"""

from __future__ import annotations

from gpucc.compiler.desugar_nodes import clause, hidden, int_lit, kids, name, node, subscript
from gpucc.compiler.nodes import COMP_DICT, COMP_LIST, COMP_SET, N_CALL, N_COMP, N_LIST, N_SUBSCRIPT, N_TUPLE, PAIR
from gpucc.compiler.scope import B_REVERSED, B_SORTED, BUILTINS, call_builtin
from gpucc.contract.jitable import nrt_free

B_SET, B_DICT, B_TUPLE, B_LIST_CALL, B_RANGE_CALL = (BUILTINS.index(b) for b in ("set", "dict", "tuple", "list", "range"))
MAX_TUPLE = 12  # elements of a tuple(...) rewrite (its nodes fit desugar_nodes.NODES_PER_REWRITE)
LEFT = -2  # the call stays as it is


@nrt_free
def is_constructor(b, nargs):
    """Whether a call of builtin b with nargs arguments is one constructor() rewrites."""
    return (b == B_SET or b == B_DICT) and nargs == 1 or b == B_TUPLE and nargs <= 1


@nrt_free
def _display_length(src, toks, tree, e):
    """The length of list display e, or of sorted / list / reversed of one (-1: not known)."""
    if tree.kind[e] == N_CALL and tree.first[e] != -1 and tree.next[tree.first[e]] == -1:
        b = call_builtin(src, toks, tree, e)
        if b == B_SORTED or b == B_LIST_CALL or b == B_REVERSED:
            e = tree.first[e]
    if tree.kind[e] != N_LIST:
        return -1
    n = 0
    c = tree.first[e]
    while c != -1:
        n += 1
        c = tree.next[c]
    return n


@nrt_free
def constructor(src, toks, tree, st, n, b, keep):
    """Rewrite call n of set / dict / tuple (is_constructor; room() checked) as the module doc
    says; keep: the tree.val that keeps a range() call a clause's."""
    e = tree.first[n]
    at = tree.tok[n]
    if b == B_TUPLE:
        size = _display_length(src, toks, tree, e) if e != -1 else 0
        if size < 0 or size > MAX_TUPLE:
            return LEFT
        tree.kind[n] = N_TUPLE
        tree.op[n] = 0
        tree.first[n] = -1
        if size == 0:
            return 0
        ys = hidden(toks, st, at, 0)
        fields = -1
        last = -1
        for k in range(size):
            f = subscript(tree, st, at, name(tree, st, ys), int_lit(tree, st, at, k))
            if last < 0:
                fields = f
            else:
                tree.next[last] = f
            last = f
        tup = node(tree, st, N_TUPLE, 0, at, 0)
        tree.first[tup] = fields
        one = kids(tree, node(tree, st, N_LIST, 0, at, 0), e, -1, -1)
        comp = kids(tree, node(tree, st, N_COMP, COMP_LIST, at, 0), clause(tree, st, ys, one), tup, -1)
        tree.kind[n] = N_SUBSCRIPT
        kids(tree, n, comp, int_lit(tree, st, at, 0), -1)
        return 0
    if tree.kind[e] == N_CALL and call_builtin(src, toks, tree, e) == B_RANGE_CALL:
        tree.val[e] = keep  # iterated by the clause (comp_scope's range clause)
    v = hidden(toks, st, at, 0)
    f = clause(tree, st, v, e)
    tree.kind[n] = N_COMP
    if b == B_SET:
        tree.op[n] = COMP_SET
        kids(tree, n, f, name(tree, st, v), -1)
        return 0
    w = hidden(toks, st, at, 1)
    tree.val[f] = kids(tree, node(tree, st, N_TUPLE, 0, at, 0), name(tree, st, v), name(tree, st, w), -1)
    pair = kids(tree, node(tree, st, N_TUPLE, 0, at, PAIR), name(tree, st, v), name(tree, st, w), -1)
    tree.op[n] = COMP_DICT
    kids(tree, n, f, pair, -1)
    return f
