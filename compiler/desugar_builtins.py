"""Desugaring, builtins as values (a part of compiler/desugar.py's pass; kernel bodies): written as
the comprehensions the later phases compile, which iterate any iterable a clause takes (a list, a
str, a range, a dict and its views, a set) in CPython's order.

    map(f, xs)              (f(v) for v in xs)       a lambda's body with its parameter renamed v
    filter(f, xs)           (v for v in xs if f(v))  filter(None, xs): `if v`
    range(...)              as a value: [v for v in range(...)]
    divmod(a, b)            [(p // q, p % q) for p in [a] for q in [b]][0]
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

from gpucc.compiler import errors
from gpucc.compiler.desugar_nodes import (
    become,
    bind_clause,
    chain,
    clause,
    hidden,
    int_lit,
    kids,
    name,
    node,
    rename,
    subscript,
)  # fmt: skip
from gpucc.compiler.errors import E_UNSUPPORTED
from gpucc.compiler.nodes import (
    BIN_FLOORDIV,
    BIN_MOD,
    COMP_DICT,
    COMP_GEN,
    COMP_LIST,
    COMP_SET,
    N_BINARY,
    N_CALL,
    N_COMP,
    N_COMP_IF,
    N_LAMBDA,
    N_LIST,
    N_NAME,
    N_NONE,
    N_SUBSCRIPT,
    N_TUPLE,
    PAIR,
)  # fmt: skip
from gpucc.compiler.parser_util import fail_tok
from gpucc.compiler.scope import B_REVERSED, B_SORTED, BUILTINS, call_builtin
from gpucc.compiler.typecheck_calls import count_from
from gpucc.contract.jitable import nrt_free

B_SET, B_DICT, B_TUPLE, B_LIST_CALL, B_RANGE_CALL, B_MAP = (BUILTINS.index(b) for b in (
    "set", "dict", "tuple", "list", "range", "map"))  # fmt: skip
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


@nrt_free
def divmod_value(toks, tree, st, n):
    """divmod(a, b) at CALL n (module doc); 0."""
    a = tree.first[n]
    d = tree.next[a]
    p, q = hidden(toks, st, tree.tok[n], 0), hidden(toks, st, tree.tok[n], 1)
    loops = bind_clause(tree, st, p, a)
    chain(tree, loops, bind_clause(tree, st, q, d))
    pair = kids(tree, node(tree, st, N_TUPLE, 0, tree.tok[n], 0), _binary(tree, st, BIN_FLOORDIV, p, q),
                _binary(tree, st, BIN_MOD, p, q), -1)  # fmt: skip
    one = kids(tree, node(tree, st, N_COMP, COMP_LIST, tree.tok[n], 0), loops, tree.next[loops], pair)
    become(tree, n, N_SUBSCRIPT, 0, one, int_lit(tree, st, tree.tok[n], 0))
    return 0


@nrt_free
def range_value(toks, tree, st, n):
    """range(...) as a value at CALL n: [v for v in range(...)]; 0."""
    c = node(tree, st, N_CALL, 0, tree.tok[n], 0)
    tree.first[c] = tree.first[n]
    v = hidden(toks, st, tree.tok[n], 0)
    become(tree, n, N_COMP, COMP_LIST, clause(tree, st, v, c), name(tree, st, v))
    return 0


@nrt_free
def _binary(tree, st, bop, p, q):
    """`p bop q` of two hidden names."""
    return kids(tree, node(tree, st, N_BINARY, bop, p, 0), name(tree, st, p), name(tree, st, q), -1)


@nrt_free
def map_filter(src, toks, tree, st, n, b, err):
    """map(f, xs) / filter(f, xs) as a generator expression (module docstring).  0, or -1."""
    f = tree.first[n]
    xs = tree.next[f]
    if tree.kind[f] == N_LAMBDA and count_from(tree.next, tree.first[f]) == 2:  # one parameter, the body
        p = tree.first[f]
        v, body = hidden(toks, st, tree.tok[n], 0), tree.next[p]
        if not rename(src, toks, tree, st, body, tree.tok[p], v):
            return fail_tok(err, toks, tree.tok[f], tree.tok[f], E_UNSUPPORTED, errors.C_BUILTIN_FORM)
    else:
        v = hidden(toks, st, tree.tok[n], 0)
        body = name(tree, st, v)
        if tree.kind[f] == N_NAME:  # f(v)
            body = kids(tree, f, body, -1, -1)
            tree.kind[f] = N_CALL
        elif tree.kind[f] != N_NONE or b == B_MAP:
            return fail_tok(err, toks, tree.tok[n], tree.tok[n], E_UNSUPPORTED, errors.C_BUILTIN_FORM)
    loop = clause(tree, st, v, xs)
    if b == B_MAP:
        become(tree, n, N_COMP, COMP_GEN, loop, body)
        return 0
    test = kids(tree, node(tree, st, N_COMP_IF, 0, tree.tok[n], 0), body, -1, -1)
    tree.kind[n] = N_COMP
    tree.op[n] = COMP_GEN
    kids(tree, n, loop, test, name(tree, st, v))
    return 0
