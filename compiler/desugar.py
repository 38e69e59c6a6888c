"""Desugaring (the end of phase 2): the builtins that take functions or make iterators, written
as the comprehensions and loops the later phases already compile.  A kernel body run once per
unit after the parser (its scratch and its node / token arrays), in node order.

    map / filter / range / divmod / set / dict / tuple as values: compiler/desugar_builtins.py
    for i, x in enumerate(xs, s)  for ys in [xs] for k in range(len(ys)) for i in [k + s] for x in [ys[k]]
    for a, b in zip(xs, ys)       for y0 in [xs] for y1 in [ys] for k in range(min(len(y0), len(y1)))
                                  for a in [y0[k]] for b in [y1[k]]
    enumerate(...), zip(...)      as values: ((i, x) for i, x in ...)
    for x in map / filter(...)    (a clause) its loop spliced in: for v in xs [if c] for x in [f(v)];
                                  (a statement) for v in xs: [if not c: continue]; x = f(v); body

A `for` statement over enumerate / zip becomes a block: the iterables evaluated once into hidden
locals, `k = -1`, `while k + 1 < len(ys): k += 1; i = k + s; x = ys[k]; body` -- the list is
read as it is at each step, as CPython's iterator reads it.  The keyword forms of sorted, min,
max and list.sort and the calls of the unit's functions with keywords or defaults are
compiler/desugar_calls.py's.  Hidden names and synthetic builtin calls: desugar_nodes.py.
"""

from __future__ import annotations

from gpucc.compiler import errors
from gpucc.compiler.desugar_builtins import LEFT, constructor, divmod_value, is_constructor, map_filter, range_value
from gpucc.compiler.desugar_calls import (
    B_DIVMOD,
    B_ENUMERATE,
    B_FILTER,
    B_MAP,
    B_RANGE,
    B_ZIP,
    desugared,
    find_def,
    is_literal,
    keyword_call,
    method_keywords,
)
from gpucc.compiler.desugar_closures import closures
from gpucc.compiler.desugar_defaultdict import collections_call, is_collections_call
from gpucc.compiler.desugar_keyed import sort_statement
from gpucc.compiler.desugar_itertools import is_itertool, itertool
from gpucc.compiler.desugar_folds import desugared_call, fold_reduces, folds
from gpucc.compiler.desugar_nodes import (
    become,
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
    room,
    subscript,
)  # fmt: skip
from gpucc.compiler.errors import E_RESERVED_NAME, E_UNSUPPORTED
from gpucc.compiler.nodes import (
    BIN_ADD,
    BOOL_AND,
    COMP_GEN,
    N_ASSIGN,
    N_AUGASSIGN,
    N_BINARY,
    N_BLOCK,
    N_BOOLOP,
    N_CALL,
    N_CMP_LINK,
    N_COMP,
    N_COMP_FOR,
    N_COMP_IF,
    N_COMPARE,
    N_CONTINUE,
    N_EXPR_STMT,
    N_FOR_LIST,
    N_FUNCDEF,
    N_IF,
    N_KWARG,
    N_LIST,
    N_METHOD,
    N_PARAM,
    N_PASS,
    N_TUPLE,
    N_UNARY,
    N_UNPACK,
    N_WHILE,
    NO_TYPE,
    UN_NOT,
)  # fmt: skip
from gpucc.compiler.parser_util import S_COUNT, S_NTOK, fail_tok, link_child
from gpucc.compiler.scope import B_LEN, B_MIN, B_REVERSED, call_builtin, loop_else
from gpucc.compiler.typecheck_calls import count_from
from gpucc.contract.isa import CMP_LT
from gpucc.contract.jitable import nrt_free

KEEP = -7  # tree.val of a range() call a for clause iterates (comp_scope makes it a range clause)


