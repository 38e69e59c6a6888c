"""Desugaring, calls with keywords (a part of compiler/desugar.py's pass; kernel bodies):

    f(x, n=3), f(n=3, x=1), f(x)     the unit's function's arguments in parameter order, a
                                     copy of a parameter's default literal where one is left out
    sum(xs, start=s), s.split(sep=t, maxsplit=m), round(x, ndigits=n)    positional
    sorted / min / max / xs.sort with key= / reverse= / default=: compiler/desugar_keyed.py
"""

from __future__ import annotations

import numpy as np

from gpucc.compiler import errors
from gpucc.compiler.desugar_heapq import NOT_HEAPQ, heapq_imported, heapq_method, keyed_heapq
from gpucc.compiler.desugar_keyed import keyed
from gpucc.compiler.desugar_nodes import (
    has_kwargs,
    keyword_named,
    no_room,
    node,
    room,
)  # fmt: skip
from gpucc.compiler.errors import E_CALL_ARITY, E_KEYWORD, E_UNSUPPORTED
from gpucc.compiler.nodes import (
    N_BOOL,
    N_FLOAT,
    N_FUNCDEF,
    N_INT,
    N_KWARG,
    N_NONE,
    N_PARAM,
    N_STR,
    N_TUPLE,
    N_UNARY,
    UN_NEG,
)  # fmt: skip
from gpucc.compiler.parser_util import fail_tok, link_child
from gpucc.compiler.scope import (
    B_MAX,
    B_MIN,
    B_ROUND,
    B_SORTED,
    B_SUM,
    BUILTINS,
    M_RSPLIT,
    M_SPLIT,
    method_code,
    same_name,
)  # fmt: skip
from gpucc.compiler.typecheck_calls import count_from
from gpucc.compiler.typecheck_deque import is_deque_prelude
from gpucc.contract.jitable import nrt_free

B_MAP, B_FILTER, B_ENUMERATE, B_ZIP, B_RANGE, B_DIVMOD = (BUILTINS.index(b) for b in (
    "map", "filter", "enumerate", "zip", "range", "divmod"))  # fmt: skip
# the keywords read here, by spelling
W_START, W_NDIGITS, W_SEP, W_MAXSPLIT = (np.frombuffer(w, dtype=np.uint8) for w in (
    b"start", b"ndigits", b"sep", b"maxsplit"))  # fmt: skip
W_NONE = np.zeros(0, dtype=np.uint8)


@nrt_free
def _kwarg(src, toks, tree, n, word_s, word_e):
    """The KWARG among node n's children named src[word_s:word_e], or -1."""
    c = tree.first[n]
    while c != -1:
        if tree.kind[c] == N_KWARG and same_name(src, toks.start[tree.tok[c]], toks.end[tree.tok[c]], word_s, word_e):
            return c
        c = tree.next[c]
    return -1


@nrt_free
def positional(src, toks, tree, n, skip, w1, w2, err):
    """Node n's KWARGs named w1 then w2 (bytes arrays; w2 may be empty), in that order after
    its `skip` first children, become positional arguments.  0, or -1 (another keyword, or
    one out of order)."""
    prev = -1
    c = tree.first[n]
    j = 0
    while c != -1:
        nxt = tree.next[c]
        if tree.kind[c] == N_KWARG:
            ok = (j == skip and keyword_named(src, toks, tree, c, w1)) or (
                j == skip + 1 and w2.shape[0] > 0 and keyword_named(src, toks, tree, c, w2))  # fmt: skip
            if not ok:
                return fail_tok(err, toks, tree.tok[c], tree.tok[c], E_UNSUPPORTED, errors.C_KWARGS)
            v = tree.first[c]
            tree.next[v] = nxt
            link_child(tree, n, prev, v)
            c = v
        prev = c
        j += 1
        c = nxt
    return 0


@nrt_free
def keyword_call(src, toks, tree, st, n, b, err):
    """CALL n of builtin b (-1: a function of the unit, or none) with keywords (module
    docstring).  0, or -1."""
    if heapq_imported(src, toks, tree, n) != NOT_HEAPQ:  # nlargest(n, xs, key=f): compiler/desugar_heapq.py
        return keyed_heapq(src, toks, tree, st, n, tree.first[n], heapq_imported(src, toks, tree, n), err)
    d = find_def(src, toks, tree, n)
    if d >= 0:
        return _unit_call(src, toks, tree, st, n, d, err)
    if not has_kwargs(tree, n):
        return 0
    if b == B_SUM:
        return positional(src, toks, tree, n, 1, W_START, W_NONE, err)
    if b == B_ROUND:
        return positional(src, toks, tree, n, 1, W_NDIGITS, W_NONE, err)
    if b == B_SORTED or b == B_MIN or b == B_MAX:
        return keyed(src, toks, tree, st, n, n, tree.first[n], b, err)
    return fail_tok(err, toks, tree.tok[n], tree.tok[n], E_UNSUPPORTED, errors.C_KWARGS)


@nrt_free
def method_keywords(src, toks, tree, st, n, err):
    """METHOD n: split / rsplit's sep= and maxsplit= become positional, heapq.nlargest /
    nsmallest's key= a sort (compiler/desugar_heapq.py).  0, or -1."""
    if heapq_method(src, toks, tree, n) != NOT_HEAPQ:  # heapq.nlargest(n, xs, key=f)
        return keyed_heapq(src, toks, tree, st, n, tree.next[tree.first[n]], heapq_method(src, toks, tree, n), err)
    m = method_code(src, toks.start[tree.tok[n]], toks.end[tree.tok[n]])
    if (m == M_SPLIT or m == M_RSPLIT) and has_kwargs(tree, n):
        return positional(src, toks, tree, n, 1, W_SEP, W_MAXSPLIT, err)
    return 0


