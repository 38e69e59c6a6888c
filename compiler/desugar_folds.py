"""Desugaring, the folds: functools.reduce, itertools.accumulate and groupby (a part of
compiler/desugar.py's pass; kernel bodies).  A statement that calls one (`from functools import
reduce`, or `functools.reduce` of `import functools`) runs the fold first, in hidden locals, and
reads its result where the call was:

    S(reduce(f, xs, init))      ys = list(xs); acc = init; for v in ys: acc = f(acc, v); S(acc)
    S(reduce(f, xs))            ys = list(xs); if not ys: raise TypeError
                                acc = ys[0]; for v in ys[1:]: acc = f(acc, v); S(acc)
    S(accumulate(xs, f))        ys = list(xs); out = ys[:1]
                                for v in ys[1:]: acc = out[-1]; out += [f(acc, v)];  S(out)
                                (initial=x: out = [x], over ys; without f: acc + v)
    S(groupby(xs, key))         ys = list(xs); grp = ys[:0]
                                keys = [key(v) for v in ys]; out = [(k, ys[:0]) for k in keys[:0]]
                                for j in range(len(ys)): k = keys[j]; v = ys[j]
                                    if not out or not out[-1][0] == k: grp = [v]; out += [(k, grp)]
                                    else: grp += [v]
                                S(out)                         (without key: k = v)

f and key are a function's name or a lambda (its body with the parameters renamed).  The
statement becomes a block of those statements and itself; the calls of one statement are folded
in the order Python evaluates them.  accumulate and groupby give lists (groupby's groups are
lists: `for k, g in groupby(xs)`, `list(g)`, `len(list(g))` read them as CPython's iterators).
A call the statement does not run exactly once when it runs (in a lambda, a comprehension past
its first iterable, a conditional expression, `and` / `or`, a while condition) stays: the type
checker's located E_UNSUPPORTED.
"""

from __future__ import annotations

import numpy as np

from gpucc.compiler import errors
from gpucc.compiler.desugar_nodes import (
    WALK_DEPTH,
    builtin_call,
    chain,
    hidden,
    int_lit,
    keyword_named,
    kids,
    name,
    no_room,
    node,
    rename,
    room,
    subscript,
)  # fmt: skip
from gpucc.compiler.errors import E_UNSUPPORTED
from gpucc.compiler.modules import ACCUMULATE, FIRST_DESUGARED, GROUPBY, REDUCE, import_module, member_code
from gpucc.compiler.nodes import (
    BIN_ADD,
    BOOL_OR,
    COMP_LIST,
    N_ASSERT,
    N_ASSIGN,
    N_AUGASSIGN,
    N_BINARY,
    N_BLOCK,
    N_BOOLOP,
    N_CALL,
    N_CMP_LINK,
    N_COMP,
    N_COMP_FOR,
    N_COMPARE,
    N_EXPR_STMT,
    N_FOR_LIST,
    N_FOR_RANGE,
    N_IF,
    N_IFEXP,
    N_IMPORT,
    N_KWARG,
    N_LAMBDA,
    N_LIST,
    N_METHOD,
    N_NAME,
    N_NONE,
    N_RAISE,
    N_RETURN,
    N_SETITEM,
    N_SLICE,
    N_TUPLE,
    N_UNARY,
    N_UNPACK,
    NO_TYPE,
    UN_NOT,
)  # fmt: skip
from gpucc.compiler.parser_util import S_VALS, fail_tok
from gpucc.compiler.scope import B_LEN, BUILTINS, same_name
from gpucc.contract.isa import CMP_EQ
from gpucc.contract.jitable import nrt_free
from gpucc.contract.status import TYPE_ERROR

B_LIST = BUILTINS.index("list")
W_INITIAL, W_KEY = (np.frombuffer(w, dtype=np.uint8) for w in (b"initial", b"key"))


@nrt_free
def folds(k):
    """Whether a statement of kind k may hold a fold call to run before it."""
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
def called_member(src, toks, tree, n):
    """(member code, first argument or -1) of node n if it calls a module's function (`f(...)`
    of `from m import f`, `m.f(...)` of `import m`), else (-1, -1)."""
    if tree.kind[n] == N_CALL:
        d = _import_of(src, toks, tree, tree.tok[n])
        if d >= 0 and tree.val[d] >= 0:
            return int(tree.val[d]), int(tree.first[n])
        return -1, -1
    if tree.kind[n] != N_METHOD or tree.kind[tree.first[n]] != N_NAME:
        return -1, -1
    d = _import_of(src, toks, tree, tree.tok[tree.first[n]])
    if d < 0 or tree.val[d] >= 0:
        return -1, -1
    t = tree.tok[n]
    return int(member_code(src, import_module(tree, d), toks.start[t], toks.end[t])), int(tree.next[tree.first[n]])


