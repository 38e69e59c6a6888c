"""Desugaring, itertools' combinatoric iterators and chain (a part of compiler/desugar.py's pass;
kernel bodies): each call becomes a list comprehension, whose clauses run in CPython's order
(lexicographic in the pool's indices, the last one fastest); the iterables are read once, first,
into hidden lists (ys):

    permutations(xs, 2)         [(ys[i], ys[j]) for ys in [list(xs)] for i in range(len(ys))
                                 for j in range(len(ys)) if j != i]
    combinations(xs, 2)         ... for i in range(len(ys)) for j in range(i + 1, len(ys))
    combinations_with_replacement(xs, 2)        for j in range(i, len(ys))
    product(a, b, repeat=2)     [(u, v, w, x) for p in [list(a)] for q in [list(b)] for u in p
                                 for v in q for w in p for x in q]
    chain(a, b)                 [v for p in [list(a)] for q in [list(b)] for ys in [p, q] for v in ys]

A tuple's length is its type's, so r and repeat are int literals (permutations(xs) without r, or
r of a name: a located E_UNSUPPORTED); r counts at most MAX_R.  CPython's lazy iterator becomes a
list (the same elements in the same order: as a `for`'s iterable, in `list(...)`, in a
comprehension).
"""

from __future__ import annotations

from gpucc.compiler import errors
import numpy as np

from gpucc.compiler.desugar_nodes import (
    bind_clause,
    builtin_call,
    chain,
    clause,
    hidden,
    keyword_named,
    kids,
    name,
    node,
    subscript,
)  # fmt: skip
from gpucc.compiler.desugar_folds import desugared_call
from gpucc.compiler.errors import E_PROGRAM_TOO_LARGE, E_UNSUPPORTED
from gpucc.compiler.modules import CHAIN, COMBINATIONS, COMBINATIONS_WR, PERMUTATIONS, PRODUCT
from gpucc.compiler.nodes import (
    BIN_ADD,
    COMP_LIST,
    N_BINARY,
    N_CMP_LINK,
    N_COMP,
    N_COMP_IF,
    N_COMPARE,
    N_INT,
    N_KWARG,
    N_LIST,
    N_TUPLE,
)  # fmt: skip
from gpucc.compiler.parser_util import S_COUNT, S_NTOK, fail_tok, link_child
from gpucc.compiler.scope import B_LEN, BUILTINS
from gpucc.contract.isa import CMP_NE
from gpucc.contract.jitable import nrt_free

B_LIST, B_RANGE = BUILTINS.index("list"), BUILTINS.index("range")
MAX_R = 5  # the longest tuples (permutations' clauses and tests fit the node budget below)
MAX_NAMES = 11  # hidden names of one call (desugar_nodes.hidden's variants)
NODES, TOKENS = 160, 48  # what one rewrite may take at most
W_REPEAT = np.frombuffer(b"repeat", dtype=np.uint8)


@nrt_free
def is_itertool(k):
    return k == PERMUTATIONS or k == COMBINATIONS or k == COMBINATIONS_WR or k == PRODUCT or k == CHAIN


@nrt_free
def _fail(toks, tree, n, err):
    return fail_tok(err, toks, tree.tok[n], tree.tok[n], E_UNSUPPORTED, errors.C_ITERTOOLS_FORM)