@nrt_free
def find_def(src, toks, tree, n):
    """The FUNCDEF of the unit (nested ones too: hoisted) named as node n's token, or -1."""
    s, e = toks.start[tree.tok[n]], toks.end[tree.tok[n]]
    d = tree.first[0]
    while d != -1 and not (tree.kind[d] == N_FUNCDEF and same_name(src, toks.start[tree.tok[d]],
                                                                      toks.end[tree.tok[d]], s, e)):  # fmt: skip
        d = tree.next[d]
    return d


@nrt_free
def desugared(b):
    """Whether builtin b's calls are rewritten here (a function of the unit may not take its name)."""
    return (b == B_MAP or b == B_FILTER or b == B_ENUMERATE or b == B_ZIP or b == B_SORTED or b == B_MIN
            or b == B_MAX or b == B_SUM or b == B_ROUND or b == B_DIVMOD)


@nrt_free
def _unit_call(src, toks, tree, st, n, d, err):
    """CALL n of the unit's function d: its arguments in parameter order, defaults copied
    where they are left out.  0, or -1 (a keyword no parameter has or one given twice; a
    parameter given no value)."""
    given = count_from(tree.next, tree.first[n])
    params = 0
    p = tree.first[d]
    while p != -1 and tree.kind[p] == N_PARAM:
        params += 1
        p = tree.next[p]
    deque = is_deque_prelude(src, toks, tree, d)  # deque(): the type checker's; deque(xs, maxlen=n): not built
    if not has_kwargs(tree, n) and (given >= params or deque):
        return 0
    if deque:
        return fail_tok(err, toks, tree.tok[n], tree.tok[n], E_UNSUPPORTED, errors.C_DEQUE_FORM)
    if not room(tree, toks, st):
        return no_room(toks, tree, n, err)
    c = tree.first[n]  # every keyword names a parameter not given by position
    npos = 0
    while c != -1 and tree.kind[c] != N_KWARG:
        npos += 1
        c = tree.next[c]
    while c != -1:
        i = _param_index(src, toks, tree, d, c)
        if i < npos or i >= params or tree.kind[c] != N_KWARG or _kwarg(src, toks, tree, n, toks.start[tree.tok[c]],
                                                           toks.end[tree.tok[c]]) != c:  # fmt: skip
            return fail_tok(err, toks, tree.tok[c], tree.tok[c], E_KEYWORD, 0)
        c = tree.next[c]
    if npos > params:
        return 0  # the type checker's arity error
    a = tree.first[n]
    p = tree.first[d]
    for i in range(params):  # each parameter's value, kept in its PARAM's val until all are found
        if i < npos:
            v = a
            a = tree.next[a]
        else:
            kw = _kwarg(src, toks, tree, n, toks.start[tree.tok[p]], toks.end[tree.tok[p]])
            v = tree.first[kw] if kw >= 0 else copy_literal(tree, st, tree.first[p])
        if v < 0:
            return fail_tok(err, toks, tree.tok[n], tree.tok[n], E_CALL_ARITY, params * 256 + given)
        tree.val[p] = v
        p = tree.next[p]
    last = -1
    p = tree.first[d]
    for i in range(params):
        link_child(tree, n, last, tree.val[p])
        last = tree.val[p]
        tree.val[p] = 0
        p = tree.next[p]
    tree.next[last] = -1
    return 0


@nrt_free
def _param_index(src, toks, tree, d, kw):
    """The index of FUNCDEF d's parameter named as KWARG kw, or a large number."""
    i = 0
    p = tree.first[d]
    while p != -1 and tree.kind[p] == N_PARAM:
        if same_name(src, toks.start[tree.tok[p]], toks.end[tree.tok[p]], toks.start[tree.tok[kw]],
                     toks.end[tree.tok[kw]]):  # fmt: skip
            return i
        i += 1
        p = tree.next[p]
    return 1 << 20


@nrt_free
def _scalar_literal(tree, d):
    """A literal of int, float, bool, str or None, or a negated number."""
    k = tree.kind[d]
    if k == N_UNARY and tree.op[d] == UN_NEG:
        return tree.kind[tree.first[d]] == N_INT or tree.kind[tree.first[d]] == N_FLOAT
    return k == N_INT or k == N_FLOAT or k == N_BOOL or k == N_NONE or k == N_STR


@nrt_free
def is_literal(tree, d):
    """A default value gpucc copies to each call: a scalar literal or a tuple of them."""
    if tree.kind[d] != N_TUPLE:
        return _scalar_literal(tree, d)
    c = tree.first[d]
    while c != -1:
        if tree.kind[c] == N_UNARY or not _scalar_literal(tree, c):
            return False
        c = tree.next[c]
    return True


@nrt_free
def copy_literal(tree, st, d):
    """A copy of default literal d (is_literal), or -1 for none."""
    if d < 0:
        return -1
    c = node(tree, st, tree.kind[d], tree.op[d], tree.tok[d], tree.val[d])
    last = -1
    x = tree.first[d]
    while x != -1:  # a tuple's items, a sign's number: literals without children
        y = node(tree, st, tree.kind[x], tree.op[x], tree.tok[x], tree.val[x])
        link_child(tree, c, last, y)
        last = y
        x = tree.next[x]
    return c
