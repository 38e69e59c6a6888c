"""Desugaring, the keyword forms of sorted, min, max and list.sort (a part of compiler/desugar.py's
pass, called by desugar_calls.keyword_call; kernel bodies):

    sorted(xs, key=f, reverse=r)     [ys[p[1]] for ys in [xs] for p in sorted(pairs)] with
                                     pairs = [(f(v), k) for k in range(len(ys)) for v in [ys[k]]]:
                                     equal keys keep their order (k breaks ties, v is never
                                     compared); a key written as a tuple (a, b) gives the
                                     pairs (a, b, k), ys[p[2]] (a smaller type).  reverse=True: pairs (f(v), -k), reversed(sorted(
                                     pairs)), ys[-p[1]] -- CPython's reverse keeps equal keys in
                                     their order too.  A reverse decided at run time picks each
                                     of those per element (r bound once, after xs, as CPython).
    min(xs, key=f, default=d)        [ys[m[1]] if ys else d for ys in [xs] for d in [d]][0] with
                                     m = min(pairs): the first of the least keys; max: pairs
                                     (f(v), -k), the first of the greatest
    xs.sort(key=f, reverse=r)        (a statement, xs a name) s = sorted(xs, ...); xs[j] = s[j]
                                     for each j: the list itself changes, as CPython's
"""

from __future__ import annotations

import numpy as np

