"""Type checker: names, types, definite assignment and reachability of one unit (phase 3).

`typecheck` is a kernel body (numba subset, no recursion: explicit stacks).  It reads the
parser's AST (compiler/nodes.py) and fills, for the code generator:

    type[i]   expressions: contract.typecodes code.  Statements: 1 if control can continue after
              the statement, 0 if it cannot (return/break/continue, or an if/loop no path
              leaves); BLOCK: 1 if control can reach its end
    slot[i]   NAME / ASSIGN / AUGASSIGN / FOR_RANGE target: local slot; PARAM: its index;
              CALL: unit function index; FUNCDEF: its function index
    val[i]    FOR_RANGE: the first of its 3 hidden slots (counter, stop, step)

and the function table `fn` (compiler/scope.py columns).  Hidden loop slots come after the
named locals, 3 per for-loop nesting level (sibling loops share them), then the slots of
comprehensions (compiler/comp_scope.py, which binds their names before the walk).

Types are exact: int and bool never convert implicitly (so results print as CPython's),
except that `and`/`or` of mixed types is accepted where only its truth value is used
(conditions, operands of `not`).  Definite assignment is a uint64 bitmask per point
(bit = slot); unreachable points have all bits set.

This module walks a function's statements (`check_function`: blocks, if / loops, break and
continue keep the masks and reachability; the walk's frames: compiler/typecheck_frames.py; try
and raise: compiler/typecheck_try.py); simple
statements are typed by the handlers of compiler/typecheck_stmt.py, expressions by
compiler/typecheck_expr.py.
"""

from __future__ import annotations

from gpucc.compiler.arrays import ERR_CODE, Scope, clear_error, fail
from gpucc.compiler.comp_scope import bind_comprehensions
from gpucc.compiler.errors import (
    E_BREAK_OUTSIDE_LOOP,
    E_NEVER_CALLED,
    E_RETURN_OUTSIDE_FUNCTION,
    E_SYNTAX,
    E_TYPE_MISMATCH,
)
from gpucc.compiler.limits import MAX_LOCALS
from gpucc.compiler.narrowing import (
    after_statement,
    leave_loop,
    start_function,
)
from gpucc.compiler.nodes import (
    NO_TYPE,
    N_ASSERT,
    N_ASSIGN,
    N_AUGASSIGN,
    N_BLOCK,
    N_BREAK,
    N_CONTINUE,
    N_DELETE,
    N_DOCSTRING,
    N_ELLIPSIS,
    N_EXPR_STMT,
    N_FOR_LIST,
    N_FOR_RANGE,
    N_FUNCDEF,
    N_IF,
    N_IMPORT,
    N_MODULE,
    N_PASS,
    N_RAISE,
    N_RETURN,
    N_SETITEM,
    N_TRY,
    N_UNPACK,
)
from gpucc.compiler.scope import (
    F_IMPORT,
    F_NAME_E,
    F_NAME_S,
    F_STATE,
    F_WAITER,
    F_NLOCALS,
    F_NODE,
    F_NPARAMS,
    F_RET,
    L_PRESET,
    MODULE_ROW,
    collect_functions,
    collect_locals,
    function_body,
    loop_else,
    module_row,
)
from gpucc.compiler.typecheck_base import (  # noqa: F401 - S_*, WALK_WIDTH, scratch_rows re-exported (codegen, launchers)
    ALL,
    PRESET_REQUEST,
    S_A,
    S_B,
    S_C,
    S_NODE,
    S_STATE,
    STR_REQUEST,
    WALK_WIDTH,
    ZERO,
    bit,
    expr_fail_types,
    is_const_true,
    node_fail,
    node_fail_types,
    scratch_rows,
    unboxed,
)  # fmt: skip
from gpucc.compiler.typecheck_frames import (  # noqa: F401 - MASK_WIDTH re-exported (launchers)
    FRESH,
    IN_BODY,
    IN_ELSE,
    LIVE_AT_JOIN,
    MASK_JOIN,
    MASK_WIDTH,
    _join_branches,
    _open_branches,
    _open_else,
    _open_loop_else,
    _step_block,
    is_loop,
    push_frame,
)  # fmt: skip
from gpucc.compiler.typecheck_counter import spare_prelude
from gpucc.compiler.typecheck_expr import type_expr
from gpucc.compiler.typecheck_infer import CALLEE_REQUEST, CHECKED, CHECKING, UNCHECKED, ready
from gpucc.compiler.typecheck_stmt import (
    check_assign,
    check_augassign,
    check_delete,
    check_expression,
    check_return,
    check_setitem,
    check_unpack,
    target_bits,
)
from gpucc.compiler.typecheck_module import checking, keep_globals, limit_readable, reach, start_globals
from gpucc.compiler.typecheck_try import check_raise, finally_exit, step_try
from gpucc.compiler.typecheck_versions import (
    SPLIT_REQUEST,
    bind_versions,
    clear_versions,
    mark_split,
    split_request,
)
from gpucc.contract.jitable import nrt_free
from gpucc.contract.valuetypes import T_NONE