@nrt_free
def desugar(src, toks, n_tok, tree, st, err):
    """Rewrite the unit's tree (module docstring).  Returns the node count, or -1 with err set."""
    kind, first = tree.kind, tree.first
    st[S_NTOK] = n_tok
    n_nodes = st[S_COUNT]
    for n in range(n_nodes):  # range() iterated by a clause stays a call (comp_scope's range clause)
        if kind[n] == N_COMP_FOR:
            it = first[n]
            if kind[it] == N_CALL and call_builtin(src, toks, tree, it) == B_REVERSED and first[it] != -1:
                it = first[it]
            if kind[it] == N_CALL and call_builtin(src, toks, tree, it) == B_RANGE:
                tree.val[it] = KEEP
    for n in range(n_nodes):
        k = kind[n]
        r = 0
        if (k == N_CALL or k == N_METHOD) and is_itertool(desugared_call(src, toks, tree, n)[0]):
            r = itertool(src, toks, tree, st, n, err)  # compiler/desugar_itertools.py
        elif (k == N_CALL or k == N_METHOD) and is_collections_call(src, toks, tree, n):
            r = collections_call(src, toks, tree, n, err)  # compiler/desugar_defaultdict.py
        elif k == N_CALL:
            r = _call(src, toks, tree, st, n, err)
        elif k == N_FOR_LIST and _iterator(src, toks, tree, first[n]) >= 0:
            r = _for_statement(src, toks, tree, st, n, err)
        elif k == N_COMP_FOR and tree.val[n] > 0:
            r = _unpacking_clause(src, toks, tree, st, n, err)
        elif k == N_EXPR_STMT:
            r = sort_statement(src, toks, tree, st, n, err)
        elif k == N_METHOD:
            r = method_keywords(src, toks, tree, st, n, err)
        elif k == N_PARAM and tree.first[n] >= 0 and not is_literal(tree, tree.first[n]):
            r = fail_tok(err, toks, tree.tok[n], tree.tok[n], E_UNSUPPORTED, errors.C_DEFAULTS)
        elif k == N_FUNCDEF and desugared(call_builtin(src, toks, tree, n)):
            r = fail_tok(err, toks, tree.tok[n], tree.tok[n], E_RESERVED_NAME, 0)
        if r >= 0 and folds(k):  # reduce, accumulate, groupby: compiler/desugar_folds.py
            r = fold_reduces(src, toks, tree, st, n, err)
        if r < 0:
            return -1
    for n in range(st[S_COUNT]):  # what iterates map / filter: their loops spliced in
        if kind[n] == N_CALL and tree.val[n] == KEEP:
            tree.val[n] = 0
        while kind[n] == N_COMP_FOR and _generator(tree, first[n]):
            if not room(tree, toks, st):
                return no_room(toks, tree, n, err)
            _splice_clause(tree, st, n)
        if kind[n] == N_FOR_LIST and _generator(tree, first[n]) and _generator_loop(toks, tree, st, n, err) < 0:
            return -1
    if closures(src, toks, tree, st, err) < 0:
        return -1
    return st[S_COUNT]


@nrt_free
def _generator(tree, n):
    return tree.kind[n] == N_COMP and tree.op[n] == COMP_GEN


@nrt_free
def _splice_clause(tree, st, c):
    """Clause c iterates generator g: g's clauses take c's place, then `for <c's name> in
    [g's element]` (the generator's loop runs inside the comprehension's, as lazily)."""
    g = tree.first[c]
    g1 = tree.first[g]
    x = g1  # g's last clause (its element follows)
    while tree.next[tree.next[x]] != -1:
        x = tree.next[x]
    bind = bind_clause(tree, st, tree.tok[c], tree.next[x])
    tree.next[bind] = tree.next[c]
    tree.kind[c] = tree.kind[g1]
    tree.op[c] = tree.op[g1]
    tree.tok[c] = tree.tok[g1]
    tree.val[c] = tree.val[g1]
    tree.first[c] = tree.first[g1]
    if x == g1:
        tree.next[c] = bind
    else:
        tree.next[c] = tree.next[g1]
        tree.next[x] = bind
    tree.kind[g1] = N_PASS  # consumed
    tree.kind[g] = N_PASS


