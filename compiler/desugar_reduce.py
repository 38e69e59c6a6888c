"""Desugaring, functools.reduce (a part of compiler/desugar.py's pass; kernel bodies): a
statement that calls `reduce(f, xs[, init])` (`from functools import reduce`, or
`functools.reduce` of `import functools`) runs the fold first, in hidden locals, and reads its
result where the call was:

    S(reduce(f, xs, init))      ys = list(xs); acc = init; for v in ys: acc = f(acc, v); S(acc)
    S(reduce(f, xs))            ys = list(xs); if not ys: raise TypeError
                                acc = ys[0]; for v in ys[1:]: acc = f(acc, v); S(acc)

f is a function's name or a two-parameter lambda (its body with the parameters renamed).  The
statement becomes a block of those statements and itself; the calls of one statement are folded
in the order Python evaluates them.  A call the statement does not always evaluate, or evaluates
more than once (in a lambda, a comprehension, a conditional expression, `and` / `or`, a while
condition), stays: the type checker's located E_UNSUPPORTED.
"""

from __future__ import annotations

from gpucc.compiler import errors
from gpucc.compiler.desugar_nodes import (
    WALK_DEPTH,
    builtin_call,
    chain,
    hidden,
    int_lit,
    kids,
    name,
    no_room,
    node,
    rename,
    room,
    subscript,
)  # fmt: skip
from gpucc.compiler.errors import E_UNSUPPORTED
from gpucc.compiler.modules import FIRST_DESUGARED, REDUCE, import_module, member_code
from gpucc.compiler.nodes import (
    N_ASSERT,
    N_ASSIGN,
    N_AUGASSIGN,
    N_BLOCK,
    N_BOOLOP,
    N_CALL,
    N_COMP,
    N_EXPR_STMT,
    N_FOR_LIST,
    N_FOR_RANGE,
    N_IF,
    N_IFEXP,
    N_IMPORT,
    N_LAMBDA,
    N_METHOD,
    N_NAME,
    N_RAISE,
    N_RETURN,
    N_SETITEM,
    N_SLICE,
    N_UNARY,
    N_UNPACK,
    NO_TYPE,
    UN_NOT,
)  # fmt: skip
from gpucc.compiler.parser_util import S_VALS, fail_tok
from gpucc.compiler.scope import BUILTINS, same_name
from gpucc.contract.jitable import nrt_free
from gpucc.contract.status import TYPE_ERROR

B_LIST = BUILTINS.index("list")


@nrt_free
def folds(k):
    """Whether a statement of kind k may hold a reduce call to fold before it."""
    return (k == N_ASSIGN or k == N_AUGASSIGN or k == N_EXPR_STMT or k == N_RETURN or k == N_ASSERT or k == N_IF
            or k == N_FOR_LIST or k == N_FOR_RANGE or k == N_SETITEM or k == N_UNPACK or k == N_RAISE)


@nrt_free
def _import_of(src, toks, tree, t):
    """The IMPORT node binding the name of token t (anywhere in the unit), or -1."""
    d = tree.first[0]
    while d != -1:
        if tree.kind[d] == N_IMPORT and same_name(src, toks.start[tree.tok[d]], toks.end[tree.tok[d]],
                                                  toks.start[t], toks.end[t]):  # fmt: skip
            return d
        d = tree.next[d]
    return -1


@nrt_free
def desugared_call(src, toks, tree, n):
    """(member code, first argument) of node n if it calls a function of
    modules.DESUGARED_FUNCTIONS (`f(...)` of `from m import f`, `m.f(...)` of `import m`), else
    (-1, -1)."""
    if tree.kind[n] == N_CALL and tree.first[n] != -1:
        d = _import_of(src, toks, tree, tree.tok[n])
        if d >= 0 and tree.val[d] >= FIRST_DESUGARED:
            return int(tree.val[d]), int(tree.first[n])
        return -1, -1
    if tree.kind[n] != N_METHOD or tree.kind[tree.first[n]] != N_NAME or tree.next[tree.first[n]] == -1:
        return -1, -1
    d = _import_of(src, toks, tree, tree.tok[tree.first[n]])
    if d < 0 or tree.val[d] >= 0:
        return -1, -1
    t = tree.tok[n]
    k = member_code(src, import_module(tree, d), toks.start[t], toks.end[t])
    if k < FIRST_DESUGARED:
        return -1, -1
    return int(k), int(tree.next[tree.first[n]])


@nrt_free
def reduce_args(src, toks, tree, n):
    """The first argument of node n if it calls functools.reduce, else -1."""
    k, a = desugared_call(src, toks, tree, n)
    return a if k == REDUCE else -1