@nrt_free
def check_function(f, src, toks, tree, types, nf, scratch, widen, strs, err):
    """Check one function's body (statements walked in source order); sets F_NLOCALS.
    Returns 0, -1 (err set) or -2 - v: local v is assigned a float after an int, so it must
    be checked again as a float (`widen`: the bits of locals that hold floats), or
    STR_REQUEST - v: local v's `[]` meets strs (`strs`: the bits of those).  A statement
    that fails does not end the walk (its error is recorded, the first one wins): a later
    one may still widen a local the failing one reads (`[z] + floats` before `z = 0.5`)."""
    nloc = collect_locals(src, toks, tree, types, f, scratch, err)
    if nloc >= 0:
        nloc = bind_versions(src, toks, tree, types, f, nloc, scratch, err)
    if nloc < 0:
        return -1
    kind, fn, stk = tree.kind, types.fn, scratch.walk
    scope = Scope(nf, nloc, f, widen, strs)
    nslots = bind_comprehensions(src, toks, tree, types, scope, f, scratch, err)
    if nslots < 0:
        return -1
    start_function(scratch)
    mask = ZERO
    for p in range(fn[f, F_NPARAMS]):
        mask |= bit(p)
    live = 1
    depth = 0  # for-loop nesting
    max_depth = 0
    module = fn[f, F_IMPORT] == MODULE_ROW
    checking(scratch.locs, f)
    sp = push_frame(stk, 0, function_body(tree, fn, f), toks, tree, err)
    while sp > 0:
        top = sp - 1
        n = stk[top, S_NODE]
        k = kind[n]
        st = stk[top, S_STATE]
        if module and st == FRESH and k != N_BLOCK and k != N_MODULE:  # what functions may run here may read
            limit_readable(fn, nf, reach(src, toks, tree, fn, nf, n, stk, sp), mask)
        if k == N_BLOCK or k == N_MODULE:
            sp = _step_block(n, top, live, toks, tree, types, scratch, err)
        elif k == N_TRY:  # compiler/typecheck_try.py
            sp, mask, live = step_try(n, top, mask, live, toks, tree, types, scratch, err)
        elif k != N_IF and not is_loop(k):
            fresh = err[ERR_CODE] == 0
            r, mask, live = check_statement(n, src, toks, tree, types, scope, mask, live, scratch, top, err)
            if r == -1 and fresh and err[ERR_CODE] == E_TYPE_MISMATCH and (k == N_ASSIGN or k == N_UNPACK):
                r = split_request(n, top, f, src, toks, tree, types, scratch, err)  # a local that changes type
                if r <= -2:
                    clear_error(err)
            if r <= -2:
                return r
            after_statement(n, r == 0, src, toks, tree, types, scope, scratch, top + 1)
            types.type[n] = live
            sp = top
        elif st == FRESH:
            sp, mask, depth = _open_branches(n, top, src, toks, tree, types, scope, mask, live, depth, scratch, err)
            max_depth = max(max_depth, depth)
        elif k == N_IF and st == IN_BODY:
            sp, mask, live = _open_else(n, top, mask, live, toks, tree, scratch, err)
        elif st == IN_BODY and loop_else(tree, n) >= 0:
            sp, mask, live = _open_loop_else(n, top, mask, live, toks, tree, scratch, err)
        else:
            mask, live = _join_branches(n, top, mask, live, tree, scratch)
            if k == N_FOR_RANGE or k == N_FOR_LIST:
                depth -= 1
            types.type[n] = live
            sp = top
        if sp < 0:
            return sp
    if err[ERR_CODE] != 0:  # the first error: no later statement widened a local that would have saved it
        return -1
    fn[f, F_NLOCALS] = max(nloc + 3 * max_depth, nslots)
    if module:  # its locals: the globals of the unit's functions (compiler/typecheck_module.py)
        keep_globals(scratch.locs, nloc, fn, nf, mask)
    return 0