@nrt_free
def _generator_loop(toks, tree, st, n, err):
    """`for target in map / filter(...)`: a loop over the generator's iterable whose body
    starts with `if not cond: continue` per condition and `target = element`.  0, or -1."""
    if not room(tree, toks, st):
        return no_room(toks, tree, n, err)
    g = tree.first[n]
    g1 = tree.first[g]
    if tree.kind[g1] != N_COMP_FOR:
        return fail_tok(err, toks, tree.tok[n], tree.tok[n], E_UNSUPPORTED, errors.C_BUILTIN_FORM)
    body = tree.next[g]
    target = tree.next[body] if tree.op[n] == 1 else -1
    els = loop_else(tree, n)
    rest = tree.first[body]
    last = -1
    x = tree.next[g1]
    while tree.next[x] != -1:  # its conditions, up to the element
        if tree.kind[x] != N_COMP_IF:
            return fail_tok(err, toks, tree.tok[n], tree.tok[n], E_UNSUPPORTED, errors.C_BUILTIN_FORM)
        nxt = tree.next[x]
        skip = kids(tree, node(tree, st, N_BLOCK, 0, tree.tok[n], 0), node(tree, st, N_CONTINUE, 0, tree.tok[n], 0),
                    -1, -1)  # fmt: skip
        test = kids(tree, node(tree, st, N_IF, 0, tree.tok[n], 0), kids(tree, node(
            tree, st, N_UNARY, UN_NOT, tree.tok[n], 0), tree.first[x], -1, -1), skip, -1)  # fmt: skip
        link_child(tree, body, last, test)
        last = test
        x = nxt
    if target < 0:
        s = kids(tree, node(tree, st, N_ASSIGN, NO_TYPE, tree.tok[n], 0), x, -1, -1)
    else:
        s = kids(tree, node(tree, st, N_UNPACK, 0, tree.tok[target], 0), target, x, -1)
    link_child(tree, body, last, s)
    tree.next[s] = rest
    it = tree.first[g1]
    kids(tree, n, it, body, -1)
    tree.next[body] = els
    tree.op[n] = 0
    tree.tok[n] = tree.tok[g1]
    tree.kind[g] = N_PASS  # consumed
    return 0


@nrt_free
def _iterator(src, toks, tree, n):
    """B_ENUMERATE or B_ZIP for a call of enumerate or zip, else -1."""
    if tree.kind[n] != N_CALL:
        return -1
    b = call_builtin(src, toks, tree, n)
    return b if b == B_ENUMERATE or b == B_ZIP else -1


@nrt_free
def _call(src, toks, tree, st, n, err):
    """CALL n: map / filter, enumerate / zip or range as values, keyword forms.  0, or -1."""
    b = -1 if find_def(src, toks, tree, n) >= 0 else call_builtin(src, toks, tree, n)
    nargs = count_from(tree.next, tree.first[n])
    made = is_constructor(b, nargs) and (nargs == 0 or tree.kind[tree.first[n]] != N_KWARG)
    rewrite = b == B_MAP or b == B_FILTER or b == B_ENUMERATE or b == B_ZIP or b == B_DIVMOD or made or (
        b == B_RANGE and tree.val[n] != KEEP)
    if rewrite and not room(tree, toks, st):
        return no_room(toks, tree, n, err)
    if (b == B_MAP or b == B_FILTER) and nargs == 2:
        return map_filter(src, toks, tree, st, n, b, err)
    if b == B_MAP or b == B_FILTER:
        return fail_tok(err, toks, tree.tok[n], tree.tok[n], E_UNSUPPORTED, errors.C_BUILTIN_FORM)
    if b == B_ENUMERATE or b == B_ZIP:  # a value: ((a, b) for a, b in zip(...))
        c = node(tree, st, N_CALL, 0, tree.tok[n], 0)
        tree.first[c] = tree.first[n]
        t0, t1 = hidden(toks, st, tree.tok[n], 6), hidden(toks, st, tree.tok[n], 7)
        target = kids(tree, node(tree, st, N_TUPLE, 0, tree.tok[n], 0), name(tree, st, t0), name(tree, st, t1), -1)
        f = clause(tree, st, t0, c)
        tree.val[f] = target
        element = kids(tree, node(tree, st, N_TUPLE, 0, tree.tok[n], 0), name(tree, st, t0), name(tree, st, t1), -1)
        become(tree, n, N_COMP, COMP_GEN, f, element)
        return _unpacking_clause(src, toks, tree, st, f, err)
    if b == B_DIVMOD and nargs == 2:
        return divmod_value(toks, tree, st, n)
    if b == B_RANGE and tree.val[n] != KEEP:
        return range_value(toks, tree, st, n)
    r = constructor(src, toks, tree, st, n, b, KEEP) if made else LEFT  # set(e), dict(e), tuple(e)
    if r > 0:
        return _unpacking_clause(src, toks, tree, st, r, err)
    if r == 0:
        return 0
    return keyword_call(src, toks, tree, st, n, b, err)


