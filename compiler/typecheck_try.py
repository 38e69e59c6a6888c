"""Type checker, exceptions: the walk of a `try` statement (definite assignment and
reachability through its clauses) and `raise` (a part of phase 3, compiler/typecheck.py's walk
calls these).  Kernel bodies.

A TRY frame walks its body, its else clause (from the body's end), each except clause (from
the state before the try: any instruction of the body may have raised) and its finally (from
there too, as exceptions reach it).  What follows the statement is reached from the body's or
else's end or a handler's end, and then only if the finally's end is reached; a name is
definitely assigned there when it is at every such end, or in the finally.
`return`, `break` or `continue` leaving a try that has a finally, or inside the finally, is a
located error (C_FINALLY_EXIT): the finally's copies run only on the normal and the
exceptional path (compiler/codegen_try.py).
"""

from __future__ import annotations

from gpucc.compiler import errors
from gpucc.compiler.errors import E_RERAISE, E_UNSUPPORTED
from gpucc.compiler.nodes import N_CALL, N_EXCEPT, N_FINALLY, N_NAME, N_TRY, N_TRY_ELSE
from gpucc.compiler.scope import same_name
from gpucc.compiler.narrowing import set_current
from gpucc.compiler.typecheck_base import ALL, S_A, S_B, S_C, S_NODE, S_STATE, ZERO, node_fail
from gpucc.compiler.typecheck_expr import type_expr
from gpucc.contract.jitable import nrt_free

# a TRY frame's phase (S_STATE) after FRESH (0), and the clause it walks (S_A); its masks row
# and S_B / S_C as an IF's (compiler/typecheck.py MASK_BEFORE, MASK_JOIN, LIVE_AT_JOIN, LIVE_BEFORE)
T_BODY, T_ELSE, T_HANDLER, T_FINALLY = 1, 2, 3, 4
TRY_CLAUSE = S_A
LIVE_AT_JOIN = S_B
LIVE_BEFORE = S_C
MASK_BEFORE, MASK_JOIN = 0, 1


@nrt_free
def clause_of(tree, n, k):
    """TRY n's first clause of kind k (EXCEPT, TRY_ELSE, FINALLY), or -1."""
    c = tree.next[tree.first[n]]
    while c != -1 and tree.kind[c] != k:
        c = tree.next[c]
    return c


@nrt_free
def _push(stk, sp, n, toks, tree, err):
    """A fresh frame for block n at row sp (compiler/typecheck.py's push_frame)."""
    if sp >= stk.shape[0]:
        return node_fail(err, errors.E_NESTING_TOO_DEEP, toks, tree, n, stk.shape[0])
    stk[sp, S_NODE] = n
    stk[sp, S_STATE] = 0
    return sp + 1


