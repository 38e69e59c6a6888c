"""Desugaring, calls with keywords (a part of compiler/desugar.py's pass; kernel bodies):

    f(x, n=3), f(n=3, x=1), f(x)     the unit's function's arguments in parameter order, a
                                     copy of a parameter's default literal where one is left out
    sum(xs, start=s), s.split(sep=t, maxsplit=m), round(x, ndigits=n)    positional
    sorted(xs, key=f, reverse=r)     [ys[p[1]] for ys in [xs] for p in sorted(pairs)] with
                                     pairs = [(f(v), k) for k in range(len(ys)) for v in [ys[k]]]:
                                     equal keys keep their order (k breaks ties, v is never
                                     compared).  reverse=True: pairs (f(v), -k), reversed(sorted(
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
from gpucc.compiler.errors import E_CALL_ARITY, E_KEYWORD, E_UNSUPPORTED
from gpucc.compiler.nodes import (
    BIN_SUB,
    COMP_LIST,
    N_ASSIGN,
    N_BINARY,
    N_BLOCK,
    N_BOOL,
    N_CALL,
    N_COMP,
    N_FLOAT,
    N_FOR_RANGE,
    N_FUNCDEF,
    N_IFEXP,
    N_INT,
    N_KWARG,
    N_LAMBDA,
    N_LIST,
    N_METHOD,
    N_NAME,
    N_NONE,
    N_PARAM,
    N_PASS,
    N_SETITEM,
    N_STR,
    N_SUBSCRIPT,
    N_TUPLE,
    N_UNARY,
    NO_TYPE,
    UN_NEG,
)  # fmt: skip
from gpucc.compiler.parser_util import fail_tok
from gpucc.compiler.scope import (
    B_ABS,
    B_LEN,
    B_MAX,
    B_MIN,
    B_REVERSED,
    B_ROUND,
    B_SORTED,
    B_SUM,
    BUILTINS,
    M_RSPLIT,
    M_SORT,
    M_SPLIT,
    call_builtin,
    method_code,
    same_name,
)  # fmt: skip
from gpucc.compiler.typecheck_calls import count_from
from gpucc.contract.jitable import nrt_free

B_MAP, B_FILTER, B_ENUMERATE, B_ZIP, B_RANGE, B_DIVMOD = (BUILTINS.index(b) for b in (
    "map", "filter", "enumerate", "zip", "range", "divmod"))  # fmt: skip
# the keywords read here, by spelling
W_START, W_NDIGITS, W_SEP, W_MAXSPLIT, W_KEY, W_REVERSE, W_DEFAULT = (np.frombuffer(w, dtype=np.uint8) for w in (
    b"start", b"ndigits", b"sep", b"maxsplit", b"key", b"reverse", b"default"))  # fmt: skip
W_NONE = np.zeros(0, dtype=np.uint8)
# hidden names of one sorted / min / max (desugar_nodes.hidden's variants at the call's token)
H_YS, H_K, H_V, H_P, H_R, H_PS, H_J, H_D = range(8)


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
def _has_kwargs(tree, n):
    c = tree.first[n]
    while c != -1:
        if tree.kind[c] == N_KWARG:
            return True
        c = tree.next[c]
    return False


@nrt_free
def _keyword_named(src, toks, tree, c, word):
    """Whether KWARG c is named `word` (a bytes array)."""
    s, e = toks.start[tree.tok[c]], toks.end[tree.tok[c]]
    if e - s != word.shape[0]:
        return False
    for i in range(e - s):
        if src[s + i] != word[i]:
            return False
    return True


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
            ok = (j == skip and _keyword_named(src, toks, tree, c, w1)) or (
                j == skip + 1 and w2.shape[0] > 0 and _keyword_named(src, toks, tree, c, w2))  # fmt: skip
            if not ok:
                return fail_tok(err, toks, tree.tok[c], tree.tok[c], E_UNSUPPORTED, errors.C_KWARGS)
            v = tree.first[c]
            tree.next[v] = nxt
            if prev < 0:
                tree.first[n] = v
            else:
                tree.next[prev] = v
            c = v
        prev = c
        j += 1
        c = nxt
    return 0


@nrt_free
def keyword_call(src, toks, tree, st, n, b, err):
    """CALL n of builtin b (-1: a function of the unit, or none) with keywords (module
    docstring).  0, or -1."""
    d = find_def(src, toks, tree, n)
    if d >= 0:
        return _unit_call(src, toks, tree, st, n, d, err)
    if not _has_kwargs(tree, n):
        return 0
    if b == B_SUM:
        return positional(src, toks, tree, n, 1, W_START, W_NONE, err)
    if b == B_ROUND:
        return positional(src, toks, tree, n, 1, W_NDIGITS, W_NONE, err)
    if b == B_SORTED or b == B_MIN or b == B_MAX:
        return _keyed(src, toks, tree, st, n, n, tree.first[n], b, err)
    return fail_tok(err, toks, tree.tok[n], tree.tok[n], E_UNSUPPORTED, errors.C_KWARGS)


@nrt_free
def method_keywords(src, toks, tree, n, err):
    """METHOD n: split / rsplit's sep= and maxsplit= become positional.  0, or -1."""
    m = method_code(src, toks.start[tree.tok[n]], toks.end[tree.tok[n]])
    if (m == M_SPLIT or m == M_RSPLIT) and _has_kwargs(tree, n):
        return positional(src, toks, tree, n, 1, W_SEP, W_MAXSPLIT, err)
    return 0


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
def _keyed(src, toks, tree, st, dst, n, xs, b, err):
    """sorted / min / max (b) of xs with key= / reverse= / default=, at CALL n: node dst
    becomes the comprehension (module docstring).  0, or -1."""
    if not room(tree, toks, st):
        return no_room(toks, tree, n, err)
    key = _kwarg_of(src, toks, tree, n, W_KEY)
    rev = _kwarg_of(src, toks, tree, n, W_REVERSE)
    default = _kwarg_of(src, toks, tree, n, W_DEFAULT)
    given = count_from(tree.next, tree.first[n])
    expected = 1 + (key >= 0) + (rev >= 0) + (default >= 0)
    misplaced = (b == B_SORTED and default >= 0) or (b != B_SORTED and rev >= 0)
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
    backwards = b == B_MAX or (r >= 0 and static and tree.val[r] != 0)
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
        index = subscript(tree, st, origin, picked, int_lit(tree, st, origin, 1))
    elif static:
        ordered = builtin_call(tree, toks, st, B_SORTED, origin, pairs, -1)
        if backwards:
            ordered = builtin_call(tree, toks, st, B_REVERSED, origin, ordered, -1)
        last = chain(tree, last, clause(tree, st, p, ordered))
        index = subscript(tree, st, origin, name(tree, st, p), int_lit(tree, st, origin, 1))
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
                                                                      int_lit(tree, st, origin, 1)), -1)  # fmt: skip
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
        if tree.kind[c] == N_KWARG and _keyword_named(src, toks, tree, c, word):
            return c
        c = tree.next[c]
    return -1


@nrt_free
def sort_statement(src, toks, tree, st, s, err):
    """EXPR_STMT s of `xs.sort(key=..., reverse=...)`: a block (module docstring).  0, or -1."""
    m = tree.first[s]
    if tree.kind[m] != N_METHOD or not _has_kwargs(tree, m):
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
    if _keyed(src, toks, tree, st, comp, m, tree.first[m], B_SORTED, err) < 0:
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
    if not _has_kwargs(tree, n) and given >= params:
        return 0
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
        if last < 0:
            tree.first[n] = tree.val[p]
        else:
            tree.next[last] = tree.val[p]
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
        if last < 0:
            tree.first[c] = y
        else:
            tree.next[last] = y
        last = y
        x = tree.next[x]
    return c