@nrt_free
def _unpacking_clause(src, toks, tree, st, c, err):
    """A clause with a tuple target (val[c]): clauses binding each name (module docstring).  0, or -1."""
    if not room(tree, toks, st):
        return no_room(toks, tree, c, err)
    target, it, after = tree.val[c], tree.first[c], tree.next[c]
    b = _iterator(src, toks, tree, it)
    if b < 0:  # over a value: the clause unpacks its target itself (typecheck_comp, codegen_comp)
        return 0
    tree.val[c] = 0
    names = count_from(tree.next, tree.first[target])
    nargs = count_from(tree.next, tree.first[it]) if b >= 0 else 0
    if b == B_ENUMERATE and (names != 2 or nargs < 1 or nargs > 2) or b == B_ZIP and (nargs != names or nargs > 3):
        return fail_tok(err, toks, tree.tok[it], tree.tok[it], E_UNSUPPORTED, errors.C_BUILTIN_FORM)
    last = c
    at = tree.tok[it]
    k = hidden(toks, st, at, 4)
    a = tree.first[it]
    ys0, ys1, ys2 = hidden(toks, st, at, 0), hidden(toks, st, at, 1), hidden(toks, st, at, 2)
    start = tree.next[a] if b == B_ENUMERATE else -1
    y = tree.next[a] if b == B_ZIP else -1
    z = tree.next[y] if y >= 0 else -1
    tree.kind[it] = N_PASS  # consumed
    tree.tok[c] = ys0
    kids(tree, c, kids(tree, node(tree, st, N_LIST, 0, at, 0), a, -1, -1), -1, -1)  # for ys0 in [xs]
    if y >= 0:
        last = chain(tree, last, bind_clause(tree, st, ys1, y))
    if z >= 0:
        last = chain(tree, last, bind_clause(tree, st, ys2, z))
    stop = _stop(toks, tree, st, at, ys0, ys1 if b == B_ZIP else -1, ys2 if b == B_ZIP and nargs == 3 else -1)
    last = chain(tree, last, clause(tree, st, k, builtin_call(tree, toks, st, B_RANGE, at, stop, -1)))
    x = tree.first[target]
    j = 0
    while x != -1:
        nxt = tree.next[x]
        if b == B_ENUMERATE and j == 0:
            value = _index(tree, st, k, start, at)
        else:
            ys = ys0 if j == 0 or b == B_ENUMERATE else (ys1 if j == 1 else ys2)
            value = subscript(tree, st, at, name(tree, st, ys), name(tree, st, k))
        bound = bind_clause(tree, st, tree.tok[x], value)
        if tree.kind[x] == N_TUPLE:  # for i, (a, b) in enumerate(ps): for (a, b) in [ps[k]]
            tree.val[bound] = x
        last = chain(tree, last, bound)
        j += 1
        x = nxt
    tree.next[last] = after
    return 0


@nrt_free
def _index(tree, st, k, start, at):
    """enumerate's count: k, or k + start (located at token at)."""
    if start < 0:
        return name(tree, st, k)
    tree.next[start] = -1
    return kids(tree, node(tree, st, N_BINARY, BIN_ADD, at, 0), name(tree, st, k), start, -1)


@nrt_free
def _stop(toks, tree, st, at, y0, y1, y2):
    """len(y0), or min(len(y0), len(y1)[, len(y2)]): where zip stops."""
    stop = builtin_call(tree, toks, st, B_LEN, at, name(tree, st, y0), -1)  # B_LEN
    if y1 < 0:
        return stop
    size1 = builtin_call(tree, toks, st, B_LEN, at, name(tree, st, y1), -1)
    call = builtin_call(tree, toks, st, B_MIN, at, stop, size1)
    if y2 >= 0:
        tree.next[tree.next[stop]] = builtin_call(tree, toks, st, B_LEN, at, name(tree, st, y2), -1)
    return call