@nrt_free
def step_try(n, top, mask, live, toks, tree, types, scratch, err):
    """TRY frame top, visited with (mask, live) at the end of the part it walked last: push its
    next part, or pop it (type[n]: whether control continues after it).  Returns (sp, mask,
    live): the new stack size (-1: err set) and the state the pushed part starts from."""
    stk, masks = scratch.walk, scratch.masks
    phase = stk[top, S_STATE]
    if phase == 0:
        masks[top, MASK_BEFORE] = mask
        masks[top, MASK_JOIN] = ALL
        stk[top, LIVE_AT_JOIN] = 0
        stk[top, LIVE_BEFORE] = live
        stk[top, S_STATE] = T_BODY
        stk[top, TRY_CLAUSE] = n
        return _push(stk, top + 1, tree.first[n], toks, tree, err), mask, live
    clause = -1
    if phase == T_BODY:  # the else clause goes on from the body's end
        clause = clause_of(tree, n, N_TRY_ELSE)
        if clause != -1:
            stk[top, S_STATE] = T_ELSE
            stk[top, TRY_CLAUSE] = clause
            return _push(stk, top + 1, tree.first[clause], toks, tree, err), mask, live
    if phase <= T_HANDLER:  # the end of the body, the else or a handler joins; the next handler
        masks[top, MASK_JOIN] &= mask
        stk[top, LIVE_AT_JOIN] |= live
        clause = clause_of(tree, n, N_EXCEPT) if phase != T_HANDLER else tree.next[stk[top, TRY_CLAUSE]]
        # Optional narrowing (compiler/narrowing.py) proves nothing in a handler, a finally or
        # after the try: an exception may leave the body at any point
        set_current(scratch, ZERO)
        if clause != -1 and tree.kind[clause] == N_EXCEPT:
            stk[top, S_STATE] = T_HANDLER
            stk[top, TRY_CLAUSE] = clause
            return _push(stk, top + 1, tree.first[clause], toks, tree, err), masks[top, MASK_BEFORE], stk[top, LIVE_BEFORE]
        clause = clause_of(tree, n, N_FINALLY)
        if clause != -1:  # reached by every path: from the state before the try
            stk[top, S_STATE] = T_FINALLY
            stk[top, TRY_CLAUSE] = clause
            return _push(stk, top + 1, tree.first[clause], toks, tree, err), masks[top, MASK_BEFORE], stk[top, LIVE_BEFORE]
        after, go_on = masks[top, MASK_JOIN], stk[top, LIVE_AT_JOIN]
    else:  # the finally walked
        set_current(scratch, ZERO)
        go_on = stk[top, LIVE_AT_JOIN] & live
        after = masks[top, MASK_JOIN] | mask if go_on else ALL
    types.type[n] = go_on
    return top, after, go_on


@nrt_free
def finally_exit(n, lo, top, toks, tree, scratch, err):
    """A return (lo -1), break or continue (lo: its loop's row) at walk row top: -1 (err set) if
    it would leave a try that has a finally, or is inside its finally; else 0."""
    stk = scratch.walk
    for j in range(lo + 1, top):
        t = stk[j, S_NODE]
        if tree.kind[t] == N_TRY and clause_of(tree, t, N_FINALLY) != -1:
            return node_fail(err, E_UNSUPPORTED, toks, tree, n, errors.C_FINALLY_EXIT)
    return 0


@nrt_free
def check_raise(n, src, toks, tree, types, scope, mask, scratch, top, err):
    """`raise E(args)` (the arguments are evaluated: typed, any type), `raise E`; `raise` and
    `raise e` raise again what the innermost except clause around it caught (e: its `as`
    name): E_RERAISE outside one, or in a finally inside it.  Returns 0, -1 or a widen request."""
    c = tree.first[n]
    if tree.op[n] >= 0:
        r = 0
        a = tree.first[c] if c != -1 and tree.kind[c] == N_CALL else -1
        while a != -1 and r >= -1:
            t = type_expr(a, 0, 0, src, toks, tree, types, scope, mask, scratch, top + 1, err)
            r = min(r, t) if t < 0 else r
            a = tree.next[a]
        return r
    stk = scratch.walk
    j = top - 1
    while j >= 0:
        t = stk[j, S_NODE]
        if tree.kind[t] == N_TRY and (stk[j, S_STATE] == T_HANDLER or stk[j, S_STATE] == T_FINALLY):
            break
        j -= 1
    if j < 0 or stk[j, S_STATE] == T_FINALLY:
        return node_fail(err, E_RERAISE, toks, tree, n if c == -1 else c, 0)
    if c != -1:  # `raise e`: e must be the clause's name
        e = tree.val[stk[j, TRY_CLAUSE]]
        if tree.kind[c] != N_NAME or e < 0 or not same_name(src, toks.start[e], toks.end[e], toks.start[tree.tok[c]],
                                                            toks.end[tree.tok[c]]):  # fmt: skip
            return node_fail(err, E_RERAISE, toks, tree, c, 0)
    return 0