@nrt_free
def desugared_call(src, toks, tree, n):
    """(member code, first argument) of node n if it calls a function of
    modules.DESUGARED_FUNCTIONS with arguments, else (-1, -1)."""
    k, a = called_member(src, toks, tree, n)
    if k < FIRST_DESUGARED or a == -1:
        return -1, -1
    return k, a


@nrt_free
def _fold_kind(src, toks, tree, n):
    """REDUCE, ACCUMULATE or GROUPBY if node n calls that fold, else -1."""
    k, _ = desugared_call(src, toks, tree, n)
    return k if k == REDUCE or k == ACCUMULATE or k == GROUPBY else -1


@nrt_free
def _find(src, toks, tree, st, root):
    """The first fold call in root's expressions in evaluation order (preorder), where it runs
    once whenever the statement runs; -1 if none (or nested past WALK_DEPTH)."""
    x, sp = tree.first[root], 0
    while x != -1:
        if _fold_kind(src, toks, tree, x) >= 0:
            return x
        k = tree.kind[x]
        leaf = k == N_BLOCK or k == N_IF or k == N_LAMBDA or k == N_IFEXP or k == N_BOOLOP or tree.first[x] == -1
        down = tree.first[tree.first[x]] if k == N_COMP else tree.first[x]  # a comprehension: its first iterable
        if not leaf and down != -1:
            if tree.next[x] != -1:
                if sp >= WALK_DEPTH:
                    return -1
                st[S_VALS + sp] = tree.next[x]
                sp += 1
            x = down
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
    """Statement s: each fold call it runs made before it (module docstring).  0, or -1."""
    r = _find(src, toks, tree, st, s)
    while r != -1:
        if not room(tree, toks, st):
            return no_room(toks, tree, r, err)
        copy = node(tree, st, tree.kind[s], tree.op[s], tree.tok[s], tree.val[s])
        tree.first[copy] = tree.first[s]
        k, xs = desugared_call(src, toks, tree, r)
        if k == REDUCE:
            first, last = _reduce(src, toks, tree, st, r, xs, err)
        else:
            first, last = _listing(src, toks, tree, st, r, k, xs, err)
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
def _apply(src, toks, tree, st, f, a, b, err):
    """f(a) (b -1) or f(a, b) of the names of tokens a, b: a lambda's body, its parameters
    renamed, or a call of the function f names.  The node, or -1 with err set."""
    if tree.kind[f] == N_LAMBDA:
        p = tree.first[f]
        q = tree.next[p] if p != -1 and b >= 0 else p
        body = tree.next[q] if q != -1 else -1
        ok = body != -1 and tree.next[body] == -1 and tree.kind[q] == N_NAME and rename(
            src, toks, tree, st, body, tree.tok[p], a)  # fmt: skip
        if ok and (b < 0 or rename(src, toks, tree, st, body, tree.tok[q], b)):
            return body
    elif tree.kind[f] == N_NAME:
        tree.kind[f] = N_CALL
        return kids(tree, f, name(tree, st, a), name(tree, st, b) if b >= 0 else -1, -1)
    return fail_tok(err, toks, tree.tok[f], tree.tok[f], E_UNSUPPORTED, errors.C_BUILTIN_FORM)


@nrt_free
def _listed(toks, tree, st, at, ys, xs):
    """`ys = list(xs)` (xs cut from its siblings)."""
    tree.next[xs] = -1
    return kids(tree, node(tree, st, N_ASSIGN, NO_TYPE, ys, 0), builtin_call(tree, toks, st, B_LIST, at, xs, -1), -1, -1)


@nrt_free
def _loop(tree, st, v, items, body, at):
    """`for v in items: body` (body a chain of statements)."""
    return kids(tree, node(tree, st, N_FOR_LIST, 0, v, 0), items, _block(tree, st, at, body), -1)


@nrt_free
def _block(tree, st, at, body):
    """A BLOCK of the chain of statements from body (kids() would cut the chain)."""
    block = node(tree, st, N_BLOCK, 0, at, 0)
    tree.first[block] = body
    return block


@nrt_free
def _reads(tree, r, t):
    """Call r made the name of token t (the fold's result)."""
    tree.kind[r] = N_NAME
    tree.tok[r] = t
    tree.op[r] = 0
    tree.first[r] = -1