@nrt_free
def itertool(src, toks, tree, st, n, err):
    """Node n, if a call of one of itertools' iterators above, made its list comprehension.
    0, or -1 with err set."""
    k, a = desugared_call(src, toks, tree, n)
    if not is_itertool(k):
        return 0
    if st[S_COUNT] + NODES > tree.kind.shape[0] or st[S_NTOK] + TOKENS > toks.kind.shape[0]:
        return fail_tok(err, toks, tree.tok[n], tree.tok[n], E_PROGRAM_TOO_LARGE, 0)
    at = tree.tok[n]
    pools = 0  # the iterables, then r (or repeat=)
    r = 1
    x = a
    while x != -1:
        nxt = tree.next[x]
        last = nxt == -1
        if tree.kind[x] == N_KWARG:  # product's repeat=
            if k != PRODUCT or not last or not keyword_named(src, toks, tree, x, W_REPEAT) or tree.kind[
                    tree.first[x]] != N_INT:  # fmt: skip
                return _fail(toks, tree, x, err)
            r = tree.val[tree.first[x]]
        elif k != PRODUCT and k != CHAIN and pools == 1:  # r
            if tree.kind[x] != N_INT or not last:
                return _fail(toks, tree, x, err)
            r = tree.val[x]
        else:
            pools += 1
        x = nxt
    combinatoric = k != PRODUCT and k != CHAIN
    if pools == 0 or combinatoric and (pools != 1 or tree.next[a] == -1) or r < 1 or r > MAX_R:
        return _fail(toks, tree, n, err)
    if pools + (r * pools if k == PRODUCT else r) > MAX_NAMES:
        return _fail(toks, tree, n, err)
    first = -1
    last = -1
    x = a
    for j in range(pools):  # for p_j in [list(x_j)]
        nxt = tree.next[x]
        tree.next[x] = -1
        c = bind_clause(tree, st, hidden(toks, st, at, j), builtin_call(tree, toks, st, B_LIST, at, x, -1))
        first = c if first < 0 else first
        last = c if j == 0 else chain(tree, last, c)
        x = nxt
    if k == CHAIN:  # for ys in [p_0, ...] for v in ys
        ps = node(tree, st, N_LIST, 0, at, 0)
        e = -1
        for j in range(pools):
            p = name(tree, st, hidden(toks, st, at, j))
            link_child(tree, ps, e, p)
            e = p
        ys, v = hidden(toks, st, at, pools), hidden(toks, st, at, pools + 1)
        last = chain(tree, last, clause(tree, st, ys, ps))
        last = chain(tree, last, clause(tree, st, v, name(tree, st, ys)))
        chain(tree, last, name(tree, st, v))
    else:
        element = node(tree, st, N_TUPLE, 0, at, 0)
        e = -1
        for i in range(r * pools if k == PRODUCT else r):
            last, item = _level(toks, tree, st, k, at, pools, i, last)
            link_child(tree, element, e, item)
            e = item
        chain(tree, last, element)
    tree.kind[n] = N_COMP
    tree.op[n] = COMP_LIST
    tree.first[n] = first
    return 0


@nrt_free
def _level(toks, tree, st, k, at, pools, i, last):
    """The clauses of the tuple's field i after clause `last`: (the last clause, the field)."""
    if k == PRODUCT:  # for v_i in p_(i % pools)
        v = hidden(toks, st, at, pools + i)
        last = chain(tree, last, clause(tree, st, v, name(tree, st, hidden(toks, st, at, i % pools))))
        return last, name(tree, st, v)
    ys = hidden(toks, st, at, 0)
    index = hidden(toks, st, at, 1 + i)
    stop = builtin_call(tree, toks, st, B_LEN, at, name(tree, st, ys), -1)
    if k == PERMUTATIONS or i == 0:  # range(len(ys))
        span = builtin_call(tree, toks, st, B_RANGE, at, stop, -1)
    else:  # range(i_(i-1) [+ 1], len(ys))
        start = name(tree, st, hidden(toks, st, at, i))
        if k == COMBINATIONS:
            one = node(tree, st, N_INT, 0, at, 1)
            start = kids(tree, node(tree, st, N_BINARY, BIN_ADD, at, 0), start, one, -1)
        span = builtin_call(tree, toks, st, B_RANGE, at, start, stop)
    last = chain(tree, last, clause(tree, st, index, span))
    if k == PERMUTATIONS:  # if i_i != i_j for each j < i
        for j in range(i):
            link = kids(tree, node(tree, st, N_CMP_LINK, CMP_NE, at, 0), name(tree, st, hidden(toks, st, at, 1 + j)),
                        -1, -1)  # fmt: skip
            test = kids(tree, node(tree, st, N_COMPARE, 0, at, 0), name(tree, st, index), link, -1)
            last = chain(tree, last, kids(tree, node(tree, st, N_COMP_IF, 0, at, 0), test, -1, -1))
    return last, subscript(tree, st, at, name(tree, st, ys), name(tree, st, index))
