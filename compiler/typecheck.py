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
continue keep the masks and reachability; try and raise: compiler/typecheck_try.py); simple
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
    E_NESTING_TOO_DEEP,
    E_SYNTAX,
    E_TOO_MANY_LOCALS,
    E_TYPE_MISMATCH,
)
from gpucc.compiler.limits import MAX_LOCALS, MAX_NESTING
from gpucc.compiler.narrowing import (
    NARROW_WIDTH,
    after_statement,
    enter_loop,
    join_branches,
    leave_loop,
    open_body,
    open_else,
    open_loop_else,
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
    N_WHILE,
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
    L_TYPE,
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
from gpucc.compiler.typecheck_counter import spare_prelude
from gpucc.compiler.typecheck_expr import type_expr
from gpucc.compiler.typecheck_infer import CALLEE_REQUEST, CHECKED, CHECKING, UNCHECKED, ready
from gpucc.compiler.typecheck_stmt import (
    bind_target,
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
    VERSIONS_WIDTH,
    bind_versions,
    clear_versions,
    mark_split,
    split_request,
)
from gpucc.compiler.typerules import LIST_INT, element_type, is_integral, is_sized
from gpucc.contract.jitable import nrt_free
from gpucc.contract.valuetypes import T_INT, T_NONE

# a statement frame's state (S_STATE): just pushed; its body (then-branch) walked; its else-branch walked
FRESH, IN_BODY, IN_ELSE = range(3)
# a BLOCK frame, after S_NODE and S_STATE:
BLOCK_NEXT = S_A  # the next statement to check
# an IF / loop frame, after S_NODE and S_STATE (its definite-assignment masks: the masks row
# of the same index, Scratch.masks: uint64[scratch_rows, MASK_WIDTH]; the columns after these
# two are compiler/narrowing.py's):
LIVE_AT_JOIN = S_B  # control reaches the join from inside: the then-branch's end; a break
LIVE_BEFORE = S_C  # control reaches the statement
MASK_BEFORE = 0  # the mask before the statement (its body starts from it)
MASK_JOIN = 1  # the AND of the masks where control joins from inside (as LIVE_AT_JOIN)
MASK_WIDTH = VERSIONS_WIDTH  # narrowing.py's columns, then typecheck_versions.py's


@nrt_free
def is_loop(k):
    return k == N_WHILE or k == N_FOR_RANGE or k == N_FOR_LIST


@nrt_free
def push_frame(walk, sp, n, toks, tree, err):
    """Push a fresh frame for statement n at sp; returns sp + 1, or -1 with err set."""
    if sp >= walk.shape[0]:
        return node_fail(err, E_NESTING_TOO_DEEP, toks, tree, n, MAX_NESTING)
    walk[sp, S_NODE] = n
    walk[sp, S_STATE] = FRESH
    return sp + 1


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
def _step_block(n, top, live, toks, tree, types, scratch, err):
    """BLOCK frame top: push its next statement, or pop it at its end (type[n]: whether
    control reaches it).  Returns the new stack size, or -1 with err set."""
    stk = scratch.walk
    if stk[top, S_STATE] == FRESH:
        stk[top, S_STATE] = IN_BODY
        stk[top, BLOCK_NEXT] = tree.first[n]
    c = stk[top, BLOCK_NEXT]
    if c == -1:
        types.type[n] = live
        return top
    stk[top, BLOCK_NEXT] = tree.next[c]
    return push_frame(stk, top + 1, c, toks, tree, err)


@nrt_free
def _open_branches(n, top, src, toks, tree, types, scope, mask, live, depth, scratch, err):
    """IF / loop frame top, fresh: check its header (the condition, the range arguments or
    the list: their errors are recorded, the walk goes on), bind a for loop's variable, and
    push the body.  Returns (sp, mask, depth) for the body: sp the new stack size, or -1 (the
    walk ends, err set) or a widen request (-2 - v)."""
    k = tree.kind[n]
    if k == N_WHILE:  # its condition runs again after its body
        enter_loop(n, tree, types, scratch, top + 1)
    if k == N_FOR_RANGE:
        r = _range_header(n, src, toks, tree, types, scope, mask, scratch, top + 1, err)
    elif k == N_FOR_LIST:
        r = _list_header(n, src, toks, tree, types, scope, mask, scratch, top + 1, err)
    else:  # the condition: only its truth is used
        r = type_expr(tree.first[n], 1, 0, src, toks, tree, types, scope, mask, scratch, top + 1, err)
    if r <= -2:
        return r, mask, depth
    if k == N_FOR_RANGE or k == N_FOR_LIST:
        r = _bind_loop_variable(n, r, depth, toks, tree, types, scope, scratch, top + 1, err)
        if r < 0:
            return r, mask, depth
        depth += 1
        enter_loop(n, tree, types, scratch, top + 1)
    open_body(n, top, src, toks, tree, types, scope, scratch, top + 1)
    stk, masks = scratch.walk, scratch.masks
    masks[top, MASK_BEFORE] = mask
    masks[top, MASK_JOIN] = ALL
    stk[top, LIVE_AT_JOIN] = 0
    stk[top, LIVE_BEFORE] = live
    if k == N_FOR_LIST and tree.op[n] == 1:
        mask |= target_bits(tree, types, loop_target(tree, n), stk, top + 1)
    elif k == N_FOR_RANGE or k == N_FOR_LIST:
        mask |= bit(types.slot[n])
    stk[top, S_STATE] = IN_BODY
    return push_frame(stk, top + 1, body_of(tree, n), toks, tree, err), mask, depth


@nrt_free
def loop_target(tree, n):
    """The target TUPLE of `for a, b in xs` (FOR_LIST n with op 1): after the body."""
    return tree.next[tree.next[tree.first[n]]]


@nrt_free
def body_of(tree, n):
    """The body of IF / loop n: the child after its header (the condition, the list, or
    FOR_RANGE's op[n] range arguments)."""
    c = tree.first[n]
    for _ in range(tree.op[n] if tree.kind[n] == N_FOR_RANGE else 1):
        c = tree.next[c]
    return c


@nrt_free
def _range_header(n, src, toks, tree, types, scope, mask, scratch, sp, err):
    """`for x in range(args)`: op[n] integral arguments.  The loop variable's type (int), or
    a widen request."""
    c = tree.first[n]
    for _ in range(tree.op[n]):
        t = type_expr(c, 0, 0, src, toks, tree, types, scope, mask, scratch, sp, err)
        if t <= -2:
            return t
        if t >= 0 and not is_integral(unboxed(tree, types, c)):
            expr_fail_types(err, E_TYPE_MISMATCH, toks, tree, c, T_INT, t)
        c = tree.next[c]
    return T_INT


@nrt_free
def _list_header(n, src, toks, tree, types, scope, mask, scratch, sp, err):
    """`for x in xs`: a list, a str or a tuple of fields of one type.  The loop variable's type
    (the element type; int where xs failed to check), or a widen request."""
    c = tree.first[n]
    t = type_expr(c, 0, 0, src, toks, tree, types, scope, mask, scratch, sp, err)
    if t <= -2:
        return t
    t = unboxed(tree, types, c) if t >= 0 else t
    if t >= 0 and is_sized(t) and element_type(t) >= 0:
        return element_type(t)
    if t >= 0:
        expr_fail_types(err, E_TYPE_MISMATCH, toks, tree, c, LIST_INT, t)
    return T_INT


@nrt_free
def _bind_loop_variable(n, et, depth, toks, tree, types, scope, scratch, sp, err):
    """For loop n at for-loop nesting depth: its variable gets (or has) type et (a target's
    names: typecheck_stmt.bind_target, walk stack rows from sp); its 3 hidden slots come
    after the named locals (val[n]: the first).  Returns 0, -1 with err set (the walk ends)
    or a request to check again."""
    locs, v = scratch.locs, types.slot[n]
    if tree.kind[n] == N_FOR_LIST and tree.op[n] == 1:
        r = bind_target(loop_target(tree, n), et, toks, tree, types, scope, scratch, sp, err)
        if r < 0:
            return r
    elif locs[v, L_TYPE] < 0:
        locs[v, L_TYPE] = et
    elif locs[v, L_TYPE] != et:
        return node_fail_types(err, E_TYPE_MISMATCH, toks, tree, n, locs[v, L_TYPE], et)
    tree.val[n] = scope.nloc + 3 * depth
    if scope.nloc + 3 * (depth + 1) > MAX_LOCALS:
        return node_fail(err, E_TOO_MANY_LOCALS, toks, tree, n, MAX_LOCALS)
    return 0


@nrt_free
def _open_else(n, top, mask, live, toks, tree, scratch, err):
    """IF frame top, its then-branch walked: that branch's end joins; the else-branch (if
    any: pushed) starts from before the if.  Returns (sp, mask, live) for the else-branch."""
    stk, masks = scratch.walk, scratch.masks
    masks[top, MASK_JOIN] = mask
    stk[top, LIVE_AT_JOIN] = live
    stk[top, S_STATE] = IN_ELSE
    open_else(top, scratch)
    els = tree.next[tree.next[tree.first[n]]]
    sp = top + 1 if els == -1 else push_frame(stk, top + 1, els, toks, tree, err)
    return sp, masks[top, MASK_BEFORE], stk[top, LIVE_BEFORE]


@nrt_free
def _open_loop_else(n, top, mask, live, toks, tree, scratch, err):
    """Loop frame top, its body walked: its `else:` starts where the loop ends without a break
    (from before it, as the body may run no time; never after `while True`).  Returns (sp,
    mask, live) for the else-branch; its breaks (MASK_JOIN, LIVE_AT_JOIN) join after it."""
    stk, masks = scratch.walk, scratch.masks
    stk[top, S_STATE] = IN_ELSE
    forever = tree.kind[n] == N_WHILE and is_const_true(tree, tree.first[n])
    open_loop_else(top, forever, scratch)
    sp = push_frame(stk, top + 1, loop_else(tree, n), toks, tree, err)
    if forever:
        return sp, ALL, 0
    return sp, masks[top, MASK_BEFORE], stk[top, LIVE_BEFORE]


@nrt_free
def _join_branches(n, top, mask, live, tree, scratch):
    """IF / loop frame top, its branches walked: (mask, live) after the statement.  An if
    joins its two branches, a loop's else its end and the loop's breaks; `while True` is left
    only where it breaks; other loops may run their body no time."""
    stk, masks = scratch.walk, scratch.masks
    k = tree.kind[n]
    join_branches(n, top, tree, scratch)
    if k == N_IF or loop_else(tree, n) >= 0:
        return mask & masks[top, MASK_JOIN], live | stk[top, LIVE_AT_JOIN]
    if k == N_WHILE and is_const_true(tree, tree.first[n]):
        return masks[top, MASK_JOIN], stk[top, LIVE_AT_JOIN]
    return masks[top, MASK_BEFORE], stk[top, LIVE_BEFORE]


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
