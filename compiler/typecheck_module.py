"""Type checker, module code and globals (a part of phase 3).  Kernel bodies.

A unit's module code (its statements outside functions: compiler/scope.py's last function
row) is checked first, as a function whose locals are the unit's globals.  Its local table is
then kept in Scratch.locs (rows GLOBAL .., scope.LOCS_ROWS) for the unit's functions: a name a
function neither assigns nor binds otherwise is a global, read with LOAD_GLOBAL (NAME slot
GLOBAL + its slot).  So that no function reads a global before CPython would have bound it,
function g may read global v only where v is definitely assigned at every module-code
statement that may call g (directly or through other functions: `reach`) and at the end of
module code (E_MODULE_NAME otherwise).  Those masks (`readable`, 62 globals at most) live in
g's F_ENTRY and F_MAX_STACK columns until codegen fills them (31 bits each).
"""

from __future__ import annotations

import numpy as np

from gpucc.compiler.arrays import fail
from gpucc.compiler.errors import E_MODULE_NAME
from gpucc.compiler.nodes import N_CALL, N_FUNCDEF
from gpucc.compiler.scope import F_ENTRY, F_MAX_STACK, GLOBAL, L_TYPE, find_function, find_local
from gpucc.compiler.typecheck_base import ONE, S_NODE, ZERO, push_children
from gpucc.contract.jitable import nrt_free

COUNT_ROW = 2 * GLOBAL  # Scratch.locs row: the number of globals (column 0), the function being checked (1)
NOT_GLOBAL = -3  # type_global: the name is no global
HALF = np.uint64(0x7FFFFFFF)  # the 31 bits of a mask kept in one column


@nrt_free
def direct_calls(src, toks, tree, fn, nf, root, stk, sp0):
    """The functions of the unit called in the subtree at root (a bit per row; walk rows from sp0)."""
    kind, first, next_ = tree.kind, tree.first, tree.next
    called = ZERO
    sp = sp0
    stk[sp, S_NODE] = root
    sp += 1
    while sp > sp0:
        sp -= 1
        n = stk[sp, S_NODE]
        if kind[n] == N_CALL:
            g = find_function(src, fn, nf, toks.start[tree.tok[n]], toks.end[tree.tok[n]])
            if g >= 0:
                called |= ONE << np.uint64(g)
        sp = push_children(stk, sp, first, next_, kind, n, -1 if n == root else N_FUNCDEF)
    return called


@nrt_free
def reach(src, toks, tree, fn, nf, root, stk, sp0):
    """The functions a statement at root may run: those it calls, those they call, ..."""
    reached = direct_calls(src, toks, tree, fn, nf, root, stk, sp0)
    done = ZERO
    while reached & ~done:
        for g in range(nf):
            if (reached >> np.uint64(g)) & ONE and not (done >> np.uint64(g)) & ONE:
                done |= ONE << np.uint64(g)
                reached |= direct_calls(src, toks, tree, fn, nf, fn[g, 0], stk, sp0)
    return reached


@nrt_free
def _readable(fn, g):
    return np.uint64(fn[g, F_ENTRY]) | (np.uint64(fn[g, F_MAX_STACK]) << np.uint64(31))


@nrt_free
def limit_readable(fn, nf, functions, mask):
    """The functions in `functions` may read only the globals in mask (besides their own limits)."""
    for g in range(nf):
        if (functions >> np.uint64(g)) & ONE:
            m = _readable(fn, g) & mask
            fn[g, F_ENTRY] = np.int32(m & HALF)
            fn[g, F_MAX_STACK] = np.int32((m >> np.uint64(31)) & HALF)


@nrt_free
def start_globals(locs, fn, nf):
    """Before module code is checked: no globals yet, every function may read any."""
    locs[COUNT_ROW, 0] = 0
    for g in range(nf):
        fn[g, F_ENTRY] = 0x7FFFFFFF
        fn[g, F_MAX_STACK] = 0x7FFFFFFF


@nrt_free
def keep_globals(locs, nloc, fn, nf, end_mask):
    """Module code checked: its nloc named locals become the globals; what is assigned at its
    end limits what every function reads."""
    for v in range(nloc):
        for c in range(L_TYPE + 1):
            locs[GLOBAL + v, c] = locs[v, c]
    locs[COUNT_ROW, 0] = nloc
    limit_readable(fn, nf, ~ZERO, end_mask)


@nrt_free
def checking(locs, f):
    """Function f is checked next (type_global reads its limits)."""
    locs[COUNT_ROW, 1] = f


@nrt_free
def type_global(n, src, locs, s, e, types, err):
    """NAME n (src[s:e]) read by a function: the global's type (slot[n] = GLOBAL + its slot), -1
    (E_MODULE_NAME) if the function may not read it, or NOT_GLOBAL."""
    count = locs[COUNT_ROW, 0]
    v = find_local(src, locs[GLOBAL : GLOBAL + count], count, s, e)
    if v < 0 or locs[GLOBAL + v, L_TYPE] < 0:
        return NOT_GLOBAL
    if v >= 62 or not (_readable(types.fn, locs[COUNT_ROW, 1]) >> np.uint64(v)) & ONE:
        return fail(err, E_MODULE_NAME, s, e, 0)
    types.slot[n] = GLOBAL + v
    return locs[GLOBAL + v, L_TYPE]