@nrt_free
def _reduce(src, toks, tree, st, r, f, err):
    """reduce(f, xs[, init]) call r: (its first statement, its last), or (-1, -1) with err set."""
    xs = tree.next[f]
    init = tree.next[xs] if xs != -1 else -1
    at = tree.tok[r]
    if xs == -1 or init != -1 and tree.next[init] != -1:
        return fail_tok(err, toks, at, at, E_UNSUPPORTED, errors.C_BUILTIN_FORM), -1
    ys, acc, v = hidden(toks, st, at, 0), hidden(toks, st, at, 1), hidden(toks, st, at, 2)
    body = _apply(src, toks, tree, st, f, acc, v, err)
    if body < 0:
        return -1, -1
    first = _listed(toks, tree, st, at, ys, xs)
    last = first
    items = name(tree, st, ys)
    if init == -1:  # if not ys: raise TypeError; acc = ys[0]; over ys[1:]
        empty = kids(tree, node(tree, st, N_UNARY, UN_NOT, at, 0), name(tree, st, ys), -1, -1)
        error = kids(tree, node(tree, st, N_RAISE, TYPE_ERROR, at, 0), name(tree, st, at), -1, -1)  # `raise E`
        raise_ = kids(tree, node(tree, st, N_BLOCK, 0, at, 0), error, -1, -1)
        last = chain(tree, last, kids(tree, node(tree, st, N_IF, 0, at, 0), empty, raise_, -1))
        init = subscript(tree, st, at, name(tree, st, ys), int_lit(tree, st, at, 0))
        items = kids(tree, node(tree, st, N_SLICE, 1, at, 0), items, int_lit(tree, st, at, 1), -1)
    last = chain(tree, last, kids(tree, node(tree, st, N_ASSIGN, NO_TYPE, acc, 0), init, -1, -1))
    last = chain(tree, last, _loop(tree, st, v, items, kids(tree, node(tree, st, N_ASSIGN, NO_TYPE, acc, 0), body, -1,
                                                            -1), at))  # fmt: skip
    _reads(tree, r, acc)
    return first, last