@nrt_free
def check_statement(n, src, toks, tree, types, scope, mask, live, scratch, top, err):
    """Check simple statement n (walk frame top) with its kind's handler -> (r, mask, live):
    r 0, -1 (its error recorded: the walk goes on) or -2 - v (check again with local v
    widened); mask / live after the statement."""
    k = tree.kind[n]
    r = 0
    if k == N_ASSIGN:
        r = check_assign(n, src, toks, tree, types, scope, mask, scratch, top, err)
    elif k == N_AUGASSIGN:
        r = check_augassign(n, src, toks, tree, types, scope, mask, scratch, top, err)
    elif k == N_SETITEM:
        r = check_setitem(n, src, toks, tree, types, scope, mask, scratch, top, err)
    elif k == N_EXPR_STMT or k == N_ASSERT:
        r = check_expression(n, src, toks, tree, types, scope, mask, scratch, top, err)
    elif k == N_RETURN and scratch.walk[0, S_NODE] == 0:  # in module code
        r = node_fail(err, E_RETURN_OUTSIDE_FUNCTION, toks, tree, n, 0)
    elif k == N_RETURN:
        r = finally_exit(n, -1, top, toks, tree, scratch, err)
        if r == 0:
            r = check_return(n, src, toks, tree, types, scope, mask, scratch, top, err)
    elif k == N_RAISE:
        r = check_raise(n, src, toks, tree, types, scope, mask, scratch, top, err)
    elif k == N_UNPACK:
        r = check_unpack(n, src, toks, tree, types, scope, mask, scratch, top, err)
    elif k == N_DELETE:
        r = check_delete(n, src, toks, tree, types, scope, mask, scratch, top, err)
    elif k == N_BREAK or k == N_CONTINUE:
        r = _check_loop_exit(n, top, mask, live, toks, tree, scratch, err)
    elif k != N_PASS and k != N_DOCSTRING and k != N_ELLIPSIS and k != N_FUNCDEF and k != N_IMPORT:  # module code
        # skips its functions and imports
        r = node_fail(err, E_SYNTAX, toks, tree, n, 0)
    if r < 0:
        return r, mask, live
    if k == N_ASSIGN:
        return 0, mask | bit(types.slot[n]), live
    if k == N_UNPACK:
        return 0, mask | target_bits(tree, types, tree.first[n], scratch.walk, top), live
    if k == N_RETURN or k == N_BREAK or k == N_CONTINUE or k == N_RAISE:  # no path goes on after it
        return 0, ALL, 0
    return 0, mask, live


@nrt_free
def _check_loop_exit(n, top, mask, live, toks, tree, scratch, err):
    """`break` / `continue` (walk frame top) inside a loop; a break joins the loop's exit
    with its mask and liveness.  Returns 0, or -1 with err set."""
    kind, stk = tree.kind, scratch.walk
    j = top - 1
    while j >= 0 and not (is_loop(kind[stk[j, S_NODE]]) and stk[j, S_STATE] != IN_ELSE):  # not from its else
        j -= 1
    if j < 0:
        return node_fail(err, E_BREAK_OUTSIDE_LOOP, toks, tree, n, 0)
    if finally_exit(n, j, top, toks, tree, scratch, err) < 0:
        return -1
    if kind[n] == N_BREAK:
        scratch.masks[j, MASK_JOIN] &= mask
        leave_loop(j, scratch)
        stk[j, LIVE_AT_JOIN] |= live
    return 0