@nrt_free
def _for_statement(src, toks, tree, st, n, err):
    """`for target in enumerate(...) / zip(...)`: a block of the hidden locals and a while loop
    (module docstring).  0, or -1."""
    if not room(tree, toks, st):
        return no_room(toks, tree, n, err)
    it = tree.first[n]
    body = tree.next[it]
    target = tree.next[body] if tree.op[n] == 1 else -1
    els = loop_else(tree, n)
    b = _iterator(src, toks, tree, it)
    nargs = count_from(tree.next, tree.first[it])
    names = count_from(tree.next, tree.first[target]) if target >= 0 else 1
    if b == B_ENUMERATE and (nargs < 1 or nargs > 2 or names > 2) or b == B_ZIP and (nargs < 2 or nargs > 3
                                                                                      or names != 1 and names != nargs):
        return fail_tok(err, toks, tree.tok[it], tree.tok[it], E_UNSUPPORTED, errors.C_BUILTIN_FORM)
    at = tree.tok[it]
    tree.kind[it] = N_PASS  # consumed
    k = hidden(toks, st, at, 4)
    ys = (hidden(toks, st, at, 0), hidden(toks, st, at, 1), hidden(toks, st, at, 2))
    a = tree.first[it]
    start = tree.next[a] if b == B_ENUMERATE else -1
    lists = 1 if b == B_ENUMERATE else nargs
    first_stmt = -1
    last = -1
    x = a
    for j in range(lists):  # ys_j = the j-th iterable
        nxt = tree.next[x]
        s = kids(tree, node(tree, st, N_ASSIGN, NO_TYPE, ys[j], 0), x, -1, -1)
        if last < 0:
            first_stmt = s
        else:
            chain(tree, last, s)
        last = s
        x = nxt
    if start >= 0:  # enumerate's start, evaluated once
        last = chain(tree, last, kids(tree, node(tree, st, N_ASSIGN, NO_TYPE, ys[1], 0), start, -1, -1))
        start = name(tree, st, ys[1])
    last = chain(tree, last, kids(tree, node(tree, st, N_ASSIGN, NO_TYPE, k, 0), int_lit(tree, st, at, -1), -1, -1))
    cond = -1
    for j in range(lists):  # k + 1 < len(ys_j) [and ...]
        more = kids(tree, node(tree, st, N_BINARY, BIN_ADD, at, 0), name(tree, st, k), int_lit(tree, st, at, 1), -1)
        size = builtin_call(tree, toks, st, B_LEN, at, name(tree, st, ys[j]), -1)
        test = kids(tree, node(tree, st, N_COMPARE, 0, at, 0), more, kids(tree, node(tree, st, N_CMP_LINK, CMP_LT, at, 0),
                                                                          size, -1, -1), -1)  # fmt: skip
        cond = test if cond < 0 else kids(tree, node(tree, st, N_BOOLOP, BOOL_AND, at, 0), cond, test, -1)
    loop = kids(tree, node(tree, st, N_WHILE, 0, tree.tok[n], 0), cond, body, -1)
    chain(tree, last, loop)
    step = kids(tree, node(tree, st, N_AUGASSIGN, BIN_ADD, k, 0), int_lit(tree, st, at, 1), -1, -1)
    rest = tree.first[body]
    tree.first[body] = step
    last = step
    values = -1  # the value each target name takes, in order (siblings)
    vlast = -1
    for j in range(lists + (1 if b == B_ENUMERATE else 0)):
        if b == B_ENUMERATE and j == 0:
            v = _index(tree, st, k, start, at)
        else:
            v = subscript(tree, st, at, name(tree, st, ys[0] if b == B_ENUMERATE else ys[j]), name(tree, st, k))
        if values < 0:
            values = v
        else:
            chain(tree, vlast, v)
        vlast = v
    if target < 0:  # one name: the tuple
        tup = node(tree, st, N_TUPLE, 0, tree.tok[n], 0)
        tree.first[tup] = values
        last = chain(tree, last, kids(tree, node(tree, st, N_ASSIGN, NO_TYPE, tree.tok[n], 0), tup, -1, -1))
    else:
        x = tree.first[target]
        v = values
        while x != -1:
            nxt_x, nxt_v = tree.next[x], tree.next[v]
            if tree.kind[x] == N_TUPLE:
                s = node(tree, st, N_UNPACK, 0, tree.tok[x], 0)
                kids(tree, s, x, v, -1)
            else:
                s = kids(tree, node(tree, st, N_ASSIGN, NO_TYPE, tree.tok[x], 0), v, -1, -1)
            last = chain(tree, last, s)
            x, v = nxt_x, nxt_v
    tree.next[last] = rest
    tree.next[body] = els  # the while's else, if any
    tree.kind[n] = N_BLOCK
    tree.op[n] = 0
    tree.first[n] = first_stmt
    return 0