@nrt_free
def _listing(src, toks, tree, st, r, k, xs, err):
    """accumulate(xs[, f][, initial=x]) or groupby(xs[, key]) call r: (its first statement,
    its last), or (-1, -1) with err set."""
    at = tree.tok[r]
    ys, out, v = hidden(toks, st, at, 0), hidden(toks, st, at, 1), hidden(toks, st, at, 2)
    acc, grp = hidden(toks, st, at, 3), hidden(toks, st, at, 4)
    f = tree.next[xs]
    init = -1
    if f != -1 and tree.kind[f] == N_KWARG and (keyword_named(src, toks, tree, f, W_INITIAL) and k == ACCUMULATE or
                                                 keyword_named(src, toks, tree, f, W_KEY) and k == GROUPBY):
        init, f = f, -1
    elif f != -1 and tree.next[f] != -1 and k == ACCUMULATE and keyword_named(src, toks, tree, tree.next[f], W_INITIAL):
        init = tree.next[f]
    if k == GROUPBY and init >= 0:  # key=f
        f, init = tree.first[init], -1
    if f != -1 and tree.kind[f] == N_KWARG or init >= 0 and tree.next[init] != -1 or (
            init < 0 and f != -1 and tree.next[f] != -1):  # fmt: skip
        return fail_tok(err, toks, at, at, E_UNSUPPORTED, errors.C_BUILTIN_FORM), -1
    if f != -1 and tree.kind[f] == N_NONE:  # func / key None: the default
        f = -1
    if f != -1:
        body = _apply(src, toks, tree, st, f, acc, v, err) if k == ACCUMULATE else _apply(
            src, toks, tree, st, f, v, -1, err)  # fmt: skip
        if body < 0:
            return -1, -1
    elif k == ACCUMULATE:
        body = kids(tree, node(tree, st, N_BINARY, BIN_ADD, at, 0), name(tree, st, acc), name(tree, st, v), -1)
    else:
        body = name(tree, st, v)
    first = _listed(toks, tree, st, at, ys, xs)
    if k == ACCUMULATE:  # out = ys[:1] or [x]; acc = out[-1]; out += [f(acc, v)]
        items = name(tree, st, ys)
        if init >= 0:
            start = kids(tree, node(tree, st, N_LIST, 0, at, 0), tree.first[init], -1, -1)
        else:
            start = kids(tree, node(tree, st, N_SLICE, 2, at, 0), name(tree, st, ys), int_lit(tree, st, at, 1), -1)
            items = kids(tree, node(tree, st, N_SLICE, 1, at, 0), items, int_lit(tree, st, at, 1), -1)
        last = chain(tree, first, kids(tree, node(tree, st, N_ASSIGN, NO_TYPE, out, 0), start, -1, -1))
        top = subscript(tree, st, at, name(tree, st, out), int_lit(tree, st, at, -1))
        step = kids(tree, node(tree, st, N_ASSIGN, NO_TYPE, acc, 0), top, -1, -1)
        grow = kids(tree, node(tree, st, N_AUGASSIGN, BIN_ADD, out, 0), kids(tree, node(tree, st, N_LIST, 0, at, 0),
                                                                             body, -1, -1), -1, -1)  # fmt: skip
        chain(tree, step, grow)
        last = chain(tree, last, _loop(tree, st, v, items, step, at))
        _reads(tree, r, out)
        return first, last
    # groupby: keys = [key(v) for v in ys]; out = [(k, ys[:0]) for k in keys[:0]]; grp = ys[:0]
    # for j in range(len(ys)): acc = keys[j]; v = ys[j]; if not out or not out[-1][0] == acc: ...
    keys, j = hidden(toks, st, at, 5), hidden(toks, st, at, 6)
    each = kids(tree, node(tree, st, N_COMP_FOR, 0, v, 0), name(tree, st, ys), -1, -1)
    last = chain(tree, first, kids(tree, node(tree, st, N_ASSIGN, NO_TYPE, keys, 0), kids(
        tree, node(tree, st, N_COMP, COMP_LIST, at, 0), each, body, -1), -1, -1))  # fmt: skip
    k0 = hidden(toks, st, at, 7)
    typed = kids(tree, node(tree, st, N_TUPLE, 0, at, 0), name(tree, st, k0), _none_of(tree, st, at, ys), -1)
    each = kids(tree, node(tree, st, N_COMP_FOR, 0, k0, 0), _none_of(tree, st, at, keys), -1, -1)
    last = chain(tree, last, kids(tree, node(tree, st, N_ASSIGN, NO_TYPE, out, 0), kids(
        tree, node(tree, st, N_COMP, COMP_LIST, at, 0), each, typed, -1), -1, -1))  # fmt: skip
    last = chain(tree, last, kids(tree, node(tree, st, N_ASSIGN, NO_TYPE, grp, 0), _none_of(tree, st, at, ys), -1, -1))
    key = kids(tree, node(tree, st, N_ASSIGN, NO_TYPE, acc, 0), subscript(tree, st, at, name(tree, st, keys), name(
        tree, st, j)), -1, -1)  # fmt: skip
    item = kids(tree, node(tree, st, N_ASSIGN, NO_TYPE, v, 0), subscript(tree, st, at, name(tree, st, ys), name(
        tree, st, j)), -1, -1)  # fmt: skip
    top = subscript(tree, st, at, subscript(tree, st, at, name(tree, st, out), int_lit(tree, st, at, -1)),
                    int_lit(tree, st, at, 0))  # fmt: skip
    same = kids(tree, node(tree, st, N_COMPARE, 0, at, 0), top, kids(tree, node(tree, st, N_CMP_LINK, CMP_EQ, at, 0),
                                                                     name(tree, st, acc), -1, -1), -1)  # fmt: skip
    new = kids(tree, node(tree, st, N_BOOLOP, BOOL_OR, at, 0), kids(tree, node(tree, st, N_UNARY, UN_NOT, at, 0),
                                                                    name(tree, st, out), -1, -1),
               kids(tree, node(tree, st, N_UNARY, UN_NOT, at, 0), same, -1, -1), -1)  # fmt: skip
    start = kids(tree, node(tree, st, N_ASSIGN, NO_TYPE, grp, 0), kids(tree, node(tree, st, N_LIST, 0, at, 0),
                                                                       name(tree, st, v), -1, -1), -1, -1)  # fmt: skip
    pair = kids(tree, node(tree, st, N_TUPLE, 0, at, 0), name(tree, st, acc), name(tree, st, grp), -1)
    chain(tree, start, kids(tree, node(tree, st, N_AUGASSIGN, BIN_ADD, out, 0), kids(
        tree, node(tree, st, N_LIST, 0, at, 0), pair, -1, -1), -1, -1))  # fmt: skip
    more = kids(tree, node(tree, st, N_AUGASSIGN, BIN_ADD, grp, 0), kids(tree, node(tree, st, N_LIST, 0, at, 0),
                                                                         name(tree, st, v), -1, -1), -1, -1)  # fmt: skip
    test = kids(tree, node(tree, st, N_IF, 0, at, 0), new, _block(tree, st, at, start), _block(tree, st, at, more))
    chain(tree, key, item)
    chain(tree, item, test)
    block = _block(tree, st, at, key)
    size = builtin_call(tree, toks, st, B_LEN, at, name(tree, st, ys), -1)
    last = chain(tree, last, kids(tree, node(tree, st, N_FOR_RANGE, 1, j, 0), size, block, -1))
    _reads(tree, r, out)
    return first, last


@nrt_free
def _none_of(tree, st, at, t):
    """`xs[:0]` of the name of token t: an empty list of its type."""
    return kids(tree, node(tree, st, N_SLICE, 2, at, 0), name(tree, st, t), int_lit(tree, st, at, 0), -1)