@nrt_free
def typecheck(src, toks, tree, n_nodes, types, scratch, err):
    """Check one unit's syntax tree (src: the unit's bytes) and fill types (Types: fn has a
    row per function, at least) and tree.val; scratch.walk and scratch.masks have
    scratch_rows(n_nodes) rows.  Returns the number of functions, or -1 with err set."""
    type_, slot = types.type, types.slot
    for i in range(n_nodes):
        type_[i] = -1
        slot[i] = -1
    clear_versions(scratch, n_nodes)
    nf = collect_functions(src, toks, tree, types, err)
    if nf < 0:
        return -1
    start_globals(scratch.locs, types.fn, nf)
    return check_all(src, toks, tree, types, nf, scratch, err)


@nrt_free
def check_one(f, src, toks, tree, types, nf, scratch, err):
    """Check function f, again after each widening request (at most three times per local:
    each retry widens or presets one more).  Returns 0, -1 (err set) or a CALLEE_REQUEST."""
    fn = types.fn
    widen = ZERO
    strs = ZERO
    for v in range(MAX_LOCALS):  # the local table (the unit's globals after it stay)
        scratch.locs[v, L_PRESET] = -1
    inferred_ret = tree.op[fn[f, F_NODE]] == NO_TYPE
    r = -2
    while r <= -2:
        if inferred_ret:
            fn[f, F_RET] = NO_TYPE
        r = check_function(f, src, toks, tree, types, nf, scratch, widen, strs, err)
        if r == -1:
            return -1
        if r <= -2:  # the errors of this pass are moot: check again, the local widened
            clear_error(err)
        if r <= SPLIT_REQUEST:  # the locals' slots change: widen and presets found again
            mark_split(SPLIT_REQUEST - r, f, types, scratch)
            widen, strs = ZERO, ZERO
            for v in range(MAX_LOCALS):
                scratch.locs[v, L_PRESET] = -1
            continue
        if r <= CALLEE_REQUEST:
            return r
        if r <= PRESET_REQUEST:
            continue  # its type is in the local table already
        if r <= STR_REQUEST:
            strs |= bit(STR_REQUEST - r)
        elif r <= -2:
            widen |= bit(-2 - r)
    if inferred_ret and fn[f, F_RET] == NO_TYPE:  # no return gives a value
        fn[f, F_RET] = T_NONE
    return 0


@nrt_free
def check_all(src, toks, tree, types, nf, scratch, err):
    """Check every function of the unit, the module code (its last row, when it has one) first,
    and each function a call first needs before its caller (typecheck_infer.py).  Returns nf,
    or -1 with err set."""
    fn = types.fn
    m = module_row(fn, nf)
    for f in range(nf):
        fn[f, F_STATE] = CHECKED if fn[f, F_IMPORT] == 1 else UNCHECKED  # an interface stub: nothing to check
    for i in range(nf):
        root = (i + nf - 1) % nf if m >= 0 else i
        if fn[root, F_STATE] != UNCHECKED or not ready(tree, fn, root):
            continue
        f = root
        fn[f, F_WAITER] = -1  # the chain's end
        while f >= 0:
            fn[f, F_STATE] = CHECKING
            r = check_one(f, src, toks, tree, types, nf, scratch, err)
            if r == -1:
                return -1
            if r <= CALLEE_REQUEST:  # check the callee first, then f again
                g = CALLEE_REQUEST - r
                fn[g, F_WAITER] = f
                f = g
            else:
                fn[f, F_STATE] = CHECKED
                f = fn[f, F_WAITER]
    for f in range(nf):  # a Counter prelude appended by its pattern, not called (compiler/typecheck_counter.py)
        spare = fn[f, F_STATE] == UNCHECKED and spare_prelude(src, toks, tree, fn, f)
        if spare and check_one(f, src, toks, tree, types, nf, scratch, err) == 0:
            fn[f, F_STATE] = CHECKED
    for f in range(nf):
        if fn[f, F_STATE] != CHECKED:
            return fail(err, E_NEVER_CALLED, fn[f, F_NAME_S], fn[f, F_NAME_E], 0)
    return nf