@nrt_free
def _find(src, toks, tree, st, root):
    """The first reduce call in root's expressions in evaluation order (preorder), where it
    runs once whenever the statement runs; -1 if none (or nested past WALK_DEPTH)."""
    x, sp = tree.first[root], 0
    while x != -1:
        if reduce_args(src, toks, tree, x) >= 0:
            return x
        k = tree.kind[x]
        leaf = (k == N_BLOCK or k == N_IF or k == N_LAMBDA or k == N_COMP or k == N_IFEXP or k == N_BOOLOP
                or tree.first[x] == -1)
        if not leaf:
            if tree.next[x] != -1:
                if sp >= WALK_DEPTH:
                    return -1
                st[S_VALS + sp] = tree.next[x]
                sp += 1
            x = tree.first[x]
        elif tree.next[x] != -1:
            x = tree.next[x]
        elif sp > 0:
            sp -= 1
            x = st[S_VALS + sp]
        else:
            x = -1
    return -1


@nrt_free
def fold_reduces(src, toks, tree, st, s, err):
    """Statement s: each reduce call it runs folded before it (module docstring).  0, or -1."""
    r = _find(src, toks, tree, st, s)
    while r != -1:
        if not room(tree, toks, st):
            return no_room(toks, tree, r, err)
        copy = node(tree, st, tree.kind[s], tree.op[s], tree.tok[s], tree.val[s])
        tree.first[copy] = tree.first[s]
        first, last = _fold(src, toks, tree, st, r, err)
        if last < 0:
            return -1
        chain(tree, last, copy)
        tree.kind[s] = N_BLOCK
        tree.op[s] = 0
        tree.first[s] = first
        s = copy
        r = _find(src, toks, tree, st, s)
    return 0


@nrt_free
def _fold(src, toks, tree, st, r, err):
    """Reduce call r: its statements made and r made the name of its result.  The first and
    the last statement, or -1, -1 with err set."""
    f = reduce_args(src, toks, tree, r)
    xs = tree.next[f]
    init = tree.next[xs] if xs != -1 else -1
    at = tree.tok[r]
    if xs == -1 or init != -1 and tree.next[init] != -1:
        return fail_tok(err, toks, at, at, E_UNSUPPORTED, errors.C_BUILTIN_FORM), -1
    ys, acc, v = hidden(toks, st, at, 0), hidden(toks, st, at, 1), hidden(toks, st, at, 2)
    if tree.kind[f] == N_LAMBDA:  # lambda a, b: body
        a = tree.first[f]
        b = tree.next[a] if a != -1 else -1
        body = tree.next[b] if b != -1 else -1
        if body == -1 or tree.next[body] != -1 or tree.kind[b] != N_NAME:
            return fail_tok(err, toks, tree.tok[f], tree.tok[f], E_UNSUPPORTED, errors.C_BUILTIN_FORM), -1
        if not (rename(src, toks, tree, st, body, tree.tok[a], acc) and rename(src, toks, tree, st, body, tree.tok[b], v)):
            return fail_tok(err, toks, tree.tok[f], tree.tok[f], E_UNSUPPORTED, errors.C_BUILTIN_FORM), -1
    elif tree.kind[f] == N_NAME:  # f(acc, v)
        body = kids(tree, f, name(tree, st, acc), name(tree, st, v), -1)
        tree.kind[f] = N_CALL
    else:
        return fail_tok(err, toks, tree.tok[f], tree.tok[f], E_UNSUPPORTED, errors.C_BUILTIN_FORM), -1
    tree.next[xs] = -1
    first = kids(tree, node(tree, st, N_ASSIGN, NO_TYPE, ys, 0), builtin_call(tree, toks, st, B_LIST, at, xs, -1), -1, -1)
    last = first
    items = name(tree, st, ys)
    if init == -1:  # if not ys: raise TypeError; acc = ys[0]; over ys[1:]
        empty = kids(tree, node(tree, st, N_UNARY, UN_NOT, at, 0), name(tree, st, ys), -1, -1)
        raise_ = kids(tree, node(tree, st, N_BLOCK, 0, at, 0), node(tree, st, N_RAISE, TYPE_ERROR, at, 0), -1, -1)
        tree.first[tree.first[raise_]] = -1
        last = chain(tree, last, kids(tree, node(tree, st, N_IF, 0, at, 0), empty, raise_, -1))
        init = subscript(tree, st, at, name(tree, st, ys), int_lit(tree, st, at, 0))
        items = kids(tree, node(tree, st, N_SLICE, 1, at, 0), items, int_lit(tree, st, at, 1), -1)
    last = chain(tree, last, kids(tree, node(tree, st, N_ASSIGN, NO_TYPE, acc, 0), init, -1, -1))
    step = kids(tree, node(tree, st, N_ASSIGN, NO_TYPE, acc, 0), body, -1, -1)
    loop = kids(tree, node(tree, st, N_FOR_LIST, 0, v, 0), items, kids(tree, node(tree, st, N_BLOCK, 0, at, 0), step,
                                                                        -1, -1), -1)  # fmt: skip
    last = chain(tree, last, loop)
    tree.kind[r] = N_NAME  # the call reads the result
    tree.tok[r] = acc
    tree.op[r] = 0
    tree.first[r] = -1
    return first, last