from gpucc.compiler import errors
from gpucc.compiler.desugar_nodes import (
    bind_clause,
    builtin_call,
    chain,
    clause,
    has_kwargs,
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
from gpucc.compiler.nodes import (
    BIN_SUB,
    COMP_LIST,
    N_ASSIGN,
    N_BINARY,
    N_BLOCK,
    N_BOOL,
    N_CALL,
    N_COMP,
    N_FOR_RANGE,
    N_IFEXP,
    N_KWARG,
    N_LAMBDA,
    N_METHOD,
    N_NAME,
    N_PASS,
    N_SETITEM,
    N_SUBSCRIPT,
    N_TUPLE,
    N_UNARY,
    NO_TYPE,
    UN_NEG,
)  # fmt: skip
from gpucc.compiler.parser_util import fail_tok
from gpucc.compiler.scope import B_ABS, B_LEN, B_MAX, B_REVERSED, B_SORTED, BUILTINS, M_SORT, method_code
from gpucc.compiler.typecheck_calls import count_from
from gpucc.contract.jitable import nrt_free

B_RANGE = BUILTINS.index("range")
W_KEY, W_REVERSE, W_DEFAULT = (np.frombuffer(w, dtype=np.uint8) for w in (b"key", b"reverse", b"default"))
# hidden names of one sorted / min / max (desugar_nodes.hidden's variants at the call's token)
H_YS, H_K, H_V, H_P, H_R, H_PS, H_J, H_D = range(8)


@nrt_free
def _key_parts(src, toks, tree, st, f, origin):
    """(v, key): the hidden name each element is bound to and the key expression of it (f a
    one-parameter lambda: its body, the parameter renamed v; a name: f(v); -1: v itself);
    v -1 where the lambda's body binds its parameter's name again."""
    v = hidden(toks, st, origin, H_V)
    if f >= 0 and tree.kind[f] == N_LAMBDA:
        p = tree.first[f]
        return (v if rename(src, toks, tree, st, tree.next[p], tree.tok[p], v) else -1), tree.next[p]
    if f < 0:
        return v, name(tree, st, v)
    tree.kind[f] = N_CALL
    return v, kids(tree, f, name(tree, st, v), -1, -1)


@nrt_free
def keyed(src, toks, tree, st, dst, n, xs, b, err):
    """sorted / min / max (b) of xs with key= / reverse= / default=, at CALL n: node dst
    becomes the comprehension (module docstring); b B_REVERSED: sorted with reverse=True
    (heapq.nlargest's, compiler/desugar_heapq.py).  0, or -1."""
    descending = b == B_REVERSED
    b = B_SORTED if descending else b
    if not room(tree, toks, st):
        return no_room(toks, tree, n, err)
    key = _kwarg_of(src, toks, tree, n, W_KEY)
    rev = _kwarg_of(src, toks, tree, n, W_REVERSE)
    default = _kwarg_of(src, toks, tree, n, W_DEFAULT)
    given = count_from(tree.next, tree.first[n])
    expected = 1 + (key >= 0) + (rev >= 0) + (default >= 0)
    misplaced = (b == B_SORTED and default >= 0) or ((b != B_SORTED or descending) and rev >= 0)
    if given != expected or tree.kind[xs] == N_KWARG or misplaced:
        return fail_tok(err, toks, tree.tok[n], tree.tok[n], E_UNSUPPORTED, errors.C_KWARGS)
    f = tree.first[key] if key >= 0 else -1
    one_parameter = tree.kind[f] == N_LAMBDA and count_from(tree.next, tree.first[f]) == 2 if f >= 0 else False
    if f >= 0 and not (tree.kind[f] == N_NAME or one_parameter):
        return fail_tok(err, toks, tree.tok[key], tree.tok[key], E_UNSUPPORTED, errors.C_BUILTIN_FORM)
    origin = tree.tok[n]
    ys, k = hidden(toks, st, origin, H_YS), hidden(toks, st, origin, H_K)
    r = tree.first[rev] if rev >= 0 else -1
    static = r < 0 or tree.kind[r] == N_BOOL
    backwards = b == B_MAX or descending or (r >= 0 and static and tree.val[r] != 0)
    v, kexpr = _key_parts(src, toks, tree, st, f, origin)
    if v < 0:
        return fail_tok(err, toks, tree.tok[key], tree.tok[key], E_UNSUPPORTED, errors.C_BUILTIN_FORM)
    # the pairs: [(key, k or -k) for k in range(len(ys)) for v in [ys[k]]]
    count = name(tree, st, k)
    if backwards:
        count = kids(tree, node(tree, st, N_UNARY, UN_NEG, origin, 0), count, -1, -1)
    elif not static:  # -k if r else k
        count = kids(tree, node(tree, st, N_IFEXP, 0, origin, 0), kids(tree, node(tree, st, N_UNARY, UN_NEG, origin, 0),
                     name(tree, st, k), -1, -1), name(tree, st, hidden(toks, st, origin, H_R)), count)  # fmt: skip
    pairs = node(tree, st, N_COMP, COMP_LIST, origin, 0)
    loop = clause(tree, st, k, builtin_call(tree, toks, st, B_RANGE, origin, builtin_call(
        tree, toks, st, B_LEN, origin, name(tree, st, ys), -1), -1))  # fmt: skip
    chain(tree, loop, bind_clause(tree, st, v, subscript(tree, st, origin, name(tree, st, ys), name(tree, st, k))))
    kf = 1  # the field holding k: a key that is a tuple display takes k as its last field (one tuple, not nested)
    if tree.kind[kexpr] == N_TUPLE and tree.val[kexpr] == 0 and tree.first[kexpr] != -1:
        element = kexpr
        last = tree.first[kexpr]
        kf = 1
        while tree.next[last] != -1:
            last = tree.next[last]
            kf += 1
        tree.next[last] = count
        tree.next[count] = -1
    else:
        element = kids(tree, node(tree, st, N_TUPLE, 0, origin, 0), kexpr, count, -1)
    kids(tree, pairs, loop, tree.next[loop], element)
    tree.next[xs] = -1
    first_clause = bind_clause(tree, st, ys, xs)
    last = first_clause
    if not static:
        last = chain(tree, last, bind_clause(tree, st, hidden(toks, st, origin, H_R), r))
    p = hidden(toks, st, origin, H_P)
    if b != B_SORTED:
        picked = builtin_call(tree, toks, st, b, origin, pairs, -1)
        index = subscript(tree, st, origin, picked, int_lit(tree, st, origin, kf))
    elif static:
        ordered = builtin_call(tree, toks, st, B_SORTED, origin, pairs, -1)
        if backwards:
            ordered = builtin_call(tree, toks, st, B_REVERSED, origin, ordered, -1)
        last = chain(tree, last, clause(tree, st, p, ordered))
        index = subscript(tree, st, origin, name(tree, st, p), int_lit(tree, st, origin, kf))
    else:  # for ps in [sorted(pairs)] for j in range(len(ps)) for p in [ps[-1 - j if r else j]]
        ps, j = hidden(toks, st, origin, H_PS), hidden(toks, st, origin, H_J)
        last = chain(tree, last, bind_clause(tree, st, ps, builtin_call(tree, toks, st, B_SORTED, origin, pairs, -1)))
        last = chain(tree, last, clause(tree, st, j, builtin_call(tree, toks, st, B_RANGE, origin, builtin_call(
            tree, toks, st, B_LEN, origin, name(tree, st, ps), -1), -1)))  # fmt: skip
        back = kids(tree, node(tree, st, N_BINARY, BIN_SUB, origin, 0), int_lit(tree, st, origin, -1), name(tree, st, j),
                    -1)  # fmt: skip
        at = kids(tree, node(tree, st, N_IFEXP, 0, origin, 0), back, name(tree, st, hidden(toks, st, origin, H_R)),
                  name(tree, st, j))  # fmt: skip
        last = chain(tree, last, bind_clause(tree, st, p, subscript(tree, st, origin, name(tree, st, ps), at)))
        index = builtin_call(tree, toks, st, B_ABS, origin, subscript(tree, st, origin, name(tree, st, p),
                                                                      int_lit(tree, st, origin, kf)), -1)  # fmt: skip
    if backwards and static:
        index = kids(tree, node(tree, st, N_UNARY, UN_NEG, origin, 0), index, -1, -1)
    value = subscript(tree, st, origin, name(tree, st, ys), index)
    if default >= 0:  # value if ys else d, d bound after xs (CPython evaluates it first)
        d = hidden(toks, st, origin, H_D)
        last = chain(tree, last, bind_clause(tree, st, d, tree.first[default]))
        value = kids(tree, node(tree, st, N_IFEXP, 0, origin, 0), value, name(tree, st, ys), name(tree, st, d))
    tree.next[last] = value
    if b == B_SORTED:
        tree.kind[dst] = N_COMP
        tree.op[dst] = COMP_LIST
        tree.first[dst] = first_clause
        return 0
    one = node(tree, st, N_COMP, COMP_LIST, origin, 0)  # [value for ys in [xs] ...][0]
    tree.first[one] = first_clause
    tree.kind[dst] = N_SUBSCRIPT
    kids(tree, dst, one, int_lit(tree, st, origin, 0), -1)
    return 0


@nrt_free
def _kwarg_of(src, toks, tree, n, word):
    c = tree.first[n]
    while c != -1:
        if tree.kind[c] == N_KWARG and keyword_named(src, toks, tree, c, word):
            return c
        c = tree.next[c]
    return -1


@nrt_free
def sort_statement(src, toks, tree, st, s, err):
    """EXPR_STMT s of `xs.sort(key=..., reverse=...)`: a block (module docstring).  0, or -1."""
    m = tree.first[s]
    if tree.kind[m] != N_METHOD or not has_kwargs(tree, m):
        return 0
    if method_code(src, toks.start[tree.tok[m]], toks.end[tree.tok[m]]) != M_SORT:
        return 0
    obj = tree.first[m]
    if tree.kind[obj] != N_NAME:
        return fail_tok(err, toks, tree.tok[m], tree.tok[m], E_UNSUPPORTED, errors.C_BUILTIN_FORM)
    kw = tree.next[obj]
    origin = tree.tok[kw]
    sv, jv = hidden(toks, st, origin, 0), hidden(toks, st, origin, 1)
    comp = node(tree, st, N_COMP, COMP_LIST, tree.tok[m], 0)
    tree.first[m] = name(tree, st, tree.tok[obj])  # sorted(xs, ...) of a copy of the name
    tree.next[tree.first[m]] = kw
    if keyed(src, toks, tree, st, comp, m, tree.first[m], B_SORTED, err) < 0:
        return -1
    tree.kind[m] = N_PASS  # consumed
    keep = kids(tree, node(tree, st, N_ASSIGN, NO_TYPE, sv, 0), comp, -1, -1)
    store = kids(tree, node(tree, st, N_SETITEM, -1, origin, 0), subscript(tree, st, origin, obj, name(tree, st, jv)),
                 subscript(tree, st, origin, name(tree, st, sv), name(tree, st, jv)), -1)  # fmt: skip
    body = kids(tree, node(tree, st, N_BLOCK, 0, origin, 0), store, -1, -1)
    size = builtin_call(tree, toks, st, B_LEN, origin, name(tree, st, sv), -1)
    loop = kids(tree, node(tree, st, N_FOR_RANGE, 1, jv, 0), size, body, -1)
    tree.kind[s] = N_BLOCK
    kids(tree, s, keep, loop, -1)
    return 0
