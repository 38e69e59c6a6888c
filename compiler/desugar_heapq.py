"""Desugaring, heapq's nlargest / nsmallest with key= (a part of compiler/desugar.py's pass, called
by compiler/desugar_calls.py; kernel bodies):

    nlargest(n, xs, key=f)      sorted(xs, key=f, reverse=True)[:max(n, 0)]
    nsmallest(n, xs, key=f)     sorted(xs, key=f)[:max(n, 0)]

CPython documents both as these equivalents (its heap-based bodies give the same elements in
the same order: equal keys keep their first order); sorted's key= form is
compiler/desugar_keyed.py's, f a one-parameter lambda or a function's name.  `heapq.nlargest`
and `from heapq import nlargest [as x]` (imported at module level: inside a function, key= stays
a located error) both; compiler/preludes.py appends the prelude function only for a call
without key=; n is evaluated after xs and f (CPython: before), which only a
side effect in n could tell.
"""

from __future__ import annotations

import numpy as np

from gpucc.compiler import errors
from gpucc.compiler.desugar_keyed import keyed
from gpucc.compiler.desugar_nodes import builtin_call, has_kwargs, int_lit, keyword_named, kids, no_room, node, room
from gpucc.compiler.errors import E_UNSUPPORTED
from gpucc.compiler.modules import MEMBERS, MOD_HEAPQ, find_import, import_module
from gpucc.compiler.nodes import N_CALL, N_KWARG, N_NAME, N_SLICE
from gpucc.compiler.parser_util import fail_tok
from gpucc.compiler.scope import B_MAX, B_REVERSED, B_SORTED
from gpucc.contract.jitable import nrt_free

W_NLARGEST, W_NSMALLEST = (np.frombuffer(w, dtype=np.uint8) for w in (b"nlargest", b"nsmallest"))
NLARGEST, NSMALLEST = MEMBERS.index("nlargest"), MEMBERS.index("nsmallest")
NOT_HEAPQ = -1  # heapq_imported, heapq_method: no nlargest / nsmallest with keywords
SLICE_STOP = 2  # a SLICE's op: its parts given (1 start, 2 stop)


@nrt_free
def _largest(src, toks, tree, n):
    """1 for node n's token spelled nlargest, 0 nsmallest, else NOT_HEAPQ."""
    if keyword_named(src, toks, tree, n, W_NLARGEST):
        return 1
    return 0 if keyword_named(src, toks, tree, n, W_NSMALLEST) else NOT_HEAPQ


@nrt_free
def heapq_imported(src, toks, tree, n):
    """CALL n with keywords of a name `from heapq import nlargest [as x]` binds at module level:
    1 nlargest, 0 nsmallest; else NOT_HEAPQ."""
    t = tree.tok[n]
    imp = find_import(src, toks, tree, toks.start[t], toks.end[t], 0) if has_kwargs(tree, n) else -1
    if imp < 0 or import_module(tree, imp) != MOD_HEAPQ:
        return NOT_HEAPQ
    return 1 if tree.val[imp] == NLARGEST else 0 if tree.val[imp] == NSMALLEST else NOT_HEAPQ


@nrt_free
def heapq_method(src, toks, tree, n):
    """METHOD n: 1 for `heapq.nlargest(...)` with keywords (heapq, or its alias, imported at
    module level), 0 nsmallest, else NOT_HEAPQ."""
    obj = tree.first[n]
    if not has_kwargs(tree, n) or tree.kind[obj] != N_NAME:
        return NOT_HEAPQ
    s, e = toks.start[tree.tok[obj]], toks.end[tree.tok[obj]]
    imp = find_import(src, toks, tree, s, e, 0)
    if imp < 0 or tree.val[imp] >= 0 or import_module(tree, imp) != MOD_HEAPQ:
        return NOT_HEAPQ
    return _largest(src, toks, tree, n)


@nrt_free
def keyed_heapq(src, toks, tree, st, n, count, largest, err):
    """CALL or METHOD n of nlargest (largest 1) / nsmallest with key=, its arguments from node
    count (n, xs, key=f): n becomes the slice of the module docstring.  0, or -1."""
    xs = tree.next[count]
    if xs == -1 or tree.kind[count] == N_KWARG or tree.kind[xs] == N_KWARG:
        return fail_tok(err, toks, tree.tok[n], tree.tok[n], E_UNSUPPORTED, errors.C_KWARGS)
    if not room(tree, toks, st):
        return no_room(toks, tree, n, err)
    tree.first[n] = xs  # keyed reads n's children: xs, key=
    ordered = node(tree, st, N_CALL, 0, tree.tok[n], 0)
    if keyed(src, toks, tree, st, ordered, n, xs, B_REVERSED if largest == 1 else B_SORTED, err) < 0:
        return -1
    if not room(tree, toks, st):
        return no_room(toks, tree, n, err)
    stop = builtin_call(tree, toks, st, B_MAX, tree.tok[n], count, int_lit(tree, st, tree.tok[n], 0))
    tree.kind[n] = N_SLICE
    tree.op[n] = SLICE_STOP
    tree.val[n] = 0
    kids(tree, n, ordered, stop, -1)
    return 0
